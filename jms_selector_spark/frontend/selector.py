"""`parse`: selector text → a checked, immutable `Selector`."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..semantics.dialects import DIALECTS, ZERO_ID, Dialect, get_dialect
from ..semantics.types import JmsType
from . import nodes as n
from .checker import check
from .errors import SelectorSyntaxError, SelectorTypeError
from .lexer import CONVERT_PREFIX
from .parser import MAX_LENGTH, parse_tree_info
from .printer import to_text
from .source import Span
from .visitor import ensure_recursion_room

__all__ = ["Selector", "parse", "as_selector"]


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
    ignored : Span or None
        Trailing text the dialect's parser stops before and ignores (WSO2: ``a = 1 garbage``);
        None when the whole text is the selector.
    """

    text: str
    root: "n.Node | None"
    dialect: Dialect
    ignored: "Span | None" = field(default=None, compare=False)

    @property
    def identifiers(self) -> tuple:
        """Names the selector refers to, in order of first appearance."""
        known = self.__dict__.get("_identifiers")  # computed once (the tree is immutable)
        if known is not None:
            return known
        seen = {}
        if self.root is not None:
            for node in n.walk(self.root):
                if isinstance(node, n.Identifier):
                    seen.setdefault(node.name, None)
        known = self.__dict__["_identifiers"] = tuple(seen)
        return known

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
        return (_unpickle, (self.text, self.dialect, max(MAX_LENGTH, len(self.text))))


def _unpickle(text: str, dialect: Dialect, max_length: int = MAX_LENGTH) -> "Selector":
    return _parse_cached(text, dialect, max_length)


def parse(selector: str, *, dialect: "str | Dialect" = "jms", max_length: int = MAX_LENGTH) -> Selector:
    """Parse and check a JMS message selector.

    Parameters
    ----------
    selector : str
        The selector text. Empty or blank means "no selector" (every message matches).
    dialect : str or Dialect, default "jms"
        ``"jms"`` (the specification), ``"activemq"`` (ActiveMQ Classic 5.17), ``"ibmmq"`` (IBM MQ
        classes for JMS) or ``"mqe"`` (IBM MQ Everyplace); see `jms_selector_spark.semantics.dialects`.
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
    jms_selector_spark.frontend.errors.SelectorSyntaxError: unexpected 'AND' at line 1, column 20
      color = 'blue' AND AND weight > 2500
                         ^^^
    """
    if not isinstance(selector, str):
        raise TypeError(f"a selector is a str, not {type(selector).__name__}")
    if not isinstance(max_length, int) or isinstance(max_length, bool) or max_length < 1:
        raise ValueError(f"max_length must be a positive int, not {max_length!r}")
    return _parse_cached(selector, get_dialect(dialect), max_length)


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


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, dialect: Dialect, max_length: int = MAX_LENGTH) -> Selector:
    try:
        root, ignored, depth = parse_tree_info(text, dialect, max_length=max_length)
    except SelectorSyntaxError as e:
        hinted = _function_hint(e, text, dialect) or _comment_hint(e, text, dialect)
        if hinted is None:
            raise
        raise hinted from None
    if root is not None:
        ensure_recursion_room(depth)
        check(root, dialect, text)
        if dialect.zero_id_wildcard:
            root = _match_option_form(root, text)
        if dialect.reject_constant_false:
            _reject_constant_false(root, dialect, text)
    if dialect.string_conversion_prefix and text.startswith(CONVERT_PREFIX):
        # ActiveMQ's `convert_string_expressions:` prefix: the same tree, compared with string
        # conversion (Dialect.convert_string_expressions).
        dialect = dialect.derive(convert_string_expressions=True)
    return Selector(text, root, dialect, ignored)


#: The whole selector ``JMSMessageID='ID:'+48 zeros`` (or JMSCorrelationID), Java blanks around ``=``.
ZERO_ID_FORM = re.compile(r"[ \t\f\r\n]*(?:JMSMessageID|JMSCorrelationID)[ \t\f\r\n]*=[ \t\f\r\n]*'"
                          + ZERO_ID + r"'[ \t\f\r\n]*")
#: The same form with any 48 hex digits: IBM MQ's MQMO_MATCH_MSG_ID / MQMO_MATCH_CORREL_ID path.
ID_FORM = re.compile(r"[ \t\f\r\n]*(?:JMSMessageID|JMSCorrelationID)[ \t\f\r\n]*=[ \t\f\r\n]*'ID:[0-9A-Fa-f]{48}'"
                     r"[ \t\f\r\n]*")


