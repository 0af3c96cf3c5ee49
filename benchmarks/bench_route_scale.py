"""Plan, code generation, compile and run time of the routing plan at large numbers of subscriptions
(does the time to plan and compile stay proportional to the number of subscriptions?).

    python benchmarks/bench_route_scale.py --scale 1000,3000,10000 --rows 2000000 --driver-memory 1g

Each phase is timed on its own, not guessed from a cold run minus a warm one (which measures the
JVM's own JIT warm-up and the machine's noise rather than Spark's compiler):

- **build**: `routed_df` (what `route` does in topic mode: every selector parsed, bound and
  translated, the routing plan and the DataFrame; PySpark analyses the DataFrame eagerly). The
  estate is compiled from nothing (route keeps no cache between calls).
- **optimize** / **physical**: Catalyst's optimizer, then physical planning (``executedPlan``).
- **codegen**: ``WholeStageCodegenExec.doCodeGen()`` of every whole-stage-codegen subtree: the
  Java source Spark generates.
- **compile**: ``CodeGenerator.compile`` of that source (Janino to bytecode). Spark caches compiled
  classes by source; every estate here is a different one, and ``compiles`` (Spark's own
  ``CodegenMetrics`` counter) says how many real compilations the call made.

These are medians over ``--reps`` estates of the same size (generator seeds ``--subs-seed`` + 0,
1, ...). Then the first estate runs twice to the noop sink (first and second run). Each run also
reports the HotSpot JIT time it caused (``CompilationMXBean``). After this, the generated classes
are compiled, so the first run is slower mostly because HotSpot compiles them to machine code.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE), str(HERE.parent / "tests" / "support")):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_native as bn  # noqa: E402
import bench_route as br  # noqa: E402
from bench_route import routed_df, spark_cpu_reader, subscriptions, timed_noop  # noqa: E402

_TIMED = ("build_s", "optimize_s", "physical_s", "codegen_s", "compile_s")


def whole_stage_subtrees(plan) -> list:
    """The ``WholeStageCodegenExec`` nodes of an executed physical plan (through adaptive wrappers)."""
    return [x for x in bn.plan_nodes(plan) if x.getClass().getSimpleName() == "WholeStageCodegenExec"]


def compile_times(spark, plan) -> dict:
    """Generate and compile the code of every whole-stage subtree of ``plan``, each timed:
    ``{"codegen_s", "compile_s", "compiles", "stages", "source_chars", "max_method_bytes"}``.
    ``compiles`` counts the compilations Spark really made (its class cache can answer instead);
    ``max_method_bytes`` is the largest method's bytecode (None when a stage did not compile).
    Whole-stage code only: a projection kept out of it (`render_index`'s codegen guard, on a CASE
    plan above `JIT_CASES` CASEs or `JIT_SQL_CHARS` characters; not at this benchmark's counts,
    whose templates leave a small CASE plan) is compiled when it runs, and is not counted here."""
    jvm = spark._jvm
    generator = jvm.org.apache.spark.sql.catalyst.expressions.codegen.CodeGenerator
    metric = jvm.org.apache.spark.metrics.source.CodegenMetrics.METRIC_COMPILATION_TIME()
    before = metric.getCount()
    out = {"codegen_s": 0.0, "compile_s": 0.0, "stages": 0, "source_chars": 0, "max_method_bytes": 0}
    for stage in whole_stage_subtrees(plan):
        t0 = time.perf_counter()
        source = stage.doCodeGen()._2()
        t1 = time.perf_counter()
        try:
            size = int(generator.compile(source)._2().maxMethodCodeSize())
        except Exception:  # too large to compile (64 KB): Spark runs the stage without codegen
            size = None
        t2 = time.perf_counter()
        out["codegen_s"] += t1 - t0
        out["compile_s"] += t2 - t1
        out["stages"] += 1
        out["source_chars"] += len(source.body())
        if out["max_method_bytes"] is not None:
            out["max_method_bytes"] = None if size is None else max(out["max_method_bytes"], size)
    out["compiles"] = int(metric.getCount() - before)
    return out


def plan_and_compile(spark, messages, subs) -> tuple:
    """``(DataFrame, {phase: seconds, ...})`` of the topic routing plan of ``subs``, every phase
    timed apart (module docstring)."""
    t0 = time.perf_counter()  # each call compiles its estate from nothing: no cache outlives it
    df = routed_df(messages, subs, "indexed")
    t1 = time.perf_counter()
    qe = df._jdf.queryExecution()
    qe.optimizedPlan()
    t2 = time.perf_counter()
    plan = qe.executedPlan()
    t3 = time.perf_counter()
    row = {"build_s": t1 - t0, "optimize_s": t2 - t1, "physical_s": t3 - t2}
    row.update(compile_times(spark, plan))
    return df, row


def jit_seconds(spark):
    """A function returning the HotSpot JIT time of the session's JVM so far (s), or None."""
    try:
        bean = spark._jvm.java.lang.management.ManagementFactory.getCompilationMXBean()
        bean.getTotalCompilationTime()
    except Exception:
        return lambda: None
    return lambda: bean.getTotalCompilationTime() / 1000.0


