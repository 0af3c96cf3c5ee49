"""Streaming DataFrames: what the entry points refuse, and why.

`jms_filter`, `selector_to_column`, `register` / `jms_match`, `register_selector` and `route`
(topic and queue mode) build the same plan on a streaming DataFrame as on a table; a queue's
rotation then lives in the query's checkpoint (`routing.rotation`). What needs the whole table
at once — counting a routed result (`route_report`), comparing two dialects over an archive
(`migration_report`), reading subscriptions from a stream — raises
`StreamingUnsupportedError` here, before Spark plans anything, saying what to do instead.
"""
from __future__ import annotations

from ..language.errors import StreamingUnsupportedError

__all__ = ["is_streaming", "refuse_stream"]


def is_streaming(df) -> bool:
    """Whether ``df`` is a streaming DataFrame (False for anything without ``isStreaming``)."""
    return bool(getattr(df, "isStreaming", False))


def refuse_stream(df, what: str, instead: str) -> None:
    """Raise `StreamingUnsupportedError` when ``df`` is streaming: ``what`` cannot run on a stream;
    ``instead`` says what to do."""
    if is_streaming(df):
        raise StreamingUnsupportedError(f"{what} needs the whole table, and a streaming DataFrame has no end: {instead}")
