"""Native path benchmark: ``jms_filter(df, selector)`` against the hand-written filter.

    python benchmarks/bench_native.py                       # 10M rows, 7 repetitions
    python benchmarks/bench_native.py --rows 200000 --reps 2   # smoke scale

For each realistic selector and the Spark SQL filter a data engineer would write by hand for it:

1. **Data**: a Parquet message archive (`jms_selector_spark.spark.sample_data.write_archive`, flat
   layout, clustered by ``JMSTimestamp``) under ``bench-data/`` — written once, reused while its
   parameters and row count match.
2. **Scan metrics and match counts** (also the first warm-up): each plan is executed once
   through its own ``QueryExecution`` (``queryExecution().toRdd().count()``: the count is the
   rows matched, all columns of the full plan produced) and the Parquet scan node of that
   executed plan is read: ``numOutputRows`` (rows the scan returned after row-group and page
   pruning), files read, and its ``PushedFilters``.
3. **Timing**: ``--warmup`` more untimed runs each (default 1), then ``--reps`` rounds of A/B,
   interleaved and in ABBA order (A B, B A, A B, …) so that drift in the machine's load (a
   shared 2-core box) hits both sides alike. Each run fully materializes the matching rows:
   ``.write.format("noop")`` — Spark's own benchmark sink — runs the whole plan, scan, filter
   and every column of every matching row, then discards them. ``count()`` would not do:
   Catalyst prunes the scan to the filter columns, so it would time a different (narrower)
   plan than a real job's.
4. **Figures**: medians, rows matched (asserted equal for both filters), throughput ratio
   ``hand_median / jms_median`` (1.0 = same speed; target >= 0.97), printed as a table and
   written as JSON (``bench-data/results/native.json``).

The run fails (exit code 1, or `AssertionError` from `main`) if the two filters of any pair
match different numbers of rows; a ratio below the target is reported, not an error.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from jms_selector_spark import jms_filter, selector_to_sql  # noqa: E402
from jms_selector_spark.spark import sample_data

NAME = "native"
TARGET_RATIO = 0.97
DATA_VERSION = 1  # bump when sample_data changes what it generates, to force a rewrite


def selectors():
    """(name, JMS selector, hand-written Spark SQL filter) triples."""
    day = 24 * 3600 * 1000
    lo = sample_data.START_MILLIS + 15 * day + day // 2        # 2026-10-16T12:00Z
    hi = lo + sample_data.SPAN_MILLIS // 100 - 1               # 1 % of the 30 days (7.2 h)
    return [
        ("blue-heavy-cars",
         "JMSType = 'car' AND color = 'blue' AND weight > 2500",
         "JMSType = 'car' AND color = 'blue' AND weight > 2500"),
        ("in-between-like",
         "region IN ('EU-West', 'EU-North') AND price BETWEEN 10.5 AND 99.9 AND customer LIKE 'O''%'",
         "region IN ('EU-West', 'EU-North') AND price BETWEEN 10.5 AND 99.9 AND customer LIKE 'O\\'%'"),
        ("or-not",
         "(tier = 'gold' OR region = 'US-East') AND NOT (JMSType IN ('heartbeat', 'audit')) AND NOT color = 'red'",
         "(tier = 'gold' OR region = 'US-East') AND JMSType NOT IN ('heartbeat', 'audit') AND color <> 'red'"),
        ("priority-or-urgent",
         "JMSPriority >= 7 OR urgent",
         "JMSPriority >= 7 OR urgent"),
        ("timestamp-1pct",
         f"JMSTimestamp BETWEEN {lo} AND {hi}",
         f"JMSTimestamp BETWEEN {lo} AND {hi}"),
        ("arithmetic",
         "JMSType = 'order' AND quantity * 2 > 40",
         "JMSType = 'order' AND quantity * 2 > 40"),
        # issue #34's: a NaN `price` makes `price * 2 < 50.5` FALSE in Java and in Spark alike (Spark
        # orders NaN above every number), so the translation needs no NaN guard here
        ("priority-price-color",
         "JMSPriority BETWEEN 3 AND 6 AND price * 2 < 50.5 AND color IN ('red', 'green')",
         "JMSPriority BETWEEN 3 AND 6 AND price * 2 < 50.5 AND color IN ('red', 'green')"),
    ]


# --------------------------------------------------------------------------------------------
# data


def ensure_archive(spark, data_dir: Path, rows: int, seed: int, files: "int | None", log=print) -> Path:
    """The archive's path, written unless a complete one with the same parameters is there."""
    path = data_dir / f"messages-flat-{rows}-seed{seed}"
    meta_path = path / "_bench_meta.json"  # '_' prefix: Spark's reader ignores it
    meta = {"rows": rows, "seed": seed, "layout": "flat", "files": files, "version": DATA_VERSION}
    if (path / "_SUCCESS").exists() and meta_path.exists():
        try:
            same = json.loads(meta_path.read_text()) == meta
        except ValueError:
            same = False
        if same and spark.read.parquet(str(path)).count() == rows:
            log(f"reusing {path} ({rows:,} rows)")
            return path
    log(f"writing {rows:,} messages to {path} ...")
    t = time.perf_counter()
    sample_data.write_archive(spark, str(path), rows, layout="flat", seed=seed, partitions=files)
    meta_path.write_text(json.dumps(meta))
    log(f"  written in {time.perf_counter() - t:.1f} s")
    return path


