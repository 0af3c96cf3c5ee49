"""spark.sql entry points: `register_selector` (native, no Python in the plan) and `register`
(``jms_match`` / ``jms_selector_error`` on the vectorized evaluator, per-row selectors)."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from jms_selector_spark.spark.sql_functions import register, register_selector, selector_columns, struct_ddl

from conftest import sql_conf

pytestmark = pytest.mark.spark

ROWS = [
    ("ID:1", 1000, "car", 4, "PERSISTENT", "blue", 3000, 2.5, True),
    ("ID:2", 2000, "car", 9, "NON_PERSISTENT", "red", 1000, None, False),
    ("ID:3", 3000, "truck", 1, "PERSISTENT", None, 9000, 7.0, None),
    ("ID:4", 4000, "bike", 4, "PERSISTENT", "blue", None, float("nan"), True),
    ("ID:5", 5000, None, None, None, "O'Brien", 2501, -0.0, False),
]
DDL = ("JMSMessageID string, JMSTimestamp long, JMSType string, JMSPriority int, JMSDeliveryMode string,"
       " color string, weight long, ratio double, urgent boolean")
NAMES = [c.split()[0] for c in DDL.split(", ")]
HEADERS = {"JMSMessageID", "JMSTimestamp", "JMSType", "JMSPriority", "JMSDeliveryMode"}

SELECTORS = [
    "JMSType = 'car' AND color = 'blue' AND weight > 2500",
    "color LIKE 'O''%' OR JMSPriority >= 9",
    "NOT (weight BETWEEN 1000 AND 3000)",
    "ratio > 2.0 OR urgent",
    "JMSDeliveryMode = 'PERSISTENT' AND color IS NULL",
    "color IN ('red', 'blue') AND NOT urgent",
    "weight / 2 = 500",
]


def _expected(selector, dialect="jms"):
    out = []
    for row in ROWS:
        values = dict(zip(NAMES, row))
        headers = {k: v for k, v in values.items() if k in HEADERS and v is not None}
        props = {k: v for k, v in values.items() if k not in HEADERS}
        if jss.evaluate(selector, headers, props, dialect=dialect) is True:
            out.append(values["JMSMessageID"])
    return sorted(out)


@pytest.fixture(scope="module")
def messages(spark, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("sqlfn") / "messages")
    spark.createDataFrame(ROWS, DDL).write.parquet(path)
    df = spark.read.parquet(path)
    df.createOrReplaceTempView("sqlfn_messages")
    return df


def _plan(df) -> str:
    return df._jdf.queryExecution().executedPlan().toString()


def _pushed(df) -> str:
    plan = _plan(df)
    start = plan.index("PushedFilters: [")
    return plan[start:plan.index("]", start) + 1]


def test_struct_ddl_keeps_order_and_nullability(spark):
    df = spark.sql("SELECT 1 AS b, named_struct('x', 'a', 'y', CAST(NULL AS INT)) AS s, map('k', 1) AS m")
    assert struct_ddl(df.schema) == "STRUCT<`b`: INT NOT NULL, `s`: STRUCT<`x`: STRING NOT NULL, `y`: INT> NOT NULL, `m`: MAP<STRING, INT> NOT NULL>"


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_registered_selector_functions_are_native_and_exact(spark, messages, ansi):
    for k, sel in enumerate(SELECTORS):
        register_selector(spark, f"sel_{k}", sel, "sqlfn_messages")
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        for k, sel in enumerate(SELECTORS):
            q = spark.sql(f"SELECT JMSMessageID FROM sqlfn_messages WHERE sel_{k}(struct(*))")
            assert sorted(r[0] for r in q.collect()) == _expected(sel), sel
            plan = _plan(q)
            assert "Python" not in plan and "ArrowEval" not in plan, plan


def test_registered_function_pushes_down_like_the_hand_written_filter(spark, messages):
    register_selector(spark, "heavy_blue_cars", "JMSType = 'car' AND color = 'blue' AND weight > 2500",
                      "sqlfn_messages")
    ours = spark.sql("SELECT JMSType FROM sqlfn_messages WHERE heavy_blue_cars(struct(*))")
    hand = spark.sql("SELECT JMSType FROM sqlfn_messages WHERE JMSType = 'car' AND color = 'blue' AND weight > 2500")
    with sql_conf(spark, {"spark.sql.maxMetadataStringLength": "10000"}):  # untruncated plan text
        assert _pushed(ours) == _pushed(hand)
        assert "EqualTo(JMSType,car)" in _pushed(ours) and "GreaterThan(weight,2500)" in _pushed(ours)
        scan = _plan(ours)
    # column pruning: only the three columns the selector reads are scanned
    read_schema = scan[scan.index("ReadSchema: "):].split("\n")[0]
    assert read_schema == "ReadSchema: struct<JMSType:string,color:string,weight:bigint>", read_schema


def test_registered_view(spark, messages):
    sel = "color LIKE 'O''%' OR JMSPriority >= 9"
    register_selector(spark, "irish_or_urgent", sel, messages, kind="view")
    got = sorted(r[0] for r in spark.sql("SELECT JMSMessageID FROM irish_or_urgent").collect())
    assert got == _expected(sel)


def test_register_selector_errors(spark, messages):
    with pytest.raises(jss.SelectorSyntaxError):
        register_selector(spark, "bad", "color = ", "sqlfn_messages")
    with pytest.raises(jss.SelectorBindingError):
        register_selector(spark, "unbound", "tags = 'x'", spark.createDataFrame([(["a"],)], "tags array<string>"))
    with pytest.raises(ValueError, match="SQL name"):
        register_selector(spark, "drop table x", "color = 'x'", "sqlfn_messages")


# ActiveMQ selectors with pieces that have no native form (SPLIT, REGEX on a column pattern),
# under AND / OR / NOT next to native ones and NULL-valued columns: three-valued composition.
HYBRID_SELECTORS = [
    "color = 'blue' AND INLIST(SPLIT(JMSType, 'a'), 'c')",
    "NOT (INLIST(SPLIT(color, 'l'), 'b')) OR weight > 2500",
    "REGEX(JMSType, color) OR urgent",
    "JMSPriority >= 4 AND NOT (SPLIT(color, ',') IS NULL AND weight IS NULL)",
    "INLIST(SPLIT(JMSDeliveryMode, '_'), 'PERSISTENT') AND NOT urgent",
]
#: No native form either, but reading no column: `lowering.lower` folds it (TRUE, FALSE), so the
#: function is native and runs no Python at all.
FOLDED_SELECTORS = ["SPLIT('a b', ' ') IS NOT NULL", "INLIST(SPLIT('a,b', ','), 'c') OR color = 'blue'"]


def _python_inputs(plan: str) -> list:
    """The argument lists of the Python UDF calls in a physical plan's ArrowEvalPython nodes."""
    import re

    return re.findall(r"ArrowEvalPython \[(.*?)\], \[", plan)


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_registered_hybrid_selector_functions(spark, messages, ansi):
    for k, sel in enumerate(HYBRID_SELECTORS):
        register_selector(spark, f"hyb_{k}", sel, "sqlfn_messages", dialect="activemq")
    for k, sel in enumerate(FOLDED_SELECTORS):
        register_selector(spark, f"folded_{k}", sel, "sqlfn_messages", dialect="activemq")
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        for k, sel in enumerate(HYBRID_SELECTORS):
            q = spark.sql(f"SELECT JMSMessageID FROM sqlfn_messages WHERE hyb_{k}(struct(*))")
            assert sorted(r[0] for r in q.collect()) == _expected(sel, "activemq"), sel
            calls = _python_inputs(_plan(q))
            assert calls, sel  # the fallback piece runs in Python...
            assert not any("'" in c or "decode(" in c for c in calls), calls  # ...without the selector text
        for k, sel in enumerate(FOLDED_SELECTORS):
            q = spark.sql(f"SELECT JMSMessageID FROM sqlfn_messages WHERE folded_{k}(struct(*))")
            assert sorted(r[0] for r in q.collect()) == _expected(sel, "activemq"), sel
            assert not _python_inputs(_plan(q)), sel


