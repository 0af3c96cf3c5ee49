"""The issue-#18 corpora (ActiveMQ's quirks, `convert_string_expressions:`) through the
vectorized evaluator, each case as a one-row batch, against the checked-in verdicts.

The reference interpreter runs them in test_conformance.py and the Spark SQL back end in
tests/spark/test_sql_backend.py (every *.jsonl); this covers the third back end.
"""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest

import jms_selector_spark as jss
from jms_selector_spark.backends.arrow.evaluator import evaluate_batch
from jms_selector_spark.language.types import JmsType
from oracle import decode_value

HERE = Path(__file__).parent
CORPORA = ["activemq-quirks.jsonl", "activemq-convert.jsonl"]
ARROW = {"boolean": pa.bool_(), "byte": pa.int8(), "short": pa.int16(), "int": pa.int32(), "long": pa.int64(),
         "float": pa.float32(), "double": pa.float64(), "string": pa.string()}


def _cases():
    for name in CORPORA:
        path = HERE / name
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    yield name, json.loads(line)


@pytest.mark.parametrize("dialect", ["jms", "activemq"])
def test_corpora_through_the_vectorized_evaluator(dialect):
    bad, checked = [], 0
    for corpus, case in _cases():
        if dialect not in case:
            continue
        props = case["message"].get("properties", {})
        try:
            sel = jss.parse(case["selector"], dialect=dialect)
        except jss.SelectorError:
            got = "invalid"
        else:
            cols = {k: (JmsType.parse(p["type"]), pa.array([decode_value(p)], ARROW[p["type"]])) for k, p in props.items()}
            got = evaluate_batch(sel, cols, 1).to_pylist()[0]
        checked += 1
        if got != case[dialect]:
            bad.append(f"{corpus}:{case['id']}: {case['selector']!r} expected {case[dialect]!r}, got {got!r}")
    assert checked > 0
    assert not bad, f"{len(bad)}/{checked} differ:\n" + "\n".join(bad[:30])
