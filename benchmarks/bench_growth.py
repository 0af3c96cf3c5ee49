"""Growth of a topic pass from 100 to 1,000 subscriptions, every count in a JVM of its own.

    python benchmarks/bench_growth.py --rows 2000000 --counts 100,1000 --rounds 3 --reps 3 --floor
    python benchmarks/bench_growth.py --recompute bench-data/results/growth.json   # its ratios again

`bench_route.py --matrix` runs every count in one JVM, interleaved: the JIT state a plan runs
with then depends on the plans that ran before it, and the 100-subscription pass measured
3.9-6.5 CPU s across 11 runs of one stop (README), the unstable term of the growth ratio. Here
each (round, count) is one `bench_route.py --matrix --matching --equal-selectivity` process
(``--equal-selectivity-of`` the largest count, so every process routes the same estate of n as a
joint run would), the counts' order alternating between rounds (ABBA); each process times
``--reps`` runs of its count after one cold run, and its medians are one sample here. Printed:
each round's CPU medians (whole pass, matching alone, and with ``--floor`` the output rows
alone), the round's ratios largest / smallest, and the median of those ratios over the rounds.
With ``--floor`` also, per round: the growth of what a pass spends beyond writing its output rows
(whole pass minus floor, largest / smallest count), and how much the ``--target`` (2.5x) leaves
it: ``(target x whole(smallest) - floor(largest)) / (whole(smallest) - floor(smallest))``. The
output rows of an equal-selectivity estate grow with the count (8.5x from 100 to 1,000) and cost
what Spark spends writing them whatever the plan, so that allowance is what the matching has.
Written to ``bench-data/results/growth.json``.

Measured (docs/measurements): a fresh JVM does not steady the 100 pass either (4.13-5.96
CPU s across three processes), so its spread is the process's, not the plans' order.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="bench_growth", description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000, help="messages in the archive (default 2,000,000)")
    ap.add_argument("--counts", default="100,1000", help="subscription counts (default 100,1000)")
    ap.add_argument("--rounds", type=int, default=3, help="processes per count (default 3)")
    ap.add_argument("--reps", type=int, default=3, help="timed runs per process (default 3)")
    ap.add_argument("--floor", action="store_true", help="also the output rows alone at every count (`floor_df`)")
    ap.add_argument("--target", type=float, default=2.5,
                    help="the growth target of the whole pass (2.5), for the allowance printed with --floor")
    ap.add_argument("--recompute", metavar="JSON", default=None,
                    help="no runs: the ratios of an earlier run's results (its growth.json), e.g. with another --target")
    ap.add_argument("--driver-memory", default="4g")
    ap.add_argument("--data-dir", default=str(ROOT / "bench-data"))
    ap.add_argument("--results", default=None, help="JSON output (default <data-dir>/results/growth.json)")
    return ap.parse_args(argv)


def run_count(args, n: int, largest: int, out: Path) -> dict:
    """One fresh process timing count ``n``: ``{"whole": cpu s, "matching": cpu s, "floor": cpu s
    or None, "rows_out": rows}`` (medians of its runs)."""
    cmd = [sys.executable, str(HERE / "bench_route.py"), "--matrix", "--matching", "--equal-selectivity",
           "--equal-selectivity-of", str(largest), "--rows", str(args.rows), "--matrix-subs", str(n),
           "--baseline-subs", "", "--worst-subs", "", "--floor-subs", str(n) if args.floor else "", "--no-tuned",
           "--reps", str(args.reps), "--driver-memory", args.driver_memory, "--data-dir", args.data_dir,
           "--results", str(out)]
    env = dict(os.environ)
    env.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers need this venv's pandas
    env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if done.returncode:  # Spark's log is noise unless the run failed
        sys.stderr.write(done.stderr[-4000:])
        raise subprocess.CalledProcessError(done.returncode, cmd)
    rows = {r["plan"]: r for r in json.loads(out.read_text())["variants"] if r["subs"] == n}
    floor = rows.get("floor")
    return {"whole": rows["indexed"]["cpu_median_s"], "matching": rows["indexed"]["match_cpu_median_s"],
            "floor": floor["cpu_median_s"] if floor else None, "rows_out": rows["indexed"]["rows_out"]}


def main(argv=None) -> dict:
    import bench_native as bn

    args = parse_args(argv)
    old = json.loads(Path(args.recompute).read_text()) if args.recompute else None
    counts = old["counts"] if old else sorted(int(x) for x in args.counts.split(",") if x)
    if len(counts) < 2:
        raise SystemExit("--counts needs at least two counts")
    small, large = counts[0], counts[-1]
    if old:  # the ratios of an earlier run's rounds (its JSON), nothing is timed
        rounds = [{int(n): v for n, v in got.items()} for got in old["per_round"]]
        args.rows, args.reps, args.floor = old["rows"], old["reps"], all(g[n]["floor"] is not None
                                                                         for g in rounds for n in g)
    else:
        rounds = []
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(args.rounds):
                got = {}
                for n in (counts if r % 2 == 0 else counts[::-1]):
                    got[n] = run_count(args, n, large, Path(tmp) / f"r{r}-{n}.json")
                    print(f"round {r + 1}, {n:>5} subscriptions: whole pass {got[n]['whole']} CPU s, matching alone "
                          f"{got[n]['matching']}" + (f", output rows alone {got[n]['floor']}" if args.floor else "")
                          + f"; {got[n]['rows_out']:,} rows; load {os.getloadavg()[0]:.1f}", flush=True)
                rounds.append(got)
    ratios = growth_ratios(rounds, small, large, args.target, args.floor)
    results = {"benchmark": "route_growth", "rows": args.rows, "counts": counts, "rounds": len(rounds), "target": args.target,
               "reps": args.reps, "processor": old["processor"] if old else bn.processor(),
               "cpus": old["cpus"] if old else os.cpu_count(),
               "per_round": [{str(n): v for n, v in got.items()} for got in rounds],
               "ratios": {k: v for k, v in ratios.items() if v},
               "medians": {k: round(statistics.median(v), 2) for k, v in ratios.items() if v}}
    path = Path(args.results) if args.results else Path(args.data_dir) / "results" / "growth.json"
    return bn.publish(results, path, table, summary_lines)


def growth_ratios(rounds: list, small: int, large: int, target: float, floor: bool) -> dict:
    """Per round, largest count over smallest: the whole pass, the matching alone and, with the
    floor, the output rows alone (over the smallest's whole pass), the pass beyond its output
    rows, and the growth ``target`` leaves that (see the module docstring)."""
    ratios = {"whole": [], "matching": [], "floor": [], "beyond": [], "allowed": []}
    for got in rounds:
        s, g = got[small], got[large]
        ratios["whole"].append(round(g["whole"] / s["whole"], 2))
        ratios["matching"].append(round(g["matching"] / s["matching"], 2))
        if floor:
            ratios["floor"].append(round(g["floor"] / s["whole"], 2))
            ratios["beyond"].append(round((g["whole"] - g["floor"]) / (s["whole"] - s["floor"]), 2))
            ratios["allowed"].append(round((target * s["whole"] - g["floor"]) / (s["whole"] - s["floor"]), 2))
    return ratios


def summary_lines(res) -> list:
    c = res["counts"]
    names = {"whole": "whole pass", "matching": "matching alone", "floor": "growth floor (output rows alone)",
             "beyond": "the pass beyond its output rows (whole - floor)",
             "allowed": f"what the {res.get('target', 2.5)}x target allows that to grow"}
    return [f"growth {c[-1]} / {c[0]} subs, a JVM per (round, count), {res['rows']:,} messages, {names[k]}: "
            f"{', '.join(f'{x}x' for x in v)} (median {res['medians'][k]}x)" for k, v in res["ratios"].items()]


def table(res) -> str:
    return "\n".join([f"processor: {res['processor']}; {res['cpus']} CPUs; {res['rounds']} rounds x "
                      f"{res['reps']} runs per process; CPU seconds, medians per process"]
                     + ["  " + line for line in summary_lines(res)])


if __name__ == "__main__":
    main()
