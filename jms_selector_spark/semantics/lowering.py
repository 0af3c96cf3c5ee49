"""Lowering: a `Dialect`'s evaluation-time rules, decided once, as plans the back ends render.

`Rules` reads the dialect's evaluation rules (only this module does) and answers what an operator
means for the types it has, as a small decision (`decisions`: compare FALSE, compare in this
numeric type with this order, compute in this type, concatenate, treat ``<>`` as ``NOT =``...).
`lower` turns a selector's tree into the core language (`core`), each node carrying its decision,
every constant sub-tree folded into a literal, every LIKE pattern planned, comparisons of static
unlike types decided. Back ends render the core tree and never look at a `Dialect` or `Rules`,
so a new broker's rule is written here once and each back end only renders the primitive it names.

The decisions are per operator and per pair of static JMS types, so a value whose type is known
only per row (a VARIANT property, ActiveMQ's typed MAP) is handled by the back end reading the
node's table once per type pair it expands to. Where the operands' types are static (a literal, a
column of static type, a predicate, arithmetic or a sign over static operands, NULL:
`core.static_type`), the node carries them (`core.Compare.types`, `Compute.types`, the BETWEENs'
``types``, `InStrings`/`LikeString`/`Negate`/`Plus` ``operand_type``), read off the nodes without
computing the typed tree's map, so a back end takes the decision for that pair instead of
working the types out again. Integer ``x / 0`` and ``x % 0`` of a static ``x`` are NULL in every
dialect that divides integers (Java throws; JMS gives no value), so they fold to the NULL literal
here and a static operand's carried type is always its value's. Parse-time rules (grammar,
literals, checks) stay in the front end.
"""
from __future__ import annotations

import functools

from ..language.nodes import ArithOp, CompareOp
from . import core as c
from .decisions import (Between, CompareRule, Comparator, Computation, HeaderRule, Logic, NullEquality,
                        NumericOrder, Order, tabulate_comparator, tabulate_computation)
from . import rewrites, scalar
from ..language.dialects import Dialect
from .erlang_terms import between_null_unknown, condition_comparator, term_order
from .functions import call_function
from .like import like_segments
from ..language import nodes as n
from ..language.types import JmsType, promote
from .values import TypedValue

__all__ = ["lower", "lower_selector", "Rules", "rules_for"]


_NO_HEADER_RULE = HeaderRule(False, None)


