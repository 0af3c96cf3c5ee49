"""The vectorized evaluator: a selector over a batch of Arrow columns, three-valued, per row.

`evaluate_batch` computes, for every row of a batch, the value of ``selector.root``: TRUE, FALSE
or null (UNKNOWN), with exactly the rules of the reference interpreter (`semantics.py`,
`javanum.py`, `like.py`, `functions.py`) for the selector's `Dialect`. It is the Python side of
the ``jms_match`` Arrow UDF and of every sub-expression the SQL back end hands to the fallback.

Design
------
Every sub-expression is a *union*: a small dict ``{type: part}`` where each part holds the
values of the rows whose value has that type, and is null on every other row (the parts of a
union never overlap). A static column is a one-entry union, a VARIANT property one entry per
type it holds, a missing property the empty union (NULL on every row), and a literal a one-entry
union whose part is a `pyarrow.Scalar` (the same value on every row). Operators loop over the
(few) pairs of types present and run one pyarrow.compute kernel per pair, so a static column
costs one kernel per operator. ActiveMQ's ``LIST`` values (MAKELIST, SPLIT) are `_Boxed` parts:
codes into a tuple of Python lists.

Truth values are nullable boolean arrays (or scalars) combined with the Kleene kernels
``and_kleene`` / ``or_kleene``, so UNKNOWN is null all the way up; nothing collapses it to FALSE.

A node whose operands are all constant (literals, missing properties, folded results) is folded
with the scalar rule for that node (`semantics.apply`, the function the reference interpreter is
made of), so constant sub-expressions are exactly the interpreter's by construction; the
differential tests therefore check the scalar rules themselves only through the corpora.

Java numerics: int and long arithmetic runs on int32 / int64 kernels that wrap (pyarrow's
unchecked ``add``/``subtract``/``multiply``); integer division by a constant is Arrow's
truncating ``divide`` (``/ 0`` is NULL, ``/ -1`` a wrapping ``negate``), and by a column it is
done in numpy with the divisor-zero rows nulled and ``MIN / -1`` handled explicitly; float arithmetic is
double arithmetic rounded to float32, as in `semantics.arithmetic`. ``Double.compare`` order is a
signed-integer key of the IEEE bits. String ordering (ActiveMQ) follows UTF-16 code units: UTF-8
bytes with the lead bytes of U+E000..U+FFFF moved above those of supplementary characters.

LIKE runs a pyarrow kernel chosen from the pattern: ``equal``, ``starts_with``, ``ends_with``,
``match_substring``, or an anchored RE2 regex (``_`` is one code point, DOTALL). RE2 is linear in
the value length, but for patterns with many ``_`` after a ``%`` its DFA gives up and its NFA
costs (value length × pattern size) per value; such patterns (and long ones) match the batch's
distinct values with `like.compile_like` (the linear segment matcher) instead.

Deliberately not done
---------------------
- No per-row Python on the hot path. Per *distinct* value Python is used only where Java
  behaviour has no kernel: ActiveMQ functions (`functions.call_function` once per distinct
  argument tuple), ``String.valueOf`` of floating values in string concatenation, and the LIKE
  fallback above. The one row-by-row path is a selector whose string literals hold a lone
  UTF-16 surrogate (legal in Java, impossible in an Arrow string): it runs the reference
  interpreter per row rather than fail or answer approximately.
- No pandas: its comparisons turn NULL into False.
- No short-circuit evaluation: every operand of AND/OR is evaluated over the whole batch
  (three-valued logic needs both sides on the rows where one is UNKNOWN).
- No coercion of input types beyond `arrow_columns.ARROW_TYPES`: columns are expected in the shape
  `arrow_columns.extract_columns` produces.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import nodes as n
from .. import semantics as sem
from ..dialects import Dialect
from .arrow_javanum import java_value_of_arrow
from ..functions import LIST, call_function
from ..interpreter import ReferenceInterpreter
from ..like import compile_like, like_segments
from ..lowering import Between, Logic, NumericOrder, Order, Rules, rules_for
from ..selector import Selector
from ..types import LONG_MIN, JmsType
from ..values import TypedValue
from ..visitor import NodeVisitor
from .arrow_columns import ARROW_TYPES

__all__ = ["evaluate_batch", "VectorizedEvaluator"]

_T = JmsType
_NULL_BOOL = pa.scalar(None, pa.bool_())
_BOOL = MappingProxyType({True: pa.scalar(True), False: pa.scalar(False), None: _NULL_BOOL})
_COMPARE = MappingProxyType({
    n.CompareOp.EQ: pc.equal, n.CompareOp.NE: pc.not_equal, n.CompareOp.LT: pc.less,
    n.CompareOp.GT: pc.greater, n.CompareOp.LE: pc.less_equal, n.CompareOp.GE: pc.greater_equal,
})
_NP_COMPARE = MappingProxyType({
    n.CompareOp.EQ: np.equal, n.CompareOp.NE: np.not_equal, n.CompareOp.LT: np.less,
    n.CompareOp.GT: np.greater, n.CompareOp.LE: np.less_equal, n.CompareOp.GE: np.greater_equal,
})
_WRAPPING = MappingProxyType({n.ArithOp.PLUS: pc.add, n.ArithOp.MINUS: pc.subtract, n.ArithOp.TIMES: pc.multiply})


@dataclass(frozen=True)
class _Boxed:
    """Values with no Arrow type (ActiveMQ lists): ``codes`` index ``values``; null = absent."""

    codes: "pa.Array | pa.Scalar"
    values: tuple


# -- parts, masks and truth values ----------------------------------------------------------------
# A *mask* is True (every row), False (no row) or a non-null pa.BooleanArray. A *truth value* is
# a nullable boolean pa.Array, or a pa.BooleanScalar meaning the same on every row.

def _is_const(union: dict) -> bool:
    return all(isinstance(p.codes if isinstance(p, _Boxed) else p, pa.Scalar) for p in union.values())


def _part_valid(part):
    """The mask of rows on which ``part`` has a value."""
    if isinstance(part, _Boxed):
        part = part.codes
    if isinstance(part, pa.Scalar):
        return True
    return True if part.null_count == 0 else part.is_valid()


def _mask_and(*masks):
    out = True
    for m in masks:
        if m is False:
            return False
        if m is not True:
            out = m if out is True else pc.and_(out, m)
    return out


def _mask_or(*masks):
    out = False
    for m in masks:
        if m is True:
            return True
        if m is not False:
            out = m if out is False else pc.or_(out, m)
    return out


def _union_valid(union: dict):
    return _mask_or(*(_part_valid(p) for p in union.values()))


def _truth_of(x):
    """A truth value for True / False / None, or ``x`` itself when it already is one."""
    return x if isinstance(x, (pa.Array, pa.Scalar)) else _BOOL[x]


def _where(mask, if_true, if_false):
    """``if_true`` on the rows of ``mask``, ``if_false`` elsewhere (bools/None are constants)."""
    if_true, if_false = _truth_of(if_true), _truth_of(if_false)
    if mask is True:
        return if_true
    if mask is False:
        return if_false
    return pc.if_else(mask, if_true, if_false)


def _coalesce(pieces: list):
    """The first non-null of truth values (or parts) that are disjoint or ordered by priority."""
    if not pieces:
        return _NULL_BOOL
    return pieces[0] if len(pieces) == 1 else pc.coalesce(*pieces)


def _not(t):
    if isinstance(t, pa.Scalar):
        return _BOOL[sem.kleene_not(t.as_py())]
    return pc.invert(t)


def _left_first_and(a, b):
    """ActiveMQ r450141's ``a AND b`` (`lowering.Logic.LEFT_FIRST`): ``a`` unless it is TRUE, then ``b``."""
    if isinstance(a, pa.Scalar):
        return b if a.as_py() is True else a
    return pc.if_else(pc.fill_null(a, False), _truth_of(b), a)


