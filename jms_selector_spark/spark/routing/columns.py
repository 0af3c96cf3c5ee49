"""The matching names as a column: one scan of the messages, the whole plan as Spark expressions.

`tag_matches` adds to the messages the array of the names of the subscriptions each one matches:
the templates' expressions over their indexes (`templates`, `render_templates`), the index plan's
CASEs (`index`, `render_index`), and the fallback subscriptions' names from one Arrow UDF. That
UDF evaluates each fallback subscription's non-native conjuncts (its *residual*) only on the rows
where its native conjuncts (its *gate*, a boolean column Spark computes) are TRUE
(`compiler.Compiled.conjuncts`): exact, since a top-level AND is TRUE exactly when each conjunct
is, and route only asks for TRUE. Rows that pass no gate cross to Python as NULLs when every
fallback subscription has a gate; subscriptions with the same gate share its column.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from ...backends.sql.render import sql_identifier
from ...compiler import Plan
from ...language import nodes as n
from ...language.schema import to_schema
from .index import plan_routing
from .keys import plan_keys
from .render_index import EMPTY_NAMES, GUARD, guard_column, needs_guard, own_method, own_parts, plan_sql
from .render_templates import key_sql, lookup_sql, number_sql, template_sql, value_sql
from .templates import plan_templates
from .tuning import DEFAULT, RoutingTuning

__all__ = ["FallbackSplit", "split_fallback", "fallback_matches", "own_methods", "string_columns", "numeric_columns",
           "template_plan", "apply_templates", "tag_matches", "matching_names"]

_NUMERIC = {"byte", "short", "integer", "long", "float", "double"}


@dataclass(frozen=True)
class FallbackSplit:
    """One fallback subscription as route runs it: the UDF evaluates ``residual`` (a
    `compiler.Piece`) where ``gate`` (the AND of its native conjuncts' SQL; empty: every
    message) is TRUE."""

    name: str
    residual: object
    residual_text: str
    gate: tuple = ()  # native SQL of each gate conjunct
    gate_text: tuple = ()  # ... and its selector text (explain)

    @property
    def gate_sql(self) -> "str | None":
        return " AND ".join(f"({sql})" for sql in self.gate) if self.gate else None


def split_fallback(fallback) -> list:
    """A `FallbackSplit` per ``(subscription, Compiled)`` of ``fallback``, in order."""
    out = []
    for s, compiled in fallback:
        gate, residual = compiled.conjuncts()
        texts = tuple(_text(compiled, p.node) for p in gate)
        residual_text = compiled.piece_text(Plan("fallback", residual.node, piece=residual)) if gate else compiled.text
        out.append(FallbackSplit(s.name, residual, residual_text, tuple(p.sql for p in gate), texts))
    return out


def _text(compiled, node) -> str:
    text = compiled.source_text(node)
    return f"({text})" if isinstance(node, n.Or) else text


def fallback_matches(splits):
    """Column ``array<string>``: the names of the ``splits`` (`split_fallback`) that match a message."""
    from pyspark.sql import functions as F

    from ...backends.udf import routing_udf, source_args

    gates = list(dict.fromkeys(s.gate_sql for s in splits if s.gate_sql))
    position = {sql: i for i, sql in enumerate(gates)}
    udf, cols = routing_udf([(s.name, s.residual) for s in splits], gates=[position.get(s.gate_sql) for s in splits])
    gate_cols = [F.coalesce(F.expr(sql), F.lit(False)) for sql in gates]
    args = source_args(cols)
    if gates and all(s.gate_sql for s in splits):  # one scan: a row no gate passes crosses as NULLs
        passes = reduce(lambda a, b: a | b, gate_cols)
        args = [F.when(passes, a) for a in args]
    return udf(*gate_cols, *args)


def own_methods(session, tuning: RoutingTuning = DEFAULT) -> bool:
    """Whether the plan's parts are written as methods of their own (tuning feature
    ``own_methods``, and the session's subexpression elimination on: without it each would be
    evaluated twice, and all in one method). ``session`` None: Spark's default (on)."""
    if not tuning.on("own_methods"):
        return False
    if session is None:
        return True
    try:
        conf = session.conf.get("spark.sql.subexpressionElimination.enabled", "true")
    except Exception:  # a session that cannot tell: the guard, always correct
        return False
    return str(conf).strip().lower() == "true"


def _fields(schema):
    """The top-level fields of a Spark schema as they are (collations kept), else of `to_schema`'s."""
    if type(schema).__module__.startswith("pyspark"):
        return schema.fields
    return to_schema(schema).fields


def string_columns(schema) -> frozenset:
    """The top-level STRING columns of the default collation (a Spark schema, or any schema form)."""
    return frozenset(f.name for f in _fields(schema) if f.dataType.typeName() == "string"
                     and getattr(f.dataType, "collation", "UTF8_BINARY") in (None, "UTF8_BINARY"))


