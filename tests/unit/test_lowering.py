"""The dialect rules as `lowering.Rules` decides them: one readable table per rule.

Every back end renders these decisions (the interpreter through `semantics`, the SQL text, the
Arrow kernels); the corpora and differential tests check the renderings. This file pins the
decisions themselves, so "where are the BETWEEN rules?" has an answer in code.
"""
from __future__ import annotations

import math

import pytest

from jms_selector_spark.language.nodes import ArithOp, CompareOp
from jms_selector_spark.language.dialects import ACTIVEMQ, DIALECTS, JMS, get_dialect
from jms_selector_spark.semantics.lowering import Between, NullEquality, NumericOrder, Order, rules_for
from jms_selector_spark.language.types import JmsType as T

C, A = CompareOp, ArithOp
jms, amq = rules_for(JMS), rules_for(ACTIVEMQ)


def test_one_rules_object_per_dialect_and_it_is_immutable():
    assert rules_for(JMS) is jms and rules_for(get_dialect("jms")) is jms
    assert rules_for(JMS.derive(name="jms2", string_ordering=True)) is not jms
    with pytest.raises(AttributeError):
        jms.x = 1


def test_unlike_types_compare_false_in_every_dialect(dialect):
    d = get_dialect(dialect)
    r = rules_for(d)
    for lt, rt in [(T.STRING, T.LONG), (T.BOOLEAN, T.STRING), (T.DOUBLE, T.BOOLEAN)]:
        for op in C:
            if d.erlang_term_order and op is not C.EQ:  # RabbitMQ orders them: number < boolean < string
                continue
            assert r.compare(op, lt, rt) is Order.FALSE


def test_erlang_term_order_between_unlike_types():
    r = rules_for(get_dialect("rabbitmq-jms"))
    truth = {Order.TRUE: True, Order.FALSE: False}
    for lt, rt in [(T.LONG, T.STRING), (T.DOUBLE, T.BOOLEAN), (T.BOOLEAN, T.STRING)]:  # left is below right
        assert {op: truth[r.compare(op, lt, rt)] for op in C} == {C.EQ: False, C.NE: True, C.LT: True, C.LE: True,
                                                                 C.GT: False, C.GE: False}
        assert {op: truth[r.compare(op, rt, lt)] for op in C} == {C.EQ: False, C.NE: True, C.LT: False,
                                                                 C.LE: False, C.GT: True, C.GE: True}
    assert r.compare(C.LT, T.STRING, T.STRING) is Order.PLAIN  # code points (UTF-8 bytes), not UTF-16
    assert r.compare(C.LT, T.BOOLEAN, T.BOOLEAN) is Order.PLAIN


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


# -- the lowering pass: the core nodes carry the decisions ---------------------------------------

def _core_nodes(text, dialect):
    from jms_selector_spark.language import nodes
    from jms_selector_spark.semantics.lowering import lower
    from jms_selector_spark.parsing import parse

    d = get_dialect(dialect)
    return list(nodes.walk(lower(parse(text, dialect=d).root, rules_for(d))))


def test_comparisons_carry_their_comparator():
    from jms_selector_spark.semantics import core

    (amq_ne,) = [x for x in _core_nodes("a <> 1", "activemq") if isinstance(x, core.Compare)]
    (jms_ne,) = [x for x in _core_nodes("a <> 1", "jms") if isinstance(x, core.Compare)]
    assert amq_ne.cmp.eq is amq.comparator(C.EQ) and amq_ne.cmp.eq.nulls == NullEquality(None, False, True)
    assert jms_ne.cmp.eq is None and jms_ne.cmp.nulls is None
    assert jms_ne.cmp.rule(T.INT, T.STRING) is Order.FALSE
    assert amq.comparator(C.LT).rule(T.STRING, T.STRING) is Order.UTF16
    assert jms.comparator(C.LT).rule(T.STRING, T.STRING) is Order.FALSE
    assert amq.comparator(C.EQ).conversion(T.STRING, T.LONG) is None  # only under the prefix


@pytest.mark.parametrize("dialect, kind, left_first", [
    ("jms", "TwoValuedBetween", False), ("activemq", "InsideBetween", False), ("wso2", "InsideBetween", True)])
