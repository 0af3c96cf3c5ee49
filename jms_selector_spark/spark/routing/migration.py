"""`migration_report`: which subscriptions change meaning when an archive moves to another broker.

One pass over the messages: both dialects' matching subscriptions are computed in one projection
(each with `columns.matching_names`, the machinery of `route`: native CASE branches behind the
predicate index, the Arrow UDF for selectors without a native form), the subscriptions' time
windows are applied as `route` applies them, and one aggregation counts per subscription the
messages delivered by both dialects, by the old one only and by the new one only, with the first
message (in ``JMSTimestamp``, ``JMSMessageID`` order when the table has them) of each difference.

A subscription the old or the new broker would not create (an invalid selector there, a duplicate
or empty name, a selector it refuses on a Direct transport) receives nothing on that side: its
messages count as delivered by the other side only, and the error is reported. Columns Spark
cannot tell apart by name (a column twice, case-only twins under caseSensitive=false) are handled
as `route` handles them: hidden when no selector reads them, else the subscription reading an
unresolvable one is refused on that side. The result equals two `route` runs (topic mode,
``outcome = 'delivered'``) diffed per subscription.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...backends.sql.render import sql_identifier, sql_string
from ...binder import Binding, check_options
from ...language.dialects import Dialect, get_dialect
from ...language.schema import to_schema
from .. import collisions
from ..streams import refuse_stream
from .checks import check_subscriptions
from .columns import matching_names
from .estate import plan_estate
from .outcomes import time_sql, window_sql
from .rules import resolve_rules
from .subscriptions import normalize_subscriptions, subscription_key

__all__ = ["SubscriptionChange", "MigrationReport", "migration_report", "format_report"]

_KINDS = ("both", "only_old", "only_new")


@dataclass
class SubscriptionChange:
    """One subscription's outcome: message counts and an example message of each difference.

    ``example_only_old`` / ``example_only_new`` are ``{column: value}`` of the columns the
    selector reads (in either dialect) plus ``JMSMessageID`` when present;
    None when there is no such message.
    """

    name: str
    selector: "str | None"
    both: int = 0
    only_old: int = 0
    only_new: int = 0
    error_old: "str | None" = None
    error_new: "str | None" = None
    example_only_old: "dict | None" = None
    example_only_new: "dict | None" = None

    @property
    def changed(self) -> bool:
        """Delivery differs on this archive, or the subscription is valid in one dialect only."""
        return bool(self.only_old or self.only_new) or (self.error_old is None) != (self.error_new is None)

    def to_dict(self) -> dict:
        return {"name": self.name, "selector": self.selector, "both": self.both, "only_old": self.only_old,
                "only_new": self.only_new, "error_old": self.error_old, "error_new": self.error_new,
                "changed": self.changed, "example_only_old": self.example_only_old,
                "example_only_new": self.example_only_new}


@dataclass
class MigrationReport:
    """`migration_report`'s result: ``str()`` is a table a person reads, ``to_dict()`` JSON-ready."""

    from_dialect: str
    to_dialect: str
    messages: int
    subscriptions: list = field(default_factory=list)

    @property
    def changed(self) -> list:
        """The subscriptions whose delivery (or validity) changes."""
        return [s for s in self.subscriptions if s.changed]

    def to_dict(self) -> dict:
        return {"from": self.from_dialect, "to": self.to_dialect, "messages": self.messages,
                "changed": len(self.changed), "subscriptions": [s.to_dict() for s in self.subscriptions]}

    def __str__(self):
        return format_report(self)


def _cell(v) -> str:
    from ...analysis.typed_message import format_value

    return format_value(v)


def format_report(report: MigrationReport) -> str:
    """The report as text: one line per subscription, then each change with its examples."""
    a, b = report.from_dialect, report.to_dialect
    rows = [("subscription", "both", f"only {a}", f"only {b}", "status")]
    for s in report.subscriptions:
        status = ("invalid in both" if s.error_old and s.error_new else f"invalid in {a}" if s.error_old
                  else f"invalid in {b}" if s.error_new else "changes" if s.changed else "same")
        rows.append((s.name, f"{s.both:,}", f"{s.only_old:,}", f"{s.only_new:,}", status))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = [f"migration {a} -> {b}: {report.messages:,} messages, {len(report.subscriptions)} subscriptions, "
             f"{len(report.changed)} changed"]
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) if i in (0, 4) else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    for s in report.changed:
        lines.append("")
        lines.append(f"{s.name}: {s.selector}")
        for side, err in ((a, s.error_old), (b, s.error_new)):
            if err:
                lines.append(f"  invalid in {side}: " + err.splitlines()[0])
        for side, ex, count in ((a, s.example_only_old, s.only_old), (b, s.example_only_new, s.only_new)):
            if ex is not None:
                shown = ", ".join(f"{k} = {_cell(v)}" for k, v in ex.items())
                lines.append(f"  delivered only by {side} ({count:,}), e.g. {shown}")
    return "\n".join(lines)


def _side(subs: list, d: Dialect, schema, binding: Binding):
    """(native [(sub, Compiled)], fallback [(sub, Compiled)], {key: error}) of one dialect, as
    `route` splits them."""
    rules = resolve_rules(None, d)
    ok, errors = check_subscriptions(subs, "topic", rules)
    native, fallback, refused = plan_estate(ok, schema, d, binding)
    errors.update((s.name, e) for s, e in refused)
    return native, fallback, errors


