"""The parser: selector text → AST, compared with hand-built trees (spans are out of equality).

Also pinned here: precedence case by case in both dialects (they differ on NOT), literal typing and
the long range edges, node positions (pycparser's ``test_coords`` style), and the errors for
statically ill-formed selectors — class, message, position and caret.
"""
from __future__ import annotations

import pickle

import pytest

from jms_selector_spark.language.dialects import get_dialect

from jms_selector_spark import (
    SelectorBindingError,
    SelectorError,
    SelectorSyntaxError,
    SelectorTypeError,
    UnsupportedSelectorError,
    evaluate,
    parse,
)
from jms_selector_spark.language import nodes as n
from jms_selector_spark.frontend.parser import parse_tree
from jms_selector_spark.language.source import Span, line_col
from jms_selector_spark.language.dialects import DIALECTS
from jms_selector_spark.language.types import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN, JmsType

#: OR, NOT, <, BETWEEN, arithmetic…: skipped for a dialect without them (tests/conftest.py)
pytestmark = pytest.mark.full_grammar

BOTH = pytest.mark.usefixtures("dialect")  # tests/conftest.py: every dialect in DIALECTS

C, A = n.CompareOp, n.ArithOp


# -- tree builders (no spans: equality ignores them) ------------------------------------------

def I(name):  # noqa: E743 - reads like the node it builds
    return n.Identifier(name)


def long_(v):
    return n.Literal(v, JmsType.LONG)


def int_(v):
    return n.Literal(v, JmsType.INT)


def exact(v, dialect):
    """An unsuffixed decimal literal as ``dialect`` types it (ActiveMQ narrows to int)."""
    return int_(v) if get_dialect(dialect).narrow_int_literals and INT_MIN <= v <= INT_MAX else long_(v)


def dbl(v):
    return n.Literal(v, JmsType.DOUBLE)


def s(v):
    return n.Literal(v, JmsType.STRING)


TRUE, FALSE = n.Literal(True, JmsType.BOOLEAN), n.Literal(False, JmsType.BOOLEAN)


def cmp(op, left, right):
    return n.Comparison(op, left, right)


def ar(op, left, right):
    return n.Arithmetic(op, left, right)


def And(*ops):
    return n.And(tuple(ops))


def Or(*ops):
    return n.Or(tuple(ops))


def tree(text, dialect="jms"):
    """The checked tree."""
    return parse(text, dialect=dialect).root


def error(text, dialect="jms", cls=SelectorError):
    with pytest.raises(cls) as info:
        parse(text, dialect=dialect)
    return info.value


# -- structure ----------------------------------------------------------------------------------

@pytest.mark.package_grammar
class TestTrees:
    @BOTH
    def test_comparison(self, dialect):
        assert tree("color = 'blue'", dialect) == cmp(C.EQ, I("color"), s("blue"))

    @BOTH
    def test_spec_example(self, dialect):
        assert tree("JMSType = 'car' AND color = 'blue' AND weight > 2500", dialect) == And(
            cmp(C.EQ, I("JMSType"), s("car")), cmp(C.EQ, I("color"), s("blue")),
            cmp(C.GT, I("weight"), exact(2500, dialect)))

    @BOTH
    @pytest.mark.parametrize("op", list(C))
    def test_every_comparison_operator(self, dialect, op):
        assert tree(f"a {op.value} 1", dialect) == cmp(op, I("a"), exact(1, dialect))

    @BOTH
    def test_and_or_are_flattened(self, dialect):
        assert tree("a AND b AND c", dialect) == And(I("a"), I("b"), I("c"))
        assert tree("a OR b OR c OR d", dialect) == Or(I("a"), I("b"), I("c"), I("d"))
        assert tree("a AND (b AND c)", dialect) == And(I("a"), And(I("b"), I("c")))

    @BOTH
    def test_parentheses_leave_no_node(self, dialect):
        assert tree("((a = 1))", dialect) == tree("a = 1", dialect)

    @BOTH
    def test_bare_identifier_and_boolean_literals(self, dialect):
        assert tree("flag", dialect) == I("flag")
        assert tree("TRUE", dialect) == TRUE
        if DIALECTS[dialect].reject_constant_false:  # ibmmq: MQRC_SELECTOR_ALWAYS_FALSE
            with pytest.raises(SelectorTypeError, match="MQRC_SELECTOR_ALWAYS_FALSE"):
                tree("false", dialect)
        else:
            assert tree("false", dialect) == FALSE

    @BOTH
    def test_surface_forms_are_kept(self, dialect):
        assert tree("a NOT BETWEEN 1 AND 2", dialect) == n.Between(I("a"), exact(1, dialect), exact(2, dialect), True)
        assert tree("a NOT LIKE 'x%'", dialect) == n.Like(I("a"), "x%", None, True)
        assert tree("a NOT IN ('x', 'y')", dialect) == n.InList(I("a"), (s("x"), s("y")), True)
        assert tree("a IS NOT NULL", dialect) == n.IsNull(I("a"), True)

    @BOTH
    def test_positive_forms(self, dialect):
        assert tree("a BETWEEN 1 AND 2", dialect) == n.Between(I("a"), exact(1, dialect), exact(2, dialect))
        assert tree("a LIKE 'x!%' ESCAPE '!'", dialect) == n.Like(I("a"), "x!%", "!")
        assert tree("a IN ('x')", dialect) == n.InList(I("a"), (s("x"),))
        assert tree("a IS NULL", dialect) == n.IsNull(I("a"))

    @BOTH
    def test_between_bounds_are_arithmetic(self, dialect):
        assert tree("a BETWEEN b - 1 AND c * 2", dialect) == n.Between(
            I("a"), ar(A.MINUS, I("b"), exact(1, dialect)), ar(A.TIMES, I("c"), exact(2, dialect)))

    def test_activemq_functions(self):
        assert tree("REGEX('a.*', s)", "activemq") == n.FunctionCall("REGEX", (s("a.*"), I("s")))
        assert tree("inlist(makelist('a', 'b'), s)", "activemq") == n.FunctionCall(
            "INLIST", (n.FunctionCall("MAKELIST", (s("a"), s("b"))), I("s")))

    def test_unsigned_plus_is_kept_on_non_literals_in_jms(self):
        assert parse_tree("+a") == n.Unary(n.UnaryOp.PLUS, I("a"))
        assert parse_tree("+a", get_dialect("activemq")) == I("a")  # ActiveMQ: unary plus is the identity

    def test_empty_and_blank_selectors_have_no_tree(self):
        for text in ("", " ", "\t\f\r\n "):
            assert parse(text).root is None
            assert parse(text, dialect="activemq").root is None