def test_between_lowers_to_the_dialects_node(dialect, kind, left_first):
    (b,) = [x for x in _core_nodes("a BETWEEN 1 AND 2", dialect) if type(x).__name__.endswith("Between")]
    assert type(b).__name__ == kind
    assert (b.low_cmp.op, b.high_cmp.op) == (C.GE, C.LE)
    assert getattr(b, "left_first", False) is left_first


def test_not_between_as_or_and_in_on_non_strings():
    from jms_selector_spark.semantics import core

    nodes_ = _core_nodes("a NOT BETWEEN 1 AND 2 AND b NOT IN ('x')", "activemq")
    outside = [x for x in nodes_ if isinstance(x, core.OutsideBetween)]
    in_ = [x for x in nodes_ if isinstance(x, core.InStrings)]
    assert len(outside) == 1  # ActiveMQ's NOT BETWEEN is `a < 1 OR a > 2`
    assert (outside[0].low_cmp.op, outside[0].high_cmp.op) == (C.LT, C.GT)
    assert len(in_) == 1 and in_[0].non_string is amq.in_non_string(True)


# -- constants: folded once, in lowering ----------------------------------------------------------

def _lowered_root(text, dialect, schema=None):
    from jms_selector_spark.binder import Binding, bind
    from jms_selector_spark.parsing import parse
    from jms_selector_spark.semantics.lowering import lower

    d = get_dialect(dialect)
    sel = parse(text, dialect=d)
    if schema is None:
        return lower(sel.root, rules_for(d))
    return bind(sel, schema, Binding.of(unknown_properties="null")).core


@pytest.mark.parametrize("text, dialect, value, type_", [
    ("2147483647 + 1", "activemq", -2147483648, T.INT),     # int literals: Java int wraps
    ("2147483647 + 1", "jms", 2147483648, T.LONG),          # every jms literal is a long
    ("9223372036854775807 + 1", "jms", -9223372036854775808, T.LONG),
    ("7 / 2", "jms", 3, T.LONG),                            # integer division truncates
    ("7 / 2", "activemq", 3.5, T.DOUBLE),                   # ActiveMQ divides in double
    ("5 / 0", "jms", None, T.NULL),                         # Java throws: no value
    ("5 / 0", "activemq", math.inf, T.DOUBLE),
    ("-(3)", "jms", -3, T.LONG),
    ("'a' + 1", "activemq", "a1", T.STRING),                # concatenation
    ("'a' + 1.5", "activemq", "a1.5", T.STRING),            # Java's Double.toString, at lowering
    ("'a' * 2", "activemq", None, T.NULL),                  # no value
])
def test_constant_arithmetic_folds_to_a_literal(text, dialect, value, type_):
    from jms_selector_spark.language import nodes

    root = _lowered_root(f"x = ({text})", dialect)
    lit = root.right
    assert type(lit) is nodes.Literal and lit.type is type_ and lit.value == value, lit


@pytest.mark.parametrize("text, dialect, value", [
    ("1 = 1.0", "jms", True),
    ("'1' = 1", "activemq", False),                         # unlike types
    ("nosuch = nosuch2", "activemq", True),                 # ActiveMQ's NULL equality
    ("nosuch = nosuch2", "jms", None),
    ("nosuch BETWEEN 1 AND 2", "jms", False),               # the two-valued BETWEEN
    ("NOT (nosuch BETWEEN 1 AND 2)", "activemq", None),
    ("'abc' LIKE 'a%'", "jms", True),
    ("nosuch NOT IN ('x', 'y')", "jms", None),
    ("TRUE AND nosuch = 1", "jms", None),
    ("REGEX('^a', 'abc')", "activemq", True),
    ("INLIST(SPLIT('a,b', ','), 'b')", "activemq", True),
])
def test_constant_conditions_fold_to_the_interpreters_value(text, dialect, value):
    # `nosuch`: a property the table cannot hold (the binder's constant NULL)
    from jms_selector_spark.language import nodes
    from jms_selector_spark.interpreter import evaluate

    root = _lowered_root(text, dialect, {"x": "long"})
    assert root == nodes.Literal(value, T.NULL if value is None else T.BOOLEAN), root
    assert evaluate(text, dialect=dialect) is value


