"""Java numeric behaviour in Python: two's-complement wraparound, integer division and remainder,
IEEE division by zero, ``Double.compareTo`` and ``float`` rounding.

Pure functions on Python ints and floats; the reference interpreter and the vectorized evaluator
both use them (the latter through numpy equivalents that are tested against these).
"""
from __future__ import annotations

import math
import re
import struct
import unicodedata

from .jdk17_dtoa import jdk17_double_str, jdk17_float_str

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
    "jdk17_double_str",
    "jdk17_float_str",
    "java_number_str",
    "java_value_of",
    "java_parse_integer",
    "java_parse_floating",
    "java_parse_boolean",
    "JAVA_FLOAT_PATTERN",
    "JAVA_INTEGER_RANGES",
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


def _two_digit_closest(v: float, shortest: str, back) -> str:
    """JDK 19+'s rule when the shortest decimal has one digit: of the two-digit decimals that
    round to ``v`` (``back(text) == v``), the closest to ``v`` (ties: even last digit).
    ``Double.MIN_VALUE`` is 4.9E-324, not 5.0E-324."""
    from fractions import Fraction

    mant, _, exp = shortest.lstrip("-").partition("e")
    digits = mant.replace(".", "").strip("0")
    if len(digits) != 1 or v == 0 or math.isinf(v) or math.isnan(v):
        return shortest
    exact = abs(Fraction(v))
    k = math.floor(math.log10(float(exact))) if exact >= Fraction(1, 10**300) else None
    if k is None:
        k = len(str(exact.denominator)) * -1
    best = None
    for j in range(k - 3, k + 2):
        q = exact / Fraction(10) ** j
        n = round(q)  # Fraction rounds half to even
        if 10 <= n <= 99:
            text = f"{'-' if v < 0 else ''}{n}e{j}"
            if back(text) == v:
                dist = abs(Fraction(n) * Fraction(10) ** j - exact)
                if best is None or dist < best[0] or (dist == best[0] and n % 2 == 0):
                    best = (dist, text)
    return best[1] if best else shortest


def java_double_str(v: float) -> str:
    """``Double.toString`` as JDK 19 and later print it: the shortest decimal that round-trips
    (two digits when one would do: the closest of those), in Java's layout (1.0E10, 0.001).
    ActiveMQ on JDK 17 prints differently: `jdk17_double_str`."""
    v = float(v)
    return _java_fp_str(_two_digit_closest(v, repr(v), float))


def java_float_str(v: float) -> str:
    """``Float.toString`` as JDK 19 and later print it, for a value that is exactly a float32
    (see `java_double_str`; JDK 17: `jdk17_float_str`)."""
    if math.isnan(v) or math.isinf(v):
        return _java_fp_str(repr(v))
    for precision in range(1, 10):
        text = f"{v:.{precision}g}"
        if to_float32(float(text)) == v:
            text = repr(float(text)) if "e" not in text else text
            return _java_fp_str(_two_digit_closest(v, text, lambda t: to_float32(float(t))))
    return _java_fp_str(repr(v))


def java_number_str(v: float, *, is_float: bool, jdk: int = 17) -> str:
    """``Double.toString`` / ``Float.toString`` as the given JDK prints them (8-18: FloatingDecimal;
    19 and later: the shortest form)."""
    if jdk < 19:
        return jdk17_float_str(v) if is_float else jdk17_double_str(v)
    return java_float_str(v) if is_float else java_double_str(v)


# -- Java's String -> number/boolean conversions (valueOf) ------------------------------------------
#
# One primitive for ActiveMQ's `convert_string_expressions:` comparisons and for declared property
# types of MAP<STRING,STRING> layouts (JMS getLongProperty & co. on a string property): the Java
# `valueOf(String)` of each class, with NumberFormatException as None.

#: Ranges of the exact classes.
JAVA_INTEGER_RANGES = {"byte": (-2**7, 2**7 - 1), "short": (-2**15, 2**15 - 1), "int": (-2**31, 2**31 - 1),
                       "long": (-2**63, 2**63 - 1)}
#: Double.valueOf / Float.valueOf's grammar after String.trim(): optional sign, NaN, Infinity, a
#: decimal with optional exponent, or a hex float with a binary exponent; optional f/F/d/D suffix
#: (not after NaN/Infinity). ASCII digits only.
JAVA_FLOAT_PATTERN = (r"[+-]?(?:NaN|Infinity|(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                      r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+)[fFdD]?)")
_FLOAT_RE = re.compile(JAVA_FLOAT_PATTERN + r"\Z")
_TRIM = "".join(chr(c) for c in range(0x21))


def _java_decimal_digit(c: str) -> int:
    """Character.digit(c, 10) for one UTF-16 unit: ASCII and every other decimal digit (Nd) of
    the Basic Multilingual Plane; -1 otherwise."""
    if "0" <= c <= "9":
        return ord(c) - 48
    if c.isdecimal() and ord(c) <= 0xFFFF:
        return unicodedata.decimal(c)
    return -1