@pytest.mark.package_grammar
class TestPrecedence:
    def test_not_a_equals_1_in_jms(self):
        assert tree("NOT a = 1") == n.Not(cmp(C.EQ, I("a"), long_(1)))

    def test_not_a_equals_1_in_activemq(self):
        # ActiveMQ's grammar binds NOT like a unary sign: (NOT a) = 1.
        assert tree("NOT a = 1", "activemq") == cmp(C.EQ, n.Not(I("a")), int_(1))

    def test_not_i_greater_than_5(self):
        assert tree("NOT i > 5") == n.Not(cmp(C.GT, I("i"), long_(5)))
        err = error("NOT i > 5", "activemq", SelectorTypeError)  # (NOT i) > 5: a condition ordered
        assert err.message == "a condition cannot be compared with > (only numbers can)"
        assert err.span == Span(0, 5)

    @BOTH
    def test_and_binds_tighter_than_or(self, dialect):
        assert tree("a OR b AND c", dialect) == Or(I("a"), And(I("b"), I("c")))
        assert tree("a AND b OR c", dialect) == Or(And(I("a"), I("b")), I("c"))
        assert tree("(a OR b) AND c", dialect) == And(Or(I("a"), I("b")), I("c"))

    @BOTH
    def test_not_binds_tighter_than_and(self, dialect):
        assert tree("NOT a AND b", dialect) == And(n.Not(I("a")), I("b"))
        assert tree("a OR NOT b AND c", dialect) == Or(I("a"), And(n.Not(I("b")), I("c")))
        assert tree("NOT NOT a", dialect) == n.Not(n.Not(I("a")))

    @BOTH
    def test_unary_minus_binds_tighter_than_times(self, dialect):
        assert parse_tree("-a * b", get_dialect(dialect)) == ar(A.TIMES, n.Unary(n.UnaryOp.MINUS, I("a")), I("b"))
        assert tree("-a * b > 0", dialect) == cmp(C.GT, ar(A.TIMES, n.Unary(n.UnaryOp.MINUS, I("a")), I("b")),
                                                  exact(0, dialect))

    @BOTH
    def test_arithmetic_precedence_and_left_associativity(self, dialect):
        one, two = exact(1, dialect), exact(2, dialect)
        assert tree("a + b * c - d / e = 1", dialect) == cmp(
            C.EQ, ar(A.MINUS, ar(A.PLUS, I("a"), ar(A.TIMES, I("b"), I("c"))), ar(A.DIVIDE, I("d"), I("e"))), one)
        assert tree("a - b - c = 1", dialect) == cmp(C.EQ, ar(A.MINUS, ar(A.MINUS, I("a"), I("b")), I("c")), one)
        assert tree("a / b / c = 1", dialect) == cmp(C.EQ, ar(A.DIVIDE, ar(A.DIVIDE, I("a"), I("b")), I("c")), one)
        assert tree("a - (b - c) = 2", dialect) == cmp(C.EQ, ar(A.MINUS, I("a"), ar(A.MINUS, I("b"), I("c"))), two)

    @BOTH
    def test_arithmetic_binds_tighter_than_comparison(self, dialect):
        assert tree("a + 1 > b * 2", dialect) == cmp(
            C.GT, ar(A.PLUS, I("a"), exact(1, dialect)), ar(A.TIMES, I("b"), exact(2, dialect)))

    @BOTH
    def test_between_and_is_not_logical_and(self, dialect):
        assert tree("a BETWEEN 1 AND 2 AND b", dialect) == And(
            n.Between(I("a"), exact(1, dialect), exact(2, dialect)), I("b"))
        assert tree("b AND a NOT BETWEEN 1 AND 2 OR c", dialect) == Or(
            And(I("b"), n.Between(I("a"), exact(1, dialect), exact(2, dialect), True)), I("c"))

    def test_not_before_a_predicate_in_jms(self):
        assert tree("NOT a BETWEEN 1 AND 2") == n.Not(n.Between(I("a"), long_(1), long_(2)))
        assert tree("NOT a LIKE 'x'") == n.Not(n.Like(I("a"), "x"))
        assert tree("NOT a IS NULL") == n.Not(n.IsNull(I("a")))
        assert tree("NOT a IN ('x')") == n.Not(n.InList(I("a"), (s("x"),)))

    def test_not_before_a_predicate_in_activemq(self):
        assert tree("NOT a LIKE 'x'", "activemq") == n.Like(n.Not(I("a")), "x")
        assert tree("NOT a IS NULL", "activemq") == n.IsNull(n.Not(I("a")))

    def test_comparisons_chain_in_activemq_only(self):
        assert tree("a = b = c", "activemq") == cmp(C.EQ, cmp(C.EQ, I("a"), I("b")), I("c"))
        assert tree("a < b = TRUE", "activemq") == cmp(C.EQ, cmp(C.LT, I("a"), I("b")), TRUE)
        assert tree("a IS NULL = TRUE", "activemq") == cmp(C.EQ, n.IsNull(I("a")), TRUE)
        assert tree("a = b IS NULL", "activemq") == n.IsNull(cmp(C.EQ, I("a"), I("b")))
        for text in ("a = b = c", "a < b = TRUE", "a IS NULL = TRUE"):
            err = error(text, "jms", SelectorSyntaxError)
            assert err.message == "unexpected '='"