def test_only_constant_operands_fold_and_lists_stay_lists():
    from jms_selector_spark.language import nodes
    from jms_selector_spark.semantics import core
    from jms_selector_spark.semantics.functions import LIST

    (cmp,) = [x for x in _core_nodes("x > 2 * 3 + 1", "jms") if isinstance(x, core.Compare)]
    assert type(cmp.right) is nodes.Literal and (cmp.right.value, cmp.right.type) == (7, T.LONG)
    assert type(cmp.left) is nodes.Identifier  # a property: not constant
    call = _lowered_root("INLIST(MAKELIST(1, 'a'), x)", "activemq")
    assert type(call) is core.Call and call.args[0].type == LIST
    assert [v.value for v in call.args[0].value] == [1, "a"]


def test_names_the_binder_knows_are_constant_fold_too():
    from jms_selector_spark.language import nodes
    from jms_selector_spark.semantics import core

    # a property the table cannot hold is NULL: `nosuch + 1 > x` is UNKNOWN whatever x is, but
    # only the constant sub-tree folds (x is still read: the node is a comparison with NULL)
    root = _lowered_root("nosuch + 1 > x", "jms", {"x": "long"})
    assert type(root) is core.Compare and type(root.left) is nodes.Literal and root.left.type is T.NULL
    assert _lowered_root("nosuch IS NULL", "jms", {"x": "long"}) == nodes.Literal(True, T.BOOLEAN)
    # WSO2 fixes JMSRedelivered to FALSE (Rules.header): a constant, folded
    root = _lowered_root("JMSRedelivered OR x > 1", "wso2", {"x": "long"})
    assert type(root.operands[0]) is nodes.Literal and root.operands[0].value is False


def test_the_typed_tree_knows_folded_nodes():
    from jms_selector_spark.binder import bind
    from jms_selector_spark.language import nodes
    from jms_selector_spark.parsing import parse

    bound = bind(parse("x > 2 * 3"), {"x": "int"})
    lit = bound.core.right
    assert type(lit) is nodes.Literal and bound.types.type_of(lit) is T.LONG and not bound.types.reads_dynamic(lit)


@pytest.mark.parametrize("text, dialect, value", [
    ("color = 5", "jms", False), ("5 > color", "jms", False), ("color <> 5", "jms", False),
    ("color > 5", "activemq", False),   # ActiveMQ's `=` has its NULL rule: only orderings here
    ("color <> 5", "rabbitmq", True),   # `<>` is NOT (=) there, and `=` has no NULL rule
    ("color < s", "jms", False),        # strings have no order in JMS
    ("b = 1", "jms", False),
])
def test_unlike_static_types_are_decided_at_lowering(text, dialect, value):
    from jms_selector_spark.binder import bind
    from jms_selector_spark.parsing import parse
    from jms_selector_spark.semantics import core

    root = bind(parse(text, dialect=dialect), {"color": "string", "s": "string", "b": "boolean", "w": "long"}).core
    assert type(root) is core.UnlikeTypes and root.value is value, root


@pytest.mark.parametrize("text, dialect", [
    ("w = 5", "jms"), ("color = 5", "activemq"),  # like types; ActiveMQ's `=` NULL rule
    ("color = w + 1", "jms"),                     # not a literal or a name: the Comparator decides per row
])
def test_other_comparisons_stay_compare(text, dialect):
    from jms_selector_spark.binder import bind
    from jms_selector_spark.parsing import parse
    from jms_selector_spark.semantics import core

    root = bind(parse(text, dialect=dialect), {"color": "string", "w": "long"}).core
    assert type(root) is core.Compare, root


# -- static operand types: recorded once, at lowering, from the typed tree ------------------------

_TYPED_SCHEMA = {"color": "string", "w": "long", "q": "int", "p": "double", "f": "float", "b": "boolean"}


