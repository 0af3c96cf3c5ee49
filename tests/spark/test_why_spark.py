"""`explain_message`: each subscription's answer on one row of a table is `evaluate`'s on the row's
values (read as the back ends read them), and its trace says why; `jms_filter` agrees."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss

pytestmark = pytest.mark.spark

SUBS = {
    "heavy": "weight > 2500",
    "blue": "color = 'blue'",
    "cars": "JMSType = 'car' AND JMSPriority >= 4",
    "typed": "qty + 1 = 6",
    "bad": "weight >",
    "unbound": "weight LIKE 'x%'",
}


def test_explain_message_flat_and_map(spark):
    flat = spark.createDataFrame(
        [("ID:1", "car", 4, 3000, None, 5), ("ID:2", "van", 9, 10, "blue", None)],
        "JMSMessageID string, JMSType string, JMSPriority int, weight long, color string, qty int")
    got = jss.explain_message(flat, SUBS, "ID:1")
    assert got.receivers == ["heavy", "cars", "typed"]
    assert got.deliveries["blue"].value is None
    assert [r.kind for r in got.deliveries["blue"].reasons] == ["null"]
    assert set(got.errors) == {"bad"}  # the LIKE on a long is a FALSE here, not an error
    assert got.deliveries["unbound"].reasons[0].kind == "non_string"
    text = str(got)
    assert "selected by 3 of 6 subscription(s)" in text and "  err  bad: SelectorSyntaxError" in text
    # the answers are jms_filter's on the same row
    for name, d in got.deliveries.items():
        n = jss.jms_filter(flat.where("JMSMessageID = 'ID:1'"), SUBS[name]).count()
        assert (n == 1) == d.delivered, name
    two = jss.explain_message(flat, SUBS, "ID:2")
    assert two.receivers == ["blue"]
    assert [r.kind for r in two.deliveries["cars"].reasons] == ["compared"]
    assert [r.kind for r in two.deliveries["typed"].reasons] == ["null"]

    # a MAP<STRING,STRING> of properties read with declared types
    mapped = spark.createDataFrame([("ID:9", "car", 4, {"weight": "3000", "qty": "5"})],
                                   "JMSMessageID string, JMSType string, JMSPriority int, "
                                   "properties map<string,string>")
    m = jss.explain_message(mapped, SUBS, "ID:9", property_types={"weight": "long", "qty": "int"})
    assert m.receivers == ["heavy", "cars", "typed"]
    assert m.deliveries["blue"].reasons[0].kind == "null"  # a map cannot tell an absent key from a NULL
    assert jss.explain_message(flat.drop("color"), SUBS, "ID:1").deliveries["blue"].reasons[0].kind == "missing"

    with pytest.raises(LookupError, match="no message with JMSMessageID = 'ID:404'"):
        jss.explain_message(flat, SUBS, "ID:404")
    with pytest.raises(ValueError, match="no column 'id'"):
        jss.explain_message(flat, SUBS, "ID:1", id_column="id")
