"""Comparison kernels of the vectorized evaluator (`vectorized`): ``= <> < > <= >=`` for one pair
of union types, and LIKE.

Each function renders a decision of a `decisions.Comparator` (carried by a core node) with
pyarrow.compute kernels (numpy where Arrow has none): numeric promotion, ``Double.compare`` order as a signed-integer key of the IEEE
bits, UTF-16 code-unit order for strings (UTF-8 bytes with the lead bytes of U+E000..U+FFFF
moved above those of supplementary characters), ActiveMQ's string conversion and
``List.equals``. LIKE runs a kernel chosen from the pattern (see `vectorized`'s docstring). The
per-pair loop, the NULL rules and BETWEEN/IN are the evaluator's (`vectorized`).
"""
from __future__ import annotations

import functools
from types import MappingProxyType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ...semantics import scalar as sem
from ...language import nodes as n
from ...semantics.functions import LIST
from ...semantics.like import segments_matcher
from ...semantics.decisions import NumericOrder, Order
from ...semantics.values import TypedValue
from .javanum import java_value_of_arrow
from .values import Boxed, as_double, cast_part, coalesce_part, from_np, mask_and, to_np, np_valid, part_valid, where_part

_COMPARE = MappingProxyType({
    n.CompareOp.EQ: pc.equal, n.CompareOp.NE: pc.not_equal, n.CompareOp.LT: pc.less,
    n.CompareOp.GT: pc.greater, n.CompareOp.LE: pc.less_equal, n.CompareOp.GE: pc.greater_equal,
})
_NP_COMPARE = MappingProxyType({
    n.CompareOp.EQ: np.equal, n.CompareOp.NE: np.not_equal, n.CompareOp.LT: np.less,
    n.CompareOp.GT: np.greater, n.CompareOp.LE: np.less_equal, n.CompareOp.GE: np.greater_equal,
})


def _double_key(x: np.ndarray) -> np.ndarray:
    """An int64 whose order is ``Double.compare`` (-0.0 < 0.0, every NaN equal and greatest)."""
    bits = np.where(np.isnan(x), np.nan, x).astype(np.float64).view(np.int64)
    return bits ^ ((bits >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))


def _compare_doubles(op: n.CompareOp, a, b, total_order: bool):
    if not total_order:
        return _COMPARE[op](a, b)
    (x, vx), (y, vy) = to_np(a, np.float64), to_np(b, np.float64)
    res = _NP_COMPARE[op](_double_key(np.atleast_1d(x)), _double_key(np.atleast_1d(y)))
    return from_np(res, np_valid(vx, vy), pa.bool_())


def _utf16_order(part):
    """A binary key whose byte order is UTF-16 code-unit order (Java's String.compareTo)."""
    if isinstance(part, pa.Scalar):
        return pa.scalar(part.as_py().encode("utf-8").replace(b"\xee", b"\xfe").replace(b"\xef", b"\xff"))
    b = pc.cast(part, pa.binary())
    return pc.replace_substring(pc.replace_substring(b, b"\xee", b"\xfe"), b"\xef", b"\xff")




#: Largest LIKE patterns run as RE2 regexes: ``_`` after a ``%``, and characters other than ``%``
#: (measured: beyond these a 40,000-character value can cost RE2 over 100 ms; see `_like_plan`).
_RE2_MAX_FLOATING, _RE2_MAX_TOKENS = 64, 256


@functools.lru_cache(maxsize=512)
def _like_plan(segments: tuple) -> tuple:
    """Which kernel matches a LIKE pattern planned as ``segments`` (`core.LikeString.segments`):
    (kind, argument)."""
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


def like_kernel(part: pa.Array, segments: tuple) -> pa.Array:
    """Whether each string matches the pattern planned as ``segments`` (null where there is no string)."""
    kind, arg = _like_plan(segments)
    if kind == "equal":
        return pc.equal(part, pa.scalar(arg, pa.string()))
    if kind == "distinct":
        return _like_distinct(part, segments)
    if kind == "regex":
        return pc.match_substring_regex(part, arg)
    if not arg:
        return where_part(part_valid(part), True, None)  # '%', '%%'…: every string
    return getattr(pc, kind)(part, arg)


def _like_distinct(part: pa.Array, segments: tuple) -> pa.Array:
    """LIKE by matching each distinct value with the linear-time `like.segments_matcher`."""
    enc = pc.dictionary_encode(part)
    matcher = segments_matcher(segments)
    hits = pa.array([matcher.matches(s) for s in enc.dictionary.to_pylist()], pa.bool_())
    return hits.take(enc.indices)


def compare_pair(cmp, lt, lp, rt, rp):
    """``lp op rp`` (``cmp`` a `decisions.Comparator`) for one pair of types: a truth value, or
    None when the pair is always FALSE."""
    op = cmp.op
    if lt == LIST and rt == LIST and op is n.CompareOp.EQ:
        return _lists_equal(lp, rp)
    if lt == LIST or rt == LIST:
        return None
    rule = cmp.rule(lt, rt)
    if rule is Order.FALSE:
        return None
    if rule in (Order.TRUE, Order.UNKNOWN):
        return where_part(mask_and(part_valid(lp), part_valid(rp)), True if rule is Order.TRUE else None, None)
    if isinstance(rule, NumericOrder):
        t = rule.type
        if t.is_approximate:
            return _compare_doubles(op, as_double(lp, lt, t), as_double(rp, rt, t), rule.total)
        return _COMPARE[op](cast_part(lp, pa.int64()), cast_part(rp, pa.int64()))
    if rule is Order.UTF16:
        lp, rp = _utf16_order(lp), _utf16_order(rp)
    return _COMPARE[op](lp, rp)


def converted_strings(cmp, lt, rt):
    """`Comparator.conversion` for one pair of union types (never for a function's list)."""
    return None if LIST in (lt, rt) else cmp.conversion(lt, rt)


def _java_value_of(part, t):
    """``t.valueOf(String)`` of each string of ``part`` (`arrow.javanum`)."""
    return java_value_of_arrow(part, t)


def compare_converted(cmp, lt, lp, rt, rp, conversion):
    """`semantics.compare_converted` for one pair of types: the string side converted to the
    other side's class; FALSE where that text is not a number; UNKNOWN for ActiveMQ's error."""
    side, t = conversion
    both = mask_and(part_valid(lp), part_valid(rp))
    if side == "error":
        return where_part(both, None, None)
    if side == "left":
        out = compare_pair(cmp, t, _java_value_of(lp, t), rt, rp)
    else:
        out = compare_pair(cmp, lt, lp, t, _java_value_of(rp, t))
    false = where_part(both, False, None)
    return false if out is None else coalesce_part([out, false])


def _lists_equal(lp: Boxed, rp: Boxed) -> pa.BooleanArray:
    """``List.equals`` per row (`semantics.java_equals`), once per distinct pair of lists."""
    (lc, lv), (rc, rv) = to_np(lp.codes, np.int64), to_np(rp.codes, np.int64)
    lc, rc = np.broadcast_arrays(np.atleast_1d(lc), np.atleast_1d(rc))
    pairs, inverse = np.unique(np.stack([lc, rc], axis=1), axis=0, return_inverse=True)
    equal = np.array([sem.java_equals(TypedValue(LIST, lp.values[a]), TypedValue(LIST, rp.values[b]))
                      for a, b in pairs.tolist()], dtype=bool)
    valid = np_valid(*(None if v is None else np.broadcast_to(v, lc.shape) for v in (lv, rv)))
    return from_np(equal[inverse.reshape(-1)], valid, pa.bool_())
