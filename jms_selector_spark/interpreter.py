"""The reference interpreter: one message at a time, obviously right. The test oracle.

It evaluates the core language (`core`): `run` lowers the selector's tree for the dialect
(`lowering.lower`) and applies the rules in `semantics/scalar.py` node by node, as the core nodes carry
the dialect's decisions; it never asks `lowering.Rules` while evaluating (`message_resolver`
binds a message, as the binder binds a table, with `Rules.header`). It imports neither pandas nor pyspark, is not a production path, and is kept simple on
purpose: when a back end disagrees with it, the back end is wrong (or the rule in `semantics/scalar.py` /
`lowering.py` is, and then every back end changes with it).

Values are `TypedValue` (type, value) and each decision table a node carries (`Comparator`,
`Computation`, `Negate.computes_in`) is read for the types the values have, because here a
property's JMS type is known only at run time: a message is two dicts of Python values with no
table behind it (`message_resolver`: an int is a long unless ``types`` says otherwise), so every
name is DYNAMIC in the typed tree's sense and `run` lowers with no column types — no node carries
a static operand type (`core.Compare.types` and the like stay None) and no `core.UnlikeTypes` is
made. The only static types in such a tree, a literal's and a predicate's, are the types of the
values built from them (`visit_Literal` takes ``node.type``; predicates give BOOLEAN), so nothing
lowering decided statically is decided again here.
"""
from __future__ import annotations

from typing import Mapping

from .semantics import scalar as sem
from .parsing import as_selector
from .language.visitor import NodeVisitor
from .semantics import core as c
from .language.dialects import Dialect, delivery_mode_code, delivery_mode_name
from .semantics.functions import call_function
from .semantics.lowering import lower, lower_selector, rules_for
from .language.types import JmsType
from .semantics.values import TypedValue, typed

__all__ = ["ReferenceInterpreter", "evaluate", "evaluator", "message_resolver"]


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
    """Evaluates a core tree against one message (a resolver of names to typed values); `run`
    takes a selector's tree and lowers it first."""

    node_types = c.CORE_TYPES

    def __init__(self, resolve, dialect: Dialect):
        self.resolve = resolve
        self.dialect = dialect

    def run(self, root) -> "bool | None":
        """The truth value of the tree ``root`` (front-end nodes, a selector's or a part of one),
        lowered first."""
        return self.truth(lower(root, rules_for(self.dialect)))

    def run_selector(self, selector) -> "bool | None":
        """The truth value of a whole `Selector`, lowered with its dialect's named rewrites
        (`lowering.lower_selector`); TRUE for an empty selector."""
        if selector.root is None:
            return True
        return self.truth(lower_selector(selector, rules_for(self.dialect)))

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

    def _truths(self, node):
        return [self.truth(op) for op in node.operands]

    def visit_KleeneAnd(self, node):
        return self._bool(sem.kleene_and(self._truths(node)))

    def visit_KleeneOr(self, node):
        return self._bool(sem.kleene_or(self._truths(node)))

    def visit_LeftFirstAnd(self, node):
        return self._bool(sem.left_first_and(self._truths(node)))

    def visit_LeftFirstOr(self, node):
        return self._bool(sem.left_first_or(self._truths(node)))

    def visit_Compare(self, node):
        return self._bool(sem.compare(node.cmp, self.visit(node.left), self.visit(node.right)))

    def visit_UnlikeTypes(self, node):
        return self._bool(sem.unlike_types(self.visit(node.left), self.visit(node.right), node.value))

    def visit_Compute(self, node):
        return sem.arithmetic(node.how, self.visit(node.left), self.visit(node.right))

    def visit_Negate(self, node):
        return sem.negate(self.visit(node.operand), node.computes_in)

    def visit_Plus(self, node):
        return sem.identity(self.visit(node.operand), node.keeps_any)

    def _bounds(self, node):
        return self.visit(node.operand), self.visit(node.low), self.visit(node.high)

    def visit_TwoValuedBetween(self, node):
        return self._bool(sem.two_valued_between(*self._bounds(node), node.negated, node.low_cmp, node.high_cmp))

    def visit_InsideBetween(self, node):
        return self._bool(sem.inside_between(*self._bounds(node), node.negated, node.left_first, node.low_cmp,
                                             node.high_cmp))

    def visit_OutsideBetween(self, node):
        return self._bool(sem.outside_between(*self._bounds(node), node.left_first, node.low_cmp, node.high_cmp))

    def visit_InStrings(self, node):
        values = tuple(lit.value for lit in node.values)
        return self._bool(sem.in_strings(self.visit(node.operand), values, node.negated, node.non_string))

    def visit_LikeString(self, node):
        return self._bool(sem.like(self.visit(node.operand), node.segments, node.negated, node.non_string))

    def visit_Call(self, node):
        return call_function(node.name, [self.visit(a) for a in node.args], node.text_jdk)

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
    return evaluator(selector, dialect=dialect)(headers, properties, types=types)


def evaluator(selector, *, dialect: "str | Dialect | None" = None):
    """`evaluate` for many messages: the selector parsed and lowered once, and a function
    ``(headers=None, properties=None, *, types=None) -> bool | None`` that evaluates it on one
    message (the same answers as `evaluate`, without lowering the tree again for each).

    Examples
    --------
    >>> heavy = evaluator("weight > 2500")
    >>> [heavy(properties={"weight": w}) for w in (3000, 100, None)]
    [True, False, None]
    """
    sel = as_selector(selector, dialect)
    if sel.root is None:
        return lambda headers=None, properties=None, *, types=None: True
    d = sel.dialect
    core = lower_selector(sel, rules_for(d))

    def run(headers: "Mapping | None" = None, properties: "Mapping | None" = None, *,
            types: "Mapping | None" = None) -> "bool | None":
        return ReferenceInterpreter(message_resolver(headers, properties, d, types), d).truth(core)

    return run
