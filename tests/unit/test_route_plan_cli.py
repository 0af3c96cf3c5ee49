"""`jms-selector route-plan` and the pyspark-free part of routing (access predicates, the plan)."""
from __future__ import annotations

from jms_selector_spark.cli.commands import main
from jms_selector_spark.compiler import compile_selector
from jms_selector_spark.spark.routing import explain_routing
from jms_selector_spark.spark.routing.access import access_predicates

SCHEMA = {"JMSType": "string", "weight": "long", "color": "string", "region": "string", "code": "string"}


def _acc(sel, dialect="jms"):
    return [(a.name, a.values) for a in access_predicates(compile_selector(sel, SCHEMA, dialect=dialect))
            if not a.prefix]


def test_access_predicates_are_exactly_string_equalities_and_in_lists():
    assert _acc("JMSType = 'car' AND weight > 3") == [("JMSType", ("car",))]
    assert _acc("'car' = JMSType") == [("JMSType", ("car",))]
    assert _acc("color IN ('a', 'b', 'a') AND (region = 'x' OR region = 'y')") == [("color", ("a", "b")), ("region", ("x", "y"))]
    # not necessary conditions, or not string equality: never an access predicate
    for sel in ("NOT (color = 'a')", "color <> 'a'", "color NOT IN ('a')", "color = 'a' OR weight > 3",
                "code = 5", "weight = 5", "(color = 'a' OR region = 'b')", "color LIKE 'a%'", "color IS NULL", ""):
        assert _acc(sel) == [], sel
    assert _acc("color = 'a' AND NOT (region = 'b')", "activemq") == [("color", ("a",))]


def test_explain_routing_text():
    text = explain_routing(SCHEMA, {"a": "color = 'red' AND weight > 1", "b": "color IN ('red', 'blue')",
                                    "c": "weight > 2", "d": "color ="})
    assert text.splitlines()[0] == ("routing plan: 3 native subscriptions in 1 indexed group(s) + 1 general; "
                                    "0 fallback (Arrow UDF); 1 invalid (d: not routed)")
    assert "group on color (`color`): 2 subscriptions, 2 values, candidates per value {'red': 2, 'blue': 1}, mean 1.5" in text
    assert "evaluated per message: ~2.5 of 3" in text


def test_cli_route_plan(capsys, tmp_path):
    f = tmp_path / "subs.tsv"
    f.write_text("# name<TAB>selector\nblue\tcolor = 'blue'\nheavy\tweight > 2500\n", encoding="utf-8")
    assert main(["route-plan", "--schema", "weight:long,color:string", "-f", str(f), "color IN ('red', 'blue')"]) == 0
    out = capsys.readouterr().out
    assert "routing plan: 3 native subscriptions in 1 indexed group(s) + 1 general" in out
    assert "group on color" in out and "CASE expressions: 4; one whole-stage-codegen method" in out
    assert main(["route-plan"]) == 2
