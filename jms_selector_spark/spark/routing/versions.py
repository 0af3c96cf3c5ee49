"""Versions of a subscription and what a rebind with another selector does to its queued copies (R10).

Several `Subscription` entries with the same name and different ``subscribed_at`` are the
*versions* of one subscription: the subscriber (re)binds at each ``subscribed_at`` with that
version's selector, and each version is bound until the next one binds (or its own
``unsubscribed_at``, if earlier). `version_errors` validates them (two entries of a name with the
same ``subscribed_at``, overlapping versions, versions of different kind or durability: the
subscription is not created, as for a duplicate name); `expand_versions` gives each version an
internal name of its own for the routing pass, with its window cut at the next version, and
`Versions` maps those names back and says which copies a rebind loses.

**R10.** A durable subscription holds a copy of each message it selected until the subscriber
consumes it. When the subscriber rebinds with a *different* selector (the text differs; ``None``
and ``""`` are the same: no selector), a broker whose rule set says
``rebind_selector_change="drop"`` deletes every copy still held: Solace (seed 004), and the JMS
spec ("changing a durable subscription is equivalent to deleting and recreating it"), which
ActiveMQ implements (``TopicRegion.addConsumer``: ``hasDurableSubChanged`` → ``deleteSubscription``).
An identical selector keeps them. A copy that version k received is lost at the first later
rebind whose selector differs from the one before it, at time T, unless it was consumed before T.

An archive records when a message arrived, not when each copy was consumed: ``route(...,
consumed_column=...)`` names a message column holding that time (epoch ms like ``JMSTimestamp``,
or a timestamp; a ``MAP<STRING, time>`` gives one time per subscription name). NULL means not
consumed (still held, so lost at such a rebind). Without the column every copy is taken as
consumed on arrival — nothing is lost — and `route` logs, and `route_report` says, that R10 could
not be applied.
"""
from __future__ import annotations

import dataclasses

from ...backends.sql.render import sql_string

__all__ = ["version_errors", "expand_versions", "Versions", "consumed_sql"]

#: separates a subscription's name from its version number in the internal names of the routing pass
_SEP = "\u0000v"


def _start(s) -> float:
    return float("-inf") if s.subscribed_at is None else s.subscribed_at


def _selector(s) -> str:
    return s.selector or ""


def version_errors(subs: list) -> dict:
    """{name: error} for the names used more than once that are not valid versions of one subscription."""
    by_name = {}
    for i, s in enumerate(subs):
        if isinstance(s.name, str) and s.name.strip():
            by_name.setdefault(s.name, []).append((i, s))
    errors = {}
    for name, group in by_name.items():
        if len(group) < 2:
            continue
        at = "#" + ", #".join(str(i + 1) for i, _ in group)
        starts = [s.subscribed_at for _, s in group]
        if all(x is None for x in starts):  # a plain duplicate: which one is meant is unknown
            errors[name] = f"the name {name!r} is used by {len(group)} subscriptions ({at}): none of them is created"
            continue
        if len(set(starts)) < len(starts):
            same = sorted({x for x in starts if starts.count(x) > 1}, key=lambda x: (x is not None, x or 0))
            errors[name] = (f"the name {name!r} is used by {len(group)} subscriptions ({at}), {starts.count(same[0])} of them "
                            f"with subscribed_at={same[0]!r}: versions of one subscription need different subscribed_at; "
                            "none of them is created")
            continue
        ordered = sorted(group, key=lambda p: _start(p[1]))
        for attr in ("kind", "durable"):
            values = {getattr(s, attr) for _, s in group if getattr(s, attr) is not None}
            if len(values) > 1:
                errors[name] = (f"the versions of {name!r} ({at}) have different {attr} ({sorted(map(repr, values))}): "
                                "versions of one subscription differ only in selector and times; none of them is created")
                break
        else:
            for (i, a), (j, b) in zip(ordered, ordered[1:]):
                if a.unsubscribed_at is not None and a.unsubscribed_at > b.subscribed_at:
                    errors[name] = (f"the versions of {name!r} overlap: #{i + 1} is bound until {a.unsubscribed_at} but "
                                    f"#{j + 1} binds at {b.subscribed_at}; none of them is created")
                    break
    return errors


