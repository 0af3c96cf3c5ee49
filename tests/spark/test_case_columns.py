"""Duplicate and case-only-different columns (#17 item 5): names are case-sensitive whatever
spark.sql.caseSensitive says where Spark allows it; otherwise a SelectorBindingError naming the
columns and the fix — never a Spark analysis error."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss

from conftest import sql_conf

pytestmark = pytest.mark.spark


def _table(spark):
    left = spark.createDataFrame([(1, "car", 10, 1, "blue"), (2, "bike", 1, 10, "red"), (3, "van", None, 7, None)],
                                 "id int, JMSType string, weight long, WeIgHt long, color string")
    right = spark.createDataFrame([(1, "green"), (2, "red"), (3, "red")], "rid int, color string")
    return left.join(right, left.id == right.rid).drop("rid")  # two `color` columns


@pytest.mark.parametrize("case_sensitive", ["false", "true"])
def test_case_only_and_duplicate_columns(spark, case_sensitive):
    with sql_conf(spark, {"spark.sql.caseSensitive": case_sensitive}):
        df = _table(spark)
        cols = df.columns

        def ids(sel):
            out = jss.jms_filter(df, sel)
            assert out.columns == cols  # renamed back, duplicates and all
            return sorted(r[0] for r in out.collect())

        assert ids("weight > 5") == [1]
        assert ids("WeIgHt > 5") == [2, 3]
        assert ids("JMSType <> 'van'") == [1, 2]   # reads neither: the duplicates do not matter
        assert ids("weight IS NULL") == [3]
        if case_sensitive == "true":
            assert ids("weight > WeIgHt") == [1]
        else:
            with pytest.raises(jss.SelectorBindingError, match="'WeIgHt', 'weight'.*spark.sql.caseSensitive=true"):
                jss.jms_filter(df, "weight > WeIgHt")
        with pytest.raises(jss.SelectorBindingError, match="'color', which the table has 2 times"):
            jss.jms_filter(df, "color = 'red'")


@pytest.mark.parametrize("case_sensitive", ["false", "true"])
def test_column_and_sql_function_entry_points(spark, case_sensitive):
    with sql_conf(spark, {"spark.sql.caseSensitive": case_sensitive}):
        df = spark.createDataFrame([(1, 10, 1), (2, 1, 10)], "id int, weight long, WeIgHt long")
        df.createOrReplaceTempView("case_messages")
        view = jss.register_selector(spark, "heavy_view", "weight > 5", "case_messages", kind="view")
        assert view and [r.id for r in spark.sql("SELECT id FROM heavy_view").collect()] == [1]
        if case_sensitive == "true":
            assert [r.id for r in df.where(jss.selector_to_column("WeIgHt > 5", df.schema)).collect()] == [2]
            jss.register_selector(spark, "heavy_fn", "weight > 5", "case_messages")
            assert [r.id for r in spark.sql("SELECT id FROM case_messages WHERE heavy_fn(struct(*))").collect()] == [1]
        else:
            with pytest.raises(jss.SelectorBindingError, match="use jms_filter"):
                jss.selector_to_column("WeIgHt > 5", df.schema)
            with pytest.raises(jss.SelectorBindingError, match="kind='view'"):
                jss.register_selector(spark, "heavy_fn", "weight > 5", "case_messages")
        assert [r.id for r in df.where(jss.selector_to_column("id = 2", df.schema)).collect()] == [2]
