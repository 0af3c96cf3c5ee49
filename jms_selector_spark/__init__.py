"""JMS message selectors for Apache Spark, with exactly the broker's semantics.

Public API (the names are stable)::

    parse(selector, *, dialect="jms") -> Selector
    evaluate(selector, headers=None, properties=None, *, dialect="jms", types=None) -> bool | None
    selector_to_sql(selector, schema=None, *, dialect="jms", **binding) -> str
    selector_to_column(selector, schema, *, dialect="jms", **binding) -> Column
    jms_filter(df, selector, *, dialect="jms", **binding) -> DataFrame
    register(spark, *, dialect="jms", name="jms_match")

Nothing here imports Spark; the Spark entry points import it when called.
"""
from ._version import __version__
from .dialects import ACTIVEMQ, JMS, Dialect, get_dialect
from .errors import (
    SelectorBindingError,
    SelectorError,
    SelectorSyntaxError,
    SelectorTypeError,
    UnsupportedSelectorError,
)
from .api import jms_filter, selector_to_column, selector_to_sql
from .interpreter import evaluate
from .selector import Selector, parse

__all__ = [
    "__version__",
    "parse",
    "evaluate",
    "selector_to_sql",
    "selector_to_column",
    "jms_filter",
    "Selector",
    "Dialect",
    "JMS",
    "ACTIVEMQ",
    "get_dialect",
    "SelectorError",
    "SelectorSyntaxError",
    "SelectorTypeError",
    "SelectorBindingError",
    "UnsupportedSelectorError",
]