@pytest.mark.package_grammar
class TestLiterals:
    @BOTH
    @pytest.mark.parametrize("text, value", [
        ("7E3", 7000.0), ("-57.9E2", -5790.0), ("7.", 7.0), (".5", 0.5), ("+6.2", 6.2), ("1e+5", 1e5),
        ("1E-5", 1e-5), ("0.0", 0.0), ("1E999", float("inf")), ("-1E999", float("-inf")), ("1e-400", 0.0)])
    def test_approximate(self, dialect, text, value):
        if get_dialect(dialect).cpp_literals and value in (0.0, float("inf"), float("-inf")) and "e" in text.lower():
            # Qpid C++: strtod's ERANGE (overflow, underflow) makes the literal invalid
            assert "out of the range of a double" in error(f"x = {text}", dialect, SelectorTypeError).message
            return
        assert tree(f"x = {text}", dialect) == cmp(C.EQ, I("x"), dbl(value))

    @BOTH
    def test_negative_zero_keeps_its_sign(self, dialect):
        lit = tree("x = -0.0", dialect).right
        assert lit.value == 0.0 and str(lit.value) == "-0.0"

    @BOTH
    @pytest.mark.parametrize("text, value", [
        ("57", 57), ("-957", -957), ("+62", 62), ("0", 0), ("9223372036854775807", LONG_MAX),
        ("-9223372036854775808", LONG_MIN), ("2147483647", INT_MAX), ("2147483648", 2**31)])
    def test_exact(self, dialect, text, value):
        assert tree(f"x = {text}", dialect).right.value == value

    def test_exact_literals_are_long_in_jms(self):
        for text in ("1", "2147483647", "-2147483648", "9223372036854775807"):
            assert tree(f"x = {text}").right.type is JmsType.LONG

    @pytest.mark.parametrize("text, t", [
        ("1", JmsType.INT), ("2147483647", JmsType.INT), ("2147483648", JmsType.LONG),
        # ActiveMQ narrows the unsigned text, then negates: -2147483648 stays a Long there.
        ("-2147483648", JmsType.LONG), ("-2147483647", JmsType.INT), ("10L", JmsType.INT),
        ("9223372036854775807L", JmsType.LONG), ("0x7FFFFFFF", JmsType.INT), ("0x80000000", JmsType.LONG),
        ("017", JmsType.INT), ("0", JmsType.INT), ("00", JmsType.INT), ("0x7FFFFFFFFFFFFFFF", JmsType.LONG)])
    def test_activemq_narrows_every_exact_literal_that_fits_an_int(self, text, t):
        # ConstantExpression.createFromDecimal/Hex/Octal all narrow to Integer (the oracle:
        # `0x7FFFFFFF + 1 > 0` is FALSE, int arithmetic wrapped).
        assert tree(f"x = {text}", "activemq").right.type is t

    @BOTH
    def test_long_min_is_valid_and_long_max_plus_one_is_not(self, dialect):
        assert tree("x = -9223372036854775808", dialect).right == long_(LONG_MIN)
        err = error("x = 9223372036854775808", dialect, SelectorTypeError)
        assert err.message == "exact numeric literal out of the range of a Java long"
        assert err.span == Span(4, 23)
        err = error("x = -9223372036854775809", dialect, SelectorTypeError)
        assert err.span == Span(4, 24)

    @BOTH
    @pytest.mark.parametrize("text", ["- -9223372036854775808", "-(-9223372036854775808)",
                                      "-(- -9223372036854775808)", "-(9223372036854775808)"])
    def test_negating_long_min_wraps_as_java_does(self, dialect, text):
        # Java: -Long.MIN_VALUE == Long.MIN_VALUE; ActiveMQ agrees (the oracle).
        assert tree(f"x = {text}", dialect).right == long_(LONG_MIN)

    @BOTH
    def test_signs_fold_into_literals(self, dialect):
        assert tree("x = - - 5", dialect).right == exact(5, dialect)
        assert tree("x = -(-(5))", dialect).right == exact(5, dialect)
        assert tree("x = -(2.5)", dialect).right == dbl(-2.5)

    @BOTH
    def test_strings(self, dialect):
        assert tree("x = ''", dialect).right == s("")
        assert tree("x = 'it''s'", dialect).right == s("it's")
        assert tree("x = ''''''", dialect).right == s("''")
        assert tree("x = '日本語 \U0001F600 é'", dialect).right == s("日本語 \U0001F600 é")
        assert tree("x = 'a\nb'", dialect).right == s("a\nb")

    @BOTH
    def test_booleans(self, dialect):
        assert tree("x = TRUE OR x = False", dialect) == Or(cmp(C.EQ, I("x"), TRUE), cmp(C.EQ, I("x"), FALSE))

    def test_unicode_identifiers(self):
        assert tree("größe > 5 AND 名前 = 'x'") == And(cmp(C.GT, I("größe"), long_(5)), cmp(C.EQ, I("名前"), s("x")))


