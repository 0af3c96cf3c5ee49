"""From the array of matching names to routed rows: windows, topic fan-out, queue rotation, outcomes.

Everything here builds on `columns.tag_matches`'s array of the names each message matches, as
code-generated array expressions (no Python but WSO2's sequential rotation):

- **windows** (R4): a subscription's ``subscribed_at`` / ``unsubscribed_at`` against the message
  time; a topic subscription receives the messages with ``subscribed_at <= t < unsubscribed_at``,
  a queue consumer any message still queued before it leaves; a NULL time is in every window;
- **topic** (R1): one ``delivered`` row per (message, matching subscription), plus, under
  ``durable_nonmatch="dead_letter"`` (WSO2, R3), one ``dead_letter`` row per (message, durable
  subscription that does not match it); a message with no such row appears once, the rule set's
  ``topic_unmatched`` outcome; a copy still held when its durable subscriber rebinds with another
  selector is ``dropped`` (R10, `versions`);
- **queue** (R5, R12): one row per message. ``match_set`` rotation numbers the messages that
  match the same *set* of consumers in message order and deals them round-robin over the set
  (one window, parallel); ``consumer_list`` (WSO2, R6) is one cursor over the consumers in bind
  order (one sequential task); both rules, and their state on a stream, are `rotation`'s. An
  exclusive queue (R11) delivers to its active consumer, whose selector is an egress filter.
"""
from __future__ import annotations

from ...backends.sql.render import sql_identifier, sql_string
from ..streams import is_streaming
from .rotation import (consumer_list_stream, consumer_list_table, match_set_pick, number_by_window,
                       number_in_stream)

__all__ = ["time_sql", "window_sql", "drop_outside_windows", "topic_rows", "queue_rows", "exclusive_timeline",
           "message_order"]

_NULL_NAME = "CAST(NULL AS STRING)"


def time_sql(schema, time_column: str) -> str:
    """SQL of the message time in epoch ms (a numeric column as it is, a timestamp's millis)."""
    from pyspark.sql.types import NumericType, TimestampNTZType, TimestampType

    fields = {f.name: f for f in schema.fields}
    if time_column not in fields:
        raise ValueError(f"subscribed_at/unsubscribed_at need the message time column {time_column!r} "
                         f"(time_column=...); the messages have {list(fields)}")
    t = fields[time_column].dataType
    if isinstance(t, (TimestampType, TimestampNTZType)):
        return f"unix_millis({sql_identifier(time_column)})"
    if isinstance(t, NumericType):
        return sql_identifier(time_column)
    raise ValueError(f"time_column {time_column!r} must be numeric (epoch ms) or a timestamp, not {t.simpleString()}")


def window_sql(s, t: str, mode: str) -> "str | None":
    """SQL TRUE when the message time ``t`` is OUTSIDE ``s``'s window (NULL t: inside); None: no window."""
    parts = []
    if mode == "topic" and s.subscribed_at is not None:
        parts.append(f"{t} < {s.subscribed_at}")
    if s.unsubscribed_at is not None:
        parts.append(f"{t} >= {s.unsubscribed_at}")
    return " OR ".join(parts) or None


def drop_outside_windows(tagged, subs, mode: str, t: "str | None", column: str = "__jms_matches"):
    """``tagged`` with the names whose window excludes the message removed from ``column``."""
    from pyspark.sql import functions as F

    windows = [(s, window_sql(s, t, mode)) for s in subs] if t is not None else []
    if not any(w for _, w in windows):
        return tagged
    outside = ", ".join(f"CASE WHEN {w} THEN {sql_string(s.name)} END" for s, w in windows if w)
    return tagged.withColumn(column, F.expr(f"array_except({column}, array({outside}))"))


