"""Duplicate and case-only-different columns (#17 item 5): names are case-sensitive whatever
spark.sql.caseSensitive says where Spark allows it; otherwise a SelectorBindingError naming the
columns and the fix — never a Spark analysis error."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss

from conftest import sql_conf

pytestmark = pytest.mark.spark


def _table(spark):
    left = spark.createDataFrame([(1, "car", 10, 1, "blue"), (2, "bike", 1, 10, "red"), (3, "van", None, 7, None)],
                                 "id int, JMSType string, weight long, WeIgHt long, color string")
    right = spark.createDataFrame([(1, "green"), (2, "red"), (3, "red")], "rid int, color string")
    return left.join(right, left.id == right.rid).drop("rid")  # two `color` columns


@pytest.mark.parametrize("case_sensitive", ["false", "true"])
def test_case_only_and_duplicate_columns(spark, case_sensitive):
    with sql_conf(spark, {"spark.sql.caseSensitive": case_sensitive}):
        df = _table(spark)
        cols = df.columns

        def ids(sel):
            out = jss.jms_filter(df, sel)
            assert out.columns == cols  # renamed back, duplicates and all
            return sorted(r[0] for r in out.collect())

        assert ids("weight > 5") == [1]
        assert ids("WeIgHt > 5") == [2, 3]
        assert ids("JMSType <> 'van'") == [1, 2]   # reads neither: the duplicates do not matter
        assert ids("weight IS NULL") == [3]
        if case_sensitive == "true":
            assert ids("weight > WeIgHt") == [1]
        else:
            with pytest.raises(jss.SelectorBindingError, match="'WeIgHt', 'weight'.*spark.sql.caseSensitive=true"):
                jss.jms_filter(df, "weight > WeIgHt")
        with pytest.raises(jss.SelectorBindingError, match="'color', which the table has 2 times"):
            jss.jms_filter(df, "color = 'red'")


@pytest.mark.parametrize("case_sensitive", ["false", "true"])
def test_column_and_sql_function_entry_points(spark, case_sensitive):
    with sql_conf(spark, {"spark.sql.caseSensitive": case_sensitive}):
        df = spark.createDataFrame([(1, 10, 1), (2, 1, 10)], "id int, weight long, WeIgHt long")
        df.createOrReplaceTempView("case_messages")
        view = jss.register_selector(spark, "heavy_view", "weight > 5", "case_messages", kind="view")
        assert view and [r.id for r in spark.sql("SELECT id FROM heavy_view").collect()] == [1]
        if case_sensitive == "true":
            assert [r.id for r in df.where(jss.selector_to_column("WeIgHt > 5", df.schema)).collect()] == [2]
            jss.register_selector(spark, "heavy_fn", "weight > 5", "case_messages")
            assert [r.id for r in spark.sql("SELECT id FROM case_messages WHERE heavy_fn(struct(*))").collect()] == [1]
        else:
            with pytest.raises(jss.SelectorBindingError, match="use jms_filter"):
                jss.selector_to_column("WeIgHt > 5", df.schema)
            with pytest.raises(jss.SelectorBindingError, match="kind='view'"):
                jss.register_selector(spark, "heavy_fn", "weight > 5", "case_messages")
        assert [r.id for r in df.where(jss.selector_to_column("id = 2", df.schema)).collect()] == [2]


def _collision_cases():
    """Conformance cases whose message has properties that differ only in case (a flat table has
    ``weight`` and ``WeIgHt`` columns) and whose selector reads one of them."""
    import json
    from pathlib import Path

    out = []
    for path in sorted((Path(__file__).parent.parent / "conformance").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            c = json.loads(line)
            props = c["message"].get("properties", {})
            lower = {}
            for name in props:
                lower.setdefault(name.lower(), []).append(name)
            twins = {n for names in lower.values() if len(names) > 1 for n in names}
            for dialect in ("jms", "activemq"):
                if c.get(dialect, "invalid") == "invalid":
                    continue
                if twins & set(jss.parse(c["selector"], dialect=dialect).identifiers):
                    out.append((c, dialect))
    return out


@pytest.mark.parametrize("case_sensitive", ["false"])  # true: Spark resolves names exactly anyway
def test_conformance_cases_with_case_only_different_properties(spark, case_sensitive):
    """Each case on a flat one-row table of its message (one job for all: a union). With
    caseSensitive=false a selector reading both twins (``country = 'UK' AND COUNTRY = …``) is
    the one Spark cannot resolve: SelectorBindingError; every other case gives the JMS answer."""
    from functools import reduce

    from pyspark.sql import functions as F
    from pyspark.sql import types as st

    from oracle import decode_value
    from test_sql_backend import HEADER_TYPES, _spark_type

    cases = _collision_cases()
    assert len(cases) >= 17, len(cases)
    bad, parts, want, tables = [], [], {}, {}
    with sql_conf(spark, {"spark.sql.caseSensitive": case_sensitive}):
        for i, (c, dialect) in enumerate(cases):
            m = c["message"]
            headers, props = m.get("headers") or {}, m.get("properties", {})
            fields = [st.StructField(h, _spark_type(HEADER_TYPES.get(h, "string"))) for h in headers]
            fields += [st.StructField(k, _spark_type(p["type"])) for k, p in props.items()]
            row = tuple(headers.values()) + tuple(decode_value(p) for p in props.values())
            key = repr((fields, row))
            if key not in tables:  # most cases share their suite's message: one table each
                tables[key] = spark.createDataFrame([row], st.StructType(fields))
            df = tables[key]
            read = set(jss.parse(c["selector"], dialect=dialect).identifiers)
            both = any(len({n for n in read if n.lower() == k.lower()}) > 1 for k in read)
            try:
                parts.append(jss.jms_filter(df, c["selector"], dialect=dialect).select(F.lit(i).alias("i")))
                want[i] = c[dialect] is True
                if both and case_sensitive == "false":
                    bad.append((c["id"], "no SelectorBindingError"))
            except jss.SelectorBindingError as exc:
                if not (both and case_sensitive == "false" and "caseSensitive=true" in str(exc)):
                    bad.append((c["id"], dialect, str(exc)))
        matched = {r.i for r in reduce(lambda a, b: a.unionAll(b), parts).collect()}
    bad += [(cases[i][0]["id"], cases[i][1], cases[i][0]["selector"], w) for i, w in want.items() if (i in matched) != w]
    assert not bad, f"{len(bad)}/{len(cases)}: {bad[:5]}"
