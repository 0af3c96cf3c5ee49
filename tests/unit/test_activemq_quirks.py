"""Issue #18 front-end pieces: the LIKE escape rewrite, the prefix, reserved words, literals; and
the lint helper for string properties compared with numbers (issue #17 item 7)."""
from __future__ import annotations

import pickle
import random

import pytest

import jms_selector_spark as jss
from jms_selector_spark.analysis.string_compare import string_number_comparisons
from jms_selector_spark.binder import Binding, bind
from jms_selector_spark.semantics.like import compile_like
from jms_selector_spark.frontend.activemq_like import BrokerLikeError, broker_like


@pytest.mark.parametrize("pattern,escape,text,match", [
    ("a☺☺", "☺", "a&3a", True), ("a☺☺", "☺", "a☺", False), ("aĀĀ", "Ā", "a\x100", True),
    ("a\t\tb", "\t", "a\x9b", True), ("a\t\tB", "\t", "a\x9b", True), ("a\x02\x025", "\x02", "a%", True),
    ("a\x02\x025", "\x02", "ab", False), ("\u2525\u2525%", "\u2525", "%25x", True), ("\u255f\u255f", "\u255f", "%5f", True),
    ("\u255f\u255f", "\u255f", "x5f", False), ("a!!", "!", "a!", True), ("a\x00\x000", "\x00", "a\x00", True),
])
def test_broker_like_reading(pattern, escape, text, match):
    p, e = broker_like(pattern, escape)
    assert compile_like(p, e).matches(text) is match
    assert broker_like(p, e) == (p, e)  # idempotent: a printed, re-parsed selector means the same


@pytest.mark.parametrize("pattern", ["a\t\t", "\t\t%", "\t\t\t\t", "a\t\t_", "\x01\x01g"])
def test_broker_like_invalid(pattern):
    with pytest.raises(BrokerLikeError):
        broker_like(pattern, pattern[-1] if pattern[-1] in "\t\x01" else pattern[1] if len(pattern) > 1 else "\t")


def test_random_patterns_round_trip_through_the_printer():
    rng = random.Random(18)
    for _ in range(2000):
        esc = rng.choice(["\t", "\x00", "☺", "Ā", "!", "\u2525", "\x0f"])
        pat = "".join(rng.choice(["a", "%", "_", esc, esc, "5", "f", "!", "B"]) for _ in range(rng.randint(0, 7)))
        sel = f"s LIKE '{pat}' ESCAPE '{esc}'"
        try:
            p = jss.parse(sel, dialect="activemq")
        except jss.SelectorError:
            continue
        again = jss.parse(p.canonical(), dialect="activemq")
        assert again.root == p.root, sel
        assert jss.parse(sel).root.pattern == pat  # jms keeps the spec meaning


def test_prefix_and_reserved_words():
    sel = jss.parse("convert_string_expressions:qty > 4", dialect="activemq")
    assert sel.dialect.convert_string_expressions and sel.canonical() == "convert_string_expressions:qty > 4"
    assert jss.evaluate(sel, properties={"qty": "5"}) is True
    assert jss.evaluate("qty > 4", properties={"qty": "5"}, dialect="activemq") is False
    assert pickle.loads(pickle.dumps(sel)).dialect == sel.dialect
    for bad in ["convert_string_expressions:", "CONVERT_STRING_EXPRESSIONS:s = 1", " convert_string_expressions:s = 1",
                "xpath IS NULL", "XQuery = 1", "a = -0x8000000000000000", "a = -01000000000000000000000"]:
        with pytest.raises(jss.SelectorError):
            jss.parse(bad, dialect="activemq")
    assert jss.evaluate("xpath IS NULL") is True  # jms: an ordinary name
    assert jss.evaluate("a = -0x7FFFFFFFFFFFFFFF", properties={"a": -(2**63) + 1}, dialect="activemq") is True
    assert jss.evaluate("'' + 1e23 = '9.999999999999999E22'", dialect="activemq") is True
    assert jss.evaluate("'' + 1e23 = '1.0E23'", dialect=jss.ACTIVEMQ.derive(jdk=21)) is True


class _String:
    def typeName(self):
        return "string"


class _MapOfStrings:  # MAP<STRING,STRING>, read by duck typing as the binder does
    keyType = valueType = _String()

    def typeName(self):
        return "map"


class _Field:
    name, dataType = "properties", _MapOfStrings()


class _Schema:
    fields = [_Field()]


def test_string_number_comparisons():
    schema = _Schema()
    found = string_number_comparisons(bind(jss.parse("qty > 4 AND color = 'red' OR 3 = w"), schema))
    assert [(c.name, c.map_layout) for c in found] == [("qty", True), ("w", True)]
    assert string_number_comparisons(bind(jss.parse("qty > 4"), schema, Binding.of(property_types={"qty": "long"}))) == []
    conv = jss.parse("convert_string_expressions:qty > 4", dialect="activemq")
    assert string_number_comparisons(bind(conv, schema)) == []
