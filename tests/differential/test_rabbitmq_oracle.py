"""``rabbitmq-jms`` against RabbitMQ's own selector evaluator (``sjx_evaluator``, Debian's 3.10.8).

Each selector goes to the engine as the RabbitMQ JMS client sends it (`to_rabbitmq_term`), with
the message's AMQP header table as the client writes it (`rabbitmq_oracle.header_table`); the
dialect evaluates the text (`evaluate(..., dialect="rabbitmq-jms")`). Verdicts: TRUE is routed,
anything else (FALSE, ``undefined``, a non-boolean value, the evaluator raising) is not.

Part one pins the engine's answers to the rules the dialect was fixed by. Part two judges the
project's generator (`gen.CaseGenerator`: NULLs, unlike types, numeric extremes, LIKE escapes)
in one oracle run, at least ``JMS_RABBITMQ_ORACLE_CASES`` (5,000) judged cases; every case must
agree, except in the documented differences (docs/dialects/rabbitmq-engine.md), each recognised
here by its own test of the case, independent of the dialect:

- ``raise-masked``: the engine raised (LIKE on a number, arithmetic on a string…), which drops
  the message whatever the rest says; the dialect evaluates the failing part as UNKNOWN, and an
  OR with a TRUE operand (or an AND with a FALSE one, under NOT) made the selector TRUE.
  Recognised by asking the engine: some OR of the term has an operand it evaluates to ``true``,
  or some AND one it evaluates to ``false``.
- ``division by zero``: ``x / 0`` is an atom there (``plus_infinity``, ``minus_infinity``,
  ``nan``), ordered after every number; the dialect divides in IEEE doubles.
- ``beyond 64 bits``: Erlang integers do not overflow; the dialect computes exact values as Java
  longs.
- ``long vs double``: Erlang compares an integer with a float exactly; the dialect converts the
  long to a double first (Java), which differs beyond 2**53.
- ``float overflow``: a double result beyond the largest double makes Erlang raise (the message
  is not routed); the dialect carries ±Infinity on.
- ``LIKE bytes``: the engine matches a UTF-8 byte per ``_`` and never a line feed; the dialect
  matches characters.

A message cannot carry a non-finite float to RabbitMQ (Erlang has none: the broker cannot decode
it), so the generator's NaN and infinities are replaced by the largest finite values.
"""
from __future__ import annotations

import collections
import math
import os
import re
import struct

import pytest

import jms_selector_spark as jss
from jms_selector_spark.language import nodes as n
from gen import CaseGenerator
from rabbitmq_cases import KNOWN
from rabbitmq_oracle import header_table, rabbitmq_unavailable_reason, run_rabbitmq_oracle

pytestmark = pytest.mark.rabbitmq_oracle

N_JUDGED = int(os.environ.get("JMS_RABBITMQ_ORACLE_CASES", "5000"))
DIALECT = "rabbitmq-jms"
FLOAT32_MAX = struct.unpack(">f", b"\x7f\x7f\xff\xff")[0]


@pytest.fixture(scope="module")
def engine():
    reason = rabbitmq_unavailable_reason()
    if reason:
        pytest.skip(reason)
    return run_rabbitmq_oracle


def _ours(selector, headers, props, types):
    try:
        return jss.evaluate(selector, headers, props, dialect=DIALECT, types=types)
    except jss.SelectorError:
        return "invalid"


def _theirs(verdict):
    r = verdict["result"]
    return r if r in (True, False, None) else r  # "raise", "other"


def _routed(x) -> bool:
    return x is True


# -- part one: the engine's answers behind each rule ----------------------------------------------

