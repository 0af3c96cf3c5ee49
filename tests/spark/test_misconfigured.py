"""Misconfigured tables raise (#17 item 3) and SQL users see binding errors (#17 item 6)."""
from __future__ import annotations

import logging

import pytest

import jms_selector_spark as jss

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(
        [("car", "blue", 3000, [1, 2], 5), ("bike", "red", 9, [], 4)],
        "JMSType string, color string, weight long, tags array<int>, JMSPriority int")


def test_every_entry_point_raises_for_options_naming_absent_columns(spark, messages):
    messages.createOrReplaceTempView("misconfigured_messages")
    for opts in ({"properties": "typo"}, {"headers": {"JMSType": "missing_col"}}):
        with pytest.raises(jss.BindingOptionError, match="columns: 'JMSType', 'color'"):
            jss.jms_filter(messages, "color = 'blue'", **opts)
        with pytest.raises(jss.BindingOptionError):
            jss.route(messages, {"blue": "color = 'blue'", "all": ""}, **opts)
        with pytest.raises(jss.BindingOptionError):
            jss.register_selector(spark, "misconfigured", "color = 'blue'", "misconfigured_messages", **opts)
        with pytest.raises(jss.BindingOptionError):
            jss.selector_to_column("color = 'blue'", messages.schema, **opts)


def test_unknown_property_warns_once_and_policies_apply(messages, caplog):
    with caplog.at_level(logging.WARNING, logger="jms_selector_spark"):
        assert jss.jms_filter(messages, "colour = 'blue' OR weight > 100").count() == 1
    assert len([r for r in caplog.records if "'colour'" in r.getMessage()]) == 1
    with pytest.raises(jss.SelectorBindingError, match="'colour'"):
        jss.jms_filter(messages, "colour = 'blue'", unknown_properties="error")
    assert jss.jms_filter(messages, "colour IS NULL", unknown_properties="null").count() == 2


def test_selector_error_with_a_message_struct(spark, messages):
    jss.register(spark)
    messages.createOrReplaceTempView("typed_messages")
    rows = spark.sql("""
        SELECT s, jms_selector_error(s) AS e1, jms_selector_error(s, struct(*)) AS e2,
               jms_match(s, struct(*)) AS m
        FROM typed_messages CROSS JOIN VALUES ('color = ''blue'''), ('tags IS NULL'), ('JMSType = AND'),
             (CAST(NULL AS STRING)) AS t(s)
        WHERE JMSType = 'car'""").collect()
    by = {r.s: r for r in rows}
    assert by["color = 'blue'"].e1 is None and by["color = 'blue'"].e2 is None and by["color = 'blue'"].m
    bad = by["tags IS NULL"]
    assert bad.e1 is None and not bad.m  # valid text, but it cannot bind to this struct
    assert bad.e2.startswith("SelectorBindingError: 'tags' refers to column 'tags' of type") and "cannot use" in bad.e2
    assert by["JMSType = AND"].e1.startswith("SelectorSyntaxError") and by["JMSType = AND"].e2 == by["JMSType = AND"].e1
    assert by[None].e1 is None and by[None].e2 is None
    # a header column of the wrong type
    typed = spark.createDataFrame([("x", 1)], "color string, JMSType int")
    typed.createOrReplaceTempView("bad_header_messages")
    e = spark.sql("SELECT jms_selector_error('JMSType = ''car''', struct(*)) AS e FROM bad_header_messages").first().e
    assert "header JMSType needs a string column" in e
