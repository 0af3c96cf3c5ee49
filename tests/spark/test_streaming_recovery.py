"""Exactly once across a crash: the driver of a streaming router (tests/support/streaming_driver.py,
queue mode, Spark's file sink with a checkpoint) is killed with SIGKILL in the middle of a
micro-batch that has already written part of its output; restarted from its checkpoint, it
finishes, and what the sink's folder holds (read through its log) is exactly `route` over the
same messages: nothing lost, nothing written twice. WSO2's rules: the cursor in the checkpoint
and dead letters. Every wait has a deadline. The driver's runs go in the session's background
(`background`), beside the pure-Python tests; the test then compares their output."""
from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import jms_selector_spark as jss

pytestmark = [pytest.mark.spark, pytest.mark.slow]

DRIVER = Path(__file__).resolve().parents[1] / "support" / "streaming_driver.py"
DDL = "JMSMessageID string, JMSTimestamp long, JMSType string, color string, weight long"
FILES, PER = 4, 60
DEADLINE = 400  # seconds, for each wait (beside the other tests' work on 2 cores)


def _messages():
    types, colors = ["car", "truck", "bike"], ["blue", "red", None]
    return [(f"ID:{i:04d}", 5_000 + i, types[(i * 7) % 3], colors[(i // 2) % 3], (i * 131) % 3000)
            for i in range(FILES * PER)]


def _land_files(source: Path) -> None:
    """The messages as FILES Parquet files (pyarrow: no Spark needed), in time order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    source.mkdir(parents=True)
    rows = _messages()
    names = [c.split()[0] for c in DDL.split(", ")]
    types = [pa.string(), pa.int64(), pa.string(), pa.string(), pa.int64()]
    for k in range(FILES):
        chunk = rows[k * PER:(k + 1) * PER]
        table = pa.table({n: pa.array([r[i] for r in chunk], t) for i, (n, t) in enumerate(zip(names, types))})
        landed = source / f"{k:03d}.parquet"
        pq.write_table(table, landed)
        os.utime(landed, (1_000_000 + k, 1_000_000 + k))  # the file source's order


def _driver(args, stall, log: Path):
    """The driver in a session of its own (a SIGKILL of its group takes its JVM and workers too);
    its output goes to ``log`` (a pipe nobody reads could fill and stall it)."""
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1")
    env.pop("PYTHONPATH", None)
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.Popen([sys.executable, str(DRIVER), *map(str, args), str(stall)], env=env,
                                stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
    proc.log = log
    return proc


def _tail(proc) -> str:
    return proc.log.read_text(encoding="utf-8", errors="replace")[-3000:]


def _parquet_files(folder: Path) -> set:
    return {p for p in folder.rglob("*.parquet") if "_spark_metadata" not in p.parts}


def _wait(what, until, proc):
    deadline = time.monotonic() + DEADLINE
    while not until():
        if proc.poll() is not None:
            raise AssertionError(f"the driver exited ({proc.returncode}) while waiting for {what}: {_tail(proc)}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {DEADLINE} s: {_tail(proc)}")
        time.sleep(0.1)


def kill_and_restart(tmp: Path) -> dict:
    """Start the driver, SIGKILL it once micro-batch 1 has written part of its output (and not
    committed), restart it from the checkpoint and wait for it to finish; what was seen."""
    source, out, checkpoint = tmp / "in", tmp / "out", tmp / "checkpoint"
    _land_files(source)
    proc = _driver((source, out, checkpoint), 600, tmp / "first.log")
    try:
        _wait("commit of micro-batch 0", lambda: (checkpoint / "commits" / "0").exists(), proc)
        committed = _parquet_files(out)
        _wait("part of micro-batch 1's output", lambda: (checkpoint / "offsets" / "1").exists()
              and len(_parquet_files(out) - committed) > 0, proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    mid_batch = not (checkpoint / "commits" / "1").exists()
    orphans = _parquet_files(out) - committed
    restarted = _driver((source, out, checkpoint), 0, tmp / "restart.log")
    try:
        code = restarted.wait(timeout=DEADLINE)
    finally:
        if restarted.poll() is None:
            os.killpg(restarted.pid, signal.SIGKILL)
    return {"source": source, "out": out, "mid_batch": mid_batch, "orphans": orphans, "restart_code": code,
            "restart_log": _tail(restarted), "all_committed": (checkpoint / "commits" / str(FILES - 1)).exists()}


_KEY = ("streaming-recovery",)


def start_background(background, tmp_path_factory, items):
    """The driver's runs start with the session, beside the pure-Python tests (`background`)."""
    background.submit(_KEY, kill_and_restart, background.folder(_KEY, tmp_path_factory))


def test_sigkill_in_the_middle_of_a_micro_batch_then_restart_loses_and_repeats_nothing(spark, background,
                                                                                      tmp_path_factory):
    run = background.result(_KEY, kill_and_restart, background.folder(_KEY, tmp_path_factory))
    assert run["mid_batch"], "killed after micro-batch 1 committed: not in the middle"
    assert run["orphans"]  # written by the killed micro-batch, never committed
    assert run["restart_code"] == 0, run["restart_log"]
    assert run["all_committed"]

    sys.path.insert(0, str(DRIVER.parent))
    try:
        from streaming_driver import SUBSCRIPTIONS
    finally:
        sys.path.remove(str(DRIVER.parent))
    cols = ["JMSMessageID", "subscription", "outcome"]
    got = collections.Counter(tuple(r) for r in spark.read.parquet(str(run["out"])).select(*cols).collect())
    archive = spark.read.parquet(str(run["source"]))
    want = collections.Counter(tuple(r) for r in jss.route(archive, SUBSCRIPTIONS, mode="queue", routing="wso2")
                               .select(*cols).collect())
    assert got == want
    assert sum(got.values()) == FILES * PER and max(got.values()) == 1
    assert {o for _, _, o in got} == {"delivered", "dead_letter"}
    assert run["orphans"] <= _parquet_files(run["out"])  # still on disk: the sink's log says what counts