def _left_first_or(a, b):
    """ActiveMQ r450141's ``a OR b``: TRUE when ``a`` is, else ``b``."""
    if isinstance(a, pa.Scalar):
        return a if a.as_py() is True else b
    return pc.if_else(pc.fill_null(a, False), True, _truth_of(b))


def _bool_union(t) -> dict:
    """A truth value as a value (a BOOLEAN union; an UNKNOWN constant is the empty union)."""
    if isinstance(t, pa.Scalar) and not t.is_valid:
        return {}
    return {_T.BOOLEAN: t}


def _truth(union: dict):
    """`semantics.truth` per row: booleans are themselves, other values FALSE, NULL UNKNOWN."""
    b = union.get(_T.BOOLEAN)
    others = [p for t, p in union.items() if t is not _T.BOOLEAN]
    if not others:
        return _NULL_BOOL if b is None else b
    false = _where(_mask_or(*(_part_valid(p) for p in others)), False, None)
    return false if b is None else _coalesce([b, false])


def _merge(out: dict, t, part) -> None:
    """Add ``part`` (disjoint from what is there) to ``out[t]``."""
    out[t] = part if t not in out else pc.coalesce(out[t], part)


# -- constants: folding with the scalar rules --------------------------------------------

def _typed(union: dict) -> "TypedValue | None":
    """The value of a constant union."""
    if not union:
        return None
    ((t, p),) = union.items()
    if isinstance(p, _Boxed):
        return TypedValue(t, p.values[p.codes.as_py()])
    return TypedValue(t, p.as_py())


