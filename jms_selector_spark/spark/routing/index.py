"""The routing plan: which subscriptions' selectors are evaluated for which message.

**Templates first** (`route_templates`, used by `tag_matches`, i.e. by `route`): subscriptions
whose fragments differ only in literals and that have an access predicate are matched through a
constant (value -> candidates) index and one lambda expression per template, so the
plan grows with the number of selector shapes, not of subscriptions. What follows applies to the
others (no access predicate, or a template of their own) and to `matching_names`.

`matching_names` builds the Column ``array<string>`` of the (sorted) names of the subscriptions a
message matches; `tag_matches` (what `routing.route` uses) the same, sorted only when asked (the
queue modes: a set's key and rotation order; a topic pass explodes them unsorted). Two things keep
its cost down:

**Predicate index.** Most selectors are a conjunction with an *access predicate*: a conjunct that
is exactly ``name = 'literal'``, ``name IN ('a', 'b')`` or an OR of those on one name, where
``name`` is a STRING value of the message. The selector can only be TRUE when that conjunct is
TRUE, i.e. when the message's value is one of those literals (NULL never is). So subscriptions
are grouped by the name of their access predicate and each group becomes one decision::

    CASE <value> WHEN 'car' THEN <matches among the 'car' candidates> WHEN 'bus' THEN … ELSE [] END

and per message only the candidates of the branch its value selects are evaluated (each with
its *whole* selector, so the index only ever skips subscriptions that cannot match: exact by
construction, whatever the dialect's rules for the other conjuncts). The access predicate of a
subscription is chosen from the subscriptions themselves: among its eligible conjuncts, the one
with the smallest estimated selectivity (literals it names / distinct literals all subscriptions
name for that value). Subscriptions without one are evaluated for every message (the general
group).

**JIT-sized code.** Whole-stage codegen compiles a projection into one Java method; from ~18
realistic CASEs (~5,500 characters of SQL) on it exceeds HotSpot's 8,000-byte JIT limit and runs
interpreted (4-6x slower). When the plan has more than `JIT_CASES` CASEs or `JIT_SQL_CHARS`
characters of SQL (and at most `GUARD_MAX_CASES` CASEs: above, the method passes 64 KB, Spark
gives whole-stage codegen up by itself, and that is measured faster; an indexed plan that large
is replaced by the flat one, measured faster there), or sits beside templates, `tag_matches`
writes it in parts, each compiled as a method of its own inside whole-stage codegen
(`route_merge.own_parts`, `own_method`), like the templates. Where that cannot be done (the
session's subexpression elimination off, or one subscription longer than a part), the Column
carries the codegen guard instead: a one-element ``array_sort`` (a `CodegenFallback`
expression, evaluated on its own and not around the CASEs), which keeps the projection out of
whole-stage codegen; Spark then compiles it as an ordinary projection whose CASE branches are
split into small methods — what ``spark.sql.codegen.hugeMethodLimit=8000`` does, without
changing the session's configuration.

**Fallback subscriptions** (Arrow UDF, `route_fallback`): `tag_matches` has Python evaluate each
one's non-native conjuncts only on the messages that pass its native ones (its gate); messages
no gate passes cross as NULLs, in the same scan.

`explain_routing` shows the plan (groups, access names, estimated subscriptions evaluated per
message).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ...language import nodes as n
from ...binder import Binding
from ...language.types import JmsType as T
from .sqltext import EMPTY_NAMES as _EMPTY

__all__ = ["AccessPredicate", "RoutingPlan", "plan_routing", "matching_names", "tag_matches", "explain_routing",
           "single_case_sql", "JIT_CASES", "JIT_SQL_CHARS", "GUARD_MAX_CASES"]

#: Above this many CASE expressions in one projection, the plan leaves whole-stage codegen (see
#: the module docstring). Realistic CASEs measured 400-470 B of bytecode each, hence also:
JIT_CASES = 24
#: ... or this many characters of SQL. Bytecode follows the SQL: 1.35-1.6 B per character (24
#: `bench_route` estates of 8-28 subscriptions; tests' arithmetic/LIKE-heavy ones), 17-23 CASEs 8.3-10.2 KB.
JIT_SQL_CHARS = 4600
#: ... and up to this many: above, whole-stage codegen's one method exceeds Java's 64 KB and Spark
#: itself falls back to the split projection the guard asks for; measured (README), the guard is
#: then slower than Spark's own fallback (no access predicates, 1,000 subscriptions: 21.6 s vs 15.8 s).
GUARD_MAX_CASES = 200
#: An access predicate is used if it is estimated to select at most this share of the values the
#: subscriptions name (1.0: always; an indexed subscription is never evaluated more often than a
#: general one, its CASE is only repeated once per value it names).
MAX_SELECTIVITY = 1.0


@dataclass(frozen=True)
class AccessPredicate:
    """``<name> IN (values)`` as a necessary condition of a selector being TRUE."""

    name: str  # as the selector writes it
    value_sql: str  # the Spark SQL of the message's value (as the selector's translation reads it)
    values: tuple  # the string literals, deduplicated, in first-seen order


@dataclass(frozen=True)
class Node:
    """Subscriptions to evaluate: some indexed in groups (`Group`), the ``general`` ones always."""

    groups: tuple = ()  # of Group
    general: tuple = ()  # subscription names

    @property
    def names(self) -> tuple:
        out = dict.fromkeys(self.general)
        for g in self.groups:
            out.update(dict.fromkeys(g.members))
        return tuple(out)

    @property
    def case_count(self) -> int:
        return sum(c.case_count for g in self.groups for c in g.by_value.values()) + len(self.general)

    def estimated_evaluated(self) -> float:
        return sum(sum(c.estimated_evaluated() for c in g.by_value.values()) / len(g.by_value)
                   for g in self.groups) + len(self.general)

    def depth(self) -> int:
        return max((1 + c.depth() for g in self.groups for c in g.by_value.values()), default=0)


@dataclass(frozen=True)
class Group:
    """Subscriptions indexed on one value: ``by_value[v]`` (a `Node`) holds the candidates when
    the message's value is ``v`` (indexed further on another value when that pays)."""

    name: str
    value_sql: str
    by_value: dict  # value -> Node
    members: tuple  # subscription names


