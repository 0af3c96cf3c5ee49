"""Every ``examples/*.py`` runs (pycparser's rule: examples are tests), on small inputs.

Each example runs in its own process, as a user runs it (``python examples/<name>.py …``), from a
temporary working folder, and must exit 0 and print its key lines; where an example writes
Parquet, what it wrote is checked against the reference interpreter `evaluate` (read back with
pyarrow, no Spark). The Spark examples each start their own local Spark; to keep the suite fast
they run in the session's background runs (`background`: started before the first test, while the
pure-Python tests run), and their JVMs run with ``JAVA_TOOL_OPTIONS=-XX:TieredStopAtLevel=1`` (no
C2 compiler: for these short-lived JVMs it costs more than it saves; measured on 2 cores: example
04 in 12 s, not 24 s).
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import jms_selector_spark as jss

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TIMEOUT = 420
FAST_JVM = "-XX:TieredStopAtLevel=1"

#: example → (needs Spark, extra arguments; "{out}" is a temporary folder)
RUNS = {
    "01_parse_and_evaluate.py": (False, []),
    "02_etl_selector_to_sql.py": (True, ["--rows", "5000", "--out", "{out}"]),
    "03_spark_sql_jms_match.py": (True, ["--rows", "2000"]),
    "04_property_layouts.py": (True, ["--rows", "3000"]),
    "05_spark_submit_job.py": (True, ["--rows", "3000", "--out", "{out}"]),
    "route_demo.py": (True, ["--rows", "4000", "--out", "{out}"]),
    "streaming_router.py": (True, ["--rows", "2000", "--files", "3", "--interval", "0.5", "--out", "{out}"]),
}


#: The examples that start Spark through examples/_local_spark.py: nothing from Spark on stderr.
QUIET = {"02_etl_selector_to_sql.py", "03_spark_sql_jms_match.py", "04_property_layouts.py", "route_demo.py",
         "streaming_router.py"}


def test_every_example_is_run_here_and_says_what_it_shows():
    files = sorted(p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_"))  # _*.py: shared helpers
    assert files == sorted(RUNS), "add the new example to RUNS (and a check below)"
    for name in files:
        doc = ast.get_docstring(ast.parse((EXAMPLES / name).read_text(encoding="utf-8")))
        assert doc and len(doc.splitlines()) >= 3, f"{name}: a module docstring saying what it shows"
        assert f"examples/{name}" in doc, f"{name}: the docstring says how to run it"


def _run(name, tmp: Path) -> subprocess.CompletedProcess:
    out = tmp / "out"
    args = [a.replace("{out}", str(out)) for a in RUNS[name][1]]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, JAVA_TOOL_OPTIONS=FAST_JVM)
    cwd = tmp / "cwd"
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


def start_background(background, tmp_path_factory, items):
    """Every selected example, started at once in the session's background runs (the longest
    first): a test then waits for its own."""
    names = {item.callspec.params["name"] for item in items if hasattr(item, "callspec") and "name" in item.callspec.params}
    for name in sorted(names, key=lambda n: n != "route_demo.py"):
        _submit(background, tmp_path_factory, name)


def _submit(background, tmp_path_factory, name):
    key = ("example", name)
    tmp = background.folder(key, tmp_path_factory)
    return background.submit(key, _run, name, tmp), tmp


def _params():
    return [pytest.param(name, marks=[pytest.mark.spark, pytest.mark.slow] if spark else [], id=name)
            for name, (spark, _) in sorted(RUNS.items())]


@pytest.mark.parametrize("name", _params())
def test_example(name, background, tmp_path_factory, request):
    if RUNS[name][0]:
        request.getfixturevalue("spark")  # skips cleanly (with the reason) when there is no JVM
    future, tmp = _submit(background, tmp_path_factory, name)
    proc = future.result()
    assert proc.returncode == 0, f"{name} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr[-4000:]}"
    CHECKS[name](proc.stdout, proc.stderr, tmp / "out")
    if name in QUIET:  # Spark's start-up chatter is switched off (examples/_local_spark.py)
        noise = [line for line in proc.stderr.splitlines()
                 if "log4j" in line or " WARN " in line or "setLogLevel" in line or "[Stage" in line]
        assert not noise, f"{name}: Spark start-up noise on stderr: {noise[:3]}"


# -- what each example must print (and write) ------------------------------------------------------

def _read(path: Path) -> list:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist() if path.exists() else []


_HEADERS = ("JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSType", "JMSPriority", "JMSDeliveryMode",
            "JMSRedelivered")
_TYPES = {"weight": "long", "price": "double", "quantity": "int", "urgent": "boolean", "discount": "float"}


def _matches(selector, row, dialect="jms") -> bool:
    headers = {k: row[k] for k in _HEADERS if row.get(k) is not None}
    props = {k: v for k, v in row.items() if k not in _HEADERS}
    return jss.evaluate(selector, headers, props, dialect=dialect, types=_TYPES) is True


def check_01(stdout, stderr, out):
    assert "canonical: JMSType = 'car' AND color = 'blue' AND weight > 2500" in stdout
    assert "{'color': 'blue', 'weight': 3000}        -> True" in stdout
    assert "{'color': 'blue'}                        -> None" in stdout
    assert "SelectorSyntaxError: unexpected 'AND' at line 1, column 20" in stdout


def check_02(stdout, stderr, out):
    pushed = next(line for line in stdout.splitlines() if line.startswith("PushedFilters: ["))
    for f in ("EqualTo(JMSType,car)", "EqualTo(color,blue)", "GreaterThan(weight,2500)",
              "StringStartsWith(region,EU-)"):
        assert f in pushed, pushed
    selector = "JMSType = 'car' AND color = 'blue' AND weight > 2500 AND region LIKE 'EU-%'"
    archive = _read(out / "archive")
    want = sorted(r["JMSMessageID"] for r in archive if _matches(selector, r))
    got = sorted(r["JMSMessageID"] for r in _read(out / "blue-eu-cars"))
    assert len(archive) == 5000 and got == want and want
    assert f"{len(want):,} of 5,000 messages written to" in stdout


def check_03(stdout, stderr, out):
    assert "same rows as jms_match: True" in stdout
    assert "plan runs Python: jms_match True / heavy_blue False" in stdout
    m = re.search(r"^messages: (\d+) / jms_filter: (\d+)$", stdout, re.M)
    assert m and m.group(1) == m.group(2), stdout
    assert "Python evaluates only: __jms_blue_car_ltd_0(customer)" in stdout, stdout
    assert "invalid subscription 'broken':" in stdout
    assert "SelectorSyntaxError: unexpected 'AND' at line 1, column 20" in stdout
    names = re.findall(r"^\|\s*(blue-heavy|gold-eu|high-priority|broken)\|", stdout, re.M)
    assert names == ["blue-heavy", "gold-eu", "high-priority"], stdout  # the invalid one matches nothing


def check_04(stdout, stderr, out):
    counts = {}
    selector = None
    for line in stdout.splitlines():
        if line.startswith("selector: "):
            selector = line[len("selector: "):]
        m = re.match(r"\s+(flat|struct|map|variant)\s+([\d,]+) messages", line)
        if m:
            counts[(selector, m.group(1))] = int(m.group(2).replace(",", ""))
    first, second = "color = 'blue' AND tier IN ('gold', 'silver')", "weight > 2500 AND JMSType = 'truck'"
    assert len({counts[(first, lay)] for lay in ("flat", "struct", "map", "variant")}) == 1 and counts[(first, "flat")] > 0
    assert counts[(second, "flat")] == counts[(second, "struct")] == counts[(second, "variant")] > 0
    assert counts[(second, "map")] == 0  # strings in a MAP<STRING, STRING> never compare with numbers
    assert "weight > 2500 with weight the string '2600' -> False / with the number 2600 -> True" in stdout


def check_05(stdout, stderr, out):
    lines = stdout.splitlines()
    assert "jms_match on the executors and native SQL agree on 3 of 3 subscriptions" in lines
    assert any(line.split()[:2] == ["broken", "INVALID"] for line in lines)
    assert any(line.startswith("executor jms_selector_spark: ") for line in lines)
    written = sorted(p.name for p in (out / "matches").iterdir() if p.name.startswith("subscription="))
    assert written == ["subscription=blue-heavy-cars", "subscription=gold-eu", "subscription=irish-urgent"]


def check_demo(stdout, stderr, out):
    """The summary on a clean stdout; progress on stderr; every output folder equals `evaluate`."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        import route_demo
    finally:
        sys.path.remove(str(EXAMPLES))
    lines = stdout.splitlines()
    assert lines[0].startswith("Routed 4,000 messages to 12 subscriptions (topic mode, dialect activemq")
    assert re.match(r"Routed .*: route \+ writing the outputs \d+\.\d s$", lines[0])
    assert re.match(r"Whole job \d+\.\d s: start \(imports, Spark\) \d+\.\d s, archive \d+\.\d s, route \+ write \d+\.\d s, "
                    r"cross-checks \d+\.\d s \(local\[2\] on \d+ cores, load average \d+\.\d\)$", lines[1])
    assert not [line for line in lines if re.match(r"\d\d:\d\d:\d\d |\d\d/\d\d/\d\d|WARN|\[Stage", line)]
    assert "[1/4] writing 4,000 messages" in stderr and "[3/4] routing" in stderr
    errors = jss.subscription_errors(route_demo.SUBSCRIPTIONS, dialect="activemq")
    assert sorted(errors) == ["broken"]
    assert any(line.startswith("broken") and "INVALID" in line for line in lines)
    assert "  SelectorSyntaxError: unexpected 'AND' at line 1, column 20" in lines
    runs = {line.split()[0]: line for line in lines if line.split() and line.split()[0] in
            {n for n, _, _ in route_demo.SUBSCRIPTIONS}}
    assert " native " in runs["long-names-ending-s"] and " fallback " in runs["eu-by-split"]
    assert " hybrid (1 native + 1 fallback) " in runs["ltd-invoices"]
    assert stdout.count("same as route") == 2 and "DIFFERS" not in stdout
    archive = _read(out / "archive")
    assert len(archive) == 4000
    valid = [(n, s) for n, s, _ in route_demo.SUBSCRIPTIONS if n not in errors]
    hits = {n: sorted(r["JMSMessageID"] for r in archive if _matches(s, r, "activemq")) for n, s in valid}
    for name, want in hits.items():
        got = sorted(r["JMSMessageID"] for r in _read(out / "subscriptions" / name))
        assert got == want, name
        assert (out / "subscriptions" / name).is_dir()
        assert re.search(rf"^{re.escape(name)}\s+(yes|no)\s+{len(want):,}\s", stdout, re.M), name
    routed = {m for ids in hits.values() for m in ids}
    dead = sorted(r["JMSMessageID"] for r in _read(out / "dead-letters"))
    assert dead == sorted(r["JMSMessageID"] for r in archive if r["JMSMessageID"] not in routed) and dead
    assert not (out / "subscriptions" / "broken").exists()
    # the README shows make demo's output (500,000 messages): the same lines but for the numbers
    from doc_blocks import readme_demo_output, shape

    readme = readme_demo_output()
    assert readme and shape(readme) == shape(stdout), "README's make demo output differs from the demo's"


