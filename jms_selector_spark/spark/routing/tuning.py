"""`RoutingTuning`: every threshold and switch of the routing plan, in one frozen value.

`route`, `explain_routing` and the routing stages take one (`DEFAULT` unless given). Tests and
benchmarks switch a feature off by name (``RoutingTuning(disabled={"merge"})``), as Spark's own
``spark.sql.optimizer.excludedRules`` does, instead of patching module constants. Every feature is
exact: switching it off changes the plan and its cost, never a result. The figures behind each
default are on the documentation's performance and measurement pages.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

__all__ = ["RoutingTuning", "FEATURES", "DEFAULT"]

#: The features of the plan that can be switched off, each exact on its own:
#: ``index`` — subscriptions grouped by an access value, only a message's candidates evaluated;
#: ``templates`` — subscriptions equal but for their literals matched through a constant index;
#: ``pairs`` — a template indexed on two access values at once;
#: ``ranges`` — a template's candidates split by the bucket of a bounded number;
#: ``merge`` — an index's templates matched by one filter;
#: ``own_methods`` — template expressions and CASE-plan parts compiled as methods of their own;
#: ``value_numbers`` — each access value looked up once per message, key numbers from arrays;
#: ``intern`` — STRING comparisons in the templates made on those numbers.
FEATURES = frozenset({"index", "templates", "pairs", "ranges", "merge", "own_methods", "value_numbers", "intern"})


@dataclass(frozen=True)
class RoutingTuning:
    """Thresholds of the routing plan, and the features switched off (`FEATURES`).

    Attributes
    ----------
    jit_cases, jit_sql_chars : int
        Above this many CASE expressions, or characters of SQL, a CASE plan is too large for one
        JIT-compiled method (HotSpot's 8,000-byte limit): it is written in parts of their own
        (or kept out of whole-stage codegen).
    guard_max_cases : int
        Above this many CASEs whole-stage codegen gives up by itself (64 KB methods); the flat
        plan, one CASE per subscription, is kept there.
    split_min, max_depth, max_repeat :
        A branch of the index with more candidates than ``split_min`` is indexed again on another
        value, ``max_depth`` levels at most, when that repeats CASEs at most ``max_repeat`` times.
    min_members, min_templated : int
        A template needs this many members, and templates this many subscriptions in all.
    max_pairs, min_pair_members, max_pair_indexes : int
        A subscription is indexed on a pair of access values when that names at most
        ``max_pairs`` combinations and ``min_pair_members`` share the pair; at most
        ``max_pair_indexes`` pairs get an index.
    shared_min : float
        Members with equal parameters are one candidate when that saves this share.
    max_slots : int
        An index whose array of key numbers would have more slots keeps its map.
    max_buckets, max_share, min_saved :
        Range buckets: at most ``max_buckets``; used when a bucket holds at most ``max_share`` of
        a key's candidates on average and leaves out at least ``min_saved`` per key.
    part_chars : int
        The largest part of a CASE plan compiled as a method of its own, in characters of SQL.
    disabled : frozenset of str
        Features of `FEATURES` switched off.
    """

    jit_cases: int = 24
    jit_sql_chars: int = 4600
    guard_max_cases: int = 200
    split_min: int = 6
    max_depth: int = 3
    max_repeat: float = 2.0
    min_members: int = 2
    min_templated: int = 24
    max_pairs: int = 8
    min_pair_members: int = 16
    max_pair_indexes: int = 6
    shared_min: float = 0.2
    max_slots: int = 1 << 16
    max_buckets: int = 32
    max_share: float = 0.6
    min_saved: int = 16
    part_chars: int = 3000
    disabled: frozenset = field(default_factory=frozenset)

    def __post_init__(self):
        object.__setattr__(self, "disabled", frozenset(self.disabled))
        unknown = sorted(self.disabled - FEATURES)
        if unknown:
            raise ValueError(f"unknown routing features {unknown}; the features are {sorted(FEATURES)}")

    def on(self, feature: str) -> bool:
        """Whether ``feature`` (one of `FEATURES`) is on."""
        if feature not in FEATURES:
            raise ValueError(f"unknown routing feature {feature!r}; the features are {sorted(FEATURES)}")
        return feature not in self.disabled

    def without(self, *features: str) -> "RoutingTuning":
        """This tuning with ``features`` switched off as well."""
        return replace(self, disabled=self.disabled | set(features))


DEFAULT = RoutingTuning()
