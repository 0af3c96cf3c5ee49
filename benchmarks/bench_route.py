"""Routing benchmark: 1,000 subscriptions routed over a 10M-message archive in ONE pass.

    python benchmarks/bench_route.py                         # 10M messages, 1,000 subscriptions
    python benchmarks/bench_route.py --rows 200000 --subs 100 --sample-passes 6 --reps 1   # small

What it does:

1. **Data**: the flat Parquet archive of `bench_native` (``bench-data/messages-flat-<rows>-seed<s>``),
   written once and reused while its parameters match.
2. **Subscriptions**: `subscriptions` generates realistic selectors over the archive's headers and
   properties (equality, IN, ranges, BETWEEN, LIKE prefixes, arithmetic, OR / NOT mixes), a
   handful of them invalid (``--invalid``). ``--fallback K`` adds K selectors that need the
   vectorized fallback (ActiveMQ ``INLIST(SPLIT(...))``) and routes in the ``activemq`` dialect.
3. **Planning**, measured apart from execution: `route` itself (translating every selector, building
   the DataFrame; PySpark analyses it eagerly), the optimizer, physical planning, and the
   whole-stage-codegen report of each codegen stage (largest generated method in bytes of
   bytecode — HotSpot does not JIT-compile methods above 8,000 bytes — or "did not compile":
   Spark then runs the stage without whole-stage codegen).
4. **Timing**: one cold run of each mode (the first execution: it compiles the generated code),
   then ``--reps`` rounds of ``route(mode="topic")``, ``route(mode="queue")`` and a share of the
   k sampled separate passes, the order alternating between rounds (ABBA). Every run is
   materialized with the noop sink (``write.format("noop")``): every column of every output row.
   A separate pass is ``jms_filter(df, selector).withColumn("subscription", lit(name))`` through
   the same sink; k of them (``--sample-passes``, a seeded random sample of the valid
   subscriptions) are measured once each and extrapolated linearly to all valid subscriptions —
   labelled as such, with their spread.
5. **Counts** (checked): topic output rows (matched pairs + one row per dead letter), queue rows
   (must equal the messages), and for every sampled subscription: its rows in the topic output
   must equal its separate pass's count.

Figures: medians; messages/s and output rows/s; the ratio (extrapolated separate passes) /
(one routing pass). Written to ``bench-data/results/route.json``.

Growth modes (instead of the above):

- ``--matrix``: the routing plan against today's single-CASE plan, default vs tuned settings, at
  ``--matrix-subs`` counts, and the no-access-predicate worst case (`run_matrix`;
  ``bench-data/results/route_matrix.json``).
- ``--matrix --equal-selectivity``: the same, with realistic estates of equal per-subscription
  selectivity at every count (the issue's growth target, 10 -> 100 -> 1,000). The plain generator
  takes the first n of one random stream, whose mean matched share per subscription drifts with n
  (200,000 messages: 0.0243 at 10, 0.0175 at 100, 0.0178 at 1,000); this option measures the
  largest estate's selectivities on a sample and gives each count the same distribution
  (`equal_selectivity_estates`). For example, on an idle machine::

      python benchmarks/bench_route.py --matrix --equal-selectivity --rows 10000000 \
          --matrix-subs 10,100,1000 --baseline-subs "" --worst-subs "" --reps 3 --driver-memory 4g

- ``--matrix --matching``: every variant is also timed as its matching alone (each message's array
  of matching names, no output rows), in the same rounds: a topic pass's output grows with the
  matches (8.5x from 100 to 1,000 equal-selectivity subscriptions) and costs the same in every
  plan, so this shows the matching's own growth and speed-up beside the whole pass's.
- ``--matrix --floor-subs 100,1000``: at those counts also the output rows alone (`floor_df`: every
  message exploded over a constant array of the estate's whole matches per message, nothing
  matched), for the ratio ``growth floor``: the output rows alone at 1,000 over the whole pass at
  100. What a pass at 1,000 spends beyond its floor is the matching's share of the growth target.
- ``bench_route_scale.py --scale 1000,3000,10000 --driver-memory 1g``: plan, code generation,
  compile and run time at large counts, each phase timed on its own.
"""
from __future__ import annotations

import argparse
import logging
import os
import platform
import random
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# the single-CASE plan, the baseline, is the tests' reference: tests/support/single_case.py
for p in (str(ROOT), str(HERE), str(ROOT / "tests" / "support")):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_native as bn  # noqa: E402  (archive, plan inspection)

from jms_selector_spark import jms_filter
from jms_selector_spark.language.errors import SelectorError, UnsupportedSelectorError  # noqa: E402
from jms_selector_spark.spark import sample_data

NAME = "route"

# --------------------------------------------------------------------------------------------
# subscriptions (also used by bench_udf)

_TYPES = [t for t, _ in sample_data._TYPES]
_COLORS = [c for c, _ in sample_data._COLORS]
_REGIONS = [r for r, _ in sample_data._REGIONS]
_TIERS = [t for t, _ in sample_data._TIERS]
_PREFIXES = ["O'", "Mü", "Ac", "Gl", "Zo", "Sm", "Ø", "D'", "In", "Um", "An", "Ma", "Jo", "Fr", "山"]
#: Invalid selectors, as people mistype them (syntax errors a broker would reject).
INVALID = [
    "color = 'blue' AND AND weight > 2500", "weight >", "JMSType = 'car", "color == 'red'",
    "price BETWEEN 10", "region IN ()", "tier = 'gold' OR", "JMSType = 'car' AND (color = 'blue'",
    "quantity * > 3", "customer LIKE", "JMSPriority >= 7 urgent", "NOT",
]


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _qs(values) -> str:
    return ", ".join(_q(v) for v in values)


