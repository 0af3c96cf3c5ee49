"""Merged filters (tuning feature ``merge``): one filter per index for an index's non-shared templates
gives exactly the names one lambda per template gives and the single-CASE plan gives: messages with
NULLs, every parameter type, shared candidates, bodies TRUE whatever their parameters, ANSI on and
off, topic and queue mode. And ``own_methods``: template expressions compiled as methods of their own."""
from __future__ import annotations

import pytest

from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription, route
from jms_selector_spark.spark.routing.columns import string_columns, tag_matches, template_plan
from jms_selector_spark.spark.routing.index import plan_routing
from jms_selector_spark.spark.routing.render_index import needs_guard, own_parts
from jms_selector_spark.spark.routing.render_templates import shared, template_sql
from jms_selector_spark.spark.routing.templates import distinct_candidates, plan_templates
from jms_selector_spark.spark.routing.tuning import DEFAULT

from conftest import sql_conf
from routed import assert_routed
from support.single_case import single_case_sql
from support.routing import fragments
from test_route_plan import _split
from test_route_templates import DDL, _rows, _subscriptions

pytestmark = pytest.mark.spark

#: merge off: one lambda per template (the reference here); on: one filter per index (the default).
SETTINGS = {False: DEFAULT.without("merge"), True: DEFAULT}
assert DEFAULT.on("merge")


def _extra():
    """Shared candidates (members with equal parameters) whose body is TRUE without its parameter
    when ``code`` is NULL, 2 or 3 per key; a template with 5 candidates for a key."""
    subs = []
    for i in range(12):
        t = ["car", "bus", "truck"][i % 3]
        subs.append(Subscription(f"s{i:02d}", f"JMSType = '{t}' AND (code IS NULL OR qty > {[0, 5][i % 2]})"))
    subs += [Subscription(f"v{i:02d}", f"JMSType = 'car' AND (code IS NULL OR weight > {i % 3})") for i in range(12)]
    subs += [Subscription(f"w{i:02d}", f"region = 'EU' AND weight > {i * 7 - 5}") for i in range(5)]
    subs += [Subscription(f"u{i:02d}", f"region = 'US' AND (color IS NULL OR price < {i}.5)") for i in range(2)]
    return subs


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(_rows(), DDL).repartition(2).cache()


def test_the_settings_really_take_each_path(messages):
    d = get_dialect("jms")
    native, _ = _split(_subscriptions(220, seed=4) + _extra(), messages.schema, d)
    tp = plan_templates(native, string_columns(messages.schema))
    kinds = [shared(a, j, distinct_candidates(a, j)) for a in tp.accesses for j in range(len(a.templates))]
    assert any(kinds) and not all(kinds)  # shared templates (never merged) and plain ones
    for merge, tuning in SETTINGS.items():
        sql = " ".join(p for a, access in enumerate(tp.accesses) for p in template_sql(access, a, frozenset(), tuning))
        assert ("CASE __jms_c.t WHEN" in sql) == merge, merge
        lambdas = sum(1 for a in tp.accesses for t in a.templates if not t.trivial)
        assert (sql.count("filter(") == lambdas) == (not merge), merge  # merged: fewer filters