# --------------------------------------------------------------------------------------------
# plan inspection (py4j on the executed physical plan)


def _children(node):
    kids = node.children()
    return [kids.apply(i) for i in range(kids.size())]


def _unwrap(node):
    """Look through AdaptiveSparkPlanExec (whose tree is its current/final plan)."""
    if node.getClass().getSimpleName() == "AdaptiveSparkPlanExec":
        return node.executedPlan()
    return node


def plan_nodes(plan) -> list:
    """Every node of a physical plan (through adaptive wrappers), parents first."""
    found, todo = [], [plan]
    while todo:
        node = _unwrap(todo.pop())
        found.append(node)
        todo.extend(reversed(_children(node)))
    return found


def scan_nodes(plan) -> list:
    """Every file-scan node (FileSourceScanExec / BatchScanExec) in a physical plan."""
    return [n for n in plan_nodes(plan) if n.getClass().getSimpleName() in ("FileSourceScanExec", "BatchScanExec")]


def split_filters(pushed: "str | None") -> list:
    """``'[IsNotNull(a), Or(EqualTo(b,1),EqualTo(c,2))]'`` → its top-level filters, as strings."""
    if not pushed:
        return []
    body = pushed.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    parts, depth, cur = [], 0, []
    for ch in body:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _conjuncts(expr) -> list:
    """The top-level AND operands of a Catalyst expression, as strings."""
    if expr.getClass().getSimpleName() == "And":
        return _conjuncts(expr.left()) + _conjuncts(expr.right())
    return [expr.toString()]


def _scala_get(scala_map, key):
    opt = scala_map.get(key)
    return opt.get() if opt.isDefined() else None


def scan_info(df) -> dict:
    """Execute ``df``'s own QueryExecution once and read its Parquet scan's metrics."""
    qe = df._jdf.queryExecution()
    plan = qe.executedPlan()
    matched = int(qe.toRdd().count())  # runs exactly this executed plan; metrics accumulate on its nodes
    scans = scan_nodes(plan)
    filters = [f.condition() for f in plan_nodes(plan) if f.getClass().getSimpleName() == "FilterExec"]
    conjuncts = sorted(c for f in filters for c in _conjuncts(f))
    if len(scans) != 1:
        raise RuntimeError(f"expected one file scan in the plan, found {len(scans)}:\n{plan.toString()}")
    scan = scans[0]
    metrics = scan.metrics()

    def metric(name):
        m = _scala_get(metrics, name)
        return None if m is None else int(m.value())

    meta = scan.metadata()
    return {
        "rows_out": matched,
        "scan_rows": metric("numOutputRows"),
        "files_read": metric("numFiles"),
        "pushed_filters": _scala_get(meta, "PushedFilters"),
        "data_filters": _scala_get(meta, "DataFilters"),
        "filter_exec": " AND ".join(f.toString() for f in filters) or None,  # run on the rows scanned
        "filter_conjuncts": conjuncts,
    }


# --------------------------------------------------------------------------------------------
# timing


