"""Every module's doctests (the Examples sections are tests, STYLE.md 6.9).

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
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
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
