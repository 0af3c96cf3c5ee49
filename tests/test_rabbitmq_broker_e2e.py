"""``route(..., dialect="rabbitmq-jms")`` against a real RabbitMQ broker (Debian's 3.10.8), bounded.

The test starts ``rabbitmq-server`` on 127.0.0.1 with the JMS topic exchange plugin
(`rabbitmq_broker`), declares an ``x-jms-topic`` exchange whose alternate exchange collects what
no binding takes, binds one queue per subscription with the term the RabbitMQ JMS client would
send (`to_rabbitmq_term`), publishes typed AMQP headers with pika (byte, short, int, long, float,
double, boolean, string, and the JMS headers as the client writes them), drains every queue, and
compares:

- each queue's messages with `route`'s rows for its subscription;
- the alternate exchange's queue (routed nowhere) with `route`'s dead letters (subscription NULL);
- both with RabbitMQ's own evaluator on every (subscription, message) pair (`rabbitmq_oracle`),
  which must also say that no pair raises: a selector that raises while routing makes the broker
  close the publisher's connection (541 INTERNAL_ERROR) and routes the message nowhere;
- a selector the client rejects is bound nowhere and is one of `route`'s subscription errors.

Skipped, with the reason, where ``rabbitmq-server``, Erlang or pika is missing.
"""
from __future__ import annotations

import random
import struct
import time

import pytest

import jms_selector_spark as jss
from rabbitmq_broker import broker_unavailable_reason, rabbitmq_broker
from rabbitmq_oracle import header_table, rabbitmq_unavailable_reason, run_rabbitmq_oracle

pytestmark = [pytest.mark.spark, pytest.mark.slow, pytest.mark.rabbitmq_broker]

MESSAGES = 240
DIALECT = "rabbitmq-jms"
LONG_MAX, INT_MAX = 2 ** 63 - 1, 2 ** 31 - 1
#: Typed properties: (JMS type, AMQP field-table code, struct format, values).
PROPERTIES = {
    "s": ("string", b"S", None, ["abc", "a", "", "\u00e9", "\U0001F600", "\uff5a", "ab_", "5", "a%"]),
    "t": ("string", b"S", None, ["abd", "b", "x\ny", "\U0001F600", "ab", "true"]),
    "n": ("long", b"l", ">q", [0, 1, -7, 100, 2 ** 40, LONG_MAX, -LONG_MAX - 1]),
    "i": ("int", b"I", ">i", [0, 5, -3, INT_MAX, -INT_MAX - 1]),
    "sh": ("short", b"s", ">h", [-32768, 0, 7, 32767]),
    "by": ("byte", b"b", ">b", [-128, 0, 5, 127]),
    "f": ("float", b"f", ">f", [0.1, 0.5, -1.0, 3.4028234663852886e38, 0.0]),
    "d": ("double", b"d", ">d", [0.0, 1.5, -2.25, 1e300, 0.1]),
    "b": ("boolean", b"t", ">B", [True, False]),
}
SUBSCRIPTIONS = {
    "string_above_number": "s > n AND JMSPriority < 2",
    "boolean_above_number": "b > 1 AND JMSPriority = 9",
    "boolean_unlike_one": "b <> 1 AND JMSPriority = 8",
    "like": "s LIKE 'a%' AND JMSPriority = 7",
    "not_like": "t NOT LIKE '%b_' AND JMSPriority = 6",
    "in": "s IN ('abc', '\u00e9', '') AND JMSPriority = 5",
    "between_null_bound": "n BETWEEN -100 AND i",
    "float_not_below": "NOT (f < 0.5) AND JMSPriority = 4",
    "float_literal": "f > 0.1 AND f < 0.11",  # 0.1 as a 32-bit float is 0.10000000149011612
    "no_32bit_wrap": "i + 1 > 2147483647",
    "double_arithmetic": "d * 2 >= n / 2 AND JMSPriority = 3",
    "headers": "JMSPriority > 4 AND JMSDeliveryMode = 'PERSISTENT' AND JMSType = 'truck'",
    "type_or_no_correlation": "JMSType = 'car' AND (JMSCorrelationID IS NULL OR JMSPriority = 2)",
    "right_associative": "10 - 5 - 2 = 7 AND sh < by",
    "not_boolean": "NOT b AND JMSDeliveryMode = 'NON_PERSISTENT' AND JMSPriority < 3",
    "code_points": "s < t AND JMSPriority = 1",
    "escape": "s LIKE 'a!%' ESCAPE '!'",
    "client_rejects": "JMSPriority = 'high'",
}


