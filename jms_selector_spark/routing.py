"""Route a message archive to subscriptions the way a broker does.

``route(messages, subscriptions, mode="topic" | "queue")`` returns the message columns plus
``subscription`` (STRING):

- **topic**: one row per (message, matching subscription): every subscriber gets a copy.
- **queue**: exactly one row per message: it goes to one of the matching subscriptions, in
  turn (round-robin, defined below).
- a message that matches no subscription appears once with ``subscription`` NULL: the dead
  letter. In topic mode this happens only when some subscription is durable (``durable``
  defaults to true); if every subscription is non-durable, an unmatched message is dropped,
  as a broker drops it.

**Round-robin, deterministically.** A broker hands each message to the next consumer in turn
among those whose selector matches. Replayed over an archive this is defined as: messages that
match the same *set* of subscriptions ``S`` (sorted by name) are numbered 0, 1, 2… in
``order_by`` order (``JMSTimestamp``, then ``JMSMessageID`` when present, as tie-breakers), and
message number k goes to ``S[k mod |S|]``. When every consumer of a queue matches the same
messages (competing consumers) this is exactly the broker's rotation; when their selectors
overlap partially, each overlap is shared fairly. It needs one window over the matching sets,
not a sequential pass, so it runs in parallel.

**One scan.** Every selector that translates natively becomes one ``CASE WHEN <fragment> THEN
'<name>' END`` in a single projection (a single pass over the data, Catalyst-optimised, compiled:
no higher-order function, see `route`); the
selectors that need the vectorized fallback are evaluated together by one Arrow UDF that
returns the names of those that match. Invalid selectors are reported (logged, and returned by
`subscription_errors`) and the rest still route. Nothing is lost: in queue mode every input
message appears exactly once.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Iterable, Mapping

from .dialects import Dialect, get_dialect
from .errors import SelectorError, UnsupportedSelectorError
from .selector import parse

__all__ = ["Subscription", "route", "subscription_errors", "normalize_subscriptions"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Subscription:
    name: str
    selector: str
    durable: bool = True


def normalize_subscriptions(subscriptions) -> list:
    """Subscriptions as a list of `Subscription`, from a dict, a list or a DataFrame.

    Accepted: ``{name: selector}``; a list of selectors (named ``sub-1``, ``sub-2``…), of
    ``(name, selector)`` or ``(name, selector, durable)`` tuples, or of `Subscription`; a
    DataFrame with columns ``name``, ``selector`` and optionally ``durable``.
    """
    if hasattr(subscriptions, "collect") and hasattr(subscriptions, "columns"):
        cols = subscriptions.columns
        if "name" not in cols or "selector" not in cols:
            raise ValueError(f"a subscriptions DataFrame needs columns 'name' and 'selector' (has {cols})")
        fields = ["name", "selector"] + (["durable"] if "durable" in cols else [])
        rows = subscriptions.select(*fields).collect()
        subs = [Subscription(r["name"], r["selector"], True if len(fields) == 2 or r["durable"] is None else bool(r["durable"]))
                for r in rows]
    elif isinstance(subscriptions, Mapping):
        subs = [Subscription(str(k), v) for k, v in subscriptions.items()]
    else:
        subs = []
        for i, item in enumerate(subscriptions):
            if isinstance(item, Subscription):
                subs.append(item)
            elif isinstance(item, str):
                subs.append(Subscription(f"sub-{i + 1}", item))
            else:
                subs.append(Subscription(str(item[0]), item[1], bool(item[2]) if len(item) > 2 else True))
    names = [s.name for s in subs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"subscription names must be unique; repeated: {dupes}")
    return subs


def subscription_errors(subscriptions, *, dialect: "str | Dialect" = "jms") -> dict:
    """{subscription name: error text with position} for the subscriptions whose selector is invalid."""
    d = get_dialect(dialect)
    out = {}
    for s in normalize_subscriptions(subscriptions):
        try:
            if s.selector is not None:
                parse(s.selector, dialect=d)
        except SelectorError as exc:
            out[s.name] = f"{type(exc).__name__}: {exc}"
    return out


def _default_order(columns) -> list:
    return [c for c in ("JMSTimestamp", "JMSMessageID") if c in columns]


def route(messages, subscriptions, *, mode: str = "topic", dialect: "str | Dialect" = "jms",
          order_by: "str | Iterable[str] | None" = "JMSTimestamp", **binding):
    """Route ``messages`` to ``subscriptions``; see the module docstring for the rules.

    Parameters
    ----------
    messages : DataFrame
        The archive (headers and properties as in the data model).
    subscriptions : dict, list or DataFrame
        ``{name: selector}``, ``[(name, selector[, durable])]`` or a DataFrame
        ``(name, selector[, durable])``.
    mode : {"topic", "queue"}
    dialect : str or Dialect
    order_by : str or list of str
        Message order for the queue round-robin (ties broken by ``JMSMessageID`` if present).
    **binding
        ``headers=``, ``properties=``: how the table holds messages (see `selector_to_sql`).

    Returns
    -------
    DataFrame
        The message columns plus ``subscription`` (NULL: dead letter).

    Notes
    -----
    Cost: see `jms_selector_spark.route_plan` (predicate index: per message only the candidate
    subscriptions of its access value are evaluated; code kept JIT-sized under default settings).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import Window

    from .backends.spark_sql import selector_to_sql
    from .route_plan import matching_names

    if mode not in ("topic", "queue"):
        raise ValueError(f"mode must be 'topic' or 'queue', not {mode!r}")
    d = get_dialect(dialect)
    subs = normalize_subscriptions(subscriptions)
    schema = messages.schema
    native, fallback, errors = [], [], {}
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
    log.info("routing %d subscriptions (%d native, %d fallback, %d invalid), mode=%s",
             len(subs), len(native), len(fallback), len(errors), mode)

    matches = matching_names(native, fallback, schema, dialect=d, binding=binding)
    tagged = messages.withColumn("__jms_matches", matches)
    any_durable = any(s.durable for s in subs) or not subs
    out_cols = [F.col("`" + c.replace("`", "``") + "`") for c in messages.columns]
    if mode == "topic":
        if not any_durable:
            tagged = tagged.where(F.size("__jms_matches") > 0)
        routed = tagged.select(*out_cols, F.explode_outer("__jms_matches").alias("subscription"))
        return routed
    order = [order_by] if isinstance(order_by, str) else list(order_by or [])
    order = [c for c in order if c in messages.columns] + [c for c in _default_order(messages.columns) if c not in order]
    if not order:
        order_cols = [F.monotonically_increasing_id()]
    else:
        order_cols = [F.col("`" + c.replace("`", "``") + "`").asc_nulls_last() for c in order]
    key = F.concat_ws("\u0000", "__jms_matches")
    w = Window.partitionBy(key).orderBy(*order_cols)
    numbered = tagged.withColumn("__jms_k", F.row_number().over(w) - 1)
    pick = F.when(F.size("__jms_matches") > 0,
                  F.element_at("__jms_matches", (F.col("__jms_k") % F.size("__jms_matches")).cast("int") + 1))
    return numbered.select(*out_cols, pick.alias("subscription"))

