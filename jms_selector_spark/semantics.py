"""Scalar JMS semantics: comparison, arithmetic, truth — one function per rule, per dialect.

The reference interpreter is these functions applied one value at a time; the vectorized and SQL
back ends implement the same rules over columns and are tested against them. Values are
`TypedValue` or None (NULL); truth values are True, False or None (UNKNOWN).
"""
from __future__ import annotations

import math

from . import javanum as jn
from .dialects import Dialect
from .nodes import ArithOp, CompareOp
from .types import JmsType, promote
from .values import TypedValue

__all__ = ["truth", "compare", "java_equals", "arithmetic", "arithmetic_type", "negate", "identity", "kleene_and", "kleene_or", "kleene_not"]

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


def _common_type(lt: JmsType, rt: JmsType, d: Dialect) -> "JmsType | None":
    if d.comparison_promotion is None:
        return promote(lt, rt)
    return d.comparison_promotion.get((lt, rt))


def compare(op: CompareOp, lv, rv, d: Dialect) -> "bool | None":
    """``lv op rv``: UNKNOWN if an operand is NULL, FALSE for unlike types, else the comparison.

    With ``d.ne_is_not_eq``, ``<>`` is ``NOT =`` (so unlike types give TRUE); with
    ``d.null_equality == "activemq"`` equality treats NULL as ActiveMQ does (see `Dialect`).
    """
    if op is CompareOp.NE and d.ne_is_not_eq:
        return kleene_not(compare(CompareOp.EQ, lv, rv, d))
    if lv is None or rv is None:
        if op is CompareOp.EQ and d.null_equality == "activemq" and lv is not None:
            return False
        if op is CompareOp.EQ and d.null_equality == "activemq" and rv is None:
            return True
        return None
    if not isinstance(lv.type, JmsType) or not isinstance(rv.type, JmsType):
        # A function's list value (ActiveMQ's SPLIT / MAKELIST): `=` is List.equals (element-wise),
        # anything else with a list is FALSE (ActiveMQ cannot order a list: it throws).
        return op is CompareOp.EQ and java_equals(lv, rv)
    lf, rf = lv.type.family, rv.type.family
    if lf != rf and d.convert_string_expressions and "string" in (lf, rf):
        return compare_converted(op, lv, rv, d)
    if lf != rf:
        return False
    if lf == "numeric":
        t = _common_type(lv.type, rv.type, d)
        if t is None:
            return False
        if t.is_approximate:
            if t is JmsType.FLOAT:  # Java converts an int/long to float in one rounding
                a, b = jn.as_java_float(lv.value), jn.as_java_float(rv.value)
            else:
                a, b = float(lv.value), float(rv.value)
            if d.compare_to_doubles:
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
    # strings and booleans
    if not op.is_ordering:
        eq = lv.value == rv.value
        return eq if op is CompareOp.EQ else not eq
    if not d.string_ordering:
        return False
    if lf == "string":
        a, b = _utf16(lv.value), _utf16(rv.value)
    else:
        a, b = lv.value, rv.value
    return _order(op, (a > b) - (a < b))


def string_conversion(lt: JmsType, rt: JmsType) -> "tuple[str, JmsType] | None":
    """ActiveMQ's ``convert_string_expressions`` rule for a string compared with a number or a
    boolean (``ComparisonExpression.compare``): ``("left", T)`` or ``("right", T)`` — which side
    is converted with ``T.valueOf(String)`` (the other side's class) — or ``("error", None)``
    when ActiveMQ throws (a boolean on the left: it casts the Boolean to String), or None when
    the pair is not a string against a number or boolean."""
    if lt is JmsType.STRING and (rt.is_numeric or rt is JmsType.BOOLEAN):
        return ("left", rt)
    if rt is JmsType.STRING and lt.is_numeric:
        return ("right", lt)
    if rt is JmsType.STRING and lt is JmsType.BOOLEAN:
        return ("error", None)
    return None


