"""Hybrid filtering: native Spark SQL wherever a sub-expression maps, the vectorized UDF for the rest.

The boolean skeleton of a selector (AND / OR / NOT) is walked from the root. A sub-expression
the SQL back end translates stays native; one it cannot (it raises `UnsupportedSelectorError`)
becomes a call of a three-valued Arrow UDF that evaluates just that sub-expression over just the
columns it reads. Spark's AND/OR/NOT are Kleene and the UDF returns NULL for UNKNOWN, so the
pieces compose exactly. For ``A AND B AND C`` with only C falling back, the filter is
``native(A) AND native(B) AND udf(C)``: Spark pushes A and B down to Parquet and runs the UDF only
on the rows that pass them (``A OR udf(C)`` pushes nothing down: nothing can be).

Sibling operands that all fall back share one UDF call (their AND, or their OR), so rows cross to
Python once per group. Where AND/OR are not Kleene (`decisions.Logic.LEFT_FIRST`, WSO2), an AND/OR
that is not native as a whole falls back as a whole: Spark's operators cannot join its pieces.

What falls back (everything else is native): ActiveMQ's ``SPLIT``, ``REGEX``/``REPLACE`` whose
regex is not a literal in the Java/Python common subset, ``INLIST`` over anything but
``MAKELIST`` of non-approximate values, string concatenation with a float/double operand, and a
predicate reading more than two VARIANT properties at once (see `backends.sql.generator`).

**The one planner.** This module alone decides, for every caller, what runs natively and what
in the fallback: `decide` is the one place that turns "the SQL back end has no exact form"
(`UnsupportedSelectorError`) into "fallback". `plan_filter` splits per sub-expression (for
`jms_filter`, `selector_to_column`, `explain_filter`, `register_selector`); with ``split=False``
it decides for the selector as a whole, which is what `plan_subscriptions` does for `route`,
`route_report`, `explain_routing` and `migration_report`.

How route splits a fallback subscription (`split_conjuncts`): its fallback subscriptions are
evaluated by ONE Arrow UDF for all of them, in the same scan as the native CASEs. Each one's
top-level AND is split: the conjuncts `decide` finds native become its *gate* (Spark SQL, one
boolean column per distinct gate), the others its *residual*, and the UDF evaluates the residual
only on the rows where the subscription's gate is TRUE. Exact in every dialect: route only asks
whether a selector is TRUE, and a top-level AND is TRUE exactly when every conjunct is, for
Kleene AND and for `decisions.Logic.LEFT_FIRST`'s alike (its AND is the first operand that is not
TRUE, else TRUE; no back end raises at run time, so evaluating fewer conjuncts on fewer rows
changes no TRUE). Unlike `plan_filter`, it splits the top level only, where only TRUE matters:
under NOT/OR a piece's UNKNOWN vs FALSE would matter, so nothing below the top is split here.
Measured by ``benchmarks/probe_route_split.py`` (README, issue #16).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ..language import nodes as n
from ..binder import Binding, bind, check_options, to_schema, warn_unknown_properties
from ..language.errors import SelectorError, UnsupportedSelectorError
from ..semantics.decisions import Logic
from ..semantics.lowering import rules_for
from ..frontend.printer import to_text
from ..frontend.selector import Selector
from ..parsing import parse

__all__ = ["Plan", "decide", "plan_filter", "plan_subscriptions", "plan_sql", "describe", "filter_column",
           "sub_selector", "split_conjuncts", "bound_selector",
           "planned_selector"]


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
    reason : UnsupportedSelectorError or None
        Why a piece `decide` sent to the fallback has no native form (None otherwise).
    """

    kind: str
    node: "n.Node | None"
    sql: "str | None" = None
    parts: tuple = ()
    reason: "UnsupportedSelectorError | None" = None

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


def decide(bound, *, qualifier: tuple = ()) -> Plan:
    """The one native-vs-fallback decision, for a bound (sub-)selector as a whole: ``native``
    with its Spark SQL, or ``fallback`` when the SQL back end has no exact form for it
    (`UnsupportedSelectorError`, too deep for Spark's parser included). Every caller reaches it
    through `plan_filter` or `plan_subscriptions`; nothing else catches that error to choose."""
    from ..backends.sql.generator import SparkSqlGenerator

    try:
        return Plan("native", bound.root, SparkSqlGenerator(bound, qualifier=qualifier).generate())
    except UnsupportedSelectorError as exc:
        return Plan("fallback", bound.root, reason=exc)


