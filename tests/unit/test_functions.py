"""ActiveMQ's built-in functions and other ``activemq`` corners the oracle differential found.

Each row is a selector, a message and the verdict ActiveMQ 5.17 gives (``"invalid"`` when its
parser rejects the selector). The table runs through `evaluate` here, and — marked ``oracle`` —
through the real engine, so the expectations cannot drift from what ActiveMQ does.

The rows pin bugs that were fixed: Java's ``String.split`` edges (an empty leading string only
for a positive-width match at 0; ``''.split(x)`` is ``['']``); ``List.contains`` / ``List.equals``
with ``Double.equals`` (NaN equals NaN, 0.0 is not -0.0); a NULL argument of MAKELIST is a null
element, not a NULL list; function arguments are unary expressions and their count is checked;
only REGEX and INLIST are conditions, and they cannot be ordered; ActiveMQ's NULL literal is a
condition; hex and octal literals that fit narrow to int; a number may touch a keyword.
"""
from __future__ import annotations

import math

import pytest

from jms_selector_spark import SelectorError, evaluate
from jms_selector_spark.semantics.functions import _java_split

PROPS = {"s": ("string", "abc"), "c": ("string", ",a,b"), "e": ("string", ""), "t": ("string", "a,,"),
         "i": ("int", 1), "n": ("double", math.nan), "z": ("double", 0.0), "nz": ("double", -0.0),
         "b": ("boolean", True), "a": ("int", 31)}

CASES = [
    # String.split
    ("INLIST(SPLIT(s, ''), '')", False),
    ("INLIST(SPLIT(s, ''), 'a')", True),
    ("INLIST(SPLIT(s, 'x*'), '')", False),
    ("INLIST(SPLIT(s, 'a'), '')", True),
    ("INLIST(SPLIT(e, ''), '')", True),
    ("INLIST(SPLIT(e, ','), '')", True),
    ("INLIST(SPLIT(c, ','), '')", True),
    ("INLIST(SPLIT(c, ',', 2), 'a,b')", True),
    ("INLIST(SPLIT(c, ',', -1), '')", True),
    ("INLIST(SPLIT(t, ','), '')", False),
    ("INLIST(SPLIT(t, ',', -1), '')", True),
    ("SPLIT(s, 'b') = MAKELIST('a', 'c')", True),
    ("SPLIT('axb', 'x*') = MAKELIST('a', '', 'b')", True),
    ("SPLIT('', '') = MAKELIST('')", True),
    ("SPLIT('a,b,c', ',', 1) = MAKELIST('a,b,c')", True),
    # List.contains / List.equals with Double.equals
    ("INLIST(MAKELIST(n), n)", True),
    ("INLIST(MAKELIST(z), nz)", False),
    ("INLIST(MAKELIST(1), i)", True),
    ("INLIST(MAKELIST(1), 1.0)", False),
    ("MAKELIST(n) = MAKELIST(n)", True),
    ("MAKELIST(z) = MAKELIST(nz)", False),
    ("MAKELIST(1, 'a') = MAKELIST(1, 'a')", True),
    ("MAKELIST(1) = MAKELIST(1.0)", False),
    ("MAKELIST(MAKELIST(1)) = MAKELIST(MAKELIST(1))", True),
    ("MAKELIST(1) <> MAKELIST(2)", True),
    ("MAKELIST(1) = 1", False),
    # a NULL argument of MAKELIST is an element
    ("MAKELIST(missing) IS NULL", False),
    ("MAKELIST(NULL) IS NULL", False),
    ("INLIST(MAKELIST('a', missing), 'a')", True),
    ("INLIST(MAKELIST('a'), missing)", False),
    ("MAKELIST(NULL, 1) = MAKELIST(NULL, 1)", True),
    # arguments are unary expressions, counted
    ("REGEX('b$', s + 'b')", "invalid"),
    ("REGEX('c$', (s + 'b'))", False),
    ("REGEX('c$', s)", True),
    ("REGEX('b$', NOT b)", False),
    ("INLIST(MAKELIST(1 + 1, 2), i)", "invalid"),
    ("INLIST(MAKELIST((1 + 1), 2), i)", False),
    ("REGEX('a')", "invalid"),
    ("REGEX()", "invalid"),
    ("SPLIT(s) IS NULL", "invalid"),
    ("SPLIT(s, ',', 1, 2) IS NULL", "invalid"),
    ("REPLACE(s, 'a') IS NULL", "invalid"),
    ("MAKELIST() IS NULL", "invalid"),
    # only REGEX and INLIST are conditions; conditions cannot be ordered
    ("MAKELIST(s)", "invalid"),
    ("REPLACE(s, 'a', 'b')", "invalid"),
    ("NOT SPLIT(s, ',')", "invalid"),
    ("TRUE OR MAKELIST(1)", "invalid"),
    ("NOT REGEX('a', s)", False),
    ("REGEX('a', s) = TRUE", True),
    ("REGEX('a', s) > 1", "invalid"),
    ("1 <= INLIST(MAKELIST(1), i)", "invalid"),
    ("i BETWEEN REGEX('a', s) AND 2", "invalid"),
    # NULL is a condition in ActiveMQ (a BooleanConstantExpression)
    ("NULL", None),
    ("NOT NULL", None),
    ("NULL OR TRUE", True),
    ("NULL AND FALSE", False),
    ("TRUE AND NULL", None),
    ("NULL > 1", "invalid"),
    # every exact literal that fits is an int
    ("0x7FFFFFFF + 1 > 0", False),
    ("017777777777 + 1 > 0", False),
    ("2147483647L + 1 > 0", False),
    ("0x80000000 + 1 > 0", True),
    ("- -9223372036854775808 < 0", True),
    # a number may touch a keyword, as in Java's tokenizer
    ("i BETWEEN 0AND 5", True),
    ("a = 31OR b", True),
    ("a = 0x1FOR FALSE", True),
    ("a = 1e5AND b", False),
    ("a = 31ANDb", "invalid"),
    ("a = 5TRUE", "invalid"),
]


