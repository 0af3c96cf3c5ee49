"""Templates: subscriptions matched through templates and their index (constant maps) give exactly
the names the single-CASE plan gives (the oracle), in the dialects of the Spark tests'
sample (every rule value: tests/support/dialect_sample.py), ANSI on and off, topic and queue
mode; one scan of the messages."""
from __future__ import annotations

import random

import pytest

from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription, explain_routing, route
from jms_selector_spark.spark.routing.columns import string_columns, tag_matches
from jms_selector_spark.spark.routing.templates import plan_templates
from jms_selector_spark.spark.routing.tuning import RoutingTuning

from conftest import sql_conf
from routed import assert_routed
from support.routing import fragments
from support.single_case import single_case_sql
from test_route_plan import _q, _selectors, _split

NO_INDEX = RoutingTuning(disabled={"index"})

pytestmark = pytest.mark.spark

DDL = ("id int, JMSType string, JMSDeliveryMode int, JMSPriority int, region string, color string, "
       "weight long, price double, qty int, code string")
TYPES = ["car", "Car", "bus", "", "truck", None, "5", "O'Brien"]
REGIONS = ["EU", "US", "eu", None, "APAC"]


def _rows(n=500):
    rng = random.Random(4)
    return [(i, rng.choice(TYPES), rng.choice([1, 2, None]), rng.choice([None] + list(range(10))), rng.choice(REGIONS),
             rng.choice(["blue", "red", None, "Zoë"]), rng.choice([None, -7, 0, 10, 2500, 4000, 2 ** 40]),
             rng.choice([None, -0.0, 0.5, 99.99, 1e10, float("nan"), 12.5]), rng.choice([None, 0, 3, 2 ** 31 - 1]),
             rng.choice(["5", "05", "p-1", None, "pq", ""]))
            for i in range(n)]


def _templated(rng):
    """A selector of one of a few shapes with random literals of every type."""
    t, t2 = rng.sample([x for x in TYPES if x is not None], 2)
    r = rng.choice(["EU", "US", "eu", "APAC"])
    k = rng.randrange(12)
    if k == 0:
        return f"JMSType = {_q(t)} AND weight > {rng.choice([0, 10, 2500, -3, 3000])}"
    if k == 1:
        return f"JMSType = {_q(t)} AND weight >= {rng.choice([2 ** 35, 2 ** 40, 2 ** 41])}"  # BIGINT literals
    if k == 2:
        return f"region IN ({_q(r)}, {_q(t)}) AND price >= {rng.choice([0.5, 12.5, 1.5e9, 99.99, 0.0])}"
    if k == 3:
        return f"JMSType = {_q(t)} AND code = {_q(rng.choice(['5', '05', 'pq', '']))}"
    if k == 4:
        return f"region = {_q(r)} AND JMSPriority BETWEEN {rng.randrange(5)} AND {rng.randrange(4, 10)}"
    if k == 5:
        return f"JMSType = {_q(t)} AND qty * {rng.choice([2, 3, 1000])} > {rng.choice([5, 6000, 2 ** 31 - 1])}"
    if k == 6:
        return f"JMSType = {_q(t)} AND code LIKE {_q(rng.choice(['p%', '_', '0%', '%']))}"
    if k == 7:
        return f"JMSType IN ({_q(t)}, {_q(t2)}) AND (color IS NULL OR color = {_q(rng.choice(['red', 'Zoë']))})"
    if k == 8:
        return f"region = {_q(r)} AND price / {rng.choice([2, 4, 0])} < {rng.choice([3.5, 1e10, 50])}"
    if k == 9:
        return f"JMSType = {_q(t)} AND JMSPriority <> {rng.randrange(10)} AND region = {_q(r)}"
    if k == 10:
        return f"(JMSType = {_q(t)} OR JMSType = {_q(t2)}) AND NOT (weight < {rng.choice([10, 2500])})"
    return f"JMSType = {_q(t)} AND color = {_q(rng.choice(['blue', 'red']))} AND weight + qty > {rng.randrange(3000)}"


def _subscriptions(n, seed):
    rng = random.Random(seed)
    subs = [Subscription(f"t{i:03d}", _templated(rng)) for i in range(n)]
    return subs + [Subscription("x" + s.name, s.selector) for s in _selectors(40, seed)]


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(_rows(), DDL).repartition(2).cache()


