"""`route`: topic fan-out, queue rotations, outcomes per broker rule set, subscription lifetimes —
checked against `evaluate` and a plain-Python model of each rule."""
from __future__ import annotations

import collections

import pytest

import jms_selector_spark as jss
from jms_selector_spark.spark.routing import (Subscription, normalize_subscriptions, route, route_report, routing_rules,
                                             subscription_errors)

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


def _triples(df):
    return sorted(((r[0], r[1] or "", r[2]) for r in df.select("JMSMessageID", "subscription", "outcome").collect()))


def test_topic_mode_fans_out_and_keeps_every_message(messages):
    out = route(messages, SUBS, mode="topic")
    assert out.columns == messages.columns + ["subscription", "outcome"]
    want = []
    for row in ROWS:
        hit = [name for name, sel in SUBS.items() if _matches(sel, row)]
        want += [(row[0], name, "delivered") for name in hit] or [(row[0], "", "dropped")]
    assert _triples(out) == sorted(want)
    # the message columns are carried through unchanged
    assert out.where("subscription IS NULL").select(*messages.columns).exceptAll(messages).count() == 0
    # non-durable subscriptions: the same (JMS: no subscriber, no copy; the row says so)
    subs = [Subscription(n, s, durable=False) for n, s in SUBS.items()]
    assert _triples(route(messages, subs, mode="topic")) == sorted(want)


def test_wso2_durable_subscriptions_dead_letter_their_own_copy(messages):
    """R3: each durable subscription whose selector does not match sends its copy to the DLC,
    even when others matched; non-durable ones do not (R2: dropped when nothing else holds it)."""
    durable = {"heavy", "irish"}
    subs = [Subscription(n, s, durable=n in durable) for n, s in SUBS.items()]
    out = route(messages, subs, mode="topic", routing="wso2")
    want = []
    for row in ROWS:
        rows = [(row[0], n, "delivered" if _matches(s, row) else "dead_letter")
                for n, s in SUBS.items() if _matches(s, row) or n in durable]
        want += rows or [(row[0], "", "dropped")]
    assert _triples(out) == sorted(want)
    report = route_report(out, subs, routing="wso2")
    assert report["rows"] == len(want) and report["routing"] == "wso2"
    heavy = report["subscriptions"]["heavy"]
    assert heavy["delivered"] + heavy["dead_letter"] == len(ROWS) and heavy["error"] is None
    assert report["unassigned"]["dropped"] == sum(1 for w in want if w[2] == "dropped")
    assert "R3" in report["rules"]["dead_letter"]


def test_topic_subscriber_gets_only_messages_within_its_lifetime(messages):
    """R4: subscribed_at <= JMSTimestamp < unsubscribed_at (timestamps run 1000..1499)."""
    subs = [Subscription("heavy", SUBS["heavy"], subscribed_at=1200),
            Subscription("urgent", SUBS["urgent"], unsubscribed_at=1300, durable=False),
            Subscription("not-bikes", SUBS["not-bikes"], subscribed_at=1100, unsubscribed_at=1400)]
    windows = {"heavy": (1200, 10**9), "urgent": (0, 1300), "not-bikes": (1100, 1400)}
    for routing in ("jms", "wso2"):
        out = route(messages, subs, mode="topic", routing=routing)
        want = []
        for row in ROWS:
            live = [s for s in subs if windows[s.name][0] <= row[1] < windows[s.name][1]]
            got = [(row[0], s.name, "delivered") for s in live if _matches(s.selector, row)]
            if routing == "wso2":  # durable subscriptions alive at that time dead-letter their copy
                got += [(row[0], s.name, "dead_letter") for s in live if s.durable and not _matches(s.selector, row)]
            want += got or [(row[0], "", "dropped")]
        assert _triples(out) == sorted(want), routing


def test_topic_mode_is_one_scan(messages):
    subs = [Subscription(n, s, subscribed_at=1100) for n, s in SUBS.items()]
    for out in (route(messages, SUBS, mode="topic"), route(messages, subs, mode="topic", routing="wso2"),
                route(messages, subs, mode="queue", routing="wso2")):
        plan = out._jdf.queryExecution().executedPlan().toString()
        assert plan.count("FileScan parquet") == 1, plan


