"""Token names, reserved words and the precedence table the printer uses.

`LEVEL` drives the parenthesisation done by the printer (`printer.py`). The PLY grammars
(`parser.py`) do not read it: their precedence is in their stratified non-terminals, so a change
here must be made there too; the printer round-trip tests (`tests/unit/test_printer.py`) fail
when the two disagree.
"""
from __future__ import annotations

__all__ = ["RESERVED", "TOKENS", "LEVEL", "JAVA_WHITESPACE"]

#: Keywords, matched case-insensitively; none of them can be an identifier.
RESERVED = {
    "AND": "AND",
    "OR": "OR",
    "NOT": "NOT",
    "BETWEEN": "BETWEEN",
    "LIKE": "LIKE",
    "ESCAPE": "ESCAPE",
    "IN": "IN",
    "IS": "IS",
    "NULL": "NULL",
    "TRUE": "TRUE",
    "FALSE": "FALSE",
}

TOKENS = (
    "IDENTIFIER",
    "STRING",
    "EXACT_NUMERIC",
    "APPROX_NUMERIC",
    "EQ",
    "NE",
    "LT",
    "GT",
    "LE",
    "GE",
    "PLUS",
    "MINUS",
    "TIMES",
    "DIVIDE",
    "MODULO",
    "LPAREN",
    "RPAREN",
    "COMMA",
) + tuple(RESERVED.values())

#: Java whitespace as the JMS grammar defines it (space, tab, form feed, line terminators).
JAVA_WHITESPACE = " \t\f\r\n"

#: Binding strength of each construct, weakest first. In the ``jms`` dialect NOT sits between
#: AND and the predicates (SQL); in ``activemq`` it binds like a unary sign ("unary").
LEVEL = {
    "or": 1,
    "and": 2,
    "not": 3,
    "equality": 4,  # = <> IS [NOT] NULL (ActiveMQ chains these above the ordering level)
    "comparison": 5,  # < > <= >= [NOT] BETWEEN/LIKE/IN
    "additive": 6,
    "multiplicative": 7,
    "unary": 8,
    "primary": 9,
}
