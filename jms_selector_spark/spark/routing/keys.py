"""Key numbers: each access value looked up once per message, and STRING comparisons made on numbers.

An index gives a message its key number from its access values. The indexes of one estate share
their values (at 1,000 realistic subscriptions nine indexes read ``JMSType`` six times), so each
access *value* (``JMSType``, ``substring(customer, 1, 2)``, …) is looked up once: its **value
number** is its position from 1 among the values any index names there (`value_numbers`), NULL
when the value is NULL or named by none; an index's key number is then read from a constant array
at a position computed from its value numbers (`render_templates.key_sql`).

**Compared as numbers** (`intern`). In a template a plain STRING column compared with
parameters (``c = P``, ``c <> P``, ``c IN (P, …)``: a column use the SQL back end marked) costs a
string comparison per candidate. The column's number is read once per message (NULL when ``c`` is
NULL, 0 when no parameter or key names its value, else its position among them) and the
parameters become those numbers: equal numbers exactly when equal strings (the numbering is
one-to-one, 0 for every other value), NULL exactly when ``c`` is NULL. Never inside a conjunct the
index already implies (it is not evaluated).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .templates import with_numbers

__all__ = ["value_numbers", "intern", "column_sql", "number_columns", "KeysPlan", "plan_keys"]


def column_sql(column: str) -> str:
    """The SQL of a top-level column (as the SQL back end writes it, and an access value reads)."""
    return "`" + column.replace("`", "``") + "`"


def value_numbers(accesses) -> dict:
    """``{value SQL: {value: number from 1}}``: every value an index names for that access value,
    numbered in first-seen order."""
    out: dict = {}
    for a in accesses:
        for key in a.keys:
            for v, x in zip(a.value_sqls, key):
                d = out.setdefault(v, {})
                d.setdefault(x, len(d) + 1)
    return out


def number_columns(numbers: dict) -> dict:
    """``{value SQL: the column of its number}``."""
    return {v: f"__jms_v{i}" for i, v in enumerate(numbers)}


def _compared(t, strings) -> list:
    """``[(use index, column, shape slots)]``: the column uses of template ``t`` made on numbers
    (a column of ``strings``, every compared slot a STRING one of the shape, outside the conjuncts
    the index implies)."""
    frag = t.fragment
    position = {k: i for i, k in enumerate(t.shape.slots)}
    spans = [frag.conjuncts[k] for k in t.implied]
    out = []
    for u, use in enumerate(frag.columns):
        if use.column not in strings or any(a <= use.start < b for a, b in spans):
            continue
        slots = [position.get(k) for k in use.slots]
        if any(i is None or t.shape.types[i] != "STRING" for i in slots):
            continue
        out.append((u, use.column, tuple(slots)))
    return out


def intern(accesses, strings, numbers: dict) -> "tuple[tuple, dict, set]":
    """(``accesses`` with their templates' STRING comparisons on numbers, ``numbers``
    (`value_numbers`) extended with the compared columns' values, the value SQLs compared: read
    with `render_templates.number_sql`)."""
    found = [[_compared(t, strings) for t in a.templates] for a in accesses]
    numbers = {v: dict(d) for v, d in numbers.items()}
    for a, per in zip(accesses, found):
        for t, uses in zip(a.templates, per):
            for _, column, slots in uses:
                d = numbers.setdefault(column_sql(column), {})
                for nm in t.members:
                    vals = t.values_of(nm)
                    for i in slots:
                        d.setdefault(vals[i], len(d) + 1)
    names, out = number_columns(numbers), []
    for a, per in zip(accesses, found):
        templates = []
        for t, uses in zip(a.templates, per):
            if not uses:
                templates.append(t)
                continue
            slot_numbers = {i: numbers[column_sql(column)] for _, column, slots in uses for i in slots}
            templates.append(with_numbers(t, slot_numbers, {u: names[column_sql(column)] for u, column, _ in uses}))
        out.append(replace(a, templates=tuple(templates)))
    return tuple(out), numbers, {column_sql(column) for per in found for uses in per for _, column, _ in uses}


@dataclass(frozen=True)
class KeysPlan:
    """How a `templates.TemplatePlan`'s indexes read a message: its ``accesses`` (their templates'
    comparisons on numbers where `intern` made them), the ``numbers`` of each value SQL, the value
    SQLs compared as numbers (``zeros``: an unnamed value is 0) and the column of each number."""

    accesses: tuple
    numbers: dict
    zeros: frozenset
    columns: dict


def plan_keys(plan, strings, tuning) -> KeysPlan:
    """The `KeysPlan` of the `templates.TemplatePlan` ``plan`` (tuning features ``value_numbers``,
    ``intern``); ``strings``: the top-level STRING columns of the default collation."""
    numbers = value_numbers(plan.accesses) if tuning.on("value_numbers") else {}
    accesses, zeros = plan.accesses, set()
    if tuning.on("intern"):
        accesses, numbers, zeros = intern(plan.accesses, strings, numbers)
    return KeysPlan(accesses, numbers, frozenset(zeros), number_columns(numbers))
