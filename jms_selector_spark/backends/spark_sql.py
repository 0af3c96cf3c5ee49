"""Spark SQL back end: a bound selector → a WHERE fragment (a string) with exact JMS semantics.

The fragment means what `semantics.py` says under every session setting that could change a naive
translation: ``spark.sql.ansi.enabled`` on and off, ``spark.sql.caseSensitive`` on and off,
``spark.sql.parser.escapedStringLiterals`` on and off. It never raises at run time on any data,
and no selector can change the meaning of the surrounding SQL:

- identifiers are backtick-quoted (embedded backticks doubled);
- every string from the selector (literals, LIKE patterns, map keys, variant paths, regexes)
  is emitted as ``decode(X'<utf-8 hex>', 'UTF-8')``: no quote, backslash, ``${…}`` or ``\\uXXXX``
  can reach Spark's parser; the only plain string literals are fixed ASCII words of this module;
- exact literals are ``2500`` / ``2500L``; approximate ones ``2.5D`` or ``CAST('NaN' AS DOUBLE)``
  (never DECIMAL).

Three-valued logic comes from Spark's own Kleene AND/OR/NOT: a JMS UNKNOWN is a SQL NULL. Where
Spark's plain operator already gives the JMS answer the fragment is the plain predicate, so it
still pushes down (``JMSType = 'car' AND weight > 2500`` stays two comparisons). Guards appear
only where they must, decided from the static types the binder found:

- unlike types: a constant FALSE (NULL when an operand is NULL);
- doubles: Spark orders NaN above everything and equal to itself and treats -0.0 = 0.0; the
  ``jms`` dialect wants Java ``==``/``<`` (NaN compares false), ActiveMQ ``Double.compareTo``
  (-0.0 < 0.0) — each gets its guard when an operand can be NaN or zero;
- integer ``+ - * /`` wrap as Java does (int via 64-bit shifts, long via DECIMAL(38,0) and
  ``pmod``); division by zero is NULL (``jms``) or IEEE (``activemq``), never an error;
- the ``jms`` BETWEEN null rule, ActiveMQ's NULL equality, ``<>`` as ``NOT =``, IN on
  non-strings, bare identifiers, ActiveMQ's comparison-promotion table.

LIKE: the JMS pattern is re-escaped and emitted as ``x LIKE <p> ESCAPE '!'`` (escaping only
``%``, ``_`` and ``!``) when Spark runs it in linear time — at most one ``%``, or two with
nothing after the last (these are also the shapes Spark simplifies to StartsWith / EndsWith /
Contains and pushes down). Any other pattern would become a backtracking ``.*a.*b…`` regex in
Spark; it is emitted instead as ``x RLIKE '(?s)\\A<s0>(?>.*?<s1>)…(?>.*?<sk>).*<sn>\\z'``: each
middle segment is found at its leftmost position inside an atomic group and never revisited,
which is exactly the greedy algorithm of `like.py`, linear in the length of the value.

VARIANT properties (type DYNAMIC) are read type-tested: each smallest predicate that reads them
becomes a ``CASE`` on the JMS type of each value (from ``schema_of_variant``), with one
statically typed translation per branch, so the string ``'5'`` never reads as the number 5.

Not translated (`UnsupportedSelectorError`, the caller falls back to the vectorized
evaluator): ActiveMQ ``SPLIT``; ``REGEX``/``REPLACE`` whose regex is not a literal in the
subset where Java and Python agree; ``INLIST`` over anything but ``MAKELIST`` of non-approximate
values; string concatenation with a float/double right operand (Java's number formatting); a
predicate reading more than two VARIANT properties at once; a variant key containing both
quote characters.
"""
from __future__ import annotations

import itertools
import math
import re
import warnings
from dataclasses import dataclass, replace

from .. import nodes as n
from ..binder import Binding, BoundSelector, bind, check_options, warn_unknown_properties
from ..dialects import HEADER_TYPES
from ..errors import UnsupportedSelectorError
from ..like import like_segments
from ..lowering import Between, Logic, NumericOrder, Order, rules_for
from ..selector import Selector, as_selector
from ..sql_limits import check_sql_depth
from ..types import INT_MAX, INT_MIN, LONG_MIN, JmsType
from .sql_javanum import java_value_of_sql
from ..visitor import NodeVisitor

__all__ = ["SparkSqlGenerator", "selector_to_sql", "sql_string", "sql_identifier", "like_to_sql", "infer_flat_schema"]

T = JmsType
C = n.CompareOp
A = n.ArithOp

_SPARK = {
    T.BOOLEAN: "BOOLEAN", T.BYTE: "TINYINT", T.SHORT: "SMALLINT", T.INT: "INT", T.LONG: "BIGINT",
    T.FLOAT: "FLOAT", T.DOUBLE: "DOUBLE", T.STRING: "STRING",
}
NULL_BOOL = "CAST(NULL AS BOOLEAN)"
_TWO63 = "9223372036854775808"
_TWO64 = "18446744073709551616"


# -- literals and names -------------------------------------------------------------------------

