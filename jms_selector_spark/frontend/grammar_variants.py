"""The selector grammar's condition rules, one class per family of dialects (see `parser`):

- `SqlGrammar` follows the productions of the JMS specification (SQL-92 shaped): ``NOT`` sits
  between ``AND`` and the predicates, predicates do not chain (``a = b = c`` is an error).
- `ActiveMQGrammar` follows ActiveMQ Classic's ``SelectorParser.jj``: ``NOT`` binds like a unary
  sign (``NOT a = 1`` is ``(NOT a) = 1``), ``=``/``<>``/``IS NULL`` chain above ``<``/``LIKE``/
  ``BETWEEN``/``IN``, and ``NULL`` is a literal (rejected where it is compared).
- `BrokerJGrammar` is Qpid Broker-J's: ActiveMQ's chaining with ``NOT`` over a whole predicate.
- `CppGrammar` is the Qpid C++ broker's: the JMS shape, IN over any expressions, its LIKE escape.
"""
from __future__ import annotations

from ..language.dialects import ARITY
from ..language.types import JmsType
from ..language import nodes as n
from ..language.errors import SelectorSyntaxError
from .grammar import Grammar
from ..language.source import Span

__all__ = ["SqlGrammar", "ActiveMQGrammar", "BrokerJGrammar", "CppGrammar"]


class SqlGrammar(Grammar):
    """The JMS specification's productions: NOT below the predicates, no predicate chains."""

    def p_or(self, p):
        "conditional_expression : conditional_expression OR conditional_term"
        self._allow("OR", p, 2)
        p[0] = self._logical(n.Or, p)

    def p_and(self, p):
        "conditional_term : conditional_term AND conditional_factor"
        self._allow("AND", p, 2)
        p[0] = self._logical(n.And, p)

    def p_not(self, p):
        "conditional_factor : NOT conditional_factor"
        self._allow("NOT", p, 1)
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
        self._comparison(p)

    def p_between(self, p):
        """predicate : additive_expression BETWEEN additive_expression AND additive_expression
                     | additive_expression NOT BETWEEN additive_expression AND additive_expression"""
        self._between(p)

    def p_like(self, p):
        """predicate : additive_expression LIKE pattern escape
                     | additive_expression NOT LIKE pattern escape"""
        self._like(p)

    def p_in(self, p):
        """predicate : additive_expression IN LPAREN in_list RPAREN
                     | additive_expression NOT IN LPAREN in_list RPAREN"""
        self._in(p)

    def p_is_null(self, p):
        """predicate : additive_expression IS NULL
                     | additive_expression IS NOT NULL"""
        self._is_null(p)


class ActiveMQGrammar(Grammar):
    """ActiveMQ Classic's SelectorParser.jj, rule for rule (left recursion instead of loops)."""

    def p_or(self, p):
        "conditional_expression : conditional_expression OR and_expression"
        self._allow("OR", p, 2)
        p[0] = self._logical(n.Or, p)

    def p_and(self, p):
        "and_expression : and_expression AND equality_expression"
        self._allow("AND", p, 2)
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
        self._comparison(p)

    def p_is_null(self, p):
        """equality_expression : equality_expression IS NULL
                               | equality_expression IS NOT NULL"""
        self._is_null(p)

    def p_comparison(self, p):
        """comparison_expression : comparison_expression LT additive_expression
                                 | comparison_expression GT additive_expression
                                 | comparison_expression LE additive_expression
                                 | comparison_expression GE additive_expression"""
        self._comparison(p)

    def p_between(self, p):
        """comparison_expression : comparison_expression BETWEEN additive_expression AND additive_expression
                                 | comparison_expression NOT BETWEEN additive_expression AND additive_expression"""
        self._between(p)

    def p_like(self, p):
        """comparison_expression : comparison_expression LIKE pattern escape
                                 | comparison_expression NOT LIKE pattern escape"""
        self._like(p)

    def p_in(self, p):
        """comparison_expression : comparison_expression IN LPAREN in_list RPAREN
                                 | comparison_expression NOT IN LPAREN in_list RPAREN"""
        self._in(p)

    def p_not(self, p):
        "unary_expression : NOT unary_expression"
        self._allow("NOT", p, 1)
        p[0] = n.Not(p[2], span=self._span(p, 1, 2))

    # SelectorParser.jj's functionCallExpr: a name and one or more arguments (`MAKELIST()` is a
    # parse error there); each function then checks its argument count (`isValid`).
    # (`BrokerJGrammar` inherits this and the rules above.)
    def p_primary_function(self, p):
        "primary : IDENTIFIER LPAREN argument_list RPAREN"
        if hasattr(p[1], "raw"):  # a quoted name is a property, never a function
            self._fail(SelectorSyntaxError, "unexpected '('", self._tok_span(p, 2))
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


