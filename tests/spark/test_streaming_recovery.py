"""Exactly once across a crash: the driver of a streaming router (tests/support/streaming_driver.py,
queue mode, Spark's file sink with a checkpoint) is killed with SIGKILL in the middle of a
micro-batch that has already written part of its output; restarted from its checkpoint, it
finishes, and what the sink's folder holds (read through its log) is exactly `route` over the
same messages: nothing lost, nothing written twice. Every wait has a deadline."""
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
DEADLINE = 240  # seconds, for each wait


def _messages():
    types, colors = ["car", "truck", "bike"], ["blue", "red", None]
    return [(f"ID:{i:04d}", 5_000 + i, types[(i * 7) % 3], colors[(i // 2) % 3], (i * 131) % 3000)
            for i in range(FILES * PER)]


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
            pytest.fail(f"the driver exited ({proc.returncode}) while waiting for {what}: {_tail(proc)}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"no {what} within {DEADLINE} s")
        time.sleep(0.1)


def test_sigkill_in_the_middle_of_a_micro_batch_then_restart_loses_and_repeats_nothing(spark, tmp_path):
    source, out, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    rows = _messages()
    for k in range(FILES):
        staged = tmp_path / f"staged{k}"
        spark.createDataFrame(rows[k * PER:(k + 1) * PER], DDL).coalesce(1).write.parquet(str(staged))
        source.mkdir(exist_ok=True)
        landed = source / f"{k:03d}.parquet"
        next(staged.glob("part-*.parquet")).rename(landed)
        os.utime(landed, (1_000_000 + k, 1_000_000 + k))  # the file source's order

    proc = _driver((source, out, checkpoint), 600, tmp_path / "first.log")
    try:
        _wait("commit of micro-batch 0", lambda: (checkpoint / "commits" / "0").exists(), proc)
        committed = _parquet_files(out)
        _wait("part of micro-batch 1's output", lambda: (checkpoint / "offsets" / "1").exists()
              and len(_parquet_files(out) - committed) > 0, proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert not (checkpoint / "commits" / "1").exists(), "killed after micro-batch 1 committed: not in the middle"
    orphans = _parquet_files(out) - committed
    assert orphans  # written by the killed micro-batch, never committed

    restarted = _driver((source, out, checkpoint), 0, tmp_path / "restart.log")
    try:
        assert restarted.wait(timeout=DEADLINE) == 0, _tail(restarted)
    finally:
        if restarted.poll() is None:
            os.killpg(restarted.pid, signal.SIGKILL)
    assert (checkpoint / "commits" / str(FILES - 1)).exists()

    sys.path.insert(0, str(DRIVER.parent))
    try:
        from streaming_driver import SUBSCRIPTIONS
    finally:
        sys.path.remove(str(DRIVER.parent))
    cols = ["JMSMessageID", "subscription", "outcome"]
    got = collections.Counter(tuple(r) for r in spark.read.parquet(str(out)).select(*cols).collect())
    archive = spark.read.parquet(str(source))
    want = collections.Counter(tuple(r) for r in jss.route(archive, SUBSCRIPTIONS, mode="queue").select(*cols).collect())
    assert got == want
    assert sum(got.values()) == FILES * PER and max(got.values()) == 1
    assert orphans <= _parquet_files(out)  # still on disk: the sink's log, not the folder, says what counts
