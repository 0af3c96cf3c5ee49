"""`match_batch` (what ``jms_match`` runs on each Arrow batch) without Spark: every shape of the
selector column — one literal, one literal with NULLs, all NULL, interleaved, invalid — against
`evaluate` row by row, two-valued and three-valued."""
from __future__ import annotations

import random

import pyarrow as pa
import pytest

from jms_selector_spark import evaluate
from jms_selector_spark.backends.udf import error_batch, match_batch

COLORS = ["blue", "red", None, "O'Brien"]
N = 257
SEL = ["color = 'blue' AND weight > 2500", "weight BETWEEN 1000 AND 3000 OR color LIKE 'O''%'",
       "NOT (color = 'red')", "color = ", ""]


def _messages(seed=1):
    rnd = random.Random(seed)
    colors = [rnd.choice(COLORS) for _ in range(N)]
    weights = [rnd.choice([None, 10, 2501, 3000, 9000]) for _ in range(N)]
    return pa.StructArray.from_arrays([pa.array(colors, pa.string()), pa.array(weights, pa.int64())],
                                      names=["color", "weight"]), list(zip(colors, weights))


def _expected(selectors, rows, three_valued):
    out = []
    for sel, (color, weight) in zip(selectors, rows):
        if sel is None:
            out.append(True)
            continue
        try:
            props = {k: v for k, v in (("color", color), ("weight", weight)) if v is not None}
            value = evaluate(sel, None, props)
        except ValueError:
            value = None
        out.append(value if three_valued else value is True)
    return out


SHAPES = {
    "one literal": lambda rnd: [SEL[0]] * N,
    "one literal, first row NULL": lambda rnd: [None] + [SEL[1]] * (N - 1),
    "one literal, last row NULL": lambda rnd: [SEL[1]] * (N - 1) + [None],
    "all NULL": lambda rnd: [None] * N,
    "one invalid literal": lambda rnd: [SEL[3]] * N,
    "one empty literal": lambda rnd: [SEL[4]] * N,
    "interleaved, invalid and NULL mixed in": lambda rnd: [rnd.choice(SEL + [None]) for _ in range(N)],
    "two selectors, one row apart": lambda rnd: [SEL[2]] * (N - 1) + [SEL[0]],
}


@pytest.mark.parametrize("three_valued", [False, True])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_match_batch_equals_evaluate(shape, three_valued):
    messages, rows = _messages()
    selectors = SHAPES[shape](random.Random(3))
    got = match_batch(pa.array(selectors, pa.string()), messages, three_valued=three_valued).to_pylist()
    assert got == _expected(selectors, rows, three_valued)


def test_match_batch_of_a_sliced_chunked_batch():
    messages, rows = _messages(5)
    selectors = pa.chunked_array([[SEL[1]] * 100, [SEL[1]] * (N - 100)])
    got = match_batch(selectors.slice(7), messages.slice(7)).to_pylist()
    assert got == _expected([SEL[1]] * (N - 7), rows[7:], False)


def test_error_batch_names_the_invalid_selector_only():
    errors = error_batch(pa.array([SEL[0], SEL[3], None, SEL[3]])).to_pylist()
    assert errors[0] is None and errors[2] is None
    assert errors[1] == errors[3] and errors[1].startswith("SelectorSyntaxError: ") and "column 9" in errors[1]
