"""Why nobody received a message: the deciding conjunct of the subscription that came closest.

For the messages of a `route` result that no subscription received (`report_input` keeps them),
each subscription's selector is cut at its top-level ANDs (`analysis.conjuncts`). A selector is
TRUE exactly when every conjunct is, so:

- the subscription that came **closest** to a message is the one with the most conjuncts TRUE on
  it (ties: the one with fewer conjuncts not TRUE, then the first listed); a subscription whose
  every conjunct is TRUE comes first of all (its selector matched; the routing rules kept the
  message from it: its lifetime, R4, or an exclusive queue's inactive consumer, R11);
- the **reason** is that subscription's first conjunct that is not TRUE, and its value, FALSE or
  UNKNOWN; for UNKNOWN, the names it reads that are NULL on the message (or that the table does
  not hold at all).

A message on which no conjunct of any subscription is TRUE came close to none: it is counted as
such, not given to an arbitrary subscription.

It all runs in Spark over the dead letters alone, in three jobs: each distinct conjunct of the
estate is evaluated once per message — for a few dead letters, every native conjunct in one array
expression; for many, as a "subscription" of `columns.tag_matches` (the routing plan: its index
evaluates for a message only the conjuncts its values can make TRUE, but planning it costs
seconds) — and the fallback ones by the routing UDF; the closest subscription is a fold over the
array of TRUE conjuncts (no shuffle), then the value of each deciding conjunct is computed only on
the messages it decided, and everything is counted per (subscription, conjunct, value).
"""
from __future__ import annotations

import dataclasses

from ...analysis.conjuncts import top_level_conjuncts, is_null_text
from ...binder import Binding
from ...compiler import compile_bound
from ...language.errors import SelectorError
from ...language.schema import to_schema
from ...parsing import parse
from .. import collisions
from ..filtering import filter_column
from .columns import fallback_matches, split_fallback, tag_matches
from .estate import plan_estate
from .subscriptions import Subscription

__all__ = ["dead_letter_reasons", "unreceived_messages", "SELECTOR_TRUE"]

#: The reason given when every conjunct of the closest subscription is TRUE.
SELECTOR_TRUE = ("every conjunct TRUE: the routing rules kept the message from it (outside the subscription's "
                 "lifetime, R4; an exclusive queue's inactive consumer, R11)")

_I_BITS = 20  # subscriptions per estate, at most 2^20 (the closeness key packs the index in 20 bits)
_CHUNK = 64  # WHEN branches per CASE of the value column


def unreceived_messages(report_input, *, grouped: bool):
    """The messages no subscription received, one row each, with the message columns.

    ``grouped``: a message can have several rows none of which is a delivery (WSO2's durable
    copies dead-lettered, R3): its rows are grouped by the message identity."""
    from pyspark.sql import functions as F

    dl = report_input.table
    if not grouped:
        dl = dl.where(F.col("__jms_msg").isNotNull())
    else:  # every row of a message: one delivery is enough to have been received
        dl = (dl.groupBy("__jms_id")
              .agg(F.bool_and(F.col("subscription").isNull() | (F.col("outcome") == "dead_letter")).alias("__jms_u"),
                   F.first("__jms_msg", ignorenulls=True).alias("__jms_msg"))
              .where(F.col("__jms_u")))
    return dl.select("__jms_msg.*")


def _int_array(values) -> str:
    return "array(" + ", ".join(f"{int(v)}L" for v in values) + ")" if values else "CAST(array() AS ARRAY<BIGINT>)"


def _key(i: str, n: str) -> str:
    """SQL: the closeness key of subscription ``i`` with ``n`` conjuncts TRUE (-1 for no subscription)."""
    nconj = f"element_at(__jms_nconj, CAST({i} AS INT) + 1)"
    return (f"IF({i} < 0, -1L, shiftleft(IF({n} = {nconj}, 1L, 0L), 50) + shiftleft(CAST({n} AS BIGINT), 40)"
            f" + shiftleft(CAST(1023 - ({nconj} - {n}) AS BIGINT), 30) + ({(1 << _I_BITS) - 1}L - {i}))")


def _plan_conjuncts(candidates, schema, dialect, binding: Binding):
    """``(conjuncts per candidate [[j]], texts [j], native, fallback)``: each distinct conjunct
    text planned once as a subscription named ``c<j>``; a candidate one of whose conjuncts does
    not compile alone is taken whole (one conjunct)."""
    texts: dict = {}
    per = []
    for _, compiled in candidates:
        per.append([texts.setdefault(c.text, len(texts)) for c in top_level_conjuncts(compiled.selector)])
    native, fallback, errors = plan_estate([Subscription(f"c{j}", t) for t, j in texts.items()], schema, dialect, binding)
    bad = {int(s.name[1:]) for s, _ in errors}
    if bad:
        redo = []
        for pos, (_, compiled) in enumerate(candidates):
            if bad & set(per[pos]):
                j = texts.setdefault(compiled.text, len(texts))
                per[pos] = [j]
                redo.append(Subscription(f"c{j}", compiled.text))
        more_native, more_fallback, _ = plan_estate(redo, schema, dialect, binding)
        native += more_native
        fallback += more_fallback
    return per, {j: t for t, j in texts.items()}, native, fallback


