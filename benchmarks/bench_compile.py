"""Compile speed: a selector's stages, and a whole estate planned by `route`, in Python CPU time.

    python benchmarks/bench_compile.py                      # both sections
    python benchmarks/bench_compile.py selectors            # the demo's selectors, per stage
    python benchmarks/bench_compile.py route --counts 1000,10000 --rows 2000000 --reps 3

**selectors**: the selectors of ``examples/route_demo.py`` (the valid ones), each compiled as
`route` compiles a distinct selector (`compiler.compile_bound` on a schema normalised once): parse
(the parser's memo cleared first), bind, lower, render (the native SQL, as a `Fragment`). Per
stage and in all, µs per selector: the median of ``--rounds`` rounds of ``--calls`` passes, in
``time.process_time`` (a loaded machine inflates it much less than wall time).

**route**: the *selective* estate — each subscription ``customer = '<key>' AND weight > N`` or
``customer IN ('<k1>', '<k2>', '<k3>')``, keys out of 100,000, messages whose customer is one of the
estate's keys, so each message is delivered about as often whatever the count — at each of
``--counts``: the Python CPU time `route` takes before Spark runs (every selector compiled, the
plan made, the DataFrame built), and, with ``--rows``, the time of the topic pass (Spark's CPU,
``--reps`` interleaved rounds, medians) and the ratio to the smallest count's. Each count's output
is checked: its rows equal the reference interpreter's deliveries on a sample of the messages.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE), str(HERE.parent / "examples")):
    if p not in sys.path:
        sys.path.insert(0, p)

KEYS = 100_000


def demo_selectors() -> list:
    """The valid selectors of the demo (examples/route_demo.py), and its schema."""
    from route_demo import SUBSCRIPTIONS

    from jms_selector_spark import SelectorError, parse

    out = []
    for _, text, _ in SUBSCRIPTIONS:
        try:
            parse(text, dialect="activemq")
        except SelectorError:
            continue
        out.append(text)
    schema = {"JMSType": "string", "JMSPriority": "int", "JMSDeliveryMode": "string", "color": "string",
              "weight": "long", "region": "string", "tier": "string", "price": "double", "customer": "string",
              "urgent": "boolean", "quantity": "int"}
    return out, schema


def stage_times(rounds: int = 7, calls: int = 200) -> dict:
    """µs per selector of each stage (medians over ``rounds``), and the total."""
    from jms_selector_spark.binder import Binding, bind
    from jms_selector_spark.compiler import compile_bound
    from jms_selector_spark.frontend.selector import parse_selector
    from jms_selector_spark.language.dialects import get_dialect
    from jms_selector_spark.language.schema import to_schema
    from jms_selector_spark.parsing import parse

    texts, schema = demo_selectors()
    schema, d, b = to_schema(schema), get_dialect("activemq"), Binding()
    parsed = [parse(t, dialect=d) for t in texts]

    def parse_all():
        parse_selector.cache_clear()
        for t in texts:
            parse(t, dialect=d)

    def bind_all():
        for s in parsed:
            bind(s, schema, b)

    def lower_all():
        for s in parsed:
            bind(s, schema, b).core

    def render_all():
        for s in parsed:
            compile_bound(s, schema, b, warn=False).fragment

    def total():
        parse_selector.cache_clear()
        for t in texts:
            compile_bound(parse(t, dialect=d), schema, b, warn=False).fragment

    def measure(fn):
        for _ in range(10):
            fn()
        runs = []
        for _ in range(rounds):
            t0 = time.process_time()
            for _ in range(calls):
                fn()
            runs.append((time.process_time() - t0) / (calls * len(texts)) * 1e6)
        return statistics.median(runs)

    out = {"selectors": len(texts), "parse_us": measure(parse_all)}
    bound = measure(bind_all)
    lowered = measure(lower_all)
    rendered = measure(render_all)
    out.update(bind_us=bound, lower_us=lowered - bound, render_us=rendered - lowered, total_us=measure(total))
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in out.items()}


def selective(n: int, seed: int = 1) -> list:
    """``[(name, selector)]``: the selective estate of ``n`` subscriptions (module docstring)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if rng.random() < 0.7:
            sel = f"customer = 'C{rng.randrange(KEYS):05d}' AND weight > {rng.randrange(5000)}"
        else:
            sel = "customer IN (" + ", ".join(f"'C{rng.randrange(KEYS):05d}'" for _ in range(3)) + ")"
        out.append((f"s{i:05d}", sel))
    return out


def _keys(subs) -> list:
    return sorted({k for _, s in subs for k in s.split("'")[1::2]})


