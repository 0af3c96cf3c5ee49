"""The vectorized evaluator: a selector over a batch of Arrow columns, three-valued, per row.

`evaluate_batch` computes, for every row of a batch, the value of ``selector.root``: TRUE, FALSE
or null (UNKNOWN), with exactly the rules of the reference interpreter (`semantics/scalar.py`,
`javanum.py`, `like.py`, `functions.py`) for the selector's `Dialect`. It is the Python side of
the ``jms_match`` Arrow UDF and of every sub-expression the SQL back end hands to the fallback.

Design
------
Types come from lowering, not from the data. Where lowering knows an operand's one static JMS
type it carries it on the node (`core.Compare.types`, `Compute.types`, the BETWEENs' ``types``,
``operand_type`` of `InStrings`, `LikeString`, `Negate`, `Plus`; `core.static_type`: a literal's
type, a column's ``ColumnRef.type``, BOOLEAN for a predicate, what static arithmetic computes
in), and the evaluator takes the single-typed path: each operand is one Arrow *part*
(`VectorizedEvaluator.part`: a scalar, the column's array, a truth value, a computed array), and
the node renders the decision for that one pair of types with one kernel — no union, no loop
over types. `evaluate_batch` lowers with the types its columns declare (``(JmsType, array)`` is
static; the typed tree's map is not computed).

Unions remain for what has no one static type: DYNAMIC values (a VARIANT property, a column
given as ``{JmsType: array}``, an ActiveMQ function's value), operands that are always NULL (the
NULL literal, arithmetic with no value: ``JmsType.NULL`` carried), and a bare name used as a
condition (NOT/AND/OR carry no operand type). A *union* is a small dict ``{type: part}`` where
each part holds the values of the rows whose value has that type, and is null on every other
row (the parts never overlap): a VARIANT property has one entry per type it holds, a missing one
the empty union (NULL on every row), a static column a one-entry union. Operators loop over the
(few) pairs of types present and run one kernel per pair. ActiveMQ's ``LIST`` values (MAKELIST,
SPLIT) are `_Boxed` parts: codes into a tuple of Python lists.

Truth values are nullable boolean arrays (or scalars) combined with the Kleene kernels
``and_kleene`` / ``or_kleene``, so UNKNOWN is null all the way up; nothing collapses it to FALSE.

Constants are folded before the evaluator sees the tree: `lowering.lower` turns every node
whose operands are all constant (literals, names the table or batch does not have) into a
literal, with the scalar rules the reference interpreter is made of. The evaluator computes
nothing with those rules; it renders literals as scalar parts (the two constant operands of a
BETWEEN's comparison run through the same kernels, on one row).

Java numerics: int and long arithmetic runs on int32 / int64 kernels that wrap (pyarrow's
unchecked ``add``/``subtract``/``multiply``); integer division by a constant is Arrow's
truncating ``divide`` (``/ 0`` is NULL, ``/ -1`` a wrapping ``negate``), and by a column it is
done in numpy with the divisor-zero rows nulled and ``MIN / -1`` handled explicitly; float arithmetic is
double arithmetic rounded to float32, as in `semantics.arithmetic`. ``Double.compare`` order is a
signed-integer key of the IEEE bits. String ordering (ActiveMQ) follows UTF-16 code units: UTF-8
bytes with the lead bytes of U+E000..U+FFFF moved above those of supplementary characters.

LIKE runs a pyarrow kernel chosen from the pattern: ``equal``, ``starts_with``, ``ends_with``,
``match_substring``, or an anchored RE2 regex (``_`` is one code point, DOTALL). RE2 is linear in
the value length, but for patterns with many ``_`` after a ``%`` its DFA gives up and its NFA
costs (value length × pattern size) per value; such patterns (and long ones) match the batch's
distinct values with `like.segments_matcher` (the linear segment matcher) instead. The pattern
comes planned (`core.LikeString.segments`, normalised by `lowering.lower`): the evaluator only
chooses the kernel that renders the plan.

Deliberately not done
---------------------
- No per-row Python on the hot path. Per *distinct* value Python is used only where Java
  behaviour has no kernel: ActiveMQ functions (`functions.call_function` once per distinct
  argument tuple), ``String.valueOf`` of floating values in string concatenation, and the LIKE
  fallback above. The one row-by-row path is a selector whose string literals hold a lone
  UTF-16 surrogate (legal in Java, impossible in an Arrow string): it runs the reference
  interpreter per row rather than fail or answer approximately.
- No pandas: its comparisons turn NULL into False.
- No short-circuit evaluation: every operand of AND/OR is evaluated over the whole batch
  (three-valued logic needs both sides on the rows where one is UNKNOWN).
- No coercion of input types beyond `arrow.columns.ARROW_TYPES`: columns are expected in the shape
  `arrow.columns.extract_columns` produces.

The evaluator is four modules: this one (the driver: the `VectorizedEvaluator` visitor, the
row-by-row path and `evaluate_batch`; the input columns are `arrow.columns`'), `arrow.values`
(unions, masks, truth values, constants, casts), `arrow.compare` (comparison kernels and LIKE) and
`arrow.arithmetic` (arithmetic kernels, string concatenation, ActiveMQ functions).
"""
from __future__ import annotations

