"""Columns Spark cannot tell apart by name, in one place.

A DataFrame may hold two columns of one name (after a join) or two that differ only in case
(``weight``, ``WeIgHt``), which Spark cannot tell apart while ``spark.sql.caseSensitive`` is false
(its default). A selector's names are case-sensitive (JMS), so a selector reading ``weight`` means
that column, not its twin. The entry points that hold the DataFrame (`jms_filter`, `route`,
`migration_report`, a view of `register_selector`) rename the twins that no selector reads by
position (`hide`), run, and give them their names back (`restore`); the entry points that cannot
rename (`selector_to_sql`, `selector_to_column`, a SQL function) refuse a selector that reads such
a column (`language.schema.column_collisions`), naming both and the fix.
"""
from __future__ import annotations

from ..language.schema import column_collisions
from ..language.errors import SelectorBindingError

__all__ = ["case_sensitive", "key_of", "has_collisions", "hide", "hide_for", "restore"]


def case_sensitive(spark) -> bool:
    """The session's ``spark.sql.caseSensitive`` (False, Spark's default, when it cannot be read)."""
    if spark is None:
        return False
    try:
        return str(spark.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"
    except Exception:  # pragma: no cover - a session whose conf cannot be read: assume the default
        return False


def key_of(sensitive: bool):
    """The name Spark resolves a column by: itself, or its lower case."""
    return (lambda name: name) if sensitive else str.lower


def has_collisions(df) -> bool:
    """Whether two of ``df``'s columns resolve to the same name in its session."""
    key = key_of(case_sensitive(df.sparkSession))
    keys = [key(c) for c in df.columns]
    return len(set(keys)) < len(keys)


def hide(df, compiled) -> "tuple[object, list | None]":
    """``(df', original column names or None)``: ``df`` with the columns that collide with another
    and that ``compiled`` (a `compiler.Compiled` bound to ``df.schema``) does not read renamed by
    position, so that the selector's names resolve as JMS says. Raises `SelectorBindingError` when
    the selector itself reads a name Spark cannot resolve."""
    sensitive = case_sensitive(df.sparkSession)
    groups = column_collisions(df.columns, compiled.bound.source_columns(), compiled.text, case_sensitive=sensitive)
    if not groups:
        return df, None
    return _renamed(df, groups, set(compiled.bound.source_columns()), sensitive)


def hide_for(df, readers: list) -> "tuple[object, list | None, dict]":
    """`hide` for several selectors routed in one pass: ``readers`` is ``[(key, Compiled)]``.
    Returns ``(df', original names or None, {key: error text})``: a reader reading a name Spark
    cannot resolve (a column the table has twice; a case-only twin of a column another reader
    reads) is refused with a `SelectorBindingError` naming the columns and the fix; the others
    keep their columns."""
    columns = df.columns
    sensitive = case_sensitive(df.sparkSession)
    key = key_of(sensitive)
    counts: dict = {}
    for c in columns:
        counts[key(c)] = counts.get(key(c), 0) + 1
    refused, chosen = {}, {}  # chosen: group key -> the one name of it the kept readers read
    for who, compiled in readers:
        try:
            column_collisions(columns, compiled.bound.source_columns(), compiled.text, case_sensitive=sensitive)
            for c in compiled.bound.source_columns():
                if c not in columns or counts[key(c)] < 2:
                    continue
                other = chosen.setdefault(key(c), c)
                if other != c:
                    raise SelectorBindingError(
                        f"the selector reads column {c!r} and another subscription reads {other!r}: with"
                        " spark.sql.caseSensitive=false Spark cannot tell them apart in one routing pass: set"
                        " spark.sql.caseSensitive=true or rename one (withColumnRenamed)", compiled.text)
        except SelectorBindingError as exc:
            refused[who] = f"{type(exc).__name__}: {exc}"
    groups = {k for k, m in counts.items() if m > 1}
    if not groups:
        return df, None, refused
    renamed = [f"__jms_hidden_{i}" if key(c) in groups and c not in set(chosen.values()) else c
               for i, c in enumerate(columns)]
    return df.toDF(*renamed), columns, refused


def _renamed(df, groups: dict, used: set, sensitive: bool):
    key = key_of(sensitive)
    columns = df.columns
    renamed = [f"__jms_hidden_{i}" if key(c) in groups and c not in used else c for i, c in enumerate(columns)]
    if renamed == columns:
        return df, None
    return df.toDF(*renamed), columns


def restore(df, original: "list | None"):
    """``df`` (its leading columns those `hide` renamed) with their names given back."""
    return df if original is None else df.toDF(*original, *df.columns[len(original):])
