"""The main job: route a message archive to subscriptions the way a broker would.

    make demo                       # = .venv/bin/python examples/route_demo.py (500,000 messages)
    .venv/bin/python examples/route_demo.py --rows 1000000 --out out/demo --dialect jms --layout variant

It prints route's own time (routing and writing the outputs) apart from the whole job's (Spark's
start, writing the archive, the cross-checks), with the machine's load: on 2 shared cores the
whole job takes minutes, not seconds.

What it does, on a local Spark (``local[2]``):

1. writes a realistic archive of captured JMS messages with `sample_data.write_archive` (every
   header, typed properties, NULLs, ten message types) as Parquet: ``<out>/archive/``;
2. takes a set of subscriptions (name, selector, durable): ordinary ones, one whose selector is
   invalid, one pathological LIKE (linear time here; a backtracking matcher blows up on it), and
   ones that use ActiveMQ's ``SPLIT``/``INLIST`` functions, which have no exact Spark SQL form
   and so run in the vectorized (Arrow) fallback;
3. routes the archive in topic mode with `route` in ONE pass: one ``CASE WHEN`` per native
   selector in a single projection, one Arrow UDF for the fallback ones; the invalid selector is
   reported and the rest still route;
4. writes one Parquet folder per subscription, ``<out>/subscriptions/<name>/``, and the messages
   that matched no subscription, ``<out>/dead-letters/`` (kept because some subscriptions are
   durable; a valid subscription that matched nothing still gets its folder, empty but with the
   schema);
5. prints a summary table on stdout: messages per subscription and how each selector runs
   (``native``, ``hybrid``, ``fallback``, ``INVALID``), then the errors with their caret.
   For every hybrid or fallback selector, `jms_filter` is run on the archive as a cross-check:
   it must select exactly the messages `route` gave that subscription.

Why ``--dialect activemq`` by default: the subscriptions were written for ActiveMQ Classic
(they use its selector functions). With ``--dialect jms`` (the JMS spec's grammar) the
subscriptions that call functions are reported invalid, with the caret under the ``(``, and
everything else routes the same.

With ``--report PATH`` it also writes the estate report of the routing, one self-contained HTML
page (`route_report(..., html=PATH)`: outcomes and volume per subscription, overlap, dead letters
and why nobody received them, lint warnings), and prints where.

Progress goes to stderr (``HH:MM:SS INFO route_demo: …``, and every 5 s the tasks done so far,
``… writing the archive (10 s): 4/10 tasks in 1 stage``); stdout holds only the summary. Spark's
console progress bar and log chatter are switched off (``examples/_local_spark.py``).
"""
from __future__ import annotations

import argparse
import logging
import math
import os
import shutil
import sys
import time
from urllib.parse import unquote

from _local_spark import progress, start_spark

log = logging.getLogger("route_demo")
_STARTED = time.time()  # the whole job's clock starts with the process (imports included)

#: (name, selector, durable). Written for ActiveMQ Classic; see the module docstring.
SUBSCRIPTIONS = [
    ("blue-heavy-cars", "JMSType = 'car' AND color = 'blue' AND weight > 2500", True),
    ("eu-premium", "region IN ('EU-West', 'EU-North') AND tier <> 'bronze'", True),
    ("mid-price", "price BETWEEN 10.5 AND 99.9", True),
    ("irish-customers", "customer LIKE 'O''%'", True),
    ("urgent", "urgent OR JMSPriority >= 7", True),
    ("bulk-orders", "JMSType = 'order' AND quantity * 2 > 40", True),
    ("uncoloured", "color IS NULL AND JMSType IN ('car', 'truck', 'bike')", False),
    ("not-alerts", "NOT (JMSType = 'alert') AND JMSDeliveryMode = 'PERSISTENT'", True),
    # a pathological pattern (ending in s): Spark's own LIKE, a backtracking regex, took 33 s on one
    # 41-character value; normalized here to '__________%s', linear in the value
    ("long-names-ending-s", "customer LIKE '%_%_%_%_%_%_%_%_%_%_%s'", True),
    # ActiveMQ functions: no exact Spark SQL form, so these need the vectorized fallback
    ("ltd-invoices", "JMSType = 'invoice' AND INLIST(SPLIT(customer, ' '), 'Ltd')", True),
    ("eu-by-split", "INLIST(SPLIT(region, '-'), 'EU')", False),
    ("broken", "color = 'blue' AND AND weight > 2500", True),
]

