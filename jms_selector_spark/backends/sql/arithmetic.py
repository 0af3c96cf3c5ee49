"""Arithmetic, string conversion and ActiveMQ functions for the Spark SQL back end.

`SqlArithmetic` is a part of `sql.generator.SparkSqlGenerator` (a mixin: it uses the generator's
``rules``, ``visit``, ``_shared`` and ``_is_leaf``). Integer ``+ - * /`` wrap as Java does (int
via 64-bit shifts, long via DECIMAL(38,0) and ``pmod``) unless a bound shows they cannot
overflow; float/double division and remainder follow IEEE (``x/0`` is ±Infinity or NaN); string
concatenation takes Spark's text of integers and booleans (Java's); ``REGEX``/``REPLACE`` run
only regexes in the subset where java.util.regex and Python's re agree, ``INLIST`` only over
``MAKELIST`` of non-approximate values. Anything else raises `UnsupportedSelectorError` (the
caller falls back to the vectorized evaluator).

Types come from the core node: `core.Compute.types`, `Negate`/`Plus` ``operand_type``, and
`core.static_type` of a function's arguments. Only where lowering could not type an operand (it
reads a VARIANT property, or is a function's value) is its type the one rendered in the current
VARIANT branch (`SparkSqlGenerator._branch_types`, `_type_of`).
"""
from __future__ import annotations

import math
import re

from ...language import nodes as n
from ...language.errors import UnsupportedSelectorError
from ...semantics.functions import LIST
from ...language.types import JmsType
from .render import SQL_FALSE, SQL_NULL, SPARK_TYPES, V, bool_v, neg_zero_test, sql_string

__all__ = ["SqlArithmetic"]

T = JmsType
A = n.ArithOp

_TWO63 = "9223372036854775808"
_TWO64 = "18446744073709551616"
_LIMIT = {T.INT: 2**31 - 1, T.LONG: 2**63 - 1}


# -- regexes that mean the same in java.util.regex and Python's re --------------------------------

_SAFE_REGEX = re.compile(r"""(?:[^\\\[\](){}?*+|^$.&]|\\[.\\\[\](){}?*+|^$dDsSwW/\-]|[().|^$]|[?*+](?![?+])
    |\{\d+(?:,\d*)?\}(?![?+])|\[\^?\]?(?:[^\\\[\]&]|\\[\\\]\[\-^dDsSwW])*\])*""", re.X)


def _portable_regex(p: str) -> bool:
    if "(?" in p or not _SAFE_REGEX.fullmatch(p):
        return False
    try:
        re.compile(p)
    except re.error:
        return False
    return True