def test_templates_equal_the_single_case_plan(spark, messages, dialect):
    from pyspark.sql import functions as F

    d = get_dialect(dialect)
    native, fallback = _split(_subscriptions(220, seed=len(dialect)), messages.schema, d)
    if dialect == "mqe":  # only AND, = and IS NULL: most generated selectors are invalid there
        assert len(native) > 20
    else:
        assert len(native) > 180
    tp = plan_templates(native, string_columns(messages.schema))
    templated = len(tp.names)
    today = F.sort_array(F.expr(single_case_sql(fragments(native))))
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            tagged = tag_matches(messages, native, fallback).withColumn("__today", today)
            rows = tagged.select("id", "__jms_matches", "__today").collect()
            scans = tagged._jdf.queryExecution().executedPlan().toString().count("InMemoryTableScan")
        assert len(rows) == 500 and scans == 1
        diff = [(r["id"], r["__jms_matches"], r["__today"]) for r in rows if r["__jms_matches"] != r["__today"]]
        assert not diff, (dialect, ansi, diff[:3])
    if dialect != "mqe":
        assert templated > 120 and len(tp.accesses) >= 2  # the templates really are exercised
        assert sum(len(r["__today"]) for r in rows) > 2000  # and the comparison is not between empty arrays
        assert any(ty in ("INT", "BIGINT", "DOUBLE", "STRING") for a in tp.accesses for t in a.templates
                   for ty in t.param_types)
        types = {ty for a in tp.accesses for t in a.templates for ty in t.param_types}
        assert types == {"INT", "BIGINT", "DOUBLE", "STRING"}, types


def test_route_topic_and_queue_with_templates(spark, messages):
    from pyspark.sql import functions as F

    d = get_dialect("jms")
    subs = _subscriptions(150, seed=21)
    native, _ = _split(subs, messages.schema, d)
    assert len(plan_templates(native, string_columns(messages.schema)).names) > 80
    today = single_case_sql(fragments(native))
    expected = {r["id"]: r["m"] for r in messages.select("id", F.sort_array(F.expr(today)).alias("m")).collect()}
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            topic = route(messages, subs, mode="topic", order_by="id").select("id", "subscription").collect()
            queue = route(messages, subs, mode="queue", order_by="id").select("id", "subscription").collect()
        assert_routed(topic, queue, expected, 500)
    assert sum(map(len, expected.values())) > 1000


def test_templates_with_fallback_subscriptions_in_one_scan(spark, messages):
    from jms_selector_spark.spark.routing.columns import matching_names

    d = get_dialect("activemq")
    subs = _subscriptions(100, seed=8) + [Subscription("fb1", "JMSType = 'car' AND INLIST(SPLIT(color, ' '), 'red')")]
    native, fallback = _split(subs, messages.schema, d)
    assert [s.name for s, _ in fallback] == ["fb1"]
    tagged = tag_matches(messages, native, fallback)
    got = {r["id"]: r["__jms_matches"] for r in tagged.select("id", "__jms_matches").collect()}
    old = matching_names(native, fallback, messages.schema, tuning=NO_INDEX)
    want = {r["id"]: r["m"] for r in messages.select("id", old.alias("m")).collect()}
    assert got == want and any("fb1" in m for m in got.values())
    assert tagged._jdf.queryExecution().executedPlan().toString().count("InMemoryTableScan") == 1
    assert tagged.columns == messages.columns + ["__jms_matches"]


def test_explain_shows_templates(messages):
    subs = _subscriptions(120, seed=3)
    text = explain_routing(messages, subs)
    assert "templates:" in text and "index on JMSType" in text
    assert "candidates evaluated per message" in text


def test_index_is_a_constant_map_lookup_not_a_join(spark, messages):
    """The key number comes from a constant map (nested for a pair): no join and no broadcast
    (each broadcast hash relation took a 64 MB page); NULL and unnamed values get no key number,
    names with quotes, non-ASCII and the empty string are found, ANSI on and off."""
    from pyspark.sql import functions as F

    from jms_selector_spark.spark.routing.render_templates import lookup_sql

    d = get_dialect("jms")
    rng = random.Random(5)  # + subscriptions indexed on a pair of values
    pair = [Subscription(f"p{i:02d}", f"JMSType = {_q(rng.choice(TYPES[:5] + TYPES[6:]))} AND region = "
                                      f"{_q(rng.choice(REGIONS[:3]))} AND weight > {rng.randrange(3000)}") for i in range(40)]
    colors = [Subscription(f"c{i:02d}", f"color = {_q(c)} AND qty > {i}") for i, c in enumerate(["Zoë", "red", "blue"] * 4)]
    native, _ = _split(_subscriptions(150, seed=21) + pair + colors, messages.schema, d)
    tp = plan_templates(native, string_columns(messages.schema))
    plan = tag_matches(messages, native, [])._jdf.queryExecution().executedPlan().toString()
    assert "Join" not in plan and "Broadcast" not in plan
    pairs = [a for a in tp.accesses if len(a.value_sqls) == 2]
    assert pairs and all(lookup_sql(a).count("try_element_at(") == 2 for a in pairs)
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            for a in tp.accesses:
                keys = a.keys  # a property that walks every member: read once
                cols = [F.expr(v).alias(f"v{i}") for i, v in enumerate(a.value_sqls)]
                rows = messages.select(*cols, F.expr(lookup_sql(a)).alias("k")).collect()
                for r in rows:
                    values = tuple(r[f"v{i}"] for i in range(len(a.value_sqls)))
                    want = keys.index(values) + 1 if values in keys else None
                    assert r["k"] == want, (a.value_sqls, values, r["k"])
                found = {r["k"] for r in rows}
                assert None in found and len(found) >= 2  # both outcomes exercised
    keys = {v for a in tp.accesses for k in a.keys for v in k}
    assert {"O'Brien", "", "Zoë"} <= keys
