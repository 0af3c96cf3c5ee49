"""JMS message selectors for Apache Spark, with exactly the broker's semantics.

Public API (the names are stable)::

    parse(selector, *, dialect="jms") -> Selector
    evaluate(selector, headers=None, properties=None, *, dialect=None, types=None) -> bool | None
    selector_to_sql(selector, schema=None, *, dialect=None, **binding) -> str
    selector_to_column(selector, schema, *, dialect=None, **binding) -> Column
    jms_filter(df, selector, *, dialect=None, **binding) -> DataFrame
    explain_filter(selector, schema, *, dialect=None, **binding) -> str
    register(spark, *, dialect="jms", name="jms_match")        # jms_match & friends for spark.sql
    register_selector(spark, name, selector, source, ...)      # a selector as a native SQL function
    route(messages, subscriptions, *, mode="topic", ...) -> DataFrame
    route_report(routed, subscriptions, ...) -> dict          # errors and outcome counts (html=: the estate report)
    report_html(report, *, title=None) -> str                 # route_report's dict as one HTML page
    explain_routing(schema, subscriptions, ...) -> str        # the routing plan
    lint(selector, dialect=None, schema=None, **binding) -> list[LintWarning]
    explain_delivery(selector, headers=None, properties=None, ...) -> Delivery   # why (not) delivered
    explain_message(messages, subscriptions, message_id, ...) -> MessageExplanation  # who, and why not
    implies(a, b, *, dialect=None) -> Implication        # a proof or a witness: is a shadowed by b?
    never_true(selector, *, dialect=None) -> str | None   # why a selector receives nothing
    compare_dialects(selector, a, b, schema=None) -> DialectComparison   # a witness message, or how it searched
    migration_report(messages, subscriptions, from_dialect, to_dialect) -> MigrationReport
    to_rabbitmq_term(selector, *, dialect="rabbitmq-jms") -> str | None   # the JMS topic exchange's term

A ``selector`` is text (parsed with ``dialect``, default ``"jms"``) or a `Selector`, which keeps
its own dialect: passing a different ``dialect=`` with it raises ``ValueError``. Each entry point
normalises its inputs once (`selector.as_selector`, `get_dialect`, `binder.to_schema`); the
native-vs-fallback decision is taken by one planner for all of them (`hybrid`).

Nothing here imports Spark; the Spark entry points import it when called.

The package's layout follows the pipeline (each part imports only from those before it):
``frontend/`` (text → tokens → checked AST) and ``semantics/`` (JMS values, the dialects,
`lowering`) → ``binder`` → ``interpreter`` (the reference) → ``backends/`` (Spark SQL text,
the Arrow evaluator) and ``analysis/`` (lint, dialect comparison) → ``spark/`` (DataFrames,
``spark.sql``, routing) → ``cli/``.
"""
from ._version import __version__
from .analysis.dialect_compare import DialectComparison, TypedMessage, compare_dialects
from .analysis.lint import LintWarning, lint
from .analysis.why import Delivery, explain_delivery
from .analysis.implication import Implication, implies, never_true
from .analysis.report_html import report_html
from .language.errors import (BindingOptionError, SelectorBindingError, SelectorError, SelectorSyntaxError, SelectorTooComplexError, SelectorTypeError, StreamingUnsupportedError,
                                   UnsupportedSelectorError)
from .frontend.selector import Selector
from .parsing import parse
from .interpreter import evaluate
from .language.dialects import ACTIVEMQ, JMS, SOLACE, WSO2, Dialect, get_dialect
from .rabbitmq_term import to_rabbitmq_term
from .spark import connect  # `connect.ship(spark)`: the package on a Spark Connect server's workers
from .compiler import Compiled, compile_selector
from .translate import explain_filter, selector_to_sql
from .spark.filtering import jms_filter, selector_to_column
from .spark.routing import (MigrationReport, RoutingTuning, Subscription, SubscriptionChange, explain_routing,
                            migration_report, route, route_report, routing_rules, subscription_errors)
from .spark.why import MessageExplanation, explain_message
from .spark.sql_functions import register, register_route, register_selector, selector_columns

__all__ = [
    "__version__",
    "connect",
    "parse",
    "evaluate",
    "compile_selector",
    "Compiled",
    "selector_to_sql",
    "selector_to_column",
    "jms_filter",
    "explain_filter",
    "register",
    "register_selector",
    "register_route",
    "selector_columns",
    "route",
    "route_report",
    "report_html",
    "routing_rules",
    "explain_routing",
    "lint",
    "LintWarning",
    "explain_delivery",
    "Delivery",
    "explain_message",
    "MessageExplanation",
    "implies",
    "Implication",
    "never_true",
    "compare_dialects",
    "DialectComparison",
    "TypedMessage",
    "migration_report",
    "to_rabbitmq_term",
    "MigrationReport",
    "SubscriptionChange",
    "Subscription",
    "subscription_errors",
    "RoutingTuning",
    "Selector",
    "Dialect",
    "JMS",
    "ACTIVEMQ",
    "WSO2",
    "SOLACE",
    "get_dialect",
    "SelectorError",
    "SelectorSyntaxError",
    "SelectorTypeError",
    "SelectorBindingError",
    "UnsupportedSelectorError",
    "SelectorTooComplexError",
    "BindingOptionError",
    "StreamingUnsupportedError",
]
