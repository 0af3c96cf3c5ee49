"""The selector parser: text → AST. PLY lives here and in `lexer.py` only.

Two grammars share their leaf rules:

- `_SqlGrammar` follows the productions of the JMS specification (SQL-92 shaped): ``NOT`` sits
  between ``AND`` and the predicates, predicates do not chain (``a = b = c`` is an error).
- `_ActiveMQGrammar` follows ActiveMQ Classic's ``SelectorParser.jj``: ``NOT`` binds like a unary
  sign (``NOT a = 1`` is ``(NOT a) = 1``), ``=``/``<>``/``IS NULL`` chain above ``<``/``LIKE``/
  ``BETWEEN``/``IN``, and ``NULL`` is a literal (rejected where it is compared).

A dialect picks its grammar with ``Dialect.not_binds_tighter``. Without ``Dialect.require_eof``
(WSO2: its JavaCC grammar has no ``<EOF>``) the selector is the longest prefix the grammar
accepts where the next token cannot continue it; the rest (which must lex) is ignored and
reported as `Selector.ignored`. Each parser is built lazily, once
per process, from an instance, with ``write_tables=False, debug=False``: nothing is written to
disk, ever (site-packages and executors' zips are read-only). Grammar docstrings are BNF read by
PLY, so ``python -OO`` (which strips docstrings) cannot build the parser; that is detected and
reported.

Numeric signs are folded into literals (``-5`` is ``Literal(-5)``), which is how
``-9223372036854775808`` is valid while ``9223372036854775808`` is out of range.
"""
from __future__ import annotations

import functools
import threading

import ply.yacc as yacc

from . import nodes as n
from .activemq_like import BrokerLikeError, broker_like
from .dialects import ARITY, Dialect, get_dialect
from .errors import SelectorSyntaxError
from .lexer import SelectorLexer
from .source import Span
from .tokens import TOKENS
from .types import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN, JmsType

__all__ = ["parse_tree", "parse_tree_with_tail", "MAX_LENGTH", "MAX_DEPTH"]

#: Longest selector accepted by any dialect, in characters (a dialect may set a lower limit).
MAX_LENGTH = 65_536
#: Deepest nesting accepted (parentheses, or operators inside operators).
MAX_DEPTH = 1_000

_COMPARE = {"=": n.CompareOp.EQ, "<>": n.CompareOp.NE, "<": n.CompareOp.LT, ">": n.CompareOp.GT,
            "<=": n.CompareOp.LE, ">=": n.CompareOp.GE}
_ARITH = {"+": n.ArithOp.PLUS, "-": n.ArithOp.MINUS, "*": n.ArithOp.TIMES, "/": n.ArithOp.DIVIDE,
          "%": n.ArithOp.MODULO}