class SqlArithmetic:
    """The arithmetic and function visitors of `sql.generator.SparkSqlGenerator`; each returns a `V`."""

    # -- arithmetic -----------------------------------------------------------------------------
    def visit_Plus(self, node) -> V:
        v = self.visit(node.operand)
        vt = node.operand_type  # static: lowering recorded it; else this branch's
        if vt is None:
            vt = self._branch_types(v)[0]
        if vt is T.NULL or node.keeps_any or vt.is_numeric:
            return v
        return V(f"CAST(NULL AS {SPARK_TYPES.get(vt, 'STRING')})", T.NULL)

    def visit_Negate(self, node) -> V:
        v = self.visit(node.operand)
        vt = node.operand_type  # static: lowering recorded it; else this branch's
        if vt is None:
            vt = self._branch_types(v)[0]
        if vt is T.NULL or not vt.is_numeric:
            return V("CAST(NULL AS DOUBLE)", T.NULL)
        t = node.computes_in(vt)
        if t is T.DOUBLE and vt is not T.DOUBLE:
            return V(f"(-CAST({v.sql} AS DOUBLE))", t, v.nullable)
        if t.is_approximate:
            return V(f"(-({v.sql}))", t, v.nullable)
        if t is T.LONG:
            self.decimal = True
            return V(_wrap64(f"-CAST({v.sql} AS DECIMAL(20,0))"), T.LONG, v.nullable)
        if vt is T.INT:
            return V(_wrap32(f"-CAST({v.sql} AS BIGINT)"), T.INT, v.nullable)
        return V(f"(-CAST({v.sql} AS INT))", T.INT, v.nullable)

    def visit_Compute(self, node) -> V:
        l, r = self.visit(node.left), self.visit(node.right)
        op = node.op
        types = node.types  # static: the pair lowering recorded (`core.Compute.types`); else this branch's
        if types is None:
            types = self._branch_types(l, r)
        if T.NULL in types:
            return V("CAST(NULL AS DOUBLE)", T.NULL)
        lt, rt = types
        t = node.how.result(lt, rt)
        if t is T.STRING:
            if rt is T.STRING:
                rs = r.sql
            elif rt.is_exact or rt is T.BOOLEAN:
                rs = f"CAST({r.sql} AS STRING)"
            else:
                raise UnsupportedSelectorError(
                    "string + float/double needs Java's number formatting", "", node.span)
            return V(f"concat({l.sql}, {rs})", T.STRING, l.nullable or r.nullable)
        if t is None:
            return V("CAST(NULL AS DOUBLE)", T.NULL)
        nullable = l.nullable or r.nullable
        if t.is_approximate:
            a, b = self.cast(l, lt, t), self.cast(r, rt, t)
            if op is A.DIVIDE:
                if t is T.FLOAT:
                    return self._shared(lambda r: V(f"CAST({_ddiv(self.cast(l, lt, T.DOUBLE), r, self.cast(r, rt, T.DOUBLE))} AS FLOAT)",
                                                    t, nullable), r)
                return self._shared(lambda r: V(_ddiv(a, r, self.cast(r, rt, t)), t, nullable), r)
            if op is A.MODULO:
                if t is T.FLOAT:
                    return self._shared(lambda r: V(f"CAST({_drem(self.cast(l, lt, T.DOUBLE), r, self.cast(r, rt, T.DOUBLE))} AS FLOAT)",
                                                    t, nullable), r)
                return self._shared(lambda r: V(_drem(a, r, self.cast(r, rt, t)), t, nullable), r)
            return V(f"({a} {op.value} {b})", t, nullable)
        if t is T.INT:
            a, b = f"CAST({l.sql} AS BIGINT)", f"CAST({r.sql} AS BIGINT)"
            if op is A.DIVIDE:
                if r.is_const and r.lit == 0:
                    return V("CAST(NULL AS INT)", T.NULL)
                return V(_wrap32(f"{a} div {_nonzero(r, b)}"), T.INT, True)
            if op is A.MODULO:
                if r.is_const and r.lit == 0:
                    return V("CAST(NULL AS INT)", T.NULL)
                return V(f"CAST({a} % {_nonzero(r, b)} AS INT)", T.INT, True)
            exact = _no_overflow(op, l, r, T.INT, types)
            if exact is not None:  # cannot overflow: plain arithmetic, nothing to wrap
                return V(f"(CAST({l.sql} AS INT) {op.value} CAST({r.sql} AS INT))", T.INT, nullable, bound=exact)
            return V(_wrap32(f"{a} {op.value} {b}"), T.INT, nullable)
        # LONG
        a, b = f"CAST({l.sql} AS BIGINT)", f"CAST({r.sql} AS BIGINT)"
        if op in (A.DIVIDE, A.MODULO):
            self.decimal = True  # the division's wrap (MIN_VALUE / -1) is DECIMAL arithmetic
            if r.is_const and r.lit == 0:
                return V("CAST(NULL AS BIGINT)", T.NULL)
            if op is A.MODULO:
                return V(f"({a} % {_nonzero(r, b)})", T.LONG, True)
            neg = _wrap64(f"-CAST({l.sql} AS DECIMAL(20,0))")
            if r.is_const:
                return V(neg if r.lit == -1 else f"({a} div {b})", T.LONG, nullable)
            if not self._is_leaf(l):  # l once: divide by 1 instead of -1, then negate (wrapping)
                return self._shared(lambda r: V(_ldiv(a, f"CAST({r.sql} AS BIGINT)"), T.LONG, True), r)
            return self._shared(lambda r: V(f"CASE WHEN CAST({r.sql} AS BIGINT) = -1 THEN {neg} ELSE {a} div "
                                            f"nullif(CAST({r.sql} AS BIGINT), 0) END", T.LONG, True), r)
        exact = _no_overflow(op, l, r, T.LONG, types)
        if exact is not None:  # e.g. an int column times a small literal: plain BIGINT arithmetic
            return V(f"({a} {op.value} {b})", T.LONG, nullable, bound=exact)
        self.decimal = True
        return V(_wrap64(f"CAST({l.sql} AS DECIMAL(20,0)) {op.value} CAST({r.sql} AS DECIMAL(20,0))"),
                 T.LONG, nullable)

    # -- ActiveMQ functions -----------------------------------------------------------------------
    def visit_Call(self, node) -> V:
        name, args = node.name, node.args
        if name == "REGEX" and len(args) == 2:
            pat, val = args
            if not (isinstance(pat, n.Literal) and pat.type is T.STRING and _portable_regex(pat.value)):
                raise UnsupportedSelectorError("REGEX needs a literal pattern in the Java/Python common subset",
                                               "", node.span)
            v = self.visit(val)
            vt = self._type_of(val, v)
            if vt is T.NULL:
                return SQL_FALSE
            v = _java_text(v, vt, node)
            p = f"{v.op()} RLIKE {sql_string(pat.value)}"
            return bool_v(f"coalesce({p}, FALSE)", False, True) if v.nullable else bool_v(p, False)
        if name == "INLIST" and len(args) == 2 and _list_items(args[0]) is not None:
            # List.contains: TRUE when a (non-NULL) element has v's class and value; a NULL v is
            # FALSE. A NULL element just never matches (`coalesce(v IN (…, NULL), FALSE)`).
            item_nodes = _list_items(args[0])
            items = [self.visit(a) for a in item_nodes]
            v = self.visit(args[1])
            vt = self._type_of(args[1], v)
            if vt is T.NULL:
                return SQL_FALSE
            item_types = [self._type_of(a, x) for a, x in zip(item_nodes, items)]
            if any(not t.is_static or t.is_approximate for t in item_types + [vt] if t is not T.NULL):
                raise UnsupportedSelectorError("INLIST over approximate values", "", node.span)
            same = [x for x, t in zip(items, item_types) if t is vt]
            if not same:
                return SQL_FALSE
            found = f"{v.op()} IN ({', '.join(x.sql for x in same)})"
            if v.nullable or any(x.nullable for x in same):
                return bool_v(f"coalesce({found}, FALSE)", False, True)
            return bool_v(found, False)
        if name == "REPLACE" and len(args) == 3:
            text, rx, repl = args
            if not (isinstance(rx, n.Literal) and rx.type is T.STRING and _portable_regex(rx.value)
                    and isinstance(repl, n.Literal) and repl.type is T.STRING
                    and "$" not in repl.value and "\\" not in repl.value):
                raise UnsupportedSelectorError("REPLACE needs a literal regex and a plain replacement", "", node.span)
            v = self.visit(text)
            vt = self._type_of(text, v)
            if vt is T.NULL:
                return SQL_NULL
            v = _java_text(v, vt, node)
            return V(f"regexp_replace({v.sql}, {sql_string(rx.value)}, {sql_string(repl.value)})", T.STRING,
                     v.nullable)
        raise UnsupportedSelectorError(f"{name}(...) has no exact Spark SQL form here", "", node.span)


