"""Misconfigured tables raise; properties the table cannot hold warn (#17 item 3)."""
from __future__ import annotations

import logging
import pickle

import pytest

import jms_selector_spark as jss
from jms_selector_spark.binder import Binding, bind

SCHEMA = {"JMSType": "string", "msg_type": "string", "color": "string", "weight": "long"}


@pytest.mark.parametrize("options, words", [
    ({"properties": "typo"}, ["properties='typo'", "'color'", "'weight'"]),
    ({"headers": {"JMSType": "missing_col"}}, ["headers=", "'missing_col'", "'msg_type'"]),
    ({"headers": {"JMSTyp": "msg_type"}}, ["'JMSTyp' is not a JMS header", "JMSType"]),
])
def test_options_naming_absent_columns_raise(options, words):
    for call in (lambda: jss.selector_to_sql("JMSType = 'car'", SCHEMA, **options),
                 lambda: jss.selector_to_sql("", SCHEMA, **options),
                 lambda: jss.explain_filter("color = 'blue'", SCHEMA, **options)):
        with pytest.raises(jss.BindingOptionError) as info:
            call()
        assert not isinstance(info.value, jss.SelectorError)  # a configuration error, not a selector's
        for w in words:
            assert w in str(info.value)


def test_valid_options_still_work():
    assert "`msg_type`" in jss.selector_to_sql("JMSType = 'car'", SCHEMA, headers={"JMSType": "msg_type"})
    # the default properties column may be absent: the flat layout
    assert jss.selector_to_sql("weight > 1", SCHEMA) == "`weight` > 1"
    struct = {"props": "string"}  # a dict schema is flat; an explicit properties column must exist
    with pytest.raises(jss.BindingOptionError):
        jss.selector_to_sql("a > 1", struct, properties="properties")
    with pytest.raises(ValueError, match="unknown_properties must be one of"):
        jss.selector_to_sql("a > 1", SCHEMA, unknown_properties="ignore")


def test_unknown_property_policies(caplog):
    sel = "colour = 'blue' OR weight > 1"
    with caplog.at_level(logging.WARNING, logger="jms_selector_spark"):
        sql = jss.selector_to_sql(sel, SCHEMA)
    warned = [r for r in caplog.records if "colour" in r.getMessage()]
    assert len(warned) == 1 and "always NULL" in warned[0].getMessage()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="jms_selector_spark"):
        assert jss.selector_to_sql(sel, SCHEMA, unknown_properties="null") == sql
    assert not caplog.records
    with pytest.raises(jss.SelectorBindingError, match="'colour' is not in the table") as info:
        jss.selector_to_sql(sel, SCHEMA, unknown_properties="error")
    assert info.value.column == 1 and "'color'" in str(info.value)
    assert "warning   'colour' is not in the table" in jss.explain_filter(sel, SCHEMA)
    assert "warning" not in jss.explain_filter(sel, SCHEMA, unknown_properties="null")
    # headers are not properties: a missing header column is NULL without a warning
    with caplog.at_level(logging.WARNING, logger="jms_selector_spark"):
        jss.selector_to_sql("JMSPriority > 1", SCHEMA)
    assert not caplog.records


def test_binding_pickles_and_hashes_with_its_options():
    b = Binding.of({"JMSType": "msg_type"}, "props", unknown_properties="error")
    c = pickle.loads(pickle.dumps(b))
    assert c == b and hash(c) == hash(b) and c.properties_given and c.unknown_properties == "error"
    assert Binding.of() != Binding.of(properties="properties")  # explicit vs default
    assert bind(jss.parse("x = 1"), SCHEMA, Binding.of(unknown_properties="null")).refs["x"].access == "missing"
