"""Static rules: what a selector may say, decided from its literals and shape alone.

The parser accepts a little more than the language (``3 + 5`` parses as an expression); this pass
rejects what no message could make meaningful, with a `SelectorTypeError` pointing at the
offending operand:

- the whole selector, and each operand of AND/OR/NOT, must be able to be boolean (a predicate, a
  boolean literal, ActiveMQ's NULL literal, one of its boolean functions REGEX and INLIST, or an
  identifier — a bare identifier is TRUE only for a boolean property);
- ``<``, ``>``, ``<=``, ``>=`` and BETWEEN take numeric operands: a string or boolean literal, a
  predicate or a boolean function is an error (``'a' < 'b'``);
- the left side of IN is an identifier (both dialects);
- arithmetic on a string or boolean literal, or on a predicate, is an error in ``jms`` (ActiveMQ
  only fails when the message is evaluated);
- exact literals must fit in a Java long;
- a NULL literal (``activemq`` only) cannot be compared.

Types of identifiers are not known here (they are per message, or per table once bound), so
anything that depends on them is decided at evaluation time, by the same rules (`types.py`).
"""
from __future__ import annotations

from ..language.dialects import Dialect
from ..language.types import LONG_MAX, LONG_MIN, JmsType
from ..language import nodes as n
from ..language.errors import SelectorTypeError

__all__ = ["check", "is_predicate"]

_PREDICATES = (n.Not, n.And, n.Or, n.Comparison, n.Between, n.InList, n.Like, n.IsNull)
#: Functions whose value is boolean (usable as a condition), by name.
BOOLEAN_FUNCTIONS = frozenset({"REGEX", "INLIST"})


def is_predicate(node: n.Node) -> bool:
    """True for nodes whose value is always boolean (or UNKNOWN)."""
    return isinstance(node, _PREDICATES)


def check(root: n.Node, dialect: Dialect, text: str) -> tuple:
    """Raise `SelectorTypeError` if ``root`` breaks a static rule of ``dialect``; else return the
    names the tree refers to, in order of first appearance (found by the same walk)."""
    fail = _Fail(text)
    if not dialect.value_conditions:
        _require_boolean(root, fail, "a selector")
    names: dict = {}
    for node in n.walk(root):
        if type(node) is n.Identifier:
            names.setdefault(node.name, None)
        elif isinstance(node, n.Literal):
            if node.type.is_exact and not LONG_MIN <= node.value <= LONG_MAX:
                fail(node, "exact numeric literal out of the range of a Java long")
        elif isinstance(node, (n.Not, n.And, n.Or)) and not dialect.value_conditions:
            for op in n.children(node):
                _require_boolean(op, fail, f"an operand of {type(node).__name__.upper()}")
        elif isinstance(node, n.Comparison):
            for op in (node.left, node.right):
                if _is_null_literal(op):
                    fail(op, "NULL cannot be compared (use IS NULL)")
                if node.op.is_ordering:
                    _require_orderable(op, fail, node.op.value, dialect.ordering_literal_checks)
            if (dialect.not_binds_tighter and _is_const(node.left) and _is_const(node.right)
                    and not text[node.right.span.start:node.right.span.start + 1] in "+-"):
                # ActiveMQ's checkEqualOperandCompatability: a boolean constant on the left
                # cannot be compared with a non-boolean constant (a signed number is not a
                # constant there: its sign is an operator).
                if node.left.type is JmsType.BOOLEAN and node.right.type is not JmsType.BOOLEAN:
                    fail(node, f"{_show(node.left)} cannot be compared with {_show(node.right)}")
            if (dialect.constant_type_checks and _is_const(node.left) and _is_const(node.right)
                    and node.left.type.family != node.right.type.family):
                fail(node, f"{_show(node.left)} cannot be compared with {_show(node.right)}")
        elif isinstance(node, n.Between):
            for op in (node.operand, node.low, node.high):
                if _is_null_literal(op):
                    fail(op, "NULL cannot be compared (use IS NULL)")
                _require_orderable(op, fail, "BETWEEN", dialect.ordering_literal_checks)
        elif isinstance(node, n.InList):
            if dialect.in_requires_identifier and not isinstance(node.operand, n.Identifier):
                fail(node.operand, "the left side of IN must be a header or property name")
        elif isinstance(node, n.Like) and dialect.static_operand_checks:
            op = node.operand
            if is_predicate(op) or (isinstance(op, n.Literal) and op.type not in (JmsType.STRING, JmsType.NULL)):
                fail(op, "LIKE applies to strings only")
        elif isinstance(node, (n.Arithmetic, n.Unary)):
            if dialect.static_operand_checks:  # jms: arithmetic is numeric only
                for op in n.children(node):
                    if is_predicate(op) or (isinstance(op, n.Literal) and op.type in (JmsType.STRING, JmsType.BOOLEAN)):
                        fail(op, "arithmetic applies to numbers only")
    return tuple(names)


class _Fail:
    def __init__(self, text):
        self.text = text

    def __call__(self, node, message):
        raise SelectorTypeError(message, self.text, node.span)


def _is_const(node):
    return isinstance(node, n.Literal)


def _is_null_literal(node):
    return isinstance(node, n.Literal) and node.type is JmsType.NULL


def _require_boolean(node, fail, what):
    if is_predicate(node) or isinstance(node, n.Identifier):
        return
    # Only ActiveMQ's boolean functions are BooleanExpressions there: `NOT SPLIT(s, ',')` and the
    # selector `REPLACE(s, 'a', 'b')` are rejected by its parser (the oracle).
    if isinstance(node, n.FunctionCall) and node.name in BOOLEAN_FUNCTIONS:
        return
    # ActiveMQ's NULL constant is a BooleanConstantExpression: `NOT NULL`, `NULL OR x` and the
    # selector `NULL` are valid there, and UNKNOWN. (No other dialect has a NULL literal.)
    if isinstance(node, n.Literal) and node.type in (JmsType.BOOLEAN, JmsType.NULL):
        return
    fail(node, f"{what} must be a condition, not {_describe(node)}")


def _require_orderable(node, fail, op, literals=True):
    # A boolean function is a BooleanExpression in ActiveMQ, which its checkLessThanOperand
    # rejects like any other condition (`REGEX('a', s) > 1`, `x BETWEEN INLIST(l, v) AND 2`).
    # ``literals`` False (RabbitMQ): string and boolean literals are compared when evaluated.
    if (is_predicate(node) or (isinstance(node, n.Literal) and not node.type.is_numeric
                               and (literals or node.type is JmsType.NULL))
            or (isinstance(node, n.FunctionCall) and node.name in BOOLEAN_FUNCTIONS)):
        fail(node, f"{_describe(node)} cannot be compared with {op} (only numbers can)")


def _show(lit: n.Literal) -> str:
    from .printer import to_text

    return to_text(lit)


def _describe(node) -> str:
    if isinstance(node, n.Literal):
        return "NULL" if node.type is JmsType.NULL else f"the {node.type.value} {_show(node)}"
    if isinstance(node, n.Arithmetic):
        return "an arithmetic expression"
    if isinstance(node, n.Unary):
        return "a signed expression"
    if isinstance(node, n.FunctionCall) and node.name not in BOOLEAN_FUNCTIONS:
        return f"{node.name}(...), which does not return a boolean"
    return "a condition"