def java_parse_integer(text: str, kind: str = "long") -> "int | None":
    """``Byte/Short/Integer/Long.valueOf(text)`` (radix 10), or None where Java throws
    NumberFormatException: an optional ``+``/``-`` then one or more decimal digits (any Unicode
    decimal digit of the BMP, as Character.digit reads them), no blanks, within range."""
    lo, hi = JAVA_INTEGER_RANGES[kind]
    if not text:
        return None
    neg = text[0] == "-"
    body = text[1:] if text[0] in "+-" else text
    if not body or len(body) > 4000:  # beyond 4000 digits, only leading zeros could keep it in range
        body = body.lstrip("0") if body else body
        if not body or len(body) > 4000:
            return None if not text[1 if text[0] in "+-" else 0:] else (0 if not body else None)
    value = 0
    for c in body:
        d = _java_decimal_digit(c)
        if d < 0:
            return None
        value = value * 10 + d
        if value > hi + 1:
            return None
    value = -value if neg else value
    return value if lo <= value <= hi else None


def _fraction_to_float32(fr) -> float:
    """The float32 nearest the rational ``fr`` (ties to even), as a Python float."""
    from fractions import Fraction

    if fr == 0:
        return 0.0
    sign = -1.0 if fr < 0 else 1.0
    fr = abs(fr)
    e = fr.numerator.bit_length() - fr.denominator.bit_length()
    if Fraction(2) ** e > fr:
        e -= 1
    e = max(e, -126)  # subnormals share the exponent of the smallest normal
    scale = Fraction(2) ** (23 - e)
    q = fr * scale
    m = q.numerator // q.denominator
    rem = q - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1):
        m += 1
    value = m * 2.0 ** (e - 23) if abs(e - 23) < 1000 else float(Fraction(m) * Fraction(2) ** (e - 23))
    if value > 3.4028234663852886e38:
        return sign * math.inf
    return sign * value


def java_parse_floating(text: str, kind: str = "double") -> "float | None":
    """``Double.valueOf(text)`` / ``Float.valueOf(text)`` (correctly rounded), or None where Java
    throws NumberFormatException. Leading/trailing characters up to U+0020 are trimmed."""
    s = text.strip(_TRIM)
    if not _FLOAT_RE.match(s):
        return None
    # after NaN/Infinity nothing may follow, and both a decimal and a hex float end in a digit
    # unless a type suffix follows: a final f/F/d/D is always the suffix
    core = s[:-1] if s[-1] in "fFdD" else s
    neg = core.startswith("-")
    body = core.lstrip("+-")
    if body == "NaN":
        return math.nan
    if body == "Infinity":
        return -math.inf if neg else math.inf
    if body[:2] in ("0x", "0X"):
        try:
            x = float.fromhex(("-" if neg else "") + body)
        except OverflowError:
            x = -math.inf if neg else math.inf
        exact = None if kind == "double" else _hex_fraction(body, neg)
    else:
        x = float(("-" if neg else "") + body)
        exact = None
        if kind == "float":
            from decimal import Decimal
            from fractions import Fraction
            exact = lambda: Fraction(Decimal(("-" if neg else "") + body))  # noqa: E731
    if kind == "double":
        return x
    f = to_float32(x)
    if math.isinf(x) or x == 0.0 or f == x:
        return f if not math.isinf(x) else x
    # Rounding the double to float can differ from rounding the exact value only when the
    # double lies exactly halfway between two floats (or on the overflow edge).
    if abs(x) < 3.4028235677973366e38:  # below the overflow midpoint: compare with the neighbour
        bits = struct.unpack("<I", struct.pack("<f", f))[0]
        away = (abs(x) > abs(f))  # the other float around x is one step further from zero
        other = struct.unpack("<f", struct.pack("<I", bits + (1 if away else -1)))[0]
        if x != (f + other) / 2:
            return f
    fr = exact() if callable(exact) else exact
    return _fraction_to_float32(fr)


def _hex_fraction(body: str, neg: bool):
    from fractions import Fraction

    mant, _, exp = body[2:].lower().partition("p")
    whole, _, frac = mant.partition(".")
    digits = (whole + frac) or "0"
    fr = Fraction(int(digits, 16)) * Fraction(2) ** (int(exp) - 4 * len(frac))
    return -fr if neg else fr


def java_parse_boolean(text: str) -> bool:
    """``Boolean.valueOf(text)``: TRUE exactly for "true" in any case (never throws)."""
    return len(text) == 4 and text.isascii() and text.lower() == "true"


def java_value_of(text: str, kind: str):
    """``<Class>.valueOf(text)`` for a JMS type name (boolean, byte, short, int, long, float,
    double, string): the Python value, or None for NumberFormatException."""
    if kind in JAVA_INTEGER_RANGES:
        return java_parse_integer(text, kind)
    if kind in ("float", "double"):
        return java_parse_floating(text, kind)
    if kind == "boolean":
        return java_parse_boolean(text)
    if kind == "string":
        return text
    raise ValueError(f"no Java valueOf for {kind!r}")
