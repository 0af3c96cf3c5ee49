"""Smoke run of an installed jms_selector_spark against whatever PySpark the environment has.

    python tools/smoke_installed.py          # from any folder, with the environment's Python

Prints the versions it runs with, then `jms_filter`, `route` and `jms_match` (through
``spark.sql``, so a Python UDF runs in the workers) on a three-message table, each checked
against the reference evaluator. Exits non-zero on any difference. Used by
tests/test_packaging.py to check the wheel in a fresh virtualenv that already has another
PySpark 4.x; the command is in docs/guide/deployment.md.
"""
from __future__ import annotations

import os
import sys


def main() -> int:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    import pandas
    import pyarrow
    import pyspark
    from pyspark.sql import SparkSession

    import jms_selector_spark as jss

    print(f"jms_selector_spark {jss.__version__} from {os.path.dirname(jss.__file__)}")
    print(f"pyspark {pyspark.__version__}, pandas {pandas.__version__}, pyarrow {pyarrow.__version__}, "
          f"Python {sys.version.split()[0]}")
    spark = (SparkSession.builder.master("local[1]").appName("jms-selector-smoke")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        rows = [("ID:1", 1000, "car", "blue", 3000), ("ID:2", 2000, "car", "red", 1000),
                ("ID:3", 3000, "bike", None, 9)]
        df = spark.createDataFrame(rows, "JMSMessageID string, JMSTimestamp long, JMSType string, "
                                         "color string, weight long")
        selector = "JMSType = 'car' AND weight > 2500"
        want = [r[0] for r in rows if jss.evaluate(selector, {"JMSType": r[2]},
                                                   {"color": r[3], "weight": r[4]}) is True]
        got = sorted(r.JMSMessageID for r in jss.jms_filter(df, selector).collect())
        print(f"jms_filter: {got}")
        routed = jss.route(df, {"heavy-cars": selector, "blue": "color = 'blue'"}, mode="topic")
        pairs = sorted((r.JMSMessageID, r.subscription, r.outcome) for r in routed.collect())
        print(f"route: {pairs}")
        jss.register(spark)
        df.createOrReplaceTempView("messages")
        matched = sorted(r.JMSMessageID for r in spark.sql(
            f"SELECT JMSMessageID FROM messages WHERE jms_match('{selector.replace(chr(39), chr(39) * 2)}', "
            "struct(JMSType, color, weight))").collect())
        print(f"jms_match: {matched}")
        ok = (got == want == matched == ["ID:1"] and pairs == [
            ("ID:1", "blue", "delivered"), ("ID:1", "heavy-cars", "delivered"),
            ("ID:2", None, "dropped"), ("ID:3", None, "dropped")])
    finally:
        spark.stop()
    print("smoke: ok" if ok else "smoke: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
