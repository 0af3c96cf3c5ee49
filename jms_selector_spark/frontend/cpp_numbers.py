"""Numeric literals as the Qpid C++ broker reads them (`Dialect.cpp_literals`).

Qpid C++ has its own selector tokeniser, a hand-written state machine (``tokenise`` in
src/qpid/broker/SelectorToken.cpp), and converts the token text with ``strtoull``/``strtod``
(``parseExactNumeric``/``parseApproxNumeric`` in SelectorExpression.cpp). This module is that
reading, rule for rule, for the lexer:

- exact: decimal digits; ``0x``/``0X`` hex; ``0b``/``0B`` binary; a leading ``0`` is octal; ``_``
  may separate digits after the first; ``l``/``L`` may end any of them;
- approximate: ``1.5``, ``.5``, ``5.``, ``1e5``, ``1.5E-3``, a hex float ``0x800p-3``; ``f``, ``F``,
  ``d`` or ``D`` may end one (and turns a decimal integer into a double: ``5f``); the value is
  always a double (``0.4f`` is the double 0.4);
- the number ends at the first character its state does not take (``12abc`` is 12 then ``abc``);
  a state that needs one more character and does not get it (``0x``, ``1e``, ``1e+``) is a syntax
  error, as the tokeniser's REJECT is;
- values, as ``parseExactNumeric`` computes them: ``_`` removed; the base is 2 or 16 after its
  prefix, and then 8 whenever the remaining digits start with ``0`` (so ``0x0F`` reads ``0F`` in
  octal: 0, and ``0b0101`` is octal 101: 65 — the source's own precedence); ``strtoull`` reads the
  longest prefix of digits valid in the base; a hex, binary or octal value wraps to int64 (2^63 and
  above are negative); a decimal above 2^63 - 1 is out of range (its minus sign is applied by the
  parser, which accepts -9223372036854775808); more than 64 bits is out of range;
- ``strtod`` out of range (an infinite value, or an underflow to 0 or below the smallest normal
  double: glibc's ERANGE) is an error.
"""
from __future__ import annotations

import re

__all__ = ["scan_cpp_number", "CppNumberError", "CppRangeError"]

_DIGITS = "0123456789"
_HEX = "0123456789abcdefABCDEF"
_SUFFIX_APPROX = "fFdD"
_UINT64 = 2**64
_INT64_MAX = 2**63 - 1
_DBL_MIN = 2.2250738585072014e-308


class CppNumberError(ValueError):
    """The text is not a number Qpid C++ accepts (the message says why)."""


class CppRangeError(CppNumberError):
    """A well-formed number out of range (Qpid C++: "integer literal too big", ERANGE)."""


def _end(text: str, i: int, states) -> "tuple[int, str]":
    """Run the tokeniser from state ``start`` at ``i``; return (end, 'exact' | 'approx')."""
    n = len(text)
    state = states
    while True:
        c = text[i] if i < n else ""
        if state == "ZERO":
            if c == ".":
                i, state = i + 1, "DECIMAL"
            elif c and c in "xX":
                i, state = i + 1, "HEX_START"
            elif c and c in "bB":
                i, state = i + 1, "BIN_START"
            else:
                state = "OCT"
        elif state in ("HEX_START", "BIN_START", "DECIMAL_START", "EXP_START"):
            ok = {"HEX_START": _HEX, "BIN_START": "01", "DECIMAL_START": _DIGITS, "EXP_START": _DIGITS}[state]
            if not c or c not in ok:
                raise CppNumberError("incomplete number")
            i, state = i + 1, {"HEX_START": "HEX", "BIN_START": "BIN", "DECIMAL_START": "DECIMAL",
                               "EXP_START": "EXP"}[state]
        elif state in ("HEX", "BIN", "OCT"):
            digits = {"HEX": _HEX, "BIN": "01", "OCT": "01234567"}[state]
            if c and c in "lL":
                return i + 1, "exact"
            if c and (c in digits or c == "_"):
                i += 1
            elif state == "HEX" and c and c in "pP":
                i, state = i + 1, "EXP_SIGN"
            else:
                return i, "exact"
        elif state == "DIGIT":
            if c and c in "lL":
                return i + 1, "exact"
            if c and c in _SUFFIX_APPROX:
                return i + 1, "approx"
            if c and (c in _DIGITS or c == "_"):
                i += 1
            elif c == ".":
                i, state = i + 1, "DECIMAL"
            elif c and c in "eE":
                i, state = i + 1, "EXP_SIGN"
            else:
                return i, "exact"
        elif state == "DECIMAL":
            if c and (c in _DIGITS or c == "_"):
                i += 1
            elif c and c in "eE":
                i, state = i + 1, "EXP_SIGN"
            elif c and c in _SUFFIX_APPROX:
                return i + 1, "approx"
            else:
                return i, "approx"
        elif state == "EXP_SIGN":
            if c and c in "+-":
                i, state = i + 1, "EXP_START"
            elif c and c in _DIGITS:
                i, state = i + 1, "EXP"
            else:
                raise CppNumberError("incomplete exponent")
        else:  # EXP
            if c and c in _DIGITS:
                i += 1
            elif c and c in _SUFFIX_APPROX:
                return i + 1, "approx"
            else:
                return i, "approx"


#: Most significant digits a value below 2^64 has, per base (more: out of range before int() reads them).
_MAX_DIGITS = {2: 64, 8: 22, 10: 19, 16: 16}  # 10: 2^63 has 19 digits (a long, even negated)


def _strtoull(s: str, base: int) -> int:
    """``strtoull(s, 0, base)`` on digits only (the longest valid prefix; 0 when none)."""
    valid = "0123456789abcdef"[:base]
    k = 0
    while k < len(s) and s[k].lower() in valid:
        k += 1
    digits = s[:k].lstrip("0")
    if len(digits) > _MAX_DIGITS[base] or (digits and int(digits, base) >= _UINT64):
        raise CppRangeError("exact numeric literal out of the range of a Java long" if base == 10
                            else "exact numeric literal beyond 64 bits")
    return int(digits, base) if digits else 0


def scan_cpp_number(text: str, pos: int) -> "tuple[int, str, int | float]":
    """Read the number at ``text[pos]`` (a digit, or ``.`` and a digit): ``(end, kind, value)``,
    kind ``"exact"`` (an int: a signed int64 for hex/binary/octal, up to 2^63 for decimal) or
    ``"approx"`` (a float). Raises `CppNumberError`."""
    c = text[pos]
    start = "DECIMAL_START" if c == "." else "ZERO" if c == "0" else "DIGIT"
    end, kind = _end(text, pos + 1, start)
    token = text[pos:end].replace("_", "")
    if kind == "approx":
        body = token.rstrip(_SUFFIX_APPROX)  # at most one suffix; a hex float's ends in exponent digits
        value = float.fromhex(body) if body[:2].lower() == "0x" else float(body)
        mantissa = re.split(r"[eEpP]", body)[0]
        if value in (float("inf"), float("-inf")) or (abs(value) < _DBL_MIN and mantissa.strip("0.xX")):
            raise CppRangeError("approximate numeric literal out of the range of a double (overflow or underflow)")
        return end, kind, value
    s = token.rstrip("lL")
    base = 10
    if len(s) > 1 and s[1] in "bB":
        base, s = 2, s[2:]
    elif len(s) > 1 and s[1] in "xX":
        base, s = 16, s[2:]
    if s[0] == "0":
        base = 8
    value = _strtoull(s, base)
    if base == 10:
        return end, kind, value  # the parser checks the range once the sign is known
    return end, kind, value - _UINT64 if value > _INT64_MAX else value