def _const_union(v: "TypedValue | None") -> dict:
    if v is None:
        return {}
    if v.type == LIST:
        return {LIST: _Boxed(pa.scalar(0, pa.int32()), (v.value,))}
    return {v.type: pa.scalar(v.value, ARROW_TYPES[v.type])}


def _fold(node: n.Node, values: list, rules: Rules) -> dict:
    """A node whose operands are all constant: its value, by the scalar rules of `semantics`."""
    typed = [_typed(v) for v in values]
    if isinstance(node, n.FunctionCall):
        return _const_union(call_function(node.name, typed))
    return _const_union(sem.apply(node, typed, rules))


# -- numbers ------------------------------------------------------------------------------------

def _cast(part, arrow_type: pa.DataType):
    if part.type == arrow_type:
        return part
    return pc.cast(part, arrow_type, safe=False)


def _as_double(part, t: JmsType, target: JmsType):
    """``part`` (of type ``t``) as float64, rounded to float32 first when ``target`` is FLOAT.

    An int/long goes to float32 directly (one rounding, as Java's conversion; via float64 it
    would round twice for longs beyond 2^53).
    """
    if target is _T.FLOAT and t is not _T.FLOAT:
        part = _cast(part, pa.float32())
    return _cast(part, pa.float64())


def _np(part, dtype):
    """(values, valid) as numpy: a 0-d array for a scalar; nulls filled with 0, valid None = all."""
    if isinstance(part, pa.Scalar):
        return np.asarray(part.as_py(), dtype=dtype), None
    valid = None if part.null_count == 0 else part.is_valid().to_numpy(zero_copy_only=False)
    return pc.fill_null(part, 0).to_numpy(zero_copy_only=False).astype(dtype, copy=False), valid


def _np_valid(*valids):
    out = None
    for v in valids:
        if v is not None:
            out = v if out is None else out & v
    return out


def _from_np(values: np.ndarray, valid, arrow_type: pa.DataType) -> pa.Array:
    return pa.array(values, arrow_type, mask=None if valid is None else ~valid)


def _double_key(x: np.ndarray) -> np.ndarray:
    """An int64 whose order is ``Double.compare`` (-0.0 < 0.0, every NaN equal and greatest)."""
    bits = np.where(np.isnan(x), np.nan, x).astype(np.float64).view(np.int64)
    return bits ^ ((bits >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))


def _compare_doubles(op: n.CompareOp, a, b, total_order: bool):
    if not total_order:
        return _COMPARE[op](a, b)
    (x, vx), (y, vy) = _np(a, np.float64), _np(b, np.float64)
    res = _NP_COMPARE[op](_double_key(np.atleast_1d(x)), _double_key(np.atleast_1d(y)))
    return _from_np(res, _np_valid(vx, vy), pa.bool_())


def _float_arithmetic(op: n.ArithOp, a, b, t: JmsType):
    """``a op b`` in double (IEEE, Java's x/0 and %), rounded to float when ``t`` is FLOAT."""
    if op in _WRAPPING:
        r = _WRAPPING[op](a, b)
    elif op is n.ArithOp.DIVIDE:
        r = pc.divide(a, b)
    else:
        (x, vx), (y, vy) = _np(a, np.float64), _np(b, np.float64)
        with np.errstate(all="ignore"):
            r = _from_np(np.atleast_1d(np.fmod(x, y)), _np_valid(vx, vy), pa.float64())
    return _cast(r, pa.float32()) if t is _T.FLOAT else r


def _integer_division(op: n.ArithOp, a, b, t: JmsType) -> pa.Array:
    """Java ``/`` (truncating, wrapping) or ``%`` on int/long; NULL where the divisor is 0."""
    if op is n.ArithOp.DIVIDE and isinstance(b, pa.Scalar):  # a constant divisor: one kernel
        divisor = b.as_py()
        if divisor == 0:
            return pa.nulls(len(a), ARROW_TYPES[t])
        # x / -1 is -x, which wraps (MIN / -1 is MIN, as in Java); Arrow's divide truncates
        return pc.negate(a) if divisor == -1 else pc.divide(a, b)
    (x, vx), (y, vy) = _np(a, np.int64), _np(b, np.int64)
    x, y = np.broadcast_arrays(x, y)
    zero = y == 0
    overflow = (x == LONG_MIN) & (y == -1)  # LONG_MIN / -1 wraps to LONG_MIN; % gives 0
    y = np.where(zero | overflow, 1, y)
    r = np.fmod(x, y)  # truncated remainder: the sign of the dividend, as Java
    res = r if op is n.ArithOp.MODULO else (x - r) // y
    valid = _np_valid(vx, vy, ~zero)
    if t is _T.INT:
        res = res.astype(np.int32)  # wraps: INT_MIN / -1 is INT_MIN
    return _from_np(np.atleast_1d(res), valid, ARROW_TYPES[t])