def topic_rows(tagged, out_cols, subs, rules, t, versions, consumed=None):
    """The routed rows of a topic pass over ``tagged`` (messages with ``__jms_matches``);
    ``versions`` (`versions.Versions`) names them, ``consumed`` (`versions.consumed_sql`) says
    which copies a rebind loses."""
    from pyspark.sql import functions as F

    all_names = F.col("__jms_matches")
    durable = [s for s in subs if s.durable]
    if rules.durable_nonmatch == "dead_letter" and durable:
        held = ", ".join(f"CASE WHEN NOT coalesce({w}, false) THEN {sql_string(s.name)} END" if w else sql_string(s.name)
                         for s, w in ((s, window_sql(s, t, "topic") if t is not None else None) for s in durable))
        all_names = F.concat("__jms_matches", F.expr(
            f"array_except(array({held}), concat(__jms_matches, array({_NULL_NAME})))"))
    exploded = tagged.select(*out_cols, F.size("__jms_matches").alias("__jms_n"),
                             F.posexplode_outer(all_names).alias("__jms_pos", "subscription"))
    lost, public = versions.lost_sql("subscription", consumed), versions.public_sql("subscription")
    outcome = F.when(F.col("subscription").isNull(), F.lit(rules.topic_unmatched))
    if lost:  # R10: a copy still held when its durable subscriber rebinds with another selector
        outcome = outcome.when((F.col("__jms_pos") < F.col("__jms_n")) & F.expr(lost), F.lit("dropped"))
    outcome = outcome.when(F.col("__jms_pos") < F.col("__jms_n"), F.lit("delivered")).otherwise(F.lit("dead_letter"))
    name = F.expr(public).alias("subscription") if public else F.col("subscription")
    return exploded.select(*out_cols, name, outcome.alias("outcome"))


def message_order(columns, order_by) -> list:
    """The columns a queue's messages are ordered by: ``order_by`` (those present), then
    ``JMSTimestamp`` and ``JMSMessageID`` as tie-breakers when present."""
    order = [order_by] if isinstance(order_by, str) else list(order_by or [])
    return [c for c in order if c in columns] + [c for c in ("JMSTimestamp", "JMSMessageID")
                                                 if c in columns and c not in order]


def exclusive_timeline(consumers: list) -> list:
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


def queue_rows(tagged, out_cols, subs, rules, t, order: list, versions):
    """The routed rows of a queue pass over ``tagged``: exactly one per message. On a stream the
    rotation's state lives in the query's checkpoint (`rotation`)."""
    from pyspark.sql import functions as F

    order_cols = [F.col(sql_identifier(c)).asc_nulls_last() for c in order] or [F.monotonically_increasing_id()]
    exclusive = bool(subs) and subs[0].kind == "exclusive_queue"
    unmatched = F.lit(rules.queue_unmatched)
    ends = [s.unsubscribed_at for s in subs]
    if not subs:  # a queue without consumers keeps its messages (R7)
        unmatched = F.lit("remains_queued")
    elif t and all(e is not None for e in ends):  # after the last consumer left, messages wait
        unmatched = F.when(F.expr(f"coalesce({t} >= {max(ends)}, false)"), F.lit("remains_queued")).otherwise(unmatched)
    if exclusive:
        timeline = exclusive_timeline(subs)
        picks = [f"CASE WHEN {'' if end is None else f'coalesce({t} < {end}, true) AND '}"
                 f"array_contains(__jms_matches, {sql_string(name)}) THEN {sql_string(name)} END"
                 for name, end in timeline]
        pick = F.expr(f"coalesce({', '.join(picks)})") if len(picks) > 1 else (
            F.expr(picks[0]) if picks else F.lit(None).cast("string"))
        numbered, unmatched = tagged.withColumn("__jms_pick", pick), F.lit("remains_queued")
    elif rules.queue_rotation == "consumer_list" and subs:
        bind_order = [s.name for _, s in sorted(enumerate(subs), key=lambda p: (
            p[1].subscribed_at if p[1].subscribed_at is not None else float("-inf"), p[0]))]
        numbered = (consumer_list_stream(tagged, bind_order, order) if is_streaming(tagged) else
                    consumer_list_table(tagged, bind_order, order_cols))
    else:
        numbered = number_in_stream(tagged, order) if is_streaming(tagged) else number_by_window(tagged, order_cols)
        numbered = numbered.withColumn("__jms_pick", match_set_pick())
    outcome = F.when(F.col("__jms_pick").isNotNull(), F.lit("delivered")).otherwise(unmatched)
    public = versions.public_sql("__jms_pick")
    name = F.expr(public) if public else F.col("__jms_pick")
    return numbered.select(*out_cols, name.alias("subscription"), outcome.alias("outcome"))
