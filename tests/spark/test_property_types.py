"""Declared property types for string-valued properties (``property_types={"qty": "long"}``),
the MAP<STRING,STRING> layout's fix for ``qty > 4`` being always FALSE: native SQL (ANSI on and
off), the Column form, and jms_filter's fallback UDF, each against the reference interpreter fed
the values JMS ``getLongProperty`` & co. would return (Java's valueOf; NumberFormatException →
NULL)."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from conftest import sql_conf
from jms_selector_spark.semantics import javanum as jn

pytestmark = pytest.mark.spark

DECLARED = {"qty": "long", "n": "int", "small": "byte", "ratio": "double", "f": "float", "flag": "boolean"}
TEXTS = ["5", "4", "-3", "+7", " 5", "5 ", "5.0", "0x5", "١٢", "99999999999", "9223372036854775808", "abc", "", "1.5",
         "1e1", ".5", "NaN", "Infinity", "1.1", "true", "TRUE", "false", "127", "128", "1.5f", "0x1p1", None]
SELECTORS = ["qty > 4", "qty = 5", "qty BETWEEN 1 AND 10", "NOT (qty > 4)", "qty IS NULL", "n = 12", "small < 0",
             "ratio < 1.5", "ratio = 10", "f = 1.1", "f > 1", "flag", "NOT flag", "flag = TRUE", "qty + n > 0",
             "ratio * 2 = 3", "qty IN ('5')", "qty LIKE '5%'", "other > 4", "other = '5'"]


def _rows():
    rows = []
    for i, t in enumerate(TEXTS):
        props = {k: TEXTS[(i + j) % len(TEXTS)] for j, k in enumerate(DECLARED)}
        props["other"] = t
        rows.append((i, {k: v for k, v in props.items() if v is not None}))
    return rows


def _expected(sel, props, dialect):
    typed = {k: jn.java_value_of(v, DECLARED[k]) if k in DECLARED else v for k, v in props.items()}
    typed = {k: v for k, v in typed.items() if v is not None}
    return jss.evaluate(sel, properties=typed, dialect=dialect, types={k: DECLARED.get(k, "string") for k in typed})


@pytest.fixture(scope="module")
def table(spark):
    return spark.createDataFrame(_rows(), "id int, properties map<string,string>")


@pytest.mark.parametrize("dialect", ["jms", "activemq"])
def test_declared_types_native_and_column(spark, table, dialect):
    rows = _rows()
    exprs = [jss.selector_to_sql(s, table.schema, dialect=dialect, property_types=DECLARED) for s in SELECTORS]
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            got = table.selectExpr("id", *[f"{e} AS r{k}" for k, e in enumerate(exprs)]).orderBy("id").collect()
            col = table.select("id", jss.selector_to_column(SELECTORS[0], table.schema, dialect=dialect,
                                                            property_types=DECLARED).alias("c")).orderBy("id").collect()
        bad = [(SELECTORS[k], props, r[f"r{k}"], _expected(SELECTORS[k], props, dialect))
               for (i, props), r in zip(rows, got) for k in range(len(SELECTORS))
               if r[f"r{k}"] != _expected(SELECTORS[k], props, dialect)]
        assert not bad, f"ansi={ansi}: {len(bad)} differ: {bad[:8]}"
        assert [r["c"] for r in col] == [_expected(SELECTORS[0], p, dialect) for _, p in rows]
    # without declared types the map's strings never compare with numbers (JMS)
    plain = table.where(jss.selector_to_sql("qty > 4", table.schema)).count()
    assert plain == 0


def test_declared_types_through_the_fallback_udf(spark, table):
    """`'' + ratio` (Java's double formatting) has no native form: that piece runs in the
    vectorized fallback, which reads the map through the same declared types."""
    rows = _rows()
    for sel in ["qty > 4 AND '' + ratio LIKE '%'", "'' + ratio = '1.5' OR flag", "'' + f LIKE '%.%' AND NOT (n = 12)"]:
        got = sorted(r["id"] for r in jss.jms_filter(table, sel, dialect="activemq", property_types=DECLARED).collect())
        want = sorted(i for i, p in rows if _expected(sel, p, "activemq") is True)
        assert got == want, sel


def test_convert_string_expressions_through_jms_filter(spark, table):
    """ActiveMQ's prefix on the raw map strings: native where it can be, and a boolean compared
    with a string (an ActiveMQ error: UNKNOWN) in the fallback, whose pickled sub-selectors keep
    the conversion."""
    rows = _rows()
    for sel in ["convert_string_expressions:other > 4", "convert_string_expressions:qty = 5.0 OR ratio BETWEEN 1 AND 2",
                "convert_string_expressions:NOT (TRUE = other) OR qty < 0", "convert_string_expressions:flag = TRUE"]:
        got = sorted(r["id"] for r in jss.jms_filter(table, sel, dialect="activemq").collect())
        want = sorted(i for i, p in rows if jss.evaluate(sel, properties=p, dialect="activemq") is True)
        assert got == want, sel


def test_a_declared_type_on_a_non_string_column_is_an_error(spark):
    from pyspark.sql import types as T

    schema = T.StructType([T.StructField("properties", T.MapType(T.StringType(), T.LongType()))])
    with pytest.raises(jss.SelectorBindingError, match="declares 'qty' as long"):
        jss.selector_to_sql("qty > 4", schema, property_types={"qty": "long"})
    with pytest.raises(ValueError, match="expected one of"):
        jss.selector_to_sql("qty > 4", schema, property_types={"qty": "decimal"})


def test_declared_types_through_route_and_register_selector(spark, table):
    """route(**binding) and register_selector pass property_types on: native CASE arms and the
    routing UDF (a fallback subscription) read the map the same way."""
    rows = _rows()
    subs = {"big": "qty > 4", "ratio-text": "'' + ratio LIKE '1%' AND flag", "tiny": "small < 0 OR f = 1.1"}
    msgs = table.withColumn("JMSMessageID", table["id"].cast("string"))
    out = jss.route(msgs, subs, mode="topic", dialect="activemq", property_types=DECLARED)
    got = sorted((r["id"], r["subscription"]) for r in out.select("id", "subscription").collect())
    want = []
    for i, props in rows:
        hit = [name for name, sel in subs.items() if _expected(sel, props, "activemq") is True]
        want += [(i, name) for name in hit] or [(i, None)]
    assert got == sorted(want, key=lambda p: (p[0], p[1] or ""))
    table.createOrReplaceTempView("pt_messages")
    jss.register_selector(spark, "big_qty", "qty > 4", "pt_messages", property_types=DECLARED)
    got = sorted(r["id"] for r in spark.sql("SELECT id FROM pt_messages WHERE big_qty(struct(*))").collect())
    assert got == sorted(i for i, p in rows if _expected("qty > 4", p, "jms") is True)
