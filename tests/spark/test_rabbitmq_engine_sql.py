"""The engine's answers behind ``rabbitmq-jms``'s rules (`rabbitmq_cases.KNOWN`, checked against
RabbitMQ's ``sjx_evaluator`` by tests/differential/test_rabbitmq_oracle.py) through the Spark SQL
back end, ANSI on and off: one table, a row per case, every case's fragment in one projection."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from conftest import sql_conf
from rabbitmq_cases import COLUMNS, KNOWN, dialect_answer

pytestmark = pytest.mark.spark


def test_spark_sql_gives_the_engines_answers(spark):
    from pyspark.sql import types as st

    spark_types = {"boolean": st.BooleanType(), "int": st.IntegerType(), "long": st.LongType(),
                   "float": st.FloatType(), "string": st.StringType()}
    schema = st.StructType([st.StructField("case_id", st.IntegerType())]
                           + [st.StructField(k, spark_types[t]) for k, t in COLUMNS.items()])
    rows = [(j,) + tuple(props[k][1] if k in props else None for k in COLUMNS) for j, (_, props, _, _) in enumerate(KNOWN)]
    frags = [jss.selector_to_sql(selector, schema, dialect="rabbitmq-jms") for selector, _, _, _ in KNOWN]
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            got = spark.createDataFrame(rows, schema).selectExpr(
                "case_id", *[f"{frag} AS r{j}" for j, frag in enumerate(frags)]).collect()
        by_id = {r["case_id"]: r for r in got}
        wrong = [f"{selector!r}: engine {theirs!r}, Spark SQL {by_id[j][f'r{j}']!r} ({why})"
                 for j, (selector, _, theirs, why) in enumerate(KNOWN) if by_id[j][f"r{j}"] != dialect_answer(theirs)]
        assert not wrong, f"ansi={ansi}:\n" + "\n".join(wrong)
