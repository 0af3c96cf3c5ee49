"""Probe (not part of ``make bench``): where the time of a topic routing pass goes, and
the best ratio against the single-CASE plan that a faster *matching* could reach.

A topic pass reads the messages, computes each message's matching names and writes one output
row per (message, matching subscription). The last part depends only on how many rows come out,
which is the same for every plan. Stages, each run to the noop sink (every column of every row):

``scan``
    the messages, every column (no routing).
``floor``
    the messages exploded over a constant array of ``k`` names, ``k`` = the mean matches per
    message of the estate (rounded): the output's cost without any matching.
``floor:guarded``
    the same, the array behind the routing plan's codegen guard (`render_index.GUARD`) (a `CodegenFallback` that keeps the
    projection out of whole-stage codegen, as the routing plan's is): what that boundary costs.
``match:<plan>``
    each message once with its matching names computed by the plan, and the array's size (no
    explode): scan + index lookups + matching.
``full:<plan>``
    the topic pass of `bench_route.routed_df`: matching + explode.

``full:indexed-unguarded`` (``--unguarded``)
    the routing plan with the guard removed: one whole-stage method, too large to JIT-compile.

``<plan>`` is ``indexed`` (`spark.routing.columns.tag_matches`, what `route` uses) or ``baseline`` (the
single-CASE plan). Derived: matching = match − scan; ``full:baseline / full:indexed`` (the issue's
ratio); ``(match:baseline − scan) / (match:indexed − scan)`` (matching alone); and the bound
``full:baseline / (full:indexed − (match:indexed − scan))``: the ratio if the indexed plan's
matching cost nothing, its other work unchanged.

    python benchmarks/probe_route_stages.py --rows 2000000 --subs 1000 --reps 2

One cold run of every stage (compiles), then ``--reps`` rounds in ABBA order; medians of wall and
JVM + Python CPU seconds. The two plans' full outputs are asserted equal (fingerprint).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_native as bn  # noqa: E402
import bench_route as br  # noqa: E402


def stages(messages, subs, k: int, unguarded: bool = False) -> dict:
    """{stage: DataFrame}."""
    from pyspark.sql import functions as F

    import dataclasses

    from jms_selector_spark.backends.sql.render import sql_identifier
    from jms_selector_spark.language.dialects import get_dialect
    from jms_selector_spark.spark.routing.columns import tag_matches
    from jms_selector_spark.spark.routing.render_index import GUARD, guard_column
    from jms_selector_spark.spark.routing.tuning import DEFAULT
    from single_case import single_case_sql

    d = get_dialect("jms")
    cols = [F.col("`" + c.replace("`", "``") + "`") for c in messages.columns]
    native, fallback = br._split_subs(subs, messages.schema, d)
    names = F.array(*[F.lit(f"sub-{i:04d}") for i in range(k)])
    baseline = F.sort_array(F.expr(single_case_sql({s.name: c.whole.sql for s, c in native})))
    guard = F.expr(GUARD.format(col=sql_identifier(guard_column(messages.schema))))
    out = {
        "scan": messages.select(*cols),
        "floor": messages.select(*cols, F.explode_outer(names).alias("subscription")),
        "floor:guarded": messages.withColumn("__m", F.when(guard, names).otherwise(F.array().cast("array<string>")))
        .select(*cols, F.explode_outer("__m").alias("subscription")),
        "match:indexed": tag_matches(messages, native, fallback, column="__m", sort=False)
        .select(*cols, F.size("__m").alias("n")),
        "match:baseline": messages.select(*cols, F.size(baseline).alias("n")),
        "full:indexed": br.routed_df(messages, subs, "indexed"),
        "full:baseline": br.routed_df(messages, subs, "baseline"),
    }
    if unguarded:  # no guard and no methods of their own: every plan taken as small enough to JIT
        whole = dataclasses.replace(DEFAULT.without("own_methods"), jit_cases=10**9, jit_sql_chars=10**9)
        out["full:indexed-unguarded"] = br.routed_df(messages, subs, "indexed", tuning=whole)
    return out


def _ratio(a: float, b: float) -> "float | None":
    """``a / b``, None when ``b`` is not positive (tiny runs: a difference of medians can be 0)."""
    return round(a / b, 2) if b > 0 else None


def derived(m: dict) -> dict:
    """Ratios from the medians ``m`` ({stage: seconds})."""
    match_ix, match_base = m["match:indexed"] - m["scan"], m["match:baseline"] - m["scan"]
    return {"matching indexed s": round(match_ix, 2), "matching baseline s": round(match_base, 2),
            "explode (full - match), indexed s": round(m["full:indexed"] - m["match:indexed"], 2),
            "explode (full - match), baseline s": round(m["full:baseline"] - m["match:baseline"], 2),
            "full: baseline / indexed": _ratio(m["full:baseline"], m["full:indexed"]),
            "matching alone: baseline / indexed": _ratio(match_base, match_ix),
            "bound (indexed matching free)": _ratio(m["full:baseline"], m["full:indexed"] - match_ix)}


def main(argv=None, spark=None) -> dict:
    ap = argparse.ArgumentParser(prog="probe_route_stages", description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--subs", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--subs-seed", type=int, default=11)
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--driver-memory", default="4g")
    ap.add_argument("--unguarded", action="store_true", help="also the routing plan without its codegen guard")
    args = ap.parse_args(argv)
    own = spark is None
    spark = br.session(args.driver_memory, "probe_route_stages") if own else spark
    path = bn.ensure_archive(spark, Path(args.data_dir), args.rows, args.seed, None)
    messages = spark.read.parquet(str(path))
    subs = br.subscriptions(args.subs, seed=args.subs_seed, invalid=0)
    total = messages.count()
    # the full passes' outputs first (equal; their size gives the floor's k), then every stage
    fp = {p: br._fingerprint(br.routed_df(messages, subs, p)) for p in ("indexed", "baseline")}
    assert fp["indexed"] == fp["baseline"], fp
    k = max(1, round(fp["indexed"][0] / total))
    dfs = stages(messages, subs, k, args.unguarded)
    if args.unguarded:
        unguarded = br._fingerprint(dfs["full:indexed-unguarded"])
        assert unguarded == fp["indexed"], (unguarded, fp)
    cpu = br.spark_cpu_reader(spark)
    load = [round(os.getloadavg()[0], 2)]
    runs = {s: [] for s in dfs}
    cold = {s: br.timed_noop(df, cpu)["wall"] for s, df in dfs.items()}
    for r in range(args.reps):
        for s in (list(dfs) if r % 2 == 0 else list(dfs)[::-1]):
            runs[s].append(br.timed_noop(dfs[s], cpu))
        print(f"  round {r + 1} done; load {os.getloadavg()[0]:.1f}", flush=True)
    load.append(round(os.getloadavg()[0], 2))
    wall = {s: statistics.median(x["wall"] for x in v) for s, v in runs.items()}
    cpus = {s: (statistics.median(x["jvm"] + x["py"] for x in v) if v[0]["jvm"] is not None else None)
            for s, v in runs.items()}
    print(f"topic routing stages: {total:,} messages x {args.subs} realistic subscriptions, "
          f"{fp['indexed'][0]:,} output rows (floor: {k} names per message); medians of {args.reps} "
          f"ABBA rounds; load {load[0]} -> {load[1]} on {os.cpu_count()} CPUs")
    print(f"{'stage':<16}{'wall s':>9}{'cpu s':>9}{'cold s':>9}")
    for s in dfs:
        c = "" if cpus[s] is None else f"{cpus[s]:9.2f}"
        print(f"{s:<16}{wall[s]:9.2f}{c:>9}{cold[s]:9.2f}")
    out = {"wall": derived(wall)}
    if all(v is not None for v in cpus.values()):
        out["cpu"] = derived(cpus)
    for kind, d in out.items():
        print(f"{kind}: " + "; ".join(f"{k} {v}" for k, v in d.items()))
    if own:
        spark.stop()
    return {"wall": wall, "cpu": cpus, "cold": cold, "derived": out, "rows_out": fp["indexed"][0]}


if __name__ == "__main__":
    main()
