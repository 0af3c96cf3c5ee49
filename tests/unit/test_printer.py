"""The printer: AST → canonical text, and the round trip text → AST → text → the same AST.

Hypothesis draws whole trees of the language in each dialect's *parser normal form* (what the
parser can produce: numeric signs folded into literals, AND/OR flattened on the left, literal
types as the dialect assigns them), prints them, parses the text back with the unchecked parser
and requires the very same tree — compared strictly: literal types and float signs included,
which node equality alone would not see (``-0.0 == 0.0``, ``1 == True``). Hand cases pin the
canonical spelling (keywords upper case, minimal but safe parentheses).
"""
from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jms_selector_spark import ACTIVEMQ, JMS, get_dialect, parse
from jms_selector_spark.language import nodes as n
from jms_selector_spark.frontend.parser import parse_tree
from jms_selector_spark.frontend.printer import format_approx, quote_string, to_text
from jms_selector_spark.frontend.tokens import RESERVED
from jms_selector_spark.language.dialects import ARITY
from jms_selector_spark.language.types import INT_MAX, LONG_MAX, LONG_MIN, JmsType

EXAMPLES = int(os.environ.get("JMS_PRINTER_EXAMPLES", "300"))
BOTH = pytest.mark.usefixtures("dialect")  # tests/conftest.py: every dialect in DIALECTS


# -- strict comparison ----------------------------------------------------------------------------

def _literal_key(node):
    v = node.value
    if isinstance(v, float):
        return (node.type, "float", repr(v), math.copysign(1.0, v))
    return (node.type, type(v).__name__, repr(v))


def assert_same_tree(got, want):
    """Equal trees, with literal types and values compared exactly (no 1 == 1.0 == True)."""
    assert got == want
    for a, b in zip(n.walk(got), n.walk(want)):
        assert type(a) is type(b)
        if isinstance(a, n.Literal):
            assert _literal_key(a) == _literal_key(b)


# -- trees in parser normal form ------------------------------------------------------------------

_KEYWORDS = set(RESERVED)
_ASCII_NAMES = st.from_regex(r"[A-Za-z_$][A-Za-z0-9_$]{0,7}", fullmatch=True).filter(
    lambda s: s.upper() not in _KEYWORDS)
_UNICODE_NAMES = st.builds(
    lambda a, b: a + b,
    st.characters(categories=("Lu", "Ll", "Lo", "Nl", "Sc", "Pc")),
    st.text(st.characters(categories=("Lu", "Ll", "Lo", "Nd", "Mn", "Mc", "Pc")), max_size=5),
).filter(lambda s: s.upper() not in _KEYWORDS)
_EDGE_INTS = [0, 1, 2, 7, INT_MAX, -INT_MAX, -INT_MAX - 1, INT_MAX + 1, LONG_MAX, LONG_MIN, -1, 10**15]
_EDGE_FLOATS = [0.0, -0.0, 1.0, -1.5, 0.1, 1e300, -1e-300, 5e-324, 1e16, 123456789.125, math.inf, -math.inf]
_STRINGS = st.text(max_size=8) | st.sampled_from(["", "'", "''", "it's", "%", "_", "a%b_c", "\\", "--", "/*", "\n"])


def _exact_literal(dialect, v):
    # ActiveMQ narrows an unsigned literal that fits an int; -2147483648 is negated 2147483648 (long).
    narrow = dialect.narrow_int_literals and -INT_MAX <= v <= INT_MAX
    return n.Literal(v, JmsType.INT if narrow else JmsType.LONG)


