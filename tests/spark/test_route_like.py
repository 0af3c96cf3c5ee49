"""Subscriptions indexed on a ``LIKE 'prefix…'`` (an index on the value's first characters,
`access.AccessPredicate.prefix`) and templates whose members share parameter values (one candidate
for all of them, `render_templates.shared`) route exactly like the reference interpreter
and the single-CASE plan: NULL values, values no subscription names, escaped wildcards, non-ASCII
prefixes, ANSI on and off, topic and queue mode. Batched: one DataFrame, one collect per setting."""
from __future__ import annotations

import random

import pytest

import jms_selector_spark as jss
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription, explain_routing, route
from jms_selector_spark.spark.routing.columns import matching_names, string_columns, tag_matches
from jms_selector_spark.spark.routing.render_templates import shared
from jms_selector_spark.spark.routing.templates import distinct_candidates, plan_templates
from jms_selector_spark.spark.routing.tuning import RoutingTuning

from conftest import sql_conf
from routed import assert_routed
from test_route_plan import _split

pytestmark = pytest.mark.spark
NO_INDEX = RoutingTuning(disabled={"index"})

DDL = "id int, JMSCorrelationID string, JMSType string, customer string, n int"
CORRELATIONS = [None, "ORD-1", "ORD-12", "ORD-", "ord-1", "", "ORD-1%x", "ORD_1", "ORD-1!x", "Zoë-7", "Zo", "Zoe",
                "山田-1", "山", "ORD-1\n2", "!ORD", "ab%c", "abxc", "ORD-2026-0071"]
CUSTOMERS = [None, "O'Brien", "Zoë Dubois", "Acme", "", "山田太郎", "Ac", "Zo", "山", "ac", "A", "Zoë"]
TYPES = [None, "car", "bus"]

#: Each written 3 times (a template needs 2 members): LIKE prefixes of several lengths, escaped
#: wildcards, a pattern with more after its prefix, no wildcard at all, no literal prefix.
SELECTORS = [
    "JMSCorrelationID LIKE 'ORD-1%'", "JMSCorrelationID LIKE 'ORD-%'", "JMSCorrelationID LIKE 'ORD-1_'",
    "JMSCorrelationID LIKE 'Zoë%'", "JMSCorrelationID LIKE '山%'", "JMSCorrelationID LIKE 'ORD-1!%%' ESCAPE '!'",
    "JMSCorrelationID LIKE 'ORD-1!!%'", "JMSCorrelationID LIKE 'ab\\%%' ESCAPE '\\'", "JMSCorrelationID LIKE 'ORD-12'",
    "JMSCorrelationID LIKE '%1'", "JMSCorrelationID LIKE '' ", "JMSCorrelationID LIKE 'ORD-2026-007%'",
    "JMSCorrelationID LIKE 'ORD-1%' AND n > 2", "JMSCorrelationID LIKE 'ORD-1%' AND n > 5",
    "JMSCorrelationID LIKE 'O%' AND customer LIKE 'Zo%'", "JMSCorrelationID LIKE 'ORD%' AND JMSType = 'car'",
    "JMSCorrelationID NOT LIKE 'ORD%'", "customer LIKE 'Ac%' AND NOT (n < 3)", "customer LIKE 'O''%'",
    "(JMSCorrelationID LIKE 'ORD-1%' OR n = 1)",
]


def _rows(n=300):
    rng = random.Random(16)
    return [(i, rng.choice(CORRELATIONS), rng.choice(TYPES), rng.choice(CUSTOMERS), rng.choice([None, 0, 1, 3, 7]))
            for i in range(n)]


def _subscriptions():
    subs = [Subscription(f"l{i:02d}{c}", s) for i, s in enumerate(SELECTORS) for c in "abc"]
    # a template whose members share parameter values (evaluated once for all of them)
    subs += [Subscription(f"t{i:02d}", f"JMSType = 'car' AND n > {i % 3}") for i in range(12)]
    return subs


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(_rows(), DDL).repartition(2).cache()


def _expected(dialect, subs):
    out = {}
    for i, corr, ty, customer, n in _rows():
        headers = {k: v for k, v in (("JMSCorrelationID", corr), ("JMSType", ty)) if v is not None}
        props = {k: v for k, v in (("customer", customer), ("n", n)) if v is not None}
        out[i] = sorted(s.name for s in subs if jss.evaluate(s.selector, headers, props, dialect=dialect) is True)
    return out


