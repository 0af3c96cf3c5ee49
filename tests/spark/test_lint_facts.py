"""What `lint` warns about really happens in Spark: a DECIMAL(38,0) value beyond the long range
is NULL, a MAP<STRING,STRING> property compared with a number is FALSE, and a 10,000-item IN
list parsed with a larger ``max_length`` runs through `jms_filter` and `selector_to_sql`.

One small DataFrame, a handful of queries, under ANSI on and off.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from jms_selector_spark import jms_filter, lint, parse, selector_to_sql
from conftest import sql_conf

pytestmark = pytest.mark.spark

BIG = Decimal(10) ** 20  # beyond Long.MAX_VALUE (about 9.2e18)


@pytest.fixture(scope="module")
def tables(spark):
    rows = [(1, BIG, "k1"), (2, Decimal(5), "k9999"), (3, -BIG, "nope")]
    flat = spark.createDataFrame(rows, "id int, amount decimal(38,0), key string")
    mapped = spark.createDataFrame([(1, {"qty": "5"}), (2, {"qty": "5"}), (3, {})],
                                   "id int, properties map<string,string>")
    return flat, mapped


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_what_lint_warns_about_happens(spark, tables, ansi):
    table, mapped = tables
    in_list = parse("key IN (" + ", ".join(f"'k{i}'" for i in range(10_000)) + ")", max_length=200_000)
    selectors = {
        "amount > 1": [2],                 # 1e20 is NULL, not > 1
        "amount IS NULL": [1, 3],          # beyond the long range: NULL
        "amount < 0": [],
        "qty > 4": [],                     # a string property compared with a number: FALSE
        "qty = '5'": [1, 2],
    }
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        got = {text: sorted(r.id for r in jms_filter(mapped if "qty" in text else table, text).collect())
               for text in selectors}
        assert got == selectors
        assert sorted(r.id for r in jms_filter(table, in_list).collect()) == [1, 2]
        assert sorted(r.id for r in table.where(selector_to_sql(in_list, table.schema)).collect()) == [1, 2]
    assert [w.code for w in lint("amount > 1", schema=table.schema)] == ["decimal-range"]
    assert [w.code for w in lint("qty > 4", schema=mapped.schema)] == ["string-numeric"]
