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

from .binder import Binding
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


#: From about this many native selectors on, the whole-stage-codegen method of the routing
#: projection exceeds HotSpot's 8,000-byte JIT limit (measured on realistic selectors, ~260
#: bytes each: 25 → 7,359 bytes, 30 → 8,030, 100 → 25,826; 300 no longer compile).
_JIT_SELECTORS = 28
_HUGE_METHOD_CONF = "spark.sql.codegen.hugeMethodLimit"


def _warn_huge_method(messages, n_native: int) -> None:
    try:
        limit = int(messages.sparkSession.conf.get(_HUGE_METHOD_CONF))
    except Exception:  # not readable (e.g. a remote session): say nothing
        return
    if limit > 8000:
        log.warning("routing %d native selectors in one projection: set %s=8000 (Spark's advice for "
                    "HotSpot; now %d) so that Spark does not run it as one method too large to be "
                    "JIT-compiled (measured 4.4x slower with 100 selectors)", n_native, _HUGE_METHOD_CONF, limit)


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
    Cost (measured, Spark 4.3, 2 cores): all native selectors are one compiled projection.
    Whole-stage codegen puts it in *one* Java method, which HotSpot does not JIT-compile above
    8,000 bytes of bytecode (from ~30 selectors on) and janino cannot compile above 64 KB (from
    ~250 on: Spark logs "Failed to compile" and runs the projection as split, compiled
    methods, which is fine). In between, the projection runs in the JVM's bytecode interpreter:
    with 100 selectors routing was 4.4x slower than with ``spark.sql.codegen.hugeMethodLimit=8000``
    (Spark's advice on HotSpot), which makes Spark split such stages instead. `route` logs a
    warning when that setting would help.
    """
    from pyspark.sql import functions as F
    from pyspark.sql import Window

    from .backends.spark_sql import selector_to_sql, sql_string
    from .backends.udf import routing_udf, source_args

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

    if len(native) >= _JIT_SELECTORS:
        _warn_huge_method(messages, len(native))
    if native:
        # One SQL expression (one parse). No higher-order function: array_compact / array_sort
        # are lambdas (CodegenFallback), under which Spark *interprets* every CASE of the array,
        # row by row (measured: 1,000 selectors, ~7x slower). array_except(..., [NULL]) drops the
        # non-matches (it also de-duplicates, a no-op: names are unique) and sort_array sorts;
        # both are code-generated.
        cases = ", ".join(f"CASE WHEN ({frag}) THEN {sql_string(s.name)} END" for s, frag in native)
        matches = F.expr(f"array_except(array({cases}), array(CAST(NULL AS STRING)))")
    else:
        matches = F.array().cast("array<string>")
    if fallback:
        udf, cols = routing_udf([(s.name, s.selector) for s in fallback], d, schema, Binding.of(**binding))
        matches = F.concat(matches, udf(*source_args(cols)))  # only the columns they read
    matches = F.sort_array(matches)
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

