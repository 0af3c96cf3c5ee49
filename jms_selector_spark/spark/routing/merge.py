"""How an index's templates evaluate their candidates: fewer higher-order-function calls (#16).

`route_templates.template_sql` matched each template's candidates with its own
``transform(filter(<candidates>, c -> <body>), c -> c.n)``: at 1,000 subscriptions ~40 such calls
per message, each allocating its arrays, then concatenated. Spark 4 generates code for the
lambdas' bodies, so what costs is the calls, not the interpretation; measured on 1,000 realistic
subscriptions (README, `bench_route.py --lambda-plan`, matching alone and full topic passes),
two changes pay and are made here:

- **One filter per index** (`MERGE`, on). The templates of an index that are not `shared` are
  matched by one ``filter(...).n`` over one candidates list per key for all of them:
  each candidate is ``STRUCT<t: template, n: name, t<j>p<k>: template j's parameters>``,
  the body a ``CASE`` on ``t`` (a candidate is tested only with its own template's body, exactly
  as before). Measured 4-5 % less CPU than one filter per template.
- **Short lists unrolled** into one plain expression per position (``IF(get(<cands>, i).n IS NOT
  NULL AND coalesce(<body over get(<cands>, i).p0…>, false), get(<cands>, i).n, NULL)``, NULLs
  dropped once per index) was measured too and not kept: exact, but not faster (at most 2 per
  key: 0–6 % more CPU for the matching alone; at most 16: 1.5× the CPU, every position of every
  template being read for every message). It is in the history of this module (``git show 35c606d:jms_selector_spark/spark/route_unroll.py``).
- **Each expression its own method** (`OWN_METHODS`, on; `own_method`). Written one after the
  other, the templates' expressions make the whole-stage method too large to JIT; `route_plan`'s
  codegen guard kept them out of whole-stage codegen at the price of one more copy of every
  message row. As common subexpressions they are compiled as methods of their own inside it:
  2M messages × 1,000 subscriptions, full topic pass 18.06 → 15.25 CPU s together with the
  names read as a field (`route_templates.names_sql_of`) (README).
- **The CASE plan in parts of its own** (`own_parts`, #16 stop 28). `route_plan`'s CASE plan,
  cut at its top level (each group's CASE, split by values when long, a long branch cut the
  same way; the general names in runs) into parts of at most `PART_CHARS` characters of SQL,
  each its own method the same way.
  This replaced the guard for CASE plans too large for one JIT-able method (more than
  `route_plan.JIT_CASES` CASEs or `JIT_SQL_CHARS` characters, at most `GUARD_MAX_CASES`) and
  beside templates (before: an own method up to 12 CASEs). 2M messages, 16 / 20 / 30 realistic
  subscriptions, 6 interleaved rounds: 3.13 / 3.16 / 3.16 CPU s guarded, 1.82 / 2.00 / 2.00 in
  parts (largest method 3.5-3.8 KB).
"""
from __future__ import annotations

import re

from .sqltext import EMPTY_NAMES as _EMPTY

__all__ = ["MERGE", "OWN_METHODS", "PART_CHARS", "merged_sql", "own_method", "own_methods", "own_parts"]

#: The non-shared templates of one index are matched by one filter (False: one filter per template).
MERGE = True
#: Each template expression is compiled as its own method in whole-stage codegen (`own_method`),
#: instead of keeping the whole projection out of it with `route_plan`'s codegen guard.
OWN_METHODS = True
#: The CASE plan's parts (`own_parts`) have at most this many characters of SQL: measured up to
#: 1.6 B of bytecode per character (`route_plan.JIT_SQL_CHARS`), so each method stays well under
#: the 8,000-byte JIT limit (parts of 2,300-2,900 characters: 3.5-3.8 KB).
PART_CHARS = 3000


def merged_sql(access, a: int, items: list) -> str:
    """One ``filter(...).n`` for the non-shared templates ``items`` ``[(j, _distinct,
    body)]`` of ``access`` (index number ``a``): the names of the candidates whose body is TRUE."""
    from ...backends.sql.render import sql_string
    from .templates import _SPARK_TYPES, _json_value, names_sql_of

    by_key = [[] for _ in access.keys]
    fields, whens = ["t: INT", "n: STRING"], []
    for j, distinct, body in items:
        t = access.templates[j]
        fields += [f"t{j}p{k}: {_SPARK_TYPES[ty]}" for k, ty in enumerate(t.param_types)]
        for cands, d in zip(by_key, distinct.values()):  # `Access.keys` order, as the index's key numbers
            for params, names in d.items():
                ps = "".join(f',"t{j}p{k}":{v}' for k, v in enumerate(params))
                cands += [f'{{"t":{j},"n":{_json_value(nm)}{ps}}}' for nm in names]
        body = re.sub(r"__jms_c\.p(\d+)", lambda m: f"__jms_c.t{j}p{m.group(1)}", body)
        whens.append(f"WHEN {j} THEN coalesce({body}, false)")
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key) + "]"
    lit = f"from_json({sql_string(text)}, 'ARRAY<ARRAY<STRUCT<{', '.join(fields)}>>>')"
    body = f"CASE __jms_c.t {' '.join(whens)} ELSE false END"
    return names_sql_of(f"element_at({lit}, `__jms_ix{a}_id`)", body, False)