@dataclass(frozen=True)
class RoutingPlan:
    root: Node
    fallback: tuple  # subscription names evaluated by the Arrow UDF
    fragments: dict = field(repr=False)  # name -> native SQL fragment
    guard_column: "str | None" = None  # top-level column the codegen guard reads (None: no guard)
    index_dropped: "int | None" = None  # CASEs of the indexed plan, when it was too large and dropped

    @property
    def groups(self) -> tuple:
        return self.root.groups

    @property
    def general(self) -> tuple:
        return self.root.general

    @property
    def case_count(self) -> int:
        return self.root.case_count

    def estimated_evaluated(self) -> float:
        """Native subscriptions evaluated per message, if every value named by the subscriptions is
        equally frequent and messages carry only those (an upper estimate otherwise)."""
        return round(self.root.estimated_evaluated(), 2)


# -- access predicates ------------------------------------------------------------------------

def _conjuncts(root) -> list:
    if root is None:
        return []
    if isinstance(root, n.And):
        out = []
        for op in root.operands:
            out.extend(_conjuncts(op))
        return out
    return [root]


def _string_literal(node) -> bool:
    return isinstance(node, n.Literal) and node.type is T.STRING and isinstance(node.value, str)


def _eligible(node, refs) -> "tuple[str, tuple] | None":
    """(name, values) if ``node`` is TRUE exactly when the STRING value ``name`` is one of values."""
    if isinstance(node, n.Comparison) and node.op is n.CompareOp.EQ and not getattr(node, "negated", False):
        for ident, lit in ((node.left, node.right), (node.right, node.left)):
            if isinstance(ident, n.Identifier) and _string_literal(lit) and _string_ref(refs.get(ident.name)):
                return ident.name, (lit.value,)
        return None
    if isinstance(node, n.InList) and not node.negated and isinstance(node.operand, n.Identifier):
        if _string_ref(refs.get(node.operand.name)) and node.values and all(_string_literal(v) for v in node.values):
            return node.operand.name, tuple(dict.fromkeys(v.value for v in node.values))
        return None
    if isinstance(node, n.Or):
        parts = [_eligible(op, refs) for op in node.operands]
        if parts and all(parts) and len({p[0] for p in parts}) == 1:
            return parts[0][0], tuple(dict.fromkeys(v for p in parts for v in p[1]))
    return None


def _string_ref(ref) -> bool:
    return ref is not None and ref.type is T.STRING and ref.access in ("column", "map")


def access_candidates(selector: str, schema, dialect, binding: Binding) -> list:
    """Every eligible conjunct of ``selector`` as an `AccessPredicate` (empty: none)."""
    from ...language.schema import to_schema

    return list(_access_candidates(selector or "", dialect, to_schema(schema), binding))


