"""Routing test helpers: an estate compiled as `route` compiles it, and its fragments."""
from __future__ import annotations

from jms_selector_spark.binder import Binding
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.language.schema import to_schema
from jms_selector_spark.spark.routing.estate import plan_estate

__all__ = ["estate", "fragments"]


def estate(subs, schema, dialect="jms", **binding):
    """``(native, fallback)``: ``[(subscription, Compiled)]`` each, as `route` splits ``subs``
    (invalid ones left out)."""
    native, fallback, _ = plan_estate(subs, to_schema(schema), get_dialect(dialect), Binding.of(**binding))
    return native, fallback


def fragments(native) -> dict:
    """``{name: native fragment}`` of ``native`` (`estate`)."""
    return {s.name: compiled.whole.sql for s, compiled in native}
