"""The README's ``>>>`` examples run, and print what the README says they print.

Every fenced block of README.md that holds ``>>>`` lines is one doctest (ELLIPSIS and
NORMALIZE_WHITESPACE, as in ``test_docs.py``), run in order with shared globals: the package's
public names, and for the blocks that use them, ``spark`` and the tables the README talks about
(``subscriptions`` and ``messages`` of ``examples/05_spark_submit_job.py``).
"""
from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest

import jms_selector_spark

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
_NEEDS_SPARK = re.compile(r"\b(spark|subscriptions|messages)\b")


def _blocks() -> list:
    """(line number, text) of every fenced block with a ``>>>`` line."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in _FENCE.finditer(text) if ">>>" in m.group(1)]


def _spark_tables(spark) -> dict:
    spec = importlib.util.spec_from_file_location("example05", ROOT / "examples" / "05_spark_submit_job.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return {"spark": spark,
            "messages": jms_selector_spark.spark.sample_data.messages(spark, 100),
            "subscriptions": spark.createDataFrame(example.SUBSCRIPTIONS, "name STRING, selector STRING")}


def _run(blocks, globs) -> tuple:
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=OPTIONS)
    failures, attempted = [], 0
    for line, text in blocks:
        test = parser.get_doctest(text, globs, f"README.md:{line}", str(README), line - 1)
        attempted += runner.run(test, out=failures.append, clear_globs=False).attempted
        globs.update(test.globs)  # a DocTest works on a copy; later blocks use what earlier ones defined
    return attempted, failures


def _public_names() -> dict:
    import jms_selector_spark.spark.sample_data  # noqa: F401  (the tables below)

    return {name: getattr(jms_selector_spark, name) for name in jms_selector_spark.__all__}


def test_readme_examples_without_spark():
    blocks = [b for b in _blocks() if not _NEEDS_SPARK.search(b[1])]
    attempted, failures = _run(blocks, _public_names())
    assert attempted >= 8, "the README's pure-Python examples were not found"
    assert not failures, "".join(failures)


@pytest.mark.spark
def test_readme_examples_with_spark(spark):
    blocks = [b for b in _blocks() if _NEEDS_SPARK.search(b[1])]
    attempted, failures = _run(blocks, {**_public_names(), **_spark_tables(spark)})
    assert attempted >= 3, "the README's Spark examples were not found"
    assert not failures, "".join(failures)