from typing import Mapping

import pyarrow as pa
import pyarrow.compute as pc

from ...language import nodes as n
from ...frontend.selector import Selector
from ...language.visitor import NodeVisitor
from ...interpreter import ReferenceInterpreter
from ...semantics import core as c
from ...semantics.functions import LIST
from ...semantics.lowering import lower_selector, rules_for
from ...semantics.typed_tree import type_tree
from ...language.types import JmsType
from ...semantics.values import TypedValue
from .arithmetic import arithmetic_pair, call_distinct
from .columns import ARROW_TYPES, column_types, column_union, plain_array, typed_array
from .compare import compare_converted, compare_pair, converted_strings, like_kernel
from .values import (bool_union, cast_part, coalesce_part, const_union, is_const_union, left_first_and, left_first_or, lift, lift_part, mask_and, mask_or, merge_part, kleene_not, one_row, part_valid, truth_union, union_valid, where_part)

__all__ = ["evaluate_batch", "evaluate_rows", "VectorizedEvaluator", "broadcast", "arrow_strings_only"]


_T = JmsType


# -- the evaluator ------------------------------------------------------------------------------

class VectorizedEvaluator(NodeVisitor):
    """Evaluates core nodes (`core`: a tree `lowering.lower` made for the selector's dialect) over
    a batch of columns; ``visit`` returns a union.

    Parameters
    ----------
    columns : Mapping
        Selector name → ``(JmsType, pa.Array)`` or ``{JmsType: pa.Array}`` (see `evaluate_batch`).
    n_rows : int
        The number of rows of the batch.
    """

    node_types = c.CORE_TYPES

    def __init__(self, columns: Mapping, n_rows: int):
        self.columns = columns
        self.n = n_rows
        self._unions = {}
        self._arrays = {}

    def truth(self, node: n.Node):
        """The three-valued value of a node in a boolean context (a truth value)."""
        return truth_union(self.visit(node))


    def visit_Literal(self, node):
        return const_union(None if node.type is _T.NULL else TypedValue(node.type, node.value))

    def visit_Identifier(self, node):
        if node.name not in self._unions:
            entry = self.columns.get(node.name)
            self._unions[node.name] = {} if entry is None else column_union(entry, self.n)
        return self._unions[node.name]

    # -- typed operands: the static JMS type lowering carried, no union ----------------------------

    def part(self, node, t: JmsType):
        """The value of an operand whose static JMS type ``t`` (not NULL) the core node carries
        (`core.static_type`: a literal, a name of static type, a predicate, arithmetic or a sign
        over static operands) as one Arrow part: a scalar, the column's array, a truth value, or
        what the typed arithmetic computed."""
        k = type(node)
        if k is n.Literal:
            return pa.scalar(node.value, ARROW_TYPES[node.type])
        if k is n.Identifier:
            return self._array(node.name, t)
        value = self.visit(node)  # a predicate, or typed arithmetic/sign: one entry, of type t
        p = value.get(t)
        if p is None:
            if value:  # pragma: no cover - lowering carried the type the node computes
                raise TypeError(f"{node!r} was carried as {t}, but computed {list(value)}")
            return pa.nulls(self.n, ARROW_TYPES[t])  # UNKNOWN / no value on every row
        return p

    def _array(self, name: str, t: JmsType):
        """The column ``name`` as the array of the static type ``t`` (all NULL when absent)."""
        arr = self._arrays.get(name)
        if arr is None:
            entry = self.columns.get(name)
            if entry is None:
                arr = pa.nulls(self.n, ARROW_TYPES[t])
            elif isinstance(entry, tuple) and entry[0] is t:
                arr = typed_array(t, plain_array(t, entry[1], self.n))
            else:
                given = ("of per-row types" if isinstance(entry, Mapping)
                         else f"a {getattr(entry[0], 'value', entry[0])} column")
                raise ValueError(f"column {name!r} is {given}, but the selector was lowered for a {t.value} column")
            self._arrays[name] = arr
        return arr

    def _valid(self, node):
        """The rows on which ``node`` has a value (a static column's without building its union)."""
        if type(node) is n.Identifier:
            entry = self.columns.get(node.name)
            if isinstance(entry, tuple) and entry[0] in ARROW_TYPES:
                return part_valid(self._array(node.name, entry[0]))
        return union_valid(self.visit(node))

    def compare_static(self, cmp, lt: JmsType, lp, rt: JmsType, rp):
        """`compare` for the one pair of static types a node carries: ``cmp``'s decision for
        (``lt``, ``rt``), rendered on two parts; no union, no loop over types."""
        if isinstance(lp, pa.Scalar) and isinstance(rp, pa.Scalar):  # e.g. two constants of a BETWEEN
            return one_row(self.compare_static(cmp, lt, lift_part(lp), rt, lift_part(rp)))
        if cmp.eq is not None:
            return kleene_not(self.compare_static(cmp.eq, lt, lp, rt, rp))
        conversion = converted_strings(cmp, lt, rt)
        if conversion is not None:
            out = compare_converted(cmp, lt, lp, rt, rp, conversion)
        else:
            out = compare_pair(cmp, lt, lp, rt, rp)
            if out is None:  # two values that do not compare: FALSE
                out = where_part(mask_and(part_valid(lp), part_valid(rp)), False, None)
        if cmp.nulls is None:
            return out
        return self._null_rule(cmp, out, part_valid(lp), part_valid(rp))

    @staticmethod
    def _null_rule(cmp, out, lv, rv):
        """``out`` with the NULL rule of ``cmp`` (``=`` with its own, ActiveMQ/WSO2) on the rows
        where an operand is NULL (``lv``/``rv``: the masks of rows with a value)."""
        nulls = cmp.nulls
        if nulls is None or (lv is True and rv is True):
            return out
        fill = where_part(lv, nulls.right, where_part(rv, nulls.left, nulls.both))
        if cmp.converts_strings:  # an ActiveMQ error on two values stays UNKNOWN
            fill = where_part(mask_and(lv, rv), None, fill)
        return coalesce_part([out, fill])

    def visit_Not(self, node):
        return bool_union(kleene_not(self.truth(node.operand)))

    def _logical(self, node, kernel):
        out = self.truth(node.operands[0])
        for o in node.operands[1:]:
            out = kernel(out, self.truth(o))
        return bool_union(out)

    def visit_KleeneAnd(self, node):
        return self._logical(node, pc.and_kleene)

    def visit_KleeneOr(self, node):
        return self._logical(node, pc.or_kleene)

    def visit_LeftFirstAnd(self, node):
        return self._logical(node, left_first_and)

    def visit_LeftFirstOr(self, node):
        return self._logical(node, left_first_or)

    def visit_Compare(self, node):
        types = node.types
        if types is None or _T.NULL in types:  # an operand DYNAMIC or NULL: per pair of the types present
            return bool_union(self.compare(node.cmp, self.visit(node.left), self.visit(node.right)))
        lt, rt = types
        return bool_union(self.compare_static(node.cmp, lt, self.part(node.left, lt), rt, self.part(node.right, rt)))

    def visit_UnlikeTypes(self, node):
        return bool_union(where_part(mask_and(self._valid(node.left), self._valid(node.right)), node.value, None))

    def compare(self, cmp, left: dict, right: dict):
        """`semantics.compare` per row (``cmp`` a `decisions.Comparator`), as a truth value."""
        if left and right and is_const_union(left) and is_const_union(right):
            # two constants (a BETWEEN's operand and one bound; `lower` folds every constant
            # node): the same kernels on one row
            return one_row(self.compare(cmp, lift(left), lift(right)))
        if cmp.eq is not None:
            return kleene_not(self.compare(cmp.eq, left, right))
        pieces, unlike = [], []
        for lt, lp in left.items():
            for rt, rp in right.items():
                conversion = converted_strings(cmp, lt, rt)
                if conversion is not None:
                    pieces.append(compare_converted(cmp, lt, lp, rt, rp, conversion))
                    continue
                r = compare_pair(cmp, lt, lp, rt, rp)
                if r is None:
                    unlike.append(mask_and(part_valid(lp), part_valid(rp)))
                else:
                    pieces.append(r)
        if unlike:  # rows with two values that do not compare: FALSE
            pieces.append(where_part(mask_or(*unlike), False, None))
        out = coalesce_part(pieces)
        if cmp.nulls is None:
            return out
        return self._null_rule(cmp, out, union_valid(left), union_valid(right))

    def visit_Compute(self, node):
        types = node.types
        if types is not None and _T.NULL not in types:  # one pair of static types: one kernel
            lt, rt = types
            lp, rp = self.part(node.left, lt), self.part(node.right, rt)
            both_scalar = isinstance(lp, pa.Scalar) and isinstance(rp, pa.Scalar)
            r = arithmetic_pair(node.how, lt, lift_part(lp) if both_scalar else lp, rt,
                                 lift_part(rp) if both_scalar else rp)
            if r is None:
                return {}
            return {r[0]: r[1][0] if both_scalar else r[1]}
        left, right = self.visit(node.left), self.visit(node.right)
        out = {}
        for lt, lp in left.items():
            for rt, rp in right.items():
                r = arithmetic_pair(node.how, lt, lp, rt, rp)
                if r is not None:
                    merge_part(out, *r)
        return out

    def visit_Negate(self, node):
        return self._sign(node, False)

    def visit_Plus(self, node):
        return self._sign(node, node.keeps_any)

    def _sign(self, node, keeps_any: bool):
        t = node.operand_type
        if t is not None and t is not _T.NULL:  # one static type: one kernel
            p = self.part(node.operand, t)
            if node.op is n.UnaryOp.PLUS:
                return {t: p} if t.is_numeric or keeps_any else {}
            if not t.is_numeric:
                return {}
            wide = node.computes_in(t)
            return {wide: pc.negate(cast_part(p, ARROW_TYPES[wide]))}
        v = self.visit(node.operand)
        out = {}
        for t, p in v.items():
            numeric = t != LIST and t.is_numeric
            if node.op is n.UnaryOp.PLUS:
                if numeric or keeps_any:
                    out[t] = p
            elif numeric:
                wide = node.computes_in(t)  # Java: byte/short promote to int
                merge_part(out, wide, pc.negate(cast_part(p, ARROW_TYPES[wide])))
        return out

    def _bounds(self, node, valid: bool = False):
        """(operand vs low, operand vs high: two truth values, and with ``valid`` the mask of rows
        where all three have a value) — on the parts of the static types the node carries, or on unions."""
        types = node.types
        if types is None or _T.NULL in types:
            v, lo, hi = self.visit(node.operand), self.visit(node.low), self.visit(node.high)
            mask = mask_and(union_valid(v), union_valid(lo), union_valid(hi)) if valid else None
            return self.compare(node.low_cmp, v, lo), self.compare(node.high_cmp, v, hi), mask
        xt, lt, ht = types
        v, lo, hi = self.part(node.operand, xt), self.part(node.low, lt), self.part(node.high, ht)
        mask = mask_and(part_valid(v), part_valid(lo), part_valid(hi)) if valid else None
        return self.compare_static(node.low_cmp, xt, v, lt, lo), self.compare_static(node.high_cmp, xt, v, ht, hi), mask

    def visit_TwoValuedBetween(self, node):
        low, high, valid = self._bounds(node, True)
        t = where_part(valid, pc.and_kleene(low, high), False)
        return bool_union(kleene_not(t) if node.negated else t)

    def visit_OutsideBetween(self, node):
        low, high, _ = self._bounds(node)
        either = left_first_or if node.left_first else pc.or_kleene
        return bool_union(either(low, high))

    def visit_InsideBetween(self, node):
        low, high, _ = self._bounds(node)
        both = left_first_and if node.left_first else pc.and_kleene
        t = both(low, high)
        return bool_union(kleene_not(t) if node.negated else t)

    def _static_string_op(self, node, hit):
        """IN/LIKE on an operand of the static type the node carries: ``hit(strings)`` for a
        string column, else ``non_string`` where it has a value."""
        t = node.operand_type
        if t is _T.STRING:
            h = hit(self.part(node.operand, t))
            return bool_union(kleene_not(h) if node.negated else h)
        if node.non_string is None:
            return {}
        return bool_union(where_part(part_valid(self.part(node.operand, t)), node.non_string, None))

    @staticmethod
    def _in_hit(s, node):
        hit = pc.is_in(s, value_set=pa.array([lit.value for lit in node.values], pa.string()))
        return where_part(part_valid(s), hit, None)  # is_in says FALSE for a null

    def visit_InStrings(self, node):
        if node.operand_type is not None and node.operand_type is not _T.NULL:
            return self._static_string_op(node, lambda s: self._in_hit(s, node))
        v = self.visit(node.operand)
        pieces = []
        s = v.get(_T.STRING)
        if s is not None:
            hit = self._in_hit(s, node)
            pieces.append(kleene_not(hit) if node.negated else hit)
        pieces.extend(self._non_string(v, node.non_string))
        return bool_union(coalesce_part(pieces))

    def _non_string(self, v: dict, value) -> list:
        """``value`` on the rows whose value is not a string (a list of at most one piece)."""
        others = [p for t, p in v.items() if t is not _T.STRING]
        if not others or value is None:
            return []
        return [where_part(mask_or(*(part_valid(p) for p in others)), value, None)]

    def visit_LikeString(self, node):
        if node.operand_type is not None and node.operand_type is not _T.NULL:
            return self._static_string_op(node, lambda s: like_kernel(s, node.segments))
        v = self.visit(node.operand)
        pieces = []
        s = v.get(_T.STRING)
        if s is not None:
            hit = like_kernel(s, node.segments)
            pieces.append(kleene_not(hit) if node.negated else hit)
        pieces.extend(self._non_string(v, node.non_string))
        return bool_union(coalesce_part(pieces))

    def visit_IsNull(self, node):
        valid = self._valid(node.operand)
        return bool_union(where_part(valid, node.negated, not node.negated))

    def visit_Call(self, node):
        return call_distinct(node.name, [self.visit(a) for a in node.args], self.n, node.text_jdk)