def jvm_cpu_reader(spark):
    """A function returning the CPU seconds (user + system, all threads) used so far by the
    Spark JVM, or None where that cannot be read (no /proc, or a JVM this process did not start).

    On a shared machine the wall time of a run grows with the other processes' load; the CPU
    time the JVM spends on it much less so, which makes it the steadier figure of the two.
    """
    proc = getattr(getattr(spark.sparkContext, "_gateway", None), "proc", None)
    stat = f"/proc/{getattr(proc, 'pid', None)}/stat"
    if proc is None or not os.path.exists(stat):
        return None
    tick = os.sysconf("SC_CLK_TCK")

    def read():
        with open(stat) as f:
            fields = f.read().rsplit(")", 1)[1].split()  # fields from the 3rd on (state, ppid, …)
        return (int(fields[11]) + int(fields[12])) / tick  # utime + stime (fields 14 and 15)

    return read


def run_noop(df, cpu=None) -> "tuple[float, float | None]":
    """(wall seconds, JVM CPU seconds) to run ``df`` to the end, every column of every row."""
    c = cpu() if cpu else None
    t = time.perf_counter()
    df.write.format("noop").mode("overwrite").save()
    wall = time.perf_counter() - t
    return wall, (cpu() - c if cpu else None)


def measure_pair(jms_df, hand_df, reps: int, warmup: int = 1, cpu=None) -> "tuple[list, list]":
    """Interleaved ABBA (wall, cpu) timings of both filters after ``warmup`` untimed runs of each."""
    for _ in range(warmup):
        run_noop(jms_df)
        run_noop(hand_df)
    jt, ht = [], []
    for r in range(reps):
        if r % 2 == 0:
            jt.append(run_noop(jms_df, cpu))
            ht.append(run_noop(hand_df, cpu))
        else:
            ht.append(run_noop(hand_df, cpu))
            jt.append(run_noop(jms_df, cpu))
    return jt, ht


