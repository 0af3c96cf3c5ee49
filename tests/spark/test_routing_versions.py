"""`route` with versions of a subscription (R10), the refusals `route_report` lists, and the
"nothing is lost" invariant over generated archives for every broker's rule set, ANSI on and off."""
from __future__ import annotations

import random

import pytest

import jms_selector_spark as jss
from jms_selector_spark.spark.routing import OUTCOMES, ROUTING_RULES, Subscription, route, route_report, routing_rules

pytestmark = pytest.mark.spark

DDL = "JMSMessageID string, JMSTimestamp long, JMSType string, weight long, consumed_at long"
TYPES = ["car", "truck", "bike", None]
ROWS = [(f"ID:{i:03d}", 1000 + i * 10, TYPES[i % 4], None if i % 13 == 0 else (i * 37) % 4000,
         None if i % 7 == 0 else 1000 + i * 10 + (i * 53) % 900) for i in range(150)]
# "fleet" rebinds three times: 1500 with another selector, 1900 with the same, 2200 with another
FLEET = [Subscription("fleet", "JMSType = 'car'"), Subscription("fleet", "JMSType <> 'bike'", subscribed_at=1500),
         Subscription("fleet", "JMSType <> 'bike'", subscribed_at=1900), Subscription("fleet", "weight > 1000", subscribed_at=2200)]
OTHERS = [Subscription("heavy", "weight > 2500"), Subscription("casual", "JMSType = 'bike'", durable=False, subscribed_at=1200),
          Subscription("casual", "JMSType = 'truck'", durable=False, subscribed_at=1700)]


def _matches(selector, row):
    headers = {"JMSMessageID": row[0], "JMSTimestamp": row[1]}
    if row[2] is not None:
        headers["JMSType"] = row[2]
    return jss.evaluate(selector, headers, {"weight": row[3], "consumed_at": row[4]}) is True


def _model(subs, rows, drop: bool, consumed: "str | None"):
    """Each version bound [its subscribed_at, the next one's); a durable version's copy is lost at the
    first later rebind whose selector differs, unless consumed before it (NULL: not consumed)."""
    by_name = {}
    for s in subs:
        by_name.setdefault(s.name, []).append(s)
    want = []
    for row in rows:
        got = []
        for name, vs in by_name.items():
            vs = sorted(vs, key=lambda s: -1 if s.subscribed_at is None else s.subscribed_at)
            for k, s in enumerate(vs):
                start = s.subscribed_at or -1
                end = vs[k + 1].subscribed_at if k + 1 < len(vs) else 10**12
                if not (start <= row[1] < end and _matches(s.selector, row)):
                    continue
                change = next((vs[j].subscribed_at for j in range(k + 1, len(vs))
                               if (vs[j].selector or "") != (vs[j - 1].selector or "")), None)
                lost = (drop and s.durable and consumed is not None and change is not None
                        and (row[4] is None or row[4] >= change))
                got.append((row[0], name, "dropped" if lost else "delivered"))
        want += got or [(row[0], "", "dropped")]
    return sorted(want)


def _triples(df):
    return sorted((r[0], r[1] or "", r[2]) for r in df.select("JMSMessageID", "subscription", "outcome").collect())


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(ROWS, DDL)


def test_a_rebind_with_another_selector_loses_the_copies_still_held(messages):
    """R10 (Solace, JMS, ActiveMQ: drop; WSO2: keep), with and without consumption times."""
    subs = FLEET + OTHERS
    for routing in ("solace", "jms", "activemq", "wso2"):
        drop = ROUTING_RULES[routing].rebind_selector_change == "drop"
        rules = routing_rules(routing, durable_nonmatch="ignore")  # WSO2's R3 dead letters: tested elsewhere
        out = route(messages, subs, mode="topic", routing=rules, consumed_column="consumed_at")
        want = _model(subs, ROWS, drop, "consumed_at")
        assert _triples(out) == want, routing
        lost = sum(1 for w in want if w[1] and w[2] == "dropped")
        assert (lost > 0) == drop, routing  # the data does exercise the rule
        report = route_report(out, subs, routing=rules, consumed_column="consumed_at")
        assert report["subscriptions"]["fleet"]["dropped"] == lost and report["notes"] == []
        if drop:
            assert "R10" in report["rules"]["dropped"]
            assert "rebind_selector_change=drop" in report["rules"]["dropped"]
    # without consumption times: consumed on arrival, nothing lost, and the report says so
    out = route(messages, subs, mode="topic", routing="solace")
    assert _triples(out) == _model(subs, ROWS, True, None)
    report = route_report(out, subs, routing="solace")
    assert report["subscriptions"]["fleet"]["dropped"] == 0
    assert len(report["notes"]) == 1 and "R10" in report["notes"][0] and "could not be applied" in report["notes"][0]
    # an identical selector at every rebind keeps everything
    same = [Subscription("fleet", "JMSType = 'car'", subscribed_at=at) for at in (None, 1500, 2200)]
    out = route(messages, same, mode="topic", routing="solace", consumed_column="consumed_at")
    assert {r[0] for r in out.select("outcome").distinct().collect()} <= {"delivered", "dropped"}
    assert out.where("subscription IS NOT NULL AND outcome <> 'delivered'").count() == 0
    assert route_report(out, same, routing="solace")["notes"] == []


