"""Route a message archive to subscriptions the way a broker does.

``route(messages, subscriptions, mode="topic" | "queue", routing=...)`` returns the message
columns plus ``subscription`` (STRING) and ``outcome`` (STRING):

- ``delivered``: the row's ``subscription`` received the message;
- ``dead_letter``: the message went to the dead-letter channel. ``subscription`` is the
  subscription it failed (a WSO2 durable topic subscription whose selector does not match, rule
  R3) or NULL (a queue message no consumer selects, WSO2 rule R7);
- ``remains_queued``: the message stays on the queue (``subscription`` NULL): no consumer selects
  it (IBM MQ / JMS / ActiveMQ / Solace queues, R14), the active consumer of an exclusive queue
  does not select it (Solace egress filter, R11), or the queue has no consumer;
- ``dropped``: a topic message no subscription receives (``subscription`` NULL): a broker keeps
  no copy of it (R2, R9).

**Nothing is lost**: every message appears at least once; ``subscription`` is NULL exactly when
no subscription holds the message, and then ``outcome`` says why. `route_report` counts the
rows per subscription and outcome and names the rule behind each outcome.

**Topic** (``mode="topic"``): one ``delivered`` row per (message, matching subscription), plus,
under ``durable_nonmatch="dead_letter"`` (WSO2), one ``dead_letter`` row per (message, durable
subscription that does not match it); a message with no such row appears once with
``subscription`` NULL and the rule set's ``topic_unmatched`` outcome.

**Queue** (``mode="queue"``): exactly one row per message. On a shared queue it goes to one of
the matching consumers, in turn (``queue_rotation``):

- ``match_set`` (default): messages that match the same *set* ``S`` of consumers (sorted by
  name) are numbered 0, 1, 2… in ``order_by`` order (``JMSTimestamp``, then ``JMSMessageID`` when
  present, as tie-breakers) and message number k goes to ``S[k mod |S|]``. It needs one window
  over the matching sets, not a sequential pass, so it runs in parallel;
- ``consumer_list`` (WSO2, R6): one cursor over the consumers in bind order; each message goes
  to the first matching consumer at or after the cursor, and the cursor moves past it. Each
  message depends on every earlier one, so this runs as ONE sequential task over the messages
  in order (see the README for its measured cost). WSO2 also resets the cursor at each delivery
  batch, which an archive does not record: it is never reset here.

On an exclusive queue (every consumer ``kind="exclusive_queue"``) one consumer is active at a
time, the first bound (``subscribed_at``, then list order) of those still bound; its selector is
an egress filter: a message goes to the first active consumer, from its own time on, that
selects it, else it ``remains_queued``.

**Subscription attributes** (each optional; `Subscription`): ``durable`` (default true),
``kind`` (``"topic"``, ``"queue"`` (shared) or ``"exclusive_queue"``; default: the mode's),
``subscribed_at`` / ``unsubscribed_at`` (epoch milliseconds like ``JMSTimestamp``, or a
``datetime``; default: always bound), ``transport`` (``"guaranteed"`` or ``"direct"``; default
guaranteed). A topic subscription receives the messages with ``subscribed_at <= t <
unsubscribed_at`` (R4), t being ``time_column``; a queue consumer can receive any message that
is still queued before ``unsubscribed_at`` (queued messages wait for a consumer). A message with
a NULL time is in every window.

**Rule sets** (`ROUTING_RULES`, chosen by ``routing=``, default: the one named like the
dialect, else ``"jms"``; `routing_rules` overrides single rules). See `RoutingRules`.

**Bad input.** Input that is not a collection of subscriptions (a plain string, an item of
the wrong shape, an unknown attribute name, ``durable="false"`` or any attribute of the wrong
type or value) raises ``TypeError``/``ValueError`` naming the subscription. A subscription that
is well formed but cannot be created the way a broker refuses it — NULL or empty name, a name
used twice (every subscription of that name), an invalid selector (R17), a selector on a Direct
transport where the broker refuses it (Solace, R13), a kind that does not fit the mode — is
reported (logged, `subscription_errors`, `route_report`) and the rest still route.

**One scan.** Every selector that translates natively becomes one ``CASE WHEN <fragment> THEN
'<name>' END`` in a single projection (a single pass over the data, Catalyst-optimised, compiled:
no higher-order function, see `route`); the selectors that need the vectorized fallback are
evaluated together by one Arrow UDF that returns the names of those that match. Outcomes, time
windows and exclusive queues are code-generated array expressions over that array of names.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import logging
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping

from .dialects import Dialect, get_dialect
from .errors import SelectorError, UnsupportedSelectorError
from .selector import parse

__all__ = ["Subscription", "RoutingRules", "ROUTING_RULES", "OUTCOMES", "routing_rules", "route",
           "route_report", "subscription_errors", "normalize_subscriptions"]

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
      ``refused`` (reported, not created: Solace R13).

    ``sources`` says where each rule of a built-in set comes from.
    """
    name: str
    topic_unmatched: str = "dropped"
    durable_nonmatch: str = "ignore"
    queue_unmatched: str = "remains_queued"
    queue_rotation: str = "match_set"
    direct_selectors: str = "allowed"
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
                "direct_selectors": "no Direct transport"}
