"""Route's fallback subscriptions: one Arrow UDF, each subscription gated by its own native conjuncts.

A subscription whose selector has no native form as a whole (`hybrid.plan_subscriptions`) is
split by the planner (`hybrid.split_conjuncts`): the conjuncts of its top-level AND that are
native become its *gate*, a boolean column Spark computes (and ``coalesce``s to FALSE), the rest
its *residual*. One Arrow UDF (`backends.udf.routing_udf`) evaluates every residual, each only on
the rows where its own gate is TRUE; rows that pass no gate cross to Python as NULLs (a few
bytes) and are not evaluated, when every fallback subscription has a gate. Subscriptions with
the same gate share its column. Exact: a top-level AND is TRUE exactly when each conjunct is
(`hybrid`'s docstring), and route only asks for TRUE.

Before this (issue #16), the UDF evaluated every fallback selector whole on the messages passing
the OR of their access predicates (``name = 'literal'`` / ``IN``); a gate per subscription is
both stronger (all its native conjuncts, not one access predicate, and not the others') and
lighter (the residual reads fewer columns and evaluates fewer kernels). Measured in the README
(``benchmarks/probe_route_split.py``).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...binder import Binding

__all__ = ["FallbackSplit", "split_fallback", "fallback_matches", "format_fallback"]


@dataclass(frozen=True)
class FallbackSplit:
    """One fallback subscription as route runs it: the UDF evaluates ``residual`` (a
    `compiler.Piece`) where ``gate`` (the AND of the native conjuncts' SQL; empty: every message)
    is TRUE."""

    name: str
    residual: object
    residual_text: str
    gate: tuple = ()  # native SQL of each gate conjunct
    gate_text: tuple = ()  # ... and its selector text (explain)

    @property
    def gate_sql(self) -> "str | None":
        return " AND ".join(f"({sql})" for sql in self.gate) if self.gate else None


def split_fallback(fallback, schema, dialect, binding: "Binding | None" = None) -> list:
    """A `FallbackSplit` per subscription of ``fallback`` (objects with ``name`` and ``selector``,
    valid and not native as a whole), in order."""
    from .estate import split_conjuncts

    binding = binding or Binding()
    out = []
    for s in fallback:
        compiled, gate, residual = split_conjuncts(s.selector or "", dialect, schema, binding)
        texts = tuple(_text(compiled, p.node) for p in gate)
        out.append(FallbackSplit(s.name, residual, compiled.piece_text(_piece_plan(residual)) if gate else compiled.text,
                                 tuple(p.sql for p in gate), texts))
    return out


def _piece_plan(piece):
    from ...compiler import Plan

    return Plan("fallback", piece.node, piece=piece)


def _text(compiled, node) -> str:
    from ...language import nodes as n

    text = compiled.source_text(node)
    return f"({text})" if isinstance(node, n.Or) else text


def fallback_matches(splits, schema, dialect, binding: "Binding | None" = None):
    """Column ``array<string>``: the names of the ``splits`` (`split_fallback`) that match a message."""
    from functools import reduce

    from pyspark.sql import functions as F

    from ...backends.udf import routing_udf, source_args

    gates = list(dict.fromkeys(s.gate_sql for s in splits if s.gate_sql))
    position = {sql: i for i, sql in enumerate(gates)}
    udf, cols = routing_udf([(s.name, s.residual) for s in splits], gates=[position.get(s.gate_sql) for s in splits])
    gate_cols = [F.coalesce(F.expr(sql), F.lit(False)) for sql in gates]
    args = source_args(cols)
    if gates and all(s.gate_sql for s in splits):  # one scan: a row no gate passes crosses as NULLs
        passes = reduce(lambda a, b: a | b, gate_cols)
        args = [F.when(passes, a) for a in args]
    return udf(*gate_cols, *args)


def format_fallback(splits) -> list:
    """Explain lines: per fallback subscription, its native gate and what the UDF evaluates."""
    if not splits:
        return []
    gated = sum(1 for s in splits if s.gate)
    lines = [f"  fallback (Arrow UDF): {len(splits)} subscriptions, {gated} gated by their native conjuncts "
             f"({len(dict.fromkeys(s.gate_sql for s in splits if s.gate))} distinct gates); each evaluated only where "
             "its gate is TRUE" + ("" if gated == len(splits) else "; ungated ones on every message")]
    for s in splits:
        where = (f"where its native gate {' AND '.join(s.gate_text)} is TRUE" if s.gate else "on every message")
        lines.append(f"  fallback {s.name}: no native form for {s.residual_text} (the UDF evaluates it {where})")
    return lines
