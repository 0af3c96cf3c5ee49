"""`NodeVisitor`: cached per-class dispatch on ``visit_<ClassName>``; no silent fallback."""
from __future__ import annotations

from typing import Generic, TypeVar

from . import nodes as n
from .errors import UnsupportedSelectorError

__all__ = ["NodeVisitor"]

R = TypeVar("R")


class NodeVisitor(Generic[R]):
    """Base class of every back end. A node type without a ``visit_`` method raises
    `UnsupportedSelectorError` naming it (and `missing_handlers` lets a test check all)."""

    _dispatch: dict

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._dispatch = {t: getattr(cls, f"visit_{t.__name__}", None) for t in n.NODE_TYPES}

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
