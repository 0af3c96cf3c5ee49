"""The reference interpreter: one message at a time, obviously right. The test oracle.

It applies the rules in `semantics.py` node by node. It imports neither pandas nor pyspark, is not
a production path, and is kept simple on purpose: when a back end disagrees with it, the back end
is wrong (or the rule in `semantics.py` is, and then every back end changes with it).
"""
from __future__ import annotations

from typing import Mapping

from . import nodes as n
from . import semantics as sem
from .dialects import Dialect, get_dialect
from .functions import call_function
from .like import compile_like
from .selector import Selector, parse
from .types import JmsType
from .values import HEADER_TYPES, TypedValue, delivery_mode_name, typed
from .visitor import NodeVisitor

__all__ = ["ReferenceInterpreter", "evaluate", "message_resolver"]


def message_resolver(headers: "Mapping | None", properties: "Mapping | None", dialect: Dialect,
                     types: "Mapping | None" = None):
    """A function name → `TypedValue` | None for one message given as two dicts."""
    headers = headers or {}
    properties = properties or {}
    types = types or {}

    def resolve(name: str):
        header = dialect.header_for(name)
        if header is not None:
            value = headers.get(header)
            if value is None:
                return None
            if header == "JMSDeliveryMode":
                value = delivery_mode_name(value)
            return typed(header, value, HEADER_TYPES.get(header, JmsType.STRING))
        return typed(name, properties.get(name), types.get(name))

    return resolve


class ReferenceInterpreter(NodeVisitor):
    """Evaluates a selector AST against one message (a resolver of names to typed values)."""

    def __init__(self, resolve, dialect: Dialect):
        self.resolve = resolve
        self.d = dialect

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
        return self._bool(sem.kleene_and([self.truth(op) for op in node.operands]))

    def visit_Or(self, node):
        return self._bool(sem.kleene_or([self.truth(op) for op in node.operands]))

    def visit_Comparison(self, node):
        return self._bool(sem.compare(node.op, self.visit(node.left), self.visit(node.right), self.d))

    def visit_Arithmetic(self, node):
        return sem.arithmetic(node.op, self.visit(node.left), self.visit(node.right), self.d)

    def visit_Unary(self, node):
        v = self.visit(node.operand)
        return sem.negate(v, self.d) if node.op is n.UnaryOp.MINUS else sem.identity(v, self.d)

    def visit_Between(self, node):
        v, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        C = n.CompareOp
        if self.d.null_between_is_false:  # JMS: two-valued, NULL anywhere is FALSE
            if v is None or lo is None or hi is None:
                t = False
            else:
                t = sem.compare(C.GE, v, lo, self.d) and sem.compare(C.LE, v, hi, self.d)
            return self._bool((not t) if node.negated else t)
        if node.negated and self.d.not_between_as_or:  # ActiveMQ: x < low OR x > high
            return self._bool(sem.kleene_or([sem.compare(C.LT, v, lo, self.d), sem.compare(C.GT, v, hi, self.d)]))
        t = sem.kleene_and([sem.compare(C.GE, v, lo, self.d), sem.compare(C.LE, v, hi, self.d)])
        return self._bool(sem.kleene_not(t) if node.negated else t)

    def visit_InList(self, node):
        v = self.visit(node.operand)
        if v is None:
            return None
        if v.type is not JmsType.STRING:
            if self.d.in_non_string_unknown:
                return None
            t = False
        else:
            t = any(v.value == lit.value for lit in node.values)
        return self._bool((not t) if node.negated else t)

    def visit_Like(self, node):
        v = self.visit(node.operand)
        if v is None:
            return None
        t = v.type is JmsType.STRING and compile_like(node.pattern, node.escape).matches(v.value)
        return self._bool((not t) if node.negated else t)

    def visit_FunctionCall(self, node):
        return call_function(node.name, [self.visit(a) for a in node.args], self.d.jdk)

    def visit_IsNull(self, node):
        is_null = self.visit(node.operand) is None
        return self._bool(is_null != node.negated)


def evaluate(selector, headers: "Mapping | None" = None, properties: "Mapping | None" = None, *,
             dialect: "str | Dialect" = "jms", types: "Mapping | None" = None) -> "bool | None":
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
    dialect : str or Dialect, default "jms"
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
    sel = selector if isinstance(selector, Selector) else parse(selector, dialect=dialect)
    if sel.root is None:
        return True
    d = sel.dialect
    interp = ReferenceInterpreter(message_resolver(headers, properties, d, types), d)
    return interp.truth(sel.root)
