"""The dialects the per-dialect Spark tests run in (tests/conftest.py deselects the others in
tests/spark): a deterministic sample of `DIALECTS` that covers every value of every rule the SQL
text depends on.

A Spark test of one dialect costs seconds (Spark plans and compiles every generated fragment), and
most dialects differ from another only in rules the Spark back ends never see (grammar, literals,
static checks: the front end, tested without Spark in all dialects). What the SQL text depends on
is decided in two modules: `semantics/lowering.py` (every evaluation-time rule, as core nodes) and
`binder.py` (which names are headers, and their types). `SPARK_DIALECTS` is ``jms`` and
``activemq`` (the specification and the reference broker), then, greedily, the dialect that adds
the most (rule, value) pairs not yet covered, over the `Dialect` fields those two modules read (an
AST scan, as tests/unit/test_design.py does), until every pair of every dialect is covered. A new
dialect with a new rule value is added by itself; the pure-Python and Arrow tests (tests/unit,
tests/conformance) keep running every dialect.
"""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from jms_selector_spark.language.dialects import DIALECTS, Dialect

__all__ = ["SPARK_DIALECTS", "rule_values"]

_PACKAGE = Path(__file__).resolve().parents[2] / "jms_selector_spark"
#: The modules whose Dialect reads decide the SQL text (see the module docstring).
_DECIDING = ("semantics/lowering.py", "binder.py")


def _attributes(tree) -> set:
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}


def _fields_read() -> list:
    """The `Dialect` fields the deciding modules read, directly or through a `Dialect` method
    (``header_for`` reads ``header_aliases``)."""
    fields = {f.name for f in dataclasses.fields(Dialect)} - {"name"}
    methods = {name: fn for name, fn in vars(Dialect).items() if callable(fn) and not name.startswith("__")}
    source = ast.parse((_PACKAGE / "language" / "dialect.py").read_text(encoding="utf-8"))
    bodies = {node.name: node for node in ast.walk(source) if isinstance(node, ast.FunctionDef) and node.name in methods}
    read = set()
    for rel in _DECIDING:
        used = _attributes(ast.parse((_PACKAGE / rel).read_text(encoding="utf-8")))
        read |= used & fields
        for name in used & bodies.keys():
            read |= _attributes(bodies[name]) & fields
    return sorted(read)


def _value(v) -> str:
    return repr(sorted(map(repr, v.items())) if hasattr(v, "items") else sorted(map(repr, v))
                if isinstance(v, (set, frozenset)) else v)


def rule_values(name: str, fields=None) -> set:
    """``{(field, value)}`` of dialect ``name`` over the deciding fields."""
    d = DIALECTS[name]
    return {(f, _value(getattr(d, f))) for f in (fields or _fields_read())}


def _sample() -> tuple:
    fields = _fields_read()
    values = {name: rule_values(name, fields) for name in DIALECTS}
    order = ["jms", "activemq"] + sorted(n for n in DIALECTS if n not in ("jms", "activemq"))
    chosen, covered = order[:2], values["jms"] | values["activemq"]
    need = set().union(*values.values())
    while covered != need:
        best = max(order, key=lambda n: (len(values[n] - covered), -order.index(n)))
        chosen.append(best)
        covered |= values[best]
    return tuple(chosen)


SPARK_DIALECTS = _sample()
