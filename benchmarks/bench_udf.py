"""Vectorized (Python UDF) path benchmark: ``jms_match`` against native SQL, a hand-written
``arrow_udf`` and a row-at-a-time ``@udf`` of the same predicate, on the same Parquet table.

    python benchmarks/bench_udf.py                                  # 10M rows, 5 rounds
    python benchmarks/bench_udf.py --rows 200000 --reps 2 --xjoin-rows 20000   # small

Sections (``--only`` picks some):

``simple`` / ``complex``
    One selector each — ``JMSType = 'car' AND color = 'blue' AND weight > 2500``, and one with LIKE,
    BETWEEN, IN, arithmetic, OR and NOT over six columns — run seven ways over the same archive:

    (a) ``native``: ``jms_filter(df, selector)`` (the SQL fragment; Parquet pushdown);
    (b) ``jms_match_api``: our vectorized path forced for the whole selector,
        ``match_udf()(F.lit(selector), source_struct(selector_columns(...)))``, and
        ``jms_match_sql``: ``spark.sql("... WHERE jms_match('<selector>', struct(<columns>))")``;
        both send the selector text with every row (a UDF argument is a column, even a literal);
        ``fallback_udf``: the UDF `jms_filter` uses for what does not translate natively
        (`piece_udf`: the selector compiled once, in the closure), forced for the whole
        selector, and ``fallback_sql``: the same from ``spark.sql`` — the SQL function
        `register_selector` creates for a selector with no native form (``WHERE f(struct(*))``,
        its body calling the closure UDF on the fields it reads), forced for the whole selector;
        ``register_selector``: what `register_selector` really creates for this selector (the
        native fragment; no Python);
    (c) ``arrow_udf``: a hand-written ``@arrow_udf`` of the same predicate (pyarrow.compute, Kleene
        logic) taking the same columns as arguments — the transfer-bound limit — and
        ``arrow_udf_struct``: the same function reading the same ``struct(<columns>)`` that
        ``jms_match`` receives (isolates what the struct itself costs);
    (d) ``row_udf``: a row-at-a-time ``@udf`` (Spark 4.3's default: Arrow-serialized, the function
        called once per row) and ``row_udf_pickled``: the classic pickled one (``useArrow=False``).

    Fairness: every variant is ``df.where(<predicate>)`` on the same DataFrame, Python variants
    get exactly the columns the selector reads, every run goes to the same noop sink
    (``write.format("noop")``: every column of every matching row). Each plan is first executed
    once through its own QueryExecution to count the matching rows (asserted equal for all
    variants) and to read the Python node's metrics (rows sent to Python); that run is the
    warm-up. Then ``--reps`` rounds, the order of the variants reversed every other round.

``hybrid``
    ActiveMQ ``JMSType = 'car' AND color = 'blue' AND SPLIT(customer, ' ') IS NOT NULL``: the
    hybrid ``jms_filter`` (native conjuncts pushed down, the UDF on the survivors only), the same
    from ``spark.sql`` through the function `register_selector` creates, the same selector forced
    through ``jms_match`` (every row to Python; equal counts asserted), and the native part alone
    (a floor, its own count). Reports the rows that reached the UDF.

``xjoin``
    100 subscriptions (realistic selectors, a few invalid) × ``--xjoin-rows`` messages (default
    1M) through the per-row path: ``subs CROSS JOIN messages WHERE jms_match(s.selector,
    struct(<union of referenced columns>))`` (subscriptions broadcast: each Arrow batch holds 100
    messages × 100 interleaved selectors) against ``route(messages, subs, mode="topic")`` on the
    same data (one scan, each selector a native CASE), whose non-dead-letter rows must be the
    same pairs (count asserted). ``route`` is timed with Spark's default
    ``spark.sql.codegen.hugeMethodLimit`` and with 8000 (see `routing.route`).

``match_batch``
    `match_batch` called directly on Arrow batches shaped like those Spark sends (10,000 rows from
    the archive): 100 interleaved distinct selectors (the cross-join shape), one simple and one
    complex literal selector; median ms per batch and, for the interleaved shape, a cProfile
    breakdown of where the time goes (by module).

Figures: medians (wall) and the CPU seconds of the JVM and of the Python workers; ratios as
throughput (the slower median over the faster one, so > 1 means "faster"). JSON in
``bench-data/results/udf.json``.
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import logging
import os
import platform
import pstats
import statistics
import sys
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

from jms_selector_spark import SelectorError, jms_filter  # noqa: E402
from jms_selector_spark.spark.sql_functions import register, selector_columns  # noqa: E402

NAME = "udf"
TARGET_VS_ARROW = 0.8    # (b) throughput >= 0.8x the hand-written arrow_udf
TARGET_VS_ROW = 2.0      # (b) throughput >= 2x the row UDF (complex selector)

SIMPLE = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
COMPLEX = ("(region IN ('EU-West', 'EU-North', 'US-East') OR customer LIKE 'O''%') AND price BETWEEN 10 AND 500 "
           "AND quantity * price > 100 AND NOT (color = 'red') AND JMSPriority >= 4")
HYBRID = "JMSType = 'car' AND color = 'blue' AND SPLIT(customer, ' ') IS NOT NULL"
HYBRID_NATIVE_PART = "JMSType = 'car' AND color = 'blue'"
SECTIONS = ("simple", "complex", "hybrid", "xjoin", "match_batch")


# --------------------------------------------------------------------------------------------
# the hand-written predicates (defined in a factory: cloudpickle ships closures by value)


def hand_written():
    """{selector: (columns in argument order, arrow function, row function)} — what a competent
    engineer would write for each selector, with the same result in a WHERE clause."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def simple_arrow(jms_type, color, weight):
        return pc.and_kleene(pc.and_kleene(pc.equal(jms_type, "car"), pc.equal(color, "blue")),
                             pc.greater(weight, 2500))

    def simple_row(jms_type, color, weight):
        return jms_type == "car" and color == "blue" and weight is not None and weight > 2500

    regions = pa.array(["EU-West", "EU-North", "US-East"])

    def complex_arrow(region, customer, price, quantity, color, priority):
        where = pc.or_kleene(pc.is_in(region, value_set=regions), pc.starts_with(customer, "O'"))
        in_range = pc.and_kleene(pc.greater_equal(price, 10.0), pc.less_equal(price, 500.0))
        amount = pc.greater(pc.multiply(quantity, price), 100.0)
        return pc.and_kleene(pc.and_kleene(pc.and_kleene(where, in_range), pc.and_kleene(amount, pc.not_equal(color, "red"))),
                             pc.greater_equal(priority, 4))

    region_set = frozenset(regions.to_pylist())

    def complex_row(region, customer, price, quantity, color, priority):
        if price is None or quantity is None or color is None or priority is None:
            return False
        return ((region in region_set or (customer is not None and customer.startswith("O'")))
                and 10.0 <= price <= 500.0 and quantity * price > 100.0 and color != "red" and priority >= 4)

    return {
        SIMPLE: (["JMSType", "color", "weight"], simple_arrow, simple_row),
        COMPLEX: (["region", "customer", "price", "quantity", "color", "JMSPriority"], complex_arrow, complex_row),
    }


