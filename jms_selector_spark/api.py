"""Spark entry points: translate a selector for a DataFrame, or filter one with it.

pyspark is imported only when a function that needs it is called, so the package itself imports
without Spark (``selector_to_sql`` and ``explain_filter`` never need it).
"""
from __future__ import annotations

import logging

from .binder import Binding, bind, check_options, unknown_property_refs, warn_unknown_properties
from .dialects import Dialect
from .selector import Selector, parse

__all__ = ["selector_to_sql", "selector_to_column", "jms_filter", "explain_filter"]

log = logging.getLogger(__name__)


def selector_to_sql(selector, schema=None, *, dialect: "str | Dialect" = "jms", **binding) -> str:
    """See `jms_selector_spark.backends.spark_sql.selector_to_sql`."""
    from .backends.spark_sql import selector_to_sql as _to_sql

    return _to_sql(selector, schema, dialect=dialect, **binding)


def selector_to_column(selector, schema, *, dialect: "str | Dialect" = "jms", **binding):
    """See `jms_selector_spark.backends.spark_column.selector_to_column`.

    A selector whose SQL would nest deeper than Spark's parser takes (`SelectorTooComplexError`)
    becomes `jms_filter`'s hybrid Column instead: the boolean skeleton built as Columns, the
    parts Spark can parse native, the too-deep parts in the vectorized fallback UDF.
    """
    from .backends.spark_column import selector_to_column as _to_column
    from .errors import SelectorTooComplexError

    try:
        return _to_column(selector, schema, dialect=dialect, **binding)
    except SelectorTooComplexError as exc:
        log.info("selector_to_column: %s", exc.message)
        return hybrid_filter(_parsed(selector, dialect), schema, Binding.of(**binding))[0]


def hybrid_filter(sel: Selector, schema, binding: Binding):
    """`hybrid.filter_column` of the `sql_limits.simplify`-ed selector, or, when its Column
    skeleton plus its deepest native fragment would still nest deeper than Spark takes
    (`sql_limits.MAX_SQL_DEPTH`), one vectorized fallback UDF for the whole selector."""
    from .hybrid import Plan, filter_column, plan_filter
    from .sql_limits import MAX_SQL_DEPTH, plan_depth, simplify

    sel = simplify(sel)
    plan = plan_filter(sel, schema, binding)
    if plan_depth(plan) <= MAX_SQL_DEPTH:
        return filter_column(sel, schema, binding)
    from .backends.udf import selector_udf, source_args

    log.info("the selector nests %d levels deep even split (more than %d): it runs in the vectorized "
             "fallback as a whole", plan_depth(plan), MAX_SQL_DEPTH)
    udf, cols = selector_udf(sel, schema, binding)
    return udf(*source_args(cols)), Plan("fallback", sel.root)


def _parsed(selector, dialect) -> Selector:
    return selector if isinstance(selector, Selector) else parse(selector, dialect=dialect)


def jms_filter(df, selector, *, dialect: "str | Dialect" = "jms", **binding):
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
    dialect : str or Dialect, default "jms"
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
    sel = _parsed(selector, dialect)
    b = Binding.of(**binding)
    check_options(df.schema, b)
    warn_unknown_properties(bind(sel, df.schema, b))
    column, plan = hybrid_filter(sel, df.schema, b)
    if not plan.is_native:
        log.info("jms_filter: %d of %d pieces need the vectorized fallback",
                 sum(1 for p in plan.leaves() if p.kind == "fallback"), len(plan.leaves()))
    return df.where(column)


def explain_filter(selector, schema, *, dialect: "str | Dialect" = "jms", **binding) -> str:
    """How `jms_filter` runs ``selector`` on a table of ``schema``: one line per piece.

    >>> print(explain_filter("JMSType = 'car' AND SPLIT(s, ',') IS NOT NULL",
    ...                      {"JMSType": "string", "s": "string"}, dialect="activemq"))
    native    JMSType = 'car'
              -> `JMSType` = decode(X'636172', 'UTF-8')
    fallback  SPLIT(s, ',') IS NOT NULL
              -> vectorized Arrow UDF
    """
    from .hybrid import describe, plan_filter

    sel = _parsed(selector, dialect)
    b = Binding.of(**binding)
    check_options(schema, b)
    text = describe(plan_filter(sel, schema, b), sel)
    if sel.root is not None and b.unknown_properties == "warn":
        for name in unknown_property_refs(bind(sel, schema, b)):
            text += f"\nwarning   {name!r} is not in the table: always NULL (a typo?)"
    return text
