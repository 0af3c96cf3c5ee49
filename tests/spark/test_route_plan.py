"""The index plan (`index`, `render_index`): the indexed, JIT-sized plan gives exactly the names the single-CASE plan gives.

Generated subscriptions (access predicates of every eligible and ineligible shape, mixed with
other conjuncts) over messages with NULLs, case variants, empty strings and an INT delivery mode
column; jms and activemq, ANSI on and off; one DataFrame per setting.
"""
from __future__ import annotations

import itertools
import random

import pytest

from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription, explain_routing, route
from jms_selector_spark.spark.routing.columns import matching_names, tag_matches
from jms_selector_spark.spark.routing.index import plan_routing
from jms_selector_spark.spark.routing.render_index import needs_guard, own_parts, plan_sql
from jms_selector_spark.spark.routing.tuning import DEFAULT, RoutingTuning
from support.routing import estate, fragments
from support.single_case import single_case_sql

from conftest import sql_conf

pytestmark = pytest.mark.spark

DDL = ("id int, JMSType string, JMSDeliveryMode int, JMSPriority int, region string, color string, "
       "weight long, code string, props map<string,string>")
TYPES = ["car", "Car", "bus", "", "car ", None, "truck", "5"]
REGIONS = ["EU", "US", "eu", None, "APAC"]
COLORS = ["blue", "red", None, "O'Brien"]
CODES = ["5", "05", "5.0", None, "x"]


def _rows(n=400):
    rng = random.Random(3)
    return [(i, rng.choice(TYPES), rng.choice([1, 2, None]), rng.randrange(10), rng.choice(REGIONS),
             rng.choice(COLORS), rng.choice([None, 10, 2500, 4000]), rng.choice(CODES),
             rng.choice([None, {}, {"k": "car"}, {"k": "bus"}, {"k": None}]))
            for i in range(n)]


def _q(v):
    return "'" + v.replace("'", "''") + "'"


def _access(rng):
    col, vals = rng.choice([("JMSType", TYPES[:-3]), ("region", REGIONS[:3] + ["APAC"]), ("color", COLORS[:2] + ["O'Brien"]),
                            ("code", CODES[:3]), ("JMSDeliveryMode", ["PERSISTENT", "NON_PERSISTENT"])])
    vs = [v for v in vals if v is not None]
    k = rng.randrange(9)
    if k == 0:
        return f"{col} IN ({', '.join(_q(v) for v in rng.sample(vs, min(2, len(vs))))})"
    if k == 1:
        return f"{_q(rng.choice(vs))} = {col}"  # literal on the left (activemq's asymmetric NULLs)
    if k == 2:
        a, b = rng.choice(vs), rng.choice(vs)
        return f"({col} = {_q(a)} OR {col} = {_q(b)})"
    if k == 3:
        return f"NOT ({col} = {_q(rng.choice(vs))})"  # not an access predicate
    if k == 4:
        return f"{col} <> {_q(rng.choice(vs))}"  # not one either
    if k == 5:
        return f"code = {rng.choice([5, 5.0])}"  # a number against a STRING column: never an access predicate
    if k == 6:
        return f"weight = {_q('2500')}"  # a string against a numeric column
    if k == 7:
        return f"{col} = {_q(rng.choice(vs))}"
    return f"{col} NOT IN ({_q(rng.choice(vs))})"


def _other(rng):
    return rng.choice(["weight > 2000", "JMSPriority >= 5", "color IS NULL", "region LIKE 'E%'",
                       "NOT (weight < 3000)", "code IS NOT NULL", "JMSPriority BETWEEN 2 AND 7", "TRUE"])


def _selectors(n, seed):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        parts = [_access(rng) for _ in range(rng.choice([0, 1, 1, 2]))] + [_other(rng) for _ in range(rng.randrange(0, 2))]
        rng.shuffle(parts)
        if rng.random() < 0.1:
            sel = " OR ".join(parts) if parts else ""
        else:
            sel = " AND ".join(parts)
        out.append(Subscription(f"s{i:03d}", sel))
    return out