class Rules:
    """A dialect's evaluation rules as decisions (build with `rules_for`; immutable)."""

    __slots__ = ("_d",)

    def __init__(self, dialect: Dialect):
        object.__setattr__(self, "_d", dialect)

    def __setattr__(self, name, value):
        raise AttributeError("Rules is immutable")

    def __repr__(self):
        return f"Rules({self._d.name!r})"

    # -- comparison -------------------------------------------------------------------------------
    def ne_as_not_eq(self, op: CompareOp) -> bool:
        """Whether ``op`` (``<>``) is evaluated as ``NOT (=)``, so unlike types give TRUE."""
        return op is CompareOp.NE and self._d.ne_is_not_eq

    def eq_nulls(self, op: CompareOp) -> "NullEquality | None":
        """What ``op`` (``=``) gives with a NULL operand, or None when a NULL operand makes any
        comparison UNKNOWN (SQL, JMS). ActiveMQ: NULL on the left UNKNOWN, only on the right
        FALSE, on both TRUE; WSO2 (andes): one side FALSE, both TRUE."""
        if op is not CompareOp.EQ:
            return None
        return _NULL_EQUALITY.get(self._d.null_equality)

    def computation(self, op: ArithOp) -> Computation:
        """``op`` as this dialect computes it for every pair of types (`Computation`; cached)."""
        return tabulate_computation(self, op)

    def comparator(self, op: CompareOp) -> Comparator:
        """``op`` as this dialect decides it for every pair of types (`Comparator`; cached)."""
        return tabulate_comparator(self, op)

    # -- logic ------------------------------------------------------------------------------------
    @property
    def match_option(self) -> bool:
        """Whether a selector of IBM MQ's match-option form is read as one (`rewrites.match_option`)."""
        return self._d.zero_id_wildcard

    @property
    def and_or(self) -> Logic:
        """What AND and OR are (`Logic`)."""
        return Logic.LEFT_FIRST if self._d.logic == "andes" else Logic.KLEENE

    # -- headers ----------------------------------------------------------------------------------
    def header(self, header: str) -> HeaderRule:
        """What the header ``header`` reads in this dialect (`HeaderRule`): WSO2's JMSDestination
        is always NULL and JMSRedelivered always FALSE; its JMSTimestamp and JMSExpiration read 0
        when unset. Other headers read the message's value (NULL when it has none)."""
        if header in self._d.header_overrides:
            return HeaderRule(True, self._d.header_overrides[header])
        if header in self._d.null_header_defaults:
            return HeaderRule(False, self._d.null_header_defaults[header])
        return _NO_HEADER_RULE

    def compare(self, op: CompareOp, lt: JmsType, rt: JmsType) -> CompareRule:
        """How ``l op r`` compares two non-NULL values of the static types ``lt`` and ``rt``."""
        lf, rf = lt.family, rt.family
        if lf != rf:
            return term_order(op, lf, rf) if self._d.erlang_term_order else Order.FALSE
        if lf == "numeric":
            promotion = self._d.comparison_promotion
            t = promote(lt, rt) if promotion is None else promotion.get((lt, rt))
            if t is None:
                return Order.FALSE
            return NumericOrder(t, t.is_approximate and self._d.compare_to_doubles)
        if not op.is_ordering:
            return Order.PLAIN
        if not self._d.string_ordering or (lf != "string" and not self._d.ordered_booleans):
            return Order.FALSE
        return Order.UTF16 if lf == "string" and not self._d.erlang_term_order else Order.PLAIN

    @property
    def condition(self) -> "Comparator | None":
        """A non-predicate where a condition is expected is ``x = TRUE`` under this comparator
        (RabbitMQ); None: the back ends' reading (a boolean itself, any other value FALSE)."""
        return condition_comparator() if self._d.non_boolean_condition_unknown else None

    # -- arithmetic -------------------------------------------------------------------------------
    def arithmetic(self, op: ArithOp, lt, rt) -> "JmsType | None":
        """The type ``l op r`` computes in, for non-NULL operands of types ``lt`` and ``rt``.

        ``JmsType.STRING``: string concatenation (``String.valueOf`` of the right operand).
        An exact type: Java integer arithmetic in it (wrapping; ``/`` truncates, ``/ 0`` and
        ``% 0`` are NULL). An approximate type: IEEE arithmetic in it (Java's ``/`` and ``%``).
        None: no value (NULL), e.g. arithmetic on a string or boolean. ``lt``/``rt`` may be the
        non-JMS type of a function's list value.
        """
        if op is ArithOp.PLUS and self._d.string_concatenation and lt is JmsType.STRING:
            return JmsType.STRING
        if not (isinstance(lt, JmsType) and isinstance(rt, JmsType) and lt.is_numeric and rt.is_numeric):
            return None
        t = promote(lt, rt)
        if t is JmsType.FLOAT and self._d.float_arithmetic_as_double:
            t = JmsType.DOUBLE
        if self._d.long_arithmetic:
            t = JmsType.LONG if t.is_exact else JmsType.DOUBLE  # Qpid C++: int64 or double values
        if self._d.integer_division == "double" and (op is ArithOp.MODULO or (op is ArithOp.DIVIDE and t.is_exact)):
            t = JmsType.DOUBLE  # ActiveMQ: 5 / 2 = 2.5, 7 % 0 is NaN
        return t

    def negation(self, t: JmsType) -> JmsType:
        """The type unary minus computes in for a numeric ``t``: Java's (byte/short → int, long,
        float, double; int and long wrap), or int64/double where exact values are 64-bit (Qpid C++)."""
        if self._d.long_arithmetic:
            return JmsType.LONG if t.is_exact else JmsType.DOUBLE
        if t.is_approximate:
            return t
        return JmsType.LONG if t is JmsType.LONG else JmsType.INT

    def plus_keeps(self, t) -> bool:
        """Whether unary ``+`` returns a non-NULL value of type ``t`` unchanged (else NULL)."""
        return (isinstance(t, JmsType) and t.is_numeric) or self._d.unary_plus_identity

    # -- predicates -------------------------------------------------------------------------------
    def between(self, negated: bool) -> Between:
        """How ``[NOT] BETWEEN`` is evaluated."""
        if self._d.null_between_is_false:
            return Between.NULL_IS_FALSE
        if self._d.between_null_unknown:
            return Between.NULL_IS_UNKNOWN
        if negated and self._d.not_between_as_or:
            return Between.OUTSIDE_AS_OR
        return Between.KLEENE

    def in_non_string(self, negated: bool) -> "bool | None":
        """``x [NOT] IN (...)`` when x is a non-NULL non-string: FALSE/TRUE, or None (UNKNOWN).
        Qpid C++ (IN over any expressions): FALSE both ways, every element being of another type."""
        if self._d.in_non_string_unknown:
            return None
        return False if self._d.in_expressions else negated

    def like_escape_fails(self, escape: "str | None") -> bool:
        """Whether LIKE with ``escape`` is UNKNOWN for every value: RabbitMQ compiles no pattern
        for an escape that is not one UTF-8 byte, and raises."""
        return self._d.like_escape_one_byte and escape is not None and len(escape.encode("utf-8")) != 1

    def like_non_string(self, negated: bool) -> "bool | None":
        """``x [NOT] LIKE p`` when x is a non-NULL non-string: FALSE/TRUE, or None (UNKNOWN: Qpid
        C++'s ``LikeExpression``)."""
        return None if self._d.like_non_string_unknown else negated

    # -- strings ----------------------------------------------------------------------------------
    @property
    def converts_strings(self) -> bool:
        """Whether a string compared with a number or boolean is converted first (ActiveMQ's
        ``convert_string_expressions:`` prefix); see `string_conversion`."""
        return self._d.convert_string_expressions

    def string_conversion(self, lt, rt) -> "tuple[str, JmsType | None] | None":
        """How a string compared with a number or a boolean is read (``ComparisonExpression.compare``
        under ``convert_string_expressions``): ``("left", T)`` or ``("right", T)`` — which side is
        converted with ``T.valueOf(String)`` (the other side's class) — or ``("error", None)`` when
        ActiveMQ throws (a boolean on the left: it casts the Boolean to String); None when no
        conversion applies (the dialect does not convert, or the pair is not string vs number/boolean)."""
        if not self._d.convert_string_expressions:
            return None
        if not (isinstance(lt, JmsType) and isinstance(rt, JmsType)):
            return None
        if lt is JmsType.STRING and (rt.is_numeric or rt is JmsType.BOOLEAN):
            return ("left", rt)
        if rt is JmsType.STRING and lt.is_numeric:
            return ("right", lt)
        if rt is JmsType.STRING and lt is JmsType.BOOLEAN:
            return ("error", None)
        return None

    @property
    def text_jdk(self) -> int:
        """The Java version whose ``Double.toString``/``Float.toString`` turns numbers into text
        (string concatenation, ActiveMQ's functions)."""
        return self._d.jdk


