"""The parsers' limits — the longest text and the deepest tree accepted — and the depth check
both parsers (`parser`, `rabbitmq_client`) apply to the trees they build."""
from __future__ import annotations

from ..language import nodes as n
from ..language.errors import SelectorSyntaxError

__all__ = ["MAX_LENGTH", "MAX_DEPTH", "check_tree_depth"]

#: Longest selector accepted by any dialect, in characters (a dialect may set a lower limit).
MAX_LENGTH = 65_536
#: Deepest nesting accepted (parentheses, or operators inside operators).
MAX_DEPTH = 1_000


def check_tree_depth(root: n.Node, text: str) -> int:
    """The tree's depth (`nodes.depth`), or `SelectorSyntaxError` past `MAX_DEPTH`."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text, node.span)
        if depth > deepest:
            deepest = depth
        stack.extend((c, depth + 1) for c in n.children(node))
    return deepest
