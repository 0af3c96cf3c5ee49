"""Spark Column back end: the SQL back end's fragment as a `pyspark.sql.Column`."""
from __future__ import annotations

from .spark_sql import selector_to_sql

__all__ = ["selector_to_column"]


def selector_to_column(selector, schema, *, dialect="jms", **binding):
    """``F.expr(selector_to_sql(selector, schema, ...))``: a boolean Column (NULL = UNKNOWN).

    ``binding`` takes ``headers={...}`` and ``properties="..."`` as in `selector_to_sql`.
    """
    from pyspark.sql import functions as F

    return F.expr(selector_to_sql(selector, schema, dialect=dialect, **binding))
