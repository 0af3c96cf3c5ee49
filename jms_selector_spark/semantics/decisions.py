"""The decisions `lowering` makes, as values: what a back end reads off a core node.

`lowering.Rules` decides, per dialect, what each operator means for each pair of JMS types; the
answers are these small values (an `Order` or a `NumericOrder` per compared pair, a `Comparator`
per comparison operator, a `Computation` per arithmetic operator, the `Between` and `Logic`
forms, the `NullEquality` of ``=`` and a header's `HeaderRule`). The core nodes (`core`) carry
them; back ends render them and never ask how they were decided. `tabulate_comparator` and
`tabulate_computation` tabulate a `lowering.Rules`' answers into these tables, once per dialect and
operator. No `Dialect` is read here.
"""
from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from ..language.nodes import ArithOp, CompareOp
from ..language.types import JmsType

__all__ = ["Order", "NumericOrder", "CompareRule", "Between", "Logic", "NullEquality", "HeaderRule", "Comparator",
           "Computation", "tabulate_comparator", "tabulate_computation"]


class Order(enum.Enum):
    """How two non-NULL values of comparable non-numeric types compare."""

    #: Unlike types (or an ordering the dialect does not define): FALSE for any two values.
    FALSE = "false"
    #: The values compare as they are: ``=`` / ``<>`` on strings and booleans, boolean ordering.
    PLAIN = "plain"
    #: Strings ordered by UTF-16 code units (Java's ``String.compareTo``).
    UTF16 = "utf16"
    #: Unlike types that the dialect orders by type (RabbitMQ's Erlang term order: every number
    #: before every boolean, every boolean before every string): TRUE for any two values.
    TRUE = "true"
    #: A value whose type has no answer: UNKNOWN for any two values (RabbitMQ: a condition that
    #: is not a boolean, compared with TRUE by `lowering.Rules.condition`).
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class NumericOrder:
    """Two numbers: both converted to ``type`` first, then compared.

    ``total`` is ``Double.compareTo`` order for approximate types (NaN = NaN and greatest,
    -0.0 < 0.0); otherwise Java's ``==``/``<`` (NaN compares false, -0.0 = 0.0).
    """

    type: JmsType
    total: bool


#: What a comparison of two non-NULL values of given types is: an `Order` or a `NumericOrder`.
CompareRule = "Order | NumericOrder"


class Between(enum.Enum):
    """How ``x [NOT] BETWEEN lo AND hi`` is evaluated."""

    #: Two-valued: FALSE when any operand is NULL, else ``x >= lo AND x <= hi`` (NOT: its negation).
    NULL_IS_FALSE = "null_is_false"
    #: ``x < lo OR x > hi`` (three-valued; used for NOT BETWEEN only).
    OUTSIDE_AS_OR = "outside_as_or"
    #: Three-valued ``x >= lo AND x <= hi`` (NOT: its Kleene negation).
    KLEENE = "kleene"
    #: UNKNOWN when any operand is NULL, else two-valued ``x >= lo AND x <= hi`` (NOT: its
    #: negation, UNKNOWN with a NULL): RabbitMQ's ``between/3``.
    NULL_IS_UNKNOWN = "null_is_unknown"


class Logic(enum.Enum):
    """What AND and OR are (an n-ary node is the left fold of its operands)."""

    #: SQL's three-valued (Kleene) AND/OR.
    KLEENE = "kleene"
    #: ActiveMQ r450141's ``LogicExpression`` (WSO2): AND is the first operand that is not TRUE
    #: (TRUE when none is); OR is TRUE when any operand is, else the last operand's value. Both
    #: are TRUE exactly when the Kleene operator is, so where only TRUE matters (a WHERE clause,
    #: under AND/OR there) the Kleene form gives the same answer.
    LEFT_FIRST = "left_first"


@dataclass(frozen=True)
class NullEquality:
    """``l = r`` when an operand is NULL: the value (True, False or None for UNKNOWN) with NULL on
    the left only, on the right only, and on both sides."""

    left: "bool | None"
    right: "bool | None"
    both: "bool | None"


@dataclass(frozen=True)
class HeaderRule:
    """What a header reads: ``fixed`` — always ``value`` (None: NULL), whatever the message holds;
    otherwise the message's value, or ``value`` when the message has none (None: NULL)."""

    fixed: bool
    value: object = None


