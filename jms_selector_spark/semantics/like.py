"""JMS LIKE, matched in linear time on any pattern.

A pattern is compiled once into `%`-separated *segments* of fixed length (literal characters and
``_`` wildcards). Matching anchors the first segment at the start and the last at the end, and
finds each middle segment at its leftmost position after the previous one — greedy leftmost is
exact for this pattern language, and it never backtracks. Both broker anchors backtrack instead:
ActiveMQ turns LIKE into a ``java.util.regex`` (it never finishes RabbitMQ's 5,000-character
``'%_%_%_…'`` test pattern) and Spark 4.3's LIKE took 33 s on one 41-character row.

The escape character, when given, makes a following ``%``, ``_`` or escape character literal;
before any other character, or at the very end of the pattern, it stands for itself (as ActiveMQ
and Artemis do: ``'a!b' ESCAPE '!'`` matches ``'a!b'``). ``_`` matches one
character (one Unicode code point), including line terminators.
"""
from __future__ import annotations

import functools
import re

__all__ = ["LikePattern", "compile_like", "segments_matcher", "like_tokens", "like_segments"]


def like_tokens(pattern: str, escape: str | None):
    """Split a pattern into ('lit', char) / ('one', None) / ('any', None) tokens."""
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if escape is not None and c == escape and i + 1 < n and pattern[i + 1] in ("%", "_", escape):
            out.append(("lit", pattern[i + 1]))
            i += 2
            continue
        if c == "%":
            out.append(("any", None))
        elif c == "_":
            out.append(("one", None))
        else:
            out.append(("lit", c))
        i += 1
    return out


@functools.lru_cache(maxsize=1024)
def like_segments(pattern: str, escape: str | None = None) -> tuple:
    """The one LIKE plan every matcher renders: the ``%``-separated segments of the pattern.

    Each segment is a tuple of ('lit', char) / ('one', None) tokens. The pattern is normalised
    first: a run of ``%`` and ``_`` holding at least one ``%`` becomes its ``_``s then one ``%``
    (the same language), so segments are separated by exactly one ``%`` and a pattern with k
    ``%`` runs has k + 1 segments (the first anchored at the start, the last at the end). The
    linear-time matcher below, the Spark SQL LIKE/RLIKE text and the Arrow kernels all use it.
    """
    segments, cur, run = [], [], []
    for tok in like_tokens(pattern, escape) + [("lit", None)]:
        if tok[0] != "lit":
            run.append(tok)
            continue
        if any(kind == "any" for kind, _ in run):
            cur.extend(t for t in run if t[0] == "one")
            segments.append(tuple(cur))
            cur = []
        else:
            cur.extend(run)
        run = []
        cur.append(tok)
    cur.pop()  # the sentinel
    segments.append(tuple(cur))
    return tuple(segments)


class _Segment:
    __slots__ = ("length", "text", "regex")

    def __init__(self, toks):
        self.length = len(toks)
        if all(kind == "lit" for kind, _ in toks):
            self.text = "".join(c for _, c in toks)
            self.regex = None
        else:
            self.text = None
            self.regex = re.compile("".join("." if k == "one" else re.escape(c) for k, c in toks), re.DOTALL)

    def match_at(self, s: str, pos: int) -> bool:
        if self.text is not None:
            return s.startswith(self.text, pos)
        return self.regex.match(s, pos) is not None

    def find(self, s: str, pos: int) -> int:
        if self.text is not None:
            return s.find(self.text, pos)
        m = self.regex.search(s, pos)
        return -1 if m is None else m.start()


class LikePattern:
    """A compiled LIKE pattern. ``matches(s)`` is linear in ``len(s)`` for a given pattern.
    ``segments``: the plan (`like_segments`) instead of ``pattern`` and ``escape``."""

    __slots__ = ("segments", "min_length")

    def __init__(self, pattern: str = "", escape: str | None = None, *, segments: "tuple | None" = None):
        if segments is None:
            segments = like_segments(pattern, escape)
        # segments[0] is before the first %, segments[-1] after the last; with no % they coincide.
        self.segments = [_Segment(s) for s in segments]
        self.min_length = sum(s.length for s in self.segments)

    def matches(self, s: str) -> bool:
        segs = self.segments
        if len(s) < self.min_length:
            return False
        if len(segs) == 1:
            return len(s) == segs[0].length and segs[0].match_at(s, 0)
        first, last = segs[0], segs[-1]
        if not first.match_at(s, 0):
            return False
        pos = first.length
        end_start = len(s) - last.length
        for seg in segs[1:-1]:
            if seg.length == 0:
                continue
            at = seg.find(s, pos)
            if at < 0 or at + seg.length > end_start:
                return False
            pos = at + seg.length
        return pos <= end_start and last.match_at(s, end_start)


@functools.lru_cache(maxsize=1024)
def compile_like(pattern: str, escape: str | None = None) -> LikePattern:
    """A cached `LikePattern`."""
    return segments_matcher(like_segments(pattern, escape))


@functools.lru_cache(maxsize=1024)
def segments_matcher(segments: tuple) -> LikePattern:
    """The cached `LikePattern` of a plan (`like_segments`; what `core.LikeString` carries)."""
    return LikePattern(segments=segments)
