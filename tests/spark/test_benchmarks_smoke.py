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

pytestmark = [pytest.mark.spark, pytest.mark.bench]

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


# -- bench_udf.py and bench_route.py (issues #4 and #6), at a tiny scale --------------------------

def _load(name):
    path = BENCH.parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def udf_run(spark, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bench_udf")
    results = _load("bench_udf").main(
        ["--rows", "6000", "--reps", "1", "--xjoin-rows", "3000", "--xjoin-reps", "1", "--subs", "12",
         "--invalid", "2", "--batch-reps", "2", "--data-dir", str(tmp)], spark=spark)
    return tmp, results


def test_udf_bench_counts_agree_between_all_paths(udf_run):
    tmp, results = udf_run
    assert results["rows_total"] == 6_000
    assert [s["label"] for s in results["selectors"]] == ["simple", "complex"]
    for s in results["selectors"]:
        counts = {k: i["rows_out"] for k, i in s["inspect"].items()}
        assert set(counts) == {"native", "register_selector", "jms_match_api", "jms_match_sql", "fallback_udf",
                               "fallback_sql", "arrow_udf", "arrow_udf_struct", "row_udf", "row_udf_pickled"}
        assert len(set(counts.values())) == 1 and 0 < s["rows_matched"] < 6_000, (s["label"], counts)
        # only the Python variants send rows to Python, and every row
        native = {"native", "register_selector"}
        assert all(s["inspect"][k]["rows_to_python"] == 0 for k in native)
        assert all(i["rows_to_python"] == 6_000 for k, i in s["inspect"].items() if k not in native), s["inspect"]
        for k, f in s["variants"].items():
            assert len(f["times_s"]) == 1 and f["median_s"] > 0, k
        r = s["ratios"]["jms_match_api_vs_arrow_udf"]
        assert r["wall"] == pytest.approx(s["variants"]["arrow_udf"]["median_s"] / s["variants"]["jms_match_api"]["median_s"],
                                          rel=0.01)


def test_udf_bench_hybrid_sends_only_the_survivors_of_the_native_part(udf_run):
    _, results = udf_run
    h = results["hybrid"]["inspect"]
    assert h["hybrid_jms_filter"]["rows_out"] == h["hybrid_sql_function"]["rows_out"] == h["jms_match_whole"]["rows_out"] > 0
    assert h["hybrid_sql_function"]["rows_to_python"] == h["hybrid_jms_filter"]["rows_to_python"]
    # the native conjuncts are pushed down and the UDF sees only the rows that pass them
    assert "EqualTo(JMSType,car)" in h["hybrid_jms_filter"]["pushed_filters"][0]
    assert h["hybrid_jms_filter"]["rows_to_python"] == h["native_part_only"]["rows_out"] < 6_000 / 5
    assert h["jms_match_whole"]["rows_to_python"] == 6_000


def test_udf_bench_cross_join_equals_route_and_match_batch_shapes(udf_run):
    tmp, results = udf_run
    x = results["xjoin"]
    assert x["messages"] == 3000 and x["subscriptions"] == 12 and x["invalid"] == 2
    counts = {k: i["rows_out"] for k, i in x["inspect"].items()}
    assert len(set(counts.values())) == 1 and x["pairs_matched"] == counts["route_topic"] > 0
    assert x["inspect"]["per_row_jms_match"]["rows_to_python"] == 3000 * 12
    assert x["inspect"]["per_row_jms_match"]["joins"] == ["BroadcastNestedLoopJoinExec BuildRight"]
    shapes = results["match_batch"]["shapes"]
    assert [v["distinct_selectors"] for v in shapes.values()] == [12, 1, 1]
    assert sum(results["match_batch"]["profile_by_module_pct"].values()) == pytest.approx(100, abs=0.5)
    on_disk = json.loads((tmp / "results" / "udf.json").read_text())
    assert on_disk["summary"] and on_disk["xjoin"]["pairs_matched"] == x["pairs_matched"]


def test_route_bench_counts_agree_with_separate_passes(spark, tmp_path):
    results = _load("bench_route").main(
        ["--rows", "20000", "--subs", "30", "--invalid", "2", "--sample-passes", "4", "--reps", "1",
         "--data-dir", str(tmp_path)], spark=spark)
    assert results["rows_total"] == 20_000 and results["subscriptions"] == 30
    assert (results["native"], results["fallback"], results["invalid"]) == (28, 0, 2)
    topic, queue = results["modes"]["topic"], results["modes"]["queue"]
    assert queue["rows_out"] == 20_000  # every message exactly once
    assert topic["rows_out"] == results["matched_pairs"] + results["dead_letters"]
    sp = results["separate_passes"]
    # each sampled pass matched exactly the rows route gave that subscription (checked in the run)
    assert sp["measured"] == 4 and sp["of_valid"] == 28 and sp["rows_checked_against_route"]
    assert sp["extrapolated_total_s"] == pytest.approx(sp["mean_s"] * 28, rel=0.01, abs=0.1)
    assert "EXTRAPOLATED from 4 measured" in results["summary"][1]
    assert topic["codegen"] and all("max_method_bytes" in c for c in topic["codegen"])
    assert all(v > 0 for v in topic["planning"].values())
    assert json.loads((tmp_path / "results" / "route.json").read_text())["modes"]["queue"]["rows_out"] == 20_000


def test_report_bench_times_the_report_against_the_route_pass(spark, tmp_path):
    results = _load("bench_report").main(
        ["--rows", "3000", "--subs", "20", "--reps", "1", "--stages", "--data-dir", str(tmp_path)], spark=spark)
    assert results["rows"] == 3000 and results["subscriptions"] == 20
    assert results["ratio_report_over_route_pass"] == pytest.approx(
        results["median_s"]["report"] / results["median_s"]["route pass"])
    assert {"report_input", "volume", "overlap", "dead_letter_reasons", "write_report"} <= set(results["stages_s"])
    assert results["figures"]["routed_rows"] > 0 and results["figures"]["html_bytes"] > 0
    on_disk = json.loads((tmp_path / "results" / "report.json").read_text())
    assert on_disk["summary"][0].startswith("report: 20 subscriptions x 3,000 messages")


def test_route_bench_with_fallback_subscriptions(spark, tmp_path):
    results = _load("bench_route").main(
        ["--rows", "5000", "--subs", "12", "--invalid", "1", "--fallback", "2", "--sample-passes", "3", "--reps", "1",
         "--data-dir", str(tmp_path)], spark=spark)
    assert results["dialect"] == "activemq" and (results["fallback"], results["invalid"]) == (2, 1)
    assert results["modes"]["queue"]["rows_out"] == 5000


def test_route_scale_bench_times_each_phase(spark, tmp_path):
    results = _load("bench_route_scale").main(
        ["--scale", "60,180", "--rows", "3000", "--reps", "2", "--data-dir", str(tmp_path)], spark=spark)
    assert [r["subs"] for r in results["scale"]] == [60, 180]  # templates, no codegen guard: all whole-stage
    for r in results["scale"]:
        assert r["estates"] == 2 and all(r[k] > 0 for k in ("build_s", "codegen_s", "compile_s")), r
        # each estate's code is new: Spark really compiled it (its class cache did not answer)
        assert all(c >= 1 for c in r["compiles"]) and all(0 < b <= 8000 for b in r["max_method_bytes"]), r
        assert r["first_run"]["wall"] > 0 and r["second_run"]["wall"] > 0
    assert len(results["summary"]) == 5 and "3.0x the subscriptions" in results["summary"][0]
    on_disk = json.loads((tmp_path / "results" / "route_scale.json").read_text())
    assert [r["compiles"] for r in on_disk["scale"]] == [r["compiles"] for r in results["scale"]]


def test_route_at_10000_subscriptions_compiles_to_jit_able_methods(spark, tmp_path):
    """`route`'s topic plan for 10,000 of the generator's subscriptions (#16's scale target): every
    generated method within HotSpot's 8,000-byte JIT limit (stop 30: 7,336 B). Its size grows with
    the values the templates read per message, so it is held here, not only printed by --scale."""
    bench, scale = _load("bench_route"), _load("bench_route_scale")
    path = _load("bench_native").ensure_archive(spark, tmp_path, 2000, 7, 1, log=lambda *_: None)
    _, row = scale.plan_and_compile(spark, spark.read.parquet(str(path)), bench.subscriptions(10_000))
    assert row["compiles"] >= 1 and row["stages"] >= 1, row
    assert row["max_method_bytes"] is not None and 0 < row["max_method_bytes"] <= 8000, row


def test_route_matrix_bench_outputs_agree_between_plans(spark, tmp_path):
    results = _load("bench_route").main(
        ["--matrix", "--rows", "5000", "--reps", "1", "--matrix-subs", "10,30", "--baseline-subs", "30",
         "--worst-subs", "30", "--matching", "--data-dir", str(tmp_path)], spark=spark)
    v = {(r["kind"], r["subs"], r["plan"], r["hugeMethodLimit"]): r for r in results["variants"]}
    assert len(v) == 7 and results["outputs_equal"]
    # --matching: every variant also timed as its matching alone, in the same round, and its ratios given
    assert all(len(r["match_runs"]) == len(r["runs"]) == 1 and r["match_median_s"] > 0 for r in v.values())
    whats = [q["what"] for q in results["ratios"]]
    assert "today's single CASE / indexed (default settings), 30 subs (matching alone)" in whats
    assert "no access predicates: indexed / today's, 30 subs (matching alone)" in whats
    # the matching alone: one array per message, the same names (as sets) from both plans
    bench, messages = _load("bench_route"), spark.read.parquet(str(tmp_path / "messages-flat-5000-seed7"))
    subs = bench.subscriptions(30, invalid=0)
    sums = [bench.routed_df(messages, subs, plan, output=False).selectExpr(
        "count(*) AS n", "sum(size(__m)) AS pairs", "sum(CAST(xxhash64(sort_array(__m)) AS DECIMAL(38, 0))) AS h").first()
        for plan in ("indexed", "baseline")]
    assert sums[0] == sums[1] and sums[0]["n"] == 5000 and 0 < sums[0]["pairs"] < v[("realistic", 30, "indexed", None)]["rows_out"]
    # same rows from every plan of the same subscriptions (fingerprints asserted in the run)
    assert v[("realistic", 30, "indexed", None)]["rows_out"] == v[("realistic", 30, "baseline", None)]["rows_out"]
    assert v[("realistic", 30, "indexed", None)]["groups"] > 0 and v[("no-access", 30, "indexed", None)]["groups"] == 0
    assert v[("realistic", 30, "indexed", None)]["evaluated_per_message"] < 30
    assert any(q["what"].startswith("default / tuned") for q in results["ratios"])
    assert (tmp_path / "results" / "route_matrix.json").exists()


def test_route_matrix_bench_equal_selectivity_estates(spark, tmp_path):
    bench = _load("bench_route")
    results = bench.main(
        ["--matrix", "--equal-selectivity", "--rows", "5000", "--reps", "1", "--matrix-subs", "10,30",
         "--baseline-subs", "", "--worst-subs", "", "--floor-subs", "30", "--data-dir", str(tmp_path)], spark=spark)
    shares = results["equal_selectivity"]
    assert set(shares) == {10, 30} and results["outputs_equal"]
    # --floor-subs: the output rows alone, as many as the estate's pass writes less at most one per message
    v = {(r["subs"], r["plan"]): r for r in results["variants"] if r["hugeMethodLimit"] is None}
    routed, floor = v[(30, "indexed")]["rows_out"], v[(30, "floor")]["rows_out"]
    assert routed - 5000 <= floor <= routed and floor >= 5000 and len(v[(30, "floor")]["runs"]) == 1
    assert "output rows alone (floor) / indexed whole pass, 30 subs" in [q["what"] for q in results["ratios"]]
    # the 10-subscription estate is drawn from the 30 by their measured selectivity, not their order
    messages = spark.read.parquet(str(tmp_path / "messages-flat-5000-seed7"))
    estates, means = bench.equal_selectivity_estates(messages, [10, 30])
    assert means == shares and estates[30] == bench.subscriptions(30, invalid=0)
    assert set(estates[10]) < set(estates[30]) and estates[10] != estates[30][:10]
    assert abs(means[10] - means[30]) <= 0.1 * means[30]


def test_route_stages_probe(spark, tmp_path):
    probe = _load("probe_route_stages")
    out = probe.main(["--rows", "5000", "--subs", "30", "--reps", "1", "--data-dir", str(tmp_path)], spark=spark)
    assert set(out["wall"]) == {"scan", "floor", "floor:guarded", "match:indexed", "match:baseline", "full:indexed", "full:baseline"}
    assert out["rows_out"] > 5000 and all(v > 0 for v in out["wall"].values())
    assert spark.range(1).count() == 1  # the probe left the test session running
    # the derived figures, on medians given by hand
    d = probe.derived({"scan": 1.0, "floor": 3.0, "match:indexed": 2.0, "match:baseline": 9.0,
                       "full:indexed": 5.0, "full:baseline": 12.0})
    assert d["matching alone: baseline / indexed"] == 8.0 and d["full: baseline / indexed"] == 2.4
    assert d["bound (indexed matching free)"] == 3.0 and d["explode (full - match), indexed s"] == 3.0
    # the medians of a 5,000-message CI run where full:indexed - matching was 0: no ratio, no crash
    d = probe.derived({"scan": 0.03, "floor": 0.05, "floor:guarded": 0.07, "match:indexed": 0.18,
                       "match:baseline": 0.11, "full:indexed": 0.15, "full:baseline": 0.11})
    assert d["bound (indexed matching free)"] is None and d["matching alone: baseline / indexed"] == 0.53


def test_route_lookup_probe(spark, tmp_path):
    probe = _load("probe_route_lookup")
    out = probe.main(["--rows", "3000", "--keys", "4,40", "--reps", "1", "--data-dir", str(tmp_path)], spark=spark)
    assert set(out) == {4, 40} and all(set(v) == {"map", "join"} for v in out.values())  # sums asserted equal inside
    assert spark.range(1).count() == 1  # the probe left the test session running


def test_route_ranges_probe(spark, tmp_path):
    probe = _load("probe_route_ranges")
    out = probe.main(["--rows", "3000", "--windows", "300", "--realistic", "100", "--reps", "1",
                      "--data-dir", str(tmp_path)], spark=spark)  # outputs asserted equal inside
    assert set(out) == {"300 windows", "100 realistic"}
    assert out["300 windows"]["split"] and not out["100 realistic"]["split"]
    assert spark.range(1).count() == 1  # the probe left the test session running


def test_before_after_route_section_compares_equal_outputs(spark, tmp_path):
    """bench_before_after --only route: `route` of an older commit's package against this one's,
    the same estates, outputs asserted equal, before / after ratios given."""
    results = _load("bench_before_after").main(
        ["--before", "HEAD", "--rows", "3000", "--reps", "1", "--only", "route",
         "--route-estates", "realistic:30,no-access:12", "--data-dir", str(tmp_path),
         "--results", str(tmp_path / "ba.json")], spark=spark)
    rows = {r["name"]: r for r in results["route"]}
    assert list(rows) == ["realistic 30", "no-access 12"]
    assert all(r["rows_out"] > 3000 and r["before_over_after"] > 0 and len(r["times_s"]["after"]) == 1
               for r in rows.values())
    assert any(line.startswith("route realistic 30: before / after") for line in results["summary"])
    assert json.loads((tmp_path / "ba.json").read_text())["route"][0]["name"] == "realistic 30"
