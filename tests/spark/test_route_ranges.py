"""Range buckets (`ranges`): templates whose candidates are split by the bucket of a bounded number give
exactly the names the single-CASE plan gives, for values at and around every boundary, NULL, NaN,
infinities, -0.0 and the integer extremes; every dialect, ANSI on and off."""
from __future__ import annotations

import random

import pytest

from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription, explain_routing
from jms_selector_spark.spark.routing import ranges as route_ranges
from jms_selector_spark.spark.routing.columns import numeric_columns, string_columns, tag_matches
from jms_selector_spark.spark.routing.render_templates import shared
from jms_selector_spark.spark.routing.templates import distinct_candidates, plan_templates
from jms_selector_spark.spark.routing.tuning import DEFAULT

from conftest import sql_conf
from support.routing import fragments
from support.single_case import single_case_sql
from test_route_plan import _split

pytestmark = pytest.mark.spark

DDL = "id int, JMSType string, ts long, price double, weight long, qty int"
T0 = 1_790_000_000_000


def _subscriptions(seed: int = 3) -> list:
    """40 subscriptions per shape and type (80 for the last): each shape one template with many bounded
    candidates per key."""
    rng = random.Random(seed)
    out = []
    for t in ("car", "bus"):
        for i in range(40):
            a = T0 + rng.randrange(30) * 3_600_000
            lo, q = round(rng.uniform(-50, 500), 2), rng.randrange(-500, 1000)
            out += [
                (f"ts-{t}-{i}", f"JMSType = '{t}' AND ts BETWEEN {a} AND {a + rng.choice([1, 6]) * 3_600_000 - 1}"),
                (f"pr-{t}-{i}", f"JMSType = '{t}' AND price BETWEEN {lo} AND {lo + rng.choice([0.5, 10, 40])}"),
                (f"wt-{t}-{i}", f"JMSType = '{t}' AND weight > {rng.randrange(-100, 10_000)}"),
                (f"qt-{t}-{i}", f"JMSType = '{t}' AND qty < {q + rng.randrange(1, 50)} AND qty >= {q}"),
                # two members per window: one candidate listing both names (`shared`), split too
                *[(f"sh-{t}-{i}-{k}", f"JMSType = '{t}' AND ts >= {a} AND ts < {a + 3_600_000}") for k in (0, 1)],
            ]
    return [Subscription(n, s) for n, s in out]


def _rows(subs, n: int = 900) -> list:
    """Messages whose values are the subscriptions' own bounds (and their neighbours) or special."""
    rng = random.Random(8)
    words = [x for s in subs for x in s.selector.replace("AND", " ").split()]
    nums = [float(x) for x in words if x.lstrip("-").replace(".", "").isdigit()]
    ints = [int(x) for x in nums if x == int(x)]
    specials = [None, float("nan"), float("inf"), float("-inf"), -0.0, 0.0]
    extremes = [None, -2 ** 63, 2 ** 63 - 1, 0]
    rows = []
    for i in range(n):
        x, k = rng.choice(nums), rng.choice(ints)
        rows.append((i, rng.choice(["car", "bus", None, "Car"]),
                     rng.choice(extremes + [k, k - 1, k + 1, T0 + rng.randrange(40 * 3_600_000)]),
                     rng.choice(specials + [x, x + 0.005, x - 0.005, rng.uniform(-100, 600)]),
                     rng.choice(extremes + [k, k + 1, k - 1]),
                     rng.choice([None, -2 ** 31, 2 ** 31 - 1, k % 1000, k % 1000 - 1, -k % 500])))
    return rows


@pytest.fixture(scope="module")
def ranged(spark):
    subs = _subscriptions()
    return subs, spark.createDataFrame(_rows(subs), DDL).repartition(2).cache()


def test_buckets_equal_the_single_case_plan(spark, ranged, dialect):
    from pyspark.sql import functions as F

    subs, messages = ranged
    d = get_dialect(dialect)
    native, fallback = _split(subs, messages.schema, d)
    if len(native) < len(subs):  # a dialect without BETWEEN or comparisons: nothing to split here
        pytest.skip(f"{dialect}: {len(subs) - len(native)} of the selectors are not valid")
    tp = plan_templates(native, string_columns(messages.schema))
    numeric = numeric_columns(messages.schema)
    split = {r.value_sql: r for a in tp.accesses for r in route_ranges.plan_ranges(a, numeric).values()}
    # templates really are split in every dialect; which ones depends on its SQL (Solace reads the
    # BIGINT bounds of `ts` as FALSE, a constant; WSO2's upper bound is not a plain conjunct, nor is
    # a BETWEEN that is UNKNOWN with any NULL operand: RabbitMQ's, price's here)
    assert ({"`weight`"} if d.between_null_unknown else {"`price`", "`weight`"}) <= set(split), split
    if dialect == "jms":
        assert set(split) == {"`ts`", "`price`", "`weight`", "`qty`"}, split
        assert {r.type for r in split.values()} == {"BIGINT", "DOUBLE", "INT"}
        assert any(shared(a, j, distinct_candidates(a, j)) for a in tp.accesses
                   for j in route_ranges.plan_ranges(a, numeric))
    today = F.sort_array(F.expr(single_case_sql(fragments(native))))
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = tag_matches(messages, native, fallback).withColumn("__today", today) \
                .select("id", "__jms_matches", "__today").collect()
        diff = [(r["id"], r["__jms_matches"], r["__today"]) for r in rows if r["__jms_matches"] != r["__today"]]
        assert not diff, (dialect, ansi, diff[:3])
    assert sum(len(r["__today"]) for r in rows) > 1500  # the comparison is not between empty arrays


def test_buckets_leave_out_candidates_and_explain_says_so(ranged):
    subs, messages = ranged
    text = explain_routing(messages.schema, subs)
    assert text.count("range buckets:") == 5, text
    assert "80 subscriptions of index on JMSType by `ts` (32 buckets)" in text
    plain = explain_routing(messages.schema, subs, tuning=DEFAULT.without("ranges"))
    per_message = [float(t.split("templated candidates evaluated per message: ~")[1].split()[0]) for t in (text, plain)]
    assert "range buckets" not in plain and per_message[0] < per_message[1] / 3, per_message


def test_topic_names_need_not_be_sorted(spark, ranged):
    """`route`'s topic pass takes the names in the plan's order (no sort); the same names."""
    subs, messages = ranged
    d = get_dialect("jms")
    native, fallback = _split(subs, messages.schema, d)
    got = tag_matches(messages, native, fallback, sort=False, column="u")
    rows = tag_matches(got, native, fallback).select("u", "__jms_matches").collect()
    assert all(sorted(r["u"]) == r["__jms_matches"] for r in rows)
    assert any(r["u"] != r["__jms_matches"] for r in rows)  # the sort really is left out