def test_the_engine_decides_each_rule(engine):
    cases = []
    for i, (selector, props, _, _) in enumerate(KNOWN):
        values = {k: v for k, (_, v) in props.items()}
        types = {k: t for k, (t, _) in props.items()}
        cases.append({"id": f"k{i}", "term": jss.to_rabbitmq_term(selector), "headers": header_table({}, values, types)})
    verdicts = engine(cases)
    wrong = []
    for i, (selector, props, expected, why) in enumerate(KNOWN):
        theirs = _theirs(verdicts[f"k{i}"])
        values = {k: v for k, (_, v) in props.items()}
        ours = _ours(selector, {}, values, {k: t for k, (t, _) in props.items()})
        if theirs != expected:
            wrong.append(f"engine: {selector!r} gave {theirs!r}, this test says {expected!r} ({why})")
        elif (theirs in (True, False, None) and ours != theirs) or (theirs not in (True, False, None) and ours is not None):
            wrong.append(f"dialect: {selector!r} gives {ours!r}, the engine {theirs!r} ({why})")
    assert not wrong, "\n".join(wrong)


#: The documented differences, one case each: (selector, properties, the engine's result, the
#: dialect's, the class `_explain` gives it).
DOCUMENTED = [
    ("n LIKE 'x' OR s LIKE 'a%'", {"n": ("long", 5), "s": ("string", "abc")}, "raise", True, "raise-masked"),
    ("x / 0 > 1E308", {"x": ("long", -1)}, True, False, "division by zero"),
    ("i * i > 0", {"i": ("long", 2 ** 62)}, True, False, "beyond 64 bits"),
    ("l = 9.223372036854776E18", {"l": ("long", 2 ** 63 - 1)}, False, True, "long vs double"),
    ("d * 10 > 1", {"d": ("double", 1e308)}, "raise", True, "float overflow"),
    ("s LIKE '_'", {"s": ("string", "\u00e9")}, False, True, "LIKE bytes"),
    ("s LIKE 'x%'", {"s": ("string", "x\ny")}, False, True, "LIKE bytes"),
]


def test_the_documented_differences_are_what_the_engine_says(engine):
    cases = []
    for i, (selector, props, *_) in enumerate(DOCUMENTED):
        values = {k: v for k, (_, v) in props.items()}
        types = {k: t for k, (t, _) in props.items()}
        cases.append({"id": f"d{i}", "term": jss.to_rabbitmq_term(selector), "headers": header_table({}, values, types),
                      "selector": selector, "props": values, "types": types})
    verdicts = engine([{k: c[k] for k in ("id", "term", "headers")} for c in cases])
    for c, (selector, _, theirs, ours, kind) in zip(cases, DOCUMENTED):
        assert _theirs(verdicts[c["id"]]) == theirs, selector
        assert _ours(selector, {}, c["props"], c["types"]) == ours, selector
        c.update(theirs=theirs, ours=ours, table=c["headers"], headers={})
    explained = _explain(engine, cases)
    assert [explained.get(c["id"], "")[:len(kind)] for c, (*_, kind) in zip(cases, DOCUMENTED)] == [
        kind for *_, kind in DOCUMENTED]


def test_numeric_in_lists_match_exactly_but_the_client_writes_none(engine):
    """A term bound by hand may hold numbers in IN (``isIn/2`` matches with ``=:=``); the client's
    grammar takes string literals only, so the dialect rejects the selector as the client does."""
    verdicts = engine([{"id": "in", "term": "{'in',1.0,[1,2,3]}.", "headers": []},
                       {"id": "not_in", "term": "{'not_in',1.0,[1,2,3]}.", "headers": []},
                       {"id": "in_int", "term": "{'in',1,[1,2,3]}.", "headers": []}])
    assert [verdicts[k]["result"] for k in ("in", "not_in", "in_int")] == [False, True, True]
    for selector in ("x IN (1, 2, 3)", "1.0 IN ('1')"):
        with pytest.raises(jss.SelectorSyntaxError):
            jss.parse(selector, dialect=DIALECT)


# -- part two: generated cases --------------------------------------------------------------------

def _finite(case):
    """Non-finite floats replaced by the largest finite ones (RabbitMQ cannot carry them)."""
    for name, t in case["types"].items():
        v = case["props"][name]
        if t in ("float", "double") and not math.isfinite(v):
            top = FLOAT32_MAX if t == "float" else 1.7976931348623157e308
            case["props"][name] = 0.0 if math.isnan(v) else math.copysign(top, v)
    return case


