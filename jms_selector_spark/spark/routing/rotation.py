"""Queue rotation: whose turn it is on a queue, one rule for a table and for a stream.

A shared queue's message goes to one of the consumers that select it, in turn
(`rules.RoutingRules.queue_rotation`):

- ``match_set``: the messages that match the same *set* S of consumers (sorted by name) are
  numbered 0, 1, 2… in message order, and number k goes to ``S[k mod |S|]`` (`match_set_pick`).
  Over a table a window numbers them (`number_by_window`); over a stream the count of each set
  lives in the query's checkpoint and each micro-batch continues it (`number_in_stream`);
- ``consumer_list`` (WSO2, R6): one cursor over the consumers in bind order; each message goes
  to the first matching consumer at or after the cursor, which moves past it (`deal`). Over a
  table one sequential task carries the cursor across Arrow batches (`consumer_list_table`); over
  a stream the checkpoint carries it across micro-batches (`consumer_list_stream`).

A micro-batch is put in the table's message order (`order_key` is Spark's ascending order,
NULLs last) before it is numbered, so a stream assigns what `route` assigns over the same
messages in the same order — as long as no message of a later micro-batch is ordered before one
of an earlier micro-batch, which is how a broker sees them too. After a stop, the query resumes
from its checkpoint with the count or cursor of the last committed micro-batch. The state is one
count per matching set, or one cursor: it grows with the distinct sets, never with the messages.
"""
from __future__ import annotations

import math

__all__ = ["deal", "order_key", "match_set_pick", "number_by_window", "number_in_stream", "consumer_list_table",
           "consumer_list_stream"]

_ROW, _ORDER, _KEY = "__jms_row", "__jms_order", "__jms_set"


def deal(matches, index: dict, n: int, cursor: int) -> "tuple[list, int]":
    """WSO2's cursor (R6) over one run of messages: ``(picks, cursor after them)``.

    ``matches`` holds, per message, the names of the consumers that select it (empty or None:
    none); ``index`` numbers the ``n`` consumers in bind order."""
    picks = []
    for m in matches:
        if m is None or len(m) == 0:
            picks.append(None)
            continue
        idx = sorted(index[x] for x in m)
        j = next((k for k in idx if k >= cursor), idx[0])
        picks.append(j)
        cursor = (j + 1) % n
    return picks, cursor


def order_key(values) -> tuple:
    """A sort key ordering rows as Spark's ascending order with NULLs last orders them (NaN after
    every number, before NULL); ``values`` is the row's order columns (a dict or a tuple)."""
    out = []
    for v in (values.values() if isinstance(values, dict) else values or ()):
        if v is None:
            out.append((2,))
        elif isinstance(v, float) and math.isnan(v):
            out.append((1,))
        else:
            out.append((0, v))
    return tuple(out)


def match_set_pick(matches: str = "__jms_matches", number: str = "__jms_k"):
    """The consumer message number ``number`` of its matching set ``matches`` goes to: ``S[k mod |S|]``
    (NULL for a message no consumer selects)."""
    from pyspark.sql import functions as F

    return F.when(F.size(matches) > 0, F.element_at(matches, (F.col(number) % F.size(matches)).cast("int") + 1))


def number_by_window(tagged, order_cols):
    """``tagged`` plus ``__jms_k``, each message's number within its matching set (a table)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    w = Window.partitionBy(F.concat_ws("\u0000", "__jms_matches")).orderBy(*order_cols)
    return tagged.withColumn("__jms_k", F.row_number().over(w) - 1)


def consumer_list_table(tagged, names: list, order_cols):
    """``tagged`` plus ``__jms_pick``: WSO2's cursor as ONE sequential task over the messages in order."""
    import pyarrow as pa
    from pyspark.sql.types import StringType, StructField, StructType

    index = {nm: i for i, nm in enumerate(names)}
    schema = StructType(tagged.schema.fields + [StructField("__jms_pick", StringType())])

    def run(batches):
        cursor = 0
        for b in batches:
            picks, cursor = deal(b.column(b.schema.get_field_index("__jms_matches")).to_pylist(), index, len(names),
                                 cursor)
            yield pa.RecordBatch.from_arrays(
                list(b.columns) + [pa.array([None if j is None else names[j] for j in picks], pa.string())],
                schema=b.schema.append(pa.field("__jms_pick", pa.string())))

    return tagged.repartition(1).sortWithinPartitions(*order_cols).mapInArrow(run, schema)


def _stateful(tagged, key, order: list, func, out_field, state: str):
    """``func`` over each group of a micro-batch (grouped by ``key``), its state in the checkpoint:
    the message columns travel packed in one struct (exact values: no BIGINT through float64), the
    order columns in another; the result is ``tagged``'s columns plus ``out_field``."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StructType

    from ...backends.sql.render import sql_identifier

    cols = [F.col(sql_identifier(c)) for c in tagged.columns]
    ordered = F.struct(*[F.col(sql_identifier(c)) for c in order]) if order else F.lit(None).cast("int")
    packed = tagged.select(key.alias(_KEY), ordered.alias(_ORDER), F.col("__jms_matches"), F.struct(*cols).alias(_ROW))
    schema = StructType([packed.schema[_ROW], out_field])
    out = packed.groupBy(_KEY).applyInPandasWithState(func, schema, state, "append", "NoTimeout")
    return out.select(*[F.col(_ROW)[c].alias(c) for c in tagged.columns], F.col(out_field.name))


def _sorted(pdfs):
    """One micro-batch's rows of one group, concatenated and put in message order."""
    import pandas as pd

    frames = [p for p in pdfs if len(p)]
    if not frames:
        return None
    pdf = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    keys = [order_key(v) for v in pdf[_ORDER]]
    return pdf.iloc[sorted(range(len(pdf)), key=keys.__getitem__)].reset_index(drop=True)


def number_in_stream(tagged, order: list):
    """``tagged`` (a stream) plus ``__jms_k``: each set's count continues from the checkpoint."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType, StructField

    def number(key, pdfs, state):
        import pandas as pd

        pdf = _sorted(pdfs)
        if pdf is None:
            return
        start = state.get[0] if state.exists else 0
        state.update((start + len(pdf),))
        yield pd.DataFrame({_ROW: pdf[_ROW], "__jms_k": range(start, start + len(pdf))})

    return _stateful(tagged, F.concat_ws("\u0000", "__jms_matches"), order, number,
                     StructField("__jms_k", LongType()), "count LONG")


def consumer_list_stream(tagged, names: list, order: list):
    """``tagged`` (a stream) plus ``__jms_pick``: WSO2's cursor continues from the checkpoint (the
    whole queue is one group: each micro-batch is one sequential task, as over a table)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructField

    index = {nm: i for i, nm in enumerate(names)}

    def run(key, pdfs, state):
        import pandas as pd

        pdf = _sorted(pdfs)
        if pdf is None:
            return
        picks, cursor = deal(pdf["__jms_matches"], index, len(names), state.get[0] if state.exists else 0)
        state.update((cursor,))
        yield pd.DataFrame({_ROW: pdf[_ROW], "__jms_pick": [None if j is None else names[j] for j in picks]})

    return _stateful(tagged, F.lit(""), order, run, StructField("__jms_pick", StringType()), "cursor INT")