_NULL_EQUALITY = {"activemq": NullEquality(None, False, True), "andes": NullEquality(False, False, True)}


@functools.lru_cache(maxsize=64)
def rules_for(dialect: Dialect) -> Rules:
    """The `Rules` of a dialect (cached: one object per dialect)."""
    return Rules(dialect)


# -- the lowering pass: a selector tree → the core language (`core`) ------------------------------

def lower(root: "n.Node | None", rules: Rules, types=None, constants=None) -> "n.Node | None":
    """The core tree of ``root`` for the dialect of ``rules``: every construct whose meaning the
    dialect decides replaced by the `core` node that says which meaning it has (see `core`).

    Constants are folded here, once: a name of ``constants`` (``{name: (value, JmsType)}``, what
    the binder knows every message reads: a property the table cannot hold is ``(None,
    JmsType.NULL)``, a header the dialect fixes its value) becomes a `nodes.Literal`, and every
    node whose operands are all literals becomes the literal of its value (``JmsType.NULL``
    for NULL, `functions.LIST` for an ActiveMQ list), computed by the scalar rules
    (`scalar.apply`, `functions.call_function`) the reference interpreter is made of. So no back
    end folds or asks the interpreter: each renders a literal.

    Sub-trees that do not change are shared with ``root``. ``types`` (a `typed_tree.TypedTree`
    of ``root``, optional) learns the type of every new node, so a back end can ask it about the
    core tree too.
    """
    if root is None:
        return None
    lowering = _Lowering(rules, types, constants)
    return lowering.condition(lowering.lower_node(root), root)