def own_method(sql: str) -> str:
    """``sql`` (an array, never NULL) written so that whole-stage codegen compiles it as a method of
    its own (`OWN_METHODS`): it appears in the condition and in both branches of an ``IF``, so
    Spark's subexpression elimination evaluates it once, and puts such a common subexpression in
    a separate method when the stage's code is large. The other branch is never taken (the size
    of an array is >= 0) and only makes ``sql`` common to both; ``IF(c, x, x)`` or
    ``coalesce(x, x)`` would be simplified away by the optimizer."""
    return f"IF(size({sql}) >= 0, {sql}, array_distinct({sql}))"


def own_methods(messages=None) -> bool:
    """Whether `tag_matches` writes the templates' expressions with `own_method` instead of the
    codegen guard: `OWN_METHODS`, and the session's subexpression elimination on (without it
    each would be evaluated twice, and all in one method). ``messages`` None: Spark's default
    session (elimination on)."""
    if not OWN_METHODS:
        return False
    if messages is None:
        return True
    try:
        conf = messages.sparkSession.conf.get("spark.sql.subexpressionElimination.enabled", "true")
    except Exception:  # a session that cannot tell: the guard, always correct
        return False
    return str(conf).strip().lower() == "true"


def own_parts(plan) -> "list[str] | None":
    """The SQL of `route_plan`'s CASE plan ``plan`` (a `RoutingPlan`, no fallback) as parts of at
    most `PART_CHARS` characters whose concatenation gives its names: each group's ``CASE <value>
    WHEN … ELSE [] END``, split into several over disjoint sets of values when longer (a message's
    value selects one branch in one of them, the others give []); a branch longer than that on its
    own cut the same way, each of its parts behind its own ``CASE <value> WHEN <v> THEN <part>``;
    the general subscriptions in runs; small neighbours joined by ``concat``. None when a single
    subscription is longer than that, or the plan has more than `route_plan.GUARD_MAX_CASES`
    CASEs (Spark's own split code is measured faster there)."""
    from .index import GUARD_MAX_CASES

    if plan.case_count > GUARD_MAX_CASES:
        return None
    parts = _node_parts(plan.root, plan.fragments, PART_CHARS)
    return None if parts is None else _runs(parts, _concat, PART_CHARS)


def _node_parts(node, fragments, limit: int) -> "list[str] | None":
    from ...backends.sql.render import sql_string
    from .index import _names_sql, _node_sql

    out = []
    for g in node.groups:
        whens = []
        for v, c in g.by_value.items():
            when = f"WHEN {sql_string(v)} THEN {_node_sql(c, fragments) or _EMPTY}"
            if len(_case(g.value_sql, [when])) <= limit:
                whens.append(when)
                continue
            # a branch too long for one part: its node's parts, each behind its own WHEN
            head = f"WHEN {sql_string(v)} THEN "
            room = limit - len(_case(g.value_sql, [head]))
            inner = _node_parts(c, fragments, room)
            if inner is None:
                return None
            out += [_case(g.value_sql, [head + p]) for p in _runs(inner, _concat, room)]
        runs = _runs(whens, lambda ws, g=g: _case(g.value_sql, ws), limit)
        if runs is None:
            return None
        out += runs
    if node.general:
        runs = _runs(list(node.general), lambda ns: _names_sql(ns, fragments), limit)
        if runs is None:
            return None
        out += runs
    return out


def _concat(parts: list) -> str:
    return parts[0] if len(parts) == 1 else f"concat({', '.join(parts)})"


def _case(value_sql: str, whens: list) -> str:
    case = f"CASE {value_sql} {' '.join(whens)} ELSE {_EMPTY} END"
    # one WHEN: the optimizer would push `own_method`'s size(...) into the branches (one of them
    # a literal), and the part would no longer be common to the IF's condition: inlined
    return case if len(whens) > 1 else f"concat({case}, {_EMPTY})"


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