def _selector(rng: random.Random) -> str:
    """One realistic subscription selector over the sample archive (valid in jms and activemq)."""
    t, t2 = rng.sample(_TYPES, 2)
    c, c2 = rng.sample(_COLORS, 2)
    reg, reg2, reg3 = rng.sample(_REGIONS, 3)
    tier = rng.choice(_TIERS)
    day = sample_data.START_MILLIS + rng.randrange(30) * 86_400_000
    k = rng.randrange(22)
    if k == 0:
        return f"JMSType = {_q(t)} AND region = {_q(reg)}"
    if k == 1:
        return f"JMSType IN ({_qs([t, t2])}) AND tier = {_q(tier)}"
    if k == 2:
        return f"JMSType = 'car' AND color IN ({_qs([c, c2])}) AND weight > {rng.randrange(900, 3400)}"
    if k == 3:
        lo = round(rng.uniform(0.5, 200), 2)
        return f"region IN ({_qs([reg, reg2])}) AND price BETWEEN {lo} AND {round(lo * rng.uniform(2, 20), 2)}"
    if k == 4:
        return f"customer LIKE {_q(rng.choice(_PREFIXES) + '%')} AND JMSType = {_q(t)}"
    if k == 5:
        return (f"(tier = 'gold' OR JMSPriority >= {rng.randrange(6, 9)}) AND NOT (JMSType IN ('heartbeat', 'audit'))"
                f" AND region = {_q(reg)}")
    if k == 6:
        return f"JMSType = 'alert' AND (urgent OR JMSPriority > {rng.randrange(6, 9)})"
    if k == 7:
        return f"JMSType = 'order' AND quantity * price > {rng.choice([500, 1000, 5000, 20000])}"
    if k == 8:
        return (f"JMSDeliveryMode = 'PERSISTENT' AND region LIKE {_q(rng.choice(['EU-', 'US-', 'APAC-']) + '%')}"
                f" AND NOT (color = {_q(c)}) AND JMSType = {_q(t)}")
    if k == 9:
        return f"JMSTimestamp BETWEEN {day} AND {day + rng.choice([1, 6, 24]) * 3_600_000 - 1} AND JMSType = {_q(t)}"
    if k == 10:
        return f"JMSCorrelationID LIKE 'ORD-2026-00{rng.randrange(10)}%'"
    if k == 11:
        return f"discount >= {rng.choice([0.25, 0.3, 0.4])} AND tier <> 'bronze' AND region = {_q(reg)}"
    if k == 12:
        return (f"JMSType = 'truck' AND weight NOT BETWEEN {rng.randrange(2500, 10000)} AND {rng.randrange(10000, 40000)}"
                f" AND region IN ({_qs([reg, reg2, reg3])})")
    if k == 13:
        return f"color IS NULL AND JMSType = {_q(t)} AND tier = {_q(tier)}"
    if k == 14:
        return f"JMSType = {_q(t)} AND color = {_q(c)} AND region = {_q(reg)}"
    if k == 15:
        return (f"JMSType = {_q(t)} AND JMSPriority BETWEEN {rng.randrange(0, 5)} AND {rng.randrange(5, 10)}"
                f" AND tier = {_q(tier)} AND region <> {_q(reg)}")
    if k == 16:
        return f"(region = {_q(reg)} OR region = {_q(reg2)}) AND JMSType = {_q(t)} AND price > {rng.choice([100, 500, 1000])}"
    if k == 17:
        return (f"JMSType = 'invoice' AND price * quantity BETWEEN {rng.randrange(100, 1000)} AND {rng.randrange(5000, 50000)}"
                f" AND tier IN ({_qs(rng.sample(_TIERS, 2))})")
    if k == 18:
        return (f"NOT (JMSType IN ({_qs(rng.sample(_TYPES, 7))})) AND color = {_q(c)}"
                f" AND (urgent OR quantity > {rng.randrange(10, 80)})")
    if k == 19:
        return f"JMSType = {_q(t)} AND customer NOT LIKE '%Ltd' AND region = {_q(reg)} AND JMSPriority = 4"
    if k == 20:
        return f"JMSDeliveryMode = 'NON_PERSISTENT' AND JMSType = {_q(t)}"
    return (f"JMSType = {_q(t)} AND weight BETWEEN {rng.randrange(1, 2000)} AND {rng.randrange(2000, 5000)}"
            f" AND color IN ({_qs([c, c2])}) AND tier = {_q(tier)}")


def _fallback_selector(rng: random.Random) -> str:
    """A selector with a construct that has no native SQL form (ActiveMQ INLIST over SPLIT)."""
    word = rng.choice(["Ltd", "GmbH", "Corp", "&", "Sons", "AS"])
    return f"JMSType = {_q(rng.choice(_TYPES))} AND INLIST(SPLIT(customer, ' '), {_q(word)})"


def _noaccess_selector(rng: random.Random) -> str:
    """A realistic selector with no access predicate (no conjunct ``name = 'x'`` / ``IN``): the
    worst case of the predicate index, every such subscription is evaluated for every message."""
    k = rng.randrange(6)
    if k == 0:
        return f"weight > {rng.randrange(100, 4000)} AND price < {round(rng.uniform(1, 500), 2)}"
    if k == 1:
        return f"JMSPriority >= {rng.randrange(3, 9)} AND NOT (JMSType IN ({_qs(rng.sample(_TYPES, 3))}))"
    if k == 2:
        return f"customer LIKE {_q(rng.choice(_PREFIXES) + '%')} AND quantity > {rng.randrange(1, 80)}"
    if k == 3:
        day = sample_data.START_MILLIS + rng.randrange(30) * 86_400_000
        return f"JMSTimestamp BETWEEN {day} AND {day + rng.choice([1, 6, 24]) * 3_600_000 - 1}"
    if k == 4:
        return f"region LIKE {_q(rng.choice(['EU-', 'US-', 'APAC-']) + '%')} AND discount >= {rng.choice([0.1, 0.25, 0.4])}"
    return f"(tier = 'gold' OR urgent) AND color <> {_q(rng.choice(_COLORS))} AND weight BETWEEN {rng.randrange(1, 2000)} AND {rng.randrange(2000, 5000)}"


def noaccess_subscriptions(n: int, *, seed: int = 11) -> list:
    rng = random.Random(seed)
    return [(f"nx-{i:05d}", _noaccess_selector(rng)) for i in range(n)]