def _sql_literal(text: str) -> str:
    """A selector as the SQL string literal a user would type (quotes doubled)."""
    if "\\" in text or "${" in text:
        raise ValueError("keep backslashes and ${ out of benchmark selectors (SQL escapes / substitution)")
    return "'" + text.replace("'", "''") + "'"


def _cols_sql(columns, qualifier="") -> str:
    return ", ".join(f"{qualifier}`{c}`" for c in columns)


def selector_variants(spark, df, view: str, label: str, selector: str) -> dict:
    """{variant name: DataFrame} for one selector (see the module docstring)."""
    from pyspark.sql import functions as F
    from pyspark.sql.functions import arrow_udf, udf

    from jms_selector_spark import compile_selector, register_selector
    from jms_selector_spark.backends.udf import match_udf, piece_udf, source_args, source_struct
    from jms_selector_spark.spark.sql_functions import create_function

    cols = selector_columns(selector, df.schema)
    whole = compile_selector(selector, df.schema)
    fallback_fn, fallback_cols = piece_udf(whole.piece(whole.core))
    assert fallback_cols == cols, (fallback_cols, cols)
    hand_cols, arrow_fn, row_fn = hand_written()[selector]
    assert sorted(hand_cols) == sorted(cols), (hand_cols, cols)
    arrow_pred = arrow_udf(arrow_fn, "boolean")

    def struct_fn(message):
        return arrow_fn(*[message.field(c) for c in hand_cols])

    arrow_struct = arrow_udf(struct_fn, "boolean")
    row_pred = udf(row_fn, "boolean")                          # Spark 4.3 default: Arrow-serialized
    row_pickled = udf(row_fn, "boolean", useArrow=False)       # the classic pickled row UDF
    register_selector(spark, f"bench_{label}", selector, view)
    # the whole selector as one fallback piece, as for a selector with no native form
    create_function(spark, f"bench_{label}_fallback", compile_selector(selector, df.schema, qualifier=("message",)),
                    df.schema, whole_fallback=True)
    return {
        "native": jms_filter(df, selector),
        "jms_match_api": df.where(match_udf()(F.lit(selector), source_struct(cols))),
        "jms_match_sql": spark.sql(f"SELECT * FROM {view} WHERE jms_match({_sql_literal(selector)}, "
                                   f"struct({_cols_sql(cols)}))"),
        "fallback_udf": df.where(fallback_fn(*source_args(cols))),
        "fallback_sql": spark.sql(f"SELECT * FROM {view} WHERE bench_{label}_fallback(struct(*))"),
        "register_selector": spark.sql(f"SELECT * FROM {view} WHERE bench_{label}(struct(*))"),
        "arrow_udf": df.where(arrow_pred(*[F.col(c) for c in hand_cols])),
        "arrow_udf_struct": df.where(arrow_struct(source_struct(cols))),
        "row_udf": df.where(row_pred(*[F.col(c) for c in hand_cols])),
        "row_udf_pickled": df.where(row_pickled(*[F.col(c) for c in hand_cols])),
    }


