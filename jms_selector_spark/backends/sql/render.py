"""SQL text of values for the Spark SQL back end (`sql.generator`): what a translated value is and
how constants, names and truth values are written.

- `V`, a translated value (SQL text, static JMS type, nullability, constant value);
- injection-proof literals and identifiers (`sql_string`, `sql_identifier`, exact and double
  literals, casts);
- the Kleene combinators (`and_`, `or_`, `not_`, `strict`) that fold constants and keep
  Spark's own three-valued logic;
- `like_to_sql`, the linear-time rendering of a LIKE pattern (see `sql.generator`'s docstring).

It decides nothing about JMS semantics: the generator (`sql.generator`, `sql.compare`,
`sql.arithmetic`) does, from the decisions and the static types the core nodes carry (`core`).
So the helpers here that depend on a type take it as an argument (`cast`, `may_nan`,
`V.magnitude`) and never read a value's `V.branch_type`.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from ...language.errors import UnsupportedSelectorError
from ...language.types import INT_MAX, INT_MIN, LONG_MIN, JmsType

__all__ = ["V", "sql_string", "sql_identifier", "like_to_sql", "NULL_BOOL"]

T = JmsType

SPARK_TYPES = {
    T.BOOLEAN: "BOOLEAN", T.BYTE: "TINYINT", T.SHORT: "SMALLINT", T.INT: "INT", T.LONG: "BIGINT",
    T.FLOAT: "FLOAT", T.DOUBLE: "DOUBLE", T.STRING: "STRING",
}
NULL_BOOL = "CAST(NULL AS BOOLEAN)"


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


def exact_literal(v: int) -> str:
    if v == LONG_MIN:
        return "CAST(-9223372036854775808 AS BIGINT)"
    if INT_MIN <= v <= INT_MAX:
        return str(v)
    return f"{v}L"


def double_literal(v: float) -> str:
    if math.isnan(v):
        return "CAST('NaN' AS DOUBLE)"
    if math.isinf(v):
        return "CAST('Infinity' AS DOUBLE)" if v > 0 else "CAST('-Infinity' AS DOUBLE)"
    text = repr(float(v)).upper().replace("E+", "E")
    return text + "D"


class V(NamedTuple):
    """A translated value: SQL text, JMS type, and what the generator knows about it.

    ``branch_type`` is the JMS type of the value as rendered. The generator takes every static
    type from the core node (`core.static_type`, the ``types`` and ``operand_type`` lowering
    recorded); it reads ``branch_type`` only where lowering could not know it — an operand that
    reads a VARIANT property, whose type is fixed per branch of `SparkSqlGenerator._expand`, or
    a function's value — in one place, `SparkSqlGenerator._branch_types` (`test_design` keeps it so).

    The rest records what the text is made of, for `fragment.Fragment`: ``slot`` (the id of a
    literal the generator marked, `fragment.mark_literal`), ``column`` (the column a plain
    top-level column read names), ``conj`` (the operands an AND chain joins: the text is ``(`` +
    their texts joined by `` AND `` + ``)``) and ``form`` (a bound ``(column, value SQL, operator)``:
    the text is exactly ``<value SQL> <operator> <one marked literal>``).

    Immutable (a named tuple: the generator makes a few dozen per selector, and a tuple is
    built in one step where a frozen dataclass sets each field apart); `_replace` gives a
    changed copy."""

    sql: str
    branch_type: JmsType
    nullable: bool = True
    atomic: bool = True  # usable as an operand without parentheses
    lit: object = None  # the Python value of a constant (None: not a constant)
    variant: "tuple | None" = None  # (column sql, key) of a VARIANT property
    bound: "int | None" = None  # largest |value| of an exact expression, when smaller than its type's
    slot: "int | None" = None
    column: "str | None" = None
    conj: "tuple | None" = None
    form: "tuple | None" = None

    def magnitude(self, t: JmsType) -> int:
        """An upper bound of ``|value|`` for an exact numeric of static type ``t`` (what overflow
        checks rely on)."""
        if self.is_const and not isinstance(self.lit, bool):
            return abs(int(self.lit))
        if self.bound is not None:
            return self.bound
        return _TYPE_MAGNITUDE[t]

    @property
    def is_const(self):
        return self.lit is not None

    def op(self) -> str:
        return self.sql if self.atomic else f"({self.sql})"


SQL_NULL = V("NULL", T.NULL, True, True)
#: |MIN_VALUE| of each exact type: the largest magnitude a value of that type can have.
_TYPE_MAGNITUDE = {T.BYTE: 2**7, T.SHORT: 2**15, T.INT: 2**31, T.LONG: 2**63}


def bool_v(sql, nullable=True, atomic=False, lit=None) -> V:
    return V(sql, T.BOOLEAN, nullable, atomic, lit)


SQL_TRUE = bool_v("TRUE", False, True, True)
SQL_FALSE = bool_v("FALSE", False, True, False)
SQL_UNKNOWN = bool_v(NULL_BOOL, True, True)


def cast(v: V, vt: JmsType, t: JmsType) -> str:
    """``v`` (of static type ``vt``) as a value of type ``t``."""
    if vt is t:
        return v.op()
    if v.is_const and t is T.DOUBLE and vt.is_numeric and not isinstance(v.lit, bool):
        return double_literal(float(v.lit))
    return f"CAST({v.sql} AS {SPARK_TYPES[t]})"


def nullable_of(*vs: V) -> list:
    return [v for v in vs if v.nullable]


def strict(value: V, *operands: V) -> V:
    """``value`` where every operand is non-NULL, NULL where one is (for constant results).
    No operand is the NULL constant: every caller has given UNKNOWN for that first."""
    nullable = nullable_of(*operands)
    if not nullable:
        return value
    cond = " OR ".join(f"{o.op()} IS NULL" for o in nullable)
    return bool_v(f"IF({cond}, {NULL_BOOL}, {value.sql})", True, True)


def and_(parts) -> V:
    parts = [p for p in parts if p.lit is not True]
    if any(p.sql == "FALSE" for p in parts):
        return SQL_FALSE
    if not parts:
        return SQL_TRUE
    if len(parts) == 1:
        return parts[0]
    return V("(" + " AND ".join(p.sql for p in parts) + ")", T.BOOLEAN, any(p.nullable for p in parts), True,
             conj=tuple(parts))


def or_(parts) -> V:
    parts = [p for p in parts if p.sql != "FALSE"]
    if any(p.lit is True for p in parts):
        return SQL_TRUE
    if not parts:
        return SQL_FALSE
    if len(parts) == 1:
        return parts[0]
    return bool_v("(" + " OR ".join(p.sql for p in parts) + ")", any(p.nullable for p in parts), True)


def not_(p: V) -> V:
    if p.lit is True:
        return SQL_FALSE
    if p.sql == "FALSE":
        return SQL_TRUE
    if p.sql == NULL_BOOL:
        return p
    return bool_v(f"(NOT {p.op()})", p.nullable, True)


def is_zero_possible(v: V) -> bool:
    return not v.is_const or float(v.lit) == 0.0


def may_nan(v: V, vt: JmsType) -> bool:
    """Whether ``v``, of static type ``vt``, can be NaN."""
    return vt.is_approximate and (not v.is_const or math.isnan(float(v.lit)))


def neg_zero_test(sql: str) -> str:
    """TRUE when a double/float zero is -0.0 (Spark keeps the sign; only its text shows it)."""
    return f"(CAST(CAST({sql} AS DOUBLE) AS STRING) LIKE '-%')"



def nonnull(v: V) -> V:
    return v._replace(nullable=False)



# -- LIKE ---------------------------------------------------------------------------------------

def _regex_char(c: str) -> str:
    if c.isascii() and not c.isalnum():
        return "\\" + c
    return c


def like_to_sql(operand_sql: str, plan: tuple) -> str:
    """A linear-time Spark predicate for ``operand LIKE pattern`` (JMS rules), the pattern as
    `lowering.lower` planned it (`core.LikeString.segments`, `like.like_segments`).

    NULL when the operand is NULL; the operand must be a STRING expression.
    """
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
