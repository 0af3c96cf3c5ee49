"""Probe ActiveMQ Classic 5.17's selector engine on edge cases; write docs/dialects/activemq-measured.md.

    python tools/probe_activemq.py            # rewrites docs/dialects/activemq-measured.md
    python tools/probe_activemq.py --stdout   # prints the document instead

Every case below goes to the oracle (the harness of tests/support/oracle.py) in ONE run; the tables in
the document are exactly its verdicts. The summary and per-topic notes (``SUMMARY``, ``NOTES``)
are hand-written from those verdicts: re-read them if a regenerated table changes.
"""
from __future__ import annotations

import argparse
import math
import sys
import unicodedata
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.oracle import REPO_ROOT, run_oracle  # noqa: E402

NAN, INF = math.nan, math.inf


def P(type_, value):
    return (type_, value)


def C(selector, props=None, headers=None, note=""):
    return {"selector": selector, "props": props or {}, "headers": headers or {}, "note": note}


S = lambda v: P("string", v)  # noqa: E731
I = lambda v: P("int", v)  # noqa: E731
L = lambda v: P("long", v)  # noqa: E731
D = lambda v: P("double", v)  # noqa: E731
F = lambda v: P("float", v)  # noqa: E731
B = lambda v: P("boolean", v)  # noqa: E731
BY = lambda v: P("byte", v)  # noqa: E731
SH = lambda v: P("short", v)  # noqa: E731

TOPICS: list[tuple[str, str, list[dict]]] = []


def topic(title, intro, cases):
    TOPICS.append((title, intro, cases))


# --------------------------------------------------------------------------------------------
topic("Comparison of unlike types", "Each operand is a property unless it is a literal.", [
    C("s = 1", {"s": S("1")}),
    C("s <> 1", {"s": S("1")}),
    C("s < 2", {"s": S("1")}),
    C("s > 0", {"s": S("1")}),
    C("s <= 1", {"s": S("1")}),
    C("s >= 1", {"s": S("1")}),
    C("NOT (s = 1)", {"s": S("1")}),
    C("NOT (s <> 1)", {"s": S("1")}),
    C("NOT (s < 2)", {"s": S("1")}),
    C("NOT (s >= 1)", {"s": S("1")}),
    C("i = '1'", {"i": I(1)}),
    C("i <> '1'", {"i": I(1)}),
    C("NOT (i = '1')", {"i": I(1)}),
    C("i < '2'", {"i": I(1)}),
    C("d = '1.0'", {"d": D(1.0)}),
    C("b = 1", {"b": B(True)}),
    C("b <> 1", {"b": B(True)}),
    C("b = 0", {"b": B(False)}),
    C("b > 0", {"b": B(True)}),
    C("NOT (b = 1)", {"b": B(True)}),
    C("b = 'true'", {"b": B(True)}),
    C("b <> 'true'", {"b": B(True)}),
    C("b = TRUE", {"b": B(True)}),
    C("st = TRUE", {"st": S("true")}),
    C("st <> TRUE", {"st": S("true")}),
    C("NOT (st = TRUE)", {"st": S("true")}),
    C("i = TRUE", {"i": I(1)}),
    C("s = i", {"s": S("1"), "i": I(1)}),
    C("i = s", {"s": S("1"), "i": I(1)}),
    C("s <> i", {"s": S("1"), "i": I(1)}),
    C("s < i", {"s": S("0"), "i": I(1)}),
    C("i > s", {"s": S("0"), "i": I(1)}),
    C("NOT (s < i)", {"s": S("0"), "i": I(1)}),
    C("b = i", {"b": B(True), "i": I(1)}),
    C("b < i", {"b": B(True), "i": I(1)}),
    C("b = s", {"b": B(True), "s": S("true")}),
    C("s = b", {"b": B(True), "s": S("true")}),
    C("b <> s", {"b": B(True), "s": S("true")}),
    C("b < c", {"b": B(False), "c": B(True)}),
    C("b > c", {"b": B(False), "c": B(True)}),
    C("b = c", {"b": B(True), "c": B(True)}),
    C("i = d", {"i": I(1), "d": D(1.0)}),
    C("l = i", {"l": L(1), "i": I(1)}),
    C("x = y", {"x": BY(5), "y": SH(5)}),
    C("x = y", {"x": BY(5), "y": F(5.0)}),
    C("x < y", {"x": SH(5), "y": L(6)}),
    C("x = y", {"x": I(5), "y": F(5.0)}),
    C("x = y", {"x": F(1.5), "y": D(1.5)}),
    C("i = f", {"i": I(16777217), "f": F(16777216.0)}, note="int vs float"),
    C("l = d", {"l": L(9007199254740993), "d": D(9007199254740992.0)}, note="long 2^53+1 vs double 2^53"),
    C("l = f", {"l": L(16777217), "f": F(16777216.0)}),
])

topic("NULL operands of comparisons and the NULL literal", "`a`, `b`, `n` absent unless listed.", [
    C("a = b"),
    C("a <> b"),
    C("NOT (a = b)"),
    C("a < b"),
    C("a <= b"),
    C("a = 1"),
    C("1 = a"),
    C("a <> 1"),
    C("a < 1"),
    C("NOT (a = 1)"),
    C("a = i", {"i": I(1)}),
    C("i = a", {"i": I(1)}),
    C("i <> a", {"i": I(1)}),
    C("i < a", {"i": I(1)}),
    C("a > i", {"i": I(1)}),
    C("'x' = a"),
    C("a = 'x'"),
    C("NOT ('x' = a)"),
    C("'car' = JMSType"),
    C("NOT ('car' = JMSType)"),
    C("JMSType = 'car'"),
    C("b = c"),
    C("a + 1 = b + 1"),
    C("a = NULL"),
    C("a = NULL", {"a": I(1)}),
    C("NULL = a"),
    C("NULL = a", {"a": I(1)}),
    C("a <> NULL"),
    C("a <> NULL", {"a": I(1)}),
    C("NULL <> a", {"a": I(1)}),
    C("NULL = NULL"),
    C("NULL <> NULL"),
    C("a < NULL", {"a": I(1)}),
    C("NULL"),
    C("NOT NULL"),
    C("a IS NULL"),
    C("a IS NULL", {"a": I(1)}),
    C("a IS NOT NULL"),
    C("a IS NOT NULL", {"a": S("")}),
    C("NULL IS NULL"),
    C("1 IS NULL"),
    C("'x' IS NULL"),
    C("(a + 1) IS NULL"),
    C("(a + 1) IS NULL", {"a": I(1)}),
    C("(a + 1) IS NOT NULL", {"a": I(1)}),
    C("a + 1 IS NULL"),
    C("(a = 1) IS NULL"),
    C("(a = 1) IS NULL", {"a": I(1)}),
    C("TRUE IS NULL"),
    C("a IS NULL = TRUE"),
    C("a NOT IS NULL"),
    C("a ISNULL"),
])

topic("Three-valued logic", "`n` is absent, so `n = 1` is UNKNOWN.", [
    C("n = 1 AND FALSE"),
    C("FALSE AND n = 1"),
    C("n = 1 AND TRUE"),
    C("TRUE AND n = 1"),
    C("n = 1 OR TRUE"),
    C("TRUE OR n = 1"),
    C("n = 1 OR FALSE"),
    C("FALSE OR n = 1"),
    C("NOT (n = 1)"),
    C("n = 1 AND n = 1"),
    C("n = 1 OR n = 1"),
    C("TRUE OR TRUE AND FALSE"),
    C("FALSE AND FALSE OR TRUE"),
    C("TRUE OR FALSE = FALSE"),
])

