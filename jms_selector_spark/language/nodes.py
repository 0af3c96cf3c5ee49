"""The selector AST: immutable data, one node per construct.

Nodes are frozen, slotted dataclasses; sequences are tuples, so nodes are hashable, picklable and
safe to share between threads and ship to Spark executors. Every node has a ``span`` that is kept
out of equality and ``repr``: two trees parsed from differently spaced text are equal.

Nodes hold data only; evaluation, printing and translation live in visitors. The user's surface
form is kept: ``NOT BETWEEN``, ``NOT LIKE``, ``NOT IN`` and ``IS NOT NULL`` are ``negated=True``
on their node rather than being rewritten.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .types import JmsType
from .source import Span

__all__ = [
    "Node",
    "Literal",
    "Identifier",
    "Not",
    "And",
    "Or",
    "Comparison",
    "Arithmetic",
    "Unary",
    "Between",
    "InList",
    "Like",
    "IsNull",
    "FunctionCall",
    "CompareOp",
    "ArithOp",
    "UnaryOp",
    "NODE_TYPES",
    "walk",
    "children",
    "depth",
]

_NO_SPAN = Span(0, 0)


def _span():
    return field(default=_NO_SPAN, compare=False, repr=False)


class CompareOp(enum.Enum):
    #: Members are singletons compared by identity: hash them by identity too (C-level), not by
    #: `enum.Enum`'s Python-level hash of the name; they key the per-dialect decision tables.
    __hash__ = object.__hash__

    EQ = "="
    NE = "<>"
    LT = "<"
    GT = ">"
    LE = "<="
    GE = ">="

    @property
    def is_ordering(self) -> bool:
        """True for <, >, <=, >= (which JMS allows on numerics only)."""
        return self not in (CompareOp.EQ, CompareOp.NE)


class ArithOp(enum.Enum):
    __hash__ = object.__hash__  # see CompareOp

    PLUS = "+"
    MINUS = "-"
    TIMES = "*"
    DIVIDE = "/"
    MODULO = "%"  # ActiveMQ's extension


class UnaryOp(enum.Enum):
    __hash__ = object.__hash__  # see CompareOp

    PLUS = "+"
    MINUS = "-"


class Node:
    """Base class of all AST nodes (no behaviour)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A constant. ``value`` is bool, int, float or str; ``type`` its JMS type."""

    value: object
    type: JmsType
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Identifier(Node):
    """A header or property name, case-sensitive, as written."""

    name: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Not(Node):
    """Logical NOT of ``operand``."""

    operand: Node
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class And(Node):
    """Logical AND of two or more operands, flattened (``a AND b AND c`` is one node)."""

    operands: tuple
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Or(Node):
    """Logical OR of two or more operands, flattened."""

    operands: tuple
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Comparison(Node):
    """``left op right`` with op one of = <> < > <= >=."""

    op: CompareOp
    left: Node
    right: Node
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Arithmetic(Node):
    """``left op right`` with op one of + - * / (and % in dialects that have it)."""

    op: ArithOp
    left: Node
    right: Node
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Unary(Node):
    """Unary ``+`` or ``-`` applied to a non-literal (signs on numeric literals are folded)."""

    op: UnaryOp
    operand: Node
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Between(Node):
    """``operand [NOT] BETWEEN low AND high``."""

    operand: Node
    low: Node
    high: Node
    negated: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class InList(Node):
    """``operand [NOT] IN (v1, v2, ...)``; ``values`` are string `Literal` nodes."""

    operand: Node
    values: tuple
    negated: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Like(Node):
    """``operand [NOT] LIKE 'pattern' [ESCAPE 'c']``; ``escape`` is None or one character."""

    operand: Node
    pattern: str
    escape: str | None = None
    negated: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class IsNull(Node):
    """``operand IS [NOT] NULL``."""

    operand: Node
    negated: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class FunctionCall(Node):
    """``NAME(arg, ...)``: a dialect's built-in function (ActiveMQ: REGEX, INLIST, SPLIT,
    MAKELIST, REPLACE). ``name`` is upper-cased."""

    name: str
    args: tuple
    span: Span = _span()


NODE_TYPES = (Literal, Identifier, Not, And, Or, Comparison, Arithmetic, Unary, Between, InList, Like, IsNull,
              FunctionCall)


def children(node: Node) -> tuple:
    """The direct sub-expressions of ``node``, left to right."""
    get = _CHILDREN.get(type(node))
    if get is None:
        get = _children_of_type(type(node))  # a subclass (a core node), or not a node: TypeError
    return get(node)


def _no_children(node):
    return ()


def _operand(node):
    return (node.operand,)


def _operands(node):
    return node.operands


def _left_right(node):
    return (node.left, node.right)


def _between(node):
    return (node.operand, node.low, node.high)


def _in_list(node):
    return (node.operand, *node.values)


def _args(node):
    return node.args


#: How `children` reads each node class (by its front-end class; first match, as an isinstance chain).
_SHAPES = (((Literal, Identifier), _no_children), ((Not, Unary, IsNull, Like), _operand), ((And, Or), _operands),
           ((Comparison, Arithmetic), _left_right), ((Between,), _between), ((InList,), _in_list),
           ((FunctionCall,), _args))
#: ``{node class: reader}``, filled for each class on first use (node classes only: a bounded,
#: process-wide table of pure functions).
_CHILDREN: dict = {}


def _children_of_type(t):
    for classes, get in _SHAPES:
        if issubclass(t, classes):
            _CHILDREN[t] = get
            return get

    def refuse(node):
        raise TypeError(f"not a selector node: {node!r}")

    return refuse


def walk(node: Node):
    """Yield ``node`` and all its descendants, depth first, without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def depth(node: Node) -> int:
    """The number of nodes on the longest root-to-leaf path (1 for a leaf), without recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children(n))
    return deepest
