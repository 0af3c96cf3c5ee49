"""The public front door of the language: `parse` and `as_selector`.

`parse` composes the stages below it: the front end's syntax and static checks
(`frontend.selector.parse_selector`), then the one rule that needs the evaluation rules at parse
time — IBM MQ rejects a selector that reads no header or property and is FALSE for every
message (MQRC_SELECTOR_ALWAYS_FALSE): lowering folds such a selector to a constant, and the
constant is its value.
"""
from __future__ import annotations

from .language import nodes as n
from .language.errors import SelectorTypeError
from .frontend.parser import MAX_LENGTH
from .frontend.selector import Selector, parse_selector
from .language.dialects import Dialect, get_dialect
from .semantics.lowering import lower, rules_for
from .language.types import JmsType

__all__ = ["parse", "as_selector"]


def parse(selector: str, *, dialect: "str | Dialect" = "jms", max_length: int = MAX_LENGTH) -> Selector:
    """Parse and check a JMS message selector.

    Parameters
    ----------
    selector : str
        The selector text. Empty or blank means "no selector" (every message matches).
    dialect : str or Dialect, default "jms"
        A built-in dialect's name (``"jms"``, the specification; ``"activemq"``, ``"ibmmq"``, ...:
        see `get_dialect`) or a `Dialect`.
    max_length : int, default 65,536
        The longest selector accepted, in characters (a guard against runaway input). A longer
        selector, such as an IN list of 10,000 items, needs a larger limit here; the `Selector`
        this returns can then be given to `selector_to_sql`, `jms_filter`, `explain_filter`,
        `register_selector` or `lint` in place of the text.

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
    jms_selector_spark.language.errors.SelectorSyntaxError: unexpected 'AND' at line 1, column 20
      color = 'blue' AND AND weight > 2500
                         ^^^
    """
    if not isinstance(selector, str):
        raise TypeError(f"a selector is a str, not {type(selector).__name__}")
    if not isinstance(max_length, int) or isinstance(max_length, bool) or max_length < 1:
        raise ValueError(f"max_length must be a positive int, not {max_length!r}")
    sel = parse_selector(selector, get_dialect(dialect), max_length)
    if sel.dialect.reject_constant_false and sel.root is not None:
        _reject_constant_false(sel)
    return sel


def as_selector(selector: "str | Selector", dialect: "str | Dialect | None" = None) -> Selector:
    """The one normalisation of a public ``selector`` argument: a `Selector` as it is (it carries
    its own dialect), a string parsed with ``dialect`` (None: ``"jms"``).

    Raises ``ValueError`` when ``dialect`` is given and differs from a `Selector`'s own: the
    selector was parsed under other rules, and using either dialect silently would be wrong.

    >>> as_selector(parse("a = 1", dialect="activemq"), "jms")
    Traceback (most recent call last):
      ...
    ValueError: the Selector 'a = 1' was parsed with dialect 'activemq', but dialect='jms' was passed: parse the text with dialect='jms', or leave dialect= out
    """
    if not isinstance(selector, Selector):
        return parse(selector, dialect="jms" if dialect is None else dialect)
    if dialect is not None and get_dialect(dialect) != selector.dialect:
        asked = dialect if isinstance(dialect, str) else dialect.name
        raise ValueError(f"the Selector {selector.text!r} was parsed with dialect {selector.dialect.name!r}, but "
                         f"dialect={asked!r} was passed: parse the text with dialect={asked!r}, or leave dialect= out")
    return selector


def _reject_constant_false(sel: Selector) -> None:
    """IBM MQ's MQRC_SELECTOR_ALWAYS_FALSE: a selector naming no header or property that is FALSE.

    Such a tree is constant, and lowering folds a constant tree to its value: the rule is that
    of the evaluation, not a second copy of it.
    """
    root = sel.root
    if any(isinstance(node, (n.Identifier, n.FunctionCall)) for node in n.walk(root)):
        return
    value = lower(root, rules_for(sel.dialect))
    if isinstance(value, n.Literal) and value.type is JmsType.BOOLEAN and value.value is False:
        raise SelectorTypeError(f"the selector is FALSE for every message, which the {sel.dialect.name!r} dialect"
                                " rejects (MQRC_SELECTOR_ALWAYS_FALSE, 2504)", sel.text, root.span)
