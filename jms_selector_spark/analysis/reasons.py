"""What decided a selector's answer on one message, and why: the reasons of `explain_delivery`.

`Trace` reads the value the reference interpreter gave every node of the lowered core tree and
finds what decided the answer — below an AND that is FALSE, its FALSE operands; below an UNKNOWN,
its UNKNOWN operands; below an OR that is not TRUE, every operand — and says for each deciding
predicate why it was FALSE or UNKNOWN (a `Reason`: a kind from `REASON_KINDS`, a sentence and
the span of the selector text it is about). The reasons follow the dialect because the core
nodes carry its decisions (ActiveMQ's left-first AND, the ``jms`` rule that BETWEEN with a NULL
is FALSE, RabbitMQ's order of unlike types…): they are read from there, never from the dialect.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..language import nodes as n
from ..language.source import Span
from ..language.types import JmsType
from ..semantics import core as c
from ..semantics import javanum as jn
from ..semantics.decisions import NumericOrder, Order
from .typed_message import format_value

__all__ = ["REASON_KINDS", "TRUTH", "Reason", "Step", "Trace", "truth_of"]

#: Every kind of `Reason`, with what it means.
REASON_KINDS = {
    "missing": "a name the message does not have: NULL, so the predicate is UNKNOWN",
    "null": "a name the message has with no value (NULL)",
    "no_value": "arithmetic or a function with no value (unlike types, division by zero): NULL",
    "unlike_types": "values of types that do not compare (a string and a number): FALSE",
    "not_a_number": "a string the dialect converts to a number, that Java cannot read as one: FALSE",
    "no_order": "values the dialect cannot order: UNKNOWN",
    "compared": "two comparable values, and the comparison does not hold",
    "nan": "NaN, which compares FALSE with every number (and unequal to itself)",
    "null_rule": "the dialect's fixed answer for a NULL operand (BETWEEN, =, <>): FALSE, not UNKNOWN",
    "outside_range": "a value outside (or, NOT BETWEEN, inside) the range",
    "not_in_list": "a string not in (or, NOT IN, in) the list",
    "non_string": "IN or LIKE on a value that is not a string: the dialect's answer for that",
    "no_match": "a string the LIKE pattern does not match (or, NOT LIKE, matches)",
    "is_null": "IS [NOT] NULL on a value that is (not) NULL",
    "not": "NOT of TRUE is FALSE; NOT of UNKNOWN is UNKNOWN",
    "left_first": "the dialect's AND/OR reads its operands left to right and stops at the first "
                  "that decides (three-valued logic would answer otherwise)",
    "not_boolean": "a value that is not a boolean where a condition is expected: FALSE",
    "constant": "a sub-expression that is FALSE or UNKNOWN for every message",
}

_AND = (c.KleeneAnd, c.LeftFirstAnd)
_OR = (c.KleeneOr, c.LeftFirstOr)
TRUTH = {True: "TRUE", False: "FALSE", None: "UNKNOWN"}


@dataclass(frozen=True)
class Reason:
    """Why one sub-expression was FALSE or UNKNOWN: ``kind`` (a key of `REASON_KINDS`), the
    sentence ``text`` and the ``span`` of the selector text it is about."""

    kind: str
    text: str
    span: Span


@dataclass(frozen=True)
class Step:
    """One sub-expression in the trace: its selector ``text``, ``span``, ``value`` (a truth value
    for a predicate, a `format_value` rendering otherwise), its operands' steps, its `Reason`
    (None when it needs none) and whether it ``decides`` the answer."""

    text: str
    span: Span
    predicate: bool
    value: object
    shown: str
    children: tuple
    reason: "Reason | None"
    decides: bool


def truth_of(v) -> "bool | None":
    if v is None:
        return None
    return v.value if v.type is JmsType.BOOLEAN else False


def _is_predicate(node) -> bool:
    return type(node) in c.PREDICATES or isinstance(node, (n.Not, n.And, n.Or))


class Trace:
    """The steps and deciding reasons of one evaluation: ``values`` maps ``id(node)`` to the value the
    interpreter gave the node; ``given`` says which names the message has (a NULL one or none)."""

    def __init__(self, text: str, values: dict, given: dict):
        self.text = text
        self.values = values
        self.given = given
        self.reasons: list = []

    def span(self, node) -> Span:
        """``node``'s span, widened over the parentheses its text leaves open (a NOT's span ends
        with its operand's, before the parenthesis that closes it; a comparison's starts after
        the one that opens its left operand)."""
        s = node.span
        text, start, end = self.text, s.start, s.end
        depth = text.count("(", start, end) - text.count(")", start, end)
        while depth > 0:
            gap = len(text[end:]) - len(text[end:].lstrip())
            if text[end + gap:end + gap + 1] != ")":
                break
            end, depth = end + gap + 1, depth - 1
        while depth < 0:
            gap = len(text[:start]) - len(text[:start].rstrip())
            if start - gap < 1 or text[start - gap - 1] != "(":
                break
            start, depth = start - gap - 1, depth + 1
        return s if (start, end) == (s.start, s.end) else Span(start, end)

    def src(self, node) -> str:
        s = self.span(node)
        return self.text[s.start:s.end] if s.end > s.start else _literal_text(node)

    def value(self, node):
        return self.values.get(id(node))

    def step(self, node, deciding: bool, condition: bool = True) -> Step:
        """The trace of ``node``; ``condition``: it stands where a truth value is expected (the
        root, an operand of AND, OR or NOT), so a value there is read as one."""
        v = self.value(node)
        pred = condition or _is_predicate(node)
        t = truth_of(v) if pred else None
        kids = n.children(node)
        decides_kids = self.deciding_children(node, t) if deciding and pred else ()
        reason = self.reason(node, t) if deciding and (not pred or t is not True) else None
        if reason is not None:
            self.reasons.append(reason)
        logic = isinstance(node, (n.Not, n.And, n.Or))
        steps = tuple(self.step(k, any(k is d for d in decides_kids), logic) for k in kids if id(k) in self.values)
        shown = TRUTH[t] if pred else self.shown(v)
        return Step(self.src(node), self.span(node), pred, t if pred else v, shown, steps, reason, deciding)

    @staticmethod
    def shown(v) -> str:
        if v is None:
            return "NULL"
        if not isinstance(v.type, JmsType):
            return "[" + ", ".join("NULL" if x is None else format_value(x.value) for x in v.value) + "]"
        return f"{format_value(v.value)} ({v.type.value})"

    def deciding_children(self, node, t) -> tuple:
        """The operands that decided ``node``'s truth value ``t`` (FALSE or UNKNOWN)."""
        kids = n.children(node)
        truths = [truth_of(self.value(k)) for k in kids]
        kind = type(node)
        if kind is c.LeftFirstAnd:
            return tuple(k for k, x in zip(kids, truths) if x is not True)[:1]
        if kind is c.LeftFirstOr:
            return (kids[-1],)
        if kind in _AND:
            want = False if t is False else None
            return tuple(k for k, x in zip(kids, truths) if x is want)
        if kind in _OR:
            return tuple(k for k, x in zip(kids, truths) if x is not True)
        if kind is n.Not and t is None:
            return kids
        return ()

    # -- reasons -----------------------------------------------------------------------------------
    def reason(self, node, t) -> "Reason | None":
        kind = type(node)
        src = f"`{self.src(node)}`"
        result = TRUTH[t]
        if kind is n.Literal:
            if node.type is JmsType.NULL or node.type is JmsType.BOOLEAN:
                return Reason("constant", f"{src} is {result} for every message", self.span(node))
            return Reason("not_boolean", f"{src} is not a boolean → FALSE", self.span(node))
        if kind is n.Identifier:
            return self.null_reason(node, "UNKNOWN") if t is None else Reason(
                "not_boolean", f"{src} is {self.shown(self.value(node))}, not a boolean → FALSE", self.span(node))
        if kind is n.Not:
            return Reason("not", f"{src}: NOT {TRUTH[truth_of(self.value(node.operand))]} is {result}", self.span(node))
        if kind in (c.LeftFirstAnd, c.LeftFirstOr):
            return self.left_first(node, t)
        if kind in _AND or kind in _OR:
            return None
        if kind is c.Compare:
            return self.compare_reason(node, node.cmp, node.left, node.right, t, src)
        if kind is c.UnlikeTypes:
            null = self.null_operand(node.left, node.right)
            if null is not None:
                return self.null_reason(null, f"{src} is UNKNOWN")
            return Reason("unlike_types", f"{src}: the operands' types never compare → {result}", self.span(node))
        if kind in (c.TwoValuedBetween, c.InsideBetween, c.OutsideBetween):
            return self.between_reason(node, t, src)
        if kind is c.InStrings or kind is c.LikeString:
            return self.string_reason(node, t, src)
        if kind is n.IsNull:
            ov = self.value(node.operand)
            what = "NULL" if ov is None else self.shown(ov)
            return Reason("is_null", f"`{self.src(node.operand)}` is {what} → {src} is {result}", self.span(node))
        # a value (arithmetic, a function call) where a condition is expected, or NULL
        return self.value_reason(node)

    def null_operand(self, *operands):
        for o in operands:
            if self.value(o) is None:
                return o
        return None

    def null_reason(self, node, consequence: str) -> Reason:
        """Why ``node`` (a sub-expression) is NULL: the name missing or NULL, or the operation
        that has no value, followed by ``consequence``."""
        while True:
            if type(node) is n.Identifier:
                given = self.given.get(node.name, False)
                kind = "null" if given else "missing"
                return Reason(kind, f"`{node.name}` is {'NULL' if given else 'missing'} → {consequence}", self.span(node))
            if type(node) is n.Literal:
                return Reason("constant", f"`{self.src(node)}` is NULL → {consequence}", self.span(node))
            kids = n.children(node)
            inner = self.null_operand(*kids)
            if inner is None:  # every operand has a value: this node has none
                vals = ", ".join(self.shown(self.value(k)) for k in kids)
                return Reason("no_value", f"`{self.src(node)}` has no value ({vals}) → {consequence}", self.span(node))
            node = inner

    def value_reason(self, node) -> Reason:
        v = self.value(node)
        if v is None:
            return self.null_reason(node, "UNKNOWN")
        return Reason("not_boolean", f"`{self.src(node)}` is {self.shown(v)}, not a boolean → FALSE", self.span(node))

    def left_first(self, node, t) -> "Reason | None":
        kids = n.children(node)
        truths = [truth_of(self.value(k)) for k in kids]
        if type(node) is c.LeftFirstAnd:
            kleene = False if False in truths else (None if None in truths else True)
            op = "AND"
        else:
            kleene = True if True in truths else (None if None in truths else False)
            op = "OR"
        if kleene is t:
            return None
        first = self.deciding_children(node, t)[0]
        return Reason("left_first", f"this dialect's {op} reads left to right: `{self.src(first)}` is "
                      f"{TRUTH[t]}, so `{self.src(node)}` is {TRUTH[t]} (three-valued {op} would be "
                      f"{TRUTH[kleene]})", self.span(node))

    def compare_reason(self, node, cmp, left, right, t, src) -> Reason:
        result = TRUTH[t]
        lv, rv = self.value(left), self.value(right)
        eq = cmp.eq
        if lv is None or rv is None:
            null = left if lv is None else right
            if t is None:
                return self.null_reason(null, f"{src} is UNKNOWN")
            inner = self.null_reason(null, f"{src} is {result}")
            return Reason("null_rule", inner.text + " (this dialect's rule for NULL, not UNKNOWN)", inner.span)
        if eq is not None:
            cmp = eq
        if type(right) is n.Literal and right.span == left.span and right.value is True:  # ``x = TRUE``
            rule = cmp.rule(lv.type, rv.type) if isinstance(lv.type, JmsType) else Order.FALSE
            if t is not True and lv.type is not JmsType.BOOLEAN:
                kind = "no_order" if rule is Order.UNKNOWN else "not_boolean"
                return Reason(kind, f"`{self.src(left)}` is {self.shown(lv)}, not a boolean: this dialect "
                              f"answers {result} for such a condition", self.span(node))
        ls, rs = f"`{self.src(left)}`", f"`{self.src(right)}`"
        if not isinstance(lv.type, JmsType) or not isinstance(rv.type, JmsType):
            return Reason("compared", f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)} → {src} is {result}",
                          self.span(node))
        conversion = cmp.conversion(lv.type, rv.type)
        if conversion is not None:
            side, typ = conversion
            if side == "error":
                return Reason("no_order", f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)}: this dialect "
                              f"cannot convert the boolean → UNKNOWN", self.span(node))
            text = lv if side == "left" else rv
            return Reason("not_a_number" if t is False and not _reads(text.value, typ) else "compared",
                          f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)}: the string is read as "
                          f"{_article(typ.value)} → {src} is {result}", self.span(node))
        rule = cmp.rule(lv.type, rv.type)
        if rule is Order.FALSE:
            return Reason("unlike_types", f"{ls} is a {_type_word(lv)} ({format_value(lv.value)}), {rs} a "
                          f"{_type_word(rv)} ({format_value(rv.value)}) → {result}: unlike types never compare",
                          self.span(node))
        if rule is Order.UNKNOWN:
            return Reason("no_order", f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)}: this dialect has no "
                          f"order for them → UNKNOWN", self.span(node))
        if rule is Order.TRUE:
            return Reason("compared", f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)}: this dialect orders "
                          f"numbers before booleans before strings → {src} is {result}", self.span(node))
        if isinstance(rule, NumericOrder) and any(isinstance(x.value, float) and math.isnan(x.value) for x in (lv, rv)):
            return Reason("nan", f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)}: NaN → {src} is {result}",
                          self.span(node))
        return Reason("compared", f"{ls} is {self.shown(lv)}, {rs} {self.shown(rv)} → {src} is {result}", self.span(node))

    def between_reason(self, node, t, src) -> Reason:
        result = TRUTH[t]
        vals = [self.value(x) for x in (node.operand, node.low, node.high)]
        if None in vals:
            null = (node.operand, node.low, node.high)[vals.index(None)]
            if t is None:
                return self.null_reason(null, f"{src} is UNKNOWN")
            inner = self.null_reason(null, f"{src} is {result}")
            return Reason("null_rule", inner.text + " (this dialect's BETWEEN with a NULL is FALSE, not UNKNOWN)",
                          inner.span)
        x, lo, hi = vals
        if any(isinstance(x.type, JmsType) and isinstance(b.type, JmsType) and cm.conversion(x.type, b.type) is None
               and cm.rule(x.type, b.type) is Order.FALSE for b, cm in ((lo, node.low_cmp), (hi, node.high_cmp))):
            return Reason("unlike_types", f"`{self.src(node.operand)}` is {self.shown(x)}, the bounds "
                          f"{self.shown(lo)} and {self.shown(hi)}: unlike types never compare → {src} is {result}",
                          self.span(node))
        if t is None:
            return Reason("no_order", f"`{self.src(node.operand)}` is {self.shown(x)}: not ordered with the bounds "
                          f"{self.shown(lo)} and {self.shown(hi)} → UNKNOWN", self.span(node))
        if isinstance(x.value, float) and math.isnan(x.value):
            return Reason("nan", f"`{self.src(node.operand)}` is NaN → {src} is {result}", self.span(node))
        where = "inside" if node.negated else "outside"
        return Reason("outside_range", f"`{self.src(node.operand)}` is {self.shown(x)}, {where} "
                      f"{format_value(lo.value)} .. {format_value(hi.value)} → {src} is {result}", self.span(node))

    def string_reason(self, node, t, src) -> Reason:
        result = TRUTH[t]
        v = self.value(node.operand)
        if v is None:
            return self.null_reason(node.operand, f"{src} is UNKNOWN")
        what = "IN" if type(node) is c.InStrings else "LIKE"
        if v.type is not JmsType.STRING:
            return Reason("non_string", f"`{self.src(node.operand)}` is {self.shown(v)}, not a string: this "
                          f"dialect's {what} answers {result} for it", self.span(node))
        if what == "IN":
            verb = "is in" if node.negated else "is not in"
            listed = ", ".join(format_value(lit.value) for lit in node.values)
            return Reason("not_in_list", f"`{self.src(node.operand)}` is {self.shown(v)}, which {verb} "
                          f"({listed}) → {result}", self.span(node))
        verb = "matches" if node.negated else "does not match"
        esc = "" if node.escape is None else f" ESCAPE {format_value(node.escape)}"
        return Reason("no_match", f"`{self.src(node.operand)}` is {self.shown(v)}, which {verb} "
                      f"{format_value(node.pattern)}{esc} → {result}", self.span(node))


def _reads(text: str, typ) -> bool:
    return jn.java_value_of(text, typ.value) is not None


def _article(word_: str) -> str:
    return ("an " if word_[0] in "aeiou" else "a ") + word_


def _type_word(v) -> str:
    if v.type is JmsType.STRING:
        return "string"
    if v.type is JmsType.BOOLEAN:
        return "boolean"
    return v.type.value


def _literal_text(node) -> str:
    if type(node) is n.Literal:
        return "NULL" if node.type is JmsType.NULL else format_value(node.value)
    return type(node).__name__
