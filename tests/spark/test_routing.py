"""`route`: topic fan-out, queue round-robin, dead letters — checked against `evaluate`."""
from __future__ import annotations

import collections

import pytest

import jms_selector_spark as jss
from jms_selector_spark.routing import Subscription, normalize_subscriptions, route, subscription_errors

pytestmark = pytest.mark.spark

DDL = "JMSMessageID string, JMSTimestamp long, JMSType string, JMSPriority int, color string, weight long, s string"
NAMES = [c.split()[0] for c in DDL.split(", ")]
HEADERS = {"JMSMessageID", "JMSTimestamp", "JMSType", "JMSPriority"}
TYPES = ["car", "truck", "bike", None]
COLORS = ["blue", "red", None, "O'Brien"]
ROWS = [(f"ID:{i:03d}", 1_000 + (i * 7919) % 500, TYPES[i % 4], i % 10, COLORS[(i // 4) % 4],
         None if i % 11 == 0 else (i * 37) % 4000, ",".join("ab"[: i % 3]))
        for i in range(240)]

SUBS = {
    "blue-cars": "JMSType = 'car' AND color = 'blue'",
    "heavy": "weight > 2500",
    "urgent": "JMSPriority >= 8",
    "irish": "color LIKE 'O''%'",
    "not-bikes": "NOT (JMSType = 'bike')",
}


def _matches(selector, row, dialect="jms"):
    values = dict(zip(NAMES, row))
    headers = {k: v for k, v in values.items() if k in HEADERS and v is not None}
    props = {k: v for k, v in values.items() if k not in HEADERS}
    return jss.evaluate(selector, headers, props, dialect=dialect) is True


@pytest.fixture(scope="module")
def messages(spark, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("routing") / "messages")
    spark.createDataFrame(ROWS, DDL).repartition(3).write.parquet(path)
    return spark.read.parquet(path)


def _pairs(df):
    return sorted((r["JMSMessageID"], r["subscription"]) for r in df.select("JMSMessageID", "subscription").collect())


def test_topic_mode_fans_out_and_keeps_dead_letters(messages):
    out = route(messages, SUBS, mode="topic")
    assert out.columns == messages.columns + ["subscription"]
    want = []
    for row in ROWS:
        hit = [name for name, sel in SUBS.items() if _matches(sel, row)]
        want += [(row[0], name) for name in hit] or [(row[0], None)]
    assert _pairs(out) == sorted(want, key=lambda p: (p[0], p[1] or ""))  # None sorts first per id
    # the message columns are carried through unchanged
    assert out.where("subscription IS NULL").select(*messages.columns).exceptAll(messages).count() == 0


def test_topic_mode_drops_unmatched_when_no_subscription_is_durable(messages):
    subs = [Subscription(n, s, durable=False) for n, s in SUBS.items()]
    out = route(messages, subs, mode="topic")
    assert out.where("subscription IS NULL").count() == 0
    matched = {row[0] for row in ROWS if any(_matches(s, row) for s in SUBS.values())}
    assert {r[0] for r in out.select("JMSMessageID").distinct().collect()} == matched


def test_topic_mode_is_one_scan(messages):
    out = route(messages, SUBS, mode="topic")
    plan = out._jdf.queryExecution().executedPlan().toString()
    assert plan.count("FileScan parquet") == 1, plan


def test_queue_mode_delivers_each_message_exactly_once_round_robin(messages):
    out = route(messages, SUBS, mode="queue")
    got = dict((m, s) for m, s in _pairs(out))
    assert len(_pairs(out)) == len(ROWS) == len(got)  # nothing lost, nothing duplicated
    # each message goes to one of its matching subscriptions (or is a dead letter if none);
    # messages matching the same set S are dealt round-robin over sorted(S) in JMSTimestamp order
    groups = collections.defaultdict(list)
    for row in sorted(ROWS, key=lambda r: (r[1], r[0])):
        hit = tuple(sorted(n for n, s in SUBS.items() if _matches(s, row)))
        groups[hit].append(row[0])
    for hit, ids in groups.items():
        for k, mid in enumerate(ids):
            assert got[mid] == (hit[k % len(hit)] if hit else None), (mid, hit, k)


def test_invalid_selectors_are_reported_and_the_rest_still_route(messages, caplog):
    subs = dict(SUBS, broken="color = 'blue' AND AND weight > 1", typo="weight >")
    errors = subscription_errors(subs)
    assert set(errors) == {"broken", "typo"}
    assert "line 1, column 20" in errors["broken"] and "^^^" in errors["broken"]
    with caplog.at_level("WARNING", logger="jms_selector_spark.routing"):
        out = route(messages, subs, mode="queue")
    assert "broken" in caplog.text and "typo" in caplog.text
    assert out.count() == len(ROWS)
    assert not {"broken", "typo"} & {r[0] for r in out.select("subscription").distinct().collect()}


def test_subscriptions_as_dict_list_and_dataframe(spark, messages):
    as_df = spark.createDataFrame([(n, s, True) for n, s in SUBS.items()], "name string, selector string, durable boolean")
    as_list = [(n, s) for n, s in SUBS.items()]
    a = _pairs(route(messages, SUBS))
    assert _pairs(route(messages, as_df)) == a == _pairs(route(messages, as_list))
    assert [s.name for s in normalize_subscriptions(["a = 1", "b = 2"])] == ["sub-1", "sub-2"]
    with pytest.raises(ValueError, match="unique"):
        normalize_subscriptions([("x", "a = 1"), ("x", "b = 1")])
    with pytest.raises(ValueError, match="mode"):
        route(messages, SUBS, mode="broadcast")


def test_fallback_selectors_route_in_the_same_pass(messages):
    """ActiveMQ SPLIT has no native form: it runs in the routing UDF next to the native CASEs."""
    subs = {"two-parts": "SPLIT(s, ',') IS NOT NULL AND JMSType = 'car'", "cars": "JMSType = 'car'"}
    out = route(messages, subs, mode="topic", dialect="activemq")
    want = []
    for row in ROWS:
        hit = [n for n, s in subs.items() if _matches(s, row, "activemq")]
        want += [(row[0], n) for n in hit] or [(row[0], None)]
    assert _pairs(out) == sorted(want, key=lambda p: (p[0], p[1] or ""))
    plan = out._jdf.queryExecution().executedPlan().toString()
    assert plan.count("FileScan parquet") == 1 and "ArrowEvalPython" in plan
