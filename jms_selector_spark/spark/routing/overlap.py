"""Which subscriptions receive the same messages of an archive (topic mode; one job).

Bounded to the ``top`` busiest subscriptions (most ``delivered`` rows, at most 62) so that it stays
one cheap pass: each delivered row gets the bit of its subscription among the busiest, each message
the OR of its rows' bits (a window over the message identity), and one aggregation per
subscription gives its deliveries, the AND of its messages' masks (the busiest subscriptions that
received *every* message it received: its deliveries are contained in theirs) and, per busiest
subscription, how many of its messages that one also received. Nothing is collected but one row
per subscription.
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
    (``same``: and the other way round); ``within`` is one of the busiest.

    ``delivered``: ``{name: delivered rows}``."""
    from pyspark.sql import Window
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
    rows = report_input.table.where(F.col("outcome") == "delivered").select("subscription", "__jms_id", bit.alias("bit"))
    rows = rows.withColumn("mask", F.coalesce(F.bit_or("bit").over(Window.partitionBy("__jms_id")), F.lit(0).cast("bigint")))
    per = rows.groupBy("subscription").agg(
        F.count(F.lit(1)).alias("n"), F.bit_and("mask").alias("within"),
        *[F.sum(F.shiftright("mask", pos).bitwiseAND(F.lit(1))).alias(f"b{pos}") for pos in range(len(busiest))]
    ).collect()
    by_name = {r["subscription"]: r for r in per}
    index = {name: pos for pos, name in enumerate(busiest)}
    out["both"] = [[int(by_name[a][f"b{j}"]) for j in range(len(busiest))] for a in busiest]
    pairs = []
    for i, a in enumerate(busiest):
        for j in range(i + 1, len(busiest)):
            both = out["both"][i][j]
            if both:
                na, nb = out["both"][i][i], out["both"][j][j]
                pairs.append({"a": a, "b": busiest[j], "both": both, "jaccard": round(both / (na + nb - both), 4)})
    out["pairs"] = sorted(pairs, key=lambda p: (-p["both"], p["a"], p["b"]))
    contained = []
    for name in sorted(by_name, key=lambda s: (-by_name[s]["n"], s)):
        r = by_name[name]
        within = r["within"] or 0
        for pos, other in enumerate(busiest):
            if other == name or not within >> pos & 1:
                continue
            n_other = out["both"][pos][pos]
            same = n_other == r["n"]
            if same and name in index and index[name] < pos:
                continue  # the same deliveries: listed once, under the busier (or first) of the two
            contained.append({"subscription": name, "within": other, "messages": r["n"], "within_messages": n_other,
                              "same": same})
    out["contained"] = contained
    return out
