"""The core language: what every back end implements, and all it implements.

`lowering.lower` turns a selector's tree (the front end's `nodes`) into a tree of these nodes for
one dialect. A construct whose meaning differs between dialects becomes the core node that says
which meaning it has, so a back end renders the node and never asks a `Dialect` or `Rules`:

- logic: `KleeneAnd` / `KleeneOr` (SQL's three-valued AND/OR) or `LeftFirstAnd` /
  `LeftFirstOr` (ActiveMQ r450141's, WSO2); NOT is always Kleene (`nodes.Not`);
- BETWEEN: `TwoValuedBetween` (a NULL operand makes it FALSE — NOT BETWEEN TRUE — the ``jms``
  null rule as an explicit node), `InsideBetween` (``x >= lo AND x <= hi`` with the dialect's
  AND; negated: its Kleene NOT) or `OutsideBetween` (NOT BETWEEN as ``x < lo OR x > hi``);
- IN: `InStrings`, which carries what it gives for a value that is not a string; LIKE:
  `LikeString`, the same, and its pattern planned once (`like.like_segments`: the normalised
  ``%``-separated segments every back end renders);
- comparisons: `Compare`, which carries its `decisions.Comparator` — for every pair of operand
  types, the order and promotion, "unlike types: FALSE", ActiveMQ's string conversion, the NULL
  rule of ``=`` and ``<>`` as ``NOT =`` — and so do the BETWEEN nodes for their two bounds;
  `UnlikeTypes` where the binder knows both operands' types and they never compare (``color =
  5`` on a string column: FALSE, UNKNOWN for a NULL), decided at lowering, not per row;
- arithmetic: `Compute`, which carries its `decisions.Computation` (the type each pair of operand
  types computes in: Java promotion and wrap, IEEE, concatenation, or no value); `Negate` (unary
  minus, with the type each numeric type negates in) and `Plus` (which says whether a non-number passes through); `Call`, an ActiveMQ
  function, with the Java version that formats its numbers as text.

Each core node is a subclass of the front-end node of the same shape (so `nodes.children` and
`nodes.walk` see through it), and adds only the decided fields. The front-end nodes that mean
the same in every dialect (`Literal`, `Identifier`, `Not`, `IsNull`) are core nodes as
they are: `CORE_TYPES` lists the language. The other front-end nodes (`And`, `Or`, `Comparison`,
`Arithmetic`, `Unary`, `Between`, `InList`, `Like`, `FunctionCall`) are not in it; a back end that met one would refuse it (`visitor.NodeVisitor`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import nodes as n
from ..language.types import JmsType

__all__ = ["Compare", "UnlikeTypes", "Compute", "Negate", "Plus", "Call", "KleeneAnd", "KleeneOr", "LeftFirstAnd", "LeftFirstOr", "TwoValuedBetween", "InsideBetween",
           "OutsideBetween", "InStrings", "LikeString", "CORE_TYPES", "LOWERED_AWAY",
           "PREDICATES", "static_type"]


@dataclass(frozen=True, slots=True)
class KleeneAnd(n.And):
    """Three-valued AND of two or more operands (FALSE wins, then UNKNOWN)."""


@dataclass(frozen=True, slots=True)
class KleeneOr(n.Or):
    """Three-valued OR of two or more operands (TRUE wins, then UNKNOWN)."""


@dataclass(frozen=True, slots=True)
class LeftFirstAnd(n.And):
    """ActiveMQ r450141's AND folded left: the first operand that is not TRUE, else TRUE. TRUE
    exactly when `KleeneAnd` is; it differs where UNKNOWN comes before FALSE."""


@dataclass(frozen=True, slots=True)
class LeftFirstOr(n.Or):
    """ActiveMQ r450141's OR folded left: TRUE when any operand is, else the last operand."""