# -- strings ------------------------------------------------------------------------------------

def _utf16_order(part):
    """A binary key whose byte order is UTF-16 code-unit order (Java's String.compareTo)."""
    if isinstance(part, pa.Scalar):
        return pa.scalar(part.as_py().encode("utf-8").replace(b"\xee", b"\xfe").replace(b"\xef", b"\xff"))
    b = pc.cast(part, pa.binary())
    return pc.replace_substring(pc.replace_substring(b, b"\xee", b"\xfe"), b"\xef", b"\xff")


def _distinct(t, part):
    """(codes, values): ``part`` dictionary-encoded exactly (floats by their bits: -0.0 ≠ 0.0)."""
    if isinstance(part, _Boxed):
        return part.codes, list(part.values)
    if isinstance(part, pa.Scalar):
        return pa.scalar(0, pa.int32()), [part.as_py()]
    if t in (_T.FLOAT, _T.DOUBLE):
        ints = np.int32 if t is _T.FLOAT else np.int64
        vals, valid = _np(part, np.float32 if t is _T.FLOAT else np.float64)
        enc = pc.dictionary_encode(_from_np(vals.view(ints), valid, pa.from_numpy_dtype(ints)))
        floats = enc.dictionary.to_numpy(zero_copy_only=False).view(vals.dtype)
        return enc.indices, [float(f) for f in floats]
    enc = pc.dictionary_encode(part)
    return enc.indices, enc.dictionary.to_pylist()


def _java_strings(t, part, jdk: int = 17):
    """``String.valueOf`` of each value of ``part`` (for string concatenation)."""
    if isinstance(part, pa.Scalar):
        return pa.scalar(sem.java_string(TypedValue(t, part.as_py()), jdk), pa.string())
    if t is _T.STRING:
        return part
    if t is _T.BOOLEAN:
        return pc.if_else(part, "true", "false")
    if t != LIST and t.is_exact:
        return pc.cast(part, pa.string())
    codes, values = _distinct(t, part)
    texts = pa.array([sem.java_string(TypedValue(t, v), jdk) for v in values], pa.string())
    return texts.take(codes)


#: Largest LIKE patterns run as RE2 regexes: ``_`` after a ``%``, and characters other than ``%``
#: (measured: beyond these a 40,000-character value can cost RE2 over 100 ms; see `_like_plan`).
_RE2_MAX_FLOATING, _RE2_MAX_TOKENS = 64, 256


@functools.lru_cache(maxsize=512)
def _like_plan(pattern: str, escape: "str | None") -> tuple:
    """How to match a LIKE pattern with a kernel: (kind, argument)."""
    segments = like_segments(pattern, escape)
    if all(kind == "lit" for seg in segments for kind, _ in seg):
        texts = ["".join(c for _, c in seg) for seg in segments]
        if len(texts) == 1:
            return ("equal", texts[0])
        if len(texts) == 2 and not texts[1]:
            return ("starts_with", texts[0])
        if len(texts) == 2 and not texts[0]:
            return ("ends_with", texts[1])
        if not texts[0] and not texts[-1] and sum(bool(s) for s in texts) <= 1:
            return ("match_substring", "".join(texts))
    # RE2 is linear, but past a few dozen `_` after a `%` its DFA gives up and the NFA costs
    # (value length × pattern size) per value: like.py's segment matcher is then much faster.
    floating = sum(kind == "one" for seg in segments[1:] for kind, _ in seg)
    if floating > _RE2_MAX_FLOATING or sum(map(len, segments)) > _RE2_MAX_TOKENS:
        return ("distinct", None)
    body = ".*".join("".join("." if kind == "one" else _re2_literal(c) for kind, c in seg) for seg in segments)
    return ("regex", r"(?s)\A" + body + r"\z")


def _re2_literal(c: str) -> str:
    return c if c.isascii() and c.isalnum() else "\\x{%x}" % ord(c)