def subscriptions(n: int, *, seed: int = 11, invalid: "int | None" = None, fallback: int = 0) -> list:
    """``[(name, selector)]``: ``n`` subscriptions, ``invalid`` of them invalid (default n // 120,
    at least 1), ``fallback`` of them needing the vectorized fallback (activemq dialect only)."""
    rng = random.Random(seed)
    invalid = max(1, n // 120) if invalid is None else invalid
    if invalid + fallback > n:
        raise ValueError("more invalid and fallback subscriptions than subscriptions")
    sels = [_selector(rng) for _ in range(n - invalid - fallback)]
    for extra in [INVALID[i % len(INVALID)] for i in range(invalid)] + [_fallback_selector(rng) for _ in range(fallback)]:
        sels.insert(rng.randrange(len(sels) + 1), extra)
    return [(f"sub-{i:04d}", s) for i, s in enumerate(sels)]


# --------------------------------------------------------------------------------------------
# measurement helpers (also used by bench_udf)


def spark_cpu_reader(spark):
    """A function returning ``(jvm_cpu_s, python_cpu_s)`` used so far by this session's JVM and by
    its descendants (the Python workers, alive or reaped), or None where /proc cannot tell.

    On a shared, loaded machine the wall time grows with other people's load; CPU seconds much
    less so. A Python UDF's cost is split between the JVM (Arrow conversion) and the workers.
    """
    proc = getattr(getattr(spark.sparkContext, "_gateway", None), "proc", None)
    root = getattr(proc, "pid", None)
    if root is None or not os.path.exists(f"/proc/{root}/stat"):
        return None
    tick = os.sysconf("SC_CLK_TCK")

    def read():
        parent, cpu = {}, {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(d)] = int(fields[1])
            cpu[int(d)] = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        py = 0
        for pid, c in cpu.items():
            p = parent.get(pid)
            while p and p != root and p in parent:
                p = parent[p]
            if p == root:
                py += c
        return cpu.get(root, 0) / tick, py / tick

    return read


def timed_noop(df, cpu=None) -> dict:
    """Run ``df`` to the end into the noop sink: ``{"wall": s, "jvm": cpu s, "py": cpu s}``."""
    c0 = cpu() if cpu else None
    t = time.perf_counter()
    df.write.format("noop").mode("overwrite").save()
    wall = time.perf_counter() - t
    out = {"wall": round(wall, 4), "jvm": None, "py": None}
    if cpu:
        c1 = cpu()
        out["jvm"], out["py"] = round(c1[0] - c0[0], 2), round(c1[1] - c0[1], 2)
    return out


def med(runs, key="wall"):
    xs = [r[key] for r in runs if r.get(key) is not None]
    return round(statistics.median(xs), 4) if xs else None


def probe_parser(prog: str, doc: str, *, reps: int) -> argparse.ArgumentParser:
    """The options every one-off route probe takes (``--rows --reps --seed --data-dir
    --driver-memory``); the probe adds its own."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--reps", type=int, default=reps)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--driver-memory", default="4g")
    return ap


def probe_archive(args, spark, app: str) -> tuple:
    """``(spark, own, messages)``: the caller's session (``own`` False) or a new one, and the
    ``--rows`` archive of `probe_parser`'s options, read from its parquet."""
    own = spark is None
    spark = session(args.driver_memory, app) if own else spark
    path = bn.ensure_archive(spark, Path(args.data_dir), args.rows, args.seed, None)
    return spark, own, spark.read.parquet(str(path))


def session(driver_memory: str, app: str):
    """bench_native's local[2] session, with Spark's codegen-failure traces silenced (a
    projection too large to compile is an expected, reported outcome here, not an error)."""
    spark = bn._session(driver_memory, app)
    quiet_codegen_errors(spark)
    return spark


def quiet_codegen_errors(spark) -> None:
    """Silence Spark's multi-page "Failed to compile the generated Java code" traces."""
    try:
        jvm = spark._jvm
        level = jvm.org.apache.logging.log4j.Level.OFF
        for logger in ("org.apache.spark.sql.catalyst.expressions.codegen.CodeGenerator",
                       "org.apache.spark.sql.execution.WholeStageCodegenExec"):
            jvm.org.apache.logging.log4j.core.config.Configurator.setLevel(logger, level)
    except Exception:  # not log4j2: leave the logs as they are
        pass


def codegen_report(spark, plan) -> list:
    """Per whole-stage-codegen subtree of an executed plan: its first line, the generated source
    size and the largest compiled method (bytes of bytecode; None = did not compile)."""
    try:
        seq = spark._jvm.org.apache.spark.sql.execution.debug.package.codegenStringSeq(bn._unwrap(plan))
    except Exception as exc:  # py4j / Spark internals moved: report, do not fail the run
        return [{"error": f"{type(exc).__name__}: {exc}"[:200]}]
    out = []
    for i in range(seq.size()):
        t = seq.apply(i)
        size = int(t._3().maxMethodCodeSize())
        out.append({"subtree": t._1().strip().splitlines()[0][:100], "source_chars": len(t._2()),
                    "max_method_bytes": None if size < 0 else size})
    return out


def codegen_summary(report) -> str:
    parts = []
    for r in report:
        if "error" in r:
            parts.append("unknown")
        elif r["max_method_bytes"] is None:
            parts.append("did not compile (>64 KB): stage runs without whole-stage codegen")
        else:
            jit = "JIT-able" if r["max_method_bytes"] <= 8000 else "too big to JIT (>8000)"
            parts.append(f"max method {r['max_method_bytes']:,} B, {jit}")
    return "; ".join(parts)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage().splitlines()[0][:200])


# --------------------------------------------------------------------------------------------


def parser(prog: str = "bench_route", description: str = "") -> argparse.ArgumentParser:
    """The options of the routing benchmarks (`bench_route_scale` adds its own)."""
    ap = argparse.ArgumentParser(prog=prog, description=description or __doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000, help="messages in the archive (default 10,000,000)")
    ap.add_argument("--subs", type=int, default=1000, help="subscriptions (default 1,000)")
    ap.add_argument("--invalid", type=int, default=None, help="invalid subscriptions among them (default subs // 120)")
    ap.add_argument("--fallback", type=int, default=0,
                    help="subscriptions needing the vectorized fallback (routes in the activemq dialect; default 0)")
    ap.add_argument("--sample-passes", type=int, default=24,
                    help="separate jms_filter passes measured (k), extrapolated to all valid subscriptions (default 24)")
    ap.add_argument("--reps", type=int, default=3, help="timed rounds (default 3)")
    ap.add_argument("--seed", type=int, default=7, help="archive seed")
    ap.add_argument("--subs-seed", type=int, default=11, help="subscription generator seed")
    ap.add_argument("--files", type=int, default=None, help="Parquet files in the archive (default one per million rows)")
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--results", default=None, help="JSON output (default <data-dir>/results/route.json)")
    ap.add_argument("--huge-method-limit", type=int, default=None,
                    help="set spark.sql.codegen.hugeMethodLimit (default: Spark's own, 65535)")
    ap.add_argument("--driver-memory", default="12g")
    ap.add_argument("--matrix", action="store_true",
                    help="instead: the routing-plan matrix (indexed plan vs today's single-CASE plan, "
                         "growth, default vs tuned hugeMethodLimit, no access predicates); see `run_matrix`")
    ap.add_argument("--matrix-subs", default="10,30,100,300,1000", help="subscription counts of the matrix")
    ap.add_argument("--baseline-subs", default="100,1000", help="counts at which today's single-CASE plan runs too")
    ap.add_argument("--worst-subs", default="100,1000", help="counts of the no-access-predicate worst case")
    ap.add_argument("--floor-subs", default="",
                    help="counts (of --matrix-subs) at which the output rows alone are timed too: every message "
                         "exploded over a constant array of the estate's whole matches per message, no matching")
    ap.add_argument("--no-tuned", action="store_true", help="leave out the tuned (limit 8000) variants")
    ap.add_argument("--lambda-plan", action="store_true",
                    help="also the indexed plan with one lambda per template (not merged per index: before route_merge)")
    ap.add_argument("--equal-selectivity", action="store_true",
                    help="matrix: the realistic estate at each count is a subset of the largest one with the same "
                         "per-subscription selectivity distribution (see `equal_selectivity_estates`)")
    ap.add_argument("--equal-selectivity-of", type=int, default=None,
                    help="with --equal-selectivity: the estates are subsets of this many subscriptions' estate "
                         "(default: the largest count), so one count timed alone routes what a joint run would")
    ap.add_argument("--matching", action="store_true",
                    help="matrix: also time each variant's matching alone (its array of matching names per message, "
                         "no output rows), in the same rounds")
    return ap


