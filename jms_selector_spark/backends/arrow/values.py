"""Arrow values for the vectorized evaluator (`vectorized`): unions, parts, masks, truth values.

A sub-expression's value is one *part* of the static type lowering carried, or, for a DYNAMIC
value, a *union* ``{JmsType: part}`` (see `vectorized`'s docstring); this
module holds what every operator needs to handle them: `Boxed` parts (ActiveMQ lists), the
valid-row masks, truth values and their Kleene helpers, constants (`lowering.lower` has folded
every constant node: none is computed here), casts, the numpy bridge and exact dictionary
encoding. It runs no comparison or arithmetic itself
(`arrow.compare`, `arrow.arithmetic`).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...semantics.functions import LIST
from ...language.types import JmsType
from ...semantics.values import TypedValue
from .columns import ARROW_TYPES

_T = JmsType
_NULL_BOOL = pa.scalar(None, pa.bool_())
_BOOL = MappingProxyType({True: pa.scalar(True), False: pa.scalar(False), None: _NULL_BOOL})


@dataclass(frozen=True)
class Boxed:
    """Values with no Arrow type (ActiveMQ lists): ``codes`` index ``values``; null = absent."""

    codes: "pa.Array | pa.Scalar"
    values: tuple


# -- parts, masks and truth values ----------------------------------------------------------------
# A *mask* is True (every row), False (no row) or a non-null pa.BooleanArray. A *truth value* is
# a nullable boolean pa.Array, or a pa.BooleanScalar meaning the same on every row.

def is_const_union(union: dict) -> bool:
    return all(isinstance(p.codes if isinstance(p, Boxed) else p, pa.Scalar) for p in union.values())


def part_valid(part):
    """The mask of rows on which ``part`` has a value."""
    if isinstance(part, Boxed):
        part = part.codes
    if isinstance(part, pa.Scalar):
        return part.is_valid  # a NULL scalar: a typed operand's UNKNOWN truth value (`vectorized`)
    return True if part.null_count == 0 else part.is_valid()


def mask_and(*masks):
    out = True
    for m in masks:
        if m is False:
            return False
        if m is not True:
            out = m if out is True else pc.and_(out, m)
    return out


def mask_or(*masks):
    out = False
    for m in masks:
        if m is True:
            return True
        if m is not False:
            out = m if out is False else pc.or_(out, m)
    return out


def union_valid(union: dict):
    return mask_or(*(part_valid(p) for p in union.values()))


def _truth_of(x):
    """A truth value for True / False / None, or ``x`` itself when it already is one."""
    return x if isinstance(x, (pa.Array, pa.Scalar)) else _BOOL[x]


def where_part(mask, if_true, if_false):
    """``if_true`` on the rows of ``mask``, ``if_false`` elsewhere (bools/None are constants)."""
    if_true, if_false = _truth_of(if_true), _truth_of(if_false)
    if mask is True:
        return if_true
    if mask is False:
        return if_false
    return pc.if_else(mask, if_true, if_false)


def coalesce_part(pieces: list):
    """The first non-null of truth values (or parts) that are disjoint or ordered by priority."""
    if not pieces:
        return _NULL_BOOL
    return pieces[0] if len(pieces) == 1 else pc.coalesce(*pieces)


def kleene_not(t):
    if isinstance(t, pa.Scalar):
        v = t.as_py()
        return _BOOL[None if v is None else not v]
    return pc.invert(t)


def left_first_and(a, b):
    """ActiveMQ r450141's ``a AND b`` (`decisions.Logic.LEFT_FIRST`): ``a`` unless it is TRUE, then ``b``."""
    if isinstance(a, pa.Scalar):
        return b if a.as_py() is True else a
    return pc.if_else(pc.fill_null(a, False), _truth_of(b), a)


def left_first_or(a, b):
    """ActiveMQ r450141's ``a OR b``: TRUE when ``a`` is, else ``b``."""
    if isinstance(a, pa.Scalar):
        return a if a.as_py() is True else b
    return pc.if_else(pc.fill_null(a, False), True, _truth_of(b))


def bool_union(t) -> dict:
    """A truth value as a value (a BOOLEAN union; an UNKNOWN constant is the empty union)."""
    if isinstance(t, pa.Scalar) and not t.is_valid:
        return {}
    return {_T.BOOLEAN: t}