def _ours(selector):
    try:
        return evaluate(selector, {}, {k: v for k, (_, v) in PROPS.items()}, dialect="activemq",
                        types={k: t for k, (t, _) in PROPS.items()})
    except SelectorError:
        return "invalid"


@pytest.mark.parametrize("selector, expected", CASES)
def test_activemq_corner(selector, expected):
    assert _ours(selector) == expected


@pytest.mark.oracle
def test_the_table_is_what_activemq_says(oracle):
    verdicts = oracle([{"id": str(i), "selector": sel,
                        "message": {"properties": {k: {"type": t, "value": v} for k, (t, v) in PROPS.items()}}}
                       for i, (sel, _) in enumerate(CASES)])
    wrong = [(sel, verdicts[str(i)]["result"], exp) for i, (sel, exp) in enumerate(CASES)
             if verdicts[str(i)]["result"] != exp]
    assert not wrong


@pytest.mark.parametrize("text, sep, limit, expected", [
    ("abc", "", 0, ["a", "b", "c"]),
    ("", "", 0, [""]),
    ("", ",", 0, [""]),
    (",a,b", ",", 0, ["", "a", "b"]),
    ("a,,", ",", 0, ["a"]),
    ("a,,", ",", -1, ["a", "", ""]),
    ("a,b,c", ",", 2, ["a", "b,c"]),
    ("a,b,c", ",", 1, ["a,b,c"]),
    ("axb", "x*", 0, ["a", "", "b"]),
    ("abc", "d", 0, ["abc"]),
    ("aXbXc", "X", 0, ["a", "b", "c"]),
    ("abc", "(", 0, None),
])
def test_java_split(text, sep, limit, expected):
    # Values from java.lang.String.split (JDK 8+); the table above has oracle-checked twins.
    assert _java_split(text, sep, limit) == expected
