"""Issue #14: which cases of ``tests/conformance/other-brokers.jsonl`` belong to which dialect, how a
suite's assertion is judged, and the cases each dialect deliberately answers otherwise.

A case's ``expect`` is what the broker's own test asserts: ``true`` (delivered), ``false`` (not
delivered: FALSE or UNKNOWN, as a suite cannot tell them apart unless it says so), ``null``
(asserted UNKNOWN: Artemis's ``UnknownHandlingSelectorTest``), ``"invalid"`` (rejected) or
``"valid"`` (only accepted). `KNOWN` lists, per dialect, every case where the dialect disagrees
with its suite, with the reason; the dialect's page under docs/dialects/ lists the same ids
(checked by ``tests/conformance/test_broker_suites.py``).
"""
from __future__ import annotations

import json
from pathlib import Path

import jms_selector_spark as jss
from oracle import decode_value

CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "other-brokers.jsonl"

#: Case-id prefixes (the part before the last ``-n``) of each dialect's suites.
SUITES = {
    "artemis": ("art-sel", "art-parse", "art-unk", "art-filter", "joram-sel", "joram-syn", "art-jmstests"),
    "qpid": ("bj-syntax", "bj-systest", "qpid-old"),
    "qpid-jms": ("qpidjms-sel", "qpidjms-parse"),
    "rabbitmq": ("rmq-jms", "rmq-amqpsql"),
    "rabbitmq-jms": ("rmqc-parser", "rmqc-types", "rmqc-tokens", "rmqc-prod", "rmqc-it", "rmqc-it-dot",
                     "rmqx-eval", "rmqx-it", "rmqx-like"),
    "qpid-cpp": ("qpidcpp",),
}

_XPATH = ("XPATH body selector: the data model has no message body; rejected like the `activemq` "
          "dialect's XPATH/XQUERY (a deliberate choice)")
_AMQ_DURABLE = ("AMQDurable reads 'DURABLE'/'NON_DURABLE' off JMSDeliveryMode (Artemis FilterImpl); "
                "not modelled: AMQDurable is an (absent) property here")

_ORDER = ("the suite contradicts itself: jms_selector_SUITE (RabbitMQ 4.1's JMS filter) orders no strings, "
          "amqp_filter_sql_unit_SUITE (the SQL filter that replaced it) orders them lexically "
          "(`country >= 'UK'`: FALSE there, TRUE here); we follow today's code, rabbit_amqp_filter_sql:compare")

#: {dialect: {case id: why the dialect answers otherwise than the suite}}
KNOWN = {
    "artemis": {"art-parse-1": _XPATH, "art-filter-7": _AMQ_DURABLE, "art-filter-10": _AMQ_DURABLE},
    "qpid": {},
    "qpid-jms": {},
    "rabbitmq": {
        "rmq-jms-49": _ORDER, "rmq-jms-50": _ORDER, "rmq-jms-51": _ORDER, "rmq-jms-54": _ORDER, "rmq-jms-191": _ORDER,
        "rmq-jms-297": "x / 0 is UNKNOWN in RabbitMQ (`Right /= 0` guard); here floating division gives "
                       "Infinity, as in ActiveMQ (not modelled: one decision per back end)",
        "rmq-jms-406": "RabbitMQ refuses selectors on JMSXDeliveryCount (unsupported_field); here it is a property",
        "rmq-amqpsql-47": "IN with a literal on the left and names in the list: the SQL filter's IN takes any "
                          "expressions; here IN keeps the JMS form (a name IN string literals)",
        "rmq-amqpsql-48": "as rmq-amqpsql-47 (NOT IN)",
    },
    "rabbitmq-jms": {
        "rmqx-eval-8": "an AMQP float header: the exchange holds it as an Erlang double, so 0.03f = 0.03 there; "
                       "the data model keeps a Java float (0.03f widened is 0.029999999329447746)",
    },
    "qpid-cpp": {},
}


def cases_for(dialect: str) -> list:
    """The corpus cases of ``dialect``'s broker suites (empty for a dialect without one)."""
    prefixes = SUITES.get(dialect, ())
    out = []
    with open(CORPUS, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                c = json.loads(line)
                if c["id"].rsplit("-", 1)[0] in prefixes:
                    out.append(c)
    return out


def run_case(case: dict, dialect) -> "bool | None | str":
    """The reference interpreter's answer to a corpus case (any of ``tests/conformance/*.jsonl``):
    True, False, None (UNKNOWN), or ``"invalid"`` when the dialect rejects the selector."""
    props = case["message"].get("properties", {})
    try:
        return jss.evaluate(case["selector"], case["message"].get("headers"),
                            {k: decode_value(v) for k, v in props.items()}, dialect=dialect,
                            types={k: v["type"] for k, v in props.items()})
    except jss.SelectorError:
        return "invalid"


def agrees(expect, got) -> bool:
    """Whether a result (True/False/None, or "invalid") is what the suite asserts."""
    if expect == "valid":
        return got != "invalid"
    if expect is False:
        return got is False or got is None
    return got == expect