def test_merged_equals_one_lambda_per_template(spark, messages):
    from pyspark.sql import functions as F

    d = get_dialect("jms")
    native, fallback = _split(_subscriptions(220, seed=4) + _extra(), messages.schema, d)
    today = F.sort_array(F.expr(single_case_sql(fragments(native))))
    got = {}
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            want = {r["id"]: r["m"] for r in messages.select("id", today.alias("m")).collect()}
            for merge, tuning in SETTINGS.items():
                tagged = tag_matches(messages, native, fallback, tuning=tuning)
                got[merge] = {r["id"]: r["__jms_matches"] for r in tagged.select("id", "__jms_matches").collect()}
        for setting, matches in got.items():
            diff = [(k, v, want[k]) for k, v in matches.items() if v != want[k]]
            assert not diff and len(matches) == 500, (ansi, setting, diff[:3])
    assert sum(map(len, want.values())) > 2000
    extra = {s.name for s in _extra()}
    assert sum(nm in extra for m in want.values() for nm in m) > 100  # the shared/TRUE-body templates match


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_route_topic_and_queue_merged(spark, messages, ansi):
    from pyspark.sql import functions as F

    d = get_dialect("jms")
    subs = _subscriptions(150, seed=21) + _extra()
    native, _ = _split(subs, messages.schema, d)
    today = single_case_sql(fragments(native))
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        expected = {r["id"]: r["m"] for r in messages.select("id", F.sort_array(F.expr(today)).alias("m")).collect()}
        for merge, tuning in SETTINGS.items():
            topic = route(messages, subs, mode="topic", order_by="id", tuning=tuning).select("id", "subscription").collect()
            queue = route(messages, subs, mode="queue", order_by="id", tuning=tuning).select("id", "subscription").collect()
            assert_routed(topic, queue, expected, 500)
    assert sum(map(len, expected.values())) > 1000


def _codegen(df) -> "tuple[int, int]":
    """(number of whole-stage-codegen subtrees, bytes of the largest compiled method) of ``df``."""
    jvm = df.sparkSession._jvm
    seq = jvm.org.apache.spark.sql.execution.debug.package.codegenStringSeq(df._jdf.queryExecution().executedPlan())
    return seq.size(), max(int(seq.apply(i)._3().maxMethodCodeSize()) for i in range(seq.size()))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_own_methods_equal_the_guard_and_stay_jit_able(spark, messages, ansi):
    """own_methods: the templates' expressions in whole-stage codegen, each its own method (no guard,
    one stage, every method JIT-able); the same names as the guarded plan and the single-CASE plan,
    with the session's subexpression elimination on and off (off: the guard is kept)."""
    from pyspark.sql import functions as F

    d = get_dialect("jms")
    subs = _subscriptions(300, seed=4) + _extra()
    native, _ = _split(subs, messages.schema, d)
    rest = {s.name for s, _ in plan_templates(native, string_columns(messages.schema)).rest}
    # the templated ones and 6 others: a CASE plan beside the templates small enough for its own method
    subs = [s for s in subs if s.name not in rest] + [s for s in subs if s.name in rest][:6]
    native, fallback = _split(subs, messages.schema, d)
    tp = template_plan(native, messages.schema)
    rest = plan_routing(list(tp.rest), [])
    assert tp.accesses and not needs_guard(rest, True) and rest.case_count > 0 and own_parts(rest)
    today = F.sort_array(F.expr(single_case_sql(fragments(native))))
    seen = set()
    for subexpr in ("true", "false"):
        conf = {"spark.sql.ansi.enabled": ansi, "spark.sql.subexpressionElimination.enabled": subexpr,
                "spark.sql.adaptive.enabled": "false"}
        with sql_conf(spark, conf):
            want = {r["id"]: r["m"] for r in messages.select("id", today.alias("m")).collect()}
            for own in (False, True):
                tagged = tag_matches(messages, native, fallback, tuning=DEFAULT if own else DEFAULT.without("own_methods"))
                got = {r["id"]: r["__jms_matches"] for r in tagged.select("id", "__jms_matches").collect()}
                assert got == want, (subexpr, own, [(k, v, want[k]) for k, v in got.items() if v != want[k]][:3])
                stages, biggest = _codegen(tagged.select("id", F.explode_outer("__jms_matches")))
                taken = own and subexpr == "true"
                # the guard keeps the names' projection out of whole-stage codegen: a stage each side of it
                assert (stages == 1) == taken and ("array_distinct" in tagged._jdf.queryExecution().toString()) == taken
                assert 0 < biggest <= 8000, (subexpr, own, biggest)
                seen.add((taken, stages))
    assert sum(map(len, want.values())) > 2000 and len({t for t, _ in seen}) == 2
