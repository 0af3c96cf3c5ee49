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

**Versions** (`jms_selector_spark.spark.routing.versions`): several subscriptions with one name and different
``subscribed_at`` are the versions of one subscription, each bound until the next binds. When a
durable subscriber rebinds with a different selector, the copies it still holds are deleted under
``rebind_selector_change="drop"`` (Solace R10, JMS, ActiveMQ): those rows keep their
``subscription`` and get ``dropped``. That needs ``consumed_column=`` (when each copy was
consumed); without it every copy counts as consumed on arrival and `route_report` says R10 could
not be applied.

**Rule sets** (`ROUTING_RULES`, chosen by ``routing=``, default: the one named like the
dialect, else ``"jms"``; `routing_rules` overrides single rules). See `RoutingRules`.

**Bad input.** Input that is not a collection of subscriptions (a plain string, an item of
the wrong shape, an unknown attribute name, ``durable="false"`` or any attribute of the wrong
type or value) raises ``TypeError``/``ValueError`` naming the subscription. A subscription that
is well formed but cannot be created the way a broker refuses it — NULL or empty name, a name
used twice other than as versions (every subscription of that name), an invalid selector (R17),
a selector on a Direct transport where the broker refuses it (Solace, R13), a kind that does not
fit the mode — is reported (logged, `subscription_errors`, `route_report`) and the rest still route.

