"""Spark Connect: every entry point over a local Connect server, with the package shipped by
`jms_selector_spark.spark.connect.ship`.

A Connect session cannot start in a process that already runs a classic SparkSession (the
``spark`` fixture): PySpark raises ``SESSION_ALREADY_EXIST`` (measured). So the checks run in ONE
subprocess (tests/support/connect_checks.py, one session, a handful of batched queries) and this
test compares its answers with the reference interpreter's.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jms_selector_spark import SelectorError, evaluate, parse

pytestmark = [pytest.mark.spark, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))
import connect_checks as cc  # noqa: E402


def _connect_missing() -> "str | None":
    try:
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies()
    except Exception as e:  # ImportError, or PySpark's own "missing dependency" error
        return f"the connect extras are not installed (pip install -c constraints.txt '.[connect]'): {e}"
    return None


def expected(selector: str, dialect: str = "jms") -> list:
    sel = parse(selector, dialect=dialect)
    names = [c.split()[0] for c in cc.SCHEMA.split(", ")]
    out = []
    for row in cc.ROWS:
        msg = dict(zip(names, row))
        headers = {k: v for k, v in msg.items() if k.startswith("JMS")}
        props = {k: v for k, v in msg.items() if not k.startswith("JMS") and v is not None}
        if evaluate(sel, headers, props) is True:
            out.append(msg["JMSMessageID"])
    return sorted(out)


@pytest.fixture(scope="module")
def answers():
    reason = _connect_missing()
    if reason:
        pytest.skip(reason)
    env = {**os.environ, "PYSPARK_PYTHON": os.environ.get("PYSPARK_PYTHON", sys.executable)}
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "support" / "connect_checks.py")],
                          capture_output=True, text=True, env=env, timeout=600, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_entry_point_over_spark_connect(answers, spark):
    native, hybrid = expected(cc.NATIVE), expected(cc.HYBRID, "activemq")
    assert native == ["m1"] and hybrid == ["m1", "m3", "m5"]  # the data exercises both
    assert answers["session"].startswith("pyspark.sql.connect")
    assert answers["selector_to_sql"] == native
    assert answers["jms_filter_native"] == native
    assert answers["jms_filter_hybrid"] == hybrid
    assert answers["jms_match"] == native
    assert answers["amq_match"] == hybrid
    with pytest.raises(SelectorError) as err:
        parse("a = AND")
    assert answers["selector_error"] == f"{type(err.value).__name__}: {err.value}"  # as in a classic session
    assert answers["register_selector"] == hybrid
    # route: the same answer as in the classic session (matches, and the dead letters m2 and m4)
    from jms_selector_spark import route

    classic = route(spark.createDataFrame(cc.ROWS, cc.SCHEMA), cc.SUBSCRIPTIONS, mode="topic", dialect="activemq")
    want = sorted([r.JMSMessageID, r.subscription] for r in classic.select("JMSMessageID", "subscription").collect())
    assert answers["route"] == want
    matched = {m for m, name in want if name is not None}
    assert matched == {m for name, text in cc.SUBSCRIPTIONS.items() if name != "broken"
                       for m in expected(text, "activemq")}


def test_the_workers_import_the_shipped_zip(answers):
    name = answers["shipped"]
    assert name.startswith("jms_selector_spark-") and name.endswith(".zip")
    assert f"/{name}/jms_selector_spark/__init__.py" in answers["worker_import"]


def test_ship_refuses_a_classic_session(spark):
    from jms_selector_spark.spark import connect

    with pytest.raises(TypeError, match="spark-submit --py-files"):
        connect.ship(spark)


def test_the_zip_is_deterministic_and_complete():
    import io
    import zipfile

    from jms_selector_spark.spark import connect

    data = connect.pyfiles_zip_bytes()
    assert data == connect.pyfiles_zip_bytes()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "jms_selector_spark/__init__.py" in names and "jms_selector_spark/spark/connect.py" in names
    assert "ply/yacc.py" in names and not any("__pycache__" in n for n in names)
