"""The ``wso2`` and ``solace`` dialects (issue 13) through Spark: the conformance corpus
``seed-ws.jsonl`` and a generated differential, native Spark SQL against the reference
interpreter, in the flat, struct and map layouts, with ``spark.sql.ansi.enabled`` on and off;
and `jms_filter` where WSO2's AND/OR must fall back as a whole.

Every case's fragment is evaluated on every row of one table holding all the corpus's messages
(so each selector also meets every other case's message), and each value is compared with
`evaluate` on that row (TRUE / FALSE / UNKNOWN = NULL).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import jms_selector_spark as jss
from jms_selector_spark import evaluate, parse
from jms_selector_spark.translate import selector_to_sql
from jms_selector_spark.language.dialects import HEADER_TYPES
from jms_selector_spark.language.types import JmsType

from conftest import sql_conf
from oracle import decode_value

pytestmark = pytest.mark.spark

CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "seed-ws.jsonl"
MINE = ("wso2", "solace")
CHUNK = 40


def _spark_type(t: JmsType):
    from pyspark.sql import types as st

    return {JmsType.BOOLEAN: st.BooleanType(), JmsType.BYTE: st.ByteType(), JmsType.SHORT: st.ShortType(),
            JmsType.INT: st.IntegerType(), JmsType.LONG: st.LongType(), JmsType.FLOAT: st.FloatType(),
            JmsType.DOUBLE: st.DoubleType(), JmsType.STRING: st.StringType()}[t]


def _messages(layout):
    """(headers, props, types) of every corpus message the layout can hold, and the prop types."""
    out, kinds = [], {}
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        props = c["message"].get("properties", {})
        types = {k: p["type"] for k, p in props.items()}
        if layout == "flat" and set(props) & set(HEADER_TYPES):
            continue  # a flat table cannot hold a property named like a header column
        if layout == "map" and any(t != "string" for t in types.values()):
            continue  # MAP<STRING, STRING>
        for k, t in types.items():
            assert kinds.setdefault(k, t) == t, (k, t)
        out.append((c["message"].get("headers") or {}, {k: decode_value(p) for k, p in props.items()}, types))
    return out, kinds


def _frame(spark, layout, messages, kinds):
    from pyspark.sql import types as st

    fields = [st.StructField("row_id", st.IntegerType())]
    fields += [st.StructField(h, _spark_type(t)) for h, t in HEADER_TYPES.items()]
    names = sorted(kinds)
    prop_fields = [st.StructField(k, _spark_type(JmsType.parse(kinds[k]))) for k in names]
    if layout == "flat":
        fields += prop_fields
    elif layout == "struct":
        fields.append(st.StructField("properties", st.StructType(prop_fields)))
    else:
        fields.append(st.StructField("properties", st.MapType(st.StringType(), st.StringType())))
    rows = []
    for i, (heads, props, _) in enumerate(messages):
        row = (i,) + tuple(heads.get(h) for h in HEADER_TYPES)
        if layout == "flat":
            row += tuple(props.get(k) for k in names)
        elif layout == "struct":
            row += (tuple(props.get(k) for k in names),)
        else:
            row += (props,)
        rows.append(row)
    return spark.createDataFrame(rows, st.StructType(fields))


def _check(spark, df, messages, selectors, dialect):
    """Each selector's fragment on every row, against `evaluate`; returns (mismatches, values)."""
    bad, checked = [], 0
    frags = [(sel, selector_to_sql(sel, df.schema, unknown_properties="null")) for sel in selectors]
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            for start in range(0, len(frags), CHUNK):
                chunk = frags[start:start + CHUNK]
                got = {r["row_id"]: r for r in df.selectExpr(
                    "row_id", *[f"{frag} AS r{j}" for j, (_, frag) in enumerate(chunk)]).collect()}
                for i, (heads, props, types) in enumerate(messages):
                    for j, (sel, frag) in enumerate(chunk):
                        want = evaluate(sel, heads, props, types=types)
                        checked += 1
                        if got[i][f"r{j}"] is not want:
                            bad.append(f"ansi={ansi} {sel.text!r} on {heads} {props}: sql {got[i][f'r{j}']}, "
                                       f"reference {want}\n  {frag}")
    return bad, checked


@pytest.mark.parametrize("dialect", MINE)
@pytest.mark.parametrize("layout", ["flat", "struct", "map"])
def test_corpus_through_spark_sql(spark, dialect, layout):
    messages, kinds = _messages(layout)
    selectors, own = [], 0
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        try:
            selectors.append(parse(c["selector"], dialect=dialect))
        except jss.SelectorError:
            assert c[dialect] == "invalid", c["id"]
            continue
        own += 1
    df = _frame(spark, layout, messages, kinds)
    bad, checked = _check(spark, df, messages, selectors, dialect)
    assert own >= 60 and checked >= 2 * own * len(messages)
    assert not bad, f"{len(bad)}/{checked}:\n" + "\n".join(bad[:10])


