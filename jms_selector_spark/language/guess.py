"""Flat column types guessed from how a selector uses each name (for ``schema=None``: the command
line's ``route-plan`` and `compile_selector` without a schema)."""
from __future__ import annotations

from . import nodes as n
from .dialects import HEADER_TYPES
from .types import JmsType

__all__ = ["infer_flat_schema"]


def infer_flat_schema(sel) -> dict:
    """Flat column types guessed from how each property is used (for ``schema=None``); ``sel`` is
    a parsed selector (`frontend.selector.Selector`: its ``root`` and ``dialect`` are read)."""
    guesses: dict = {}
    T = JmsType

    def note(node, t):
        if isinstance(node, n.Identifier) and node.name not in guesses and sel.dialect.header_for(node.name) is None:
            guesses[node.name] = t

    def lit_type(node):
        if isinstance(node, n.Literal) and node.type is not T.NULL:
            if node.type.is_exact:
                return "long"
            if node.type.is_approximate:
                return "double"
            return node.type.value
        return None

    for node in n.walk(sel.root):
        if isinstance(node, (n.Like, n.InList)):
            note(node.operand, "string")
        elif isinstance(node, n.Comparison):
            lt, rt = lit_type(node.left), lit_type(node.right)
            if rt:
                note(node.left, rt)
            if lt:
                note(node.right, lt)
            if node.op.is_ordering:
                note(node.left, "double")
                note(node.right, "double")
        elif isinstance(node, n.Between):
            t = next((lit_type(x) for x in (node.low, node.high) if lit_type(x)), "double")
            for x in (node.operand, node.low, node.high):
                note(x, t)
        elif isinstance(node, n.Arithmetic):
            t = lit_type(node.right) or lit_type(node.left) or "double"
            note(node.left, t if t in ("long", "double") else "double")
            note(node.right, t if t in ("long", "double") else "double")
        elif isinstance(node, (n.And, n.Or, n.Not)):
            for op in n.children(node):
                note(op, "boolean")
    if isinstance(sel.root, n.Identifier):
        note(sel.root, "boolean")
    schema = {}
    for name in sel.identifiers:
        header = sel.dialect.header_for(name)
        if header is not None:
            schema[header] = HEADER_TYPES.get(header, T.STRING).value
        else:
            schema[name] = guesses.get(name, "string")
    return schema