class _Grammar:
    """Rules both grammars share (arithmetic, primaries, literals, predicates' tails)."""

    tokens = TOKENS
    start = "selector"

    def __init__(self, dialect: Dialect):
        self.dialect = dialect
        self.text = ""

    # -- helpers -----------------------------------------------------------------------------
    def _tok_span(self, p, i) -> Span:
        value = p[i]
        raw = value[1] if isinstance(value, tuple) else getattr(value, "raw", value)
        return Span(p.lexpos(i), p.lexpos(i) + len(raw))

    def _span(self, p, first, last) -> Span:
        a = p[first].span if isinstance(p[first], n.Node) else self._tok_span(p, first)
        b = p[last].span if isinstance(p[last], n.Node) else self._tok_span(p, last)
        return a.cover(b)

    def _fail(self, cls, message, span):
        raise cls(message, self.text, span)

    def _broker_like(self, pattern, escape, span):
        """ActiveMQ's reading of an escape character outside U+0010..U+00FF (`activemq_like`)."""
        if not self.dialect.like_escape_as_hex:
            return pattern, escape
        try:
            return broker_like(pattern, escape)
        except BrokerLikeError as e:
            self._fail(SelectorSyntaxError, str(e), span)

    def _logical(self, cls, p):
        left, right = p[1], p[3]
        ops = (left.operands if type(left) is cls else (left,)) + (right,)
        return cls(ops, span=left.span.cover(right.span))

    # -- entry --------------------------------------------------------------------------------
    def p_selector(self, p):
        "selector : conditional_expression"
        p[0] = p[1]

    # -- arithmetic -----------------------------------------------------------------------------
    def p_arithmetic_binary(self, p):
        """additive_expression : additive_expression PLUS multiplicative_expression
                               | additive_expression MINUS multiplicative_expression
        multiplicative_expression : multiplicative_expression TIMES unary_expression
                                  | multiplicative_expression DIVIDE unary_expression
                                  | multiplicative_expression MODULO unary_expression"""
        if p[2] == "%" and not self.dialect.modulo:
            self._fail(SelectorSyntaxError, f"unexpected '%' (the {self.dialect.name!r} dialect has no modulo)",
                       self._tok_span(p, 2))
        p[0] = n.Arithmetic(_ARITH[p[2]], p[1], p[3], span=self._span(p, 1, 3))

    def p_arithmetic_pass(self, p):
        """additive_expression : multiplicative_expression
        multiplicative_expression : unary_expression"""
        p[0] = p[1]

    def p_unary_sign(self, p):
        """unary_expression : PLUS unary_expression
                            | MINUS unary_expression"""
        operand, span = p[2], self._span(p, 1, 2)
        if p[1] == "+" and self.dialect.unary_plus_identity:
            p[0] = operand  # ActiveMQ: `+x` is x, whatever x is (so `+'a' < 1` is rejected)
        elif isinstance(operand, n.Literal) and operand.type.is_numeric:
            # Fold the sign into the literal; the type stays that of the unsigned literal. The
            # unsigned 9223372036854775808 becomes Long.MIN_VALUE here; negating Long.MIN_VALUE
            # again (``- -9223372036854775808``) wraps back to it, as Java's unary minus does.
            value = operand.value
            if p[1] == "-":
                value = -value
                if operand.type.is_exact and value == LONG_MAX + 1:
                    value = LONG_MIN
            p[0] = n.Literal(value, operand.type, span=span)
        else:
            p[0] = n.Unary(n.UnaryOp.MINUS if p[1] == "-" else n.UnaryOp.PLUS, operand, span=span)

    def p_unary_pass(self, p):
        "unary_expression : primary"
        p[0] = p[1]

    def p_primary_identifier(self, p):
        "primary : IDENTIFIER"
        p[0] = n.Identifier(p[1], span=self._tok_span(p, 1))

    def p_primary_group(self, p):
        "primary : LPAREN conditional_expression RPAREN"
        p[0] = p[2]

    def p_primary_literal(self, p):
        "primary : literal"
        p[0] = p[1]

    def p_literal_string(self, p):
        "literal : STRING"
        p[0] = n.Literal(p[1][0], JmsType.STRING, span=self._tok_span(p, 1))

    def p_literal_exact(self, p):
        "literal : EXACT_NUMERIC"
        value, raw = p[1]
        # ActiveMQ's ConstantExpression narrows every exact literal that fits to an int: decimal,
        # L-suffixed, hex and octal alike (the oracle: `0x7FFFFFFF + 1 > 0` is FALSE).
        narrow = self.dialect.narrow_int_literals and INT_MIN <= value <= INT_MAX
        p[0] = n.Literal(value, JmsType.INT if narrow else JmsType.LONG, span=self._tok_span(p, 1))

    def p_literal_approx(self, p):
        "literal : APPROX_NUMERIC"
        p[0] = n.Literal(p[1][0], JmsType.DOUBLE, span=self._tok_span(p, 1))

    def p_literal_boolean(self, p):
        """literal : TRUE
                   | FALSE"""
        p[0] = n.Literal(p[1].upper() == "TRUE", JmsType.BOOLEAN, span=self._tok_span(p, 1))

    # -- predicate tails ---------------------------------------------------------------------
    def p_pattern(self, p):
        "pattern : STRING"
        p[0] = (p[1][0], self._tok_span(p, 1))

    def p_escape(self, p):
        """escape : ESCAPE STRING
                  | empty"""
        # The value is (escape character or None, span of the ESCAPE clause or None).
        if len(p) == 2:
            p[0] = (None, None)
            return
        char, span = p[2][0], self._tok_span(p, 2)
        # One Java char: a character outside the BMP is two UTF-16 units, which ActiveMQ rejects
        # (`escape.length() != 1`, the oracle) and which no Java-based broker can take either.
        if len(char.encode("utf-16-le", "surrogatepass")) != 2:
            hint = " (a character outside the Basic Multilingual Plane is two Java chars)" if len(char) == 1 else ""
            self._fail(SelectorSyntaxError, f"ESCAPE must be exactly one character, not {p[2][1]}{hint}", span)
        p[0] = (char, span)

    def p_in_list(self, p):
        """in_list : in_list COMMA in_value
                   | in_value"""
        p[0] = (p[1] + (p[3],)) if len(p) == 4 else (p[1],)

    def p_in_value(self, p):
        "in_value : STRING"
        p[0] = n.Literal(p[1][0], JmsType.STRING, span=self._tok_span(p, 1))

    def p_in_value_bad(self, p):
        """in_value : EXACT_NUMERIC
                    | APPROX_NUMERIC
                    | TRUE
                    | FALSE
                    | NULL
                    | IDENTIFIER"""
        self._fail(SelectorSyntaxError, "IN lists hold string literals only", self._tok_span(p, 1))

    def p_empty(self, p):
        "empty :"

    def p_error(self, tok):
        if tok is None:
            self._fail(SelectorSyntaxError, "unexpected end of selector", Span(len(self.text), len(self.text)))
        raw = tok.value[1] if isinstance(tok.value, tuple) else getattr(tok.value, "raw", tok.value)
        hint = ""
        if tok.type == "NULL":
            hint = " (NULL is not a value: test it with IS NULL / IS NOT NULL)"
        self._fail(SelectorSyntaxError, f"unexpected {raw!r}{hint}", Span(tok.lexpos, tok.lexpos + len(raw)))


