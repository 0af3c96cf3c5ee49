"""The SQL of the templates (`templates.TemplatePlan`): the index lookups and one expression per template.

**The index is a constant map.** For each index (`templates.Access`) the keys are numbered from
1; per message, `lookup_sql` reads its key number from a constant ``MAP<STRING, INT>`` (nested for
a pair) with ``try_element_at`` — NULL for a NULL or unnamed value, so no candidates, exactly
"access predicate not TRUE" — or, with value numbers (`keys`), `key_sql` from a constant
``ARRAY<INT>``. Per key a constant array holds the candidates of each template with their
parameters, ``ARRAY<STRUCT<n: name, p0, p1, …>>``, and per template one expression::

    filter(element_at(<candidates>, <key number>), c -> coalesce(<the template over c.p0, …>, false)).n

gives the names of the candidates whose *whole* selector is TRUE: one expression per template,
whatever the number of subscriptions. The constants are JSON read by ``from_json``, which Spark
folds into one literal when it optimizes the plan. Members with the same parameters are one
candidate listing their names (`shared`). An index's non-shared templates share one filter
(`merged_sql`; tuning feature ``merge``): each candidate carries its template's number and the body
is a ``CASE`` on it. A template split by range buckets (`ranges`) reads its candidates per key and
per bucket (`ranged_sql`).
"""
from __future__ import annotations

import json
from math import prod

from ...backends.sql.render import sql_string
from .ranges import in_bucket, plan_ranges
from .render_index import EMPTY_NAMES
from .templates import distinct_candidates, json_value
from .tuning import DEFAULT, RoutingTuning

__all__ = ["lookup_sql", "key_sql", "value_sql", "number_sql", "names_sql", "shared", "candidate_json", "struct_sql",
           "candidates_sql", "names_sql_of", "merged_sql", "ranged_sql", "bucket_sql", "template_sql", "VAR"]

#: The lambda variable of a template's candidate.
VAR = "__jms_c"
_SPARK_TYPES = {"STRING": "STRING", "INT": "INT", "BIGINT": "BIGINT", "DOUBLE": "DOUBLE"}


def lookup_sql(access) -> str:
    """SQL of the message's key number in ``access`` (its position from 1 in `Access.keys`), NULL
    when its values are not a key or one is NULL: a constant map, nested for a pair."""
    tree: dict = {}
    for i, key in enumerate(access.keys, 1):
        d = tree
        for v in key[:-1]:
            d = d.setdefault(v, {})
        d[key[-1]] = i
    t = "INT"
    for _ in access.value_sqls:
        t = f"MAP<STRING, {t}>"
    out = f"from_json({sql_string(json.dumps(tree))}, '{t}')"
    for v in access.value_sqls:  # try_: a missing key is NULL, ANSI or not
        out = f"try_element_at({out}, {v})"
    return out


def value_sql(value: str, numbers: dict) -> str:
    """SQL of the message's number for access value ``value`` (NULL: NULL or not named)."""
    return f"try_element_at(from_json({sql_string(json.dumps(numbers))}, 'MAP<STRING, INT>'), {value})"


def number_sql(col: str, numbers: dict) -> str:
    """SQL of the number of column ``col``'s value (`keys.intern`): NULL when NULL, 0 when not named."""
    return f"coalesce({value_sql(col, numbers)}, nvl2({col}, 0, NULL))"


def key_sql(access, numbers: dict, columns: dict, zeros=frozenset(), tuning: RoutingTuning = DEFAULT) -> "str | None":
    """SQL of the message's key number in ``access`` (as `lookup_sql`) from the value number
    columns ``columns`` ``{value SQL: column name}`` (those in ``zeros`` number an unnamed value 0:
    no key); None past `RoutingTuning.max_slots`. The slot of a combination that is not a key
    holds NULL; positions are never 0 nor past the end (``try_element_at`` of NULL is NULL)."""
    sizes = [len(numbers[v]) for v in access.value_sqls]
    if prod(sizes) > tuning.max_slots:
        return None
    slots: list = [None] * prod(sizes)
    for k, key in enumerate(access.keys, 1):
        pos = 0
        for v, x, n in zip(access.value_sqls, key, sizes):
            pos = pos * n + numbers[v][x] - 1
        slots[pos] = k
    col = [f"nullif(`{columns[v]}`, 0)" if v in zeros else f"`{columns[v]}`" for v in access.value_sqls]
    at = col[0]
    for c, n in zip(col[1:], sizes[1:]):
        at = f"({at} - 1) * {n} + {c}"
    return f"try_element_at(from_json({sql_string(json.dumps(slots))}, 'ARRAY<INT>'), {at})"


