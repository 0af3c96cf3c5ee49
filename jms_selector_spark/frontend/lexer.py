"""The selector lexer (PLY lex), private to the parser.

Built from an instance (``object=self``) once per process per dialect, writing no files. Every
bad input raises `SelectorSyntaxError` with its position: there is no skipping and no recovery.

Literals are classified here: exact numerics become Python ints (range is checked by the
parser, because ``-9223372036854775808`` is only valid once the sign is applied), approximate
numerics Python floats, strings are unquoted (``''`` → ``'``). Digits are ASCII ``0``-``9`` only
(Python's ``\\d`` and ``int()`` would also read ``١٣`` as 13). An exact literal of more than 19
digits cannot be a Java long even when negated; it is rejected here, before ``int()`` (which
refuses strings of more than 4,300 digits) is asked to read it.

Identifiers follow the JMS text: ``Character.isJavaLetter`` for the first character and
``Character.isJavaLetterOrDigit`` for the rest (letters, ``$`` and other currency symbols, ``_``
and other connector punctuation, letter numbers; then also digits, combining marks and the
identifier-ignorable format and control characters), decided per character from the Unicode
category. Dialects with ``unicode_identifiers=False`` (ActiveMQ) take ``[A-Za-z_$][A-Za-z0-9_$]*``.
Keywords are matched ASCII-case-insensitively: ``ın`` (dotless i) or ``falſe`` (long s) are
identifiers, not ``IN`` or ``FALSE``, although Python's ``str.upper`` maps them there.

Comments are found without scanning ahead more than once: ``--`` looks up the position of the
last line terminator (computed once per input), so a run of minus signs lexes in linear time.
"""
from __future__ import annotations

import re
import unicodedata

import ply.lex as lex

from .scanner import scan
from .cpp_numbers import CppNumberError, CppRangeError, scan_cpp_number
from ..language.errors import SelectorSyntaxError, SelectorTypeError
from ..language.source import Span
from .tokens import JAVA_WHITESPACE, RESERVED, TOKENS

__all__ = ["SelectorLexer", "QuotedName", "is_java_identifier_start", "is_java_identifier_part", "double_minus_positions",
           "CONVERT_PREFIX"]

#: ActiveMQ's selector prefix that switches on string conversion in comparisons.
CONVERT_PREFIX = "convert_string_expressions:"

# Candidate identifier characters for the regex: ASCII letters, digits, `_`, `$`, the ASCII
# identifier-ignorable controls, and any non-ASCII character. The exact rule (Java's, or the
# dialect's ASCII one) is applied per character in `t_IDENTIFIER`, which cuts the token short.
_ID_START = r"[A-Za-z_$]|[^\x00-\x7f]"
_ID_PART = r"[A-Za-z0-9_$\x00-\x08\x0e-\x1b\x7f]|[^\x00-\x7f]"
# A number and any identifier characters glued to it, so that `2.5F` or `0x` is reported as one
# bad literal rather than as a number followed by a surprising identifier.
_NUMBER_CORE = r"(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?"
_NUMBER = _NUMBER_CORE + "(?:" + _ID_PART + r")*"
# Identifiers may also hold `.` in dialects with ``dotted_identifiers``; cut short elsewhere.
_ID_PART_OR_DOT = _ID_PART.replace("[A-Za-z0-9_$", "[A-Za-z0-9_$.", 1)
_APPROX = re.compile(r"(?:(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)\Z")
_DECIMAL = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_EXT_DECIMAL = re.compile(r"[1-9][0-9]*[lL]?\Z")
_HEX = re.compile(r"0[xX][0-9a-fA-F]+\Z")
_OCTAL = re.compile(r"0[0-7]+\Z")
_LONG_MAX = 2**63 - 1
#: 2**63 has 19 digits: a decimal literal with more cannot be a long, even with a minus sign.
_MAX_LONG_DIGITS = 19

