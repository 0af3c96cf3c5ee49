"""`lint` checks for WSO2 (andes) and Solace, and the brokers' byte limits.

Each check takes lint's context (the parsed selector, its parents, and with a schema its binding)
and yields warnings; `lint.CHECKS` runs them after its own. The rules come from
`lowering.Rules` (what the broker evaluates), `Selector.ignored` (what its parser skipped) and the
dialect table, never from a second copy of a rule:

- ``ignored-text``: WSO2's parser stops before text it cannot continue with and ignores the rest
  (``ShortMsgID=32,767`` selects ``ShortMsgID = 32``);
- ``fixed-header``: a header the broker never reads from the message (WSO2's JMSDestination is
  always NULL; its JMSRedelivered is FALSE when selecting);
- ``ne-missing``: ``x <> 'v'`` is TRUE for a message without ``x`` where a one-sided NULL ``=`` is
  FALSE (WSO2), UNKNOWN in ``jms``;
- ``not-filtered``: WSO2's documentation says JMSDeliveryMode, JMSPriority and JMSExpiration are
  "not filtered by the broker"; its code evaluates them (followed here);
- ``non-kleene``: an AND/OR whose value (not only TRUE or not) is used, with an operand that can be
  UNKNOWN, where AND/OR are not Kleene (WSO2): ``NOT (x > 1 OR FALSE)`` is TRUE there, UNKNOWN in
  ``jms`` and ``activemq``;
- ``alias``: a Solace alias (``sn``, ``ci``…), a property name in every other dialect;
- ``broker-length``: a selector within 10 % of its dialect's byte limit (Solace: 2,000 UTF-8
  bytes; over it, `parse` rejects the selector).
"""
from __future__ import annotations

from ..language import nodes as n
from ..language.nodes import CompareOp
from ..language.source import Span
from ..semantics.decisions import Logic
from ..semantics.lowering import rules_for

__all__ = ["CHECKS"]

#: Where a broker's documentation and its code disagree on a header (the code is followed).
NOT_FILTERED = {
    "wso2": {"JMSDeliveryMode", "JMSPriority", "JMSExpiration"},
}


def _identifiers(ctx):
    return [node for node in n.walk(ctx.selector.root) if isinstance(node, n.Identifier)]


def _check_ignored_text(ctx):
    span = ctx.selector.ignored
    if span is not None and span.end > span.start:
        yield ctx.warn("ignored-text", f"the {ctx.dialect.name} parser stops here and ignores the rest: the selector"
                       f" is {ctx.selector.canonical()!r}", span)


def _check_fixed_headers(ctx):
    rules, seen = rules_for(ctx.dialect), set()
    for ident in _identifiers(ctx):
        header = ctx.dialect.header_for(ident.name)
        rule = rules.header(header) if header is not None else None
        if rule is None or not rule.fixed or ident.name in seen:
            continue
        seen.add(ident.name)
        if rule.value is None:
            what = (f"{ident.name} is always NULL in {ctx.dialect.name} (the broker never reads it): `= 'x'` is FALSE"
                    " or UNKNOWN, `IS NULL` is TRUE, whatever the message's destination")
        else:
            what = (f"{ident.name} is always {str(rule.value).upper()} when {ctx.dialect.name} selects (the broker"
                    " sets it after selection)")
        yield ctx.warn("fixed-header", what, ident.span)


def _is_property(ctx, node) -> bool:
    if not isinstance(node, n.Identifier) or ctx.dialect.header_for(node.name) is not None:
        return False
    return ctx.bound is None or ctx.bound.refs[node.name].access != "variant"


def _check_ne_missing(ctx):
    nulls = rules_for(ctx.dialect).eq_nulls(CompareOp.EQ)
    if nulls is None or False not in (nulls.left, nulls.right):
        return
    for node in n.walk(ctx.selector.root):
        if isinstance(node, n.Comparison) and node.op is CompareOp.NE:
            for side, one in ((node.left, nulls.left), (node.right, nulls.right)):
                if one is False and _is_property(ctx, side):
                    missing = ctx.bound is not None and ctx.bound.refs[side.name].access == "missing"
                    yield ctx.warn("ne-missing", f"{'the table has no ' + repr(side.name) + ': ' if missing else ''}"
                                   f"in {ctx.dialect.name}, `<>` is TRUE for a message without {side.name}"
                                   " (`=` with one NULL side is FALSE there, UNKNOWN in jms); add"
                                   f" `{side.name} IS NOT NULL AND` to skip such messages", node.span)
                    break


def _check_not_filtered(ctx):
    names, seen = NOT_FILTERED.get(ctx.dialect.name, set()), set()
    for ident in _identifiers(ctx):
        header = ctx.dialect.header_for(ident.name)
        if header in names and header not in seen:
            seen.add(header)
            yield ctx.warn("not-filtered", f"WSO2's documentation says {header} is not filtered by the broker (its"
                           " default value overrides the selector); its code evaluates it, as this dialect does:"
                           " check on the broker", ident.span)


def _can_be_unknown(node) -> bool:
    return any(isinstance(x, n.Identifier) or (isinstance(x, n.Literal) and x.value is None) for x in n.walk(node))


def _check_non_kleene(ctx):
    if rules_for(ctx.dialect).and_or is not Logic.LEFT_FIRST:
        return
    for node in n.walk(ctx.selector.root):
        if not isinstance(node, (n.And, n.Or)) or not any(_can_be_unknown(op) for op in node.operands[:-1]):
            continue
        parent = ctx.parents.get(id(node))
        while isinstance(parent, (n.And, n.Or)):  # the value of an AND/OR inside AND/OR matters only
            parent = ctx.parents.get(id(parent))  # through what holds the outermost one
        if parent is None:
            continue  # the whole selector: TRUE exactly when the Kleene AND/OR is
        word = "AND" if isinstance(node, n.And) else "OR"
        yield ctx.warn("non-kleene", f"{word} is not three-valued logic in {ctx.dialect.name} (AND: UNKNOWN as soon"
                       " as its left side is; OR: the right side's value unless the left is TRUE), and here its"
                       " value is used: jms and activemq can answer differently", node.span)


def _check_alias(ctx):
    seen = set()
    for ident in _identifiers(ctx):
        header = ctx.dialect.header_for(ident.name)
        if header is None or header == ident.name or ident.name in seen:
            continue
        seen.add(ident.name)
        yield ctx.warn("alias", f"{ident.name} is {ctx.dialect.name}'s name for the header {header}; in other"
                       f" dialects it is a property (NULL unless messages carry one)", ident.span)


def _check_broker_length(ctx):
    size = len(ctx.text.encode("utf-8", "surrogatepass"))
    span = Span(0, len(ctx.text))
    own = ctx.dialect.max_length
    if own is not None and size > 0.9 * own:
        yield ctx.warn("broker-length", f"the selector is {size:,} UTF-8 bytes, close to the {ctx.dialect.name}"
                       f" limit of {own:,}", span)


CHECKS = (_check_ignored_text, _check_fixed_headers, _check_ne_missing, _check_not_filtered, _check_non_kleene,
          _check_alias, _check_broker_length)