topic("NaN, -0.0, Infinity, float vs double", "", [
    C("d = d", {"d": D(NAN)}),
    C("d <> d", {"d": D(NAN)}),
    C("NOT (d = d)", {"d": D(NAN)}),
    C("d > 1", {"d": D(NAN)}),
    C("d < 1", {"d": D(NAN)}),
    C("d >= 1", {"d": D(NAN)}),
    C("d <= 1", {"d": D(NAN)}),
    C("d = 1", {"d": D(NAN)}),
    C("d <> 1", {"d": D(NAN)}),
    C("NOT (d > 1)", {"d": D(NAN)}),
    C("d > d", {"d": D(NAN)}),
    C("d >= d", {"d": D(NAN)}),
    C("d > 1e308", {"d": D(NAN)}),
    C("d = e", {"d": D(NAN), "e": D(NAN)}),
    C("d = 0 / 0", {"d": D(NAN)}),
    C("f = f", {"f": F(NAN)}),
    C("f = d", {"f": F(NAN), "d": D(NAN)}),
    C("d BETWEEN 0 AND 1", {"d": D(NAN)}),
    C("z = 0", {"z": D(-0.0)}),
    C("z = 0.0", {"z": D(-0.0)}),
    C("z = -0.0", {"z": D(-0.0)}),
    C("z <> 0", {"z": D(-0.0)}),
    C("z < 0", {"z": D(-0.0)}),
    C("z < 0.0", {"z": D(-0.0)}),
    C("z >= 0", {"z": D(-0.0)}),
    C("z <= 0", {"z": D(-0.0)}),
    C("z = y", {"z": D(-0.0), "y": D(0.0)}),
    C("z < y", {"z": D(-0.0), "y": D(0.0)}),
    C("z + 0 = 0", {"z": D(-0.0)}),
    C("z = 0", {"z": F(-0.0)}),
    C("z < 0", {"z": F(-0.0)}),
    C("z = i", {"z": D(-0.0), "i": I(0)}),
    C("0.0 = -0.0"),
    C("0 = -0"),
    C("d > 1", {"d": D(INF)}),
    C("d = 1e400", {"d": D(INF)}),
    C("d = 1.0 / 0", {"d": D(INF)}),
    C("d = 5 / 0", {"d": D(INF)}),
    C("d = -d", {"d": D(INF)}),
    C("d < -1e308", {"d": D(-INF)}),
    C("d = d", {"d": D(INF)}),
    C("d - d = 0", {"d": D(INF)}),
    C("d - d = d - d", {"d": D(INF)}),
    C("f = 1.1", {"f": F(1.1)}),
    C("f <> 1.1", {"f": F(1.1)}),
    C("f > 1.1", {"f": F(1.1)}),
    C("f = 0.5", {"f": F(0.5)}),
    C("f = d", {"f": F(1.1), "d": D(1.1)}),
    C("f = g", {"f": F(1.1), "g": F(1.1)}),
    C("f + 0 = 1.1", {"f": F(1.1)}),
    C("f + f = 0.2", {"f": F(0.1)}),
    C("d + d = 0.2", {"d": D(0.1)}),
    C("0.1 + 0.2 = 0.3"),
    C("d = 0.30000000000000004", {"d": D(0.1 + 0.2)}),
])

topic("Arithmetic", "", [
    C("i + 1 = -2147483648", {"i": I(2147483647)}),
    C("i + 1 = 2147483648", {"i": I(2147483647)}),
    C("i + 1 < 0", {"i": I(2147483647)}),
    C("i * 2 = -2", {"i": I(2147483647)}),
    C("i - 1 = 2147483647", {"i": I(-2147483648)}),
    C("2147483647 + 1 = -2147483648"),
    C("2147483647 + 1 = 2147483648"),
    C("l + 1 = -9223372036854775808", {"l": L(9223372036854775807)}),
    C("l + 1 < 0", {"l": L(9223372036854775807)}),
    C("9223372036854775807 + 1 < 0"),
    C("i + l = 2147483648", {"i": I(2147483647), "l": L(1)}),
    C("l * l = 0", {"l": L(4294967296)}),
    C("5 / 2 = 2.5"),
    C("5 / 2 = 2"),
    C("i / j = 2.5", {"i": I(5), "j": I(2)}),
    C("l / 2 = 2.5", {"l": L(5)}),
    C("4 / 2 = 2"),
    C("5 / 0 > 1.7976931348623157E308"),
    C("5 / 0 = 1e400"),
    C("-5 / 0 < -1.7976931348623157E308"),
    C("-5 / 0 = -1e400"),
    C("0 / 0 = 0 / 0"),
    C("0 / 0 <> 0 / 0"),
    C("0 / 0 > 0"),
    C("0 / 0 < 0"),
    C("5.0 / 0 > 1e308"),
    C("i / 0 > 1e308", {"i": I(5)}),
    C("i / 0 = d", {"i": I(5), "d": D(INF)}),
    C("l / 0 > 1e308", {"l": L(5)}),
    C("n / 0 IS NULL"),
    C("7 % 3 = 1"),
    C("7 % 3 = 1.0"),
    C("7 % 0 = 7 % 0"),
    C("7 % 0 > 0"),
    C("-7 % 3 = -1"),
    C("7 % -3 = 1"),
    C("7.5 % 2 = 1.5"),
    C("i % 3 = 1", {"i": I(7)}),
    C("b + 1 = 6", {"b": BY(5)}),
    C("b * 2 = 10", {"b": BY(5)}),
    C("b / 2 = 2.5", {"b": BY(5)}),
    C("b + b = 10", {"b": BY(5)}),
    C("b + 120 = 125", {"b": BY(5)}),
    C("b + c = -256", {"b": BY(-128), "c": BY(-128)}),
    C("-b = -5", {"b": BY(5)}),
    C("-(b) = -5", {"b": BY(5)}),
    C("0 - b = -5", {"b": BY(5)}),
    C("-(b + 0) = -5", {"b": BY(5)}),
    C("-b IS NULL", {"b": BY(5)}),
    C("-b = -5 OR TRUE", {"b": BY(5)}),
    C("TRUE OR -b = -5", {"b": BY(5)}),
    C("FALSE AND -b = -5", {"b": BY(5)}),
    C("-b = -5 AND FALSE", {"b": BY(5)}),
    C("+b = 5", {"b": BY(5)}),
    C("h + 1 = 6", {"h": SH(5)}),
    C("-h = -5", {"h": SH(5)}),
    C("b + h = 10", {"b": BY(5), "h": SH(5)}),
    C("-i = -5", {"i": I(5)}),
    C("-i = 2147483647", {"i": I(-2147483648)}),
    C("-i = -2147483648", {"i": I(-2147483648)}),
    C("-l = -5", {"l": L(5)}),
    C("-f = -0.5", {"f": F(0.5)}),
    C("-d = -0.5", {"d": D(0.5)}),
    C("+s = 'x'", {"s": S("x")}),
    C("-s = 'x'", {"s": S("x")}),
    C("+s = 1", {"s": S("1")}),
    C("s + 1 = 'x1'", {"s": S("x")}),
    C("s + 'y' = 'xy'", {"s": S("x")}),
    C("s + t = 'xy'", {"s": S("x"), "t": S("y")}),
    C("s + 1.5 = 'x1.5'", {"s": S("x")}),
    C("s + f = 'x1.1'", {"s": S("x"), "f": F(1.1)}),
    C("s + d = 'x1.0'", {"s": S("x"), "d": D(1.0)}),
    C("s + 10L = 'x10'", {"s": S("x")}),
    C("s + o = 'xtrue'", {"s": S("x"), "o": B(True)}),
    C("s + 1 + 2 = 'x12'", {"s": S("x")}),
    C("1 + 2 + s = '3x'", {"s": S("x")}),
    C("1 + s = '1x'", {"s": S("x")}),
    C("1 + s = 2", {"s": S("1")}),
    C("i + s = 2", {"i": I(1), "s": S("1")}),
    C("s - 1 = 0", {"s": S("1")}),
    C("s * 1 = 1", {"s": S("1")}),
    C("s / 1 = 1", {"s": S("1")}),
    C("s + n IS NULL", {"s": S("x")}),
    C("s + 1 > 0", {"s": S("1")}),
    C("s + 'x' = 'ax'", {"s": S("a")}),
    C("n + 1 = 1"),
    C("n + 1 IS NULL"),
    C("1 + n IS NULL"),
    C("n * 0 = 0"),
    C("NOT (n + 1 = 1)"),
    C("-n IS NULL"),
    C("+n IS NULL"),
    C("o + 1 = 2", {"o": B(True)}),
    C("1 + o = 2", {"o": B(True)}),
    C("-o = 1", {"o": B(True)}),
    C("o * 1 = 1", {"o": B(True)}),
    C("TRUE + 1 = 2"),
    C("i + 1 = 2 OR TRUE", {"i": B(True)}, note="evaluation error short-circuited?"),
    C("TRUE OR o + 1 = 2", {"o": B(True)}),
    C("1 + 2 * 3 = 7"),
    C("(1 + 2) * 3 = 9"),
    C("10 - 2 - 3 = 5"),
    C("8 / 2 / 2 = 2"),
    C("2 * 3 % 4 = 2"),
    C("1 - -1 = 2"),
    C("- - 1 = 1"),
    C("1 + +1 = 2"),
])