@pytest.mark.parametrize("dialect", MINE)
@pytest.mark.parametrize("layout", ["flat", "struct"])
def test_generated_differential_reference_vs_native_sql(spark, dialect, layout):
    from gen import CaseGenerator

    gen = CaseGenerator(13031, dialect, headers=True)
    kinds, messages = {}, []
    for _ in range(40):
        heads, props, types = gen.message()
        props = {k: v for k, v in props.items() if kinds.setdefault(k, types[k]) == types[k]}
        messages.append((heads, props, {k: types[k] for k in props}))
    df = _frame(spark, layout, messages, kinds)
    selectors = []
    while len(selectors) < 300:
        try:
            sel = parse(gen.selector(), dialect=dialect)
        except jss.SelectorError:
            continue
        try:  # on the table's own schema: what is native there (a double in `'' + d` is not)
            selector_to_sql(sel, df.schema, unknown_properties="null")
        except jss.UnsupportedSelectorError:
            continue  # the vectorized fallback's part: tests/unit/test_seed_ws.py
        selectors.append(sel)
    bad, checked = _check(spark, df, messages, selectors, dialect)
    assert checked == 2 * len(selectors) * len(messages)
    assert not bad, f"{len(bad)}/{checked}:\n" + "\n".join(bad[:10])


def test_wso2_and_or_fall_back_as_a_whole(spark):
    """A WSO2 AND/OR with one part Spark cannot translate (string + double: Java's formatting) is
    not joined with Spark's Kleene operators: the whole AND/OR runs in the vectorized UDF."""
    from pyspark.sql import types as st

    from jms_selector_spark.compiler import compile_selector

    schema = st.StructType([st.StructField("s", st.StringType()), st.StructField("d", st.DoubleType()),
                            st.StructField("row_id", st.IntegerType())])
    df = spark.createDataFrame([("a", 1.5, 0), (None, None, 1), ("a", None, 2)], schema)
    text = "NOT (m > 1 OR s + d = 'a1.5' AND FALSE)"
    plan = compile_selector(parse(text, dialect="wso2"), df.schema).plan
    assert plan.kind == "not" and plan.parts[0].kind == "fallback"
    kept = sorted(r["row_id"] for r in jss.jms_filter(df, text, dialect="wso2").collect())
    want = [i for i, (s, d) in enumerate([("a", 1.5), (None, None), ("a", None)])
            if evaluate(text, {}, {k: v for k, v in {"s": s, "d": d}.items() if v is not None}, dialect="wso2")]
    assert kept == want


def test_every_entry_point_takes_the_dialects(spark):
    """jms_match (register), register_selector, selector_to_column and route, with wso2 and solace."""

    from jms_selector_spark import register, register_selector, route, selector_to_column

    df = spark.createDataFrame(
        [(1, None, "q", True, None, "a"), (2, 5, None, False, 7, None)],
        "id INT, JMSTimestamp BIGINT, JMSDestination STRING, JMSRedelivered BOOLEAN, SequenceNo BIGINT, color STRING")
    df.createOrReplaceTempView("seed_ws_messages")
    cases = {  # selector: (dialect, ids matched)
        "JMSTimestamp = 0 AND JMSRedelivered = FALSE AND JMSDestination IS NULL": ("wso2", [1]),
        "color <> 'x'": ("wso2", [1, 2]),
        "sn = 7": ("solace", [2]),
        "ts IS NULL AND color = 'a'": ("solace", [1]),
    }
    for k, (text, (dialect, want)) in enumerate(cases.items()):
        register(spark, dialect=dialect, name=f"seed_ws_match_{k}")
        got = [r["id"] for r in spark.sql(f"SELECT id FROM seed_ws_messages WHERE seed_ws_match_{k}("
                                          f"'{text.replace(chr(39), chr(39) * 2)}', struct(*)) ORDER BY id").collect()]
        assert got == want, (text, "jms_match", got)
        register_selector(spark, f"seed_ws_sel_{k}", text, "seed_ws_messages", dialect=dialect)
        got = [r["id"] for r in spark.sql(f"SELECT id FROM seed_ws_messages WHERE seed_ws_sel_{k}(struct(*))"
                                          " ORDER BY id").collect()]
        assert got == want, (text, "register_selector", got)
        got = [r["id"] for r in df.where(selector_to_column(text, df.schema, dialect=dialect)).orderBy("id").collect()]
        assert got == want, (text, "selector_to_column", got)
    routed = route(df, {"seq7": "sn = 7", "bad": "sn = "}, dialect="solace", order_by="id").collect()
    assert sorted((r["id"], r["subscription"]) for r in routed) == [(1, None), (2, "seq7")]