JIT_CASES, JIT_SQL_CHARS, GUARD_MAX_CASES = DEFAULT.jit_cases, DEFAULT.jit_sql_chars, DEFAULT.guard_max_cases
NO_INDEX = RoutingTuning(disabled={"index"})


def _split(subs, schema, d):
    return estate(subs, schema, d)


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(_rows(), DDL).repartition(2).cache()


@pytest.mark.parametrize("dialect", ["jms", "activemq"])
def test_indexed_plan_equals_the_single_case_plan(spark, messages, dialect):
    from pyspark.sql import functions as F

    d = get_dialect(dialect)
    schema = messages.schema
    subs = _selectors(160, seed=len(dialect))
    native, fallback = _split(subs, schema, d)
    assert len(native) > 120
    small = native[:12]
    plans = {"big": plan_routing(native, fallback), "small": plan_routing(small, [])}
    # the index and the codegen guard really are exercised
    assert plans["big"].groups and plans["big"].general and needs_guard(plans["big"], True)
    assert sum(len(g.members) for g in plans["big"].groups) >= 30
    assert plans["big"].estimated_evaluated() < len(native) - 10
    assert plans["small"].case_count <= JIT_CASES and not needs_guard(plans["small"], True)
    cols = [F.col("id")]
    for label, nat in (("big", native), ("small", small)):
        cols.append(matching_names(nat, [], schema).alias(f"{label}_new"))
        cols.append(matching_names(nat, [], schema, tuning=NO_INDEX).alias(f"{label}_noindex"))
        # the single-CASE plan: one CASE per subscription in one array, sorted
        cols.append(F.sort_array(F.expr(single_case_sql(fragments(nat)))).alias(f"{label}_today"))
    # above guard_max_cases (forced here to 0): the flat plan, one CASE per subscription, without
    # the guard (Spark's own fallback from whole-stage codegen)
    flat = RoutingTuning(guard_max_cases=0)
    unguarded = plan_routing(native, [], flat)
    assert not needs_guard(unguarded, True, flat) and plans["big"].case_count <= GUARD_MAX_CASES
    assert not unguarded.groups and unguarded.case_count == len(native)
    cols.append(F.sort_array(F.expr(plan_sql(unguarded))).alias("big_unguarded"))
    df = messages.select(*cols)
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.collect()
        assert len(rows) == 400
        total = 0
        for r in rows:
            for label in ("big", "small"):
                assert r[f"{label}_new"] == r[f"{label}_today"] == r[f"{label}_noindex"], (ansi, label, r["id"])
            assert r["big_unguarded"] == r["big_today"], (ansi, r["id"])
            total += len(r["big_today"])
        assert total > 1000  # the comparison is not between empty arrays


def _long(rng, i, access=None):
    """A selector of several conjuncts with arithmetic, ranges, LIKE and ORs: ~400 characters of
    SQL, several times `_selectors`' (and more bytecode per CASE)."""
    heavy = [f"weight * 2 + JMSPriority > {rng.randrange(5000)}", f"weight BETWEEN {rng.randrange(100)} AND 4000",
             f"(color LIKE 'b%' OR region IN ('EU', 'US', 'APAC') OR JMSPriority - 1 < {rng.randrange(9)})",
             f"NOT (weight / 4 <= {rng.randrange(900)} AND code LIKE '5!_%' ESCAPE '!')"]
    return Subscription(f"l{i:03d}", " AND ".join([access or _access(rng)] + rng.sample(heavy, rng.randrange(2, 5))))


#: Estates of `_long` selectors (and as many of `_selectors` above 24: templates, several groups;
#: the last one: 30 of them and 20 on one JMSType).
#: Sizes of `test_small_plans_stay_jit_able`'s estates: both sides of `JIT_SQL_CHARS` (~11 long
#: selectors) and `JIT_CASES`, and the last with a branch cut in parts. Every even size from 4 to
#: 24 and 80 were compiled here until 2026-11-28 (48 s of the suite; these 8 take about half).
SMALL = [4, 8, 12, 16, 20, 24, 40, 81]


