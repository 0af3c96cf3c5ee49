"""Spark entry points: translate a selector for a DataFrame, or filter one with it.

pyspark is imported only when a function that needs it is called, so the package itself imports
without Spark (``selector_to_sql`` and ``explain_filter`` never need it).
"""
from __future__ import annotations

import logging

from ..binder import Binding, bind, check_options, to_schema, unknown_property_refs, warn_unknown_properties
from ..language.dialects import Dialect
from ..frontend.selector import Selector
from ..parsing import as_selector

__all__ = ["selector_to_sql", "selector_to_column", "jms_filter", "explain_filter"]

log = logging.getLogger(__name__)


def selector_to_sql(selector, schema=None, *, dialect: "str | Dialect | None" = None, **binding) -> str:
    """See `jms_selector_spark.backends.sql.generator.selector_to_sql`."""
    from ..backends.sql.generator import selector_to_sql as _to_sql

    return _to_sql(selector, schema, dialect=dialect, **binding)


def selector_to_column(selector, schema, *, dialect: "str | Dialect | None" = None, **binding):
    """A boolean Column (NULL = UNKNOWN): ``F.expr`` of the selector's native SQL (see
    `selector_to_sql`); `UnsupportedSelectorError` when it has no native form.

    The planner decides (`hybrid.decide`). A selector whose SQL would nest deeper than Spark's
    parser takes (`SelectorTooComplexError`) becomes `jms_filter`'s hybrid Column instead: the
    boolean skeleton built as Columns, the parts Spark can parse native, the too-deep parts in
    the vectorized fallback UDF.
    """
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    from ..language.errors import SelectorTooComplexError
    from .hybrid import decide

    sel = as_selector(selector, dialect)
    if schema is None:  # flat columns guessed from use (selector_to_sql warns which)
        return F.expr(selector_to_sql(sel, None, **binding))
    schema, b = to_schema(schema), Binding.of(**binding)
    check_options(schema, b)
    bound = bind(sel, schema, b)
    refuse_ambiguous([f.name for f in schema.fields], bound, SparkSession.getActiveSession())
    warn_unknown_properties(bound)
    plan = decide(bound)
    if plan.is_native:
        return F.expr(plan.sql)
    if not isinstance(plan.reason, SelectorTooComplexError):
        raise plan.reason
    log.info("selector_to_column: %s", plan.reason.message)
    return hybrid_filter(sel, schema, b)[0]


def hybrid_filter(sel: Selector, schema, binding: Binding):
    """`hybrid.filter_column` of the `sql.limits.simplify`-ed selector, or, when its Column
    skeleton plus its deepest native fragment would still nest deeper than Spark takes
    (`sql.limits.MAX_SQL_DEPTH`), one vectorized fallback UDF for the whole selector."""
    from .hybrid import Plan, filter_column, plan_filter
    from ..backends.sql.limits import MAX_SQL_DEPTH, plan_depth, simplify

    sel = simplify(sel)
    plan = plan_filter(sel, schema, binding)
    if plan_depth(plan) <= MAX_SQL_DEPTH:
        return filter_column(sel, schema, binding)
    from ..backends.udf import selector_udf, source_args

    log.info("the selector nests %d levels deep even split (more than %d): it runs in the vectorized "
             "fallback as a whole", plan_depth(plan), MAX_SQL_DEPTH)
    udf, cols = selector_udf(sel, schema, binding)
    return udf(*source_args(cols)), Plan("fallback", sel.root)


def jms_filter(df, selector, *, dialect: "str | Dialect | None" = None, **binding):
    """The rows of ``df`` whose message the selector matches (UNKNOWN does not match).

    Every part of the selector that has an exact Spark SQL form runs natively (Catalyst
    optimizes it, Parquet filters push down); only the rest goes to the vectorized Arrow UDF,
    which receives just the columns that part reads. ``A AND B AND C`` where only C needs the
    fallback filters as ``native(A) AND native(B) AND udf(C)``. `explain_filter` shows the split.

    Parameters
    ----------
    df : DataFrame
        Messages, laid out as the data model says (headers as columns; properties flat, or in a
        STRUCT / MAP / VARIANT column).
    selector : str or Selector
    dialect : str or Dialect, optional
        The dialect of a selector given as text (default ``"jms"``); with a `Selector`, its own
        (a different one raises ``ValueError``).
    **binding
        ``headers={"JMSType": "msg_type"}``, ``properties="props"``,
        ``unknown_properties="warn"|"null"|"error"`` (see `selector_to_sql`).

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> df = spark.createDataFrame([("car", "blue", 3000), ("car", "blue", None), ("bike", "red", 9)],
    ...                            "JMSType string, color string, weight long")
    >>> jms_filter(df, "JMSType = 'car' AND color = 'blue' AND weight > 2500").show()
    +-------+-----+------+
    |JMSType|color|weight|
    +-------+-----+------+
    |    car| blue|  3000|
    +-------+-----+------+
    <BLANKLINE>
    """
    sel = as_selector(selector, dialect)
    b = Binding.of(**binding)
    check_options(df.schema, b)
    bound = bind(sel, df.schema, b)
    warn_unknown_properties(bound)
    target, original = _unambiguous(df, bound)
    column, plan = hybrid_filter(sel, to_schema(target.schema), b)
    if not plan.is_native:
        log.info("jms_filter: %d of %d pieces need the vectorized fallback",
                 sum(1 for p in plan.leaves() if p.kind == "fallback"), len(plan.leaves()))
    out = target.where(column)
    return out if original is None else out.toDF(*original)


