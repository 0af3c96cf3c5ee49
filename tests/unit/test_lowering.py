"""The dialect rules as `lowering.Rules` decides them: one readable table per rule.

Every back end renders these decisions (the interpreter through `semantics`, the SQL text, the
Arrow kernels); the corpora and differential tests check the renderings. This file pins the
decisions themselves, so "where are the BETWEEN rules?" has an answer in code.
"""
from __future__ import annotations

import pytest

from jms_selector_spark.frontend.nodes import ArithOp, CompareOp
from jms_selector_spark.semantics.dialects import ACTIVEMQ, DIALECTS, JMS, get_dialect
from jms_selector_spark.semantics.lowering import Between, NullEquality, NumericOrder, Order, rules_for
from jms_selector_spark.semantics.types import JmsType as T

C, A = CompareOp, ArithOp
jms, amq = rules_for(JMS), rules_for(ACTIVEMQ)


def test_one_rules_object_per_dialect_and_it_is_immutable():
    assert rules_for(JMS) is jms and rules_for(get_dialect("jms")) is jms
    assert rules_for(JMS.derive(name="jms2", string_ordering=True)) is not jms
    with pytest.raises(AttributeError):
        jms.x = 1


def test_unlike_types_compare_false_in_every_dialect(dialect):
    r = rules_for(get_dialect(dialect))
    for lt, rt in [(T.STRING, T.LONG), (T.BOOLEAN, T.STRING), (T.DOUBLE, T.BOOLEAN)]:
        for op in C:
            assert r.compare(op, lt, rt) is Order.FALSE


def test_numeric_comparison_types():
    assert jms.compare(C.EQ, T.INT, T.BYTE) == NumericOrder(T.INT, False)
    assert jms.compare(C.LT, T.LONG, T.FLOAT) == NumericOrder(T.FLOAT, False)
    # ActiveMQ's asymmetric table: int = byte is FALSE, byte = int compares as int
    assert amq.compare(C.EQ, T.INT, T.BYTE) is Order.FALSE
    assert amq.compare(C.EQ, T.BYTE, T.INT) == NumericOrder(T.INT, False)
    # Double.compareTo order for approximate types only
    assert amq.compare(C.GT, T.DOUBLE, T.LONG) == NumericOrder(T.DOUBLE, True)
    assert amq.compare(C.GT, T.LONG, T.LONG) == NumericOrder(T.LONG, False)


def test_string_and_boolean_comparison():
    assert jms.compare(C.EQ, T.STRING, T.STRING) is Order.PLAIN
    assert jms.compare(C.LT, T.STRING, T.STRING) is Order.FALSE
    assert amq.compare(C.LT, T.STRING, T.STRING) is Order.UTF16
    assert amq.compare(C.LT, T.BOOLEAN, T.BOOLEAN) is Order.PLAIN
    assert jms.compare(C.GE, T.BOOLEAN, T.BOOLEAN) is Order.FALSE


def test_ne_and_null_equality():
    assert amq.ne_as_not_eq(C.NE) and not amq.ne_as_not_eq(C.EQ) and not jms.ne_as_not_eq(C.NE)
    assert amq.eq_nulls(C.EQ) == NullEquality(None, False, True) and amq.eq_nulls(C.NE) is None and jms.eq_nulls(C.EQ) is None


def test_arithmetic_types():
    assert jms.arithmetic(A.DIVIDE, T.INT, T.INT) is T.INT          # Java integer division
    assert amq.arithmetic(A.DIVIDE, T.INT, T.INT) is T.DOUBLE       # 5 / 2 = 2.5
    assert amq.arithmetic(A.MODULO, T.INT, T.INT) is T.DOUBLE       # % in double too
    assert jms.arithmetic(A.PLUS, T.BYTE, T.SHORT) is T.INT         # Java promotion
    assert jms.arithmetic(A.TIMES, T.FLOAT, T.INT) is T.FLOAT
    assert amq.arithmetic(A.TIMES, T.FLOAT, T.INT) is T.DOUBLE      # floats computed in double
    assert amq.arithmetic(A.PLUS, T.STRING, T.LONG) is T.STRING     # concatenation
    assert jms.arithmetic(A.PLUS, T.STRING, T.LONG) is None
    assert amq.arithmetic(A.MINUS, T.STRING, T.LONG) is None
    assert amq.arithmetic(A.PLUS, "list", T.LONG) is None           # a function's list value


def test_unary_plus():
    assert jms.plus_keeps(T.LONG) and not jms.plus_keeps(T.STRING)
    assert amq.plus_keeps(T.STRING) and amq.plus_keeps(T.BOOLEAN)


def test_between_and_in():
    assert jms.between(False) is Between.NULL_IS_FALSE and jms.between(True) is Between.NULL_IS_FALSE
    assert amq.between(False) is Between.KLEENE and amq.between(True) is Between.OUTSIDE_AS_OR
    assert jms.in_non_string(False) is False and jms.in_non_string(True) is True
    assert amq.in_non_string(False) is None and amq.in_non_string(True) is None


def test_every_built_in_dialect_has_rules():
    assert {repr(rules_for(d)) for d in DIALECTS.values()} == {f"Rules({name!r})" for name in DIALECTS}
