"""Packaging: ``make dist`` builds a wheel, an sdist and the ``--py-files`` zip, and all three work
outside this checkout.

- The zip holds the package and PLY (pure Python), no parser tables; ``python -S`` with only the
  zip on ``PYTHONPATH`` imports from it, parses and evaluates, and writes nothing.
- ``spark-submit --py-files <zip>`` on a multi-process Spark (``local-cluster[2,1,1024]``: a
  master, two executor JVMs, their own Python workers) runs ``examples/05_spark_submit_job.py``
  with a Python that does NOT have the package, and the executors import it from the zip.
- The wheel installs into a fresh virtualenv (its dependency, ``ply``, from the package index)
  and ``examples/01_parse_and_evaluate.py`` runs with it, outside the checkout.
- The wheel with its ``spark`` extra installs into a fresh virtualenv that already has another
  supported PySpark (`OLDER_SPARK`: 4.1.4 with pandas 2.2.3 and pyarrow 18.1.0), keeps them, and
  ``tools/smoke_installed.py`` runs `jms_filter`, `route` and `jms_match` there. Skipped with
  the reason when the package index cannot be reached.

``make dist DIST=<tmp>`` runs once per module (``-o .venv/.installed``: never re-create the venv
from inside a test).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV_PY = ROOT / ".venv" / "bin" / "python"
FORBIDDEN = ("parsetab.py", "lextab.py", "parser.out")


def _version() -> str:
    namespace: dict = {}
    exec((ROOT / "jms_selector_spark" / "_version.py").read_text(), namespace)
    return namespace["__version__"]


def _can_make() -> bool:
    return shutil.which("make") is not None and VENV_PY.exists()


def _make_dist(out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([shutil.which("make"), "-C", str(ROOT), "-o", ".venv/.installed", "dist", f"DIST={out}"],
                          capture_output=True, text=True, timeout=600)


def _dist_then_submit(background, tmp_path_factory):
    """``make dist``, then the spark-submit job on its zip (one background run)."""
    out = background.folder(("dist",), tmp_path_factory)
    made = background.result(("dist",), _make_dist, out)
    if made.returncode != 0:
        return None
    return _submit_job(out, background.folder(("spark-submit",), tmp_path_factory))


def start_background(background, tmp_path_factory, items):
    """``make dist`` and, when its test is selected, the spark-submit job (`background`)."""
    if not _can_make():
        return
    background.submit(("dist",), _make_dist, background.folder(("dist",), tmp_path_factory))
    if any(item.name == "test_spark_submit_py_files_on_local_cluster" for item in items):
        background.submit(("spark-submit",), _dist_then_submit, background, tmp_path_factory)


@pytest.fixture(scope="module")
def dist(background, tmp_path_factory) -> Path:
    """``make dist`` into a temporary folder: the wheel, the sdist and the zip."""
    if not _can_make():
        pytest.skip("needs make and the project's .venv (make setup)")
    out = background.folder(("dist",), tmp_path_factory)
    proc = background.result(("dist",), _make_dist, out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    names = sorted(p.name for p in out.iterdir())
    v = _version()
    assert names == sorted([f"jms_selector_spark-{v}-pyfiles.zip", f"jms_selector_spark-{v}-py3-none-any.whl",
                            f"jms_selector_spark-{v}.tar.gz"]), names
    return out


def _zip(dist: Path) -> Path:
    return dist / f"jms_selector_spark-{_version()}-pyfiles.zip"


def _package_modules() -> set:
    pkg = ROOT / "jms_selector_spark"
    return {f"jms_selector_spark/{p.relative_to(pkg).as_posix()}" for p in pkg.rglob("*.py")
            if "__pycache__" not in p.parts}


@pytest.mark.slow
def test_pyfiles_zip_holds_the_package_and_ply_and_no_tables(dist):
    names = set(zipfile.ZipFile(_zip(dist)).namelist())
    assert _package_modules() <= names, sorted(_package_modules() - names)
    assert {"ply/__init__.py", "ply/lex.py", "ply/yacc.py"} <= names
    assert not [n for n in names if n.endswith(FORBIDDEN) or "__pycache__" in n or n.endswith(".pyc")]
    assert all(n.startswith(("jms_selector_spark/", "ply/")) for n in names), sorted(names)


def test_wheel_holds_the_package_and_requires_ply(dist):
    wheel = zipfile.ZipFile(dist / f"jms_selector_spark-{_version()}-py3-none-any.whl")
    names = set(wheel.namelist())
    assert _package_modules() <= names, sorted(_package_modules() - names)
    assert not [n for n in names if n.endswith(FORBIDDEN) or n.startswith(("tests/", "examples/"))]
    metadata = wheel.read(f"jms_selector_spark-{_version()}.dist-info/METADATA").decode()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist: ")]
    assert "Requires-Dist: ply<4,>=3.11" in requires
    assert "Requires-Dist: pyspark<5,>=4.1; extra == \"spark\"" in requires
    # ranges, never exact pins: a cluster's own PySpark, pandas and pyarrow must satisfy them
    assert not [line for line in requires if "==" in line.split(";")[0]], requires


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_import_from_the_zip_alone_works_and_writes_nothing(dist, tmp_path):
    """``python -S``: no site-packages at all (so neither the editable install nor PLY from the
    venv); the zip is the only thing on ``PYTHONPATH``. Parsing builds the PLY tables in memory."""
    zf = _zip(dist)
    before, listing = _digest(zf), sorted(dist.iterdir())
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    code = ("import jms_selector_spark as j, ply; "
            "print(j.__file__); print(ply.__file__); "
            "print(j.evaluate(\"color = 'blue' AND weight > 2500\", properties={'color': 'blue', 'weight': 3000})); "
            "print(j.parse('a LIKE \\'x%\\' ESCAPE \\'!\\'', dialect='activemq').canonical())")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(zf)
    proc = subprocess.run([sys.executable, "-S", "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"{zf}/jms_selector_spark/__init__.py"
    assert lines[1] == f"{zf}/ply/__init__.py"
    assert lines[2] == "True"
    assert "LIKE" in lines[3]
    assert list(cwd.iterdir()) == [] and sorted(dist.iterdir()) == listing
    assert _digest(zf) == before


def _python_without_the_package(tmp_path: Path) -> Path:
    """A throwaway venv that sees this venv's third-party packages but not jms_selector_spark.

    The venv is made from the base interpreter without pip (about a second). One ``.pth`` file in
    its site-packages names this venv's site-packages: Python appends that folder to
    ``sys.path``, but it processes ``.pth`` files only in its own site folders, so the editable
    install's ``__editable__…pth`` (the finder that maps ``jms_selector_spark`` to the checkout)
    is never run. pyspark, pandas, pyarrow and numpy import; ``jms_selector_spark`` does not
    (asserted), so the job can only get it from ``--py-files``.
    """
    env_dir = tmp_path / "pyenv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "spark_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    probe = subprocess.run(
        [str(python), "-c", "import importlib.util, pyspark, pandas, pyarrow; "
                            "print(importlib.util.find_spec('jms_selector_spark'))"],
        capture_output=True, text=True, cwd=tmp_path, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "None", "the throwaway Python must not see the package"
    return python


def _submit_job(dist: Path, tmp_path: Path) -> dict:
    """Run examples/05 with spark-submit on the zip of ``dist`` (see the test); the process and
    the folders the test checks."""
    import pyspark

    python = _python_without_the_package(tmp_path)
    # Standalone workers keep each executor's folder (with its copy of the zip) in
    # $SPARK_HOME/work: inside site-packages for pip's pyspark. So SPARK_HOME is a temporary
    # folder of symlinks to pyspark's own bin/, jars/, python/… and its work/ is ours.
    pyspark_home = Path(pyspark.__file__).parent
    spark_home = tmp_path / "spark_home"
    spark_home.mkdir()
    for entry in pyspark_home.iterdir():
        if entry.name != "work":
            (spark_home / entry.name).symlink_to(entry)
    submit = Path(sys.executable).parent / "spark-submit"
    if not submit.exists():
        submit = spark_home / "bin" / "spark-submit"
    zf = _zip(dist)
    run_dir, out = tmp_path / "run", tmp_path / "out"
    run_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYSPARK_SUBMIT_ARGS")}
    env.update(PYSPARK_PYTHON=str(python), PYSPARK_DRIVER_PYTHON=str(python), SPARK_HOME=str(spark_home),
               JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1")  # short-lived JVMs start faster without C2
    cmd = [str(submit), "--master", "local-cluster[2,1,1024]", "--py-files", str(zf),
           "--conf", "spark.ui.enabled=false", "--conf", "spark.ui.showConsoleProgress=false",
           str(ROOT / "examples" / "05_spark_submit_job.py"), "--rows", "3000", "--out", str(out)]
    started = time.time()
    proc = subprocess.run(cmd, cwd=run_dir, env=env, capture_output=True, text=True, timeout=420)
    return {"proc": proc, "started": started, "spark_home": spark_home, "pyspark_home": pyspark_home, "zf": zf,
            "run_dir": run_dir, "out": out}


@pytest.mark.spark
@pytest.mark.slow
def test_spark_submit_py_files_on_local_cluster(dist, background, tmp_path_factory):
    """``spark-submit --master 'local-cluster[2,1,1024]' --py-files <zip>`` (runs from pip's
    pyspark: a standalone master and two workers in separate JVMs, each executor with its own
    Python workers), driver and workers on a Python without the package, from a temporary cwd."""
    job = background.result(("spark-submit",), _dist_then_submit, background, tmp_path_factory)
    assert job is not None, "make dist failed"
    proc, started, spark_home, pyspark_home, zf, run_dir, out = (
        job[k] for k in ("proc", "started", "spark_home", "pyspark_home", "zf", "run_dir", "out"))
    print(proc.stdout)  # shown with pytest -s / on failure: the executors' __file__ lines
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    lines = proc.stdout.splitlines()
    assert "master: local-cluster[2,1,1024]" in lines
    inside = f"{zf.name}/jms_selector_spark/__init__.py"
    driver = [line for line in lines if line.startswith("driver   jms_selector_spark: ")]
    assert driver == [f"driver   jms_selector_spark: {zf}/jms_selector_spark/__init__.py"], lines
    executors = [line for line in lines if line.startswith("executor jms_selector_spark: ")]
    assert executors and all(line.startswith(f"executor jms_selector_spark: {spark_home}/work/app-")
                             and inside in line for line in executors), lines
    assert not (pyspark_home / "work").exists() or (pyspark_home / "work").stat().st_mtime < started
    assert "jms_match on the executors and native SQL agree on 3 of 3 subscriptions" in lines
    assert any("broken" in line and "INVALID" in line for line in lines)
    written = sorted(p.name for p in (out / "matches").iterdir() if p.name.startswith("subscription="))
    assert written == ["subscription=blue-heavy-cars", "subscription=gold-eu", "subscription=irish-urgent"]
    assert list(run_dir.iterdir()) == [] or all(p.name in ("spark-warehouse", "metastore_db", "derby.log")
                                               for p in run_dir.iterdir())


@pytest.mark.slow
def test_wheel_in_a_fresh_virtualenv_runs_example_01(dist, tmp_path):
    """A new venv from the base interpreter, ``pip install <wheel>`` (ply comes from the package
    index: the wheel's only dependency; example 01 needs no Spark), then the example from a
    temporary cwd, so nothing of the checkout is on ``sys.path``."""
    base = getattr(sys, "_base_executable", sys.executable)
    env_dir = tmp_path / "wenv"
    subprocess.run([base, "-m", "venv", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    wheel = dist / f"jms_selector_spark-{_version()}-py3-none-any.whl"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    pip = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, env=env, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    where = subprocess.run([str(python), "-c", "import jms_selector_spark as j, ply; print(j.__file__); print(ply.__version__)"],
                           capture_output=True, text=True, cwd=cwd, env=env, check=True).stdout.splitlines()
    assert where[0].startswith(str(env_dir)) and where[1] == "3.11", where
    assert (env_dir / "bin" / "jms-selector").exists()  # the console script of the entry point
    proc = subprocess.run([str(python), str(ROOT / "examples" / "01_parse_and_evaluate.py")],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "canonical: JMSType = 'car' AND color = 'blue' AND weight > 2500" in proc.stdout
    assert "SelectorSyntaxError: unexpected 'AND' at line 1, column 20" in proc.stdout
    assert list(cwd.iterdir()) == []


#: Another supported PySpark than constraints.txt's, with the oldest pandas and pyarrow the
#: ranges of setup.cfg allow (PySpark 4.0 is excluded there: it has no ``arrow_udf``).
OLDER_SPARK = ("pyspark==4.1.4", "pandas==2.2.3", "pyarrow==18.1.0")


def _index_unreachable(python: Path, tmp_path: Path, env: dict) -> "str | None":
    """None when pip can fetch from the package index; else why not (for the skip)."""
    probe = subprocess.run([str(python), "-m", "pip", "download", "-q", "--no-deps", "--disable-pip-version-check",
                            "-d", str(tmp_path / "probe"), "ply==3.11"], capture_output=True, text=True, env=env,
                           timeout=300)
    return None if probe.returncode == 0 else f"the package index cannot be reached: {probe.stderr.strip()[-300:]}"


@pytest.mark.spark
@pytest.mark.slow
def test_wheel_beside_an_older_pyspark_runs_filter_route_and_match(dist, tmp_path):
    """``pip install <wheel>[spark]`` into a virtualenv that already has `OLDER_SPARK`: pip keeps
    them (the extra's ranges allow them), and the smoke script prints their versions and the
    results of `jms_filter`, `route` and `jms_match` (through ``spark.sql``, so an Arrow UDF runs
    in the workers), each checked against the reference evaluator."""
    base = getattr(sys, "_base_executable", sys.executable)
    env_dir = tmp_path / "older"
    subprocess.run([base, "-m", "venv", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYSPARK_SUBMIT_ARGS")}
    reason = _index_unreachable(python, tmp_path, env)
    if reason:
        pytest.skip(reason)
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    proc = subprocess.run([*pip, *OLDER_SPARK], capture_output=True, text=True, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheel = dist / f"jms_selector_spark-{_version()}-py3-none-any.whl"
    proc = subprocess.run([*pip, f"{wheel}[spark]"], capture_output=True, text=True, env=env, timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    frozen = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True, env=env,
                            check=True).stdout.splitlines()
    assert set(OLDER_SPARK) <= set(frozen), frozen  # the extra did not replace the environment's versions
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env.update(PYSPARK_PYTHON=str(python), PYSPARK_DRIVER_PYTHON=str(python), JAVA_TOOL_OPTIONS="-XX:TieredStopAtLevel=1")
    proc = subprocess.run([str(python), str(ROOT / "tools" / "smoke_installed.py")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    print(proc.stdout)  # shown with pytest -s: the versions and what each entry point returned
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"jms_selector_spark {_version()} from {env_dir}")
    assert lines[1].startswith("pyspark 4.1.4, pandas 2.2.3, pyarrow 18.1.0")
    assert lines[-1] == "smoke: ok"
