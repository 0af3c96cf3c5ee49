"""Hybrid filtering: native Spark SQL wherever a sub-expression maps, the vectorized UDF for the rest.

The boolean skeleton of a selector (AND / OR / NOT) is walked from the root. A sub-expression
the SQL back end translates stays native; one it cannot (it raises `UnsupportedSelectorError`)
becomes a call of a three-valued Arrow UDF that evaluates just that sub-expression over just the
columns it reads. Spark's AND/OR/NOT are Kleene and the UDF returns NULL for UNKNOWN, so the
pieces compose exactly. For ``A AND B AND C`` with only C falling back, the filter is
``native(A) AND native(B) AND udf(C)``: Spark pushes A and B down to Parquet and runs the UDF only
on the rows that pass them (``A OR udf(C)`` pushes nothing down: nothing can be).

Sibling operands that all fall back share one UDF call (their AND, or their OR), so rows cross to
Python once per group. Where AND/OR are not Kleene (`lowering.Logic.LEFT_FIRST`, WSO2), an AND/OR
that is not native as a whole falls back as a whole: Spark's operators cannot join its pieces.

What falls back (everything else is native): ActiveMQ's ``SPLIT``, ``REGEX``/``REPLACE`` whose
regex is not a literal in the Java/Python common subset, ``INLIST`` over anything but
``MAKELIST`` of non-approximate values, string concatenation with a float/double operand, and a
predicate reading more than two VARIANT properties at once (see `backends.spark_sql`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..binder import Binding
from ..frontend import nodes as n
from ..frontend.errors import UnsupportedSelectorError
from ..frontend.printer import to_text
from ..frontend.selector import Selector
from ..semantics.lowering import Logic, rules_for

__all__ = ["Plan", "plan_filter", "plan_sql", "describe", "filter_column", "sub_selector"]


@dataclass(frozen=True)
class Plan:
    """How a (sub-)selector runs.

    Attributes
    ----------
    kind : str
        ``"native"`` (``sql`` is its fragment), ``"fallback"`` (the vectorized UDF evaluates
        ``node``), or ``"and"`` / ``"or"`` / ``"not"`` over ``parts``.
    node : Node or None
        The sub-expression (None for an empty selector).
    sql : str or None
    parts : tuple of Plan
    """

    kind: str
    node: "n.Node | None"
    sql: "str | None" = None
    parts: tuple = ()

    @property
    def is_native(self) -> bool:
        """True when nothing in the plan needs the fallback."""
        return self.kind == "native"

    def leaves(self) -> list:
        """The native and fallback pieces, left to right."""
        if self.kind in ("native", "fallback"):
            return [self]
        return [leaf for p in self.parts for leaf in p.leaves()]


def sub_selector(selector: Selector, node: n.Node) -> Selector:
    """A `Selector` for one sub-expression of ``selector`` (its text is the canonical print)."""
    return Selector(to_text(node, selector.dialect), node, selector.dialect)


def plan_filter(selector: Selector, schema, binding: "Binding | None" = None, *, qualifier: tuple = ()) -> Plan:
    """Split ``selector`` into native and fallback pieces for a table of ``schema``.

    ``qualifier`` prefixes the column references of the native fragments (``("message",)`` for
    the body of a SQL function whose parameter is the row).
    """
    from ..backends.spark_sql import SparkSqlGenerator
    from ..binder import bind

    binding = binding or Binding()
    kleene = rules_for(selector.dialect).and_or is Logic.KLEENE

    def native(node):
        try:
            return SparkSqlGenerator(bind(sub_selector(selector, node), schema, binding),
                                     qualifier=qualifier).generate()
        except UnsupportedSelectorError:
            return None

    def merge(cls, kids, span):
        fb = [k.node for k in kids if k.kind == "fallback"]
        if len(fb) < 2:
            return kids
        merged = Plan("fallback", cls(tuple(fb), span=span))
        return [k for k in kids if k.kind != "fallback"] + [merged]

    def walk(node):
        sql = native(node)
        if sql is not None:
            return Plan("native", node, sql)
        if isinstance(node, (n.And, n.Or)) and kleene:
            kids = merge(type(node), [walk(op) for op in node.operands], node.span)
            if len(kids) == 1:
                return kids[0]
            return Plan("and" if isinstance(node, n.And) else "or", node, parts=tuple(kids))
        if isinstance(node, n.Not):
            return Plan("not", node, parts=(walk(node.operand),))
        return Plan("fallback", node)

    if selector.root is None:
        return Plan("native", None, "TRUE")
    return walk(selector.root)


def plan_sql(plan: Plan, fallback_sql) -> str:
    """The plan as one SQL boolean expression (NULL = UNKNOWN): native fragments as they are,
    each fallback piece as ``fallback_sql(plan)`` (the caller's UDF call), joined by Spark's own
    Kleene AND / OR / NOT."""
    if plan.kind == "native":
        return plan.sql
    if plan.kind == "fallback":
        return fallback_sql(plan)
    if plan.kind == "not":
        return f"(NOT ({plan_sql(plan.parts[0], fallback_sql)}))"
    op = " AND " if plan.kind == "and" else " OR "
    return "(" + op.join(f"({plan_sql(p, fallback_sql)})" for p in plan.parts) + ")"


def describe(plan: Plan, selector: Selector) -> str:
    """One line per piece: ``native`` / ``fallback``, the sub-selector, and its SQL if native."""
    lines = []
    for leaf in plan.leaves():
        text = to_text(leaf.node, selector.dialect) if leaf.node is not None else "(empty selector)"
        if leaf.kind == "native":
            lines.append(f"native    {text}\n          -> {leaf.sql}")
        else:
            lines.append(f"fallback  {text}\n          -> vectorized Arrow UDF")
    return "\n".join(lines)


def filter_column(selector: Selector, schema, binding: "Binding | None" = None):
    """``(Column, Plan)``: the selector as native SQL plus UDF calls where needed (NULL = UNKNOWN)."""
    from pyspark.sql import functions as F

    from ..backends.udf import selector_udf, source_args

    binding = binding or Binding()
    plan = plan_filter(selector, schema, binding)

    def build(p: Plan):
        if p.kind == "native":
            return F.expr(p.sql)
        if p.kind == "fallback":
            udf, cols = selector_udf(sub_selector(selector, p.node), schema, binding)
            return udf(*source_args(cols))
        if p.kind == "not":
            return ~build(p.parts[0])
        cols = [build(k) for k in p.parts]
        out = cols[0]
        for c in cols[1:]:
            out = (out & c) if p.kind == "and" else (out | c)
        return out

    return build(plan), plan
