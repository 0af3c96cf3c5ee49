"""Probe (not part of ``make bench``): range buckets (`spark.routing.ranges`) on and off, on estates
of time-window subscriptions (``JMSType = 't' AND JMSTimestamp BETWEEN <start> AND <start + 1, 6
or 24 h>``), the realistic estate of `bench_route` last (where nothing is split: the same plan).

Each estate routes the archive in topic mode twice (`bench_route.routed_df`, ``indexed``), with
buckets and without (tuning feature ``ranges``); the outputs are asserted equal (fingerprint: rows
and a checksum of (message id, subscription)). One cold run each, then ``--reps`` rounds in ABBA
order; medians of wall and JVM + Python CPU seconds, and off / on.

    python benchmarks/probe_route_ranges.py --rows 2000000 --windows 100,1000 --reps 4
"""
from __future__ import annotations

import os
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_route as br  # noqa: E402


def windows(n: int, seed: int = 5) -> list:
    """``n`` time-window subscriptions over the sample archive's 30 days and 10 types."""
    from jms_selector_spark.spark import sample_data

    rng = random.Random(seed)
    out = []
    for i in range(n):
        start = sample_data.START_MILLIS + rng.randrange(30 * 24) * 3_600_000
        out.append((f"win-{i:05d}", f"JMSType = {br._q(rng.choice(br._TYPES))} AND JMSTimestamp BETWEEN "
                                    f"{start} AND {start + rng.choice([1, 6, 24]) * 3_600_000 - 1}"))
    return out


def compare(spark, messages, subs, reps: int) -> dict:
    """{"on": {...}, "off": {...}, "off / on cpu": ratio}: the topic pass with and without buckets."""
    from jms_selector_spark.spark.routing.tuning import DEFAULT

    dfs = {"on": br.routed_df(messages, subs, "indexed"),
           "off": br.routed_df(messages, subs, "indexed", tuning=DEFAULT.without("ranges"))}
    fp = {k: br._fingerprint(df) for k, df in dfs.items()}
    assert fp["on"] == fp["off"], fp
    cpu = br.spark_cpu_reader(spark)
    for df in dfs.values():
        br.timed_noop(df, cpu)
    runs = {k: [] for k in dfs}
    for r in range(reps):
        for k in (list(dfs) if r % 2 == 0 else list(dfs)[::-1]):
            runs[k].append(br.timed_noop(dfs[k], cpu))
    out = {k: {"wall": round(statistics.median(x["wall"] for x in v), 2),
               "cpu": (round(statistics.median(x["jvm"] + x["py"] for x in v), 2) if v[0]["jvm"] is not None else None)}
           for k, v in runs.items()}
    out["rows"] = fp["on"][0]
    if out["on"]["cpu"]:
        out["off / on cpu"] = round(out["off"]["cpu"] / out["on"]["cpu"], 2)
    out["off / on wall"] = round(out["off"]["wall"] / out["on"]["wall"], 2)
    return out


def main(argv=None, spark=None) -> dict:
    ap = br.probe_parser("probe_route_ranges", __doc__, reps=4)
    ap.add_argument("--windows", default="100,1000", help="numbers of time-window subscriptions")
    ap.add_argument("--realistic", type=int, default=1000, help="subscriptions of the realistic estate (0: none)")
    args = ap.parse_args(argv)
    from jms_selector_spark.spark.routing import explain_routing

    spark, own, messages = br.probe_archive(args, spark, "probe_route_ranges")
    estates = {f"{n} windows": windows(n) for n in (int(x) for x in args.windows.split(",") if x)}
    if args.realistic:
        estates[f"{args.realistic} realistic"] = br.subscriptions(args.realistic, invalid=0)
    out = {}
    for name, subs in estates.items():
        split = [ln.strip() for ln in explain_routing(messages, subs).splitlines() if "range buckets" in ln]
        out[name] = compare(spark, messages, subs, args.reps)
        out[name]["split"] = split
        r = out[name]
        print(f"{name}: {r['rows']:,} rows; buckets on: {r['on']['wall']} s / {r['on']['cpu']} CPU s, off: "
              f"{r['off']['wall']} s / {r['off']['cpu']} CPU s; off / on CPU {r.get('off / on cpu')}, wall "
              f"{r['off / on wall']}; load {os.getloadavg()[0]:.1f}", flush=True)
        for line in split or ["(no template split)"]:
            print("   ", line, flush=True)
    if own:
        spark.stop()
    return out


if __name__ == "__main__":
    main()
