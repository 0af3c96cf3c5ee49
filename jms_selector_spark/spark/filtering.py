"""Filtering a DataFrame with a selector: `jms_filter` and `selector_to_column`.

Each compiles the selector once (`compiler.compile_selector`) and builds the Column its plan
describes: native SQL (``F.expr``) wherever the SQL back end has an exact form, a three-valued
Arrow UDF (`backends.udf.piece_udf`) for each piece that has none, joined by Spark's own Kleene
AND / OR / NOT. pyspark is imported only when a function that needs it is called.
"""
from __future__ import annotations

import logging

from ..compiler import Plan, compile_selector
from ..parsing import as_selector
from ..language.dialects import Dialect
from ..language.errors import SelectorTooComplexError
from ..backends.sql.limits import MAX_SQL_DEPTH
from . import collisions

__all__ = ["selector_to_column", "jms_filter", "filter_column"]

log = logging.getLogger(__name__)


def filter_column(compiled):
    """``(Column, Plan)``: ``compiled``'s plan as one boolean Column (NULL = UNKNOWN): native
    fragments as ``F.expr``, each fallback piece its Arrow UDF on just the columns it reads. When
    the plan's skeleton plus its deepest native fragment would still nest deeper than Spark's
    parser takes (`backends.sql.limits.MAX_SQL_DEPTH`), the whole selector is one fallback UDF."""
    from pyspark.sql import functions as F

    from ..backends.udf import piece_udf, source_args

    plan = compiled.plan
    if plan.depth() > MAX_SQL_DEPTH:
        log.info("the selector nests %d levels deep even split (more than %d): it runs in the vectorized "
                 "fallback as a whole", plan.depth(), MAX_SQL_DEPTH)
        whole = compiled.piece(compiled.core)
        udf, cols = piece_udf(whole)
        return udf(*source_args(cols)), Plan("fallback", compiled.core, piece=whole)

    def build(p):
        if p.kind == "native":
            return F.expr(p.sql)
        if p.kind == "fallback":
            udf, cols = piece_udf(p.piece)
            return udf(*source_args(cols))
        if p.kind == "not":
            return ~build(p.parts[0])
        cols = [build(k) for k in p.parts]
        out = cols[0]
        for col in cols[1:]:
            out = (out & col) if p.kind == "and" else (out | col)
        return out

    return build(plan), plan


def selector_to_column(selector, schema, *, dialect: "str | Dialect | None" = None, **binding):
    """A boolean Column (NULL = UNKNOWN): ``F.expr`` of the selector's native SQL (see
    `selector_to_sql`); `UnsupportedSelectorError` when it has no native form.

    A selector whose SQL would nest deeper than Spark's parser takes (`SelectorTooComplexError`)
    becomes `jms_filter`'s hybrid Column instead: the boolean skeleton built as Columns, the
    parts Spark can parse native, the too-deep parts in the vectorized fallback UDF. A column
    with a case-only twin in ``schema`` is refused as `selector_to_sql` refuses it, unless the
    active session sets ``spark.sql.caseSensitive=true``.
    """
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    sensitive = collisions.case_sensitive(SparkSession.getActiveSession())
    compiled = compile_selector(selector, schema, dialect=dialect, case_sensitive=sensitive, **binding)
    if compiled.whole.is_native:
        return F.expr(compiled.whole.sql)
    if not isinstance(compiled.whole.reason, SelectorTooComplexError):
        raise compiled.whole.reason
    log.info("selector_to_column: %s", compiled.whole.reason.message)
    return filter_column(compiled)[0]


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
    selector = as_selector(selector, dialect)  # a conflicting dialect= fails before the DataFrame is read
    compiled = compile_selector(selector, df.schema, collisions="caller", **binding)
    target, original = collisions.hide(df, compiled)
    column, plan = filter_column(compiled)
    if not plan.is_native:
        log.info("jms_filter: %d of %d pieces need the vectorized fallback",
                 sum(1 for p in plan.leaves() if p.kind == "fallback"), len(plan.leaves()))
    return collisions.restore(target.where(column), original)