def test_queue_mode_delivers_each_message_exactly_once_round_robin(messages):
    out = route(messages, SUBS, mode="queue")
    got = dict((m, s) for m, s in _pairs(out))
    assert len(_pairs(out)) == len(ROWS) == len(got)  # nothing lost, nothing duplicated
    outcomes = dict((r[0], r[1]) for r in out.select("JMSMessageID", "outcome").collect())
    assert all(outcomes[m] == ("delivered" if s else "remains_queued") for m, s in got.items())  # R14
    dlq = route(messages, SUBS, mode="queue", routing=routing_rules("wso2", queue_rotation="match_set"))
    assert {(r[0], r[1]) for r in dlq.select("subscription", "outcome").distinct().collect() if r[0] is None} == {
        (None, "dead_letter")}  # R7
    # each message goes to one of its matching subscriptions (or is a dead letter if none);
    # messages matching the same set S are dealt round-robin over sorted(S) in JMSTimestamp order
    groups = collections.defaultdict(list)
    for row in sorted(ROWS, key=lambda r: (r[1], r[0])):
        hit = tuple(sorted(n for n, s in SUBS.items() if _matches(s, row)))
        groups[hit].append(row[0])
    for hit, ids in groups.items():
        for k, mid in enumerate(ids):
            assert got[mid] == (hit[k % len(hit)] if hit else None), (mid, hit, k)


def test_wso2_queue_rotation_is_one_cursor_over_the_consumers_in_bind_order(messages):
    """R6: each message goes to the first matching consumer at or after the cursor, which then
    moves past it; bind order is subscribed_at, then list order."""
    subs = [Subscription(n, s, subscribed_at=at) for (n, s), at in zip(SUBS.items(), [5, None, 3, None, 1])]
    bind = ["heavy", "irish", "not-bikes", "urgent", "blue-cars"]  # unset first (list order), then 1, 3, 5
    out = route(messages, subs, mode="queue", routing="wso2")
    cursor, want = 0, []
    for row in sorted(ROWS, key=lambda r: (r[1], r[0])):
        hit = [i for i, n in enumerate(bind) if _matches(SUBS[n], row)]
        if not hit:
            want.append((row[0], "", "dead_letter"))
            continue
        j = next((i for i in hit if i >= cursor), hit[0])
        want.append((row[0], bind[j], "delivered"))
        cursor = (j + 1) % len(bind)
    assert _triples(out) == sorted(want)
    assert out.columns == messages.columns + ["subscription", "outcome"]


def test_exclusive_queue_selector_is_an_egress_filter(messages):
    """R11: one active consumer at a time (first bound of those bound); a message goes to the first
    active consumer from its time on that selects it, else it stays queued (never a dead letter)."""
    subs = [Subscription("heavy", SUBS["heavy"], kind="exclusive_queue", unsubscribed_at=1250),
            Subscription("urgent", SUBS["urgent"], kind="exclusive_queue", subscribed_at=1100, unsubscribed_at=1400),
            Subscription("not-bikes", SUBS["not-bikes"], kind="exclusive_queue", subscribed_at=1300)]
    timeline = [("heavy", 1250), ("urgent", 1400), ("not-bikes", 10**9)]
    for routing in ("solace", "wso2"):
        out = route(messages, subs, mode="queue", routing=routing)
        want = []
        for row in ROWS:
            pick = next((n for n, end in timeline if row[1] < end and _matches(SUBS[n], row)), None)
            want.append((row[0], pick or "", "delivered" if pick else "remains_queued"))
        assert _triples(out) == sorted(want), routing


