"""The generated SQL is linear in the selector's size, for every operator and dialect (#17 item 1).

Each chained or nested construct is translated at depth n and 2n: the fragment of 2n must be
about twice as long (it used to double at every ``/``, ``%`` and ActiveMQ boolean ``=``)."""
from __future__ import annotations

import pytest

from jms_selector_spark.language.dialects import get_dialect

from jms_selector_spark import compiler
from jms_selector_spark.translate import selector_to_sql


TYPES = ["int", "long", "float", "double"]


def _left(op, k):
    return "a" + f" {op} b" * k


def _right(op, k):
    s = "b"
    for _ in range(k):
        s = f"a {op} ({s})"
    return s


def _bool_nest(op, k):
    s = "a = 1"
    for i in range(k):
        s = f"({s}) {op} (b = {i})" if i % 2 else f"(b > {i}) {op} ({s})"
    return s


def _shapes(dialect):
    for t in TYPES:
        for op in ["/", "%", "+", "-", "*"]:
            if op == "%" and not get_dialect(dialect).modulo:
                continue  # no % in the jms grammar
            for nest in (_left, _right):
                yield f"{t} {op} {nest.__name__}", {"a": t, "b": t}, (lambda k, op=op, nest=nest: nest(op, k) + " > 0")
    for op in ["=", "<>", "AND", "OR"]:
        if not get_dialect(dialect).not_binds_tighter and op in ("=", "<>"):
            continue  # booleans compare only in ActiveMQ's grammar
        yield f"boolean {op}", {"a": "long", "b": "double"}, (lambda k, op=op: _bool_nest(op, k))
    yield "NOT", {"a": "double"}, (lambda k: "NOT (" * k + "a > 0" + ")" * k)
    yield "unary minus", {"a": "long"}, (lambda k: "-" * k + "a > 0" if get_dialect(dialect).not_binds_tighter else
                                         "(" * k + "-a" + ")" * k + " > 0")
    yield "between", {"a": "double", "b": "double"}, (lambda k: f"{_left('/', k)} BETWEEN b / a AND {_right('/', k)}")


@pytest.mark.parametrize("dialect", ["jms", "activemq", "wso2"])
def test_fragment_size_is_linear(dialect, monkeypatch):
    # measured past the nesting limit that `selector_to_sql` enforces (see test_limits)
    monkeypatch.setattr(compiler, "check_sql_depth", lambda sql, *a, **k: sql)
    bad = []
    for name, schema, make in _shapes(dialect):
        sizes = []
        for k in (12, 24, 48):
            sel = make(k)
            sql = selector_to_sql(sel, schema, dialect=dialect)
            sizes.append(len(sql))
            if len(sql) > 400 * len(sel):
                bad.append(f"{name}: {len(sel)} characters of selector gave {len(sql)} of SQL")
        if not (sizes[1] <= 2.3 * sizes[0] and sizes[2] <= 2.3 * sizes[1]):
            bad.append(f"{name}: sizes at depth 12, 24, 48 are {sizes}")
    assert not bad, "\n".join(bad)


def test_issue_selector_is_small():
    sel = "a / b / b / b / b / b / b / b / b / b / b / b / b > 0"
    for dialect in ("jms", "activemq"):
        for t in TYPES:
            assert len(selector_to_sql(sel, {"a": t, "b": t}, dialect=dialect)) < 10000  # was 884,527 (#17)