def trees(dialect_name: str, max_leaves: int = 12):
    """Any tree the ``dialect_name`` parser can produce (type-correct or not)."""
    d = get_dialect(dialect_name)
    names = _ASCII_NAMES | _UNICODE_NAMES if d.unicode_identifiers else _ASCII_NAMES
    literals = st.one_of(
        (st.integers(LONG_MIN, LONG_MAX) | st.sampled_from(_EDGE_INTS)).map(lambda v: _exact_literal(d, v)),
        (st.floats(allow_nan=False) | st.sampled_from(_EDGE_FLOATS)).map(lambda v: n.Literal(v, JmsType.DOUBLE)),
        _STRINGS.map(lambda v: n.Literal(v, JmsType.STRING)),
        st.booleans().map(lambda v: n.Literal(v, JmsType.BOOLEAN)),
        *([st.just(n.Literal(None, JmsType.NULL))] if d.not_binds_tighter else []),
    )
    leaves = names.map(n.Identifier) | literals
    arith_ops = [op for op in n.ArithOp if d.modulo or op is not n.ArithOp.MODULO]
    unary_ops = [n.UnaryOp.MINUS] if d.unary_plus_identity else list(n.UnaryOp)

    def signable(node):  # the parser folds a sign into a numeric literal instead of a Unary node
        return not (isinstance(node, n.Literal) and node.type.is_numeric)

    def extend(kids):
        def logical(cls):
            first = kids.filter(lambda k: not isinstance(k, cls))  # the parser flattens the left side
            return st.builds(lambda a, rest: cls((a, *rest)), first, st.lists(kids, min_size=1, max_size=3))

        options = [
            kids.map(n.Not),
            logical(n.And),
            logical(n.Or),
            st.builds(n.Comparison, st.sampled_from(list(n.CompareOp)), kids, kids),
            st.builds(n.Arithmetic, st.sampled_from(arith_ops), kids, kids),
            st.builds(n.Unary, st.sampled_from(unary_ops), kids.filter(signable)),
            st.builds(n.Between, kids, kids, kids, st.booleans()),
            st.builds(n.InList, kids, st.lists(_STRINGS.map(lambda v: n.Literal(v, JmsType.STRING)), min_size=1,
                                               max_size=3).map(tuple), st.booleans()),
            st.builds(n.Like, kids, _STRINGS, st.none() | st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",)),
                      st.booleans()),
            st.builds(n.IsNull, kids, st.booleans()),
        ]
        if d.functions:
            def call(name):
                least, most = ARITY[name]
                return st.lists(kids, min_size=least, max_size=most or least + 2).map(
                    lambda args: n.FunctionCall(name, tuple(args)))

            options.append(st.sampled_from(sorted(d.functions)).flatmap(call))
        return st.one_of(options)

    return st.recursive(leaves, extend, max_leaves=max_leaves)


_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(tree=trees("jms"))
def test_round_trip_generated_trees_jms(tree):
    assert_same_tree(parse_tree(to_text(tree, JMS), JMS), tree)


@_SETTINGS
@given(tree=trees("activemq"))
def test_round_trip_generated_trees_activemq(tree):
    assert_same_tree(parse_tree(to_text(tree, ACTIVEMQ), ACTIVEMQ), tree)


@_SETTINGS
@given(tree=trees("activemq"))
def test_printing_is_idempotent(tree):
    once = to_text(tree, ACTIVEMQ)
    assert to_text(parse_tree(once, ACTIVEMQ), ACTIVEMQ) == once


# -- hand cases --------------------------------------------------------------------------------