def how_it_runs(selector: str, schema, dialect: str) -> str:
    """``native``, ``fallback`` or ``hybrid (k native + m fallback)``: the compiled selector's plan."""
    from jms_selector_spark import compile_selector

    plan = compile_selector(selector, schema, dialect=dialect, warn=False).plan
    kinds = [leaf.kind for leaf in plan.leaves()]
    if plan.is_native:
        return "native"
    if all(k == "fallback" for k in kinds):
        return "fallback"
    return f"hybrid ({kinds.count('native')} native + {kinds.count('fallback')} fallback)"


def write_outputs(spark, routed, out: str) -> dict:
    """Write the routed rows as ``subscriptions/<name>/`` and ``dead-letters/``; {name|None: count}.

    One write, partitioned by subscription (a single pass), whose partition folders are then
    moved into place. Spark escapes partition values in folder names (``%2F`` …): unquoted here.
    """
    from pyspark.sql import functions as F

    staging = os.path.join(out, "_routed")
    with progress(spark, "writing routed messages"):
        routed.write.mode("overwrite").partitionBy("subscription").parquet(staging)
    counts = {r["subscription"]: r["n"] for r in spark.read.parquet(staging)
              .groupBy("subscription").agg(F.count(F.lit(1)).alias("n")).collect()}
    subs_dir = os.path.join(out, "subscriptions")
    os.makedirs(subs_dir)
    for entry in sorted(os.listdir(staging)):
        if not entry.startswith("subscription="):
            continue
        value = unquote(entry[len("subscription="):])
        target = (os.path.join(out, "dead-letters") if value == "__HIVE_DEFAULT_PARTITION__"
                  else os.path.join(subs_dir, value))
        os.rename(os.path.join(staging, entry), target)
    shutil.rmtree(staging)
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=int(os.environ.get("DEMO_ROWS", 500_000)),
                    help="messages in the archive (default 500000, or $DEMO_ROWS)")
    ap.add_argument("--out", default="out/demo", help="output folder (default out/demo)")
    ap.add_argument("--dialect", default="activemq", choices=["activemq", "jms"])
    ap.add_argument("--layout", default="flat", choices=["flat", "struct", "map", "variant"],
                    help="where the archive keeps the application properties (default flat)")
    ap.add_argument("--report", metavar="PATH", default=None,
                    help="also write the estate report as one HTML page (route_report(..., html=PATH))")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("py4j").setLevel(logging.WARNING)
    # Python workers must be this interpreter (it has pandas and pyarrow).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)

    from jms_selector_spark import explain_filter, jms_filter, route, route_report, subscription_errors
    from jms_selector_spark.spark.sample_data import write_archive

    t0 = _STARTED
    for sub in ("archive", "subscriptions", "dead-letters", "_routed"):
        shutil.rmtree(os.path.join(args.out, sub), ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    log.info("starting local Spark")
    files = max(2, math.ceil(args.rows / 50_000))
    t = time.time()
    # one read task per archive file (Spark would pack the small files into 2 tasks), so that
    # progress moves while routing too
    spark = start_spark("jms-route-demo", **{"spark.sql.shuffle.partitions": "4",
                                             "spark.sql.files.minPartitionNum": str(files)})
    timings = {"start (imports, Spark)": time.time() - t0}
    log.info("  Spark started in %.1f s", time.time() - t)
    try:
        archive = os.path.join(args.out, "archive")
        log.info("[1/4] writing %s messages (%s layout) to %s", f"{args.rows:,}", args.layout, archive)
        t = time.time()
        with progress(spark, "writing the archive"):
            # files of about 50k messages (at least two: two cores), so that progress moves in tasks
            write_archive(spark, archive, args.rows, layout=args.layout, partitions=files)
        timings["archive"] = time.time() - t
        messages = spark.read.parquet(archive)

        subs = spark.createDataFrame(SUBSCRIPTIONS, "name string, selector string, durable boolean")
        errors = subscription_errors(subs, dialect=args.dialect)
        log.info("[2/4] %d subscriptions, %d invalid (dialect %s)", len(SUBSCRIPTIONS), len(errors), args.dialect)

        log.info("[3/4] routing in topic mode (one pass) and writing the outputs")
        t = time.time()
        routed = route(messages, subs, mode="topic", dialect=args.dialect)
        counts = write_outputs(spark, routed, args.out)
        timings["route + write"] = route_s = time.time() - t
        for name, _, _ in SUBSCRIPTIONS:  # a folder for every valid subscription, even if empty
            folder = os.path.join(args.out, "subscriptions", name)
            if name not in errors and not os.path.exists(folder):
                messages.limit(0).write.parquet(folder)
        if not os.path.exists(os.path.join(args.out, "dead-letters")):
            messages.limit(0).write.parquet(os.path.join(args.out, "dead-letters"))

        log.info("[4/4] cross-checking the hybrid and fallback selectors with jms_filter")
        t = time.time()
        rows = []
        checks = []
        for name, selector, durable in SUBSCRIPTIONS:
            if name in errors:
                rows.append((name, durable, None, "INVALID", selector))
                continue
            how = how_it_runs(selector, messages.schema, args.dialect)
            rows.append((name, durable, counts.get(name, 0), how, selector))
            if how != "native":
                with progress(spark, f"jms_filter {name}"):
                    n = jms_filter(messages, selector, dialect=args.dialect).count()
                checks.append((name, n, counts.get(name, 0),
                               explain_filter(selector, messages.schema, dialect=args.dialect)))
        timings["cross-checks"] = time.time() - t
        if args.report:
            log.info("writing the estate report to %s", args.report)
            t = time.time()
            with progress(spark, "estate report"):
                route_report(route(messages, subs, mode="topic", dialect=args.dialect), subs, mode="topic",
                             dialect=args.dialect, html=args.report, title=f"route_demo: {args.rows:,} messages")
            timings["report"] = time.time() - t
        elapsed = time.time() - t0

        w = max(len(r[0]) for r in rows) + 2
        print(f"Routed {args.rows:,} messages to {len(SUBSCRIPTIONS)} subscriptions "
              f"(topic mode, dialect {args.dialect}, {args.layout} layout): route + writing the outputs "
              f"{route_s:.1f} s")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"Whole job {elapsed:.1f} s: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
              + f" (local[2] on {os.cpu_count()} cores, load average {load:.1f})")
        print()
        print(f"{'subscription':{w}}{'durable':8}{'messages':>10}  {'runs':32}selector")
        print(f"{'-' * (w - 2):{w}}{'-' * 7:8}{'-' * 8:>10}  {'-' * 30:32}{'-' * 8}")
        for name, durable, n, how, selector in rows:
            shown = "-" if n is None else f"{n:,}"
            print(f"{name:{w}}{'yes' if durable else 'no':8}{shown:>10}  {how:32}{selector}")
        print(f"{'(dead letters)':{w}}{'':8}{counts.get(None, 0):>10,}")
        print()
        print("runs: native = one CASE WHEN in the routing projection (Catalyst; Parquet pushdown under")
        print("      jms_filter); fallback = the vectorized Arrow UDF; hybrid = route evaluates it in the")
        print("      Arrow UDF, jms_filter runs its native pieces first (pushed down) and the UDF on the rest.")
        for name, n, routed_n, plan in checks:
            verdict = "same as route" if n == routed_n else f"DIFFERS from route ({routed_n:,})"
            print()
            print(f"jms_filter cross-check, {name}: {n:,} messages, {verdict}")
            print("  " + plan.replace("\n", "\n  "))
        for name, err in errors.items():
            print()
            print(f"{name}: not routed")
            print("  " + err.replace("\n", "\n  "))
        print()
        print(f"Output: {os.path.join(args.out, 'subscriptions')}/<name>/ and "
              f"{os.path.join(args.out, 'dead-letters')}/ (Parquet)")
        if args.report:
            print(f"Report: {args.report}")
        mismatched = [c for c in checks if c[1] != c[2]]
        return 1 if mismatched else 0
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