def test_ibmmq_zero_id_receiver_competes_for_every_message(messages):
    """R15 (seed 000): under `ibmmq` a receiver with ``JMSCorrelationID='ID:'+48 zeros`` gets the
    first message whatever its id, so it competes for every message; under `jms` the same text is
    string equality and selects none of these messages (they stay queued: R14)."""
    zero = "JMSCorrelationID = 'ID:" + "0" * 48 + "'"
    subs = {"any": zero, "blue-cars": SUBS["blue-cars"]}
    out = route(messages, subs, mode="queue", dialect="ibmmq")
    got = _triples(out)
    assert len(got) == len(ROWS) and {o for _, _, o in got} == {"delivered"}  # nobody left on the queue
    # the match sets are {any} and {any, blue-cars}: round-robin per set, in JMSTimestamp order
    groups = collections.defaultdict(list)
    for row in sorted(ROWS, key=lambda r: (r[1], r[0])):
        groups[("any", "blue-cars") if _matches(SUBS["blue-cars"], row) else ("any",)].append(row[0])
    assert len(groups[("any", "blue-cars")]) > 2
    want = sorted((mid, hit[k % len(hit)], "delivered") for hit, ids in groups.items() for k, mid in enumerate(ids))
    assert got == want
    plain = _triples(route(messages, subs, mode="queue", dialect="jms"))
    assert {m for m, s, _ in plain if s == "any"} == set()
    assert sorted(m for m, s, o in plain if o == "remains_queued") == sorted(
        r[0] for r in ROWS if not _matches(SUBS["blue-cars"], r))


def test_a_queue_keeps_messages_after_its_last_consumer_left(messages):
    subs = [Subscription("all", "", unsubscribed_at=1250)]
    out = route(messages, subs, mode="queue", routing="wso2")
    want = [(r[0], "all" if r[1] < 1250 else "", "delivered" if r[1] < 1250 else "remains_queued") for r in ROWS]
    assert _triples(out) == sorted(want)
    assert {r[0] for r in route(messages, {}, mode="queue", routing="wso2").select("outcome").collect()} == {
        "remains_queued"}


def test_dead_letters_can_be_routed_again(messages):
    """R8: the WSO2 DLC re-routed to the subscriptions current at that time."""
    routed = route(messages, SUBS, mode="queue", routing=routing_rules("wso2", queue_rotation="match_set"))
    dead = routed.where("outcome = 'dead_letter'").select(*messages.columns)
    again = route(dead, {"bikes": "JMSType = 'bike'"}, mode="queue", routing="wso2")
    dead_ids = {r[0] for r in dead.select("JMSMessageID").collect()}
    assert dead_ids and {r[0] for r in again.where("subscription = 'bikes'").select("JMSMessageID").collect()} == {
        row[0] for row in ROWS if row[0] in dead_ids and row[2] == "bike"}


def test_invalid_selectors_are_reported_and_the_rest_still_route(messages, caplog):
    subs = dict(SUBS, broken="color = 'blue' AND AND weight > 1", typo="weight >")
    errors = subscription_errors(subs)
    assert set(errors) == {"broken", "typo"}
    assert "line 1, column 20" in errors["broken"] and "^^^" in errors["broken"]
    with caplog.at_level("WARNING", logger="jms_selector_spark.spark.routing.route"):
        out = route(messages, subs, mode="queue")
    assert "broken" in caplog.text and "typo" in caplog.text
    assert out.count() == len(ROWS)
    assert not {"broken", "typo"} & {r[0] for r in out.select("subscription").distinct().collect()}


def test_bad_subscriptions_are_reported_and_nothing_is_lost(messages):
    subs = [("blue-cars", SUBS["blue-cars"]), (None, "weight > 1"), ("heavy", SUBS["heavy"]), ("heavy", "weight > 3"),
            {"name": "urgent", "selector": SUBS["urgent"], "transport": "direct"},
            {"name": "firehose", "selector": None, "transport": "direct"}, ("broken", "weight >")]
    out = route(messages, subs, mode="topic", routing="solace")
    report = route_report(out, subs, routing="solace")
    assert {k for k, v in report["subscriptions"].items() if v["error"]} == {"#2", "heavy", "urgent", "broken"}
    assert "R13" in report["subscriptions"]["urgent"]["error"]
    assert report["subscriptions"]["firehose"]["delivered"] == len(ROWS)  # no selector on Direct: allowed
    assert report["subscriptions"]["blue-cars"]["delivered"] == sum(_matches(SUBS["blue-cars"], r) for r in ROWS)
    assert report["unassigned"]["dropped"] == 0 and report["rows"] == out.count()
    # every message at least once, whatever the rule set and mode
    for mode in ("topic", "queue"):
        for routing in ("jms", "wso2", "solace"):
            got = route(messages, [("cars", "JMSType = 'car'")], mode=mode, routing=routing)
            assert got.select("JMSMessageID").distinct().count() == len(ROWS), (mode, routing)


