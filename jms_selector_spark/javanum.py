"""Java numeric behaviour in Python: two's-complement wraparound, integer division and remainder,
IEEE division by zero, ``Double.compareTo`` and ``float`` rounding.

Pure functions on Python ints and floats; the reference interpreter and the vectorized evaluator
both use them (the latter through numpy equivalents that are tested against these).
"""
from __future__ import annotations

import math
import struct

__all__ = [
    "wrap_int",
    "wrap_long",
    "java_idiv",
    "java_irem",
    "java_ddiv",
    "java_drem",
    "compare_to",
    "to_float32",
    "as_java_float",
    "java_double_str",
    "java_float_str",
]


def wrap_int(v: int) -> int:
    """Wrap to a Java 32-bit int."""
    return ((v + 2**31) % 2**32) - 2**31


def wrap_long(v: int) -> int:
    """Wrap to a Java 64-bit long."""
    return ((v + 2**63) % 2**64) - 2**63


def java_idiv(a: int, b: int) -> int:
    """Java integer division (truncates toward zero). ``b`` must not be 0."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def java_irem(a: int, b: int) -> int:
    """Java integer remainder (sign of the dividend). ``b`` must not be 0."""
    return a - b * java_idiv(a, b)


def java_ddiv(a: float, b: float) -> float:
    """IEEE 754 division, as Java does it (x/0 is ±Infinity or NaN, never an error)."""
    if b != 0.0:
        return a / b
    if math.isnan(a) or a == 0.0:
        return math.nan
    sign = math.copysign(1.0, a) * math.copysign(1.0, b)
    return math.copysign(math.inf, sign)


def java_drem(a: float, b: float) -> float:
    """Java ``%`` on doubles (IEEE fmod; NaN where Java gives NaN)."""
    if b == 0.0 or math.isnan(a) or math.isnan(b) or math.isinf(a):
        return math.nan
    if math.isinf(b):
        return a
    return math.fmod(a, b)


def compare_to(a: float, b: float) -> int:
    """``Double.compare(a, b)``: a total order where -0.0 < 0.0 and NaN is greatest (and equal to
    itself)."""
    if math.isnan(a) or math.isnan(b):
        return 0 if (math.isnan(a) and math.isnan(b)) else (1 if math.isnan(a) else -1)
    if a < b:
        return -1
    if a > b:
        return 1
    if a == 0.0:  # equal zeros: order by sign bit
        sa, sb = math.copysign(1, a), math.copysign(1, b)
        return 0 if sa == sb else (-1 if sa < sb else 1)
    return 0


def to_float32(v: float) -> float:
    """Round a Python float to the nearest Java ``float`` (kept as a Python float)."""
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def as_java_float(v) -> float:
    """A Java numeric value converted to ``float``, as Java does it: one rounding.

    An int or long goes straight to the nearest float (round half to even), never through a
    double first: ``(float) (2^53 + 2^29 + 1)`` is 2^53 + 2^30, while rounding via double gives
    2^53. A floating value is rounded with `to_float32`.
    """
    if isinstance(v, bool) or not isinstance(v, int):
        return to_float32(float(v))
    magnitude = abs(v)
    extra = magnitude.bit_length() - 24  # bits beyond a float's 24-bit significand
    if extra > 0:
        q, r = divmod(magnitude, 1 << extra)
        half = 1 << (extra - 1)
        if r > half or (r == half and q & 1):
            q += 1
        magnitude = q << extra  # at most 25 significant bits: exact in a double
    return to_float32(float(-magnitude if v < 0 else magnitude))


def _java_fp_str(digits_repr: str) -> str:
    """Format Python's shortest round-trip repr the way Java's Double.toString lays it out."""
    if digits_repr in ("nan", "inf", "-inf"):
        return {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[digits_repr]
    sign = "-" if digits_repr.startswith("-") else ""
    body = digits_repr.lstrip("-")
    mant, _, exp = body.partition("e")
    exp = int(exp) if exp else 0
    int_part, _, frac = mant.partition(".")
    digits = (int_part + frac).lstrip("0")
    point = len(int_part) + exp  # position of the decimal point relative to `int_part + frac`
    lead_zeros = len(int_part + frac) - len((int_part + frac).lstrip("0"))
    point -= lead_zeros
    digits = digits.rstrip("0") or "0"
    if digits == "0":
        return sign + "0.0"
    sci_exp = point - 1
    if -3 <= sci_exp < 7:
        if point <= 0:
            return sign + "0." + "0" * (-point) + digits
        if point >= len(digits):
            return sign + digits + "0" * (point - len(digits)) + ".0"
        return sign + digits[:point] + "." + digits[point:]
    return sign + digits[0] + "." + (digits[1:] or "0") + "E" + str(sci_exp)


def java_double_str(v: float) -> str:
    """``String.valueOf(double)`` (shortest round-trip digits, Java layout: 1.0E10, 0.001)."""
    return _java_fp_str(repr(float(v)))


def java_float_str(v: float) -> str:
    """``String.valueOf(float)`` for a value that is exactly a float32."""
    if math.isnan(v) or math.isinf(v):
        return _java_fp_str(repr(v))
    for precision in range(1, 10):
        text = f"{v:.{precision}g}"
        if to_float32(float(text)) == v:
            return _java_fp_str(repr(float(text)) if "e" not in text else text)
    return _java_fp_str(repr(v))
