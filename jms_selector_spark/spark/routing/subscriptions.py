"""Subscriptions as `route` takes them: `Subscription` and its attributes.

`normalize_subscriptions` turns a dict, a list or a DataFrame into `Subscription` values and raises
`TypeError`/`ValueError` naming the offending one for input that is not a set of subscriptions.
What a broker refuses of well-formed subscriptions is `checks`' (reported, the rest still route).
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Mapping

from ..streams import refuse_stream

__all__ = ["Subscription", "KINDS", "TRANSPORTS", "ATTRIBUTES", "normalize_subscriptions", "subscription_key"]

KINDS = ("topic", "queue", "exclusive_queue")
TRANSPORTS = ("guaranteed", "direct")
ATTRIBUTES = ("name", "selector", "durable", "kind", "subscribed_at", "unsubscribed_at", "transport")


def _is_bool(value) -> bool:
    # numpy.bool_ (from a pandas-built DataFrame) is a real boolean too; "false" and 0 are not
    return isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"))


def _millis(value, what: str):
    if value is None:
        return None
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        return int(value.timestamp() * 1000) if value.microsecond % 1000 == 0 else value.timestamp() * 1000
    if isinstance(value, int) and not _is_bool(value):
        return int(value)
    raise TypeError(f"{what} must be epoch milliseconds (int) or a datetime, not {type(value).__name__} {value!r}")


@dataclass(frozen=True)
class Subscription:
    """One subscription (topic mode) or queue consumer (queue mode); see the module docstring.

    Wrong types or values raise ``TypeError``/``ValueError`` here; a NULL or empty ``name`` is
    accepted and reported by `route` (the subscription is not created).
    """
    name: "str | None"
    selector: "str | None" = None
    durable: bool = True
    kind: "str | None" = None
    subscribed_at: "int | _dt.datetime | None" = None
    unsubscribed_at: "int | _dt.datetime | None" = None
    transport: str = "guaranteed"

    def __post_init__(self):
        who = f"subscription {self.name!r}"
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError(f"{who}: name must be a string, not {type(self.name).__name__}")
        if self.selector is not None and not isinstance(self.selector, str):
            raise TypeError(f"{who}: selector must be a string or None, not {type(self.selector).__name__}")
        if self.durable is None:
            object.__setattr__(self, "durable", True)
        elif not _is_bool(self.durable):
            raise ValueError(f"{who}: durable must be True or False, not {type(self.durable).__name__} "
                             f"{self.durable!r} (strings and numbers are not booleans)")
        object.__setattr__(self, "durable", bool(self.durable))
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"{who}: kind must be one of {KINDS} (or None: the route mode's), not {self.kind!r}")
        if self.transport is None:
            object.__setattr__(self, "transport", "guaranteed")
        elif self.transport not in TRANSPORTS:
            raise ValueError(f"{who}: transport must be one of {TRANSPORTS}, not {self.transport!r}")
        start = _millis(self.subscribed_at, f"{who}: subscribed_at")
        end = _millis(self.unsubscribed_at, f"{who}: unsubscribed_at")
        if start is not None and end is not None and end <= start:
            raise ValueError(f"{who}: unsubscribed_at ({end}) must be after subscribed_at ({start})")
        object.__setattr__(self, "subscribed_at", start)
        object.__setattr__(self, "unsubscribed_at", end)


_FIX = ("subscriptions must be a dict {name: selector}, a list of selectors, (name, selector[, durable]) tuples, "
        "attribute dicts or Subscription, or a DataFrame (name, selector, ...)")


def _from_attrs(attrs: Mapping, where: str) -> Subscription:
    unknown = [k for k in attrs if k not in ATTRIBUTES]
    if unknown:
        raise ValueError(f"{where}: unknown subscription attribute(s) {unknown}; known: {list(ATTRIBUTES)}")
    return Subscription(**attrs)


def _one(item, i: int) -> Subscription:
    where = f"subscription #{i + 1}"
    try:
        if isinstance(item, Subscription):
            return item
        if isinstance(item, str):
            return Subscription(f"sub-{i + 1}", item)
        if isinstance(item, Mapping):
            if "name" not in item:
                raise ValueError(f"an attribute dict needs a 'name' (has {sorted(item)})")
            return _from_attrs(item, where)
        if isinstance(item, (tuple, list)):
            if not 2 <= len(item) <= 3:
                raise ValueError(f"a tuple must be (name, selector[, durable]), not {len(item)} items: {item!r}")
            return Subscription(*item)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{where}: {exc}") from None
    raise TypeError(f"{where}: {type(item).__name__} {item!r} is not a subscription; {_FIX}")


def normalize_subscriptions(subscriptions) -> list:
    """Subscriptions as a list of `Subscription`, from a dict, a list or a DataFrame.

    Accepted: ``{name: selector}`` or ``{name: {attribute: value}}``; a list of selectors (named
    ``sub-1``, ``sub-2``…), of ``(name, selector)`` or ``(name, selector, durable)`` tuples, of
    attribute dicts or of `Subscription`; a DataFrame with columns ``name``, ``selector`` and
    optionally any other attribute (NULL: the default). Malformed input raises
    ``TypeError``/``ValueError`` naming the subscription; NULL or repeated names are kept here
    and reported by `subscription_errors`.
    """
    if subscriptions is None or isinstance(subscriptions, (str, bytes)):
        hint = (" (one selector: pass {'name': selector} or [selector]; it would otherwise become one "
                "subscription per character)") if isinstance(subscriptions, (str, bytes)) else ""
        raise TypeError(f"{_FIX}; got {type(subscriptions).__name__}{hint}")
    if hasattr(subscriptions, "collect") and hasattr(subscriptions, "columns"):
        refuse_stream(subscriptions, "reading subscriptions from a DataFrame",
                      "the subscriptions are read once, when the routing plan is built: pass a table of them "
                      "(spark.read), a dict or a list")
        cols = list(subscriptions.columns)
        if "name" not in cols or "selector" not in cols:
            raise ValueError(f"a subscriptions DataFrame needs columns 'name' and 'selector' (has {cols})")
        unknown = [c for c in cols if c not in ATTRIBUTES]
        if unknown:
            raise ValueError(f"the subscriptions DataFrame has unknown attribute column(s) {unknown}; known: "
                             f"{list(ATTRIBUTES)} (select the ones meant: df.select('name', 'selector', ...))")
        subs = []
        for i, r in enumerate(subscriptions.select(*cols).collect()):
            attrs = {c: r[c] for c in cols if c in ("name", "selector") or r[c] is not None}
            try:
                subs.append(Subscription(**attrs))
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"subscriptions DataFrame row {i + 1}: {exc}") from None
        return subs
    if isinstance(subscriptions, Mapping):
        subs = []
        for i, (k, v) in enumerate(subscriptions.items()):
            try:
                if isinstance(v, Mapping):
                    subs.append(_from_attrs(dict(v, name=k), f"subscription {k!r}"))
                elif v is None or isinstance(v, str):
                    subs.append(Subscription(k, v))
                else:
                    raise TypeError(f"subscription {k!r}: the value must be a selector string or an attribute dict, "
                                    f"not {type(v).__name__}")
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"subscription #{i + 1}: {exc}") from None
        return subs
    try:
        items = list(subscriptions)
    except TypeError:
        raise TypeError(f"{_FIX}; got {type(subscriptions).__name__}") from None
    return [_one(item, i) for i, item in enumerate(items)]


def subscription_key(s: Subscription, i: int) -> str:
    """The name a report uses for subscription ``s`` at position ``i``: its name, or ``#i+1``."""
    return s.name if isinstance(s.name, str) and s.name.strip() else f"#{i + 1}"
