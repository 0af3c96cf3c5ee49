"""Smoke test of benchmarks/bench_before_after.py at a tiny scale: the older commit's package is
really the older one, both translate every selector to the same SQL, and the figures are reported."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.spark, pytest.mark.bench]

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_before_after.py"


#: The benchmark selectors whose SQL changed since ce90b23 on purpose: issue #34 dropped the NaN
#: guard of `price * 2 < 50.5` (Spark orders NaN above every number, as Java's `<` needs).
CHANGED = ("priority-price-color",)


def _run(spark, argv: list):
    """(the benchmark module, what its ``main(argv)`` returned) in this test session."""
    if shutil.which("git") is None or subprocess.run(["git", "-C", str(ROOT), "rev-parse", "ce90b23"],
                                                     capture_output=True).returncode:
        pytest.skip("needs git and commit ce90b23 (a git checkout of the project)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location("bench_before_after", BENCH)
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
        return bench, bench.main(argv, spark=spark)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_compile_section_compares_two_packages(spark, tmp_path):
    bench, results = _run(spark, ["--rows", "2000", "--only", "compile", "--compile-blocks", "2", "--compile-calls", "2",
                                  "--data-dir", str(tmp_path)])
    # ce90b23 is before the split: its spark_sql defines V itself; this checkout's takes it from sql_render
    old = sys.modules[bench.BEFORE_NAME + ".backends.spark_sql"]
    assert old.V.__module__ == bench.BEFORE_NAME + ".backends.spark_sql"
    from jms_selector_spark.backends.sql import generator as spark_sql

    assert spark_sql.V.__module__ == "jms_selector_spark.backends.sql.render"
    names = [r["name"] for r in results["compile"]]
    assert len(names) == 9 and all(r["median_us"]["before"] > 0 and r["median_us"]["after"] > 0 for r in results["compile"])
    assert (tmp_path / "results" / "before_after.json").exists() and results["summary"]
    assert [r["name"] for r in results["compile"] if not r["same_sql"]] == list(CHANGED)


def test_native_section_pairs_rounds_and_repeats_short_queries(spark, tmp_path):
    bench, results = _run(spark, ["--rows", "2000", "--only", "native", "--reps", "2", "--warmup", "0",
                                  "--min-time", "0.05", "--data-dir", str(tmp_path)])
    for r in results["native"]:
        # how many runs a sample takes depends on the machine's load (tests/unit/test_bench_timing.py checks the count)
        assert r["same_sql"] == (r["name"] not in CHANGED) and r["runs_per_sample"] >= 1, r["name"]
        assert r["same_plan_before_after"] or not r["same_sql"], r["name"]  # the same SQL: the same physical plan
        assert set(r["paired"]) == {"hand/before", "hand/after", "before/after"}
        assert all(len(v) == 2 for v in r["times_s"].values())
    assert any("worst paired ratio" in line for line in results["summary"])
    assert "native, paired" in bench.table(results)
    # the generated filter of blue-heavy-cars optimizes to exactly the hand-written one
    assert {r["name"]: r["same_plan_as_hand"] for r in results["native"]}["blue-heavy-cars"]