def test_registered_hybrid_function_pushes_the_native_part_and_sends_only_what_the_udf_reads(spark, messages):
    sql = register_selector(spark, "blue_car_split", "JMSType = 'car' AND color = 'blue' AND "
                            "INLIST(SPLIT(JMSType, 'a'), 'c')", "sqlfn_messages", dialect="activemq")
    assert "`__jms_blue_car_split_0`(`message`.`JMSType`)" in sql, sql
    q = spark.sql("SELECT JMSMessageID, weight FROM sqlfn_messages WHERE blue_car_split(struct(*))")
    assert sorted(r[0] for r in q.collect()) == ["ID:1"]
    with sql_conf(spark, {"spark.sql.maxMetadataStringLength": "10000"}):
        pushed, plan = _pushed(q), _plan(q)
    assert "EqualTo(JMSType,car)" in pushed and "EqualTo(color,blue)" in pushed, pushed
    calls = _python_inputs(plan)
    import re

    assert len(calls) == 1 and re.fullmatch(r"__jms_blue_car_split_0\(JMSType#\d+\)#\d+", calls[0]), calls
    # one column crosses to Python (JMSType), not the struct, not the selector


def test_registered_hybrid_view(spark, messages):
    sel = "NOT (INLIST(SPLIT(color, 'l'), 'b')) OR weight > 2500"
    described = register_selector(spark, "hyb_view", sel, messages, kind="view", dialect="activemq")
    assert "fallback" in described and "native" in described, described
    got = sorted(r[0] for r in spark.sql("SELECT JMSMessageID FROM hyb_view").collect())
    assert got == _expected(sel, "activemq")