def _list_items(node) -> "tuple | None":
    """The element nodes of a list INLIST can render: ``MAKELIST(…)``, or the list `lowering.lower`
    folded from a ``MAKELIST``/``SPLIT`` of constants (its elements as literals); else None."""
    if isinstance(node, n.FunctionCall) and node.name == "MAKELIST":
        return node.args
    if type(node) is n.Literal and node.type == LIST:
        return tuple(n.Literal(None, T.NULL) if x is None else n.Literal(x.value, x.type) for x in node.value)
    return None


def _no_overflow(op, l: V, r: V, t: JmsType, types: tuple) -> "int | None":
    """A bound of ``|l op r|`` when ``l op r`` (+, -, *) of the exact ``types`` cannot overflow
    type ``t``; else None."""
    a, b = l.magnitude(types[0]), r.magnitude(types[1])
    bound = a * b if op is A.TIMES else a + b
    return bound if bound <= _LIMIT[t] else None


def _java_text(v: V, vt: JmsType, node) -> V:
    """``v.toString()`` (``v`` of type ``vt``) as ActiveMQ's regex functions take it: Spark's text
    of an integer or a boolean is Java's; a float/double is formatted differently (the vectorized
    fallback does it)."""
    if vt is T.STRING:
        return v
    if vt.is_exact or vt is T.BOOLEAN:
        return V(f"CAST({v.sql} AS STRING)", T.STRING, v.nullable)
    raise UnsupportedSelectorError(f"{node.name} on a {vt.value} value needs Java's number formatting",
                                   "", node.span)


