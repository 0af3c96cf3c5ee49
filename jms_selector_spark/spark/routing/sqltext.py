"""Reading the Spark SQL of a template (`route_templates`): its tokens, its top-level conjuncts,
the conjuncts that are access predicates, and those the index makes TRUE.

Everything here works on the *text* the native back end wrote (no second parse of the selector)
and only ever concludes something that holds for the SQL as written: a top-level operand of an
AND chain that is TRUE replaced by TRUE, or a necessary condition of the fragment being TRUE.
"""
from __future__ import annotations

import re

__all__ = ["EMPTY_NAMES", "TOKEN", "conjunct_spans", "implied", "like_prefix", "prefix_sql", "sql_access",
           "string_columns", "trivial"]

#: An empty array of subscription names, as every routing plan writes it.
EMPTY_NAMES = "CAST(array() AS ARRAY<STRING>)"

TOKEN = re.compile(r"""
 (?P<ident>`(?:[^`]|``)*`)
|(?P<str>decode\(X'(?P<hex>[0-9A-F]*)',\ 'UTF-8'\))
|(?P<quoted>'(?:[^'\\]|\\.)*')
|(?P<num>\d+(?:\.\d+)?(?:E-?\d+)?[LD]?(?![\w.]))
|(?P<word>[A-Za-z_]\w*)
|(?P<ws>\s+)
|(?P<op><=>|<>|!=|<=|>=|->|\|\||.)
""", re.X | re.S)


