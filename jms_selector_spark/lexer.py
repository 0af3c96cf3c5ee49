"""The selector lexer (PLY lex), private to the parser.

Built from an instance (``object=self``) once per process per dialect, writing no files. Every
bad input raises `SelectorSyntaxError` with its position: there is no skipping and no recovery.

Literals are classified here: exact numerics become Python ints (range is checked by the
parser, because ``-9223372036854775808`` is only valid once the sign is applied), approximate
numerics Python floats, strings are unquoted (``''`` → ``'``).
"""
from __future__ import annotations

import re

import ply.lex as lex

from .errors import SelectorSyntaxError
from .source import Span
from .tokens import JAVA_WHITESPACE, RESERVED, TOKENS

__all__ = ["SelectorLexer"]

# Java identifier characters (Character.isJavaIdentifierStart/Part), approximated with Unicode
# word characters plus currency symbols and combining marks.
_ID_START = r"[^\W\d]|[$\u00a2-\u00a5\u20a0-\u20cf]"
_ID_PART = r"[\w$\u00a2-\u00a5\u20a0-\u20cf\u0300-\u036f\u200c\u200d]"
# A number and any identifier characters glued to it, so that `2.5F` or `0x` is reported as one
# bad literal rather than as a number followed by a surprising identifier.
_NUMBER = r"(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?" + _ID_PART + r"*"
_APPROX = re.compile(r"(?:(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)\Z")
_DECIMAL = re.compile(r"(?:0|[1-9]\d*)\Z")
_EXT_DECIMAL = re.compile(r"[1-9]\d*[lL]?\Z")
_HEX = re.compile(r"0[xX][0-9a-fA-F]+\Z")
_OCTAL = re.compile(r"0[0-7]+\Z")


class SelectorLexer:
    """Tokenizer for one dialect. Use `tokenize`; the PLY object stays inside."""

    tokens = TOKENS

    t_ignore = JAVA_WHITESPACE

    # Two-character operators are functions so that they are tried before `<`, `>` (PLY tries
    # function rules in definition order, string rules by decreasing regex length).
    def t_NE(self, t):
        r"<>"
        return t

    def t_LE(self, t):
        r"<="
        return t

    def t_GE(self, t):
        r">="
        return t

    t_EQ = r"="
    t_LT = r"<"
    t_GT = r">"
    t_PLUS = r"\+"
    t_MINUS = r"-"
    t_TIMES = r"\*"
    t_DIVIDE = r"/"
    t_MODULO = r"%"
    t_LPAREN = r"\("
    t_RPAREN = r"\)"
    t_COMMA = r","

    def __init__(self, dialect):
        self.dialect = dialect
        self._text = ""
        self._lexer = lex.lex(object=self, optimize=False, debug=False, errorlog=lex.NullLogger())

    # Comments exist only in dialects that have them (ActiveMQ): /* ... */ (not nested) and a
    # `--` comment that a line break ends. Listed first so that `--` is not two minus signs there.
    def t_COMMENT(self, t):
        r"/\*(?:[^*]|\*(?!/))*\*/|--[^\n\r]*(?:\r\n|\n|\r)"
        if not self.dialect.comments:
            if t.value.startswith("/*"):
                self._fail("comments are not part of JMS selectors", t.lexpos, 2)
            # jms: `--` is two minus signs; give the text back to the other rules.
            t.lexer.lexpos = t.lexpos + 1
            t.type = "MINUS"
            t.value = "-"
            return t
        return None

    # A string literal: '' inside stands for one quote. Must come before the unterminated rule.
    def t_STRING(self, t):
        r"'(?:[^']|'')*'"
        t.value = (t.value[1:-1].replace("''", "'"), t.value)
        return t

    def t_BAD_STRING(self, t):
        r"'(?:[^']|'')*\Z"
        self._fail("unterminated string literal", t.lexpos, len(t.value))

    @lex.TOKEN(_NUMBER)
    def t_NUMBER(self, t):
        text = t.value
        kind, value = self._classify_number(text, t.lexpos)
        t.type = kind
        t.value = (value, text)
        return t

    @lex.TOKEN("(?:" + _ID_START + ")" + _ID_PART + "*")
    def t_IDENTIFIER(self, t):
        if not self.dialect.unicode_identifiers and not t.value.isascii():
            bad = next(i for i, c in enumerate(t.value) if not c.isascii())
            self._fail(f"unexpected character {t.value[bad]!r} (the {self.dialect.name!r} dialect takes ASCII"
                       " identifiers only)", t.lexpos + bad, 1)
        t.type = RESERVED.get(t.value.upper(), "IDENTIFIER")
        return t

    def t_error(self, t):
        ch = t.value[0]
        if ch == '"':
            what = "unexpected '\"' (string literals use single quotes)"
        elif ch in "!=" and t.value[:2] in ("!=", "=="):
            what = f"unexpected {t.value[:2]!r} (use = and <>)"
        else:
            what = f"unexpected character {ch!r}"
        self._fail(what, t.lexpos, 1)

    def _classify_number(self, text: str, pos: int):
        if _APPROX.match(text):
            return "APPROX_NUMERIC", float(text)
        d = self.dialect
        if _DECIMAL.match(text):
            return "EXACT_NUMERIC", int(text)
        if d.extended_literals:
            if _EXT_DECIMAL.match(text):
                return "EXACT_NUMERIC", int(text.rstrip("lL"))
            if _HEX.match(text):
                return "EXACT_NUMERIC", int(text.rstrip("lL")[2:], 16)
            if _OCTAL.match(text):
                return "EXACT_NUMERIC", int(text.rstrip("lL"), 8)
        elif re.match(r"(?:0[xX][0-9a-fA-F]+|0[0-7]+|\d+[lL])\Z", text):
            self._fail(
                f"invalid numeric literal {text!r} (hex, octal and L-suffixed literals are not JMS;"
                " the 'activemq' dialect accepts them)",
                pos,
                len(text),
            )
        self._fail(f"invalid numeric literal {text!r}", pos, len(text))

    def _fail(self, message, pos, length):
        raise SelectorSyntaxError(message, self._text, Span(pos, pos + length))

    def tokenize(self, text: str):
        """Yield PLY tokens for ``text`` (raises `SelectorSyntaxError` on bad input)."""
        self._text = text
        self._lexer.input(text)
        self._lexer.lineno = 1
        while True:
            tok = self._lexer.token()
            if tok is None:
                return
            yield tok
