"""Every entry point over a local Spark Connect server, in one session (run by
tests/spark/test_connect.py in a subprocess: a Connect session cannot start in a process that
already has a classic SparkSession, as the test suite's fixture does).

Prints one JSON object on stdout: {"check": value, ...}; the test compares the values with the
reference interpreter's answers, which it computes itself.

    python tests/support/connect_checks.py
"""
from __future__ import annotations

import json
import sys

ROWS = [
    # JMSType, color, weight, customer, JMSTimestamp, JMSMessageID
    ("car", "blue", 3000, "Smith Ltd", 1, "m1"),
    ("car", "blue", 1000, "O'Brien", 2, "m2"),
    ("car", "red", 2600, "Acme Ltd", 3, "m3"),
    ("bike", "blue", None, "Jones", 4, "m4"),
    ("truck", None, 9000, "Big Ltd", 5, "m5"),
]
SCHEMA = "JMSType string, color string, weight bigint, customer string, JMSTimestamp bigint, JMSMessageID string"
NATIVE = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
HYBRID = "JMSType IN ('car', 'truck') AND INLIST(SPLIT(customer, ' '), 'Ltd')"
SUBSCRIPTIONS = {"blue-heavy": NATIVE, "ltd": HYBRID, "heavy": "weight > 2500", "broken": "a = AND"}


def main() -> None:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    from jms_selector_spark.spark import connect
    from jms_selector_spark import jms_filter, register, register_selector, route, selector_to_sql

    spark = SparkSession.builder.remote("local[1]").getOrCreate()
    out = {"session": type(spark).__module__}
    out["shipped"] = connect.ship(spark)
    df = spark.createDataFrame(ROWS, SCHEMA)
    df.createOrReplaceTempView("messages")

    def ids(frame):
        return sorted(r.JMSMessageID for r in frame.select("JMSMessageID").collect())

    out["selector_to_sql"] = ids(df.where(selector_to_sql(NATIVE, df.schema)))
    out["jms_filter_native"] = ids(jms_filter(df, NATIVE))
    out["jms_filter_hybrid"] = ids(jms_filter(df, HYBRID, dialect="activemq"))
    register(spark)
    register(spark, dialect="activemq", name="amq_match")
    out["jms_match"] = ids(spark.sql(f"SELECT * FROM messages WHERE jms_match('{NATIVE.replace(chr(39), 2 * chr(39))}', "
                                     "struct(JMSType, color, weight))"))
    out["amq_match"] = ids(spark.sql(f"SELECT * FROM messages WHERE amq_match('{HYBRID.replace(chr(39), 2 * chr(39))}', "
                                     "struct(JMSType, customer))"))
    out["selector_error"] = spark.sql("SELECT jms_selector_error('a = AND') AS e").first().e
    register_selector(spark, "ltd_sel", HYBRID, "messages", dialect="activemq")
    out["register_selector"] = ids(spark.sql("SELECT * FROM messages WHERE ltd_sel(struct(*))"))
    routed = route(df, SUBSCRIPTIONS, mode="topic", dialect="activemq")
    out["route"] = sorted([r.JMSMessageID, r.subscription] for r in routed.select("JMSMessageID", "subscription")
                          .collect())

    # where the workers imported the package from: the shipped zip
    @F.udf("string")
    def origin(_):
        import jms_selector_spark

        return jms_selector_spark.__file__

    out["worker_import"] = df.limit(1).select(origin("JMSType").alias("f")).first().f
    spark.stop()
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
