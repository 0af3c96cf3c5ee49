"""Named rewrites of lowering: exact tree-to-tree rewrites `lowering.lower_selector` applies.

- `match_option` (IBM MQ, ``Dialect.zero_id_wildcard``): a selector that is exactly
  ``JMSMessageID='ID:<48 hex>'`` (or JMSCorrelationID) is read as a match option, not as a
  selector: the client gets the message by its 24 id bytes. All zeros (MQMI_NONE / MQCI_NONE)
  return any message, so the selector is TRUE for every message; other ids compare as bytes,
  so lower-case hex selects the message whose id the archive holds as IBM writes it, ``ID:`` +
  upper-case hex (inferred). Whether the text has that form is a syntax fact the front end
  records (`Selector.option_form`); what it means is this dialect's rule.
- `simplify`: a shallower boolean skeleton, the same value everywhere. ``NOT NOT p`` is ``p`` for
  a predicate ``p`` (Kleene: NOT NOT UNKNOWN is UNKNOWN), and a Kleene AND directly under a
  Kleene AND (an OR under an OR) joins its parent's operands. A back end building the skeleton
  one level per node (Spark Columns, SQL text) then meets 300 nested NOTs as none or one.
  Left-first AND / OR (WSO2) stay nested: associative too, but each operand's rendering tests
  every earlier one for NULL, so one long chain would render in quadratic size.
"""
from __future__ import annotations

from dataclasses import replace

from ..language import nodes as n
from ..language.types import JmsType
from . import core as c

__all__ = ["match_option", "simplify"]

_FLAT = (c.KleeneAnd, c.KleeneOr)
_LOGIC = _FLAT + (c.LeftFirstAnd, c.LeftFirstOr)


def match_option(root: n.Node, form: "str | None") -> n.Node:
    """``root`` as IBM MQ reads a selector of match-option form ``form`` (`Selector.option_form`)."""
    if form == "zero":
        return n.Literal(True, JmsType.BOOLEAN, span=root.span)
    if form == "id" and root.right.value != root.right.value.upper():
        lit = root.right
        return n.Comparison(root.op, root.left, n.Literal("ID:" + lit.value[3:].upper(), lit.type, span=lit.span),
                            span=root.span)
    return root


def _strip(node):
    while type(node) is n.Not and type(node.operand) is n.Not and type(node.operand.operand) in c.PREDICATES:
        node = node.operand.operand
    return node


def simplify(root, types=None):
    """``root`` (a core tree) with its boolean skeleton simplified (see the module docstring).

    Iterative (a selector may nest 1,000 levels); sub-trees that do not change are shared.
    ``types`` (the typed tree, optional) learns each new node's type from the node it replaces.
    """
    if root is None:
        return None
    done: dict = {}
    stack = [_strip(root)]
    while stack:
        node = stack[-1]
        kind = type(node)
        if kind is n.Not:
            kids = [_strip(node.operand)]
        elif kind in _LOGIC:
            kids = [_strip(k) for k in node.operands]
        else:
            done[id(node)] = node
            stack.pop()
            continue
        todo = [k for k in kids if id(k) not in done]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        new = [done[id(k)] for k in kids]
        if kind is n.Not:
            out = node if new[0] is node.operand else _strip(replace(node, operand=new[0]))
        else:
            flat = []
            for k in new:
                flat.extend(k.operands if type(k) is kind and kind in _FLAT else (k,))
            out = node if tuple(flat) == node.operands else replace(node, operands=tuple(flat))
        if out is not node and types is not None:
            types.derive(out, node)
        done[id(node)] = out
    return done[id(_strip(root))]