@dataclasses.dataclass(frozen=True)
class Versions:
    """The versions of the subscriptions of one routing pass (see the module docstring).

    ``public``: {internal name: subscription name} for the versioned ones; ``loses_at``: {internal
    name: T} for the durable versions whose held copies a later rebind with another selector
    deletes at T (only under ``rebind_selector_change="drop"``); ``r10_changes``: the durable
    subscriptions rebinding with another selector (whatever the rule).
    """
    public: dict
    loses_at: dict
    r10_changes: tuple

    def public_sql(self, column: str) -> "str | None":
        """SQL giving a routed row's subscription name from the internal one (None: nothing to map)."""
        if not self.public:
            return None
        whens = " ".join(f"WHEN {sql_string(k)} THEN {sql_string(v)}" for k, v in self.public.items())
        return f"CASE {column} {whens} ELSE {column} END"

    def lost_sql(self, column: str, consumed) -> "str | None":
        """SQL TRUE when the copy a row's subscription (internal name in ``column``) received was still
        held at a rebind with another selector; ``consumed(name)``: SQL of its consumption time."""
        if not self.loses_at or consumed is None:
            return None
        whens = " ".join(f"WHEN {sql_string(k)} THEN NOT coalesce({consumed(self.public.get(k, k))} < {t}, false)"
                         for k, t in self.loses_at.items())
        return f"CASE {column} {whens} ELSE false END"


def expand_versions(native: list, fallback: list, subs: list, errors: dict, rules, mode: str):
    """``(native, fallback, subs, Versions)`` (``native`` and ``fallback``: ``[(subscription,
    Compiled)]``) without the subscriptions named in ``errors``, each
    version of a versioned subscription under its own internal name, its window ending where the
    next version begins."""
    drop = lambda s: s.name in errors  # noqa: E731
    subs = [s for s in subs if not drop(s)]
    groups = {}
    for s in subs:
        groups.setdefault(s.name, []).append(s)
    renamed, public, loses_at, changes = {}, {}, {}, []
    for name, group in groups.items():
        if len(group) < 2:
            continue
        ordered = sorted(group, key=_start)
        for k, s in enumerate(ordered):
            end = s.unsubscribed_at
            if k + 1 < len(ordered):
                nxt = ordered[k + 1].subscribed_at
                end = nxt if end is None else min(end, nxt)
            internal = f"{name}{_SEP}{k + 1}"
            renamed[id(s)] = dataclasses.replace(s, name=internal, unsubscribed_at=end)
            public[internal] = name
            change = next((ordered[j].subscribed_at for j in range(k + 1, len(ordered))
                           if _selector(ordered[j]) != _selector(ordered[j - 1])), None)
            if change is not None and s.durable and mode == "topic":
                if name not in changes:
                    changes.append(name)
                if rules.rebind_selector_change == "drop":
                    loses_at[internal] = change
    swap = lambda s: renamed.get(id(s), s)  # noqa: E731
    return ([(swap(s), c) for s, c in native if not drop(s)], [(swap(s), c) for s, c in fallback if not drop(s)],
            [swap(s) for s in subs], Versions(public, loses_at, tuple(changes)))


def consumed_sql(schema, column: "str | None"):
    """``name -> SQL`` of the consumption time in epoch ms of a subscription's copy, from the message
    column ``column`` (numeric, timestamp, or a MAP keyed by subscription name); None without it."""
    if column is None:
        return None
    from pyspark.sql.types import MapType, NumericType, StringType, TimestampNTZType, TimestampType

    fields = {f.name: f.dataType for f in schema.fields}
    if column not in fields:
        raise ValueError(f"consumed_column {column!r} is not a message column; the messages have {list(fields)}")
    t = fields[column]
    q = "`" + column.replace("`", "``") + "`"
    by_name = isinstance(t, MapType) and isinstance(t.keyType, StringType)
    value = t.valueType if by_name else t

    def millis(sql):
        return f"unix_millis({sql})" if isinstance(value, (TimestampType, TimestampNTZType)) else sql

    if not isinstance(value, (NumericType, TimestampType, TimestampNTZType)):
        raise ValueError(f"consumed_column {column!r} must be numeric (epoch ms), a timestamp, or a MAP<STRING, "
                         f"that> keyed by subscription name, not {t.simpleString()}")
    if by_name:
        return lambda name: millis(f"try_element_at({q}, {sql_string(name)})")
    return lambda name: millis(q)
