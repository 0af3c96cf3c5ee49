"""Comparisons for the Spark SQL back end: ``= <> < > <= >=``, BETWEEN, IN, LIKE and IS NULL.

`SqlComparisons` is a part of `sql.generator.SparkSqlGenerator` (a mixin: it uses the generator's
``visit`` and ``_shared``). It renders the core's comparison nodes (`core.Compare`, the three
BETWEENs, `core.InStrings`) and the decisions their `decisions.Comparator` carries — unlike
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

from ...language import nodes as n
from ...language.errors import UnsupportedSelectorError
from ...semantics.decisions import NumericOrder, Order
from ...language.types import JmsType
from .javanum import java_value_of_sql
from .render import (SQL_FALSE, SQL_TRUE, SQL_UNKNOWN, NULL_BOOL, V, and_, bool_v, is_zero_possible, may_nan, neg_zero_test, nonnull, not_, nullable_of, or_, strict, like_to_sql, sql_string)

__all__ = ["SqlComparisons"]

T = JmsType
C = n.CompareOp


def _pairs(types) -> tuple:
    """``((x, low) types, (x, high) types)`` of a BETWEEN's static ``(x, low, high)`` types, or Nones."""
    return (None, None) if types is None else ((types[0], types[1]), (types[0], types[2]))


