"""The RabbitMQ JMS client's selector front end: its tokenizer, grammar and type checker.

The RabbitMQ JMS client (``com.rabbitmq.jms.parse.sql``) parses a selector with its own code and
sends the JMS topic exchange an Erlang term compiled from that parse. This module reproduces the
client, so that a dialect reading selectors this way (`Dialect.rabbitmq_client_grammar`) accepts
exactly the selectors the client accepts, with the tree shapes the exchange evaluates:

- **tokens** (``SqlTokenType``): tried in a fixed order, the first pattern that matches at the
  position wins (not the longest); blanks are Java's ``\\s`` (ASCII); keywords are case-blind and
  may not be followed by ``[a-zA-Z0-9_$.]``; ``NOT LIKE``, ``NOT IN``, ``NOT BETWEEN``, ``IS NULL``
  and ``IS NOT NULL`` are single tokens; ``NULL`` and ``IS`` alone are identifiers; identifiers
  are ``[a-zA-Z_$][a-zA-Z0-9_$.]*``; numbers must start with a digit (``.5`` does not lex), an
  exact number is a Java long (a larger one makes the client throw), and ``0x1F`` lexes as ``0``
  then the identifier ``x1F`` (the integer pattern comes first), so hex literals never parse;
  ``1.5f``/``2d`` are doubles; there are no comments, no ``%``, no ``!=``;
- **grammar** (``SqlProduction``, a recursive-descent parser taking the first alternative that
  matches fully): AND, OR, ``+ -`` and ``* /`` are right-associative (``10 - 5 - 2`` is
  ``10 - (5 - 2)``); NOT applies to one comparison (``NOT NOT a`` is invalid); comparisons do not
  chain; IN, LIKE and IS [NOT] NULL follow an identifier only, and are values that may stand in
  arithmetic or comparisons (``a IS NULL = TRUE``); IN lists hold string literals only; ESCAPE takes
  any string literal (empty or several characters);
- **types** (``SqlTypeSetterVisitor``): each sub-expression is boolean, string, arithmetic or any
  (an identifier; six JMS headers have fixed types: ``JMSPriority``/``JMSTimestamp`` arithmetic,
  the other four string). ``=``/``<>`` need two operands of one kind, ``< > <= >=``/BETWEEN and
  arithmetic arithmetic ones, LIKE/IN a string one, AND/OR/NOT boolean ones, and the whole
  selector must be boolean or an identifier. A selector that breaks a rule is a
  `SelectorTypeError`.

A selector that is empty after Java's ``String.trim`` (characters up to U+0020 removed) is no
selector. The tree uses the package's nodes (`nodes`) with the client's shapes: binary
`nodes.And`/`nodes.Or`, a sign as `nodes.Unary` over its literal, an ESCAPE kept as written.
The client's compiler to Erlang is `jms_selector_spark.rabbitmq_term`.
"""
from __future__ import annotations

import re

from ..language.types import LONG_MAX, JmsType
from ..language import nodes as n
from ..language.errors import SelectorSyntaxError, SelectorTypeError
from ..language.source import Span
from ..language.visitor import ensure_recursion_room
from .limits import MAX_DEPTH, check_tree_depth

__all__ = ["parse_client", "reads_as_the_client", "CLIENT_HEADER_KINDS", "java_blank"]

_WS = r"[ \t\n\x0b\f\r]"
_END = r"(?![a-zA-Z0-9_$.])"


def _kw(*words: str) -> str:
    return (_WS + "+").join("".join(f"[{c.upper()}{c.lower()}]" for c in w) for w in words) + _END


#: (token kind, pattern, kept): the client's token types in its order (first match wins).
_TOKENS = tuple((kind, re.compile(pattern), kept) for kind, pattern, kept in (
    ("WS", _WS + "+", False),
    ("LIKE", _kw("like"), True), ("NOT_LIKE", _kw("not", "like"), True),
    ("IN", _kw("in"), True), ("NOT_IN", _kw("not", "in"), True),
    ("NULL", _kw("is", "null"), True), ("NOT_NULL", _kw("is", "not", "null"), True),
    ("BETWEEN", _kw("between"), True), ("NOT_BETWEEN", _kw("not", "between"), True),
    ("AND", _kw("and"), True), ("OR", _kw("or"), True), ("NOT", _kw("not"), True),
    ("ESCAPE", _kw("escape"), True), ("TRUE", _kw("true"), True), ("FALSE", _kw("false"), True),
    ("=", "=", True), ("<>", "<>", True), ("<=", "<=", True), (">=", ">=", True), ("<", "<", True),
    (">", ">", True), ("+", r"\+", True), ("-", "-", True), ("*", r"\*", True), ("/", "/", True),
    (",", ",", True), ("(", r"\(", True), (")", r"\)", True),
    ("IDENT", r"[a-zA-Z_$][a-zA-Z0-9_$.]*", True),
    ("STRING", r"'(?:[^']|'')*'", True),
    ("FLOAT", r"[0-9]+(?:\.[0-9]+[Ee][-+]?[0-9]+|(?:\.(?:[Ee][-+]?[0-9]+)|[Ee][-+]?[0-9]+)|(?:\.[0-9]*)?[fFdD]"
              r"|\.[0-9]*)", True),
    ("INT", "[0-9]+", True),
    ("HEX", "0x[0-9a-fA-F]+", True),
))