def _like(part: pa.Array, pattern: str, escape: "str | None") -> pa.Array:
    """Whether each string matches (null where there is no string)."""
    kind, arg = _like_plan(pattern, escape)
    if kind == "equal":
        return pc.equal(part, pa.scalar(arg, pa.string()))
    if kind == "distinct":
        return _like_distinct(part, pattern, escape)
    if kind == "regex":
        return pc.match_substring_regex(part, arg)
    if not arg:
        return _where(_part_valid(part), True, None)  # '%', '%%'…: every string
    return getattr(pc, kind)(part, arg)


def _like_distinct(part: pa.Array, pattern: str, escape: "str | None") -> pa.Array:
    """LIKE by matching each distinct value with the linear-time `like.compile_like`."""
    enc = pc.dictionary_encode(part)
    matcher = compile_like(pattern, escape)
    hits = pa.array([matcher.matches(s) for s in enc.dictionary.to_pylist()], pa.bool_())
    return hits.take(enc.indices)


# -- the evaluator ------------------------------------------------------------------------------

def _column_union(entry, n_rows: int) -> dict:
    """``(JmsType, array)`` or ``{JmsType: array}`` → a union of plain, typed, non-empty arrays."""
    if isinstance(entry, tuple):
        entry = {entry[0]: entry[1]}
    elif not isinstance(entry, Mapping):
        raise TypeError(f"a column is (JmsType, pa.Array) or {{JmsType: pa.Array}}, not {type(entry).__name__}")
    out = {}
    for t, arr in entry.items():
        if t is _T.NULL:
            continue
        if t not in ARROW_TYPES:
            raise ValueError(f"a column cannot have JMS type {t}")
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
        if len(arr) != n_rows:
            raise ValueError(f"a column has {len(arr)} rows, the batch {n_rows}")
        if arr.null_count < len(arr):
            out[t] = arr if arr.type == ARROW_TYPES[t] else pc.cast(arr, ARROW_TYPES[t])  # checked
    return out


