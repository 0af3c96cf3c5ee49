"""Java's ``valueOf(String)`` conversions as Spark SQL expressions, exact under every session
setting (ANSI on or off).

The SQL side of `javanum.java_value_of`: ActiveMQ's ``convert_string_expressions:`` comparisons
and declared property types of ``MAP<STRING,STRING>`` layouts use it. Spark's own casts trim
blanks, accept ``1.5`` as an integer (ANSI off), ``inf``, ``nan`` in any case and more; Java does
not. So the text is first checked against Java's grammar with a regex (Java's ``java.util.regex``
runs RLIKE), then cast with ``try_cast`` (no error under ANSI, NULL on overflow). Spark casts a
string to DOUBLE / FLOAT with Java's own ``Double.parseDouble`` / ``Float.parseFloat`` once the
text is in Java's grammar. ``Character.digit`` reads every decimal digit of the Basic Multilingual
Plane (``١٢`` is 12): those are translated to ASCII first. A NULL input gives NULL; text Java
would refuse (NumberFormatException) gives NULL too — callers decide what that means.
"""
from __future__ import annotations

import functools

from ...semantics.javanum import JAVA_FLOAT_PATTERN, JAVA_INTEGER_RANGES
from ...language.types import JmsType

__all__ = ["java_value_of_sql"]

_SPARK_INT = {"byte": "TINYINT", "short": "SMALLINT", "int": "INT", "long": "BIGINT"}


def _lit(text: str) -> str:
    return f"decode(X'{text.encode('utf-8').hex().upper()}', 'UTF-8')"


@functools.lru_cache(maxsize=None)
def _unicode_digits() -> "tuple[str, str]":
    """(every non-ASCII decimal digit of the BMP, the ASCII digit of each)."""
    src, dst = [], []
    for cp in range(0x80, 0x10000):
        c = chr(cp)
        if c.isdecimal() and not 0xD800 <= cp <= 0xDFFF:
            src.append(c)
            dst.append(str(int(c)))
    return "".join(src), "".join(dst)


def java_value_of_sql(expr: str, t: JmsType) -> str:
    """A Spark SQL expression: ``t.valueOf(expr)`` as Java computes it, NULL where Java throws
    NumberFormatException (or ``expr`` is NULL). ``expr`` (a STRING expression) appears once.

    The text in Java's grammar is taken out with ``regexp_extract`` (``''`` when it is not in
    it, which ``try_cast`` makes NULL) and cast: integers after Unicode digits became ASCII ones
    (``try_cast`` to the narrow type is NULL out of range), floating values after Java's
    ``trim()`` of characters up to U+0020.
    """
    kind = t.value
    bs = chr(92)
    if kind in JAVA_INTEGER_RANGES:
        src, dst = _unicode_digits()
        # plain literals: decimal digits only (no quote, backslash or `$`), the same text under
        # every parser setting, and a third of the size of decode(X'…')
        digits = f"translate({expr}, '{src}', '{dst}')"
        text = f"regexp_extract({digits}, {_lit('^([+-]?[0-9]+)' + bs + 'z')}, 1)"
        return f"try_cast({text} AS {_SPARK_INT[kind]})"
    if kind in ("float", "double"):
        blank = "[" + bs + "x00-" + bs + "x20]*"
        text = f"regexp_extract({expr}, {_lit('^' + blank + '(' + JAVA_FLOAT_PATTERN + ')' + blank + bs + 'z')}, 1)"
        return f"try_cast({text} AS {kind.upper()})"
    if kind == "boolean":
        return f"(length({expr}) = 4 AND lower({expr}) = 'true')"
    if kind == "string":
        return expr
    raise ValueError(f"no Java valueOf for {kind!r}")