class _Field:
    """A header value with its AMQP field-table type (pika alone writes no byte, short or float)."""

    def __init__(self, code: bytes, fmt: str, value):
        self.code, self.fmt, self.value = code, fmt, value


def _encode_value(original):
    def encode(pieces, value):
        if isinstance(value, _Field):
            pieces.append(value.code + struct.pack(value.fmt, value.value))
            return 1 + struct.calcsize(value.fmt)
        return original(pieces, value)
    return encode


def _messages(rng: random.Random) -> list:
    out = []
    for k in range(MESSAGES):
        headers = {"JMSMessageID": f"ID:{k}", "JMSTimestamp": 1767225600000 + k, "JMSPriority": rng.randint(0, 9),
                   "JMSDeliveryMode": rng.choice(["PERSISTENT", "NON_PERSISTENT"]),
                   "JMSType": rng.choice(["car", "truck", None]), "JMSCorrelationID": rng.choice(["c1", None, None])}
        props = {name: (rng.choice(values) if rng.random() < 0.8 else None)
                 for name, (_, _, _, values) in PROPERTIES.items()}
        if props["f"] is not None:  # the 32-bit float's own value, as the broker holds it
            props["f"] = struct.unpack(">f", struct.pack(">f", props["f"]))[0]
        out.append((headers, props))
    return out


def _amqp_headers(headers: dict, props: dict) -> dict:
    out = {}
    for name, value in headers.items():
        if value is not None:
            out[name] = _Field(b"I", ">i", value) if name == "JMSPriority" else value
    for name, value in props.items():
        if value is None:
            continue
        _, code, fmt, _ = PROPERTIES[name]
        out[name] = value if fmt is None else _Field(code, fmt, value)
    return out


def _table(spark, messages):
    from pyspark.sql import types as st

    spark_types = {"string": st.StringType(), "long": st.LongType(), "int": st.IntegerType(),
                   "short": st.ShortType(), "byte": st.ByteType(), "float": st.FloatType(),
                   "double": st.DoubleType(), "boolean": st.BooleanType()}
    header_types = {"JMSMessageID": "string", "JMSTimestamp": "long", "JMSPriority": "int",
                    "JMSDeliveryMode": "string", "JMSType": "string", "JMSCorrelationID": "string"}
    schema = st.StructType([st.StructField(h, spark_types[t]) for h, t in header_types.items()]
                           + [st.StructField(p, spark_types[PROPERTIES[p][0]]) for p in PROPERTIES])
    rows = [tuple(h[c] for c in header_types) + tuple(p[c] for c in PROPERTIES) for h, p in messages]
    return spark.createDataFrame(rows, schema)


def _drain(channel, queue: str) -> set:
    got = set()
    while True:
        method, props, body = channel.basic_get(queue, auto_ack=True)
        if method is None:
            return got
        got.add(body.decode("ascii"))