_BAD_TOP = {"OR", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END"}


def conjunct_spans(text: str) -> "list | None":
    """Character spans of the top-level AND operands of ``text`` (a fragment with parameters
    written ``__jmsP<i>__``; one pair of parentheses around the whole is looked through), or None
    when its top level is not a plain AND chain (an OR, BETWEEN or CASE there: no split)."""
    toks = [(m.start(), m.end(), m.lastgroup, m.group()) for m in TOKEN.finditer(text) if m.lastgroup != "ws"]
    if not toks:
        return None
    depth, base, close = 0, 0, {}
    stack = []
    for i, (_, _, kind, tok) in enumerate(toks):
        if kind == "op" and tok == "(":
            stack.append(i)
        elif kind == "op" and tok == ")":
            if not stack:
                return None
            close[stack.pop()] = i
    if stack:
        return None
    lo, hi = 0, len(toks)
    if toks[0][3] == "(" and close.get(0) == len(toks) - 1:
        lo, hi = 1, len(toks) - 1
    spans, start = [], lo
    for i in range(lo, hi):
        kind, tok = toks[i][2], toks[i][3]
        if kind == "op" and tok == "(":
            depth += 1
        elif kind == "op" and tok == ")":
            depth -= 1
        elif depth == 0 and kind == "word":
            if tok.upper() in _BAD_TOP:
                return None
            if tok.upper() == "AND":
                if i == start:
                    return None
                spans.append((toks[start][0], toks[i - 1][1]))
                start = i + 1
    if start >= hi:
        return None
    spans.append((toks[start][0], toks[hi - 1][1]))
    return spans


def implied(t, value_sqls: tuple) -> set:
    """Indexes (in `_conjunct_spans` order) of the top-level conjuncts of ``t`` that are TRUE for
    every candidate the index gives: ``v = P``, ``v IN (P, ...)`` or ``(v = P OR v = P ...)``
    on an access value ``v`` (``value_sqls[i]``, the index's ``v = key[i]``), STRING parameters only,
    where every key a member is listed under has ``key[i]`` among that member's values of them.
    (A sub-expression that is TRUE replaced by TRUE: exact whatever the dialect.)"""
    if not value_sqls or "__jmsP" in "".join(p for p in t.shape.pieces if isinstance(p, str)):
        return set()
    text = "".join(f"__jmsP{p}__" if not isinstance(p, str) else p for p in t.shape.pieces)
    spans = conjunct_spans(text)
    if not spans:
        return set()
    P = r"__jmsP(\d+)__"
    out = set()
    for k, (a, b) in enumerate(spans):
        part = text[a:b]
        like = _like(part)
        if like and like[2] == "%":  # `c` LIKE 'P%': TRUE exactly when substring(c, 1, len(P)) = P
            col, prefix = like[0], like[1]
            for i, v in enumerate(value_sqls):
                if v == prefix_sql(col, len(prefix)) and all(key[i] == prefix for nm in t.members for key in t.keys[nm]):
                    out.add(k)
                    break
            continue
        for i, v in enumerate(value_sqls):
            v = re.escape(v)
            forms = (rf"{v} = {P}", rf"{v} IN \({P}(?:, {P})*\)", rf"\({v} = {P}(?: OR {v} = {P})*\)")
            if not any(re.fullmatch(f, part) for f in forms):
                continue
            params = [int(x) for x in re.findall(P, part)]
            if any(t.shape.types[q] != "STRING" for q in params):
                continue
            def covered(nm):
                vals = t.values_of(nm)
                allowed = {vals[q] for q in params}
                return all(key[i] in allowed for key in t.keys[nm])

            if all(covered(nm) for nm in t.members):
                out.add(k)
                break
    return out


def string_columns(schema) -> dict:
    """``{SQL of the column: name}`` of the top-level STRING columns (default collation) of ``schema``."""
    from ...language.schema import to_schema

    fields = getattr(schema, "fields", None)
    if fields is not None and type(schema).__module__.startswith("pyspark"):
        ok = [f.name for f in fields if f.dataType.typeName() == "string"
              and getattr(f.dataType, "collation", "UTF8_BINARY") in (None, "UTF8_BINARY")]
    else:
        ok = [f.name for f in to_schema(schema).fields if f.dataType.typeName() == "string"]
    return {"`" + nm.replace("`", "``") + "`": nm for nm in ok}


_LIKE = re.compile(r"(`(?:[^`]|``)+`) LIKE decode\(X'([0-9A-F]*)', 'UTF-8'\) ESCAPE '!'")


def like_prefix(pattern: str) -> "tuple[str, str]":
    """(the literal text a Spark LIKE ``pattern`` with ESCAPE '!' starts with, the rest from its
    first wildcard ``%`` or ``_``): ``'ORD-!%x%'`` -> ``('ORD-%x', '%')``."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "!" and i + 1 < len(pattern):
            out.append(pattern[i + 1])
            i += 2
            continue
        if ch in "%_":
            break
        out.append(ch)
        i += 1
    return "".join(out), pattern[i:]


def _like(part: str):
    """(column SQL, literal prefix, rest of the pattern) if ``part`` is exactly ``c LIKE '…' ESCAPE '!'``."""
    m = _LIKE.fullmatch(part)
    if not m:
        return None
    return (m.group(1),) + like_prefix(bytes.fromhex(m.group(2)).decode("utf-8"))


def prefix_sql(col: str, length: int) -> str:
    """The SQL of the first ``length`` characters of the STRING column ``col`` (a LIKE index key)."""
    return f"substring({col}, 1, {length})"


def sql_access(shape, strings: dict) -> list:
    """``[(column name, SQL of the value, parameter indexes, literal values or None)]``: the top-level
    conjuncts of ``shape`` that are ``c = P``, ``c IN (P, ...)`` or ``(c = P OR c = P ...)`` with
    STRING parameters on a STRING column ``c``. The fragment can only be TRUE when one of them is
    (SQL AND), i.e. when ``c`` equals one of the parameters' values: an access predicate, read from
    the SQL the selector translated to (no second parse).

    Also ``c LIKE 'P…' ESCAPE '!'`` whose pattern starts with a literal text ``P`` (its value: the
    first ``len(P)`` characters of ``c``, `prefix_sql`; its literal value ``P``): TRUE only when ``c``
    starts with ``P`` (a LIKE pattern is never a parameter: it is in the shape's text). Spark's
    ``substring`` counts characters (code points) and a UTF-8 prefix of whole characters is a
    byte prefix, so ``substring(c, 1, len(P)) = P`` exactly when ``c`` starts with ``P``; NULL when
    ``c`` is NULL (no key: not TRUE, like the LIKE)."""
    if "__jmsP" in "".join(p for p in shape.pieces if isinstance(p, str)):
        return []
    text = "".join(f"__jmsP{p}__" if not isinstance(p, str) else p for p in shape.pieces)
    spans = conjunct_spans(text) or []
    P = r"__jmsP(\d+)__"
    C = r"(`(?:[^`]|``)+`)"
    out = []
    for a, b in spans:
        part = text[a:b]
        like = _like(part)
        if like and like[1] and like[0] in strings:
            out.append((strings[like[0]], prefix_sql(like[0], len(like[1])), (), (like[1],)))
            continue
        m = (re.fullmatch(rf"{C} = {P}", part) or re.fullmatch(rf"{C} IN \({P}(?:, {P})*\)", part)
             or re.fullmatch(rf"\({C} = {P}(?: OR {C} = {P})*\)", part))
        if not m:
            continue
        cols = set(re.findall(C, re.sub(P, "", part)))
        params = [int(x) for x in re.findall(P, part)]
        if len(cols) == 1 and next(iter(cols)) in strings and all(shape.types[q] == "STRING" for q in params):
            col = next(iter(cols))
            out.append((strings[col], col, tuple(params), None))
    return out


def trivial(body: str) -> bool:
    """``body`` is TRUE whatever the message (only TRUE, AND and parentheses are left)."""
    return re.fullmatch(r"[()\s]*TRUE(?:[()\s]*AND[()\s]*TRUE)*[()\s]*", body) is not None