@dataclass(frozen=True, eq=False)
class Comparator:
    """One comparison operator as a dialect decides it, for every pair of operand types: what
    `lower` puts on each core comparison (`core.Compare`, the BETWEEN nodes' bounds), so that a
    back end asks the node, never `Rules`. A table of data, built once per dialect and operator.

    ``op``: the operator. ``eq``: not None when ``<>`` is evaluated as ``NOT (=)`` (so unlike types
    give TRUE); it is the ``=`` comparator. ``nulls``: what ``=`` gives with a NULL operand
    (`NullEquality`), None when a NULL operand makes the comparison UNKNOWN. ``converts_strings``:
    a string compared with a number or boolean is converted first (`conversion` says how).
    """

    op: CompareOp
    eq: "Comparator | None"
    nulls: "NullEquality | None"
    converts_strings: bool
    orders: dict  # (lt, rt) -> `CompareRule`, every pair of static JMS types
    conversions: dict  # (lt, rt) -> ("left" | "right" | "error", JmsType | None), converted pairs only
    #: (lt name, rt name) -> what ``l op r`` gives for any two values of static types that never
    #: compare (`core.UnlikeTypes`); only when a NULL operand makes it UNKNOWN (no `NullEquality`).
    #: Keyed by member names: `lower` looks it up once per comparison, and a name hashes fast.
    unlike: dict

    def rule(self, lt: JmsType, rt: JmsType) -> CompareRule:
        """How ``l op r`` compares two non-NULL values of the static types ``lt`` and ``rt``."""
        return self.orders[(lt, rt)]

    def conversion(self, lt, rt) -> "tuple[str, JmsType | None] | None":
        """Which side of a string vs number/boolean pair is converted (`Rules.string_conversion`)."""
        return self.conversions.get((lt, rt))


@dataclass(frozen=True, eq=False)
class Computation:
    """One arithmetic operator as a dialect decides it, for every pair of operand types: what
    `lower` puts on each core arithmetic node (`core.Compute`); a table of data, built once per
    dialect and operator.

    ``result(lt, rt)`` is the type ``l op r`` computes in for non-NULL operands (`Rules.arithmetic`):
    STRING for string concatenation, an exact type for Java's wrapping integer arithmetic, an
    approximate one for IEEE arithmetic, None for no value (NULL). ``text_jdk``: the Java version whose
    ``Double.toString`` turns a number into text when concatenating.
    """

    op: ArithOp
    results: dict  # (lt, rt) -> JmsType | None, every pair of static JMS types
    concatenates: bool  # a string on the left concatenates whatever is on the right (a list too)
    text_jdk: int

    def result(self, lt, rt) -> "JmsType | None":
        """The type ``l op r`` computes in (see the class); ``lt``/``rt`` may be a function's list."""
        try:  # one lookup: every pair of static types is in the table
            return self.results[(lt, rt)]
        except KeyError:
            return JmsType.STRING if self.concatenates and lt is JmsType.STRING else None


_STATIC = tuple(t for t in JmsType if t.is_static)


@functools.lru_cache(maxsize=None)
def tabulate_computation(rules, op: ArithOp) -> "Computation":
    """The `Computation` of ``op`` under ``rules`` (a `lowering.Rules`): its answers tabulated for
    every pair of static types, once per dialect and operator."""
    results = {(a, b): rules.arithmetic(op, a, b) for a in _STATIC for b in _STATIC}
    return Computation(op, results, rules.arithmetic(op, JmsType.STRING, None) is JmsType.STRING, rules.text_jdk)


@functools.lru_cache(maxsize=None)
def tabulate_comparator(rules, op: CompareOp) -> "Comparator":
    """The `Comparator` of ``op`` under ``rules`` (a `lowering.Rules`): its answers tabulated for
    every pair of static types, once per dialect and operator."""
    eq = tabulate_comparator(rules, CompareOp.EQ) if rules.ne_as_not_eq(op) else None
    orders = {(a, b): rules.compare(op, a, b) for a in _STATIC for b in _STATIC}
    conversions = {}
    for a in _STATIC:
        for b in _STATIC:
            how = rules.string_conversion(a, b)
            if how is not None:
                conversions[(a, b)] = how
    base_op = CompareOp.EQ if eq is not None else op
    unlike = {}
    if rules.eq_nulls(base_op) is None:
        for a in _STATIC:
            for b in _STATIC:
                rule = rules.compare(base_op, a, b)
                if rule in _CONSTANT_ORDERS and rules.string_conversion(a, b) is None:
                    unlike[(a.name, b.name)] = (rule is Order.TRUE) != (eq is not None)
    return Comparator(op, eq, rules.eq_nulls(op), rules.converts_strings, orders, conversions, unlike)


_CONSTANT_ORDERS = (Order.FALSE, Order.TRUE)