def truth_union(union: dict):
    """`semantics.truth` per row: booleans are themselves, other values FALSE, NULL UNKNOWN."""
    b = union.get(_T.BOOLEAN)
    others = [p for t, p in union.items() if t is not _T.BOOLEAN]
    if not others:
        return _NULL_BOOL if b is None else b
    false = where_part(mask_or(*(part_valid(p) for p in others)), False, None)
    return false if b is None else coalesce_part([b, false])


def merge_part(out: dict, t, part) -> None:
    """Add ``part`` (disjoint from what is there) to ``out[t]``."""
    out[t] = part if t not in out else pc.coalesce(out[t], part)


# -- constants ------------------------------------------------------------------------------------
# `lowering.lower` folds every node whose operands are all constant, so the evaluator meets a
# constant only as a literal (`const_union`), or as two operands of a BETWEEN's comparison.

def const_union(v: "TypedValue | None") -> dict:
    if v is None:
        return {}
    if v.type == LIST:
        return {LIST: Boxed(pa.scalar(0, pa.int32()), (v.value,))}
    return {v.type: pa.scalar(v.value, ARROW_TYPES[v.type])}


def lift(union: dict) -> dict:
    """A constant union as a one-row union of arrays (what the kernels take)."""
    out = {}
    for t, p in union.items():
        if isinstance(p, Boxed):
            out[t] = Boxed(pa.array([p.codes.as_py()], pa.int32()), p.values)
        else:
            out[t] = pa.array([p.as_py()], p.type)
    return out


def lift_part(part):
    """A scalar part (of a static type) as a one-row array."""
    return pa.array([part.as_py()], part.type)


def one_row(t):
    """A truth value computed on one row (`lift`) as the constant it is."""
    return t[0] if isinstance(t, pa.Array) else t


# -- numbers ------------------------------------------------------------------------------------

def cast_part(part, arrow_type: pa.DataType):
    if part.type == arrow_type:
        return part
    return pc.cast(part, arrow_type, safe=False)


def as_double(part, t: JmsType, target: JmsType):
    """``part`` (of type ``t``) as float64, rounded to float32 first when ``target`` is FLOAT.

    An int/long goes to float32 directly (one rounding, as Java's conversion; via float64 it
    would round twice for longs beyond 2^53).
    """
    if target is _T.FLOAT and t is not _T.FLOAT:
        part = cast_part(part, pa.float32())
    return cast_part(part, pa.float64())


def to_np(part, dtype):
    """(values, valid) as numpy: a 0-d array for a scalar; nulls filled with 0, valid None = all."""
    if isinstance(part, pa.Scalar):
        return np.asarray(part.as_py(), dtype=dtype), None
    valid = None if part.null_count == 0 else part.is_valid().to_numpy(zero_copy_only=False)
    return pc.fill_null(part, 0).to_numpy(zero_copy_only=False).astype(dtype, copy=False), valid


def np_valid(*valids):
    out = None
    for v in valids:
        if v is not None:
            out = v if out is None else out & v
    return out


def from_np(values: np.ndarray, valid, arrow_type: pa.DataType) -> pa.Array:
    return pa.array(values, arrow_type, mask=None if valid is None else ~valid)


def distinct_values(t, part):
    """(codes, values): ``part`` dictionary-encoded exactly (floats by their bits: -0.0 ≠ 0.0)."""
    if isinstance(part, Boxed):
        return part.codes, list(part.values)
    if isinstance(part, pa.Scalar):
        return pa.scalar(0, pa.int32()), [part.as_py()]
    if t in (_T.FLOAT, _T.DOUBLE):
        ints = np.int32 if t is _T.FLOAT else np.int64
        vals, valid = to_np(part, np.float32 if t is _T.FLOAT else np.float64)
        enc = pc.dictionary_encode(from_np(vals.view(ints), valid, pa.from_numpy_dtype(ints)))
        floats = enc.dictionary.to_numpy(zero_copy_only=False).view(vals.dtype)
        return enc.indices, [float(f) for f in floats]
    enc = pc.dictionary_encode(part)
    return enc.indices, enc.dictionary.to_pylist()
