"""Scalar JMS semantics: comparison, arithmetic, truth, one value at a time.

The reference interpreter is these functions applied node by node. Which rule applies (the
comparison type, the arithmetic type, NULL handling) is decided by `lowering`, and carried by the
core nodes (`core`) as data (a `decisions.Comparator`, a `decisions.Computation`...); this module
only carries the decision out on Python values, as the vectorized and SQL back ends do over
columns (and are tested against it). Values are `TypedValue` or None (NULL); truth values are
True, False or None (UNKNOWN).
"""
from __future__ import annotations

from ..language.nodes import ArithOp, CompareOp
from . import core as c
from . import javanum as jn
from .like import segments_matcher
from .decisions import Comparator, Computation, NumericOrder, Order
from ..language import nodes as n
from ..language.types import JmsType
from .values import TypedValue

__all__ = ["truth", "compare", "unlike_types", "java_equals", "arithmetic", "negate", "identity", "kleene_and", "kleene_or", "kleene_not",
           "left_first_and", "left_first_or", "two_valued_between", "inside_between", "outside_between",
           "in_strings", "like", "apply"]

_BOOL = JmsType.BOOLEAN


def truth(v: "TypedValue | None") -> "bool | None":
    """A value in a boolean context: NULL is UNKNOWN, a boolean is itself, anything else FALSE
    (ActiveMQ's boolean cast of a bare property)."""
    if v is None:
        return None
    if v.type is _BOOL:
        return v.value
    return False


def kleene_not(t):
    return None if t is None else not t


def kleene_and(ts):
    unknown = False
    for t in ts:
        if t is False:
            return False
        if t is None:
            unknown = True
    return None if unknown else True


def kleene_or(ts):
    unknown = False
    for t in ts:
        if t is True:
            return True
        if t is None:
            unknown = True
    return None if unknown else False


def left_first_and(ts):
    """ActiveMQ r450141's AND folded left: the first operand that is not TRUE, else TRUE."""
    for t in ts:
        if t is not True:
            return t
    return True


def left_first_or(ts):
    """ActiveMQ r450141's OR folded left: TRUE when any operand is, else the last one's value."""
    ts = list(ts)
    return True if True in ts else ts[-1]


def _order(op: CompareOp, c: int) -> bool:
    return {
        CompareOp.EQ: c == 0,
        CompareOp.NE: c != 0,
        CompareOp.LT: c < 0,
        CompareOp.GT: c > 0,
        CompareOp.LE: c <= 0,
        CompareOp.GE: c >= 0,
    }[op]


def _utf16(s: str) -> bytes:
    return s.encode("utf-16-be", "surrogatepass")


def compare(cmp: Comparator, lv, rv) -> "bool | None":
    """``lv op rv`` as the `decisions.Comparator` ``cmp`` decides: UNKNOWN if an operand is NULL
    (unless ``=`` is NULL-aware), FALSE for unlike types, else the comparison in the type it names."""
    if cmp.eq is not None:
        return kleene_not(compare(cmp.eq, lv, rv))
    op = cmp.op
    if lv is None or rv is None:
        nulls = cmp.nulls
        if nulls is None:
            return None
        return nulls.both if lv is None and rv is None else nulls.left if lv is None else nulls.right
    if not isinstance(lv.type, JmsType) or not isinstance(rv.type, JmsType):
        # A function's list value (ActiveMQ's SPLIT / MAKELIST): `=` is List.equals (element-wise),
        # anything else with a list is FALSE (ActiveMQ cannot order a list: it throws).
        return op is CompareOp.EQ and java_equals(lv, rv)
    conversion = cmp.conversion(lv.type, rv.type)
    if conversion is not None:
        return compare_converted(cmp, lv, rv, conversion)
    rule = cmp.rule(lv.type, rv.type)
    if rule is Order.FALSE:
        return False
    if rule is Order.TRUE:
        return True
    if rule is Order.UNKNOWN:
        return None
    if isinstance(rule, NumericOrder):
        t = rule.type
        if t.is_approximate:
            if t is JmsType.FLOAT:  # Java converts an int/long to float in one rounding
                a, b = jn.as_java_float(lv.value), jn.as_java_float(rv.value)
            else:
                a, b = float(lv.value), float(rv.value)
            if rule.total:
                return _order(op, jn.compare_to(a, b))
            return {
                CompareOp.EQ: a == b,
                CompareOp.NE: a != b,
                CompareOp.LT: a < b,
                CompareOp.GT: a > b,
                CompareOp.LE: a <= b,
                CompareOp.GE: a >= b,
            }[op]
        a, b = lv.value, rv.value
        return _order(op, (a > b) - (a < b))
    if rule is Order.UTF16:
        a, b = _utf16(lv.value), _utf16(rv.value)
    else:
        a, b = lv.value, rv.value
    return _order(op, (a > b) - (a < b))