def numeric_columns(schema) -> frozenset:
    """The top-level numeric columns (never DECIMAL) of a schema."""
    return frozenset(f.name for f in _fields(schema) if f.dataType.typeName() in _NUMERIC)


def template_plan(native, schema, tuning: RoutingTuning = DEFAULT):
    """The `templates.TemplatePlan` of ``native`` on ``schema``, or None when it templates nothing
    (or the features ``index`` / ``templates`` are off)."""
    if not (tuning.on("index") and tuning.on("templates")):
        return None
    tp = plan_templates(native, string_columns(schema), tuning)
    return tp if tp.accesses else None


def apply_templates(messages, plan, tuning: RoutingTuning = DEFAULT):
    """(``messages`` with each value number ``__jms_v<i>`` and each index's key number
    ``__jms_ix<a>_id``, [SQL of each template's names], columns to drop) for the
    `templates.TemplatePlan` ``plan``."""
    from pyspark.sql import functions as F

    schema = messages.schema
    kp = plan_keys(plan, string_columns(schema), tuning)
    for v, c in kp.columns.items():
        messages = messages.withColumn(c, F.expr(number_sql(v, kp.numbers[v]) if v in kp.zeros else
                                                 value_sql(v, kp.numbers[v])))
    parts, drop = [], list(kp.columns.values())
    numeric = numeric_columns(schema)
    for a, access in enumerate(kp.accesses):
        sql = (key_sql(access, kp.numbers, kp.columns, kp.zeros, tuning) if tuning.on("value_numbers") else None)
        messages = messages.withColumn(f"__jms_ix{a}_id", F.expr(sql or lookup_sql(access)))
        parts += template_sql(access, a, numeric, tuning)
        drop.append(f"__jms_ix{a}_id")
    return messages, parts, drop


def tag_matches(messages, native, fallback, *, tuning: RoutingTuning = DEFAULT, column: str = "__jms_matches",
                sort: bool = True):
    """``messages`` plus ``column``: the names of the subscriptions each message matches, one scan.

    ``native`` ``[(subscription, Compiled)]`` native as a whole, ``fallback`` the others. Sorted
    when ``sort`` (the queue modes: a set's key and rotation order); a topic pass only explodes
    them, unsorted."""
    from pyspark.sql import functions as F

    schema, drop, parts = messages.schema, [], []
    tp = template_plan(native, schema, tuning)
    if tp is not None:
        native = list(tp.rest)
        messages, parts, drop = apply_templates(messages, tp, tuning)
    own = own_methods(messages.sparkSession, tuning)
    plan = plan_routing(native, fallback, tuning)
    guard = guard_column(schema) if needs_guard(plan, own, tuning) else None
    # the templates and the index plan in parts, each compiled as a method of its own (no guard),
    # unless the index plan alone is one JIT-able method
    cases = own_parts(plan, tuning) if own and (tp is not None or guard) else None
    empty = F.array().cast("array<string>")
    if cases is not None:
        exprs = [F.expr(own_method(p)) for p in cases + parts]
        matches = F.concat(*exprs) if exprs else empty
    else:
        sql = plan_sql(plan, guard)
        matches = F.expr(sql) if sql is not None else empty
    if tp is not None and cases is None:
        matches = F.concat(matches, *[F.expr(p) for p in parts])
        outer = guard_column(schema) if guard is None else None
        if outer is not None:  # the templates' code is too large for one JIT-able whole-stage method
            matches = F.when(F.expr(GUARD.format(col=sql_identifier(outer))), matches).otherwise(F.expr(EMPTY_NAMES))
    if fallback:
        matches = F.concat(matches, fallback_matches(split_fallback(fallback)))
    return messages.withColumn(column, F.sort_array(matches) if sort else matches).drop(*drop)


def matching_names(native, fallback, schema, *, tuning: RoutingTuning = DEFAULT):
    """Column ``array<string>``: the sorted names of the subscriptions a message matches, without
    templates (what `migration_report` computes for each of two dialects in one projection)."""
    from pyspark.sql import functions as F

    from ...backends.udf import routing_udf, source_args

    plan = plan_routing(native, fallback, tuning)
    sql = plan_sql(plan, guard_column(schema) if needs_guard(plan, True, tuning) else None)
    matches = F.expr(sql) if sql is not None else F.array().cast("array<string>")
    if fallback:
        udf, cols = routing_udf([(s.name, compiled.piece(compiled.core)) for s, compiled in fallback])
        matches = F.concat(matches, udf(*source_args(cols)))  # only the columns they read
    return F.sort_array(matches)