@pytest.mark.parametrize("text, dialect", [
    ("w = 5 AND color = 'x' AND p > q AND f < 1.5 AND b = TRUE", "jms"),
    ("color = 'a' AND w + q > p * 2 AND (w = 1) = b", "activemq"),
    ("color = w AND q <> 1", "activemq"), ("w BETWEEN q AND 9 OR -q > 1 OR q < w", "jms"),
    ("q IN ('a') OR color IN ('a') OR color LIKE 'a%' OR w NOT BETWEEN 1 AND p OR f BETWEEN 1 AND q", "jms"),
    ("w NOT BETWEEN q AND 9 OR w BETWEEN 1 AND p OR w IN ('a') OR q LIKE 'a%'", "activemq"),
    ("v = 5 AND JMSPriority + v > 1 AND nosuch = 1 AND JMSPriority > 1", "jms"),       # v: a VARIANT key (dynamic); nosuch: NULL
    ("w + nosuch > 1 OR -color IS NULL OR +b = TRUE OR w * 2 BETWEEN -p AND q / 2", "jms"),  # NULL and arithmetic operands
    ("+color = 'a' OR color + w = 'a1' OR -(q % 2) > f OR w / 2 = 2.5", "activemq"),
])
def test_compare_and_compute_carry_the_typed_trees_static_types(text, dialect):
    from jms_selector_spark.binder import Binding, bind
    from jms_selector_spark.language import nodes
    from jms_selector_spark.parsing import parse
    from jms_selector_spark.semantics import core

    schema = _TYPED_SCHEMA
    if "v = 5" in text:  # properties in a VARIANT column (a Spark type)
        ST = pytest.importorskip("pyspark.sql.types")
        schema = ST.StructType([ST.StructField("properties", ST.VariantType()), ST.StructField("JMSPriority", ST.IntegerType())])
    bound = bind(parse(text, dialect=dialect), schema, Binding.of(unknown_properties="null"))
    tt = bound.types

    def carried(*operands):  # the typed tree's answer as a node records it: None when DYNAMIC
        ts = tuple(tt.type_of(o) for o in operands)
        return None if T.DYNAMIC in ts else ts

    seen = 0
    for x in nodes.walk(bound.core):   # every operand kind: literals, names, predicates, arithmetic, signs
        if type(x) in (core.InStrings, core.LikeString, core.Negate, core.Plus):
            assert x.operand_type is (carried(x.operand) or (None,))[0], x
        elif type(x) in (core.TwoValuedBetween, core.InsideBetween, core.OutsideBetween):
            assert x.types == carried(x.operand, x.low, x.high), x
        elif type(x) in (core.Compare, core.Compute):
            assert x.types == carried(x.left, x.right), x
        else:
            continue
        seen += 1
        if type(x) in (core.Compute, core.Negate, core.Plus):   # what it computes in: the typed tree's
            assert core.static_type(x, tt.column_types) is (None if tt.type_of(x) is T.DYNAMIC else tt.type_of(x))
    assert seen


def test_the_sql_generator_renders_the_types_the_core_node_carries():
    """The SQL generator takes a static comparison's decision for the pair `core.Compare.types`
    names, not for the types it would work out from the operands: swap the pair, the SQL follows."""
    import dataclasses

    from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
    from jms_selector_spark.binder import bind
    from jms_selector_spark.parsing import parse

    bound = bind(parse("w = 5"), {"w": "long"})
    root = bound.core
    assert root.types == (T.LONG, T.LONG)
    gen = SparkSqlGenerator(bound)
    assert gen.sql(root) == "`w` = 5"
    unlike = dataclasses.replace(root, types=(T.STRING, T.LONG))   # a pair that never compares
    assert gen.sql(unlike) == "IF(`w` IS NULL, CAST(NULL AS BOOLEAN), FALSE)"
    as_double = dataclasses.replace(root, types=(T.DOUBLE, T.LONG))  # promoted to double
    assert "CAST(`w` AS DOUBLE)" not in gen.sql(root)
    assert gen.sql(as_double) != gen.sql(root)


