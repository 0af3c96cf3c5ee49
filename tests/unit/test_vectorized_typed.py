"""The Arrow evaluator renders the static operand types lowering carries (issue #12).

A core node whose operands' types lowering knows (`core.Compare.types`, `Compute.types`, the
BETWEENs' ``types``, `InStrings`/`LikeString` ``operand_type``) is evaluated on one Arrow part
per operand with the decision for that one pair: no union of a static column is built and the
per-type loop (`VectorizedEvaluator.compare`) is not entered. These tests fail if the evaluator
goes back to working the types out itself: they forbid the union path on static selectors, and
swap a carried type to see the result follow it. DYNAMIC values (the ``{JmsType: array}`` form)
keep the unions.
"""
from __future__ import annotations

import dataclasses
import math

import pyarrow as pa
import pytest

from jms_selector_spark import SelectorError, evaluate, parse
from jms_selector_spark.backends.arrow import columns as arrow_columns, evaluator as vectorized
from jms_selector_spark.backends.arrow.evaluator import VectorizedEvaluator, broadcast, evaluate_batch
from jms_selector_spark.binder import bind
from jms_selector_spark.semantics import core
from jms_selector_spark.semantics.typed_tree import TypedTree
from jms_selector_spark.language.types import JmsType as T

W = [5, None, -3, 12, 2]
COLOR = ["blue", "5", None, "b", "blue"]
B = [True, False, None, True, False]
D = [2.5, float("nan"), -0.0, None, 1e300]
I = [5, 7, None, -2147483648, 2]
TYPES = {"w": "long", "color": "string", "b": "boolean", "d": "double", "i": "int"}
VALUES = {"w": W, "color": COLOR, "b": B, "d": D, "i": I}
ARROW = {"long": pa.int64(), "string": pa.string(), "boolean": pa.bool_(), "double": pa.float64(), "int": pa.int32()}

#: Every node here carries its operands' static types: none may build a union or loop over types.
STATIC = ["w = 5", "w <> 5", "w > 2.5", "i < w", "d >= w", "d = d", "color = 'blue'", "color < 'b'", "color = 5",
          "w = color", "b = TRUE", "(w > 3) = b", "(w > 3) <> (color = 'x')", "w BETWEEN 1 AND 9",
          "w NOT BETWEEN i AND 9", "5 BETWEEN 1 AND w", "color IN ('a', 'blue')", "color NOT IN ('x')", "w IN ('5')",
          "color LIKE 'b%'", "color NOT LIKE '_'", "w LIKE '5'", "w IS NULL", "color IS NOT NULL",
          "NOT (w >= 3) OR color = 'x'", "color = '5'", "d < 1.5 AND i <> 7", "w * 2 > 4", "w + d < 10",
          "i - w < 0", "-w < 0", "-i > d", "+w = 5", "w * 2 BETWEEN 1 AND i", "-w IN ('5')"]
#: Static operands, but an operand may be always NULL in some dialect (no value: ``JmsType.NULL``
#: carried), which the comparison around it takes as a union: still no union of a column.
MAYBE_NULL = ["color + w = 'blue5'", "w / 0 IS NULL", "w % 0 IS NULL", "+color = 'x'", "-color IS NULL",
              "color * 2 < 1"]
#: A bare name as a condition: no type carried (a one-entry union).
UNTYPED = ["b AND w > 1", "NOT b", "b"]


def _rows():
    out = []
    for k in range(len(W)):
        props = {name: vals[k] for name, vals in VALUES.items() if vals[k] is not None}
        out.append((props, {name: TYPES[name] for name in props}))
    return out


def _static_columns():
    return {name: (T.parse(TYPES[name]), pa.array(vals, ARROW[TYPES[name]])) for name, vals in VALUES.items()}


def _same(a, b):
    return a is b or (isinstance(a, float) and math.isnan(a) and isinstance(b, float) and math.isnan(b)) or a == b


def _check(texts, dialect, columns):
    rows, checked = _rows(), 0
    for text in texts:
        try:
            sel = parse(text, dialect=dialect)
        except SelectorError:
            continue
        got = evaluate_batch(sel, columns, len(rows)).to_pylist()
        want = [evaluate(sel, properties=p, types=t) for p, t in rows]
        assert got == want, (dialect, text, got, want)
        checked += 1
    return checked


def test_static_operands_build_no_union_and_no_type_loop(dialect, monkeypatch):
    def forbidden(*args, **kw):
        raise AssertionError("a static operand went through the per-type union path")

    monkeypatch.setattr(vectorized, "column_union", forbidden)
    monkeypatch.setattr(VectorizedEvaluator, "compare", forbidden)
    assert _check(STATIC, dialect, _static_columns()), dialect  # not vacuous: some parse in every dialect


def test_operands_that_may_be_null_build_no_union_of_a_static_column(dialect, monkeypatch):
    def forbidden(*args, **kw):
        raise AssertionError("a static column was turned into a union")

    monkeypatch.setattr(vectorized, "column_union", forbidden)
    _check(MAYBE_NULL, dialect, _static_columns())


def test_nodes_with_no_carried_type_agree_with_the_interpreter(dialect):
    _check(UNTYPED, dialect, _static_columns())


