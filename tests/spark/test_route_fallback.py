"""Route's fallback (Arrow UDF) subscriptions, each gated by its own native conjuncts.

`columns.split_fallback` / `compiler.Compiled.conjuncts`: the UDF evaluates a subscription's
non-native conjuncts only where its native ones are TRUE. Checked against the reference interpreter
and against the plan without index or gates (`matching_names`, every selector whole), in
several dialects (activemq, wso2 whose AND is not Kleene, jms, artemis), ANSI on and off; NULLs
everywhere, unlike types, gates that are UNKNOWN, shared gates, residuals under OR; topic and
queue mode. One DataFrame per dialect.
"""
from __future__ import annotations

import json
import random

import pytest

import jms_selector_spark as jss
from jms_selector_spark.compiler import compile_selector
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.spark.routing import Subscription, explain_routing, route
from jms_selector_spark.spark.routing.columns import matching_names, split_fallback, tag_matches
from jms_selector_spark.spark.routing.tuning import RoutingTuning

from support.routing import estate

from conftest import sql_conf
from routed import assert_routed

pytestmark = pytest.mark.spark
NO_INDEX = RoutingTuning(disabled={"index"})

V = "a + b + c"  # three VARIANT properties in one predicate: no native form (backends.sql.generator)
FALLBACK = [
    f"JMSType = 'car' AND {V} > 3",
    f"JMSType = 'car' AND {V} > 1",  # the same gate as the first: one shared gate column
    f"weight > 100 AND {V} > 3",  # gate UNKNOWN where weight is NULL
    f"NOT (weight > 100) AND {V} >= 0",
    f"code = 5 AND {V} > 0",  # unlike types (code is a STRING)
    f"JMSType = 'car' AND weight > 100 AND ({V} > 3 OR weight IS NULL)",  # residual: an OR
    f"{V} > 3",  # no gate
    f"(JMSType = 'bus' OR weight < 50) AND {V} < 10 AND ratio > 0.5",
    f"{V} > 1 AND b + c + d < 5",  # two residual conjuncts, no gate
    f"weight BETWEEN 10 AND 500 AND {V} > 1 AND b + c + d < 5",  # BETWEEN with NULLs differs by dialect
    f"JMSType IN ('car', 'bus') AND (code = '5' AND ({V} <> 2))",  # nested AND
]
ACTIVEMQ_ONLY = ["JMSType = 'car' AND INLIST(SPLIT(s, ','), 'b')", "s + ratio = 'x1.0' AND weight > 5",
                 "weight > 5 AND NOT (INLIST(SPLIT(s, ','), 'a')) AND code IS NOT NULL"]
NATIVE = ["JMSType = 'car' AND weight > 100", "weight < 50", "code = '5'"]
TYPES = ["car", "bus", None, "Car"]
DDL = "id int, JMSType string, js string"  # every property in one VARIANT column (the data model's `properties`)


def _rows(n=80):
    rng = random.Random(16)
    out = []
    for i in range(n):
        props = {}
        for k in "abcd":
            v = rng.choice([1, 2, 5, -1, 0.5, "3", None, "missing", True])
            if v != "missing":
                props[k] = v
        for k, values in (("s", ["a,b", "a", None, "x1.0", "b,c"]), ("weight", [None, 10, 60, 300, 4000]),
                          ("ratio", [None, 1.5, 0.25, 2.5]), ("code", ["5", "05", None, "x", 5])):
            v = rng.choice(values + ["missing"])
            if v != "missing":
                props[k] = v
        out.append((i, rng.choice(TYPES), json.dumps(props)))
    return out


@pytest.fixture(scope="module")
def messages(spark):
    return (spark.createDataFrame(_rows(), DDL).selectExpr("id", "JMSType", "parse_json(js) AS properties")
            .repartition(2).cache())


def _expected(dialect, subs):
    out = {}
    for r in _rows():
        props = json.loads(r[2])
        headers = {"JMSType": r[1]} if r[1] is not None else {}
        out[r[0]] = sorted(s.name for s in subs if jss.evaluate(s.selector, headers, props, dialect=dialect) is True)
    return out


