"""Spark entry points: translate a selector for a DataFrame, or filter one with it.

pyspark is imported only when these are called, so the package itself imports without Spark.
"""
from __future__ import annotations

__all__ = ["selector_to_sql", "selector_to_column", "jms_filter"]


def selector_to_sql(selector, schema=None, *, dialect="jms", **binding) -> str:
    """See `jms_selector_spark.backends.spark_sql.selector_to_sql`."""
    from .backends.spark_sql import selector_to_sql as _to_sql

    return _to_sql(selector, schema, dialect=dialect, **binding)


def selector_to_column(selector, schema, *, dialect="jms", **binding):
    """See `jms_selector_spark.backends.spark_column.selector_to_column`."""
    from .backends.spark_column import selector_to_column as _to_column

    return _to_column(selector, schema, dialect=dialect, **binding)


def jms_filter(df, selector, *, dialect="jms", **binding):
    """The rows of ``df`` whose message the selector matches (UNKNOWN does not match).

    For now the whole selector runs as native Spark SQL (`selector_to_sql`); a selector with a
    construct that has no exact SQL form raises `UnsupportedSelectorError`.
    """
    return df.where(selector_to_sql(selector, df.schema, dialect=dialect, **binding))
