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


def test_evaluate_agrees_with_activemq(oracle, capsys):
    gen = CaseGenerator(seed=20261122, dialect="activemq")
    cases = [gen.case(i) for i in range(N_CASES)]
    verdicts = oracle([{k: c[k] for k in ("id", "selector", "message")} for c in cases])
    tally = collections.Counter()
    disagreements = []
    for c in cases:
        theirs = verdicts[c["id"]]["result"]
        ours = _ours(c)
        if theirs in ("error", "timeout"):
            tally[f"activemq {theirs} (deliberate)"] += 1
        elif not c["selector"].strip() and theirs == "invalid" and ours is True:
            tally["empty selector (deliberate)"] += 1
        elif theirs == ours:
            tally["agree"] += 1
        else:
            tally["DISAGREE"] += 1
            disagreements.append((c["selector"], c["message"]["properties"], theirs, ours))
    with capsys.disabled():
        print(f"\n[oracle differential] {N_CASES} generated cases: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    assert not disagreements, "\n".join(f"{s!r} {p} activemq={t!r} ours={o!r}" for s, p, t, o in disagreements[:20])
    assert tally["agree"] >= 0.9 * N_CASES  # the generator must exercise real cases, not errors