def sql_string(value: str) -> str:
    """An injection-proof Spark SQL string expression for ``value`` (constant-folded by Spark)."""
    try:
        raw = value.encode("utf-8")
    except UnicodeEncodeError:
        raise UnsupportedSelectorError(f"string {value!r} is not valid Unicode (lone surrogate)") from None
    return f"decode(X'{raw.hex().upper()}', 'UTF-8')"


def sql_identifier(*parts: str) -> str:
    """A backtick-quoted column path: ``sql_identifier('properties', 'weight')``."""
    return ".".join("`" + p.replace("`", "``") + "`" for p in parts)


def _exact_literal(v: int) -> str:
    if v == LONG_MIN:
        return "CAST(-9223372036854775808 AS BIGINT)"
    if INT_MIN <= v <= INT_MAX:
        return str(v)
    return f"{v}L"


def _double_literal(v: float) -> str:
    if math.isnan(v):
        return "CAST('NaN' AS DOUBLE)"
    if math.isinf(v):
        return "CAST('Infinity' AS DOUBLE)" if v > 0 else "CAST('-Infinity' AS DOUBLE)"
    text = repr(float(v)).upper().replace("E+", "E")
    return text + "D"


@dataclass(frozen=True)
class V:
    """A translated value: SQL text, static JMS type, and what the generator knows about it."""

    sql: str
    type: JmsType
    nullable: bool = True
    atomic: bool = True  # usable as an operand without parentheses
    lit: object = None  # the Python value of a constant (None: not a constant)
    variant: "tuple | None" = None  # (column sql, key) of a VARIANT property
    bound: "int | None" = None  # largest |value| of an exact expression, when smaller than its type's

    def magnitude(self) -> int:
        """An upper bound of ``|value|`` for an exact numeric (what overflow checks rely on)."""
        if self.is_const and not isinstance(self.lit, bool):
            return abs(int(self.lit))
        if self.bound is not None:
            return self.bound
        return _TYPE_MAGNITUDE[self.type]

    @property
    def is_const(self):
        return self.lit is not None

    def op(self) -> str:
        return self.sql if self.atomic else f"({self.sql})"


_NULL = V("NULL", T.NULL, True, True)
#: A compound operand longer than this that a guard needs twice is bound once (see `_shared`).
_SHARE_ABOVE = 256
#: |MIN_VALUE| of each exact type: the largest magnitude a value of that type can have.
_TYPE_MAGNITUDE = {T.BYTE: 2**7, T.SHORT: 2**15, T.INT: 2**31, T.LONG: 2**63}
_LIMIT = {T.INT: 2**31 - 1, T.LONG: 2**63 - 1}


def _bool(sql, nullable=True, atomic=False, lit=None) -> V:
    return V(sql, T.BOOLEAN, nullable, atomic, lit)


_TRUE = _bool("TRUE", False, True, True)
_FALSE = _bool("FALSE", False, True, False)
_UNKNOWN = _bool(NULL_BOOL, True, True)


def _cast(v: V, t: JmsType) -> str:
    if v.type is t:
        return v.op()
    if v.is_const and t is T.DOUBLE and v.type.is_numeric and not isinstance(v.lit, bool):
        return _double_literal(float(v.lit))
    return f"CAST({v.sql} AS {_SPARK[t]})"


def _nulls(*vs: V) -> list:
    return [v for v in vs if v.nullable]


def _strict(value: V, *operands: V) -> V:
    """``value`` where every operand is non-NULL, NULL where one is (for constant results)."""
    nullable = _nulls(*operands)
    if not nullable:
        return value
    if any(o.type is T.NULL for o in operands):
        return _UNKNOWN
    cond = " OR ".join(f"{o.op()} IS NULL" for o in nullable)
    return _bool(f"IF({cond}, {NULL_BOOL}, {value.sql})", True, True)


def _and(parts) -> V:
    parts = [p for p in parts if p.lit is not True]
    if any(p.sql == "FALSE" for p in parts):
        return _FALSE
    if not parts:
        return _TRUE
    if len(parts) == 1:
        return parts[0]
    return _bool("(" + " AND ".join(p.sql for p in parts) + ")", any(p.nullable for p in parts), True)


def _or(parts) -> V:
    parts = [p for p in parts if p.sql != "FALSE"]
    if any(p.lit is True for p in parts):
        return _TRUE
    if not parts:
        return _FALSE
    if len(parts) == 1:
        return parts[0]
    return _bool("(" + " OR ".join(p.sql for p in parts) + ")", any(p.nullable for p in parts), True)


def _not(p: V) -> V:
    if p.lit is True:
        return _FALSE
    if p.sql == "FALSE":
        return _TRUE
    if p.sql == NULL_BOOL:
        return p
    return _bool(f"(NOT {p.op()})", p.nullable, True)


def _is_zero_possible(v: V) -> bool:
    return not v.is_const or float(v.lit) == 0.0


def _may_nan(v: V) -> bool:
    return v.type.is_approximate and (not v.is_const or math.isnan(float(v.lit)))


def _neg_zero_test(sql: str) -> str:
    """TRUE when a double/float zero is -0.0 (Spark keeps the sign; only its text shows it)."""
    return f"(CAST(CAST({sql} AS DOUBLE) AS STRING) LIKE '-%')"


# -- LIKE ---------------------------------------------------------------------------------------