#: The kind of value the client's type checker gives the JMS headers it knows (``Subscription``).
CLIENT_HEADER_KINDS = {"JMSDeliveryMode": "string", "JMSPriority": "arith", "JMSMessageID": "string",
                       "JMSTimestamp": "arith", "JMSCorrelationID": "string", "JMSType": "string"}

_COMPARE = {"=": n.CompareOp.EQ, "<>": n.CompareOp.NE, "<=": n.CompareOp.LE, ">=": n.CompareOp.GE,
            "<": n.CompareOp.LT, ">": n.CompareOp.GT}
_ARITH = {"+": n.ArithOp.PLUS, "-": n.ArithOp.MINUS, "*": n.ArithOp.TIMES, "/": n.ArithOp.DIVIDE}


def reads_as_the_client(dialect) -> bool:
    """Whether ``dialect`` (a `Dialect`) reads selectors as the RabbitMQ JMS client does."""
    return dialect.rabbitmq_client_grammar


def java_blank(text: str) -> bool:
    """Whether Java's ``text.trim().isEmpty()`` holds (every character is at most U+0020)."""
    return all(ch <= " " for ch in text)


class _Token:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end = kind, text, start, end


def _tokenize(text: str) -> list:
    tokens, pos = [], 0
    while pos < len(text):
        for kind, pattern, kept in _TOKENS:
            m = pattern.match(text, pos)
            if m is not None and m.end() > pos:
                if kept:
                    tokens.append(_Token(kind, m.group(), pos, m.end()))
                pos = m.end()
                break
        else:
            raise SelectorSyntaxError(f"the RabbitMQ JMS client cannot read the text from {text[pos]!r} on",
                                      text, Span(pos, len(text)))
    return tokens