topic("Numeric literals", "`x` is an int property unless listed otherwise.", [
    C("x = 10L", {"x": I(10)}),
    C("x = 10l", {"x": I(10)}),
    C("2147483647L + 1 = -2147483648"),
    C("2147483647L + 1 = 2147483648"),
    C("x = 0L", {"x": I(0)}),
    C("x = 0x1F", {"x": I(31)}),
    C("x = 0X1f", {"x": I(31)}),
    C("x = 0x1FL", {"x": I(31)}),
    C("0x7FFFFFFF + 1 = -2147483648"),
    C("0x7FFFFFFF + 1 = 2147483648"),
    C("0xFFFFFFFF = -1"),
    C("0xFFFFFFFF = 4294967295"),
    C("0x7FFFFFFFFFFFFFFF = 9223372036854775807"),
    C("0xFFFFFFFFFFFFFFFF = -1"),
    C("x = 0x", {"x": I(0)}),
    C("x = 017", {"x": I(15)}),
    C("x = 017", {"x": I(17)}),
    C("x = 0", {"x": I(0)}),
    C("x = 00", {"x": I(0)}),
    C("x = 08", {"x": I(8)}),
    C("x = 019", {"x": I(19)}),
    C("017777777777 + 1 = -2147483648"),
    C("x = 0b101", {"x": I(5)}),
    C("x = 1_000", {"x": I(1000)}),
    C("x = 1e3", {"x": I(1000)}),
    C("x = 1E+3", {"x": I(1000)}),
    C("x = 1e3", {"x": D(1000.0)}),
    C("d = 1e-3", {"d": D(0.001)}),
    C("d = .5", {"d": D(0.5)}),
    C("x = 7.", {"x": I(7)}),
    C("d = 7.e0", {"d": D(7.0)}),
    C("d = 2.5F", {"d": D(2.5)}),
    C("d = 2.5f", {"d": D(2.5)}),
    C("x = 2D", {"x": I(2)}),
    C("d = 2.5D", {"d": D(2.5)}),
    C("d = 1.5e", {"d": D(1.5)}),
    C("1e400 > 1e308"),
    C("-1e400 < -1e308"),
    C("4.9e-325 = 0"),
    C("l = 9223372036854775807", {"l": L(9223372036854775807)}),
    C("l = 9223372036854775807L", {"l": L(9223372036854775807)}),
    C("l = 9223372036854775808", {"l": L(9223372036854775807)}),
    C("l = 9223372036854775808", {"l": L(-9223372036854775808)}),
    C("l < 9223372036854775808", {"l": L(9223372036854775807)}),
    C("l > 9223372036854775808", {"l": L(9223372036854775807)}),
    C("9223372036854775808 > 0"),
    C("9223372036854775808 = 9223372036854775808"),
    C("9223372036854775808 = 9223372036854775808.0"),
    C("9223372036854775808 + 0 = 0"),
    C("9223372036854775808 + 0 = -9223372036854775808"),
    C("9223372036854775808L = 1"),
    C("l = -9223372036854775808", {"l": L(-9223372036854775808)}),
    C("-9223372036854775808 < 0"),
    C("-9223372036854775808 - 1 = 9223372036854775807"),
    C("-(9223372036854775808) < 0"),
    C("l = 99999999999999999999", {"l": L(9223372036854775807)}),
    C("l < 99999999999999999999", {"l": L(9223372036854775807)}),
    C("d < 99999999999999999999", {"d": D(1.0)}),
    C("99999999999999999999 = 99999999999999999999"),
    C("99999999999999999999 > 1"),
    C("99999999999999999999 + 0 = 0"),
    C("0 = 18446744073709551616", note="2^64"),
    C("1 = 18446744073709551617", note="2^64 + 1"),
    C("x = 18446744073709551616", {"x": I(0)}),
    C("-2147483648 - 1 = -2147483649"),
    C("-2147483648 - 1 = 2147483647"),
    C("x - 1 = -2147483649", {"x": I(-2147483648)}),
    C("2147483648 - 1 = 2147483647"),
    C("x = 2147483648", {"x": L(2147483648)}),
    C("x = 2147483648", {"x": I(-2147483648)}),
    C("- 5 = -5"),
    C("x = -5", {"x": I(-5)}),
    C("x=-5", {"x": I(-5)}),
    C("x = +5", {"x": I(5)}),
])

topic("Boolean and string literals", "", [
    C("b = TRUE", {"b": B(True)}),
    C("b = true", {"b": B(True)}),
    C("b = True", {"b": B(True)}),
    C("b = tRuE", {"b": B(True)}),
    C("b = FALSE", {"b": B(False)}),
    C("b = 'TRUE'", {"b": B(True)}),
    C("TRUE"),
    C("true"),
    C("FALSE"),
    C("NOT FALSE"),
    C("TRUE AND TRUE"),
    C("TRUE = TRUE"),
    C("TRUE = FALSE"),
    C("TRUE <> FALSE"),
    C("TRUE = 1"),
    C("1 = TRUE"),
    C("TRUE = 'true'"),
    C("'x' = 'x'"),
    C("'x' = 'X'"),
    C("'x' <> 'y'"),
    C("'1' = 1"),
    C("1 = 1.0"),
    C("s = 'it''s'", {"s": S("it's")}),
    C("s = ''''", {"s": S("'")}),
    C("s = ''", {"s": S("")}),
    C("s = '\\u0041'", {"s": S("A")}),
    C("s = '\\u0041'", {"s": S("\\u0041")}),
    C("s = 'a\\nb'", {"s": S("a\\nb")}),
    C("s = 'a\nb'", {"s": S("a\nb")}),
    C("s = \"x\"", {"s": S("x")}),
    C("s = 'x", {"s": S("x")}),
    C("s = 'é'", {"s": S("é")}),
    C("s = '😀'", {"s": S("😀")}),
    C("s = 'é'", {"s": S(unicodedata.normalize("NFD", "é"))}),
])

topic("NOT precedence and bare identifiers as predicates", "", [
    C("NOT a = 1", {"a": I(1)}),
    C("NOT a = 1", {"a": I(0)}),
    C("NOT a = 1", {"a": B(True)}),
    C("NOT a = 1", {"a": B(False)}),
    C("NOT a = 1"),
    C("NOT a = 1", {"a": S("x")}),
    C("NOT a = TRUE", {"a": I(1)}),
    C("NOT a = FALSE", {"a": B(True)}),
    C("NOT a = FALSE", {"a": I(1)}),
    C("NOT a <> 1", {"a": I(1)}),
    C("NOT (a = 1)", {"a": I(1)}),
    C("NOT a IS NULL"),
    C("NOT a IS NULL", {"a": I(1)}),
    C("NOT a LIKE 'x'", {"a": S("x")}),
    C("NOT a IN ('x')", {"a": S("x")}),
    C("NOT a BETWEEN 1 AND 2", {"a": I(1)}),
    C("NOT i > 5", {"i": I(6)}),
    C("NOT i < 5", {"i": I(6)}),
    C("NOT (i > 5)", {"i": I(6)}),
    C("NOT (i > 5)"),
    C("NOT i + 1 = 2", {"i": I(1)}),
    C("NOT NOT b", {"b": B(True)}),
    C("NOT NOT b", {"b": I(1)}),
    C("NOT NOT b"),
    C("NOT NOT NOT b", {"b": B(True)}),
    C("b", {"b": I(1)}),
    C("b", {"b": S("true")}),
    C("b", {"b": B(True)}),
    C("b", {"b": B(False)}),
    C("b"),
    C("NOT b", {"b": I(1)}),
    C("NOT b", {"b": B(True)}),
    C("NOT b"),
    C("b AND TRUE", {"b": B(True)}),
    C("b AND TRUE", {"b": I(1)}),
    C("b AND TRUE"),
    C("b OR FALSE", {"b": S("true")}),
    C("TRUE AND b", {"b": B(True)}),
    C("NOT s", {"s": S("x")}),
    C("NOT s"),
    C("(b)", {"b": B(True)}),
    C("(b) AND (c)", {"b": B(True), "c": B(True)}),
    C("b = c AND d", {"b": I(1), "c": I(1), "d": B(True)}),
    C("b AND c = 1", {"b": B(True), "c": I(1)}),
    C("(i + 1)", {"i": I(1)}),
    C("NOT (i + 1)", {"i": I(1)}),
    C("NOT 1"),
    C("NOT 'x'"),
    C("NOT TRUE = FALSE"),
])

