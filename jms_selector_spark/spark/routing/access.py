"""Access predicates: the top-level conjuncts that say which values a message must hold to match.

Most selectors are a conjunction with a conjunct that is exactly ``name = 'literal'``,
``name IN ('a', 'b')``, an OR of those on one name, or ``name LIKE 'P…'`` with a literal start,
where ``name`` is a STRING value of the message. The selector can only be TRUE when that conjunct
is (a top-level AND is TRUE exactly when every operand is, for Kleene and left-first AND alike), so
only when the message's value is one of those literals — or, for the LIKE, starts with ``P``. The
index (`index`) and the templates (`templates`) group subscriptions by such a value and evaluate,
per message, only the candidates of its value: exact by construction, whatever the dialect's rules
for the other conjuncts.

They are read off each subscription's core tree (`compiler.Compiled`), never off its SQL: the
value's SQL is the column the SQL back end reads for that name (`generator.env`), so a message
value is keyed exactly as the selector's own comparison reads it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...language import nodes as n
from ...language.types import JmsType
from ...semantics import core as c

__all__ = ["AccessPredicate", "access_predicates", "conjunct_access", "prefix_sql", "like_prefix"]


@dataclass(frozen=True)
class AccessPredicate:
    """``<value> IN (values)`` as a necessary condition of a selector being TRUE.

    Attributes
    ----------
    name : str
        The selector's name of the value.
    value_sql : str
        The SQL of the message's value: the column as the selector's translation reads it, or
        ``substring(<column>, 1, <n>)`` for a LIKE prefix.
    values : tuple of str
        The literals, deduplicated, in first-seen order (the prefix, for a LIKE).
    column : str or None
        The top-level column the value is (or starts) when it is a plain one, else None (a
        struct field, a map entry).
    prefix : bool
        A LIKE's literal start: TRUE only when the value starts with it (`prefix_sql`).
    exact : bool
        For a LIKE prefix: the pattern is the prefix and ``%`` alone, so the conjunct is TRUE
        exactly when the value starts with it.
    """

    name: str
    value_sql: str
    values: tuple
    column: "str | None" = None
    prefix: bool = False
    exact: bool = True


def prefix_sql(column_sql: str, length: int) -> str:
    """The SQL of the first ``length`` characters of a STRING column (a LIKE prefix's value).

    Spark's ``substring`` counts characters (code points) and a UTF-8 prefix of whole
    characters is a byte prefix, so ``substring(c, 1, len(P)) = P`` exactly when ``c`` starts
    with ``P``; NULL when ``c`` is NULL (no key: not TRUE, like the LIKE)."""
    return f"substring({column_sql}, 1, {length})"


def like_prefix(segments: tuple) -> "tuple[str, bool]":
    """(the literal text a planned LIKE pattern starts with, whether the pattern is that text
    followed by ``%`` alone)."""
    first = segments[0] if segments else ()
    chars = []
    for kind, ch in first:
        if kind != "lit":
            break
        chars.append(ch)
    exact = len(segments) == 2 and len(chars) == len(first) and segments[1] == ()
    return "".join(chars), exact


def _string_literal(node) -> bool:
    return type(node) is n.Literal and node.type is JmsType.STRING and isinstance(node.value, str)


def conjunct_access(node, compiled) -> "AccessPredicate | None":
    """The `AccessPredicate` a core conjunct ``node`` of ``compiled`` is, or None."""
    refs, env = compiled.bound.refs, compiled.generator.env

    def string_value(ident):
        if not isinstance(ident, n.Identifier):
            return None
        ref = refs.get(ident.name)
        if ref is None or ref.type is not JmsType.STRING or ref.access not in ("column", "map"):
            return None
        return ref

    def made(ident, values):
        ref = refs[ident.name]
        plain = ref.access == "column" and len(ref.path) == 1 and ref.conversion is None
        return AccessPredicate(ident.name, env[ident.name].sql, tuple(dict.fromkeys(values)),
                               ref.path[0] if plain else None)

    kind = type(node)
    if kind is c.Compare and node.op is n.CompareOp.EQ:
        for ident, lit in ((node.left, node.right), (node.right, node.left)):
            if string_value(ident) is not None and _string_literal(lit):
                return made(ident, (lit.value,))
        return None
    if kind is c.InStrings and not node.negated and string_value(node.operand) is not None:
        if node.values and all(_string_literal(v) for v in node.values):
            return made(node.operand, (v.value for v in node.values))
        return None
    if kind in (c.KleeneOr, c.LeftFirstOr):
        parts = [conjunct_access(op, compiled) for op in node.operands]
        if parts and all(p is not None and not p.prefix for p in parts) and len({p.name for p in parts}) == 1:
            return AccessPredicate(parts[0].name, parts[0].value_sql,
                                   tuple(dict.fromkeys(v for p in parts for v in p.values)), parts[0].column)
        return None
    if kind is c.LikeString and not node.negated and string_value(node.operand) is not None:
        ref = refs[node.operand.name]
        plan = node.segments
        like_form = len(plan) <= 2 or (len(plan) == 3 and not plan[-1])  # rendered as LIKE, not RLIKE
        text, exact = like_prefix(plan)
        if ref.access == "column" and len(ref.path) == 1 and ref.conversion is None and text and like_form:
            col = env[node.operand.name].sql
            return AccessPredicate(node.operand.name, prefix_sql(col, len(text)), (text,), ref.path[0], True, exact)
    return None


def access_predicates(compiled) -> tuple:
    """Every top-level conjunct of ``compiled`` that is an `AccessPredicate`, in order."""
    out = []
    for node in compiled.top_conjuncts():
        p = conjunct_access(node, compiled)
        if p is not None:
            out.append(p)
    return tuple(out)
