"""The templates' key numbers, each message value looked up once (#16).

`route_templates.lookup_sql` gives a message its key number in one index with a constant
``MAP<STRING, INT>`` (nested for a pair). Spark's generated code finds a key in a map by scanning
the keys in order, and the indexes of one estate share their values: at 1,000 realistic
subscriptions nine indexes read ``JMSType`` six times, ``region`` and ``color`` twice. Measured
on 2M messages: the nine lookups cost 0.77 of the matching's ~5 CPU s.

Here each access *value* (``JMSType``, ``substring(customer, 1, 2)``, …) is looked up once: its
**value number** ``__jms_v<i>`` is its position from 1 among the values that any index names there
(`value_numbers`), NULL when the value is NULL or named by none. An index's key number is then
read from a constant ``ARRAY<INT>`` at a position computed from its value numbers (a pair ``(a,
b)``: ``(a - 1) * size(b) + b``): no scan. The slot of a combination that is not one of the
index's keys holds NULL, so a message gets NULL exactly when `lookup_sql` gives NULL (no
candidates). ``try_element_at`` with a position that is NULL is NULL, ANSI or not; positions are
never 0 nor past the end. An index whose array would exceed `MAX_SLOTS` keeps `lookup_sql`.

**Compared as numbers** (`intern`, `INTERN`). In the candidates' bodies a STRING column compared
with parameters, ``c = P``, ``c <> P``, ``c != P`` or ``c IN (P, …)``, costs a string comparison
per candidate (``NOT (JMSType IN (…7 values…))``: seven). The column's number is read once per
message (`number_sql`: NULL when ``c`` is NULL, 0 when no parameter or key names its value, else
its position among them) and the parameters become those numbers, so the body compares INTs with
the same result: equal numbers exactly when equal strings (the numbering is one-to-one, 0 for every
other non-NULL value), NULL exactly when ``c`` is NULL (the parameters are never NULL). Only a
plain column of the default collation (`route_sql.string_columns`) standing as a whole operand,
never a conjunct the index already implies (it is not evaluated).
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from math import prod

__all__ = ["MAX_SLOTS", "INTERN", "VALUE_NUMBERS", "value_numbers", "value_sql", "key_sql", "intern", "number_sql",
           "columns", "apply_templates", "format_keys"]

#: An index whose array of key numbers would have more slots keeps its map (`lookup_sql`).
MAX_SLOTS = 1 << 16
#: Key numbers from value numbers (False: every index its own `lookup_sql`, as before).
VALUE_NUMBERS = True
#: STRING comparisons in the candidates' bodies made on numbers (`intern`).
INTERN = True

_COL = r"`(?:[^`]|``)+`"
_P = r"__jmsP\d+__"
#: ``c = P`` / ``c <> P`` / ``c != P`` / ``c IN (P, ...)``, ``c`` and the list whole operands
_COMPARED = re.compile(rf"(?<![\w.`])({_COL}) (?:(?:=|<>|!=) {_P}|IN \({_P}(?:, {_P})*\))(?=\)|,| AND\b| OR\b|$)")


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


def value_sql(value: str, numbers: dict) -> str:
    """SQL of the message's number for access value ``value`` (NULL: NULL or not named)."""
    from ...backends.sql.render import sql_string

    return f"try_element_at(from_json({sql_string(json.dumps(numbers))}, 'MAP<STRING, INT>'), {value})"


def key_sql(access, numbers: dict, columns: dict, zeros=frozenset()) -> "str | None":
    """SQL of the message's key number in ``access`` (as `route_templates.lookup_sql`) from the
    value number columns ``columns`` ``{value SQL: column name}`` (those in ``zeros`` number an
    unnamed value 0, `number_sql`: no key); None past `MAX_SLOTS`."""
    from ...backends.sql.render import sql_string

    sizes = [len(numbers[v]) for v in access.value_sqls]
    if prod(sizes) > MAX_SLOTS:
        return None
    slots: list = [None] * prod(sizes)
    for k, key in enumerate(access.keys, 1):
        pos = 0
        for v, x, n in zip(access.value_sqls, key, sizes):
            pos = pos * n + numbers[v][x] - 1
        slots[pos] = k
    col = [f"nullif(`{columns[v]}`, 0)" if v in zeros else f"`{columns[v]}`" for v in access.value_sqls]
    at = col[0]
    for c, n in zip(col[1:], sizes[1:]):
        at = f"({at} - 1) * {n} + {c}"
    return f"try_element_at(from_json({sql_string(json.dumps(slots))}, 'ARRAY<INT>'), {at})"


def _placeholders(t) -> str:
    return "".join(f"__jmsP{p}__" if not isinstance(p, str) else p for p in t.shape.pieces)


