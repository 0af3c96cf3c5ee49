"""Shared fixtures: ONE SparkSession for the whole run (session scope), the oracle, and ``dialect``.

Spark tests are marked ``spark`` and batched (many cases in one DataFrame): a session costs ~6 s
to start, the first query ~4 s, later small queries ~0.25 s. Without Java they skip with a reason.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

import pytest

from jms_selector_spark.semantics.dialects import DIALECTS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))


def _java_missing() -> "str | None":
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime found (Spark needs a JVM)"
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed (pip install '.[spark]')"
    return None


def pytest_collection_modifyitems(config, items):
    """``@pytest.mark.full_grammar``: the test writes operators (OR, NOT, <, BETWEEN, arithmetic…)
    that a dialect with an operator subset (`Dialect.operators`; MQe) rejects at parse time. Such a
    (test, dialect) pair is not a case at all, so it is deselected (pytest's summary counts it),
    not skipped; the subset has its own tests (tests/unit/test_seed_ibm.py)."""
    keep, dropped = [], []
    for item in items:
        name = getattr(item, "callspec", None) and item.callspec.params.get("dialect")
        subset = name in DIALECTS and DIALECTS[name].operators is not None
        (dropped if item.get_closest_marker("full_grammar") and subset else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture(scope="session", params=sorted(DIALECTS))
def dialect(request) -> str:
    """Every built-in dialect by name, from `jms_selector_spark.semantics.dialects.DIALECTS`: a new dialect is
    tested by every test that takes ``dialect`` without any list being edited."""
    return request.param


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """A local[2] SparkSession, ANSI on (the Spark 4 default), UTC, Arrow enabled."""
    reason = _java_missing()
    if reason:
        pytest.skip(reason)
    # Python workers must run the interpreter that has pandas/pyarrow.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    warehouse = tmp_path_factory.mktemp("warehouse")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("jms_selector_spark-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.warehouse.dir", str(warehouse))
        .config("spark.driver.memory", "2g")
        .config("spark.sql.ansi.enabled", "true")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@contextlib.contextmanager
def sql_conf(spark, pairs: dict):
    """Temporarily set Spark SQL confs (restored afterwards), e.g. ANSI on/off."""
    old = {k: spark.conf.get(k, None) for k in pairs}
    try:
        for k, v in pairs.items():
            spark.conf.set(k, v)
        yield
    finally:
        for k, v in old.items():
            if v is None:
                spark.conf.unset(k)
            else:
                spark.conf.set(k, v)


#: Every session setting that can change the meaning of a naive translation.
SESSION_SETTINGS = [
    {"spark.sql.ansi.enabled": a, "spark.sql.caseSensitive": c, "spark.sql.parser.escapedStringLiterals": e}
    for a in ("true", "false")
    for c in ("false", "true")
    for e in ("false", "true")
]


@pytest.fixture(scope="session")
def oracle():
    """The ActiveMQ oracle's `run_oracle`, or a skip with the reason it cannot run."""
    from oracle import oracle_unavailable_reason, run_oracle

    reason = oracle_unavailable_reason()
    if reason:
        pytest.skip(reason)
    return run_oracle
