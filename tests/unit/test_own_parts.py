"""`render_index.own_parts`: the index plan cut into parts of their own, without Spark. Spark's side
(the names equal the single-CASE plan's, every method JIT-able) is
`tests/spark/test_route_plan.py::test_small_plans_stay_jit_able`."""
from __future__ import annotations

import random

from jms_selector_spark.backends.sql.render import sql_string
from jms_selector_spark.binder import Binding
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.language.schema import to_schema
from jms_selector_spark.spark.routing.estate import plan_estate
from jms_selector_spark.spark.routing.index import plan_routing
from jms_selector_spark.spark.routing.render_index import own_parts, plan_sql
from jms_selector_spark.spark.routing.subscriptions import Subscription
from jms_selector_spark.spark.routing.tuning import DEFAULT, RoutingTuning

SCHEMA = {"JMSType": "string", "weight": "long", "color": "string", "region": "string"}
D = get_dialect("jms")
PART_CHARS, GUARD_MAX_CASES = DEFAULT.part_chars, DEFAULT.guard_max_cases


def _plan(selectors):
    subs = [Subscription(f"s{i:03d}", sel) for i, sel in enumerate(selectors)]
    native, _, _ = plan_estate(subs, to_schema(SCHEMA), D, Binding())
    return plan_routing(native, [])


def _estate(n, seed=1):
    rng = random.Random(seed)
    types = [f"type{k}" for k in range(12)]
    out = []
    for _ in range(n):
        access = rng.choice([f"JMSType = '{rng.choice(types)}'", f"JMSType IN ('{rng.choice(types)}', '{rng.choice(types)}')",
                             f"color = '{rng.choice(['red', 'blue'])}'", ""])
        rest = " AND ".join(f"(weight > {rng.randrange(9000)} OR region LIKE '{rng.choice('EUA')}%')"
                            for _ in range(rng.randrange(1, 4)))
        out.append(f"{access} AND {rest}" if access else rest)
    return out


def _names(sql, plan):
    return {nm: sql.count(f"THEN array({sql_string(nm)}) ELSE") for nm in plan.fragments}


def test_parts_cover_the_plan_and_stay_short():
    for n in (5, 20, 60, 120):
        plan = _plan(_estate(n, seed=n))
        parts = own_parts(plan)
        assert parts is not None and all(len(p) <= PART_CHARS for p in parts), n
        whole = " ".join(parts)
        # every CASE branch of the plan in exactly one part: the same subscriptions, as often
        assert _names(whole, plan) == _names(plan_sql(plan), plan) and min(_names(whole, plan).values()) > 0, n
        # each value of a group is tested in one part only (a message takes one branch in all)
        split = 0
        for g in plan.groups:
            for v in g.by_value:
                when = f"WHEN {sql_string(v)} THEN"
                # in one part, or (a branch too long on its own) before each of its own parts
                assert whole.count(when) >= plan_sql(plan).count(when) > 0, (n, v)
                split += whole.count(when) > plan_sql(plan).count(when)
        if n >= 60:
            assert len(parts) > 1
        if n == 120:
            assert split >= 2  # branches of 3,509 to 3,900 characters


def test_a_case_with_one_when_is_not_a_bare_case():
    # one group with one value: the optimizer would push size(...) into a bare CASE's branches
    plan = _plan(["JMSType = 'car' AND weight > 1", "JMSType = 'car' AND weight > 2"])
    parts = own_parts(plan)
    assert len(parts) == 1 and parts[0].startswith(f"concat(CASE `JMSType` WHEN {sql_string('car')} THEN")
    plan = _plan(["JMSType = 'car' AND weight > 1", "JMSType = 'bus' AND weight > 2"])
    assert own_parts(plan)[0].startswith(f"CASE `JMSType` WHEN {sql_string('car')} THEN")


def test_no_parts_when_one_branch_is_too_long_or_the_plan_too_large():
    long_one = " AND ".join(f"weight <> {k}" for k in range(400))
    assert own_parts(_plan(["JMSType = 'car'", long_one])) is None
    assert own_parts(_plan(["JMSType = 'car'", long_one]), RoutingTuning(part_chars=10 ** 6)) is not None
    plan = _plan([f"weight > {k}" for k in range(GUARD_MAX_CASES + 1)])
    assert plan.case_count > GUARD_MAX_CASES and own_parts(plan) is None
    assert own_parts(_plan([])) == []
