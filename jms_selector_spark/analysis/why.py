"""Why a message was (not) delivered: the reference interpreter's evaluation, node by node.

`explain_delivery` evaluates a selector on one message exactly as `evaluate` does (the same
lowered core tree, the same scalar rules) and keeps every sub-expression's value; `reasons.Trace`
finds what decided the answer and why. `explain_values` does the same for a message given as
typed values by name (a table row read as the binder reads it: `spark.why.explain_message`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..interpreter import ReferenceInterpreter, message_resolver
from ..language.source import render_caret
from ..parsing import as_selector
from ..semantics.lowering import lower_selector, rules_for
from .reasons import REASON_KINDS, Reason, Step, Trace
from .typed_message import word

__all__ = ["Delivery", "Reason", "Step", "REASON_KINDS", "explain_delivery", "explain_values"]

@dataclass(frozen=True)
class Delivery:
    """A selector's answer on one message and why (see `explain_delivery`).

    ``value`` is `evaluate`'s answer (True, False, None for UNKNOWN); ``delivered`` is whether a
    broker delivers the message (``value is True``); ``reasons`` are the deciding reasons, in text
    order; ``root`` is the trace's tree (None for an empty selector). ``str()`` is the trace.

    Examples
    --------
    >>> d = explain_delivery("color = 'blue'", properties={"color": "blue"})
    >>> d.value, d.delivered, d.reasons
    (True, True, ())
    >>> explain_delivery("color = 'blue'").to_dict()["reasons"][0]["kind"]
    'missing'
    """

    selector: str
    dialect: str
    value: "bool | None"
    root: "Step | None"
    reasons: tuple

    @property
    def delivered(self) -> bool:
        return self.value is True

    def to_dict(self) -> dict:
        """JSON-ready: the answer, the deciding reasons (kind, text, start, end) and the tree."""
        def tree(step):
            return {"text": step.text, "value": step.shown, "decides": step.decides,
                    "reason": None if step.reason is None else step.reason.kind,
                    "children": [tree(k) for k in step.children]}
        return {"selector": self.selector, "dialect": self.dialect, "value": word(self.value),
                "delivered": self.delivered,
                "reasons": [{"kind": r.kind, "text": r.text, "start": r.span.start, "end": r.span.end}
                            for r in self.reasons],
                "tree": None if self.root is None else tree(self.root)}

    def __str__(self) -> str:
        verdict = "delivered" if self.delivered else "not delivered"
        lines = [f"{self.selector}", f"  → {word(self.value)} ({verdict}; dialect {self.dialect})"]
        if self.root is not None:
            lines.append("")
            lines += _tree_lines(self.root)
        if self.reasons:
            lines += ["", "Why:"]
            for r in self.reasons:
                lines.append(f"- {r.text}")
                lines.append(render_caret(self.selector, r.span))
        return "\n".join(lines)


def explain_delivery(selector, headers: "Mapping | None" = None, properties: "Mapping | None" = None, *,
                     dialect=None, types: "Mapping | None" = None) -> Delivery:
    """Evaluate ``selector`` on one message as `evaluate` does, and say why.

    Parameters are `evaluate`'s. The result's ``value`` is `evaluate`'s answer; ``str()`` of it is
    the trace: every sub-expression with its value, and for each FALSE or UNKNOWN that decided the
    answer, the reason, with a caret under its place in the selector.

    Examples
    --------
    >>> d = explain_delivery("JMSType = 'car' AND weight > 2500", {"JMSType": "car"}, {"color": "blue"})
    >>> d.value is None, [r.kind for r in d.reasons]
    (True, ['missing'])
    >>> print(d.reasons[0].text)
    `weight` is missing → `weight > 2500` is UNKNOWN
    >>> explain_delivery("qty = 5", properties={"qty": "5"}).reasons[0].text
    "`qty` is a string ('5'), `5` a long (5) → FALSE: unlike types never compare"
    """
    sel = as_selector(selector, dialect)
    d = sel.dialect
    headers, properties = dict(headers or {}), dict(properties or {})
    given = {}
    for name in sel.identifiers:
        header = d.header_for(name)
        given[name] = (header in headers) if header is not None else (name in properties)
    return _explain(sel, message_resolver(headers, properties, d, types), given)


def explain_values(selector, values: Mapping, *, dialect=None) -> Delivery:
    """`explain_delivery` for a message given as the typed value of each name.

    ``values`` maps a name to a `TypedValue` or None (NULL); a name it lacks is missing. This is
    how a table row is explained: the binder says where each name lives and of which type, and
    the row's values are read as every back end reads them.

    Examples
    --------
    >>> from jms_selector_spark.semantics.values import typed
    >>> d = explain_values("qty > 5", {"qty": typed("qty", 3, "int")})
    >>> d.value, d.reasons[0].text
    (False, '`qty` is 3 (int), `5` 5 (long) → `qty > 5` is FALSE')
    """
    sel = as_selector(selector, dialect)
    values = dict(values)
    return _explain(sel, values.get, {name: name in values for name in sel.identifiers})


def _explain(sel, resolve, given: dict) -> Delivery:
    d = sel.dialect
    if sel.root is None:
        return Delivery(sel.text, d.name, True, None, ())
    tracer = _Tracer(resolve, d)
    core = lower_selector(sel, rules_for(d))
    value = tracer.truth(core)
    trace = Trace(sel.text, tracer.values, given)
    root = trace.step(core, value is not True)
    return Delivery(sel.text, d.name, value, root, tuple(sorted(trace.reasons, key=lambda r: (r.span.start, r.span.end))))


class _Tracer(ReferenceInterpreter):
    """The reference interpreter, keeping the value of every node it visits."""

    def __init__(self, resolve, dialect):
        super().__init__(resolve, dialect)
        self.values: dict = {}

    def visit(self, node):
        v = super().visit(node)
        self.values[id(node)] = v
        return v


def _tree_lines(root: Step) -> list:
    """The trace's tree: one line per sub-expression, its value in a column, ``←`` and the reason
    on the ones that decided the answer."""
    rows = []

    def walk(step, prefix, last, top):
        branch = "" if top else ("└─ " if last else "├─ ")
        label = step.text if len(step.text) <= 60 else step.text[:57] + "..."
        rows.append((prefix + branch + label, step))
        inner = prefix + ("" if top else ("   " if last else "│  "))
        if step.predicate or step.value is not None:
            kids = [k for k in step.children if not (type(k) is Step and k.text == step.text)]
        else:
            kids = list(step.children)
        for i, k in enumerate(kids):
            walk(k, inner, i == len(kids) - 1, False)

    walk(root, "  ", True, True)
    width = max(len(r[0]) for r in rows) + 2
    out = []
    for label, step in rows:
        mark = "  ←" if step.reason is not None else ""
        out.append(f"{label.ljust(width)}{step.shown}{mark}")
    return out
