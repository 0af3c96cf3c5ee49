"""AST → canonical selector text.

Used for messages, ``explain`` and the round-trip tests (text → AST → text → the same AST).
Parentheses come from the precedence levels in `tokens.LEVEL`: a child is parenthesised when it
binds no tighter than its parent, which is always correct and rarely more than needed.
"""
from __future__ import annotations

import math
import re

from ..language.dialects import JMS, Dialect
from ..language.types import JmsType
from ..language import nodes as n
from .lexer import is_java_identifier_part, is_java_identifier_start
from .tokens import LEVEL, RESERVED

__all__ = ["to_text", "level_of", "quote_string", "format_approx"]


def quote_string(value: str) -> str:
    """A selector string literal for ``value`` (quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def format_approx(value: float) -> str:
    """Selector text that parses back to exactly ``value`` (an approximate literal)."""
    if math.isinf(value):
        return "1E999" if value > 0 else "-1E999"
    text = repr(value)
    return text if any(c in text for c in ".eE") else text + ".0"


def _plain_identifier(name: str, dialect: Dialect) -> bool:
    if not name or (name.isascii() and (name.upper() in RESERVED or name.upper() in dialect.reserved_words)):
        return False
    if dialect.unicode_identifiers:
        return is_java_identifier_start(name[0]) and all(map(is_java_identifier_part, name[1:]))
    return re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name) is not None


def level_of(node: n.Node, dialect: Dialect) -> int:
    """How tightly ``node`` binds in ``dialect`` (higher binds tighter)."""
    if isinstance(node, n.Or):
        return LEVEL["or"]
    if isinstance(node, n.And):
        return LEVEL["and"]
    if isinstance(node, n.Not):
        return LEVEL["unary"] if dialect.not_binds_tighter else LEVEL["not"]
    if isinstance(node, (n.Comparison, n.IsNull)) and (
        isinstance(node, n.IsNull) or not node.op.is_ordering
    ):
        return LEVEL["equality"] if dialect.not_binds_tighter else LEVEL["comparison"]
    if isinstance(node, (n.Comparison, n.Between, n.Like, n.InList)):
        return LEVEL["comparison"]
    if isinstance(node, n.Arithmetic):
        return LEVEL["additive"] if node.op in (n.ArithOp.PLUS, n.ArithOp.MINUS) else LEVEL["multiplicative"]
    if isinstance(node, n.Unary):
        return LEVEL["unary"]
    if isinstance(node, n.Literal) and node.type.is_numeric and (node.value < 0 or math.copysign(1, node.value) < 0):
        return LEVEL["unary"]
    return LEVEL["primary"]


def to_text(node: "n.Node | None", dialect: Dialect = JMS) -> str:
    """Print ``node`` as selector text in ``dialect`` (``''`` for no selector). ``dialect`` is a
    `Dialect` (the entry points turn a name into one, once: `get_dialect`).

    >>> from jms_selector_spark import parse
    >>> to_text(parse("a=1 and not(b<>'x' or c)").root)
    "a = 1 AND NOT (b <> 'x' OR c)"
    """
    if not isinstance(dialect, Dialect):
        raise TypeError(f"dialect must be a Dialect, not {type(dialect).__name__}: pass get_dialect({dialect!r})")
    if node is None:
        return ""
    return _Printer(dialect).text(node)


class _Printer:
    def __init__(self, dialect: Dialect):
        self.d = dialect

    def identifier(self, name: str) -> str:
        """``name`` as the dialect reads it back: bare when it lexes as that identifier, else in
        double quotes (dialects with ``quoted_identifiers``; others cannot name it at all)."""
        if self.d.quoted_identifiers and not _plain_identifier(name, self.d):
            return '"' + name.replace('"', '""') + '"'
        return name

    def sub(self, child: n.Node, parent_level: int) -> str:
        text = self.text(child)
        return f"({text})" if level_of(child, self.d) <= parent_level else text

    def text(self, node: n.Node) -> str:
        lv = level_of(node, self.d)
        if isinstance(node, n.Literal):
            if node.type is JmsType.STRING:
                return quote_string(node.value)
            if node.type is JmsType.BOOLEAN:
                return "TRUE" if node.value else "FALSE"
            if node.type is JmsType.NULL:
                return "NULL"
            if node.type.is_exact:
                return str(node.value)
            return format_approx(node.value)
        if isinstance(node, n.Identifier):
            return self.identifier(node.name)
        if isinstance(node, (n.And, n.Or)):
            word = " AND " if isinstance(node, n.And) else " OR "
            return word.join(self.sub(op, lv) for op in node.operands)
        if isinstance(node, n.Not):
            return "NOT " + self.sub(node.operand, lv - 1 if not self.d.not_binds_tighter else lv)
        if isinstance(node, n.Comparison):
            return f"{self.sub(node.left, lv)} {node.op.value} {self.sub(node.right, lv)}"
        if isinstance(node, n.Arithmetic):
            return f"{self.sub(node.left, lv)} {node.op.value} {self.sub(node.right, lv)}"
        if isinstance(node, n.Unary):
            return node.op.value + self.sub(node.operand, lv)
        not_ = "NOT " if getattr(node, "negated", False) else ""
        if isinstance(node, n.Between):
            return (f"{self.sub(node.operand, lv)} {not_}BETWEEN {self.sub(node.low, lv)}"
                    f" AND {self.sub(node.high, lv)}")
        if isinstance(node, n.InList):
            values = ", ".join(quote_string(v.value) for v in node.values)
            return f"{self.sub(node.operand, lv)} {not_}IN ({values})"
        if isinstance(node, n.Like):
            esc = "" if node.escape is None else f" ESCAPE {quote_string(node.escape)}"
            return f"{self.sub(node.operand, lv)} {not_}LIKE {quote_string(node.pattern)}{esc}"
        if isinstance(node, n.IsNull):
            return f"{self.sub(node.operand, lv)} IS {'NOT ' if node.negated else ''}NULL"
        if isinstance(node, n.FunctionCall):
            # Arguments are unary expressions (ActiveMQ's functionCallExpr): parenthesise the rest.
            return f"{node.name}({', '.join(self.sub(a, LEVEL['unary'] - 1) for a in node.args)})"
        from ..language.errors import UnsupportedSelectorError

        raise UnsupportedSelectorError(f"cannot print {type(node).__name__}")