class _SqlGrammar(_Grammar):
    """The JMS specification's productions: NOT below the predicates, no predicate chains."""

    def p_or(self, p):
        "conditional_expression : conditional_expression OR conditional_term"
        p[0] = self._logical(n.Or, p)

    def p_and(self, p):
        "conditional_term : conditional_term AND conditional_factor"
        p[0] = self._logical(n.And, p)

    def p_not(self, p):
        "conditional_factor : NOT conditional_factor"
        p[0] = n.Not(p[2], span=self._span(p, 1, 2))

    def p_pass(self, p):
        """conditional_expression : conditional_term
        conditional_term : conditional_factor
        conditional_factor : conditional_primary
        conditional_primary : predicate
                            | additive_expression"""
        p[0] = p[1]

    def p_comparison(self, p):
        """predicate : additive_expression EQ additive_expression
                     | additive_expression NE additive_expression
                     | additive_expression LT additive_expression
                     | additive_expression GT additive_expression
                     | additive_expression LE additive_expression
                     | additive_expression GE additive_expression"""
        p[0] = n.Comparison(_COMPARE[p[2]], p[1], p[3], span=self._span(p, 1, 3))

    def p_between(self, p):
        """predicate : additive_expression BETWEEN additive_expression AND additive_expression
                     | additive_expression NOT BETWEEN additive_expression AND additive_expression"""
        neg = len(p) == 7
        p[0] = n.Between(p[1], p[3 + neg], p[5 + neg], negated=neg, span=self._span(p, 1, len(p) - 1))

    def p_like(self, p):
        """predicate : additive_expression LIKE pattern escape
                     | additive_expression NOT LIKE pattern escape"""
        neg = len(p) == 6
        pattern, pspan = p[3 + neg]
        escape, espan = p[4 + neg]
        span = p[1].span.cover(espan or pspan)
        pattern, escape = self._broker_like(pattern, escape, pspan)
        p[0] = n.Like(p[1], pattern, escape, negated=neg, span=span)

    def p_in(self, p):
        """predicate : additive_expression IN LPAREN in_list RPAREN
                     | additive_expression NOT IN LPAREN in_list RPAREN"""
        neg = len(p) == 7
        p[0] = n.InList(p[1], p[4 + neg], negated=neg, span=self._span(p, 1, len(p) - 1))

    def p_is_null(self, p):
        """predicate : additive_expression IS NULL
                     | additive_expression IS NOT NULL"""
        p[0] = n.IsNull(p[1], negated=len(p) == 5, span=self._span(p, 1, len(p) - 1))


