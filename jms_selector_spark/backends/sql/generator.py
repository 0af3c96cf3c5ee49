"""Spark SQL back end: a bound selector → a WHERE fragment (a string) with exact JMS semantics.

The fragment means what `semantics/scalar.py` says under every session setting that could change a naive
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
statically typed translation per branch, so the string ``'5'`` never reads as the number 5. The
properties of a Kafka Connect JMS record (`language.layouts`) are read the same way, the
``CASE`` on each value's ``propertyType``.

Not translated (`UnsupportedSelectorError`, the caller falls back to the vectorized
evaluator): ActiveMQ ``SPLIT``; ``REGEX``/``REPLACE`` whose regex is not a literal in the
subset where Java and Python agree; ``INLIST`` over anything but ``MAKELIST`` of non-approximate
values; string concatenation with a float/double right operand (Java's number formatting); a
predicate reading more than two VARIANT properties at once; a variant key containing both
quote characters.

Static types come from the core tree, never from the rendered SQL: each node carries its
operands' types (`core.Compare.types` and the like, recorded by `lowering.lower`), and
`core.static_type` reads a node's own. The one place the generator reads a rendered value's
type (`V.branch_type`) is `SparkSqlGenerator._branch_types`: for a node lowering could not type,
because an operand reads a VARIANT property (its type is fixed per branch of `_expand`) or is an
ActiveMQ function's value. `tests/unit/test_design.py` fails on any other read.

The translation is four modules: this one (the generator's driver: columns, sharing of repeated
operands, truth, VARIANT expansion, and the entry points), `sql.render` (values, literals,
names, Kleene combinators, LIKE), `sql.compare` (comparisons and predicates) and
`sql.arithmetic` (arithmetic, string conversion, ActiveMQ functions).
"""
from __future__ import annotations

import itertools
import math
import re

from ...binder import BoundSelector
from ...language import nodes as n
from ...language.errors import UnsupportedSelectorError
from ...language.layouts import TYPED_FIELDS
from ...language.types import INT_MAX, INT_MIN, LONG_MIN, JmsType
from ...language.visitor import NodeVisitor
from ...semantics import core as c
from ...semantics.core import PREDICATES, static_type
from .arithmetic import SqlArithmetic
from .compare import SqlComparisons
from .javanum import java_value_of_sql
from .limits import check_sql_depth
from .logic import SqlLogic
from .fragment import can_mark, clean_length, mark_column, mark_literal, unmark
from .render import (SPARK_TYPES, SQL_FALSE, SQL_NULL, SQL_TRUE, SQL_UNKNOWN, V, bool_v, cast, double_literal,
                     exact_literal, not_, sql_identifier, sql_string, strict)

__all__ = ["SparkSqlGenerator"]

T = JmsType

#: A compound operand longer than this that a guard needs twice is bound once (see `_shared`).
_SHARE_ABOVE = 256
#: Slots a fragment marks at most (one character of id each: `fragment`).
_MAX_SLOTS = 60_000


# -- the generator --------------------------------------------------------------------------------

_VARIANT_KINDS = (T.BOOLEAN, T.LONG, T.DOUBLE, T.STRING, T.NULL)
#: The kinds of a Kafka Connect JMS property (`language.layouts.TYPED_FIELDS`), and NULL.
_TYPED_KINDS = tuple(TYPED_FIELDS.values()) + (T.NULL,)