def _regex_char(c: str) -> str:
    if c.isascii() and not c.isalnum():
        return "\\" + c
    return c


def like_to_sql(operand_sql: str, pattern: str, escape) -> str:
    """A linear-time Spark predicate for ``operand LIKE pattern [ESCAPE escape]`` (JMS rules).

    NULL when the operand is NULL; the operand must be a STRING expression.
    """
    plan = like_segments(pattern, escape)
    if len(plan) <= 2 or (len(plan) == 3 and not plan[-1]):
        spark_pat = "%".join("".join("_" if k == "one" else ("!" + c if c in "%_!" else c) for k, c in seg)
                             for seg in plan)
        return f"{operand_sql} LIKE {sql_string(spark_pat)} ESCAPE '!'"
    segs = [["." if k == "one" else _regex_char(c) for k, c in seg] for seg in plan]
    rx = "(?s)\\A" + "".join(segs[0])
    for mid in segs[1:-1]:
        if mid:
            rx += "(?>.*?" + "".join(mid) + ")"
    rx += ".*" + "".join(segs[-1]) + "\\z"
    return f"{operand_sql} RLIKE {sql_string(rx)}"


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


# -- the generator --------------------------------------------------------------------------------

_VARIANT_KINDS = (T.BOOLEAN, T.LONG, T.DOUBLE, T.STRING, T.NULL)