def compare_converted(cmp: Comparator, lv: TypedValue, rv: TypedValue, conversion) -> "bool | None":
    """``lv op rv`` for a string against a number or boolean under ``convert_string_expressions``
    (``conversion`` is `Comparator.conversion`'s decision): the string becomes the other side's
    class (`javanum.java_value_of`); text Java cannot read (NumberFormatException) compares FALSE;
    a boolean on the left is an ActiveMQ error (UNKNOWN)."""
    side, t = conversion
    if side == "error":
        return None
    text = lv.value if side == "left" else rv.value
    value = jn.java_value_of(text, t.value)
    if value is None:
        return False
    conv = TypedValue(t, value)
    return compare(cmp, conv, rv) if side == "left" else compare(cmp, lv, conv)


def unlike_types(lv, rv, value: bool) -> "bool | None":
    """`core.UnlikeTypes`: UNKNOWN when an operand is NULL, else ``value``."""
    return None if lv is None or rv is None else value


def java_equals(a: TypedValue, b: TypedValue) -> bool:
    """``a.equals(b)`` of the boxed Java values: the same class and value. ``Double.equals`` and
    ``Float.equals`` hold NaN equal to itself and 0.0 unequal to -0.0; lists (ActiveMQ's function
    values) are equal element by element, as ``List.equals`` says."""
    if a.type != b.type:
        return False
    if not isinstance(a.type, JmsType):  # lists
        if len(a.value) != len(b.value):
            return False
        return all((x is None and y is None) or (x is not None and y is not None and java_equals(x, y))
                   for x, y in zip(a.value, b.value))
    if a.type.is_approximate:
        return jn.compare_to(a.value, b.value) == 0
    return a.value == b.value


def _num(t: JmsType, value) -> TypedValue:
    return TypedValue(t, value)


def arithmetic(how: Computation, lv, rv) -> "TypedValue | None":
    """``lv op rv`` in the type the `decisions.Computation` ``how`` names: Java promotion and
    wraparound, IEEE floating arithmetic, or string concatenation; NULL for NULL or non-numeric
    operands."""
    if lv is None or rv is None:
        return None
    op = how.op
    t = how.result(lv.type, rv.type)
    if t is None:
        return None
    if t is JmsType.STRING:
        return TypedValue(JmsType.STRING, lv.value + java_string(rv, how.text_jdk))
    a, b = lv.value, rv.value
    if t.is_approximate:
        # Each operand is converted to the computation type first (int -> float is one rounding)
        a, b = (jn.as_java_float(a), jn.as_java_float(b)) if t is JmsType.FLOAT else (float(a), float(b))
        if op is ArithOp.PLUS:
            r = a + b
        elif op is ArithOp.MINUS:
            r = a - b
        elif op is ArithOp.TIMES:
            r = a * b
        elif op is ArithOp.DIVIDE:
            r = jn.java_ddiv(a, b)
        else:
            r = jn.java_drem(a, b)
        # Java float arithmetic: the exact double result of two floats, rounded to float, is
        # what float arithmetic gives for + - * / (and %), since double has > 2×24+2 bits.
        return _num(t, jn.to_float32(r) if t is JmsType.FLOAT else r)
    wrap = jn.wrap_int if t is JmsType.INT else jn.wrap_long
    if op is ArithOp.PLUS:
        return _num(t, wrap(a + b))
    if op is ArithOp.MINUS:
        return _num(t, wrap(a - b))
    if op is ArithOp.TIMES:
        return _num(t, wrap(a * b))
    if b == 0:  # Java throws ArithmeticException: no value
        return None
    if op is ArithOp.DIVIDE:
        return _num(t, wrap(jn.java_idiv(a, b)))
    return _num(t, jn.java_irem(a, b))


def negate(v, computes_in) -> "TypedValue | None":
    """Unary minus in the type ``computes_in(v.type)`` names (`core.Negate.computes_in`; Java:
    byte/short → int), wraparound; NULL for non-numerics."""
    if v is None or not isinstance(v.type, JmsType) or not v.type.is_numeric:
        return None
    t = computes_in(v.type)
    if t.is_approximate:
        return TypedValue(t, -float(v.value))
    wrap = jn.wrap_long if t is JmsType.LONG else jn.wrap_int
    return TypedValue(t, wrap(-v.value))


def identity(v, keeps_any: bool) -> "TypedValue | None":
    """Unary plus: numbers unchanged; other values pass through only when ``keeps_any``."""
    if v is None or keeps_any or (isinstance(v.type, JmsType) and v.type.is_numeric):
        return v
    return None


