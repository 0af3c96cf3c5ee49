"""Subscriptions as `route` takes them: their attributes, validation, and the per-broker rule sets.

`normalize_subscriptions` turns a dict, a list or a DataFrame into `Subscription` values and raises
`TypeError`/`ValueError` naming the offending one for input that is not a set of subscriptions;
`subscription_errors` reports the subscriptions a broker would refuse (invalid selector, duplicate
or NULL name, a selector on Direct transport…) so that the rest still route. `ROUTING_RULES` holds
each broker's routing rules as data (README "Routing rules per broker"); `routing_rules` derives
one with some rules overridden.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import logging
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ...language.errors import SelectorError
from ...parsing import parse
from ...language.dialects import Dialect, get_dialect
from .versions import version_errors

__all__ = ["Subscription", "RoutingRules", "ROUTING_RULES", "OUTCOMES", "KINDS", "TRANSPORTS", "routing_rules",
           "subscription_errors", "normalize_subscriptions",
           "check_mode", "check_subscriptions", "resolve_rules", "subscription_key"]

log = logging.getLogger(__name__)

#: The values of the ``outcome`` column.
OUTCOMES = ("delivered", "dead_letter", "remains_queued", "dropped")
KINDS = ("topic", "queue", "exclusive_queue")
TRANSPORTS = ("guaranteed", "direct")
_ATTRIBUTES = ("name", "selector", "durable", "kind", "subscribed_at", "unsubscribed_at", "transport")


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


# ------------------------------------------------------------------ rule sets

_RULE_VALUES = {
    "topic_unmatched": ("dropped", "dead_letter"),
    "durable_nonmatch": ("ignore", "dead_letter"),
    "queue_unmatched": ("remains_queued", "dead_letter", "dropped"),
    "queue_rotation": ("match_set", "consumer_list"),
    "direct_selectors": ("allowed", "refused"),
    "rebind_selector_change": ("drop", "keep"),
}


@dataclass(frozen=True)
class RoutingRules:
    """How one broker routes (DIALECTS.md §5). Every rule is a name from a small set:

    - ``topic_unmatched``: a topic message no subscription receives: ``dropped`` | ``dead_letter``;
    - ``durable_nonmatch``: a durable topic subscription whose selector does not match:
      ``ignore`` (the selector is an ingress filter) | ``dead_letter`` (one dead-letter row per
      such subscription, even when others matched: WSO2 R3);
    - ``queue_unmatched``: a queue message no consumer selects: ``remains_queued`` |
      ``dead_letter`` | ``dropped`` (a queue without any consumer always keeps it);
    - ``queue_rotation``: ``match_set`` (parallel) | ``consumer_list`` (WSO2's single cursor);
    - ``direct_selectors``: a selector on a Direct-transport subscription: ``allowed`` |
      ``refused`` (reported, not created: Solace R13);
    - ``rebind_selector_change``: a durable subscriber rebinds (a new version of the subscription,
      `jms_selector_spark.spark.routing.versions`) with a different selector: ``drop`` (the copies it still holds
      are deleted: Solace R10, JMS, ActiveMQ) | ``keep``.

    ``sources`` says where each rule of a built-in set comes from.
    """
    name: str
    topic_unmatched: str = "dropped"
    durable_nonmatch: str = "ignore"
    queue_unmatched: str = "remains_queued"
    queue_rotation: str = "match_set"
    direct_selectors: str = "allowed"
    rebind_selector_change: str = "drop"
    sources: Mapping = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        for rule, allowed in _RULE_VALUES.items():
            if getattr(self, rule) not in allowed:
                raise ValueError(f"routing rule {rule} must be one of {allowed}, not {getattr(self, rule)!r}")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    def why(self, rule: str) -> str:
        """``"rule=value (source)"``, as `route_report` names it."""
        src = self.sources.get(rule)
        return f"{rule}={getattr(self, rule)}" + (f" ({src})" if src else "")


_JMS_SOURCES = {"topic_unmatched": "JMS: no subscriber, no copy", "durable_nonmatch": "JMS: the selector filters what the subscription receives",
                "queue_unmatched": "R14: stays on the queue", "queue_rotation": "R12: rotation unspecified; deterministic and parallel",
                "direct_selectors": "no Direct transport",
                "rebind_selector_change": "R10, JMS 1.1 6.11.1: changing a durable subscription is deleting and recreating it"}
_JMS = dict(topic_unmatched="dropped", durable_nonmatch="ignore", queue_unmatched="remains_queued",
            queue_rotation="match_set", direct_selectors="allowed", rebind_selector_change="drop")

#: The built-in rule sets by broker (README "Routing rules per broker").
ROUTING_RULES = MappingProxyType({
    "jms": RoutingRules("jms", **_JMS, sources=_JMS_SOURCES),
    "ibmmq": RoutingRules("ibmmq", **_JMS, sources=dict(_JMS_SOURCES, queue_unmatched="R14: seed 000, a message no receiver selects stays on the queue")),
    "activemq": RoutingRules("activemq", **_JMS, sources=dict(
        _JMS_SOURCES, topic_unmatched="broker-e2e: delivered to no durable subscriber, not dead-lettered",
        queue_unmatched="broker-e2e: left on the queue, browsed and drained",
        rebind_selector_change="R10: TopicRegion.addConsumer: a changed selector deletes the durable subscription")),
    "wso2": RoutingRules("wso2", topic_unmatched="dropped", durable_nonmatch="dead_letter", queue_unmatched="dead_letter",
                         queue_rotation="consumer_list", direct_selectors="allowed", rebind_selector_change="keep", sources={
                             "topic_unmatched": "R2: seed 003, non-durable topic drops",
                             "durable_nonmatch": "R3: seed 003, each durable subscription's copy goes to the DLC",
                             "queue_unmatched": "R7: seed 003, no subscriber matches -> DLC",
                             "queue_rotation": "R6: FlowControlledQueueMessageDeliveryImpl, one cursor in bind order",
                             "direct_selectors": "no Direct transport",
                             "rebind_selector_change": "not R10: seed 003 silent; andes binds the subscriber to the existing "
                                                       "storage queue and evaluates selectors on delivery (R8)"}),
    "solace": RoutingRules("solace", topic_unmatched="dropped", durable_nonmatch="ignore", queue_unmatched="remains_queued",
                           queue_rotation="match_set", direct_selectors="refused", rebind_selector_change="drop", sources={
                               "topic_unmatched": "R9: seed 004, no copy, no dead letter",
                               "durable_nonmatch": "R9: seed 004, the selector is an ingress filter",
                               "queue_unmatched": "R11/R12: seed 004, excluded messages stay on the queue (non-exclusive: inferred)",
                               "queue_rotation": "R12: seed 004, round-robin, exact rotation unspecified",
                               "direct_selectors": "R13: seed 004, selectors refused on Direct transport",
                               "rebind_selector_change": "R10: seed 004, a changed selector removes the queued messages"}),
})


def routing_rules(base: "str | RoutingRules" = "jms", **overrides) -> RoutingRules:
    """A rule set: a built-in one by name (`ROUTING_RULES`), with single rules overridden.

    >>> routing_rules("wso2", queue_rotation="match_set").queue_rotation
    'match_set'
    """
    if isinstance(base, RoutingRules):
        rules = base
    elif base in ROUTING_RULES:
        rules = ROUTING_RULES[base]
    else:
        raise ValueError(f"unknown routing rule set {base!r}; built in: {sorted(ROUTING_RULES)}")
    unknown = sorted(set(overrides) - set(_RULE_VALUES))
    if unknown:
        raise ValueError(f"unknown routing rules {unknown}; the rules are {sorted(_RULE_VALUES)}")
    if not overrides:
        return rules
    sources = {k: v for k, v in rules.sources.items() if k not in overrides}
    return dataclasses.replace(rules, **overrides, sources=dict(sources, **{k: "overridden" for k in overrides}))


def resolve_rules(routing, dialect: Dialect) -> RoutingRules:
    if routing is None:
        return ROUTING_RULES.get(dialect.name, ROUTING_RULES["jms"])
    return routing_rules(routing)


# ------------------------------------------------------------------ input

_FIX = ("subscriptions must be a dict {name: selector}, a list of selectors, (name, selector[, durable]) tuples, "
        "attribute dicts or Subscription, or a DataFrame (name, selector, ...)")


def _from_attrs(attrs: Mapping, where: str) -> Subscription:
    unknown = [k for k in attrs if k not in _ATTRIBUTES]
    if unknown:
        raise ValueError(f"{where}: unknown subscription attribute(s) {unknown}; known: {list(_ATTRIBUTES)}")
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
        cols = list(subscriptions.columns)
        if "name" not in cols or "selector" not in cols:
            raise ValueError(f"a subscriptions DataFrame needs columns 'name' and 'selector' (has {cols})")
        unknown = [c for c in cols if c not in _ATTRIBUTES]
        if unknown:
            raise ValueError(f"the subscriptions DataFrame has unknown attribute column(s) {unknown}; known: "
                             f"{list(_ATTRIBUTES)} (select the ones meant: df.select('name', 'selector', ...))")
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
    return s.name if isinstance(s.name, str) and s.name.strip() else f"#{i + 1}"


def check_subscriptions(subs: list, mode: str, rules: RoutingRules):
    """(subscriptions that can be created, {key: error}) — every check but the selector's."""
    errors = {}
    versions = version_errors(subs)  # a name used more than once: the versions of one subscription
    want_kinds = ("topic",) if mode == "topic" else ("queue", "exclusive_queue")
    ok = []
    for i, s in enumerate(subs):
        key = subscription_key(s, i)
        kind = s.kind or ("topic" if mode == "topic" else "queue")
        if s.name is None or not s.name.strip():
            errors[key] = f"subscription #{i + 1} has no name ({s.name!r}): not created"
        elif s.name in versions:
            errors[key] = versions[s.name]
        elif kind not in want_kinds:
            errors[key] = f"kind {kind!r} is not a {mode} subscription (route mode={mode!r})"
        elif s.transport == "direct" and rules.direct_selectors == "refused" and (s.selector or "").strip():
            errors[key] = f"a selector on a Direct-transport subscription is refused ({rules.why('direct_selectors')})"
        else:
            ok.append(s)
    if mode == "queue" and ok:
        first = ok[0].kind or "queue"
        for s in ok[1:]:
            if (s.kind or "queue") != first:
                errors[s.name] = (f"kind {(s.kind or 'queue')!r} on a queue whose first consumer {ok[0].name!r} is "
                                  f"{first!r}: one queue is shared or exclusive")
        ok = [s for s in ok if s.name not in errors]
    return ok, errors


def check_mode(mode):
    if mode not in ("topic", "queue"):
        raise ValueError(f"mode must be 'topic' or 'queue', not {mode!r}")


def subscription_errors(subscriptions, *, dialect: "str | Dialect" = "jms", mode: str = "topic",
                        routing: "str | RoutingRules | None" = None) -> dict:
    """{subscription name (``#position`` when it has none): error} for the subscriptions `route`
    does not create: invalid selector (with position), NULL/empty name, a name repeated other than
    as valid versions (`jms_selector_spark.spark.routing.versions.version_errors`), a selector
    on Direct transport where the rule set refuses it, a kind that does not fit ``mode``."""
    check_mode(mode)
    d = get_dialect(dialect)
    subs = normalize_subscriptions(subscriptions)
    ok, out = check_subscriptions(subs, mode, resolve_rules(routing, d))
    for s in ok:
        try:
            if s.selector is not None:
                parse(s.selector, dialect=d)
        except SelectorError as exc:
            out[s.name] = f"{type(exc).__name__}: {exc}"
    return out
