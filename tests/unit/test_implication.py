"""`implies` and `never_true`: every proof is confirmed by the reference evaluator on generated
messages, every witness is re-checked, on generated pairs of selectors in several dialects."""
from __future__ import annotations

import math
import random

import pytest

import jms_selector_spark as jss
from jms_selector_spark.analysis.implication import implies, never_true
from jms_selector_spark.analysis.typed_message import TypedMessage

NAMES = ("x", "y")
NUMS = (0, 1, 2, 5, 2.5, -1, 10)
STRS = ("a", "b", "c")
DIALECTS = ("jms", "activemq", "wso2", "ibmmq", "rabbitmq-jms")


def _atom(rng):
    name = rng.choice(NAMES)
    kind = rng.randrange(7)
    if kind == 0:
        return f"{name} = '{rng.choice(STRS)}'"
    if kind == 1:
        return f"{name} IN ({', '.join(repr(s) for s in rng.sample(STRS, rng.randint(1, 3)))})"
    if kind == 2:
        lo = rng.choice(NUMS)
        return f"{name} BETWEEN {lo} AND {lo + rng.choice((0, 1, 3))}"
    if kind == 3:
        return f"{name} IS NOT NULL"
    if kind == 4:
        return f"{rng.choice(NUMS)} {rng.choice(('<', '<=', '='))} {name}"
    if kind == 5:
        return f"{name} LIKE '{rng.choice(STRS)}%'"  # no proof: the search decides
    return f"{name} {rng.choice(('=', '<', '<=', '>', '>='))} {rng.choice(NUMS)}"


def _atoms(rng):
    return [_atom(rng) for _ in range(rng.randint(1, 3))]


def _messages(rng, count):
    values = [None, *NUMS, *STRS, math.nan, True, 3, 1.5, 2.0000001, 4.9999]
    out = []
    for _ in range(count):
        props, types = {}, {}
        for name in NAMES:
            v = rng.choice(values)
            if v is not None:
                props[name] = v
                if isinstance(v, int) and not isinstance(v, bool):
                    types[name] = rng.choice(("int", "long", "short"))
                elif isinstance(v, float) and rng.random() < 0.3 and not math.isnan(v):
                    types[name] = "float"
        out.append((props, types))
    return out


@pytest.mark.slow
def test_generated_pairs_proofs_hold_and_witnesses_recheck():
    rng = random.Random(1234)
    messages = _messages(rng, 400)
    counts = {"proof": 0, "never": 0, "witness": 0, "search": 0}
    for i in range(240):
        dialect = DIALECTS[i % len(DIALECTS)]
        atoms_a, atoms_b = _atoms(rng), _atoms(rng)
        if rng.random() < 0.3:  # b one of a's conjuncts, often enough for proofs
            atoms_b = atoms_a[:1]
        a, b = " AND ".join(atoms_a), " AND ".join(atoms_b)
        r = implies(a, b, dialect=dialect, max_candidates=300, timeout=2.0)
        counts[r.method] += 1
        if r.implies is True:
            for props, types in messages:
                if jss.evaluate(a, None, props, dialect=dialect, types=types) is True:
                    assert jss.evaluate(b, None, props, dialect=dialect, types=types) is True, (r, props, types)
        elif r.implies is False:
            w = r.witness.to_dict()
            assert jss.evaluate(a, w["headers"], w["properties"], dialect=dialect, types=w["types"]) is True, r
            assert jss.evaluate(b, w["headers"], w["properties"], dialect=dialect, types=w["types"]) is not True, r
        if r.method == "never":
            assert all(jss.evaluate(a, None, p, dialect=dialect, types=t) is not True for p, t in messages), r
    # every way of deciding was exercised
    assert counts["proof"] > 20 and counts["witness"] > 20 and counts["never"] > 3, counts


@pytest.mark.parametrize("a,b,dialect,want,method", [
    ("color = 'blue' AND weight > 2500", "weight >= 1000", "jms", True, "proof"),
    ("weight > 2500", "weight > 3000", "jms", False, "witness"),
    ("x IN ('a', 'b') AND y BETWEEN 1 AND 5", "x IN ('a', 'b', 'c') AND y > 0 AND y IS NOT NULL", "jms", True, "proof"),
    ("x > 5", "x > 1", "rabbitmq-jms", None, "search"),  # Erlang term order: a string is > 5, and > 1
    ("x > 5", "x > 1", "activemq", True, "proof"),
    ("x = 1 AND x = 2", "y = 'z'", "jms", True, "never"),
    ("x > 5", "y > 5", "jms", False, "witness"),
    ("x > 5", "", "jms", True, "proof"),
])
def test_implies_cases(a, b, dialect, want, method):
    r = implies(a, b, dialect=dialect)
    assert (r.implies, r.method) == (want, method), str(r)
    assert str(r).startswith(repr(r.a))


def test_never_true():
    assert never_true("x > 5 AND x < 3") == "`x` cannot be > 5 and < 3 at once"
    assert never_true("x = 'a' AND x > 1") == "`x` cannot be = 'a' and > 1 at once"
    assert never_true("1 = 2") == "the selector is a constant FALSE"
    assert never_true("x > 5 AND x <= 5.0") is not None
    assert never_true("x >= 5 AND x <= 5") is None
    assert never_true("x > 5 OR x < 3") is None
    # RabbitMQ's engine orders unlike types: no contradiction is claimed there
    assert never_true("x = 'a' AND x > 1", dialect="rabbitmq-jms") is None
    assert isinstance(TypedMessage.of({}, {}), TypedMessage)
