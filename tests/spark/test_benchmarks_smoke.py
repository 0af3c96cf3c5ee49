"""Smoke test of the native-path benchmark (benchmarks/bench_native.py) at a tiny scale.

Runs its ``main`` in this test session's SparkSession (it must not stop it), into a temporary
directory, and checks what it reports: equal match counts, the same pushed filters as the
hand-written filters, row-group pruning on the JMSTimestamp range, and the JSON it writes.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.spark

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_native.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_native", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def run(bench, spark, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bench")
    results = bench.main(["--rows", "50000", "--reps", "1", "--warmup", "0", "--files", "10", "--data-dir", str(tmp)], spark=spark)
    return tmp, results


def test_reports_equal_match_counts_and_same_pushdown(bench, run):
    tmp, results = run
    assert results["rows_total"] == 50_000
    names = [r["name"] for r in results["selectors"]]
    assert names == [name for name, _, _ in bench.selectors()]
    for r in results["selectors"]:
        assert r["rows_matched_jms"] == r["rows_matched_hand"] == r["rows_matched"], r["name"]
        assert 0 < r["rows_matched"] < 50_000, r["name"]
        assert len(r["jms_times_s"]) == len(r["hand_times_s"]) == 1
        assert r["ratio_hand_over_jms"] == pytest.approx(r["hand_median_s"] / r["jms_median_s"], rel=0.01)
        # the generated fragment pushes exactly what the hand-written filter pushes
        assert r["jms_scan"]["pushed_filters"] and r["same_pushed_filters"], (
            r["name"], r["fragment"], r["jms_scan"]["pushed_filters"], r["hand_scan"]["pushed_filters"])


def test_timestamp_range_prunes_row_groups(run):
    _, results = run
    (ts,) = [r for r in results["selectors"] if r["name"] == "timestamp-1pct"]
    jms_rows, hand_rows = ts["jms_scan"]["scan_rows"], ts["hand_scan"]["scan_rows"]
    # 10 files of 5,000 rows, each a contiguous timestamp range: a 1 % range touches one or two
    assert ts["rows_matched"] <= jms_rows <= 10_000
    assert jms_rows == hand_rows
    assert ts["jms_scan"]["files_read"] == ts["hand_scan"]["files_read"]
    # every other selector reads the whole archive (their values are spread over all row groups)
    assert all(r["jms_scan"]["scan_rows"] == 50_000 for r in results["selectors"] if r is not ts)


def test_writes_json_and_reuses_the_archive(bench, run, spark):
    tmp, results = run
    on_disk = json.loads((tmp / "results" / "native.json").read_text())
    assert on_disk["selectors"] == json.loads(json.dumps(results["selectors"]))
    assert on_disk["summary"] and "match counts equal" in on_disk["summary"][0]
    logged = []
    path = bench.ensure_archive(spark, tmp, 50_000, 7, 10, log=logged.append)
    assert logged and logged[0].startswith("reusing") and path.exists()


def test_unequal_match_counts_fail_the_run(bench, spark, tmp_path, monkeypatch):
    monkeypatch.setattr(bench, "selectors", lambda: [("wrong", "color = 'blue'", "color = 'red'")])
    with pytest.raises(AssertionError, match="wrong: jms_filter matched"):
        bench.main(["--rows", "2000", "--reps", "1", "--warmup", "0", "--data-dir", str(tmp_path)], spark=spark)