class BrokerJGrammar(ActiveMQGrammar):
    """Qpid Broker-J's SelectorParser.jj: ActiveMQ's chained predicates, but ``NOT`` takes a whole
    equality expression (``LOOKAHEAD(<NOT> equalityExpression())``), so ``NOT a = 1`` is
    ``NOT (a = 1)``. Broker-J also accepts ``NOT`` inside arithmetic (``a + NOT b = 1``); here NOT
    stands only where a condition does."""

    def p_and(self, p):
        "and_expression : and_expression AND not_expression"
        p[0] = self._logical(n.And, p)

    def p_not(self, p):
        "not_expression : NOT not_expression"
        p[0] = n.Not(p[2], span=self._span(p, 1, 2))

    def p_pass(self, p):
        """conditional_expression : and_expression
        and_expression : not_expression
        not_expression : equality_expression
        equality_expression : comparison_expression
        comparison_expression : additive_expression"""
        p[0] = p[1]


class CppGrammar(SqlGrammar):
    """The Qpid C++ broker's parser (SelectorExpression.cpp, a recursive descent shaped like the
    JMS productions): IN takes any expressions (`Dialect.in_expressions`) and LIKE's ESCAPE follows
    its ``toRegex`` (`Dialect.cpp_like_escape`)."""

    p_in_value_bad = None  # every element is an expression here (PLY skips a non-function)

    def p_in_value(self, p):
        "in_value : additive_expression"
        p[0] = p[1]

    def _in(self, p):
        """``x IN (a, b)`` is ``x = a OR x = b`` (InExpression: TRUE on a match, else UNKNOWN when
        x or an element is NULL, else FALSE). ``x NOT IN (…)`` (NotInExpression) is that negated,
        except that it is FALSE when an element's type is unlike x's and nothing is NULL: ``NOT g
        AND (compatible OR g IS NULL)``, where an element is compatible when ``x = e OR x <> e``
        (both are FALSE for unlike types, one is TRUE otherwise, NULL makes both UNKNOWN). A list of
        string literals keeps the JMS `InList` node, whose non-string rule is `Rules.in_non_string`."""
        neg = len(p) == 7
        x, items, span = p[1], p[4 + neg], self._span(p, 1, len(p) - 1)
        if all(isinstance(e, n.Literal) and e.type is JmsType.STRING for e in items):
            return super()._in(p)  # the JMS form keeps its node (`Rules.in_non_string` has the rule)
        self._allow("NOT IN" if neg else "IN", p, 2, 2 + neg)

        def cmp(op, e):
            return n.Comparison(op, x, e, span=span)

        def fold(cls, ops):
            return ops[0] if len(ops) == 1 else cls(tuple(ops), span=span)

        g = fold(n.Or, [cmp(n.CompareOp.EQ, e) for e in items])
        if not neg:
            p[0] = g
            return
        compatible = [n.Or((cmp(n.CompareOp.EQ, e), cmp(n.CompareOp.NE, e)), span=span) for e in items]
        # n-ary nodes stay flat, as the parser builds them (the printed text parses back to this tree)
        either = (*compatible[0].operands,) if len(compatible) == 1 else (n.And(tuple(compatible), span=span),)
        p[0] = n.And((n.Not(g, span=span), n.Or((*either, n.IsNull(g, span=span)), span=span)), span=span)

    def p_escape(self, p):
        """escape : ESCAPE STRING
                  | empty"""
        if len(p) == 2:
            p[0] = (None, None)
            return
        char, span = p[2][0], self._tok_span(p, 2)
        if len(char.encode("utf-8")) > 1:
            self._fail(SelectorSyntaxError, "single character string required after ESCAPE (one byte in"
                       f" UTF-8 for the {self.dialect.name!r} dialect)", span)
        if char in ("%", "_"):
            self._fail(SelectorSyntaxError, "'%' and '_' are not allowed as ESCAPE characters", span)
        p[0] = (char or None, span)

    def _broker_like(self, pattern, escape, span):
        """``toRegex``: an escape character makes the next ``%`` or ``_`` literal and is itself never
        literal (a second one only keeps the escape pending); one at the end is dropped. Rewritten
        into the usual reading, where the escape character then only ever precedes ``%`` or ``_``."""
        if escape is None:
            return pattern, None
        out, pending = [], False
        for c in pattern:
            if c == escape:
                pending = True
                continue
            out.append(escape + c if pending and c in "%_" else c)
            pending = False
        return "".join(out), escape
