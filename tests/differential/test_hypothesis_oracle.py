"""Hypothesis-generated selectors × typed messages: ``evaluate(..., dialect="activemq")`` against
ActiveMQ Classic 5.17's own engine (the oracle), in ONE oracle run.

The strategies draw selector *text* over the whole ``activemq`` language — AND/OR/NOT, the six
comparisons (chained, as ActiveMQ's grammar allows), [NOT] BETWEEN, [NOT] IN, [NOT] LIKE with and
without ESCAPE, IS [NOT] NULL, arithmetic with + - * / %, unary signs, string concatenation,
the built-in functions, literals in every form (decimal, ``L``-suffixed, hex, octal, approximate,
strings with quotes and LIKE metacharacters, booleans, NULL), keywords in any case, comments and
odd whitespace — and a share of malformed text (a token inserted, a character dropped, the text
cut short). Messages carry typed properties (boolean, byte, short, int, long, float, double,
string) with edge values: NaN, ±Infinity, -0.0, int/long limits, empty and non-ASCII strings, LIKE
metacharacters; and headers as a real ActiveMQ message always has them.

An inner ``@given`` function only *collects* cases (``JMS_HYPOTHESIS_ORACLE_CASES``, default 3000);
the whole list is judged by one `run_oracle` call and compared case by case. Every case must
agree (TRUE / FALSE / UNKNOWN / invalid) except the deliberate differences, which are counted and
printed, not hidden — the same accounting as ``test_oracle_differential.py``:

- ActiveMQ ``error`` / ``timeout``: it throws while evaluating (then drops the message whatever
  the rest says), or its backtracking LIKE/REGEX runs away; we evaluate that sub-expression as
  UNKNOWN and carry on with three-valued logic.
- an empty or blank selector: ActiveMQ's parser rejects it; JMS (and we) match every message.
- an exact literal beyond the range of a long (``9223372036854775808`` not negated): ActiveMQ
  makes it a BigDecimal; we reject it as the JMS text says (recorded as deliberate in
  ``tools/conformance/make_constructs.py``). Counted only when our error is exactly that one.

Generation is derandomized (the same cases every run) unless ``JMS_HYPOTHESIS_ORACLE_RANDOM=1``.
"""
from __future__ import annotations

import collections
import math
import os
import struct

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import jms_selector_spark as jss

pytestmark = pytest.mark.oracle

N_CASES = int(os.environ.get("JMS_HYPOTHESIS_ORACLE_CASES", "3000"))
RANDOM = os.environ.get("JMS_HYPOTHESIS_ORACLE_RANDOM", "") not in ("", "0")

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
RANGES = {"byte": (-128, 127), "short": (-32768, 32767), "int": (INT_MIN, INT_MAX), "long": (LONG_MIN, LONG_MAX)}
TYPES = ["boolean", "byte", "short", "int", "long", "float", "double", "string"]
NAMES = ["a", "b", "c", "s", "t", "x"]
HEADERS = ["JMSType", "JMSPriority", "JMSDeliveryMode", "JMSTimestamp", "JMSCorrelationID", "JMSMessageID",
           "JMSRedelivered", "JMSExpiration"]
OUT_OF_RANGE = "exact numeric literal out of the range of a Java long"


# -- messages -----------------------------------------------------------------------------------