def parse_args(argv):
    return parser().parse_args(argv)


def main(argv=None, spark=None) -> dict:
    """Run the benchmark; returns the results (also written as JSON). ``spark``: an existing
    session to use (not stopped); otherwise one is created and stopped at the end."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.reps < 1 or args.sample_passes < 1:
        raise SystemExit("--reps and --sample-passes must be >= 1")
    data_dir = Path(args.data_dir)
    results_path = Path(args.results) if args.results else data_dir / "results" / f"{NAME}.json"
    own = spark is None
    if own:
        spark = session(args.driver_memory, "jms-bench-route")
    old_limit = spark.conf.get("spark.sql.codegen.hugeMethodLimit", None)
    if args.huge_method_limit is not None:
        spark.conf.set("spark.sql.codegen.hugeMethodLimit", str(args.huge_method_limit))
    collect = _Collect()
    lib_log = logging.getLogger("jms_selector_spark")
    lib_log.addHandler(collect)
    old_level, old_propagate = lib_log.level, lib_log.propagate
    lib_log.setLevel(logging.WARNING)
    lib_log.propagate = False  # collected into the results instead of one caret rendering per invalid selector
    try:
        if args.matrix:
            return run_matrix(spark, args, data_dir, Path(args.results) if args.results else data_dir / "results" / "route_matrix.json")
        return _run(spark, args, data_dir, results_path, collect)
    finally:
        lib_log.removeHandler(collect)
        lib_log.setLevel(old_level)
        lib_log.propagate = old_propagate
        if args.huge_method_limit is not None:
            if old_limit is None:
                spark.conf.unset("spark.sql.codegen.hugeMethodLimit")
            else:
                spark.conf.set("spark.sql.codegen.hugeMethodLimit", old_limit)
        if own:
            spark.stop()


def _plan_route(messages, subs, mode, dialect) -> "tuple":
    """(DataFrame, planning seconds by phase) of one route call."""
    from jms_selector_spark.spark.routing import route

    t0 = time.perf_counter()
    df = route(messages, subs, mode=mode, dialect=dialect)
    t1 = time.perf_counter()
    qe = df._jdf.queryExecution()
    qe.optimizedPlan()
    t2 = time.perf_counter()
    qe.executedPlan()
    t3 = time.perf_counter()
    return df, {"route_call_s": round(t1 - t0, 3), "optimize_s": round(t2 - t1, 3), "physical_s": round(t3 - t2, 3)}


def _run(spark, args, data_dir: Path, results_path: Path, collect) -> dict:
    from pyspark.sql import functions as F

    data_dir.mkdir(parents=True, exist_ok=True)
    load_start = os.getloadavg()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    path = bn.ensure_archive(spark, data_dir, args.rows, args.seed, args.files)
    messages = spark.read.parquet(str(path))
    total = messages.count()
    dialect = "activemq" if args.fallback else "jms"
    subs = subscriptions(args.subs, seed=args.subs_seed, invalid=args.invalid, fallback=args.fallback)
    schema = messages.schema

    # classify (the way route does) and pick the separate passes to measure
    from jms_selector_spark import selector_to_sql

    kinds = {}
    for name, sel in subs:
        try:
            selector_to_sql(sel, schema, dialect=dialect)
            kinds[name] = "native"
        except UnsupportedSelectorError:
            kinds[name] = "fallback"
        except SelectorError:
            kinds[name] = "invalid"
    valid = [(n, s) for n, s in subs if kinds[n] != "invalid"]
    rng = random.Random(args.subs_seed + 1)
    sample = rng.sample(valid, min(args.sample_passes, len(valid)))
    print(f"{total:,} messages; {len(subs):,} subscriptions ({sum(k == 'native' for k in kinds.values())} native, "
          f"{sum(k == 'fallback' for k in kinds.values())} fallback, {sum(k == 'invalid' for k in kinds.values())} invalid), "
          f"dialect {dialect}; {len(sample)} separate passes sampled")

    cpu = spark_cpu_reader(spark)
    collect.records.clear()
    modes = {}
    for mode in ("topic", "queue"):
        df, planning = _plan_route(messages, subs, mode, dialect)
        print(f"[{mode}] planning: route() {planning['route_call_s']:.2f} s, optimizer {planning['optimize_s']:.2f} s, "
              f"physical {planning['physical_s']:.2f} s")
        cold = timed_noop(df, cpu)
        print(f"[{mode}] cold run (first execution, compiles the generated code): {cold['wall']:.1f} s")
        qe = df._jdf.queryExecution()
        rows_out = int(qe.toRdd().count())
        report = codegen_report(spark, qe.executedPlan())
        print(f"[{mode}] output rows {rows_out:,}; codegen: {codegen_summary(report)}")
        modes[mode] = {"df": df, "planning": planning, "cold": cold, "rows_out": rows_out, "codegen": report, "runs": []}
    warnings = list(dict.fromkeys(collect.records))
    if modes["queue"]["rows_out"] != total:
        raise AssertionError(f"queue mode delivered {modes['queue']['rows_out']:,} rows for {total:,} messages")

    # per-subscription counts of the topic output vs the sampled separate passes
    per_sub = {r["subscription"]: r["count"] for r in modes["topic"]["df"].groupBy("subscription").count().collect()}
    dead = per_sub.pop(None, 0)
    pairs = sum(per_sub.values())
    if pairs + dead != modes["topic"]["rows_out"]:
        raise AssertionError("topic output rows != matched pairs + dead letters")
    passes = []
    for name, sel in sample:
        n = jms_filter(messages, sel, dialect=dialect).count()
        if n != per_sub.get(name, 0):
            raise AssertionError(f"{name}: separate pass matched {n:,} rows, route gave it {per_sub.get(name, 0):,}")
        passes.append({"name": name, "selector": sel, "kind": kinds[name], "rows": n, "run": None})

    # timed rounds: topic, queue and a share of the separate passes, order alternating (ABBA)
    shares = [passes[i::args.reps] for i in range(args.reps)]
    for r in range(args.reps):
        steps = [("topic", None), ("queue", None), ("passes", shares[r])]
        if r % 2:
            steps.reverse()
        for kind, share in steps:
            if kind == "passes":
                for p in share:
                    df = jms_filter(messages, p["selector"], dialect=dialect).withColumn("subscription", F.lit(p["name"]))
                    p["run"] = timed_noop(df, cpu)
            else:
                modes[kind]["runs"].append(timed_noop(modes[kind]["df"], cpu))
        print(f"  round {r + 1}: topic {modes['topic']['runs'][-1]['wall']:.1f} s, queue {modes['queue']['runs'][-1]['wall']:.1f} s, "
              f"{len(shares[r])} passes {sum(p['run']['wall'] for p in shares[r]):.1f} s")

    pass_walls = [p["run"]["wall"] for p in passes]
    pass_cpu = [p["run"]["jvm"] + p["run"]["py"] for p in passes if p["run"]["jvm"] is not None]
    n_valid = len(valid)
    mean_pass = statistics.fmean(pass_walls)
    sd = statistics.stdev(pass_walls) if len(pass_walls) > 1 else 0.0
    extrap = mean_pass * n_valid
    extrap_ci = 1.96 * sd / max(len(pass_walls), 1) ** 0.5 * n_valid
    out_modes = {}
    for mode, m in modes.items():
        wall = med(m["runs"])
        cpu_med = None if m["runs"][0]["jvm"] is None else round(
            statistics.median(r["jvm"] + r["py"] for r in m["runs"]), 2)
        out_modes[mode] = {
            "planning": m["planning"], "cold_run": m["cold"], "runs": m["runs"], "median_s": wall,
            "cpu_median_s": cpu_med, "rows_out": m["rows_out"],
            "messages_per_s": round(total / wall), "output_rows_per_s": round(m["rows_out"] / wall),
            "codegen": m["codegen"], "codegen_summary": codegen_summary(m["codegen"]),
            "ratio_separate_over_route": round(extrap / wall, 2),
        }
    results = {
        "benchmark": NAME, "started_utc": started,
        "finished_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "rows_total": total, "data": str(path), "seed": args.seed, "reps": args.reps, "dialect": dialect,
        "subscriptions": len(subs), "valid": n_valid,
        "native": sum(k == "native" for k in kinds.values()), "fallback": sum(k == "fallback" for k in kinds.values()),
        "invalid": sum(k == "invalid" for k in kinds.values()),
        "matched_pairs": pairs, "dead_letters": dead, "fan_out": round(pairs / total, 2),
        "materialize": "write.format('noop'): every column of every output row (topic: one row per matched "
                       "pair + one per dead letter; queue: one per message; separate pass: its matching rows "
                       "+ a subscription column)",
        "order": "per mode: planning, one cold run, a count; then ABBA-interleaved rounds of topic, queue and "
                 "a share of the sampled separate passes",
        "hugeMethodLimit": spark.conf.get("spark.sql.codegen.hugeMethodLimit", None),
        "spark": spark.version, "python": platform.python_version(), "cpus": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in load_start], "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        "modes": out_modes,
        "separate_passes": {
            "measured": len(passes), "of_valid": n_valid, "passes": passes,
            "mean_s": round(mean_pass, 4), "median_s": round(statistics.median(pass_walls), 4),
            "min_s": round(min(pass_walls), 4), "max_s": round(max(pass_walls), 4), "stdev_s": round(sd, 4),
            "cpu_mean_s": round(statistics.fmean(pass_cpu), 3) if pass_cpu else None,
            "extrapolated_total_s": round(extrap, 1), "extrapolated_95ci_s": round(extrap_ci, 1),
            "extrapolation": f"linear: mean of {len(passes)} measured passes x {n_valid} valid subscriptions",
            "rows_checked_against_route": True,
        },
        "library_warnings": warnings,
    }
    return bn.publish(results, results_path, table, summary_lines)


def table(res) -> str:
    sp = res["separate_passes"]
    lines = [
        f"routing: {res['subscriptions']:,} subscriptions ({res['native']} native, {res['fallback']} fallback, "
        f"{res['invalid']} invalid; dialect {res['dialect']}) over {res['rows_total']:,} messages; fan-out "
        f"{res['fan_out']} matches/message ({res['matched_pairs']:,} pairs, {res['dead_letters']:,} dead letters)",
        f"median wall of {res['reps']} ABBA-interleaved runs, noop sink (all columns of every output row); "
        f"hugeMethodLimit={res['hugeMethodLimit'] or 'Spark default'}",
    ]
    head = (f"{'pass':34} {'median s':>9} {'cpu s':>8} {'cold s':>7} {'msgs/s':>11} {'out rows':>13} "
            f"{'out rows/s':>11} {'plan s':>7}")
    lines += [head, "-" * len(head)]
    for mode, m in res["modes"].items():
        p = m["planning"]
        lines.append(f"{'route(mode=' + repr(mode) + ')':34} {m['median_s']:>9.2f} {m['cpu_median_s'] or 0:>8.1f} "
                     f"{m['cold_run']['wall']:>7.1f} {m['messages_per_s']:>11,} {m['rows_out']:>13,} "
                     f"{m['output_rows_per_s']:>11,} {p['route_call_s'] + p['optimize_s'] + p['physical_s']:>7.2f}")
    lines.append(f"{'1 separate jms_filter pass (mean)':34} {sp['mean_s']:>9.2f} {sp['cpu_mean_s'] or 0:>8.1f}")
    lines.append(f"{'all ' + str(sp['of_valid']) + ' separate passes (EXTRAP.)':34} {sp['extrapolated_total_s']:>9.0f}"
                 f"   <- extrapolated from {sp['measured']} measured passes (mean {sp['mean_s']:.2f} s, median "
                 f"{sp['median_s']:.2f}, min {sp['min_s']:.2f}, max {sp['max_s']:.2f}, sd {sp['stdev_s']:.2f}; "
                 f"95% CI +/- {sp['extrapolated_95ci_s']:.0f} s)")
    for mode, m in res["modes"].items():
        lines.append(f"ratio {sp['of_valid']} separate passes (extrapolated) / one route({mode}) pass: "
                     f"{m['ratio_separate_over_route']:.1f}x")
    for mode, m in res["modes"].items():
        p = m["planning"]
        lines.append(f"planning {mode}: route() call {p['route_call_s']:.2f} s (translation + DataFrame, analysed), "
                     f"optimizer {p['optimize_s']:.2f} s, physical {p['physical_s']:.2f} s; codegen: {m['codegen_summary']}")
    lines.append(f"load average {res['loadavg_start'][0]} -> {res['loadavg_end'][0]} on {res['cpus']} CPUs")
    return "\n".join(lines)


def summary_lines(res) -> list:
    sp = res["separate_passes"]
    t, q = res["modes"]["topic"], res["modes"]["queue"]
    return [
        f"{res['subscriptions']:,} subscriptions x {res['rows_total']:,} messages: topic {t['median_s']:.1f} s "
        f"({t['messages_per_s']:,} msgs/s, {t['output_rows_per_s']:,} out rows/s), queue {q['median_s']:.1f} s "
        f"({q['messages_per_s']:,} msgs/s)",
        f"{sp['of_valid']} separate passes: {sp['extrapolated_total_s']:.0f} s EXTRAPOLATED from {sp['measured']} "
        f"measured (mean {sp['mean_s']:.2f} s, sd {sp['stdev_s']:.2f}); ratio vs one pass: topic "
        f"{t['ratio_separate_over_route']:.1f}x, queue {q['ratio_separate_over_route']:.1f}x",
        f"planning: topic {sum(t['planning'].values()):.2f} s, queue {sum(q['planning'].values()):.2f} s; "
        f"codegen: {t['codegen_summary']}",
    ]


# --------------------------------------------------------------------------------------------
# the routing plan (predicate index + JIT-sized code) against today's single CASE

_LIMIT = "spark.sql.codegen.hugeMethodLimit"


def _split_subs(subs, schema, dialect):
    """``(native, fallback)``: ``[(subscription, Compiled)]``, planned as `route` plans them (each
    distinct selector compiled once, `spark.routing.estate`); invalid ones are left out."""
    from jms_selector_spark.binder import Binding
    from jms_selector_spark.language.schema import to_schema
    from jms_selector_spark.spark.routing import Subscription
    from jms_selector_spark.spark.routing.estate import plan_estate

    native, fallback, _ = plan_estate([Subscription(name, sel) for name, sel in subs], to_schema(schema), dialect,
                                      Binding())
    return native, fallback


def routed_df(messages, subs, plan: str, dialect: str = "jms", *, output: bool = True, names_per_message: int = 0,
              tuning=None):
    """Topic-mode routing of ``messages`` (one row per matched pair, one per dead letter) with the
    matching names computed by ``plan``: "indexed" (`spark.routing.columns.tag_matches`, what
    `route` uses) or "baseline" (the single-CASE plan: one CASE per subscription in one array).
    ``output=False``: the matching alone, one row per message holding only its array of matching
    names (the columns the selectors read are scanned; no output row per matched pair).
    "floor": no matching at all, every message exploded over a constant array of
    ``names_per_message`` of the subscriptions' names: what writing about as many output rows
    costs by itself (`floor_df`). ``tuning``: the indexed plans' `RoutingTuning` (default: route's)."""
    from pyspark.sql import functions as F

    from jms_selector_spark.language.dialects import get_dialect
    from jms_selector_spark.spark.routing.columns import tag_matches
    from jms_selector_spark.spark.routing.tuning import DEFAULT
    from single_case import single_case_sql

    if plan == "floor":
        return floor_df(messages, subs, names_per_message, output=output)
    d = get_dialect(dialect)
    native, fallback = _split_subs(subs, messages.schema, d)
    cols = [F.col("`" + c.replace("`", "``") + "`") for c in messages.columns]
    if plan in ("indexed", "indexed-lambda"):  # what route does (fallback: only the messages passing their gate)
        # "indexed-lambda": one lambda per template, not merged per index (tuning feature "merge" off);
        # unsorted, as `route`'s topic mode takes them (the baseline sorts, as `route` did)
        tuning = tuning or DEFAULT
        tuning = tuning.without("merge") if plan == "indexed-lambda" else tuning
        tagged = tag_matches(messages, native, fallback, column="__m", sort=False, tuning=tuning)
        return tagged.select(*cols, F.explode_outer("__m").alias("subscription")) if output else tagged.select("__m")
    if plan == "baseline":
        if fallback:
            raise ValueError("the baseline here routes native subscriptions only")
        col = F.sort_array(F.expr(single_case_sql({s.name: c.whole.sql for s, c in native})))
    else:
        raise ValueError(plan)
    tagged = messages.withColumn("__m", col)
    return tagged.select(*cols, F.explode_outer("__m").alias("subscription")) if output else tagged.select("__m")


def floor_df(messages, subs, k: int, *, output: bool = True):
    """The output's own cost: every message with every column, exploded over a constant array of
    ``k`` subscription names (no selector is evaluated). With ``k`` the whole matches per message
    of an estate, rounded down, it writes no more rows than the estate's topic pass (at most one
    fewer per message), so its time is a lower bound on what that pass spends outside the
    matching. ``output=False``: the array alone, one row per message."""
    from pyspark.sql import functions as F

    names = F.array(*[F.lit(nm) for nm, _ in subs[:k]]).cast("array<string>")
    tagged = messages.withColumn("__m", names)
    if not output:
        return tagged.select("__m")
    cols = [F.col("`" + c.replace("`", "``") + "`") for c in messages.columns]
    return tagged.select(*cols, F.explode_outer("__m").alias("subscription"))


def _static_codegen(spark, messages, subs, plan, names_per_message: int = 0):
    """`codegen_report` of the plan without adaptive execution (whose plan is final only once run)."""
    old = spark.conf.get("spark.sql.adaptive.enabled", None)
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        df = routed_df(messages, subs, plan, names_per_message=names_per_message)
        return codegen_report(spark, df._jdf.queryExecution().executedPlan())
    finally:
        spark.conf.set("spark.sql.adaptive.enabled", old if old is not None else "true")


def _fingerprint(df):
    """(rows, order-independent checksum of (JMSMessageID, subscription))."""
    from pyspark.sql import functions as F

    r = df.select(F.count(F.lit(1)).alias("n"),
                  F.sum(F.xxhash64("JMSMessageID", "subscription").cast("decimal(38,0)")).alias("h")).first()
    return int(r["n"]), str(r["h"])


def _with_limit(spark, limit, fn):
    old = spark.conf.get(_LIMIT, None)
    if limit is not None:
        spark.conf.set(_LIMIT, str(limit))
    try:
        return fn()
    finally:
        if limit is not None:
            if old is None:
                spark.conf.unset(_LIMIT)
            else:
                spark.conf.set(_LIMIT, old)


def equal_selectivity_estates(messages, counts, *, seed: int = 11, sample_rows: int = 200_000,
                              largest: "int | None" = None) -> tuple:
    """``({n: [(name, selector)]}, {n: mean matched share per subscription})``: realistic estates
    of ``counts`` subscriptions with the same per-subscription selectivity.

    `subscriptions` draws every estate from one random stream (the estate of n is the first n of
    the largest), so the mean share of messages a subscription matches is equal only in
    expectation: on the 200,000-message archive it is 0.0243 at 10, 0.0199 at 30, 0.0175 at 100,
    0.0182 at 300 and 0.0178 at 1,000 subscriptions. Here the largest estate's selectivities are
    measured once (`routed_df`, topic: matches per subscription over a seeded sample of at most
    ``sample_rows`` messages), its subscriptions are sorted by them, and the estate of n takes the
    n quantile midpoints (positions ``(i + 0.5) * N / n``), so every count has the largest
    estate's selectivity distribution (not its exact mix of selector forms: 10 subscriptions
    cannot hold the generator's 22 forms). The largest count is the whole estate; ``largest``: the
    size of the whole estate if larger than every count (a process timing 100 alone gets the
    100 of a joint 100 / 1,000 run, `bench_growth`)."""
    from pyspark.sql import functions as F

    big = subscriptions(max([*counts, largest or 0]), seed=seed, invalid=0)
    total = messages.count()
    sample = messages if total <= sample_rows else messages.sample(fraction=sample_rows / total, seed=seed)
    rows = sample.count()
    got = (routed_df(sample, big, "indexed").where("subscription IS NOT NULL").groupBy("subscription")
           .agg(F.count(F.lit(1)).alias("c")).collect())
    share = dict.fromkeys((nm for nm, _ in big), 0.0)
    share.update({r["subscription"]: r["c"] / rows for r in got})
    ranked = sorted(big, key=lambda sub: (share[sub[0]], sub[0]))
    estates, means = {}, {}
    for n in counts:
        estates[n] = big if n == len(big) else [ranked[int((i + 0.5) * len(big) / n)] for i in range(n)]
        means[n] = round(statistics.mean(share[nm] for nm, _ in estates[n]), 5)
    print(f"equal-selectivity estates ({rows:,} sampled messages): mean matched share per subscription "
          + ", ".join(f"{n}: {v:.5f}" for n, v in means.items()), flush=True)
    return estates, means


def run_matrix(spark, args, data_dir: Path, results_path: Path) -> dict:
    """Variants (kind, subscriptions, plan, hugeMethodLimit): "realistic" subscriptions (the
    generator above: most start with an equality / IN) at every ``--matrix-subs`` with the indexed
    plan under default settings and tuned (limit 8000); today's plan (default settings) at
    ``--baseline-subs``; subscriptions with no access predicate at ``--worst-subs``, both plans.
    One cold run each (compiles; its output fingerprint is checked: the same rows as the baseline
    of the same subscriptions), then ``--reps`` ABBA-interleaved rounds of all variants. Figures:
    median wall and JVM+Python CPU seconds. ``--equal-selectivity``: the realistic estates of
    every count have the same per-subscription selectivity (`equal_selectivity_estates`), for the
    growth target (10 -> 100 -> 1,000 at equal selectivity). ``--matching``: every variant is also
    run as the matching alone (`routed_df` with ``output=False``: each message's array of matching
    names, no output row per matched pair) in the same rounds, right after its full pass: how much
    of a full pass is matching and how much is writing the output rows, which grow with the
    matches whatever the plan."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = bn.ensure_archive(spark, data_dir, args.rows, args.seed, args.files)
    messages = spark.read.parquet(str(path))
    total = messages.count()
    cpu = spark_cpu_reader(spark)
    ints = lambda text: [int(x) for x in text.split(",") if x]  # noqa: E731
    variants = []
    for n in ints(args.matrix_subs):
        variants += [("realistic", n, "indexed", None)] + ([] if args.no_tuned else [("realistic", n, "indexed", 8000)])
        variants += [("realistic", n, "indexed-lambda", None)] if args.lambda_plan else []
        if n in ints(args.baseline_subs):
            variants.append(("realistic", n, "baseline", None))
    for n in ints(args.floor_subs):  # after the estate's other plans: its row count sizes the floor
        variants.append(("realistic", n, "floor", None))
    for n in ints(args.worst_subs):
        variants += [("no-access", n, "indexed", None), ("no-access", n, "baseline", None)]
    gens = {"realistic": lambda n: subscriptions(n, seed=args.subs_seed, invalid=0),
            "no-access": lambda n: noaccess_subscriptions(n, seed=args.subs_seed)}
    shares = None
    if args.equal_selectivity:
        counts = sorted({n for kind, n, _, _ in variants if kind == "realistic"})
        estates, shares = equal_selectivity_estates(messages, counts, seed=args.subs_seed,
                                                    largest=args.equal_selectivity_of)
        gens["realistic"] = estates.__getitem__
    res = {}
    fingerprints = {}
    load_start = [round(x, 2) for x in os.getloadavg()]
    per_message = {}  # floor variant -> names per message (the estate's output rows // messages, rounded down)
    for v in variants:
        kind, n, plan, limit = v
        subs = gens[kind](n)
        key = (kind, n)
        if plan == "floor":
            if key not in fingerprints:
                raise ValueError(f"--floor-subs {n}: the floor needs a plan of the same estate (--matrix-subs {n})")
            per_message[v] = fingerprints[key][0] // total
        k = per_message.get(v, 0)
        t = time.perf_counter()
        df = routed_df(messages, subs, plan, names_per_message=k)
        df._jdf.queryExecution().executedPlan()
        plan_s = time.perf_counter() - t
        cold = _with_limit(spark, limit, lambda: timed_noop(df, cpu))
        if args.matching and plan != "floor":  # compiled and warmed like the full pass (untimed)
            _with_limit(spark, limit, lambda: timed_noop(
                routed_df(messages, subs, plan, output=False, names_per_message=k), cpu))
        fp = _with_limit(spark, limit, lambda: _fingerprint(df))
        report = _with_limit(spark, limit, lambda: _static_codegen(spark, messages, subs, plan, k))
        if plan == "floor":  # other rows by design: at most the estate's, one fewer per message at most
            if not (fingerprints[key][0] - total <= fp[0] <= fingerprints[key][0]):
                raise AssertionError(f"floor {n}: {fp[0]:,} rows against the estate's {fingerprints[key][0]:,}")
        elif key in fingerprints and fingerprints[key] != fp:
            raise AssertionError(f"{kind} x {n}: {plan} limit={limit} gave {fp}, another plan gave {fingerprints[key]}")
        else:
            fingerprints[key] = fp
        from jms_selector_spark.language.dialects import get_dialect
        from jms_selector_spark.spark.routing.columns import numeric_columns, template_plan
        from jms_selector_spark.spark.routing.explain import candidates_per_message
        from jms_selector_spark.spark.routing.index import plan_routing
        from jms_selector_spark.spark.routing.tuning import DEFAULT

        native, fallback = _split_subs(subs, messages.schema, get_dialect("jms"))
        tuning = DEFAULT if plan.startswith("indexed") else DEFAULT.without("index")
        tp = template_plan(native, messages.schema, tuning)
        rp = plan_routing(list(tp.rest) if tp else native, fallback, tuning)
        evaluated = (0 if plan == "floor" else round(rp.estimated_evaluated() + (
            candidates_per_message(tp, numeric_columns(messages.schema)) if tp else 0), 2))
        res[v] = {"plan_s": round(plan_s, 3), "cold": cold, "rows_out": fp[0], "runs": [], "match_runs": [],
                  "codegen": codegen_summary(report), "groups": 0 if plan == "floor" else len(rp.groups),
                  "templates": sum(len(a.templates) for a in tp.accesses) if tp else 0,
                  "templated": len(tp.names) if tp else 0, "evaluated_per_message": evaluated}
        print(f"{kind:9} {n:>6} {plan:8} limit={limit or 'default':7} plan {plan_s:6.2f} s, cold {cold['wall']:7.2f} s, "
              f"rows {fp[0]:,}; {res[v]['templated']} subs in {res[v]['templates']} templates; ~{evaluated} evaluated/msg; "
              f"codegen: {res[v]['codegen']}; load {os.getloadavg()[0]:.1f}", flush=True)
    for r in range(args.reps):
        order = variants if r % 2 == 0 else variants[::-1]
        for v in order:
            kind, n, plan, limit = v
            k = per_message.get(v, 0)
            df = routed_df(messages, gens[kind](n), plan, names_per_message=k)
            res[v]["runs"].append(_with_limit(spark, limit, lambda: timed_noop(df, cpu)))
            if args.matching and plan != "floor":  # the floor matches nothing
                alone = routed_df(messages, gens[kind](n), plan, output=False, names_per_message=k)
                res[v]["match_runs"].append(_with_limit(spark, limit, lambda: timed_noop(alone, cpu)))
        print(f"  round {r + 1} done; load {os.getloadavg()[0]:.1f}", flush=True)
    rows = []
    cpu_med = lambda runs: (round(statistics.median(x["jvm"] + x["py"] for x in runs), 2)  # noqa: E731
                            if runs and runs[0]["jvm"] is not None else None)
    for v, m in res.items():
        kind, n, plan, limit = v
        rows.append({"kind": kind, "subs": n, "plan": plan, "hugeMethodLimit": limit, "median_s": med(m["runs"]),
                     "cpu_median_s": cpu_med(m["runs"]),
                     "match_median_s": med(m["match_runs"]), "match_cpu_median_s": cpu_med(m["match_runs"]),
                     **{k: m[k] for k in ("plan_s", "rows_out", "codegen", "groups", "templates", "templated",
                                          "evaluated_per_message")},
                     "cold_s": m["cold"]["wall"], "runs": m["runs"], "match_runs": m["match_runs"]})
    results = {"benchmark": "route_matrix", "rows_total": total, "reps": args.reps, "spark": spark.version,
               "cpus": os.cpu_count(), "processor": bn.processor(), "loadavg_start": load_start,
               "loadavg_end": [round(x, 2) for x in os.getloadavg()],
               "variants": rows, "equal_selectivity": shares,
               "ratios": _matrix_ratios(rows), "outputs_equal": True}
    return bn.publish(results, results_path, matrix_table,
                      lambda r: [x for x in matrix_table(r).splitlines() if x.startswith(("load", "ratios", "  "))])


