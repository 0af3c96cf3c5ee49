"""Probe (not part of ``make bench``): the templates' index as a constant map
(`route_templates.lookup_sql`: ``try_element_at(<MAP<STRING, INT>>, JMSType)``) against the
broadcast hash join it replaced, as the number of keys grows.

The keys are ``--keys`` strings: invented ones first, the messages' real ``JMSType`` values last
(a lookup that scanned the keys in order would pay for all of them). Each variant sums the key
numbers over every message (the two sums are asserted equal); medians of ``--reps`` interleaved
runs, wall seconds.

    python benchmarks/probe_route_lookup.py --rows 2000000 --keys 16,256,4096 --reps 3
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_route as br  # noqa: E402


def variants(spark, messages, n: int) -> dict:
    """{"map": DataFrame, "join": DataFrame}: the sum of the key numbers of ``n`` keys."""
    from pyspark.sql import functions as F

    from jms_selector_spark.backends.sql.render import sql_string

    real = sorted(r[0] for r in messages.select("JMSType").distinct().collect() if r[0] is not None)
    keys = [f"type-{i:05d}" for i in range(max(0, n - len(real)))] + real
    lit = f"from_json({sql_string(json.dumps({k: i for i, k in enumerate(keys, 1)}))}, 'MAP<STRING, INT>')"
    idx = spark.createDataFrame(list(zip(keys, range(1, len(keys) + 1))), "k STRING, id INT")
    return {"map": messages.select(F.sum(F.expr(f"try_element_at({lit}, JMSType)")).alias("s")),
            "join": messages.join(F.broadcast(idx), messages.JMSType == idx.k, "left").select(F.sum("id").alias("s"))}


def main(argv=None, spark=None) -> dict:
    ap = br.probe_parser("probe_route_lookup", __doc__, reps=3)
    ap.add_argument("--keys", default="16,256,4096")
    args = ap.parse_args(argv)
    spark, own, messages = br.probe_archive(args, spark, "probe_route_lookup")
    messages = messages.select("JMSType")
    out = {}
    for n in (int(k) for k in args.keys.split(",")):
        dfs = variants(spark, messages, n)
        sums = {k: df.first()[0] for k, df in dfs.items()}
        assert sums["map"] == sums["join"], sums
        runs = {k: [] for k in dfs}
        for r in range(args.reps):
            for k in (list(dfs) if r % 2 == 0 else list(dfs)[::-1]):
                t = time.perf_counter()
                dfs[k].collect()
                runs[k].append(time.perf_counter() - t)
        out[n] = {k: round(statistics.median(v), 3) for k, v in runs.items()}
        print(f"{n:>6} keys: wall s map {out[n]['map']:.3f}, join {out[n]['join']:.3f}", flush=True)
    if own:
        spark.stop()
    return out


if __name__ == "__main__":
    main()
