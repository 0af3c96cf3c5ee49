"""Selectors `parse` accepts but whose SQL Spark's parser cannot take (#17 item 2).

~300 nested NOTs, ~100 chained arithmetic operators: `selector_to_sql` refuses them with a
`SelectorTooComplexError` naming the limit; every other entry point evaluates them exactly (the
too-deep part in the vectorized fallback), and `route` still routes every other subscription."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from jms_selector_spark.backends.sql.limits import MAX_SQL_DEPTH, sql_depth

pytestmark = pytest.mark.spark

ROWS = [(1, "car", "blue", 3000, 2, 1.5), (2, "bike", "red", 9, -3, -2.0), (3, "car", None, None, 1, None),
        (4, "van", "blue", 11, None, 0.5)]
DDL = "id int, JMSType string, color string, weight long, qty int, price double"
# A chain of NOTs alone is simplified away (``NOT NOT p`` is ``p``: `semantics.rewrites.simplify`):
# NOT over OR nests for real.
DEEP = {
    "nots": "NOT (qty = 1 OR " * 150 + "weight > 10" + ")" * 150,
    "int_chain": "weight" + " + qty" * 100 + " > 0",
    "double_chain": "price" + " * price" * 100 + " - price" * 100 + " >= 0",
    "mixed": "color = 'blue' AND (" + "NOT (qty = 1 OR " * 161 + "qty < 2" + ")" * 161 + ")",
}


def _expected(sel, dialect="jms"):
    out = set()
    for i, t, c, w, q, p in ROWS:
        if jss.evaluate(sel, {"JMSType": t}, {"color": c, "weight": w, "qty": q, "price": p}, dialect=dialect,
                        types={"weight": "long", "qty": "int", "price": "double"}):
            out.add(i)
    return out


def test_a_chain_of_nots_is_simplified_not_too_complex():
    """300 NOTs around a comparison lower to the comparison itself (an even count): native SQL."""
    sql = jss.selector_to_sql("NOT (" * 300 + "weight > 10" + ")" * 300, {"weight": "long"})
    assert sql == "`weight` > 10" and sql_depth(sql) < MAX_SQL_DEPTH


def test_selector_to_sql_names_the_limit():
    schema = {"id": "int", "JMSType": "string", "color": "string", "weight": "long", "qty": "int", "price": "double"}
    for sel in DEEP.values():
        with pytest.raises(jss.SelectorTooComplexError, match=f"more than the {MAX_SQL_DEPTH}"):
            jss.selector_to_sql(sel, schema)
    assert isinstance(jss.SelectorTooComplexError("x"), jss.UnsupportedSelectorError)
    assert sql_depth("CASE WHEN (`a(`) THEN 'CASE (' END") == 2


def test_every_entry_point_evaluates_too_deep_selectors(spark):
    df = spark.createDataFrame(ROWS, DDL)
    df.createOrReplaceTempView("deep_messages")
    want = {name: _expected(sel) for name, sel in DEEP.items()}
    assert all(want.values()) and any(w != {1, 2, 3, 4} for w in want.values())
    for name, sel in DEEP.items():
        got = {r.id for r in jss.jms_filter(df, sel).select("id").collect()}
        assert got == want[name], ("jms_filter", name)
        got = {r.id for r in df.where(jss.selector_to_column(sel, df.schema)).select("id").collect()}
        assert got == want[name], ("selector_to_column", name)
        jss.register_selector(spark, f"deep_{name}", sel, "deep_messages")
        got = {r.id for r in spark.sql(f"SELECT id FROM deep_messages WHERE deep_{name}(struct(*))").collect()}
        assert got == want[name], ("register_selector", name)
        jss.register_selector(spark, f"deep_view_{name}", sel, "deep_messages", kind="view")
        got = {r.id for r in spark.sql(f"SELECT id FROM deep_view_{name}").collect()}
        assert got == want[name], ("register_selector view", name)


def test_route_routes_the_others(spark):
    df = spark.createDataFrame(ROWS, DDL).drop("price")
    subs = {"blue": "color = 'blue'", "deep": DEEP["nots"], "heavy": "weight > 100", "chain": DEEP["int_chain"]}
    routed = jss.route(df, subs).select("id", "subscription").collect()
    got = {}
    for r in routed:
        got.setdefault(r.subscription, set()).add(r.id)
    for name, sel in subs.items():
        assert got.get(name, set()) == _expected(sel), name
    assert not jss.subscription_errors(subs)
    # the generated SQL of the native ones stays parseable
    assert all(sql_depth(jss.selector_to_sql(subs[n], df.schema)) <= MAX_SQL_DEPTH for n in ("blue", "heavy"))
