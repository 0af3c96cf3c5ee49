"""`parse`: selector text → a checked, immutable `Selector`."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..language.dialects import DIALECTS, ZERO_ID, Dialect
from ..language import nodes as n
from .checker import check
from ..language.errors import SelectorSyntaxError
from .lexer import CONVERT_PREFIX
from .parser import MAX_LENGTH, parse_tree_info
from .printer import to_text
from ..language.source import Span
from ..language.visitor import ensure_recursion_room

__all__ = ["Selector", "parse_selector", "ZERO_ID_FORM", "ID_FORM"]


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
    option_form : str or None
        ``"zero"`` when the whole text is ``JMSMessageID='ID:'`` + 48 zeros (or JMSCorrelationID,
        Java blanks around ``=``), ``"id"`` for any other 48 hex digits there: the form IBM MQ
        reads as a match option (`semantics.rewrites.match_option`); None otherwise.
    """

    text: str
    root: "n.Node | None"
    dialect: Dialect
    ignored: "Span | None" = field(default=None, compare=False)
    option_form: "str | None" = field(default=None, compare=False)
    identifiers: tuple = field(default=None, compare=False)

    def __post_init__(self):
        if self.identifiers is None:  # a Selector built by hand: found here (the parser's checker finds them)
            seen = {} if self.root is None else {node.name: None for node in n.walk(self.root)
                                                  if isinstance(node, n.Identifier)}
            object.__setattr__(self, "identifiers", tuple(seen))

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
    return parse_selector(text, dialect, max_length)


@functools.lru_cache(maxsize=4096)
def parse_selector(text: str, dialect: Dialect, max_length: int = MAX_LENGTH) -> Selector:
    """The front end's part of `jms_selector_spark.parse`: syntax and static checks, for a
    `Dialect`. Memoised (bounded): a selector text is parsed once per process, also where a pickled
    `Selector` is rebuilt (a Spark executor). Raises `SelectorSyntaxError` or `SelectorTypeError`;
    the checks that need evaluation rules are the caller's."""
    try:
        root, ignored, depth = parse_tree_info(text, dialect, max_length=max_length)
    except SelectorSyntaxError as e:
        hinted = _function_hint(e, text, dialect) or _comment_hint(e, text, dialect)
        if hinted is None:
            raise
        raise hinted from None
    option_form, names = None, ()
    if root is not None:
        ensure_recursion_room(depth)
        names = check(root, dialect, text)
        option_form = _option_form(text)
    if dialect.string_conversion_prefix and text.startswith(CONVERT_PREFIX):
        # ActiveMQ's `convert_string_expressions:` prefix: the same tree, compared with string
        # conversion (Dialect.convert_string_expressions).
        dialect = dialect.derive(convert_string_expressions=True)
    return Selector(text, root, dialect, ignored, option_form, names)


#: The whole selector ``JMSMessageID='ID:'+48 zeros`` (or JMSCorrelationID), Java blanks around ``=``.
ZERO_ID_FORM = re.compile(r"[ \t\f\r\n]*(?:JMSMessageID|JMSCorrelationID)[ \t\f\r\n]*=[ \t\f\r\n]*'"
                          + ZERO_ID + r"'[ \t\f\r\n]*")
#: The same form with any 48 hex digits: IBM MQ's MQMO_MATCH_MSG_ID / MQMO_MATCH_CORREL_ID path.
ID_FORM = re.compile(r"[ \t\f\r\n]*(?:JMSMessageID|JMSCorrelationID)[ \t\f\r\n]*=[ \t\f\r\n]*'ID:[0-9A-Fa-f]{48}'"
                     r"[ \t\f\r\n]*")


def _option_form(text: str) -> "str | None":
    """``"zero"`` / ``"id"`` / None: whether ``text`` is exactly IBM MQ's match-option form (see
    `Selector.option_form`)."""
    if "ID:" not in text:
        return None
    if ZERO_ID_FORM.fullmatch(text):
        return "zero"
    return "id" if ID_FORM.fullmatch(text) else None


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