def check_streaming(stdout, stderr, out):
    """One line per micro-batch (one file each), the rows per folder, and the stream equal to `route`
    over the whole archive; each folder, read through the sink's log, holds its rows."""
    batches = re.findall(r"^micro-batch (\d+): ([\d,]+) messages routed in [\d,]+ ms$", stdout, re.M)
    assert [b for b, _ in batches] == ["0", "1", "2"] and sum(int(n.replace(",", "")) for _, n in batches) == 2000
    assert "streamed == batch route: True (2,000 rows, 0 duplicated)" in stdout, stdout
    rows = re.findall(r"^(delivered|dead_letter)\s+(\S+)\s+([\d,]+)$", stdout, re.M)
    assert {(o, s) for o, s, _ in rows} >= {("delivered", "cars"), ("delivered", "eu"), ("dead_letter", "-")}
    assert (out / "routed" / "outcome=delivered" / "subscription=cars").is_dir()
    assert (out / "routed" / "_spark_metadata").is_dir() and (out / "checkpoint" / "commits").is_dir()


CHECKS = {"01_parse_and_evaluate.py": check_01, "02_etl_selector_to_sql.py": check_02,
          "03_spark_sql_jms_match.py": check_03, "04_property_layouts.py": check_04,
          "05_spark_submit_job.py": check_05, "route_demo.py": check_demo, "streaming_router.py": check_streaming}