@functools.lru_cache(maxsize=16384)
def _access_candidates(selector: str, dialect, schema, binding: Binding) -> tuple:
    """`access_candidates` (cached by selector text: each subscription's is asked for by the
    templates and the CASE plan, and estates repeat selectors); the bound selector planning
    already made (`hybrid.bound_selector`), not a second parse and bind."""
    from ...backends.sql.generator import SparkSqlGenerator
    from .estate import bound_selector

    bound = bound_selector(selector, dialect, schema, binding)
    if isinstance(bound, Exception):
        raise bound.with_traceback(None)  # the cached error, without earlier raises' frames
    out = []
    gen = None
    for c in _conjuncts(bound.root):
        hit = _eligible(c, bound.refs)
        if hit:
            gen = gen or SparkSqlGenerator(bound)
            out.append(AccessPredicate(hit[0], gen.env[hit[0]].sql, hit[1]))
    return tuple(out)


# -- the plan -----------------------------------------------------------------------------------

#: A branch with more candidates than this is indexed again on another access value ...
SPLIT_MIN = 6
#: ... up to this depth, and only if that repeats CASEs (IN lists in several branches) at most
#: this many times over.
MAX_DEPTH = 3
MAX_REPEAT = 2.0


def plan_routing(native, fallback, schema, dialect, binding: "Binding | None" = None, *, index: bool = True,
                 jit_cases: int = JIT_CASES, jit_chars: int = JIT_SQL_CHARS, guard_max: int = GUARD_MAX_CASES,
                 guard: bool = True) -> RoutingPlan:
    """The `RoutingPlan` of ``native`` ``[(subscription, fragment)]`` and ``fallback``
    ``[subscription]`` (objects with ``name`` and ``selector``). ``guard=False``: no codegen guard."""
    binding = binding or Binding()
    fragments = {s.name: frag for s, frag in native}
    names = [s.name for s, _ in native]
    root = Node((), tuple(names))
    if index:
        cands = {s.name: access_candidates(s.selector or "", schema, dialect, binding) for s, _ in native}
        indexed = _index(names, cands, frozenset(), 0)
        # Above `guard_max` CASEs neither plan stays in whole-stage codegen; Spark's split code
        # then costs so much per CASE that the index's nested CASEs (more of them) measured slower
        # than one flat CASE per subscription (1,000 subscriptions: 32.2 s vs 13.0 s, README), so
        # the flat plan is kept there: never slower than the single-CASE plan.
        if indexed.case_count <= guard_max:
            root = indexed
    dropped = indexed.case_count if index and root is not indexed else None
    big = root.case_count > jit_cases or len(_node_sql(root, fragments) or "") > jit_chars
    column = _guard_column(schema) if guard and big and root.case_count <= guard_max else None
    return RoutingPlan(root, tuple(s.name for s in fallback), fragments, column, dropped)


def _index(names, cands, used: frozenset, depth: int) -> Node:
    """Group ``names`` by their most selective access predicate not on a ``used`` value."""
    distinct: dict = {}
    for nm in names:
        for p in cands[nm]:
            if p.value_sql not in used:
                distinct.setdefault(p.value_sql, set()).update(p.values)
    chosen = {}
    for nm in names:
        best = None
        for p in cands[nm]:
            if p.value_sql in used:
                continue
            est = len(p.values) / len(distinct[p.value_sql])
            if est <= MAX_SELECTIVITY and (best is None or est < best[0]):
                best = (est, p)
        if best:
            chosen[nm] = best[1]
    by_key: dict = {}
    for nm in names:
        if nm in chosen:
            by_key.setdefault(chosen[nm].value_sql, []).append(nm)
    groups = []
    for key, members in by_key.items():
        by_value: dict = {}
        for nm in members:
            for v in chosen[nm].values:
                by_value.setdefault(v, []).append(nm)
        branches = {}
        for v, ns in by_value.items():
            node = Node((), tuple(ns))
            if len(ns) > SPLIT_MIN and depth + 1 < MAX_DEPTH:
                sub = _index(ns, cands, used | {key}, depth + 1)
                if sub.groups and sub.case_count <= MAX_REPEAT * len(ns):
                    node = sub
            branches[v] = node
        groups.append(Group(chosen[members[0]].name, key, branches, tuple(members)))
    return Node(tuple(groups), tuple(nm for nm in names if nm not in chosen))