def test_the_sql_generator_renders_the_like_operand_type_the_core_node_carries():
    import dataclasses

    from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
    from jms_selector_spark.binder import bind
    from jms_selector_spark.parsing import parse

    bound = bind(parse("color LIKE 'a%' AND w BETWEEN 1 AND 5"), {"color": "string", "w": "long"})
    like, between = bound.core.operands
    assert like.operand_type is T.STRING and between.types == (T.LONG, T.LONG, T.LONG)
    gen = SparkSqlGenerator(bound)
    assert gen.sql(like) == "`color` LIKE decode(X'6125', 'UTF-8') ESCAPE '!'"
    assert gen.sql(dataclasses.replace(like, operand_type=T.LONG)) == "IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)"
    plain = gen.sql(between)
    assert "`w` >= 1" in plain and "`w` <= 5" in plain
    unlike = gen.truth(dataclasses.replace(between, types=(T.STRING, T.LONG, T.LONG))).sql
    assert "`w` >= 1" not in unlike and "FALSE" in unlike


def test_recording_static_types_does_not_compute_the_whole_typed_tree():
    """Lowering reads a static operand's type off the node (a literal's, `column_types`, a
    predicate's): translating a selector over static columns never builds the typed tree's map
    (compile cost: 5-30 µs per bench selector when it is built)."""
    from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
    from jms_selector_spark.binder import bind
    from jms_selector_spark.language import nodes
    from jms_selector_spark.parsing import parse

    bound = bind(parse("color = 'x' AND w * 2 > 40 AND w BETWEEN 1 AND 9 AND color LIKE 'a%'"),
                 {"color": "string", "w": "long"})
    SparkSqlGenerator(bound).generate()
    assert sum(getattr(x, "types", None) is not None for x in nodes.walk(bound.core)) == 4  # =, *, >, BETWEEN
    assert bound.types._types is None   # still not computed


# -- issue #12: each static type the SQL generator renders rides on the core node ---------------

def _generator(text, schema, dialect="jms"):
    from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
    from jms_selector_spark.binder import bind
    from jms_selector_spark.parsing import parse

    bound = bind(parse(text, dialect=dialect), schema)
    return bound.core, SparkSqlGenerator(bound)


def test_a_comparison_over_arithmetic_carries_the_computed_type_and_the_sql_follows_it():
    """`Compute.types` decides the computation and the casts; `Compare.types` over arithmetic
    (what it computes in) decides the comparison, its casts and its NaN guards."""
    import dataclasses

    from jms_selector_spark.backends.sql.fragment import unmark

    root, gen = _generator("w * 2 < p", {"w": "long", "p": "double"})
    product = root.left
    assert root.types == (T.LONG, T.DOUBLE) and product.types == (T.LONG, T.LONG)
    sql = gen.sql(root)
    # the long product cast to double; a NaN p on the greater side of < needs its guard
    assert "AS BIGINT) AS DOUBLE)" in sql and "isnan(`p`)" in sql
    assert "pmod(" in gen.visit(product).sql   # a long product wraps
    as_double = dataclasses.replace(product, types=(T.DOUBLE, T.LONG))   # computed in double: no wrap
    assert unmark(gen.visit(as_double).sql)[0] == "(`w` * 2.0D)"
    both_double = dataclasses.replace(root, types=(T.DOUBLE, T.DOUBLE))   # no cast of the left operand
    assert "AS BIGINT) AS DOUBLE)" not in gen.sql(both_double)
    exact = dataclasses.replace(root, types=(T.LONG, T.LONG))   # compared as longs: no NaN guard
    assert "isnan" not in gen.sql(exact)
    null = dataclasses.replace(root, types=(T.NULL, T.DOUBLE))   # an operand always NULL: UNKNOWN
    assert gen.sql(null) == "CAST(NULL AS BOOLEAN)"


def test_signs_carry_their_operand_type_and_the_sql_follows_it():
    import dataclasses

    root, gen = _generator("-q > 1 AND +w > 1", {"q": "int", "w": "long"})
    neg, plus = root.operands[0].left, root.operands[1].left
    assert (neg.operand_type, plus.operand_type) == (T.INT, T.LONG)
    assert "shiftleft" in gen.visit(neg).sql   # -INT_MIN wraps
    assert gen.visit(dataclasses.replace(neg, operand_type=T.DOUBLE)).sql == "(-(`q`))"
    assert gen.visit(dataclasses.replace(neg, operand_type=T.STRING)).sql == "CAST(NULL AS DOUBLE)"
    assert gen.visit(plus).sql == "`w`"
    assert gen.visit(dataclasses.replace(plus, operand_type=T.STRING)).sql == "CAST(NULL AS STRING)"


