"""The error hierarchy.

Every failure the library reports about a selector is a `SelectorError`, which is a
`ValueError`. Each carries the selector text and a `Span`, and renders a caret under the
offending text::

    SelectorSyntaxError: unexpected 'AND' at line 1, column 20
      color = 'blue' AND AND weight > 2500
                         ^^^
"""
from __future__ import annotations

from .source import Located, Span, line_col, render_caret

__all__ = [
    "SelectorError",
    "SelectorSyntaxError",
    "SelectorTypeError",
    "UnsupportedSelectorError",
    "SelectorBindingError",
    "SelectorTooComplexError",
    "BindingOptionError",
    "StreamingUnsupportedError",
]


class SelectorError(Located, ValueError):
    """A selector that cannot be used, with where and why.

    Attributes
    ----------
    message : str
        What is wrong, without the position.
    selector : str
        The whole selector text.
    span : Span
        Where in ``selector`` the problem is.
    """

    kind = "error"

    def __init__(self, message: str, selector: str = "", span: Span | None = None):
        self.message = message
        self.selector = selector
        self.span = span if span is not None else Span(0, 0)
        super().__init__(message)

    def __str__(self) -> str:
        # rendered when shown, not when raised: the compiler raises and catches these to decide
        # what runs natively, and the caret costs more than the rest of the decision
        return self._render()

    def _render(self) -> str:
        if not self.selector:
            return self.message
        line, col = line_col(self.selector, self.span.start)
        return f"{self.message} at line {line}, column {col}\n{render_caret(self.selector, self.span)}"

    def __reduce__(self):  # picklable (Spark ships exceptions between processes)
        return (type(self), (self.message, self.selector, self.span))


class SelectorSyntaxError(SelectorError):
    """The text is not a selector: bad token, unexpected token, unexpected end."""

    kind = "syntax"


class SelectorTypeError(SelectorError):
    """The selector is well formed but statically ill-typed (``'a' < 'b'``, ``i IN (5)``, ``3 + 5``)."""

    kind = "type"


class SelectorBindingError(SelectorError):
    """The selector cannot be bound to a table: e.g. a column of an unselectable type."""

    kind = "binding"


class UnsupportedSelectorError(SelectorError):
    """A construct a back end cannot handle (never silently ignored)."""

    kind = "unsupported"


class SelectorTooComplexError(UnsupportedSelectorError):
    """The selector's Spark SQL would nest deeper than Spark's parser takes (see `sql.limits`).

    An `UnsupportedSelectorError`: `jms_filter`, `route` and `register_selector` evaluate such a
    selector (or the part of it that is too deep) with the vectorized fallback instead."""

    kind = "too complex"


class BindingOptionError(ValueError):
    """A binding option (``headers=``, ``properties=``) names a column the table does not have.

    A configuration error, not a selector's: it is raised (by `route` too), never reported per
    selector."""


class StreamingUnsupportedError(BindingOptionError):
    """An operation that needs the whole table was given a streaming DataFrame.

    A configuration error like `BindingOptionError` (a ``ValueError``): it is raised before Spark
    plans anything, and its message says what to do instead — typically to run the operation on
    what the streaming query wrote (``spark.read`` of the sink), or inside ``foreachBatch``.

    Examples
    --------
    >>> from jms_selector_spark import StreamingUnsupportedError
    >>> issubclass(StreamingUnsupportedError, ValueError)
    True
    """
