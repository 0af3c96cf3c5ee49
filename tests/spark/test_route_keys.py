"""Key numbers (`keys`): each access value looked up once (value numbers, key numbers from a constant
array) and the templates' STRING comparisons made on numbers route exactly like the reference
interpreter and the single-CASE plan: NULL values, values no subscription names, the empty
string, quotes, non-ASCII, case, ``=``, ``<>``, ``IN``, ``NOT IN``, constants; not a
LIKE or a conjunct the index implies; ANSI on and off. Batched: one DataFrame, one collect per setting."""
from __future__ import annotations

import random
import re

import pytest

import jms_selector_spark as jss
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription
from jms_selector_spark.spark.routing import keys as route_keys
from jms_selector_spark.spark.routing.columns import matching_names, string_columns, tag_matches
from jms_selector_spark.spark.routing.render_templates import key_sql, lookup_sql, number_sql, value_sql
from jms_selector_spark.spark.routing.templates import plan_templates
from jms_selector_spark.spark.routing.tuning import RoutingTuning

from conftest import sql_conf
from test_route_plan import _q, _split

NO_INDEX = RoutingTuning(disabled={"index"})

pytestmark = pytest.mark.spark

DDL = "id int, JMSType string, region string, color string, code string, n int"
TYPES = ["car", "Car", "bus", "", None, "O'Brien", "Zoë"]
REGIONS = ["EU", "US", "eu", None, "", "APAC", "Zoë"]
COLORS = ["red", "blue", None, "", "Zoë", "o'", "RED"]
CODES = ["5", "05", None, "", "p-1", "Zoë"]


def _rows(n=400):
    rng = random.Random(30)
    return [(i, rng.choice(TYPES), rng.choice(REGIONS), rng.choice(COLORS), rng.choice(CODES), rng.choice([None, 0, 3]))
            for i in range(n)]


def _selector(rng) -> str:
    t, t2 = rng.sample(["car", "Car", "bus", "", "O'Brien", "Zoë", "van"], 2)
    r, r2 = rng.sample(["EU", "US", "eu", "", "APAC", "Zoë", "XX"], 2)
    c = rng.choice(["red", "blue", "", "Zoë", "o'", "green"])
    k = rng.randrange(8)
    if k == 0:
        return f"JMSType = {_q(t)} AND NOT (region IN ({_q(r)}, {_q(r2)}, ''))"
    if k == 1:
        return f"JMSType = {_q(t)} AND region <> {_q(r)}"
    if k == 2:
        return f"region = {_q(r)} AND (color = {_q(c)} OR color IS NULL) AND JMSType <> 'car'"
    if k == 3:
        return f"color = {_q(c)} AND NOT (JMSType IN ({_q(t)}, {_q(t2)})) AND n > 0"
    if k == 4:
        return f"JMSType = {_q(t)} AND (code = {_q(rng.choice(['5', '05', '', 'Zoë', 'none']))} OR n = 3)"
    if k == 5:
        return f"JMSType = {_q(t)} AND code NOT LIKE {_q(rng.choice(['5%', '0_', '%']))}"  # a LIKE: strings
    if k == 6:
        return f"JMSType IN ({_q(t)}, {_q(t2)}) AND region = {_q(r)} AND color <> {_q(c)}"
    return f"JMSType = {_q(t)} AND color LIKE {_q(rng.choice(['r%', 'Z%']))} AND region <> {_q(r)}"


def _subscriptions(n=160):
    rng = random.Random(31)
    return [Subscription(f"k{i:03d}", _selector(rng)) for i in range(n)]


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(_rows(), DDL).repartition(2).cache()


def _expected(dialect, subs):
    out = {}
    for i, ty, region, color, code, n in _rows():
        headers = {"JMSType": ty} if ty is not None else {}
        props = {k: v for k, v in (("region", region), ("color", color), ("code", code), ("n", n)) if v is not None}
        out[i] = sorted(s.name for s in subs if jss.evaluate(s.selector, headers, props, dialect=dialect) is True)
    return out