topic("BETWEEN / NOT BETWEEN", "`n` absent.", [
    C("x BETWEEN 1 AND 10", {"x": I(5)}),
    C("x BETWEEN 10 AND 1", {"x": I(5)}),
    C("x BETWEEN 5 AND 5", {"x": I(5)}),
    C("x NOT BETWEEN 1 AND 10", {"x": I(5)}),
    C("x NOT BETWEEN 1 AND 10", {"x": I(50)}),
    C("x not between 1 and 10", {"x": I(50)}),
    C("x BETWEEN 1 AND 10"),
    C("x NOT BETWEEN 1 AND 10"),
    C("x BETWEEN n AND 10", {"x": I(5)}),
    C("x BETWEEN n AND 10", {"x": I(20)}),
    C("x BETWEEN 1 AND n", {"x": I(5)}),
    C("x BETWEEN 1 AND n", {"x": I(0)}),
    C("x BETWEEN n AND n", {"x": I(5)}),
    C("x NOT BETWEEN n AND 10", {"x": I(5)}),
    C("x NOT BETWEEN n AND 10", {"x": I(20)}),
    C("x NOT BETWEEN 1 AND n", {"x": I(0)}),
    C("x NOT BETWEEN 1 AND n", {"x": I(5)}),
    C("x BETWEEN NULL AND 10", {"x": I(5)}),
    C("s BETWEEN lo AND hi", {"s": S("b"), "lo": S("a"), "hi": S("c")}),
    C("s NOT BETWEEN lo AND hi", {"s": S("b"), "lo": S("a"), "hi": S("c")}),
    C("s BETWEEN lo AND hi", {"s": S("d"), "lo": S("a"), "hi": S("c")}),
    C("s BETWEEN 'a' AND 'c'", {"s": S("b")}),
    C("'b' BETWEEN lo AND hi", {"lo": S("a"), "hi": S("c")}),
    C("x BETWEEN 4.5 AND 5.5", {"x": I(5)}),
    C("d BETWEEN 5 AND 5", {"d": D(5.0)}),
    C("x BETWEEN 1 AND 10", {"x": L(5)}),
    C("x BETWEEN 1 AND 10", {"x": BY(5)}),
    C("x BETWEEN 1 AND 10", {"x": F(5.5)}),
    C("s BETWEEN 1 AND 10", {"s": S("5")}),
    C("s NOT BETWEEN 1 AND 10", {"s": S("5")}),
    C("NOT (s BETWEEN 1 AND 10)", {"s": S("5")}),
    C("b BETWEEN 0 AND 1", {"b": B(True)}),
    C("b NOT BETWEEN 0 AND 1", {"b": B(True)}),
    C("x BETWEEN lo AND 10", {"x": I(5), "lo": S("1")}),
    C("x NOT BETWEEN lo AND 10", {"x": I(5), "lo": S("1")}),
    C("x NOT BETWEEN lo AND 10", {"x": I(50), "lo": S("1")}),
    C("5 BETWEEN 1 AND 10"),
    C("x + 1 BETWEEN 1 AND 10", {"x": I(5)}),
    C("x BETWEEN 1 + 1 AND 10 - 1", {"x": I(5)}),
    C("x BETWEEN 1 AND 10 AND TRUE", {"x": I(5)}),
    C("x BETWEEN TRUE AND 10", {"x": I(5)}),
    C("x BETWEEN 1 AND 10 OR x BETWEEN 20 AND 30", {"x": I(25)}),
])

topic("IN / NOT IN", "", [
    C("s IN ('a', 'b')", {"s": S("a")}),
    C("s NOT IN ('a', 'b')", {"s": S("a")}),
    C("s IN ('b')", {"s": S("a")}),
    C("s NOT IN ('b')", {"s": S("a")}),
    C("s IN ('a')"),
    C("s NOT IN ('a')"),
    C("NOT (s IN ('a'))"),
    C("s in ('a')", {"s": S("a")}),
    C("s IN ('A')", {"s": S("a")}),
    C("s IN ('a', 'a')", {"s": S("a")}),
    C("s NOT IN ('a', 'a')", {"s": S("b")}),
    C("s IN ('')", {"s": S("")}),
    C("i IN (1, 2)", {"i": I(1)}),
    C("i IN ('1')", {"i": I(1)}),
    C("i NOT IN ('1')", {"i": I(1)}),
    C("i NOT IN ('2')", {"i": I(1)}),
    C("NOT (i IN ('1'))", {"i": I(1)}),
    C("d IN ('1.0')", {"d": D(1.0)}),
    C("b IN ('true')", {"b": B(True)}),
    C("b NOT IN ('true')", {"b": B(True)}),
    C("'a' IN ('a')"),
    C("(s) IN ('a')", {"s": S("a")}),
    C("s + '' IN ('a')", {"s": S("a")}),
    C("s IN ()", {"s": S("a")}),
    C("s IN (NULL)", {"s": S("a")}),
    C("s IN ('a', NULL)", {"s": S("a")}),
    C("s IN (t)", {"s": S("a"), "t": S("a")}),
    C("s IN 'a'", {"s": S("a")}),
    C("s IN ('a',)", {"s": S("a")}),
    C("s IN (TRUE)", {"s": S("a")}),
    C("JMSType IN ('car')", headers={"JMSType": "car"}),
    C("JMSDeliveryMode IN ('PERSISTENT')", headers={"JMSDeliveryMode": "PERSISTENT"}),
])