def _median_or_none(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _ratio(h, j):
    return None if h is None or not j else round(h / j, 4)


def _r4(x):
    return None if x is None else round(x, 4)


# --------------------------------------------------------------------------------------------


def processor() -> str:
    """The processor as /proc/cpuinfo names it (model, family/model numbers, cache per core), or
    ``platform.processor()``: the same code measured 2x apart on two machines of this workplace
    that both call themselves "AMD EPYC", so every result says which one it ran on."""
    try:
        fields = {}
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first processor is enough
                k, _, v = line.partition(":")
                fields.setdefault(k.strip(), v.strip())
        return (f"{fields.get('model name', '?')} (family {fields.get('cpu family', '?')}, model "
                f"{fields.get('model', '?')}, cache {fields.get('cache size', '?')})")
    except OSError:
        return platform.processor() or platform.machine()


def _session(driver_memory: str, app: str = "jms-bench-native"):
    """The local[2] session every benchmark runs in (one per process)."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    spark = (SparkSession.builder.master("local[2]").appName(app)
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.memory", driver_memory)
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.shuffle.partitions", "4")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _fmt_rows(n):
    return "-" if n is None else f"{n:,}"


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="bench_native", description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000, help="messages in the archive (default 10,000,000)")
    ap.add_argument("--reps", type=int, default=7, help="timed runs of each filter (default 7)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed noop runs of each filter before the timed ones (default 1), after the "
                         "scan-metrics run that already executes each plan once")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--files", type=int, default=None,
                    help="Parquet files in the archive (default: one per million rows)")
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"), help="where the archive lives")
    ap.add_argument("--results", default=None, help="JSON output (default: <data-dir>/results/native.json)")
    ap.add_argument("--only", action="append", default=None, help="run only this selector (by name; repeatable)")
    ap.add_argument("--driver-memory", default="6g")
    return ap.parse_args(argv)


def main(argv=None, spark=None) -> dict:
    """Run the benchmark; returns the results (also written as JSON).

    ``spark``: an existing session to use (e.g. a test's); otherwise one is created for this
    process and stopped at the end.
    """
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.reps < 1:
        raise SystemExit("--reps must be >= 1")
    data_dir = Path(args.data_dir)
    results_path = Path(args.results) if args.results else data_dir / "results" / f"{NAME}.json"
    own = spark is None
    if own:
        spark = _session(args.driver_memory)
    try:
        return _run(spark, args, data_dir, results_path)
    finally:
        if own:
            spark.stop()


def _run(spark, args, data_dir: Path, results_path: Path) -> dict:
    data_dir.mkdir(parents=True, exist_ok=True)
    load_start = os.getloadavg()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    path = ensure_archive(spark, data_dir, args.rows, args.seed, args.files)
    df = spark.read.parquet(str(path))
    total = df.count()
    pairs = [p for p in selectors() if not args.only or p[0] in args.only]
    if not pairs:
        raise SystemExit(f"no selector named {args.only}; known: {[p[0] for p in selectors()]}")

    cpu = jvm_cpu_reader(spark)
    out = []
    for name, selector, hand in pairs:
        fragment = selector_to_sql(selector, df.schema)
        jms_df = jms_filter(df, selector)
        hand_df = df.where(hand)
        print(f"\n[{name}] {selector}")
        print(f"  fragment : {fragment}")
        print(f"  hand     : {hand}")
        # scan metrics — this run is also the first warm-up of each plan
        jms_scan, hand_scan = scan_info(jms_df), scan_info(hand_df)
        jms_n, hand_n = jms_scan.pop("rows_out"), hand_scan.pop("rows_out")
        assert jms_n == hand_n, f"{name}: jms_filter matched {jms_n:,} rows, the hand-written filter {hand_n:,}"
        jt, ht = measure_pair(jms_df, hand_df, args.reps, args.warmup, cpu)
        jm, hm = statistics.median(w for w, _ in jt), statistics.median(w for w, _ in ht)
        jc, hc = _median_or_none(c for _, c in jt), _median_or_none(c for _, c in ht)
        rec = {
            "name": name, "selector": selector, "fragment": fragment, "hand": hand,
            "rows_matched": jms_n, "rows_matched_jms": jms_n, "rows_matched_hand": hand_n,
            "jms_times_s": [_r4(w) for w, _ in jt], "hand_times_s": [_r4(w) for w, _ in ht],
            "jms_cpu_s": [_r4(c) for _, c in jt], "hand_cpu_s": [_r4(c) for _, c in ht],
            "jms_median_s": _r4(jm), "hand_median_s": _r4(hm),
            "jms_cpu_median_s": _r4(jc), "hand_cpu_median_s": _r4(hc),
            # the figure asked for: throughput ratio of the median wall times
            "ratio_hand_over_jms": _ratio(hm, jm),
            # steadier on a loaded machine: median of the per-round ratios, and the CPU ratio
            "ratio_paired_median": _r4(statistics.median(h[0] / j[0] for j, h in zip(jt, ht))),
            "ratio_cpu": _ratio(hc, jc),
            "jms_scan": jms_scan, "hand_scan": hand_scan,
            # the same filters, in any order (Catalyst's order follows the expression's)
            "same_pushed_filters": (sorted(split_filters(jms_scan["pushed_filters"]))
                                    == sorted(split_filters(hand_scan["pushed_filters"]))),
            # the same post-scan predicates, in any order
            "same_filter_exec": jms_scan["filter_conjuncts"] == hand_scan["filter_conjuncts"],
        }
        out.append(rec)
        cpu_txt = "" if jc is None else f" (JVM CPU {jc:.2f} s vs {hc:.2f} s, ratio {rec['ratio_cpu']:.3f})"
        print(f"  matched {jms_n:,}; jms {jm:.3f} s, hand {hm:.3f} s, ratio {hm / jm:.3f}{cpu_txt}; "
              f"scan rows jms {_fmt_rows(jms_scan['scan_rows'])} / hand {_fmt_rows(hand_scan['scan_rows'])}")
        print(f"  pushed (jms) : {jms_scan['pushed_filters']}")
        print(f"  pushed (hand): {hand_scan['pushed_filters']}")
        print(f"  post-scan filter {'same conjuncts' if rec['same_filter_exec'] else 'differs'}:"
              f"\n    jms : {jms_scan['filter_exec']}\n    hand: {hand_scan['filter_exec']}")

    results = {
        "benchmark": NAME,
        "started_utc": started, "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "rows_total": total, "reps": args.reps, "seed": args.seed, "data": str(path),
        "materialize": "write.format('noop') (all columns of every matching row)",
        "order": f"one scan-metrics run + {args.warmup} warm-up(s) each, then ABBA-interleaved timed runs",
        "warmup": args.warmup,
        "spark": spark.version, "python": platform.python_version(), "cpus": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        "target_ratio": TARGET_RATIO,
        "selectors": out,
    }
    return publish(results, results_path, table, summary_lines)


def publish(results: dict, results_path: Path, table, summary_lines) -> dict:
    """Add the ``summary`` lines, print the table, write the JSON (every benchmark ends so)."""
    results["summary"] = summary_lines(results)
    print()
    print(table(results))
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\nresults written to {results_path}")
    return results


def table(results) -> str:
    def f3(x):
        return "-" if x is None else f"{x:.3f}"

    head = (f"{'selector':20} {'matched':>10} {'jms s':>7} {'hand s':>7} {'ratio':>6} {'paired':>6} "
            f"{'cpu':>6}  {'scan rows jms':>13} {'scan rows hand':>14}  pushed    post-scan")
    lines = [f"native path: {results['rows_total']:,} rows; median wall time of {results['reps']} ABBA-interleaved "
             f"runs per filter (noop sink, all columns)",
             f"ratio = hand/jms of the medians (target >= {results['target_ratio']}); paired = median of the "
             f"per-round ratios; cpu = ratio of the median JVM CPU seconds; pushed / post-scan = the "
             f"Parquet PushedFilters / the Filter's conjuncts vs the hand-written plan's (as sets)",
             head, "-" * len(head)]
    for r in results["selectors"]:
        flag = "" if r["ratio_hand_over_jms"] >= results["target_ratio"] else "  < target"
        lines.append(
            f"{r['name']:20} {r['rows_matched']:>10,} {r['jms_median_s']:>7.3f} {r['hand_median_s']:>7.3f} "
            f"{r['ratio_hand_over_jms']:>6.3f} {f3(r['ratio_paired_median']):>6} {f3(r['ratio_cpu']):>6}  "
            f"{_fmt_rows(r['jms_scan']['scan_rows']):>13} {_fmt_rows(r['hand_scan']['scan_rows']):>14}  "
            f"{'same' if r['same_pushed_filters'] else 'DIFFERENT':9} "
            f"{'same' if r['same_filter_exec'] else 'DIFFERS'}{flag}")
    lines.append(f"total rows in the archive: {results['rows_total']:,}; load average "
                 f"{results['loadavg_start'][0]} -> {results['loadavg_end'][0]} on {results['cpus']} CPUs")
    return "\n".join(lines)


def summary_lines(results) -> list:
    rs = results["selectors"]
    worst = min(rs, key=lambda r: r["ratio_hand_over_jms"])
    lines = [f"{len(rs)} selectors on {results['rows_total']:,} rows, {results['reps']} reps: "
             f"match counts equal for all; ratio hand/jms min {worst['ratio_hand_over_jms']:.3f} ({worst['name']}), "
             f"median {statistics.median(r['ratio_hand_over_jms'] for r in rs):.3f}"]
    cpus = [r for r in rs if r["ratio_cpu"] is not None]
    if cpus:
        w = min(cpus, key=lambda r: r["ratio_cpu"])
        lines.append(f"JVM CPU ratio hand/jms min {w['ratio_cpu']:.3f} ({w['name']}), "
                     f"median {statistics.median(r['ratio_cpu'] for r in cpus):.3f}")
    below = [r["name"] for r in rs if r["ratio_hand_over_jms"] < results["target_ratio"]]
    if below:
        lines.append(f"below the {results['target_ratio']} target (wall): {', '.join(below)}")
    diff = [r["name"] for r in rs if not r["same_pushed_filters"]]
    if diff:
        lines.append(f"pushed filters differ from the hand-written ones: {', '.join(diff)}")
    diff = [r["name"] for r in rs if not r["same_filter_exec"]]
    if diff:
        lines.append(f"post-scan Filter differs from the hand-written one: {', '.join(diff)}")
    for r in rs:
        if r["name"].startswith("timestamp"):
            lines.append(f"{r['name']}: scan read {_fmt_rows(r['jms_scan']['scan_rows'])} rows (jms) / "
                         f"{_fmt_rows(r['hand_scan']['scan_rows'])} (hand) of {results['rows_total']:,}")
    return lines


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