def messages_df(spark, subs, rows: int, seed: int = 2):
    """``rows`` messages whose customer is one of ``subs``' keys and weight uniform in [0, 5000)."""
    from pyspark.sql import functions as F

    keys = _keys(subs)
    arr = F.array(*[F.lit(k) for k in keys])
    idx = (F.xxhash64(F.col("id"), F.lit(seed)) % len(keys) + len(keys)) % len(keys)
    return (spark.range(rows).select(
        F.format_string("ID:%d", F.col("id")).alias("JMSMessageID"), F.col("id").alias("JMSTimestamp"),
        F.element_at(arr, (idx + 1).cast("int")).alias("customer"),
        ((F.xxhash64(F.col("id"), F.lit(seed + 1)) % 5000 + 5000) % 5000).alias("weight")))


def planning_seconds(messages, subs) -> "tuple[float, object]":
    """(Python CPU seconds of `route` building its DataFrame, the DataFrame)."""
    from jms_selector_spark import route
    from jms_selector_spark.frontend.selector import parse_selector

    parse_selector.cache_clear()  # a new estate: nothing memoised
    t0 = time.process_time()
    df = route(messages, dict(subs), mode="topic")
    return time.process_time() - t0, df


def run_route(args) -> dict:
    import bench_route as br

    spark = br.session(args.driver_memory, "jms-bench-compile")
    try:
        cpu = br.spark_cpu_reader(spark)
        counts = [int(x) for x in args.counts.split(",")]
        estates = {n: selective(n, seed=n) for n in counts}
        out = {"counts": counts, "rows": args.rows, "planning_s": {}, "run_cpu_s": {}, "deliveries": {}}
        dfs = {}
        for n in counts:
            messages = messages_df(spark, estates[n], args.rows).cache() if args.rows else messages_df(spark, estates[n], 1)
            if args.rows:
                messages.count()
            runs = [planning_seconds(messages, estates[n]) for _ in range(args.reps)]
            out["planning_s"][n] = round(statistics.median(r[0] for r in runs), 3)
            dfs[n] = (messages, runs[0][1])
            print(f"{n:>6} subscriptions: route plans in {out['planning_s'][n]:.3f} s of Python "
                  f"({', '.join(f'{r[0]:.3f}' for r in runs)})", flush=True)
        if not args.rows:
            return out
        from pyspark.sql import functions as F

        for n, (messages, df) in dfs.items():  # every count's deliveries, checked on a sample
            delivered = df.where(F.col("outcome") == "delivered")
            out["deliveries"][n] = delivered.count()
            sample = {r["JMSMessageID"]: sorted(r["subs"]) for r in df.where(F.col("JMSTimestamp") < 200).groupBy(
                "JMSMessageID").agg(F.collect_list("subscription").alias("subs")).collect()}
            check_sample(estates[n], messages.where(F.col("JMSTimestamp") < 200).collect(), sample)
        times = {n: [] for n in counts}
        for r in range(args.reps):
            for n in (counts if r % 2 == 0 else counts[::-1]):
                run = br.timed_noop(dfs[n][1], cpu)
                times[n].append(run["jvm"] + run["py"])  # CPU of the pass: the JVM's and the Python workers'
        out["run_cpu_s"] = {n: round(statistics.median(v), 2) for n, v in times.items()}
        base = counts[0]
        for n in counts[1:]:
            print(f"{n:>6} / {base} subscriptions: planning {out['planning_s'][n] / out['planning_s'][base]:.2f}x, "
                  f"topic pass {out['run_cpu_s'][n] / out['run_cpu_s'][base]:.2f}x (CPU {out['run_cpu_s'][n]:.2f} / "
                  f"{out['run_cpu_s'][base]:.2f} s); deliveries {out['deliveries'][n]:,} / {out['deliveries'][base]:,}",
                  flush=True)
        return out
    finally:
        spark.stop()


def check_sample(subs, rows, routed) -> None:
    """The routed subscriptions of each sampled message equal the reference interpreter's."""
    from jms_selector_spark import evaluate

    for r in rows:
        want = sorted(nm for nm, s in subs if evaluate(s, {"JMSMessageID": r["JMSMessageID"]},
                                                       {"customer": r["customer"], "weight": r["weight"]}) is True)
        got = [x for x in routed.get(r["JMSMessageID"], []) if x is not None]
        if sorted(got) != want:
            raise AssertionError(f"{r['JMSMessageID']}: routed {got}, the reference interpreter delivers {want}")


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sections", nargs="*", default=["selectors", "route"], choices=["selectors", "route"])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--counts", default="1000,10000")
    ap.add_argument("--rows", type=int, default=0, help="also time the topic pass over this many messages")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--driver-memory", default="2g")
    ap.add_argument("--results", default=None, help="write the results as JSON here")
    args = ap.parse_args(argv)
    results = {}
    if "selectors" in args.sections:
        results["selectors"] = stage_times(args.rounds, args.calls)
        s = results["selectors"]
        print(f"{s['selectors']} demo selectors, µs per selector: parse {s['parse_us']}, bind {s['bind_us']}, "
              f"lower {s['lower_us']}, render {s['render_us']}; all stages {s['total_us']}", flush=True)
    if "route" in args.sections:
        results["route"] = run_route(args)
    if args.results:
        Path(args.results).write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
