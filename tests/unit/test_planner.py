"""One planner, inputs normalised once.

- `compiler.Compiled` alone decides what runs natively and what in the vectorized fallback:
  `jms_filter` / `explain_filter` read its split plan, `route` / `explain_routing` /
  `migration_report` its whole-selector reading, both from one rendering pass, so the explains of
  a filter and of a route name the same non-native piece.
- A `Selector` keeps its dialect: a ``dialect=`` that differs raises ``ValueError`` at every
  entry point that takes a selector (before #12 the argument was silently ignored).
- `binder.to_schema` reads every schema form the entry points accept into one frozen shape, and
  binding through any of them gives the same column references.
"""
from __future__ import annotations

import pyarrow as pa
import pytest
from pyspark.sql import types as st

import jms_selector_spark as jss
from jms_selector_spark.analysis.dialect_compare import TypedMessage
from jms_selector_spark.binder import Binding, bind, to_schema
from jms_selector_spark.language.schema import DataType, Field, Schema
from jms_selector_spark.language.types import JmsType
from jms_selector_spark.compiler import compile_selector
from jms_selector_spark.spark.routing import explain_routing
from jms_selector_spark.spark.routing.estate import plan_estate
from jms_selector_spark.spark.sql_functions import register_selector, selector_columns
from jms_selector_spark.spark.routing.subscriptions import normalize_subscriptions
from jms_selector_spark.language.schema import to_schema as _schema

SCHEMA = {"JMSType": "string", "s": "string", "weight": "long", "ratio": "double"}


def _fallback_pieces(explained: str) -> list:
    return [line.split(None, 1)[1] for line in explained.splitlines() if line.startswith("fallback ")]


def test_filter_and_route_name_the_same_fallback_decision():
    sel = "JMSType = 'car' AND SPLIT(s, ',') IS NOT NULL AND weight > 5"
    filtered = jss.explain_filter(sel, SCHEMA, dialect="activemq")
    routed = explain_routing(SCHEMA, {"split": sel, "plain": "JMSType = 'bus'"}, dialect="activemq")
    assert _fallback_pieces(filtered) == ["SPLIT(s, ',') IS NOT NULL"]
    assert "1 native subscriptions" in routed and "1 fallback (Arrow UDF)" in routed
    assert ("  fallback split: no native form for SPLIT(s, ',') IS NOT NULL (the UDF evaluates it where its native "
            "gate JMSType = 'car' AND weight > 5 is TRUE)") in routed.splitlines()
    # a native selector gets no such line in either
    assert _fallback_pieces(jss.explain_filter("JMSType = 'bus'", SCHEMA)) == []
    assert "fallback plain" not in routed


CASES = [
    ("jms", "JMSType = 'car' AND weight > 2500"),
    ("jms", "s LIKE 'a%b%c' OR ratio < 1.5"),
    ("jms", ""),
    ("activemq", "SPLIT(s, ',') IS NOT NULL"),
    ("activemq", "JMSType = 'car' OR REGEX('(a)\\1', s)"),
    ("activemq", "NOT (INLIST(SPLIT(s, ','), 'x') AND weight = 1)"),
    ("activemq", "s + ratio = 'x1.0'"),
    ("activemq", "weight / 0 > 1"),
    ("jms", "JMSType = 'car' AND"),  # invalid
    ("jms", "nosuch.col = 1 AND JMSType ="),  # invalid
    ("activemq", "SPLIT(s, ',') = "),  # invalid
]