class SparkSqlGenerator(NodeVisitor):
    """Translates a `BoundSelector` into a Spark SQL boolean expression (a WHERE fragment).

    ``generate()`` returns the fragment; NULL in it means UNKNOWN. Each ``visit_*`` returns a `V`.
    """

    def __init__(self, bound: BoundSelector, *, qualifier: tuple = ()):
        self.bound = bound
        self.rules = rules_for(bound.dialect)
        #: Name parts put before every column path (``("m",)`` reads ```m`.`color```: a struct
        #: parameter of a SQL function instead of the table's own columns).
        self.qualifier = tuple(qualifier)
        self.env = {name: self._column(ref) for name, ref in bound.refs.items()}
        self._lets = 0  # lambda variables used so far (see `_shared`)

    # -- entry point ----------------------------------------------------------------------------
    def generate(self) -> str:
        if self.bound.root is None:
            return "TRUE"
        try:
            return check_sql_depth(self.truth(self.bound.root).sql, self.bound.selector.text)
        except UnsupportedSelectorError as e:
            if not e.selector:
                raise UnsupportedSelectorError(e.message, self.bound.selector.text, e.span) from None
            raise

    # -- columns --------------------------------------------------------------------------------
    def _column(self, ref) -> V:
        if ref.access == "missing":
            return _NULL if ref.default is None else self.visit_Literal(n.Literal(ref.default, ref.type))
        if ref.access == "variant":
            return V("", T.DYNAMIC, True, True, None, (sql_identifier(*self.qualifier, ref.path[0]), ref.path[1]))
        if ref.access == "map":
            sql = f"try_element_at({sql_identifier(*self.qualifier, ref.path[0])}, {sql_string(ref.path[1])})"
        else:
            sql = sql_identifier(*self.qualifier, *ref.path)
        conv = ref.conversion
        if conv == "delivery_mode":
            sql = f"CASE {sql} WHEN 2 THEN 'PERSISTENT' WHEN 1 THEN 'NON_PERSISTENT' END"
        elif conv == "epoch_millis":
            if ref.spark_type == "timestamp_ntz":
                sql = f"timestampdiff(MILLISECOND, TIMESTAMP_NTZ'1970-01-01 00:00:00', {sql})"
            else:
                sql = f"unix_millis({sql})"
        elif conv == "decimal":
            sql = f"try_cast({sql} AS {_SPARK[ref.type]})"
        elif conv == "java_value_of":  # a declared type on a string property (Binding.property_types)
            return V(java_value_of_sql(sql, ref.type), ref.type, True, True)
        if ref.default is not None:  # a header's value where the message has none (Rules.header)
            return V(f"coalesce({sql}, {self.visit_Literal(n.Literal(ref.default, ref.type)).sql})", ref.type, False, True)
        return V(sql, ref.type, True, True)

    # -- sharing: the SQL stays linear in the selector's size --------------------------------------
    def _is_leaf(self, v: V) -> bool:
        """A constant, a column read, or any operand of at most `_SHARE_ABOVE` characters: a guard
        may repeat it (a bounded size per node keeps the SQL within a constant factor of linear,
        and the plain repetition keeps whole-stage codegen, which a lambda loses)."""
        return (v.is_const or v.type is T.NULL or len(v.sql) <= _SHARE_ABOVE
                or any(v.sql == e.sql for e in self.env.values()))

    def _let_name(self) -> str:
        taken = {p.lower() for p in self.qualifier[:1]}
        taken |= {ref.path[0].lower() for ref in self.bound.refs.values() if ref.path}
        while True:
            self._lets += 1
            name = f"__jms_let{self._lets}"
            if name not in taken:
                return name

    def _shared(self, make, *vs: V) -> V:
        """``make(*vs)``, each compound operand it repeats bound once by a lambda variable.

        A guard that needs an operand twice (``CASE WHEN b = 0 …``) would double the SQL at every
        nesting level (``a / (b / (b / …))``, ActiveMQ's ``(x = y) = z``). A constant or a column
        is repeated as is; a compound operand that the guard reads more than once is evaluated
        once, as ``transform(array(<operand>), v -> <guard on v>)[0]``.
        """
        binds, args = [], []
        for v in vs:
            if self._is_leaf(v):
                args.append(v)
                continue
            name = self._let_name()
            binds.append((name, v))
            args.append(replace(v, sql=name, atomic=True))
        out = make(*args)
        sql = out.sql
        for name, v in reversed(binds):
            uses = len(re.findall(rf"\b{name}\b", sql))
            if uses > 1:
                sql = f"transform(array({v.sql}), {name} -> {sql})[0]"
            elif uses == 1:
                sql = re.sub(rf"\b{name}\b", lambda _m, text=v.op(): text, sql)
        return out if sql == out.sql else replace(out, sql=sql, atomic=True)

    # -- truth ----------------------------------------------------------------------------------
    def truth(self, node) -> V:
        if isinstance(node, n.And):
            return self._logic_and([self.truth(op) for op in node.operands])
        if isinstance(node, n.Or):
            return self._logic_or([self.truth(op) for op in node.operands])
        if isinstance(node, n.Not):
            return _not(self.truth(node.operand))
        dyn = self._dynamic_names(node)
        if dyn:
            return self._expand(node, dyn)
        return self._as_truth(self.visit(node))

    def _as_truth(self, v: V) -> V:
        if v.type is T.BOOLEAN:
            return v
        if v.type is T.NULL:
            return _UNKNOWN
        return _strict(_FALSE, v)

    def _dynamic_names(self, node) -> list:
        out = []
        for sub in n.walk(node):
            if isinstance(sub, n.Identifier) and self.env[sub.name].type is T.DYNAMIC and sub.name not in out:
                out.append(sub.name)
        return out

    def _expand(self, node, names) -> V:
        if len(names) > 2:
            raise UnsupportedSelectorError("a predicate reading more than two VARIANT properties", "", node.span)
        kinds, values = [], {}
        for name in names:
            col, key = self.env[name].variant
            if "'" in key and '"' in key:
                raise UnsupportedSelectorError(f"VARIANT key {key!r} has both quote characters", "", node.span)
            q = '"' if "'" in key else "'"
            path = sql_string(f"$[{q}{key}{q}]")
            raw = f"variant_get({col}, {path})"
            sv = f"schema_of_variant({raw})"
            kinds.append(
                f"CASE WHEN {sv} IN ('TINYINT', 'SMALLINT', 'INT', 'BIGINT') THEN 'long'"
                f" WHEN {sv} IN ('FLOAT', 'DOUBLE') OR {sv} LIKE 'DECIMAL%' THEN 'double'"
                f" WHEN {sv} = 'STRING' THEN 'string' WHEN {sv} = 'BOOLEAN' THEN 'boolean' ELSE 'null' END")
            values[name] = {t: (_NULL if t is T.NULL else V(f"variant_get({col}, {path}, '{_SPARK[t].lower()}')", t, False))
                            for t in _VARIANT_KINDS}
        key_sql = kinds[0] if len(kinds) == 1 else "concat(" + ", '/', ".join(kinds) + ")"
        saved = dict(self.env)
        branches = []
        try:
            for combo in itertools.product(_VARIANT_KINDS, repeat=len(names)):
                for name, t in zip(names, combo):
                    self.env[name] = values[name][t]
                label = "/".join("null" if t is T.NULL else t.value for t in combo)
                branches.append((label, self.truth(node).sql))
        finally:
            self.env = saved
        body = " ".join(f"WHEN '{label}' THEN {sql}" for label, sql in branches[:-1])
        return _bool(f"CASE {key_sql} {body} ELSE {branches[-1][1]} END", True, True)

    # -- AND / OR as `Rules.and_or` says -----------------------------------------------------------
    def _logic_and(self, parts) -> V:
        if self.rules.and_or is Logic.KLEENE:
            return _and(parts)
        # Logic.LEFT_FIRST: the first operand that is not TRUE. Kleene AND gives it except when a
        # NULL comes before a FALSE, so each operand is ORed with "an earlier one is NULL": the
        # first conjunct stays plain (and pushes down).
        kept = []
        for p in parts:
            if p.lit is True:
                continue
            kept.append(p)
            if p.sql in ("FALSE", NULL_BOOL):
                break  # what follows is never read
        if len(kept) < 2 or not any(p.nullable for p in kept[:-1]):
            return _and(kept)

        def make(*ps):
            pieces, earlier = [], []
            for p in ps:
                tests = [f"{e.op()} IS NULL" for e in earlier]
                pieces.append(_bool("(" + " OR ".join([p.op()] + tests) + ")", p.nullable, True) if tests else p)
                if p.nullable:
                    earlier.append(p)
            return _and(pieces)

        return self._shared(make, *kept)

    def _logic_or(self, parts) -> V:
        if self.rules.and_or is Logic.KLEENE:
            return _or(parts)
        # Logic.LEFT_FIRST: TRUE when any operand is, else the last operand's value.
        head = [_bool(f"coalesce({p.sql}, FALSE)", False, True) if p.nullable else p
                for p in parts[:-1] if p.sql != NULL_BOOL]
        return _or(head + [parts[-1]])

    # -- leaves ---------------------------------------------------------------------------------
    def visit_Literal(self, node) -> V:
        t, v = node.type, node.value
        if t is T.NULL:
            return _NULL
        if t is T.BOOLEAN:
            return _TRUE if v else _FALSE
        if t.is_exact:
            return V(_exact_literal(v), t, False, True, v)
        if t.is_approximate:
            return V(_double_literal(v), T.DOUBLE if t is T.DOUBLE else t, False, True, float(v))
        return V(sql_string(v), T.STRING, False, True, v)

    def visit_Identifier(self, node) -> V:
        return self.env[node.name]

    # -- logic as values --------------------------------------------------------------------------
    def visit_Not(self, node):
        return self.truth(node)

    def visit_And(self, node):
        return self.truth(node)

    def visit_Or(self, node):
        return self.truth(node)

    # -- comparison -----------------------------------------------------------------------------
    def visit_Comparison(self, node) -> V:
        return self.compare(node.op, self.visit(node.left), self.visit(node.right))

    def compare(self, op, l: V, r: V) -> V:
        if self.rules.ne_as_not_eq(op):
            return _not(self.compare(C.EQ, l, r))
        nulls = self.rules.eq_nulls(op)
        if nulls is not None:
            return self._shared(lambda a, b: self._null_eq(a, b, nulls), l, r)
        if l.type is T.NULL or r.type is T.NULL:
            return _UNKNOWN
        return self._core(op, l, r)

    def _null_eq(self, l: V, r: V, nulls) -> V:
        """``l = r`` where a NULL operand gives a value (`lowering.NullEquality`): ActiveMQ's NULL
        on the left UNKNOWN, on the right FALSE, both TRUE; WSO2's one side FALSE, both TRUE."""
        def const(b):
            return _TRUE if b else _UNKNOWN if b is None else _FALSE

        def text(b):
            return const(b).sql

        if l.type is T.NULL and r.type is T.NULL:
            return const(nulls.both)
        if l.type is T.NULL or r.type is T.NULL:
            other, one = (r, nulls.left) if l.type is T.NULL else (l, nulls.right)
            if not other.nullable:
                return const(one)
            if nulls.both is True and one is False:
                return _bool(f"({other.op()} IS NULL)", False, True)
            return _bool(f"IF({other.op()} IS NULL, {text(nulls.both)}, {text(one)})",
                         None in (one, nulls.both), True)
        core = self._core(C.EQ, l, r)
        if not (l.nullable and r.nullable):
            one = nulls.left if l.nullable else nulls.right if r.nullable else None
            if one is None:
                return core
            return _FALSE if core.sql == "FALSE" else _bool(f"coalesce({core.sql}, {text(one)})", False, True)
        return _bool(f"CASE WHEN {l.op()} IS NULL THEN IF({r.op()} IS NULL, {text(nulls.both)}, {text(nulls.left)})"
                     f" WHEN {r.op()} IS NULL THEN {text(nulls.right)} ELSE {core.sql} END",
                     None in (nulls.left, nulls.right, nulls.both), True)

    def _core(self, op, l: V, r: V, nan_checks: bool = True) -> V:
        """``l op r`` for two static non-NULL types: NULL exactly when an operand is NULL.

        ``nan_checks=False`` leaves out the guards that make a NaN operand compare false (the
        caller knows Spark's own NaN ordering already gives the Java answer).
        """
        if not (l.type.is_static and r.type.is_static):  # pragma: no cover - expanded before
            raise UnsupportedSelectorError("comparison of a value of unknown type")
        conversion = self.rules.string_conversion(l.type, r.type)
        if conversion is not None:
            return self._converted_compare(op, l, r, conversion)
        rule = self.rules.compare(op, l.type, r.type)
        if rule is Order.FALSE:
            return _strict(_FALSE, l, r)
        if isinstance(rule, NumericOrder):
            return self._numeric_compare(op, l, r, rule, nan_checks)
        if rule is Order.UTF16 and not self._utf16_safe(l, r):
            return _bool(f"encode({l.sql}, 'UTF-16BE') {op.value} encode({r.sql}, 'UTF-16BE')",
                         l.nullable or r.nullable)
        return _bool(f"{l.op()} {op.value} {r.op()}", l.nullable or r.nullable)

    def _converted_compare(self, op, l: V, r: V, conversion) -> V:
        """`semantics.compare_converted`: the string side read with the other side's Java
        ``valueOf`` (`sql_javanum`); FALSE where Java cannot read it, NULL when an operand is."""
        side, t = conversion
        if side == "error":  # ActiveMQ throws; the fallback gives UNKNOWN without caller rewrites
            raise UnsupportedSelectorError("a boolean compared with a string under convert_string_expressions")
        s, o = (l, r) if side == "left" else (r, l)
        conv = V(java_value_of_sql(s.sql, t), t, True)
        cmp = self._core(op, conv, r) if side == "left" else self._core(op, l, conv)
        if cmp.sql in ("FALSE", NULL_BOOL):
            return _strict(_FALSE, l, r)
        guard = f"{conv.sql} IS NULL" + "".join(f" AND {v.op()} IS NOT NULL" for v in (s, o) if v.nullable)
        return _bool(f"IF({guard}, FALSE, {cmp.sql})", l.nullable or r.nullable, True)

    @staticmethod
    def _utf16_safe(l: V, r: V) -> bool:
        """UTF-8 byte order equals UTF-16 order when one side is a constant below U+D800."""
        return any(v.is_const and all(ord(ch) < 0xD800 for ch in v.lit) for v in (l, r))

    def _numeric_compare(self, op, l: V, r: V, rule: NumericOrder, nan_checks: bool = True) -> V:
        t = rule.type
        nullable = l.nullable or r.nullable
        if t.is_exact:
            return _bool(f"{l.op()} {op.value} {r.op()}", nullable)
        a, b = _cast(l, t), _cast(r, t)
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
        nan_l, nan_r = _may_nan(l), _may_nan(r)
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
    def visit_Between(self, node) -> V:
        x, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
        how = self.rules.between(node.negated)
        if how is Between.NULL_IS_FALSE:
            if T.NULL in (x.type, lo.type, hi.type):
                return _TRUE if node.negated else _FALSE
            # Spark orders NaN above everything: with a non-NaN constant high bound, a NaN operand
            # already fails `x <= hi` (and `x >= NaN` fails for any other x), exactly as Java's
            # comparisons do, so the per-comparison NaN guards can go.
            nan_checks = not (hi.is_const and hi.type.is_numeric and not math.isnan(float(hi.lit)))
            inside = _and([self._core(C.GE, x, lo, nan_checks), self._core(C.LE, x, hi, nan_checks)])
            nullable = _nulls(x, lo, hi)
            if node.negated:
                return _nonnull(_or([_not(inside)] + [_bool(f"{v.op()} IS NULL", False) for v in nullable]))
            return _nonnull(_and([inside] + [_bool(f"{v.op()} IS NOT NULL", False) for v in nullable]))
        if how is Between.OUTSIDE_AS_OR:
            return self._logic_or([self.compare(C.LT, x, lo), self.compare(C.GT, x, hi)])
        inside = self._logic_and([self.compare(C.GE, x, lo), self.compare(C.LE, x, hi)])
        return _not(inside) if node.negated else inside

    def visit_InList(self, node) -> V:
        x = self.visit(node.operand)
        if x.type is T.NULL:
            return _UNKNOWN
        if x.type is not T.STRING:
            value = self.rules.in_non_string(node.negated)
            return _UNKNOWN if value is None else _strict(_TRUE if value else _FALSE, x)
        vals = ", ".join(sql_string(lit.value) for lit in node.values)
        return _bool(f"{x.op()} {'NOT IN' if node.negated else 'IN'} ({vals})", x.nullable)

    def visit_Like(self, node) -> V:
        x = self.visit(node.operand)
        if x.type is T.NULL:
            return _UNKNOWN
        if x.type is not T.STRING:
            return _strict(_TRUE if node.negated else _FALSE, x)
        p = _bool(like_to_sql(x.op(), node.pattern, node.escape), x.nullable)
        return _not(p) if node.negated else p

    def visit_IsNull(self, node) -> V:
        x = self.visit(node.operand)
        if x.type is T.NULL:
            return _bool("TRUE", False, True, True) if not node.negated else _FALSE
        if not x.nullable:
            return _FALSE if not node.negated else _TRUE
        return _bool(f"{x.op()} IS {'NOT ' if node.negated else ''}NULL", False)

    # -- arithmetic -----------------------------------------------------------------------------
    def visit_Unary(self, node) -> V:
        v = self.visit(node.operand)
        if node.op is n.UnaryOp.PLUS:
            if v.type is T.NULL or self.rules.plus_keeps(v.type):
                return v
            return V(f"CAST(NULL AS {_SPARK.get(v.type, 'STRING')})", T.NULL)
        if v.type is T.NULL or not v.type.is_numeric:
            return V("CAST(NULL AS DOUBLE)", T.NULL)
        if v.type.is_approximate:
            return V(f"(-({v.sql}))", v.type, v.nullable)
        if v.type is T.LONG:
            return V(_wrap64(f"-CAST({v.sql} AS DECIMAL(20,0))"), T.LONG, v.nullable)
        if v.type is T.INT:
            return V(_wrap32(f"-CAST({v.sql} AS BIGINT)"), T.INT, v.nullable)
        return V(f"(-CAST({v.sql} AS INT))", T.INT, v.nullable)

    def visit_Arithmetic(self, node) -> V:
        l, r = self.visit(node.left), self.visit(node.right)
        op = node.op
        if l.type is T.NULL or r.type is T.NULL:
            return V("CAST(NULL AS DOUBLE)", T.NULL)
        t = self.rules.arithmetic(op, l.type, r.type)
        if t is T.STRING:
            if r.type is T.STRING:
                rs = r.sql
            elif r.type.is_exact or r.type is T.BOOLEAN:
                rs = f"CAST({r.sql} AS STRING)"
            else:
                raise UnsupportedSelectorError(
                    "string + float/double needs Java's number formatting", "", node.span)
            return V(f"concat({l.sql}, {rs})", T.STRING, l.nullable or r.nullable)
        if t is None:
            return V("CAST(NULL AS DOUBLE)", T.NULL)
        nullable = l.nullable or r.nullable
        if t.is_approximate:
            a, b = _cast(l, t), _cast(r, t)
            if op is A.DIVIDE:
                if t is T.FLOAT:
                    return self._shared(lambda r: V(f"CAST({_ddiv(_cast(l, T.DOUBLE), r, _cast(r, T.DOUBLE))} AS FLOAT)",
                                                    t, nullable), r)
                return self._shared(lambda r: V(_ddiv(a, r, _cast(r, t)), t, nullable), r)
            if op is A.MODULO:
                if t is T.FLOAT:
                    return self._shared(lambda r: V(f"CAST({_drem(_cast(l, T.DOUBLE), r, _cast(r, T.DOUBLE))} AS FLOAT)",
                                                    t, nullable), r)
                return self._shared(lambda r: V(_drem(a, r, _cast(r, t)), t, nullable), r)
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
            exact = _no_overflow(op, l, r, T.INT)
            if exact is not None:  # cannot overflow: plain arithmetic, nothing to wrap
                return V(f"(CAST({l.sql} AS INT) {op.value} CAST({r.sql} AS INT))", T.INT, nullable, bound=exact)
            return V(_wrap32(f"{a} {op.value} {b}"), T.INT, nullable)
        # LONG
        a, b = f"CAST({l.sql} AS BIGINT)", f"CAST({r.sql} AS BIGINT)"
        if op in (A.DIVIDE, A.MODULO):
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
        exact = _no_overflow(op, l, r, T.LONG)
        if exact is not None:  # e.g. an int column times a small literal: plain BIGINT arithmetic
            return V(f"({a} {op.value} {b})", T.LONG, nullable, bound=exact)
        return V(_wrap64(f"CAST({l.sql} AS DECIMAL(20,0)) {op.value} CAST({r.sql} AS DECIMAL(20,0))"),
                 T.LONG, nullable)

    # -- ActiveMQ functions -----------------------------------------------------------------------
    def visit_FunctionCall(self, node) -> V:
        name, args = node.name, node.args
        if name == "REGEX" and len(args) == 2:
            pat, val = args
            if not (isinstance(pat, n.Literal) and pat.type is T.STRING and _portable_regex(pat.value)):
                raise UnsupportedSelectorError("REGEX needs a literal pattern in the Java/Python common subset",
                                               "", node.span)
            v = self.visit(val)
            if v.type is T.NULL:
                return _FALSE
            v = _java_text(v, node)
            p = f"{v.op()} RLIKE {sql_string(pat.value)}"
            return _bool(f"coalesce({p}, FALSE)", False, True) if v.nullable else _bool(p, False)
        if name == "INLIST" and len(args) == 2 and isinstance(args[0], n.FunctionCall) and args[0].name == "MAKELIST":
            # List.contains: TRUE when a (non-NULL) element has v's class and value; a NULL v is
            # FALSE. A NULL element just never matches (`coalesce(v IN (…, NULL), FALSE)`).
            items = [self.visit(a) for a in args[0].args]
            v = self.visit(args[1])
            if v.type is T.NULL:
                return _FALSE
            if any(not x.type.is_static or x.type.is_approximate for x in items + [v] if x.type is not T.NULL):
                raise UnsupportedSelectorError("INLIST over approximate values", "", node.span)
            same = [x for x in items if x.type is v.type]
            if not same:
                return _FALSE
            found = f"{v.op()} IN ({', '.join(x.sql for x in same)})"
            if v.nullable or any(x.nullable for x in same):
                return _bool(f"coalesce({found}, FALSE)", False, True)
            return _bool(found, False)
        if name == "REPLACE" and len(args) == 3:
            text, rx, repl = args
            if not (isinstance(rx, n.Literal) and rx.type is T.STRING and _portable_regex(rx.value)
                    and isinstance(repl, n.Literal) and repl.type is T.STRING
                    and "$" not in repl.value and "\\" not in repl.value):
                raise UnsupportedSelectorError("REPLACE needs a literal regex and a plain replacement", "", node.span)
            v = self.visit(text)
            if v.type is T.NULL:
                return _NULL
            v = _java_text(v, node)
            return V(f"regexp_replace({v.sql}, {sql_string(rx.value)}, {sql_string(repl.value)})", T.STRING,
                     v.nullable)
        raise UnsupportedSelectorError(f"{name}(...) has no exact Spark SQL form here", "", node.span)