@dataclass(frozen=True, slots=True)
class Compare(n.Comparison):
    """``left op right`` as ``cmp`` (a `decisions.Comparator`) decides it for the operands' types.

    ``types``: ``(left type, right type)`` when the typed tree knows both statically (a literal,
    a column of static type, a predicate, static arithmetic or sign: `static_type`; ``JmsType.NULL``
    for an operand that is always NULL), so a back end takes ``cmp``'s decision for that pair
    without working out the operands' types; None when either is DYNAMIC (a VARIANT property, a
    function's value: the back end dispatches per row or per VARIANT branch)."""

    cmp: object = None
    types: "tuple | None" = None


@dataclass(frozen=True, slots=True)
class UnlikeTypes(n.Comparison):
    """``left op right`` on two operands whose static types never compare in the dialect
    (unlike types, an ordering it does not define): ``value`` when both have a value (False;
    True for ``<>`` where it is ``NOT =``), UNKNOWN when either is NULL. `lowering.lower` makes it
    only when both types are static and the dialect's ``=`` has no NULL rule of its own."""

    value: bool = False


@dataclass(frozen=True, slots=True)
class Compute(n.Arithmetic):
    """``left op right`` in the type ``how`` (a `decisions.Computation`) names for the operands' types.

    ``types``: ``(left type, right type)`` when both are static (as for `Compare`), else None."""

    how: object = None
    types: "tuple | None" = None


@dataclass(frozen=True, slots=True)
class Negate(n.Unary):
    """Unary minus: NULL for a non-number; a number negated in the type ``to`` pairs with its
    type (``((JmsType, JmsType), ...)``: Java promotes byte/short to int and wraps; Qpid C++
    negates every exact value as a 64-bit integer and every other as a double). ``operand_type``:
    x's static type (`static_type`), None when it is DYNAMIC."""

    to: tuple = ()
    operand_type: "object" = None

    def computes_in(self, t):
        """The JMS type ``-x`` computes in when ``x`` has the numeric JMS type ``t``."""
        for source, target in self.to:
            if source is t:
                return target
        raise KeyError(t)


@dataclass(frozen=True, slots=True)
class Plus(n.Unary):
    """Unary plus: a number unchanged; any other value unchanged when ``keeps_any``, else NULL.
    ``operand_type``: x's static type (`static_type`), None when it is DYNAMIC."""

    keeps_any: bool = False
    operand_type: "object" = None


@dataclass(frozen=True, slots=True)
class Call(n.FunctionCall):
    """An ActiveMQ function (`functions`); ``text_jdk`` is the Java version that formats numbers as text."""

    text_jdk: int = 17


@dataclass(frozen=True, slots=True)
class TwoValuedBetween(n.Between):
    """``x [NOT] BETWEEN lo AND hi``, two-valued: FALSE when any operand is NULL, else
    ``x >= lo AND x <= hi`` (``low_cmp`` is the ``>=``, ``high_cmp`` the ``<=`` `Comparator`);
    negated, the negation of that (so TRUE when one is NULL)."""

    low_cmp: object = None
    high_cmp: object = None
    types: "tuple | None" = None


@dataclass(frozen=True, slots=True)
class InsideBetween(n.Between):
    """``x >= lo AND x <= hi`` (the AND `LeftFirstAnd`'s when ``left_first``, else Kleene);
    negated, its Kleene NOT. ``low_cmp``/``high_cmp``: the ``>=``/``<=`` `Comparator`."""

    low_cmp: object = None
    high_cmp: object = None
    left_first: bool = False
    types: "tuple | None" = None


@dataclass(frozen=True, slots=True)
class OutsideBetween(n.Between):
    """``x NOT BETWEEN lo AND hi`` as ``x < lo OR x > hi`` (the OR `LeftFirstOr`'s when
    ``left_first``, else Kleene). ``negated`` is always True. ``low_cmp``/``high_cmp``: the
    ``<``/``>`` `Comparator`."""

    low_cmp: object = None
    high_cmp: object = None
    left_first: bool = False
    types: "tuple | None" = None


