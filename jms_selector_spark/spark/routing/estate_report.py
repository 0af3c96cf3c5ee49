"""The estate figures of `route_report(..., estate=True)`: what a person reads about a routed archive.

One pass over the `route` result (`report_input`, persisted), then small jobs over that copy:
volume by message time (`volume`), overlap and containment of the busiest subscriptions
(`overlap`, topic mode), the subscriptions that received nothing, the reasons nobody received the
dead letters (`dead_letters`), and each subscription's lint warnings (`analysis.lint`, no Spark).
"""
from __future__ import annotations

from ...analysis.lint import lint
from ...binder import Binding
from .dead_letters import dead_letter_reasons
from .overlap import overlap
from .volume import volume

__all__ = ["estate_figures", "ESTATE_KEYS"]

#: Up to this many dead letters, their conjuncts are evaluated directly rather than through a
#: routing index planned for them (`dead_letters`): planning the index costs seconds, and the
#: direct evaluation of a few hundred conjuncts on this many rows costs less.
DIRECT_DEAD_LETTERS = 200_000

#: The keys `route_report` adds with ``estate=True`` (or ``html=``).
ESTATE_KEYS = ("mode", "dialect", "volume", "overlap", "never_matching", "dead_letters", "lint")


def estate_figures(report_input, per: dict, candidates: list, *, mode: str, rules, dialect, binding: Binding,
                   top: int, buckets: int, time_column: str) -> dict:
    """The figures under `ESTATE_KEYS`. ``per``: `route_report`'s per-subscription counts;
    ``candidates``: ``[(name, Compiled)]`` of the subscriptions `route` created, in order."""
    created = {name for name, _ in candidates}
    delivered = {name: v["delivered"] for name, v in per.items() if name in created}
    grouped = mode == "topic" and rules.durable_nonmatch == "dead_letter"
    nobody = sum(n for name, _, n in report_input.counts if name is None)
    dead = dead_letter_reasons(report_input, candidates, dialect, binding, grouped=grouped,
                               direct=grouped or nobody <= DIRECT_DEAD_LETTERS)
    warnings: dict = {}
    seen: dict = {}
    for name, compiled in candidates:
        found = seen.get(compiled.text)
        if found is None:
            found = seen[compiled.text] = [str(w) for w in lint(compiled)]
        if found:
            warnings.setdefault(name, []).extend(w for w in found if w not in warnings.get(name, []))
    return {
        "mode": mode,
        "dialect": dialect.name,
        "volume": volume(report_input, buckets, time_column),
        "overlap": overlap(report_input, delivered, top) if mode == "topic" else None,
        "never_matching": sorted(name for name, n in delivered.items() if n == 0),
        "dead_letters": dead,
        "lint": warnings,
    }
