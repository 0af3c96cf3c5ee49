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

**Streams.** On a streaming DataFrame the plan is the same; a queue's rotation keeps its state
(each matching set's count, or WSO2's cursor) in the query's checkpoint (`rotation`), so the
stream assigns what a table of the same messages in the same order gets, across micro-batches and
restarts. `route_report` needs the whole table and refuses a stream (`StreamingUnsupportedError`).

**Rule sets** (`ROUTING_RULES`, chosen by ``routing=``, default: the one named like the
dialect, else ``"jms"``; `routing_rules` overrides single rules). See `RoutingRules`.

**Bad input.** Input that is not a collection of subscriptions (a plain string, an item of
the wrong shape, an unknown attribute name, ``durable="false"`` or any attribute of the wrong
type or value) raises ``TypeError``/``ValueError`` naming the subscription. A subscription that
is well formed but cannot be created the way a broker refuses it — NULL or empty name, a name
used twice other than as versions (every subscription of that name), an invalid selector (R17),
a selector on a Direct transport where the broker refuses it (Solace, R13), a kind that does not
fit the mode — is reported (logged, `subscription_errors`, `route_report`) and the rest still route.

**One scan.** Each distinct selector is compiled once for the call (`estate`). The native ones
become one array expression in a single projection (one pass over the data, Catalyst-optimised,
compiled): subscriptions equal but for their literals share a template matched through a
constant index on an access value (`templates`), the others are grouped by an access value so a
message evaluates only the candidates of its value (`index`), and large plans are written as
JIT-sized methods (`render_index`); ``explain_routing`` and ``jms-selector route-plan`` print the
plan. The selectors that need the vectorized fallback are evaluated together by one Arrow UDF
that returns the names of those that match, each only on the messages that pass its native
conjuncts (`columns`). Outcomes, time windows and exclusive queues are code-generated array
expressions over that array of names (`outcomes`).
"""
from __future__ import annotations

import logging
import os
from typing import Iterable

from ...analysis.report_html import write_report
from ...binder import Binding, check_options
from ...language.dialects import Dialect, get_dialect
from ...language.schema import to_schema
from .. import collisions
from ..streams import refuse_stream
from .checks import check_mode, check_subscriptions, subscription_errors
from .columns import tag_matches
from .estate import collector_paused, plan_estate
from .estate_report import estate_figures
from .report_input import report_input
from .outcomes import drop_outside_windows, message_order, queue_rows, time_sql, topic_rows
from .rules import OUTCOMES, RoutingRules, resolve_rules
from .subscriptions import normalize_subscriptions, subscription_key
from .tuning import DEFAULT, RoutingTuning
from .versions import consumed_sql, expand_versions

__all__ = ["route", "route_report", "plan_call"]

log = logging.getLogger(__name__)


def plan_call(messages, subs: list, d: Dialect, binding: Binding, errors: dict):
    """``(messages', original column names or None, native, fallback)`` of one routing call: each
    distinct selector compiled once (`estate`), the colliding columns no selector reads hidden
    (`spark.collisions`); ``errors`` gains the subscriptions refused."""
    schema = to_schema(messages.schema)
    if subs:
        check_options(schema, binding)
    native, fallback, refused = plan_estate(subs, schema, d, binding)
    errors.update((s.name, e) for s, e in refused)
    original = None
    if collisions.has_collisions(messages):  # columns Spark cannot tell apart by name (a join; case-only twins)
        readers = [(s.name, c) for s, c in native + fallback]
        messages, original, refused = collisions.hide_for(messages, readers)
        errors.update(refused)
        native = [(s, c) for s, c in native if s.name not in refused]
        fallback = [(s, c) for s, c in fallback if s.name not in refused]
    return messages, original, native, fallback


def route(messages, subscriptions, *, mode: str = "topic", dialect: "str | Dialect" = "jms",
          order_by: "str | Iterable[str] | None" = "JMSTimestamp",
          routing: "str | RoutingRules | None" = None, time_column: str = "JMSTimestamp",
          consumed_column: "str | None" = None, tuning: "RoutingTuning | None" = None, **binding):
    """Route ``messages`` to ``subscriptions``; see the module docstring for the rules.

    Parameters
    ----------
    messages : DataFrame
        The archive (headers and properties as in the data model), or a streaming DataFrame of
        messages arriving in order (queue mode keeps its rotation in the query's checkpoint).
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
        name; NULL: not consumed): needed for R10 (`versions`). Without it every copy counts as
        consumed on arrival and no rebind loses any.
    tuning : RoutingTuning, optional
        The routing plan's thresholds and features (default: `tuning.DEFAULT`); the result is
        the same whatever they are.
    **binding
        ``headers=``, ``properties=``, ``property_types=``, ``layout=``: how the table holds
        messages (see `selector_to_sql`).

    Returns
    -------
    DataFrame
        The message columns plus ``subscription`` and ``outcome`` (`OUTCOMES`).
    """
    check_mode(mode)
    d = get_dialect(dialect)
    rules = resolve_rules(routing, d)
    tuning = tuning or DEFAULT
    subs, errors = check_subscriptions(normalize_subscriptions(subscriptions), mode, rules)
    with collector_paused():
        return _route(messages, subs, errors, d, rules, mode, order_by, time_column, consumed_column, tuning,
                      Binding.of(**binding))


def _route(messages, subs, errors, d, rules, mode, order_by, time_column, consumed_column, tuning, binding):
    messages, original, native, fallback = plan_call(messages, subs, d, binding, errors)
    schema = messages.schema
    for name, err in errors.items():
        log.warning("subscription %r is not routed: %s", name, err)
    # versions of a subscription (R10): each under an internal name, its window ending at the next
    native, fallback, subs, versions = expand_versions(native, fallback, subs, errors, rules, mode)
    consumed = consumed_sql(schema, consumed_column)
    if versions.loses_at and consumed is None:
        log.warning("R10 not applied to %s: no consumption times (consumed_column=...); copies are taken as "
                    "consumed on arrival", list(versions.r10_changes))
    log.info("routing %d subscriptions (%d native, %d fallback, %d not created), mode=%s, rules=%s",
             len(subs) + len(errors), len(native), len(fallback), len(errors), mode, rules.name)
    # + __jms_matches: sorted for the queue modes (a set's key, its rotation order); a topic pass
    # only explodes the names, in the plan's order
    tagged = tag_matches(messages, native, fallback, tuning=tuning, sort=mode != "topic")
    timed = any(s.subscribed_at is not None or s.unsubscribed_at is not None for s in subs)
    t = time_sql(schema, time_column) if timed else None
    tagged = drop_outside_windows(tagged, subs, mode, t)
    from pyspark.sql import functions as F

    out_cols = [F.col("`" + c.replace("`", "``") + "`") for c in messages.columns]
    if mode == "topic":
        routed = topic_rows(tagged, out_cols, subs, rules, t, versions, consumed)
    else:
        routed = queue_rows(tagged, out_cols, subs, rules, t, message_order(messages.columns, order_by), versions)
    return collisions.restore(routed, original)


def route_report(routed, subscriptions, *, mode: str = "topic", dialect: "str | Dialect" = "jms",
                 routing: "str | RoutingRules | None" = None, consumed_column: "str | None" = None,
                 estate: bool = False, html: "str | os.PathLike | None" = None, top: int = 20, buckets: int = 24,
                 time_column: str = "JMSTimestamp", title: "str | None" = None, **binding) -> dict:
    """Per-subscription errors and counts of a `route` result (one aggregation job), and with
    ``estate=True`` or ``html=`` the estate's figures and a page a person reads.

    Pass the same ``mode``, ``dialect``, ``routing``, ``consumed_column`` and binding
    (``headers=``, ``properties=``) as to `route`: the errors are those `route` reports (invalid
    selectors, bad or duplicate names, overlapping versions, Direct transport, selectors that do
    not bind, columns Spark cannot tell apart).

    Parameters
    ----------
    routed : DataFrame
        What `route` returned.
    subscriptions : dict, list or DataFrame
        The subscriptions given to `route`.
    mode, dialect, routing, consumed_column, **binding
        As given to `route`.
    estate : bool, default False
        Also compute the estate's figures (below), in Spark over one persisted copy of ``routed``
        (`report_input`), never by collecting the archive.
    html : str or path, optional
        Also write those figures as one self-contained HTML page to this path (inline CSS and
        SVG, no script, nothing fetched at view time; `report_html`). Implies ``estate=True``.
    top : int, default 20
        The busiest subscriptions compared for overlap (at most 62).
    buckets : int, default 24
        Time buckets of the volume figures.
    time_column : str, default "JMSTimestamp"
        The message time the volume is bucketed by (epoch ms or timestamp).
    title : str, optional
        The page's heading.

    Returns
    -------
    dict
        ``{"routing": rule set name, "subscriptions": {name: {"error": text or None, outcome:
        rows, ...}}, "unassigned": {outcome: rows with subscription NULL}, "rules": {outcome: the
        rule that produces it}, "notes": [rules that could not be applied], "rows": total}``;
        keys of subscriptions without a name are ``#position``. With ``estate=True`` also:

        - ``"mode"``, ``"dialect"``;
        - ``"volume"``: each subscription's deliveries per time bucket of ``time_column``
          (``"unassigned"``: the messages nobody holds), or None when the messages have no such
          column (`volume`);
        - ``"overlap"`` (topic mode; None in queue mode): the ``top`` busiest subscriptions, how
          many messages each pair both received (``"both"``, ``"pairs"`` with their Jaccard
          index) and those whose deliveries are all also another's (``"contained"``) (`overlap`);
        - ``"never_matching"``: the subscriptions created that received no message;
        - ``"dead_letters"``: the messages no subscription received and, for each, the deciding
          conjunct of the subscription that came closest, counted (`dead_letters`);
        - ``"lint"``: ``{name: [warning text]}`` (`lint`).

    Examples
    --------
    >>> archive = spark.createDataFrame([("ID:1", 1000, "car", 3000), ("ID:2", 2000, "truck", 500)],
    ...                                 "JMSMessageID string, JMSTimestamp long, JMSType string, weight long")
    >>> subs = {"cars": "JMSType = 'car'", "heavy-trucks": "JMSType = 'truck' AND weight > 1000"}
    >>> report = route_report(route(archive, subs), subs, estate=True)
    >>> report["subscriptions"]["cars"], report["never_matching"]
    ({'error': None, 'delivered': 1, 'dead_letter': 0, 'remains_queued': 0, 'dropped': 0}, ['heavy-trucks'])
    >>> [(r["subscription"], r["conjunct"], r["value"]) for r in report["dead_letters"]["reasons"]]
    [('heavy-trucks', 'weight > 1000', 'FALSE')]
    """
    refuse_stream(routed, "route_report", "run it on what the streaming query wrote (spark.read of its sink), or on "
                  "each micro-batch inside foreachBatch")
    d = get_dialect(dialect)
    rules = resolve_rules(routing, d)
    errors = subscription_errors(subscriptions, dialect=d, mode=mode, routing=rules)
    subs = normalize_subscriptions(subscriptions)
    checked, _ = check_subscriptions(subs, mode, rules)
    cols = routed.columns[:-2]  # the message columns, as `route` gave them back
    messages = routed.toDF(*cols, "__jms_s", "__jms_o").drop("__jms_s", "__jms_o")
    refused: dict = {}
    bound = Binding.of(**binding)
    created = [s for s in checked if s.name not in errors]
    with collector_paused():
        _, _, native, fallback = plan_call(messages, created, d, bound, refused)
    errors.update(refused)
    per = {subscription_key(s, i): dict({"error": errors.get(subscription_key(s, i))}, **{o: 0 for o in OUTCOMES})
           for i, s in enumerate(subs)}
    unassigned = {o: 0 for o in OUTCOMES}
    total = 0
    estate = estate or html is not None
    source = None
    if estate:  # one persisted narrow copy of the routed rows: the counts are its first job
        identity = [bound.headers.get("JMSMessageID", "JMSMessageID"), time_column]
        source = report_input(routed, mode=mode, time_column=time_column, identity=identity,
                              unreceived_dead_letters=mode == "topic" and rules.durable_nonmatch == "dead_letter")
        counted = source.counts
    else:
        counted = [(r["subscription"], r["outcome"], r["count"])
                   for r in routed.groupBy("subscription", "outcome").count().collect()]
    for name, outcome, count in counted:
        total += count
        if name is None:
            unassigned[outcome] += count
        else:
            per.setdefault(name, dict({"error": None}, **{o: 0 for o in OUTCOMES}))[outcome] += count
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
    report = {"routing": rules.name, "subscriptions": per, "unassigned": unassigned,
              "rules": {o: why[o] for o in why if unassigned[o] or any(v[o] for v in per.values())}, "notes": notes,
              "rows": total}
    if source is None:
        return report
    try:
        compiled = {id(s): c for s, c in native + fallback}
        candidates = [(s.name, compiled[id(s)]) for s in created if id(s) in compiled]
        report.update(estate_figures(source, per, candidates, mode=mode, rules=rules, dialect=d, binding=bound,
                                     top=top, buckets=buckets, time_column=time_column))
    finally:
        source.release()
    if html is not None:
        write_report(html, report, title=title)
    return report
