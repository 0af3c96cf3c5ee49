"""Selectors from Spark SQL: ``jms_match``, ``jms_selector_error`` and a native selector function.

    python examples/03_spark_sql_jms_match.py [--rows 20000]

What it shows:

1. `register` adds ``jms_match(selector, message_struct)`` to ``spark.sql``: any selector, a
   literal or a column, evaluated by a vectorized Arrow UDF;
2. one selector *per row*: a subscriptions table joined to the messages with
   ``jms_match(s.selector, struct(...))``; the invalid subscription does not fail the query (it
   simply matches nothing) and ``jms_selector_error`` says what is wrong with it, with a caret;
3. `register_selector` turns one literal selector into a temporary SQL function whose body is
   the native fragment: same answer as ``jms_match``, but the plan has no Python at all
   (Catalyst inlines it, so filters push down and unused columns are pruned);
4. a selector with a piece that has no native form (ActiveMQ ``SPLIT``): `register_selector`
   still runs the rest natively, and only that piece, on the one column it reads and the rows
   that pass the rest, goes to a Python UDF (no selector text travels with the rows).

Needs pyspark, pandas and pyarrow (``pip install '.[spark]'``).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys

SUBSCRIPTIONS = [
    ("blue-heavy", "color = 'blue' AND weight > 2500"),
    ("gold-eu", "tier = 'gold' AND region LIKE 'EU-%'"),
    ("high-priority", "JMSPriority BETWEEN 7 AND 9"),
    ("broken", "color = 'blue' AND AND weight > 2500"),
]


def runs_python(df) -> bool:
    """True when the physical plan evaluates a Python UDF (an ``…EvalPython`` operator)."""
    plan = io.StringIO()
    with contextlib.redirect_stdout(plan):
        df.explain()
    return "EvalPython" in plan.getvalue()


def python_calls(df) -> list:
    """The Python UDF calls of the physical plan, without Spark's expression ids."""
    plan = df._jdf.queryExecution().executedPlan().toString()
    return [re.sub(r"#\d+", "", c) for c in re.findall(r"ArrowEvalPython \[(.*?)\], \[", plan)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000, help="messages (default 20000)")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    from _local_spark import start_spark  # a quiet local session (examples/_local_spark.py)

    from jms_selector_spark import jms_filter, register, register_selector
    from jms_selector_spark.spark.sample_data import messages

    spark = start_spark("jms-example-03", **{"spark.sql.shuffle.partitions": "2"})
    try:
        messages(spark, args.rows).cache().createOrReplaceTempView("messages")
        spark.createDataFrame(SUBSCRIPTIONS, "name STRING, selector STRING").createOrReplaceTempView("subscriptions")
        register(spark)  # jms_match, jms_match_3vl, jms_selector_error

        print("1. a literal selector: jms_match('color = ''blue'' AND weight > 2500', struct(color, weight))")
        by_udf = spark.sql("""
            SELECT JMSType, count(*) AS messages FROM messages
            WHERE jms_match('color = ''blue'' AND weight > 2500', struct(color, weight))
            GROUP BY JMSType ORDER BY JMSType""")
        by_udf.show()

        print("2. one selector per row: subscriptions JOIN messages ON jms_match(s.selector, …)")
        spark.sql("""
            SELECT s.name, count(*) AS messages
            FROM subscriptions s JOIN messages m
              ON jms_match(s.selector, struct(m.JMSType, m.JMSPriority, m.color, m.weight, m.tier, m.region))
            GROUP BY s.name ORDER BY s.name""").show()
        for row in spark.sql("""
                SELECT name, jms_selector_error(selector) AS error FROM subscriptions
                WHERE jms_selector_error(selector) IS NOT NULL ORDER BY name""").collect():
            print(f"invalid subscription {row.name!r}:")
            print("  " + row.error.replace("\n", "\n  "))
        print()

        print("3. register_selector: the same selector as a native SQL function, heavy_blue(struct(*))")
        register_selector(spark, "heavy_blue", "color = 'blue' AND weight > 2500", "messages")
        native = spark.sql("""
            SELECT JMSType, count(*) AS messages FROM messages
            WHERE heavy_blue(struct(*))
            GROUP BY JMSType ORDER BY JMSType""")
        native.show()
        print("same rows as jms_match:", native.collect() == by_udf.collect())
        print("plan runs Python: jms_match", runs_python(by_udf), "/ heavy_blue", runs_python(native))
        print()

        selector = "JMSType = 'car' AND color = 'blue' AND INLIST(SPLIT(customer, ' '), 'Ltd')"
        print(f"4. register_selector with an ActiveMQ SPLIT (no native form): {selector}")
        register_selector(spark, "blue_car_ltd", selector, "messages", dialect="activemq")
        hybrid = spark.sql("SELECT count(*) AS messages FROM messages WHERE blue_car_ltd(struct(*))")
        print("messages:", hybrid.first().messages, "/ jms_filter:",
              jms_filter(spark.table("messages"), selector, dialect="activemq").count())
        print("Python evaluates only:", ", ".join(python_calls(hybrid)))
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