def _interned(messages, native, d):
    strings = string_columns(messages.schema)
    tp = plan_templates(native, strings)
    numbers = route_keys.value_numbers(tp.accesses)
    return tp, *route_keys.intern(tp.accesses, strings, numbers)


@pytest.mark.parametrize("dialect", ["jms", "activemq"])
def test_comparisons_on_numbers_equal_reference_and_single_case_plan(spark, messages, dialect):
    d = get_dialect(dialect)
    subs = _subscriptions()
    native, fallback = _split(subs, messages.schema, d)
    tp, accesses, numbers, zeros = _interned(messages, native, d)
    assert {"`region`", "`color`", "`code`", "`JMSType`"} <= zeros
    bodies = [t.lambda_sql(lambda j: f"c.p{j}") for a in accesses for t in a.templates]
    assert any("NOT (`__jms_v" in b and " IN (" in b for b in bodies)  # NOT IN on numbers
    assert any(re.search(r"`__jms_v\d+` <> |NOT \(`__jms_v\d+` = ", b) for b in bodies)  # <> (ActiveMQ: NOT =)
    assert any("`code` LIKE" in b for b in bodies) and not any("`__jms_v" in b.split("LIKE")[0][-12:]
                                                                for b in bodies if "LIKE" in b)
    old = [t.lambda_sql(lambda j: f"c.p{j}") for a in tp.accesses for t in a.templates]
    assert sum(b.count("TRUE") for b in bodies) == sum(b.count("TRUE") for b in old)  # implied: not touched
    tagged = tag_matches(messages, native, fallback)
    df = tagged.select("id", "__jms_matches",
                       matching_names(native, fallback, messages.schema, tuning=NO_INDEX).alias("old"))
    want = _expected(d, subs)
    assert sum(map(len, want.values())) > 300
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.collect()
        assert len(rows) == 400
        bad = [(r["id"], r["__jms_matches"], r["old"], want[r["id"]]) for r in rows
               if not (sorted(r["__jms_matches"]) == sorted(r["old"]) == want[r["id"]])]
        assert not bad, (dialect, ansi, bad[:2])


def test_key_numbers_from_value_numbers_equal_the_maps(spark, messages):
    """Per index, the key number read from the array (value numbers, 0 for the compared columns'
    unnamed values) equals `lookup_sql`'s; past `RoutingTuning.max_slots` an index keeps its map."""
    from pyspark.sql import functions as F

    d = get_dialect("jms")
    native, _ = _split(_subscriptions(), messages.schema, d)
    tp, accesses, numbers, zeros = _interned(messages, native, d)
    names = route_keys.number_columns(numbers)
    assert any(len(a.value_sqls) == 2 for a in accesses) and set(zeros) & {v for a in accesses for v in a.value_sqls}
    m = messages
    for v, c in names.items():
        m = m.withColumn(c, F.expr(number_sql(v, numbers[v]) if v in zeros else value_sql(v, numbers[v])))
    cols = [F.expr(key_sql(a, numbers, names, zeros)).alias(f"a{i}") for i, a in enumerate(accesses)]
    cols += [F.expr(lookup_sql(a)).alias(f"m{i}") for i, a in enumerate(accesses)]
    df = m.select(*cols)
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.collect()
        for i in range(len(accesses)):
            got = [(r[f"a{i}"], r[f"m{i}"]) for r in rows]
            assert all(x == y for x, y in got), (accesses[i].value_sqls, [g for g in got if g[0] != g[1]][:3])
            assert {None} < {x for x, _ in got}  # both outcomes
    small = RoutingTuning(max_slots=min(len(numbers[a.value_sqls[0]]) for a in accesses) - 1)
    assert all(key_sql(a, numbers, names, zeros, small) is None for a in accesses)
    tagged = tag_matches(messages, native, [], tuning=small).select("id", "__jms_matches").collect()
    want = _expected(d, _subscriptions())
    assert all(sorted(r["__jms_matches"]) == want[r["id"]] for r in tagged)