def _matrix_ratios(rows) -> list:
    get = {(r["kind"], r["subs"], r["plan"], r["hugeMethodLimit"]): r for r in rows}
    out = []

    def ratio(label, a, b, twin=True):
        if a in get and b in get:
            ra, rb = get[a], get[b]
            out.append({"what": label, "wall": round(ra["median_s"] / rb["median_s"], 2),
                        "cpu": (round(ra["cpu_median_s"] / rb["cpu_median_s"], 2) if ra["cpu_median_s"] and rb["cpu_median_s"] else None)})
            if twin and ra.get("match_median_s") and rb.get("match_median_s"):  # --matching
                wall, c = ra["match_median_s"] / rb["match_median_s"], (ra["match_cpu_median_s"], rb["match_cpu_median_s"])
                out.append({"what": label + " (matching alone)", "wall": round(wall, 2),
                            "cpu": round(c[0] / c[1], 2) if all(c) else None})

    ns = sorted({r["subs"] for r in rows if r["kind"] == "realistic"})
    for n in ns:
        ratio(f"default / tuned (limit 8000), indexed, {n} subs", ("realistic", n, "indexed", None), ("realistic", n, "indexed", 8000))
    for n in ns:
        ratio(f"today's single CASE / indexed (default settings), {n} subs", ("realistic", n, "baseline", None), ("realistic", n, "indexed", None))
    for r in rows:
        if r["plan"] == "indexed-lambda":
            ratio(f"{r['plan']} / indexed, {r['subs']} subs", (r["kind"], r["subs"], r["plan"], None), (r["kind"], r["subs"], "indexed", None))
    ratio("growth: indexed 1000 / 100 subs", ("realistic", 1000, "indexed", None), ("realistic", 100, "indexed", None))
    # the output rows alone at 1,000 against the whole pass at 100: at or above the growth target's
    # 2.5, no matching however cheap brings the whole pass's growth under it
    ratio("growth floor: output rows alone at 1000 (no matching) / indexed 100 subs", ("realistic", 1000, "floor", None),
          ("realistic", 100, "indexed", None), twin=False)
    for n in ns:
        ratio(f"output rows alone (floor) / indexed whole pass, {n} subs", ("realistic", n, "floor", None),
              ("realistic", n, "indexed", None), twin=False)
    ratio("growth: indexed 100 / 10 subs", ("realistic", 100, "indexed", None), ("realistic", 10, "indexed", None))
    for n in sorted({r["subs"] for r in rows if r["kind"] == "no-access"}):
        ratio(f"no access predicates: indexed / today's, {n} subs", ("no-access", n, "indexed", None), ("no-access", n, "baseline", None))
    return out