**One scan.** The native selectors become one array expression over ``CASE WHEN <fragment> THEN
'<name>' END`` branches in a single projection (a single pass over the data, Catalyst-optimised,
compiled), planned by `route_plan`: a predicate index groups the subscriptions by an access value
(``JMSType = 'car'``, ``region IN (...)``) so a message evaluates only the candidates of its value,
and large plans are kept out of one whole-stage-codegen method too large to JIT (`route_plan`
explains both; ``jms-selector route-plan`` prints them). The selectors that need the vectorized
fallback are evaluated together by one Arrow UDF that returns the names of those that match,
each only on the messages that pass its native conjuncts (`route_fallback`).
Outcomes, time windows and exclusive queues are code-generated array expressions over that array
of names.
"""
from __future__ import annotations

import logging
from typing import Iterable

from ...language.dialects import Dialect, get_dialect
from .versions import consumed_sql, expand_versions
from .subscriptions import (OUTCOMES, ROUTING_RULES, RoutingRules, Subscription, check_mode, check_subscriptions, normalize_subscriptions, resolve_rules, routing_rules, subscription_errors, subscription_key)

__all__ = ["Subscription", "RoutingRules", "ROUTING_RULES", "OUTCOMES", "routing_rules", "route",
           "route_report", "subscription_errors", "normalize_subscriptions"]

log = logging.getLogger(__name__)

def _has_collisions(messages) -> bool:
    from ..collisions import has_collisions

    return has_collisions(messages)


def _hide_collisions(messages, readers: list, binding: dict):
    """`collisions.hide_for` of ``readers`` ``[(subscription, dialect)]``: refused keyed by
    ``(subscription name, dialect name)``."""
    from ...binder import Binding
    from ...language.schema import to_schema
    from ..collisions import hide_for
    from .estate import compiled_selector

    schema, b = to_schema(messages.schema), Binding.of(**binding)
    compiled = [((s.name, d.name), compiled_selector(s.selector or "", d, schema, b)) for s, d in readers]
    return hide_for(messages, [(k, c) for k, c in compiled if not isinstance(c, Exception)])


def _restore(routed, original):
    """``routed`` with the message columns `_hide_collisions` renamed given their names back."""
    from ..collisions import restore

    return restore(routed, original)


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
          routing: "str | RoutingRules | None" = None, time_column: str = "JMSTimestamp",
          consumed_column: "str | None" = None, **binding):
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
    consumed_column : str, optional
        When each copy was consumed (epoch ms, timestamp, or ``MAP<STRING, time>`` by subscription
        name; NULL: not consumed): needed for R10 (`jms_selector_spark.spark.routing.versions`). Without it every
        copy counts as consumed on arrival and no rebind loses any.
    **binding
        ``headers=``, ``properties=``: how the table holds messages (see `selector_to_sql`).

    Returns
    -------
    DataFrame
        The message columns plus ``subscription`` and ``outcome`` (`OUTCOMES`).

    Notes
    -----
    Cost: see `jms_selector_spark.spark.routing.index` (predicate index: per message only the candidate
    subscriptions of its access value are evaluated; code kept JIT-sized under default settings).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import Window

    from ...backends.sql.render import sql_string
    from ...binder import Binding, to_schema
    from .estate import plan_subscriptions
    from .index import tag_matches

    check_mode(mode)
    d = get_dialect(dialect)
    rules = resolve_rules(routing, d)
    subs, errors = check_subscriptions(normalize_subscriptions(subscriptions), mode, rules)
    schema = messages.schema
    # the one planner (`hybrid`), as jms_filter's: each subscription native, fallback, or refused
    native, fallback, refused = plan_subscriptions(subs, to_schema(schema), d, Binding.of(**binding))
    errors.update((s.name, e) for s, e in refused)
    original = None
    if _has_collisions(messages):  # columns Spark cannot tell apart by name (a join; case-only twins)
        messages, original, refused = _hide_collisions(messages, [(s, d) for s in [s for s, _ in native] + fallback],
                                                       binding)
        refused = {name: err for (name, _), err in refused.items()}
        errors.update(refused)
        native = [(s, f) for s, f in native if s.name not in refused]
        fallback = [s for s in fallback if s.name not in refused]
        schema = messages.schema
    for name, err in errors.items():
        log.warning("subscription %r is not routed: %s", name, err)
    # versions of a subscription (R10): each under an internal name, its window ending at the next
    native, fallback, subs, versions = expand_versions(native, fallback, subs, errors, rules, mode)
    consumed = consumed_sql(schema, consumed_column)
    if versions.loses_at and consumed is None:
        log.warning("R10 not applied to %s: no consumption times (consumed_column=...); copies are taken as "
                    "consumed on arrival", list(versions.r10_changes))
    lost, public = versions.lost_sql("subscription", consumed), versions.public_sql("subscription")
    log.info("routing %d subscriptions (%d native, %d fallback, %d not created), mode=%s, rules=%s",
             len(subs) + len(errors), len(native), len(fallback), len(errors), mode, rules.name)

    # + __jms_matches (route_plan): sorted for the queue modes (a set's key, its rotation order);
    # a topic pass only explodes the names, in the plan's order
    tagged = tag_matches(messages, native, fallback, dialect=d, binding=binding, sort=mode != "topic")
    # --- everything below builds on the array of matching names ---------------------------------
    null = "CAST(NULL AS STRING)"
    windows = [(s, _window_sql(s, "__T__", mode)) for s in subs]
    timed = any(s.subscribed_at is not None or s.unsubscribed_at is not None for s in subs)
    t = _time_sql(schema, time_column) if timed else None
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
        outcome = F.when(F.col("subscription").isNull(), F.lit(rules.topic_unmatched))
        if lost:  # R10: a copy still held when its durable subscriber rebinds with another selector
            outcome = outcome.when((F.col("__jms_pos") < F.col("__jms_n")) & F.expr(lost), F.lit("dropped"))
        outcome = outcome.when(F.col("__jms_pos") < F.col("__jms_n"), F.lit("delivered")).otherwise(F.lit("dead_letter"))
        name = F.expr(public).alias("subscription") if public else F.col("subscription")
        return _restore(exploded.select(*out_cols, name, outcome.alias("outcome")), original)

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
    name = F.expr(versions.public_sql("__jms_pick")) if public else F.col("__jms_pick")
    return _restore(numbered.select(*out_cols, name.alias("subscription"), outcome.alias("outcome")), original)


def _refused_by_route(routed, subs: list, d: Dialect, binding: dict) -> dict:
    """{name: error} for the subscriptions `route` refuses on these messages beyond `subscription_errors`:
    a selector that does not bind to their schema, one reading columns Spark cannot tell apart (#17)."""
    from ...binder import Binding
    from .estate import plan_subscriptions

    cols = routed.columns[:-2]  # the message columns, as `route` gave them back
    messages = routed.toDF(*cols, "__jms_s", "__jms_o").drop("__jms_s", "__jms_o")
    native, fallback, bad = plan_subscriptions(subs, messages.schema, d, Binding.of(**binding))
    refused = {s.name: e for s, e in bad}
    planned = {id(s) for s, _ in native} | {id(s) for s in fallback}
    ok = [s for s in subs if id(s) in planned]  # in their order (`_hide_collisions` keeps the first reader)
    if _has_collisions(messages):
        refused.update({name: err for (name, _), err in _hide_collisions(messages, [(s, d) for s in ok], binding)[2].items()})
    return refused


def route_report(routed, subscriptions, *, mode: str = "topic", dialect: "str | Dialect" = "jms",
                 routing: "str | RoutingRules | None" = None, consumed_column: "str | None" = None,
                 **binding) -> dict:
    """Per-subscription errors and counts of a `route` result (one aggregation job).

    Returns ``{"routing": rule set name, "subscriptions": {name: {"error": text or None,
    outcome: rows, ...}}, "unassigned": {outcome: rows with subscription NULL}, "rules":
    {outcome: the rule that produces it}, "notes": [rules that could not be applied], "rows":
    total}``; keys of subscriptions without a name are ``#position``. Pass the same ``mode``,
    ``dialect``, ``routing``, ``consumed_column`` and binding (``headers=``, ``properties=``) as to
    `route`: the errors are those `route` reports (invalid selectors, bad or duplicate names,
    overlapping versions, Direct transport, selectors that do not bind, columns Spark cannot
    tell apart).
    """
    d = get_dialect(dialect)
    rules = resolve_rules(routing, d)
    errors = subscription_errors(subscriptions, dialect=d, mode=mode, routing=rules)
    subs = normalize_subscriptions(subscriptions)
    checked, _ = check_subscriptions(subs, mode, rules)
    errors.update(_refused_by_route(routed, [s for s in checked if s.name not in errors], d, binding))
    per = {subscription_key(s, i): dict({"error": errors.get(subscription_key(s, i))}, **{o: 0 for o in OUTCOMES}) for i, s in enumerate(subs)}
    unassigned = {o: 0 for o in OUTCOMES}
    total = 0
    for r in routed.groupBy("subscription", "outcome").count().collect():
        total += r["count"]
        if r["subscription"] is None:
            unassigned[r["outcome"]] += r["count"]
        else:
            per.setdefault(r["subscription"], dict({"error": None}, **{o: 0 for o in OUTCOMES}))[r["outcome"]] += r["count"]
    notes = []
    if mode == "topic":
        why = {"dead_letter": rules.why("durable_nonmatch") + (
                   "; " + rules.why("topic_unmatched") if rules.topic_unmatched == "dead_letter" else ""),
               "dropped": rules.why("topic_unmatched")}
        if any(v["dropped"] for v in per.values()):  # a copy held by a subscription: lost at a rebind
            why["dropped"] += "; a copy still held at a rebind with another selector: " + rules.why("rebind_selector_change")
        versions = expand_versions([], [], [s for s in checked if s.name not in errors], errors, rules, mode)[3]
        if versions.loses_at and consumed_column is None:
            notes.append(f"R10 ({rules.why('rebind_selector_change')}) could not be applied to "
                         f"{list(versions.r10_changes)}: no consumption times (consumed_column=...); every copy is "
                         "taken as consumed on arrival, so none is counted lost")
    else:
        why = {o: rules.why("queue_unmatched") for o in ("dead_letter", "dropped")}
        why["remains_queued"] = (rules.why("queue_unmatched") if rules.queue_unmatched == "remains_queued" else
                                 "a queue without consumers keeps its messages (R7)") + (
            "; exclusive queue: the selector is an egress filter (R11)")
    return {"routing": rules.name, "subscriptions": per, "unassigned": unassigned,
            "rules": {o: why[o] for o in why if unassigned[o] or any(v[o] for v in per.values())}, "notes": notes,
            "rows": total}
