"""The typed tree: the static JMS type of every expression node of a bound selector.

`BoundSelector.types` (built here, once per bound selector, on first use) maps each node of the
selector's tree to the type every value it yields has, or to one of the two markers of a type
that is not static:

- `JmsType.DYNAMIC`: known only per message — a VARIANT property, an arithmetic expression or a
  unary sign over one, and an ActiveMQ function's value (a list, a string or NULL);
- `JmsType.NULL`: always NULL — the NULL literal, a property the table cannot hold, a header the
  dialect reads as NULL, arithmetic the dialect gives no value for (``'a' * 2``).

Predicates (comparisons, BETWEEN, IN, LIKE, IS NULL, NOT, AND, OR) are BOOLEAN. Arithmetic has
the type `lowering.Rules.arithmetic` computes it in (so ``5 / 2`` is a DOUBLE in ActiveMQ, an INT
in JMS); unary minus promotes a byte or short to int (Java). A property declared with
``property_types`` on a ``MAP<STRING, STRING>`` has its declared type (its text Java cannot read
is NULL, a value of that type otherwise).

`TypedTree.reads_dynamic` tells whether a sub-expression reads a VARIANT property (the SQL back
end expands exactly those predicates per type; others it translates once).

Nodes are keyed by identity: the tree is immutable and kept alive by the selector, and equal
sub-trees at two places may sit in different contexts. The map is process-local; a pickled
`BoundSelector` rebuilds it where it is used. It is computed on first use, so a back end that
asks nothing pays nothing; the core nodes `lowering.lower` makes are answered as the node they
were made from (`TypedTree.derive`).
"""
from __future__ import annotations

from ..language import nodes as n
from ..language.types import JmsType

__all__ = ["TypedTree", "type_tree"]

T = JmsType
_PREDICATES = (n.Not, n.And, n.Or, n.Comparison, n.Between, n.InList, n.Like, n.IsNull)


class TypedTree:
    """The static type of each node of one tree (`type_tree` builds it).

    The map is computed on the first `type_of`; `reads_dynamic` is answered at once when the
    table has no property of dynamic type (the common case: nothing to compute).
    """

    __slots__ = ("_root", "_columns", "_rules", "_types", "_dynamic", "_any_dynamic", "_aliases")

    def __init__(self, root, columns: dict, rules):
        self._root, self._columns, self._rules = root, columns, rules
        self._types = self._dynamic = None
        self._any_dynamic = T.DYNAMIC in columns.values()
        self._aliases = {}

    def _node(self, node):
        """``node``, or the node of the typed tree a core node was made from (`derive`)."""
        return self._aliases.get(id(node), node)

    def type_of(self, node: n.Node) -> JmsType:
        """The static JMS type of ``node`` (DYNAMIC or NULL when it has none; see the module)."""
        if self._types is None:
            self._compute()
        return self._types[id(self._node(node))]

    def reads_dynamic(self, node: n.Node) -> bool:
        """Whether ``node`` or a node under it reads a property whose type is known only per
        message (a VARIANT property)."""
        if not self._any_dynamic:
            return False
        if self._types is None:
            self._compute()
        return id(self._node(node)) in self._dynamic

    @property
    def column_types(self) -> dict:
        """Each name's `JmsType` (what the binder found; read-only by convention): the type of
        an identifier, known without computing the tree."""
        return self._columns

    def source_node(self, node: n.Node) -> n.Node:
        """The node of the selector's own tree a core node was made from (``node`` itself when it
        is one): what explain prints for a piece of the core tree."""
        return self._node(node)

    def derive(self, new: n.Node, old: n.Node) -> None:
        """Record that ``new`` (a core node `lowering.lower` made of ``old``) has ``old``'s type."""
        aliases = self._aliases
        aliases[id(new)] = aliases.get(id(old), old)

    def __len__(self):
        if self._types is None:
            self._compute()
        return len(self._types)

    def _compute(self) -> None:
        types: dict = {}
        dynamic: set = set()
        self._types, self._dynamic = types, dynamic
        if self._root is None:
            return
        columns, rules = self._columns, self._rules
        stack = [(self._root, False)]
        while stack:
            node, done = stack.pop()
            if not done:
                stack.append((node, True))
                stack.extend((c, False) for c in n.children(node))
                continue
            kids = n.children(node)
            if any(id(c) in dynamic for c in kids):
                dynamic.add(id(node))
            if isinstance(node, n.Literal):
                t = node.type
            elif isinstance(node, n.Identifier):
                t = columns[node.name]
                if t is T.DYNAMIC:
                    dynamic.add(id(node))
            elif isinstance(node, _PREDICATES):
                t = T.BOOLEAN
            elif isinstance(node, n.Arithmetic):
                t = _arithmetic(node.op, types[id(node.left)], types[id(node.right)], rules)
            elif isinstance(node, n.Unary):
                t = _unary(node.op, types[id(node.operand)], rules)
            elif isinstance(node, n.FunctionCall):
                t = T.DYNAMIC
            else:  # pragma: no cover - n.children has already refused it
                raise TypeError(f"not a selector node: {node!r}")
            types[id(node)] = t


def type_tree(root: "n.Node | None", column_types, rules) -> TypedTree:
    """The typed tree of ``root``: ``column_types`` maps a name to its `JmsType` (the binder's
    `ColumnRef.type`), ``rules`` is the dialect's `lowering.Rules` (arithmetic's type). Iterative:
    trees nest up to `parser.MAX_DEPTH` levels."""
    return TypedTree(root, dict(column_types), rules)


def _arithmetic(op, lt: JmsType, rt: JmsType, rules) -> JmsType:
    if lt is T.NULL or rt is T.NULL:
        return T.NULL
    if lt is T.DYNAMIC or rt is T.DYNAMIC:
        return T.DYNAMIC
    return rules.arithmetic(op, lt, rt) or T.NULL


def _unary(op, t: JmsType, rules) -> JmsType:
    if t in (T.NULL, T.DYNAMIC):
        return t
    if op is n.UnaryOp.MINUS:
        return rules.negation(t) if t.is_numeric else T.NULL
    return t if rules.plus_keeps(t) else T.NULL
