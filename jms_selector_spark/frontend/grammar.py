"""The selector grammar's shared part: leaf rules (literals, primaries, signs, arithmetic, LIKE
patterns, IN lists) and the helpers every variant uses, as PLY productions in docstrings.

The variants (`grammar_variants`) add the condition rules, where dialects differ; `parser` builds
one PLY parser per dialect from them. Numeric signs are folded into literals (``-5`` is
``Literal(-5)``), which is how ``-9223372036854775808`` is valid while ``9223372036854775808`` is
out of range.
"""
from __future__ import annotations

from ..language.dialects import Dialect
from ..language.types import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN, JmsType
from ..language import nodes as n
from .activemq_like import BrokerLikeError, broker_like
from ..language.errors import SelectorSyntaxError
from ..language.source import Span
from .tokens import TOKENS

__all__ = ["Grammar", "COMPARE_OPS", "ARITH_OPS"]

COMPARE_OPS = {"=": n.CompareOp.EQ, "<>": n.CompareOp.NE, "<": n.CompareOp.LT, ">": n.CompareOp.GT,
            "<=": n.CompareOp.LE, ">=": n.CompareOp.GE}
ARITH_OPS = {"+": n.ArithOp.PLUS, "-": n.ArithOp.MINUS, "*": n.ArithOp.TIMES, "/": n.ArithOp.DIVIDE,
          "%": n.ArithOp.MODULO}


class Grammar:
    """Rules both grammars share (arithmetic, primaries, literals, predicates' tails)."""

    tokens = TOKENS
    start = "selector"

    def __init__(self, dialect: Dialect):
        self.dialect = dialect
        self.text = ""

    # -- helpers -----------------------------------------------------------------------------
    def _tok_span(self, p, i) -> Span:
        value = p[i]
        if type(value) is str:  # the common case first (a keyword, an operator, a name)
            raw = value
        else:  # (value, source text) of a literal; a QuotedName's quoted source
            raw = value[1] if isinstance(value, tuple) else getattr(value, "raw", value)
        start = p.lexpos(i)
        return Span(start, start + len(raw))

    def _span(self, p, first, last) -> Span:
        a, b = p[first], p[last]
        a = a.span if isinstance(a, n.Node) else self._tok_span(p, first)
        b = b.span if isinstance(b, n.Node) else self._tok_span(p, last)
        return a.cover(b)

    def _fail(self, cls, message, span):
        raise cls(message, self.text, span)

    def _broker_like(self, pattern, escape, span):
        """ActiveMQ's reading of an escape character outside U+0010..U+00FF (`activemq_like`);
        RabbitMQ's pattern checks (``strict_like_patterns``)."""
        if self.dialect.strict_like_patterns:
            bad = next((c for c in pattern + (escape or "") if c < " " or c == "\x7f"), None)
            if bad is not None:
                self._fail(SelectorSyntaxError, f"control character {bad!r} in a LIKE pattern (the"
                           f" {self.dialect.name!r} dialect rejects them)", span)
            trailing = len(pattern) - len(pattern.rstrip(escape)) if escape else 0
            if trailing % 2:
                self._fail(SelectorSyntaxError, "a LIKE pattern cannot end in its escape character", span)
        if not self.dialect.like_escape_as_hex:
            return pattern, escape
        try:
            return broker_like(pattern, escape)
        except BrokerLikeError as e:
            self._fail(SelectorSyntaxError, str(e), span)

    def _allow(self, name: str, p, first: int, last: "int | None" = None):
        """Reject an operator the dialect does not have (`Dialect.operators`; MQe's subset), at
        the span of token ``first`` (through ``last``: NOT BETWEEN, IS NOT NULL). The span is
        made only for the error: most dialects have every operator."""
        ops = self.dialect.operators
        if ops is not None and name not in ops:
            span = self._tok_span(p, first) if last is None else self._keywords(p, first, last)
            have = ", ".join(sorted(ops, key=lambda o: (o.strip("=<>") != "", o)))
            self._fail(SelectorSyntaxError, f"{name} is not supported by the {self.dialect.name!r} dialect"
                       f" (it has only {have})", span)

    def _keywords(self, p, first, last) -> Span:
        """The span of tokens ``first..last`` (an operator such as NOT BETWEEN or IS NOT NULL)."""
        return self._tok_span(p, first).cover(self._tok_span(p, last))

    def _header_typed(self, left, right):
        """MQe (`Dialect.header_typed_literals`): an exact literal compared with a header takes the
        header's type (``JMSPriority = 4`` compares an int); one that does not fit stays a long."""
        if not self.dialect.header_typed_literals:
            return left, right

        def retype(lit, other):
            if not (isinstance(lit, n.Literal) and lit.type.is_exact and isinstance(other, n.Identifier)):
                return lit
            header = self.dialect.header_for(other.name)
            t = None if header is None else self.dialect.header_type(header)
            if t is None or not t.is_exact or (t is JmsType.INT and not INT_MIN <= lit.value <= INT_MAX):
                return lit
            return n.Literal(lit.value, t, span=lit.span)

        return retype(left, right), retype(right, left)

    # -- the predicates' bodies: the same in every variant, whose productions (docstrings) differ --
    def _comparison(self, p):
        self._allow(p[2], p, 2)
        left, right = self._header_typed(p[1], p[3])
        p[0] = n.Comparison(COMPARE_OPS[p[2]], left, right, span=self._span(p, 1, 3))

    def _between(self, p):
        neg = len(p) == 7
        self._allow("NOT BETWEEN" if neg else "BETWEEN", p, 2, 2 + neg)
        p[0] = n.Between(p[1], p[3 + neg], p[5 + neg], negated=neg, span=self._span(p, 1, len(p) - 1))

    def _like(self, p):
        neg = len(p) == 6
        self._allow("NOT LIKE" if neg else "LIKE", p, 2, 2 + neg)
        pattern, pspan = p[3 + neg]
        escape, espan = p[4 + neg]
        span = p[1].span.cover(espan or pspan)
        pattern, escape = self._broker_like(pattern, escape, pspan)
        p[0] = n.Like(p[1], pattern, escape, negated=neg, span=span)

    def _in(self, p):
        neg = len(p) == 7
        self._allow("NOT IN" if neg else "IN", p, 2, 2 + neg)
        p[0] = n.InList(p[1], p[4 + neg], negated=neg, span=self._span(p, 1, len(p) - 1))

    def _is_null(self, p):
        self._allow("IS NOT NULL" if len(p) == 5 else "IS NULL", p, 2, len(p) - 1)
        p[0] = n.IsNull(p[1], negated=len(p) == 5, span=self._span(p, 1, len(p) - 1))

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
        self._allow(p[2], p, 2)
        p[0] = n.Arithmetic(ARITH_OPS[p[2]], p[1], p[3], span=self._span(p, 1, 3))

    def p_arithmetic_pass(self, p):
        """additive_expression : multiplicative_expression
        multiplicative_expression : unary_expression"""
        p[0] = p[1]

    def p_unary_sign(self, p):
        """unary_expression : PLUS unary_expression
                            | MINUS unary_expression"""
        operand, span = p[2], self._span(p, 1, 2)
        if not (isinstance(operand, n.Literal) and operand.type.is_numeric):
            self._allow(f"unary {p[1]}", p, 1)
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
        p[0] = n.Identifier(str(p[1]), span=self._tok_span(p, 1))

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
        if len(char) == 1 and self.dialect.escape_code_points:
            pass  # one code point: RabbitMQ reads the pattern as a list of code points
        elif len(char.encode("utf-16-le", "surrogatepass")) != 2:
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