class SqlComparisons:
    """The comparison and predicate visitors of `sql.generator.SparkSqlGenerator`; each returns a `V`."""

    # -- comparison -----------------------------------------------------------------------------
    def visit_Compare(self, node) -> V:
        return self.compare(node.cmp, self.visit(node.left), self.visit(node.right), node.types)

    def visit_UnlikeTypes(self, node) -> V:
        """FALSE (NULL when an operand is), written as the comparator would have: ``<>`` as
        ``NOT (=)`` is the negation of the FALSE ``=``."""
        l, r = self.visit(node.left), self.visit(node.right)
        unlike = strict(SQL_FALSE, l, r)
        return not_(unlike) if node.value else unlike

    def compare(self, cmp, l: V, r: V, types=None) -> V:
        """``l op r`` as the `decisions.Comparator` ``cmp`` decides; ``types``: the operands'
        static types when the core node carries them (`core.Compare.types`), else None (their
        types in this VARIANT branch, `_branch_types`)."""
        if types is None:
            types = self._branch_types(l, r)
        if cmp.eq is not None:
            return not_(self.compare(cmp.eq, l, r, types))
        nulls = cmp.nulls
        if nulls is not None:
            return self._shared(lambda a, b: self._null_eq(cmp, a, b, nulls, types), l, r)
        if T.NULL in types:
            return SQL_UNKNOWN
        return self._core(cmp, l, r, True, types)

    def _null_eq(self, cmp, l: V, r: V, nulls, types) -> V:
        """``l = r`` where a NULL operand gives a value (`decisions.NullEquality`): ActiveMQ's NULL
        on the left UNKNOWN, on the right FALSE, both TRUE; WSO2's one side FALSE, both TRUE."""
        def const(b):
            return SQL_TRUE if b else SQL_UNKNOWN if b is None else SQL_FALSE

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
                return bool_v(f"({other.op()} IS NULL)", False, True)
            return bool_v(f"IF({other.op()} IS NULL, {text(nulls.both)}, {text(one)})",
                         None in (one, nulls.both), True)
        core = self._core(cmp, l, r, True, types)
        if not (l.nullable and r.nullable):
            one = nulls.left if l.nullable else nulls.right if r.nullable else None
            if one is None:
                return core
            return SQL_FALSE if core.sql == "FALSE" else bool_v(f"coalesce({core.sql}, {text(one)})", False, True)
        return bool_v(f"CASE WHEN {l.op()} IS NULL THEN IF({r.op()} IS NULL, {text(nulls.both)}, {text(nulls.left)})"
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
            return strict(SQL_FALSE, l, r)
        if rule is Order.TRUE:
            return strict(SQL_TRUE, l, r)
        if rule is Order.UNKNOWN:
            return SQL_UNKNOWN
        if isinstance(rule, NumericOrder):
            return self._numeric_compare(op, l, r, rule, nan_checks, types)
        if rule is Order.UTF16 and not self._utf16_safe(l, r):
            return bool_v(f"encode({l.sql}, 'UTF-16BE') {op.value} encode({r.sql}, 'UTF-16BE')",
                         l.nullable or r.nullable)
        if op in (C.EQ, C.NE) and types == (T.STRING, T.STRING) and r.slot is not None:
            return bool_v(f"{self.use(l, r)} {op.value} {r.op()}", l.nullable or r.nullable)
        return bool_v(f"{l.op()} {op.value} {r.op()}", l.nullable or r.nullable)

    def _converted_compare(self, cmp, l: V, r: V, conversion, types) -> V:
        """`semantics.compare_converted`: the string side read with the other side's Java
        ``valueOf`` (`sql.javanum`); FALSE where Java cannot read it, NULL when an operand is."""
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
            return strict(SQL_FALSE, l, r)
        guard = f"{conv.sql} IS NULL" + "".join(f" AND {v.op()} IS NOT NULL" for v in (s, o) if v.nullable)
        return bool_v(f"IF({guard}, FALSE, {out.sql})", l.nullable or r.nullable, True)

    @staticmethod
    def _utf16_safe(l: V, r: V) -> bool:
        """UTF-8 byte order equals UTF-16 order when one side is a constant below U+D800."""
        return any(v.is_const and all(ord(ch) < 0xD800 for ch in v.lit) for v in (l, r))

    def _numeric_compare(self, op, l: V, r: V, rule: NumericOrder, nan_checks: bool, types: tuple) -> V:
        t = rule.type
        lt, rt = types
        nullable = l.nullable or r.nullable
        if t.is_exact:
            return self._bound(l.op(), op, r.op(), l, r, nullable)
        a, b = self.cast(l, lt, t), self.cast(r, rt, t)
        plain = f"{a} {op.value} {b}"
        if rule.total:
            # Double.compareTo: Spark already puts NaN above all and equal to itself; only the
            # order of -0.0 and 0.0 differs.
            if not (is_zero_possible(l) and is_zero_possible(r)):
                return self._bound(a, op, b, l, r, nullable)
            za = "-1" if l.is_const else f"IF({neg_zero_test(a)}, -1, 0)"
            zb = "-1" if r.is_const else f"IF({neg_zero_test(b)}, -1, 0)"
            if l.is_const:
                za = "-1" if math.copysign(1.0, float(l.lit)) < 0 else "0"
            if r.is_const:
                zb = "-1" if math.copysign(1.0, float(r.lit)) < 0 else "0"
            return bool_v(f"CASE WHEN {a} = 0 AND {b} = 0 THEN {za} {op.value} {zb} ELSE {plain} END", nullable, True)
        # Java == and <: any NaN makes the comparison false (and <> true). Spark orders NaN above
        # every number and equal to itself, so its answer differs only where the NaN is on the
        # greater side: the right of < and <=, the left of > and >=, both sides of = and <>.
        nan_l, nan_r = may_nan(l, lt), may_nan(r, rt)
        if (l.is_const and math.isnan(float(l.lit))) or (r.is_const and math.isnan(float(r.lit))):
            return strict(SQL_TRUE if op is C.NE else SQL_FALSE, l, r)
        if op in (C.EQ, C.NE):
            guard = "left" if nan_l and nan_r else None
        elif op in (C.LT, C.LE):
            guard = "right" if nan_r else None
        else:
            guard = "left" if nan_l else None
        if guard is None or not nan_checks:
            return self._bound(a, op, b, l, r, nullable)
        if guard == "left":
            test = f"isnan({a})" if not r.nullable else f"(isnan({a}) AND {b} IS NOT NULL)"
        else:
            test = f"isnan({b})" if not l.nullable else f"(isnan({b}) AND {a} IS NOT NULL)"
        if op is C.NE:
            return bool_v(f"({plain} OR {test})", nullable, True)
        return and_([self._bound(a, op, b, l, r, nullable), bool_v(f"NOT {test}", nullable)])

    @staticmethod
    def _bound(a: str, op, b: str, l: V, r: V, nullable: bool) -> V:
        """``a op b`` (``a``, ``b``: ``l``'s and ``r``'s texts, or their casts), recording the bound
        ``form`` when ``l`` is a plain column (or its cast to DOUBLE), ``r`` a marked literal (so
        ``b`` is its slot) and ``op`` an ordering."""
        text = f"{a} {op.value} {b}"
        form = None
        if (op.is_ordering and l.column is not None and r.slot is not None
                and a in (l.op(), f"CAST({l.sql} AS DOUBLE)")):
            form = (l.column, a, op.value)
        return V(text, T.BOOLEAN, nullable, False, form=form)

    # -- BETWEEN, IN, LIKE, IS NULL -------------------------------------------------------------
    def visit_TwoValuedBetween(self, node) -> V:
        x, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        types = node.types  # the (x, lo, hi) types lowering recorded, or None: this branch's
        if types is None:
            types = self._branch_types(x, lo, hi)
        if T.NULL in types:
            return SQL_TRUE if node.negated else SQL_FALSE
        xt, lt, ht = types
        # Spark orders NaN above everything: with a non-NaN constant high bound, a NaN operand
        # already fails `x <= hi` (and `x >= NaN` fails for any other x), exactly as Java's
        # comparisons do, so the per-comparison NaN guards can go.
        nan_checks = not (hi.is_const and ht.is_numeric and not math.isnan(float(hi.lit)))
        inside = and_([self._core(node.low_cmp, x, lo, nan_checks, (xt, lt)),
                       self._core(node.high_cmp, x, hi, nan_checks, (xt, ht))])
        nullable = nullable_of(x, lo, hi)
        if node.negated:
            return nonnull(or_([not_(inside)] + [bool_v(f"{v.op()} IS NULL", False) for v in nullable]))
        return nonnull(and_([inside] + [bool_v(f"{v.op()} IS NOT NULL", False) for v in nullable]))

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
        return not_(inside) if node.negated else inside

    def visit_InStrings(self, node) -> V:
        x = self.visit(node.operand)
        xt = node.operand_type  # static: lowering recorded it; else this branch's
        if xt is None:
            xt = self._branch_types(x)[0]
        if xt is T.NULL:
            return SQL_UNKNOWN
        if xt is not T.STRING:
            value = node.non_string
            return SQL_UNKNOWN if value is None else strict(SQL_TRUE if value else SQL_FALSE, x)
        vals = [self.literal(V(sql_string(lit.value), T.STRING, False, True, lit.value)) for lit in node.values]
        return bool_v(f"{self.use(x, *vals)} {'NOT IN' if node.negated else 'IN'} ({', '.join(v.sql for v in vals)})",
                      x.nullable)

    def visit_LikeString(self, node) -> V:
        x = self.visit(node.operand)
        xt = node.operand_type  # static: lowering recorded it; else this branch's
        if xt is None:
            xt = self._branch_types(x)[0]
        if xt is T.NULL:
            return SQL_UNKNOWN
        if xt is not T.STRING:
            value = node.non_string
            return SQL_UNKNOWN if value is None else strict(SQL_TRUE if value else SQL_FALSE, x)
        p = bool_v(like_to_sql(x.op(), node.segments), x.nullable)
        return not_(p) if node.negated else p

    def visit_IsNull(self, node) -> V:
        x = self.visit(node.operand)
        if self._type_of(node.operand, x) is T.NULL:
            return bool_v("TRUE", False, True, True) if not node.negated else SQL_FALSE
        if not x.nullable:
            return SQL_FALSE if not node.negated else SQL_TRUE
        return bool_v(f"{x.op()} IS {'NOT ' if node.negated else ''}NULL", False)