class VectorizedEvaluator(NodeVisitor):
    """Evaluates selector nodes over a batch of columns; ``visit`` returns a union.

    Parameters
    ----------
    columns : Mapping
        Selector name → ``(JmsType, pa.Array)`` or ``{JmsType: pa.Array}`` (see `evaluate_batch`).
    n_rows : int
        The number of rows of the batch.
    dialect : Dialect
        The rules to apply (the selector's).
    """

    def __init__(self, columns: Mapping, n_rows: int, dialect: Dialect):
        self.columns = columns
        self.n = n_rows
        self.rules = rules_for(dialect)
        self._unions = {}
        left_first = self.rules.and_or is Logic.LEFT_FIRST
        self._and = _left_first_and if left_first else pc.and_kleene
        self._or = _left_first_or if left_first else pc.or_kleene

    def truth(self, node: n.Node):
        """The three-valued value of a node in a boolean context (a truth value)."""
        return _truth(self.visit(node))

    def _operands(self, node, operands):
        values = [self.visit(o) for o in operands]
        folded = _fold(node, values, self.rules) if all(map(_is_const, values)) else None
        return values, folded

    def visit_Literal(self, node):
        return _const_union(None if node.type is _T.NULL else TypedValue(node.type, node.value))

    def visit_Identifier(self, node):
        if node.name not in self._unions:
            entry = self.columns.get(node.name)
            self._unions[node.name] = {} if entry is None else _column_union(entry, self.n)
        return self._unions[node.name]

    def visit_Not(self, node):
        (v,), folded = self._operands(node, (node.operand,))
        return folded if folded is not None else _bool_union(_not(_truth(v)))

    def _logical(self, node, kernel):
        values, folded = self._operands(node, node.operands)
        if folded is not None:
            return folded
        out = _truth(values[0])
        for v in values[1:]:
            out = kernel(out, _truth(v))
        return _bool_union(out)

    def visit_And(self, node):
        return self._logical(node, self._and)

    def visit_Or(self, node):
        return self._logical(node, self._or)

    def visit_Comparison(self, node):
        (left, right), folded = self._operands(node, (node.left, node.right))
        return folded if folded is not None else _bool_union(self.compare(node.op, left, right))

    def compare(self, op: n.CompareOp, left: dict, right: dict):
        """`semantics.compare` per row, as a truth value."""
        rules = self.rules
        if _is_const(left) and _is_const(right):
            return _BOOL[sem.compare(op, _typed(left), _typed(right), rules)]
        if rules.ne_as_not_eq(op):
            return _not(self.compare(n.CompareOp.EQ, left, right))
        pieces, unlike = [], False
        for lt, lp in left.items():
            for rt, rp in right.items():
                conversion = _conversion(rules, lt, rt)
                if conversion is not None:
                    pieces.append(_compare_converted(op, lt, lp, rt, rp, conversion, rules))
                    continue
                r = _compare_pair(op, lt, lp, rt, rp, rules)
                unlike |= r is None
                if r is not None:
                    pieces.append(r)
        if unlike:  # rows with two values that do not compare: FALSE
            pieces.append(_where(_mask_and(_union_valid(left), _union_valid(right)), False, None))
        out = _coalesce(pieces)
        nulls = rules.eq_nulls(op)
        if nulls is not None:
            lv, rv = _union_valid(left), _union_valid(right)
            if not (lv is True and rv is True):
                fill = _where(lv, nulls.right, _where(rv, nulls.left, nulls.both))
                if rules.converts_strings:  # an ActiveMQ error on two values stays UNKNOWN
                    fill = _where(_mask_and(lv, rv), None, fill)
                out = _coalesce([out, fill])
        return out

    def visit_Arithmetic(self, node):
        (left, right), folded = self._operands(node, (node.left, node.right))
        if folded is not None:
            return folded
        out = {}
        for lt, lp in left.items():
            for rt, rp in right.items():
                r = _arithmetic_pair(node.op, lt, lp, rt, rp, self.rules)
                if r is not None:
                    _merge(out, *r)
        return out

    def visit_Unary(self, node):
        (v,), folded = self._operands(node, (node.operand,))
        if folded is not None:
            return folded
        out = {}
        for t, p in v.items():
            numeric = t != LIST and t.is_numeric
            if node.op is n.UnaryOp.PLUS:
                if self.rules.plus_keeps(t):
                    out[t] = p
            elif numeric and t.is_approximate:
                out[t] = pc.negate(p)
            elif numeric:
                wide = _T.LONG if t is _T.LONG else _T.INT  # byte/short promote to int
                _merge(out, wide, pc.negate(_cast(p, ARROW_TYPES[wide])))
        return out

    def visit_Between(self, node):
        (v, lo, hi), folded = self._operands(node, (node.operand, node.low, node.high))
        if folded is not None:
            return folded
        C = n.CompareOp
        how = self.rules.between(node.negated)
        if how is Between.NULL_IS_FALSE:  # two-valued: NULL anywhere is FALSE
            inside = pc.and_kleene(self.compare(C.GE, v, lo), self.compare(C.LE, v, hi))
            t = _where(_mask_and(_union_valid(v), _union_valid(lo), _union_valid(hi)), inside, False)
            return _bool_union(_not(t) if node.negated else t)
        if how is Between.OUTSIDE_AS_OR:  # x < low OR x > high
            return _bool_union(self._or(self.compare(C.LT, v, lo), self.compare(C.GT, v, hi)))
        t = self._and(self.compare(C.GE, v, lo), self.compare(C.LE, v, hi))
        return _bool_union(_not(t) if node.negated else t)

    def visit_InList(self, node):
        (v,), folded = self._operands(node, (node.operand,))
        if folded is not None:
            return folded
        pieces = []
        s = v.get(_T.STRING)
        if s is not None:
            hit = pc.is_in(s, value_set=pa.array([lit.value for lit in node.values], pa.string()))
            hit = _where(_part_valid(s), hit, None)  # is_in says FALSE for a null
            pieces.append(_not(hit) if node.negated else hit)
        pieces.extend(self._non_string(v, self.rules.in_non_string(node.negated)))
        return _bool_union(_coalesce(pieces))

    def _non_string(self, v: dict, value) -> list:
        """``value`` on the rows whose value is not a string (a list of at most one piece)."""
        others = [p for t, p in v.items() if t is not _T.STRING]
        if not others or value is None:
            return []
        return [_where(_mask_or(*(_part_valid(p) for p in others)), value, None)]

    def visit_Like(self, node):
        (v,), folded = self._operands(node, (node.operand,))
        if folded is not None:
            return folded
        pieces = []
        s = v.get(_T.STRING)
        if s is not None:
            hit = _like(s, node.pattern, node.escape)
            pieces.append(_not(hit) if node.negated else hit)
        pieces.extend(self._non_string(v, node.negated))
        return _bool_union(_coalesce(pieces))

    def visit_IsNull(self, node):
        (v,), folded = self._operands(node, (node.operand,))
        if folded is not None:
            return folded
        valid = _union_valid(v)
        return _bool_union(_where(valid, node.negated, not node.negated))

    def visit_FunctionCall(self, node):
        args, folded = self._operands(node, node.args)
        if folded is not None:
            return folded
        return _call_distinct(node.name, args, self.n, self.rules.text_jdk)