@pytest.mark.parametrize("dialect", ["jms", "activemq"])
def test_route_decides_per_subscription_what_the_filter_planner_decides(dialect):
    d = jss.get_dialect(dialect)
    subs = normalize_subscriptions({f"s{i}": text for i, (dl, text) in enumerate(CASES) if dl == dialect})
    native, fallback, errors = plan_estate(subs, _schema(SCHEMA), d, Binding())
    assert native and (fallback or dialect == "jms") and errors  # each outcome is reached
    assert len(native) + len(fallback) + len(errors) == len(subs)
    for s, routed in native:
        sql = routed.whole.sql
        plan = compile_selector(s.selector, SCHEMA, dialect=d).plan
        assert plan.is_native and plan.sql == sql == jss.selector_to_sql(s.selector, SCHEMA, dialect=d)
    for s, _ in fallback:
        compiled = compile_selector(s.selector, SCHEMA, dialect=d)
        assert not compiled.plan.is_native and any(leaf.kind == "fallback" for leaf in compiled.plan.leaves())
        assert compiled.whole.kind == "fallback" and isinstance(compiled.whole.reason, jss.UnsupportedSelectorError)
        with pytest.raises(jss.UnsupportedSelectorError):
            jss.selector_to_sql(s.selector, SCHEMA, dialect=d)
    for s, err in errors:
        with pytest.raises(jss.SelectorError) as exc:
            jss.parse(s.selector, dialect=d)
        assert err == f"{type(exc.value).__name__}: {exc.value}"


# -- a dialect= that conflicts with a parsed Selector ---------------------------------------------

AMQ = jss.parse("weight / 2 = 2", dialect="activemq")