@dataclass(frozen=True, slots=True)
class InStrings(n.InList):
    """``x [NOT] IN ('a', ...)``: UNKNOWN when x is NULL; for a string, membership (negated: its
    negation); for any other value, ``non_string`` (True, False, or None for UNKNOWN).
    ``operand_type`` (here and on `LikeString`): x's static JMS type when it has one (NULL when x
    is always NULL), else None (DYNAMIC: the back end tells strings apart per value)."""

    non_string: "bool | None" = False
    operand_type: "object" = None


@dataclass(frozen=True, slots=True)
class LikeString(n.Like):
    """``x [NOT] LIKE pattern``: UNKNOWN when x is NULL; for a string, the match (negated: its
    negation); for any other value, ``non_string`` (True, False, or None for UNKNOWN: Qpid C++).

    ``segments`` is the pattern (with its escape) planned once, normalised: the ``%``-separated
    segments of `like.like_segments`, each a tuple of ``('lit', char)`` / ``('one', None)``. Back
    ends match or render these (`like.segments_matcher`, SQL LIKE/RLIKE text, Arrow kernels),
    never ``pattern`` and ``escape`` (kept for messages and printing)."""

    non_string: "bool | None" = False
    segments: tuple = ()
    operand_type: "object" = None


#: The front-end node types a core tree never holds (lowering replaces each of them).
LOWERED_AWAY = (n.And, n.Or, n.Comparison, n.Arithmetic, n.Unary, n.Between, n.InList, n.Like, n.FunctionCall)

#: The core language: every node type a lowered tree may hold.
CORE_TYPES = (n.Literal, n.Identifier, n.Not, KleeneAnd, KleeneOr, LeftFirstAnd, LeftFirstOr, Compare,
              UnlikeTypes, Compute, Negate, Plus, TwoValuedBetween, InsideBetween, OutsideBetween, InStrings, LikeString, n.IsNull, Call)


# -- static types: what a core node's own fields say its type is ---------------------------------

#: The core nodes whose value is a truth value (TRUE, FALSE or UNKNOWN): their type is BOOLEAN.
PREDICATES = frozenset((Compare, UnlikeTypes, InStrings, LikeString, n.IsNull, n.Not, KleeneAnd, KleeneOr,
                        LeftFirstAnd, LeftFirstOr, TwoValuedBetween, InsideBetween, OutsideBetween))
_STATIC_OR_NULL = frozenset(t for t in JmsType if t.is_static or t is JmsType.NULL)
_NULL = JmsType.NULL


def static_type(node, columns: dict) -> "JmsType | None":
    """The static JMS type of the core node ``node`` (``JmsType.NULL``: always NULL), read off the
    node itself and ``columns`` (`TypedTree.column_types`, a name's type) — never the typed
    tree's map: a literal's type, a column's, BOOLEAN for a predicate, and what arithmetic and
    signs compute in for the operand types `lowering.lower` recorded on them. None when the
    type is known only per value: DYNAMIC (a VARIANT property, arithmetic over one), an ActiveMQ
    function's value (a list, a string or NULL), or an operand whose type was not recorded."""
    t = type(node)
    if t is n.Literal:
        st = node.type
    elif t is n.Identifier:
        st = columns.get(node.name)
    elif t in PREDICATES:
        return JmsType.BOOLEAN
    elif t is Compute:
        types = node.types
        if types is None:
            return None
        if _NULL in types:
            return _NULL
        st = node.how.result(*types)
        return _NULL if st is None else st
    elif t is Negate:
        st = node.operand_type
        if st is None:
            return None
        return node.computes_in(st) if st.is_numeric else _NULL
    elif t is Plus:
        st = node.operand_type
        if st is None or st.is_numeric or node.keeps_any:
            return st
        return _NULL
    else:  # Call: a function's value
        return None
    return st if st in _STATIC_OR_NULL else None