def _no_overflow(op, l: V, r: V, t: JmsType) -> "int | None":
    """A bound of ``|l op r|`` when ``l op r`` (+, -, *) cannot overflow type ``t``; else None."""
    a, b = l.magnitude(), r.magnitude()
    bound = a * b if op is A.TIMES else a + b
    return bound if bound <= _LIMIT[t] else None


def _java_text(v: V, node) -> V:
    """``v.toString()`` as ActiveMQ's regex functions take it: Spark's text of an integer or a
    boolean is Java's; a float/double is formatted differently (the vectorized fallback does it)."""
    if v.type is T.STRING:
        return v
    if v.type.is_exact or v.type is T.BOOLEAN:
        return V(f"CAST({v.sql} AS STRING)", T.STRING, v.nullable)
    raise UnsupportedSelectorError(f"{node.name} on a {v.type.value} value needs Java's number formatting",
                                   "", node.span)


def _nonnull(v: V) -> V:
    return replace(v, nullable=False)


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
    inf = f"IF({_neg_zero_test(b)}, CAST('-Infinity' AS DOUBLE), CAST('Infinity' AS DOUBLE))"
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


# -- public entry point ---------------------------------------------------------------------------

def infer_flat_schema(sel: Selector) -> dict:
    """Flat column types guessed from how each property is used (for ``schema=None``)."""
    guesses: dict = {}

    def note(node, t):
        if isinstance(node, n.Identifier) and node.name not in guesses and sel.dialect.header_for(node.name) is None:
            guesses[node.name] = t

    def lit_type(node):
        if isinstance(node, n.Literal) and node.type is not T.NULL:
            if node.type.is_exact:
                return "long"
            if node.type.is_approximate:
                return "double"
            return node.type.value
        return None

    for node in n.walk(sel.root):
        if isinstance(node, (n.Like, n.InList)):
            note(node.operand, "string")
        elif isinstance(node, n.Comparison):
            lt, rt = lit_type(node.left), lit_type(node.right)
            if rt:
                note(node.left, rt)
            if lt:
                note(node.right, lt)
            if node.op.is_ordering:
                note(node.left, "double")
                note(node.right, "double")
        elif isinstance(node, n.Between):
            t = next((lit_type(x) for x in (node.low, node.high) if lit_type(x)), "double")
            for x in (node.operand, node.low, node.high):
                note(x, t)
        elif isinstance(node, n.Arithmetic):
            t = lit_type(node.right) or lit_type(node.left) or "double"
            note(node.left, t if t in ("long", "double") else "double")
            note(node.right, t if t in ("long", "double") else "double")
        elif isinstance(node, (n.And, n.Or, n.Not)):
            for op in n.children(node):
                note(op, "boolean")
    if isinstance(sel.root, n.Identifier):
        note(sel.root, "boolean")
    schema = {}
    for name in sel.identifiers:
        header = sel.dialect.header_for(name)
        if header is not None:
            schema[header] = HEADER_TYPES.get(header, T.STRING).value
        else:
            schema[name] = guesses.get(name, "string")
    return schema


