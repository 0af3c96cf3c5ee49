"""The vectorized path through Spark: ``jms_match`` (one selector per row, invalid ones mixed in),
``jms_selector_error``, VARIANT properties, subscriptions × messages, and hybrid ``jms_filter``.

Every expectation is `evaluate` (the reference interpreter) on the same message. Cases are
batched: one DataFrame per dialect and setting, one generated selector per row.
"""
from __future__ import annotations

import json
import random

import pytest

import jms_selector_spark as jss
from jms_selector_spark.spark.sql_functions import register

from conftest import sql_conf

pytestmark = pytest.mark.spark

NAMES = ["a", "b", "c", "s", "t", "x"]
TYPES = ["boolean", "byte", "short", "int", "long", "float", "double", "string"]
SPARK_TYPE = {"boolean": "boolean", "byte": "tinyint", "short": "smallint", "int": "int", "long": "bigint",
              "float": "float", "double": "double", "string": "string"}
HEADER_DDL = ("JMSType string, JMSPriority int, JMSDeliveryMode string, JMSTimestamp bigint, JMSCorrelationID string,"
              " JMSMessageID string, JMSExpiration bigint")
HEADER_NAMES = [h.split()[0] for h in HEADER_DDL.split(", ")]
SIGNATURES = 12
ROWS_PER_SIGNATURE = 150


def fn_name(dialect: str) -> str:
    """A SQL function name part for a dialect (``qpid-jms`` → ``qpid_jms``)."""
    return dialect.replace("-", "_")


def _batch(gen, rng, dialect):
    """(ddl, rows, cases): one type signature, a generated selector and message per row."""
    types = {name: rng.choice(TYPES) for name in NAMES}
    ddl = HEADER_DDL + ", " + ", ".join(f"{k} {SPARK_TYPE[t]}" for k, t in types.items()) + ", selector string"
    rows, cases = [], []
    for _ in range(ROWS_PER_SIGNATURE):
        headers, _, _ = gen.message()
        props = {k: gen.value_of(t) for k, t in types.items() if rng.random() < 0.85}
        sel = gen.selector()
        try:
            want = jss.evaluate(sel, headers, props, dialect=dialect, types=types)
        except jss.SelectorError:
            want = "invalid"
        rows.append(tuple(headers.get(h) for h in HEADER_NAMES) + tuple(props.get(k) for k in NAMES) + (sel,))
        cases.append((sel, props, want))
    return ddl, rows, cases


def _one_table(batches):
    """All the signatures' rows in one table: a column per (name, type) used, ``sig`` the row's
    signature, ``i`` its case; each signature's struct reads its own columns under the plain names."""
    cols = sorted({(k, t) for ddl, _, _ in batches for k, t in _types_of(ddl).items()})
    ddl = ("sig int, i int, " + HEADER_DDL + ", " + ", ".join(f"{k}__{t} {SPARK_TYPE[t]}" for k, t in cols)
           + ", selector string")
    rows = []
    for sig, (bddl, brows, _) in enumerate(batches):
        types = _types_of(bddl)
        for i, r in enumerate(brows):
            heads, props, sel = r[:len(HEADER_NAMES)], dict(zip(NAMES, r[len(HEADER_NAMES):-1])), r[-1]
            rows.append((sig, i) + heads + tuple(props[k] if types[k] == t else None for k, t in cols) + (sel,))
    structs = [", ".join([f"`{h}`" for h in HEADER_NAMES] + [f"{k}__{t} AS {k}" for k, t in _types_of(bddl).items()])
               for bddl, _, _ in batches]
    return ddl, rows, structs


def _types_of(ddl: str) -> dict:
    """{property: JMS type} of a signature's DDL (`_batch`)."""
    spark_to_jms = {v: k for k, v in SPARK_TYPE.items()}
    parts = [p.split() for p in ddl.split(", ")]
    return {name: spark_to_jms[t] for name, t in parts if name in NAMES}