# Character.isJavaIdentifierStart / isJavaIdentifierPart, by Unicode general category.
_START_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Sc", "Pc"})
_PART_CATEGORIES = _START_CATEGORIES | {"Nd", "Mn", "Mc", "Cf"}
_ASCII_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
_ASCII_PART = _ASCII_START | frozenset("0123456789")
#: Text that continues (``_PLAIN_PART``) or is (``_PLAIN_NAME``) an identifier in every dialect.
_PLAIN_PART = re.compile(r"[A-Za-z0-9_$]*")
_PLAIN_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# Character.isIdentifierIgnorable: these controls, and every format (Cf) character.
_IGNORABLE_CONTROLS = frozenset(chr(c) for c in (*range(0x00, 0x09), *range(0x0E, 0x1C), *range(0x7F, 0xA0)))


def is_java_identifier_start(c: str) -> bool:
    """``Character.isJavaIdentifierStart(c)`` (the JMS text's ``isJavaLetter``)."""
    if c < "\x80":
        return c in _ASCII_START
    return unicodedata.category(c) in _START_CATEGORIES


def is_java_identifier_part(c: str) -> bool:
    """``Character.isJavaIdentifierPart(c)`` (the JMS text's ``isJavaLetterOrDigit``)."""
    if c < "\x80":
        return c in _ASCII_PART or c in _IGNORABLE_CONTROLS
    return c in _IGNORABLE_CONTROLS or unicodedata.category(c) in _PART_CATEGORIES