def test_two_dialects_registered_side_by_side(spark, messages):
    # ActiveMQ accepts a hex literal and `%`; jms does not
    register(spark)
    fns = register(spark, dialect="activemq", name="amq_match")
    assert sorted(fns) == ["amq_match", "amq_match_3vl", "amq_match_selector_error"]
    sel = "weight % 2 = 0 AND JMSPriority = 0x4"
    row = spark.sql(f"SELECT jms_selector_error('{sel}') AS jms, amq_match_selector_error('{sel}') AS amq, "
                    f"count_if(amq_match('{sel}', struct(weight, JMSPriority))) AS n FROM sqlfn_messages").first()
    assert row.jms is not None and row.jms.startswith("SelectorSyntaxError") and row.amq is None
    assert row.n == len(_expected(sel, "activemq")) == 1


def test_selector_columns(messages):
    assert selector_columns("weight > 1 AND JMSType = 'x' AND nothere = 1", messages.schema) == ["weight", "JMSType"]
    # per-row selectors: the union over the distinct ones, invalid ones and NULLs skipped
    many = ["color = 'blue'", "weight >", None, "", "JMSType = 'x' OR weight < 2"]
    assert selector_columns(many, messages.schema) == ["color", "JMSType", "weight"]
    assert selector_columns(iter(["nothere = 1"]), messages.schema) == []
    with pytest.raises(jss.SelectorSyntaxError):
        selector_columns("weight >", messages.schema)


def test_jms_match_with_only_the_union_of_columns_matches_as_with_the_whole_row(spark, messages):
    register(spark)
    subs = spark.createDataFrame([("a", "color = 'blue'"), ("b", "weight >"), ("c", "JMSType = 'car' OR weight < 2"),
                                  ("d", None)], "name string, selector string")
    subs.createOrReplaceTempView("sqlfn_subs")
    cols = selector_columns([r.selector for r in subs.select("selector").distinct().collect()], messages.schema)
    narrow = ", ".join(f"m.`{c}`" for c in cols)
    q = ("SELECT s.name, m.JMSMessageID FROM sqlfn_subs s JOIN sqlfn_messages m ON jms_match(s.selector, struct({}))")
    every = ", ".join(f"m.`{c}`" for c in messages.columns)  # struct(m.*) is not allowed in a join condition
    whole = {tuple(r) for r in spark.sql(q.format(every)).collect()}
    assert whole and {tuple(r) for r in spark.sql(q.format(narrow)).collect()} == whole