# -- positions ----------------------------------------------------------------------------------

def spans(root):
    return [(type(node).__name__, node.span) for node in n.walk(root)]


@pytest.mark.package_grammar
class TestCoords:
    @BOTH
    def test_spec_example(self, dialect):
        text = "color = 'blue' AND weight > 2500"
        assert spans(tree(text, dialect)) == [
            ("And", Span(0, 32)),
            ("Comparison", Span(0, 14)), ("Identifier", Span(0, 5)), ("Literal", Span(8, 14)),
            ("Comparison", Span(19, 32)), ("Identifier", Span(19, 25)), ("Literal", Span(28, 32)),
        ]

    @BOTH
    def test_predicates(self, dialect):
        text = "a NOT BETWEEN -1 AND 2 OR b NOT IN ('x', 'y') OR c IS NOT NULL"
        assert spans(tree(text, dialect)) == [
            ("Or", Span(0, 62)),
            ("Between", Span(0, 22)), ("Identifier", Span(0, 1)), ("Literal", Span(14, 16)), ("Literal", Span(21, 22)),
            ("InList", Span(26, 45)), ("Identifier", Span(26, 27)), ("Literal", Span(36, 39)), ("Literal", Span(41, 44)),
            ("IsNull", Span(49, 62)), ("Identifier", Span(49, 50)),
        ]

    @BOTH
    def test_like_span_covers_its_escape(self, dialect):
        text = "name LIKE 'a!_%' ESCAPE '!'"
        assert spans(tree(text, dialect)) == [("Like", Span(0, 27)), ("Identifier", Span(0, 4))]
        assert spans(tree("name NOT LIKE 'a%'", dialect))[0] == ("Like", Span(0, 18))

    def test_not_and_arithmetic(self):
        text = "NOT (a + b * 2 > -c)"
        assert spans(tree(text)) == [
            ("Not", Span(0, 19)), ("Comparison", Span(5, 19)), ("Arithmetic", Span(5, 14)), ("Identifier", Span(5, 6)),
            ("Arithmetic", Span(9, 14)), ("Identifier", Span(9, 10)), ("Literal", Span(13, 14)),
            ("Unary", Span(17, 19)), ("Identifier", Span(18, 19)),
        ]

    def test_function_call(self):
        assert spans(tree("REGEX('x', s)", "activemq")) == [
            ("FunctionCall", Span(0, 13)), ("Literal", Span(6, 9)), ("Identifier", Span(11, 12))]

    @BOTH
    def test_multi_line_selector(self, dialect):
        text = "JMSType = 'car'\n  AND color = 'blue'\r\n  AND weight > 2500"
        root = tree(text, dialect)
        where = [line_col(text, node.span.start) for node in (root.operands[1].left, root.operands[2].right)]
        assert where == [(2, 7), (3, 16)]