# --------------------------------------------------------------------------------------------
# running and inspecting


def _metrics(node) -> dict:
    out, it = {}, node.metrics().iterator()
    while it.hasNext():
        kv = it.next()
        out[kv._1()] = int(kv._2().value())
    return out


def all_nodes(plan) -> list:
    """Every node of an executed physical plan, through adaptive plans and query stages."""
    found, todo = [], [plan]
    while todo:
        node = todo.pop()
        kind = node.getClass().getSimpleName()
        if kind == "AdaptiveSparkPlanExec":
            todo.append(node.executedPlan())
        elif kind.endswith("QueryStageExec"):
            todo.append(node.plan())
        else:
            found.append(node)
            todo.extend(reversed(bn._children(node)))
    return found


def inspect_run(df) -> dict:
    """Execute ``df``'s own plan once (all columns; the warm-up run) and read it: rows out, Parquet
    scan rows and pushed filters, rows and bytes sent to Python by the UDF nodes, the join kind."""
    qe = df._jdf.queryExecution()
    plan = qe.executedPlan()
    rows = int(qe.toRdd().count())
    nodes = all_nodes(plan)
    scans = [n for n in nodes if n.getClass().getSimpleName() in ("FileSourceScanExec", "BatchScanExec")]
    py = [n for n in nodes if n.getClass().getSimpleName().endswith("EvalPythonExec")]
    info = {"rows_out": rows, "scan_rows": None, "pushed_filters": None,
            "python_nodes": [n.getClass().getSimpleName() for n in py],
            "rows_to_python": sum(_metrics(n).get("pythonNumRowsReceived", 0) for n in py) if py else 0,
            "bytes_to_python": sum(_metrics(n).get("pythonDataSent", 0) for n in py) if py else 0,
            "joins": [f"{n.getClass().getSimpleName()} {n.buildSide()}" for n in nodes
                      if n.getClass().getSimpleName() == "BroadcastNestedLoopJoinExec"]}
    if scans:
        info["scan_rows"] = sum(_metrics(s).get("numOutputRows", 0) for s in scans)
        info["pushed_filters"] = [bn._scala_get(s.metadata(), "PushedFilters") for s in scans]
    return info


def interleaved(variants: dict, reps: int, cpu, confs=None, log=print) -> dict:
    """``reps`` rounds over every variant, the order reversed every other round: {name: [runs]}.
    ``confs``: {name: {Spark SQL conf: value}} set for that variant's runs only."""
    names = list(variants)
    runs = {k: [] for k in names}
    for r in range(reps):
        order = names if r % 2 == 0 else list(reversed(names))
        for k in order:
            with session_conf(variants[k].sparkSession, (confs or {}).get(k)):
                runs[k].append(br.timed_noop(variants[k], cpu))
        log("  round %d: %s" % (r + 1, ", ".join(f"{k} {runs[k][-1]['wall']:.2f}" for k in names)))
    return runs


@contextlib.contextmanager
def session_conf(spark, conf):
    """Temporarily set Spark SQL confs (restored afterwards)."""
    old = {k: spark.conf.get(k, None) for k in (conf or {})}
    try:
        for k, v in (conf or {}).items():
            spark.conf.set(k, v)
        yield
    finally:
        for k, v in old.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


def _cpu_total(run):
    return None if run["jvm"] is None else run["jvm"] + run["py"]


def figures(runs: dict) -> dict:
    out = {}
    for k, rs in runs.items():
        cpus = [_cpu_total(r) for r in rs if _cpu_total(r) is not None]
        out[k] = {"median_s": br.med(rs), "jvm_cpu_s": br.med(rs, "jvm"), "py_cpu_s": br.med(rs, "py"),
                  "cpu_s": round(statistics.median(cpus), 2) if cpus else None,
                  "times_s": [r["wall"] for r in rs]}
    return out


def throughput(figs: dict, runs: dict, fast: str, slow: str) -> dict:
    """How many times ``fast``'s throughput ``slow``'s is: median wall, paired per round, CPU."""
    f, s = figs[fast], figs[slow]
    paired = statistics.median(b["wall"] / a["wall"] for a, b in zip(runs[fast], runs[slow]))
    cpu = None if not f["cpu_s"] or s["cpu_s"] is None else round(s["cpu_s"] / f["cpu_s"], 3)
    return {"wall": round(s["median_s"] / f["median_s"], 3), "paired": round(paired, 3), "cpu": cpu}


# --------------------------------------------------------------------------------------------
# sections