def names_sql(access, js) -> str:
    """A constant ``ARRAY<ARRAY<STRING>>``: per key of ``access`` the members of its templates ``js``."""
    by_key: dict = {k: [] for k in access.keys}
    for j in js:
        t = access.templates[j]
        for nm in t.members:
            for k in t.keys[nm]:
                by_key[k].append(json_value(nm))
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key.values()) + "]"
    return f"from_json({sql_string(text)}, 'ARRAY<ARRAY<STRING>>')"


def shared(access, j: int, by_key: dict, tuning: RoutingTuning = DEFAULT) -> bool:
    """Template ``j``'s candidates list their members' names (``ns``), one candidate per distinct
    parameter values of a key, when that saves at least `RoutingTuning.shared_min` of the
    evaluations (``by_key``: `templates.distinct_candidates`)."""
    entries = sum(len(ns) for d in by_key.values() for ns in d.values())
    return (len(access.templates[j].members) > 1
            and sum(len(d) for d in by_key.values()) <= (1 - tuning.shared_min) * entries)


def candidate_json(params: tuple, names: list, many: bool) -> list:
    """JSON objects of the candidates with parameter values ``params`` (JSON texts) and member
    ``names``: one listing them (``many``, `shared`) or one per name."""
    ps = "".join(f',"p{i}":{v}' for i, v in enumerate(params))
    if many:
        return ['{"ns":[' + ",".join(json_value(nm) for nm in names) + "]" + ps + "}"]
    return [f'{{"n":{json_value(nm)}{ps}}}' for nm in names]


def struct_sql(t, many: bool) -> str:
    """The Spark type of template ``t``'s candidates."""
    return "STRUCT<" + ", ".join(["ns: ARRAY<STRING>" if many else "n: STRING"]
                                 + [f"p{i}: {_SPARK_TYPES[ty]}" for i, ty in enumerate(t.param_types)]) + ">"


def candidates_sql(access, j: int, distinct: dict, many: bool) -> str:
    """A constant ``ARRAY<ARRAY<STRUCT<n, p0, ...>>>``: per key of ``access`` (`Access.keys` order)
    the candidates of its template ``j`` with their parameters (``many``: ``ns``, the names of
    the members with those parameters, instead of the name ``n``)."""
    by_key = [[c for params, names in d.items() for c in candidate_json(params, names, many)] for d in distinct.values()]
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key) + "]"
    return f"from_json({sql_string(text)}, 'ARRAY<ARRAY<{struct_sql(access.templates[j], many)}>>')"


def names_sql_of(cands: str, test: str, many: bool) -> str:
    """SQL of the names of the candidates ``cands`` (an array of structs, or NULL: []) for which
    the lambda body ``test`` over `VAR` is TRUE: the filtered structs' field ``n`` (``ns``,
    flattened, for `shared` ones) — no second lambda copying every name."""
    kept = f"(filter({cands}, {VAR} -> {test}))"
    return f"coalesce({f'flatten({kept}.ns)' if many else kept + '.n'}, {EMPTY_NAMES})"


def merged_sql(access, a: int, items: list) -> str:
    """One ``filter(...).n`` for the non-shared templates ``items`` ``[(j, distinct)]`` of
    ``access`` (index number ``a``): the names of the candidates whose own template's body is
    TRUE (each candidate carries its template's number ``t``)."""
    by_key = [[] for _ in access.keys]
    fields, whens = ["t: INT", "n: STRING"], []
    for j, distinct in items:
        t = access.templates[j]
        fields += [f"t{j}p{k}: {_SPARK_TYPES[ty]}" for k, ty in enumerate(t.param_types)]
        for cands, d in zip(by_key, distinct.values()):  # `Access.keys` order, as the index's key numbers
            for params, names in d.items():
                ps = "".join(f',"t{j}p{k}":{v}' for k, v in enumerate(params))
                cands += [f'{{"t":{j},"n":{json_value(nm)}{ps}}}' for nm in names]
        body = t.lambda_sql(lambda k, j=j: f"{VAR}.t{j}p{k}")
        whens.append(f"WHEN {j} THEN coalesce({body}, false)")
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key) + "]"
    lit = f"from_json({sql_string(text)}, 'ARRAY<ARRAY<STRUCT<{', '.join(fields)}>>>')"
    body = f"CASE {VAR}.t {' '.join(whens)} ELSE false END"
    return names_sql_of(f"element_at({lit}, `__jms_ix{a}_id`)", body, False)


