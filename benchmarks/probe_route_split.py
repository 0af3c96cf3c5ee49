"""Probe (not part of ``make bench``): route's fallback (Arrow UDF) subscriptions, the
plan before and after the per-subscription split.

Before (until fallback selectors were split): every fallback selector evaluated *whole* by the UDF, on the
messages that pass the OR of the subscriptions' access predicates (``JMSType = 'car'`` / ``IN``;
no gate at all when one subscription has none). After (`spark.routing.columns`): each
subscription's native conjuncts are its own gate, computed by Spark, and the UDF evaluates only the
rest, only where that gate is TRUE. The "before" plan is rebuilt here from the same pieces (access
predicates, `routing_udf` with one shared gate): the same work as main's code did.

N cached messages (default 2M), ``local[2]``, the fallback column only (``sum(size(matches))``),
``--reps`` ABAB-interleaved rounds, medians; both plans must find the same matches (asserted,
per row by a checksum). ``python benchmarks/probe_route_split.py [--rows N] [--reps R]``.
"""
import argparse
import os
import statistics
import time
from functools import reduce

from pyspark.sql import SparkSession, functions as F

import jms_selector_spark as jss
from jms_selector_spark.backends.udf import routing_udf, source_args
from jms_selector_spark.binder import Binding
from jms_selector_spark.language.schema import to_schema
from jms_selector_spark.spark.routing.access import access_predicates
from jms_selector_spark.spark.routing.columns import fallback_matches, split_fallback
from jms_selector_spark.spark.routing.estate import plan_estate
from jms_selector_spark.spark.routing.subscriptions import Subscription

AMQ = jss.ACTIVEMQ
TYPES = ("car", "bus", "bike", "truck", "van")
#: label -> fallback subscriptions (selectors)
CASES = {
    "1 sub, no access predicate": ["weight > 9900 AND INLIST(SPLIT(s, ','), 'b')"],
    "1 sub, access predicate": ["JMSType = 'car' AND weight > 9900 AND INLIST(SPLIT(s, ','), 'b')"],
    "10 subs, access predicates": [f"JMSType = '{TYPES[i % 5]}' AND weight > {9000 + 90 * i} AND "
                                   f"INLIST(SPLIT(s, ','), '{'bc'[i % 2]}')" for i in range(10)],
    "10 subs, 2 without access predicate": [f"JMSType = '{TYPES[i % 5]}' AND weight > {9000 + 90 * i} AND "
                                            f"INLIST(SPLIT(s, ','), '{'bc'[i % 2]}')" for i in range(8)]
                                           + ["weight BETWEEN 100 AND 300 AND INLIST(SPLIT(s, ','), 'b')",
                                              "weight < 50 AND SPLIT(s, ',') IS NOT NULL"],
}


def _fallback(df, subs):
    native, fallback, _ = plan_estate(subs, to_schema(df.schema), AMQ, Binding())
    assert not native and len(fallback) == len(subs)
    return fallback


def before(df, subs):
    """Main's plan: whole selectors, gated by the OR of one access predicate each (or none)."""
    gate = None
    parts = []
    fallback = _fallback(df, subs)
    for s, compiled in fallback:
        cands = [p for p in access_predicates(compiled) if not p.prefix]
        if not cands:
            parts = None
            break
        best = min(cands, key=lambda p: len(p.values))
        parts.append(F.expr(best.value_sql).isin(*best.values))
    if parts:
        gate = F.coalesce(reduce(lambda a, b: a | b, parts), F.lit(False))
    udf, cols = routing_udf([(s.name, c.piece(c.core)) for s, c in fallback],
                            gates=[0 if gate is not None else None] * len(subs))
    args = source_args(cols)
    if gate is None:
        return udf(*args)
    return udf(gate, *[F.when(gate, a) for a in args])


def after(df, subs):
    return fallback_matches(split_fallback(_fallback(df, subs)))


def run(df, col):
    t = time.perf_counter()
    r = df.select(F.sum(F.size(col)).alias("n"), F.sum(F.xxhash64(F.col("id"), F.sort_array(col)).cast("decimal(38,0)")).alias("h")).first()
    return time.perf_counter() - t, (r.n, r.h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--reps", type=int, default=4)
    args = ap.parse_args()
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = (spark.range(args.rows).select(
        "id",
        F.element_at(F.array(*[F.lit(x) for x in TYPES]), (F.col("id") % 5 + 1).cast("int")).alias("JMSType"),
        ((F.col("id") * 7919) % 10000).alias("weight"),
        F.concat_ws(",", F.lit("a"), F.when(F.col("id") % 3 == 0, "b").otherwise("c"), F.lit("d")).alias("s"))
        .cache())
    df.count()
    print(f"{args.rows:,} messages, {args.reps} ABAB rounds, medians (s); load at start: {os.getloadavg()}", flush=True)
    print("| fallback subscriptions | matches | before s | after s | after / before |")
    print("|---|---:|---:|---:|---:|")
    for label, sels in CASES.items():
        subs = [Subscription(f"f{i}", sel) for i, sel in enumerate(sels)]
        cols = {"before": before(df, subs), "after": after(df, subs)}
        times = {"before": [], "after": []}
        results = {k: run(df, c)[1] for k, c in cols.items()}  # warm-up, and the check
        assert results["before"] == results["after"], (label, results)
        for r in range(args.reps):
            for k in (("before", "after") if r % 2 == 0 else ("after", "before")):
                times[k].append(run(df, cols[k])[0])
        b, a = statistics.median(times["before"]), statistics.median(times["after"])
        print(f"| {label} | {results['after'][0]:,} | {b:.2f} | {a:.2f} | {a / b:.2f} |", flush=True)
    print(f"load at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
