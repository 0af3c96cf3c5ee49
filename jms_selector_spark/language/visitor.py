"""`NodeVisitor`: cached per-class dispatch on ``visit_<ClassName>``; no silent fallback."""
from __future__ import annotations

import sys
from typing import Generic, TypeVar

from . import nodes as n
from .errors import UnsupportedSelectorError

__all__ = ["NodeVisitor", "ensure_recursion_room", "FRAMES_PER_LEVEL"]

R = TypeVar("R")


class NodeVisitor(Generic[R]):
    """Base class of every back end. A node type without a ``visit_`` method raises
    `UnsupportedSelectorError` naming it (and `missing_handlers` lets a test check all)."""

    _dispatch: dict
    #: The node types this visitor handles: the front end's (`nodes.NODE_TYPES`), or, for a back
    #: end, the core language's (`core.CORE_TYPES`).
    node_types: tuple = n.NODE_TYPES

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._dispatch = {t: getattr(cls, f"visit_{t.__name__}", None) for t in cls.node_types}

    def visit(self, node: n.Node) -> R:
        fn = self._dispatch.get(type(node))
        if fn is None:
            raise UnsupportedSelectorError(
                f"{type(self).__name__} cannot handle {type(node).__name__}", "", getattr(node, "span", None)
            )
        return fn(self, node)

    @classmethod
    def missing_handlers(cls) -> list[str]:
        return [t.__name__ for t, fn in cls._dispatch.items() if fn is None]


#: Python frames a visitor may use per tree level (visit → visit_X → helper → visit …), generously.
FRAMES_PER_LEVEL = 6


def ensure_recursion_room(tree_depth: int) -> None:
    """Make sure visitors can recurse through a tree ``tree_depth`` levels deep.

    Visitors are recursive (they stay simple and obviously right); the parser accepts trees up
    to `parser.MAX_DEPTH` levels, which can exceed Python's default recursion limit of 1,000
    frames. Called by `parse` for every tree it returns, this raises the interpreter's limit
    when — and only as far as — that tree needs it. It never lowers the limit (another thread
    may be relying on it), so it is safe to call from anywhere. The C stack is not at risk: a
    1,000-level tree needs about 6,000 Python frames, far below what an 8 MB thread stack holds.
    """
    needed = FRAMES_PER_LEVEL * tree_depth + 1_000
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)
