"""benchmarks/bench_before_after.py's `interleaved` with ``min_time``: a sample of a short query
repeats it back to back and reports the mean per run (the same count for every variant)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.bench

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


def test_growth_runs_every_count_in_its_own_process_and_takes_per_round_ratios(monkeypatch, tmp_path):
    """benchmarks/bench_growth.py: counts alternate between rounds (ABBA), each (round, count) is one
    `bench_route` process asked for the largest count's equal-selectivity estate, and the ratios
    are per round (largest / smallest), with their median."""
    monkeypatch.syspath_prepend(str(BENCH))
    growth = _load("bench_growth")
    whole = {(0, 100): 4.0, (0, 1000): 12.0, (1, 1000): 13.0, (1, 100): 5.2, (2, 100): 4.4, (2, 1000): 11.0}
    calls = []

    def fake_run(cmd, stdout, stderr, text, env):
        args = cmd[cmd.index("--matrix-subs") + 1:]
        n, out = int(args[0]), cmd[cmd.index("--results") + 1]
        r = sum(1 for c in calls if c[0] == n)
        assert env["PYSPARK_PYTHON"]
        calls.append((n, cmd[cmd.index("--equal-selectivity-of") + 1], cmd[cmd.index("--floor-subs") + 1]))
        rows = [{"subs": n, "plan": "indexed", "cpu_median_s": whole[r, n], "match_cpu_median_s": whole[r, n] / 2,
                 "rows_out": 10 * n},
                {"subs": n, "plan": "floor", "cpu_median_s": whole[r, n] / 3, "match_cpu_median_s": None,
                 "rows_out": 10 * n}]
        Path(out).write_text(__import__("json").dumps({"variants": rows}))
        return growth.subprocess.CompletedProcess(cmd, 0, None, "")

    monkeypatch.setattr(growth.subprocess, "run", fake_run)
    res = growth.main(["--counts", "1000,100", "--rounds", "3", "--floor", "--results", str(tmp_path / "g.json")])
    assert [c[0] for c in calls] == [100, 1000, 1000, 100, 100, 1000]
    assert {c[1] for c in calls} == {"1000"} and [c[2] for c in calls] == ["100", "1000", "1000", "100", "100", "1000"]
    # floor = whole / 3: beyond the output rows (12 - 4) / (4 - 4/3) = 3.0 in round 1; the 2.5x
    # target allows (2.5 * 4 - 4) / (4 - 4/3) = 2.25 there
    assert res["ratios"] == {"whole": [3.0, 2.5, 2.5], "matching": [3.0, 2.5, 2.5], "floor": [1.0, 0.83, 0.83],
                             "beyond": [3.0, 2.5, 2.5], "allowed": [2.25, 2.5, 2.5]}
    assert res["medians"] == {"whole": 2.5, "matching": 2.5, "floor": 0.83, "beyond": 2.5, "allowed": 2.5}
    assert "growth 1000 / 100 subs" in res["summary"][0] and (tmp_path / "g.json").exists()
    assert "what the 2.5x target allows that to grow: 2.25x, 2.5x, 2.5x" in res["summary"][-1]
    # --recompute: the same rounds' ratios from the written JSON, without a process; another target
    calls.clear()
    again = growth.main(["--recompute", str(tmp_path / "g.json"), "--target", "3", "--results", str(tmp_path / "h.json")])
    assert not calls and again["per_round"] == res["per_round"] and again["ratios"]["whole"] == res["ratios"]["whole"]
    assert again["ratios"]["allowed"] == [3.0, 3.25, 3.25] and again["target"] == 3.0


def test_growth_stops_on_a_failed_process_and_shows_its_log(monkeypatch, tmp_path, capsys):
    import subprocess

    import pytest

    monkeypatch.syspath_prepend(str(BENCH))
    growth = _load("bench_growth")
    monkeypatch.setattr(growth.subprocess, "run",
                        lambda cmd, **kw: subprocess.CompletedProcess(cmd, 1, None, "java.lang.OutOfMemoryError"))
    with pytest.raises(subprocess.CalledProcessError):
        growth.main(["--rounds", "1", "--results", str(tmp_path / "g.json")])
    assert "OutOfMemoryError" in capsys.readouterr().err and not (tmp_path / "g.json").exists()