def broadcast(t, n_rows: int) -> pa.BooleanArray:
    if isinstance(t, pa.Scalar):
        return pa.nulls(n_rows, pa.bool_()) if not t.is_valid else pa.repeat(t, n_rows)
    if isinstance(t, pa.ChunkedArray):
        t = t.combine_chunks()
    return t


def arrow_strings_only(root: n.Node) -> bool:
    """Whether every string the selector writes is valid Unicode (no lone UTF-16 surrogate)."""
    for node in n.walk(root):
        if isinstance(node, n.Literal) and node.type is _T.STRING:
            texts = (node.value,)
        elif isinstance(node, n.Like):
            texts = (node.pattern, node.escape or "")
        else:
            continue
        try:
            for text in texts:
                text.encode("utf-8")
        except UnicodeEncodeError:
            return False
    return True


def evaluate_rows(node, dialect, columns: Mapping, n_rows: int) -> pa.BooleanArray:
    """The reference interpreter row by row over a core node, for the selectors Arrow cannot hold
    the strings of.

    Java strings may hold lone surrogates (``'\\ud800'``); Arrow strings are UTF-8 and cannot.
    Such a selector is rare enough (and hostile enough) that exactness beats speed here.
    """
    values = {}
    for name in dict.fromkeys(x.name for x in n.walk(node) if isinstance(x, n.Identifier)):
        if name in columns:
            per_row = [None] * n_rows
            for t, part in column_union(columns[name], n_rows).items():
                for i, v in enumerate(part.to_pylist()):
                    if v is not None:
                        per_row[i] = TypedValue(t, v)
            values[name] = per_row
    out = []
    for i in range(n_rows):
        row = {name: vals[i] for name, vals in values.items()}
        out.append(ReferenceInterpreter(row.get, dialect).truth(node))
    return pa.array(out, pa.bool_())


