"""Binding selectors to table schemas: the data model (docs: guide/data-model.md), without a JVM."""
import pickle

import pytest

pytest.importorskip("pyspark")
from pyspark.sql import types as T  # noqa: E402

import jms_selector_spark as jss  # noqa: E402
from jms_selector_spark.binder import Binding, bind  # noqa: E402
from jms_selector_spark.language.types import JmsType  # noqa: E402

HEADERS = [
    T.StructField("JMSMessageID", T.StringType()),
    T.StructField("JMSTimestamp", T.LongType()),
    T.StructField("JMSType", T.StringType()),
    T.StructField("JMSPriority", T.IntegerType()),
    T.StructField("JMSDeliveryMode", T.StringType()),
]
PROPS = [
    T.StructField("weight", T.LongType()),
    T.StructField("color", T.StringType()),
    T.StructField("ratio", T.FloatType()),
    T.StructField("b", T.ByteType()),
    T.StructField("s", T.ShortType()),
    T.StructField("urgent", T.BooleanType()),
    T.StructField("price", T.DecimalType(10, 2)),
    T.StructField("qty", T.DecimalType(12, 0)),
    T.StructField("tags", T.ArrayType(T.StringType())),
]


def refs(selector, schema, **binding):
    return bind(jss.parse(selector), schema, Binding.of(**binding)).refs


def test_flat_layout_types():
    schema = T.StructType(HEADERS + PROPS)
    r = refs("weight > 1 AND color = 'x' AND ratio > 0 AND b = 1 AND s = 1 AND urgent AND price > 1 AND qty > 1", schema)
    assert {k: v.type for k, v in r.items()} == {
        "weight": JmsType.LONG, "color": JmsType.STRING, "ratio": JmsType.FLOAT, "b": JmsType.BYTE,
        "s": JmsType.SHORT, "urgent": JmsType.BOOLEAN, "price": JmsType.DOUBLE, "qty": JmsType.LONG}
    assert r["price"].conversion == "decimal" and r["weight"].path == ("weight",)


def test_headers_and_their_conversions():
    schema = T.StructType([T.StructField("JMSDeliveryMode", T.IntegerType()),
                           T.StructField("JMSTimestamp", T.TimestampType()),
                           T.StructField("msg_type", T.StringType())])
    r = refs("JMSDeliveryMode = 'PERSISTENT' AND JMSTimestamp > 0 AND JMSType = 'car'", schema,
             headers={"JMSType": "msg_type"})
    assert (r["JMSDeliveryMode"].type, r["JMSDeliveryMode"].conversion) == (JmsType.STRING, "delivery_mode")
    assert (r["JMSTimestamp"].type, r["JMSTimestamp"].conversion) == (JmsType.LONG, "epoch_millis")
    assert r["JMSType"].path == ("msg_type",) and r["JMSType"].header


def test_resolution_is_case_sensitive_and_missing_is_null():
    schema = T.StructType(HEADERS + PROPS)
    r = refs("Color = 'blue' AND nothere = 1 AND jmstype = 'x'", schema)
    assert all(ref.access == "missing" and ref.type is JmsType.NULL for ref in r.values())


def test_struct_map_and_variant_properties():
    struct = T.StructType(HEADERS + [T.StructField("properties", T.StructType(PROPS))])
    r = refs("weight > 1 AND missing = 1", struct)
    assert r["weight"].path == ("properties", "weight") and r["missing"].access == "missing"
    mapped = T.StructType(HEADERS + [T.StructField("props", T.MapType(T.StringType(), T.StringType()))])
    r = refs("weight = '1' AND JMSType = 'x'", mapped, properties="props")
    assert (r["weight"].access, r["weight"].type) == ("map", JmsType.STRING)
    assert r["JMSType"].path == ("JMSType",)
    variant = T.StructType(HEADERS + [T.StructField("properties", T.VariantType())])
    r = refs("weight > 1", variant)
    assert (r["weight"].access, r["weight"].type) == ("variant", JmsType.DYNAMIC)


def test_unselectable_column_is_a_positioned_error():
    schema = T.StructType(HEADERS + PROPS)
    with pytest.raises(jss.SelectorBindingError) as e:
        bind(jss.parse("color = 'x' AND tags = 'a'"), schema)
    assert "'tags'" in str(e.value) and "array" in str(e.value) and e.value.column == 17
    bad_map = T.StructType([T.StructField("properties", T.MapType(T.IntegerType(), T.StringType()))])
    with pytest.raises(jss.SelectorBindingError, match="map keys must be strings"):
        bind(jss.parse("a = 'x'"), bad_map)


def test_header_with_wrong_column_type_is_an_error():
    schema = T.StructType([T.StructField("JMSPriority", T.StringType())])
    with pytest.raises(jss.SelectorBindingError, match="JMSPriority needs a int column"):
        bind(jss.parse("JMSPriority > 4"), schema)


def test_bound_selectors_dialects_and_bindings_pickle():
    d = jss.ACTIVEMQ.derive(name="custom", modulo=False)
    assert pickle.loads(pickle.dumps(d)) == d
    assert pickle.loads(pickle.dumps(jss.JMS)) is jss.JMS
    b = bind(jss.parse("a = 1", dialect=d), {"a": "long"}, Binding.of({"JMSType": "t"}))
    assert pickle.loads(pickle.dumps(b)) == b


def test_a_header_column_the_dialect_cannot_select_is_not_a_property():
    schema = T.StructType(HEADERS + [T.StructField("JMSExpiration", T.LongType())])
    assert refs("JMSExpiration > 0", schema)["JMSExpiration"].access == "missing"  # jms: a property
    r = bind(jss.parse("JMSExpiration > 0", dialect="activemq"), schema).refs
    assert r["JMSExpiration"].path == ("JMSExpiration",) and r["JMSExpiration"].header
