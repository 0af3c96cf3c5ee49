"""Lint checks for the IBM targets (`ibmmq`, `mqe`), appended to `lint.CHECKS`.

Each is legal on the target but surprising there, or evaluated differently by the other common
dialects (``jms``, ``activemq``):

- ``zero-id-wildcard`` (ibmmq): the exact ``JMSMessageID='ID:'+48 zeros`` form matches every
  message; any other spelling of it (inside AND/OR, parenthesised, reversed) is plain equality;
- ``constant-false`` (ibmmq): a part of the selector that is FALSE whatever the message (a
  selector that is nothing else is rejected with MQRC_SELECTOR_ALWAYS_FALSE);
- (the 10,240-byte limit is `lint_wso2_solace`'s ``broker-length``, for every dialect with a limit);
- ``extended-literal`` (ibmmq): hex/octal/``L`` literals, which ``jms`` rejects;
- ``mqe-literal-type`` / ``mqe-header-type`` / ``mqe-delivery-mode`` (mqe): comparisons MQe's exact
  types decide differently from ``jms``/``activemq`` (an int property never equals ``5``;
  ``JMSPriority = 4.0`` is FALSE; ``JMSDeliveryMode`` is the int 2/1).
"""
from __future__ import annotations

import re

from ..language import nodes as n
from ..language.nodes import CompareOp
from ..frontend.selector import ZERO_ID_FORM
from ..language.source import Span
from ..language.dialects import ZERO_ID
from ..semantics.decisions import Order
from ..semantics.lowering import rules_for
from ..language.types import JmsType

__all__ = ["IBM_CHECKS"]

_EXTENDED = re.compile(r"(?<![\w$.'])(?:0[xX][0-9a-fA-F]+|0[0-7]+|[1-9][0-9]*[lL])(?![\w$.])")


def _check_zero_id(ctx):
    if not ctx.dialect.zero_id_wildcard:
        return
    if ZERO_ID_FORM.fullmatch(ctx.text):
        yield ctx.warn("zero-id-wildcard", "on IBM MQ this selector matches every message (all-zero id: MQGET with "
                       "MQMI_NONE/MQCI_NONE), also one without a correlation id; jms and activemq compare the id",
                       Span(0, len(ctx.text)))
        return
    for node in n.walk(ctx.selector.root):
        if (isinstance(node, n.Comparison) and any(isinstance(s, n.Literal) and s.value == ZERO_ID
                                                   for s in (node.left, node.right))):
            yield ctx.warn("zero-id-wildcard", "the all-zero id matches every message only as the whole selector "
                           "(JMSMessageID='ID:0…0'); here it is plain string equality, FALSE for real messages",
                           node.span)


def _constant_false_parts(ctx):
    from ..interpreter import ReferenceInterpreter  # a constant part's value, as the evaluation gives it

    interp = ReferenceInterpreter(lambda name: None, ctx.dialect)
    for node in n.walk(ctx.selector.root):
        if node is ctx.selector.root or not isinstance(node, (n.Comparison, n.Literal, n.Not, n.Between, n.Like, n.IsNull)):
            continue
        if isinstance(ctx.parents.get(id(node)), (n.Comparison, n.Arithmetic, n.Unary, n.Between, n.Not)):
            continue
        if any(isinstance(x, (n.Identifier, n.FunctionCall)) for x in n.walk(node)):
            continue
        if interp.run(node) is False:
            yield node


def _check_constant_false(ctx):
    if not ctx.dialect.reject_constant_false:
        return
    for node in _constant_false_parts(ctx):
        yield ctx.warn("constant-false", "this part is FALSE for every message; IBM MQ rejects a selector that is "
                       "FALSE before reading any property (MQRC_SELECTOR_ALWAYS_FALSE), and accepts this one only "
                       "because it also reads a header or property", node.span)


def _check_extended_literals(ctx):
    if not (ctx.dialect.extended_literals and ctx.dialect.zero_id_wildcard):  # IBM MQ (activemq: its own reading)
        return
    for m in _EXTENDED.finditer(_blank_strings(ctx.text)):
        yield ctx.warn("extended-literal", f"{m.group()} is a hex/octal/L literal: IBM MQ selection strings take it"
                       " (passing it through IBM MQ classes for JMS is inferred); the jms dialect rejects it",
                       Span(m.start(), m.end()))


def _blank_strings(text):
    return re.sub(r"'(?:[^']|'')*'", lambda m: " " * len(m.group()), text)


def _check_mqe_types(ctx):
    d = ctx.dialect
    if rules_for(d).compare(CompareOp.EQ, JmsType.INT, JmsType.LONG) is not Order.FALSE:
        return  # numbers are promoted: not MQe's exact types
    for node in n.walk(ctx.selector.root):
        if not isinstance(node, n.Comparison):
            continue
        for ident, lit in ((node.left, node.right), (node.right, node.left)):
            if not (isinstance(ident, n.Identifier) and isinstance(lit, n.Literal)):
                continue
            header = d.header_for(ident.name)
            if header == "JMSDeliveryMode" and d.header_type(header) is JmsType.INT:
                yield ctx.warn("mqe-delivery-mode", "MQe compares JMSDeliveryMode as the int 2 (PERSISTENT) / 1 "
                               "(NON_PERSISTENT): " + ("a string here is FALSE on every message" if lit.type is
                                                        JmsType.STRING else "jms and activemq compare the strings "
                                                        "'PERSISTENT'/'NON_PERSISTENT' and give FALSE"), node.span)
            elif header is not None and lit.type.is_approximate:
                yield ctx.warn("mqe-header-type", f"{header} is an exact header: MQe compares {lit.value!r} (a double)"
                               " as another type, FALSE on every message (jms and activemq promote)", node.span)
            elif header is None and lit.type.is_numeric:
                ref = ctx.bound.refs[ident.name] if ctx.bound is not None else None
                want = JmsType.LONG if lit.type.is_exact else JmsType.DOUBLE
                if ref is not None and (ref.type is want or not ref.type.is_numeric):
                    continue
                have = f"is {ref.type.value}" if ref is not None else "must be set with " + (
                    "setLongProperty" if want is JmsType.LONG else "setDoubleProperty")
                yield ctx.warn("mqe-literal-type", f"MQe reads {_lit(ctx, lit)} as a {want.value} and compares only "
                               f"equal types: {ident.name} {have} (jms and activemq promote numbers)", node.span)


def _lit(ctx, lit):
    return ctx.text[lit.span.start:lit.span.end]


#: Appended to `lint.CHECKS`.
#: The byte limit (10,240) is `lint_wso2_solace`'s ``broker-length`` check, which covers every dialect with one.
IBM_CHECKS = (_check_zero_id, _check_constant_false, _check_extended_literals, _check_mqe_types)
