"""The SQL of the index plan (`index.RoutingPlan`): the array of the names its subscriptions match.

Each subscription's names come as a constant array, its name or ``[]``
(``CASE WHEN <fragment> THEN array('name') ELSE [] END``), joined by ``concat``: an
``array_except(array(CASE … THEN name END, …), [NULL])`` built a hash set per message instead. A
group of the index is one ``CASE <value> WHEN 'v' THEN <its branch's names> … ELSE [] END``.

**JIT-sized code.** Whole-stage codegen compiles a projection into one Java method; past HotSpot's
8,000-byte JIT limit it runs interpreted, several times slower. A plan of more than
`RoutingTuning.jit_cases` CASEs or `RoutingTuning.jit_sql_chars` characters of SQL (and at most
``guard_max_cases``), or one beside templates, is written in parts (`own_parts`) of at most
`RoutingTuning.part_chars` characters, each compiled as a method of its own inside whole-stage
codegen (`own_method`). Where that cannot be done (the session's subexpression elimination off,
or one subscription longer than a part) the codegen guard (`GUARD`) keeps the projection out of
whole-stage codegen instead: Spark then compiles it as an ordinary projection whose CASE branches
are split into small methods.
"""
from __future__ import annotations

from ...backends.sql.render import sql_identifier, sql_string
from .tuning import DEFAULT, RoutingTuning

__all__ = ["EMPTY_NAMES", "GUARD", "names_sql", "node_sql", "plan_sql", "guard_column", "needs_guard", "jit_chars",
           "own_method", "own_parts", "concat_sql"]

#: An empty array of subscription names, as every routing plan writes it.
EMPTY_NAMES = "CAST(array() AS ARRAY<STRING>)"
#: TRUE, through a `CodegenFallback` (array_sort of one value): keeps its projection out of
#: whole-stage codegen. It sorts a one-element array (cheap) and is never NULL.
GUARD = "size(array_sort(array({col}))) > 0"

_ORDERABLE = {"string", "boolean", "byte", "short", "integer", "long", "float", "double", "timestamp",
              "timestamp_ntz", "date"}


def names_sql(names, fragments) -> str:
    """The names among ``names`` whose fragment is TRUE: ``concat`` of one constant array per
    subscription, its name or []."""
    cases = [f"CASE WHEN ({fragments[nm]}) THEN array({sql_string(nm)}) ELSE {EMPTY_NAMES} END" for nm in names]
    return cases[0] if len(cases) == 1 else "concat(" + ", ".join(cases) + ")"


def node_sql(node, fragments) -> "str | None":
    """The SQL of an `index.IndexNode`: its groups' CASEs and its general subscriptions' names."""
    parts = []
    for g in node.groups:
        whens = " ".join(f"WHEN {sql_string(v)} THEN {node_sql(c, fragments) or EMPTY_NAMES}"
                         for v, c in g.by_value.items())
        parts.append(f"CASE {g.value_sql} {whens} ELSE {EMPTY_NAMES} END")
    if node.general:
        parts.append(names_sql(node.general, fragments))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else "concat(" + ", ".join(parts) + ")"


def guard_column(schema) -> "str | None":
    """A top-level column of an orderable atomic type (any: the guard only sorts one value)."""
    if isinstance(schema, dict):  # {column: jms type}: flat, every JMS type is orderable
        return next(iter(schema), None)
    for f in getattr(schema, "fields", ()):
        if f.dataType.typeName() in _ORDERABLE or f.dataType.typeName().startswith("decimal"):
            return f.name
    return None


def jit_chars(own: bool, tuning: RoutingTuning = DEFAULT) -> int:
    """The SQL length bound of one JIT-able method: without subexpression elimination (``own``
    False) ~2 B of bytecode per character, half as many."""
    return tuning.jit_sql_chars // (1 if own else 2)


def needs_guard(plan, own: bool, tuning: RoutingTuning = DEFAULT) -> bool:
    """Whether the plan's CASEs are too large for one JIT-able whole-stage method (and few enough
    that whole-stage codegen would still try)."""
    if plan.case_count > tuning.guard_max_cases:
        return False
    return plan.case_count > tuning.jit_cases or len(node_sql(plan.root, plan.fragments) or "") > jit_chars(own, tuning)