def test_consumption_times_per_subscription_and_as_timestamps(spark, messages):
    """A MAP<STRING, time> column gives each subscription's copy its own time; timestamps work too."""
    from pyspark.sql import functions as F

    by_sub = messages.withColumn("consumed", F.create_map(F.lit("fleet"), F.col("consumed_at")))
    a = route(by_sub, FLEET, mode="topic", routing="solace", consumed_column="consumed").drop("consumed")
    as_ts = messages.withColumn("ts", F.timestamp_millis("consumed_at"))
    b = route(as_ts, FLEET, mode="topic", routing="solace", consumed_column="ts").drop("ts")
    want = _model(FLEET, ROWS, True, "consumed_at")
    assert _triples(a) == want == _triples(b)
    with pytest.raises(ValueError, match="consumed_column 'JMSType' must be numeric"):
        route(messages, FLEET, routing="solace", consumed_column="JMSType")
    with pytest.raises(ValueError, match="not a message column"):
        route(messages, FLEET, routing="solace", consumed_column="acked")


def test_versions_in_queue_mode_and_bad_versions_are_reported(messages):
    """A queue consumer's versions are consumers of their own intervals (the name is given back);
    overlapping versions are not created and reported, the rest route."""
    subs = [Subscription("worker", "JMSType = 'car'", kind="exclusive_queue", unsubscribed_at=1500),
            Subscription("worker", "JMSType = 'bike'", kind="exclusive_queue", subscribed_at=1500)]
    out = route(messages, subs, mode="queue", routing="solace")
    want = []
    for row in ROWS:
        pick = ("worker" if (row[1] < 1500 and row[2] == "car") or row[2] == "bike" else "")
        want.append((row[0], pick, "delivered" if pick else "remains_queued"))
    assert _triples(out) == sorted(want)
    bad = OTHERS + [Subscription("x", "weight > 1", unsubscribed_at=1600), Subscription("x", "weight > 2", subscribed_at=1500)]
    out = route(messages, bad, mode="topic")
    report = route_report(out, bad)
    assert "overlap" in report["subscriptions"]["x"]["error"] and report["subscriptions"]["x"]["delivered"] == 0
    assert report["subscriptions"]["heavy"]["delivered"] == sum(_matches("weight > 2500", r) for r in ROWS)


def test_route_report_lists_subscriptions_refused_for_column_collisions(spark):
    """#17 item 5: the subscriptions `route` refuses because Spark cannot tell their columns apart
    are in route_report with the reason, like the other refused subscriptions."""
    from conftest import sql_conf

    twins = spark.createDataFrame([(1, 3000, 5), (2, 10, 9000)], "JMSTimestamp long, weight long, WeIgHt long")
    subs = {"heavy": "weight > 2500", "HEAVY": "WeIgHt > 2500", "bad": "weight >", "all": ""}
    with sql_conf(spark, {"spark.sql.caseSensitive": "false"}):
        out = route(twins, subs)
        report = route_report(out, subs)
    errors = {k: v["error"] for k, v in report["subscriptions"].items() if v["error"]}
    assert set(errors) == {"HEAVY", "bad"}
    assert errors["HEAVY"].startswith("SelectorBindingError") and "caseSensitive" in errors["HEAVY"]
    assert report["subscriptions"]["heavy"]["delivered"] == 1 and report["subscriptions"]["all"]["delivered"] == 2
    with sql_conf(spark, {"spark.sql.caseSensitive": "true"}):
        assert {k for k, v in route_report(route(twins, subs), subs)["subscriptions"].items() if v["error"]} == {"bad"}


# ------------------------------------------------------------------ nothing is lost