def _boundary(value, ty: str) -> str:
    if ty == "DOUBLE":
        return f"CAST('{value!r}' AS DOUBLE)"  # the shortest text that reads back as the same double
    return f"{value}L" if ty == "BIGINT" else str(value)


def bucket_sql(rng) -> str:
    """SQL of the message's bucket, from 1 (`element_at`), NULL when the value is NULL: a binary
    search of log2 of the buckets comparisons."""
    b = [_boundary(v, rng.type) for v in rng.bounds]

    def tree(lo: int, hi: int) -> str:  # buckets lo .. hi - 1
        if hi - lo == 1:
            return str(lo + 1)
        mid = (lo + hi) // 2
        return f"IF({rng.value_sql} < {b[mid - 1]}, {tree(lo, mid)}, {tree(mid, hi)})"

    return f"IF({rng.value_sql} IS NULL, CAST(NULL AS INT), {tree(0, len(b) + 1)})"


def ranged_sql(access, a: int, j: int, distinct: dict, many: bool, body: str, rng) -> str:
    """Template ``j``'s ``filter(...)`` over the candidates of the message's key *and* bucket: a
    constant ``ARRAY<ARRAY<ARRAY<STRUCT<…>>>>``, per key, per bucket."""
    t = access.templates[j]
    keys = []
    for d in distinct.values():
        buckets = [[] for _ in range(len(rng.bounds) + 1)]
        for params, names in d.items():
            lim = rng.limits(t.params[names[0]])
            cands = candidate_json(params, names, many)
            for i, b in enumerate(buckets):
                if in_bucket(lim, i, rng.bounds):
                    b += cands
        keys.append("[" + ",".join("[" + ",".join(b) + "]" for b in buckets) + "]")
    lit = f"from_json({sql_string('[' + ','.join(keys) + ']')}, 'ARRAY<ARRAY<ARRAY<{struct_sql(t, many)}>>>')"
    cands = f"element_at(element_at({lit}, `__jms_ix{a}_id`), {bucket_sql(rng)})"
    return names_sql_of(cands, f"coalesce({body}, false)", many)


def template_sql(access, a: int, numeric, tuning: RoutingTuning = DEFAULT) -> list:
    """Per template of ``access`` (index number ``a``, its key number in ```__jms_ix<a>_id```): SQL
    of the names of its matching candidates. ``numeric``: the top-level numeric columns (range
    buckets)."""
    ranges = plan_ranges(access, numeric, tuning)
    out, trivial, rest = [], [], []
    for j, t in enumerate(access.templates):
        if t.trivial:  # every candidate the index gives matches: no lambda
            trivial.append(j)
            continue
        distinct = distinct_candidates(access, j)  # once per template (it walks every member)
        many = shared(access, j, distinct, tuning)
        body = t.lambda_sql(lambda k: f"{VAR}.p{k}")
        if j in ranges:
            out.append(ranged_sql(access, a, j, distinct, many, body, ranges[j]))
            continue
        rest.append((j, distinct, many, body))
    if trivial:
        out.append(f"coalesce(element_at({names_sql(access, trivial)}, `__jms_ix{a}_id`), {EMPTY_NAMES})")
    plain = [(j, d) for j, d, many, _ in rest if not many]
    merge = tuning.on("merge") and len(plain) > 1
    if merge:
        out.append(merged_sql(access, a, plain))
    return out + [names_sql_of(f"element_at({candidates_sql(access, j, d, many)}, `__jms_ix{a}_id`)",
                               f"coalesce({body}, false)", many)
                  for j, d, many, body in rest if many or not merge]