def _read_columns(s, sides) -> list:
    """The top-level columns subscription ``s``'s selector reads, in either dialect."""
    out: dict = {}
    for planned in sides:
        for other, compiled in planned:
            if other is s:
                out.update(dict.fromkeys(compiled.bound.source_columns()))
    return list(out)


def migration_report(messages, subscriptions, from_dialect: "str | Dialect", to_dialect: "str | Dialect", *,
                     time_column: str = "JMSTimestamp", **binding) -> MigrationReport:
    """Per subscription: messages delivered by both dialects, only by the old, only by the new.

    Parameters
    ----------
    messages : DataFrame
        The archive, as for `route`.
    subscriptions : dict, list or DataFrame
        As for `route` (``{name: selector}``, ``[(name, selector)]``, `Subscription` values, a
        DataFrame ``(name, selector[, attributes])``); topic subscriptions (time windows apply).
    from_dialect, to_dialect : str or Dialect
        The broker the subscriptions run on today, and the one they move to.
    time_column : str
        The message time compared with ``subscribed_at``/``unsubscribed_at``.
    **binding
        ``headers=``, ``properties=``: how the table holds messages (see `selector_to_sql`).

    Returns
    -------
    MigrationReport
    """
    from pyspark.sql import functions as F

    refuse_stream(messages, "migration_report", "run it on the archive the stream lands in (spark.read), or route the "
                  "stream once per dialect with route()")
    old, new = get_dialect(from_dialect), get_dialect(to_dialect)
    subs = normalize_subscriptions(subscriptions)
    schema, b = to_schema(messages.schema), Binding.of(**binding)
    if subs:
        check_options(schema, b)
    n_old, f_old, e_old = _side(subs, old, schema, b)
    n_new, f_new, e_new = _side(subs, new, schema, b)
    sides = (n_old + f_old, n_new + f_new)  # what each selector reads, before any is refused below
    if collisions.has_collisions(messages):  # as route: hide the colliding columns no selector reads
        readers = [((s.name, old.name), c) for s, c in n_old + f_old] + [((s.name, new.name), c) for s, c in n_new + f_new]
        messages, _, refused = collisions.hide_for(messages, readers)
        for d, native, fallback, errors in ((old, n_old, f_old, e_old), (new, n_new, f_new, e_new)):
            gone = {name: err for (name, side), err in refused.items() if side == d.name}
            errors.update(gone)
            native[:] = [(s, c) for s, c in native if s.name not in gone]
            fallback[:] = [(s, c) for s, c in fallback if s.name not in gone]
    spark_schema = messages.schema
    m_old = matching_names(n_old, f_old, spark_schema)
    m_new = matching_names(n_new, f_new, spark_schema)
    timed = any(s.subscribed_at is not None or s.unsubscribed_at is not None for s in subs)
    t = time_sql(spark_schema, time_column) if timed else None
    windows = [(s, window_sql(s, t, "topic")) for s in subs] if t is not None else []
    if any(w for _, w in windows):  # the messages outside a subscription's window, as route drops them
        outside = F.expr("array(" + ", ".join(f"CASE WHEN {w} THEN {sql_string(s.name)} END"
                                              for s, w in windows if w) + ")")
        m_old, m_new = F.array_except(m_old, outside), F.array_except(m_new, outside)
    order = [c for c in ("JMSTimestamp", "JMSMessageID") if c in messages.columns]
    key = F.struct(*[F.col(sql_identifier(c)) for c in order]) if order else F.monotonically_increasing_id()
    message = F.struct(*[F.col(sql_identifier(c)) for c in messages.columns])
    tagged = messages.select(m_old.alias("o"), m_new.alias("n"), key.alias("k"), message.alias("m"))
    entries = F.expr(
        "concat(array(named_struct('name', CAST(NULL AS STRING), 'kind', 'message')), "
        "transform(array_intersect(o, n), x -> named_struct('name', x, 'kind', 'both')), "
        "transform(array_except(o, n), x -> named_struct('name', x, 'kind', 'only_old')), "
        "transform(array_except(n, o), x -> named_struct('name', x, 'kind', 'only_new')))")
    exploded = tagged.select(F.explode(entries).alias("e"), "k", "m").select("e.name", "e.kind", "k", "m")
    example = F.when(F.col("kind").isin("only_old", "only_new"), F.col("m"))
    rows = exploded.groupBy("name", "kind").agg(F.count(F.lit(1)).alias("count"),
                                                F.min_by(example, F.when(example.isNotNull(), F.col("k"))).alias("example")
                                                ).collect()
    total, counts = 0, {}
    for r in rows:
        if r["kind"] == "message":
            total = r["count"]
        else:
            counts[(r["name"], r["kind"])] = (r["count"], r["example"])
    report = MigrationReport(old.name, new.name, total)
    for i, s in enumerate(subs):
        k = subscription_key(s, i)
        change = SubscriptionChange(k, s.selector, error_old=e_old.get(k), error_new=e_new.get(k))
        keep = _read_columns(s, sides) + [c for c in ("JMSMessageID",)
                                                                   if c in messages.columns]
        if change.error_old is None or change.error_new is None:  # a valid name: its rows are in the arrays
            for kind in _KINDS:
                count, ex = counts.get((s.name, kind), (0, None))
                setattr(change, kind, count)
                if kind != "both" and ex is not None:
                    full = ex.asDict(recursive=True)
                    setattr(change, f"example_{kind}", {c: full[c] for c in dict.fromkeys(keep) if c in full})
        report.subscriptions.append(change)
    return report