@pytest.mark.parametrize("dialect", ["activemq", "wso2", "jms", "artemis"])
def test_gated_fallback_equals_reference_and_previous_plan(spark, messages, dialect):

    d = get_dialect(dialect)
    sels = FALLBACK + (ACTIVEMQ_ONLY if dialect == "activemq" else []) + NATIVE
    subs = [Subscription(f"s{i:02d}", sel) for i, sel in enumerate(sels)]
    native, fallback = estate(subs, messages.schema, d)
    assert len(native) + len(fallback) == len(subs) and len(fallback) == len(sels) - len(NATIVE)
    splits = {s.name: s for s in split_fallback(fallback)}
    assert sum(1 for s in splits.values() if s.gate) == len(fallback) - 2  # all but the two with no native conjunct
    assert splits["s00"].gate_sql == splits["s01"].gate_sql and splits["s05"].residual_text.startswith("(")
    assert splits["s10"].gate_text == ("JMSType IN ('car', 'bus')", "code = '5'")  # the nested AND, flattened
    tagged = tag_matches(messages, native, fallback)
    old = matching_names(native, fallback, messages.schema, tuning=NO_INDEX)
    df = tagged.select("id", "__jms_matches", old.alias("old"))
    want = _expected(d, subs)
    assert sum(map(len, want.values())) > 40  # the comparison is not between empty arrays
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.collect()
        assert len(rows) == 80
        for r in rows:
            assert r["__jms_matches"] == r["old"] == want[r["id"]], (dialect, ansi, r["id"])


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_route_topic_and_queue_with_gated_fallback(spark, messages, ansi):
    subs = {f"s{i:02d}": sel for i, sel in enumerate(FALLBACK + ACTIVEMQ_ONLY + NATIVE)}
    want = _expected(get_dialect("activemq"), [Subscription(k, v) for k, v in subs.items()])
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        topic = route(messages, subs, mode="topic", dialect="activemq").select("id", "subscription").collect()
        queue = route(messages, subs, mode="queue", dialect="activemq", order_by="id").select("id", "subscription").collect()
    assert_routed(topic, queue, want, 80)


def test_the_udf_evaluates_a_subscription_only_where_its_gate_is_true(spark):
    import pyarrow as pa

    from jms_selector_spark.backends.udf import routing_udf

    def piece(text):
        compiled = compile_selector(text, {"s": "string"}, dialect="activemq")
        return compiled.piece(compiled.core)

    # f1's residual would be TRUE on every row: only its gate (argument 0) limits it; f2 has no gate
    udf, cols = routing_udf([("f1", piece("SPLIT(s, ',') IS NOT NULL")), ("f2", piece("INLIST(SPLIT(s, ','), 'b')"))],
                            gates=[0, None])
    assert cols == ["s"]
    got = udf.func(pa.array([True, None, False, True]), pa.array(["a,b", "b", "b", None]))
    assert got.to_pylist() == [["f1", "f2"], ["f2"], ["f2"], []]
    # every selector gated: rows no gate passes are not read (the caller sends them as NULLs)
    udf, _ = routing_udf([("f1", piece("SPLIT(s, ',') IS NOT NULL")), ("f3", piece("SPLIT(s, ',') IS NOT NULL"))],
                         gates=[0, 1])
    got = udf.func(pa.array([True, False, False]), pa.array([False, True, False]), pa.array(["a", "b", None]))
    assert got.to_pylist() == [["f1"], ["f3"], []]


def test_explain_routing_shows_each_fallback_gate_and_residual(messages):
    text = explain_routing(messages, {"g": f"JMSType = 'car' AND weight > 100 AND {V} > 3", "u": f"{V} > 3",
                                      "n": "JMSType = 'bus'"}, dialect="wso2")
    lines = text.splitlines()
    assert "  fallback g: no native form for (a + b) + c > 3 (the UDF evaluates it where its native gate " \
           "JMSType = 'car' AND weight > 100 is TRUE)" in lines
    assert "  fallback u: no native form for a + b + c > 3 (the UDF evaluates it on every message)" in lines
    assert any(line.startswith("  fallback (Arrow UDF): 2 subscriptions, 1 gated") for line in lines)
