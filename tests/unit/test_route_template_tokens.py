"""`route_templates.template`: which literals of a fragment become typed parameters (no Spark)."""
from __future__ import annotations

from jms_selector_spark.backends.spark_sql import selector_to_sql
from jms_selector_spark.spark.route_templates import template

SCHEMA = {"JMSType": "STRING", "weight": "LONG", "price": "DOUBLE", "qty": "INT", "code": "STRING"}


def _shape(selector):
    return template(selector_to_sql(selector, SCHEMA))


def test_literals_become_typed_parameters():
    a, b = _shape("JMSType = 'car' AND weight > 2500"), _shape("JMSType = 'bus' AND weight > 100")
    assert a.key == b.key and a.types == ("STRING", "INT") and (a.values, b.values) == (("car", 2500), ("bus", 100))
    big = _shape("JMSType = 'car' AND weight > 3000000000")
    assert big.types == ("STRING", "BIGINT") and big.values[1] == 3000000000 and big.key != a.key
    d = _shape("JMSType IN ('a', 'b') AND price >= 1.5E10")
    assert d.types == ("STRING", "STRING", "DOUBLE") and d.values == ("a", "b", 1.5e10)
    assert _shape("JMSType IN ('a', 'b', 'c')").key != _shape("JMSType IN ('a', 'b')").key


def test_literals_spark_needs_as_they_are_stay_in_the_template():
    like = _shape("code LIKE 'p%' AND JMSType = 'x'")
    assert like.types == ("STRING",) and like.values == ("x",)  # the pattern stays
    assert _shape("code LIKE 'q%' AND JMSType = 'x'").key != like.key
    neg = _shape("weight > -5")  # a signed number stays (Spark reads the sign as part of the literal)
    assert neg.types == () and _shape("weight > -6").key != neg.key
    assert template("CASE `a` WHEN 2 THEN 'PERSISTENT' END = decode(X'41', 'UTF-8')").values == ("A",)
    assert template("try_element_at(`p`, decode(X'6B', 'UTF-8')) = 5").values == (5,)  # a map key stays
    dec = template("CAST(`w` AS DECIMAL(20,0)) * CAST(3 AS DECIMAL(20,0)) > 7 AND `s` = decode(X'41', 'UTF-8')")
    assert dec.values == ("A",)  # no number where a DECIMAL is
    assert template("exists(`a`, x -> x = 1)") is None


def test_a_template_writes_back_the_fragment():
    frag = selector_to_sql("JMSType = 'O''Brien' AND qty * 3 > 7 AND price < 2.5", SCHEMA)
    shape = template(frag)
    out = "".join(p if isinstance(p, str) else shape.literals[p] for p in shape.pieces)
    assert out == frag and shape.values == ("O'Brien", 7, 2.5)  # 3 is read inside a CAST: kept