def test_route_agrees_with_a_real_rabbitmq_broker(spark, tmp_path, monkeypatch, capsys):
    reason = broker_unavailable_reason() or rabbitmq_unavailable_reason()
    if reason:
        pytest.skip(reason)
    import pika
    import pika.data

    t0 = time.monotonic()
    messages = _messages(random.Random(20261137))
    terms, rejected = {}, {}
    for name, selector in SUBSCRIPTIONS.items():
        try:
            terms[name] = jss.to_rabbitmq_term(selector)
        except jss.SelectorError as e:
            rejected[name] = e
    assert set(rejected) == {"client_rejects"}

    # RabbitMQ's own evaluator on every pair: the expected queues, and no pair may raise
    types = {p: t for p, (t, _, _, _) in PROPERTIES.items()}
    cases = [{"id": f"{name}|{h['JMSMessageID']}", "term": term,
              "headers": header_table(h, {k: v for k, v in p.items() if v is not None}, types)}
             for name, term in terms.items() for h, p in messages]
    verdicts = run_rabbitmq_oracle(cases)
    raised = [k for k, v in verdicts.items() if v["result"] == "raise"]
    assert not raised, f"these pairs raise in RabbitMQ, which would close the connection: {raised[:5]}"
    engine = {name: {h["JMSMessageID"] for h, _ in messages if verdicts[f"{name}|{h['JMSMessageID']}"]["result"] is True}
              for name in terms}

    monkeypatch.setattr(pika.data, "encode_value", _encode_value(pika.data.encode_value))
    received = {}
    with rabbitmq_broker(tmp_path / "broker") as port:
        t_up = time.monotonic()
        conn = pika.BlockingConnection(pika.ConnectionParameters("127.0.0.1", port, socket_timeout=10,
                                                                 blocked_connection_timeout=30))
        try:
            ch = conn.channel()
            ch.confirm_delivery()
            ch.exchange_declare("jss.unrouted", exchange_type="fanout")
            ch.queue_declare("unrouted")
            ch.queue_bind("unrouted", "jss.unrouted")
            ch.exchange_declare("jss.selected", exchange_type="x-jms-topic",
                                arguments={"rjms_version": "2.2.0", "alternate-exchange": "jss.unrouted"})
            for name, term in terms.items():
                ch.queue_declare(name)
                ch.queue_bind(name, "jss.selected", routing_key="",
                              arguments={"rjms_erlang_selector": term, "rjms_version": "2.2.0"})
            for h, p in messages:  # confirmed one by one: routed before the next is published
                ch.basic_publish("jss.selected", "", h["JMSMessageID"].encode("ascii"),
                                 pika.BasicProperties(headers=_amqp_headers(h, p)))
            received = {name: _drain(ch, name) for name in list(terms) + ["unrouted"]}
        finally:
            conn.close()
    broker_s = time.monotonic() - t_up

    routed = jss.route(_table(spark, messages), SUBSCRIPTIONS, mode="topic", dialect=DIALECT)
    rows = routed.select("JMSMessageID", "subscription", "outcome").collect()
    ours = {name: {r["JMSMessageID"] for r in rows if r["subscription"] == name} for name in SUBSCRIPTIONS}
    dead = {r["JMSMessageID"] for r in rows if r["subscription"] is None}
    errors = jss.subscription_errors(SUBSCRIPTIONS, dialect=DIALECT)

    assert set(errors) == {"client_rejects"}
    for name in terms:
        assert received[name] == engine[name], (name, sorted(received[name] ^ engine[name])[:5])
        assert received[name] == ours[name], (name, SUBSCRIPTIONS[name], sorted(received[name] ^ ours[name])[:5])
    assert not ours["client_rejects"]
    assert received["unrouted"] == dead, sorted(received["unrouted"] ^ dead)[:5]
    assert {r["outcome"] for r in rows if r["subscription"] is None} <= {"dead_letter", "dropped"}
    every = {h["JMSMessageID"] for h, _ in messages}
    assert set().union(*received.values()) == every  # each message reached a queue or the alternate exchange
    assert dead and not [name for name in terms if not received[name]]  # every queue and the dead letters are exercised
    elapsed = time.monotonic() - t0
    with capsys.disabled():
        print(f"\n[rabbitmq broker e2e] {MESSAGES} messages, {len(terms)} bound subscriptions (+1 the client rejects):"
              f" {sum(map(len, (received[n] for n in terms)))} deliveries, {len(dead)} routed nowhere;"
              f" broker {broker_s:.1f} s, whole test {elapsed:.1f} s")
    assert elapsed < 120