def evaluate_batch(selector: Selector, columns: Mapping, n: int) -> pa.BooleanArray:
    """The three-valued value of a selector for every row of a batch.

    Parameters
    ----------
    selector : Selector
        A parsed selector (or a sub-selector: any `Selector` whose root is boolean-valued); its
        dialect gives the rules.
    columns : Mapping[str, tuple or dict]
        For each name the selector uses: ``(JmsType, pa.Array)`` when every row has that type,
        or ``{JmsType: pa.Array}`` when the type varies per row (each array non-null only on
        the rows whose value has that type). Arrays may be chunked. An absent name is NULL.
    n : int
        The number of rows.

    Returns
    -------
    pa.BooleanArray
        Length ``n``: TRUE, FALSE, or null for UNKNOWN. An empty selector is TRUE everywhere.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from jms_selector_spark import parse
    >>> from jms_selector_spark.language.types import JmsType
    >>> cols = {"weight": (JmsType.LONG, pa.array([3000, 10, None]))}
    >>> evaluate_batch(parse("weight > 2500"), cols, 3).to_pylist()
    [True, False, None]
    >>> evaluate_batch(parse("NOT (color = 'blue')"), cols, 3).to_pylist()   # missing: UNKNOWN
    [None, None, None]
    """
    if selector.root is None:
        return pa.repeat(pa.scalar(True), n)
    if not arrow_strings_only(selector.root):
        return evaluate_rows(lower_selector(selector, rules_for(selector.dialect)), selector.dialect, columns, n)
    rules = rules_for(selector.dialect)
    types, absent = column_types(columns, selector.identifiers)  # an absent name is NULL: folded
    core = lower_selector(selector, rules, type_tree(selector.root, types, rules), absent)
    return broadcast(VectorizedEvaluator(columns, n).truth(core), n)