def test_dynamic_values_keep_the_unions(dialect, monkeypatch):
    """The ``{JmsType: array}`` form (VARIANT): no carried type, per pair of the types present."""
    def forbidden(*args, **kw):
        raise AssertionError("a DYNAMIC value took the single-typed path")

    monkeypatch.setattr(VectorizedEvaluator, "compare_static", forbidden)
    monkeypatch.setattr(VectorizedEvaluator, "part", forbidden)
    columns = {name: {typ: arr} for name, (typ, arr) in _static_columns().items()}
    texts = [t for t in STATIC + MAYBE_NULL + UNTYPED if "(w > 3)" not in t]  # a predicate is BOOLEAN: static
    assert _check(texts, dialect, columns)


def test_evaluate_batch_does_not_compute_the_typed_tree(monkeypatch):
    """Lowering reads the static types off the lowered operands (a literal's, the column's, a
    predicate's), as for the SQL generator: the typed tree's map is not built per batch."""
    def forbidden(self):
        raise AssertionError("the typed tree's map was computed")

    monkeypatch.setattr(TypedTree, "_compute", forbidden)
    for dialect in ("jms", "activemq"):
        assert _check(STATIC + MAYBE_NULL, dialect, _static_columns()) > 25


def _run(bound, node, n=len(W)):
    return broadcast(VectorizedEvaluator(_static_columns(), n).truth(node), n).to_pylist()


def test_the_evaluator_renders_the_types_the_core_node_carries():
    """Swap a carried type: the result follows the node, not the operands' own types."""
    bound = bind(parse("w > 2"), TYPES)
    cmp = bound.core
    assert type(cmp) is core.Compare and cmp.types == (T.LONG, T.LONG)
    assert _run(bound, cmp) == [True, None, False, True, False]
    unlike = dataclasses.replace(cmp, types=(T.LONG, T.STRING))  # a pair that never compares
    assert _run(bound, unlike) == [False, None, False, False, False]

    bound = bind(parse("w + 1 > 2"), TYPES)
    plus = bound.core.left
    assert type(plus) is core.Compute and plus.types == (T.LONG, T.LONG)
    assert _run(bound, bound.core) == [True, None, False, True, True]
    no_value = dataclasses.replace(bound.core, left=dataclasses.replace(plus, types=(T.LONG, T.BOOLEAN)))
    assert _run(bound, no_value) == [None] * 5  # long + boolean computes nothing: NULL

    bound = bind(parse("-w < 0"), TYPES)
    neg = bound.core.left
    assert type(neg) is core.Negate and neg.operand_type is T.LONG
    assert _run(bound, bound.core) == [True, None, False, True, True]
    as_boolean = dataclasses.replace(bound.core, left=dataclasses.replace(neg, operand_type=T.BOOLEAN))
    with pytest.raises(ValueError, match="is a long column, but the selector was lowered for a boolean column"):
        _run(bound, as_boolean)  # the sign reads its operand as the type it carries

    bound = bind(parse("w BETWEEN 1 AND 9"), TYPES)
    between = bound.core
    assert between.types == (T.LONG, T.LONG, T.LONG)
    assert _run(bound, between) == [True, False, False, False, True]  # jms: two-valued, NULL is FALSE
    unlike = dataclasses.replace(between, types=(T.LONG, T.STRING, T.LONG))
    assert _run(bound, unlike) == [False] * 5


def test_like_and_in_render_the_operand_type_the_node_carries():
    bound = bind(parse("color LIKE 'b%' OR color IN ('5')"), TYPES)
    like, in_ = bound.core.operands
    assert like.operand_type is T.STRING and in_.operand_type is T.STRING
    assert _run(bound, like) == [True, False, None, True, True]
    assert _run(bound, in_) == [False, True, None, False, False]
    for node in (dataclasses.replace(like, operand_type=T.LONG), dataclasses.replace(in_, operand_type=T.LONG)):
        with pytest.raises(ValueError, match="is a string column, but the selector was lowered for a long column"):
            _run(bound, node)  # read as a LONG column: the evaluator asks for it, and says why not


def test_column_types_of_a_batch():
    cols = {"a": (T.LONG, pa.array([1])), "v": {T.LONG: pa.array([1])}, "z": (T.NULL, pa.array([None]))}
    types, absent = arrow_columns.column_types(cols, ["a", "v", "z", "gone"])
    assert types == {"a": T.LONG, "v": T.DYNAMIC}
    assert absent == {"z": (None, T.NULL), "gone": (None, T.NULL)}


def test_the_reference_interpreter_gets_no_carried_types(dialect):
    """`ReferenceInterpreter.run` lowers with no column types (a message's property types are
    known only at run time): no node carries a static operand type, so the interpreter decides
    every pair from its `TypedValue`s and never re-decides what lowering decided (its docstring)."""
    from jms_selector_spark.language import nodes
    from jms_selector_spark.semantics.lowering import lower, rules_for

    texts = STATIC + MAYBE_NULL + UNTYPED + ["(1 > 2) = (color = 'x')", "-(w) + 1 > 2"]
    seen = 0
    for text in texts:
        try:
            sel = parse(text, dialect=dialect)
        except SelectorError:
            continue
        for x in nodes.walk(lower(sel.root, rules_for(sel.dialect))):
            assert getattr(x, "types", None) is None and getattr(x, "operand_type", None) is None, (text, x)
            assert type(x) is not core.UnlikeTypes, (text, x)
            seen += 1
    assert seen
