"""Checks shared by the routing Spark tests: `route`'s topic and queue output against the
expected subscriptions of every message (``{id: sorted names}``)."""
from __future__ import annotations


def topic_matches(rows) -> dict:
    """``{id: sorted names}`` from topic-mode rows (``id``, ``subscription``; NULL = no match)."""
    got = {}
    for r in rows:
        got.setdefault(r["id"], [])
        if r["subscription"] is not None:
            got[r["id"]].append(r["subscription"])
    return {k: sorted(v) for k, v in got.items()}


def assert_routed(topic_rows, queue_rows, want: dict, messages: int) -> None:
    """Topic mode gives every message exactly its matches; queue mode gives each message one row,
    NULL exactly when nothing matches, else one of its matches."""
    assert topic_matches(topic_rows) == want
    assert len(queue_rows) == messages
    assert all((r["subscription"] is None) == (not want[r["id"]]) for r in queue_rows)
    assert all(r["subscription"] is None or r["subscription"] in want[r["id"]] for r in queue_rows)