def _run_timed(df, cpu, jit) -> dict:
    j0 = jit()
    r = timed_noop(df, cpu)
    j1 = jit()
    r["jit_s"] = None if j0 is None or j1 is None else round(j1 - j0, 2)
    return r


def run_scale(spark, args, data_dir: Path, results_path: Path) -> dict:
    """The ``--scale`` table (module docstring) at each count, for ``args.reps`` estates each."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = bn.ensure_archive(spark, data_dir, args.rows, args.seed, args.files)
    messages = spark.read.parquet(str(path))
    total = messages.count()
    cpu, jit = spark_cpu_reader(spark), jit_seconds(spark)
    plan_and_compile(spark, messages, subscriptions(50, seed=args.subs_seed + 1000, invalid=0))  # warm up
    out = []
    for n in [int(x) for x in args.scale.split(",")]:
        planned = [plan_and_compile(spark, messages, subscriptions(n, seed=args.subs_seed + r, invalid=0))
                   for r in range(args.reps)]
        rows = [r for _, r in planned]
        row = {"subs": n, "estates": len(rows)}
        row.update({k: round(statistics.median(r[k] for r in rows), 3) for k in _TIMED})
        row["compiles"] = [r["compiles"] for r in rows]
        row["max_method_bytes"] = [r["max_method_bytes"] for r in rows]
        row["source_chars"] = [r["source_chars"] for r in rows]
        row["first_run"] = _run_timed(planned[0][0], cpu, jit)
        row["second_run"] = _run_timed(planned[0][0], cpu, jit)
        out.append(row)
        print(row, flush=True)
    results = {"benchmark": "route_scale", "rows_total": total, "driver_memory": args.driver_memory,
               "reps": args.reps, "spark": spark.version,
               "processor": bn.processor(), "loadavg_end": [round(x, 2) for x in os.getloadavg()], "scale": out}
    return bn.publish(results, results_path, table, summary_lines)


def table(res) -> str:
    lines = [f"routing plan (topic), {res['rows_total']:,} messages, driver memory {res['driver_memory']}; "
             f"plan phases: medians of {res['reps']} estates each" + (f"; {res['processor']}" if res.get("processor") else ""),
             f"{'subs':>6} {'build s':>8} {'optim s':>8} {'phys s':>7} {'codegen s':>9} {'compile s':>9} "
             f"{'method B':>9} {'1st run s':>9} {'(JIT s)':>7} {'2nd run s':>9} {'(JIT s)':>7}"]
    for r in res["scale"]:
        first, second = r["first_run"], r["second_run"]
        method = max((b for b in r["max_method_bytes"] if b is not None), default=None)
        lines.append(f"{r['subs']:>6} {r['build_s']:>8.2f} {r['optimize_s']:>8.2f} {r['physical_s']:>7.2f} "
                     f"{r['codegen_s']:>9.3f} {r['compile_s']:>9.3f} {method if method else '-':>9} "
                     f"{first['wall']:>9.2f} {first['jit_s'] if first['jit_s'] is not None else '-':>7} "
                     f"{second['wall']:>9.2f} {second['jit_s'] if second['jit_s'] is not None else '-':>7}")
    return "\n".join(lines + summary_lines(res))


def summary_lines(res) -> list:
    """Growth of each planning phase from the smallest count to the largest, beside the growth of
    the subscriptions."""
    rows = res["scale"]
    if len(rows) < 2:
        return []
    a, b = rows[0], rows[-1]
    lines = []
    for key in ("build_s", "optimize_s", "codegen_s", "compile_s", "plan_total_s"):
        x, y = (sum(r[k] for k in _TIMED) if key == "plan_total_s" else r[key] for r in (a, b))
        grew = f"{y / x:.2f}x" if x > 0 else "-"
        lines.append(f"{key[:-2]}: {x:.3f} s at {a['subs']:,} -> {y:.3f} s at {b['subs']:,} "
                     f"subscriptions ({grew} for {b['subs'] / a['subs']:.1f}x the subscriptions)")
    return lines


def main(argv=None, spark=None) -> dict:
    """Run the scale table; ``spark``: an existing session to use (not stopped)."""
    ap = br.parser("bench_route_scale", __doc__.splitlines()[0])
    ap.add_argument("--scale", default="1000,3000,10000",
                    help="plan / compile / run time of the indexed plan at these counts (default 1000,3000,10000); "
                         "run it with --driver-memory 1g, PySpark's default")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    data_dir = Path(args.data_dir)
    own = spark is None
    if own:
        spark = br.session(args.driver_memory, "jms-bench-route-scale")
    try:
        return run_scale(spark, args, data_dir, Path(args.results) if args.results else data_dir / "results" / "route_scale.json")
    finally:
        if own:
            spark.stop()


if __name__ == "__main__":
    main()
