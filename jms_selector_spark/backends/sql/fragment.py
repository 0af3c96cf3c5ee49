"""A rendered fragment as data: its text, and where its literals and compared columns sit.

The generator marks, while it writes, each literal of the selector that could be a run-time value
(a *slot*: sqlglot's placeholders) and each plain STRING column it compares with such literals
(``c = 'a'``, ``c <> 'a'``, ``c IN ('a', 'b')``: a *column use*). A mark is ASCII control characters
around the text (`mark_literal`, `mark_column`) that no generated SQL otherwise holds: identifiers
that contain them switch marking off (`can_mark`), strings are hex-encoded. `unmark` turns the
marked text into the clean text and the positions of the marks, once per fragment; everything a
reader needs — Spark type and value of each slot, the column of each use — comes from the tables
the generator filled, never from reading SQL.

Routing reads these (`spark.routing`): fragments equal but for their slots' values share one
template whose slots become parameters; a column use is compared as a number there; a top-level
conjunct's span is replaced by TRUE where an index implies it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Slot", "ColumnUse", "Fragment", "mark_literal", "mark_column", "unmark", "clean_length", "can_mark"]

#: Opens a literal slot (then four hex digits: its id), and a column use; both end at _CLOSE.
#: ASCII control characters, so marked SQL stays a one-byte-per-character string.
_LITERAL = "\x01"
_COLUMN = "\x02"
_CLOSE = "\x03"
_ID_WIDTH = 4
#: Characters a mark is made of: an identifier holding one of them cannot be marked around.
_MARK_CHARS = (_LITERAL, _COLUMN, _CLOSE)


def can_mark(*names: str) -> bool:
    """Whether marks can be told apart from text that holds these identifiers."""
    return not any(ch in name for name in names for ch in _MARK_CHARS)


def mark_literal(text: str, sid: int) -> str:
    return f"{_LITERAL}{sid:04x}{text}{_CLOSE}"


def mark_column(text: str, cid: int) -> str:
    return f"{_COLUMN}{cid:04x}{text}{_CLOSE}"


def clean_length(sql: str) -> int:
    """The length ``sql`` will have once unmarked (each mark adds six characters)."""
    return len(sql) - (2 + _ID_WIDTH) * sql.count(_CLOSE)


def unmark(sql: str) -> "tuple[str, list]":
    """``(clean text, [(kind, id, start, end)])``: each mark's kind (``"literal"`` or
    ``"column"``), its id and the span of its text in the clean text, in text order."""
    if _CLOSE not in sql:
        return sql, []
    out, marks, pos = [], [], 0
    pieces = sql.split(_CLOSE)
    for piece in pieces[:-1]:
        i = max(piece.rfind(_LITERAL), piece.rfind(_COLUMN))
        before, inner = piece[:i], piece[i + 1 + _ID_WIDTH:]
        out.append(before)
        pos += len(before)
        marks.append(("literal" if piece[i] == _LITERAL else "column", int(piece[i + 1:i + 1 + _ID_WIDTH], 16), pos, pos + len(inner)))
        out.append(inner)
        pos += len(inner)
    out.append(pieces[-1])
    return "".join(out), marks


class Slot(NamedTuple):
    """A literal of the fragment that may be a run-time value: its span, Spark type (``STRING``,
    ``INT``, ``BIGINT`` or ``DOUBLE``), Python value and text."""

    start: int
    end: int
    type: str
    value: object
    text: str


class ColumnUse(NamedTuple):
    """A top-level STRING column compared with literals as a whole operand (``c = P``, ``c <> P``,
    ``c IN (P, ...)``): its span, the column's name, and the slots (indexes into
    `Fragment.slots`) it is compared with."""

    start: int
    end: int
    column: str
    slots: tuple


@dataclass(frozen=True)
class Fragment:
    """A native fragment with its marks resolved.

    Attributes
    ----------
    text : str
        The SQL.
    slots : tuple of Slot
        In text order.
    columns : tuple of ColumnUse
    conjuncts : tuple of (start, end)
        The spans of its top-level AND operands (one span, the whole text, when it is not an AND).
    atoms : tuple of tuple
        Per top-level conjunct, its ``(value SQL, operator, slot index)`` bounds: the operands of
        the conjunct's AND chains (nested ones too) that are exactly ``<value> <op> <slot>`` with
        ``op`` one of ``<, <=, >, >=`` (`Spark orders the value as the comparison does`).
    lambdas : bool
        The text holds a lambda (a slot there cannot be a parameter of another lambda).
    decimal : bool
        The text holds a DECIMAL (Spark types an integer literal meeting one more narrowly than a
        value of the literal's type: numeric slots stay literals).
    """

    text: str
    slots: tuple = ()
    columns: tuple = ()
    conjuncts: tuple = ()
    atoms: tuple = ()
    lambdas: bool = False
    decimal: bool = False
