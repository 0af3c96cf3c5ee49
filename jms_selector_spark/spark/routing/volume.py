"""Deliveries per subscription over the message time, in equal time buckets (one job).

The archive's time range ``[t_min, t_max]`` (epoch ms) is cut into ``buckets`` buckets of
``bucket_ms`` each; a subscription's series counts its ``delivered`` rows per bucket, and the
series of ``None`` counts the messages no subscription holds (``subscription`` NULL). Rows with a
NULL time are counted in no bucket.
"""
from __future__ import annotations

__all__ = ["volume"]


def volume(report_input, buckets: int, time_column: str) -> "dict | None":
    """``{"time_column", "start", "bucket_ms", "buckets", "subscriptions": {name: [count per
    bucket]}, "unassigned": [count per bucket]}``, or None when the messages have no usable time."""
    from pyspark.sql import functions as F

    ri = report_input
    if not ri.timed or ri.t_min is None:
        return None
    width = max(1, -(-(ri.t_max - ri.t_min + 1) // buckets))
    bucket = F.floor((F.col("__jms_t") - F.lit(ri.t_min)) / F.lit(width)).cast("int").alias("b")
    rows = (ri.table.where((F.col("outcome") == "delivered") | F.col("subscription").isNull())
            .where(F.col("__jms_t").isNotNull())
            .groupBy("subscription", bucket).agg(F.count(F.lit(1)).alias("n")).collect())
    series: dict = {}
    unassigned = [0] * buckets
    for r in rows:
        target = unassigned if r["subscription"] is None else series.setdefault(r["subscription"], [0] * buckets)
        target[min(r["b"], buckets - 1)] += r["n"]
    return {"time_column": time_column, "start": ri.t_min, "bucket_ms": width, "buckets": buckets,
            "subscriptions": series, "unassigned": unassigned}
