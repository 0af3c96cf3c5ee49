"""What each queue rotation costs: `route(mode="queue")` with the parallel ``match_set`` rotation
vs WSO2's single cursor (``consumer_list``, one sequential task), an exclusive queue, and the
topic outcomes of the ``jms`` and ``wso2`` rule sets, on the same archive.

    .venv/bin/python benchmarks/bench_rotation.py [--rows 1000000] [--reps 2]

Variants are interleaved in every round (the machine is shared: compare the ratios, not the
seconds). Each run writes the routed rows to Spark's ``noop`` sink, so every row is computed.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

SUBS = {
    "blue-cars": "JMSType = 'car' AND color = 'blue'",
    "heavy": "weight > 2500",
    "urgent": "JMSPriority >= 8",
    "cars": "JMSType = 'car'",
    "all": "",
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    from jms_selector_spark.spark.routing.route import Subscription, route

    spark = (SparkSession.builder.master("local[2]").appName("bench_rotation")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
             .config("spark.driver.memory", "2g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    path = os.path.join(tempfile.mkdtemp(prefix="bench_rotation."), "messages")
    (spark.range(args.rows)
     .select(F.format_string("ID:%09d", "id").alias("JMSMessageID"), (F.col("id") * 7919 % 1_000_003).alias("JMSTimestamp"),
             F.element_at(F.array(*[F.lit(x) for x in ("car", "truck", "bike")]), (F.col("id") % 3 + 1).cast("int")).alias("JMSType"),
             (F.col("id") % 10).cast("int").alias("JMSPriority"),
             F.element_at(F.array(*[F.lit(x) for x in ("blue", "red", "green", "grey")]), (F.col("id") / 3 % 4 + 1).cast("int")).alias("color"),
             (F.col("id") * 37 % 4000).alias("weight"))
     .repartition(4).write.parquet(path))
    messages = spark.read.parquet(path)
    exclusive = [Subscription(n, s, kind="exclusive_queue", subscribed_at=i * 100_000) for i, (n, s) in enumerate(SUBS.items())]
    variants = {
        "queue match_set (jms)": lambda: route(messages, SUBS, mode="queue"),
        "queue consumer_list (wso2)": lambda: route(messages, SUBS, mode="queue", routing="wso2"),
        "queue exclusive (solace)": lambda: route(messages, exclusive, mode="queue", routing="solace"),
        "topic (jms)": lambda: route(messages, SUBS, mode="topic"),
        "topic durable dead letters (wso2)": lambda: route(messages, SUBS, mode="topic", routing="wso2"),
    }
    times = {k: [] for k in variants}
    for name, make in variants.items():  # warm-up: one run each
        make().write.format("noop").mode("overwrite").save()
    for _ in range(args.reps):
        for name, make in variants.items():
            t = time.perf_counter()
            make().write.format("noop").mode("overwrite").save()
            times[name].append(time.perf_counter() - t)
    base = min(times["queue match_set (jms)"])
    print(f"{args.rows:,} messages, {len(SUBS)} subscriptions, best of {args.reps} interleaved rounds (local[2])")
    print(f"{'variant':36}{'best s':>8}{'vs match_set':>14}")
    for name, ts in times.items():
        print(f"{name:36}{min(ts):8.1f}{min(ts) / base:13.2f}x")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
