"""`to_rabbitmq_term` against the RabbitMQ JMS client's own test expectations.

``tests/conformance/terms/rabbitmq-client-terms.jsonl`` (its own folder: the evaluation corpora
beside it are read by every back-end test) transcribes them, each row naming its source:
the client's ``SqlCompilerTest`` (compiled terms), ``SqlParserTest``/``SqlProductionTest`` (parse
trees, written as the terms ``SqlCompilerVisitor`` makes of them; an arithmetic-only production
is compared with ``x`` to make it a selector), ``SqlTypeCheckerTest`` (valid or a type error),
``SqlTokenStreamTest`` (tokens), ``SqlCompilerVisitorTest`` (leaf forms), its integration tests'
selectors, and the selectors behind the topic exchange's ``sjx_evaluation_SUITE`` terms.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import jms_selector_spark as jss

CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "terms" / "rabbitmq-client-terms.jsonl"
ROWS = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
ERRORS = {"syntax": jss.SelectorSyntaxError, "type": jss.SelectorTypeError}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_client_expectation(row):
    if "error" in row:
        with pytest.raises(ERRORS[row["error"]]):
            jss.to_rabbitmq_term(row["selector"])
        with pytest.raises(ERRORS[row["error"]]):  # the dialect reads selectors the same way
            jss.parse(row["selector"], dialect="rabbitmq-jms")
    else:
        assert jss.to_rabbitmq_term(row["selector"]) == row["term"]


def test_corpus_covers_every_source():
    sources = {r["source"].rsplit("/", 1)[-1] for r in ROWS}
    assert {"SqlCompilerTest.java", "SqlParserTest.java", "SqlProductionTest.java", "SqlTypeCheckerTest.java",
            "SqlTokenStreamTest.java", "SqlCompilerVisitorTest.java", "sjx_evaluation_SUITE.erl"} <= sources
    assert len(ROWS) >= 80


@pytest.mark.parametrize("selector, term", [
    # right-associative arithmetic and logic, as the client's productions build them
    ("10 - 5 - 2 = a", "{'=',{'-',10,{'-',5,2}},{'ident',<<\"a\">>}}."),
    ("a / b * c > 1", "{'>',{'/',{'ident',<<\"a\">>},{'*',{'ident',<<\"b\">>},{'ident',<<\"c\">>}}},1}."),
    ("a AND b AND c", "{'and',{'ident',<<\"a\">>},{'and',{'ident',<<\"b\">>},{'ident',<<\"c\">>}}}."),
    ("(a AND b) AND c", "{'and',{'and',{'ident',<<\"a\">>},{'ident',<<\"b\">>}},{'ident',<<\"c\">>}}."),
    # IS NULL, LIKE and IN are values: they may be compared
    ("a IS NULL = TRUE", "{'=',{'is_null',{'ident',<<\"a\">>}},'true'}."),
    # NULL alone is a name; an ESCAPE may be any string
    ("a = NULL", "{'=',{'ident',<<\"a\">>},{'ident',<<\"NULL\">>}}."),
    ("s LIKE 'a' ESCAPE ''", "{'like',{'ident',<<\"s\">>},<<\"a\">>,<<\"\">>}."),
    # quotes and backslashes in binaries; non-ASCII text as it is (UTF-8 on the wire)
    ("s = 'a\"b\\\\c'", "{'=',{'ident',<<\"s\">>},<<\"a\\\"b\\\\\\\\c\">>}."),
    ("s <> 'é😀'", "{'<>',{'ident',<<\"s\">>},<<\"é😀\">>}."),
    ("x < 1E300 AND y > 5e-324", "{'and',{'<',{'ident',<<\"x\">>},1.0E300},{'>',{'ident',<<\"y\">>},4.9E-324}}."),
])
def test_client_shapes(selector, term):
    assert jss.to_rabbitmq_term(selector) == term


@pytest.mark.parametrize("selector, error", [
    ("NOT NOT a", jss.SelectorSyntaxError),        # NOT takes one comparison
    ("a = 1 = TRUE", jss.SelectorSyntaxError),      # comparisons do not chain
    ("(a) IS NULL", jss.SelectorSyntaxError),       # IS NULL follows a name only
    ("a > .5", jss.SelectorSyntaxError),            # a number starts with a digit
    ("a = 5L", jss.SelectorSyntaxError),
    ("a != 1", jss.SelectorSyntaxError),
    ("a % 2 = 1", jss.SelectorSyntaxError),
    ("é = 1", jss.SelectorSyntaxError),             # identifiers are ASCII
    ("a = 9223372036854775808", jss.SelectorSyntaxError),  # Long.valueOf throws
    ("a < 1e400", jss.SelectorSyntaxError),         # the term would hold Infinity
    ("a IN (1, 2)", jss.SelectorSyntaxError),       # IN lists hold strings only
    ("s < 'b'", jss.SelectorTypeError),             # ordering takes numbers
    ("JMSPriority = 'x'", jss.SelectorTypeError),   # the client types six JMS headers
    ("JMSType", jss.SelectorTypeError),
    ("JMSDeliveryMode = 2", jss.SelectorTypeError),
    ("a + 1", jss.SelectorTypeError),
])
def test_client_rejects(selector, error):
    with pytest.raises(error):
        jss.to_rabbitmq_term(selector)


def test_no_selector_and_other_dialects():
    assert jss.to_rabbitmq_term("") is None
    assert jss.to_rabbitmq_term(" \t\x01") is None  # Java's trim() removes every character up to U+0020
    assert jss.to_rabbitmq_term(jss.parse("a = 1", dialect="rabbitmq-jms")) == "{'=',{'ident',<<\"a\">>},1}."
    with pytest.raises(ValueError, match="RabbitMQ JMS client"):
        jss.to_rabbitmq_term("a = 1", dialect="rabbitmq")
    with pytest.raises(ValueError):
        jss.to_rabbitmq_term(jss.parse("a = 1", dialect="jms"))


def test_dialect_reads_the_clients_tree():
    """`evaluate` in ``rabbitmq-jms`` computes the tree the client sends: right-associative."""
    assert jss.evaluate("10 - 5 - 2 = 7", dialect="rabbitmq-jms") is True
    assert jss.evaluate("10 - 5 - 2 = 3", dialect="jms") is True
    assert jss.evaluate("a IS NULL = TRUE", dialect="rabbitmq-jms") is True
