"""Comparisons for the Spark SQL back end: ``= <> < > <= >=``, BETWEEN, IN, LIKE and IS NULL.

`SqlComparisons` is a part of `spark_sql.SparkSqlGenerator` (a mixin: it uses the generator's
``visit`` and ``_shared``). It renders the core's comparison nodes (`core.Compare`, the three
BETWEENs, `core.InStrings`) and the decisions their `lowering.Comparator` carries — unlike
types, numeric promotion, Java's NaN and ``Double.compareTo`` orders, UTF-16 string order,
ActiveMQ's and WSO2's NULL equality, ActiveMQ's string conversion, the BETWEEN null rules — as plain predicates
wherever Spark's own operator already gives the JMS answer, so they still push down.

Every decision is taken for the operand types the node carries (`core.Compare.types`, the
BETWEENs' ``types``, ``operand_type``; `core.static_type` for IS NULL). Only a node lowering
could not type (an operand reads a VARIANT property, or is a function's value) takes its
operands' types as rendered in the current VARIANT branch (`SparkSqlGenerator._branch_types`).
"""
from __future__ import annotations

import math

from ..frontend import nodes as n
from ..frontend.errors import UnsupportedSelectorError
from ..semantics.lowering import NumericOrder, Order
from ..semantics.types import JmsType
from .sql_javanum import java_value_of_sql
from .sql_render import (_FALSE, _TRUE, _UNKNOWN, NULL_BOOL, V, _and, _bool, _cast, _is_zero_possible, _may_nan,
                         _neg_zero_test, _nonnull, _not, _nulls, _or, _strict, like_to_sql, sql_string)

__all__ = ["SqlComparisons"]

T = JmsType
C = n.CompareOp


def _pairs(types) -> tuple:
    """``((x, low) types, (x, high) types)`` of a BETWEEN's static ``(x, low, high)`` types, or Nones."""
    return (None, None) if types is None else ((types[0], types[1]), (types[0], types[2]))