def lower_selector(selector, rules: Rules, types=None, constants=None) -> "n.Node | None":
    """`lower` of a `Selector`'s tree with the dialect's named rewrites (`rewrites`): IBM MQ's
    match-option form first (`rewrites.match_option`, when ``Dialect.zero_id_wildcard``), then the
    lowered tree's boolean skeleton simplified (`rewrites.simplify`). Every evaluation of a
    selector — the reference interpreter, the vectorized and the SQL back ends — reads this tree."""
    root = selector.root
    if root is None:
        return None
    if selector.option_form is not None and rules.match_option:
        matched = rewrites.match_option(root, selector.option_form)
        if matched is not root and types is not None:
            types.derive(matched, root)
        root = matched
    lowering = _Lowering(rules, types, constants)
    return rewrites.simplify(lowering.condition(lowering.lower_node(root), root), types)


_LITERAL = n.Literal


def _fold(node, operands):
    """The literal of ``node`` (a core node) whose operands are the literals ``operands``."""
    values = [None if o.type is JmsType.NULL else TypedValue(o.type, o.value) for o in operands]
    v = call_function(node.name, values, node.text_jdk) if type(node) is c.Call else scalar.apply(node, values)
    return _LITERAL(None, JmsType.NULL, node.span) if v is None else _LITERAL(v.value, v.type, node.span)


@functools.lru_cache(maxsize=64)
def _negations(rules: Rules) -> tuple:
    """``((numeric type, the type unary minus computes it in), ...)`` for `core.Negate`: a pure
    function of the immutable ``rules``, cached (bounded) so a lowering does not rebuild it."""
    return tuple((t, rules.negation(t)) for t in JmsType if t.is_numeric)