# -- statically ill-formed selectors ------------------------------------------------------------

@pytest.mark.package_grammar
class TestErrors:
    def test_string_literal_ordered(self):
        err = error("'a' < 'b'", cls=SelectorTypeError)
        assert err.message == "the string 'a' cannot be compared with < (only numbers can)"
        assert err.span == Span(0, 3)
        err = error("x > 'b'", "activemq", SelectorTypeError)
        assert err.span == Span(4, 7)

    @BOTH
    def test_arithmetic_as_a_whole_selector(self, dialect):
        if get_dialect(dialect).value_conditions:  # RabbitMQ: any expression; TRUE only for TRUE
            assert evaluate("3 + 5", dialect=dialect) is False and evaluate("TRUE AND 3 + 5", dialect=dialect) is False
            return
        err = error("3 + 5", dialect, SelectorTypeError)
        assert err.message == "a selector must be a condition, not an arithmetic expression"
        assert err.span == Span(0, 5)
        err = error("TRUE AND 3 + 5", dialect, SelectorTypeError)
        assert err.message == "an operand of AND must be a condition, not an arithmetic expression"
        assert err.span == Span(9, 14)

    @BOTH
    @pytest.mark.parametrize("text, what", [("5", "the long 5"), ("'x'", "the string 'x'"), ("1.5", "the double 1.5"),
                                            ("-a", "a signed expression")])
    def test_non_conditions_as_a_whole_selector(self, dialect, text, what):
        if get_dialect(dialect).value_conditions:
            assert evaluate(text, properties={"a": 1}, dialect=dialect) is False
            return
        if get_dialect(dialect).narrow_int_literals and text == "5":
            what = "the int 5"
        if get_dialect(dialect).unary_plus_identity and text == "-a":
            what = "a signed expression"
        err = error(text, dialect, SelectorTypeError)
        assert err.message == f"a selector must be a condition, not {what}"

    @BOTH
    @pytest.mark.parametrize("text, start", [("i IN (5)", 6), ("i IN ('a', 5.0)", 11), ("i IN (TRUE)", 6),
                                             ("i IN ('a', NULL)", 11), ("i IN (j)", 6)])
    def test_in_list_of_non_strings(self, dialect, text, start):
        if get_dialect(dialect).in_expressions:  # Qpid C++: any expressions, `x = a OR …`; NULL is no expression
            if "NULL" in text:
                err = error(text, dialect, SelectorSyntaxError)
                assert err.message.startswith("unexpected 'NULL'") and err.span.start == start
                return
            root = tree(text, dialect)
            eqs = root.operands if isinstance(root, n.Or) else (root,)
            assert all(isinstance(e, n.Comparison) and e.op is C.EQ and e.left == I("i") for e in eqs), root
            return
        err = error(text, dialect, SelectorSyntaxError)
        assert err.message == "IN lists hold string literals only"
        assert err.span.start == start

    @BOTH
    def test_in_on_a_non_identifier(self, dialect):
        if not get_dialect(dialect).in_requires_identifier:  # Qpid C++: any expression on the left
            assert tree("'x' IN ('x')", dialect) == n.InList(s("x"), (s("x"),))
            return
        err = error("'x' IN ('x')", dialect, SelectorTypeError)
        assert err.message == "the left side of IN must be a header or property name"
        assert err.span == Span(0, 3)

    def test_compare_with_null_in_jms(self):
        err = error("x = NULL", "jms", SelectorSyntaxError)
        assert err.message == "unexpected 'NULL' (NULL is not a value: test it with IS NULL / IS NOT NULL)"
        assert err.span == Span(4, 8)

    def test_compare_with_null_in_activemq(self):
        for text, span in (("x = NULL", Span(4, 8)), ("NULL <> x", Span(0, 4))):
            err = error(text, "activemq", SelectorTypeError)
            assert err.message == "NULL cannot be compared (use IS NULL)"
            assert err.span == span

    @BOTH
    @pytest.mark.parametrize("word", ["AND", "or", "BETWEEN", "like", "ESCAPE", "in", "Is"])
    def test_reserved_word_as_identifier(self, dialect, word):
        err = error(f"x = 1 AND {word} = 2", dialect, SelectorSyntaxError)
        assert err.message == f"unexpected {word!r}"
        assert err.span == Span(10, 10 + len(word))

    @BOTH
    def test_not_null_true_false_are_not_identifiers(self, dialect):
        assert error("x = 1 AND Not = 2", dialect, SelectorSyntaxError).span == Span(14, 15)
        null = error("null = 2", dialect)
        assert null.span == Span(0, 4) and "NULL" in null.message
        assert tree("true = x OR x = FALSE", dialect) == Or(cmp(C.EQ, TRUE, I("x")), cmp(C.EQ, I("x"), FALSE))

    @BOTH
    def test_unterminated_string(self, dialect):
        err = error("color = 'blue", dialect, SelectorSyntaxError)
        assert err.message == "unterminated string literal"
        assert err.span == Span(8, 13)

    @BOTH
    @pytest.mark.parametrize("text, bad, start", [("a = 1 b", "b", 6), ("a = 1)", ")", 5), ("a = 1 'x'", "'x'", 6),
                                                  ("a = 1 2", "2", 6), ("a = 1 AND b = 2 c", "c", 16)])
    def test_trailing_garbage(self, dialect, text, bad, start):
        if not get_dialect(dialect).require_eof:  # WSO2: the selector ends there, the rest is ignored
            sel = parse(text, dialect=dialect)
            assert sel.ignored == Span(start, len(text)) and sel.root == parse(text[:start], dialect=dialect).root
            return
        err = error(text, dialect, SelectorSyntaxError)
        assert err.message == f"unexpected {bad!r}"
        assert err.span == Span(start, start + len(bad))

    @BOTH
    @pytest.mark.parametrize("text", ["a =", "a = 1 AND", "(a = 1", "a BETWEEN 1 AND", "a BETWEEN 1", "a IN ('x'",
                                      "a IN (", "a LIKE", "a LIKE 'x' ESCAPE", "NOT", "a IS", "a IS NOT", "a +",
                                      "a = 1 OR ("])
    def test_unexpected_end(self, dialect, text):
        err = error(text, dialect, SelectorSyntaxError)
        assert err.message == "unexpected end of selector"
        assert err.span == Span(len(text), len(text))

    @BOTH
    def test_unexpected_token(self, dialect):
        err = error("color = 'blue' AND AND weight > 2500", dialect, SelectorSyntaxError)
        assert err.message == "unexpected 'AND'"
        assert err.span == Span(19, 22)
        assert (err.line, err.column) == (1, 20)

    @BOTH
    def test_escape_must_be_one_character(self, dialect):
        if get_dialect(dialect).cpp_like_escape:  # Qpid C++: '' is no escape; more than one byte is invalid
            assert tree("a LIKE 'x' ESCAPE ''", dialect) == n.Like(I("a"), "x", None)
            err = error("a LIKE 'x' ESCAPE 'ab'", dialect, SelectorSyntaxError)
            assert err.message.startswith("single character string required after ESCAPE")
            assert err.span == Span(18, 22)
            return
        for esc in ("''", "'ab'"):
            text = f"a LIKE 'x' ESCAPE {esc}"
            err = error(text, dialect, SelectorSyntaxError)
            assert err.message == f"ESCAPE must be exactly one character, not {esc}"
            assert err.span == Span(18, 18 + len(esc))

    @BOTH
    def test_escape_outside_the_bmp_is_two_java_chars(self, dialect):
        if get_dialect(dialect).cpp_like_escape:  # Qpid C++: one byte of UTF-8 (`escape.size()`)
            for esc in ("🥕", "é"):
                assert error(f"a LIKE 'x{esc}_' ESCAPE '{esc}'", dialect, SelectorSyntaxError).message.startswith(
                    "single character string required after ESCAPE")
            return
        if get_dialect(dialect).escape_code_points:  # RabbitMQ: one code point
            assert tree("a LIKE 'x🥕_' ESCAPE '🥕'", dialect) == n.Like(I("a"), "x🥕_", "🥕")
            return
        err = error("a LIKE 'x🥕_' ESCAPE '🥕'", dialect, SelectorSyntaxError)
        assert err.message == ("ESCAPE must be exactly one character, not '🥕' (a character outside the Basic"
                               " Multilingual Plane is two Java chars)")
        assert err.span == Span(20, 23)
        assert tree("a LIKE 'xé_' ESCAPE 'é'", dialect) == n.Like(I("a"), "xé_", "é")

    @pytest.mark.parametrize("text, message, span", [
        ("REGEX('a')", "REGEX takes 2 arguments, not 1", Span(0, 10)),
        ("REGEX('a', s, s)", "REGEX takes 2 arguments, not 3", Span(0, 16)),
        ("b AND INLIST(MAKELIST(1))", "INLIST takes 2 arguments, not 1", Span(6, 25)),
        ("SPLIT(s, ',', 1, 2) IS NULL", "SPLIT takes 2 or 3 arguments, not 4", Span(0, 19)),
        ("REPLACE(s, 'a') IS NULL", "REPLACE takes 3 arguments, not 2", Span(0, 15)),
    ])
    def test_function_argument_counts(self, text, message, span):
        err = error(text, "activemq", SelectorSyntaxError)
        assert (err.message, err.span) == (message, span)

    @pytest.mark.parametrize("text", ["REGEX()", "MAKELIST() IS NULL"])
    def test_functions_take_at_least_one_argument(self, text):
        assert error(text, "activemq", SelectorSyntaxError).message == "unexpected ')'"

    def test_function_arguments_are_unary_expressions(self):
        err = error("REGEX('x', a + b)", "activemq", SelectorSyntaxError)
        assert err.message == "unexpected '+'" and err.span == Span(13, 14)
        assert error("REGEX('x', a = 1)", "activemq", SelectorSyntaxError).message == "unexpected '='"
        assert tree("REGEX('x', (a + b))", "activemq") == n.FunctionCall("REGEX", (s("x"), ar(A.PLUS, I("a"), I("b"))))
        assert tree("REGEX('x', NOT b)", "activemq") == n.FunctionCall("REGEX", (s("x"), n.Not(I("b"))))
        assert tree("REGEX('x', -a)", "activemq") == n.FunctionCall("REGEX", (s("x"), n.Unary(n.UnaryOp.MINUS, I("a"))))

    @pytest.mark.parametrize("text, what", [
        ("MAKELIST(s)", "a selector must be a condition, not MAKELIST(...), which does not return a boolean"),
        ("NOT SPLIT(s, ',')", "an operand of NOT must be a condition, not SPLIT(...), which does not return a boolean"),
        ("a OR REPLACE(s, 'a', 'b')", "an operand of OR must be a condition, not REPLACE(...), which does not return a boolean"),
        ("REGEX('a', s) > 1", "a condition cannot be compared with > (only numbers can)"),
        ("x BETWEEN 1 AND INLIST(MAKELIST(1), x)", "a condition cannot be compared with BETWEEN (only numbers can)"),
    ])
    def test_what_activemq_functions_may_be(self, text, what):
        assert error(text, "activemq", SelectorTypeError).message == what

    def test_null_is_a_condition_in_activemq(self):
        null = n.Literal(None, JmsType.NULL)
        assert tree("NULL", "activemq") == null
        assert tree("NOT NULL OR a", "activemq") == Or(n.Not(null), I("a"))
        assert error("NULL > 1", "activemq", SelectorTypeError).message == "NULL cannot be compared (use IS NULL)"

    def test_like_pattern_must_be_a_string_literal(self):
        err = error("a LIKE b", cls=SelectorSyntaxError)
        assert err.message == "unexpected 'b'" and err.span == Span(7, 8)

    def test_modulo_is_not_jms(self):
        err = error("a % 2 = 1", cls=SelectorSyntaxError)
        assert err.message == "unexpected '%' (the 'jms' dialect has no modulo)"
        assert err.span == Span(2, 3)

    def test_functions_are_not_jms(self):
        err = error("REGEX('a', b)", cls=SelectorSyntaxError)
        assert err.message == ("REGEX is not a function of the 'jms' dialect (it has no functions);"
                               ' it exists in dialect="activemq"')
        assert err.span == Span(0, 5)  # the name, not the parenthesis
        # a name that is no function anywhere keeps the parser's message
        err = error("foo('a', b)", cls=SelectorSyntaxError)
        assert err.message == "unexpected '('" and err.span == Span(3, 4)

    def test_unknown_function_in_activemq(self):
        err = error("a AND foo(b)", "activemq", SelectorSyntaxError)
        assert err.message.startswith("unknown function 'foo' (the 'activemq' dialect has: INLIST, MAKELIST")
        assert err.span == Span(6, 9)

    def test_static_type_rules_in_jms(self):
        assert error("a + 'x' > 1", cls=SelectorTypeError).span == Span(4, 7)
        assert error("a + TRUE > 1", cls=SelectorTypeError).message == "arithmetic applies to numbers only"
        assert error("1 LIKE 'x'", cls=SelectorTypeError).message == "LIKE applies to strings only"
        assert error("a BETWEEN 'x' AND 2", cls=SelectorTypeError).span == Span(10, 13)
        assert error("(a = 1) + 1 > 2", cls=SelectorTypeError).span == Span(1, 6)

    @BOTH
    def test_multi_line_error_position(self, dialect):
        text = "JMSType = 'car'\n  AND color = 'blue'\n  AND AND weight > 2500"
        err = error(text, dialect, SelectorSyntaxError)
        assert (err.line, err.column) == (3, 7)
        assert str(err) == ("unexpected 'AND' at line 3, column 7\n"
                            "    AND AND weight > 2500\n"
                            "        ^^^")

    def test_caret_rendering(self):
        err = error("color = 'blue' AND AND weight > 2500", cls=SelectorSyntaxError)
        assert str(err) == ("unexpected 'AND' at line 1, column 20\n"
                            "  color = 'blue' AND AND weight > 2500\n"
                            "                     ^^^")

    def test_caret_under_a_tab_separated_selector(self):
        err = error("a\t=\t'x' AND\t)", cls=SelectorSyntaxError)
        assert str(err).splitlines()[1:] == ["  a = 'x' AND )", "              ^"]

    def test_caret_at_the_end(self):
        err = error("a = 1 AND", cls=SelectorSyntaxError)
        assert str(err).splitlines()[1:] == ["  a = 1 AND", "           ^"]

    def test_caret_window_on_a_long_selector(self):
        text = " OR ".join(f"p{i} = {i}" for i in range(2000)) + " OR OR x"
        err = error(text, cls=SelectorSyntaxError)
        line, caret = str(err).splitlines()[1:]
        assert len(line) < 120 and line.lstrip().startswith("...")
        assert line[caret.index("^"):caret.index("^") + 2] == "OR"


