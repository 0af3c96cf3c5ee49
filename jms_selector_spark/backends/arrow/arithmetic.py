"""Arithmetic kernels of the vectorized evaluator (`vectorized`): Java numerics, string
concatenation and ActiveMQ functions over Arrow parts.

int and long arithmetic runs on int32 / int64 kernels that wrap (pyarrow's unchecked
``add``/``subtract``/``multiply``); integer division by a constant is Arrow's truncating
``divide`` (``/ 0`` is NULL, ``/ -1`` a wrapping ``negate``), and by a column it is done in
numpy with the divisor-zero rows nulled and ``MIN / -1`` handled explicitly; float arithmetic
is double arithmetic rounded to float32, as in `semantics.arithmetic`. ``String.valueOf`` of
floating values and ActiveMQ's functions run in Python once per *distinct* value (or tuple of
argument values), never per row.
"""
from __future__ import annotations

import math
from types import MappingProxyType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...semantics import scalar as sem
from ...language import nodes as n
from ...semantics.functions import LIST, call_function
from ...language.types import LONG_MIN, JmsType
from ...semantics.values import TypedValue
from .columns import ARROW_TYPES
from .values import Boxed, as_double, cast_part, distinct_values, from_np, to_np, np_valid

_T = JmsType
_WRAPPING = MappingProxyType({n.ArithOp.PLUS: pc.add, n.ArithOp.MINUS: pc.subtract, n.ArithOp.TIMES: pc.multiply})


def _float_arithmetic(op: n.ArithOp, a, b, t: JmsType):
    """``a op b`` in double (IEEE, Java's x/0 and %), rounded to float when ``t`` is FLOAT."""
    if op in _WRAPPING:
        r = _WRAPPING[op](a, b)
    elif op is n.ArithOp.DIVIDE:
        r = pc.divide(a, b)
    else:
        (x, vx), (y, vy) = to_np(a, np.float64), to_np(b, np.float64)
        with np.errstate(all="ignore"):
            r = from_np(np.atleast_1d(np.fmod(x, y)), np_valid(vx, vy), pa.float64())
    return cast_part(r, pa.float32()) if t is _T.FLOAT else r


def _integer_division(op: n.ArithOp, a, b, t: JmsType) -> pa.Array:
    """Java ``/`` (truncating, wrapping) or ``%`` on int/long; NULL where the divisor is 0."""
    if op is n.ArithOp.DIVIDE and isinstance(b, pa.Scalar):  # a constant divisor: one kernel
        divisor = b.as_py()
        if divisor == 0:
            return pa.nulls(len(a), ARROW_TYPES[t])
        # x / -1 is -x, which wraps (MIN / -1 is MIN, as in Java); Arrow's divide truncates
        return pc.negate(a) if divisor == -1 else pc.divide(a, b)
    (x, vx), (y, vy) = to_np(a, np.int64), to_np(b, np.int64)
    x, y = np.broadcast_arrays(x, y)
    zero = y == 0
    overflow = (x == LONG_MIN) & (y == -1)  # LONG_MIN / -1 wraps to LONG_MIN; % gives 0
    y = np.where(zero | overflow, 1, y)
    r = np.fmod(x, y)  # truncated remainder: the sign of the dividend, as Java
    res = r if op is n.ArithOp.MODULO else (x - r) // y
    valid = np_valid(vx, vy, ~zero)
    if t is _T.INT:
        res = res.astype(np.int32)  # wraps: INT_MIN / -1 is INT_MIN
    return from_np(np.atleast_1d(res), valid, ARROW_TYPES[t])


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
    codes, values = distinct_values(t, part)
    texts = pa.array([sem.java_string(TypedValue(t, v), jdk) for v in values], pa.string())
    return texts.take(codes)


def arithmetic_pair(how, lt, lp, rt, rp):
    """``lp op rp`` (``how`` a `decisions.Computation`) for one pair of types: (result type, part),
    or None (NULL)."""
    op = how.op
    t = how.result(lt, rt)
    if t is None:
        return None
    if t is _T.STRING:
        return _T.STRING, pc.binary_join_element_wise(lp, _java_strings(rt, rp, how.text_jdk), "")
    if t.is_approximate:
        return t, _float_arithmetic(op, as_double(lp, lt, t), as_double(rp, rt, t), t)
    a, b = cast_part(lp, ARROW_TYPES[t]), cast_part(rp, ARROW_TYPES[t])
    if op in _WRAPPING:
        return t, _WRAPPING[op](a, b)
    return t, _integer_division(op, a, b, t)


def call_distinct(name: str, args: list, n_rows: int, jdk: int = 17) -> dict:
    """`functions.call_function` once per distinct tuple of argument values."""
    codes, decoders = zip(*(_row_codes(union, n_rows) for union in args))
    keys, inverse = _distinct_rows(codes, [len(dec) for dec in decoders])
    results = [call_function(name, [dec[c] for dec, c in zip(decoders, key)], jdk) for key in keys]
    return _gather(results, pa.array(inverse, pa.int64()))


def _row_codes(union: dict, n_rows: int):
    """Per row, a code for the union's value (0 = NULL), and the `TypedValue` of each code."""
    codes, decoder = np.zeros(n_rows, dtype=np.int64), [None]
    for t, part in union.items():
        idx, values = distinct_values(t, part)
        idx, valid = to_np(idx, np.int64)
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
            out[t] = Boxed(pa.array(ids, pa.int32()).take(inverse), tuple(lists))
        else:
            values = [r.value if r is not None and r.type == t else None for r in results]
            out[t] = pa.array(values, ARROW_TYPES[t]).take(inverse)
    return out
