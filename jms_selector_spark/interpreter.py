"""The reference interpreter: one message at a time, obviously right. The test oracle.

It applies the rules in `semantics/scalar.py` node by node, as `lowering.Rules` decides them for the
dialect. It imports neither pandas nor pyspark, is not a production path, and is kept simple on
purpose: when a back end disagrees with it, the back end is wrong (or the rule in `semantics/scalar.py` /
`lowering.py` is, and then every back end changes with it).
"""
from __future__ import annotations

from typing import Mapping

from .frontend import nodes as n
from .frontend.selector import as_selector
from .frontend.visitor import NodeVisitor
from .semantics import scalar as sem
from .semantics.dialects import Dialect, delivery_mode_code, delivery_mode_name
from .semantics.functions import call_function
from .semantics.lowering import rules_for
from .semantics.types import JmsType
from .semantics.values import TypedValue, typed

__all__ = ["ReferenceInterpreter", "evaluate", "message_resolver"]


def message_resolver(headers: "Mapping | None", properties: "Mapping | None", dialect: Dialect,
                     types: "Mapping | None" = None):
    """A function name → `TypedValue` | None for one message given as two dicts."""
    headers = headers or {}
    properties = properties or {}
    types = types or {}
    rules = rules_for(dialect)

    def resolve(name: str):
        header = dialect.header_for(name)
        if header is not None:
            rule = rules.header(header)
            value = rule.value if rule.fixed else headers.get(header)
            if value is None:
                value = rule.value
            if value is None:
                return None
            t = dialect.header_type(header)
            if header == "JMSDeliveryMode":
                value = delivery_mode_name(value) if t is JmsType.STRING else delivery_mode_code(value)
            return typed(header, value, t)
        return typed(name, properties.get(name), types.get(name))

    return resolve


class ReferenceInterpreter(NodeVisitor):
    """Evaluates a selector AST against one message (a resolver of names to typed values)."""

    def __init__(self, resolve, dialect: Dialect):
        self.resolve = resolve
        self.rules = rules_for(dialect)

    def truth(self, node) -> "bool | None":
        return sem.truth(self.visit(node))

    def _bool(self, t):
        return None if t is None else TypedValue(JmsType.BOOLEAN, t)

    def visit_Literal(self, node):
        return None if node.type is JmsType.NULL else TypedValue(node.type, node.value)

    def visit_Identifier(self, node):
        return self.resolve(node.name)

    def visit_Not(self, node):
        return self._bool(sem.kleene_not(self.truth(node.operand)))

    def visit_And(self, node):
        return self._bool(sem.logic_and([self.truth(op) for op in node.operands], self.rules))

    def visit_Or(self, node):
        return self._bool(sem.logic_or([self.truth(op) for op in node.operands], self.rules))

    def visit_Comparison(self, node):
        return self._bool(sem.compare(node.op, self.visit(node.left), self.visit(node.right), self.rules))

    def visit_Arithmetic(self, node):
        return sem.arithmetic(node.op, self.visit(node.left), self.visit(node.right), self.rules)

    def visit_Unary(self, node):
        v = self.visit(node.operand)
        return sem.negate(v, self.rules) if node.op is n.UnaryOp.MINUS else sem.identity(v, self.rules)

    def visit_Between(self, node):
        v, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        return self._bool(sem.between(v, lo, hi, node.negated, self.rules))

    def visit_InList(self, node):
        values = tuple(lit.value for lit in node.values)
        return self._bool(sem.in_list(self.visit(node.operand), values, node.negated, self.rules))

    def visit_Like(self, node):
        return self._bool(sem.like(self.visit(node.operand), node.pattern, node.escape, node.negated, self.rules))

    def visit_FunctionCall(self, node):
        return call_function(node.name, [self.visit(a) for a in node.args], self.rules.text_jdk)

    def visit_IsNull(self, node):
        is_null = self.visit(node.operand) is None
        return self._bool(is_null != node.negated)


def evaluate(selector, headers: "Mapping | None" = None, properties: "Mapping | None" = None, *,
             dialect: "str | Dialect | None" = None, types: "Mapping | None" = None) -> "bool | None":
    """Evaluate a selector against one message: TRUE, FALSE or UNKNOWN (None).

    Parameters
    ----------
    selector : str or Selector
        The selector (parsed with ``dialect`` when a string).
    headers : dict, optional
        JMS headers by name (``JMSType``, ``JMSPriority``, ``JMSDeliveryMode`` as
        ``'PERSISTENT'``/``'NON_PERSISTENT'`` or 2/1, ``JMSTimestamp`` as epoch millis…).
    properties : dict, optional
        Application properties. A Python int is a long, a float a double, unless ``types`` says
        otherwise; a missing or None property is NULL.
    dialect : str or Dialect, optional
        The dialect of a selector given as text (default ``"jms"``); a `Selector` keeps its own
        (a different ``dialect`` raises ``ValueError``).
    types : dict, optional
        JMS types of properties: ``{"qty": "int", "ratio": "float", "flag": "byte"}``.

    Returns
    -------
    bool or None
        A message is delivered only when this is True.

    Examples
    --------
    >>> evaluate("JMSType = 'car' AND color = 'blue' AND weight > 2500",
    ...          {"JMSType": "car"}, {"color": "blue", "weight": 3000})
    True
    >>> evaluate("weight > 2500", properties={}) is None     # missing property: UNKNOWN
    True
    >>> evaluate("color = 5", properties={"color": "blue"})  # unlike types: FALSE
    False
    >>> evaluate("5 / 2 = 2.5", dialect="activemq"), evaluate("5 / 2 = 2")
    (True, True)
    """
    sel = as_selector(selector, dialect)
    if sel.root is None:
        return True
    d = sel.dialect
    interp = ReferenceInterpreter(message_resolver(headers, properties, d, types), d)
    return interp.truth(sel.root)
