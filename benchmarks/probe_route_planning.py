"""Probe (not part of ``make bench``): route's Python-side planning, per phase, at
1,000 / 3,000 / 10,000 subscriptions. No Spark session: only what the driver computes before it
hands Spark the plan.

Phases, as `route` runs them: `estate.plan_estate` (parse, bind, lower, translate each distinct
selector), `templates.plan_templates`, `render_templates.template_sql` (the SQL of each
template), `index.plan_routing` + `render_index.plan_sql` (the index plan of the rest). Subscriptions:
`bench_route.subscriptions` (realistic, none invalid) over the bench archive's columns.

Per count, ``--reps`` rounds, each a "first" plan (the routing caches and the parser's cache
emptied: a new estate) and a "second" one of the same subscriptions (``route_report`` or
``explain_routing`` after ``route``). Figures: medians of driver CPU (``time.process_time``, which
a loaded machine inflates much less than wall time), µs per subscription. Every round must give
the same plan (checked: counts and checksums of the SQL). ``--no-gc`` disables Python's cyclic
garbage collector, to separate its share.

    python benchmarks/probe_route_planning.py [--counts 1000,3000,10000] [--reps 5] [--no-gc]
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_route  # noqa: E402

PHASES = ("plan_subscriptions", "plan_templates", "template_sql", "plan_routing+plan_sql")


def archive_schema():
    """The bench archive's schema (`sample_data`'s flat layout), built without a JVM."""
    from pyspark.sql import types as T

    cols = [("JMSMessageID", T.StringType(), False), ("JMSTimestamp", T.LongType(), True),
            ("JMSCorrelationID", T.StringType(), True), ("JMSType", T.StringType(), False),
            ("JMSPriority", T.IntegerType(), True), ("JMSDeliveryMode", T.StringType(), False),
            ("JMSRedelivered", T.BooleanType(), True), ("color", T.StringType(), True),
            ("weight", T.LongType(), True), ("price", T.DoubleType(), True), ("quantity", T.IntegerType(), True),
            ("region", T.StringType(), True), ("tier", T.StringType(), True), ("customer", T.StringType(), True),
            ("urgent", T.BooleanType(), True), ("discount", T.FloatType(), True)]
    return T.StructType([T.StructField(n, t, nullable) for n, t, nullable in cols])


def clear_caches() -> None:
    """Forget the parser's memo: a new estate (routing itself keeps nothing between calls)."""
    from jms_selector_spark.frontend.selector import parse_selector

    parse_selector.cache_clear()


def plan_phases(subs, schema, dialect, binding) -> tuple:
    """(CPU seconds per phase, signature of the plan)."""
    from jms_selector_spark.language.schema import to_schema
    from jms_selector_spark.spark.routing.columns import numeric_columns, string_columns
    from jms_selector_spark.spark.routing.estate import plan_estate
    from jms_selector_spark.spark.routing.index import plan_routing
    from jms_selector_spark.spark.routing.render_index import plan_sql
    from jms_selector_spark.spark.routing.render_templates import template_sql
    from jms_selector_spark.spark.routing.subscriptions import normalize_subscriptions
    from jms_selector_spark.spark.routing.templates import plan_templates

    t = [time.process_time()]
    native, fallback, _ = plan_estate(normalize_subscriptions(subs), to_schema(schema), dialect, binding)
    t.append(time.process_time())
    tp = plan_templates(native, string_columns(schema))
    t.append(time.process_time())
    parts = [p for a, access in enumerate(tp.accesses) for p in template_sql(access, a, numeric_columns(schema))]
    t.append(time.process_time())
    sql = plan_sql(plan_routing(list(tp.rest), fallback)) or ""
    t.append(time.process_time())
    sig = (len(native), len(tp.names), len(parts), zlib.crc32("\0".join(parts).encode()), zlib.crc32(sql.encode()))
    return [t[i + 1] - t[i] for i in range(len(PHASES))], sig


def main(argv=None) -> None:
    from jms_selector_spark.binder import Binding
    from jms_selector_spark.language.dialects import get_dialect

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", default="1000,3000,10000")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-gc", action="store_true", help="disable Python's cyclic garbage collector")
    args = ap.parse_args(argv)
    if args.no_gc:
        gc.disable()
    schema, dialect, binding = archive_schema(), get_dialect("jms"), Binding()
    plan_phases(bench_route.subscriptions(200, invalid=0), schema, dialect, binding)  # imports, parser tables
    print(f"load average {__import__('os').getloadavg()[0]:.1f}; µs per subscription, medians of {args.reps} rounds")
    print(f"{'subs':>6} {'pass':6} {'total':>7} " + " ".join(f"{p:>21}" for p in PHASES))
    for n in (int(x) for x in args.counts.split(",")):
        subs = bench_route.subscriptions(n, invalid=0)
        runs = {"first": [], "second": []}
        sig = None
        for _ in range(args.reps):
            clear_caches()
            if not args.no_gc:
                gc.collect()
            for label in ("first", "second"):
                phases, got = plan_phases(subs, schema, dialect, binding)
                if sig is not None and got != sig:
                    raise AssertionError(f"{n} subscriptions: the plan changed between rounds ({got} vs {sig})")
                sig = got
                runs[label].append(phases)
        for label, rs in runs.items():
            total = statistics.median(sum(r) for r in rs) * 1e6 / n
            per = [statistics.median(r[i] for r in rs) * 1e6 / n for i in range(len(PHASES))]
            print(f"{n:>6} {label:6} {total:>7.1f} " + " ".join(f"{v:>21.1f}" for v in per), flush=True)
        print(f"       plan: {sig[0]} native, {sig[1]} templated, {sig[2]} template expressions, "
              f"SQL checksums {sig[3]:08x} {sig[4]:08x}")
    print(f"load average {__import__('os').getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