def test_jms_match_per_row_selectors_equal_evaluate(spark, dialect):
    """Per-row selectors of every type signature, in one table per ANSI setting: each
    signature's rows call the functions on its own struct (the selector is NULL on the others)."""
    from gen import CaseGenerator

    fn = f"m_{fn_name(dialect)}"
    register(spark, dialect=dialect, name=fn)
    gen, rng = CaseGenerator(20261123, dialect), random.Random(7)
    batches = [_batch(gen, rng, dialect) for _ in range(SIGNATURES)]
    ddl, rows, structs = _one_table(batches)
    df = spark.createDataFrame(rows, ddl)
    exprs = []
    for sig, cols in enumerate(structs):
        sel = f"CASE WHEN sig = {sig} THEN selector END"
        exprs += [f"{fn}_3vl({sel}, struct({cols})) AS v3_{sig}", f"{fn}({sel}, struct({cols})) AS v_{sig}"]
    checked = invalid = 0
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            got = df.selectExpr("sig", "i", *exprs, f"{fn}_selector_error(selector) AS err").collect()
        for r in got:
            sig = r["sig"]
            sel, props, want = batches[sig][2][r["i"]]
            v3, v = r[f"v3_{sig}"], r[f"v_{sig}"]
            if want == "invalid":
                invalid += 1
                assert (v3, v) == (None, False) and r["err"], (sel, r)
            else:
                assert r["err"] is None, (sel, r["err"])
                assert v3 == want and v == (want is True), (sel, props, want, r)
            checked += 1
    assert checked == 2 * SIGNATURES * ROWS_PER_SIGNATURE and invalid > 20


def test_subscriptions_cross_join_messages_with_a_bad_selector(spark):
    register(spark)
    msgs = spark.createDataFrame(
        [("ID:1", "car", "blue", 3000), ("ID:2", "car", "red", 100), ("ID:3", "bike", None, 5)],
        "JMSMessageID string, JMSType string, color string, weight bigint")
    subs = spark.createDataFrame(
        [("heavy", "weight > 2500"), ("blue", "color = 'blue'"), ("broken", "color = 'blue' AND AND x"),
         ("all", None), ("uncoloured", "color IS NULL")], "name string, selector string")
    msgs.createOrReplaceTempView("xj_messages")
    subs.createOrReplaceTempView("xj_subs")
    got = spark.sql("""SELECT m.JMSMessageID, s.name FROM xj_messages m CROSS JOIN xj_subs s
                       WHERE jms_match(s.selector, struct(m.JMSType, m.color, m.weight))""").collect()
    assert sorted(map(tuple, got)) == [("ID:1", "all"), ("ID:1", "blue"), ("ID:1", "heavy"), ("ID:2", "all"),
                                       ("ID:3", "all"), ("ID:3", "uncoloured")]
    errors = spark.sql("SELECT name, jms_selector_error(selector) AS e FROM xj_subs WHERE jms_selector_error(selector) IS NOT NULL").collect()
    assert [r["name"] for r in errors] == ["broken"] and "line 1, column 20" in errors[0]["e"]


VARIANT_CASES = [
    ("tier = 'gold'", {"tier": "gold"}), ("tier = 'gold'", {}), ("qty = 5", {"qty": 5}), ("qty = 5", {"qty": "5"}),
    ("qty > 4.5", {"qty": 5}), ("qty + 1 = 6", {"qty": 5}), ("tier LIKE 'g%d'", {"tier": "gold"}),
    ("flag", {"flag": True}), ("flag", {"flag": "true"}), ("NOT (qty = 5)", {"qty": "5"}),
    ("qty = tier", {"qty": 5, "tier": 5}), ("w = 2.5", {"w": 2.5}), ("tier IS NULL", {}),
    ("qty BETWEEN 1 AND 10 OR tier IN ('a', 'b')", {"tier": "b"}), ("w / 0 > 1", {"w": 1.5}),
]


