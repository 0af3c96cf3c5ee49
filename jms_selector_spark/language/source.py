"""Positions in selector text.

A `Span` is a pair of 0-based character offsets ``[start, end)``. Line and column numbers are
derived only when an error is rendered (the last-newline method), so nodes stay cheap to build
and multi-line selectors still report the right place.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Span", "Located", "line_col", "render_caret"]


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open character range ``[start, end)`` in the selector text."""

    start: int
    end: int

    def cover(self, other: "Span") -> "Span":
        """Return the smallest span holding both ``self`` and ``other``."""
        return Span(min(self.start, other.start), max(self.end, other.end))


def line_col(text: str, offset: int) -> tuple[int, int]:
    """Return the 1-based (line, column) of ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    last_nl = text.rfind("\n", 0, offset)
    return line, offset - last_nl


def render_caret(text: str, span: Span, *, width: int = 100) -> str:
    """Return the source line holding ``span`` and a caret line underneath it.

    Long lines are cut to a window of about ``width`` characters around the span so that a
    100,000-character selector still yields a readable two-line message.
    """
    start = max(0, min(span.start, len(text)))
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    if line_end < 0:
        line_end = len(text)
    line = text[line_start:line_end]
    col = start - line_start
    length = max(1, min(span.end, line_end) - start)
    prefix = ""
    if len(line) > width:
        lo = max(0, col - width // 2)
        hi = min(len(line), lo + width)
        prefix = "..." if lo > 0 else ""
        suffix = "..." if hi < len(line) else ""
        line = prefix + line[lo:hi] + suffix
        col = col - lo + len(prefix)
        length = min(length, width)
    # Tabs and other control characters would shift the caret: show them as spaces.
    shown = "".join(" " if (c.isspace() or not c.isprintable()) else c for c in line)
    return f"  {shown}\n  {' ' * col}{'^' * length}"


class Located:
    """``line`` and ``column`` (1-based) of ``self.span.start`` in ``self.selector``: errors and
    lint warnings both point into the selector text this way."""

    __slots__ = ()

    @property
    def line(self) -> int:
        return line_col(self.selector, self.span.start)[0]

    @property
    def column(self) -> int:
        return line_col(self.selector, self.span.start)[1]
