"""Regenerate activemq-convert.jsonl: ActiveMQ's `convert_string_expressions:` prefix, judged by the
real engine (the oracle harness, tests/support/oracle.py) in a run of its own.

    python tools/conformance/make_activemq_convert.py   # JMS_ORACLE_RUN: another oracle run script

ActiveMQ caches parsed selectors by their text *without* the prefix, so after
``convert_string_expressions:s = 1`` a plain ``s = 1`` in the same run answers as if prefixed:
every selector here carries the prefix, and the corpus is judged apart from the others (the
conformance tests do the same).

Under the prefix, ``ComparisonExpression.compare`` converts a string compared with a number or a
boolean with the other side's ``valueOf(String)`` (Byte/Short/Integer/Long/Float/Double/Boolean);
text Java cannot read compares FALSE; a boolean on the left of a string throws (*error*). IN and
LIKE do not convert.
"""
import json
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "tests" / "conformance"  # where the corpora live
sys.path.insert(0, str(REPO / "tests" / "support"))
from oracle import encode_value, run_oracle  # noqa: E402

P = "convert_string_expressions:"
CASES = []


def c(selector, props):
    CASES.append((P + selector, props))


TEXTS = ["1", "+1", "-1", "01", " 1", "1.0", "1.5", "1e0", ".5", "0x1p0", "0x10", "NaN", "-Infinity", "1.5f", "abc",
         "", "true", "TRUE", "yes", "128", "-129", "2147483648", "9223372036854775808", "١", "1_0", "\t1\n", "-0.0",
         "1.1"]
NUMS = [("byte", 1), ("short", 1), ("int", 1), ("long", 1), ("float", 1.5), ("double", 1.0), ("long", 2147483648),
        ("double", math.nan), ("double", -0.0), ("float", 1.1)]
for text in TEXTS:
    for t, v in NUMS:
        c("s = n", {"s": ("string", text), "n": (t, v)})
        c("n = s", {"s": ("string", text), "n": (t, v)})
    c("s = 1 OR s <> 1 AND s > 0 OR s < 2 AND 1 = s", {"s": ("string", text)})
    for sel in ["s >= 1.5", "s <= 1.0", "1.5 < s", "s BETWEEN 0 AND 2", "s NOT BETWEEN 0 AND 2", "s = 1.1", "s = TRUE",
                "s <> FALSE", "TRUE = s", "NOT (s = 1) OR s = 'x'", "s + 1 = 2", "s IN ('1') OR s LIKE '1%'",
                "s > 2147483647", "s = 0x10 OR s = 127", "s = 2147483648", "s = -0.0", "s = 0"]:
        c(sel, {"s": ("string", text)})
    c("b = s", {"s": ("string", text), "b": ("boolean", True)})
    c("s = b OR s > b", {"s": ("string", text), "b": ("boolean", False)})
    c("s = t", {"s": ("string", text), "t": ("string", "1")})
for sel in ["s = 1", "1 = s", "s <> 1", "s > 0", "a = s", "s = a", "s BETWEEN a AND 2"]:
    c(sel, {})  # NULLs
    c(sel, {"a": ("int", 1)})
c("", {})
c(" ", {})


def main():
    cases = []
    for i, (sel, props) in enumerate(CASES):
        cases.append({"id": f"convert-{i + 1}", "selector": sel,
                      "message": {"properties": {k: {"type": t, "value": encode_value(t, v)} for k, (t, v) in props.items()}}})
    verdicts = run_oracle(cases)
    out = HERE / "activemq-convert.jsonl"
    with open(out, "w", encoding="utf-8") as f:
        for case in cases:
            verdict = verdicts[case["id"]]["result"]
            if verdict == "error":
                # ActiveMQ throws (a boolean on the left of a string: ClassCastException) and drops
                # the message; as everywhere (README, deliberate differences) we answer UNKNOWN,
                # which drops it too unless an OR/NOT around it decides otherwise.
                case["oracle"] = verdict
                verdict = None
            case["activemq"] = verdict
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