def run_selector(spark, df, view, label, selector, args, cpu) -> dict:
    print(f"\n[{label}] {selector}")
    variants = selector_variants(spark, df, view, label, selector)
    info = {}
    for k, v in variants.items():
        info[k] = inspect_run(v)
        print(f"  {k:17} matched {info[k]['rows_out']:,}; rows to Python {info[k]['rows_to_python']:,}; "
              f"pushed {info[k]['pushed_filters']}")
    counts = {k: i["rows_out"] for k, i in info.items()}
    if len(set(counts.values())) != 1:
        raise AssertionError(f"{label}: the variants match different numbers of rows: {counts}")
    for _ in range(args.warmup):
        for v in variants.values():
            br.timed_noop(v)
    runs = interleaved(variants, args.reps, cpu)
    figs = figures(runs)
    ratios = {
        "jms_match_api_vs_arrow_udf": throughput(figs, runs, "jms_match_api", "arrow_udf"),
        "jms_match_sql_vs_arrow_udf": throughput(figs, runs, "jms_match_sql", "arrow_udf"),
        "jms_match_api_vs_arrow_udf_struct": throughput(figs, runs, "jms_match_api", "arrow_udf_struct"),
        "jms_match_api_vs_row_udf": throughput(figs, runs, "jms_match_api", "row_udf"),
        "jms_match_api_vs_row_udf_pickled": throughput(figs, runs, "jms_match_api", "row_udf_pickled"),
        "jms_match_sql_vs_row_udf": throughput(figs, runs, "jms_match_sql", "row_udf"),
        "fallback_vs_arrow_udf": throughput(figs, runs, "fallback_udf", "arrow_udf"),
        "fallback_vs_arrow_udf_struct": throughput(figs, runs, "fallback_udf", "arrow_udf_struct"),
        "fallback_vs_row_udf": throughput(figs, runs, "fallback_udf", "row_udf"),
        "fallback_vs_row_udf_pickled": throughput(figs, runs, "fallback_udf", "row_udf_pickled"),
        "fallback_sql_vs_arrow_udf": throughput(figs, runs, "fallback_sql", "arrow_udf"),
        "fallback_sql_vs_row_udf": throughput(figs, runs, "fallback_sql", "row_udf"),
        "register_selector_vs_jms_match_sql": throughput(figs, runs, "register_selector", "jms_match_sql"),
        "native_vs_jms_match_api": throughput(figs, runs, "native", "jms_match_api"),
    }
    return {"label": label, "selector": selector, "columns": selector_columns(selector, df.schema),
            "rows_matched": counts["native"], "inspect": info, "variants": figs, "ratios": ratios}


def run_hybrid(spark, df, args, cpu) -> dict:
    from pyspark.sql import functions as F

    from jms_selector_spark.backends.udf import match_udf, source_struct

    from jms_selector_spark import register_selector

    print(f"\n[hybrid] activemq: {HYBRID}")
    cols = selector_columns(HYBRID, df.schema, dialect="activemq")
    view = "jms_bench_udf_messages"
    register_selector(spark, "bench_hybrid", HYBRID, view, dialect="activemq")
    variants = {
        "hybrid_jms_filter": jms_filter(df, HYBRID, dialect="activemq"),
        "hybrid_sql_function": spark.sql(f"SELECT * FROM {view} WHERE bench_hybrid(struct(*))"),
        "jms_match_whole": df.where(match_udf("activemq")(F.lit(HYBRID), source_struct(cols))),
        "native_part_only": jms_filter(df, HYBRID_NATIVE_PART, dialect="activemq"),
    }
    info = {k: inspect_run(v) for k, v in variants.items()}
    for k, i in info.items():
        print(f"  {k:17} matched {i['rows_out']:,}; scan rows {i['scan_rows']:,}; rows to Python "
              f"{i['rows_to_python']:,}; pushed {i['pushed_filters']}")
    if len({info[k]["rows_out"] for k in ("hybrid_jms_filter", "hybrid_sql_function", "jms_match_whole")}) != 1:
        raise AssertionError(f"hybrid: jms_filter matched {info['hybrid_jms_filter']['rows_out']:,}, register_selector's "
                             f"function {info['hybrid_sql_function']['rows_out']:,}, "
                             f"jms_match {info['jms_match_whole']['rows_out']:,}")
    for _ in range(args.warmup):
        for v in variants.values():
            br.timed_noop(v)
    runs = interleaved(variants, args.reps, cpu)
    figs = figures(runs)
    return {"selector": HYBRID, "dialect": "activemq", "native_part": HYBRID_NATIVE_PART, "inspect": info,
            "variants": figs,
            "ratios": {"hybrid_vs_jms_match_whole": throughput(figs, runs, "hybrid_jms_filter", "jms_match_whole"),
                       "hybrid_sql_function_vs_jms_match_whole": throughput(figs, runs, "hybrid_sql_function",
                                                                            "jms_match_whole"),
                       "native_part_vs_hybrid": throughput(figs, runs, "native_part_only", "hybrid_jms_filter")}}


def union_columns(selectors, schema) -> list:
    cols = []
    for s in selectors:
        try:
            cols += selector_columns(s, schema)
        except SelectorError:
            pass
    return list(dict.fromkeys(cols))