def _fmt(x, width: int, digits: int) -> str:
    return f"{x:>{width}.{digits}f}" if x is not None else f"{'-':>{width}}"


def matrix_table(res) -> str:
    lines = [f"routing plans over {res['rows_total']:,} messages (topic: one row per matched pair + dead letters; noop sink); "
             f"medians of {res['reps']} ABBA-interleaved rounds; cpu = JVM + Python CPU s",
             f"{'subscriptions':24} {'plan':9} {'limit':>7} {'wall s':>8} {'cpu s':>7} {'cold s':>7} {'plan s':>7} "
             f"{'groups':>6} {'tmpl':>5} {'eval/msg':>8} {'out rows':>12} {'match s':>7} {'cpu s':>6}  codegen"]
    for r in res["variants"]:
        lines.append(f"{r['kind'] + ' ' + str(r['subs']):24} {r['plan']:9} {str(r['hugeMethodLimit'] or 'default'):>7} "
                     f"{r['median_s']:>8.2f} {r['cpu_median_s'] or 0:>7.1f} {r['cold_s']:>7.2f} {r['plan_s']:>7.2f} "
                     f"{r['groups']:>6} {r.get('templates', 0):>5} {r['evaluated_per_message']:>8} {r['rows_out']:>12,} "
                     f"{_fmt(r.get('match_median_s'), 7, 2)} {_fmt(r.get('match_cpu_median_s'), 6, 1)}  {r['codegen'][:60]}")
    if res.get("equal_selectivity"):
        lines.append("realistic estates of equal per-subscription selectivity (--equal-selectivity); mean matched share "
                     "per subscription: " + ", ".join(f"{n}: {v:.5f}" for n, v in res["equal_selectivity"].items()))
    if any(r.get("match_median_s") for r in res["variants"]):
        lines.append("match s, cpu s: the matching alone (--matching: each message's array of matching names, no "
                     "output rows), wall and CPU medians of the same rounds")
    lines.append(f"load average {res.get('loadavg_start', ['?'])[0]} -> {res['loadavg_end'][0]} on {res['cpus']} CPUs"
                 + (f": {res['processor']}" if res.get("processor") else ""))
    lines.append("ratios (wall; cpu):")
    for q in res["ratios"]:
        lines.append(f"  {q['what']}: {q['wall']:.2f}x; {q['cpu'] if q['cpu'] is not None else '-'}x")
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
