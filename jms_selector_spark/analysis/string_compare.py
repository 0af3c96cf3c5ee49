"""Which properties a bound selector compares, as strings, with a number.

In a ``MAP<STRING,STRING>`` layout (the most common archive layout) every property is a string,
so ``qty > 4`` is FALSE on every row: correct JMS (a string never equals or orders against a
number), surprising to everyone. `string_number_comparisons` finds those comparisons so that
``lint`` / ``explain`` can warn and point at the fixes: declared property types
(``property_types={"qty": "long"}``) or, in the ``activemq`` dialect, ActiveMQ's
``convert_string_expressions:`` prefix.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..binder import BoundSelector
from ..language import nodes as n
from ..language.source import Span
from ..semantics.lowering import rules_for
from ..language.types import JmsType

__all__ = ["StringNumberComparison", "string_number_comparisons"]


@dataclass(frozen=True)
class StringNumberComparison:
    """``name`` (a string-valued property, from ``column``) compared with a number at ``span``."""

    name: str
    column: str
    span: Span
    map_layout: bool


def _numeric(node, refs) -> bool:
    if isinstance(node, n.Literal):
        return node.type.is_numeric
    if isinstance(node, n.Identifier):
        ref = refs.get(node.name)
        return ref is not None and ref.type.is_numeric
    if isinstance(node, n.Unary):
        return _numeric(node.operand, refs)
    if isinstance(node, n.Arithmetic):  # `s + 1` with a string s is ActiveMQ's concatenation
        return not _string_prop(node.left, refs) and (_numeric(node.left, refs) or _numeric(node.right, refs))
    return False


def _string_prop(node, refs):
    if isinstance(node, n.Identifier):
        ref = refs.get(node.name)
        if ref is not None and not ref.header and ref.type is JmsType.STRING and ref.path:
            return ref
    return None


def string_number_comparisons(bound: BoundSelector) -> "list[StringNumberComparison]":
    """Every comparison (``=``, ``<>``, ``<``…, BETWEEN) of a string-valued property with a
    numeric operand, in the order written; empty when the selector converts strings
    (``convert_string_expressions:``) or compares none. Declared property types
    (`Binding.property_types`) make a property numeric, so it is not reported."""
    if bound.root is None or rules_for(bound.dialect).converts_strings:
        return []
    refs, out = bound.refs, []
    for node in n.walk(bound.root):
        if isinstance(node, n.Comparison):
            pairs = [(node.left, node.right), (node.right, node.left)]
        elif isinstance(node, n.Between):
            pairs = [(node.operand, node.low), (node.operand, node.high), (node.low, node.operand),
                     (node.high, node.operand)]
        else:
            continue
        for a, b in pairs:
            ref = _string_prop(a, refs)
            if ref is not None and _numeric(b, refs):
                out.append(StringNumberComparison(ref.name, ".".join(ref.path), node.span, ref.access == "map"))
                break
    return out