def _compared(t, value_sqls: tuple, strings: dict) -> list:
    """``[(column SQL, (parameter, ...), span)]``: the comparisons of template ``t`` `intern` makes
    on numbers (STRING parameters, outside the conjuncts the index implies)."""
    from .sqltext import conjunct_spans, implied

    if "__jmsP" in "".join(p for p in t.shape.pieces if isinstance(p, str)):
        return []
    text = _placeholders(t)
    spans, done = conjunct_spans(text) or [], implied(t, value_sqls)
    out = []
    for m in _COMPARED.finditer(text):
        params = tuple(int(x) for x in re.findall(r"__jmsP(\d+)__", m.group()))
        if m.group(1) not in strings or any(t.shape.types[q] != "STRING" for q in params):
            continue
        if any(a <= m.start() < b for k, (a, b) in enumerate(spans) if k in done):
            continue
        out.append((m.group(1), params, m.span(1)))
    return out


def columns(numbers: dict) -> dict:
    """``{value SQL: the column of its number}``."""
    return {v: f"__jms_v{i}" for i, v in enumerate(numbers)}


def intern(accesses, schema, numbers: dict) -> "tuple[tuple, dict, set]":
    """(``accesses`` with their templates' STRING comparisons on numbers, ``numbers`` (`value_numbers`)
    extended with the compared columns' values, the value SQLs compared: read with `number_sql`)."""
    from .sqltext import string_columns
    from .templates import Shape

    strings = string_columns(schema)
    found = [[_compared(t, a.value_sqls, strings) for t in a.templates] for a in accesses]
    numbers = {v: dict(d) for v, d in numbers.items()}
    for a, per in zip(accesses, found):
        for t, cmps in zip(a.templates, per):
            for col, params, _ in cmps:
                d = numbers.setdefault(col, {})
                for nm in t.members:
                    vals = t.values_of(nm)
                    for q in params:
                        d.setdefault(vals[q], len(d) + 1)
    names, out = columns(numbers), []
    for a, per in zip(accesses, found):
        templates = []
        for t, cmps in zip(a.templates, per):
            if not cmps:
                templates.append(t)
                continue
            text, num = _placeholders(t), {}
            for col, params, (x, y) in sorted(cmps, key=lambda c: -c[2][0]):
                text = text[:x] + f"`{names[col]}`" + text[y:]
                num.update((q, numbers[col]) for q in params)
            pieces = tuple(int(p[6:-2]) if p.startswith("__jmsP") else p
                           for p in re.split(r"(__jmsP\d+__)", text))
            sh = t.shape
            shape = Shape(pieces, tuple("INT" if q in num else ty for q, ty in enumerate(sh.types)),
                          tuple(str(num[q][v]) if q in num else lit for q, (v, lit) in enumerate(zip(sh.values, sh.literals))),
                          tuple(num[q][v] if q in num else v for q, v in enumerate(sh.values)))
            free = [q for q, c in enumerate(t.constant) if not c]
            params = {nm: tuple(num[q][v] if q in num else v for q, v in zip(free, vs)) for nm, vs in t.params.items()}
            templates.append(replace(t, shape=shape, params=params))
        out.append(replace(a, templates=tuple(templates)))
    return tuple(out), numbers, {col for per in found for cmps in per for col, _, _ in cmps}


def number_sql(col: str, numbers: dict) -> str:
    """SQL of the number of column ``col``'s value (`intern`): NULL when NULL, 0 when not named."""
    return f"coalesce({value_sql(col, numbers)}, nvl2({col}, 0, NULL))"


def apply_templates(messages, plan):
    """(``messages`` with each access's key number ``__jms_ix<a>_id``, [SQL of names arrays],
    columns to drop) for the `route_templates.TemplatePlan` ``plan``."""
    from pyspark.sql import functions as F

    from .templates import lookup_sql, template_sql

    numbers = value_numbers(plan.accesses) if VALUE_NUMBERS else {}
    accesses, numbers, zeros = intern(plan.accesses, messages.schema, numbers) if INTERN else (plan.accesses, numbers, set())
    names = columns(numbers)
    for v, c in names.items():
        messages = messages.withColumn(c, F.expr(number_sql(v, numbers[v]) if v in zeros else value_sql(v, numbers[v])))
    parts, drop = [], list(names.values())
    for a, access in enumerate(accesses):
        sql = (key_sql(access, numbers, names, zeros) if VALUE_NUMBERS else None) or lookup_sql(access)
        messages = messages.withColumn(f"__jms_ix{a}_id", F.expr(sql))
        parts += template_sql(access, a)
        drop.append(f"__jms_ix{a}_id")
    return messages, parts, drop


def format_keys(accesses, schema) -> str:
    """A line for `route_plan.explain_routing`: the values read once per message, the columns the
    candidates compare as numbers."""
    numbers = value_numbers(accesses) if VALUE_NUMBERS else {}
    _, numbers, zeros = intern(accesses, schema, numbers) if INTERN else (accesses, numbers, set())
    arrays = sum(1 for a in accesses if VALUE_NUMBERS and prod(len(numbers[v]) for v in a.value_sqls) <= MAX_SLOTS)
    return (f"    per message: {len(numbers)} value(s) looked up once ({', '.join(numbers)}); {arrays} of "
            f"{len(accesses)} index(es) read their key number from a constant array; STRING comparisons in the "
            f"candidates made on those numbers: {', '.join(sorted(zeros)) or 'none'}")