def _direct_matches(native, fallback):
    """Column ``array<string>``: the names of the conjuncts TRUE on a message, each native one
    evaluated on every message (no index to plan: the cheaper way for a few dead letters), the
    fallback ones by the routing UDF."""
    from pyspark.sql import functions as F

    parts = [F.when(F.expr(c.whole.sql), F.lit(s.name)) for s, c in native]
    names = F.filter(F.array(*parts), lambda x: x.isNotNull()) if parts else F.array().cast("array<string>")
    if fallback:
        names = F.concat(names, fallback_matches(split_fallback(fallback)))
    return names


def dead_letter_reasons(report_input, candidates: list, dialect, binding: Binding, *, grouped: bool,
                        direct: bool = True) -> dict:
    """``{"messages": messages no subscription received, "unattributed": those on which no
    conjunct of any subscription is TRUE, "reasons": [{"subscription", "conjunct", "position",
    "conjuncts", "value", "null", "missing", "messages"}]}`` (most messages first), or with a
    ``"note"`` when the reasons cannot be computed.

    ``direct``: evaluate every conjunct on every dead letter (planning the routing index of the
    conjuncts costs seconds; worth it only for many dead letters).
    ``candidates``: ``[(name, Compiled)]``, the subscriptions `route` created, in their order;
    ``conjunct`` is None and ``value`` "TRUE" when every conjunct was TRUE (`SELECTOR_TRUE`).
    ``null``: for UNKNOWN, the names the conjunct reads that were NULL on the messages;
    ``missing``: the names it reads that the table does not hold."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    dl = unreceived_messages(report_input, grouped=grouped)
    if not candidates or len(candidates) >= 1 << _I_BITS or collisions.has_collisions(dl):
        note = ("no subscription was created" if not candidates else
                "too many subscriptions" if len(candidates) >= 1 << _I_BITS else
                "the messages have columns Spark cannot tell apart")
        return {"messages": dl.count(), "unattributed": None, "reasons": [], "note": note}
    schema = to_schema(dl.schema)
    # a property the table cannot hold was reported when the subscriptions were routed: not again
    binding = dataclasses.replace(binding, unknown_properties="null")
    per, texts, native, fallback = _plan_conjuncts(candidates, schema, dialect, binding)
    uses: dict = {}
    for i, js in enumerate(per):
        for k, j in enumerate(js):
            uses.setdefault(j, []).append(i * 64 + k)
    nconj = [len(js) for js in per]
    zero = [i for i, m in enumerate(nconj) if m == 0]  # an empty selector: TRUE on every message
    seed = (((1 << 50) + (1023 << 30) + ((1 << _I_BITS) - 1 - zero[0])) if zero else -1)
    cols = [F.col(c) for c in ["`" + c.replace("`", "``") + "`" for c in dl.columns]]
    tagged = dl.withColumn("__jms_matches", _direct_matches(native, fallback)) if direct else \
        tag_matches(dl, native, fallback, sort=False)
    tagged = (tagged
              .withColumn("__jms_uses", F.expr("array(" + ", ".join(_int_array(uses.get(j, [])) for j in range(len(texts)))
                                               + ")" if texts else "CAST(array() AS ARRAY<ARRAY<BIGINT>>)"))
              .withColumn("__jms_nconj", F.expr(_int_array(nconj)))
              .withColumn("__jms_cj", F.expr("array(" + ", ".join(_int_array(js) for js in per) + ")")))
    tagged = tagged.withColumn("__jms_p", F.expr(
        "array_sort(flatten(transform(__jms_matches, x -> element_at(__jms_uses, CAST(substring(x, 2) AS INT) + 1))))"))
    tagged = tagged.withColumn("__jms_key", F.expr(
        f"aggregate(__jms_p, named_struct('i', -1L, 'n', 0, 'best', {seed}L), "
        f"(acc, p) -> IF(shiftright(p, 6) = acc.i, named_struct('i', acc.i, 'n', acc.n + 1, 'best', acc.best), "
        f"named_struct('i', shiftright(p, 6), 'n', 1, 'best', greatest(acc.best, {_key('acc.i', 'acc.n')}))), "
        f"acc -> greatest(acc.best, {_key('acc.i', 'acc.n')}))"))
    tagged = tagged.withColumn("__jms_i", F.expr(
        f"IF(__jms_key < 0, NULL, {(1 << _I_BITS) - 1}L - (__jms_key & {(1 << _I_BITS) - 1}L))"))
    tagged = tagged.withColumn("__jms_mask", F.expr(
        "aggregate(filter(__jms_p, p -> shiftright(p, 6) = __jms_i), 0L, (a, p) -> a | shiftleft(1L, CAST(p & 63 AS INT)))"))
    tagged = tagged.withColumn("__jms_k", F.expr("IF(__jms_i IS NULL, NULL, bit_count((~__jms_mask & (__jms_mask + 1)) - 1))"))
    tagged = tagged.withColumn("__jms_j", F.expr(
        "IF(__jms_k < element_at(__jms_nconj, CAST(__jms_i AS INT) + 1), "
        "element_at(element_at(__jms_cj, CAST(__jms_i AS INT) + 1), __jms_k + 1), -1L)"))
    decided = tagged.select(*cols, F.col("__jms_i").cast("int").alias("__jms_i"), F.col("__jms_k").cast("int").alias("__jms_k"),
                            F.col("__jms_j").alias("__jms_j")).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        stats = decided.groupBy("__jms_i", "__jms_k", "__jms_j").agg(F.count(F.lit(1)).alias("n")).collect()
        total = sum(r["n"] for r in stats)
        unattributed = sum(r["n"] for r in stats if r["__jms_i"] is None)
        deciding = sorted({r["__jms_j"] for r in stats if r["__jms_j"] is not None and r["__jms_j"] >= 0})
        reasons = []
        for r in stats:  # the selector was TRUE: no conjunct to evaluate
            if r["__jms_i"] is not None and r["__jms_j"] is not None and r["__jms_j"] < 0:
                reasons.append(_reason(candidates, r["__jms_i"], None, nconj, "TRUE", [], [], r["n"]))
        if deciding:
            planned = {int(s.name[1:]): c for s, c in native + fallback}
            value, nulls, missing = _value_columns(deciding, planned, schema, dialect, binding)
            rows = (decided.where(F.col("__jms_j") >= 0)
                    .groupBy("__jms_i", "__jms_k", "__jms_j", value.alias("v"), nulls.alias("nulls"))
                    .agg(F.count(F.lit(1)).alias("n")).collect())
            for r in rows:
                text = texts[r["__jms_j"]]
                reasons.append(_reason(candidates, r["__jms_i"], (r["__jms_k"], text), nconj,
                                       {0: "FALSE", 1: "TRUE", 2: "UNKNOWN"}[r["v"]],
                                       r["nulls"].split(",") if r["nulls"] else [], missing.get(r["__jms_j"], []), r["n"]))
    finally:
        decided.unpersist()
    reasons.sort(key=lambda x: (-x["messages"], x["subscription"], x["position"] or 0, x["value"], x["null"]))
    return {"messages": total, "unattributed": unattributed, "reasons": reasons}


def _reason(candidates, i, conjunct, nconj, value, null, missing, count) -> dict:
    return {"subscription": candidates[i][0], "conjunct": None if conjunct is None else conjunct[1],
            "position": None if conjunct is None else conjunct[0] + 1, "conjuncts": nconj[i], "value": value,
            "null": null, "missing": list(missing), "messages": count}


def _value_columns(deciding: list, planned: dict, schema, dialect, binding: Binding):
    """``(value, nulls, missing)``: Column INT of the deciding conjunct's value on the message (0
    FALSE, 1 TRUE, 2 UNKNOWN), Column STRING of the names it reads that are NULL there (comma
    separated), and ``{j: names the table does not hold}``. ``planned``: ``{j: Compiled}``."""
    from pyspark.sql import functions as F

    j = F.col("__jms_j")
    chunks_v, chunks_n, missing = [], [], {}
    for start in range(0, len(deciding), _CHUNK):
        v = nn = None
        for x in deciding[start:start + _CHUNK]:
            compiled = planned[x]
            code = F.coalesce(filter_column(compiled)[0].cast("int"), F.lit(2))
            absent = [name for name, ref in compiled.bound.refs.items() if ref.access == "missing" and ref.default is None]
            if absent:
                missing[x] = absent
            checks = []
            for name in compiled.bound.refs:
                if name in absent:
                    continue
                try:
                    is_null = compile_bound(parse(is_null_text(name, compiled.selector), dialect=dialect), schema,
                                            binding, warn=False)
                except SelectorError:
                    continue
                checks.append(F.when(filter_column(is_null)[0], F.lit(name)))
            names = F.concat_ws(",", *checks) if checks else F.lit("")
            v = F.when(j == x, code) if v is None else v.when(j == x, code)
            nn = F.when(j == x, names) if nn is None else nn.when(j == x, names)
        chunks_v.append(v)
        chunks_n.append(nn)
    value = chunks_v[0] if len(chunks_v) == 1 else F.coalesce(*chunks_v)
    nulls = chunks_n[0] if len(chunks_n) == 1 else F.coalesce(*chunks_n)
    # the NULL names matter only for UNKNOWN
    return value, F.when(value == 2, nulls).otherwise(F.lit("")), missing