ENTRY_POINTS = {
    "evaluate": lambda sel, **kw: jss.evaluate(sel, properties={"weight": 5}, **kw),
    "selector_to_sql": lambda sel, **kw: jss.selector_to_sql(sel, SCHEMA, **kw),
    "explain_filter": lambda sel, **kw: jss.explain_filter(sel, SCHEMA, **kw),
    "lint": lambda sel, **kw: jss.lint(sel, schema=SCHEMA, **kw),
    "selector_columns": lambda sel, **kw: selector_columns(sel, SCHEMA, **kw),
    "selector_columns (list)": lambda sel, **kw: selector_columns([sel], SCHEMA, **kw),
    "TypedMessage.evaluate": lambda sel, **kw: TypedMessage.of(properties={"weight": 5}).evaluate(
        sel, kw.get("dialect")),
    # these raise before they touch Spark: no session needed
    "jms_filter": lambda sel, **kw: jss.jms_filter(None, sel, **kw),
    "selector_to_column": lambda sel, **kw: jss.selector_to_column(sel, None, **kw),
    "register_selector": lambda sel, **kw: register_selector(None, "f", sel, None, **kw),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_a_dialect_that_conflicts_with_the_selector_raises(entry):
    call = ENTRY_POINTS[entry]
    with pytest.raises(ValueError, match="parsed with dialect 'activemq', but dialect='jms' was passed"):
        call(AMQ, dialect="jms")
    with pytest.raises(ValueError, match="but dialect='jms' was passed"):
        call(AMQ, dialect=jss.JMS)


def test_the_selectors_own_dialect_is_used_when_none_or_the_same_is_given():
    # 5 / 2 is 2.5 in ActiveMQ (double division), 2 in jms: the answer shows which rules ran
    assert jss.evaluate(AMQ, properties={"weight": 5}) is False
    assert jss.evaluate(AMQ, properties={"weight": 5}, dialect="activemq") is False
    assert jss.evaluate(AMQ, properties={"weight": 5}, dialect=jss.ACTIVEMQ) is False
    assert jss.evaluate("weight / 2 = 2", properties={"weight": 5}) is True  # text: jms by default
    assert jss.selector_to_sql(AMQ, SCHEMA) == jss.selector_to_sql(AMQ.text, SCHEMA, dialect="activemq")


# -- one schema type -----------------------------------------------------------------------------

SPARK = st.StructType([
    st.StructField("JMSType", st.StringType()),
    st.StructField("JMSTimestamp", st.TimestampType()),
    st.StructField("properties", st.StructType([st.StructField("weight", st.IntegerType()),
                                                 st.StructField("price", st.DecimalType(10, 2))])),
    st.StructField("tags", st.MapType(st.StringType(), st.LongType())),
])
ARROW = pa.schema([
    ("JMSType", pa.string()),
    ("JMSTimestamp", pa.timestamp("us")),
    ("properties", pa.struct([("weight", pa.int32()), ("price", pa.decimal128(10, 2))])),
    ("tags", pa.map_(pa.string(), pa.int64())),
])


@pytest.mark.parametrize("form", ["spark", "arrow schema", "arrow struct", "Schema"])
def test_to_schema_reads_every_nested_form_the_same(form):
    given = {"spark": SPARK, "arrow schema": ARROW, "arrow struct": pa.struct(list(ARROW)),
             "Schema": to_schema(SPARK)}[form]
    schema = to_schema(given)
    assert isinstance(schema, Schema) and schema == to_schema(SPARK)
    assert to_schema(schema) is schema
    props = schema.field_types()["properties"]
    assert props.name == "struct" and props.fields[1] == Field("price", DataType("decimal", precision=10, scale=2))
    tags = schema.field_types()["tags"]
    assert (tags.keyType.name, tags.valueType.name) == ("string", "long")
    with pytest.raises(Exception):  # frozen
        schema.fields[0].name = "x"
    sel = jss.parse("JMSType = 'a' AND JMSTimestamp > 0 AND weight > 1 AND price > 2.5")
    refs = bind(sel, given, Binding()).refs
    assert dict(refs) == dict(bind(sel, SPARK, Binding()).refs)
    assert refs["JMSTimestamp"].conversion == "epoch_millis" and refs["price"].conversion == "decimal"
    sel = jss.parse("k = 1")
    ref = bind(sel, given, Binding(properties="tags")).refs["k"]
    assert (ref.access, ref.type) == ("map", JmsType.LONG)


def test_to_schema_of_a_flat_dict_keeps_the_jms_types():
    schema = to_schema({"qty": "int", "name": JmsType.STRING, "f": "float"})
    assert [(f.name, f.dataType.name, f.dataType.jms) for f in schema.fields] == [
        ("qty", "integer", JmsType.INT), ("name", "string", JmsType.STRING), ("f", "float", JmsType.FLOAT)]
    ref = bind(jss.parse("qty > 1"), {"qty": "int"}, Binding()).refs["qty"]
    assert (ref.type, ref.spark_type) == (JmsType.INT, "integer")


@pytest.mark.parametrize("bad", [["a"], "a string", 5, None])
def test_to_schema_refuses_other_forms(bad):
    with pytest.raises(TypeError, match="a schema is a Spark StructType"):
        to_schema(bad)


def test_a_spark_schema_changed_in_place_is_read_again():
    schema = st.StructType([st.StructField("a", st.LongType())])
    first = to_schema(schema)
    assert to_schema(schema) is first  # one conversion per df.schema, however many binds
    schema.add("b", st.StringType())  # pyspark's StructType.add mutates the schema
    assert [f.name for f in to_schema(schema).fields] == ["a", "b"]
    assert bind(jss.parse("b = 'x'"), schema, Binding()).refs["b"].type is JmsType.STRING


@pytest.mark.parametrize("dialect", ["activemq", "wso2"])  # wso2: AND is LEFT_FIRST, TRUE exactly when Kleene's is
def test_route_splits_a_fallback_selector_at_its_top_level_and(dialect):
    from jms_selector_spark.compiler import Plan

    def split(text):
        compiled = compile_selector(text, SCHEMA, dialect=dialect)
        gate, residual = compiled.conjuncts()
        return ([p.sql is not None and p.is_native for p in gate],
                None if residual is None else compiled.piece_text(Plan("fallback", residual.node, piece=residual)))

    assert split("JMSType = 'car' AND s + ratio = 'x1.0' AND (weight > 5 AND ratio < 2)") == (
        [True, True, True], "s + ratio = 'x1.0'")  # nested AND flattened: three native conjuncts
    assert split("s + ratio = 'x1.0' AND (weight > 5 OR s + ratio = 'y')") == (
        [], "s + ratio = 'x1.0' AND (weight > 5 OR s + ratio = 'y')")  # nothing native at the top: no gate
    assert split("NOT (JMSType = 'car' AND s + ratio = 'x1.0')") == ([], "NOT (JMSType = 'car' AND s + ratio = 'x1.0')")
    assert split("s + ratio = 'x' AND weight > 1 AND s + ratio = 'y'") == ([True], "s + ratio = 'x' AND s + ratio = 'y'")
    assert compile_selector("", SCHEMA, dialect=dialect).conjuncts() == ([], None)