def selector_to_sql(selector, schema=None, *, dialect="jms", headers=None, properties=None,
                    property_types=None, unknown_properties="warn") -> str:
    """Translate a JMS selector into a Spark SQL boolean expression (for ``WHERE`` / ``F.expr``).

    Parameters
    ----------
    selector : str or Selector
        The selector (parsed with ``dialect`` when a string).
    schema : pyspark StructType or dict, optional
        The table the fragment will run on (``df.schema``), or ``{column: jms type}`` for a flat
        table. None: flat columns whose types are guessed from use (a warning names them).
    dialect : str or Dialect, default "jms"
    headers : dict, optional
        JMS header name → column name (``{"JMSType": "msg_type"}``).
    properties : str, optional
        The column holding application properties (STRUCT, MAP or VARIANT). Default: a column
        named ``properties`` if the table has one, else one column per property (flat).
    unknown_properties : {"warn", "null", "error"}, default "warn"
        A property the table cannot hold is NULL; "warn" logs it, "error" raises (see `Binding`).
    property_types : dict, optional
        Declared JMS types of string-valued properties (``{"qty": "long"}`` for a
        ``MAP<STRING,STRING>``): read with Java's ``valueOf``, as ``getLongProperty`` would;
        text Java cannot read is NULL (see `Binding`).

    Returns
    -------
    str
        A boolean SQL expression: TRUE where the selector is TRUE, FALSE where FALSE, NULL where
        UNKNOWN. ``TRUE`` for an empty selector.

    Raises
    ------
    SelectorSyntaxError, SelectorTypeError, SelectorBindingError
    BindingOptionError
        ``headers`` or ``properties`` names a column ``schema`` does not have.
    UnsupportedSelectorError
        A construct with no exact Spark SQL form (see the module docstring); evaluate it with the
        vectorized fallback instead.

    Examples
    --------
    >>> selector_to_sql("JMSType = 'car' AND weight > 2500", {"JMSType": "string", "weight": "long"})
    "(`JMSType` = decode(X'636172', 'UTF-8') AND `weight` > 2500)"
    """
    sel = as_selector(selector, dialect)
    binding = Binding.of(headers, properties, property_types, unknown_properties)
    if schema is not None:
        check_options(schema, binding)
    if sel.root is None:
        return "TRUE"
    if schema is None:
        schema = infer_flat_schema(sel)
        warnings.warn("selector_to_sql without a schema assumes flat columns of types "
                      + ", ".join(f"{k}: {v}" for k, v in schema.items()), stacklevel=2)
    bound = bind(sel, schema, binding)
    warn_unknown_properties(bound)
    return SparkSqlGenerator(bound).generate()