class _ActiveMQGrammar(_Grammar):
    """ActiveMQ Classic's SelectorParser.jj, rule for rule (left recursion instead of loops)."""

    def p_or(self, p):
        "conditional_expression : conditional_expression OR and_expression"
        p[0] = self._logical(n.Or, p)

    def p_and(self, p):
        "and_expression : and_expression AND equality_expression"
        p[0] = self._logical(n.And, p)

    def p_pass(self, p):
        """conditional_expression : and_expression
        and_expression : equality_expression
        equality_expression : comparison_expression
        comparison_expression : additive_expression"""
        p[0] = p[1]

    def p_equality(self, p):
        """equality_expression : equality_expression EQ comparison_expression
                               | equality_expression NE comparison_expression"""
        p[0] = n.Comparison(_COMPARE[p[2]], p[1], p[3], span=self._span(p, 1, 3))

    def p_is_null(self, p):
        """equality_expression : equality_expression IS NULL
                               | equality_expression IS NOT NULL"""
        p[0] = n.IsNull(p[1], negated=len(p) == 5, span=self._span(p, 1, len(p) - 1))

    def p_comparison(self, p):
        """comparison_expression : comparison_expression LT additive_expression
                                 | comparison_expression GT additive_expression
                                 | comparison_expression LE additive_expression
                                 | comparison_expression GE additive_expression"""
        p[0] = n.Comparison(_COMPARE[p[2]], p[1], p[3], span=self._span(p, 1, 3))

    def p_between(self, p):
        """comparison_expression : comparison_expression BETWEEN additive_expression AND additive_expression
                                 | comparison_expression NOT BETWEEN additive_expression AND additive_expression"""
        neg = len(p) == 7
        p[0] = n.Between(p[1], p[3 + neg], p[5 + neg], negated=neg, span=self._span(p, 1, len(p) - 1))

    def p_like(self, p):
        """comparison_expression : comparison_expression LIKE pattern escape
                                 | comparison_expression NOT LIKE pattern escape"""
        neg = len(p) == 6
        pattern, pspan = p[3 + neg]
        escape, espan = p[4 + neg]
        span = p[1].span.cover(espan or pspan)
        pattern, escape = self._broker_like(pattern, escape, pspan)
        p[0] = n.Like(p[1], pattern, escape, negated=neg, span=span)

    def p_in(self, p):
        """comparison_expression : comparison_expression IN LPAREN in_list RPAREN
                                 | comparison_expression NOT IN LPAREN in_list RPAREN"""
        neg = len(p) == 7
        p[0] = n.InList(p[1], p[4 + neg], negated=neg, span=self._span(p, 1, len(p) - 1))

    def p_not(self, p):
        "unary_expression : NOT unary_expression"
        p[0] = n.Not(p[2], span=self._span(p, 1, 2))

    # SelectorParser.jj's functionCallExpr: a name and one or more arguments (`MAKELIST()` is a
    # parse error there); each function then checks its argument count (`isValid`).
    def p_primary_function(self, p):
        "primary : IDENTIFIER LPAREN argument_list RPAREN"
        name = p[1].upper()
        if not self.dialect.functions and not self.dialect.require_eof:
            # no function-call production (WSO2): the selector ends before the `(`
            self._fail(SelectorSyntaxError, "unexpected '('", Span(p.lexpos(2), p.lexpos(2) + 1))
        if name not in self.dialect.functions:
            known = ", ".join(sorted(self.dialect.functions)) or "none"
            self._fail(SelectorSyntaxError, f"unknown function {p[1]!r} (the {self.dialect.name!r} dialect has: {known})",
                       self._tok_span(p, 1))
        args = p[3]
        span = Span(p.lexpos(1), p.lexpos(4) + 1)
        least, most = ARITY.get(name, (0, None))
        if len(args) < least or (most is not None and len(args) > most):
            count = (f"{least}" if least == most else f"{least} or more" if most is None
                     else f"{least} or {most}" if most == least + 1 else f"{least} to {most}")
            self._fail(SelectorSyntaxError, f"{name} takes {count} argument{'s' if count != '1' else ''},"
                       f" not {len(args)}", span)
        p[0] = n.FunctionCall(name, args, span=span)

    # SelectorParser.jj's functionCallExpr takes unaryExpr arguments: a primary, possibly signed or
    # NOT-ed; `REGEX('x', a + b)` is rejected there (the oracle), `REGEX('x', (a + b))` is not.
    def p_argument_list(self, p):
        """argument_list : argument_list COMMA unary_expression
                         | unary_expression"""
        p[0] = (p[1] + (p[3],)) if len(p) == 4 else (p[1],)

    def p_literal_null(self, p):
        "literal : NULL"
        p[0] = n.Literal(None, JmsType.NULL, span=self._tok_span(p, 1))


