"""The index plan: which of the subscriptions outside templates are evaluated for which message.

Most selectors have an access predicate (`access`): a conjunct that is TRUE only when a STRING
value of the message is one of a few literals. Subscriptions are grouped by the value of their
most selective one (literals it names / distinct literals all subscriptions name for that value)
and each group becomes one decision::

    CASE <value> WHEN 'car' THEN <matches among the 'car' candidates> WHEN 'bus' THEN … ELSE [] END

so per message only the candidates of the branch its value selects are evaluated — each with its
*whole* selector: the index only ever skips subscriptions that cannot match, exact whatever the
dialect's rules for the other conjuncts. A branch with many candidates is indexed again on
another value (`RoutingTuning.split_min`, ``max_depth``, ``max_repeat``). Subscriptions without an
access predicate are evaluated for every message (the general ones). Above
`RoutingTuning.guard_max_cases` CASEs the flat plan (one CASE per subscription) is kept: there
Spark splits the code itself, and more CASEs cost more than the index saves.

This module plans; `render_index` writes the plan's SQL.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .access import access_predicates
from .tuning import DEFAULT, RoutingTuning

__all__ = ["IndexNode", "Group", "RoutingPlan", "plan_routing"]


@dataclass(frozen=True)
class IndexNode:
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


@dataclass(frozen=True)
class Group:
    """Subscriptions indexed on one value: ``by_value[v]`` (an `IndexNode`) holds the candidates
    when the message's value is ``v`` (indexed further on another value when that pays)."""

    name: str
    value_sql: str
    by_value: dict  # value -> IndexNode
    members: tuple  # subscription names


@dataclass(frozen=True)
class RoutingPlan:
    """The index plan of the native subscriptions outside templates, and the fallback ones."""

    root: IndexNode
    fallback: tuple  # subscription names evaluated by the Arrow UDF
    fragments: dict = field(repr=False)  # name -> native SQL fragment
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


def plan_routing(native, fallback, tuning: RoutingTuning = DEFAULT) -> RoutingPlan:
    """The `RoutingPlan` of ``native`` ``[(subscription, Compiled)]`` (native as a whole) and
    ``fallback`` ``[(subscription, Compiled)]``."""
    fragments = {s.name: compiled.whole.sql for s, compiled in native}
    names = [s.name for s, _ in native]
    root = IndexNode((), tuple(names))
    dropped = None
    if tuning.on("index"):
        per: dict = {}  # id(Compiled) -> its access predicates: estates repeat selectors
        cands = {}
        for s, compiled in native:
            got = per.get(id(compiled))
            if got is None:
                got = per[id(compiled)] = [p for p in access_predicates(compiled) if not p.prefix]
            cands[s.name] = got
        indexed = _index(names, cands, frozenset(), 0, tuning)
        if indexed.case_count <= tuning.guard_max_cases:
            root = indexed
        else:
            dropped = indexed.case_count
    return RoutingPlan(root, tuple(s.name for s, _ in fallback), fragments, dropped)


def _index(names, cands, used: frozenset, depth: int, tuning: RoutingTuning) -> IndexNode:
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
            if best is None or est < best[0]:
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
            node = IndexNode((), tuple(ns))
            if len(ns) > tuning.split_min and depth + 1 < tuning.max_depth:
                sub = _index(ns, cands, used | {key}, depth + 1, tuning)
                if sub.groups and sub.case_count <= tuning.max_repeat * len(ns):
                    node = sub
            branches[v] = node
        groups.append(Group(chosen[members[0]].name, key, branches, tuple(members)))
    return IndexNode(tuple(groups), tuple(nm for nm in names if nm not in chosen))
