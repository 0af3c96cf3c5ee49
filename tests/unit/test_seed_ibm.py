"""`ibmmq` and `mqe` (issue #13): positioned errors, the exact zero-id form, lint warnings, CLI.

Evaluation is pinned by tests/conformance/seed-ibm.jsonl through every back end; this file pins
what a corpus line cannot show: where each error points and which lint warnings are given.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

import jms_selector_spark as jss
from jms_selector_spark.language.source import Span

Z = "ID:" + "0" * 48


@pytest.mark.parametrize("selector, what, span", [
    ("a = 1 OR b = 2", "OR", Span(6, 8)),
    ("NOT a = 1", "NOT", Span(0, 3)),
    ("a <> 1", "<>", Span(2, 4)),
    ("a = 1 AND b >= 2", ">=", Span(12, 14)),
    ("a NOT BETWEEN 1 AND 2", "NOT BETWEEN", Span(2, 13)),
    ("a IN ('x')", "IN", Span(2, 4)),
    ("a LIKE 'x'", "LIKE", Span(2, 6)),
    ("a IS NOT NULL", "IS NOT NULL", Span(2, 13)),
    ("a * 2 = 4", "*", Span(2, 3)),
    ("-a = 1", "unary -", Span(0, 1)),
])
def test_mqe_rejects_other_operators_where_they_are(selector, what, span):
    with pytest.raises(jss.SelectorSyntaxError) as e:
        jss.parse(selector, dialect="mqe")
    assert e.value.message.startswith(f"{what} is not supported by the 'mqe' dialect") and e.value.span == span
    assert "^" in str(e.value)


def test_mqe_signed_literals_and_the_seed_example_parse():
    assert jss.parse("a = -957 AND b = +62 AND c = -57.9E2", dialect="mqe").root is not None
    sel = jss.parse("JMSType ='car 'AND colour ='blue'", dialect="mqe")
    assert jss.evaluate(sel, {"JMSType": "car"}, {"colour": "blue"}) is False
    assert jss.evaluate(sel, {"JMSType": "car "}, {"colour": "blue"}) is True


def test_ibmmq_constant_false_points_at_the_selector():
    with pytest.raises(jss.SelectorTypeError, match="MQRC_SELECTOR_ALWAYS_FALSE") as e:
        jss.parse("  1 = 2 ", dialect="ibmmq")
    assert e.value.span == Span(2, 7)
    assert jss.parse("1 = 2", dialect="jms").root is not None  # only ibmmq rejects it


@pytest.mark.parametrize("selector, every", [
    (f"JMSMessageID='{Z}'", True), (f" JMSCorrelationID ='{Z}' ", True), (f"JMSMessageID\t=\n'{Z}'", True),
    (f"(JMSMessageID='{Z}')", False), (f"'{Z}'=JMSMessageID", False), (f"JMSMessageID='{Z.lower()}'", False),
    (f"JMSMessageID='{Z}0'", False), (f"JMSMessageID='{Z}' AND TRUE", False),
])
def test_ibmmq_zero_id_wildcard_is_the_exact_form_only(selector, every):
    got = jss.evaluate(selector, {"JMSMessageID": "ID:414D"}, dialect="ibmmq")
    assert got is (True if every else False)
    assert jss.evaluate(selector, {"JMSMessageID": "ID:414D"}, dialect="jms") is not True  # FALSE or UNKNOWN


def test_ibmmq_length_is_in_utf8_bytes():
    text = "s = '" + "é" * 5117 + "'"  # 6 + 10,234 bytes = 10,240
    assert len(text.encode()) == 10_240
    assert jss.parse(text, dialect="ibmmq").root is not None
    with pytest.raises(jss.SelectorSyntaxError, match="10,240 bytes"):
        jss.parse(text + " ", dialect="ibmmq")


@pytest.mark.parametrize("selector, dialect, schema, codes", [
    (f"JMSMessageID='{Z}'", "ibmmq", None, ["zero-id-wildcard"]),
    (f"JMSCorrelationID='{Z}' AND a = 1", "ibmmq", None, ["zero-id-wildcard"]),
    (f"JMSMessageID='{Z}'", "jms", None, []),
    ("1 = 2 OR a = 1", "ibmmq", None, ["constant-false"]),
    ("a = 0x1F", "ibmmq", None, ["extended-literal"]),
    ("a = '0x1F'", "ibmmq", None, []),
    ("s = '" + "x" * 9500 + "'", "ibmmq", None, ["broker-length"]),
    ("qty = 5", "mqe", {"qty": "int"}, ["mqe-literal-type"]),
    ("qty = 5", "mqe", {"qty": "long"}, []),
    ("qty = 5", "jms", {"qty": "int"}, []),
    ("JMSPriority = 4.0", "mqe", None, ["mqe-header-type"]),
    ("JMSDeliveryMode = 'PERSISTENT'", "mqe", None, ["mqe-delivery-mode"]),
    ("JMSPriority = 4 AND colour = 'blue'", "mqe", None, []),
])
def test_lint_for_the_ibm_targets(selector, dialect, schema, codes):
    warnings = jss.lint(selector, dialect, schema=schema)
    assert [w.code for w in warnings] == codes
    for w in warnings:
        assert "^" in str(w) and 0 <= w.span.start < w.span.end <= len(selector)


def test_cli_check_lint_takes_the_ibm_dialects():
    run = subprocess.run([sys.executable, "-m", "jms_selector_spark", "check", "--lint", "--dialect", "ibmmq",
                          f"JMSMessageID='{Z}'"], capture_output=True, text=True)
    assert run.returncode == 3 and "zero-id-wildcard" in run.stdout + run.stderr, run
    run = subprocess.run([sys.executable, "-m", "jms_selector_spark", "check", "--dialect", "mqe", "a = 1 OR b = 2"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "OR is not supported" in run.stdout + run.stderr, run


def test_ibmmq_exact_form_compares_id_bytes():
    real = "ID:414D51207061756C745639314C545320C57C1A5F25ECE602"
    lower = "ID:" + real[3:].lower()
    assert jss.evaluate(f"JMSMessageID='{lower}'", {"JMSMessageID": real}, dialect="ibmmq") is True
    assert jss.evaluate(f"JMSMessageID='{lower}'", {"JMSMessageID": real}, dialect="jms") is False
    assert jss.evaluate(f"JMSMessageID='{lower}' AND TRUE", {"JMSMessageID": real}, dialect="ibmmq") is False
    assert jss.parse(f"JMSMessageID='{lower}'", dialect="ibmmq").text == f"JMSMessageID='{lower}'"