_JMS = dict(topic_unmatched="dropped", durable_nonmatch="ignore", queue_unmatched="remains_queued",
            queue_rotation="match_set", direct_selectors="allowed")

#: The built-in rule sets by broker (README "Routing rules per broker").
ROUTING_RULES = MappingProxyType({
    "jms": RoutingRules("jms", **_JMS, sources=_JMS_SOURCES),
    "ibmmq": RoutingRules("ibmmq", **_JMS, sources=dict(_JMS_SOURCES, queue_unmatched="R14: seed 000, a message no receiver selects stays on the queue")),
    "activemq": RoutingRules("activemq", **_JMS, sources=dict(
        _JMS_SOURCES, topic_unmatched="broker-e2e: delivered to no durable subscriber, not dead-lettered",
        queue_unmatched="broker-e2e: left on the queue, browsed and drained")),
    "wso2": RoutingRules("wso2", topic_unmatched="dropped", durable_nonmatch="dead_letter", queue_unmatched="dead_letter",
                         queue_rotation="consumer_list", direct_selectors="allowed", sources={
                             "topic_unmatched": "R2: seed 003, non-durable topic drops",
                             "durable_nonmatch": "R3: seed 003, each durable subscription's copy goes to the DLC",
                             "queue_unmatched": "R7: seed 003, no subscriber matches -> DLC",
                             "queue_rotation": "R6: FlowControlledQueueMessageDeliveryImpl, one cursor in bind order",
                             "direct_selectors": "no Direct transport"}),
    "solace": RoutingRules("solace", topic_unmatched="dropped", durable_nonmatch="ignore", queue_unmatched="remains_queued",
                           queue_rotation="match_set", direct_selectors="refused", sources={
                               "topic_unmatched": "R9: seed 004, no copy, no dead letter",
                               "durable_nonmatch": "R9: seed 004, the selector is an ingress filter",
                               "queue_unmatched": "R11/R12: seed 004, excluded messages stay on the queue (non-exclusive: inferred)",
                               "queue_rotation": "R12: seed 004, round-robin, exact rotation unspecified",
                               "direct_selectors": "R13: seed 004, selectors refused on Direct transport"}),
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


def _resolve_rules(routing, dialect: Dialect) -> RoutingRules:
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


def _key(s: Subscription, i: int) -> str:
    return s.name if isinstance(s.name, str) and s.name.strip() else f"#{i + 1}"


def _check(subs: list, mode: str, rules: RoutingRules):
    """(subscriptions that can be created, {key: error}) — every check but the selector's."""
    errors = {}
    counts = {}
    for s in subs:
        counts[s.name] = counts.get(s.name, 0) + 1
    want_kinds = ("topic",) if mode == "topic" else ("queue", "exclusive_queue")
    ok = []
    for i, s in enumerate(subs):
        key = _key(s, i)
        kind = s.kind or ("topic" if mode == "topic" else "queue")
        if s.name is None or not s.name.strip():
            errors[key] = f"subscription #{i + 1} has no name ({s.name!r}): not created"
        elif counts[s.name] > 1:
            at = [str(j + 1) for j, t in enumerate(subs) if t.name == s.name]
            errors[key] = f"the name {s.name!r} is used by {len(at)} subscriptions (#{', #'.join(at)}): none of them is created"
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


def _modes(mode):
    if mode not in ("topic", "queue"):
        raise ValueError(f"mode must be 'topic' or 'queue', not {mode!r}")


def subscription_errors(subscriptions, *, dialect: "str | Dialect" = "jms", mode: str = "topic",
                        routing: "str | RoutingRules | None" = None) -> dict:
    """{subscription name (``#position`` when it has none): error} for the subscriptions `route`
    does not create: invalid selector (with position), NULL/empty or repeated name, a selector
    on Direct transport where the rule set refuses it, a kind that does not fit ``mode``."""
    _modes(mode)
    d = get_dialect(dialect)
    subs = normalize_subscriptions(subscriptions)
    ok, out = _check(subs, mode, _resolve_rules(routing, d))
    for s in ok:
        try:
            if s.selector is not None:
                parse(s.selector, dialect=d)
        except SelectorError as exc:
            out[s.name] = f"{type(exc).__name__}: {exc}"
    return out


def _default_order(columns) -> list:
    return [c for c in ("JMSTimestamp", "JMSMessageID") if c in columns]


def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _time_sql(schema, time_column: str) -> str:
    from pyspark.sql.types import NumericType, TimestampNTZType, TimestampType

    fields = {f.name: f for f in schema.fields}
    if time_column not in fields:
        raise ValueError(f"subscribed_at/unsubscribed_at need the message time column {time_column!r} "
                         f"(time_column=...); the messages have {list(fields)}")
    t = fields[time_column].dataType
    if isinstance(t, (TimestampType, TimestampNTZType)):
        return f"unix_millis({_q(time_column)})"
    if isinstance(t, NumericType):
        return _q(time_column)
    raise ValueError(f"time_column {time_column!r} must be numeric (epoch ms) or a timestamp, not {t.simpleString()}")


def _window_sql(s: Subscription, t: str, mode: str) -> "str | None":
    """SQL TRUE when the message time ``t`` is OUTSIDE s's window (NULL t: inside); None: no window."""
    parts = []
    if mode == "topic" and s.subscribed_at is not None:
        parts.append(f"{t} < {s.subscribed_at}")
    if s.unsubscribed_at is not None:
        parts.append(f"{t} >= {s.unsubscribed_at}")
    return " OR ".join(parts) or None


def _exclusive_timeline(consumers: list) -> list:
    """[(consumer name, end or None)]: who is the active consumer of an exclusive queue, in time order."""
    points = sorted({x for s in consumers for x in (s.subscribed_at, s.unsubscribed_at) if x is not None})
    starts = [None] + points
    out = []
    for k, start in enumerate(starts):
        end = points[k] if k < len(points) else None

        def bound(s):  # membership is constant between two consecutive points
            began = s.subscribed_at is None or (start is not None and s.subscribed_at <= start)
            return began and (s.unsubscribed_at is None or start is None or s.unsubscribed_at > start)

        live = [(s.subscribed_at if s.subscribed_at is not None else float("-inf"), i, s)
                for i, s in enumerate(consumers) if bound(s)]
        active = min(live, key=lambda x: x[:2])[2].name if live else None
        if active is None:
            continue
        if out and out[-1][0] == active and out[-1][1] == start:
            out[-1] = (active, end)
        else:
            out.append((active, end))
    return out


def _consumer_list_rotation(tagged, consumers: list, order_cols):
    """WSO2's single cursor (R6): ONE sequential task over the messages in order."""
    import pyarrow as pa
    from pyspark.sql.types import StringType, StructField, StructType

    names = list(consumers)
    index = {n: i for i, n in enumerate(names)}
    schema = StructType(tagged.schema.fields + [StructField("__jms_pick", StringType())])

    def deal(batches):
        cursor = 0
        n = len(names)
        for b in batches:
            picks = []
            for m in b.column(b.schema.get_field_index("__jms_matches")).to_pylist():
                if not m:
                    picks.append(None)
                    continue
                idx = sorted(index[x] for x in m)
                j = next((k for k in idx if k >= cursor), idx[0])
                picks.append(names[j])
                cursor = (j + 1) % n
            yield pa.RecordBatch.from_arrays(list(b.columns) + [pa.array(picks, pa.string())],
                                             schema=b.schema.append(pa.field("__jms_pick", pa.string())))

    return tagged.repartition(1).sortWithinPartitions(*order_cols).mapInArrow(deal, schema)


def route(messages, subscriptions, *, mode: str = "topic", dialect: "str | Dialect" = "jms",
          order_by: "str | Iterable[str] | None" = "JMSTimestamp",
          routing: "str | RoutingRules | None" = None, time_column: str = "JMSTimestamp", **binding):
    """Route ``messages`` to ``subscriptions``; see the module docstring for the rules.

    Parameters
    ----------
    messages : DataFrame
        The archive (headers and properties as in the data model).
    subscriptions : dict, list or DataFrame
        ``{name: selector}``, ``{name: {attribute: value}}``, ``[(name, selector[, durable])]``,
        a list of `Subscription` or attribute dicts, or a DataFrame ``(name, selector[, any
        attribute])``.
    mode : {"topic", "queue"}
    dialect : str or Dialect
    order_by : str or list of str
        Message order for the queue rotation (ties broken by ``JMSMessageID`` if present).
    routing : str or RoutingRules
        The broker's rule set (`ROUTING_RULES`: ``jms``, ``ibmmq``, ``activemq``, ``wso2``,
        ``solace``; `routing_rules` overrides single rules). Default: the set named like the
        dialect, else ``jms``.
    time_column : str
        The message time compared with ``subscribed_at``/``unsubscribed_at`` (epoch ms or timestamp).
    **binding
        ``headers=``, ``properties=``: how the table holds messages (see `selector_to_sql`).

    Returns
    -------
    DataFrame
        The message columns plus ``subscription`` and ``outcome`` (`OUTCOMES`).

    Notes
    -----
    Cost: see `jms_selector_spark.route_plan` (predicate index: per message only the candidate
    subscriptions of its access value are evaluated; code kept JIT-sized under default settings).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import Window

    from .backends.spark_sql import selector_to_sql, sql_string
    from .route_plan import matching_names

    _modes(mode)
    d = get_dialect(dialect)
    rules = _resolve_rules(routing, d)
    subs, errors = _check(normalize_subscriptions(subscriptions), mode, rules)
    schema = messages.schema
    native, fallback = [], []
    for s in subs:
        try:
            fragment = selector_to_sql(s.selector or "", schema, dialect=d, **binding)
            native.append((s, fragment))
        except UnsupportedSelectorError:
            fallback.append(s)
        except SelectorError as exc:
            errors[s.name] = f"{type(exc).__name__}: {exc}"
    for name, err in errors.items():
        log.warning("subscription %r is not routed: %s", name, err)
    subs = [s for s in subs if s.name not in errors]
    log.info("routing %d subscriptions (%d native, %d fallback, %d not created), mode=%s, rules=%s",
             len(subs) + len(errors), len(native), len(fallback), len(errors), mode, rules.name)

    matches = matching_names(native, fallback, schema, dialect=d, binding=binding)
    # --- everything below builds on the sorted array of matching names --------------------------
    null = "CAST(NULL AS STRING)"
    windows = [(s, _window_sql(s, "__T__", mode)) for s in subs]
    timed = any(s.subscribed_at is not None or s.unsubscribed_at is not None for s in subs)
    t = _time_sql(schema, time_column) if timed else None
    tagged = messages.withColumn("__jms_matches", matches)
    if any(w for _, w in windows):  # drop the subscriptions whose window excludes the message (code-generated, no lambda)
        outside = ", ".join(f"CASE WHEN {w.replace('__T__', t)} THEN {sql_string(s.name)} END" for s, w in windows if w)
        tagged = tagged.withColumn("__jms_matches", F.expr(f"array_except(__jms_matches, array({outside}))"))
    out_cols = [F.col(_q(c)) for c in messages.columns]

    if mode == "topic":
        all_names = F.col("__jms_matches")
        durable = [s for s in subs if s.durable]
        if rules.durable_nonmatch == "dead_letter" and durable:
            held = ", ".join(f"CASE WHEN NOT coalesce({w.replace('__T__', t)}, false) THEN {sql_string(s.name)} END"
                             if w else sql_string(s.name) for s, w in windows if s.durable)
            all_names = F.concat("__jms_matches", F.expr(
                f"array_except(array({held}), concat(__jms_matches, array({null})))"))
        exploded = tagged.select(*out_cols, F.size("__jms_matches").alias("__jms_n"),
                                 F.posexplode_outer(all_names).alias("__jms_pos", "subscription"))
        outcome = (F.when(F.col("subscription").isNull(), F.lit(rules.topic_unmatched))
                   .when(F.col("__jms_pos") < F.col("__jms_n"), F.lit("delivered"))
                   .otherwise(F.lit("dead_letter")))
        return exploded.select(*out_cols, "subscription", outcome.alias("outcome"))

    # queue mode: exactly one row per message
    order = [order_by] if isinstance(order_by, str) else list(order_by or [])
    order = [c for c in order if c in messages.columns] + [c for c in _default_order(messages.columns) if c not in order]
    if not order:
        order_cols = [F.monotonically_increasing_id()]
    else:
        order_cols = [F.col(_q(c)).asc_nulls_last() for c in order]
    exclusive = bool(subs) and subs[0].kind == "exclusive_queue"
    unmatched = F.lit(rules.queue_unmatched)
    ends = [s.unsubscribed_at for s in subs]
    if not subs:  # a queue without consumers keeps its messages (R7)
        unmatched = F.lit("remains_queued")
    elif t and all(e is not None for e in ends):  # after the last consumer left, messages wait
        unmatched = F.when(F.expr(f"coalesce({t} >= {max(ends)}, false)"), F.lit("remains_queued")).otherwise(unmatched)
    if exclusive:
        timeline = _exclusive_timeline(subs)
        picks = [f"CASE WHEN {'' if end is None else f'coalesce({t} < {end}, true) AND '}"
                 f"array_contains(__jms_matches, {sql_string(name)}) THEN {sql_string(name)} END"
                 for name, end in timeline]
        pick = F.expr(f"coalesce({', '.join(picks)})") if len(picks) > 1 else (
            F.expr(picks[0]) if picks else F.lit(None).cast("string"))
        numbered, unmatched = tagged.withColumn("__jms_pick", pick), F.lit("remains_queued")
    elif rules.queue_rotation == "consumer_list" and subs:
        bind_order = [s.name for _, s in sorted(enumerate(subs), key=lambda p: (
            p[1].subscribed_at if p[1].subscribed_at is not None else float("-inf"), p[0]))]
        numbered = _consumer_list_rotation(tagged, bind_order, order_cols)
    else:
        key = F.concat_ws("\u0000", "__jms_matches")
        w = Window.partitionBy(key).orderBy(*order_cols)
        numbered = tagged.withColumn("__jms_k", F.row_number().over(w) - 1)
        numbered = numbered.withColumn("__jms_pick", F.when(F.size("__jms_matches") > 0, F.element_at(
            "__jms_matches", (F.col("__jms_k") % F.size("__jms_matches")).cast("int") + 1)))
    outcome = F.when(F.col("__jms_pick").isNotNull(), F.lit("delivered")).otherwise(unmatched)
    return numbered.select(*out_cols, F.col("__jms_pick").alias("subscription"), outcome.alias("outcome"))


def route_report(routed, subscriptions, *, mode: str = "topic", dialect: "str | Dialect" = "jms",
                 routing: "str | RoutingRules | None" = None) -> dict:
    """Per-subscription errors and counts of a `route` result (one aggregation job).

    Returns ``{"routing": rule set name, "subscriptions": {name: {"error": text or None,
    outcome: rows, ...}}, "unassigned": {outcome: rows with subscription NULL}, "rules":
    {outcome: the rule that produces it}, "rows": total}``; keys of subscriptions without a
    name are ``#position``. Pass the same ``mode``/``dialect``/``routing`` as to `route`.
    """
    d = get_dialect(dialect)
    rules = _resolve_rules(routing, d)
    errors = subscription_errors(subscriptions, dialect=d, mode=mode, routing=rules)
    subs = normalize_subscriptions(subscriptions)
    per = {_key(s, i): dict({"error": errors.get(_key(s, i))}, **{o: 0 for o in OUTCOMES}) for i, s in enumerate(subs)}
    unassigned = {o: 0 for o in OUTCOMES}
    total = 0
    for r in routed.groupBy("subscription", "outcome").count().collect():
        total += r["count"]
        if r["subscription"] is None:
            unassigned[r["outcome"]] += r["count"]
        else:
            per.setdefault(r["subscription"], dict({"error": None}, **{o: 0 for o in OUTCOMES}))[r["outcome"]] += r["count"]
    if mode == "topic":
        why = {"dead_letter": rules.why("durable_nonmatch") + (
                   "; " + rules.why("topic_unmatched") if rules.topic_unmatched == "dead_letter" else ""),
               "dropped": rules.why("topic_unmatched")}
    else:
        why = {o: rules.why("queue_unmatched") for o in ("dead_letter", "dropped")}
        why["remains_queued"] = (rules.why("queue_unmatched") if rules.queue_unmatched == "remains_queued" else
                                 "a queue without consumers keeps its messages (R7)") + (
            "; exclusive queue: the selector is an egress filter (R11)")
    return {"routing": rules.name, "subscriptions": per, "unassigned": unassigned,
            "rules": {o: why[o] for o in why if unassigned[o] or any(v[o] for v in per.values())}, "rows": total}