class SparkSqlGenerator(SqlComparisons, SqlArithmetic, SqlLogic, NodeVisitor):
    """Translates a `BoundSelector` into a Spark SQL boolean expression (a WHERE fragment).

    ``generate()`` returns the fragment; NULL in it means UNKNOWN. Each ``visit_*`` returns a `V`.
    """

    node_types = c.CORE_TYPES

    def __init__(self, bound: BoundSelector, *, qualifier: tuple = ()):
        self.bound = bound
        #: Name parts put before every column path (``("m",)`` reads ```m`.`color```: a struct
        #: parameter of a SQL function instead of the table's own columns).
        self.qualifier = tuple(qualifier)
        #: Literals and compared columns are marked in the text (`fragment`) unless a name could
        #: be mistaken for a mark; `slots` / `uses` hold what each mark stands for.
        self.marking = can_mark(*self.qualifier, *(p for ref in bound.refs.values() for p in ref.path))
        self.slots: list = []  # slot id -> (Spark type, value)
        self.uses: list = []  # column use id -> (column, slot ids)
        self.lambdas = False  # a lambda was written (`_shared`)
        self.decimal = False  # a DECIMAL was written (long arithmetic)
        self.env = {name: self._column(ref) for name, ref in bound.refs.items()}
        self.types = bound.types
        self.columns = bound.types.column_types  # each name's static type (DYNAMIC: per branch)
        self._lets = 0  # lambda variables used so far (see `_shared`)

    # -- entry point ----------------------------------------------------------------------------
    def generate(self) -> str:
        if self.bound.root is None:
            return "TRUE"
        try:
            return check_sql_depth(self.unmark(self.truth(self.bound.core).sql)[0], self.bound.selector.text)
        except UnsupportedSelectorError as e:
            if not e.selector:
                raise UnsupportedSelectorError(e.message, self.bound.selector.text, e.span) from None
            raise

    def sql(self, node) -> str:
        """The SQL of a core node's truth value, its marks removed (no depth check)."""
        return self.unmark(self.truth(node).sql)[0]

    def unmark(self, sql: str) -> "tuple[str, list]":
        """`fragment.unmark` of text this generator wrote (unmarked text is returned as it is)."""
        return unmark(sql) if self.marking else (sql, [])

    def clean_length(self, sql: str) -> int:
        """`fragment.clean_length` of text this generator wrote."""
        return clean_length(sql) if self.marking else len(sql)

    # -- columns --------------------------------------------------------------------------------
    def _column(self, ref) -> V:
        if ref.access == "missing":
            return SQL_NULL if ref.default is None else self.visit_Literal(n.Literal(ref.default, ref.type), mark=False)
        if ref.access in ("variant", "typed_map"):
            return V("", T.DYNAMIC, True, True, None, (sql_identifier(*self.qualifier, ref.path[0]), ref.path[1]))
        if ref.access == "map":
            sql = f"try_element_at({sql_identifier(*self.qualifier, ref.path[0])}, {sql_string(ref.path[1])})"
        elif ref.access == "kafka_header":  # the last record header with that key, its bytes as UTF-8 text
            sql = (f"make_valid_utf8(CAST(try_element_at(filter({sql_identifier(*self.qualifier, ref.path[0])}, "
                   f"__jms_h -> __jms_h.`key` = {sql_string(ref.path[1])}), -1).`value` AS STRING))")
        else:
            sql = sql_identifier(*self.qualifier, *ref.path)
        conv = ref.conversion
        if conv == "delivery_mode":
            sql = f"CASE {sql} WHEN 2 THEN 'PERSISTENT' WHEN 1 THEN 'NON_PERSISTENT' END"
        elif conv == "delivery_mode_code":  # MQe: the int constant
            sql = f"CASE {sql} WHEN 'PERSISTENT' THEN 2 WHEN 'NON_PERSISTENT' THEN 1 END"
        elif conv == "epoch_millis":
            if ref.spark_type == "timestamp_ntz":
                sql = f"timestampdiff(MILLISECOND, TIMESTAMP_NTZ'1970-01-01 00:00:00', {sql})"
            else:
                sql = f"unix_millis({sql})"
        elif conv == "decimal":
            sql = f"try_cast({sql} AS {SPARK_TYPES[ref.type]})"
        elif conv == "java_value_of":  # a declared type on a string property (Binding.property_types)
            return V(java_value_of_sql(sql, ref.type), ref.type, True, True)
        if ref.default is not None:  # a header's value where the message has none (Rules.header)
            return V(f"coalesce({sql}, {self.visit_Literal(n.Literal(ref.default, ref.type), mark=False).sql})",
                     ref.type, False, True)
        plain = ref.access == "column" and len(ref.path) == 1 and conv is None and not self.qualifier
        return V(sql, ref.type, True, True, column=ref.path[0] if plain else None)

    # -- sharing: the SQL stays linear in the selector's size --------------------------------------
    def _is_leaf(self, v: V) -> bool:
        """A constant, a column read, or any operand of at most `_SHARE_ABOVE` characters: a guard
        may repeat it (a bounded size per node keeps the SQL within a constant factor of linear,
        and the plain repetition keeps whole-stage codegen, which a lambda loses)."""
        return (v.is_const or self.clean_length(v.sql) <= _SHARE_ABOVE
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
            args.append(V(name, v.branch_type, v.nullable, True, v.lit, v.variant, v.bound))
        out = make(*args)
        sql = out.sql
        for name, v in reversed(binds):
            uses = len(re.findall(rf"\b{name}\b", sql))
            if uses > 1:
                self.lambdas = True
                sql = f"transform(array({v.sql}), {name} -> {sql})[0]"
            elif uses == 1:
                sql = re.sub(rf"\b{name}\b", lambda _m, text=v.op(): text, sql)
        # the text changed: what `conj` / `form` said of it no longer holds
        return out if sql == out.sql else out._replace(sql=sql, atomic=True, conj=None, form=None)

    # -- truth ----------------------------------------------------------------------------------
    def combine(self, node, parts: list) -> V:
        """The truth value of a node of the boolean skeleton (AND, OR, NOT) from its operands'
        truth values ``parts``: the one place the skeleton is written."""
        if isinstance(node, n.And):  # KleeneAnd, LeftFirstAnd
            return self._logic_and(parts, type(node) is c.LeftFirstAnd)
        if isinstance(node, n.Or):
            return self._logic_or(parts, type(node) is c.LeftFirstOr)
        return not_(parts[0])

    def truth(self, node) -> V:
        if isinstance(node, (n.And, n.Or, n.Not)):
            return self.combine(node, [self.truth(op) for op in n.children(node)])
        dyn = self._dynamic_names(node)
        if dyn:
            return self._expand(node, dyn)
        v = self.visit(node)
        kind = type(node)
        if kind in PREDICATES:
            return v
        t = self.columns[node.name] if kind is n.Identifier else static_type(node, self.columns)
        if t is None or t is T.DYNAMIC:  # known per VARIANT branch (or a function's value)
            t = self._branch_types(v)[0]
        if t is T.BOOLEAN:
            return v
        if t is T.NULL:
            return SQL_UNKNOWN
        return strict(SQL_FALSE, v)

    # -- types: the core node's, or (lowering could not know it) this VARIANT branch's -------------
    def _type_of(self, node, v: V) -> JmsType:
        """The JMS type of the core node ``node``, rendered as ``v``: its static type
        (`core.static_type`), else (DYNAMIC, a function's value) the one ``v`` has in this branch."""
        t = static_type(node, self.columns)
        return self._branch_types(v)[0] if t is None else t

    @staticmethod
    def _branch_types(*vs: V) -> tuple:
        """The JMS types of rendered values, for a node lowering could not type statically.

        The one permitted read of `V.branch_type` (`test_design` checks it): an operand that
        reads a VARIANT property has a type only per branch of `_expand`, which renders the
        predicate once per combination of the VARIANT values' types; an ActiveMQ function's value
        has the type its rendering gives (`visit_Call`). Every static type comes from the node."""
        types = tuple(v.branch_type for v in vs)
        if T.DYNAMIC in types:  # pragma: no cover - `_expand` gives every VARIANT value a type first
            raise UnsupportedSelectorError("a value of unknown type")
        return types

    def _dynamic_names(self, node) -> list:
        if not self.types.reads_dynamic(node):  # the typed tree (a static predicate: no CASE)
            return []
        out = []
        for sub in n.walk(node):
            if isinstance(sub, n.Identifier) and self.env[sub.name].variant is not None and sub.name not in out:
                out.append(sub.name)
        return out

    def _expand(self, node, names) -> V:
        if len(names) > 2:
            raise UnsupportedSelectorError("a predicate reading more than two VARIANT properties", "", node.span)
        access = {self.bound.refs[name].access for name in names}
        if access == {"typed_map"}:
            return self._expand_typed(node, names)
        if "typed_map" in access:
            raise UnsupportedSelectorError("a predicate reading a VARIANT property and a Kafka Connect one", "",
                                           node.span)
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
            values[name] = {t: (SQL_NULL if t is T.NULL else V(f"variant_get({col}, {path}, '{SPARK_TYPES[t].lower()}')", t, False))
                            for t in _VARIANT_KINDS}
        return self._branches(node, names, kinds, values, [_VARIANT_KINDS] * len(names))

    def _expand_typed(self, node, names) -> V:
        """`_expand` for the properties of a Kafka Connect JMS map (`language.layouts`): each value
        is the struct field its ``propertyType`` names, of that field's JMS type."""
        kinds, values, per = [], {}, []
        for name in names:
            col, key = self.env[name].variant
            entry = f"try_element_at({col}, {sql_string(key)})"
            kinds.append("CASE " + entry + ".`propertyType` " + " ".join(
                f"WHEN '{field}' THEN '{t.value}'" for field, t in TYPED_FIELDS.items()) + " ELSE 'null' END")
            values[name] = {t: V(f"{entry}.`{field}`", t, True) for field, t in TYPED_FIELDS.items()}
            values[name][T.NULL] = SQL_NULL
            per.append(_TYPED_KINDS)
        return self._branches(node, names, kinds, values, per)

    def _branches(self, node, names, kinds, values, per) -> V:
        """One translation of ``node`` per combination of its dynamic names' kinds, chosen by a CASE
        on ``kinds`` (the SQL of each name's kind, per row)."""
        key_sql = kinds[0] if len(kinds) == 1 else "concat(" + ", '/', ".join(kinds) + ")"
        saved = dict(self.env)
        branches = []
        try:
            for combo in itertools.product(*per):
                for name, t in zip(names, combo):
                    self.env[name] = values[name][t]
                label = "/".join("null" if t is T.NULL else t.value for t in combo)
                branches.append((label, self.truth(node).sql))
        finally:
            self.env = saved
        body = " ".join(f"WHEN '{label}' THEN {sql}" for label, sql in branches[:-1])
        return bool_v(f"CASE {key_sql} {body} ELSE {branches[-1][1]} END", True, True)

    # -- leaves ---------------------------------------------------------------------------------
    def visit_Literal(self, node, mark: bool = True) -> V:
        """A constant: a literal of the selector, or a value `lowering.lower` folded; marked as a
        slot (`literal`) unless ``mark`` is False."""
        t, v = node.type, node.value
        if t is T.NULL:
            return SQL_NULL
        if not isinstance(t, JmsType):  # an ActiveMQ list (functions.LIST): only INLIST reads one
            raise UnsupportedSelectorError("a list value (MAKELIST, SPLIT) outside INLIST", "", node.span)
        if t is T.BOOLEAN:
            return SQL_TRUE if v else SQL_FALSE
        if t.is_exact:
            return self.literal(V(exact_literal(v), t, False, True, v), mark)
        if t.is_approximate:
            return self.literal(V(double_literal(v), T.DOUBLE if t is T.DOUBLE else t, False, True, float(v)), mark)
        return self.literal(V(sql_string(v), T.STRING, False, True, v), mark)

    # -- marks: what `fragment.Fragment` reads back as data --------------------------------------
    def literal(self, v: V, mark: bool = True) -> V:
        """The constant ``v`` marked as a slot: a plain literal of one Spark type (INT, BIGINT,
        DOUBLE, STRING) that a value of that type could replace. NaN, the infinities, -0.0 and
        ``Long.MIN_VALUE`` are written as casts or signs: they stay text."""
        value = v.lit
        if not (mark and self.marking) or len(self.slots) > _MAX_SLOTS:
            return v
        if isinstance(value, str):
            spark = "STRING"
        elif isinstance(value, float):
            if math.isnan(value) or math.isinf(value) or (value == 0 and math.copysign(1.0, value) < 0):
                return v
            spark = "DOUBLE"
        elif INT_MIN <= value <= INT_MAX:
            spark = "INT"
        elif value > LONG_MIN:
            spark = "BIGINT"
        else:
            return v
        self.slots.append((spark, value))
        return v._replace(sql=mark_literal(v.sql, len(self.slots) - 1), slot=len(self.slots) - 1)

    def cast(self, v: V, vt: JmsType, t: JmsType) -> str:
        """`render.cast`, keeping a constant a slot when it is rewritten as a DOUBLE literal."""
        out = cast(v, vt, t)
        if v.slot is None or out == v.op() or not (v.is_const and t is T.DOUBLE):
            return out
        return self.literal(V(out, T.DOUBLE, False, True, float(v.lit))).sql

    def use(self, column_v: V, *slots: V) -> str:
        """``column_v``'s text marked as a column use compared with the literal slots ``slots``
        (a plain STRING column as a whole operand of ``=``, ``<>`` or ``IN``), when it is one."""
        if column_v.column is None or not self.marking or any(s.slot is None for s in slots):
            return column_v.op()
        self.uses.append((column_v.column, tuple(s.slot for s in slots)))
        return mark_column(column_v.op(), len(self.uses) - 1)

    def visit_Identifier(self, node) -> V:
        return self.env[node.name]

    # -- logic as values --------------------------------------------------------------------------
    def visit_Not(self, node):
        return self.truth(node)

    def visit_KleeneAnd(self, node):
        return self.truth(node)

    def visit_KleeneOr(self, node):
        return self.truth(node)

    def visit_LeftFirstAnd(self, node):
        return self.truth(node)

    def visit_LeftFirstOr(self, node):
        return self.truth(node)