class QuotedName(str):
    """An identifier written in double quotes: its name, and ``raw`` (the quoted source text)."""

    __slots__ = ("raw",)

    def __new__(cls, name: str, raw: str):
        self = super().__new__(cls, name)
        self.raw = raw
        return self


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

    def t_BANG_NE(self, t):
        r"!="
        if not self.dialect.bang_equals:
            self._fail("unexpected '!=' (use = and <>)", t.lexpos, 2)
        t.type = "NE"
        t.value = "<>"  # same length: spans stay right
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
        self._last_line_end = -1
        self._lexer = lex.lex(object=self, optimize=False, debug=False, errorlog=lex.NullLogger())

    # Comments exist only in dialects that have them (ActiveMQ): /* ... */ (not nested) and a
    # `--` comment that a line break ends. Listed first so that `--` is not two minus signs there.
    # The regex takes only the opening two characters; the end is found with str.find, once, so
    # that neither a run of `-` nor of `/*` makes the lexer rescan the rest of the input.
    def t_COMMENT(self, t):
        r"/\*|--"
        text, start = t.lexer.lexdata, t.lexpos
        if t.value == "/*":
            if not self.dialect.comments:
                self._fail("comments are not part of JMS selectors", start, 2)
            end = text.find("*/", start + 2)
            if end < 0:
                self._fail("unterminated comment", start, 2)
            t.lexer.lexpos = end + 2
            return None
        if self.dialect.comments and start + 2 <= self._last_line_end:
            # ActiveMQ: `--` up to and including the next line terminator.
            nl = text.find("\n", start + 2)
            cr = text.find("\r", start + 2)
            t.lexer.lexpos = min(i for i in (nl, cr) if i >= 0) + 1
            return None
        # jms, or no line terminator follows (ActiveMQ's comment needs one): two minus signs.
        t.lexer.lexpos = start + 1
        t.type = "MINUS"
        t.value = "-"
        return t

    # A string literal: '' inside stands for one quote. Must come before the unterminated rule.
    def t_STRING(self, t):
        r"'(?:[^']|'')*'"
        t.value = (t.value[1:-1].replace("''", "'"), t.value)
        return t

    def t_BAD_STRING(self, t):
        r"'(?:[^']|'')*\Z"
        self._fail("unterminated string literal", t.lexpos, len(t.value))

    # A double-quoted identifier (Artemis, Qpid; ActiveMQ's QUOTED_ID, WSO2): any text, "" inside
    # stands for one quote. Outside dialects with ``quoted_identifiers`` a double quote is an error.
    def t_QUOTED_IDENTIFIER(self, t):
        r'"(?:[^"]|"")*"'
        if not self.dialect.quoted_identifiers:
            self._fail("unexpected '\"' (string literals use single quotes)", t.lexpos, 1)
        t.type = "IDENTIFIER"
        t.value = QuotedName(t.value[1:-1].replace('""', '"'), t.value)
        return t

    @lex.TOKEN(_NUMBER)
    def t_NUMBER(self, t):
        if self.dialect.cpp_literals:
            return self._cpp_number(t)
        text = t.value
        core = re.match(_NUMBER_CORE, text).end()
        glued = self._identifier_length(text[core:], start=False)
        text = text[:core + glued]  # stop before a character no identifier may hold
        if glued and self._literal_kind(text) is None:
            # Java's tokenizer (ActiveMQ's JavaCC one too) ends a number where a keyword begins:
            # `b BETWEEN 100AND 200` is `100 AND`. Only a keyword can follow a number there.
            for k in range(2, 8):
                head, tail = text[:-k], text[-k:]
                if len(head) >= core and tail.isascii() and tail.upper() in RESERVED and self._literal_kind(head):
                    text = head
                    break
        if not self.dialect.require_eof and self._literal_kind(text) is None:
            # JavaCC's longest match (WSO2, whose parser then ignores what follows): `0.0f` is
            # 0.0 then f, `09` is 0 then 9.
            text = next((text[:k] for k in range(len(text) - 1, 0, -1) if self._literal_kind(text[:k])), text)
        t.lexer.lexpos = t.lexpos + len(text)
        kind, value = self._classify_number(text, t.lexpos)
        t.type = kind
        t.value = (value, text)
        return t

    @lex.TOKEN("(?:" + _ID_START + ")(?:" + _ID_PART_OR_DOT + ")*")
    def t_IDENTIFIER(self, t):
        length = self._identifier_length(t.value, start=True)
        if length == 0:
            c = t.value[0]
            if not self.dialect.unicode_identifiers and is_java_identifier_start(c):
                self._fail(f"unexpected character {c!r} (the {self.dialect.name!r} dialect takes ASCII"
                           " identifiers only)", t.lexpos, 1)
            self._fail(f"unexpected character {c!r}", t.lexpos, 1)
        if length < len(t.value):  # the rest is lexed again (and reported) by the other rules
            t.value = t.value[:length]
            t.lexer.lexpos = t.lexpos + length
        upper = t.value.upper() if t.value.isascii() else None
        t.type = "IDENTIFIER" if upper is None else RESERVED.get(upper, "IDENTIFIER")
        if t.type == "IDENTIFIER" and upper is not None and upper in self.dialect.reserved_words:
            # ActiveMQ's XPATH 'expr' / XQUERY 'expr' select on the message body, which a table
            # of properties does not have; the words are reserved there (`xpath IS NULL` is
            # invalid), so they are never property names.
            self._fail(f"{t.value!r} is a reserved word in the {self.dialect.name!r} dialect"
                       " (XPATH/XQUERY body selectors are not supported)", t.lexpos, len(t.value))
        return t

    def _identifier_length(self, text: str, *, start: bool) -> int:
        """Length of the longest prefix of ``text`` that continues (or, with ``start``, begins)
        an identifier under this dialect's rule."""
        if (_PLAIN_NAME if start else _PLAIN_PART).fullmatch(text):
            return len(text)  # ASCII letters, digits, _ and $ only: an identifier under every rule
        if self.dialect.unicode_identifiers:
            first, rest = is_java_identifier_start, is_java_identifier_part
        else:
            first, rest = _ASCII_START.__contains__, _ASCII_PART.__contains__
        dots = self.dialect.dotted_identifiers
        for i, c in enumerate(text):
            if not (first(c) if (start and i == 0) else (rest(c) or (dots and c == "."))):
                return i
        return len(text)

    def t_error(self, t):
        ch = t.value[0]
        if ch == '"':
            what = "unexpected '\"' (string literals use single quotes)"
        elif t.value[:2] in ("!=", "=="):
            self._fail(f"unexpected {t.value[:2]!r} (use = and <>)", t.lexpos, 2)
        else:
            what = f"unexpected character {ch!r}"
        self._fail(what, t.lexpos, 1)

    def _literal_kind(self, text: str) -> "str | None":
        """Which numeric literal ``text`` is in this dialect ('approx', 'decimal', 'hex', 'octal'),
        or None when it is none."""
        if _APPROX.match(text):
            return "approx"
        if _DECIMAL.match(text) or (self.dialect.extended_literals and _EXT_DECIMAL.match(text)):
            return "decimal"
        if self.dialect.extended_literals:
            if _HEX.match(text):
                return "hex"
            if _OCTAL.match(text):
                return "octal"
        return None

    def _classify_number(self, text: str, pos: int):
        kind = self._literal_kind(text)
        if kind == "approx":
            return "APPROX_NUMERIC", float(text)
        if kind == "decimal":
            digits = text.rstrip("lL")
            if len(digits) > _MAX_LONG_DIGITS:
                raise SelectorTypeError("exact numeric literal out of the range of a Java long", self._text,
                                        Span(pos, pos + len(text)))
            return "EXACT_NUMERIC", int(digits)
        if kind in ("hex", "octal"):
            value = int(text[2:], 16) if kind == "hex" else int(text, 8)
            if value > _LONG_MAX:
                # ActiveMQ reads hex and octal with Long.parseLong before any sign applies:
                # 0x8000000000000000 is invalid even as -0x8000000000000000 (the oracle).
                raise SelectorTypeError(f"{kind} literal out of the range of a Java long (a minus sign"
                                        " does not make 2^63 valid here)", self._text,
                                        Span(pos, pos + len(text)))
            return "EXACT_NUMERIC", value
        if not self.dialect.extended_literals and re.match(r"(?:0[xX][0-9a-fA-F]+|0[0-7]+|[0-9]+[lL])\Z", text):
            self._fail(
                f"invalid numeric literal {text!r} (hex, octal and L-suffixed literals are not JMS;"
                " the 'activemq' dialect accepts them)",
                pos,
                len(text),
            )
        self._fail(f"invalid numeric literal {text!r}", pos, len(text))

    def _cpp_number(self, t):
        """Qpid C++'s literal forms and values (`cpp_numbers`)."""
        data, pos = t.lexer.lexdata, t.lexpos
        try:
            end, kind, value = scan_cpp_number(data, pos)
        except CppRangeError as e:  # a decimal of 2^63 and above is checked by the parser, with its sign
            raise SelectorTypeError(str(e), self._text, Span(pos, pos + len(t.value)))
        except CppNumberError as e:
            self._fail(f"invalid numeric literal {t.value!r} ({e})", pos, len(t.value))
        t.lexer.lexpos = end
        t.type = "EXACT_NUMERIC" if kind == "exact" else "APPROX_NUMERIC"
        t.value = (value, data[pos:end])
        return t

    def _fail(self, message, pos, length):
        raise SelectorSyntaxError(message, self._text, Span(pos, pos + length))

    def tokenize(self, text: str):
        """The tokens of ``text``, an iterator (raises `SelectorSyntaxError` on bad input):
        `scanner.scan`'s when the text is plain, else `ply_tokens`'."""
        fast = scan(text, self.dialect)
        return iter(fast) if fast is not None else self.ply_tokens(text)

    def ply_tokens(self, text: str):
        """Yield PLY's tokens for ``text``: the definition `scanner.scan` is tested against."""
        self._text = text
        self._last_line_end = max(text.rfind("\n"), text.rfind("\r"))
        self._lexer.input(text)
        self._lexer.lineno = 1
        if self.dialect.string_conversion_prefix and text.startswith(CONVERT_PREFIX):
            # ActiveMQ's `convert_string_expressions:` (exactly, at position 0) is not part of the
            # grammar: SelectorParser strips it and parses the rest (see `selector.parse`).
            self._lexer.lexpos = len(CONVERT_PREFIX)
        while True:
            tok = self._lexer.token()
            if tok is None:
                return
            yield tok


def double_minus_positions(text: str, dialect) -> "tuple[list[int], bool]":
    """Where ``text`` has ``--`` lexed as two minus signs, and whether the dialect has comments.

    In a dialect with comments, ``-- ...`` is a comment only when a line break ends it; anywhere
    else (and in a dialect without comments) ``--`` is two minus signs: ``a = 1 -- note`` means
    ``a = 1 - (-note)``. Raises `SelectorSyntaxError` on text that does not tokenize.
    """
    previous = None
    out = []
    for tok in SelectorLexer(dialect).tokenize(text):
        if tok.type == "MINUS" and previous is not None and previous.type == "MINUS" \
                and previous.lexpos + 1 == tok.lexpos and (not out or out[-1] != previous.lexpos):
            out.append(previous.lexpos)
        previous = tok
    return out, bool(dialect.comments)