class _Parser:
    """A built PLY parser plus the lexer for one dialect. Not thread-safe: use under `lock`."""

    def __init__(self, dialect: Dialect):
        grammar_cls = _ActiveMQGrammar if dialect.not_binds_tighter else _SqlGrammar
        if grammar_cls.p_selector.__doc__ is None:
            raise RuntimeError("the selector grammar lives in docstrings; it cannot be built under python -OO")
        self.grammar = grammar_cls(dialect)
        self.lexer = SelectorLexer(dialect)
        self.yacc = yacc.yacc(module=self.grammar, write_tables=False, debug=False,
                              errorlog=yacc.NullLogger(), optimize=False)
        self.lock = threading.Lock()

    def parse(self, text: str) -> "tuple[n.Node, int | None]":
        """The tree, and where ignored trailing text starts (None: the whole text was read)."""
        with self.lock:
            self.grammar.text = text
            if self.grammar.dialect.require_eof:
                tokens = self.lexer.tokenize(text)
                _check_paren_depth(tokens_checked := [], tokens, text)
                it = iter(tokens_checked)
                return self.yacc.parse(tokenfunc=lambda: next(it, None)), None
            return self._parse_prefix(text)

    def _parse_prefix(self, text: str) -> "tuple[n.Node, int | None]":
        # Tokens are lexed one at a time, as JavaCC does: a token after the selector's end must
        # lex (it is the parser's lookahead), the text after it is never read.
        given, depth = [], [0]
        stream = self.lexer.tokenize(text)

        def next_token():
            tok = next(stream, None)
            if tok is not None:
                depth[0] += {"LPAREN": 1, "RPAREN": -1}.get(tok.type, 0)
                if depth[0] > MAX_DEPTH:
                    raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                              Span(tok.lexpos, tok.lexpos + 1))
                given.append(tok)
            return tok

        try:
            return self.yacc.parse(tokenfunc=next_token), None
        except SelectorSyntaxError as e:
            at = [i for i, tok in enumerate(given) if tok.lexpos == e.span.start]
            if not at or not e.message.startswith("unexpected "):
                raise
            stop = at[0]
            # JavaCC looks two tokens ahead at NOT (NOT LIKE / BETWEEN / IN): `a = 1 NOT x` stops before NOT.
            cuts = [stop] + ([stop - 1] if stop >= 2 and given[stop - 1].type == "NOT" else [])
            for cut in cuts:
                it = iter(given[:cut])
                try:
                    return self.yacc.parse(tokenfunc=lambda: next(it, None)), given[cut].lexpos
                except SelectorSyntaxError:
                    continue
            raise e


def _check_paren_depth(out: list, tokens, text: str) -> None:
    depth = 0
    for tok in tokens:
        if tok.type == "LPAREN":
            depth += 1
            if depth > MAX_DEPTH:
                raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                          Span(tok.lexpos, tok.lexpos + 1))
        elif tok.type == "RPAREN":
            depth -= 1
        out.append(tok)


@functools.lru_cache(maxsize=16)
def _parser_for(dialect: Dialect) -> _Parser:
    return _Parser(dialect)


def parse_tree(text: str, dialect: "str | Dialect" = "jms", *, max_length: int = MAX_LENGTH) -> "n.Node | None":
    """Parse ``text`` to an unchecked AST (None for an empty or blank selector); see
    `parse_tree_with_tail`."""
    return parse_tree_with_tail(text, dialect, max_length=max_length)[0]


def parse_tree_with_tail(text: str, dialect: "str | Dialect" = "jms", *,
                         max_length: int = MAX_LENGTH) -> "tuple[n.Node | None, Span | None]":
    """Parse ``text`` to an unchecked AST (None for an empty or blank selector), and the span of
    trailing text the dialect ignores (``Dialect.require_eof`` False; else None).

    ``max_length`` is the longest text accepted, in characters (default `MAX_LENGTH`).

    Raises `SelectorSyntaxError` for text that is not a selector. Static type rules are applied
    afterwards by `checker.check`; use `jms_selector_spark.parse` for both.
    """
    d = get_dialect(dialect)
    if not isinstance(text, str):
        raise TypeError(f"a selector is a str, not {type(text).__name__}")
    if len(text) > max_length:
        raise SelectorSyntaxError(f"selector is longer than {max_length:,} characters"
                                  + (" (parse(text, max_length=N) takes a larger limit)" if max_length == MAX_LENGTH
                                     else ""), text, Span(max_length, len(text)))
    if d.max_length is not None and len(text.encode("utf-8", "surrogatepass")) > d.max_length:
        raise SelectorSyntaxError(f"selector is longer than the {d.name} limit of {d.max_length:,} bytes",
                                  text, Span(0, len(text)))
    if not text.strip(" \t\f\r\n"):
        if text and d.blank_selector_invalid:
            raise SelectorSyntaxError(f"a selector of blanks only is invalid in the {d.name!r} dialect"
                                      " (the empty string means no selector)", text, Span(0, len(text)))
        return None, None
    try:
        # the parser does not depend on string conversion (a comparison-time rule): one per dialect
        root, stop = _parser_for(d.derive(convert_string_expressions=False) if d.convert_string_expressions else d
                                 ).parse(text)
    except RecursionError:  # defensive: PLY itself is iterative
        raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                  Span(0, len(text))) from None
    _check_tree_depth(root, text)
    tail = None if stop is None else Span(stop, len(text.rstrip(" \t\f\r\n")))
    return root, tail


def _check_tree_depth(root: n.Node, text: str) -> None:
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text, node.span)
        stack.extend((c, depth + 1) for c in n.children(node))