def test_is_null_truth_and_function_arguments_take_the_static_type_of_the_node():
    """IS NULL, a bare operand's truth and ActiveMQ's functions ask `core.static_type`: change
    what the node says (its carried types, a column's type), the SQL follows."""
    import dataclasses

    from jms_selector_spark.language import nodes

    root, gen = _generator("w * 2 IS NULL", {"w": "long"})
    assert gen.sql(root).endswith(" AS BIGINT) IS NULL")
    always_null = nodes.IsNull(dataclasses.replace(root.operand, types=(T.NULL, T.LONG)), False)
    assert gen.sql(always_null) == "TRUE"
    root, gen = _generator("b", {"b": "boolean"})
    assert gen.sql(root) == "`b`"
    gen.columns = {"b": T.LONG}   # a long in a boolean place: FALSE (UNKNOWN when NULL)
    assert gen.sql(root) == "IF(`b` IS NULL, CAST(NULL AS BOOLEAN), FALSE)"
    root, gen = _generator("REGEX('a.*', w)", {"w": "long"}, "activemq")
    assert "CAST(`w` AS STRING)" in gen.sql(root)
    gen.columns = {"w": T.STRING}
    assert "CAST(`w` AS STRING)" not in gen.sql(root)


@pytest.mark.parametrize("text, dialect, folded", [
    ("w / 0 IS NULL AND q / 0 = 1", "jms", True),   # Java integer / 0: no value, whatever x is
    ("(w + q) / 0 > 1", "jms", True),
    ("-q / 0 < 1", "qpid-cpp", True),               # 64-bit integers
    ("w / 0 > 1", "activemq", False),               # 5 / 0 is a double there (Infinity)
    ("p / 0 > 1", "jms", False),                    # IEEE: Infinity or NaN
    ("w / 0.0 > 1", "jms", False),
])
def test_integer_division_by_a_literal_zero_folds_to_null(text, dialect, folded):
    """Lowering folds integer ``x / 0`` and ``x % 0`` of a static ``x`` to NULL (the value every
    back end gave at run time), so no operand's carried type differs from its value's; the
    reference interpreter and the Arrow evaluator give the same on the folded core as on the
    unfolded one."""
    import pyarrow as pa

    from jms_selector_spark.backends.arrow.evaluator import VectorizedEvaluator, broadcast, evaluate_batch
    from jms_selector_spark.binder import bind
    from jms_selector_spark.language import nodes
    from jms_selector_spark.parsing import parse
    from jms_selector_spark.interpreter import ReferenceInterpreter
    from jms_selector_spark.semantics.lowering import lower
    from jms_selector_spark.semantics.values import TypedValue

    schema = {"w": "long", "q": "int", "p": "double"}
    sel = parse(text, dialect=dialect)
    bound = bind(sel, schema)
    computes = [x for x in nodes.walk(bound.core) if type(x) is core_compute() and x.op in (A.DIVIDE, A.MODULO)]
    assert bool(computes) is not folded
    types = {"w": T.LONG, "q": T.INT, "p": T.DOUBLE}
    rows = [{"w": 7, "q": -3, "p": 2.5}, {"w": None, "q": 0, "p": None}, {"w": -9223372036854775808, "q": None, "p": 0.0}]
    unfolded = lower(sel.root, rules_for(sel.dialect))
    for row in rows:
        get = {k: None if v is None else TypedValue(types[k], v) for k, v in row.items()}.get
        assert (ReferenceInterpreter(get, sel.dialect).truth(bound.core)
                == ReferenceInterpreter(get, sel.dialect).truth(unfolded)), row
    cols = {k: (types[k], pa.array([r[k] for r in rows], pa.float64() if k == "p" else pa.int64())) for k in types}
    arrow = broadcast(VectorizedEvaluator(cols, len(rows)).truth(bound.core), len(rows))
    assert arrow.to_pylist() == evaluate_batch(sel, cols, len(rows)).to_pylist()


def core_compute():
    from jms_selector_spark.semantics import core

    return core.Compute