class _Parser:
    """The client's productions over a token list; each method returns ``(node, next index)``
    or None, memoized by (production, index) as the client's choices depend on nothing else."""

    def __init__(self, text: str, tokens: list):
        self.text, self.tokens, self.memo, self.reached = text, tokens, {}, 0

    def kind(self, i):
        self.reached = max(self.reached, i)
        return self.tokens[i].kind if i < len(self.tokens) else None

    def span(self, i, j):
        return Span(self.tokens[i].start, self.tokens[j - 1].end)

    def rule(self, name, i):
        key = (name, i)
        if key not in self.memo:
            self.memo[key] = getattr(self, name)(i)
        return self.memo[key]

    # or_expr -> and_expr OR or_expr | and_expr   (and_expr likewise with AND over not_expr)
    def or_expr(self, i):
        return self._right_assoc(i, "and_expr", ("OR",), lambda op, l, r, s: n.Or((l, r), s))

    def and_expr(self, i):
        return self._right_assoc(i, "not_expr", ("AND",), lambda op, l, r, s: n.And((l, r), s))

    def _right_assoc(self, i, item, ops, build):
        """``item op self | item``, read as a loop: the chain ends before an operator whose right
        side is not an ``item`` (where the recursive production falls back to its second
        alternative), and the tree is nested to the right."""
        first = self.rule(item, i)
        if first is None:
            return None
        items, between = [first], []
        while self.kind(items[-1][1]) in ops:
            nxt = self.rule(item, items[-1][1] + 1)
            if nxt is None:
                break
            between.append(self.tokens[items[-1][1]].kind)
            items.append(nxt)
        node, end = items[-1]
        for k in range(len(items) - 2, -1, -1):
            start = i if k == 0 else items[k - 1][1] + 1
            node = build(between[k], items[k][0], node, self.span(start, end))
        return node, end

    # not_expr -> NOT cmp_expr | cmp_expr
    def not_expr(self, i):
        if self.kind(i) == "NOT":
            inner = self.rule("cmp_expr", i + 1)
            if inner is not None:
                return n.Not(inner[0], self.span(i, inner[1])), inner[1]
        return self.rule("cmp_expr", i)

    # cmp_expr -> arith op_cmp arith | arith BETWEEN arith AND arith | arith NOT_BETWEEN ... | arith
    def cmp_expr(self, i):
        left = self.rule("plus_expr", i)
        if left is None:
            return None
        x, j = left
        kind = self.kind(j)
        if kind in _COMPARE:
            right = self.rule("plus_expr", j + 1)
            if right is not None:
                return n.Comparison(_COMPARE[kind], x, right[0], self.span(i, right[1])), right[1]
        if kind in ("BETWEEN", "NOT_BETWEEN"):
            low = self.rule("plus_expr", j + 1)
            if low is not None and self.kind(low[1]) == "AND":
                high = self.rule("plus_expr", low[1] + 1)
                if high is not None:
                    return (n.Between(x, low[0], high[0], kind == "NOT_BETWEEN", self.span(i, high[1])), high[1])
        return left

    # plus_expr -> mult_expr op_plus plus_expr | mult_expr   (mult_expr likewise over sign_expr)
    def plus_expr(self, i):
        return self._right_assoc(i, "mult_expr", ("+", "-"), lambda op, l, r, s: n.Arithmetic(_ARITH[op], l, r, s))

    def mult_expr(self, i):
        return self._right_assoc(i, "sign_expr", ("*", "/"), lambda op, l, r, s: n.Arithmetic(_ARITH[op], l, r, s))

    # sign_expr -> op_plus sign_expr | simple   (a run of signs, then simple)
    def sign_expr(self, i):
        j = i
        while self.kind(j) in ("+", "-"):
            j += 1
        inner = self.rule("simple", j)
        if inner is None:
            return None
        node, end = inner
        for k in range(j - 1, i - 1, -1):
            op = n.UnaryOp.PLUS if self.tokens[k].kind == "+" else n.UnaryOp.MINUS
            node = n.Unary(op, node, self.span(k, end))
        return node, end

    def simple(self, i):
        kind = self.kind(i)
        if kind == "(":
            inner = self.rule("or_expr", i + 1)
            if inner is not None and self.kind(inner[1]) == ")":
                return inner[0], inner[1] + 1
            return None
        if kind in ("TRUE", "FALSE"):
            return n.Literal(kind == "TRUE", JmsType.BOOLEAN, self.span(i, i + 1)), i + 1
        if kind == "STRING":
            return n.Literal(_unquote(self.tokens[i].text), JmsType.STRING, self.span(i, i + 1)), i + 1
        if kind in ("FLOAT", "INT", "HEX"):
            return self._number(i), i + 1
        if kind != "IDENT":
            return None
        ident = n.Identifier(self.tokens[i].text, self.span(i, i + 1))
        after = self.kind(i + 1)
        if after in ("NULL", "NOT_NULL"):
            return n.IsNull(ident, after == "NOT_NULL", self.span(i, i + 2)), i + 2
        if after in ("IN", "NOT_IN"):
            values = self._strings(i + 2)
            if values is not None:
                return n.InList(ident, values[0], after == "NOT_IN", self.span(i, values[1])), values[1]
        if after in ("LIKE", "NOT_LIKE"):
            pattern = self._pattern(i + 2)
            if pattern is not None:
                (pat, esc), j = pattern
                return n.Like(ident, pat, esc, after == "NOT_LIKE", self.span(i, j)), j
        return ident, i + 1

    # stringlist -> LP strings RP ; strings -> STRING COMMA strings | STRING
    def _strings(self, i):
        if self.kind(i) != "(":
            return None
        values, j = [], i + 1
        while self.kind(j) == "STRING":
            values.append(n.Literal(_unquote(self.tokens[j].text), JmsType.STRING, self.span(j, j + 1)))
            if self.kind(j + 1) != ",":
                j += 1
                break
            j += 2
        else:
            return None
        return (tuple(values), j + 1) if self.kind(j) == ")" else None

    # pattern -> STRING ESCAPE STRING | STRING
    def _pattern(self, i):
        if self.kind(i) != "STRING":
            return None
        pat = _unquote(self.tokens[i].text)
        if self.kind(i + 1) == "ESCAPE" and self.kind(i + 2) == "STRING":
            return (pat, _unquote(self.tokens[i + 2].text)), i + 3
        return (pat, None), i + 1

    def _number(self, i):
        tok = self.tokens[i]
        span = self.span(i, i + 1)
        if tok.kind == "FLOAT":
            value = float(tok.text.rstrip("fFdD"))
            if value in (float("inf"), float("-inf")):
                raise SelectorSyntaxError(f"{tok.text} is beyond a double: the RabbitMQ JMS client would send the"
                                          " exchange 'Infinity', which it cannot read", self.text, span)
            return n.Literal(value, JmsType.DOUBLE, span)
        value = int(tok.text, 16) if tok.kind == "HEX" else int(tok.text)
        if value > LONG_MAX:
            raise SelectorSyntaxError(f"{tok.text} is beyond a Java long (the RabbitMQ JMS client throws"
                                      " NumberFormatException)", self.text, span)
        return n.Literal(value, JmsType.LONG, span)