topic("LIKE", "", [
    C("s LIKE 'a_c'", {"s": S("a\nc")}),
    C("s LIKE 'a_c'", {"s": S("a\rc")}),
    C("s LIKE 'a%c'", {"s": S("a\n\nc")}),
    C("s LIKE '%'", {"s": S("x\n")}),
    C("s LIKE 'x'", {"s": S("x\n")}),
    C("s LIKE '_'", {"s": S("😀")}),
    C("s LIKE '__'", {"s": S("😀")}),
    C("s LIKE '%😀%'", {"s": S("x😀y")}),
    C("s LIKE '_'", {"s": S("é")}),
    C("s LIKE '_'", {"s": S(unicodedata.normalize("NFD", "é"))}),
    C("s LIKE '%'", {"s": S("")}),
    C("s LIKE '_%'", {"s": S("")}),
    C("s LIKE ''", {"s": S("")}),
    C("s LIKE 'A%'", {"s": S("abc")}),
    C("s LIKE 'a!b' ESCAPE '!'", {"s": S("ab")}),
    C("s LIKE 'a!b' ESCAPE '!'", {"s": S("a!b")}),
    C("s LIKE 'a!%' ESCAPE '!'", {"s": S("a%")}),
    C("s LIKE 'a!%' ESCAPE '!'", {"s": S("ab")}),
    C("s LIKE 'a!_' ESCAPE '!'", {"s": S("a_")}),
    C("s LIKE 'a!!' ESCAPE '!'", {"s": S("a!")}),
    C("s LIKE 'a!' ESCAPE '!'", {"s": S("a")}),
    C("s LIKE 'a!' ESCAPE '!'", {"s": S("a!")}),
    C("s LIKE 'a%%' ESCAPE '%'", {"s": S("a%")}),
    C("s LIKE 'a%%' ESCAPE '%'", {"s": S("ab")}),
    C("s LIKE 'a%_' ESCAPE '%'", {"s": S("a_")}),
    C("s LIKE 'a%' ESCAPE '%'", {"s": S("a")}),
    C("s LIKE 'a%' ESCAPE '%'", {"s": S("ab")}),
    C("s LIKE '__a' ESCAPE '_'", {"s": S("_a")}),
    C("s LIKE 'a_%' ESCAPE '_'", {"s": S("a%")}),
    C("s LIKE 'a' ESCAPE '!!'", {"s": S("a")}),
    C("s LIKE 'a' ESCAPE ''", {"s": S("a")}),
    C("s LIKE 'a' ESCAPE s", {"s": S("a")}),
    C("s LIKE 'a' ESCAPE NULL", {"s": S("a")}),
    C("s LIKE 'a\\%' ESCAPE '\\'", {"s": S("a%")}),
    C("s LIKE 'a\\%' ESCAPE '\\'", {"s": S("a\\x")}),
    C("s LIKE 'C:\\%'", {"s": S("C:\\x")}),
    C("s LIKE 'C:\\%'", {"s": S("C:%")}),
    C("s LIKE 'a\\_b'", {"s": S("a\\xb")}),
    C("s LIKE 'a\\_b'", {"s": S("a_b")}),
    C("s LIKE '\\'", {"s": S("\\")}),
    C("s LIKE 'a.c'", {"s": S("abc")}),
    C("s LIKE 'a.c'", {"s": S("a.c")}),
    C("s LIKE 'a*'", {"s": S("aaa")}),
    C("s LIKE 'a*'", {"s": S("a*")}),
    C("s LIKE 'a+'", {"s": S("a+")}),
    C("s LIKE 'a?'", {"s": S("a?")}),
    C("s LIKE '[ab]'", {"s": S("a")}),
    C("s LIKE '[ab]'", {"s": S("[ab]")}),
    C("s LIKE '(a)'", {"s": S("(a)")}),
    C("s LIKE '$a^'", {"s": S("$a^")}),
    C("s LIKE 'a{2}'", {"s": S("aa")}),
    C("s LIKE 'a{2}'", {"s": S("a{2}")}),
    C("s LIKE 'a|b'", {"s": S("a|b")}),
    C("s LIKE 'a|b'", {"s": S("a")}),
    C("s LIKE '\\Qa%'", {"s": S("\\Qab")}),
    C("s LIKE '\\E'", {"s": S("\\E")}),
    C("s LIKE '-'", {"s": S("-")}),
    C("s LIKE '#a'", {"s": S("#a")}),
    C("s LIKE 'é%'", {"s": S("été")}),
    C("s LIKE '☺%'", {"s": S("☺x")}),
    C("s LIKE '%☺'", {"s": S("x☺")}),
    C("s LIKE '!é' ESCAPE '!'", {"s": S("é")}),
    C("s LIKE '!☺' ESCAPE '!'", {"s": S("☺")}),
    C("s LIKE '!☺' ESCAPE '!'", {"s": S("&3a")}),
    C("s LIKE '!😀' ESCAPE '!'", {"s": S("😀")}),
    C("s LIKE 'a☺%' ESCAPE '☺'", {"s": S("a%")}),
    C("s LIKE 'a☺%' ESCAPE '☺'", {"s": S("ab")}),
    C("s LIKE 'a' ESCAPE '😀'", {"s": S("a")}),
    C("s LIKE '!' ESCAPE '!'", {"s": S("")}),
    C("s LIKE '!' ESCAPE '!'", {"s": S("!")}),
    C("s LIKE '%' ESCAPE '%'", {"s": S("xyz")}),
    C("s LIKE '!!%' ESCAPE '!'", {"s": S("!xyz")}),
    C("s LIKE 'a!%b' ESCAPE '!'", {"s": S("a%b")}),
    C("s LIKE '!é' ESCAPE '!'", {"s": S("!é")}),
    C("s LIKE '!☺' ESCAPE '!'", {"s": S("!☺")}),
    C("s LIKE 'a☺☺' ESCAPE '☺'", {"s": S("a☺")}),
    C("s LIKE 'a☺☺' ESCAPE '☺'", {"s": S("a&3a")}),
    C("s LIKE 'aĀĀ' ESCAPE 'Ā'", {"s": S("aĀ")}),
    C("s LIKE 'aéé' ESCAPE 'é'", {"s": S("aé")}),
    C("s LIKE 'a\t\t' ESCAPE '\t'", {"s": S("a\t")}),
    C("s LIKE 'a..' ESCAPE '.'", {"s": S("a.")}),
    C("n LIKE '1'", {"n": I(1)}),
    C("n NOT LIKE '1'", {"n": I(1)}),
    C("b LIKE 'true'", {"b": B(True)}),
    C("x LIKE 'a'"),
    C("x NOT LIKE 'a'"),
    C("s NOT LIKE 'a%'", {"s": S("abc")}),
    C("s NOT LIKE 'b%'", {"s": S("abc")}),
    C("'abc' LIKE 'a%'"),
    C("(s) LIKE 'a%'", {"s": S("abc")}),
    C("s + 'x' LIKE 'ax'", {"s": S("a")}),
    C("s LIKE t", {"s": S("a"), "t": S("a")}),
    C("s LIKE 'a' || 'b'", {"s": S("ab")}),
    C("s LIKE '%_%_%_%_%_%_%_%_%_%_%x'", {"s": S("a" * 41)}, note="backtracking"),
])

topic("String ordering and equality", "", [
    C("a < b", {"a": S("apple"), "b": S("banana")}),
    C("a > b", {"a": S("apple"), "b": S("banana")}),
    C("a <= b", {"a": S("x"), "b": S("x")}),
    C("a >= b", {"a": S("x"), "b": S("y")}),
    C("a < b", {"a": S("B"), "b": S("a")}),
    C("a < b", {"a": S("ﬀ"), "b": S("😀")}, note="U+FB00 vs U+1F600"),
    C("a < b", {"a": S("10"), "b": S("9")}),
    C("a < b", {"a": S("a")}),
    C("NOT (a < b)", {"a": S("a")}),
    C("s < 'b'", {"s": S("a")}),
    C("'a' < 'b'"),
    C("'a' < s", {"s": S("b")}),
    C("s = 'X'", {"s": S("x")}),
    C("s = 'x'", {"s": S("x")}),
    C("s = 'x '", {"s": S("x")}),
    C("s <> 'x'", {"s": S("x")}),
    C("'x' = s", {"s": S("x")}),
    C("s > 1", {"s": S("5")}),
    C("s < i", {"s": S("5"), "i": I(6)}),
])

