"""Run the benchmarks (``make bench``): every ``benchmarks/bench_*.py``, or the ones named.

    python benchmarks/run_all.py                          # all of them, default sizes
    python benchmarks/run_all.py native                   # only bench_native.py
    python benchmarks/run_all.py native -- --rows 200000 --reps 2   # arguments after -- go to each

Each benchmark runs in its own Python process (so each has exactly one SparkSession and a fresh
JVM: one benchmark's caches and JIT state cannot skew the next one's figures), calling the
module's ``main()``. A benchmark writes its figures to ``<data-dir>/results/<name>.json`` with a
``summary`` list; this script prints those summaries at the end and exits non-zero if any
benchmark failed.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def discover() -> dict:
    """``{name: path}`` for every ``bench_<name>.py`` next to this script."""
    return {p.stem[len("bench_"):]: p for p in sorted(HERE.glob("bench_*.py"))}


def _results_path(name: str, extra: list) -> Path:
    """Where benchmark ``name`` writes its JSON, given the arguments passed to it."""
    def opt(flag):
        for i, a in enumerate(extra):
            if a == flag and i + 1 < len(extra):
                return extra[i + 1]
            if a.startswith(flag + "="):
                return a.split("=", 1)[1]
        return None

    if opt("--results"):
        return Path(opt("--results"))
    return Path(opt("--data-dir") or ROOT / "bench-data") / "results" / f"{name}.json"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    known = discover()
    ap = argparse.ArgumentParser(description="Run the benchmarks in benchmarks/bench_*.py.")
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"benchmarks to run (default all: {', '.join(known)})")
    args = ap.parse_args(argv)
    names = args.names or list(known)
    unknown = [n[len("bench_"):] if n.startswith("bench_") else n for n in names]
    missing = [n for n in unknown if n not in known]
    if missing:
        ap.error(f"unknown benchmark(s) {missing}; known: {list(known)}")

    env = dict(os.environ)
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    env.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    outcome = []
    for name in unknown:
        print(f"=== bench_{name} {' '.join(extra)}".rstrip(), flush=True)
        results = _results_path(name, extra)
        before = results.stat().st_mtime if results.exists() else None
        t = time.perf_counter()
        rc = subprocess.call([sys.executable, str(known[name]), *extra], cwd=str(ROOT), env=env)
        took = time.perf_counter() - t
        summary = []
        if rc == 0 and results.exists() and results.stat().st_mtime != before:
            summary = json.loads(results.read_text()).get("summary", [])
        elif rc == 0:
            summary = [f"(no new results at {results})"]
        outcome.append((name, rc, took, summary))

    print("\n=== summary")
    for name, rc, took, summary in outcome:
        print(f"bench_{name}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} in {took:.0f} s")
        for line in summary:
            print(f"  {line}")
    return 0 if all(rc == 0 for _, rc, _, _ in outcome) else 1


if __name__ == "__main__":
    sys.exit(main())
