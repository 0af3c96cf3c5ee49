"""Issue #14: the parse-time rules of the broker dialects (quoted identifiers, Broker-J's NOT,
Artemis's header names), one behaviour per test; the suites themselves run in
tests/conformance/test_broker_suites.py."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from jms_selector_spark.language import nodes as n
from jms_selector_spark.frontend.parser import parse_tree
from jms_selector_spark.frontend.printer import to_text
from jms_selector_spark.language.source import Span
from jms_selector_spark.language.types import JmsType

QUOTING = ["artemis", "qpid", "qpid-jms"]


@pytest.mark.parametrize("dialect", QUOTING)
def test_quoted_identifiers_name_any_property(dialect):
    assert jss.evaluate('"a.test" = \'v\'', properties={"a.test": "v"}, dialect=dialect) is True
    assert jss.evaluate('"say ""hi""" IS NULL', properties={'say "hi"': 1}, dialect=dialect) is False
    assert jss.evaluate('"NOT"', properties={"NOT": True}, dialect=dialect) is True  # not the keyword


@pytest.mark.parametrize("dialect", QUOTING)
@pytest.mark.parametrize("text", ['"a.b" = 1', '"a""b" > 2 AND x = 1', '"AND" IS NULL', '"1a" <> 3', "plain = 1"])
def test_quoted_identifiers_print_back(dialect, text):
    d = jss.get_dialect(dialect)
    tree = parse_tree(text, d)
    assert parse_tree(to_text(tree, d), d) == tree
    assert to_text(tree, d) == text


def test_quoted_identifier_errors():
    err = pytest.raises(jss.SelectorSyntaxError, parse_tree, '"a.b = 1', jss.get_dialect("artemis")).value
    assert err.span == Span(0, 1)
    err = pytest.raises(jss.SelectorSyntaxError, parse_tree, '"a"(1)', jss.get_dialect("qpid-jms")).value
    assert err.message == "unexpected '('"
    for d in ("jms", "activemq"):
        with pytest.raises(jss.SelectorSyntaxError, match="string literals use single quotes"):
            parse_tree('"a.b" = 1', jss.get_dialect(d))


def test_broker_j_not_takes_a_whole_predicate():
    a1 = n.Comparison(n.CompareOp.EQ, n.Identifier("a"), n.Literal(1, JmsType.INT))
    assert parse_tree("NOT a = 1", jss.get_dialect("qpid")) == n.Not(a1)
    assert parse_tree("NOT a = 1", jss.get_dialect("qpid-jms")) == n.Comparison(n.CompareOp.EQ, n.Not(n.Identifier("a")),
                                                               n.Literal(1, JmsType.INT))
    assert jss.evaluate("NOT price > 10", properties={"price": 100}, dialect="qpid") is False
    with pytest.raises(jss.SelectorError):
        jss.parse("NOT price > 10", dialect="qpid-jms")  # (NOT price) > 10: ActiveMQ's grammar
    # Broker-J keeps ActiveMQ's chained predicates
    chained = parse_tree("a = b = c", jss.get_dialect("qpid"))
    assert isinstance(chained, n.Comparison) and isinstance(chained.left, n.Comparison)
    with pytest.raises(jss.SelectorSyntaxError):
        parse_tree("a = b = c", jss.JMS)


@pytest.mark.parametrize("alias, header, value", [("AMQPriority", "JMSPriority", 3),
                                                  ("AMQTimestamp", "JMSTimestamp", 12345678),
                                                  ("AMQExpiration", "JMSExpiration", 99),
                                                  ("AMQUserID", "JMSMessageID", "ID:1")])
def test_artemis_header_names(alias, header, value):
    lit = f"'{value}'" if isinstance(value, str) else str(value)
    assert jss.evaluate(f"{alias} = {lit}", headers={header: value}, dialect="artemis") is True
    assert jss.evaluate(f"{alias} = {lit}", headers={header: value}, dialect="activemq") is None  # a property
    assert jss.evaluate(f"{alias} IS NULL", properties={alias: value}, dialect="artemis") is True  # never the property


def test_artemis_has_neither_functions_nor_the_prefix():
    with pytest.raises(jss.SelectorSyntaxError, match="unknown function"):
        jss.parse("REGEX('a', s)", dialect="artemis")
    with pytest.raises(jss.SelectorError):
        jss.parse("convert_string_expressions:a = '1'", dialect="artemis")
    assert jss.evaluate("JMSRedelivered IS NULL", headers={"JMSRedelivered": True}, dialect="artemis") is True


# -- rabbitmq: the broker's SQL filter (rabbit_amqp_filter_sql) --------------------------------------

def test_rabbitmq_limits():
    jss.parse("x" * 4088 + " IS NULL", dialect="rabbitmq")
    with pytest.raises(jss.SelectorSyntaxError, match="4,096 bytes"):
        jss.parse("x" * 4089 + " IS NULL", dialect="rabbitmq")
    ok = " AND ".join(["a = 1"] * 50)  # 199 tokens
    jss.parse(ok, dialect="rabbitmq")
    err = pytest.raises(jss.SelectorSyntaxError, jss.parse, ok + " AND b", dialect="rabbitmq").value
    assert "200 tokens" in err.message and err.span.start == len(ok) + 5
    jss.parse(ok + " AND b", dialect="jms")


@pytest.mark.parametrize("text", ["id LIKE 'a\n'", "id LIKE '\x7f'", "id LIKE 'a!' ESCAPE '!'",
                                  "id LIKE 'a!!!' ESCAPE '!'"])
def test_rabbitmq_like_pattern_checks(text):
    with pytest.raises(jss.SelectorSyntaxError):
        jss.parse(text, dialect="rabbitmq")
    jss.parse(text, dialect="jms")


def test_rabbitmq_rules():
    props = {"country": "UK", "weight": 5, "active": True, "premium": False}
    ev = lambda s: jss.evaluate(s, properties=props, dialect="rabbitmq")  # noqa: E731
    assert ev("country != 'US'") is True and ev("country > 'DE'") is True  # lexical order
    assert ev("weight >= '5'") is False  # a string and a number: FALSE, not invalid
    assert ev("active > premium") is False  # booleans are not ordered
    assert ev("weight <> 'UK'") is True  # Erlang's /=: unlike types differ
    assert ev("weight / 2 = 2.5") is True and ev("weight % 3 = 2") is True
    assert ev("+weight") is False and ev("missing NOT BETWEEN 1 AND 2") is None
    assert ev("country LIKE 'U🥕_' ESCAPE '🥕'") is False  # one code point is one escape character
    with pytest.raises(jss.SelectorSyntaxError):
        jss.parse("country != 'US'", dialect="jms")


def test_rabbitmq_jms_client_rules():
    assert jss.evaluate("period.bool.prop", properties={"period.bool.prop": True}, dialect="rabbitmq-jms") is True
    with pytest.raises(jss.SelectorTypeError):
        jss.parse("TRUE = 'a'", dialect="rabbitmq-jms")
    with pytest.raises(jss.SelectorError):
        jss.parse("a.b = 1", dialect="rabbitmq")
