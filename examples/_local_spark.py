"""Shared by the examples (not an example itself): a quiet local SparkSession, and progress.

``start_spark`` gives a local session without Spark's start-up chatter (log4j's "default profile"
line, the loopback-address and native-hadoop warnings, "Setting default log level") and without
the console progress bar: the JVM gets a log4j2 configuration at ERROR before it starts, which
``setLogLevel`` afterwards cannot do. ``progress`` logs, every few seconds while a block runs,
the tasks completed so far over all the stages of the running jobs (e.g. ``7/12 tasks``), so a
long step shows movement instead of one stage's ``0/2``.
"""
from __future__ import annotations

import atexit
import logging
import os
import shutil
import tempfile
import threading
import time
from contextlib import contextmanager

log = logging.getLogger("examples")

# log4j2 for the driver JVM: errors only, so nothing but the example's own output reaches the terminal.
_LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
# the shell's level: set, so Spark does not announce a "default log level" on stderr
logger.repl.name = org.apache.spark.api.python.PythonGatewayServer
logger.repl.level = error
"""


def start_spark(app_name: str, *, master: str = "local[2]", **conf):
    """A quiet local session (no UI, no progress bar, JVM logging at ERROR), UTC, Arrow on.

    ``conf``: more Spark settings, e.g. ``start_spark("x", **{"spark.sql.shuffle.partitions": "2"})``.
    """
    from pyspark.sql import SparkSession

    log_dir = tempfile.mkdtemp(prefix="jms_examples_")
    atexit.register(shutil.rmtree, log_dir, True)
    conf_file = os.path.join(log_dir, "log4j2.properties")
    with open(conf_file, "w", encoding="utf-8") as fh:
        fh.write(_LOG4J2)
    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={conf_file}")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true"))
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


@contextmanager
def progress(spark, label: str, every: float = 5.0):
    """Log ``label`` every ``every`` s while the block runs: the tasks completed over all the
    stages the block has started so far (finished stages included), then the block's time."""
    tracker = spark.sparkContext.statusTracker()
    done = threading.Event()
    seen = {}  # stage id -> (completed, total), kept after the stage finishes

    def report():
        while not done.wait(every):
            for sid in tracker.getActiveStageIds():
                info = tracker.getStageInfo(sid)
                if info is not None:
                    seen[sid] = (info.numCompletedTasks, info.numTasks)
            for sid, (_, total) in list(seen.items()):
                info = tracker.getStageInfo(sid)
                if info is not None:
                    seen[sid] = (info.numCompletedTasks, info.numTasks)
            finished = sum(d for d, _ in seen.values())
            total = sum(t for _, t in seen.values())
            what = (f"{finished}/{total} tasks in {len(seen)} stage{'s' if len(seen) != 1 else ''}"
                    if seen else "no task started yet")
            log.info("  … %s (%.0f s): %s", label, time.time() - t0, what)

    t0 = time.time()
    thread = threading.Thread(target=report, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        log.info("  %s: done in %.1f s", label, time.time() - t0)
