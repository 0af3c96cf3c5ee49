"""RabbitMQ's ``sjx_evaluator`` rules as `lowering` decisions and core nodes (no `Dialect` read here).

The JMS topic exchange evaluates a selector with Erlang's own operators, so its comparisons follow
Erlang's term order (a number is less than an atom — TRUE and FALSE are atoms — and an atom less
than a binary, a string) and its AND/OR/NOT take only booleans, anything else being ``undefined``
(UNKNOWN); BETWEEN is ``undefined`` when any operand is. `lowering.Rules` decides when these
apply (``Dialect.erlang_term_order``, ``non_boolean_condition_unknown``, ``between_null_unknown``);
this module says what they are, for every back end at once: an `Order` per pair of unlike types,
a `Comparator` that reads a value as a condition, and BETWEEN as core nodes the back ends already
render.
"""
from __future__ import annotations

import functools

from ..language import nodes as n
from ..language.nodes import CompareOp
from . import core as c
from .decisions import Comparator, Order
from ..language.types import JmsType

__all__ = ["term_order", "condition_comparator", "between_null_unknown"]

#: Erlang's term order between the JMS families: number < atom (a boolean) < binary (a string).
_RANK = {"numeric": 0, "boolean": 1, "string": 2}
_STATIC = tuple(t for t in JmsType if t.is_static)


def term_order(op: CompareOp, left_family: str, right_family: str) -> Order:
    """``l op r`` for values of two different families, by Erlang's term order: TRUE or FALSE."""
    if op is CompareOp.EQ:
        return Order.FALSE
    below = _RANK[left_family] < _RANK[right_family]
    holds = op is CompareOp.NE or below == (op in (CompareOp.LT, CompareOp.LE))
    return Order.TRUE if holds else Order.FALSE


@functools.lru_cache(maxsize=None)
def condition_comparator() -> Comparator:
    """``x = TRUE`` where only a boolean ``x`` has an answer: a value standing as a condition
    (``and3``/``or3``/``not3`` give ``undefined`` for anything but ``true``/``false``)."""
    orders = {(a, b): Order.PLAIN if a is b is JmsType.BOOLEAN else Order.UNKNOWN for a in _STATIC for b in _STATIC}
    return Comparator(CompareOp.EQ, None, None, False, orders, {}, {})


def between_null_unknown(inside: c.TwoValuedBetween, negated: bool, and_, or_, fold, done) -> n.Node:
    """``x [NOT] BETWEEN lo AND hi`` as ``between/3`` evaluates it, from its two-valued form
    ``inside`` (not negated): ``inside OR (some operand IS NULL AND UNKNOWN)`` — ``inside`` is
    FALSE with a NULL operand, the guard then UNKNOWN — or its NOT. ``and_``/``or_``: the
    dialect's AND/OR nodes; ``fold``: `lowering`'s constant folding; ``done``: records a new node."""
    span, operands = inside.span, (inside.operand, inside.low, inside.high)
    unknown = n.Literal(None, JmsType.NULL, span)
    if any(type(v) is n.Literal and v.type is JmsType.NULL for v in operands):
        return unknown
    if all(type(v) is n.Literal for v in operands):
        value = fold(inside, operands)
        return fold(n.Not(value, span), (value,)) if negated else value
    nulls = tuple(done(n.IsNull(v, False, span)) for v in operands if type(v) is not n.Literal)
    some_null = nulls[0] if len(nulls) == 1 else done(or_(nulls, span))
    out = or_((done(inside), done(and_((some_null, unknown), span))), span)
    return n.Not(done(out), span) if negated else out