CANONICAL = [
    # (selector, dialect, canonical text)
    ("color='blue' and weight>2500", "jms", "color = 'blue' AND weight > 2500"),
    ("a=1 or b=2 and c=3", "jms", "a = 1 OR b = 2 AND c = 3"),
    ("(a=1 or b=2) and c=3", "jms", "(a = 1 OR b = 2) AND c = 3"),
    ("a AND (b AND c)", "jms", "a AND (b AND c)"),
    ("not a = 1", "jms", "NOT a = 1"),
    ("not a = 1", "activemq", "NOT a = 1"),
    ("not (a = 1)", "activemq", "NOT (a = 1)"),
    ("(not a) = 1", "jms", "(NOT a) = 1"),
    ("not not a", "jms", "NOT NOT a"),
    ("not not a", "activemq", "NOT (NOT a)"),
    ("NOT (a OR b)", "jms", "NOT (a OR b)"),
    ("a - (b - c) > 0", "jms", "a - (b - c) > 0"),
    ("a - b - c > 0", "jms", "(a - b) - c > 0"),
    ("-a * b > 0", "jms", "-a * b > 0"),
    ("-(a * b) > 0", "jms", "-(a * b) > 0"),
    ("- -a > 0", "jms", "-(-a) > 0"),
    ("a - -1 > 0", "jms", "a - -1 > 0"),
    ("+a > 0", "jms", "+a > 0"),
    ("+a > 0", "activemq", "a > 0"),
    ("x = - - 5", "jms", "x = 5"),
    ("x = -9223372036854775808", "jms", "x = -9223372036854775808"),
    ("x = - -9223372036854775808", "jms", "x = -9223372036854775808"),
    ("x = 7E3 OR x = .5 OR x = 7.", "jms", "x = 7000.0 OR x = 0.5 OR x = 7.0"),
    ("x = 1e999 or x = -1E999", "jms", "x = 1E999 OR x = -1E999"),
    ("x = -0.0", "jms", "x = -0.0"),
    ("x = 1e16", "jms", "x = 1e+16"),
    ("x = 0x1F OR x = 017 OR x = 10L", "activemq", "x = 31 OR x = 15 OR x = 10"),
    ("s = 'it''s'", "jms", "s = 'it''s'"),
    ("a between 1 and 2 and b", "jms", "a BETWEEN 1 AND 2 AND b"),
    ("a not between -1 and 2", "activemq", "a NOT BETWEEN -1 AND 2"),
    ("a BETWEEN b * 2 AND (c + 1)", "jms", "a BETWEEN b * 2 AND c + 1"),
    ("s not like 'a!%' escape '!'", "jms", "s NOT LIKE 'a!%' ESCAPE '!'"),
    ("s in ('a','b')", "jms", "s IN ('a', 'b')"),
    ("s not in ('a')", "activemq", "s NOT IN ('a')"),
    ("a is not null and b is null", "jms", "a IS NOT NULL AND b IS NULL"),
    ("a = b = c", "activemq", "(a = b) = c"),
    ("a < b = TRUE", "activemq", "a < b = TRUE"),
    ("(a = b) IS NULL", "activemq", "(a = b) IS NULL"),
    ("regex('a.*', s) or inlist(makelist('a', 'b'), s)", "activemq",
     "REGEX('a.*', s) OR INLIST(MAKELIST('a', 'b'), s)"),
    ("a % 2 = 1", "activemq", "a % 2 = 1"),
    ("REGEX('x', (a + b)) AND INLIST(MAKELIST((1 + 1), -a, NOT b), c)", "activemq",
     "REGEX('x', (a + b)) AND INLIST(MAKELIST((1 + 1), -a, NOT b), c)"),
    ("REGEX('x', (a = b))", "activemq", "REGEX('x', (a = b))"),
    ("TRUE", "jms", "TRUE"),
    ("", "jms", ""),
]


@pytest.mark.parametrize("text, dialect, expected", CANONICAL)
def test_canonical_text(text, dialect, expected):
    sel = parse(text, dialect=dialect)
    assert sel.canonical() == expected
    again = parse(expected, dialect=dialect)
    if sel.root is not None:
        assert_same_tree(again.root, sel.root)


def test_the_canonical_text_of_an_activemq_tree_is_not_jms_text():
    # The same tree prints differently per dialect: NOT's binding strength differs.
    tree = parse("NOT a = 1", dialect="activemq").root  # (NOT a) = 1
    assert to_text(tree, ACTIVEMQ) == "NOT a = 1"
    assert to_text(tree, JMS) == "(NOT a) = 1"
    assert parse_tree(to_text(tree, JMS), ACTIVEMQ) == tree


@pytest.mark.parametrize("value", [0.0, -0.0, 1.0, 0.1, 1e16, 1e-7, 5e-324, 1.7976931348623157e308, math.inf,
                                   -math.inf, 2.0**53, -123.456])
def test_format_approx_round_trips(value):
    text = format_approx(value)
    lit = parse_tree(f"x = {text}").right
    assert lit.type is JmsType.DOUBLE
    assert repr(lit.value) == repr(value)


@pytest.mark.parametrize("value", ["", "'", "a'b", "''", "\n", "\U0001F600", "%_!"])
def test_quote_string_round_trips(value):
    assert parse_tree(f"x = {quote_string(value)}").right.value == value


def test_printing_nothing():
    assert to_text(None) == ""


def test_the_tree_functions_take_a_dialect_not_a_name():
    """The entry points turn a dialect name into a `Dialect` once (`get_dialect`); the front end's
    tree functions take that `Dialect` and refuse a name instead of normalising it again."""
    tree = parse_tree("a = 1", ACTIVEMQ)
    assert to_text(tree, ACTIVEMQ) == "a = 1"
    with pytest.raises(TypeError, match=r"dialect must be a Dialect, not str: pass get_dialect\('activemq'\)"):
        to_text(tree, "activemq")
    with pytest.raises(TypeError, match=r"dialect must be a Dialect, not str: pass get_dialect\('jms'\)"):
        parse_tree("a = 1", "jms")