def _generated(n_judged: int):
    gen = CaseGenerator(seed=20261137, dialect=DIALECT)
    cases, i, judged = [], 0, 0
    while judged < n_judged:
        c = _finite(gen.case(i))
        i += 1
        try:
            c["term"] = jss.to_rabbitmq_term(c["selector"])
        except jss.SelectorError:
            c["term"] = "invalid"
        c["table"] = header_table(c["headers"], c["props"], c["types"])
        judged += c["term"] not in ("invalid", None)
        cases.append(c)
    return cases


def test_generated_cases_agree_with_rabbitmq(engine, capsys):
    cases = _generated(N_JUDGED)
    judged = [c for c in cases if c["term"] not in ("invalid", None)]
    verdicts = engine([{"id": c["id"], "term": c["term"], "headers": c["table"]} for c in judged])
    tally, differ = collections.Counter(), []
    for c in cases:
        ours = _ours(c["selector"], c["headers"], c["props"], c["types"])
        if c["term"] in ("invalid", None):
            theirs = "invalid" if c["term"] == "invalid" else True
            tally["agree" if ours == theirs else "DISAGREE"] += 1
            if ours != theirs:
                differ.append((c, theirs, ours, "validity"))
            continue
        theirs = _theirs(verdicts[c["id"]])
        if theirs == "invalid_term":
            tally["DISAGREE"] += 1
            differ.append((c, theirs, ours, "the exchange cannot read the term"))
        elif theirs == ours or (theirs in ("raise", "other") and ours in (False, None)):
            tally["agree" if theirs == ours else f"agree (not routed: engine {theirs})"] += 1
        else:
            c["theirs"], c["ours"] = theirs, ours
            differ.append((c, theirs, ours, None))
    explained = _explain(engine, [d[0] for d in differ if d[3] is None])
    unexplained = []
    for c, theirs, ours, why in differ:
        reason = None if why else explained.get(c["id"])
        if reason:
            tally[f"documented: {reason}"] += 1
            continue
        tally["DISAGREE"] += why is None  # the others are counted above
        unexplained.append(f"{c['selector']!r} {c['table']} engine={theirs!r} ours={ours!r} {why or ''}")
    with capsys.disabled():
        print(f"\n[rabbitmq oracle differential] {len(cases)} generated cases, {len(judged)} judged by sjx_evaluator: "
              + ", ".join(f"{k}: {v}" for k, v in sorted(tally.items())))
    assert len(judged) >= N_JUDGED
    assert not unexplained, f"{len(unexplained)} unexplained:\n" + "\n".join(unexplained[:20])
    assert tally["agree"] >= 0.75 * len(cases)  # the generator exercises real cases, not errors


# -- recognising the documented differences ---------------------------------------------------------

def _explain(engine, cases) -> dict:
    """``{case id: class}`` for the disagreements a documented difference accounts for."""
    out, probes = {}, []
    for c in cases:
        root = jss.parse(c["selector"], dialect=DIALECT).root
        values = {k: v for k, v in c["headers"].items() if v is not None}
        values.update(c["props"])
        kinds = _Exact(values, c["types"]).kinds(root)
        if kinds:
            out[c["id"]] = sorted(kinds)[0]
            continue
        if _routed(c["ours"]) and c["theirs"] == "raise":
            operands = [(x, type(node) is n.Or) for node in n.walk(root) if type(node) in (n.And, n.Or)
                        for x in node.operands]
            for j, (node, decides) in enumerate(operands):
                text = c["selector"][node.span.start:node.span.end]
                probes.append({"id": f"{c['id']}/{j}", "term": jss.to_rabbitmq_term(text), "headers": c["table"],
                               "case": c["id"], "decides": decides})
    if probes:
        verdicts = engine([{k: p[k] for k in ("id", "term", "headers")} for p in probes])
        for p in probes:
            if verdicts[p["id"]]["result"] is p["decides"]:
                out[p["case"]] = "raise-masked (an OR operand the engine finds TRUE, or an AND operand FALSE)"
    return out


_LONG = (-(2 ** 63), 2 ** 63 - 1)