topic("Identifiers", "", [
    C("Color = 'blue'", {"color": S("blue")}),
    C("Color = 'blue'", {"Color": S("blue")}),
    C("color = 'blue'", {"Color": S("blue")}),
    C("and = 1", {"and": I(1)}),
    C("AND = 1", {"AND": I(1)}),
    C("or = 1", {"or": I(1)}),
    C("not = 1", {"not": I(1)}),
    C("like = 1", {"like": I(1)}),
    C("escape = 1", {"escape": I(1)}),
    C("between = 1", {"between": I(1)}),
    C("in = 1", {"in": I(1)}),
    C("is = 1", {"is": I(1)}),
    C("null = 1", {"null": I(1)}),
    C("true = 1", {"true": I(1)}),
    C("xpath = 1", {"xpath": I(1)}),
    C("xquery = 1", {"xquery": I(1)}),
    C("select = 1", {"select": I(1)}),
    C("notx = 1", {"notx": I(1)}),
    C("inx = 1", {"inx": I(1)}),
    C("$x = 1", {"$x": I(1)}),
    C("_x = 1", {"_x": I(1)}),
    C("x$1 = 1", {"x$1": I(1)}),
    C("x1 = 1", {"x1": I(1)}),
    C("1x = 1", {"1x": I(1)}),
    C("été = 1", {"été": I(1)}),
    C("xé = 1", {"xé": I(1)}),
    C("a.b = 1", {"a.b": I(1)}),
    C("a.b = 1", {"a": I(1)}),
    C("a..b = 1", {"a..b": I(1)}),
    C("a. = 1", {"a.": I(1)}),
    C(".a = 1", {".a": I(1)}),
    C("\"a.b\" = 1", {"a.b": I(1)}),
    C("\"a\" = 1", {"a": I(1)}),
    C("`a` = 1", {"a": I(1)}),
    C("[a] = 1", {"a": I(1)}),
    C("a-b = 1", {"a-b": I(1)}),
    C("a-b = 1", {"a": I(3), "b": I(2)}),
    C("x = 1", {"x": I(1), "X": I(2)}),
    C("JMSType = 'car'", headers={"JMSType": "car"}),
    C("JMSType = 'car'", {"JMSType": S("car")}, note="given as a property, not a header"),
    C("JMSType IS NULL"),
    C("jmstype = 'car'", headers={"JMSType": "car"}),
    C("JMSPriority = 4", headers={"JMSPriority": 4}),
    C("JMSPriority = 4"),
    C("JMSPriority = 0"),
    C("JMSPriority IS NULL"),
    C("JMSPriority > 3", headers={"JMSPriority": 9}),
    C("JMSPriority = '4'", headers={"JMSPriority": 4}),
    C("JMSPriority = 4.0", headers={"JMSPriority": 4}),
    C("JMSDeliveryMode = 'PERSISTENT'", headers={"JMSDeliveryMode": "PERSISTENT"}),
    C("JMSDeliveryMode = 'NON_PERSISTENT'", headers={"JMSDeliveryMode": "NON_PERSISTENT"}),
    C("JMSDeliveryMode = 'NON_PERSISTENT'"),
    C("JMSDeliveryMode IS NULL"),
    C("JMSDeliveryMode = 2", headers={"JMSDeliveryMode": "PERSISTENT"}),
    C("JMSDeliveryMode = 'persistent'", headers={"JMSDeliveryMode": "PERSISTENT"}),
    C("JMSMessageID = 'ID:abc-1:1:1:1'", headers={"JMSMessageID": "ID:abc-1:1:1:1"}),
    C("JMSMessageID = 'foo'", headers={"JMSMessageID": "foo"}),
    C("JMSMessageID LIKE 'ID:%'", headers={"JMSMessageID": "ID:abc-1:1:1:1"}),
    C("JMSMessageID IS NULL"),
    C("JMSMessageID LIKE '%foo%'", headers={"JMSMessageID": "foo"}),
    C("JMSMessageID IS NULL", headers={"JMSMessageID": "foo"}),
    C("JMSTimestamp = 1700000000000", headers={"JMSTimestamp": 1700000000000}),
    C("JMSTimestamp > 1", headers={"JMSTimestamp": 1700000000000}),
    C("JMSTimestamp = 0"),
    C("JMSTimestamp IS NULL"),
    C("JMSCorrelationID = 'c1'", headers={"JMSCorrelationID": "c1"}),
    C("JMSCorrelationID IS NULL"),
    C("JMSRedelivered = TRUE", headers={"JMSRedelivered": True}),
    C("JMSRedelivered", headers={"JMSRedelivered": True}),
    C("JMSRedelivered = FALSE"),
    C("JMSRedelivered IS NULL"),
    C("JMSExpiration = 5", headers={"JMSExpiration": 5}),
    C("JMSExpiration = 0"),
    C("JMSExpiration IS NULL"),
    C("JMSXGroupID = 'g'", {"JMSXGroupID": S("g")}),
    C("JMSXGroupID IS NULL"),
    C("JMSXGroupSeq = 0"),
    C("JMSXGroupSeq IS NULL"),
    C("JMSXDeliveryCount = 1"),
    C("JMSXDeliveryCount IS NULL"),
    C("JMSXUserID IS NULL"),
    C("JMSXMimeType IS NULL"),
    C("JMSDestination IS NULL"),
    C("JMSReplyTo IS NULL"),
    C("JMS_foo = 1", {"JMS_foo": I(1)}),
    C("JMSfoo = 1", {"JMSfoo": I(1)}),
])

topic("Syntax", "", [
    C(""),
    C("   "),
    C("\n"),
    C("--"),
    C("-- comment"),
    C("a = 1 -- comment", {"a": I(1)}),
    C("a = 1 -- comment\n", {"a": I(1)}),
    C("a = 1 -- comment\r", {"a": I(1)}),
    C("a = 3 -- x", {"a": I(5), "x": I(2)}),
    C("a = 1 --x\nAND TRUE", {"a": I(1)}),
    C("-- c\na = 1", {"a": I(1)}),
    C("a = 1 --\nAND a = 2", {"a": I(1)}),
    C("a = --1\n1", {"a": I(1)}),
    C("a = 1 /* c */", {"a": I(1)}),
    C("/* c */ a = 1", {"a": I(1)}),
    C("a = /* c */ 1", {"a": I(1)}),
    C("/**/a = 1", {"a": I(1)}),
    C("a = 1 /* x ** y */", {"a": I(1)}),
    C("a = 1 /* a */ /* b */", {"a": I(1)}),
    C("a = 1 /* a /* b */ */", {"a": I(1)}),
    C("a = 1 /* multi\nline */", {"a": I(1)}),
    C("a = 1 /* unterminated", {"a": I(1)}),
    C("/* */"),
    C("a = 1 */", {"a": I(1)}),
    C("a = 1 b", {"a": I(1)}),
    C("a = 1 trailing", {"a": I(1)}),
    C("(a = 1", {"a": I(1)}),
    C("a = 1)", {"a": I(1)}),
    C("a = 1;", {"a": I(1)}),
    C("a == 1", {"a": I(1)}),
    C("a != 1", {"a": I(1)}),
    C("a >< 1", {"a": I(1)}),
    C("a = 1 && a = 1", {"a": I(1)}),
    C("a = 1 OR", {"a": I(1)}),
    C("a = 1 AND a", {"a": I(1)}),
    C("a = b = c", {"a": I(1), "b": I(1), "c": B(True)}),
    C("a = b = c", {"a": I(1), "b": I(2), "c": B(False)}),
    C("a = b = TRUE", {"a": I(1), "b": I(1)}),
    C("a = b = 1", {"a": I(1), "b": I(1)}),
    C("a < b < c", {"a": I(1), "b": I(2), "c": I(3)}),
    C("a = 1 = TRUE", {"a": I(1)}),
    C("(a = 1) = (b = 2)", {"a": I(1), "b": I(2)}),
    C("(a = 1) <> (b = 2)", {"a": I(1), "b": I(3)}),
    C("1 = 1"),
    C("1 = 2"),
    C("1 < 2"),
    C("'a' = 1"),
    C("3 + 5"),
    C("3"),
    C("a = 1 AND 3", {"a": I(1)}),
    C("'x'"),
    C("a", {"a": B(True)}),
    C("()"),
    C("(a) = 1", {"a": I(1)}),
    C("((a = 1))", {"a": I(1)}),
    C("a\t=\n1", {"a": I(1)}),
    C("a\f=\r1", {"a": I(1)}),
    C("a\u00a0= 1", {"a": I(1)}),
    C("a=1", {"a": I(1)}),
    C("a = 1 AND b = 2 OR c = 3", {"c": I(3)}),
    C("XPATH '//a'"),
    C("XQUERY '//a'"),
    C("regex(s, 'a')", {"s": S("a")}),
    C("inlist(s, 'a')", {"s": S("a")}),
    C("foo(s)", {"s": S("a")}),
    C("convert_string_expressions:s = 1", {"s": S("1")}),
    C("convert_string_expressions:s > 0", {"s": S("1")}),
    C("convert_string_expressions:b = 'true'", {"b": B(True)}),
    C("convert_string_expressions:i = '1'", {"i": I(1)}),
    C("CONVERT_STRING_EXPRESSIONS:s = 1", {"s": S("1")}),
    C(" convert_string_expressions:s = 1", {"s": S("1")}),
])


# The oracle reports an invalid selector with ActiveMQ's InvalidSelectorException, whose message is
# just the selector text; the reason is in its cause chain. This small helper (compiled once into a
# temp dir against the same jars) prints that chain for the invalid cases, so the tables can say
# *why* a selector was rejected.
_WHY_JAVA = r"""
import java.io.*; import java.nio.charset.StandardCharsets; import java.util.Base64;
import org.apache.activemq.selector.SelectorParser;
public class AmqParseWhy {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, true, "UTF-8");
    for (String line; (line = in.readLine()) != null; ) {
      String sel = new String(Base64.getDecoder().decode(line.trim()), StandardCharsets.UTF_8);
      StringBuilder why = new StringBuilder();
      try { SelectorParser.parse(sel); why.append("(parsed)"); }
      catch (Throwable e) {
        Throwable t = e.getCause();
        if (t == null) t = e;
        for (int depth = 0; t != null && depth < 4; t = t.getCause(), depth++) {
          String m = String.valueOf(t.getMessage()).trim().split("\\r?\\n")[0];
          if (why.length() > 0) why.append(" <- ");
          why.append(t.getClass().getSimpleName()).append(": ").append(m);
        }
      }
      out.println(Base64.getEncoder().encodeToString(why.toString().getBytes(StandardCharsets.UTF_8)));
    }
  }
}
"""
_JARS = ["activemq-client", "geronimo-jms_1.1_spec", "hawtbuf", "slf4j-api"]


