"""JMS value types, their families, and Java binary numeric promotion.

JMS properties are Java values: ``boolean``, ``byte``, ``short``, ``int``, ``long``, ``float``,
``double`` and ``String``. Selector literals are typed when they are parsed (exact numerics are
``long``, or ``int`` when a dialect narrows them as ActiveMQ does; approximate numerics are
``double``). This module names the types, their families (what comparability is decided on) and
Java binary numeric promotion (byte/short/int → int, then long, then double). Which rule a
dialect applies to a pair of types (promotion tables, unlike types, ordering) is decided in
`lowering.py`, which builds on this module; back ends never re-derive a rule.
"""
from __future__ import annotations

import enum
from types import MappingProxyType

__all__ = [
    "JmsType",
    "promote",
    "INT_MIN",
    "INT_MAX",
    "LONG_MIN",
    "LONG_MAX",
    "ACTIVEMQ_COMPARISON_PROMOTION",
    "EXACT_ONLY_PROMOTION",
    "INT64_DOUBLE_PROMOTION",
]

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1


class JmsType(enum.Enum):
    """The static type of a selector sub-expression.

    ``DYNAMIC`` means "known only per message" (a VARIANT property, or a value given to
    `evaluate` without a schema); ``NULL`` is the type of a value that is always NULL
    (a property the table does not have).
    """

    #: Members are singletons compared by identity: hash them by identity too (C-level), not by
    #: `enum.Enum`'s Python-level hash of the name; they key every per-type decision table.
    __hash__ = object.__hash__

    BOOLEAN = "boolean"
    BYTE = "byte"
    SHORT = "short"
    INT = "int"
    LONG = "long"
    FLOAT = "float"
    DOUBLE = "double"
    STRING = "string"
    DYNAMIC = "dynamic"
    NULL = "null"

    @property
    def is_exact(self) -> bool:
        return self in _EXACT

    @property
    def is_approximate(self) -> bool:
        return self in (JmsType.FLOAT, JmsType.DOUBLE)

    @property
    def is_numeric(self) -> bool:
        return self.is_exact or self.is_approximate

    @property
    def is_static(self) -> bool:
        """True when the type is fixed for every message (not DYNAMIC, not NULL)."""
        return self not in (JmsType.DYNAMIC, JmsType.NULL)

    @property
    def family(self) -> str:
        """'boolean', 'numeric', 'string', 'dynamic' or 'null': what comparability is decided on."""
        if self.is_numeric:
            return "numeric"
        return self.value

    @classmethod
    def parse(cls, name: str) -> "JmsType":
        """Map a user-facing type name (``'long'``, ``'String'``, ``'bigint'``…) to a JmsType."""
        key = name.strip().lower()
        key = _ALIASES.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise ValueError(
                f"unknown JMS type {name!r}; expected one of "
                + ", ".join(t.value for t in cls if t.is_static)
            ) from None


_EXACT = frozenset({JmsType.BYTE, JmsType.SHORT, JmsType.INT, JmsType.LONG})
_ALIASES = {
    "bool": "boolean",
    "tinyint": "byte",
    "smallint": "short",
    "integer": "int",
    "bigint": "long",
    "real": "float",
    "str": "string",
}


def promote(left: JmsType, right: JmsType) -> JmsType:
    """Java binary numeric promotion of two numeric types (JLS 5.6.2).

    >>> promote(JmsType.BYTE, JmsType.SHORT)
    <JmsType.INT: 'int'>
    >>> promote(JmsType.INT, JmsType.LONG)
    <JmsType.LONG: 'long'>
    >>> promote(JmsType.LONG, JmsType.FLOAT)
    <JmsType.FLOAT: 'float'>
    >>> promote(JmsType.FLOAT, JmsType.DOUBLE)
    <JmsType.DOUBLE: 'double'>
    """
    if JmsType.DOUBLE in (left, right):
        return JmsType.DOUBLE
    if JmsType.FLOAT in (left, right):
        return JmsType.FLOAT
    if JmsType.LONG in (left, right):
        return JmsType.LONG
    return JmsType.INT



_NUMERIC = (JmsType.BYTE, JmsType.SHORT, JmsType.INT, JmsType.LONG, JmsType.FLOAT, JmsType.DOUBLE)
_B, _S, _I, _L, _F, _D = _NUMERIC

#: ActiveMQ ComparisonExpression.compare: which (left, right) classes it converts, and to what
#: (`Dialect.comparison_promotion`). Measured with the oracle: `byte = int` compares, `int = byte`
#: is FALSE; long vs float is float.
ACTIVEMQ_COMPARISON_PROMOTION = MappingProxyType({
    **{(t, t): t for t in _NUMERIC},
    (_B, _S): _S, (_B, _I): _I, (_B, _L): _L, (_B, _F): _F, (_B, _D): _D,
    (_S, _I): _I, (_S, _L): _L, (_S, _F): _F, (_S, _D): _D,
    (_I, _L): _L, (_I, _F): _F, (_I, _D): _D,
    (_L, _I): _L, (_L, _F): _F, (_L, _D): _D,
    (_F, _I): _F, (_F, _L): _F, (_F, _D): _D,
    (_D, _I): _D, (_D, _L): _D, (_D, _F): _D,
})

#: MQe: only values of one type compare (no numeric promotion).
EXACT_ONLY_PROMOTION = MappingProxyType({(t, t): t for t in _NUMERIC})

#: Qpid C++ (SelectorValue.cpp `promoteNumeric`): every exact value is an int64 and every
#: approximate one a double; two exact values compare as int64, anything else as double.
INT64_DOUBLE_PROMOTION = MappingProxyType({(a, b): _L if a.is_exact and b.is_exact else _D
                                           for a in _NUMERIC for b in _NUMERIC})
