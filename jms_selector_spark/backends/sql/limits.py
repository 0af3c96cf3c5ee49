"""How deep a Spark SQL expression may nest, and the check every generated fragment passes.

Spark's SQL parser (ANTLR, then its AST builder) recurses once per nesting level and fails with
``FAILED_TO_PARSE_TOO_COMPLEX`` / ``StackOverflowError`` beyond a few hundred levels. Measured
on Spark 4.3 through ``F.expr`` (driver defaults): nested function calls ``abs(abs(…))`` fail
from ~315 levels, parentheses from ~375, ``CASE WHEN … END`` from ~600, ``NOT NOT …`` from ~630;
a chain ``a + a + …`` of ~600-750 terms fails later, in analysis or code generation. A selector
level costs several SQL levels (an integer ``+`` wraps as ``CAST(shiftright(shiftleft(…))``),
which is why ~300 nested NOTs or ~100 chained integer operators used to break every entry point.

`MAX_SQL_DEPTH` counts ``(`` and ``CASE`` as one level each (outside quoted text) and leaves a
factor of two to the smallest limit measured. A fragment deeper than that raises
`SelectorTooComplexError`, an `UnsupportedSelectorError`: `jms_filter` and `register_selector`
then run the too-deep part in the vectorized fallback (the rest stays native, the boolean
skeleton is built as Columns, never parsed), `route` evaluates that subscription in its
fallback UDF while the others route natively, and `selector_to_sql` raises it, naming the limit.
"""
from __future__ import annotations

from ...language.errors import SelectorTooComplexError

__all__ = ["MAX_SQL_DEPTH", "sql_depth", "check_sql_depth", "plan_depth_of"]

#: Deepest nesting (``(`` and ``CASE``) a generated fragment may have.
MAX_SQL_DEPTH = 150


def sql_depth(sql: str) -> int:
    """The deepest nesting of ``(`` / ``CASE`` in ``sql``, ignoring quoted identifiers and strings."""
    depth = deepest = 0
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c in "`'":
            j = i + 1
            while j < n:
                if sql[j] == c:
                    if c == "`" and j + 1 < n and sql[j + 1] == "`":  # doubled backtick
                        j += 2
                        continue
                    break
                j += 1
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "CE" and (i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] in "_`")):
            word = sql[i:i + 4]
            end = i + 4 if word == "CASE" else i + 3 if word[:3] == "END" else None
            if end is not None and (end >= n or not (sql[end].isalnum() or sql[end] == "_")):
                depth += 1 if word == "CASE" else -1
                i = end
                continue
        deepest = max(deepest, depth)
        i += 1
    return deepest


def check_sql_depth(sql: str, selector: str = "", limit: int = MAX_SQL_DEPTH) -> str:
    """``sql`` itself when Spark can parse it; else `SelectorTooComplexError` naming the limit."""
    if sql.count("(") + sql.count("CASE") <= limit:
        return sql  # no deeper than its openers, quoted or not: the scan cannot find more
    d = sql_depth(sql)
    if d > limit:
        raise SelectorTooComplexError(
            f"the selector's Spark SQL nests {d} levels deep, more than the {limit} that Spark's SQL parser"
            " is known to take (it fails from ~300: FAILED_TO_PARSE_TOO_COMPLEX); NOT, parentheses around"
            " arithmetic, and chained arithmetic each add levels — jms_filter, route and register_selector"
            " evaluate it with the vectorized fallback instead", selector)
    return sql


def plan_depth_of(plan) -> int:
    """Levels of a `compiler.Plan` as Spark meets them: its AND/OR/NOT skeleton (built as Columns
    or SQL) plus the deepest native fragment under it (parsed inside that recursion)."""
    deepest, stack = 0, [(plan, 0)]
    while stack:
        p, d = stack.pop()
        if p.kind == "native":
            deepest = max(deepest, d + sql_depth(p.sql or ""))
        elif p.kind == "fallback":
            deepest = max(deepest, d + 1)
        else:
            stack.extend((k, d + 1) for k in p.parts)
    return deepest
