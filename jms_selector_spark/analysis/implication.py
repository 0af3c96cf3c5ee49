"""Does one selector imply another? `implies`: a proof, or a witness message, saying which it was.

Subscription A is *shadowed* by B when every message A receives, B receives too: A's selector
implies B's. Two ways to decide it, without data:

- **a proof by containment**, for selectors that are conjunctions of simple predicates on names
  (``x = 'a'``, ``x IN (...)``, ``x = 5``, ``x > 5``, ``x BETWEEN 1 AND 9``, ``x IS NOT NULL``,
  either side of the operator): each conjunct TRUE means the name's value lies in a set (strings,
  or a numeric interval); A's conjuncts on a name intersect to one set; A implies B when each of
  B's conjuncts holds on every value of A's set for its name. An empty intersection proves that A
  is never TRUE (a contradiction: it receives nothing). The proof is used only where the
  dialect's rules make those sets exact: values of unlike types compare FALSE (not by type order,
  not after converting strings), a non-string is never IN a list, and the numbers are below 2**53
  (so Java's conversions between long and double keep their order);
- otherwise **a witness search**: the messages `compare_dialects` tries (the selectors' own
  literals and their neighbours, boundary values, NULL, unlike types), looking for one that A
  delivers and B does not. A witness refutes; no witness after the search is evidence, not proof.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..language import nodes as n
from ..language.nodes import CompareOp, UnaryOp
from ..language.types import JmsType
from ..parsing import as_selector
from ..semantics.decisions import Order
from ..semantics.lowering import lower_selector, rules_for
from .dialect_compare import candidate_messages
from .typed_message import TypedMessage, word

__all__ = ["Implication", "implies", "never_true"]

_SAFE = 2.0 ** 53
_FLIP = {CompareOp.LT: CompareOp.GT, CompareOp.GT: CompareOp.LT, CompareOp.LE: CompareOp.GE,
         CompareOp.GE: CompareOp.LE, CompareOp.EQ: CompareOp.EQ, CompareOp.NE: CompareOp.NE}
_NUMBERS = (JmsType.BYTE, JmsType.SHORT, JmsType.INT, JmsType.LONG, JmsType.FLOAT, JmsType.DOUBLE)
_OTHERS = (JmsType.STRING, JmsType.BOOLEAN)


@dataclass(frozen=True)
class Implication:
    """What `implies` found: ``implies`` is True (proved), False (refuted by ``witness``, a
    `TypedMessage` that ``a`` delivers and ``b`` does not) or None (no proof, and no witness in
    ``candidates`` messages); ``method`` says how: ``"proof"``, ``"never"`` (``a`` is never TRUE,
    so it implies anything), ``"witness"`` or ``"search"``."""

    a: str
    b: str
    dialect: str
    implies: "bool | None"
    method: str
    detail: str
    witness: "TypedMessage | None" = None
    candidates: int = 0

    def __str__(self) -> str:
        verdict = {True: "implies", False: "does not imply", None: "may imply"}[self.implies]
        out = f"{self.a!r} {verdict} {self.b!r} ({self.dialect}; {self.method}): {self.detail}"
        if self.witness is not None:
            out += f"\n  witness: {self.witness}"
        return out


def implies(a, b, *, dialect=None, schema=None, max_candidates: int = 5_000, timeout: float = 5.0) -> Implication:
    """Whether every message selector ``a`` delivers, selector ``b`` delivers too.

    Parameters
    ----------
    a, b : str or Selector
        The selectors (parsed with ``dialect`` when text).
    dialect : str or Dialect, optional
    schema : optional
        Property types for the witness search (as `compare_dialects` takes them).
    max_candidates : int, default 5,000
        Messages tried at most by the witness search.
    timeout : float, default 5.0
        Seconds at most for the witness search.

    Returns
    -------
    Implication

    Examples
    --------
    >>> implies("color = 'blue' AND weight > 2500", "weight >= 1000").implies
    True
    >>> r = implies("weight > 2500", "weight > 3000")
    >>> r.implies, r.method, str(r.witness)
    (False, 'witness', 'weight = 2501 (long)')
    >>> implies("x = 1 AND x = 2", "y = 'z'").method
    'never'
    """
    sa, sb = as_selector(a, dialect), as_selector(b, dialect)
    if sb.dialect is not sa.dialect:
        sb = as_selector(sb.text, sa.dialect)
    d = sa.dialect.name
    never = never_true(sa)
    if never is not None:
        return Implication(sa.text, sb.text, d, True, "never", f"{sa.text!r} is never TRUE: {never}")
    proof = _prove(sa, sb)
    if proof is not None:
        return Implication(sa.text, sb.text, d, True, "proof", proof)
    deadline = time.monotonic() + timeout
    count = 0
    for msg, _phase in candidate_messages(sa, sb, schema, max_candidates=max_candidates, deadline=deadline):
        count += 1
        ta = msg.evaluate(sa, None)
        if ta is True:
            tb = msg.evaluate(sb, None)
            if tb is not True:
                return Implication(sa.text, sb.text, d, False, "witness",
                                   f"delivered by the first, {word(tb)} in the second", msg, count)
        if count % 256 == 0 and time.monotonic() > deadline:
            break
    return Implication(sa.text, sb.text, d, None, "search",
                       f"no proof (not conjunctions of simple predicates, or the dialect's rules do not make "
                       f"them exact) and no witness in {count:,} messages", None, count)


def never_true(selector, *, dialect=None) -> "str | None":
    """Why ``selector`` is TRUE for no message (a constant FALSE or UNKNOWN, or conjuncts on one
    name that no value meets), or None when that is not proved.

    Examples
    --------
    >>> never_true("x > 5 AND x < 3")
    '`x` cannot be > 5 and < 3 at once'
    >>> never_true("1 = 2")
    'the selector is a constant FALSE'
    >>> never_true("x > 5") is None
    True
    """
    sel = as_selector(selector, dialect)
    if sel.root is None:
        return None
    core = lower_selector(sel, rules_for(sel.dialect))
    if type(core) is n.Literal and core.value is not True:
        return f"the selector is a constant {'UNKNOWN' if core.value is None else 'FALSE'}"
    sets = _conjunct_sets(sel)
    if sets is None:
        return None
    for name, (s, texts) in sets.items():
        if s.empty:
            return f"`{name}` cannot be {' and '.join(texts)} at once"
    return None


# -- the sets a conjunct confines a name to ----------------------------------------------------------

@dataclass(frozen=True)
class _Set:
    """Values of one name: ``strings`` (a frozenset, or None: any string), or a numeric interval
    ``lo``..``hi`` (closed ends when ``lo_in``/``hi_in``), or ``any`` non-NULL value."""

    kind: str  # "string" | "number" | "any" | "none"
    strings: frozenset = frozenset()
    lo: float = -math.inf
    hi: float = math.inf
    lo_in: bool = False
    hi_in: bool = False

    @property
    def empty(self) -> bool:
        if self.kind == "none":
            return True
        if self.kind == "string":
            return not self.strings
        if self.kind == "number":
            return self.lo > self.hi or (self.lo == self.hi and not (self.lo_in and self.hi_in))
        return False

    def meet(self, other: "_Set") -> "_Set":
        if self.kind == "any":
            return other
        if other.kind == "any":
            return self
        if self.kind != other.kind or self.kind == "none":
            return _Set("none")
        if self.kind == "string":
            return _Set("string", self.strings & other.strings)
        lo, lo_in = max((self.lo, not self.lo_in), (other.lo, not other.lo_in))
        hi, hi_in = min((self.hi, self.hi_in), (other.hi, other.hi_in))
        return _Set("number", lo=lo, hi=hi, lo_in=not lo_in, hi_in=hi_in)

    def within(self, other: "_Set") -> bool:
        """Every value of ``self`` (non-empty) is in ``other``."""
        if other.kind == "any":
            return True
        if self.kind != other.kind:
            return False
        if self.kind == "string":
            return self.strings <= other.strings
        low_ok = self.lo > other.lo or (self.lo == other.lo and (other.lo_in or not self.lo_in))
        high_ok = self.hi < other.hi or (self.hi == other.hi and (other.hi_in or not self.hi_in))
        return low_ok and high_ok


def _number(node) -> "float | int | None":
    if type(node) is n.Unary and node.op is UnaryOp.MINUS:
        v = _number(node.operand)
        return None if v is None else -v
    if type(node) is n.Literal and node.type in _NUMBERS and not isinstance(node.value, bool):
        v = node.value
        return v if math.isfinite(v) and abs(v) < _SAFE else None
    return None


def _interval(op: CompareOp, v) -> "_Set | None":
    if op is CompareOp.EQ:
        return _Set("number", lo=v, hi=v, lo_in=True, hi_in=True)
    if op in (CompareOp.GT, CompareOp.GE):
        return _Set("number", lo=v, lo_in=op is CompareOp.GE)
    if op in (CompareOp.LT, CompareOp.LE):
        return _Set("number", hi=v, hi_in=op is CompareOp.LE)
    return None  # <> is two intervals


def _atom(node, rules) -> "tuple[str, _Set] | None":
    """``(name, the set a TRUE node confines it to)`` for a simple predicate the dialect makes exact."""
    t = type(node)
    if t is n.Comparison:
        left, right, op = node.left, node.right, node.op
        if type(left) is not n.Identifier:
            left, right, op = right, left, _FLIP[op]
        if type(left) is not n.Identifier:
            return None
        v = _number(right)
        if v is not None:
            if not _unlike_false(rules, op):
                return None
            s = _interval(op, v)
            return None if s is None else (left.name, s)
        if type(right) is n.Literal and right.type is JmsType.STRING and op is CompareOp.EQ:
            if not _unlike_false(rules, op):
                return None
            return left.name, _Set("string", frozenset([right.value]))
        return None
    if t is n.InList and not node.negated and type(node.operand) is n.Identifier:
        if rules.in_non_string(False) is not False:
            return None
        return node.operand.name, _Set("string", frozenset(lit.value for lit in node.values))
    if t is n.Between and not node.negated and type(node.operand) is n.Identifier:
        lo, hi = _number(node.low), _number(node.high)
        if lo is None or hi is None or not _unlike_false(rules, CompareOp.GE):
            return None
        return node.operand.name, _Set("number", lo=lo, hi=hi, lo_in=True, hi_in=True)
    if t is n.IsNull and node.negated and type(node.operand) is n.Identifier:
        return node.operand.name, _Set("any")
    return None


def _unlike_false(rules, op: CompareOp) -> bool:
    """A string or boolean compared with a number by ``op`` is FALSE (not converted, not ordered by type)."""
    for other in _OTHERS:
        for num in (JmsType.LONG, JmsType.DOUBLE):
            for lt, rt in ((other, num), (num, other)):
                if rules.compare(op, lt, rt) is not Order.FALSE or rules.string_conversion(lt, rt) is not None:
                    return False
    return True


def _conjuncts(root) -> list:
    if isinstance(root, n.And):
        return [c for op in root.operands for c in _conjuncts(op)]
    return [root]


def _conjunct_sets(sel) -> "dict | None":
    """``{name: (the meet of its conjuncts' sets, their texts)}``, or None when a conjunct is not a
    simple predicate this proof reads (or the selector needs a rewrite first)."""
    if sel.root is None or sel.option_form is not None:
        return None
    rules = rules_for(sel.dialect)
    out: dict = {}
    for c in _conjuncts(sel.root):
        atom = _atom(c, rules)
        if atom is None:
            return None
        name, s = atom
        header = sel.dialect.header_for(name)
        if header is not None and rules.header(header).fixed:
            return None
        prev, texts = out.get(name, (_Set("any"), []))
        out[name] = (prev.meet(s), texts + [_shown(c, sel.text, name)])
    return out


def _shown(node, text: str, name: str) -> str:
    part = text[node.span.start:node.span.end].strip()
    return part[len(name):].strip() if part.startswith(name) else part


def _prove(sa, sb) -> "str | None":
    """Why every message ``sa`` delivers, ``sb`` delivers (containment), or None."""
    a_sets = _conjunct_sets(sa)
    if a_sets is None or sb.root is None:
        return None if sb.root is not None else "the second selector is empty (every message)"
    rules = rules_for(sb.dialect)
    steps = []
    for c in _conjuncts(sb.root):
        atom = _atom(c, rules) if sb.option_form is None else None
        if atom is None:
            return None
        name, s = atom
        mine = a_sets.get(name)
        if mine is None or not mine[0].within(s):
            return None
        steps.append(f"`{name}` {' and '.join(mine[1])} ⊆ `{sb.text[c.span.start:c.span.end]}`")
    return "; ".join(steps)