def run_xjoin(spark, data_dir, args, cpu) -> dict:
    from jms_selector_spark.spark.routing import route

    print(f"\n[xjoin] {args.subs} subscriptions x {args.xjoin_rows:,} messages")
    path = bn.ensure_archive(spark, data_dir, args.xjoin_rows, args.seed, args.xjoin_files)
    msgs = spark.read.parquet(str(path))
    n_msgs = msgs.count()
    subs = br.subscriptions(args.subs, seed=args.subs_seed, invalid=args.invalid)
    subs_df = spark.createDataFrame(subs, "name string, selector string")
    msgs.createOrReplaceTempView("jms_bench_xj_messages")
    subs_df.createOrReplaceTempView("jms_bench_xj_subs")
    cols = union_columns([s for _, s in subs], msgs.schema)
    per_row = spark.sql(
        "SELECT /*+ BROADCAST(s) */ m.*, s.name AS subscription "
        "FROM jms_bench_xj_messages m CROSS JOIN jms_bench_xj_subs s "
        f"WHERE jms_match(s.selector, struct({_cols_sql(cols, 'm.')}))")
    routed = route(msgs, subs_df, mode="topic").where("subscription IS NOT NULL")
    routed_8000 = route(msgs, subs_df, mode="topic").where("subscription IS NOT NULL")
    variants = {"per_row_jms_match": per_row, "route_topic": routed, "route_topic_hugeMethodLimit8000": routed_8000}
    confs = {"route_topic_hugeMethodLimit8000": {"spark.sql.codegen.hugeMethodLimit": "8000"}}
    info = {}
    for k, v in variants.items():
        t = time.perf_counter()
        with session_conf(spark, confs.get(k)):
            info[k] = inspect_run(v)
        info[k]["first_run_s"] = round(time.perf_counter() - t, 2)
        print(f"  {k:33} pairs {info[k]['rows_out']:,}; rows to Python {info[k]['rows_to_python']:,}; "
              f"{info[k]['joins']}; first run {info[k]['first_run_s']:.1f} s")
    counts = {k: i["rows_out"] for k, i in info.items()}
    if len(set(counts.values())) != 1:
        raise AssertionError(f"xjoin: the cross join and route give different pairs: {counts}")
    runs = interleaved(variants, args.xjoin_reps, cpu, confs)
    figs = figures(runs)
    pairs_in = n_msgs * len(subs)
    for k, f in figs.items():
        f["messages_per_s"] = round(n_msgs / f["median_s"])
        f["pairs_per_s"] = round(pairs_in / f["median_s"])
    return {"subscriptions": len(subs), "invalid": sum(1 for _, s in subs if s in br.INVALID),
            "messages": n_msgs, "pairs_evaluated": pairs_in, "pairs_matched": counts["route_topic"],
            "struct_columns": cols, "inspect": info, "variants": figs,
            "ratios": {"route_vs_per_row": throughput(figs, runs, "route_topic", "per_row_jms_match"),
                       "route8000_vs_route": throughput(figs, runs, "route_topic_hugeMethodLimit8000", "route_topic")}}