class _Lowering:
    """One lowering: ``lower_node`` dispatches on the node's class (`_LOWER`); each method lowers the
    operands, builds the core node, folds it when every operand is a literal (`_fold`) and tells
    the typed tree (`_done`)."""

    __slots__ = ("rules", "types", "and_", "or_", "left_first", "negations", "constants", "columns", "as_condition")

    def __init__(self, rules: Rules, types, constants=None):
        self.rules, self.types, self.constants = rules, types, constants
        self.columns = None if types is None else types.column_types
        self.left_first = rules.and_or is Logic.LEFT_FIRST
        self.and_, self.or_ = (c.LeftFirstAnd, c.LeftFirstOr) if self.left_first else (c.KleeneAnd, c.KleeneOr)
        self.negations = _negations(rules)
        self.as_condition = rules.condition

    def condition(self, out, node):
        """``out`` (lowered from ``node``) where a condition is expected (`Rules.condition`)."""
        cmp = self.as_condition
        if cmp is None or type(out) in c.PREDICATES or (type(out) is _LITERAL and out.type is JmsType.BOOLEAN):
            return out
        true = _LITERAL(True, JmsType.BOOLEAN, out.span)
        columns = self.columns
        t = _static_type(out, columns) if columns is not None else None
        wrapped = c.Compare(CompareOp.EQ, out, true, out.span, cmp, None if t is None else (t, JmsType.BOOLEAN))
        if type(out) is _LITERAL:
            wrapped = _fold(wrapped, (out, true))
        return self._done(wrapped, node)

    def lower_node(self, node):
        try:
            how = _LOWER[type(node)]
        except KeyError:
            raise TypeError(f"not a selector node: {node!r}") from None
        return how(self, node)

    def _done(self, out, node):
        if self.types is not None:
            self.types.derive(out, node)
        return out

    def _literal(self, node):
        return node

    def _identifier(self, node):
        known = self.constants.get(node.name) if self.constants else None
        if known is None:
            return node
        return self._done(_LITERAL(known[0], known[1] if known[0] is not None else JmsType.NULL, node.span), node)

    def _logic(self, node):
        kids = tuple(self.condition(self.lower_node(k), k) for k in node.operands)
        out = (self.and_ if type(node) is n.And else self.or_)(kids, node.span)
        for k in kids:
            if type(k) is not _LITERAL:
                break
        else:
            out = _fold(out, kids)
        if self.types is not None:
            self.types.derive(out, node)
        return out

    def _comparison(self, node):
        low = self.lower_node
        l, r = low(node.left), low(node.right)
        cmp = self.rules.comparator(node.op)
        unlike = _unlike(cmp, self.columns, l, r) if cmp.unlike and self.columns is not None else None
        if unlike is None:
            columns = self.columns
            lt = _static_type(l, columns) if columns is not None else None
            rt = _static_type(r, columns) if lt is not None else None
            out = c.Compare(node.op, l, r, node.span, cmp, None if rt is None else (lt, rt))
        else:
            out = c.UnlikeTypes(node.op, l, r, node.span, unlike)
        if type(l) is _LITERAL and type(r) is _LITERAL:
            out = _fold(out, (l, r))
        if self.types is not None:  # `_done`, inline: the commonest node
            self.types.derive(out, node)
        return out

    def _arithmetic(self, node):
        low = self.lower_node
        l, r = low(node.left), low(node.right)
        columns = self.columns
        lt = _static_type(l, columns) if columns is not None else None
        rt = _static_type(r, columns) if lt is not None else None
        how = self.rules.computation(node.op)
        out = c.Compute(node.op, l, r, node.span, how, None if rt is None else (lt, rt))
        if type(r) is _LITERAL:
            if type(l) is _LITERAL:
                out = _fold(out, (l, r))
            elif rt is not None and node.op in _DIVISIONS and r.value == 0 and rt.is_exact:
                t = how.result(lt, rt)
                if t is not None and t.is_exact:  # integer x / 0, x % 0: NULL whatever x is
                    out = _LITERAL(None, JmsType.NULL, node.span)
        return self._done(out, node)

    def _between(self, node):
        low = self.lower_node
        x, lo, hi = low(node.operand), low(node.low), low(node.high)
        how = self.rules.between(node.negated)
        cmp = self.rules.comparator
        columns = self.columns
        types = None
        if columns is not None:
            xt = _static_type(x, columns)
            lt = _static_type(lo, columns) if xt is not None else None
            ht = _static_type(hi, columns) if lt is not None else None
            types = None if ht is None else (xt, lt, ht)
        if how is Between.NULL_IS_UNKNOWN:
            inside = c.TwoValuedBetween(x, lo, hi, False, node.span, cmp(GE), cmp(LE), types)
            done = functools.partial(self._done, node=node)
            return done(between_null_unknown(inside, node.negated, self.and_, self.or_, _fold, done))
        if how is Between.NULL_IS_FALSE:
            out = c.TwoValuedBetween(x, lo, hi, node.negated, node.span, cmp(GE), cmp(LE), types)
        elif how is Between.OUTSIDE_AS_OR:
            out = c.OutsideBetween(x, lo, hi, True, node.span, cmp(LT), cmp(GT), self.left_first, types)
        else:
            out = c.InsideBetween(x, lo, hi, node.negated, node.span, cmp(GE), cmp(LE), self.left_first, types)
        if type(x) is _LITERAL and type(lo) is _LITERAL and type(hi) is _LITERAL:
            out = _fold(out, (x, lo, hi))
        return self._done(out, node)

    def _in_list(self, node):
        x = self.lower_node(node.operand)
        xt = _static_type(x, self.columns) if self.columns is not None else None
        out = c.InStrings(x, node.values, node.negated, node.span, self.rules.in_non_string(node.negated), xt)
        return self._done(_fold(out, (x,)) if type(x) is _LITERAL else out, node)

    def _like(self, node):
        if self.rules.like_escape_fails(node.escape):
            return self._done(_LITERAL(None, JmsType.NULL, node.span), node)
        x = self.lower_node(node.operand)
        xt = _static_type(x, self.columns) if self.columns is not None else None
        out = c.LikeString(x, node.pattern, node.escape, node.negated, node.span,
                           self.rules.like_non_string(node.negated), like_segments(node.pattern, node.escape), xt)
        return self._done(_fold(out, (x,)) if type(x) is _LITERAL else out, node)

    def _unary(self, node):
        x = self.lower_node(node.operand)
        xt = _static_type(x, self.columns) if self.columns is not None else None
        if node.op is n.UnaryOp.MINUS:
            out = c.Negate(node.op, x, node.span, self.negations, xt)
        else:
            out = c.Plus(node.op, x, node.span, self.rules.plus_keeps(JmsType.STRING), xt)
        return self._done(_fold(out, (x,)) if type(x) is _LITERAL else out, node)

    def _not_or_is_null(self, node):
        """`nodes.Not` and `nodes.IsNull` are core nodes as they are (itself when the operand is)."""
        x = self.lower_node(node.operand)
        if type(node) is n.Not:
            x = self.condition(x, node.operand)
        if type(x) is _LITERAL:
            return self._done(_fold(node, (x,)), node)
        if x is node.operand:
            return node
        out = n.Not(x, node.span) if type(node) is n.Not else n.IsNull(x, node.negated, node.span)
        return self._done(out, node)

    def _call(self, node):
        kids = tuple(map(self.lower_node, node.args))
        out = c.Call(node.name, kids, node.span, self.rules.text_jdk)
        for k in kids:
            if type(k) is not _LITERAL:
                return self._done(out, node)
        return self._done(_fold(out, kids), node)


