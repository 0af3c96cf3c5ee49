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
"""
from __future__ import annotations

import re

__all__ = ["MERGE", "OWN_METHODS", "OWN_MAX_CASES", "merged_sql", "own_method", "own_methods"]

#: The non-shared templates of one index are matched by one filter (False: one filter per template).
MERGE = True
#: Each template expression is compiled as its own method in whole-stage codegen (`own_method`),
#: instead of keeping the whole projection out of it with `route_plan`'s codegen guard.
OWN_METHODS = True
#: ... when the CASE plan beside the templates (`route_plan`) has at most this many CASEs: its own
#: method must stay under the 8,000-byte JIT limit (measured 5,654 B with 15 CASEs of long
#: ORs, 9,360 B with 23); above, the guard as before.
OWN_MAX_CASES = 12

_EMPTY = "CAST(array() AS ARRAY<STRING>)"


def merged_sql(access, a: int, items: list) -> str:
    """One ``filter(...).n`` for the non-shared templates ``items`` ``[(j, _distinct,
    body)]`` of ``access`` (index number ``a``): the names of the candidates whose body is TRUE."""
    from ..backends.sql_render import sql_string
    from .route_templates import _SPARK_TYPES, _json_value, names_sql_of

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


def own_methods(messages) -> bool:
    """Whether `tag_matches` writes the templates' expressions with `own_method` instead of the
    codegen guard: `OWN_METHODS`, and the session's subexpression elimination on (without it
    each would be evaluated twice, and all in one method)."""
    if not OWN_METHODS:
        return False
    try:
        conf = messages.sparkSession.conf.get("spark.sql.subexpressionElimination.enabled", "true")
    except Exception:  # a session that cannot tell: the guard, always correct
        return False
    return str(conf).strip().lower() == "true"