def run_match_batch(spark, data_dir, args) -> dict:
    """`match_batch` on Arrow batches shaped like Spark's (see the module docstring)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from jms_selector_spark.backends.udf import match_batch

    print("\n[match_batch] direct calls on 10,000-row Arrow batches")
    path = data_dir / f"messages-flat-{args.xjoin_rows}-seed{args.seed}"
    if not path.exists():
        path = data_dir / f"messages-flat-{args.rows}-seed{args.seed}"
    subs = br.subscriptions(args.subs, seed=args.subs_seed, invalid=args.invalid)
    table = pq.read_table(str(path))
    cols = union_columns([s for _, s in subs], spark.read.parquet(str(path)).schema)
    table = table.select(cols).slice(0, 10_000)

    def struct_of(t):
        return pa.StructArray.from_arrays([t.column(c).combine_chunks() for c in cols], names=cols)

    per = max(1, 10_000 // len(subs))
    shapes = {
        f"{len(subs)} interleaved selectors (cross-join shape)": (
            pa.array([s for _, s in subs] * per), struct_of(table.slice(0, per).take(pa.array(np.repeat(np.arange(per), len(subs)))))),
        "1 simple selector (literal)": (pa.array([SIMPLE] * len(table)), struct_of(table)),
        "1 complex selector (literal)": (pa.array([COMPLEX] * len(table)), struct_of(table)),
    }
    out = {}
    for name, (sels, msgs) in shapes.items():
        match_batch(sels, msgs)  # compile and cache the selectors
        ts = []
        for _ in range(args.batch_reps):
            t = time.perf_counter()
            res = match_batch(sels, msgs)
            ts.append(time.perf_counter() - t)
        ms = statistics.median(ts) * 1000
        out[name] = {"rows": len(msgs), "distinct_selectors": len(pc.unique(sels)), "median_ms": round(ms, 3),
                     "us_per_row": round(ms * 1000 / len(msgs), 3), "matches": int(pc.sum(res).as_py() or 0)}
        print(f"  {name:45} {ms:8.2f} ms / {len(msgs):,} rows ({out[name]['us_per_row']:.3f} us/row)")
    # where the time goes, for the interleaved shape
    sels, msgs = next(iter(shapes.values()))
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(10):
        match_batch(sels, msgs)
    prof.disable()
    stats = pstats.Stats(prof)
    by_module, total = {}, 0.0
    for (fn, _, _), (_, _, tt, _, _) in stats.stats.items():
        key = _module_of(fn)
        by_module[key] = by_module.get(key, 0.0) + tt
        total += tt
    breakdown = {k: round(100 * v / total, 1) for k, v in sorted(by_module.items(), key=lambda kv: -kv[1])}
    top = sorted(((tt, f"{Path(fn).name}:{ln}({name})") for (fn, ln, name), (_, _, tt, _, _) in stats.stats.items()),
                 reverse=True)[:8]
    print("  where the time goes (self time under cProfile, interleaved shape): "
          + ", ".join(f"{k} {v}%" for k, v in breakdown.items()))
    return {"shapes": out, "profile_by_module_pct": breakdown,
            "profile_top_self_time": [{"function": name, "pct": round(100 * tt / total, 1)} for tt, name in top]}


def _module_of(filename: str) -> str:
    if "jms_selector_spark" in filename:
        return "jms_selector_spark/" + filename.split("jms_selector_spark/")[-1]
    if "pyarrow" in filename:
        return "pyarrow (Python wrappers)"
    if filename.startswith("~") or filename == "~":
        return "builtins / C (pyarrow kernels, numpy)"
    return "other Python"


# --------------------------------------------------------------------------------------------


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="bench_udf", description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000, help="rows of the archive (default 10,000,000)")
    ap.add_argument("--reps", type=int, default=5, help="timed rounds per selector / hybrid (default 5)")
    ap.add_argument("--warmup", type=int, default=0,
                    help="untimed noop runs of each variant before the rounds (default 0: the counting run "
                         "already executes each plan once)")
    ap.add_argument("--xjoin-rows", type=int, default=1_000_000, help="messages of the cross join (default 1,000,000)")
    ap.add_argument("--xjoin-files", type=int, default=2, help="Parquet files of that archive (default 2: two tasks)")
    ap.add_argument("--xjoin-reps", type=int, default=3, help="timed rounds of the cross join section (default 3)")
    ap.add_argument("--subs", type=int, default=100, help="subscriptions of the cross join (default 100)")
    ap.add_argument("--invalid", type=int, default=3, help="invalid ones among them (default 3)")
    ap.add_argument("--batch-reps", type=int, default=30, help="match_batch calls timed per shape (default 30)")
    ap.add_argument("--only", action="append", choices=SECTIONS, default=None, help="run only this section (repeatable)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--subs-seed", type=int, default=11)
    ap.add_argument("--files", type=int, default=None, help="Parquet files of the main archive (default one per million rows)")
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--results", default=None, help="JSON output (default <data-dir>/results/udf.json)")
    ap.add_argument("--driver-memory", default="6g")
    return ap.parse_args(argv)


def main(argv=None, spark=None) -> dict:
    """Run the benchmark; returns the results (also written as JSON). ``spark``: an existing
    session (not stopped); otherwise one is created and stopped at the end."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.reps < 1 or args.xjoin_reps < 1:
        raise SystemExit("--reps and --xjoin-reps must be >= 1")
    data_dir = Path(args.data_dir)
    results_path = Path(args.results) if args.results else data_dir / "results" / f"{NAME}.json"
    own = spark is None
    if own:
        spark = br.session(args.driver_memory, "jms-bench-udf")
    routing_log = logging.getLogger("jms_selector_spark.spark.routing.route")
    old_level = routing_log.level
    routing_log.setLevel(logging.ERROR)  # the xjoin's invalid selectors and codegen advice: reported here instead
    try:
        return _run(spark, args, data_dir, results_path)
    finally:
        routing_log.setLevel(old_level)
        if own:
            spark.stop()


