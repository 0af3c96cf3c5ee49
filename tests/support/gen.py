"""Random selectors and typed messages for differential testing (seeded, reproducible).

`CaseGenerator(seed, dialect).case(i)` returns one case in the oracle's JSON shape::

    {"id", "selector", "message": {"headers": {...}, "properties": {name: {"type", "value"}}}}

plus ``types`` / ``props`` / ``headers`` ready for `evaluate`. Selectors are built as trees of
the constructs of the language over a few property names whose JMS type changes from message to
message, with literal values drawn from the edges (0, -0.0, NaN, ±Infinity, int/long limits,
empty and non-ASCII strings, LIKE metacharacters). A fraction of the text is deliberately broken
so the generated batch also checks what is rejected.
"""
from __future__ import annotations

import math
import random

from oracle import encode_value

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1

NAMES = ["a", "b", "c", "s", "t", "x"]
STRINGS = ["", "a", "ab", "abc", "A", "b", "%", "_", "a%b", "a_c", "é", "\U0001F600", "x\ny", "O'Brien", "!", "\\", "10", "1.5", "true",
           # what ActiveMQ's hex-escaped LIKE escapes match (issue #18): U+0010 + '0', '&3a', U+009B...
           "a\x100", "a&3a", "a\x9b", "\x9b", "%25", "a☺", "\t", "a\x00"]
PATTERN_CHARS = ["a", "b", "c", "%", "_", "!", "\\", "é", "'", "x"]
INTS = [0, 1, -1, 2, 3, 5, 7, -7, 10, 100, 127, -128, 255, 32767, -32768, INT_MAX, INT_MIN, 2**31, LONG_MAX, LONG_MIN, 2**53 + 1]
DOUBLES = [0.0, -0.0, 1.0, -1.0, 1.5, 2.5, 0.1, 1e300, -1e300, 1e-300, math.inf, -math.inf, math.nan, 3.0, 7.0, 2147483648.0, 9007199254740992.0,
           # where JDK 17's Double/Float.toString is not the shortest form (issue #18)
           5e-324, 1e-323, 1e23, 2e22, 9.223372036854776e18, 1e7, 1e-4, 1.401298464324817e-45, 4.35]
#: ActiveMQ literals at the long/int boundaries, hex/octal/decimal, signed (issue #18)
BOUNDARY_LITERALS = ["0x7FFFFFFFFFFFFFFF", "0x8000000000000000", "-0x8000000000000000", "-0x7FFFFFFFFFFFFFFF",
                     "0777777777777777777777", "01000000000000000000000", "-01000000000000000000000",
                     "9223372036854775807L", "-9223372036854775808", "-9223372036854775808L", "0x80000000", "-0x80000000",
                     "0xFFFFFFFF", "037777777777", "-020000000000", "2147483648", "-2147483649", "0x7fffffff", "-2147483648L"]
#: Qpid C++'s literal forms (SelectorToken.cpp): binary, `_`, suffixes, hex floats, its octal reading of `0x0…`.
CPP_LITERALS = ["0b101", "0b0101", "0x0F", "0xFF", "1_000", "0.5f", "2d", "0x8p-3", "077L", "0x8000_0000_0000_0000",
                "0xFFFF_FFFF_FFFF_FFFF", "-9223372036854775808", "1e-400", "0x", "1e", "0b2"]
#: ActiveMQ's body-selector keywords, reserved there
RESERVED_NAMES = ["xpath", "XQUERY", "XPath", "xquery"]
#: What `'' + x` prints on JDK 17 or on JDK 19+ for the values above
JAVA_TEXTS = ["4.9E-324", "5.0E-324", "1.0E-323", "9.9E-324", "9.999999999999999E22", "1.0E23", "2.0E22", "2.14748365E9",
              "2.1474836E9", "2.147483648E9", "1.4E-45", "1.0E-45", "9.223372036854776E18", "1.0E7", "1.0E-4", "4.35", "0.1",
              "1.0", "NaN", "Infinity", "-0.0"]
ZERO_ID = "ID:" + "0" * 48  # IBM MQ's MQMI_NONE / MQCI_NONE
ESCAPES = ["!", "\\", "a", "%", "_"]
#: Header names and aliases selectors may use with ``headers=True`` (each a property elsewhere).
HEADER_NAMES = ["JMSType", "JMSPriority", "JMSTimestamp", "JMSDeliveryMode", "JMSCorrelationID", "JMSMessageID",
                "JMSReplyTo", "JMSDestination", "JMSRedelivered", "JMSExpiration", "AMQMessageID", "ci", "mi", "mt",
                "rt", "ts", "si", "sn", "ex", "ct", "ce", "SequenceNo", "CI"]