_ORDERABLE = {"string", "boolean", "byte", "short", "integer", "long", "float", "double", "timestamp",
              "timestamp_ntz", "date"}


def _guard_column(schema) -> "str | None":
    """A top-level column of an orderable atomic type (any: the guard only sorts one value)."""
    if isinstance(schema, dict):  # {column: jms type}: flat, every JMS type is orderable
        return next(iter(schema), None)
    for f in getattr(schema, "fields", ()):
        if f.dataType.typeName() in _ORDERABLE or f.dataType.typeName().startswith("decimal"):
            return f.name
    return None


# -- the Column -----------------------------------------------------------------------------------

#: TRUE, through a `CodegenFallback` (array_sort of one value): keeps its projection out of whole-stage codegen
_GUARD = "size(array_sort(array({col}))) > 0"


def _names_sql(names, fragments) -> str:
    """The names among ``names`` whose fragment is TRUE: ``concat`` of one constant array per
    subscription, its name or []. Measured against today's ``array_except(array(CASE … THEN
    name END, …), [NULL])`` (`single_case_sql`), which builds a hash set per message, and
    ``array_compact`` (a lambda): 150 subscriptions without access predicates, 2M messages, the
    matching alone 6.6 against 10.5 and 8.1 CPU s (README)."""
    from ...backends.sql.render import sql_string

    cases = [f"CASE WHEN ({fragments[nm]}) THEN array({sql_string(nm)}) ELSE {_EMPTY} END" for nm in names]
    return cases[0] if len(cases) == 1 else "concat(" + ", ".join(cases) + ")"


def single_case_sql(plan: RoutingPlan) -> "str | None":
    """Today's plan, as it was before the routing plan (#16): one CASE per native subscription of
    ``plan`` in one array, the non-matches (NULL) dropped by ``array_except`` (unsorted). The
    benchmarks' baseline and the tests' reference: frozen, whatever `_names_sql` becomes."""
    from ...backends.sql.render import sql_string

    if not plan.fragments:
        return None
    cases = ", ".join(f"CASE WHEN ({f}) THEN {sql_string(nm)} END" for nm, f in plan.fragments.items())
    return f"array_except(array({cases}), array(CAST(NULL AS STRING)))"


def _node_sql(node: Node, fragments) -> "str | None":
    from ...backends.sql.render import sql_string

    parts = []
    for g in node.groups:
        whens = " ".join(f"WHEN {sql_string(v)} THEN {_node_sql(c, fragments) or _EMPTY}" for v, c in g.by_value.items())
        parts.append(f"CASE {g.value_sql} {whens} ELSE {_EMPTY} END")
    if node.general:
        parts.append(_names_sql(node.general, fragments))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else "concat(" + ", ".join(parts) + ")"


def plan_sql(plan: RoutingPlan) -> "str | None":
    """The Spark SQL of the native part of the plan (unsorted names), or None if it has none."""
    from ...backends.sql.render import sql_identifier

    sql = _node_sql(plan.root, plan.fragments)
    if sql is not None and plan.guard_column is not None:
        # array_sort is a CodegenFallback: a projection holding one is not whole-stage-generated,
        # so Spark compiles it with its CASE branches split into small, JIT-able methods. It
        # sorts a one-element array (cheap) and is never NULL, so the IF always takes `sql`.
        sql = f"IF({_GUARD.format(col=sql_identifier(plan.guard_column))}, {sql}, {_EMPTY})"
    return sql


def matching_names(native, fallback, schema, *, dialect, binding: "dict | None" = None, index: bool = True):
    """Column ``array<string>``: sorted names of the matching subscriptions, per message.

    ``native``: ``[(subscription, SQL fragment)]``; ``fallback``: ``[subscription]`` whose
    selectors need the vectorized fallback (one Arrow UDF evaluates them together).
    """
    from pyspark.sql import functions as F

    from ...backends.udf import routing_udf, source_args

    b = Binding.of(**(binding or {}))
    plan = plan_routing(native, fallback, schema, dialect, b, index=index)
    sql = plan_sql(plan)
    matches = F.expr(sql) if sql is not None else F.array().cast("array<string>")
    if fallback:
        from ...language.schema import to_schema
        from .estate import compiled_selector

        pieces = []
        for s in fallback:
            compiled = compiled_selector(s.selector or "", dialect, to_schema(schema), b)
            pieces.append((s.name, compiled.piece(compiled.core)))
        udf, cols = routing_udf(pieces)
        matches = F.concat(matches, udf(*source_args(cols)))  # only the columns they read
    return F.sort_array(matches)


