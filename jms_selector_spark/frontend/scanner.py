"""The lexer's fast path: the plain part of the token language in one regular-expression pass.

Most selectors are written with ASCII names, quoted strings, plain numbers and operators. For
those `scan` returns the very tokens the PLY lexer (`lexer.SelectorLexer`) returns — the same
types, values and positions — without PLY's per-token function calls. Any text it does not read
with certainty is left to PLY, which stays the definition of the token language: `scan` returns
None for

- a character outside the plain set (non-ASCII, a double quote, ``!``, a control character…),
- an identifier followed by a character that continues it under some dialect's rule (``.``,
  non-ASCII, an identifier-ignorable control), or that the dialect reserves (XPATH, XQUERY),
- a number other than ``0``, ``[1-9][0-9]*`` of at most 18 digits, or ``<digits>.<digits>``, or
  one glued to a letter, a digit or a dot (``10L``, ``0x1F``, ``07``, ``1e5``, ``100AND``),
- ``--`` and ``/*`` (comments in some dialects), an unterminated string, ActiveMQ's
  ``convert_string_expressions:`` prefix, and every number of a dialect with C++ literals,

so every error, every dialect rule and every unusual literal is still PLY's to decide. The
equivalence is tested token for token on every corpus selector in every dialect
(tests/unit/test_scanner.py).
"""
from __future__ import annotations

import re

from .tokens import RESERVED

__all__ = ["Token", "scan"]

# Whitespace (Java's, as the grammar defines it), then one token. The lookaheads refuse what PLY
# would read differently: an identifier or number that goes on (see the module docstring).
_TOKEN = re.compile(r"""[ \t\f\r\n]*(?:
    (?P<ID>[A-Za-z_$][A-Za-z0-9_$]*)(?![A-Za-z0-9_$.\x00-\x08\x0e-\x1b\x7f-\U0010ffff])
  | (?P<STR>'(?:[^']|'')*')
  | (?P<NUM>(?:0|[1-9][0-9]{0,17})(?:\.[0-9]+)?)(?![A-Za-z0-9_$.\x00-\x08\x0e-\x1b\x7f-\U0010ffff])
  | (?P<OP><>|<=|>=|[=<>+*%(),]|-(?!-)|/(?!\*))
)""", re.VERBOSE)

_OPERATORS = {"<>": "NE", "<=": "LE", ">=": "GE", "=": "EQ", "<": "LT", ">": "GT", "+": "PLUS", "-": "MINUS",
              "*": "TIMES", "/": "DIVIDE", "%": "MODULO", "(": "LPAREN", ")": "RPAREN", ",": "COMMA"}
_BLANKS = " \t\f\r\n"


class Token:
    """A token as the parser reads it (the attributes of PLY's ``LexToken``)."""

    __slots__ = ("type", "value", "lexpos", "lineno")

    def __init__(self, type_: str, value, lexpos: int):
        self.type, self.value, self.lexpos, self.lineno = type_, value, lexpos, 1

    def __repr__(self):
        return f"Token({self.type}, {self.value!r}, {self.lexpos})"


def scan(text: str, dialect) -> "list[Token] | None":
    """The tokens of ``text`` in ``dialect`` when it is in the plain part of the token language,
    else None (the PLY lexer reads it)."""
    if dialect.cpp_literals and any(c.isdigit() for c in text):
        return None
    reserved = dialect.reserved_words
    end = len(text.rstrip(_BLANKS))
    pos, out, match = 0, [], _TOKEN.match
    append = out.append
    while pos < end:
        m = match(text, pos, end)
        if m is None:
            return None
        kind = m.lastgroup
        start, pos = m.span(kind)
        value = text[start:pos]
        if kind == "ID":
            upper = value.upper()
            type_ = RESERVED.get(upper, "IDENTIFIER")
            if type_ == "IDENTIFIER" and upper in reserved:
                return None
            append(Token(type_, value, start))
        elif kind == "OP":
            append(Token(_OPERATORS[value], value, start))
        elif kind == "STR":
            append(Token("STRING", (value[1:-1].replace("''", "'"), value), start))
        elif "." in value:
            append(Token("APPROX_NUMERIC", (float(value), value), start))
        else:
            append(Token("EXACT_NUMERIC", (int(value), value), start))
    return out
