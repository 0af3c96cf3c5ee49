"""`explain_delivery` / ``jms-selector why``: the value is `evaluate`'s on every conformance case,
every FALSE or UNKNOWN answer has a reason, and each reason kind (and each dialect rule that changes
a reason) is right on hand-written cases."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import jms_selector_spark as jss
from jms_selector_spark.analysis.why import REASON_KINDS, explain_delivery
from jms_selector_spark.cli.commands import main
from jms_selector_spark.language.dialects import DIALECTS
from broker_suites import CORPUS
from oracle import decode_value

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"


def _cases():
    for path in sorted(CONFORMANCE.glob("*.jsonl")):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield path.name, json.loads(line)


CASES = list(_cases())


def _message(case):
    props = case["message"].get("properties", {})
    return (case["message"].get("headers"), {k: decode_value(v) for k, v in props.items()},
            {k: v["type"] for k, v in props.items()})


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_value_is_evaluates_and_every_false_or_unknown_has_a_reason(dialect):
    """Every corpus case (the conformance corpora and the brokers' suites), in every dialect that
    accepts its selector: the trace's value is `evaluate`'s, a FALSE or UNKNOWN answer has at least
    one reason of a known kind whose span lies in the selector, and the trace prints."""
    checked = explained = 0
    failures = []
    for corpus, case in CASES:
        headers, props, types = _message(case)
        try:
            want = jss.evaluate(case["selector"], headers, props, dialect=dialect, types=types)
        except jss.SelectorError:
            continue
        checked += 1
        got = explain_delivery(case["selector"], headers, props, dialect=dialect, types=types)
        text = str(got)
        problems = []
        if got.value is not want:
            problems.append(f"value {got.value!r}, evaluate {want!r}")
        if want is not True:
            explained += 1
            if not got.reasons:
                problems.append("no reason")
            for r in got.reasons:
                if r.kind not in REASON_KINDS or not 0 <= r.span.start <= r.span.end <= len(case["selector"]):
                    problems.append(f"bad reason {r}")
            if "Why:" not in text:
                problems.append("no Why section")
        if problems:
            failures.append(f"{corpus}:{case['id']}: {case['selector']!r}: {'; '.join(problems)}")
    assert checked > 100 and explained > 30
    assert not failures, f"{len(failures)}/{checked}:\n" + "\n".join(failures[:30])


def test_the_corpora_cover_the_brokers_suites():
    assert any(name == CORPUS.name for name, _ in CASES)


def _why(selector, headers=None, properties=None, dialect="jms", types=None):
    d = explain_delivery(selector, headers, properties, dialect=dialect, types=types)
    assert d.value is jss.evaluate(selector, headers, properties, dialect=dialect, types=types)
    return d


# (selector, headers, properties, dialect, types, value, the deciding reasons' kinds, a text every
# reason list must contain)
REASONS = [
    ("JMSType = 'car' AND weight > 2500", {"JMSType": "car"}, {}, "jms", None, None, ["missing"],
     "`weight` is missing → `weight > 2500` is UNKNOWN"),
    ("weight > 2500", None, {"weight": None}, "jms", None, None, ["null"], "`weight` is NULL"),
    ("qty = 5", None, {"qty": "5"}, "jms", None, False, ["unlike_types"],
     "`qty` is a string ('5'), `5` a long (5) → FALSE: unlike types never compare"),
    ("NOT (weight > 5)", None, {}, "jms", None, None, ["not", "missing"], "NOT UNKNOWN is UNKNOWN"),
    ("NOT (weight > 5)", None, {"weight": 9}, "jms", None, False, ["not"], "NOT TRUE is FALSE"),
    ("weight > 5000", None, {"weight": 3000}, "jms", None, False, ["compared"],
     "`weight` is 3000 (long), `5000` 5000 (long) → `weight > 5000` is FALSE"),
    ("x > 1", None, {"x": float("nan")}, "jms", None, False, ["nan"], "NaN"),
    ("x / 0 > 1", None, {"x": 5}, "jms", None, None, ["no_value"], "`x / 0` has no value"),
    ("w BETWEEN 1 AND 10", None, {"w": 20}, "jms", None, False, ["outside_range"], "outside 1 .. 10"),
    ("w NOT BETWEEN 1 AND 10", None, {"w": 5}, "jms", None, False, ["outside_range"], "inside 1 .. 10"),
    ("color IN ('red', 'blue')", None, {"color": "green"}, "jms", None, False, ["not_in_list"],
     "which is not in ('red', 'blue')"),
    ("color NOT IN ('red', 'blue')", None, {"color": "red"}, "jms", None, False, ["not_in_list"], "which is in"),
    ("n IN ('a')", None, {"n": 5}, "jms", None, False, ["non_string"], "not a string"),
    ("name LIKE 'a\\_%' ESCAPE '\\'", None, {"name": "abc"}, "jms", None, False, ["no_match"],
     "does not match 'a\\_%' ESCAPE '\\'"),
    ("x IS NULL", None, {"x": 1}, "jms", None, False, ["is_null"], "`x` is 1 (long) → `x IS NULL` is FALSE"),
    ("x IS NOT NULL", None, {}, "jms", None, False, ["is_null"], "`x` is NULL → `x IS NOT NULL` is FALSE"),
    ("flag", None, {"flag": "yes"}, "jms", None, False, ["not_boolean"], "not a boolean"),
    ("flag", None, {}, "jms", None, None, ["missing"], "`flag` is missing → UNKNOWN"),
    ("1 = 2", None, {}, "jms", None, False, ["constant"], "FALSE for every message"),
    ("(a > 1 OR b > 1) AND c = 'x'", None, {"a": 0, "c": "y"}, "jms", None, False, ["compared"],
     "`c` is 'y'"),  # AND is FALSE: only its FALSE operand decides, not the UNKNOWN one
    # an OR that is not TRUE: every operand could have made it TRUE, so each one's reason is given
    ("a > 1 OR b > 1", None, {"a": 0}, "jms", None, None, ["compared", "missing"], "`b` is missing"),
    # the dialect rules that change a reason
    ("w BETWEEN 1 AND 2", None, {}, "jms", None, False, ["null_rule"], "BETWEEN with a NULL is FALSE"),
    ("w BETWEEN 1 AND 2", None, {}, "activemq", None, None, ["missing"], "is UNKNOWN"),
    ("a = 1 AND b = 2", None, {"b": 3}, "wso2", None, False, ["null_rule"], "this dialect's rule for NULL"),
    ("a = 1 AND b = 2", None, {"b": 3}, "jms", None, False, ["compared"], "`b` is 3"),
    ("a > 1 AND b > 1", None, {"b": 0}, "wso2", None, None, ["missing", "left_first"],
     "this dialect's AND reads left to right: `a > 1` is UNKNOWN, so `a > 1 AND b > 1` is UNKNOWN "
     "(three-valued AND would be FALSE)"),
    ("a > 1 AND b > 1", None, {"b": 0}, "jms", None, False, ["compared"], "`b` is 0"),
    ("convert_string_expressions:s = 5", None, {"s": "five"}, "activemq", None, False, ["not_a_number"],
     "the string is read as an int"),
    ("s = '5'", None, {"s": 5}, "activemq", None, False, ["unlike_types"], "unlike types never compare"),
    ("s > 5", None, {"s": "abc"}, "rabbitmq-jms", None, True, [], ""),  # Erlang term order
    ("flag", None, {"flag": "yes"}, "rabbitmq-jms", None, None, ["no_order"],
     "`flag` is 'yes' (string), not a boolean: this dialect answers UNKNOWN for such a condition"),
    ("flag", None, {"flag": "yes"}, "rabbitmq", None, False, ["not_boolean"], "not a boolean"),
    ("convert_string_expressions:b = 'true'", None, {"b": True}, "activemq", None, None, ["no_order"],
     "cannot convert the boolean"),
]


@pytest.mark.parametrize("selector,headers,props,dialect,types,value,kinds,text", REASONS,
                         ids=[f"{r[3]}:{r[0]}" for r in REASONS])
def test_reason(selector, headers, props, dialect, types, value, kinds, text):
    d = _why(selector, headers, props, dialect, types)
    assert d.value is value
    assert [r.kind for r in d.reasons] == kinds, str(d)
    assert text in "\n".join(r.text for r in d.reasons), str(d)


def test_left_first_or_names_its_last_operand():
    # ActiveMQ r450141's OR (WSO2): no operand TRUE, so the last one's value (FALSE), not UNKNOWN
    d = _why("a > 1 OR b > 1", None, {"b": 0}, "wso2")
    assert d.value is False and [r.kind for r in d.reasons] == ["left_first", "compared"], str(d)
    assert "(three-valued OR would be UNKNOWN)" in str(d)


def test_every_reason_kind_is_tested():
    tested = {k for r in REASONS for k in r[6]}
    assert set(REASON_KINDS) <= tested, set(REASON_KINDS) - tested


def test_the_trace_shows_every_value_and_a_caret():
    d = _why("JMSType = 'car' AND weight > 2500", {"JMSType": "car"}, {"color": "blue"})
    text = str(d)
    assert "→ UNKNOWN (not delivered; dialect jms)" in text
    assert "'car' (string)" in text and "2500 (long)" in text
    assert "  JMSType = 'car' AND weight > 2500\n                      ^^^^^^" in text
    assert d.to_dict()["reasons"] == [{"kind": "missing", "text": d.reasons[0].text, "start": 20, "end": 26}]


def test_an_empty_selector_delivers_with_nothing_to_explain():
    d = _why("")
    assert d.value is True and d.reasons == () and d.root is None


def test_cli_why(capsys):
    assert main(["why", "JMSType = 'car' AND weight > 2500", "--message", '{"JMSType": "car", "color": "blue"}']) == 0
    out = capsys.readouterr().out
    assert "`weight` is missing → `weight > 2500` is UNKNOWN" in out
    assert main(["why", "x > 1", "--message", '{"properties": {"x": "NaN"}, "types": {"x": "double"}}',
                 "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["value"] == "FALSE" and got["reasons"][0]["kind"] == "nan"
    assert main(["why", "x > 1 AND", "--message", "{}"]) == 1
    assert "unexpected end of selector" in capsys.readouterr().err
    assert main(["why", "x > 1", "--message", "[1]"]) == 2
    assert main(["why", "x > 1", "--message", "{bad"]) == 2


def test_cli_implies(capsys):
    assert main(["implies", "color = 'blue' AND weight > 2500", "weight > 1000"]) == 0
    assert "(jms; proof)" in capsys.readouterr().out
    assert main(["implies", "weight > 1000", "weight > 2500"]) == 1
    assert "witness: weight = 1001" in capsys.readouterr().out
    assert main(["implies", "x > 5", "x > 1", "--dialect", "rabbitmq-jms", "--max-candidates", "50"]) == 3
    assert main(["implies", "x >", "x > 1"]) == 1
