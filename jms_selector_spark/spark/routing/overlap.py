"""Which subscriptions receive the same messages of an archive (topic mode; one job).

Bounded to the ``top`` busiest subscriptions (most ``delivered`` rows, at most 62) so that it stays
cheap: each message's delivered rows to those subscriptions become one 64-bit mask (a hash
aggregation by the message identity, no sort), the masks are counted (few distinct ones), and one
aggregation over those counts gives, for every pair, the messages both received. A subscription's
deliveries are contained in another's exactly when the pair's count is its own count. Nothing is
collected but the pair counts.
"""
from __future__ import annotations

__all__ = ["overlap", "MAX_TOP"]

#: The busiest subscriptions compared at most (their bits fit a 64-bit mask).
MAX_TOP = 62


def overlap(report_input, delivered: dict, top: int) -> dict:
    """``{"busiest": [names], "both": N×N matrix of messages both received (the diagonal: each
    one's deliveries), "pairs": [{"a", "b", "both", "jaccard"}] (pairs of the busiest that share a
    message, most shared first), "contained": [{"subscription", "within", "messages",
    "within_messages", "same"}]}``: ``subscription``'s deliveries are all ``within``'s too
    (``same``: and the other way round), both among the busiest.

    ``delivered``: ``{name: delivered rows}``."""
    from pyspark.sql import functions as F

    top = max(0, min(int(top), MAX_TOP))
    busiest = [name for name, count in sorted(delivered.items(), key=lambda kv: (-kv[1], kv[0])) if count > 0][:top]
    out = {"busiest": busiest, "both": [], "pairs": [], "contained": []}
    if not busiest:
        return out
    bit = None
    for pos, name in enumerate(busiest):
        bit = (F.when(F.col("subscription") == F.lit(name), F.lit(1 << pos).cast("bigint")) if bit is None
               else bit.when(F.col("subscription") == F.lit(name), F.lit(1 << pos).cast("bigint")))
    masks = (report_input.table.where((F.col("outcome") == "delivered") & F.col("subscription").isin(busiest))
             .groupBy("__jms_id").agg(F.bit_or(bit).alias("mask"))
             .groupBy("mask").agg(F.count(F.lit(1)).alias("n")))
    m = len(busiest)
    both_of = lambda i, j: F.sum(F.when(F.col("mask").bitwiseAND(F.lit((1 << i) | (1 << j))) == F.lit((1 << i) | (1 << j)),  # noqa: E731
                                        F.col("n")).otherwise(F.lit(0)))
    row = masks.agg(*[both_of(i, j).alias(f"p{i}_{j}") for i in range(m) for j in range(i, m)]).collect()[0]
    both = [[0] * m for _ in range(m)]
    for i in range(m):
        for j in range(i, m):
            both[i][j] = both[j][i] = int(row[f"p{i}_{j}"] or 0)
    out["both"] = both
    pairs = []
    for i, a in enumerate(busiest):
        for j in range(i + 1, m):
            if both[i][j]:
                na, nb = both[i][i], both[j][j]
                pairs.append({"a": a, "b": busiest[j], "both": both[i][j],
                              "jaccard": round(both[i][j] / (na + nb - both[i][j]), 4)})
    out["pairs"] = sorted(pairs, key=lambda p: (-p["both"], p["a"], p["b"]))
    contained = []
    for i, a in enumerate(busiest):
        for j, b in enumerate(busiest):
            if i == j or both[i][j] != both[i][i]:
                continue
            same = both[j][j] == both[i][i]
            if same and i < j:
                continue  # the same deliveries: listed once, under the busier (or first) of the two
            contained.append({"subscription": a, "within": b, "messages": both[i][i], "within_messages": both[j][j],
                              "same": same})
    out["contained"] = contained
    return out
