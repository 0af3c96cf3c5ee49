"""The estate report's cost: `route_report(..., html=...)` against the `route` pass it builds on.

    python benchmarks/bench_report.py                          # 1,000 subscriptions, 2M messages
    python benchmarks/bench_report.py --rows 200000 --subs 100 --reps 1      # small

What it does:

1. **Data**: the flat Parquet archive of `bench_native` (``bench-data/messages-flat-<rows>-seed<s>``),
   written once and reused, and `bench_route.subscriptions` (realistic generated selectors, a few
   invalid).
2. **The route pass** (the baseline), as `bench_route` measures it: ``route(messages, subs)``
   materialised through the noop sink, every column of every output row — what a job that routes
   an archive (and writes the subscriptions' outputs) pays anyway.
3. **The report**: ``route_report(route(messages, subs), subs, html=...)`` — its own routing pass,
   persisted narrow (`report_input`: subscription, outcome, time, message identity, and the
   messages nobody received), then the volume, overlap, dead-letter and lint figures and the page.
   For scale, also the plain `route_report` (outcome counts only: Spark prunes every message
   column from that pass, so it is cheaper than the route pass).
4. **Timing**: one untimed run of each (the first compiles the generated code), then ``--reps``
   rounds of the route pass and the report, the order alternating between rounds (ABBA), and the
   plain report once per round; medians and the ratio report / route pass.
5. ``--stages``: one more report, each stage timed on its own (the persisted copy and the counts,
   the volume, the overlap, the dead-letter reasons, lint, the page), by wrapping the functions
   `route_report` calls.

Written to ``bench-data/results/report.json`` (``summary``: the lines `run_all.py` prints).
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_native as bn  # noqa: E402
import bench_route as br  # noqa: E402

NAME = "report"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="bench_report", description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000, help="messages in the archive (default 2,000,000)")
    ap.add_argument("--subs", type=int, default=1000, help="subscriptions (default 1,000)")
    ap.add_argument("--reps", type=int, default=3, help="timed rounds (default 3)")
    ap.add_argument("--seed", type=int, default=7, help="archive seed")
    ap.add_argument("--subs-seed", type=int, default=11, help="subscription generator seed")
    ap.add_argument("--top", type=int, default=20, help="busiest subscriptions in the overlap (default 20)")
    ap.add_argument("--files", type=int, default=None, help="Parquet files in the archive (default one per million rows)")
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--results", default=None, help="JSON output (default <data-dir>/results/report.json)")
    ap.add_argument("--driver-memory", default="4g")
    ap.add_argument("--stages", action="store_true", help="also time each stage of one report")
    return ap


def stage_times(run) -> dict:
    """Seconds spent in each stage of ``run()`` (a report): the functions `route_report` calls,
    wrapped for the call and restored after."""
    import jms_selector_spark.spark.routing.estate_report as er

    rt = sys.modules["jms_selector_spark.spark.routing.route"]
    times: dict = {}
    wrapped = [(er, "volume"), (er, "overlap"), (er, "dead_letter_reasons"), (er, "lint"), (rt, "report_input"),
               (rt, "write_report")]
    saved = [(mod, name, getattr(mod, name)) for mod, name in wrapped]

    def timed(name, fn):
        def call(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                times[name] = times.get(name, 0.0) + time.perf_counter() - t
        return call

    for mod, name, fn in saved:
        setattr(mod, name, timed(name, fn))
    try:
        t = time.perf_counter()
        run()
        times["whole report"] = time.perf_counter() - t
    finally:
        for mod, name, fn in saved:
            setattr(mod, name, fn)
    return times


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main(argv=None, spark=None) -> dict:
    """Run the benchmark; returns the results (also written as JSON). ``spark``: an existing
    session to use (not stopped); otherwise one is created and stopped at the end."""
    args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    from jms_selector_spark import route, route_report

    data_dir = Path(args.data_dir)
    results_path = Path(args.results) if args.results else data_dir / "results" / f"{NAME}.json"
    own = spark is None
    if own:
        spark = br.session(args.driver_memory, "jms-bench-report")
    lib_log = logging.getLogger("jms_selector_spark")
    old_level = lib_log.level
    lib_log.setLevel(logging.ERROR)  # the invalid selectors' carets, once per call
    try:
        path = bn.ensure_archive(spark, data_dir, args.rows, args.seed, args.files)
        messages = spark.read.parquet(str(path))
        subs = br.subscriptions(args.subs, seed=args.subs_seed)
        out = Path(tempfile.mkdtemp(prefix="bench-report-")) / "report.html"

        def plain():
            return route_report(route(messages, subs, mode="topic"), subs, mode="topic")

        def estate():
            return route_report(route(messages, subs, mode="topic"), subs, mode="topic", html=out, top=args.top)

        def route_pass():
            bn.run_noop(route(messages, subs, mode="topic"))

        first = {"route pass": _timed(route_pass), "report": _timed(estate), "counts only": _timed(plain)}
        runs = {"route pass": [], "report": [], "counts only": []}
        for r in range(args.reps):
            order = [("route pass", route_pass), ("report", estate)]
            for name, fn in (order if r % 2 == 0 else order[::-1]):
                runs[name].append(_timed(fn))
            runs["counts only"].append(_timed(plain))
        report = estate()
        stages = stage_times(estate) if args.stages else None
        med = {k: statistics.median(v) for k, v in runs.items()}
        ratio = med["report"] / med["route pass"]
        dead = report["dead_letters"]
        res = {
            "benchmark": NAME, "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None},
            "rows": args.rows, "subscriptions": args.subs, "top": args.top, "reps": args.reps,
            "first_run_s": first, "runs_s": runs, "median_s": med, "stages_s": stages, "ratio_report_over_route_pass": ratio,
            "figures": {"routed_rows": report["rows"], "unreceived": dead["messages"],
                        "unattributed": dead["unattributed"], "reasons": len(dead["reasons"]),
                        "never_matching": len(report["never_matching"]),
                        "contained": len(report["overlap"]["contained"]), "html_bytes": out.stat().st_size},
        }
        res["summary"] = [
            f"report: {args.subs:,} subscriptions x {args.rows:,} messages ({report['rows']:,} routed rows, "
            f"{dead['messages']:,} nobody received): route pass {med['route pass']:.1f} s, report "
            f"{med['report']:.1f} s, ratio {ratio:.2f} (target <= 1.5); the outcome counts alone "
            f"{med['counts only']:.1f} s (medians of {args.reps})",
        ]
        if stages:
            res["summary"].append("report stages: " + ", ".join(f"{k} {v:.1f} s" for k, v in stages.items()))
        results_path.parent.mkdir(parents=True, exist_ok=True)
        results_path.write_text(json.dumps(res, indent=2, default=str))
        for line in res["summary"]:
            print(line)
        return res
    finally:
        lib_log.setLevel(old_level)
        if own:
            spark.stop()


if __name__ == "__main__":
    main()