SELECTORS = ["JMSType = 'car'", "weight > 2000", "JMSType IN ('bike', 'truck') OR weight < 100", "", "NOT (JMSType = 'car')",
             "weight BETWEEN 500 AND 1500", "JMSType LIKE 'b%'", "weight / 0 > 1", "JMSType = 5", "weight >"]


def _archive(rng, n, seed):
    return [(f"ID:{seed}-{i:03d}", rng.choice([None] + list(range(1000, 3000, 7))), rng.choice(TYPES),
             rng.choice([None, 0, 50, 700, 1200, 2500, 3900]), rng.choice([None, 0, 1800, 2400, 9999])) for i in range(n)]


def _subscriptions(rng, mode):
    kind = ("topic" if mode == "topic" else rng.choice(["queue", "exclusive_queue"]))
    subs = []
    for k in range(rng.randint(0, 5)):
        name = f"s{k}"
        times = sorted(rng.sample(range(1000, 3000, 50), rng.randint(1, 3)))
        durable = rng.random() < 0.7
        for j, at in enumerate(times):
            end = rng.choice([None, at + 300]) if j == len(times) - 1 else None
            subs.append(Subscription(name, rng.choice(SELECTORS), durable=durable, kind=kind,
                                     subscribed_at=None if (j == 0 and rng.random() < 0.3) else at, unsubscribed_at=end,
                                     transport=rng.choice(["guaranteed"] * 5 + ["direct"])))
    if rng.random() < 0.2:  # a bad version set
        subs += [Subscription("dup", "weight > 1", kind=kind, subscribed_at=1100),
                 Subscription("dup", "weight > 2", kind=kind, subscribed_at=1100)]
    return subs


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_nothing_is_lost_under_every_rule_set(spark, ansi):
    """Every message appears at least once in the output, or is counted as dropped by a rule the
    report names; checked over generated archives and subscriptions (versions, lifetimes, kinds,
    Direct transport, invalid selectors) for every built-in rule set and mode, in one job per case set."""
    from conftest import sql_conf
    from pyspark.sql import functions as F

    rng = random.Random(1515 + (ansi == "true"))
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        cases, routed = [], None
        for c in range(2):
            rows = _archive(rng, 60, c)
            messages = spark.createDataFrame(rows, DDL)
            for routing in sorted(ROUTING_RULES):
                for mode in ("topic", "queue"):
                    subs = _subscriptions(rng, mode)
                    consumed = rng.choice([None, "consumed_at"])
                    out = route(messages, subs, mode=mode, routing=routing, consumed_column=consumed)
                    cases.append((len(cases), rows, subs, routing, mode, consumed, out))
                    tagged = out.select(F.lit(len(cases) - 1).alias("case"), "JMSMessageID", "subscription", "outcome")
                    routed = tagged if routed is None else routed.unionByName(tagged)
        got = {}
        for r in routed.collect():
            got.setdefault(r["case"], []).append((r["JMSMessageID"], r["subscription"], r["outcome"]))
        for case, rows, subs, routing, mode, consumed, out in cases:
            where = (case, routing, mode, consumed, subs)
            out_rows = got.get(case, [])
            assert {m for m, _, _ in out_rows} == {r[0] for r in rows}, where  # every message at least once
            if mode == "queue":
                assert len(out_rows) == len(rows), where  # and exactly once on a queue
            assert all(o in OUTCOMES for _, _, o in out_rows), where
            assert all(s is not None for _, s, o in out_rows if o == "delivered"), where
            rules = ROUTING_RULES[routing]
            for _, s, o in out_rows:
                if o == "dropped" and s is None:  # no subscription holds it: the rule set's unmatched rule
                    assert (rules.topic_unmatched if mode == "topic" else rules.queue_unmatched) == "dropped", where
                if o == "dropped" and s is not None:  # a held copy lost: only R10 does that
                    assert mode == "topic" and consumed and rules.rebind_selector_change == "drop", where
        # the report names the rule behind every dropped row (one aggregation job per case: a sample)
        for case, rows, subs, routing, mode, consumed, out in cases[::4]:
            report = route_report(out, subs, mode=mode, routing=routing, consumed_column=consumed)
            assert report["rows"] == len(got.get(case, [])), case
            if report["unassigned"]["dropped"]:
                assert ("topic_unmatched=dropped" if mode == "topic" else "queue_unmatched=dropped") in report["rules"]["dropped"]
            if any(v["dropped"] for v in report["subscriptions"].values()):
                assert "rebind_selector_change=drop" in report["rules"]["dropped"], case
