"""Before/after benchmark: this checkout's package against an older commit's,
in ONE process, ONE SparkSession, interleaved.

    python benchmarks/bench_before_after.py                          # before = ce90b23, 2M rows, 5 rounds
    python benchmarks/bench_before_after.py --before HEAD~3 --rows 200000 --reps 2
    python benchmarks/bench_before_after.py --only route --before 73c933e --reps 5

The older commit's ``jms_selector_spark`` is extracted with ``git archive`` into a temporary
directory and imported as ``jms_selector_spark_before`` (the package imports itself relatively;
Python workers find it through ``PYTHONPATH``, set before the JVM starts). Both packages run in
the same session on the same Parquet archive (`bench_native.ensure_archive`), so load drift on a
shared machine hits both alike: every round runs every variant, the order reversed every other
round. Sections (``--only``):

``native``
    Every `bench_native.selectors()` selector: ``jms_filter`` of before, of after, and the
    hand-written Spark SQL filter, each to the noop sink. Reports ``hand / jms`` (the
    ``bench_native`` ratio, target >= 0.97) for before and after, and ``before / after``.
``udf``
    The two `bench_udf` selectors through the fallback UDF `jms_filter` uses (``selector_udf``,
    forced for the whole selector) of before and of after, against the hand-written
    ``@arrow_udf`` of the same predicate: ``hand / fallback`` (target >= 0.9).
``route`` (only with ``--only route``)
    `route` (topic mode, every column of every output row to the noop sink) of before and of
    after for ``--route-estates`` (``realistic:1000``: `bench_route.subscriptions`,
    ``no-access:150``: `bench_route.noaccess_subscriptions`), outputs asserted equal (rows and an
    order-independent checksum): ``before / after`` of the wall and CPU medians, and paired.
``compile``
    parse + bind + lower + translate (``selector_to_sql(text, schema)`` with the parse cache
    cleared before every call) for every selector of both sections, before and after alternating
    in blocks: median microseconds per selector.

Figures: medians of wall time; JSON in ``<data-dir>/results/before_after.json``.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
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

NAME = "before_after"
BEFORE_NAME = "jms_selector_spark_before"
SECTIONS = ("native", "udf", "route", "compile")
#: without --only (route: compare with a recent commit, ``--before``; the default one predates the routing plan)
DEFAULT_SECTIONS = ("native", "udf", "compile")
TARGETS = {"native": 0.97, "udf": 0.9}


def extract_before(ref: str, into: Path) -> Path:
    """``into/jms_selector_spark_before``: the package as of ``ref`` (git archive of this repo)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "jms_selector_spark"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "jms_selector_spark").rename(into / BEFORE_NAME)
    return into / BEFORE_NAME


