"""How a join's templates evaluate their candidates: fewer higher-order-function calls (#16).

`route_templates.template_sql` matched each template's candidates with its own
``transform(filter(<candidates>, c -> <body>), c -> c.n)``: at 1,000 subscriptions ~40 such calls
per message, each allocating its arrays, then concatenated. Spark 4 generates code for the
lambdas' bodies, so what costs is the calls, not the interpretation; measured on 1,000 realistic
subscriptions (README, `bench_route.py --lambda-plan --unroll`, matching alone and full topic
passes), one change pays a little and is on, the other is kept as an option, off:

- **One filter per join** (`MERGE`, on). The templates of a join that are not `shared` and not
  unrolled are matched by one ``transform(filter(...))`` over one candidates list per key for all
  of them: each candidate is ``STRUCT<t: template, n: name, t<j>p<k>: template j's parameters>``,
  the body a ``CASE`` on ``t`` (a candidate is tested only with its own template's body, exactly
  as before). Measured 4-5 % less CPU than one filter per template.
- **Short lists unrolled** (`UNROLL_MAX`, 0: off). A template whose candidate list has at most
  `UNROLL_MAX` entries for every key is evaluated by one plain expression per position ``i``
  (0-based)::

      IF(get(<cands>, i).n IS NOT NULL AND coalesce(<body over get(<cands>, i).p0, ...>, false), get(<cands>, i).n, NULL)

  ``get`` is NULL out of bounds with ANSI on and off (``element_at`` would raise with ANSI on);
  the ``IS NOT NULL`` test comes first, so a position the key has no candidate for costs one array
  read, and a body that is TRUE whatever its parameters (``urgent OR JMSPriority > p0`` with
  ``urgent`` TRUE) never names a missing candidate. The positions of one join's unrolled templates
  are one ``array(...)`` whose NULLs (positions that do not match) one ``filter`` removes. A
  `route_templates.shared` template's position gives its candidate's names or ``[]``,
  concatenated. Exact (tested at 2 and 8), but not faster: at 2, 0-6 % more CPU for the matching
  alone; at 16, 1.5x the CPU (every position of every template is read for every message).
"""
from __future__ import annotations

import re

__all__ = ["UNROLL_MAX", "MERGE", "longest", "position_sql", "unrolled_parts", "merged_sql"]

#: A template whose candidate list is at most this long for every key is unrolled (0: none; measured
#: not faster, see above).
UNROLL_MAX = 0
#: The non-shared templates of one join with longer lists are matched by one filter (False: one each).
MERGE = True

_EMPTY = "CAST(array() AS ARRAY<STRING>)"


def longest(distinct: dict, many: bool) -> int:
    """The longest candidate list over the keys (``distinct``: `route_templates._distinct`)."""
    return max((len(d) if many else sum(len(ns) for ns in d.values()) for d in distinct.values()), default=0)


def position_sql(cands: str, body: str, var: str, i: int, many: bool) -> str:
    """The names of candidate ``i`` of ``cands`` if its ``body`` (over ``var.p<k>``) is TRUE:
    a name or NULL (``many``: its list of names or ``[]``)."""
    item = f"get({cands}, {i})"
    over = re.sub(re.escape(var) + r"\.p(\d+)", lambda m: f"{item}.p{m.group(1)}", body)
    cond = f"{item}.{'ns' if many else 'n'} IS NOT NULL AND coalesce({over}, false)"
    return f"IF({cond}, {item}.ns, {_EMPTY})" if many else f"IF({cond}, {item}.n, NULL)"


def unrolled_parts(singles: list, lists: list) -> list:
    """SQL of the names arrays of one join's unrolled positions: ``singles`` (a name or NULL) in one
    array without its NULLs, ``lists`` (arrays) concatenated."""
    out = []
    if singles:
        out.append(f"filter(array({', '.join(singles)}), __jms_n -> __jms_n IS NOT NULL)")
    if lists:
        out.append(lists[0] if len(lists) == 1 else f"concat({', '.join(lists)})")
    return out


def merged_sql(access, a: int, items: list) -> str:
    """One ``transform(filter(...))`` for the non-shared templates ``items`` ``[(j, _distinct,
    body)]`` of ``access`` (joined as index ``a``): the names of the candidates whose body is TRUE."""
    from ..backends.sql_render import sql_string
    from .route_templates import _SPARK_TYPES, _json_value

    by_key = [[] for _ in access.keys]
    fields, whens = ["t: INT", "n: STRING"], []
    for j, distinct, body in items:
        t = access.templates[j]
        fields += [f"t{j}p{k}: {_SPARK_TYPES[ty]}" for k, ty in enumerate(t.param_types)]
        for cands, d in zip(by_key, distinct.values()):  # `Access.keys` order, as the join's ids
            for params, names in d.items():
                ps = "".join(f',"t{j}p{k}":{v}' for k, v in enumerate(params))
                cands += [f'{{"t":{j},"n":{_json_value(nm)}{ps}}}' for nm in names]
        body = re.sub(r"__jms_c\.p(\d+)", lambda m: f"__jms_c.t{j}p{m.group(1)}", body)
        whens.append(f"WHEN {j} THEN coalesce({body}, false)")
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key) + "]"
    lit = f"from_json({sql_string(text)}, 'ARRAY<ARRAY<STRUCT<{', '.join(fields)}>>>')"
    body = f"CASE __jms_c.t {' '.join(whens)} ELSE false END"
    return f"coalesce(transform(filter(element_at({lit}, `__jms_ix{a}_id`), __jms_c -> {body}), __jms_c -> __jms_c.n), {_EMPTY})"