def _unquote(token: str) -> str:
    return token[1:-1].replace("''", "'")


def parse_client(text: str) -> "n.Node | None":
    """The tree of ``text`` as the RabbitMQ JMS client parses and type-checks it (None: no
    selector, the text is blank for Java's ``String.trim``).

    Raises `SelectorSyntaxError` where the client's tokenizer or parser fails (or would throw),
    `SelectorTypeError` where its type checker does.
    """
    if java_blank(text):
        return None
    tokens = _tokenize(text)
    _make_room(tokens, text)
    parser = _Parser(text, tokens)
    root = parser.rule("or_expr", 0)
    if root is None or root[1] < len(tokens):
        at = parser.reached if root is None else root[1]
        if at < len(tokens):
            tok = tokens[at]
            raise SelectorSyntaxError(f"the RabbitMQ JMS client's grammar stops at {tok.text!r}", text,
                                      Span(tok.start, tok.end))
        raise SelectorSyntaxError("unexpected end of selector", text, Span(len(text), len(text)))
    ensure_recursion_room(check_tree_depth(root[0], text))
    _check_types(root[0], text)
    return root[0]


def _make_room(tokens: list, text: str) -> None:
    """Refuse nesting beyond `limits.MAX_DEPTH` parentheses, and let the recursive productions
    recurse through what is allowed: they take about 20 frames a parenthesis, which is four tree
    levels' worth for `visitor.ensure_recursion_room`."""

    depth = deepest = 0
    for tok in tokens:
        depth += {"(": 1, ")": -1}.get(tok.kind, 0)
        if depth > MAX_DEPTH:
            raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                      Span(tok.start, tok.end))
        deepest = max(deepest, depth)
    ensure_recursion_room(4 * deepest + 50)


# -- the client's type checker ---------------------------------------------------------------------

def _check_types(root: n.Node, text: str) -> None:
    kind = _kind(root, text)
    if kind not in ("bool", "any"):
        raise SelectorTypeError(f"a selector must be a condition, not {_WHAT[kind]} (RabbitMQ JMS client)",
                                text, root.span)


_WHAT = {"string": "a string", "arith": "a number", "bool": "a condition", "any": "a name"}


def _kind(node: n.Node, text: str) -> str:
    """The client's expression type of ``node``: ``bool``, ``string``, ``arith`` or ``any``;
    `SelectorTypeError` at the first sub-expression it calls invalid."""
    t = type(node)
    if t is n.Literal:
        return {JmsType.BOOLEAN: "bool", JmsType.STRING: "string"}.get(node.type, "arith")
    if t is n.Identifier:
        return CLIENT_HEADER_KINDS.get(node.name, "any")
    if t is n.IsNull:
        return "bool"
    if t in (n.InList, n.Like):
        _want(node.operand, ("string",), text, "IN and LIKE take a string")
        return "bool"
    if t is n.Comparison:
        a, b = _kind(node.left, text), _kind(node.right, text)
        if node.op.is_ordering:
            for side, k in ((node.left, a), (node.right, b)):
                if k not in ("arith", "any"):
                    _fail(side, text, f"{node.op.value} compares numbers, not {_WHAT[k]}")
        elif not any(_fits(a, k) and _fits(b, k) for k in ("bool", "arith", "string")):
            _fail(node, text, f"{_WHAT[a]} cannot be compared with {_WHAT[b]}")
        return "bool"
    if t is n.Between:
        for op in (node.operand, node.low, node.high):
            _want(op, ("arith",), text, "BETWEEN compares numbers")
        return "bool"
    if t is n.Arithmetic:
        _want(node.left, ("arith",), text, "arithmetic takes numbers")
        _want(node.right, ("arith",), text, "arithmetic takes numbers")
        return "arith"
    if t is n.Unary:
        _want(node.operand, ("arith",), text, "a sign takes a number")
        return "arith"
    if t in (n.And, n.Or):
        for op in node.operands:
            _want(op, ("bool",), text, f"{t.__name__.upper()} takes conditions")
        return "bool"
    if t is n.Not:
        _want(node.operand, ("bool",), text, "NOT takes a condition")
        return "bool"
    raise TypeError(f"not a node of the RabbitMQ JMS client's grammar: {node!r}")


def _fits(kind: str, wanted: str) -> bool:
    return kind == wanted or kind == "any"


def _want(node, wanted, text, why):
    kind = _kind(node, text)
    if not any(_fits(kind, w) for w in wanted):
        _fail(node, text, f"{why}, not {_WHAT[kind]}")


def _fail(node, text, message):
    raise SelectorTypeError(message + " (RabbitMQ JMS client)", text, node.span)