def invalid_reasons(selectors: list[str]) -> dict[str, str]:
    """ActiveMQ's reason (cause chain, first lines) for each rejected selector; {} if no JDK."""
    import base64
    import shutil
    import subprocess
    import tempfile

    if not selectors or not shutil.which("javac"):
        return {}
    cp = ":".join(f"/usr/share/java/{j}.jar" for j in _JARS)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "AmqParseWhy.java"
        src.write_text(_WHY_JAVA, encoding="utf-8")
        subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", tmp, str(src)], check=True,
                       capture_output=True)
        feed = "".join(base64.b64encode(s.encode("utf-8")).decode() + "\n" for s in selectors)
        proc = subprocess.run(["java", "-cp", f"{tmp}:{cp}", "AmqParseWhy"], input=feed.encode(),
                              capture_output=True, check=True, timeout=300)
    answers = [base64.b64decode(x).decode("utf-8") for x in proc.stdout.decode().split()]
    return dict(zip(selectors, answers))


# --------------------------------------------------------------------------------------------
SUMMARY = """\
Most important findings (case ids in brackets; "null" = UNKNOWN):

- **Equality with a NULL operand is asymmetric.** `=` returns UNKNOWN when the *left* operand is
  NULL, but FALSE when only the *right* one is (`a = 1` null, `1 = a` false, `NOT ('x' = a)` TRUE)
  [t01c005-t01c019]. **Both NULL gives TRUE**: `a = b`, `a + 1 = b + 1` with everything absent are
  TRUE and `a <> b` is FALSE [t01c000, t01c021, t01c022]. `<>` is `NOT (=)`. `<`, `>`, `<=`, `>=`
  give UNKNOWN when either side is NULL. The NULL literal cannot be compared at all: `a = NULL`,
  `NULL = NULL`, `a < NULL`, `x BETWEEN NULL AND 10` are *invalid*.
- **Unlike types compare FALSE** in every operator, both for `=`/`<>` (so `s <> 1` is TRUE) and for
  ordering (`s < 2`, `s >= 1` both FALSE; NOT of them TRUE). Numeric types of different width are
  widened Java-style before `compareTo`, including lossy int/long→float and long→double
  (`i = f` with int 16777217 vs float 16777216 is TRUE) [t00c048-t00c050].
- **Numbers compare with `Double.compareTo`/`equals`, not `==`:** `NaN = NaN` TRUE, `NaN <> NaN`
  FALSE, `NaN > 1` TRUE, `d >= d` TRUE for NaN d (NaN is the largest value); `-0.0 = 0` FALSE, `-0.0 < 0`
  TRUE, `0.0 = -0.0` FALSE [section 4]. float vs double widens the float: float 1.1 `= 1.1` FALSE
  and `> 1.1` TRUE; float 0.5 `= 0.5` TRUE.
- **NOT binds tighter than everything, even arithmetic**: `NOT a = 1` is `(NOT a) = 1` (always FALSE or
  null); `NOT a IS NULL` is `(NOT a) IS NULL` (TRUE when a is absent); `NOT i + 1 = 2` is an
  evaluation *error* (boolean + 1); `NOT i > 5`, `NOT a BETWEEN …`, `NOT a IN (…)` are *invalid*.
- **A bare operand used as a predicate** (property, `(b)`, `NOT x`, AND/OR operand) is TRUE only for
  a boolean TRUE, UNKNOWN if NULL, and FALSE for *any* non-boolean value (int 1, string 'true');
  hence `NOT s` on a string is TRUE. A literal/arithmetic predicate (`3`, `'x'`, `3 + 5`,
  `a = 1 AND 3`, `NOT 1`) is *invalid*.
- **BETWEEN is exactly `x >= lo AND x <= hi`** and NOT BETWEEN exactly `x < lo OR x > hi`, with
  ordinary 3VL: a NULL bound does NOT always give UNKNOWN (`20 BETWEEN n AND 10` FALSE,
  `20 NOT BETWEEN n AND 10` TRUE), and with an unlike-type operand both BETWEEN and NOT BETWEEN are
  FALSE (`'5' NOT BETWEEN 1 AND 10` FALSE, while `NOT ('5' BETWEEN 1 AND 10)` TRUE)
  [t08c008-t08c035]. So "any operand NULL → UNKNOWN" is not ActiveMQ's rule.
- **IN needs a property on the left** (`(s)` is fine; `'a' IN`, `s + '' IN`, `NOT a IN` are
  *invalid*) and a non-empty list of string literals. **A non-string value gives UNKNOWN** for both
  IN and NOT IN (`i IN ('1')`, `i NOT IN ('2')`, boolean, double: null) [t09c013-t09c019].
- **Arithmetic**: `/` and `%` always compute in double (`5 / 2 = 2.5`, `5 / 0` = +Infinity,
  `0 / 0` = NaN, `7 % 0` = NaN, `-7 % 3 = -1`, `7.5 % 2 = 1.5`); `+ - *` use Java int (both operands
  byte/short/int), long (a long operand) or double (a float/double operand) and wrap on overflow.
  **Unary minus on a byte or short property is an evaluation *error*** ("Don't know how to
  negate"); on a string or boolean it gives UNKNOWN; unary `+` is a no-op on anything.
- **`+` with a string on the left concatenates** with Java `String.valueOf` of the right operand
  (`s + 1 = 'x1'`, `s + 1.5 = 'x1.5'`, `s + o = 'xtrue'`); a string on the right of a numeric `+`,
  any other binary operator on a string, and any binary operator on a boolean is an evaluation *error*. An *error*
  aborts the whole selector unless AND/OR already short-circuited (left to right:
  `TRUE OR -b = -5` TRUE, `-b = -5 OR TRUE` *error*).
- **Literals**: decimal (with optional `L`/`l`), hex `0x`/`0X`, octal `0…`, and floats (`.5`, `7.`,
  `1e3`, `1E+3`) are accepted; `F`/`D` suffixes, `0L`, `0x1FL`, `08`, binary, `_` separators are
  *invalid*. **Every integer literal that fits in an int is an int, even with `L`**
  (`2147483647L + 1 = -2147483648`); `-2147483648` is a long (`-2147483648 - 1 = -2147483649`).
  Hex/octal read as long (`0xFFFFFFFF = 4294967295`; 16 hex digits above Long.MAX are *invalid*).
  A decimal literal beyond long is a BigDecimal that is FALSE against any other numeric type, uses
  its low 32 bits in arithmetic, and is narrowed to int when its low 64 bits fit in an int
  (`0 = 18446744073709551616` TRUE) [t05c039-t05c063]. `-9223372036854775808` is Long.MIN_VALUE.
- **LIKE** compiles to a `java.util.regex` (DOTALL): `_` matches one *code point* (an emoji is one
  `_`, a combining é is two), `%` crosses newlines, regex metacharacters and backslash are literal.
  The escape char escapes only `%`, `_` or itself; before anything else it is an ordinary char
  (`'a!b' ESCAPE '!'` matches `'a!b'`, not `'ab'`; trailing `!` is literal); `ESCAPE '%'`/`'_'` work.
  ESCAPE must be exactly one UTF-16 unit. Bugs: an escape char ≥ U+0100 escaping itself is
  mis-encoded (`'a☺☺' ESCAPE '☺'` matches `'a&3a'`); one < U+0010 escaping itself makes the
  selector *invalid*.
  LIKE on a non-string is FALSE (so NOT LIKE is TRUE); the left operand may be any expression
  (`'abc' LIKE 'a%'`, `s + 'x' LIKE …`). `'%_%_…%x'` on 41 chars *timeouts* (backtracking).
- **Strings**: two string properties order lexically by UTF-16 code units (`'ﬀ' < '😀'` FALSE);
  a string *literal* in `<`, `>`, `<=`, `>=`, BETWEEN is *invalid*. Equality is exact (case,
  trailing blanks, NFC vs NFD). `''` escapes a quote; `\\u0041` is not an escape; `"x"` is *invalid*.
- **Identifiers are ASCII only** (`[A-Za-z_$][A-Za-z0-9_$]*`): `été`, `a.b`, `"a.b"` are *invalid*;
  `a-b` is `a - b`. Case-sensitive (`jmstype` is a property, not the header). Keywords (NOT AND OR
  BETWEEN LIKE ESCAPE IN IS NULL TRUE FALSE XPATH XQUERY) are case-insensitive and reserved;
  `select` is an ordinary name.
- **Comments exist**: `/* … */` anywhere (not nested); `--` starts a comment **only if a line
  break follows it** — `a = 1 -- comment` at the end of the text is `a = 1 - (- comment)` (FALSE),
  with a trailing newline it is a comment. Empty, blank and comment-only selectors are *invalid*
  for the parser (the client treats blank as "no selector").
- **Extras**: a `convert_string_expressions:` prefix (exact, at position 0) switches on
  string↔number/boolean conversion in comparisons; function-call syntax `f(x)` parses but no
  function is registered in the client (*invalid*); `XQUERY '…'` is accepted (FALSE on a text-less
  message); `XPATH '…'` fails here because the XPath evaluator class is not on the classpath.
- **Headers in this oracle** come from an `ActiveMQTextMessage`, so missing headers take its
  defaults rather than NULL: JMSPriority 0, JMSDeliveryMode 'NON_PERSISTENT', JMSTimestamp 0,
  JMSExpiration 0, JMSRedelivered FALSE, JMSXDeliveryCount 1, JMSXGroupSeq 0; JMSType,
  JMSMessageID, JMSCorrelationID, JMSXGroupID, JMSDestination, JMSReplyTo are NULL.
  JMSDeliveryMode is the string 'PERSISTENT'/'NON_PERSISTENT' (`= 2` is FALSE).
"""

