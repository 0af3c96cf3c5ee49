"""Qpid C++'s numeric literals (`jms_selector_spark.frontend.cpp_numbers`, the ``qpid-cpp`` dialect), each
value as SelectorToken.cpp and parseExactNumeric/parseApproxNumeric compute it."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from jms_selector_spark.frontend.cpp_numbers import CppNumberError, CppRangeError, scan_cpp_number


@pytest.mark.parametrize("text, end, kind, value", [
    ("17", 2, "exact", 17), ("1_000", 5, "exact", 1000), ("077L", 4, "exact", 63), ("0b111_111", 9, "exact", 63),
    ("0xFF", 4, "exact", 255), ("0xff_ffL", 8, "exact", 0xFFFF), ("0", 1, "exact", 0),
    # the base prefix, then octal when the digits start with 0 (the source's `if` chain)
    ("0x0F", 4, "exact", 0), ("0b0101", 6, "exact", 0o101), ("0x010", 5, "exact", 8),
    # hex/binary/octal wrap to int64; a decimal is returned unsigned (the parser checks it with its sign)
    ("0x8000_0000_0000_0001", 21, "exact", -9223372036854775807), ("0xFFFF_FFFF_FFFF_FFFF", 21, "exact", -1),
    ("9223372036854775808", 19, "exact", 2**63),
    ("0.4f", 4, "approx", 0.4), ("2d", 2, "approx", 2.0), ("1000_020.4f", 11, "approx", 1000020.4),
    (".5", 2, "approx", 0.5), ("5.", 2, "approx", 5.0), ("1e+5", 4, "approx", 1e5), ("1.5E-3D", 7, "approx", 1.5e-3),
    ("0x800p-3", 8, "approx", 256.0), ("0x1000_0000p0f", 14, "approx", 268435456.0),
    # the number ends where its state machine stops: a name or another token follows
    ("12abc", 2, "exact", 12), ("09", 1, "exact", 0), ("1e5L", 3, "approx", 1e5), ("100AND", 3, "exact", 100),
])
def test_values(text, end, kind, value):
    assert scan_cpp_number(text, 0) == (end, kind, value)


@pytest.mark.parametrize("text", ["0x", "0b2", "1e", "1e+", "1.5e", "0x1p", ".e5"])
def test_incomplete_numbers_are_rejected(text):
    with pytest.raises(CppNumberError):
        scan_cpp_number(text, 0)


@pytest.mark.parametrize("text", ["1" * 20, "0x1_0000_0000_0000_0000", "0b" + "1" * 65, "1e400", "1e-400", "2e-310"])
def test_out_of_range(text):
    with pytest.raises(CppRangeError):
        scan_cpp_number(text, 0)


@pytest.mark.parametrize("selector, expected", [
    ("0x8000_0000_0000_0001 = -9223372036854775807", True), ("-9223372036854775808 = 0x8000_0000_0000_0000", True),
    ("077L = 0b111_111", True), ("1000_020.4f > 0x800p-3", True), ("0x0F = 15", False), ("0.4f = 0.4", True),
    ("- 9223372036854775808 < 0", True),
])
def test_in_selectors(selector, expected):
    assert jss.evaluate(selector, dialect="qpid-cpp") is expected


def test_errors_have_positions():
    err = pytest.raises(jss.SelectorSyntaxError, jss.parse, "a = 0x", dialect="qpid-cpp").value
    assert (err.span.start, err.span.end) == (4, 6) and "invalid numeric literal" in err.message
    err = pytest.raises(jss.SelectorTypeError, jss.parse, "a = 9223372036854775808", dialect="qpid-cpp").value
    assert (err.span.start, err.span.end) == (4, 23)
    err = pytest.raises(jss.SelectorTypeError, jss.parse, "a = 1e400", dialect="qpid-cpp").value
    assert "out of the range of a double" in err.message