def compare_converted(op: CompareOp, lv: TypedValue, rv: TypedValue, d: Dialect) -> "bool | None":
    """``lv op rv`` for a string against a number or boolean under ``convert_string_expressions``:
    the string becomes the other side's class (`javanum.java_value_of`); text Java cannot read
    (NumberFormatException) compares FALSE; a boolean on the left is an ActiveMQ error (UNKNOWN)."""
    rule = string_conversion(lv.type, rv.type)
    if rule is None:
        return False
    side, t = rule
    if side == "error":
        return None
    text = lv.value if side == "left" else rv.value
    value = jn.java_value_of(text, t.value)
    if value is None:
        return False
    conv = TypedValue(t, value)
    return compare(op, conv, rv, d) if side == "left" else compare(op, lv, conv, d)


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


def arithmetic_type(lt: JmsType, rt: JmsType, d: Dialect) -> JmsType:
    """The type ``lt op rt`` computes in (Java promotion; ActiveMQ computes floats in double)."""
    t = promote(lt, rt)
    if t is JmsType.FLOAT and d.float_arithmetic_as_double:
        return JmsType.DOUBLE
    return t


def _num(t: JmsType, value) -> TypedValue:
    return TypedValue(t, value)


def arithmetic(op: ArithOp, lv, rv, d: Dialect) -> "TypedValue | None":
    """``lv op rv`` with Java promotion and wraparound; NULL for NULL or non-numeric operands."""
    if lv is None or rv is None:
        return None
    if op is ArithOp.PLUS and d.string_concatenation and lv.type is JmsType.STRING:
        return TypedValue(JmsType.STRING, lv.value + java_string(rv, d.jdk))
    if not (isinstance(lv.type, JmsType) and isinstance(rv.type, JmsType)
            and lv.type.is_numeric and rv.type.is_numeric):
        return None
    t = arithmetic_type(lv.type, rv.type, d)
    a, b = lv.value, rv.value
    if op is ArithOp.MODULO and d.integer_division == "double":
        t = JmsType.DOUBLE  # ActiveMQ computes % in double too (7 % 0 is NaN)
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
    if op is ArithOp.DIVIDE:
        if d.integer_division == "double":
            return _num(JmsType.DOUBLE, jn.java_ddiv(float(a), float(b)))
        if b == 0:
            return None
        return _num(t, wrap(jn.java_idiv(a, b)))
    if b == 0:  # Java throws ArithmeticException: no value
        return None
    return _num(t, jn.java_irem(a, b))


def negate(v, d: Dialect) -> "TypedValue | None":
    """Unary minus: Java promotion (byte/short → int), wraparound; NULL for non-numerics."""
    if v is None or not isinstance(v.type, JmsType) or not v.type.is_numeric:
        return None
    if v.type.is_approximate:
        return TypedValue(v.type, -v.value)
    t = JmsType.LONG if v.type is JmsType.LONG else JmsType.INT
    wrap = jn.wrap_long if t is JmsType.LONG else jn.wrap_int
    return TypedValue(t, wrap(-v.value))


def identity(v, d: Dialect) -> "TypedValue | None":
    """Unary plus: numbers unchanged; other values pass through only where the dialect says so."""
    if v is None or d.unary_plus_identity or (isinstance(v.type, JmsType) and v.type.is_numeric):
        return v
    return None


def java_string(v: TypedValue, jdk: int = 17) -> str:
    """``String.valueOf`` of a JMS value (for ActiveMQ's string concatenation), floating values
    as Java ``jdk`` prints them (`Dialect.jdk`)."""
    if v.type is JmsType.BOOLEAN:
        return "true" if v.value else "false"
    if v.type is JmsType.DOUBLE:
        return jn.java_number_str(v.value, is_float=False, jdk=jdk)
    if v.type is JmsType.FLOAT:
        return jn.java_number_str(v.value, is_float=True, jdk=jdk)
    if not isinstance(v.type, JmsType):  # an ActiveMQ list: AbstractCollection.toString
        return "[" + ", ".join("null" if x is None else java_string(x, jdk) for x in v.value) + "]"
    return str(v.value)
