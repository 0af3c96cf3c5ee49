"""benchmarks/bench_before_after.py's `interleaved` with ``min_time``: a sample of a short query
repeats it back to back and reports the mean per run (the same count for every variant)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_min_time_repeats_short_runs_and_reports_the_mean(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    bench = _load("bench_before_after")
    import bench_native

    durations = {"fast": 0.25, "slow": 0.5}
    calls = []

    def fake_run_noop(df, cpu=None):
        calls.append(df)
        return durations[df], None

    monkeypatch.setattr(bench_native, "run_noop", fake_run_noop)
    t, k, cpus = bench.interleaved({"a": "fast", "b": "slow"}, reps=3, warmup=1, min_time=1.0)
    assert cpus is None
    assert k == 4  # the fastest variant's warm-up run (0.25 s) repeated to last 1 s
    assert t == {"a": [0.25] * 3, "b": [0.5] * 3}
    assert len(calls) == 2 + 2 * 3 * 4  # warm-up, then 3 rounds of 4 runs of each
    calls.clear()
    t, k, _ = bench.interleaved({"a": "fast", "b": "slow"}, reps=2, warmup=0)
    assert k == 1 and len(calls) == 4 and t["b"] == [0.5, 0.5]


def test_paired_ratio_is_the_median_of_each_rounds_ratio(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    bench = _load("bench_before_after")
    # round 2 ran under load for both variants: the paired median is not moved by it
    assert bench._paired([1.0, 3.0, 1.1], [1.0, 3.3, 1.0]) == 1.0
    assert bench._ratio(1.1, 1.0) == 1.1