class SqlComparisons:
    """The comparison and predicate visitors of `spark_sql.SparkSqlGenerator`; each returns a `V`."""

    # -- comparison -----------------------------------------------------------------------------
    def visit_Compare(self, node) -> V:
        return self.compare(node.cmp, self.visit(node.left), self.visit(node.right), node.types)

    def visit_UnlikeTypes(self, node) -> V:
        """FALSE (NULL when an operand is), written as the comparator would have: ``<>`` as
        ``NOT (=)`` is the negation of the FALSE ``=``."""
        l, r = self.visit(node.left), self.visit(node.right)
        unlike = _strict(_FALSE, l, r)
        return _not(unlike) if node.value else unlike

    def compare(self, cmp, l: V, r: V, types=None) -> V:
        """``l op r`` as the `lowering.Comparator` ``cmp`` decides; ``types``: the operands'
        static types when the core node carries them (`core.Compare.types`), else None (their
        types in this VARIANT branch, `_branch_types`)."""
        if types is None:
            types = self._branch_types(l, r)
        if cmp.eq is not None:
            return _not(self.compare(cmp.eq, l, r, types))
        nulls = cmp.nulls
        if nulls is not None:
            return self._shared(lambda a, b: self._null_eq(cmp, a, b, nulls, types), l, r)
        if T.NULL in types:
            return _UNKNOWN
        return self._core(cmp, l, r, True, types)

    def _null_eq(self, cmp, l: V, r: V, nulls, types) -> V:
        """``l = r`` where a NULL operand gives a value (`lowering.NullEquality`): ActiveMQ's NULL
        on the left UNKNOWN, on the right FALSE, both TRUE; WSO2's one side FALSE, both TRUE."""
        def const(b):
            return _TRUE if b else _UNKNOWN if b is None else _FALSE

        def text(b):
            return const(b).sql

        lt, rt = types
        if lt is T.NULL and rt is T.NULL:
            return const(nulls.both)
        if lt is T.NULL or rt is T.NULL:
            other, one = (r, nulls.left) if lt is T.NULL else (l, nulls.right)
            if not other.nullable:
                return const(one)
            if nulls.both is True and one is False:
                return _bool(f"({other.op()} IS NULL)", False, True)
            return _bool(f"IF({other.op()} IS NULL, {text(nulls.both)}, {text(one)})",
                         None in (one, nulls.both), True)
        core = self._core(cmp, l, r, True, types)
        if not (l.nullable and r.nullable):
            one = nulls.left if l.nullable else nulls.right if r.nullable else None
            if one is None:
                return core
            return _FALSE if core.sql == "FALSE" else _bool(f"coalesce({core.sql}, {text(one)})", False, True)
        return _bool(f"CASE WHEN {l.op()} IS NULL THEN IF({r.op()} IS NULL, {text(nulls.both)}, {text(nulls.left)})"
                     f" WHEN {r.op()} IS NULL THEN {text(nulls.right)} ELSE {core.sql} END",
                     None in (nulls.left, nulls.right, nulls.both), True)

    def _core(self, cmp, l: V, r: V, nan_checks: bool, types: tuple) -> V:
        """``l op r`` for two static non-NULL types: NULL exactly when an operand is NULL.

        ``nan_checks=False`` leaves out the guards that make a NaN operand compare false (the
        caller knows Spark's own NaN ordering already gives the Java answer). ``types``: the
        operands' static pair (`core.Compare.types`, or this VARIANT branch's).
        """
        op = cmp.op
        conversion = cmp.conversion(*types)
        if conversion is not None:
            return self._converted_compare(cmp, l, r, conversion, types)
        rule = cmp.rule(*types)
        if rule is Order.FALSE:
            return _strict(_FALSE, l, r)
        if rule is Order.TRUE:
            return _strict(_TRUE, l, r)
        if rule is Order.UNKNOWN:
            return _UNKNOWN
        if isinstance(rule, NumericOrder):
            return self._numeric_compare(op, l, r, rule, nan_checks, types)
        if rule is Order.UTF16 and not self._utf16_safe(l, r):
            return _bool(f"encode({l.sql}, 'UTF-16BE') {op.value} encode({r.sql}, 'UTF-16BE')",
                         l.nullable or r.nullable)
        return _bool(f"{l.op()} {op.value} {r.op()}", l.nullable or r.nullable)

    def _converted_compare(self, cmp, l: V, r: V, conversion, types) -> V:
        """`semantics.compare_converted`: the string side read with the other side's Java
        ``valueOf`` (`sql_javanum`); FALSE where Java cannot read it, NULL when an operand is."""
        side, t = conversion
        if side == "error":  # ActiveMQ throws; the fallback gives UNKNOWN without caller rewrites
            raise UnsupportedSelectorError("a boolean compared with a string under convert_string_expressions")
        s, o = (l, r) if side == "left" else (r, l)
        conv = V(java_value_of_sql(s.sql, t), t, True)
        if side == "left":
            out = self._core(cmp, conv, r, True, (t, types[1]))
        else:
            out = self._core(cmp, l, conv, True, (types[0], t))
        if out.sql in ("FALSE", NULL_BOOL):
            return _strict(_FALSE, l, r)
        guard = f"{conv.sql} IS NULL" + "".join(f" AND {v.op()} IS NOT NULL" for v in (s, o) if v.nullable)
        return _bool(f"IF({guard}, FALSE, {out.sql})", l.nullable or r.nullable, True)

    @staticmethod
    def _utf16_safe(l: V, r: V) -> bool:
        """UTF-8 byte order equals UTF-16 order when one side is a constant below U+D800."""
        return any(v.is_const and all(ord(ch) < 0xD800 for ch in v.lit) for v in (l, r))

    def _numeric_compare(self, op, l: V, r: V, rule: NumericOrder, nan_checks: bool, types: tuple) -> V:
        t = rule.type
        lt, rt = types
        nullable = l.nullable or r.nullable
        if t.is_exact:
            return _bool(f"{l.op()} {op.value} {r.op()}", nullable)
        a, b = _cast(l, lt, t), _cast(r, rt, t)
        plain = f"{a} {op.value} {b}"
        if rule.total:
            # Double.compareTo: Spark already puts NaN above all and equal to itself; only the
            # order of -0.0 and 0.0 differs.
            if not (_is_zero_possible(l) and _is_zero_possible(r)):
                return _bool(plain, nullable)
            za = "-1" if l.is_const else f"IF({_neg_zero_test(a)}, -1, 0)"
            zb = "-1" if r.is_const else f"IF({_neg_zero_test(b)}, -1, 0)"
            if l.is_const:
                za = "-1" if math.copysign(1.0, float(l.lit)) < 0 else "0"
            if r.is_const:
                zb = "-1" if math.copysign(1.0, float(r.lit)) < 0 else "0"
            return _bool(f"CASE WHEN {a} = 0 AND {b} = 0 THEN {za} {op.value} {zb} ELSE {plain} END", nullable, True)
        # Java == and <: any NaN makes the comparison false (and <> true).
        nan_l, nan_r = _may_nan(l, lt), _may_nan(r, rt)
        if (l.is_const and math.isnan(float(l.lit))) or (r.is_const and math.isnan(float(r.lit))):
            return _strict(_TRUE if op is C.NE else _FALSE, l, r)
        if not (nan_l or nan_r) or not nan_checks:
            return _bool(plain, nullable)

        def is_nan(x, other, other_v):
            return f"isnan({x})" if not other_v.nullable else f"(isnan({x}) AND {other} IS NOT NULL)"

        tests = ([is_nan(a, b, r)] if nan_l else []) + ([is_nan(b, a, l)] if nan_r else [])
        if op is C.NE:
            return _bool("(" + " OR ".join([plain] + tests) + ")", nullable, True)
        return _bool("(" + " AND ".join([plain] + [f"NOT {x}" for x in tests]) + ")", nullable, True)

    # -- BETWEEN, IN, LIKE, IS NULL -------------------------------------------------------------
    def visit_TwoValuedBetween(self, node) -> V:
        x, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        types = node.types  # the (x, lo, hi) types lowering recorded, or None: this branch's
        if types is None:
            types = self._branch_types(x, lo, hi)
        if T.NULL in types:
            return _TRUE if node.negated else _FALSE
        xt, lt, ht = types
        # Spark orders NaN above everything: with a non-NaN constant high bound, a NaN operand
        # already fails `x <= hi` (and `x >= NaN` fails for any other x), exactly as Java's
        # comparisons do, so the per-comparison NaN guards can go.
        nan_checks = not (hi.is_const and ht.is_numeric and not math.isnan(float(hi.lit)))
        inside = _and([self._core(node.low_cmp, x, lo, nan_checks, (xt, lt)),
                       self._core(node.high_cmp, x, hi, nan_checks, (xt, ht))])
        nullable = _nulls(x, lo, hi)
        if node.negated:
            return _nonnull(_or([_not(inside)] + [_bool(f"{v.op()} IS NULL", False) for v in nullable]))
        return _nonnull(_and([inside] + [_bool(f"{v.op()} IS NOT NULL", False) for v in nullable]))

    def visit_OutsideBetween(self, node) -> V:
        x, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        low, high = _pairs(node.types)
        return self._logic_or([self.compare(node.low_cmp, x, lo, low), self.compare(node.high_cmp, x, hi, high)],
                              node.left_first)

    def visit_InsideBetween(self, node) -> V:
        x, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        low, high = _pairs(node.types)
        inside = self._logic_and([self.compare(node.low_cmp, x, lo, low), self.compare(node.high_cmp, x, hi, high)],
                                 node.left_first)
        return _not(inside) if node.negated else inside

    def visit_InStrings(self, node) -> V:
        x = self.visit(node.operand)
        xt = node.operand_type  # static: lowering recorded it; else this branch's
        if xt is None:
            xt = self._branch_types(x)[0]
        if xt is T.NULL:
            return _UNKNOWN
        if xt is not T.STRING:
            value = node.non_string
            return _UNKNOWN if value is None else _strict(_TRUE if value else _FALSE, x)
        vals = ", ".join(sql_string(lit.value) for lit in node.values)
        return _bool(f"{x.op()} {'NOT IN' if node.negated else 'IN'} ({vals})", x.nullable)

    def visit_LikeString(self, node) -> V:
        x = self.visit(node.operand)
        xt = node.operand_type  # static: lowering recorded it; else this branch's
        if xt is None:
            xt = self._branch_types(x)[0]
        if xt is T.NULL:
            return _UNKNOWN
        if xt is not T.STRING:
            value = node.non_string
            return _UNKNOWN if value is None else _strict(_TRUE if value else _FALSE, x)
        p = _bool(like_to_sql(x.op(), node.segments), x.nullable)
        return _not(p) if node.negated else p

    def visit_IsNull(self, node) -> V:
        x = self.visit(node.operand)
        if self._type_of(node.operand, x) is T.NULL:
            return _bool("TRUE", False, True, True) if not node.negated else _FALSE
        if not x.nullable:
            return _FALSE if not node.negated else _TRUE
        return _bool(f"{x.op()} IS {'NOT ' if node.negated else ''}NULL", False)