def _run(spark, args, data_dir: Path, results_path: Path) -> dict:
    data_dir.mkdir(parents=True, exist_ok=True)
    sections = args.only or list(SECTIONS)
    load_start = os.getloadavg()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    register(spark)  # jms_match for spark.sql
    cpu = br.spark_cpu_reader(spark)
    results = {"benchmark": NAME, "started_utc": started, "reps": args.reps, "seed": args.seed,
               "materialize": "write.format('noop'): every column of every matching row",
               "order": "one counting run per variant (the warm-up), then rounds over all variants, the order "
                        "reversed every other round",
               "spark": spark.version, "python": platform.python_version(), "cpus": os.cpu_count(),
               "arrow_batch_rows": int(spark.conf.get("spark.sql.execution.arrow.maxRecordsPerBatch")),
               "targets": {"jms_match_vs_arrow_udf": TARGET_VS_ARROW, "jms_match_vs_row_udf": TARGET_VS_ROW}}
    if {"simple", "complex", "hybrid"} & set(sections):
        path = bn.ensure_archive(spark, data_dir, args.rows, args.seed, args.files)
        df = spark.read.parquet(str(path))
        results["rows_total"] = df.count()
        results["data"] = str(path)
        view = "jms_bench_udf_messages"
        df.createOrReplaceTempView(view)
        results["selectors"] = [run_selector(spark, df, view, label, sel, args, cpu)
                                for label, sel in (("simple", SIMPLE), ("complex", COMPLEX)) if label in sections]
        if "hybrid" in sections:
            results["hybrid"] = run_hybrid(spark, df, args, cpu)
    if "xjoin" in sections:
        results["xjoin"] = run_xjoin(spark, data_dir, args, cpu)
    if "match_batch" in sections:
        results["match_batch"] = run_match_batch(spark, data_dir, args)
    results["finished_utc"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    results["loadavg_start"] = [round(x, 2) for x in load_start]
    results["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    return bn.publish(results, results_path, table, summary_lines)


def _f(x, fmt="{:.2f}"):
    return "-" if x is None else fmt.format(x)


def table(res) -> str:
    lines = []
    if res.get("selectors") or res.get("hybrid"):
        lines.append(f"UDF paths: {res['rows_total']:,} rows; median wall of {res['reps']} interleaved rounds, noop sink "
                     f"(all columns of matching rows); cpu = JVM + Python workers (median)")
    head = f"{'variant':22} {'median s':>9} {'jvm cpu':>8} {'py cpu':>7} {'rows/s':>12}  {'rows to Python':>15}"
    for s in res.get("selectors", []):
        lines += ["", f"[{s['label']}] {s['selector']}  -> {s['rows_matched']:,} rows match; columns {s['columns']}",
                  head, "-" * len(head)]
        for k, f in s["variants"].items():
            lines.append(f"{k:22} {f['median_s']:>9.2f} {_f(f['jvm_cpu_s'], '{:.1f}'):>8} {_f(f['py_cpu_s'], '{:.1f}'):>7} "
                         f"{res['rows_total'] / f['median_s']:>12,.0f}  {s['inspect'][k]['rows_to_python']:>15,}")
        r = s["ratios"]
        lines.append(
            f"(b)/(c): jms_match throughput vs hand arrow_udf: api {r['jms_match_api_vs_arrow_udf']['wall']:.2f}x "
            f"(paired {r['jms_match_api_vs_arrow_udf']['paired']:.2f}, cpu {_f(r['jms_match_api_vs_arrow_udf']['cpu'])}), "
            f"sql {r['jms_match_sql_vs_arrow_udf']['wall']:.2f}x; vs arrow_udf on the same struct "
            f"{r['jms_match_api_vs_arrow_udf_struct']['wall']:.2f}x   [target >= {TARGET_VS_ARROW}]")
        lines.append(
            f"(b)/(d): jms_match throughput vs row @udf: {r['jms_match_api_vs_row_udf']['wall']:.2f}x (paired "
            f"{r['jms_match_api_vs_row_udf']['paired']:.2f}, cpu {_f(r['jms_match_api_vs_row_udf']['cpu'])}); vs pickled row "
            f"udf {r['jms_match_api_vs_row_udf_pickled']['wall']:.2f}x   [target >= {TARGET_VS_ROW} on complex]; "
            f"native is {r['native_vs_jms_match_api']['wall']:.1f}x jms_match")
        lines.append(
            f"fallback UDF (jms_filter's): vs hand arrow_udf {r['fallback_vs_arrow_udf']['wall']:.2f}x (on the same struct "
            f"{r['fallback_vs_arrow_udf_struct']['wall']:.2f}x), vs row @udf {r['fallback_vs_row_udf']['wall']:.2f}x, vs pickled "
            f"{r['fallback_vs_row_udf_pickled']['wall']:.2f}x")
        lines.append(
            f"fallback from spark.sql (register_selector's function, forced to the UDF): vs hand arrow_udf "
            f"{r['fallback_sql_vs_arrow_udf']['wall']:.2f}x, vs row @udf {r['fallback_sql_vs_row_udf']['wall']:.2f}x; "
            f"register_selector as created (native) is {r['register_selector_vs_jms_match_sql']['wall']:.1f}x jms_match sql")
    h = res.get("hybrid")
    if h:
        lines += ["", f"[hybrid, activemq] {h['selector']}", head, "-" * len(head)]
        for k, f in h["variants"].items():
            lines.append(f"{k:22} {f['median_s']:>9.2f} {_f(f['jvm_cpu_s'], '{:.1f}'):>8} {_f(f['py_cpu_s'], '{:.1f}'):>7} "
                         f"{res['rows_total'] / f['median_s']:>12,.0f}  {h['inspect'][k]['rows_to_python']:>15,}")
        lines.append(f"hybrid: {h['inspect']['hybrid_jms_filter']['rows_to_python']:,} of {res['rows_total']:,} rows reach "
                     f"the UDF (native part pushed: {h['inspect']['hybrid_jms_filter']['pushed_filters']}); hybrid is "
                     f"{h['ratios']['hybrid_vs_jms_match_whole']['wall']:.1f}x the whole selector in jms_match (from SQL, "
                     f"register_selector's function: {h['inspect']['hybrid_sql_function']['rows_to_python']:,} rows to Python, "
                     f"{h['ratios']['hybrid_sql_function_vs_jms_match_whole']['wall']:.1f}x); the native "
                     f"part alone is {h['ratios']['native_part_vs_hybrid']['wall']:.2f}x the hybrid")
    x = res.get("xjoin")
    if x:
        lines += ["", f"[xjoin] {x['subscriptions']} subscriptions ({x['invalid']} invalid) x {x['messages']:,} messages = "
                      f"{x['pairs_evaluated']:,} pairs; {x['pairs_matched']:,} match; struct of {len(x['struct_columns'])} columns",
                  f"{'variant':33} {'median s':>9} {'jvm cpu':>8} {'py cpu':>7} {'msgs/s':>10} {'pairs/s':>12} {'first run s':>12}"]
        for k, f in x["variants"].items():
            lines.append(f"{k:33} {f['median_s']:>9.2f} {_f(f['jvm_cpu_s'], '{:.1f}'):>8} {_f(f['py_cpu_s'], '{:.1f}'):>7} "
                         f"{f['messages_per_s']:>10,} {f['pairs_per_s']:>12,} {x['inspect'][k]['first_run_s']:>12.1f}")
        lines.append(f"route(topic) is {x['ratios']['route_vs_per_row']['wall']:.1f}x the per-row cross join "
                     f"(cpu {_f(x['ratios']['route_vs_per_row']['cpu'], '{:.1f}')}x); hugeMethodLimit=8000 makes route "
                     f"{x['ratios']['route8000_vs_route']['wall']:.2f}x faster; join: {x['inspect']['per_row_jms_match']['joins']}")
    m = res.get("match_batch")
    if m:
        lines += ["", "[match_batch] direct calls, median of repeated calls"]
        for k, v in m["shapes"].items():
            lines.append(f"{k:45} {v['median_ms']:>8.2f} ms / {v['rows']:,} rows  ({v['us_per_row']:.3f} us/row, "
                         f"{v['distinct_selectors']} distinct)")
        lines.append("interleaved shape, self time by module: " + ", ".join(f"{k} {v}%" for k, v in m["profile_by_module_pct"].items()))
    lines.append(f"load average {res['loadavg_start'][0]} -> {res['loadavg_end'][0]} on {res['cpus']} CPUs")
    return "\n".join(lines)


def summary_lines(res) -> list:
    out = []
    for s in res.get("selectors", []):
        r = s["ratios"]
        api, sql = r["jms_match_api_vs_arrow_udf"]["wall"], r["jms_match_sql_vs_arrow_udf"]["wall"]
        row = r["jms_match_api_vs_row_udf"]["wall"]
        flag = "" if min(api, sql) >= TARGET_VS_ARROW else f" (< {TARGET_VS_ARROW} target)"
        flag_row = "" if s["label"] != "complex" or row >= TARGET_VS_ROW else f" (< {TARGET_VS_ROW} target)"
        out.append(f"{s['label']}: jms_match/arrow_udf throughput api {api:.2f}x, sql {sql:.2f}x{flag}; "
                   f"vs row @udf {row:.2f}x{flag_row}, vs pickled {r['jms_match_api_vs_row_udf_pickled']['wall']:.2f}x; "
                   f"fallback UDF/arrow_udf {r['fallback_vs_arrow_udf']['wall']:.2f}x, vs row @udf {r['fallback_vs_row_udf']['wall']:.2f}x; "
                   f"fallback from SQL/arrow_udf {r['fallback_sql_vs_arrow_udf']['wall']:.2f}x, vs row @udf "
                   f"{r['fallback_sql_vs_row_udf']['wall']:.2f}x; "
                   f"native {s['variants']['native']['median_s']:.2f} s vs jms_match {s['variants']['jms_match_api']['median_s']:.2f} s; "
                   f"counts equal ({s['rows_matched']:,})")
    h = res.get("hybrid")
    if h:
        out.append(f"hybrid: {h['inspect']['hybrid_jms_filter']['rows_to_python']:,} rows reach the UDF; "
                   f"{h['variants']['hybrid_jms_filter']['median_s']:.2f} s vs {h['variants']['jms_match_whole']['median_s']:.2f} s "
                   f"whole selector in jms_match ({h['ratios']['hybrid_vs_jms_match_whole']['wall']:.1f}x)")
    x = res.get("xjoin")
    if x:
        v = x["variants"]
        out.append(f"xjoin {x['subscriptions']} subs x {x['messages']:,} msgs: per-row {v['per_row_jms_match']['median_s']:.1f} s "
                   f"({v['per_row_jms_match']['pairs_per_s']:,} pairs/s) vs route {v['route_topic']['median_s']:.1f} s "
                   f"({x['ratios']['route_vs_per_row']['wall']:.1f}x); route with hugeMethodLimit=8000 "
                   f"{v['route_topic_hugeMethodLimit8000']['median_s']:.1f} s")
    m = res.get("match_batch")
    if m:
        first = next(iter(m["shapes"].items()))
        out.append(f"match_batch {first[0]}: {first[1]['median_ms']:.2f} ms per {first[1]['rows']:,}-row batch")
    return out


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
