"""`parse`: selector text → a checked, immutable `Selector`."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from . import nodes as n
from .checker import check
from .dialects import Dialect, get_dialect
from .lexer import CONVERT_PREFIX
from .parser import parse_tree
from .printer import to_text
from .visitor import ensure_recursion_room

__all__ = ["Selector", "parse"]


@dataclass(frozen=True)
class Selector:
    """A parsed and statically checked selector.

    Attributes
    ----------
    text : str
        The selector as written.
    root : Node or None
        The AST; None for an empty selector (which matches every message).
    dialect : Dialect
        The rules it was parsed with (and will be evaluated with).
    """

    text: str
    root: "n.Node | None"
    dialect: Dialect

    @property
    def identifiers(self) -> tuple:
        """Names the selector refers to, in order of first appearance."""
        if self.root is None:
            return ()
        seen = {}
        for node in n.walk(self.root):
            if isinstance(node, n.Identifier):
                seen.setdefault(node.name, None)
        return tuple(seen)

    def canonical(self) -> str:
        """The selector re-printed in canonical form (keywords upper case, minimal spacing)."""
        text = to_text(self.root, self.dialect)
        if self.dialect.string_conversion_prefix and self.text.startswith(CONVERT_PREFIX):
            return CONVERT_PREFIX + text
        return text

    def __str__(self):
        return self.text

    def __reduce__(self):
        # Pickled as its text and re-parsed on the other side (a Spark executor): a deep tree
        # would otherwise make pickle itself recurse once per level.
        return (_unpickle, (self.text, self.dialect))


def _unpickle(text: str, dialect: Dialect) -> "Selector":
    return _parse_cached(text, dialect)


def parse(selector: str, *, dialect: "str | Dialect" = "jms") -> Selector:
    """Parse and check a JMS message selector.

    Parameters
    ----------
    selector : str
        The selector text. Empty or blank means "no selector" (every message matches).
    dialect : str or Dialect, default "jms"
        ``"jms"`` (the specification) or ``"activemq"`` (ActiveMQ Classic 5.17).

    Returns
    -------
    Selector

    Raises
    ------
    SelectorSyntaxError
        The text is not a selector.
    SelectorTypeError
        The selector is statically ill-typed (``'a' < 'b'``, ``3 + 5``, ``i IN (5)``).

    Examples
    --------
    >>> parse("JMSType = 'car' AND weight > 2500").root
    And(operands=(Comparison(op=<CompareOp.EQ: '='>, left=Identifier(name='JMSType'), right=Literal(value='car', type=<JmsType.STRING: 'string'>)), Comparison(op=<CompareOp.GT: '>'>, left=Identifier(name='weight'), right=Literal(value=2500, type=<JmsType.LONG: 'long'>))))
    >>> parse("color = 'blue' AND AND weight > 2500")
    Traceback (most recent call last):
      ...
    jms_selector_spark.errors.SelectorSyntaxError: unexpected 'AND' at line 1, column 20
      color = 'blue' AND AND weight > 2500
                         ^^^
    """
    if not isinstance(selector, str):
        raise TypeError(f"a selector is a str, not {type(selector).__name__}")
    return _parse_cached(selector, get_dialect(dialect))


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, dialect: Dialect) -> Selector:
    root = parse_tree(text, dialect)
    if root is not None:
        ensure_recursion_room(n.depth(root))
        check(root, dialect, text)
    if dialect.string_conversion_prefix and text.startswith(CONVERT_PREFIX):
        # ActiveMQ's `convert_string_expressions:` prefix: the same tree, compared with string
        # conversion (Dialect.convert_string_expressions).
        dialect = dialect.derive(convert_string_expressions=True)
    return Selector(text, root, dialect)
