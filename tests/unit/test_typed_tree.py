"""The typed tree (`typed_tree`, `BoundSelector.types`): every node's static JMS type, or DYNAMIC/NULL."""
from __future__ import annotations

import pickle

import pytest

pytest.importorskip("pyspark")
from pyspark.sql import types as ST  # noqa: E402

from jms_selector_spark.binder import bind  # noqa: E402
from jms_selector_spark.language import nodes as n
from jms_selector_spark.parsing import parse  # noqa: E402
from jms_selector_spark.language.types import JmsType as J  # noqa: E402

FLAT = {"i": "int", "b": "byte", "l": "long", "d": "double", "s": "string", "f": "boolean"}


def types_of(text, dialect="jms", schema=FLAT):
    bound = bind(parse(text, dialect=dialect), schema)
    return {repr(node): bound.types.type_of(node) for node in n.walk(bound.root)}, bound


def first(bound, cls):
    return next(x for x in n.walk(bound.root) if isinstance(x, cls))


@pytest.mark.parametrize("text, dialect, want", [
    ("i / i = 1", "jms", J.INT),
    ("i / 2 = 1", "jms", J.LONG),              # an integer literal is a long
    ("i / i = 1", "activemq", J.DOUBLE),       # ActiveMQ divides in double
    ("b + b = 1", "jms", J.INT),               # Java promotion
    ("l * d > 1", "jms", J.DOUBLE),
    ("s + 1 = 'x1'", "activemq", J.STRING),    # ActiveMQ concatenates
    ("s * 2 = 1", "jms", J.NULL),              # no value
    ("missing + 1 = 2", "jms", J.NULL),        # a property the table cannot hold
])
def test_arithmetic_has_the_type_the_rules_compute_in(text, dialect, want):
    _, bound = types_of(text, dialect)
    assert bound.types.type_of(first(bound, n.Arithmetic)) is want


def test_leaves_predicates_and_signs():
    _, bound = types_of("-b > 1 AND s LIKE 'a%' AND f AND NULL IS NULL", "activemq")
    t = bound.types.type_of
    assert t(bound.root) is J.BOOLEAN
    assert t(first(bound, n.Unary)) is J.INT              # -byte is an int (Java)
    assert t(first(bound, n.Like)) is J.BOOLEAN
    lits = [x for x in n.walk(bound.root) if isinstance(x, n.Literal)]
    assert [t(x) for x in lits] == [J.INT, J.NULL]  # ActiveMQ's 1 is an int; a LIKE pattern is no node
    assert not bound.types.reads_dynamic(bound.root)


def test_variant_properties_and_what_reads_them_are_dynamic():
    schema = ST.StructType([ST.StructField("properties", ST.VariantType()), ST.StructField("JMSType", ST.StringType())])
    bound = bind(parse("w + 1 > 2 AND JMSType = 'a'"), schema)
    t = bound.types
    plus, (left, right) = first(bound, n.Arithmetic), bound.root.operands
    assert t.type_of(plus) is J.DYNAMIC
    assert t.reads_dynamic(left) and not t.reads_dynamic(right)
    assert t.reads_dynamic(bound.root)
    assert t.type_of(left) is J.BOOLEAN


def test_functions_are_dynamic_and_declared_map_values_typed():
    _, bound = types_of("INLIST(SPLIT(s, ','), 'a')", "activemq")
    assert bound.types.type_of(bound.root) is J.DYNAMIC
    schema = ST.StructType([ST.StructField("properties", ST.MapType(ST.StringType(), ST.StringType()))])
    from jms_selector_spark.binder import Binding
    bound = bind(parse("qty + 1 > 2"), schema, Binding.of(property_types={"qty": "long"}))
    assert bound.types.type_of(first(bound, n.Arithmetic)) is J.LONG


def test_rebuilt_after_pickling():
    _, bound = types_of("i + i > 2")
    again = pickle.loads(pickle.dumps(bound))
    assert again.types.type_of(first(again, n.Arithmetic)) is J.INT
    assert len(again.types) == len(list(n.walk(again.root)))