@pytest.mark.parametrize("dialect", ["jms", "activemq", "wso2"])
def test_like_prefix_index_equals_reference_and_single_case_plan(spark, messages, dialect):
    d = get_dialect(dialect)
    subs = _subscriptions()
    native, fallback = _split(subs, messages.schema, d)
    assert len(native) == len(subs) and not fallback
    tp = plan_templates(native, string_columns(messages.schema))
    prefix = [a for a in tp.accesses if a.value_sqls[0].startswith("substring(")]
    assert {a.value_sqls[0] for a in prefix} >= {"substring(`JMSCorrelationID`, 1, 5)", "substring(`JMSCorrelationID`, 1, 1)"}
    assert any(t.trivial for a in prefix for t in a.templates)  # matched by the join alone
    assert any(not t.trivial for a in prefix for t in a.templates)  # tested again
    assert any(shared(a, j, distinct_candidates(a, j)) for a in tp.accesses for j in range(len(a.templates)))
    tagged = tag_matches(messages, native, fallback)
    old = matching_names(native, fallback, messages.schema, tuning=NO_INDEX)
    df = tagged.select("id", "__jms_matches", old.alias("old"))
    want = _expected(d, subs)
    assert sum(map(len, want.values())) > 500  # the comparison is not between empty arrays
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.collect()
        assert len(rows) == 300
        bad = [(r["id"], r["__jms_matches"], want[r["id"]]) for r in rows
               if not (r["__jms_matches"] == r["old"] == want[r["id"]])]
        assert not bad, (dialect, ansi, bad[:2])


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_route_topic_and_queue_with_like_prefixes(spark, messages, ansi):
    subs = _subscriptions()
    want = _expected(get_dialect("jms"), subs)
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        topic = route(messages, {s.name: s.selector for s in subs}, mode="topic").select("id", "subscription").collect()
        queue = route(messages, {s.name: s.selector for s in subs}, mode="queue", order_by="id").select(
            "id", "subscription").collect()
    assert_routed(topic, queue, want, 300)


def test_explain_shows_the_like_prefix_join(messages):
    text = explain_routing(messages, {s.name: s.selector for s in _subscriptions()})
    assert "index on JMSCorrelationID (substring(`JMSCorrelationID`, 1, 5)) LIKE prefix" in text


def _paired():
    """Equality AND LIKE prefix: 24 subscriptions on (JMSType, 2-character prefix), more than
    `RoutingTuning.min_pair_members`, some with a conjunct left to test; 6 on 3-character prefixes, too few for
    an index of their own."""
    subs = [Subscription(f"p{t}{i}{c}", f"JMSType = '{t}' AND customer LIKE '{p}%'" + (" AND n > 0" if c == "c" else ""))
            for t in ("car", "bus") for i, p in enumerate(["Ac", "Zo", "山田", "O''"]) for c in "abc"]
    return subs + [Subscription(f"q{t}{c}", f"customer LIKE 'Zoë%' AND JMSType = '{t}'") for t in ("car", "bus") for c in "abc"]


@pytest.mark.parametrize("dialect", ["jms", "activemq"])
def test_an_equality_and_a_like_prefix_share_one_index(spark, messages, dialect):
    d = get_dialect(dialect)
    subs = _paired()
    native, fallback = _split(subs, messages.schema, d)
    tp = plan_templates(native, string_columns(messages.schema))
    pair = [a for a in tp.accesses if a.value_sqls == ("`JMSType`", "substring(`customer`, 1, 2)")]
    assert pair and len({nm for t in pair[0].templates for nm in t.members}) == 24
    # both conjuncts implied by the index: the two-conjunct selectors are never evaluated
    assert sum(t.trivial for t in pair[0].templates) == 4
    assert not any("substring(`customer`, 1, 3)" in v for a in tp.accesses for v in a.value_sqls)
    tagged = tag_matches(messages, native, fallback)
    old = matching_names(native, fallback, messages.schema, tuning=NO_INDEX)
    df = tagged.select("id", "__jms_matches", old.alias("old"))
    want = _expected(d, subs)
    assert sum(map(len, want.values())) > 60
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.collect()
        bad = [(r["id"], r["__jms_matches"], want[r["id"]]) for r in rows
               if not (sorted(r["__jms_matches"]) == sorted(r["old"]) == want[r["id"]])]
        assert not bad, (dialect, ansi, bad[:2])