def plan_sql(plan, guard: "str | None" = None) -> "str | None":
    """The SQL of the plan's native names (unsorted), None when it has none; behind the codegen
    guard on column ``guard`` when given."""
    sql = node_sql(plan.root, plan.fragments)
    if sql is not None and guard is not None:
        sql = f"IF({GUARD.format(col=sql_identifier(guard))}, {sql}, {EMPTY_NAMES})"
    return sql


def own_method(sql: str) -> str:
    """``sql`` (an array, never NULL) written so that whole-stage codegen compiles it as a method of
    its own: it appears in the condition and in both branches of an ``IF``, so Spark's
    subexpression elimination evaluates it once, and puts such a common subexpression in a
    separate method when the stage's code is large. The other branch is never taken (the size
    of an array is >= 0) and only makes ``sql`` common to both; ``IF(c, x, x)`` or
    ``coalesce(x, x)`` would be simplified away by the optimizer."""
    return f"IF(size({sql}) >= 0, {sql}, array_distinct({sql}))"


def own_parts(plan, tuning: RoutingTuning = DEFAULT) -> "list[str] | None":
    """The SQL of the plan as parts of at most `RoutingTuning.part_chars` characters whose
    concatenation gives its names: each group's ``CASE <value> WHEN … ELSE [] END``, split into
    several over disjoint sets of values when longer (a message's value selects one branch in one
    of them, the others give []); a branch longer than that on its own cut the same way, each of
    its parts behind its own ``CASE <value> WHEN <v> THEN <part>``; the general subscriptions in
    runs; small neighbours joined by ``concat``. None when a single subscription is longer than a
    part, or the plan has more than `RoutingTuning.guard_max_cases` CASEs."""
    if plan.case_count > tuning.guard_max_cases:
        return None
    parts = _node_parts(plan.root, plan.fragments, tuning.part_chars)
    return None if parts is None else _runs(parts, concat_sql, tuning.part_chars)


def _node_parts(node, fragments, limit: int) -> "list[str] | None":
    out = []
    for g in node.groups:
        whens = []
        for v, c in g.by_value.items():
            when = f"WHEN {sql_string(v)} THEN {node_sql(c, fragments) or EMPTY_NAMES}"
            if len(_case(g.value_sql, [when])) <= limit:
                whens.append(when)
                continue
            # a branch too long for one part: its node's parts, each behind its own WHEN
            head = f"WHEN {sql_string(v)} THEN "
            room = limit - len(_case(g.value_sql, [head]))
            inner = _node_parts(c, fragments, room)
            if inner is None:
                return None
            out += [_case(g.value_sql, [head + p]) for p in _runs(inner, concat_sql, room)]
        runs = _runs(whens, lambda ws, g=g: _case(g.value_sql, ws), limit)
        if runs is None:
            return None
        out += runs
    if node.general:
        runs = _runs(list(node.general), lambda ns: names_sql(ns, fragments), limit)
        if runs is None:
            return None
        out += runs
    return out


def concat_sql(parts: list) -> str:
    """``concat`` of arrays' SQL (one part as it is)."""
    return parts[0] if len(parts) == 1 else f"concat({', '.join(parts)})"


def _case(value_sql: str, whens: list) -> str:
    case = f"CASE {value_sql} {' '.join(whens)} ELSE {EMPTY_NAMES} END"
    # one WHEN: the optimizer would push `own_method`'s size(...) into the branches (one of them
    # a literal), and the part would no longer be common to the IF's condition: inlined
    return case if len(whens) > 1 else f"concat({case}, {EMPTY_NAMES})"


def _runs(items: list, render, limit: int) -> "list[str] | None":
    """``render`` of consecutive runs of ``items``, each as long as fits in ``limit`` characters
    (None: an item alone does not)."""
    out, run = [], []
    for it in items:
        if len(render([it])) > limit:
            return None
        if run and len(render(run + [it])) > limit:
            out.append(render(run))
            run = []
        run.append(it)
    return out + [render(run)] if run else out