#: How `_Lowering.lower_node` lowers each front-end node class.
_LOWER = {n.Literal: _Lowering._literal, n.Identifier: _Lowering._identifier, n.And: _Lowering._logic,
          n.Or: _Lowering._logic, n.Comparison: _Lowering._comparison, n.Arithmetic: _Lowering._arithmetic,
          n.Between: _Lowering._between, n.InList: _Lowering._in_list, n.Like: _Lowering._like,
          n.Unary: _Lowering._unary, n.Not: _Lowering._not_or_is_null, n.IsNull: _Lowering._not_or_is_null,
          n.FunctionCall: _Lowering._call}


_static_type = c.static_type
_DIVISIONS = (ArithOp.DIVIDE, ArithOp.MODULO)


def _unlike(cmp: Comparator, columns: dict, left, right) -> "bool | None":
    """What ``left op right`` gives for any two values when the static types of both operands
    (a literal's, a name's in ``columns``: `TypedTree.column_types`) never compare under ``cmp``
    — False, or True for ``<>`` as ``NOT =`` — else None (a `core.Compare` decides per row). Not
    when ``=`` has a NULL rule (`NullEquality`): a NULL operand would not simply be UNKNOWN."""
    t = type(left)
    lt = left.type if t is _LITERAL else columns.get(left.name) if t is n.Identifier else None
    if lt is None:
        return None
    t = type(right)
    rt = right.type if t is _LITERAL else columns.get(right.name) if t is n.Identifier else None
    return None if rt is None else cmp.unlike.get((lt._name_, rt._name_))


GE, LE, LT, GT = CompareOp.GE, CompareOp.LE, CompareOp.LT, CompareOp.GT