def _nonzero(v: V, sql: str) -> str:
    if v.is_const:
        return sql
    return f"nullif({sql}, 0)"


def _wrap32(expr: str) -> str:
    """A BIGINT expression wrapped to a Java int (sign-extension of the low 32 bits)."""
    return f"CAST(shiftright(shiftleft({expr}, 32), 32) AS INT)"


def _wrap64(expr: str) -> str:
    """A DECIMAL(38,0) expression wrapped to a Java long (two's complement)."""
    return f"CAST(pmod({expr} + {_TWO63}, {_TWO64}) - {_TWO63} AS BIGINT)"


def _ddiv(a: str, rv: V, b: str) -> str:
    """IEEE double division as Java does it (x/0 is ±Infinity or NaN, never an error).

    ``a`` appears once (a chain ``x / y / z`` stays linear): by zero it is ``a * ±Infinity``
    divided by 1, which is Java's ``a / ±0.0`` for every ``a`` (NaN and ±0 give NaN).
    """
    if rv.is_const:
        bv = float(rv.lit)
        if bv == 0.0:
            inf = "CAST('-Infinity' AS DOUBLE)" if math.copysign(1.0, bv) < 0 else "CAST('Infinity' AS DOUBLE)"
            return f"({a} * {inf})"
        return f"try_divide({a}, {b})"
    inf = f"IF({neg_zero_test(b)}, CAST('-Infinity' AS DOUBLE), CAST('Infinity' AS DOUBLE))"
    return f"try_divide({a} * IF({b} = 0, {inf}, 1.0D), IF({b} = 0, 1.0D, {b}))"


def _drem(a: str, rv: V, b: str) -> str:
    """Java ``%`` on doubles (x % 0 is NaN, as is x % NaN); ``a`` appears once."""
    if rv.is_const:
        if float(rv.lit) == 0.0:
            return f"({a} * CAST('NaN' AS DOUBLE))"
        return f"try_mod({a}, {b})"
    return f"try_mod({a}, IF({b} = 0, CAST('NaN' AS DOUBLE), {b}))"


def _ldiv(a: str, b: str) -> str:
    """Java long division ``a / b`` with ``a`` once: by -1 it divides by 1 and negates, wrapping
    (``Long.MIN_VALUE / -1`` is ``Long.MIN_VALUE``); by zero NULL."""
    return _wrap64(f"CAST({a} div IF({b} = -1, 1, nullif({b}, 0)) AS DECIMAL(20,0)) * IF({b} = -1, -1, 1)")