def test_small_plans_stay_jit_able(spark, messages):
    """Below `JIT_CASES` CASEs a plan of long selectors can pass HotSpot's 8,000-byte JIT limit
    (measured: 17-23 realistic CASEs, 8.3-10.2 KB, 2x slower): above `JIT_SQL_CHARS` it is written
    in parts of their own (`render_index.own_parts`), or guarded when the session's subexpression
    elimination is off. Every estate compiles to methods of at most 8,000 bytes either way, with
    and without templates, and gives the single-CASE plan's names, ANSI on and off."""
    from pyspark.sql import functions as F

    from jms_selector_spark.backends.sql.render import sql_string

    from test_route_merge import _codegen

    d = get_dialect("jms")
    rng = random.Random(5)
    df, cols, kinds = messages, ["id"], set()
    for n in SMALL:
        subs = [_long(rng, i) for i in range(n)] + (_selectors(n, seed=n) if n > 24 else [])
        if n == SMALL[-1]:  # and 20 of one type: a branch too long for one part is cut in parts too
            subs = subs[:30] + [_long(rng, 100 + i, "JMSType = 'car'") for i in range(20)]
        native, _ = _split(subs, messages.schema, d)
        plan = plan_routing(native, [])
        kinds.add((needs_guard(plan, True), plan.case_count <= JIT_CASES))
        if n == SMALL[-1]:
            assert " ".join(own_parts(plan)).count(f"WHEN {sql_string('car')} THEN") > 1
        for templates, subexpr in itertools.product((True, False), ("true", "false")):
            # (templates False: every subscription in the CASE plan)
            conf = {"spark.sql.adaptive.enabled": "false", "spark.sql.subexpressionElimination.enabled": subexpr}
            with sql_conf(spark, conf):
                tuning = DEFAULT if templates else DEFAULT.without("templates")
                tagged = tag_matches(messages, native, [], column=f"m{n}", tuning=tuning)
                stages, biggest = _codegen(tagged.select("id", F.explode_outer(f"m{n}")))
            assert 0 < biggest <= 8000, (n, templates, subexpr, plan.case_count, biggest)
        today = single_case_sql(fragments(native))
        df = tag_matches(df, native, [], column=f"m{n}").withColumn(f"t{n}", F.sort_array(F.expr(today)))
        cols += [f"m{n}", f"t{n}"]
    assert {(True, True), (False, True)} <= kinds  # guarded by the SQL's length alone; not guarded
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.select(*cols).collect()
        assert all(r[f"m{n}"] == r[f"t{n}"] for r in rows for n in SMALL), ansi
        assert sum(len(r["t24"]) for r in rows) > 100


def test_route_with_the_plan_keeps_topic_and_queue_results(spark, messages):
    subs = _selectors(60, seed=9)
    topic = route(messages, subs, mode="topic", order_by="id")
    queue = route(messages, subs, mode="queue", order_by="id")
    d = get_dialect("jms")
    native, fallback = _split(subs, messages.schema, d)
    assert plan_routing(native, fallback).groups
    from pyspark.sql import functions as F

    today = single_case_sql(fragments(native))
    expected = {r["id"]: r["m"] for r in messages.select("id", F.sort_array(F.expr(today)).alias("m")).collect()}
    got_topic = {}
    for r in topic.select("id", "subscription").collect():
        got_topic.setdefault(r["id"], [])
        if r["subscription"] is not None:
            got_topic[r["id"]].append(r["subscription"])
    assert {k: sorted(v) for k, v in got_topic.items()} == expected
    q = queue.select("id", "subscription").collect()
    assert len(q) == 400 and all((r["subscription"] is None) == (not expected[r["id"]]) for r in q)
    assert all(r["subscription"] is None or r["subscription"] in expected[r["id"]] for r in q)


