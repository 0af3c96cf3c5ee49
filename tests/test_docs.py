"""Every module's doctests (the Examples sections are tests).

Each module of ``jms_selector_spark`` is one test: ``doctest.DocTestFinder`` collects its
examples (module, classes, functions, methods) and runs them with the module's globals. A module
whose examples use ``spark`` gets the session-scoped SparkSession injected into their globals,
as PySpark's own ``_test()`` functions do, and its test is marked ``spark``; the others run
without a JVM. Options: ELLIPSIS and NORMALIZE_WHITESPACE, as in PySpark.
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest

import jms_selector_spark

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_USES_SPARK = re.compile(r"\bspark\b")


def _module_names() -> list:
    names = [jms_selector_spark.__name__]
    for info in pkgutil.walk_packages(jms_selector_spark.__path__, prefix="jms_selector_spark."):
        names.append(info.name)
    return sorted(names)


def _tests(module) -> list:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, module.__name__) if t.examples]


def _uses_spark(name: str) -> bool:
    module = importlib.import_module(name)
    return any(_USES_SPARK.search(ex.source) and not ex.options.get(doctest.SKIP)
               for t in _tests(module) for ex in t.examples)


def _params():
    out = []
    for name in _module_names():
        try:
            spark = _uses_spark(name)
        except ImportError as exc:  # a back end whose optional dependency is missing
            out.append(pytest.param(name, marks=pytest.mark.skip(reason=f"cannot import {name}: {exc}"), id=name))
            continue
        out.append(pytest.param(name, marks=[pytest.mark.spark] if spark else [], id=name))
    return out


def _run(module, globs_extra: dict) -> tuple:
    runner = doctest.DocTestRunner(optionflags=OPTIONS, verbose=False)  # not from sys.argv: pytest -v
    failures = []
    attempted = 0
    for test in _tests(module):
        test.globs = {**module.__dict__, **globs_extra}
        result = runner.run(test, out=failures.append, clear_globs=True)
        attempted += result.attempted
    return attempted, failures


@pytest.mark.parametrize("name", _params())
def test_doctests(name, request):
    module = importlib.import_module(name)
    extra = {}
    if any(m.name == "spark" for m in request.node.iter_markers()):
        extra["spark"] = request.getfixturevalue("spark")
    attempted, failures = _run(module, extra)
    if _tests(module):
        assert attempted > 0
    assert not failures, f"{name}: doctest failures\n" + "".join(failures)


def test_doctests_are_collected():
    """The modules with examples are found (a finder that finds nothing would pass every test)."""
    with_examples = {n for n in _module_names() if _tests(importlib.import_module(n))}
    assert {"jms_selector_spark.spark.filtering", "jms_selector_spark.spark.sql_functions",
            "jms_selector_spark.translate", "jms_selector_spark.interpreter"} <= with_examples


# -- the documentation site (docs/, mkdocs.yml) ----------------------------------------------------
#
# Every page's examples run (tests/support/doc_blocks.py says how: doctests, ``python`` scripts,
# ``console`` sessions of jms-selector), so no page shows output the code no longer gives; the API
# reference lists every public name; the site builds with ``mkdocs build --strict`` (no broken
# link, reference or anchor); and the repository cites no document it does not contain.

import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import doc_blocks  # noqa: E402

ROOT = doc_blocks.ROOT


def _page_params():
    out = []
    for page in doc_blocks.pages():
        blocks = doc_blocks.runnable(page)
        if not blocks:
            continue
        marks = [pytest.mark.spark] if doc_blocks.needs_spark(blocks) else []
        out.append(pytest.param(page, marks=marks, id=str(page.relative_to(ROOT / "docs"))))
    return out


@pytest.mark.parametrize("page", _page_params())
def test_docs_page_examples(page, request, tmp_path):
    blocks = doc_blocks.runnable(page)
    globs = doc_blocks.public_names()
    if any(m.name == "spark" for m in request.node.iter_markers()):
        globs.update(doc_blocks.spark_tables(request.getfixturevalue("spark")))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        attempted, failures = doc_blocks.run_page(blocks, globs)
    finally:
        os.chdir(cwd)
    assert attempted > 0
    assert not failures, "\n".join(failures)


def test_docs_examples_are_found_and_skips_say_why():
    """The pages hold runnable examples (a finder that finds nothing would pass every test), and a
    block marked not to run says why."""
    runnable = {p.relative_to(ROOT / "docs").as_posix() for p in doc_blocks.pages() if doc_blocks.runnable(p)}
    assert {"guide/selectors.md", "guide/filtering.md", "guide/routing.md", "guide/migration.md",
            "guide/data-model.md", "guide/cli.md", "dialects/index.md", "dialects/wso2.md"} <= runnable
    skipped = [b for p in doc_blocks.pages() for b in doc_blocks.blocks(p) if b.skip is not None]
    assert all(b.skip for b in skipped), [b.where for b in skipped if not b.skip]
    # a RabbitMQ binding, Spark Connect, a streaming job's folders and a Kafka source: need a server or a run
    assert len(skipped) <= 4, [b.where for b in skipped]


def test_api_reference_lists_every_public_name():
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    listed = re.findall(r"^::: jms_selector_spark\.(\w+)$", text, re.M)
    assert sorted(listed) == sorted(jms_selector_spark.__all__), set(listed) ^ set(jms_selector_spark.__all__)
    assert len(listed) == len(set(listed))


@pytest.mark.slow
def test_site_builds_strict(tmp_path):
    """``mkdocs build --strict`` (what ``make docs`` runs): a broken link, anchor or reference, a
    page missing from the nav or a name mkdocstrings cannot render fails the build."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install '.[docs]')")
    pytest.importorskip("mkdocstrings_handlers.python", reason="mkdocstrings[python] is not installed")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    html = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    missing = [n for n in jms_selector_spark.__all__ if f'id="jms_selector_spark.{n}"' not in html]
    assert not missing, f"not rendered in the API reference: {missing}"


_CITATION = r"DESIGN\.md|DIALECTS\.md|STYLE\.md|design-review|\.\./shared"


def test_no_file_cites_a_document_the_repository_does_not_contain():
    """Outside ``.ci/``, the Makefile and ``tests/`` (whose harnesses live beside the checkout),
    no file names DESIGN.md, DIALECTS.md or ``../shared``: the docs define what the code cites.
    (Inside ``tests/``, ``../shared`` names the oracles and harnesses, never a document.)"""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and the repository's history")
    proc = subprocess.run(["git", "grep", "-lE", _CITATION, "--", ".", ":!.ci", ":!Makefile", ":!tests"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.stdout.split() == []
    documents = subprocess.run(["git", "grep", "-lE", r"DESIGN\.md|DIALECTS\.md|STYLE\.md|design-review", "--", "tests", ":!tests/test_docs.py"],
                               cwd=ROOT, capture_output=True, text=True)
    assert documents.stdout.split() == []