class _Exact:
    """Erlang's arithmetic on a case's values, written out: integers exact, ``/`` a float (an atom
    for a zero divisor), to tell which documented difference a disagreement falls in."""

    def __init__(self, values: dict, types: dict):
        self.values, self.types, self.found = values, types, set()

    def kinds(self, root) -> set:
        for node in n.walk(root):
            if type(node) in (n.Comparison, n.Between):
                x, *others = n.children(node)
                for y in others:
                    a, b = self.value(x), self.value(y)
                    f32 = self.types.get(getattr(x, "name", None)) == "float" or self.types.get(getattr(y, "name", None)) == "float"
                    if _java_differs(a, b, f32) or _java_differs(b, a, f32):
                        self.found.add("long vs double (Erlang compares exactly)")
            elif type(node) is n.Like:
                self.like(node)
            else:
                self.value(node)
        return self.found

    def value(self, node):
        t = type(node)
        if t is n.Literal:
            return node.value if node.type.is_numeric else None
        if t is n.Identifier:
            v = self.values.get(node.name)
            return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if t is n.Unary:
            v = self.value(node.operand)
            return None if v is None else self.exact(-v if node.op is n.UnaryOp.MINUS else v)
        if t is n.Arithmetic:
            a, b = self.value(node.left), self.value(node.right)
            if node.op is n.ArithOp.DIVIDE:
                if b == 0 and (a is not None or self.values.get(getattr(node.left, "name", None)) is not None):
                    self.found.add("division by zero (an Erlang atom there)")
                return None if a is None or b is None or b == 0 else self.finite(lambda: a / b)
            if a is None or b is None:
                return None
            op = {n.ArithOp.PLUS: lambda: a + b, n.ArithOp.MINUS: lambda: a - b, n.ArithOp.TIMES: lambda: a * b}[node.op]
            return self.exact(op()) if isinstance(a, int) and isinstance(b, int) else self.finite(op)
        return None

    def finite(self, compute):
        """A float result: beyond a double, Erlang raises badarith (here: ±Infinity)."""
        try:
            v = compute()
        except OverflowError:
            v = math.inf
        if not math.isfinite(v):
            self.found.add("float overflow (Erlang raises; here ±Infinity)")
            return None
        return v

    def exact(self, v):
        if isinstance(v, int) and not _LONG[0] <= v <= _LONG[1]:
            self.found.add("beyond 64 bits (Erlang integers do not overflow)")
        return v

    def like(self, node):
        v = self.values.get(node.operand.name)
        if not isinstance(v, str) or (v.isascii() and "\n" not in v):
            return
        if _engine_like(v, node.pattern, node.escape) != _char_like(v, node.pattern, node.escape):
            self.found.add("LIKE bytes (a UTF-8 byte per _, no line feed)")


def _java_differs(a, b, float32: bool) -> bool:
    """An integer against a float: Java converts the integer to a double (to a float against a
    32-bit float), Erlang compares exactly."""
    if not (isinstance(a, int) and isinstance(b, float)) or math.isnan(b):
        return False
    j = float(a)
    if float32:
        j = struct.unpack(">f", struct.pack(">f", j))[0] if abs(j) <= FLOAT32_MAX else math.copysign(math.inf, j)
    return (j > b) - (j < b) != (a > b) - (a < b)


def _like_regex(pattern: str, escape, one: str, many: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if escape is not None and ch == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(one if ch == "_" else many if ch == "%" else re.escape(ch))
        i += 1
    return "".join(out)


def _engine_like(value: str, pattern: str, escape) -> bool:
    """``sjx_evaluator:isLike/2``: the pattern's UTF-8 bytes as a regex (``.`` is one byte but not a
    line feed), TRUE when the first match at 0 spans the value."""
    to = lambda s: s.encode("utf-8").decode("latin-1")  # noqa: E731 - one char per byte
    rx = _like_regex(to(pattern), None if escape is None else to(escape), ".", ".*")
    m = re.match(rx, to(value))
    return m is not None and m.end() == len(to(value))


def _char_like(value: str, pattern: str, escape) -> bool:
    return re.fullmatch(_like_regex(pattern, escape, ".", ".*"), value, re.S) is not None