BAD_SELECTORS = [
    ("a = 'x", "jms"), ("'a' < 'b'", "jms"), ("3 + 5", "activemq"), ("i IN (5)", "jms"), ("x = NULL", "jms"),
    ("x = NULL", "activemq"), ("AND = 1", "jms"), ("a = 1 b", "activemq"), ("a =", "jms"), ("a = 2.5F", "jms"),
    ("a = 0x1F", "jms"), ("a /* c */ = 1", "jms"), ("a = 9223372036854775808", "jms"), ("(" * 1001 + "a", "jms"),
    ("x" * 70000, "jms"), ("a = " + "1" * 30, "activemq"), ("a LIKE 'x' ESCAPE 'ab'", "activemq"),
    ("héllo = 1", "activemq"), ("foo(a)", "activemq"), ("NOT i > 5", "activemq"),
]


class TestErrorClasses:
    @pytest.mark.parametrize("text, dialect", BAD_SELECTORS)
    def test_every_error_is_a_selector_error_and_a_value_error(self, text, dialect):
        with pytest.raises(SelectorError) as info:
            parse(text, dialect=dialect)
        err = info.value
        assert isinstance(err, ValueError)
        assert type(err) in (SelectorSyntaxError, SelectorTypeError)
        assert err.selector == text
        assert 0 <= err.span.start <= err.span.end <= len(text)
        assert str(err).startswith(err.message + " at line ")

    def test_the_hierarchy(self):
        for cls in (SelectorSyntaxError, SelectorTypeError, SelectorBindingError, UnsupportedSelectorError):
            assert issubclass(cls, SelectorError) and issubclass(cls, ValueError)

    @pytest.mark.parametrize("text, dialect", BAD_SELECTORS)
    def test_errors_pickle(self, text, dialect):
        with pytest.raises(SelectorError) as info:
            parse(text, dialect=dialect)
        err = info.value
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err)
        assert (back.message, back.selector, back.span, str(back)) == (err.message, err.selector, err.span, str(err))

    def test_error_without_a_selector_renders_its_message(self):
        err = UnsupportedSelectorError("cannot do that")
        assert str(err) == "cannot do that" and err.span == Span(0, 0)
        assert pickle.loads(pickle.dumps(err)).message == "cannot do that"

    def test_non_string_selector_is_a_type_error(self):
        with pytest.raises(TypeError):
            parse(b"a = 1")  # type: ignore[arg-type]

    def test_unknown_dialect(self):
        with pytest.raises(ValueError, match="unknown dialect 'sql'"):
            parse("a = 1", dialect="sql")
