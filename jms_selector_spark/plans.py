"""What the compiler decides for each part of a selector: `Plan` (native, fallback, or AND / OR / NOT
of parts) and `Piece` (a part the vectorized fallback evaluates, as paths into the core tree)."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .backends.sql.limits import plan_depth_of
from .binder import BoundSelector
from .language import nodes as n
from .language.errors import UnsupportedSelectorError
from .semantics import core as c

__all__ = ["Plan", "Piece", "AND", "OR", "SKELETON", "top_conjuncts", "node_at"]

AND = (c.KleeneAnd, c.LeftFirstAnd)
OR = (c.KleeneOr, c.LeftFirstOr)
#: The nodes of the boolean skeleton: the ones a plan may split at.
SKELETON = AND + OR + (n.Not,)


@dataclass(frozen=True)
class Piece:
    """A part of a compiled selector that the vectorized fallback evaluates: the AND (``how``
    ``"and"``) or OR (``"or"``) of the core nodes at ``paths`` (child positions from the core
    root, `nodes.children` order), as `Compiled.node_at` finds them. A single node is an AND of
    one. It holds the bound selector (pickled as text, re-bound where it is unpickled), never a
    printed sub-selector."""

    bound: BoundSelector
    paths: tuple
    how: str = "and"

    @functools.cached_property
    def node(self):
        """The core node this piece evaluates (a synthetic AND / OR of several)."""
        nodes = tuple(node_at(self.bound.core, p) for p in self.paths)
        if len(nodes) == 1:
            return nodes[0]
        kind = c.KleeneAnd if self.how == "and" else c.KleeneOr
        return kind(nodes, span=nodes[0].span)

    @functools.cached_property
    def names(self) -> tuple:
        """The selector names this piece reads, in first-use order."""
        seen: dict = {}
        for p in self.paths:
            for node in n.walk(node_at(self.bound.core, p)):
                if isinstance(node, n.Identifier):
                    seen.setdefault(node.name, None)
        return tuple(seen)

    @functools.cached_property
    def refs(self) -> dict:
        """``{name: ColumnRef}`` of the names this piece reads."""
        return {name: self.bound.refs[name] for name in self.names if name in self.bound.refs}

    def source_columns(self) -> tuple:
        """Top-level columns the piece reads (what its UDF is sent), in first-use order."""
        return tuple(dict.fromkeys(ref.path[0] for ref in self.refs.values() if ref.path))

    def __getstate__(self):
        return {"bound": self.bound, "paths": self.paths, "how": self.how}


def top_conjuncts(node) -> list:
    """The operands of a top-level AND chain, nested ANDs of either kind flattened (only TRUE
    matters to route: both kinds are TRUE exactly when every operand is)."""
    out, stack = [], [node]
    while stack:
        cur = stack.pop()
        if type(cur) in AND:
            stack.extend(reversed(cur.operands))
        else:
            out.append(cur)
    return out


def node_at(root, path: tuple):
    node = root
    for i in path:
        node = n.children(node)[i]
    return node


@dataclass(frozen=True)
class Plan:
    """How a (sub-)selector runs.

    Attributes
    ----------
    kind : str
        ``"native"`` (``sql`` is its fragment), ``"fallback"`` (``piece`` is what the vectorized
        UDF evaluates), or ``"and"`` / ``"or"`` / ``"not"`` over ``parts``.
    node : Node or None
        The core node (None for an empty selector).
    sql : str or None
    parts : tuple of Plan
    reason : UnsupportedSelectorError or None
        Why a piece has no native form (None otherwise).
    piece : Piece or None
        A fallback's piece.
    """

    kind: str
    node: object
    sql: "str | None" = None
    parts: tuple = ()
    reason: "UnsupportedSelectorError | None" = None
    piece: "Piece | None" = None

    @property
    def is_native(self) -> bool:
        """True when nothing in the plan needs the fallback."""
        return self.kind == "native"

    def leaves(self) -> list:
        """The native and fallback pieces, left to right."""
        if self.kind in ("native", "fallback"):
            return [self]
        return [leaf for p in self.parts for leaf in p.leaves()]

    def depth(self) -> int:
        """Levels of the plan as Spark meets them: its AND/OR/NOT skeleton (built as Columns or
        SQL) plus the deepest native fragment under it."""
        return plan_depth_of(self)
