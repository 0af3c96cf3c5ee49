"""Regenerate activemq-quirks.jsonl: the corners where ActiveMQ 5.17 departs from
the JMS text, with verdicts from the real ActiveMQ engine (the oracle harness, tests/support/oracle.py).

    python tools/conformance/make_activemq_quirks.py   # JMS_ORACLE_RUN: another oracle run script

- LIKE with an escape character outside U+0010..U+00FF escaping itself (ActiveMQ writes
  ``\\x`` + ``Integer.toHexString(c)`` into a Java regex);
- hex/octal literals of 2^63 and beyond, with and without a sign;
- XPATH / XQUERY reserved;
- string concatenation with floats/doubles: ``Double.toString``/``Float.toString`` of JDK 17.

`activemq` comes from the oracle; `jms` (where given) is the JMS text's meaning, hand-checked:
the escape character escapes itself, whatever it is. Prefixed (``convert_string_expressions:``)
cases live in activemq-convert.jsonl (make_activemq_convert.py): ActiveMQ caches parsed
selectors by their text without the prefix, so they are judged in a run of their own.
"""
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "tests" / "conformance"  # where the corpora live
sys.path.insert(0, str(REPO / "tests" / "support"))
from oracle import encode_value, run_oracle  # noqa: E402

T, F, U, INV = True, False, None, "invalid"
MIN_D = 5e-324
MIN_F = 1.401298464324817e-45
CASES = []


def c(selector, props=None, jms="-"):
    CASES.append((selector, props or {}, jms))


# 1. LIKE escapes outside Latin-1 / below U+0010 (escape escaping itself)
for esc, text, jms_text in [
    ("☺", "a☺", True), ("☺", "a&3a", False), ("Ā", "a\x100", False), ("Ā", "aĀ", True),
    ("\u2525", "%25", False), ("\u2525", "x25", False), ("\u255f", "%5f", False), ("\u255f", "_5f", False),
    ("\uffff", "\u00ffff", False), ("\uffff", "a\uffff", False), ("€", "a€", True), ("€", "\x20ac", False),
]:
    c(f"s LIKE '{esc}{esc}%' ESCAPE '{esc}'", {"s": ("string", text)}, jms_text and text.startswith(esc))
    c(f"s LIKE 'a{esc}{esc}' ESCAPE '{esc}'", {"s": ("string", text)}, text == "a" + esc)
    c(f"s LIKE '_{esc}{esc}_' ESCAPE '{esc}'", {"s": ("string", text)}, len(text) == 3 and text[1] == esc)
    c(f"s LIKE '{esc}%{esc}_{esc}{esc}' ESCAPE '{esc}'", {"s": ("string", "%_" + text)}, text == esc)
for esc in ["\t", "\x00", "\x01", "\x02", "\x05", "\x0f", "\n"]:
    for tail, text in [("", "a"), ("b", "a\x9b"), ("B", "ab"), ("0", "a" + chr(ord(esc) * 16)),
                       ("5", "a" + chr(ord(esc) * 16 + 5)), ("f", "a" + chr(ord(esc) * 16 + 15)),
                       ("%", "ax"), ("_", "ax"), ("g", "ag"), ("5x", "a" + chr(ord(esc) * 16 + 5) + "x")]:
        jms_ok = text == "a" + esc + tail
        c(f"s LIKE 'a{esc}{esc}{tail}' ESCAPE '{esc}'", {"s": ("string", text)}, jms_ok)
    c(f"s LIKE 'a{esc}b' ESCAPE '{esc}'", {"s": ("string", f"a{esc}b")}, True)
    c(f"s LIKE 'a{esc}%' ESCAPE '{esc}'", {"s": ("string", "a%")}, True)
    c(f"s NOT LIKE '{esc}{esc}5' ESCAPE '{esc}'", {"s": ("string", chr(ord(esc) * 16 + 5))}, True)
c("s LIKE 'a!!' ESCAPE '!'", {"s": ("string", "a!")}, True)  # inside U+0010..U+00FF: the spec's meaning
c("s LIKE 'aÿÿ' ESCAPE 'ÿ'", {"s": ("string", "aÿ")}, True)
c("s LIKE 'a\x10\x10' ESCAPE '\x10'", {"s": ("string", "a\x10")}, True)