def _compare_pair(op, lt, lp, rt, rp, rules: Rules):
    """``lp op rp`` for one pair of types: a truth value, or None when the pair is always FALSE."""
    if lt == LIST and rt == LIST and op is n.CompareOp.EQ:
        return _lists_equal(lp, rp)
    if lt == LIST or rt == LIST:
        return None
    rule = rules.compare(op, lt, rt)
    if rule is Order.FALSE:
        return None
    if isinstance(rule, NumericOrder):
        t = rule.type
        if t.is_approximate:
            return _compare_doubles(op, _as_double(lp, lt, t), _as_double(rp, rt, t), rule.total)
        return _COMPARE[op](_cast(lp, pa.int64()), _cast(rp, pa.int64()))
    if rule is Order.UTF16:
        lp, rp = _utf16_order(lp), _utf16_order(rp)
    return _COMPARE[op](lp, rp)


def _conversion(rules: Rules, lt, rt):
    """`Rules.string_conversion` for one pair of union types (never for a function's list)."""
    return None if LIST in (lt, rt) else rules.string_conversion(lt, rt)


def _java_value_of(part, t):
    """``t.valueOf(String)`` of each string of ``part`` (`arrow_javanum`)."""
    return java_value_of_arrow(part, t)


def _compare_converted(op, lt, lp, rt, rp, conversion, rules: Rules):
    """`semantics.compare_converted` for one pair of types: the string side converted to the
    other side's class; FALSE where that text is not a number; UNKNOWN for ActiveMQ's error."""
    side, t = conversion
    both = _mask_and(_part_valid(lp), _part_valid(rp))
    if side == "error":
        return _where(both, None, None)
    if side == "left":
        cmp = _compare_pair(op, t, _java_value_of(lp, t), rt, rp, rules)
    else:
        cmp = _compare_pair(op, lt, lp, t, _java_value_of(rp, t), rules)
    false = _where(both, False, None)
    return false if cmp is None else _coalesce([cmp, false])


def _lists_equal(lp: _Boxed, rp: _Boxed) -> pa.BooleanArray:
    """``List.equals`` per row (`semantics.java_equals`), once per distinct pair of lists."""
    (lc, lv), (rc, rv) = _np(lp.codes, np.int64), _np(rp.codes, np.int64)
    lc, rc = np.broadcast_arrays(np.atleast_1d(lc), np.atleast_1d(rc))
    pairs, inverse = np.unique(np.stack([lc, rc], axis=1), axis=0, return_inverse=True)
    equal = np.array([sem.java_equals(TypedValue(LIST, lp.values[a]), TypedValue(LIST, rp.values[b]))
                      for a, b in pairs.tolist()], dtype=bool)
    valid = _np_valid(*(None if v is None else np.broadcast_to(v, lc.shape) for v in (lv, rv)))
    return _from_np(equal[inverse.reshape(-1)], valid, pa.bool_())


def _arithmetic_pair(op, lt, lp, rt, rp, rules: Rules):
    """``lp op rp`` for one pair of types: (result type, part), or None (NULL)."""
    t = rules.arithmetic(op, lt, rt)
    if t is None:
        return None
    if t is _T.STRING:
        return _T.STRING, pc.binary_join_element_wise(lp, _java_strings(rt, rp, rules.text_jdk), "")
    if t.is_approximate:
        return t, _float_arithmetic(op, _as_double(lp, lt, t), _as_double(rp, rt, t), t)
    a, b = _cast(lp, ARROW_TYPES[t]), _cast(rp, ARROW_TYPES[t])
    if op in _WRAPPING:
        return t, _WRAPPING[op](a, b)
    return t, _integer_division(op, a, b, t)


def _call_distinct(name: str, args: list, n_rows: int, jdk: int = 17) -> dict:
    """`functions.call_function` once per distinct tuple of argument values."""
    codes, decoders = zip(*(_row_codes(union, n_rows) for union in args))
    keys, inverse = _distinct_rows(codes, [len(dec) for dec in decoders])
    results = [call_function(name, [dec[c] for dec, c in zip(decoders, key)], jdk) for key in keys]
    return _gather(results, pa.array(inverse, pa.int64()))


def _row_codes(union: dict, n_rows: int):
    """Per row, a code for the union's value (0 = NULL), and the `TypedValue` of each code."""
    codes, decoder = np.zeros(n_rows, dtype=np.int64), [None]
    for t, part in union.items():
        idx, values = _distinct(t, part)
        idx, valid = _np(idx, np.int64)
        codes = np.where(True if valid is None else valid, idx + len(decoder), codes)
        decoder.extend(TypedValue(t, v) for v in values)
    return codes, decoder