#: Headers a message may carry with ``headers=True`` (any may be unset), with their values.
EXTRA_HEADERS = {"JMSTimestamp": [0, 1, 1767225600000], "JMSMessageID": ["ID:1", "ID:2"],
                 "JMSReplyTo": ["queue://r", "topic://t", ""], "JMSDestination": ["queue://q", "a"],
                 "JMSRedelivered": [True, False], "JMSExpiration": [0, 5, 1767225600000],
                 "SenderID": ["s1", "a", ""], "SequenceNo": [0, 1, 5, LONG_MAX], "Expiration": [0, 1, 1767225600000],
                 "HttpContentType": ["text/plain", "a"], "HttpContentEncoding": ["gzip", ""]}
TYPES = ["boolean", "byte", "short", "int", "long", "float", "double", "string"]
_RANGE = {"byte": (-128, 127), "short": (-32768, 32767), "int": (INT_MIN, INT_MAX), "long": (LONG_MIN, LONG_MAX)}


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _fmt_double(v: float) -> str:
    if math.isinf(v):
        return "1E999" if v > 0 else "-1E999"
    r = repr(v)
    return r if any(ch in r for ch in ".eE") else r + ".0"


class CaseGenerator:
    def __init__(self, seed: int, dialect: str = "jms", *, headers: bool = False):
        """``headers``: selectors also name headers (and aliases: ``AMQMessageID``, Solace's ``sn``…)
        and messages carry every header of the data model, some unset (issue 13)."""
        self.rng = random.Random(seed)
        self.dialect = dialect
        self.headers = headers
        # The constructs a dialect has, from its table entry: an ActiveMQ-family dialect (artemis,
        # qpid, qpid-jms) gets the extended literals, `%`, string `+` and its own names too.
        from jms_selector_spark.language.dialects import get_dialect

        d = get_dialect(dialect)
        self.activemq = d.extended_literals and d.modulo and d.string_concatenation
        self.reserved = bool(d.reserved_words)
        self.quoted = d.quoted_identifiers
        self.bang = d.bang_equals
        self.dotted = d.dotted_identifiers
        self.ibmmq = d.zero_id_wildcard  # + hex/octal/L literals, the zero-id wildcard (issue #13)
        self.mqe = d.operators is not None  # only AND, = and IS NULL; headers as MQe types them
        self.cpp = d.cpp_literals  # Qpid C++: its literal forms, IN over expressions, its ESCAPE (issue #14)

    # -- messages ---------------------------------------------------------------------------
    def value_of(self, t: str):
        r = self.rng
        if t == "boolean":
            return r.random() < 0.5
        if t in _RANGE:
            lo, hi = _RANGE[t]
            cands = [v for v in INTS if lo <= v <= hi]
            return r.choice(cands) if r.random() < 0.8 else r.randint(lo, hi)
        if t == "float":
            v = r.choice(DOUBLES + [0.5, 1.1, 100.25])
            import struct
            try:
                return struct.unpack("<f", struct.pack("<f", v))[0]
            except OverflowError:
                return math.copysign(math.inf, v)
        if t == "double":
            return r.choice(DOUBLES) if r.random() < 0.8 else r.uniform(-10, 10)
        return r.choice(STRINGS)

    def message(self):
        r = self.rng
        props, types = {}, {}
        for name in NAMES:
            if r.random() < 0.8:
                t = r.choice(TYPES)
                props[name] = self.value_of(t)
                types[name] = t
        headers = {
            "JMSType": r.choice(["car", "truck", "Car", ""]),
            "JMSPriority": r.randint(0, 9),
            "JMSDeliveryMode": r.choice(["PERSISTENT", "NON_PERSISTENT"]),
            "JMSTimestamp": r.choice([0, 1, 1767225600000, LONG_MAX]),
        }
        if r.random() < 0.5:
            headers["JMSCorrelationID"] = r.choice(["ID:1", "abc", ""])
        if self.ibmmq or self.mqe:  # extra draws only here: the jms/activemq streams are unchanged
            headers["JMSMessageID"] = r.choice([ZERO_ID, "ID:414D51207061756C745639314C545320C57C1A5F25ECE602", "ID:1"])
            if r.random() < 0.3:
                headers["JMSCorrelationID"] = ZERO_ID
            if self.mqe and r.random() < 0.7:
                headers["JMSExpiration"] = r.choice([0, 5000, LONG_MAX])
            if self.mqe and r.random() < 0.2:
                headers.pop("JMSPriority")
        if self.headers:
            for name, values in EXTRA_HEADERS.items():
                if r.random() < 0.6:
                    headers[name] = r.choice(values)
                elif name in headers:
                    del headers[name]
        return headers, props, types

    # -- selectors --------------------------------------------------------------------------
    def literal(self):
        r = self.rng
        if (self.activemq or self.ibmmq) and r.random() < 0.06:
            return r.choice(BOUNDARY_LITERALS)
        if self.cpp and r.random() < 0.1:
            return r.choice(CPP_LITERALS)
        k = r.random()
        if k < 0.35:
            v = r.choice(INTS[:17] + [LONG_MAX])
            return str(v) if v >= 0 else f"-{-v}" if r.random() < 0.5 else str(v)
        if k < 0.6:
            return _fmt_double(r.choice([v for v in DOUBLES if not math.isnan(v)] + [0.5, 2.0]))
        if k < 0.85:
            return _q(r.choice(STRINGS))
        return r.choice(["TRUE", "FALSE", "true", "False"])

    def value(self, depth: int) -> str:
        r = self.rng
        k = r.random()
        if depth <= 0 or k < 0.45:
            if self.reserved and r.random() < 0.01:
                return r.choice(RESERVED_NAMES)
            if self.dotted and r.random() < 0.05:
                return r.choice(NAMES) + "." + r.choice(NAMES)
            if self.quoted and r.random() < 0.1:  # "a" names property a; "a""b" property a"b
                return r.choice(['"' + r.choice(NAMES) + '"', '"a""b"', '"a.b"', '"NOT"'])
            if self.headers and r.random() < 0.4:
                return r.choice(HEADER_NAMES)
            return r.choice(NAMES)
        if k < 0.7:
            return self.literal()
        if k < 0.9:
            ops = ["+", "-", "*", "/"] + (["%"] if self.activemq else [])
            return f"{self.value(depth - 1)} {r.choice(ops)} {self.value(depth - 1)}"
        if k < 0.95:
            return f"-{self.value(depth - 1)}" if r.random() < 0.8 else f"+{self.value(depth - 1)}"
        return f"({self.value(depth - 1)})"

    def pattern(self, escape: "str | None" = None) -> str:
        r = self.rng
        chars = PATTERN_CHARS if escape is None else PATTERN_CHARS + [escape] * 4 + list("09afAFg")
        return "".join(r.choice(chars) for _ in range(r.randint(0, 5)))

    def escape_char(self) -> str:
        """An ESCAPE character: usually a plain one, else anywhere in the BMP (below U+0010, in
        Latin-1, above U+00FF: where ActiveMQ's hex-escaped regex departs from the JMS text)."""
        r = self.rng
        k = r.random()
        if k < 0.5:
            return r.choice(ESCAPES)
        if k < 0.7:
            return chr(r.randint(0, 0x0F))
        if k < 0.8:
            return chr(r.randint(0x10, 0xFF))
        c = r.randint(0x100, 0xFFFF)
        return chr(c) if not 0xD800 <= c <= 0xDFFF else "☺"

    def mqe_predicate(self, depth: int) -> str:
        """MQe's language: AND, =, IS NULL, parentheses; now and then an operator it rejects."""
        r = self.rng
        k = r.random()
        if depth > 0 and k < 0.3:
            return f"{self.mqe_predicate(depth - 1)} {r.choice(['AND', 'and'])} {self.mqe_predicate(depth - 1)}"
        if depth > 0 and k < 0.36:
            return f"({self.mqe_predicate(depth - 1)})"
        k = r.random()
        if k < 0.35:
            return f"{r.choice(NAMES)} = {self.literal()}"
        if k < 0.55:
            header = r.choice(["JMSPriority", "JMSDeliveryMode", "JMSTimestamp", "JMSExpiration", "JMSType"])
            lit = r.choice(["0", "1", "2", "4", "9", "5000", "1767225600000", "2.0", "4.0", "'PERSISTENT'", "'car'",
                            "3000000000", "-1", self.literal()])
            return f"{header} = {lit}" if r.random() < 0.8 else f"{lit} = {header}"
        if k < 0.65:
            return f"{r.choice(NAMES)} = {r.choice(NAMES + ['JMSPriority'])}"
        if k < 0.8:
            return f"{r.choice(NAMES + ['JMSExpiration', 'JMSCorrelationID'])} IS NULL"
        if k < 0.9:
            return r.choice(NAMES)
        if k < 0.95:
            return f"{self.literal()} = {self.literal()}"
        return r.choice([f"{r.choice(NAMES)} <> 1", f"{r.choice(NAMES)} IS NOT NULL", "a = 1 OR b = 2", "NOT a",
                         "a + 1 = 2", "-a = 1", "a BETWEEN 1 AND 2", "a IN ('x')", "a LIKE 'x'"])

    def predicate(self, depth: int) -> str:
        r = self.rng
        if self.mqe:
            return self.mqe_predicate(depth)
        k = r.random()
        if depth > 0 and k < 0.22:
            op = r.choice([" AND ", " OR ", " and ", " or "])
            return f"{self.predicate(depth - 1)}{op}{self.predicate(depth - 1)}"
        if depth > 0 and k < 0.3:
            return f"NOT {self.predicate(depth - 1)}" if r.random() < 0.5 else f"NOT ({self.predicate(depth - 1)})"
        if depth > 0 and k < 0.35:
            return f"({self.predicate(depth - 1)})"
        k = r.random()
        if k < 0.4:
            op = r.choice(["=", "<>", "<", ">", "<=", ">="] + (["!="] if self.bang else []))
            return f"{self.value(depth - 1)} {op} {self.value(depth - 1)}"
        if k < 0.5:
            neg = "NOT " if r.random() < 0.4 else ""
            return f"{self.value(depth - 1)} {neg}BETWEEN {self.value(depth - 1)} AND {self.value(depth - 1)}"
        if k < 0.6 and self.cpp and r.random() < 0.6:  # Qpid C++: any expressions on both sides
            neg = "NOT " if r.random() < 0.4 else ""
            vals = ", ".join(self.value(depth - 1) for _ in range(r.randint(1, 3)))
            return f"{self.value(depth - 1)} {neg}IN ({vals})"
        if k < 0.6:
            neg = "NOT " if r.random() < 0.4 else ""
            vals = ", ".join(_q(r.choice(STRINGS)) for _ in range(r.randint(1, 3)))
            return f"{r.choice(NAMES)} {neg}IN ({vals})"
        if k < 0.72:
            neg = "NOT " if r.random() < 0.4 else ""
            if r.random() < 0.3:
                e = self.escape_char() if not self.cpp else r.choice(ESCAPES + ["", "%", "é"])
                return f"{r.choice(NAMES)} {neg}LIKE {_q(self.pattern(e))} ESCAPE {_q(e)}"
            return f"{r.choice(NAMES)} {neg}LIKE {_q(self.pattern())}"
        if k < 0.8:
            return f"{self.value(depth - 1)} IS {'NOT ' if r.random() < 0.5 else ''}NULL"
        if k < 0.9:
            return r.choice(HEADER_NAMES if self.headers and r.random() < 0.4 else NAMES)
        if self.activemq and k < 0.93:  # Java's number-to-string in string concatenation
            return f"{r.choice(['', 's + '])}'' + {r.choice(NAMES + [_fmt_double(r.choice(DOUBLES[-9:]))])} = {_q(r.choice(JAVA_TEXTS))}"
        if k < 0.95:
            return r.choice(["TRUE", "FALSE"])
        return f"{r.choice(NAMES)} = {self.literal()}"

    def break_text(self, text: str) -> str:
        r = self.rng
        k = r.random()
        pos = r.randint(0, len(text))
        if k < 0.3:
            return text[:pos] + r.choice([" AND", "(", ")", "'", ",", " NOT", "=", " IN", "NULL"]) + text[pos:]
        if k < 0.6:
            return text[:pos]
        return text[:pos] + text[pos + 1:]

    def selector(self) -> str:
        if self.ibmmq and self.rng.random() < 0.05:  # IBM MQ's all-zero id wildcard, exact or not
            return self.rng.choice([f"JMSMessageID='{ZERO_ID}'", f"JMSCorrelationID = '{ZERO_ID}'",
                                    f"JMSMessageID='{ZERO_ID}' AND a IS NULL", f"(JMSCorrelationID='{ZERO_ID}')"])
        text = self.predicate(self.rng.randint(1, 4))
        if self.rng.random() < 0.08:
            text = self.break_text(text)
        return text

    def case(self, i: int) -> dict:
        sel = self.selector()
        headers, props, types = self.message()
        return {
            "id": f"{self.dialect}-{i}",
            "selector": sel,
            "message": {
                "headers": headers,
                "properties": {k: {"type": types[k], "value": encode_value(types[k], v)} for k, v in props.items()},
            },
            "headers": headers,
            "props": props,
            "types": types,
        }
