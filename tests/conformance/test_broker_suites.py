"""Issue #14: every broker dialect against its own broker's selector test suite
(``other-brokers.jsonl``, see ``tests/support/broker_suites.py``), through the reference
interpreter and the vectorized evaluator; the Spark SQL back end runs the same cases in
``tests/spark/test_broker_suites_sql.py``.

Each dialect must agree with its suite on at least 98 % of the cases, and the cases where it does
not are exactly the ones listed, with a reason, in `broker_suites.KNOWN` and on the dialect pages
(docs/dialects/).
"""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

import jms_selector_spark as jss
from jms_selector_spark.backends.arrow.evaluator import evaluate_batch
from jms_selector_spark.language.types import JmsType
from broker_suites import KNOWN, SUITES, agrees, cases_for, run_case
from oracle import decode_value

DIALECT_PAGES = Path(__file__).resolve().parents[2] / "docs" / "dialects"
ARROW = {"boolean": pa.bool_(), "byte": pa.int8(), "short": pa.int16(), "int": pa.int32(), "long": pa.int64(),
         "float": pa.float32(), "double": pa.float64(), "string": pa.string()}


def vectorized(sel, case):
    props = case["message"].get("properties", {})
    cols = {k: (JmsType.parse(p["type"]), pa.array([decode_value(p)], ARROW[p["type"]])) for k, p in props.items()}
    return evaluate_batch(sel, cols, 1).to_pylist()[0]


@pytest.mark.parametrize("name", sorted(SUITES))
def test_dialect_agrees_with_its_broker_suite(name):
    cases = cases_for(name)
    assert cases
    disagree = {c["id"]: (c["selector"], c["expect"], got) for c in cases
                if not agrees(c["expect"], got := run_case(c, name))}
    assert set(disagree) == set(KNOWN[name]), {k: v for k, v in disagree.items() if k not in KNOWN[name]}
    assert (len(cases) - len(disagree)) / len(cases) >= 0.98


def test_every_remaining_case_is_listed_on_a_dialect_page():
    text = "".join(p.read_text(encoding="utf-8") for p in DIALECT_PAGES.glob("*.md"))
    missing = [cid for known in KNOWN.values() for cid in known if f"`{cid}`" not in text]
    assert not missing


def test_broker_dialect_cases_through_the_vectorized_evaluator(dialect):
    """The suite's cases on properties only (headers are bound by each back end's binder, which
    the SQL test covers): the vectorized evaluator equals the interpreter."""
    checked, bad = 0, []
    for case in cases_for(dialect):
        want = run_case(case, dialect)
        try:
            sel = jss.parse(case["selector"], dialect=dialect)
        except jss.SelectorError:
            continue
        if any(sel.dialect.header_for(i) is not None for i in sel.identifiers):
            continue
        got = vectorized(sel, case)
        checked += 1
        if got != want:
            bad.append((case["id"], case["selector"], want, got))
    if SUITES.get(dialect):
        assert checked > 50
    assert not bad, bad[:20]