def test_subscriptions_as_dict_list_and_dataframe(spark, messages):
    as_df = spark.createDataFrame([(n, s, True) for n, s in SUBS.items()], "name string, selector string, durable boolean")
    as_list = [(n, s) for n, s in SUBS.items()]
    a = _pairs(route(messages, SUBS))
    assert _pairs(route(messages, as_df)) == a == _pairs(route(messages, as_list))
    assert [s.name for s in normalize_subscriptions(["a = 1", "b = 2"])] == ["sub-1", "sub-2"]
    assert _pairs(route(messages, [Subscription(n, s) for n, s in SUBS.items()])) == a
    with pytest.raises(ValueError, match="unknown attribute column"):
        route(messages, as_df.withColumn("owner", as_df["name"]))
    with pytest.raises(ValueError, match="durable must be True or False"):
        route(messages, spark.createDataFrame([("x", "a = 1", "false")], "name string, selector string, durable string"))
    with pytest.raises(TypeError, match="one subscription per character"):
        route(messages, "JMSType = 'car'")
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


def test_columns_spark_cannot_tell_apart_by_name(spark, caplog):
    """Case-only twins (`weight`, `WeIgHt`) and a column twice (after a join): route resolves the
    selectors' names as JMS says (case-sensitively), hides by position the colliding columns no
    subscription reads, refuses only a subscription Spark still cannot resolve, keeps every column."""
    from conftest import sql_conf

    twins = spark.createDataFrame([(1, 3000, 5, "a"), (2, 10, 9000, "b"), (3, None, 7000, "a")],
                                  "JMSTimestamp long, weight long, WeIgHt long, color string")
    joined = twins.join(spark.createDataFrame([("a", "blue"), ("b", "red")], "k string, color string"),
                        twins.color == F_col("k")).drop("k")
    for sensitive in ("false", "true"):
        with sql_conf(spark, {"spark.sql.caseSensitive": sensitive}):
            out = route(twins, {"heavy": "weight > 2500", "all": "JMSTimestamp > 0"})
            assert out.columns == ["JMSTimestamp", "weight", "WeIgHt", "color", "subscription", "outcome"]
            got = sorted((r.JMSTimestamp, r.subscription) for r in out.collect())
            assert got == [(1, "all"), (1, "heavy"), (2, "all"), (3, "all")]
    with sql_conf(spark, {"spark.sql.caseSensitive": "false"}), caplog.at_level("WARNING"):
        out = route(twins, {"heavy": "weight > 2500", "HEAVY": "WeIgHt > 2500"})
        assert sorted((r.JMSTimestamp, r.subscription) for r in out.collect()) == [(1, "heavy"), (2, None), (3, None)]
        assert "'HEAVY' is not routed" in caplog.text and "caseSensitive" in caplog.text
        # `color` twice: a selector reading it is refused, the others route; both columns are kept
        out = route(joined, {"by-color": "color = 'blue'", "early": "JMSTimestamp < 3"})
        assert out.columns[-2:] == ["subscription", "outcome"] and out.columns.count("color") == 2
        assert sorted((r.JMSTimestamp, r.subscription) for r in out.collect()) == [(1, "early"), (2, "early"), (3, None)]
        assert "'by-color' is not routed" in caplog.text


def F_col(name):
    from pyspark.sql import functions as F

    return F.col(name)
