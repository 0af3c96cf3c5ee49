"""The one pass over a `route` result that the estate report reads.

`route_report(..., estate=True)` needs several aggregations of one routed result (outcome counts,
volume by time, overlap, dead letters), and each action on a lazy `route` result would run the
routing again. `report_input` keeps instead one narrow copy of it, persisted (memory, then disk),
built by the first aggregation: per routed row its ``subscription``, ``outcome``, the message time
in epoch ms (``__jms_t``), a message identity (``__jms_id``: a 64-bit hash of the message's
JMSMessageID and time, or of every message column when the table has no JMSMessageID; the
overlap pairs the rows of one message by it) and, only on the rows of messages no
subscription received, the message itself (``__jms_msg``, a struct of the message columns) for
the dead-letter reasons. The report's other jobs read the copy, not the archive.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...backends.sql.render import sql_identifier
from .outcomes import time_sql

__all__ = ["ReportInput", "report_input", "message_id"]


def _hashable(field):
    """A column xxhash64 accepts: maps and variants (which it refuses) as JSON or text."""
    from pyspark.sql import functions as F

    col = F.col(sql_identifier(field.name))
    text = field.dataType.simpleString()
    if "map<" in text:
        return F.to_json(col)
    if "variant" in text:
        return col.cast("string") if text == "variant" else F.to_json(col)
    return col


def message_id(schema, columns: list, identity: "list | None" = None):
    """Column BIGINT: a hash of the columns ``identity`` when ``schema`` has them all (the
    message's JMSMessageID and time: cheap, and what tells messages apart), else of every message
    column of ``columns`` (equal messages, equal ids). Two different messages share an id with
    probability about 2^-64 per pair."""
    from pyspark.sql import functions as F

    fields = {f.name: f for f in schema.fields}
    if identity and all(c in fields for c in identity):
        columns = identity
    return F.xxhash64(*[_hashable(fields[c]) for c in columns])


@dataclass
class ReportInput:
    """The persisted copy (``table``) and what the report's jobs need to read it."""

    table: object  # DataFrame: subscription, outcome, __jms_t, __jms_id, __jms_msg
    message_columns: list
    #: The rows per (subscription, outcome), and the smallest and largest message time.
    counts: list
    t_min: "int | None"
    t_max: "int | None"
    timed: bool

    def release(self) -> None:
        self.table.unpersist()


def report_input(routed, *, mode: str, unreceived_dead_letters: bool, time_column: str,
                 identity: "list | None" = None) -> ReportInput:
    """Persist the narrow copy of ``routed`` (a `route` result) and count its rows per
    (subscription, outcome) in the same job.

    ``unreceived_dead_letters``: a ``dead_letter`` row with a subscription can belong to a message
    no subscription received (WSO2's durable copies, R3), so those rows keep the message too.
    ``identity``: the columns that identify a message (`message_id`)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    cols = routed.columns[:-2]
    schema = routed.schema
    try:
        t = F.expr(time_sql(schema, time_column)).cast("bigint")
        timed = True
    except ValueError:
        t, timed = F.lit(None).cast("bigint"), False
    unreceived = F.col("subscription").isNull()
    if unreceived_dead_letters:
        unreceived = unreceived | (F.col("outcome") == "dead_letter")
    msg = F.when(unreceived, F.struct(*[F.col(sql_identifier(c)) for c in cols]))
    table = routed.select(F.col("subscription"), F.col("outcome"), t.alias("__jms_t"),
                          (message_id(schema, cols, identity) if mode == "topic" else F.lit(0).cast("bigint")).alias("__jms_id"),
                          msg.alias("__jms_msg"))
    table = table.persist(StorageLevel.MEMORY_AND_DISK)
    rows = table.groupBy("subscription", "outcome").agg(
        F.count(F.lit(1)).alias("n"), F.min("__jms_t").alias("t0"), F.max("__jms_t").alias("t1")).collect()
    counts = [(r["subscription"], r["outcome"], r["n"]) for r in rows]
    t0 = [r["t0"] for r in rows if r["t0"] is not None]
    t1 = [r["t1"] for r in rows if r["t1"] is not None]
    return ReportInput(table, cols, counts, min(t0) if t0 else None, max(t1) if t1 else None, timed)