def java_string(v: TypedValue, jdk: int = 17) -> str:
    """``String.valueOf`` of a JMS value (for ActiveMQ's string concatenation), floating values
    as Java ``jdk`` prints them (`Rules.text_jdk`)."""
    if v.type is JmsType.BOOLEAN:
        return "true" if v.value else "false"
    if v.type is JmsType.DOUBLE:
        return jn.java_number_str(v.value, is_float=False, jdk=jdk)
    if v.type is JmsType.FLOAT:
        return jn.java_number_str(v.value, is_float=True, jdk=jdk)
    if not isinstance(v.type, JmsType):  # an ActiveMQ list: AbstractCollection.toString
        return "[" + ", ".join("null" if x is None else java_string(x, jdk) for x in v.value) + "]"
    return str(v.value)


# -- predicates, and one node given its operand values -----------------------------------------------

def two_valued_between(v, lo, hi, negated: bool, ge: Comparator, le: Comparator) -> "bool | None":
    """`core.TwoValuedBetween`: FALSE when an operand is NULL, else ``v >= lo AND v <= hi``;
    negated, the negation."""
    if v is None or lo is None or hi is None:
        t = False
    else:
        t = compare(ge, v, lo) and compare(le, v, hi)
    return (not t) if negated else t


def inside_between(v, lo, hi, negated: bool, left_first: bool, ge: Comparator, le: Comparator) -> "bool | None":
    """`core.InsideBetween`: ``v >= lo AND v <= hi`` (left-first or Kleene AND); negated, its NOT."""
    pair = [compare(ge, v, lo), compare(le, v, hi)]
    t = left_first_and(pair) if left_first else kleene_and(pair)
    return kleene_not(t) if negated else t


def outside_between(v, lo, hi, left_first: bool, lt: Comparator, gt: Comparator) -> "bool | None":
    """`core.OutsideBetween`: ``v < lo OR v > hi`` (left-first or Kleene OR)."""
    pair = [compare(lt, v, lo), compare(gt, v, hi)]
    return left_first_or(pair) if left_first else kleene_or(pair)


def in_strings(v, values: tuple, negated: bool, non_string: "bool | None") -> "bool | None":
    """`core.InStrings`: UNKNOWN for NULL, membership for a string, ``non_string`` otherwise."""
    if v is None:
        return None
    if v.type is not JmsType.STRING:
        return non_string
    t = v.value in values
    return (not t) if negated else t


def like(v, segments: tuple, negated: bool, non_string: "bool | None") -> "bool | None":
    """`core.LikeString`: UNKNOWN for NULL, the match of the pattern planned as ``segments``
    (`like.like_segments`) for a string, ``non_string`` otherwise."""
    if v is None:
        return None
    if v.type is not JmsType.STRING:
        return non_string
    t = segments_matcher(segments).matches(v.value)
    return (not t) if negated else t


def _bool(t) -> "TypedValue | None":
    return None if t is None else TypedValue(_BOOL, t)


def apply(node: n.Node, values: list) -> "TypedValue | None":
    """The value of the core node ``node`` given the values of its operands (`nodes.children`
    order).

    The reference interpreter is this applied bottom up; `lowering.lower` folds constant nodes
    with it (so no back end computes a constant). Function calls are `functions.call_function`
    (which builds on this module).
    """
    t = type(node)
    if t is n.Not:
        return _bool(kleene_not(truth(values[0])))
    if t is c.KleeneAnd:
        return _bool(kleene_and([truth(v) for v in values]))
    if t is c.KleeneOr:
        return _bool(kleene_or([truth(v) for v in values]))
    if t is c.LeftFirstAnd:
        return _bool(left_first_and([truth(v) for v in values]))
    if t is c.LeftFirstOr:
        return _bool(left_first_or([truth(v) for v in values]))
    if t is c.Compare:
        return _bool(compare(node.cmp, values[0], values[1]))
    if t is c.UnlikeTypes:
        return _bool(unlike_types(values[0], values[1], node.value))
    if t is c.Compute:
        return arithmetic(node.how, values[0], values[1])
    if t is c.Negate:
        return negate(values[0], node.computes_in)
    if t is c.Plus:
        return identity(values[0], node.keeps_any)
    if t is c.TwoValuedBetween:
        return _bool(two_valued_between(*values, node.negated, node.low_cmp, node.high_cmp))
    if t is c.InsideBetween:
        return _bool(inside_between(*values, node.negated, node.left_first, node.low_cmp, node.high_cmp))
    if t is c.OutsideBetween:
        return _bool(outside_between(*values, node.left_first, node.low_cmp, node.high_cmp))
    if t is c.InStrings:
        return _bool(in_strings(values[0], tuple(lit.value for lit in node.values), node.negated, node.non_string))
    if t is c.LikeString:
        return _bool(like(values[0], node.segments, node.negated, node.non_string))
    if t is n.IsNull:
        return _bool((values[0] is None) != node.negated)
    raise TypeError(f"no scalar rule for {t.__name__} (not a core node: lower the tree first)")