def plan_filter(selector: Selector, schema, binding: "Binding | None" = None, *, qualifier: tuple = (),
                split: bool = True) -> Plan:
    """Split ``selector`` into native and fallback pieces for a table of ``schema``.

    ``qualifier`` prefixes the column references of the native fragments (``("message",)`` for
    the body of a SQL function whose parameter is the row). ``split=False``: one piece, native
    when the whole selector is (route's granularity, see the module docstring).
    """
    binding = binding or Binding()
    kleene = rules_for(selector.dialect).and_or is Logic.KLEENE

    def native(node):
        return decide(bind(sub_selector(selector, node), schema, binding), qualifier=qualifier).sql

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
    if not split:  # the selector itself (its own text in errors), not its canonical print
        return decide(bind(selector, schema, binding), qualifier=qualifier)
    return walk(selector.root)


def plan_subscriptions(subs, schema, dialect, binding: "Binding | None" = None):
    """``(native [(subscription, SQL)], fallback [subscription], errors [(subscription, text)])``: each
    subscription's selector (parsed with ``dialect``, a `Dialect`) planned whole
    (``plan_filter(split=False)``), as `route` runs it; a selector that is invalid or does not
    bind to ``schema`` is an error (text ``"<error class>: <message>"``), not routed. Logs the
    properties the table cannot hold, as `jms_filter` does. Each distinct selector text is
    parsed, bound and translated once (`planned_selector`)."""
    binding = binding or Binding()
    native, fallback, errors = [], [], []
    schema = to_schema(schema)
    for i, s in enumerate(subs):
        if i == 0:
            check_options(schema, binding)
        got = planned_selector(s.selector or "", dialect, schema, binding)
        if isinstance(got, SelectorError):
            errors.append((s, f"{type(got).__name__}: {got}"))
            continue
        bound, plan = got
        warn_unknown_properties(bound)
        if plan.is_native:
            native.append((s, plan.sql))
        else:
            fallback.append(s)
    return native, fallback, errors


@functools.lru_cache(maxsize=16384)
def bound_selector(text: str, dialect, schema, binding: Binding):
    """The bound selector of one selector text, or the `SelectorError` parsing or binding it
    raises. ``schema``: a `language.schema.Schema` (`to_schema`; hashable). Routing binds
    thousands of subscriptions, several times per `route` (`plan_subscriptions`, then the access
    predicates of `route_plan` / `route_templates`), and `route_report` / `explain_routing` bind
    them again; estates repeat selectors (half of `bench_route`'s 10,000 generated ones are
    duplicates). Bounded: 16,384 entries (a few KB each)."""
    try:
        return bind(parse(text, dialect=dialect), schema, binding)
    except SelectorError as exc:
        return exc


@functools.lru_cache(maxsize=16384)
def planned_selector(text: str, dialect, schema, binding: Binding):
    """``(bound selector, Plan)`` of one selector text planned whole (`decide`), or the
    `SelectorError` of `bound_selector`: each distinct text translated once (see there)."""
    bound = bound_selector(text, dialect, schema, binding)
    return bound if isinstance(bound, SelectorError) else (bound, decide(bound))


def _top_conjuncts(node) -> list:
    if isinstance(node, n.And):
        return [c for op in node.operands for c in _top_conjuncts(op)]
    return [node]


def split_conjuncts(selector: Selector, schema, binding: "Binding | None" = None) -> "tuple[list, Selector | None]":
    """``(gate, residual)`` of a selector that is not native as a whole (route's fallback
    subscriptions, see the module docstring): ``gate`` the `Plan` (native, with its SQL) of each
    top-level conjunct `decide` finds native, ``residual`` the AND of the others as a
    sub-selector (None: the selector has nothing to split off). The selector is TRUE exactly when
    every gate piece and the residual are TRUE. When no conjunct is native, or every one is (the
    whole is not: too deep for Spark's parser as one), the gate is empty and the residual is the
    whole selector."""
    binding = binding or Binding()
    if selector.root is None:
        return [], None
    conjuncts = _top_conjuncts(selector.root)
    if len(conjuncts) < 2:
        return [], selector
    gate, rest = [], []
    for c in conjuncts:
        plan = decide(bind(sub_selector(selector, c), schema, binding))
        (gate if plan.is_native else rest).append(plan if plan.is_native else c)
    if not gate or not rest:
        return [], selector
    residual = rest[0] if len(rest) == 1 else n.And(tuple(rest), span=selector.root.span)
    return gate, sub_selector(selector, residual)


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
