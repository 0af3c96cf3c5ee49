"""`evaluate(..., dialect="activemq")` against ActiveMQ's own engine on generated cases.

One batch of generated selectors × typed messages (default 12,000; ``JMS_ORACLE_CASES``) goes
through the oracle in ONE run; every case must agree (TRUE / FALSE / UNKNOWN / invalid), except
the documented deliberate differences, which are counted and printed, not hidden:

- ``error``: ActiveMQ throws while evaluating (arithmetic on a boolean or a non-concatenated
  string, unary minus on a byte/short property, its Float-vs-Double ClassCastException). It then
  drops the message whatever the rest of the selector says; we evaluate that sub-expression as
  UNKNOWN and carry on with three-valued logic.
- an empty or blank selector: ActiveMQ's parser rejects it; a broker (and JMS) treats it as "no
  selector" and so do we (every message matches).
"""
from __future__ import annotations

import collections
import os

import pytest

import jms_selector_spark as jss
from gen import CaseGenerator

pytestmark = pytest.mark.oracle

N_CASES = int(os.environ.get("JMS_ORACLE_CASES", "12000"))


def _ours(case):
    try:
        return jss.evaluate(case["selector"], case["headers"], case["props"], dialect="activemq", types=case["types"])
    except jss.SelectorError:
        return "invalid"


def _judge(oracle, cases):
    """One oracle run over ``cases``: (tally of verdict classes, [(selector, properties, theirs,
    ours)] for every disagreement). ActiveMQ errors and its refusal of an empty selector are the
    documented deliberate differences."""
    verdicts = oracle([{k: c[k] for k in ("id", "selector", "message")} for c in cases])
    tally, disagreements = collections.Counter(), []
    for c in cases:
        theirs, ours = verdicts[c["id"]]["result"], _ours(c)
        if theirs in ("error", "timeout"):
            tally[f"activemq {theirs} (deliberate)"] += 1
        elif not c["selector"].strip() and theirs == "invalid" and ours is True:
            tally["empty selector (deliberate)"] += 1
        elif theirs == ours:
            tally["agree"] += 1
        else:
            tally["DISAGREE"] += 1
            disagreements.append((c["selector"], c["message"]["properties"], theirs, ours))
    return tally, disagreements


def test_evaluate_agrees_with_activemq(oracle, capsys):
    gen = CaseGenerator(seed=20261122, dialect="activemq")
    cases = [gen.case(i) for i in range(N_CASES)]
    tally, disagreements = _judge(oracle, cases)
    with capsys.disabled():
        print(f"\n[oracle differential] {N_CASES} generated cases: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    assert not disagreements, "\n".join(f"{s!r} {p} activemq={t!r} ours={o!r}" for s, p, t, o in disagreements[:20])
    assert tally["agree"] >= 0.9 * N_CASES  # the generator must exercise real cases, not errors


N_CONVERT = int(os.environ.get("JMS_ORACLE_CONVERT_CASES", "3000"))


def test_convert_string_expressions_agrees_with_activemq(oracle, capsys):
    """Generated selectors under ActiveMQ's ``convert_string_expressions:`` prefix, in an oracle
    run of their own (ActiveMQ caches parsed selectors by their text without the prefix), over
    messages whose strings are often numbers ("10", "1.5", "true", " 5", "0x10"...)."""
    gen = CaseGenerator(seed=20261124, dialect="activemq")
    cases = []
    for i in range(N_CONVERT):
        c = gen.case(i)
        c["id"] = f"convert-{i}"
        c["selector"] = "convert_string_expressions:" + c["selector"]
        for name, p in c["message"]["properties"].items():  # numeric text in place of some strings
            if p["type"] == "string" and gen.rng.random() < 0.6:
                text = gen.rng.choice(["10", "1.5", "-7", "0", "true", "FALSE", " 5", "5 ", "0x10", "1e3", "2147483648",
                                       "NaN", "-0.0", "127", "١٢", "abc", "7.0", "3"])
                p["value"] = text
                c["props"][name] = text
        cases.append(c)
    tally, disagreements = _judge(oracle, cases)
    with capsys.disabled():
        print(f"\n[oracle differential, convert_string_expressions:] {N_CONVERT} generated cases: "
              + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    assert not disagreements, "\n".join(f"{s!r} {p} activemq={t!r} ours={o!r}" for s, p, t, o in disagreements[:20])
    assert tally["agree"] >= 0.85 * N_CONVERT