# 2. hex / octal / decimal boundaries with signs
L = 2**63
for lit, value in [("0x7FFFFFFFFFFFFFFF", L - 1), ("-0x7FFFFFFFFFFFFFFF", -(L - 1)), ("0x8000000000000000", -L),
                   ("-0x8000000000000000", -L), ("- 0x8000000000000000", -L), ("-(0x8000000000000000)", -L),
                   ("0xFFFFFFFFFFFFFFFF", -1), ("-0xFFFFFFFFFFFFFFFF", 1), ("0x10000000000000000", 0),
                   ("0777777777777777777777", L - 1), ("-0777777777777777777777", -(L - 1)),
                   ("01000000000000000000000", -L), ("-01000000000000000000000", -L),
                   ("9223372036854775807", L - 1), ("-9223372036854775808", -L), ("-9223372036854775808L", -L),
                   ("0x80000000", 2**31),
                   ("-0x80000000", -(2**31)), ("-0x7FFFFFFF - 1", -(2**31)), ("020000000000", 2**31),
                   ("-020000000000", -(2**31))]:
    c(f"a = {lit}", {"a": ("long", value)})

# 3. XPATH / XQUERY reserved
for sel in ["xpath IS NULL", "XQuery = 1", "XPATH = 'a'", "xquery IS NOT NULL", "a = 1 OR xPath", "s LIKE 'x' OR xquery",
            "xpathx IS NULL", "xquery_ = 1", "XPATH '//a'"]:
    c(sel, {"xpathx": ("int", 1), "xquery_": ("int", 1), "a": ("int", 1), "s": ("string", "x")})

# 4. String.valueOf(double/float) of JDK 17 in string concatenation
DOUBLES = [MIN_D, -MIN_D, 2 * MIN_D, 1e23, 2e23, 1e22, 9.999999999999999e22, 2.0**63, 2.0**31, 1e7, 9999999.0, 1e-3,
           9.999e-4, 0.1, 1.0 / 3, 2.0**-1074 * 3, 2.2250738585072014e-308, 1.7976931348623157e308, 4.35, 100.0,
           123456789012345680.0, 1e21, 5e-324 * 7, 0.3, 2.0 / 3, 1e16, 1.0e-5]
FLOATS = [MIN_F, 2.0**31, 2.0**-149 * 3, 1.1754943508222875e-38, 3.4028234663852886e38, 16777216.0, 0.1, 1.1,
          1e10, 2.0**63, 1e-10, 3.0e-5, 33554432.0, 1.0e7]
for v in DOUBLES:
    c(f"s + d = 'x{repr(v)}'", {"s": ("string", "x"), "d": ("double", v)})
    c("'' + d LIKE '%E%'", {"d": ("double", v)})
    c("'' + d LIKE '%.0'", {"d": ("double", v)})
for v in FLOATS:
    c("'' + f LIKE '%E%'", {"f": ("float", v)})
    c("'' + f LIKE '%5'", {"f": ("float", v)})
for sel in ["'' + d = '4.9E-324'", "'' + d = '5.0E-324'", "'' + 1e23 = '9.999999999999999E22'", "'' + 1e23 = '1.0E23'",
            "'' + f = '1.4E-45'", "'' + f = '2.14748365E9'", "'' + f = '2.1474836E9'", "'' + 4.9E-324 = '4.9E-324'",
            "'' + (d * 2) = '9.9E-324'", "'' + (d * 2) = '1.0E-323'", "'' + 2E23 = '2.0E23'", "'' + 1e22 = '1.0E22'",
            "'' + 0.001 = '0.001'", "'' + 0.0009999 = '9.999E-4'", "'' + 1E7 = '1.0E7'", "'' + 9999999.0 = '9999999.0'",
            "'' + f = '1.4E-45' AND '' + d = '4.9E-324'"]:
    c(sel, {"d": ("double", MIN_D), "f": ("float", MIN_F)})

# the exact strings, one per value: ActiveMQ's own text, found by trying both JDK forms
import jms_selector_spark.semantics.javanum as jn  # noqa: E402

for v in DOUBLES:
    for text in dict.fromkeys((jn.java_double_str(v), jn.jdk17_double_str(v))):  # in a fixed order
        c(f"'' + d = '{text}'", {"d": ("double", v)})
for v in FLOATS:
    v = jn.to_float32(v)
    for text in dict.fromkeys((jn.java_float_str(v), jn.jdk17_float_str(v))):
        c(f"'' + f = '{text}'", {"f": ("float", v)})


def main():
    cases = []
    for i, (sel, props, jms) in enumerate(CASES):
        case = {"id": f"quirk-{i + 1}", "selector": sel,
                "message": {"properties": {k: {"type": t, "value": encode_value(t, v)} for k, (t, v) in props.items()}}}
        cases.append((case, jms))
    verdicts = run_oracle([c for c, _ in cases])
    out = HERE / "activemq-quirks.jsonl"
    with open(out, "w", encoding="utf-8") as f:
        for case, jms in cases:
            case["activemq"] = verdicts[case["id"]]["result"]
            if jms != "-":
                case["jms"] = jms
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