def test_jms_match_on_variant_properties(spark, dialect):
    register(spark, dialect=dialect, name=f"v_{fn_name(dialect)}")
    df = spark.createDataFrame([(i, s, json.dumps(p)) for i, (s, p) in enumerate(VARIANT_CASES)],
                               "i int, selector string, js string").selectExpr("i", "selector", "parse_json(js) AS properties")
    got = {r["i"]: r["v"] for r in df.selectExpr("i", f"v_{fn_name(dialect)}_3vl(selector, struct(properties)) AS v").collect()}
    assert [got[i] for i in range(len(VARIANT_CASES))] == [_three_valued(s, p, dialect) for s, p in VARIANT_CASES]


def _three_valued(selector, properties, dialect):
    """`evaluate`, or None (what the _3vl function gives) for a selector the dialect rejects (MQe: `>`)."""
    try:
        return jss.evaluate(selector, properties=properties, dialect=dialect)
    except jss.SelectorError:
        return None


def test_jms_filter_hybrid_pushes_the_native_part(spark, tmp_path):
    path = str(tmp_path / "hybrid")
    rows = [("car", "blue", 3000, "a,b"), ("car", "blue", 3000, None), ("car", "red", 3000, "a"),
            ("bike", "blue", 10, "a,b,c"), (None, None, None, "")]
    spark.createDataFrame(rows, "JMSType string, color string, weight bigint, tags string").write.parquet(path)
    df = spark.read.parquet(path)
    sel = "JMSType = 'car' AND color = 'blue' AND SPLIT(tags, ',') IS NOT NULL"
    out = jss.jms_filter(df, sel, dialect="activemq")
    with sql_conf(spark, {"spark.sql.maxMetadataStringLength": "10000"}):
        plan = out._jdf.queryExecution().executedPlan().toString()
    assert "ArrowEvalPython" in plan
    assert "EqualTo(JMSType,car)" in plan and "EqualTo(color,blue)" in plan  # the native conjuncts push down
    want = [r for r in rows if jss.evaluate(sel, {"JMSType": r[0]} if r[0] else {},
                                             {"color": r[1], "weight": r[2], "tags": r[3]}, dialect="activemq")]
    assert sorted(map(tuple, out.collect()), key=str) == sorted(want, key=str)
    explained = jss.explain_filter(sel, df.schema, dialect="activemq")
    assert explained.count("native") == 2 and "fallback  SPLIT(tags, ',') IS NOT NULL" in explained


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_jms_filter_hybrid_equals_evaluate_on_generated_selectors(spark, ansi):
    """Generated predicates combined with fallback-only constructs under AND / OR / NOT."""
    from gen import CaseGenerator

    gen, rng = CaseGenerator(99, "activemq"), random.Random(3)
    types = {"a": "long", "b": "double", "c": "int", "s": "string", "t": "string", "x": "boolean"}
    rows = []
    for i in range(60):
        props = {k: gen.value_of(v) for k, v in types.items() if rng.random() < 0.85}
        rows.append((i,) + tuple(props.get(k) for k in types))
    df = spark.createDataFrame(rows, "i int, " + ", ".join(f"{k} {SPARK_TYPE[t]}" for k, t in types.items()))
    fallbacks = ["SPLIT(s, 'a') IS NOT NULL", "REGEX('(?i)A', t)", "s + b = 'x1.5'"]
    checked = 0
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        for k in range(12):
            while True:
                p = gen.predicate(2)
                try:
                    jss.parse(p, dialect="activemq")
                    break
                except jss.SelectorError:
                    continue
            fb = rng.choice(fallbacks)
            sel = rng.choice([f"({p}) AND {fb}", f"({p}) OR {fb}", f"NOT ({fb}) AND ({p})", f"({p}) OR NOT ({fb})"])
            got = sorted(r["i"] for r in jss.jms_filter(df, sel, dialect="activemq").select("i").collect())
            want = [r[0] for r in rows if jss.evaluate(sel, properties=dict(zip(types, r[1:])), dialect="activemq",
                                                       types=types) is True]
            assert got == want, sel
            checked += 1
    assert checked == 12
