"""ActiveMQ's built-in selector functions, evaluated one value at a time.

ActiveMQ Classic registers five functions (``org.apache.activemq.filter.function``):

- ``REGEX(pattern, value)``: TRUE when the Java regex ``pattern`` is *found* in ``value``;
- ``INLIST(list, value)``: TRUE when ``list`` contains ``value``;
- ``SPLIT(text, separator[, limit])``: ``text.split(separator[, limit])`` (a regex separator);
- ``MAKELIST(a, b, ...)``: a list of its arguments;
- ``REPLACE(text, regex, replacement)``: ``text.replaceAll(regex, replacement)``.

Java regular expressions are run with Python's ``re``, which agrees on the common syntax
(character classes, anchors, quantifiers, groups); Java-only constructs (possessive quantifiers,
``\\p{javaLowerCase}``...) are not supported and make the call UNKNOWN. A NULL argument gives
NULL (FALSE for REGEX and INLIST, as ActiveMQ answers), and a wrong argument type gives UNKNOWN (ActiveMQ throws, which drops the message).
"""
from __future__ import annotations

import functools
import re

from .scalar import java_equals, java_string
from ..language.types import JmsType
from .values import TypedValue

__all__ = ["call_function", "LIST"]

LIST = "list"  # the value type of MAKELIST / SPLIT results (not a JMS type: never compared)


@functools.lru_cache(maxsize=256)
def _regex(pattern: str):
    try:
        return re.compile(pattern)
    except re.error:
        return None


def _java_split(text: str, sep: str, limit: int = 0):
    """``text.split(sep, limit)`` exactly as ``java.util.regex.Pattern.split`` does it.

    Python's ``re.split`` differs at the edges: it keeps an empty leading string for a zero-width
    match at 0 (Java drops it, and keeps one for a positive-width match there), it returns
    ``['', '']`` for ``''.split('')`` (Java: ``['']``), and it has no negative limit. So this
    follows Java's loop over the matches instead.
    """
    rx = _regex(sep)
    if rx is None:
        return None
    index, limited, parts = 0, limit > 0, []
    for m in rx.finditer(text):
        if not limited or len(parts) < limit - 1:
            if index == 0 and m.start() == 0 and m.end() == 0:
                continue  # no empty leading substring for a zero-width match at the beginning
            parts.append(text[index:m.start()])
            index = m.end()
        elif len(parts) == limit - 1:  # the last one takes the rest
            parts.append(text[index:])
            index = m.end()
    if index == 0:  # no match: the whole input
        return [text]
    if not limited or len(parts) < limit:
        parts.append(text[index:])
    if limit == 0:
        while parts and parts[-1] == "":
            parts.pop()
    return parts




def call_function(name: str, args: list, jdk: int = 17) -> "TypedValue | tuple | None":
    """Apply function ``name`` to typed arguments (None for NULL); lists are ('list', [..])."""
    if name == "MAKELIST":
        # A NULL argument is a null element of the list (ActiveMQ: `MAKELIST(missing) IS NULL` is
        # FALSE, `INLIST(MAKELIST('a', missing), 'a')` TRUE).
        return TypedValue(LIST, list(args))
    if any(a is None for a in args):
        # ActiveMQ's boolean functions answer FALSE for a missing argument (measured); SPLIT and
        # REPLACE throw there (the message is dropped): NULL here.
        return TypedValue(JmsType.BOOLEAN, False) if name in ("REGEX", "INLIST") else None
    if name in ("REGEX", "SPLIT", "REPLACE"):
        # ActiveMQ passes each argument's toString() to java.util.regex
        args = [a if a.type == LIST or (a.type is JmsType.STRING) or (i == 2 and name == "SPLIT")
                else TypedValue(JmsType.STRING, java_string(a, jdk)) for i, a in enumerate(args)]
    vals = [a.value for a in args]
    kinds = [a.type for a in args]
    if name == "INLIST" and len(args) == 2 and kinds[0] == LIST:
        return TypedValue(JmsType.BOOLEAN, any(_same(args[1], x) for x in vals[0]))
    if name == "REGEX" and len(args) == 2 and kinds == [JmsType.STRING, JmsType.STRING]:
        rx = _regex(vals[0])
        return None if rx is None else TypedValue(JmsType.BOOLEAN, rx.search(vals[1]) is not None)
    if name == "SPLIT" and len(args) in (2, 3) and kinds[:2] == [JmsType.STRING, JmsType.STRING]:
        limit = vals[2] if len(args) == 3 and kinds[2].is_exact else 0
        parts = _java_split(vals[0], vals[1], limit)
        return None if parts is None else TypedValue(LIST, [TypedValue(JmsType.STRING, p) for p in parts])
    if name == "REPLACE" and len(args) == 3 and kinds == [JmsType.STRING] * 3:
        rx = _regex(vals[1])
        if rx is None:
            return None
        repl = re.sub(r"\$(\d)", r"\\\1", vals[2])
        return TypedValue(JmsType.STRING, rx.sub(repl, vals[0]))
    return None


def _same(v: TypedValue, item) -> bool:
    # List.contains uses equals(): Integer 1 is not Long 1, NaN is NaN, 0.0 is not -0.0.
    if isinstance(item, TypedValue):
        return java_equals(item, v)
    return False