def _case_sensitive(spark) -> bool:
    try:
        return str(spark.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"
    except Exception:  # pragma: no cover - a session whose conf cannot be read: assume the default
        return False


def column_collisions(columns, bound, *, case_sensitive: bool) -> dict:
    """{lower-case name: [columns]} of the top-level columns Spark cannot tell apart by name
    (equal, or equal but for case when ``case_sensitive`` is false); raises `SelectorBindingError`
    naming them and the fix when the selector reads one of them ambiguously."""
    from ..language.errors import SelectorBindingError

    groups: dict = {}
    for c in columns:
        groups.setdefault(c if case_sensitive else c.lower(), []).append(c)
    groups = {k: v for k, v in groups.items() if len(v) > 1}
    used = set(bound.source_columns())
    for names in groups.values():
        for name in sorted(set(names) & used):
            if names.count(name) > 1:
                raise SelectorBindingError(
                    f"the selector reads column {name!r}, which the table has {names.count(name)} times (after a"
                    " join?): rename or drop all but one (DataFrame.toDF / withColumnRenamed / drop)",
                    bound.selector.text)
        read = sorted(set(names) & used)
        if len(read) > 1:
            raise SelectorBindingError(
                f"the selector reads columns {', '.join(map(repr, read))}, which differ only in case; with"
                " spark.sql.caseSensitive=false Spark cannot tell them apart: set spark.sql.caseSensitive=true"
                " or rename one (withColumnRenamed)", bound.selector.text)
    return groups


def refuse_ambiguous(columns, bound, spark, *, how: str = "use jms_filter (it resolves them)") -> None:
    """`SelectorBindingError` when the selector reads a column that another column makes ambiguous
    for Spark (same name; or same but for case while spark.sql.caseSensitive is false), for the
    entry points that cannot rename the table's columns (`selector_to_column`, a SQL function)."""
    from ..language.errors import SelectorBindingError

    sensitive = _case_sensitive(spark) if spark is not None else False
    used = set(bound.source_columns())
    for names in column_collisions(columns, bound, case_sensitive=sensitive).values():
        read = sorted(set(names) & used)
        if read:
            raise SelectorBindingError(
                f"the selector reads {', '.join(map(repr, read))}, and the table has {', '.join(map(repr, names))},"
                f" which Spark cannot tell apart by name (spark.sql.caseSensitive={str(sensitive).lower()}): {how},"
                " set spark.sql.caseSensitive=true, or rename the other column", bound.selector.text)


def _unambiguous(df, bound):
    """``(df', original column names or None)``: ``df`` with the columns that collide with a column
    the selector reads (same name, or same but for case when spark.sql.caseSensitive is false)
    renamed by position, so that the selector's names resolve exactly as JMS says
    (case-sensitively); `jms_filter` renames them back after filtering. Raises
    `SelectorBindingError` when the selector itself reads a name Spark cannot resolve."""
    columns = df.columns
    sensitive = _case_sensitive(df.sparkSession)
    groups = column_collisions(columns, bound, case_sensitive=sensitive)
    if not groups:
        return df, None
    used = set(bound.source_columns())
    renamed = [f"__jms_hidden_{i}" if (c if sensitive else c.lower()) in groups and c not in used else c
               for i, c in enumerate(columns)]
    if renamed == columns:
        return df, None
    return df.toDF(*renamed), columns


def explain_filter(selector, schema, *, dialect: "str | Dialect | None" = None, **binding) -> str:
    """How `jms_filter` runs ``selector`` on a table of ``schema``: one line per piece.

    >>> print(explain_filter("JMSType = 'car' AND SPLIT(s, ',') IS NOT NULL",
    ...                      {"JMSType": "string", "s": "string"}, dialect="activemq"))
    native    JMSType = 'car'
              -> `JMSType` = decode(X'636172', 'UTF-8')
    fallback  SPLIT(s, ',') IS NOT NULL
              -> vectorized Arrow UDF
    """
    from .hybrid import describe, plan_filter

    sel = as_selector(selector, dialect)
    schema, b = to_schema(schema), Binding.of(**binding)
    check_options(schema, b)
    text = describe(plan_filter(sel, schema, b), sel)
    if sel.root is not None and b.unknown_properties == "warn":
        for name in unknown_property_refs(bind(sel, schema, b)):
            text += f"\nwarning   {name!r} is not in the table: always NULL (a typo?)"
    return text