def _float32(v: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


EDGE_INTS = [0, 1, -1, 2, 3, 5, 7, -7, 10, 100, 127, -128, 255, 32767, -32768, INT_MAX, INT_MIN, 2**31, -(2**31) - 1,
             LONG_MAX, LONG_MIN, 2**53 + 1, -(2**53) - 1]
EDGE_DOUBLES = [0.0, -0.0, 1.0, -1.0, 1.5, 2.5, 0.1, 3.0, 7.0, 1e300, -1e300, 1e-300, 5e-324, math.inf, -math.inf,
                math.nan, 2147483648.0, 9007199254740992.0, 9.223372036854776e18, 1.7976931348623157e308]
EDGE_STRINGS = ["", "a", "ab", "abc", "A", "b", "%", "_", "a%b", "a_c", "é", "\U0001F600", "x\ny", "O'Brien", "!",
                "\\", "10", "1.5", "true", "TRUE", "a,b,c", ",", "aaa", "ID:1", " ", "-0", "NaN", "Infinity"]


def _value_strategy(type_name: str):
    if type_name == "boolean":
        return st.booleans()
    if type_name in RANGES:
        lo, hi = RANGES[type_name]
        return st.sampled_from([v for v in EDGE_INTS if lo <= v <= hi]) | st.integers(lo, hi)
    if type_name in ("float", "double"):
        doubles = st.sampled_from(EDGE_DOUBLES) | st.floats(allow_nan=True, allow_infinity=True) | st.floats(-10, 10)
        return doubles.map(_float32) if type_name == "float" else doubles
    return st.sampled_from(EDGE_STRINGS) | st.text(max_size=4)


#: Built once: strategies are cheap to draw from, not to create (each new one is validated).
VALUES = {t: _value_strategy(t) for t in TYPES}
S = {
    "type": st.sampled_from(TYPES),
    "present": st.integers(0, 9),
    "priority": st.integers(0, 9),
    "mode": st.sampled_from(["PERSISTENT", "NON_PERSISTENT"]),
    "timestamp": st.sampled_from([0, 1, 1767225600000, LONG_MAX]),
    "expiration": st.sampled_from([0, 5, 1767225600000]),
    "JMSType": st.sampled_from(["car", "truck", "Car", ""]),
    "JMSCorrelationID": st.sampled_from(["ID:1", "abc", ""]),
    "JMSMessageID": st.sampled_from(["ID:1", "ID:host-1:2:3:4"]),
    "bool": st.booleans(),
    "case": st.integers(0, 3),
    "mask": st.integers(0, 2**8 - 1),
    "space": st.sampled_from([" "] * 12 + ["  ", "\t", "\n", "\f", "\r\n", " /* c */ ", " -- c\n "]),
    "pct": st.integers(0, 99),
    "pct2": st.integers(0, 199),
    "exact": st.sampled_from(EDGE_INTS[:17] + [LONG_MAX, 2**31, 2**53 + 1]) | st.integers(0, 10**6),
    "suffix_roll": st.integers(0, 5),
    "suffix": st.sampled_from(["L", "l"]),
    "special_exact": st.sampled_from(["0x1F", "0X1f", "0x7FFFFFFF", "0x80000000", "0xFFFFFFFF", "0x7FFFFFFFFFFFFFFF",
                                      "017", "00", "0777", "037777777777", "-0x7FFFFFFF", "-9223372036854775808",
                                      "- -9223372036854775808", "-2147483648", "2147483648L"]),
    "too_big": st.sampled_from(["9223372036854775808", "99999999999999999999"]),
    "approx": st.sampled_from(["1.5", "2.5", "0.0", "-0.0", ".5", "7.", "7E3", "1e300", "1E999", "1e-400", "0.1",
                               "3.0", "2147483648.0", "9007199254740993.0", "1.0E10", "5e-324"]),
    "float": st.floats(allow_nan=False),
    "string": st.sampled_from(EDGE_STRINGS) | st.text(max_size=3),
    "short_string": st.sampled_from(EDGE_STRINGS) | st.text(max_size=2),
    "boolean_word": st.sampled_from(["TRUE", "FALSE"]),
    "name": st.sampled_from(NAMES * 3 + HEADERS + ["JMSXGroupID", "missing"]),
    "arith": st.sampled_from(["+", "-", "*", "/", "%"]),
    "sign": st.sampled_from(["-", "+", "- "]),
    "replace_rx": st.sampled_from(["a", "[0-9]", "^", "."]),
    "concat": st.sampled_from(["", "a", "1"]),
    "pattern": st.lists(st.sampled_from(["a", "b", "c", "%", "_", "!", "\\", "é", "'", "x", "1", "."]), max_size=6),
    "andor": st.sampled_from(["AND", "OR"]),
    "compare": st.sampled_from(["=", "<>", "<", ">", "<=", ">="]),
    "eqne": st.sampled_from(["=", "<>"]),
    "neg_roll": st.integers(0, 2),
    "in_items": st.lists(st.sampled_from(EDGE_STRINGS) | st.text(max_size=2), min_size=1, max_size=3),
    "escape": st.sampled_from(["!", "\\", "a", "%", "_", "", "ab"]),
    "regex": st.sampled_from(["a.*", "^a", "b$", "[ab]+", "[0-9]+", "x|y", "", "a{2}", "\\.", "(a)(b)?"]),
    "split_sep": st.sampled_from([",", "b", "", "[ac]"]),
    "count": st.integers(1, 3),
    "depth": st.integers(1, 4),
    "mutation": st.integers(0, 3),
    "piece": st.sampled_from([" AND", "(", ")", "'", ",", " NOT", "=", " IN", "NULL", "--", "/*", ".", "!", " BETWEEN",
                              "''", "0x", "1e"]),
    "blank": st.sampled_from(["", " ", "\n"]),
}


@st.composite
def messages(draw):
    props, types = {}, {}
    for name in NAMES:
        if draw(S["present"]) < 8:
            t = draw(S["type"])
            types[name] = t
            props[name] = draw(VALUES[t])
    # The primitive headers are always there in an ActiveMQ message; the String ones may be absent.
    headers = {
        "JMSPriority": draw(S["priority"]),
        "JMSDeliveryMode": draw(S["mode"]),
        "JMSTimestamp": draw(S["timestamp"]),
        "JMSRedelivered": draw(S["bool"]),
        "JMSExpiration": draw(S["expiration"]),
    }
    for name in ("JMSType", "JMSCorrelationID", "JMSMessageID"):
        if draw(S["bool"]):
            headers[name] = draw(S[name])
    return headers, props, types


# -- selector text --------------------------------------------------------------------------------

def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def word(draw, w):
    """A keyword, in a random case one time in four."""
    if draw(S["case"]):
        return w
    mask = draw(S["mask"])
    return "".join(c.upper() if mask >> i & 1 else c.lower() for i, c in enumerate(w))


def sp(draw):
    return draw(S["space"])


def approx_text(v: float) -> str:
    if math.isinf(v):
        return "1E999" if v > 0 else "-1E999"
    r = repr(v)
    return r if any(ch in r for ch in ".eE") else r + ".0"


def literal(draw) -> str:
    k = draw(S["pct"])
    if k < 30:
        v = draw(S["exact"])
        text = str(abs(v))
        if draw(S["suffix_roll"]) == 0:
            text += draw(S["suffix"])
        return ("-" + text) if v < 0 else text
    if k < 36:
        return draw(S["special_exact"])
    if k < 37:
        return draw(S["too_big"])  # the deliberate difference (a BigDecimal in ActiveMQ)
    if k < 50:
        return draw(S["approx"])
    if k < 58:
        return approx_text(draw(S["float"]))
    if k < 85:
        return _q(draw(S["string"]))
    if k < 97:
        return word(draw, draw(S["boolean_word"]))
    return word(draw, "NULL")


def name(draw) -> str:
    return draw(S["name"])


def value(draw, depth: int) -> str:
    k = draw(S["pct"])
    if depth <= 0 or k < 40:
        return name(draw)
    if k < 65:
        return literal(draw)
    if k < 85:
        return f"{value(draw, depth - 1)}{sp(draw)}{draw(S['arith'])}{sp(draw)}{value(draw, depth - 1)}"
    if k < 91:
        return draw(S["sign"]) + value(draw, depth - 1)
    if k < 96:
        return f"({value(draw, depth - 1)})"
    if k < 98:
        return f"REPLACE({value(draw, depth - 1)}, {_q(draw(S['replace_rx']))}, 'x')"
    return f"{_q(draw(S['concat']))} + {value(draw, depth - 1)}"  # string concatenation


def predicate(draw, depth: int) -> str:
    k = draw(S["pct"])
    if depth > 0 and k < 20:
        op = word(draw, draw(S["andor"]))
        return f"{predicate(draw, depth - 1)}{sp(draw)}{op}{sp(draw)}{predicate(draw, depth - 1)}"
    if depth > 0 and k < 27:
        inner = predicate(draw, depth - 1)
        return f"{word(draw, 'NOT')} {inner}" if draw(S["bool"]) else f"{word(draw, 'NOT')} ({inner})"
    if depth > 0 and k < 31:
        return f"({predicate(draw, depth - 1)})"
    neg = (word(draw, "NOT") + " ") if draw(S["neg_roll"]) == 0 else ""
    k = draw(S["pct"])
    d = depth - 1
    if k < 36:
        text = f"{value(draw, d)}{sp(draw)}{draw(S['compare'])}{sp(draw)}{value(draw, d)}"
        if draw(S["present"]) == 0:  # ActiveMQ chains comparisons
            text += f" {draw(S['eqne'])} {word(draw, draw(S['boolean_word']))}"
        return text
    if k < 46:
        return (f"{value(draw, d)} {neg}{word(draw, 'BETWEEN')} {value(draw, d)} {word(draw, 'AND')}"
                f" {value(draw, d)}")
    if k < 55:
        values = ", ".join(_q(v) for v in draw(S["in_items"]))
        if draw(S["pct"]) < 5:
            values += ", " + literal(draw)  # non-string IN values: invalid in both
        return f"{name(draw)} {neg}{word(draw, 'IN')} ({values})"
    if k < 68:
        esc = f" {word(draw, 'ESCAPE')} {_q(draw(S['escape']))}" if draw(S["case"]) == 0 else ""
        operand = value(draw, d) if draw(S["suffix_roll"]) == 0 else name(draw)
        return f"{operand} {neg}{word(draw, 'LIKE')} {_q(''.join(draw(S['pattern'])))}{esc}"
    if k < 76:
        return f"{value(draw, d)} {word(draw, 'IS')} {neg}{word(draw, 'NULL')}"
    if k < 84:
        return name(draw)
    if k < 88:
        return word(draw, draw(S["boolean_word"]))
    if k < 93:
        return f"REGEX({_q(draw(S['regex']))}, {value(draw, d)})"
    if k < 96:
        items = ", ".join(literal(draw) for _ in range(draw(S["count"])))
        return f"INLIST(MAKELIST({items}), {value(draw, d)})"
    if k < 98:
        return f"INLIST(SPLIT({name(draw)}, {_q(draw(S['split_sep']))}), {literal(draw)})"
    return f"{name(draw)} = {literal(draw)}"


def mutate(draw, text: str) -> str:
    """Break the text: insert a token, drop a character, cut it short, or squeeze out a space
    (``100 AND`` → ``100AND``: still a selector for a Java tokenizer)."""
    pos = draw(st.integers(0, len(text)))
    k = draw(S["mutation"])
    if k == 0:
        return text[:pos] + draw(S["piece"]) + text[pos:]
    if k == 1:
        return text[:pos] + text[pos + 1:]
    if k == 2:
        return text[:pos]
    space = text.find(" ", pos)
    return text if space < 0 else text[:space] + text[space + 1:]


@st.composite
def selectors(draw):
    # Rare branches are keyed to values other than 0: Hypothesis favours small draws.
    text = predicate(draw, draw(S["depth"]))
    if 50 <= draw(S["pct"]) < 58:
        text = mutate(draw, text)
    if draw(S["pct2"]) == 137:
        text = draw(S["blank"])
    return text


# -- the test -------------------------------------------------------------------------------------

def collect_cases(n: int) -> list:
    """``n`` generated cases; the inner ``@given`` function only appends (nothing is judged there)."""
    cases = []

    @settings(max_examples=n, phases=[Phase.generate], database=None, deadline=None, derandomize=not RANDOM,
              suppress_health_check=list(HealthCheck))
    @given(selector=selectors(), message=messages())
    def collect(selector, message):
        headers, props, types = message
        cases.append({"id": f"h{len(cases)}", "selector": selector, "headers": headers, "props": props,
                      "types": types})

    collect()
    return cases


def ours(case):
    """Our verdict: True / False / None, or ("invalid", message)."""
    try:
        return jss.evaluate(case["selector"], case["headers"], case["props"], dialect="activemq", types=case["types"])
    except jss.SelectorError as e:
        return ("invalid", e.message)


def verdict_line(case, theirs, ours_value):
    return (f"{case['selector']!r} props={ {k: (case['types'][k], case['props'][k]) for k in case['props']} }"
            f" headers={case['headers']} activemq={theirs!r} ours={ours_value!r}")


def test_hypothesis_selectors_agree_with_activemq(oracle, capsys):
    cases = collect_cases(N_CASES)
    assert len(cases) >= 0.9 * N_CASES
    batch = [{"id": c["id"], "selector": c["selector"],
              "message": {"headers": c["headers"],
                          "properties": {k: {"type": c["types"][k], "value": v} for k, v in c["props"].items()}}}
             for c in cases]
    verdicts = oracle(batch)
    tally, outcomes = collections.Counter(), collections.Counter()
    disagreements = []
    for c in cases:
        theirs = verdicts[c["id"]]["result"]
        mine = ours(c)
        ours_value = mine[0] if isinstance(mine, tuple) else mine
        outcomes[ours_value] += 1
        if theirs in ("error", "timeout"):
            tally[f"activemq {theirs} (deliberate)"] += 1
        elif not c["selector"].strip() and theirs == "invalid" and ours_value is True:
            tally["empty selector (deliberate)"] += 1
        elif isinstance(mine, tuple) and mine[1] == OUT_OF_RANGE and theirs != "invalid":
            tally["out-of-range literal (deliberate)"] += 1
        elif theirs == ours_value:
            tally["agree"] += 1
        else:
            tally["DISAGREE"] += 1
            disagreements.append(verdict_line(c, theirs, mine))
    with capsys.disabled():
        print(f"\n[hypothesis oracle] {len(cases)} cases: "
              + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items()) if v)
              + f" | ours: TRUE {outcomes[True]}, FALSE {outcomes[False]}, UNKNOWN {outcomes[None]},"
              f" invalid {outcomes['invalid']}")
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:30])
    # The generator must exercise every outcome, and mostly real evaluations rather than errors.
    assert all(outcomes[k] >= 0.03 * len(cases) for k in (True, False, None, "invalid")), outcomes
    assert tally["agree"] >= 0.8 * len(cases), tally


def test_verdicts_survive_unicode_line_separators(oracle):
    # The oracle's output holds these characters unescaped; splitting its lines on them (as
    # str.splitlines does) once lost verdicts. Each must come back whole and compare as ours.
    chars = ["\u2028", "\u2029", "\x85", "\x1c", "\x1d", "\x1e", "\x0b", "\x0c"]
    cases = [{"id": f"sep{i}", "selector": f"s = '{c}' OR s LIKE '%{c}'", "headers": {}, "props": {"s": f"x{c}"},
              "types": {"s": "string"}} for i, c in enumerate(chars)]
    verdicts = oracle([{"id": c["id"], "selector": c["selector"],
                        "message": {"properties": {"s": {"type": "string", "value": c["props"]["s"]}}}}
                       for c in cases])
    assert [verdicts[c["id"]]["result"] for c in cases] == [True] * len(chars)
    assert [ours(c) for c in cases] == [True] * len(chars)