def _match_option_form(root: n.Node, text: str) -> n.Node:
    """IBM MQ's reading of a selector that is exactly ``JMSMessageID='ID:<48 hex>'`` (or
    JMSCorrelationID; DIALECTS.md §1): the client gets the message by its 24 id bytes.

    All zeros (MQMI_NONE / MQCI_NONE) return any message: TRUE for every message (the text keeps
    the user's form). Other ids compare as bytes, so lower-case hex selects the message whose id
    the archive holds as IBM writes it, ``ID:`` + upper-case hex (inferred). Any other form is
    plain string equality.
    """
    if ZERO_ID_FORM.fullmatch(text):
        return n.Literal(True, JmsType.BOOLEAN, span=root.span)
    if ID_FORM.fullmatch(text) and root.right.value != root.right.value.upper():
        lit = root.right
        return n.Comparison(root.op, root.left, n.Literal("ID:" + lit.value[3:].upper(), lit.type, span=lit.span),
                            span=root.span)
    return root


def parse_time_rules(dialect: Dialect) -> dict:
    """A dialect's parse-time rules that `lint` warns about (read here, in the front end):
    ``zero_id_wildcard``, ``reject_constant_false``, ``extended_literals`` (bool) and
    ``max_bytes`` (int or None)."""
    return {"zero_id_wildcard": dialect.zero_id_wildcard, "reject_constant_false": dialect.reject_constant_false,
            "extended_literals": dialect.extended_literals, "max_bytes": dialect.max_length}


def _reject_constant_false(root: n.Node, dialect: Dialect, text: str) -> None:
    """IBM MQ's MQRC_SELECTOR_ALWAYS_FALSE: a selector naming no header or property that is FALSE.

    The value is the reference interpreter's, asked once with no message (nothing is read):
    the rule is that of the evaluation, not a second copy of it.
    """
    if any(isinstance(node, (n.Identifier, n.FunctionCall)) for node in n.walk(root)):
        return
    from ..interpreter import ReferenceInterpreter  # evaluation code, only for this parse-time rule

    if ReferenceInterpreter(lambda name: None, dialect).run(root) is False:
        raise SelectorTypeError(f"the selector is FALSE for every message, which the {dialect.name!r} dialect"
                                " rejects (MQRC_SELECTOR_ALWAYS_FALSE, 2504)", text, root.span)


def _function_hint(err: SelectorSyntaxError, text: str, dialect: Dialect) -> "SelectorSyntaxError | None":
    """``SPLIT(a, ',')`` in a dialect without functions fails at the ``(``; when the name before it
    is a function of another built-in dialect, say so (pointing at the name)."""
    if not err.message.startswith("unexpected '('"):
        return None
    end = len(text[:err.span.start].rstrip())
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_$"):
        start -= 1
    name = text[start:end]
    if not name or name[0].isdigit():
        return None
    having = [d.name for d in DIALECTS.values() if d.name != dialect.name and name.upper() in d.functions]
    if not having:
        return None
    mine = ", ".join(sorted(dialect.functions)) or "no functions"
    where = " or ".join(f'dialect="{h}"' for h in having)
    return SelectorSyntaxError(f"{name.upper()} is not a function of the {dialect.name!r} dialect (it has {mine});"
                               f" it exists in {where}", text, Span(start, end))


def _comment_hint(err: SelectorSyntaxError, text: str, dialect: Dialect) -> "SelectorSyntaxError | None":
    """A syntax error after ``--`` in a dialect without comments: say that ``--`` is two minus
    signs there (``qty > 4 -- more than four`` fails at ``than``)."""
    if dialect.comments or not err.message.startswith("unexpected "):
        return None  # only for a token the grammar did not expect (not for limits or bad literals)
    i, end = 0, err.span.start
    while i < end - 1:
        if text[i] == "'":
            close = i + 1
            while True:
                close = text.find("'", close)
                if close < 0 or text[close + 1:close + 2] != "'":
                    break
                close += 2
            if close < 0 or close >= end:
                return None
            i = close + 1
            continue
        if text.startswith("--", i):
            return SelectorSyntaxError(f"{err.message} ('--' at column {i + 1} is two minus signs: the {dialect.name!r}"
                                       " dialect has no comments)", text, err.span)
        i += 1
    return None
