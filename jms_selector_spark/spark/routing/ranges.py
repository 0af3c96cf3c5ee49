"""Range buckets: a template's candidates narrowed by a bound on a numeric value.

Many selectors bound a number with literals of their own: ``price BETWEEN 27.35 AND 402.76``,
``JMSTimestamp BETWEEN <day> AND <day + 6 h>``, ``weight > 2500``. An index on a STRING access value
(`templates`) gives every message all the candidates of its key, and most of them fail such a
bound. When a template's top-level conjuncts (their AND chains flattened) hold bounds
``V >= p``, ``V > p``, ``V <= p`` or ``V < p`` — ``p`` one of its parameters, ``V`` a numeric column
or its cast to DOUBLE, as the SQL back end recorded them (`Fragment.atoms`) — each candidate can be
TRUE only for values ``V`` between its lower and upper bounds. The values of ``V`` are cut into
buckets by boundaries ``b1 < b2 < … < b(K-1)`` taken from the bounds themselves; per message one
binary search gives the bucket (`render_templates.bucket_sql`), and the candidates list has one
level more: per key, per bucket, the candidates whose bounds meet it. The template's whole SQL is
still evaluated on each candidate, so the buckets only leave out candidates that are not TRUE:

- bucket ``i`` holds the values ``x`` with ``b(i) <= x < b(i+1)`` (``b0`` = -inf, ``bK`` = +inf) in
  Spark's order, the one the bounds compare with (the same SQL ``V``, boundaries written as
  literals of the parameters' own type). Spark orders doubles totally (-0.0 = 0.0, NaN above
  everything), so NaN falls in the last bucket, where every candidate without an upper bound is,
  and ``NaN <= p`` / ``NaN < p`` are FALSE in Spark;
- a candidate is left out of bucket ``i`` only when its lower bound ``L >= b(i+1)`` (then
  ``x < L``: ``V >= L`` and ``V > L`` are FALSE) or its upper bound ``H < b(i)``;
- ``V`` NULL: the bounds are not TRUE, so no bucket (no candidates).

A template is split only when the buckets leave, on average, at most
`RoutingTuning.max_share` of a key's candidates per bucket and that saves at least
`RoutingTuning.min_saved` per key: the boundaries are quantiles of the bounds, so the estimate
assumes values spread like the subscriptions' bounds.
"""
from __future__ import annotations

from dataclasses import dataclass

from .templates import distinct_candidates
from .tuning import DEFAULT, RoutingTuning

__all__ = ["Range", "find_range", "plan_range", "in_bucket", "plan_ranges"]

_NUMERIC_PARAMS = ("INT", "BIGINT", "DOUBLE")


@dataclass(frozen=True)
class Range:
    """The bounds of a template on one value: ``value_sql`` between its parameters ``lows`` (lower
    bounds, by parameter index) and ``highs``; ``bounds``: the boundaries."""

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


def find_range(t, numeric) -> "Range | None":
    """The `Range` (without boundaries) of template ``t`` on the value with the most bounds, or
    None. ``numeric``: the top-level numeric columns."""
    position = {k: i for i, k in enumerate(t.shape.slots)}
    param = {i: j for j, i in enumerate(t.param_slots)}
    types = t.param_types
    found: dict = {}
    for k, atoms in enumerate(t.fragment.atoms):
        if k in t.implied:
            continue
        for column, value_sql, op, slot in atoms:
            j = param.get(position.get(slot))
            if j is None or column not in numeric or types[j] not in _NUMERIC_PARAMS:
                continue
            lows, highs = found.setdefault((value_sql, types[j]), ([], []))
            (lows if op.startswith(">") else highs).append(j)
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


def plan_range(rng: Range, candidates: list, tuning: RoutingTuning = DEFAULT) -> "Range | None":
    """``rng`` with boundaries for ``candidates`` (per key, the parameter values of each candidate),
    or None when buckets would not leave out enough of them."""
    limits = [[rng.limits(p) for p in cands] for cands in candidates]
    points = sorted({v for ls in limits for lim in ls for v in lim if v is not None})
    if len(points) < 2:
        return None
    k = min(tuning.max_buckets, len(points) + 1)  # >= 3 buckets: boundaries at quantiles of the bounds
    bounds = tuple(dict.fromkeys(points[round(j * (len(points) - 1) / (k - 2))] for j in range(k - 1)))
    total = sum(len(ls) for ls in limits)
    kept = sum(in_bucket(lim, i, bounds) for ls in limits for lim in ls for i in range(len(bounds) + 1))
    share = kept / (len(bounds) + 1) / total
    if share > tuning.max_share or (1 - share) * total / len(limits) < tuning.min_saved:
        return None
    return Range(rng.value_sql, rng.type, rng.lows, rng.highs, bounds, round(share, 3))


def plan_ranges(access, numeric, tuning: RoutingTuning = DEFAULT) -> dict:
    """``{template number: Range}``: the templates of ``access`` split by buckets."""
    out = {}
    if not tuning.on("ranges"):
        return out
    for j, t in enumerate(access.templates):
        if t.trivial or not t.param_slots:
            continue
        rng = find_range(t, numeric)
        if rng is None:
            continue
        distinct = distinct_candidates(access, j)
        rng = plan_range(rng, [[t.params[names[0]] for names in d.values()] for d in distinct.values()], tuning)
        if rng is not None:
            out[j] = rng
    return out