NOTES: dict[str, str] = {
    "Comparison of unlike types": (
        "Rule (from ActiveMQ's `ComparisonExpression.compare`): operands of different classes are "
        "widened byte→short→int→long→float→double as Java would, and anything else "
        "(string vs number, boolean vs anything else) is FALSE. `=` first tries `equals`, then "
        "the same widening."),
    "NULL operands of comparisons and the NULL literal": (
        "`=`: left NULL → UNKNOWN; right NULL (left not) → FALSE; both NULL → TRUE. `<>` = "
        "NOT(`=`). Ordering operators: either NULL → UNKNOWN. IS [NOT] NULL accepts any operand "
        "expression, including comparisons and literals."),
    "Three-valued logic": "AND/OR are Kleene 3VL, evaluated left to right with short-circuit; AND binds tighter than OR.",
    "Arithmetic": (
        "Result type of `+ - *`: double if either operand is float/double, else long if either is "
        "long, else int (bytes and shorts included), Java overflow. `/` and `%` always return "
        "double. A NULL operand gives NULL (so `n * 0 = 0` is UNKNOWN)."),
    "LIKE": (
        "Pattern compilation (from `LikeExpression`): `\\A` + per char: escape char followed by "
        "`%`, `_` or itself → `\\x` + `Integer.toHexString(next)`; `%` → `.*?`; `_` → `.`; one of "
        "`. \\ [ ] ^ $ ? * + { } | ( ) : & < > = !` → `\\x`+hex; else the char itself; then "
        "`\\z`, flag DOTALL. The hex escape is what breaks escape chars ≥ U+0100 (`\\x263a` is "
        "`&` then `3a`) and < U+0010 (`\\x9` is a regex syntax error)."),
}


def _show_text(text: str) -> str:
    """Selector / value text for a Markdown table cell: control chars as ⟨LF⟩ etc., pipes escaped."""
    names = {"\n": "⟨LF⟩", "\r": "⟨CR⟩", "\t": "⟨TAB⟩", "\f": "⟨FF⟩", "\u00a0": "⟨NBSP⟩"}
    out = []
    for ch in text:
        if ch in names:
            out.append(names[ch])
        elif unicodedata.category(ch)[0] in "CZ" and ch != " ":
            out.append(f"⟨U+{ord(ch):04X}⟩")
        elif unicodedata.category(ch) == "Mn":
            out.append(f"⟨U+{ord(ch):04X}⟩")
        else:
            out.append(ch)
    return "".join(out).replace("|", "\\|")


def _code(text: str) -> str:
    shown = _show_text(text)
    if shown == "":
        return "(empty)"
    if shown.strip() == "":
        return f"`{shown}` ({len(shown)} spaces)"
    tick = "``" if "`" in shown else "`"
    pad = " " if "`" in shown else ""
    return f"{tick}{pad}{shown}{pad}{tick}"


def _show_value(type_, value) -> str:
    if type_ == "string":
        return "'" + _show_text(value).replace("'", "''") + "'"
    if type_ == "boolean":
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "+Infinity" if value > 0 else "-Infinity"
        return repr(value)
    return str(value)


def _show_message(case) -> str:
    parts = [f"{k} {_show_value(t, v)} ({t})" for k, (t, v) in case["props"].items()]
    parts += [f"{k}={v!r} (header)" for k, v in case["headers"].items()]
    return "<br>".join(parts) if parts else "—"


def _show_result(v) -> str:
    r = v["result"]
    if r is True:
        return "**true**"
    if r is False:
        return "false"
    if r is None:
        return "null"
    return f"*{r}*"


def _show_detail(v, reason=None) -> str:
    d = reason or v.get("detail")
    if not d:
        return ""
    lines = [ln.strip() for ln in d.strip().splitlines() if ln.strip()]
    if not lines:
        return repr(d)
    first = lines[0]
    if len(first) > 160:
        first = first[:157] + "…"
    return _show_text(first)


def build_cases():
    out = []
    for t_i, (_, _, cases) in enumerate(TOPICS):
        for c_i, c in enumerate(cases):
            c["id"] = f"t{t_i:02d}c{c_i:03d}"
            out.append({"id": c["id"], "selector": c["selector"],
                        "message": {"headers": c["headers"],
                                    "properties": {k: {"type": t, "value": v}
                                                   for k, (t, v) in c["props"].items()}}})
    return out


def render(verdicts, reasons=None) -> str:
    reasons = reasons or {}
    lines = [
        "# ActiveMQ Classic 5.17 selector semantics, measured",
        "",
        "Every table row below is one case run through ActiveMQ's own selector engine "
        "(`org.apache.activemq.selector.SelectorParser` from Debian `libactivemq-java` 5.17, via "
        "the project's ActiveMQ oracle, the harness `tests/support/oracle.py` runs). "
        "Regenerate with `python tools/probe_activemq.py` "
        "(tables are generated; the summary and the notes are hand-written from them).",
        "",
        "Legend: a property listed as `name value (type)`; a property not listed is absent (NULL). "
        "Result **true** / false / null (= UNKNOWN: not delivered) / *invalid* (parser rejected "
        "it; detail = first line of ActiveMQ's message) / *error* (evaluation threw) / *timeout* "
        "(past 5 s). In selectors and strings, ⟨LF⟩ ⟨CR⟩ ⟨TAB⟩ ⟨FF⟩ ⟨NBSP⟩ ⟨U+XXXX⟩ stand for that "
        "one character; a backslash is a literal backslash.",
        "",
        "Note: the oracle calls `SelectorParser.parse` directly. The ActiveMQ client treats a "
        "null/blank selector as \"no selector\" before parsing, so the *invalid* verdict for the "
        "empty selector describes the parser, not a consumer.",
        "",
        "## Summary",
        "",
        SUMMARY.rstrip(),
        "",
    ]
    n = 0
    for t_i, (title, intro, cases) in enumerate(TOPICS):
        lines += [f"## {t_i + 1}. {title}", ""]
        if intro:
            lines += [intro, ""]
        if NOTES.get(title):
            lines += [NOTES[title].rstrip(), ""]
        lines += ["| # | selector | message | result | detail |", "|---|---|---|---|---|"]
        for c in cases:
            n += 1
            v = verdicts[c["id"]]
            reason = reasons.get(c["selector"]) if v["result"] == "invalid" else None
            detail = _show_detail(v, reason)
            if c["note"]:
                detail = (f"({c['note']}) " + detail).strip()
            lines.append(f"| {c['id']} | {_code(c['selector'])} | {_show_message(c)} | "
                         f"{_show_result(v)} | {detail} |")
        lines.append("")
    lines.append(f"*{n} cases.*")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stdout", action="store_true", help="print instead of writing the doc")
    ap.add_argument("--out", default=str(REPO_ROOT / "docs" / "dialects" / "activemq-measured.md"))
    args = ap.parse_args(argv)
    verdicts = run_oracle(build_cases())
    invalid = sorted({c["selector"] for _, _, cases in TOPICS for c in cases
                      if verdicts[c["id"]]["result"] == "invalid"})
    doc = render(verdicts, invalid_reasons(invalid))
    if args.stdout:
        sys.stdout.write(doc)
    else:
        Path(args.out).write_text(doc, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