def tag_matches(messages, native, fallback, *, dialect, binding: "dict | None" = None, index: bool = True,
                column: str = "__jms_matches", templates: bool = True, sort: bool = True):
    """``messages`` plus ``column``: what `matching_names` computes, except that the subscriptions
    sharing a template on an access value are matched through their index (a constant map)
    (`route_templates`; ``templates=False``: not), and each fallback (Arrow UDF) subscription
    evaluates its non-native conjuncts only on the messages that pass its native ones
    (`route_fallback`). One scan of the messages. ``sort=False``: the same names in the plan's
    order, not sorted (a topic pass, which only explodes them: measured 9 % of its CPU)."""
    from pyspark.sql import functions as F

    from ...backends.sql.render import sql_identifier
    from .fallback import fallback_matches, split_fallback
    from .merge import own_method, own_methods, own_parts

    b = Binding.of(**(binding or {}))
    schema, drop, parts = messages.schema, [], []
    tp = _templates(native, schema, dialect, b) if index and templates else None
    if tp is not None:
        from .keys import apply_templates

        native = list(tp.rest)
        messages, parts, drop = apply_templates(messages, tp)
    own = own_methods(messages)
    plan = plan_routing(native, fallback, schema, dialect, b, index=index, jit_chars=_jit_chars(own))
    # the templates and the CASE plan in parts, each compiled as a method of its own (no guard),
    # unless the CASE plan alone is one JIT-able method
    cases = own_parts(plan) if own and (tp is not None or plan.guard_column) else None
    if cases is not None:
        exprs = [F.expr(own_method(p)) for p in cases + parts]
        matches = F.concat(*exprs) if exprs else F.array().cast("array<string>")
    else:
        sql = plan_sql(plan)
        matches = F.expr(sql) if sql is not None else F.array().cast("array<string>")
    if tp is not None and cases is None:
        matches = F.concat(matches, *[F.expr(p) for p in parts])
        guard = _guard_column(schema) if plan.guard_column is None else None
        if guard is not None:  # the templates' code is too large for one JIT-able whole-stage method
            matches = F.when(F.expr(_GUARD.format(col=sql_identifier(guard))), matches).otherwise(F.expr(_EMPTY))
    if fallback:
        matches = F.concat(matches, fallback_matches(split_fallback(fallback, schema, dialect, b), schema, dialect, b))
    return messages.withColumn(column, F.sort_array(matches) if sort else matches).drop(*drop)


def _jit_chars(own: bool) -> int:
    """The SQL length bound of one JIT-able method: without subexpression elimination (``own``
    False) ~2 B of bytecode per character, half as many."""
    return JIT_SQL_CHARS // (1 if own else 2)


def _templates(native, schema, dialect, binding):
    """The `route_templates.TemplatePlan` of ``native``, or None when it templates nothing."""
    from .templates import plan_templates

    tp = plan_templates(native, schema, dialect, binding)
    return tp if tp.accesses else None


# -- explain --------------------------------------------------------------------------------------

def explain_routing(schema, subscriptions, *, dialect="jms", index: bool = True, **binding) -> str:
    """The routing plan of ``subscriptions`` over a table of ``schema`` (a DataFrame's ``schema``,
    or the DataFrame), as text: groups, access names, subscriptions evaluated per message. Given
    the DataFrame, the plan is the one `tag_matches` makes in its session (parts or guard follow
    its subexpression elimination); given a schema, Spark's defaults."""
    from ...language.dialects import get_dialect
    from .estate import plan_subscriptions
    from .explain import format_plan
    from .fallback import format_fallback, split_fallback
    from .merge import own_methods
    from .subscriptions import normalize_subscriptions

    own = own_methods(schema if hasattr(schema, "sparkSession") else None)
    schema = getattr(schema, "schema", schema)
    d = get_dialect(dialect)
    b = Binding.of(**binding)
    native, fallback, errors = plan_subscriptions(normalize_subscriptions(subscriptions), schema, d, b)
    tp = _templates(native, schema, d, b) if index else None
    plan = plan_routing(list(tp.rest) if tp else native, fallback, schema, d, b, index=index, jit_chars=_jit_chars(own))
    text = format_plan(plan, invalid=[s.name for s, _ in errors], templates=tp, own=own, schema=schema)
    # the planner's split of each fallback subscription: its native gate, what the UDF evaluates
    return "\n".join([text] + format_fallback(split_fallback(fallback, schema, d, b)))
