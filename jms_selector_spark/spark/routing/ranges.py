"""Range buckets: a template's candidates narrowed by a bound on a numeric value (#16).

Many selectors bound a number with parameters of their own: ``price BETWEEN 27.35 AND 402.76``,
``JMSTimestamp BETWEEN <day> AND <day + 6 h>``, ``weight > 2500``. An index on a STRING access
value (`route_templates`) gives every message all the candidates of its key, and most of them fail
such a bound. When a template's SQL has, among its top-level AND conjuncts (nested AND chains
included), ``V >= p``, ``V > p``, ``V <= p`` or ``V < p`` with ``p`` one of its parameters and
``V`` a numeric column (or ``CAST(<numeric column> AS DOUBLE)``), each candidate can be TRUE only
for values ``V`` between its lower and upper bounds. The values of ``V`` are cut into buckets by
boundaries ``b1 < b2 < … < b(K-1)`` taken from the bounds themselves; per message one expression,

    IF(V IS NULL, NULL, IF(V < b8, IF(V < b4, …), …))      (a binary search: log2 K comparisons)

gives the bucket, and the candidates list has one level more: per key, per bucket, the candidates
whose bounds meet it. The template's whole SQL is still evaluated on each candidate, so the
buckets only leave out candidates that are not TRUE anyway:

- bucket ``i`` holds the values ``x`` with ``b(i) <= x < b(i+1)`` (``b0`` = -inf, ``bK`` = +inf) in
  Spark's order, the one the conjuncts compare with (the same text ``V``, boundaries written as
  literals of the parameters' own type, so the same coercions). Spark orders doubles totally
  (-0.0 = 0.0, NaN above everything), so NaN falls in the last bucket, where every candidate
  without an upper bound is, and ``NaN <= p`` / ``NaN < p`` are FALSE in Spark;
- a candidate is left out of bucket ``i`` only when its lower bound ``L >= b(i+1)`` (then
  ``x < L``: ``V >= L`` and ``V > L`` are FALSE) or its upper bound ``H < b(i)`` (``x > H``);
- ``V`` NULL: the conjuncts are not TRUE, so no bucket (NULL: no candidates).

A template is split only when the buckets leave, on average over the buckets, at most
`MAX_SHARE` of its candidates per key and that saves at least `MIN_SAVED` per key: the boundaries
are quantiles of the bounds, so the estimate assumes values spread like the subscriptions' bounds.
Measured (`benchmarks/probe_route_ranges.py`, README): a candidate costs little in generated
code, a filter of its own more, so buckets pay only where a key has many bounded candidates:
time-window subscriptions over 10 types, off / on CPU 0.95 at 10 per key (not split since),
1.05 at 20, 1.20 at 30, 1.31 at 50, 1.44 at 100; the realistic estate of `bench_route`: none split.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .sqltext import conjunct_spans

__all__ = ["Range", "find_range", "plan_range", "plan_ranges", "format_ranges", "template_range", "ranged_sql",
           "bucket_sql", "in_bucket", "numeric_columns", "RANGES", "MAX_BUCKETS", "MAX_SHARE", "MIN_SAVED"]

#: Templates with a numeric bound on their own parameters are split by buckets (False: never).
RANGES = True
#: At most this many buckets per template (a binary search of log2 of it comparisons per message).
MAX_BUCKETS = 32
#: Split only when a bucket holds on average at most this share of a key's candidates ...
MAX_SHARE = 0.6
#: ... and that leaves out at least this many candidates per key (a split template is matched by a
#: filter of its own, not merged with the index's others: measured slower when it saves fewer).
MIN_SAVED = 16

_NUMERIC = {"byte", "short", "integer", "long", "float", "double"}
_COL = r"`(?:[^`]|``)+`"
_VALUE = rf"(?:{_COL}|CAST\({_COL} AS DOUBLE\))"
_ATOM = re.compile(rf"({_VALUE}) (>=|>|<=|<) __jms_c\.p(\d+)")


def numeric_columns(schema) -> frozenset:
    """SQL (backquoted) of the top-level numeric columns of ``schema`` (never DECIMAL)."""
    from ...language.schema import to_schema

    fields = getattr(schema, "fields", None)
    if fields is None or not type(schema).__module__.startswith("pyspark"):
        fields = to_schema(schema).fields
    return frozenset("`" + f.name.replace("`", "``") + "`" for f in fields if f.dataType.typeName() in _NUMERIC)


def _atoms(text: str) -> list:
    """The AND operands of ``text``, nested AND chains (in parentheses) flattened."""
    spans = conjunct_spans(text)
    if not spans or (len(spans) == 1 and text[spans[0][0]:spans[0][1]] == text):
        return [text]
    return [a for s, e in spans for a in _atoms(text[s:e])]


@dataclass(frozen=True)
class Range:
    """The bounds of a template on one value: ``value_sql`` between its parameters ``lows`` (lower
    bounds, by index among the non-constant parameters) and ``highs``; ``bounds``: the boundaries."""

    value_sql: str
    type: str  # the parameters' Spark type (INT, BIGINT, DOUBLE)
    lows: tuple
    highs: tuple
    bounds: tuple = ()
    share: float = 1.0  # the share of a key's candidates a bucket holds, on average over the buckets

    def limits(self, params: tuple) -> tuple:
        """(lower bound or None, upper bound or None) of a candidate with parameter values ``params``."""
        lo = max((params[q] for q in self.lows), default=None)
        hi = min((params[q] for q in self.highs), default=None)
        return lo, hi


def find_range(body: str, param_types: tuple, numeric: frozenset) -> "Range | None":
    """The `Range` (without boundaries) of a template's ``body`` (its SQL over ``__jms_c.p<i>``)
    on the value with the most bounds, or None."""
    found: dict = {}
    for atom in _atoms(body):
        m = _ATOM.fullmatch(atom.strip())
        if not m:
            continue
        value, op, q = m.group(1), m.group(2), int(m.group(3))
        col = re.match(_COL, value.removeprefix("CAST(")).group()
        if col not in numeric or param_types[q] not in ("INT", "BIGINT", "DOUBLE"):
            continue
        lows, highs = found.setdefault((value, param_types[q]), ([], []))
        (lows if op.startswith(">") else highs).append(q)
    if not found:
        return None
    (value, ty), (lows, highs) = max(found.items(), key=lambda kv: len(kv[1][0]) + len(kv[1][1]))
    return Range(value, ty, tuple(lows), tuple(highs))


def in_bucket(limits: tuple, i: int, bounds: tuple) -> bool:
    """Can a candidate with ``limits`` (lower, upper; None: unbounded) be TRUE in bucket ``i``?"""
    lo, hi = limits
    if lo is not None and i < len(bounds) and lo >= bounds[i]:  # every x of bucket i is < bounds[i] <= lo
        return False
    if hi is not None and i > 0 and hi < bounds[i - 1]:  # every x of bucket i is >= bounds[i-1] > hi
        return False
    return True


def plan_range(rng: Range, candidates: list) -> "Range | None":
    """``rng`` with boundaries for ``candidates`` (per key, the parameter values of each candidate),
    or None when buckets would not leave out enough of them (`MAX_SHARE`, `MIN_SAVED`)."""
    limits = [[rng.limits(p) for p in cands] for cands in candidates]
    points = sorted({v for ls in limits for lim in ls for v in lim if v is not None})
    if len(points) < 2:
        return None
    k = min(MAX_BUCKETS, len(points) + 1)  # >= 3 buckets: boundaries at quantiles of the bounds
    bounds = tuple(dict.fromkeys(points[round(j * (len(points) - 1) / (k - 2))] for j in range(k - 1)))
    total = sum(len(ls) for ls in limits)
    kept = sum(in_bucket(lim, i, bounds) for ls in limits for lim in ls for i in range(len(bounds) + 1))
    share = kept / (len(bounds) + 1) / total
    if share > MAX_SHARE or (1 - share) * total / len(limits) < MIN_SAVED:
        return None
    return Range(rng.value_sql, rng.type, rng.lows, rng.highs, bounds, round(share, 3))


def template_range(access, j: int, body: str, distinct: dict) -> "Range | None":
    """The planned `Range` of template ``j`` of ``access`` (``body``: its SQL; ``distinct``: its
    candidates per key, `route_templates._distinct`), or None."""
    t = access.templates[j]
    rng = find_range(body, t.param_types, access.numeric) if RANGES and t.param_types else None
    if rng is None:
        return None
    return plan_range(rng, [[t.params[names[0]] for names in d.values()] for d in distinct.values()])


def ranged_sql(access, a: int, j: int, distinct: dict, many: bool, body: str, rng: Range) -> str:
    """Template ``j``'s ``filter(...)`` over the candidates of the message's key *and*
    bucket (`bucket_sql`): a constant ``ARRAY<ARRAY<ARRAY<STRUCT<…>>>>``, per key, per bucket."""
    from ...backends.sql.render import sql_string
    from .templates import candidate_json, names_sql_of, struct_sql

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


def _literal(value, ty: str) -> str:
    if ty == "DOUBLE":
        return f"CAST('{value!r}' AS DOUBLE)"  # the shortest text that reads back as the same double
    return f"{value}L" if ty == "BIGINT" else str(value)


def bucket_sql(rng: Range) -> str:
    """SQL of the message's bucket, from 1 (`element_at`), NULL when the value is NULL."""
    b = [_literal(v, rng.type) for v in rng.bounds]

    def tree(lo: int, hi: int) -> str:  # buckets lo .. hi - 1
        if hi - lo == 1:
            return str(lo + 1)
        mid = (lo + hi) // 2
        return f"IF({rng.value_sql} < {b[mid - 1]}, {tree(lo, mid)}, {tree(mid, hi)})"

    return f"IF({rng.value_sql} IS NULL, CAST(NULL AS INT), {tree(0, len(b) + 1)})"


def plan_ranges(access) -> dict:
    """``{template number: Range}``: the templates of ``access`` that `template_sql` splits by buckets."""
    from .templates import STRIP, _distinct

    out = {}
    for j, t in enumerate(access.templates):
        body = t.lambda_sql("__jms_c", access.value_sqls if STRIP else ())
        rng = None if t.trivial(access.value_sqls) else template_range(access, j, body, _distinct(access, j))
        if rng is not None:
            out[j] = rng
    return out


def format_ranges(plan) -> list:
    """Lines for `route_plan.format_templates`: the templates split by range buckets."""
    lines = []
    for a in plan.accesses:
        for j, rng in plan_ranges(a).items():
            lines.append(f"    range buckets: {len(a.templates[j].members)} subscriptions of index on "
                         f"{' AND '.join(a.names)} by {rng.value_sql} ({len(rng.bounds) + 1} buckets): "
                         f"~{rng.share:.0%} of their candidates evaluated per message")
    return lines