def load_packages(ref: str, tmp: Path):
    """(before package, after package); workers get the before package through PYTHONPATH."""
    extract_before(ref, tmp)
    # a package left by an earlier call in this process (its directory is gone) would be reused
    for name in [m for m in sys.modules if m == BEFORE_NAME or m.startswith(BEFORE_NAME + ".")]:
        del sys.modules[name]
    sys.path.insert(0, str(tmp))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(tmp), str(ROOT)] + [
        p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    before = importlib.import_module(BEFORE_NAME)
    after = importlib.import_module("jms_selector_spark")
    assert Path(after.__file__).resolve().parent == ROOT / "jms_selector_spark", after.__file__
    return before, after


def interleaved(variants: dict, reps: int, warmup: int = 1, min_time: float = 0.0, cpu=None) -> tuple:
    """``(times, k, cpus)``: ``times`` {variant: [wall seconds per run]} of ``reps`` rounds of every
    variant, order reversed every other round. With ``min_time``, one sample of a variant runs it ``k`` times back to back and reports
    the mean, ``k`` chosen from the warm-up so that a sample lasts at least ``min_time`` seconds
    (the same ``k`` for every variant of the group): a 0.15 s query is otherwise measured at the
    resolution of its scheduling noise. ``cpu`` (`bench_route.spark_cpu_reader`): ``cpus``
    {variant: [JVM + Python CPU seconds per run]}, less moved by other processes' load than wall
    time (None without it)."""
    from bench_native import run_noop

    names = list(variants)
    warm = {n: [] for n in names}
    for _ in range(max(warmup, 1 if min_time else 0)):
        for n in names:
            warm[n].append(run_noop(variants[n])[0])
    k = 1
    if min_time:
        fastest = min(min(v) for v in warm.values())
        k = max(1, int(-(-min_time // max(fastest, 1e-3))))
    times = {n: [] for n in names}
    cpus = {n: [] for n in names}
    for r in range(reps):
        for n in (names if r % 2 == 0 else names[::-1]):
            c0 = cpu() if cpu else None
            times[n].append(sum(run_noop(variants[n])[0] for _ in range(k)) / k)
            if cpu:
                c1 = cpu()
                cpus[n].append((c1[0] - c0[0] + c1[1] - c0[1]) / k)
    return times, k, (cpus if cpu else None)


def _med(xs):
    return statistics.median(xs) if xs else None


def _paired(num: list, den: list):
    """Median over rounds of ``num[r] / den[r]`` (the same round's samples)."""
    return round(statistics.median(a / b for a, b in zip(num, den)), 4) if num and den else None


def _pairs(t: dict) -> dict:
    """`_paired` ratios hand/before, hand/after and before/after of ``t`` {variant: [seconds]}."""
    return {"hand/before": _paired(t["hand"], t["before"]), "hand/after": _paired(t["hand"], t["after"]),
            "before/after": _paired(t["before"], t["after"])}


def _physical(df) -> str:
    """``df``'s executed plan as text, expression ids normalised (``#123`` -> ``#``)."""
    import re

    return re.sub(r"#\d+L?", "#", df._jdf.queryExecution().executedPlan().toString())


def _ratio(num, den):
    return None if not num or not den else round(num / den, 4)


def run_native(spark, df, before, after, args, log=print) -> list:
    from bench_native import selectors
    from bench_route import spark_cpu_reader

    cpu = spark_cpu_reader(spark)

    out = []
    for name, selector, hand in selectors():
        variants = {"before": before.jms_filter(df, selector), "after": after.jms_filter(df, selector),
                    "hand": df.where(hand)}
        counts = {k: v.count() for k, v in variants.items()}
        assert len(set(counts.values())) == 1, (name, counts)
        t, k, c = interleaved(variants, args.reps, args.warmup, args.min_time, cpu)
        m = {v: _med(x) for v, x in t.items()}
        plans = {v: _physical(df) for v, df in variants.items()}
        row = {"name": name, "rows_matched": counts["hand"], "times_s": t, "median_s": m, "runs_per_sample": k,
               "same_sql": before.selector_to_sql(selector, df.schema) == after.selector_to_sql(selector, df.schema),
               # identical physical plans run identical code: their ratio can only measure noise
               "same_plan_before_after": plans["before"] == plans["after"],
               "same_plan_as_hand": plans["after"] == plans["hand"],
               "ratio_before": _ratio(m["hand"], m["before"]), "ratio_after": _ratio(m["hand"], m["after"]),
               "after_vs_before": _ratio(m["before"], m["after"]),
               # the median over rounds of each round's ratio: load drifts between rounds, less within one
               "paired": _pairs(t), "cpu_s": c, "paired_cpu": c and _pairs(c)}
        log(f"  native {name}: hand/jms before {row['ratio_before']} after {row['ratio_after']} "
            f"(paired: before {row['paired']['hand/before']} after {row['paired']['hand/after']}; paired CPU: "
            f"before {c and row['paired_cpu']['hand/before']} after {c and row['paired_cpu']['hand/after']})")
        out.append(row)
    return out


def run_udf(spark, df, before, after, args, log=print) -> list:
    from pyspark.sql import functions as F
    from pyspark.sql.functions import arrow_udf

    from bench_udf import COMPLEX, SIMPLE, hand_written

    out = []
    for label, selector in (("simple", SIMPLE), ("complex", COMPLEX)):
        variants = {}
        for side, pkg in (("before", before), ("after", after)):
            udf_mod = importlib.import_module(pkg.__name__ + ".backends.udf")
            if hasattr(udf_mod, "selector_udf"):  # the layout before compile_selector
                fn, cols = udf_mod.selector_udf(pkg.parse(selector), df.schema)
            else:  # the whole selector as one fallback piece of its compiled form
                whole = pkg.compile_selector(selector, df.schema)
                fn, cols = udf_mod.piece_udf(whole.piece(whole.core))
            variants[side] = df.where(fn(*udf_mod.source_args(cols)))
        hand_cols, arrow_fn, _ = hand_written()[selector]
        variants["hand"] = df.where(arrow_udf(arrow_fn, "boolean")(*[F.col(c) for c in hand_cols]))
        counts = {k: v.count() for k, v in variants.items()}
        assert len(set(counts.values())) == 1, (label, counts)
        t, _, _ = interleaved(variants, args.reps, args.warmup)
        m = {k: _med(v) for k, v in t.items()}
        row = {"name": label, "selector": selector, "rows_matched": counts["hand"], "times_s": t, "median_s": m,
               "ratio_before": _ratio(m["hand"], m["before"]), "ratio_after": _ratio(m["hand"], m["after"]),
               "after_vs_before": _ratio(m["before"], m["after"])}
        log(f"  udf {label}: hand/fallback before {row['ratio_before']} after {row['ratio_after']}")
        out.append(row)
    return out


def _route_estates(text: str) -> list:
    """``[(kind, n)]`` of ``--route-estates`` (``realistic:1000,no-access:150``)."""
    out = []
    for item in text.split(","):
        kind, _, n = item.strip().partition(":")
        if kind not in ("realistic", "no-access") or not n.isdigit():
            raise ValueError(f"--route-estates: {item!r} is not realistic:N or no-access:N")
        out.append((kind, int(n)))
    return out


def run_route(spark, df, before, after, args, log=print) -> list:
    import bench_route as br

    cpu = br.spark_cpu_reader(spark)
    out = []
    for kind, n in _route_estates(args.route_estates):
        subs = br.subscriptions(n, invalid=0) if kind == "realistic" else br.noaccess_subscriptions(n)
        variants = {side: pkg.route(df, subs, mode="topic") for side, pkg in (("before", before), ("after", after))}
        prints = {side: br._fingerprint(v) for side, v in variants.items()}
        assert prints["before"] == prints["after"], (kind, n, prints)
        t, _, c = interleaved(variants, args.reps, args.warmup, cpu=cpu)
        m, mc = {k: _med(v) for k, v in t.items()}, c and {k: _med(v) for k, v in c.items()}
        row = {"name": f"{kind} {n}", "rows_out": prints["after"][0], "times_s": t, "cpu_s": c, "median_s": m,
               "cpu_median_s": mc, "before_over_after": _ratio(m["before"], m["after"]),
               "before_over_after_cpu": mc and _ratio(mc["before"], mc["after"]),
               "paired": _paired(t["before"], t["after"]), "paired_cpu": c and _paired(c["before"], c["after"])}
        log(f"  route {kind} {n}: before / after {row['before_over_after']} (CPU {row['before_over_after_cpu']}; "
            f"paired {row['paired']}, CPU {row['paired_cpu']}), {row['rows_out']:,} rows equal")
        out.append(row)
    return out


def _submodule(pkg, *names):
    """The first of ``pkg``'s modules ``names`` that exists (a 'before' commit may have the flat layout)."""
    for name in names:
        try:
            return importlib.import_module(f"{pkg.__name__}.{name}")
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(f"none of {names} in {pkg.__name__}")


def run_compile(schema, before, after, args, log=print) -> list:
    from bench_native import selectors
    from bench_udf import COMPLEX, SIMPLE

    texts = [(n, s) for n, s, _ in selectors()] + [("udf-simple", SIMPLE), ("udf-complex", COMPLEX)]
    sides = {}
    for side, pkg in (("before", before), ("after", after)):
        sel_mod = _submodule(pkg, "frontend.selector", "selector")
        memo = getattr(sel_mod, "parse_selector", None)  # the parser's memo (older packages: _parse_cached)
        memo = memo if hasattr(memo, "cache_clear") else getattr(sel_mod, "_parse_cached")
        sides[side] = (pkg.selector_to_sql, memo.cache_clear)
    out = []
    for name, text in texts:
        # a translation changed on purpose (issue #34 dropped NaN guards Spark does not need) is
        # timed all the same; `same_sql` says which
        same = sides["before"][0](text, schema) == sides["after"][0](text, schema)
        us = {"before": [], "after": []}
        for block in range(args.compile_blocks):
            for side in (("before", "after") if block % 2 == 0 else ("after", "before")):
                translate, clear = sides[side]
                for _ in range(args.compile_calls):
                    clear()
                    t = time.perf_counter()
                    translate(text, schema)
                    us[side].append((time.perf_counter() - t) * 1e6)
        m = {k: round(_med(v), 1) for k, v in us.items()}
        row = {"name": name, "median_us": m, "after_over_before": _ratio(m["after"], m["before"]), "same_sql": same}
        log(f"  compile {name}: before {m['before']} us, after {m['after']} us")
        out.append(row)
    return out


def _timing_rows(title: str, rows: list) -> list:
    """The native and UDF sections: each row's hand/before/after medians and their ratios."""
    lines = [title, f"{'selector':<22}{'hand s':>8}{'before s':>10}{'after s':>9}{'ratio before':>14}"
                    f"{'ratio after':>13}{'after vs before':>17}"]
    for r in rows:
        m = r["median_s"]
        lines.append(f"{r['name']:<22}{m['hand']:>8.3f}{m['before']:>10.3f}{m['after']:>9.3f}"
                     f"{r['ratio_before']:>14.3f}{r['ratio_after']:>13.3f}{r['after_vs_before']:>17.3f}")
    return lines


def table(results) -> str:
    lines = []
    if results.get("native"):
        lines += _timing_rows("native (jms_filter vs the hand-written filter; hand/jms, target >= 0.97)",
                              results["native"])
        lines += ["", "native, paired (median over rounds of the ratio within each round; wall, then JVM + Python CPU);",
                  "plan = after's physical plan identical to: b (before's), h (the hand-written filter's)",
                  f"{'selector':<22}{'plan':>5}{'runs/sample':>12}{'hand/before':>13}{'hand/after':>12}{'before/after':>14}"
                  f"{'cpu h/before':>14}{'cpu h/after':>13}{'cpu b/after':>13}"]
        for r in results["native"]:
            p, q = r["paired"], r.get("paired_cpu") or {}
            cpu = "".join(f"{q[k]:>{w}.3f}" if q.get(k) else f"{'-':>{w}}"
                          for k, w in (("hand/before", 14), ("hand/after", 13), ("before/after", 13)))
            same = ("b" if r.get("same_plan_before_after") else "") + ("h" if r.get("same_plan_as_hand") else "")
            lines.append(f"{r['name']:<22}{same or '-':>5}{r['runs_per_sample']:>12}{p['hand/before']:>13.3f}{p['hand/after']:>12.3f}"
                         f"{p['before/after']:>14.3f}{cpu}")
    if results.get("udf"):
        lines += ["", *_timing_rows("fallback UDF vs hand-written arrow_udf (hand/fallback, target >= 0.9)",
                                    results["udf"])]
    if results.get("route"):
        lines += ["", "route (topic, noop sink; before / after: of the medians, and the median of each round's ratio)",
                  f"{'estate':<22}{'rows':>13}{'before s':>10}{'after s':>9}{'before cpu':>12}{'after cpu':>11}"
                  f"{'b/a':>7}{'b/a cpu':>9}{'paired':>8}{'p. cpu':>8}"]
        for r in results["route"]:
            m, mc = r["median_s"], r["cpu_median_s"] or {}
            lines.append(f"{r['name']:<22}{r['rows_out']:>13,}{m['before']:>10.2f}{m['after']:>9.2f}"
                         f"{mc.get('before', float('nan')):>12.2f}{mc.get('after', float('nan')):>11.2f}"
                         f"{r['before_over_after']:>7.2f}{r['before_over_after_cpu'] or float('nan'):>9.2f}"
                         f"{r['paired']:>8.2f}{r['paired_cpu'] or float('nan'):>8.2f}")
    if results.get("compile"):
        lines += ["", "parse + bind + lower + translate (median us per selector)",
                  f"{'selector':<22}{'before us':>11}{'after us':>10}{'after/before':>14}"]
        for r in results["compile"]:
            m = r["median_us"]
            lines.append(f"{r['name']:<22}{m['before']:>11.1f}{m['after']:>10.1f}{r['after_over_before']:>14.3f}")
    return "\n".join(lines)


def summary_lines(results) -> list:
    out = []
    for sec in ("native", "udf"):
        rows = results.get(sec) or []
        if rows:
            worst = min(rows, key=lambda r: r["ratio_after"])
            out.append(f"{sec}: worst ratio after {worst['ratio_after']} ({worst['name']}; target {TARGETS[sec]}), "
                       f"before {worst['ratio_before']}")
            if "paired" in rows[0]:
                wp = min(rows, key=lambda r: r["paired"]["hand/after"])
                out.append(f"{sec}: worst paired ratio after {wp['paired']['hand/after']} ({wp['name']}), "
                           f"before {wp['paired']['hand/before']}")
            if rows[0].get("paired_cpu"):
                wc = min(rows, key=lambda r: r["paired_cpu"]["hand/after"])
                out.append(f"{sec}: worst paired CPU ratio after {wc['paired_cpu']['hand/after']} ({wc['name']}), "
                           f"before {wc['paired_cpu']['hand/before']}")
    for r in results.get("route") or []:
        out.append(f"route {r['name']}: before / after {r['before_over_after']} (CPU {r['before_over_after_cpu']}), "
                   f"paired {r['paired']} (CPU {r['paired_cpu']})")
    if results.get("compile"):
        out.append("compile: after/before " + ", ".join(f"{r['name']} {r['after_over_before']}" for r in results["compile"]))
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="bench_before_after", description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="ce90b23", help="git ref of the 'before' package (default ce90b23)")
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--reps", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--min-time", type=float, default=0.0,
                    help="native: a sample repeats the query until it lasts >= this many seconds (mean per run)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--files", type=int, default=None)
    ap.add_argument("--compile-blocks", type=int, default=10)
    ap.add_argument("--compile-calls", type=int, default=20)
    ap.add_argument("--route-estates", default="realistic:1000,no-access:150",
                    help="route: estates of bench_route's generators (default realistic:1000,no-access:150)")
    ap.add_argument("--only", action="append", choices=SECTIONS, default=None)
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--results", default=None)
    ap.add_argument("--driver-memory", default="4g")
    return ap.parse_args(argv)


def main(argv=None, spark=None) -> dict:
    from bench_native import _session, ensure_archive

    args = parse_args(sys.argv[1:] if argv is None else argv)
    sections = args.only or list(DEFAULT_SECTIONS)
    data_dir = Path(args.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    results_path = Path(args.results) if args.results else data_dir / "results" / f"{NAME}.json"
    saved_path, saved_env = list(sys.path), os.environ.get("PYTHONPATH")
    with tempfile.TemporaryDirectory(prefix="jms-before-") as tmp:
        before, after = load_packages(args.before, Path(tmp))
        own = spark is None
        spark = _session(args.driver_memory, "jms-bench-before-after") if own else spark
        try:
            results = {"before": args.before, "after": subprocess.run(
                ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
                "rows": args.rows, "reps": args.reps, "load_start": os.getloadavg(),
                "started": datetime.now(timezone.utc).isoformat(timespec="seconds")}
            df = spark.read.parquet(str(ensure_archive(spark, data_dir, args.rows, args.seed, args.files)))
            if "native" in sections:
                results["native"] = run_native(spark, df, before, after, args)
            if "udf" in sections:
                results["udf"] = run_udf(spark, df, before, after, args)
            if "route" in sections:
                results["route"] = run_route(spark, df, before, after, args)
            if "compile" in sections:
                results["compile"] = run_compile(df.schema, before, after, args)
            results["load_end"] = os.getloadavg()
        finally:
            if own:
                spark.stop()
            sys.path[:] = saved_path
            if saved_env is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = saved_env
    results["summary"] = summary_lines(results)
    results_path.parent.mkdir(parents=True, exist_ok=True)
    results_path.write_text(json.dumps(results, indent=1))
    print(table(results))
    for line in results["summary"]:
        print(line)
    return results


if __name__ == "__main__":
    main()
