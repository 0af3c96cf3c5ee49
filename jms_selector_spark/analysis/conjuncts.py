"""A selector cut at its top-level ANDs: the conjuncts the dead-letter report evaluates one by one.

A selector ``A AND B AND C`` is TRUE exactly when every conjunct is, in every dialect (Kleene AND
and WSO2's left-first AND alike), so "which conjunct was not TRUE" is a reason a message was not
selected. Each conjunct is printed as selector text in the selector's dialect (`printer.to_text`)
so that it can be compiled and evaluated on its own; nested ANDs (``(a AND b) AND c``) are
flattened. Pure Python: no Spark.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend.printer import to_text
from ..frontend.selector import Selector
from ..language import nodes as n

__all__ = ["Conjunct", "top_level_conjuncts", "is_null_text", "MAX_CONJUNCTS"]

#: At most this many conjuncts per selector (the report packs them into a 64-bit mask); a longer
#: AND chain is taken as one conjunct, the whole selector.
MAX_CONJUNCTS = 62


@dataclass(frozen=True)
class Conjunct:
    """One top-level conjunct: its selector ``text`` and the header and property ``names`` it
    reads, in order of appearance."""

    text: str
    names: tuple


def _names(node) -> tuple:
    seen = []
    for x in n.walk(node):
        if isinstance(x, n.Identifier) and x.name not in seen:
            seen.append(x.name)
    return tuple(seen)


def top_level_conjuncts(selector: Selector) -> list:
    """The `Conjunct` of each operand of ``selector``'s top-level AND chain, left to right (the
    whole selector alone when it is not an AND, or has more than `MAX_CONJUNCTS` operands);
    ``[]`` for the empty selector.

    >>> from jms_selector_spark.parsing import parse
    >>> [c.text for c in top_level_conjuncts(parse("(a = 1 OR b = 2) AND (c > 3 AND d IS NULL)"))]
    ['a = 1 OR b = 2', 'c > 3', 'd IS NULL']
    >>> top_level_conjuncts(parse("a = 1 OR b = 2"))
    [Conjunct(text='a = 1 OR b = 2', names=('a', 'b'))]
    """
    root = selector.root
    if root is None:
        return []
    operands, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, n.And):
            stack.extend(reversed(node.operands))
        else:
            operands.append(node)
    if len(operands) > MAX_CONJUNCTS:
        operands = [root]
    return [Conjunct(to_text(op, selector.dialect), _names(op)) for op in operands]


def is_null_text(name: str, selector: Selector) -> str:
    """Selector text of ``<name> IS NULL`` in ``selector``'s dialect (the name printed as that
    dialect prints it).

    >>> from jms_selector_spark.parsing import parse
    >>> is_null_text("weight", parse("weight > 1"))
    'weight IS NULL'
    """
    return to_text(n.IsNull(n.Identifier(name)), selector.dialect)