def test_fallback_subscriptions_stay_exact(spark, messages):

    d = get_dialect("activemq")
    subs = _selectors(40, seed=5) + [Subscription("fb1", "JMSType = 'car' AND INLIST(SPLIT(color, ' '), 'red')"),
                                     Subscription("fb2", "INLIST(SPLIT(region, ','), 'EU')")]
    native, fallback = _split(subs, messages.schema, d)
    assert [s.name for s, _ in fallback] == ["fb1", "fb2"]
    new = matching_names(native, fallback, messages.schema)
    old = matching_names(native, fallback, messages.schema, tuning=NO_INDEX)
    rows = messages.select(new.alias("a"), old.alias("b")).collect()
    assert all(r["a"] == r["b"] for r in rows) and any("fb2" in r["a"] for r in rows)


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_fallback_subscriptions_see_only_messages_passing_their_native_conjuncts(spark, messages, ansi):
    d = get_dialect("activemq")
    subs = _selectors(40, seed=5) + [Subscription("fb1", "JMSType = 'car' AND INLIST(SPLIT(color, ' '), 'red')"),
                                     Subscription("fb2", "region IN ('EU', 'eu') AND INLIST(SPLIT(code, ','), '5')")]
    native, fallback = _split(subs, messages.schema, d)
    assert [s.name for s, _ in fallback] == ["fb1", "fb2"]
    text = explain_routing(messages, subs, dialect="activemq")
    assert ("  fallback fb1: no native form for INLIST(SPLIT(color, ' '), 'red') (the UDF evaluates it where its "
            "native gate JMSType = 'car' is TRUE)") in text.splitlines()
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        tagged = tag_matches(messages, native, fallback)
        got = {r["id"]: r["__jms_matches"] for r in tagged.select("id", "__jms_matches").collect()}
        old = matching_names(native, fallback, messages.schema, tuning=NO_INDEX)
        want = {r["id"]: r["m"] for r in messages.select("id", old.alias("m")).collect()}
        scans = tagged._jdf.queryExecution().executedPlan().toString().count("InMemoryTableScan")
    assert got == want and any("fb1" in m for m in got.values()) and any("fb2" in m for m in got.values())
    assert scans == 1  # one scan of the messages (route's rule, issue #15)
    queue = route(messages, subs, mode="queue", dialect="activemq", order_by="id").collect()
    assert len(queue) == 400 and all(r["subscription"] is None or r["subscription"] in want[r["id"]] for r in queue)
    assert all((r["subscription"] is None) == (not want[r["id"]]) for r in queue)


def test_explain_routing_shows_groups_and_cost(messages):
    subs = {"a": "JMSType = 'car' AND weight > 10", "b": "JMSType IN ('bus', 'car')", "c": "region = 'EU'",
            "d": "region = 'US' AND JMSType = 'truck'", "e": "weight > 3", "f": "JMSType = 'x' AND"}
    text = explain_routing(messages, subs)
    assert "5 native subscriptions in" in text and "1 invalid" in text
    assert "group on JMSType (`JMSType`)" in text and "general (no access predicate" in text
    assert "evaluated per message" in text
    native, _ = estate([Subscription(k, v) for k, v in subs.items() if k != "f"], messages.schema)
    assert plan_routing(native, []).general == ("e",)


def test_explain_routing_of_a_dataframe_follows_its_session(spark, messages):
    """Given the DataFrame, `explain_routing` shows the plan `tag_matches` makes in its session:
    in parts by default; guarded (from half the SQL length) with subexpression elimination off."""
    d = get_dialect("jms")
    rng = random.Random(7)
    subs, chars = [], 0
    while True:  # the longest estate JIT-able as one method (unless elimination is off)
        more = subs + [_long(rng, len(subs))]
        native, _ = _split(more, messages.schema, d)
        n = len(plan_sql(plan_routing(native, [])))
        if n > JIT_SQL_CHARS:
            break
        subs, chars = more, n
    assert JIT_SQL_CHARS // 2 < chars <= JIT_SQL_CHARS and len(subs) <= JIT_CASES, (chars, len(subs))
    named = {s.name: s.selector for s in subs}
    assert "one whole-stage-codegen method" in explain_routing(messages, named)
    assert "one whole-stage-codegen method" in explain_routing(messages.schema, named)
    with sql_conf(spark, {"spark.sql.subexpressionElimination.enabled": "false"}):
        assert "kept out of whole-stage codegen" in explain_routing(messages, named)
        assert "one whole-stage-codegen method" in explain_routing(messages.schema, named)  # Spark's defaults
