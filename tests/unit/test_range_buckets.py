"""Range buckets without Spark: which conjuncts bound a value, which buckets a candidate is in."""
from __future__ import annotations

import bisect
import random


from jms_selector_spark.binder import Binding
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.language.schema import to_schema
from jms_selector_spark.spark.routing import ranges as rr
from jms_selector_spark.spark.routing.estate import plan_estate
from jms_selector_spark.spark.routing.render_templates import bucket_sql
from jms_selector_spark.spark.routing.subscriptions import Subscription
from jms_selector_spark.spark.routing.templates import plan_templates
from jms_selector_spark.spark.routing.tuning import DEFAULT, RoutingTuning

SCHEMA = {"k": "string", "name": "string", "price": "double", "w": "int", "f": "float", "other": "string"}
NUM = frozenset({"price", "w", "f"})


def _range(template, dialect="jms"):
    """The range of the one template two subscriptions of ``template`` (``{v}`` varies) make."""
    subs = [Subscription(f"s{i}", "k = 'a' AND " + template.format(a=i + 1, b=i + 100)) for i in range(2)]
    native, _, _ = plan_estate(subs, to_schema(SCHEMA), get_dialect(dialect), Binding())
    tp = plan_templates(native, {"k", "name", "other"}, RoutingTuning(min_templated=2))
    (a,) = tp.accesses
    (t,) = a.templates
    return rr.find_range(t, NUM)


def test_bounds_are_read_from_top_level_conjuncts_only():
    r = _range("price BETWEEN {a} AND {b}")
    assert (r.value_sql, r.type, len(r.lows), len(r.highs)) == ("`price`", "DOUBLE", 1, 1)
    r = _range("w > {a} AND w < {b}")
    assert (r.value_sql, r.type, len(r.lows), len(r.highs)) == ("`w`", "INT", 1, 1)
    r = _range("f >= {a}.5")
    assert r.value_sql == "CAST(`f` AS DOUBLE)"
    for body in [
        "(w > {a} OR other = 'x')",  # under OR: not necessary
        "w NOT BETWEEN {a} AND {b}",  # NOT BETWEEN
        "other = 'x{a}'",  # not a numeric column
        "w > 5 AND name = 'y{a}'",  # the same bound for every member (a literal)
        "w * 2 > {a}",  # arithmetic: not a plain value
    ]:
        assert _range(body) is None, body


def _bucket(x, bounds) -> int:
    """The bucket `bucket_sql` gives ``x`` (0-based): how many boundaries are <= x."""
    return bisect.bisect_right(bounds, x)


def test_a_candidate_is_in_the_bucket_of_every_value_it_can_match():
    rng = random.Random(1)
    for _ in range(300):
        ints = rng.random() < 0.5
        draw = (lambda: rng.randrange(-50, 50)) if ints else (lambda: rng.choice([-0.0, 0.0, rng.uniform(-50, 50)]))
        bounds = tuple(sorted(set(draw() for _ in range(rng.randrange(1, 12)))))
        lo = None if rng.random() < 0.2 else draw()
        hi = None if rng.random() < 0.2 else draw()
        strict = rng.random() < 0.5
        for _ in range(40):
            x = draw()
            ok = (lo is None or (x > lo if strict else x >= lo)) and (hi is None or (x < hi if strict else x <= hi))
            if ok:
                assert rr.in_bucket((lo, hi), _bucket(x, bounds), bounds), (lo, hi, x, bounds)


def test_buckets_leave_candidates_out():
    bounds = (10, 20, 30)  # buckets (-inf,10) [10,20) [20,30) [30,+inf and NaN)
    assert [rr.in_bucket((20, 25), i, bounds) for i in range(4)] == [False, False, True, False]
    assert [rr.in_bucket((None, 9), i, bounds) for i in range(4)] == [True, False, False, False]
    assert [rr.in_bucket((31, None), i, bounds) for i in range(4)] == [False, False, False, True]
    assert [rr.in_bucket((10, 10), i, bounds) for i in range(4)] == [False, True, False, False]


def test_split_only_where_it_saves_enough():
    rng = rr.Range("`ts`", "BIGINT", (0,), (1,))
    narrow = [[(t, t + 5) for t in range(0, 4000, 100)]]  # 40 short windows on one key
    got = rr.plan_range(rng, narrow)
    assert got is not None and got.share < 0.1 and len(got.bounds) == DEFAULT.max_buckets - 1
    assert list(got.bounds) == sorted(set(got.bounds))
    assert rr.plan_range(rng, [[(t, t + 5) for t in range(0, 400, 100)]]) is None  # 4 per key: too few
    assert rr.plan_range(rng, [[(0, 10 ** 6)] * 40]) is None  # one range for all: nothing left out


def test_bucket_sql_is_a_binary_search():
    r = rr.Range("`w`", "INT", (0,), (), tuple(range(0, 310, 10)))  # 31 boundaries: 32 buckets
    sql = bucket_sql(r)
    assert sql.startswith("IF(`w` IS NULL, CAST(NULL AS INT), IF(`w` < 150, ")
    assert sql.count("IF(`w` <") == 31 and sql.count("(") - sql.count(")") == 0
    # the nesting depth (comparisons per message) is log2 of the buckets
    depth, deepest = 0, 0
    for ch in sql:
        depth += ch == "("
        depth -= ch == ")"
        deepest = max(deepest, depth)
    assert deepest <= 2 + 5 + 1
    d = rr.Range("`price`", "DOUBLE", (0,), (), (0.1, 2.5))
    assert "CAST('0.1' AS DOUBLE)" in bucket_sql(d) and "CAST('2.5' AS DOUBLE)" in bucket_sql(d)
    assert "2500L" in bucket_sql(rr.Range("`ts`", "BIGINT", (0,), (), (2500,)))
