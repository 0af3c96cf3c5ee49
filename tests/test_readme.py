"""The README's examples run, and print what the README says they print.

The README's fenced blocks run as ``tests/support/doc_blocks.py`` says (doctests, ``python``
scripts, ``console`` sessions of ``jms-selector``), in order, in two groups with shared globals:
the blocks that need no Spark, then those that use ``spark`` and the tables the README talks
about (``messages``, 100 sample messages, and ``subscriptions``, those of
``examples/05_spark_submit_job.py``). The README's ``make demo`` output is checked against a
real run of the demo in ``tests/test_examples.py`` (every line but the numbers). The README is
also the package's long description: it stays short (at most 400 lines).
"""
from __future__ import annotations

import os

import pytest

import doc_blocks

README = doc_blocks.ROOT / "README.md"


def _blocks(spark: bool) -> list:
    return [b for b in doc_blocks.runnable(README) if doc_blocks.needs_spark([b]) == spark]


def _run(blocks, globs, tmp_path) -> tuple:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        return doc_blocks.run_page(blocks, globs)
    finally:
        os.chdir(cwd)


def test_readme_examples_without_spark(tmp_path):
    attempted, failures = _run(_blocks(False), doc_blocks.public_names(), tmp_path)
    assert attempted >= 6, "the README's pure-Python examples were not found"
    assert not failures, "\n".join(failures)


@pytest.mark.spark
def test_readme_examples_with_spark(spark, tmp_path):
    globs = {**doc_blocks.public_names(), **doc_blocks.spark_tables(spark)}
    attempted, failures = _run(_blocks(True), globs, tmp_path)
    assert attempted >= 10, "the README's Spark examples were not found"
    assert not failures, "\n".join(failures)


def test_readme_is_short_and_says_how_to_start():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400
    for must in ("make demo", "make test", "pip install", "Java 17", "PYSPARK_PYTHON", "--py-files"):
        assert must in text, must
    assert doc_blocks.readme_demo_output(), "the README shows make demo's output"


def test_readme_links_point_at_files_of_the_repository():
    """The README is read on its own (PyPI, a repository browser): its relative links must exist."""
    import re

    text = README.read_text(encoding="utf-8")
    targets = {m.split("#")[0] for m in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in m}
    missing = [t for t in sorted(targets) if t and not (README.parent / t).exists()]
    assert targets and not missing, missing
