"""ActiveMQ's LIKE escape, rewritten once into an ordinary pattern.

ActiveMQ Classic's ``LikeExpression`` compiles LIKE into a ``java.util.regex``. When the escape
character ``e`` escapes ``%``, ``_`` or itself, it appends ``\\x`` + ``Integer.toHexString(c)``
for the escaped character ``c``. Java's ``\\xhh`` takes exactly two hex digits, so:

- ``%`` (25), ``_`` (5f) and an escape character in U+0010..U+00FF come out right;
- an escape character above U+00FF escaping itself, ``'a☺☺' ESCAPE '☺'`` (263a), becomes
  ``\\x26`` then the text ``3a``: it matches ``a&3a``, not ``a☺``;
- one below U+0010, ``ESCAPE '\\t'`` (9), becomes ``\\x9`` and takes the next regex character as
  its second digit: an ordinary hex digit there (``'\\t\\tb'`` is U+009B) or, anything else, an
  invalid regex (the selector is invalid).

`broker_like` turns (pattern, escape) into an equivalent (pattern, escape) with the ordinary LIKE
meaning, so no back end needs to know; patterns without such a pair are returned unchanged. The
rewritten pattern uses ``!`` as its escape, which means the same in both readings, so rewriting
is idempotent (a printed and re-parsed selector means what the original did).
"""
from __future__ import annotations

__all__ = ["broker_like", "BrokerLikeError"]

_HEX = frozenset("0123456789abcdefABCDEF")
_SAFE_ESCAPE = "!"


class BrokerLikeError(ValueError):
    """The broker's regex would not compile: the selector is invalid there."""


def _affected(escape: "str | None") -> bool:
    return escape is not None and not (0x10 <= ord(escape) <= 0xFF)


def broker_like(pattern: str, escape: "str | None") -> "tuple[str, str | None]":
    """(pattern, escape) with ActiveMQ's reading of escaped characters, in ordinary LIKE terms.

    Raises `BrokerLikeError` where ActiveMQ's regex fails to compile.
    """
    if not _affected(escape) or escape + escape not in pattern:
        return pattern, escape
    toks = []  # ("lit", char) / ("one", None) / ("any", None)
    i, n, e = 0, len(pattern), escape
    while i < n:
        c = pattern[i]
        if c == e and i + 1 < n and pattern[i + 1] in ("%", "_", e):
            t = pattern[i + 1]
            i += 2
            if t != e:  # \x25, \x5f: the literal % or _
                toks.append(("lit", t))
                continue
            digits = format(ord(t), "x")
            if len(digits) >= 2:  # \xhh then the remaining hex digits as text
                toks.append(("lit", chr(int(digits[:2], 16))))
                toks.extend(("lit", d) for d in digits[2:])
                continue
            # One hex digit: the next regex character must be the second one. Only an ordinary
            # pattern character writes itself into the regex; %, _, the escape and the regex
            # metacharacters (written as \xhh) and the end of the pattern (\z) all start with
            # something that is not a hex digit.
            if i < n and pattern[i] in _HEX:
                toks.append(("lit", chr(int(digits + pattern[i], 16))))
                i += 1
                continue
            raise BrokerLikeError(
                f"ESCAPE {e!r} (U+{ord(e):04X}) escaping itself is not followed by a hex digit: ActiveMQ"
                f" writes it into a Java regex as \\x{digits}, which does not compile")
        if c == "%":
            toks.append(("any", None))
        elif c == "_":
            toks.append(("one", None))
        else:
            toks.append(("lit", c))
        i += 1
    out, needs_escape = [], False
    for kind, c in toks:
        if kind == "any":
            out.append("%")
        elif kind == "one":
            out.append("_")
        elif c in ("%", "_", _SAFE_ESCAPE):
            out.append(_SAFE_ESCAPE + c)
            needs_escape = True
        else:
            out.append(c)
    return "".join(out), (_SAFE_ESCAPE if needs_escape else None)
