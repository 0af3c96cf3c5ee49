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

from jms_selector_spark.language.dialects import DIALECTS

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


@pytest.hookimpl(trylast=True)  # after pytest's own reordering (by the session-scoped `dialect`)
def pytest_collection_modifyitems(config, items):
    """Two kinds of (test, dialect) pairs are deselected (pytest's summary counts them), not skipped:

    - ``@pytest.mark.full_grammar``: the test writes operators (OR, NOT, <, BETWEEN, arithmetic…)
      that a dialect with an operator subset (`Dialect.operators`; MQe) rejects at parse time. Such
      a pair is not a case at all; the subset has its own tests (tests/unit/test_seed_ibm.py).
    - ``@pytest.mark.package_grammar``: the test's selectors or expectations are the package's own
      grammar (its trees, literal folding, error messages); a dialect that reads selectors with the
      RabbitMQ JMS client's grammar (`Dialect.rabbitmq_client_grammar`: rabbitmq-jms) has its own
      tests (tests/unit/test_rabbitmq_term.py, the client's corpus).
    - a Spark test (tests/spark) in a dialect outside `dialect_sample.SPARK_DIALECTS`: the SQL text
      depends only on the rules lowering.py and binder.py decide, and the sample holds every value
      of each (today it leaves out ibmmq, qpid and qpid-jms, which differ from the sample only in
      grammar, literals and static checks). A Spark test costs seconds per dialect,
      and batching dialects into one DataFrame does not make it cheaper (the cost is Spark planning
      and compiling each fragment). Every dialect still runs in tests/unit and tests/conformance.
    """
    from dialect_sample import SPARK_DIALECTS

    spark_dir = ROOT / "tests" / "spark"
    keep, dropped = [], []
    for item in items:
        name = getattr(item, "callspec", None) and item.callspec.params.get("dialect")
        subset = name in DIALECTS and DIALECTS[name].operators is not None
        client = name in DIALECTS and DIALECTS[name].rabbitmq_client_grammar
        unsampled = (name in DIALECTS and name not in SPARK_DIALECTS and _from_the_dialect_fixture(item)
                     and spark_dir in Path(str(item.fspath)).parents)
        own_grammar = item.get_closest_marker("package_grammar") and client
        (dropped if item.get_closest_marker("full_grammar") and subset or unsampled or own_grammar
         else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    # the pure-Python tests first (while the background runs use the other core), then the Spark
    # tests, then the tests that check a background run (`background`); a stable sort
    items[:] = sorted(keep, key=_phase)


def _phase(item) -> int:
    if hasattr(getattr(item, "module", None), "start_background"):
        return 2
    return 1 if item.get_closest_marker("spark") else 0


@pytest.fixture(scope="session")
def background():
    """The session's `background.Background` (runs started by the modules' ``start_background``)."""
    from background import Background

    runs = Background()
    yield runs
    runs.shutdown()


@pytest.fixture(scope="session", autouse=True)
def _start_background(request, background, tmp_path_factory):
    """Before the first test: each selected module's background runs (`background`)."""
    modules: dict = {}
    for item in request.session.items:
        start = getattr(getattr(item, "module", None), "start_background", None)
        if start is not None:
            modules.setdefault(item.module, []).append(item)
    for module, items in modules.items():
        module.start_background(background, tmp_path_factory, items)


def _from_the_dialect_fixture(item) -> bool:
    """Whether the item's ``dialect`` is the `dialect` fixture's (not a test's own parametrize, as
    tests/spark/test_seed_ibm_backends.py's for the dialects it is about)."""
    defs = item._fixtureinfo.name2fixturedefs.get("dialect") or ()
    return bool(defs) and defs[-1].func.__name__ == "dialect"


@pytest.fixture(scope="session", params=sorted(DIALECTS))
def dialect(request) -> str:
    """Every built-in dialect by name, from `jms_selector_spark.language.dialects.DIALECTS`: a new dialect is
    tested by every test that takes ``dialect`` without any list being edited."""
    return request.param


#: The test JVM's collector. The suite is thousands of short queries whose cost is Spark planning
#: and compiling (the data are small): the parallel collector spends less CPU on them than G1, the
#: default. Measured on 2 cores (tests/spark/test_sql_backend.py and test_route_templates.py, jms
#: and activemq): G1 103.6-108.8 s wall / 178-187 CPU s, parallel 90.7 s / 152, serial 94.0-98.3 s
#: / 147-157. C1 alone (-XX:TieredStopAtLevel=1, as tests/test_examples.py's short-lived JVMs) is
#: slower here: the session lives for the whole run, and C2's code pays (207 -> 286 s wall).
TEST_JVM = "-XX:+UseParallelGC"


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
        .config("spark.driver.extraJavaOptions", TEST_JVM)
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