def _distinct_rows(codes, sizes):
    """The distinct tuples of per-row codes (as lists) and, per row, the index of its tuple."""
    if math.prod(sizes) < 2**62:  # one int64 key per row (mixed radix)
        key, weight = np.zeros(len(codes[0]), dtype=np.int64), 1
        for c, size in zip(codes, sizes):
            key += c * weight
            weight *= size
        uniq, inverse = np.unique(key, return_inverse=True)
        keys = []
        for k in uniq.tolist():
            digits = []
            for size in sizes:
                k, digit = divmod(k, size)
                digits.append(digit)
            keys.append(digits)
        return keys, inverse.reshape(-1)
    uniq, inverse = np.unique(np.stack(codes, axis=1), axis=0, return_inverse=True)
    return uniq.tolist(), inverse.reshape(-1)


def _gather(results: list, inverse: pa.Array) -> dict:
    """Per-distinct results spread back over the rows, as a union."""
    out = {}
    for t in {r.type for r in results if r is not None}:
        if t == LIST:
            lists, ids = [], []
            for r in results:
                ids.append(len(lists) if r is not None and r.type == t else None)
                if r is not None and r.type == t:
                    lists.append(r.value)
            out[t] = _Boxed(pa.array(ids, pa.int32()).take(inverse), tuple(lists))
        else:
            values = [r.value if r is not None and r.type == t else None for r in results]
            out[t] = pa.array(values, ARROW_TYPES[t]).take(inverse)
    return out


def _broadcast(t, n_rows: int) -> pa.BooleanArray:
    if isinstance(t, pa.Scalar):
        return pa.nulls(n_rows, pa.bool_()) if not t.is_valid else pa.repeat(t, n_rows)
    if isinstance(t, pa.ChunkedArray):
        t = t.combine_chunks()
    return t


def _arrow_strings_only(root: n.Node) -> bool:
    """Whether every string the selector writes is valid Unicode (no lone UTF-16 surrogate)."""
    for node in n.walk(root):
        if isinstance(node, n.Literal) and node.type is _T.STRING:
            texts = (node.value,)
        elif isinstance(node, n.Like):
            texts = (node.pattern, node.escape or "")
        else:
            continue
        try:
            for text in texts:
                text.encode("utf-8")
        except UnicodeEncodeError:
            return False
    return True


def _evaluate_rows(selector: Selector, columns: Mapping, n_rows: int) -> pa.BooleanArray:
    """The reference interpreter row by row, for the selectors Arrow cannot hold the strings of.

    Java strings may hold lone surrogates (``'\\ud800'``); Arrow strings are UTF-8 and cannot.
    Such a selector is rare enough (and hostile enough) that exactness beats speed here.
    """
    values = {}
    for name in selector.identifiers:
        if name in columns:
            per_row = [None] * n_rows
            for t, part in _column_union(columns[name], n_rows).items():
                for i, v in enumerate(part.to_pylist()):
                    if v is not None:
                        per_row[i] = TypedValue(t, v)
            values[name] = per_row
    out = []
    for i in range(n_rows):
        row = {name: vals[i] for name, vals in values.items()}
        out.append(ReferenceInterpreter(row.get, selector.dialect).truth(selector.root))
    return pa.array(out, pa.bool_())


def evaluate_batch(selector: Selector, columns: Mapping, n: int) -> pa.BooleanArray:
    """The three-valued value of a selector for every row of a batch.

    Parameters
    ----------
    selector : Selector
        A parsed selector (or a sub-selector: any `Selector` whose root is boolean-valued); its
        dialect gives the rules.
    columns : Mapping[str, tuple or dict]
        For each name the selector uses: ``(JmsType, pa.Array)`` when every row has that type,
        or ``{JmsType: pa.Array}`` when the type varies per row (each array non-null only on
        the rows whose value has that type). Arrays may be chunked. An absent name is NULL.
    n : int
        The number of rows.

    Returns
    -------
    pa.BooleanArray
        Length ``n``: TRUE, FALSE, or null for UNKNOWN. An empty selector is TRUE everywhere.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from jms_selector_spark import parse
    >>> from jms_selector_spark.types import JmsType
    >>> cols = {"weight": (JmsType.LONG, pa.array([3000, 10, None]))}
    >>> evaluate_batch(parse("weight > 2500"), cols, 3).to_pylist()
    [True, False, None]
    >>> evaluate_batch(parse("NOT (color = 'blue')"), cols, 3).to_pylist()   # missing: UNKNOWN
    [None, None, None]
    """
    if selector.root is None:
        return pa.repeat(pa.scalar(True), n)
    if not _arrow_strings_only(selector.root):
        return _evaluate_rows(selector, columns, n)
    evaluator = VectorizedEvaluator(columns, n, selector.dialect)
    return _broadcast(evaluator.truth(selector.root), n)
