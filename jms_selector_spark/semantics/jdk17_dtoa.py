"""``Double.toString`` / ``Float.toString`` exactly as JDK 17 prints them (``FloatingDecimal``).

ActiveMQ on Debian's JDK 17 turns numbers into text this way in string concatenation and its
functions; `javanum.java_number_str` chooses between this and the shortest form (JDK 19+).
"""
from __future__ import annotations

import math
import struct

__all__ = ["jdk17_double_str", "jdk17_float_str"]


# -- Double.toString / Float.toString as JDK 17 prints them (FloatingDecimal.dtoa) -------------------
#
# JDK 17's algorithm is not "shortest": it develops digits of the exact binary value with a
# symmetric half-ulp stopping test and forces a second digit in E-form, so it prints
# 9.999999999999999E22 for 1e23, 2.14748365E9 for the float 2^31 and 4.9E-324 for Double.MIN_VALUE.
# This is a transcription of FloatingDecimal.BinaryToASCIIBuffer.dtoa/developLongDigits/roundup/
# getChars, including its int/long fast paths and their overflow behaviour (simulated with
# 32-/64-bit wraparound) and the strict (`>`) versus non-strict (`>=`) "high" test of the
# fast paths and the big-integer path. Checked against the JVM (tests/unit/test_javanum_jdk.py).

_N_5_BITS = (0, 3, 5, 7, 10, 12, 14, 17, 19, 21, 24, 26, 28, 31, 33, 35, 38, 40, 42, 45, 47, 49, 52, 54,
             56, 59, 61)
_INSIGNIFICANT_DIGITS_NUMBER = (
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9,
    10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15, 16, 16, 16, 17, 17, 17,
    18, 18, 18, 19)
_EXP_SHIFT = 52
_LONG_5_POW_LEN = 27  # FDBigInteger.LONG_5_POW: 5^0 .. 5^26


def _w32(v: int) -> int:
    return ((v + 2**31) % 2**32) - 2**31


def _w64(v: int) -> int:
    return ((v + 2**63) % 2**64) - 2**63


def _jdiv(a: int, b: int) -> int:  # Java's truncating / on non-negative... or any sign
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _jrem(a: int, b: int) -> int:
    return a - b * _jdiv(a, b)


def _develop_long_digits(dec_exp: int, lvalue: int, insignificant: int):
    if insignificant:
        pow10 = 10 ** insignificant
        residue = lvalue % pow10
        lvalue //= pow10
        dec_exp += insignificant
        if residue >= (pow10 >> 1):
            lvalue += 1
    c = lvalue % 10
    lvalue //= 10
    while c == 0:
        dec_exp += 1
        c = lvalue % 10
        lvalue //= 10
    out = []
    while lvalue != 0:
        out.append(c)
        dec_exp += 1
        c = lvalue % 10
        lvalue //= 10
    out.append(c)
    return [chr(48 + d) for d in reversed(out)], dec_exp + 1


def _estimate_dec_exp(fract_bits: int, bin_exp: int) -> int:
    d2 = struct.unpack("<d", struct.pack("<Q", (1023 << 52) | (fract_bits & ((1 << 52) - 1))))[0]
    d = (d2 - 1.5) * 0.289529654 + 0.176091259 + float(bin_exp) * 0.301029995663981
    return math.floor(d)


def _dtoa(bin_exp: int, fract_bits: int, n_significant_bits: int):
    """Digits (list of chars) and decExponent, as BinaryToASCIIBuffer.dtoa leaves them."""
    tail_zeros = (fract_bits & -fract_bits).bit_length() - 1
    n_fract_bits = _EXP_SHIFT + 1 - tail_zeros
    n_tiny_bits = max(0, n_fract_bits - bin_exp - 1)
    if -21 <= bin_exp <= 62:
        if n_tiny_bits < _LONG_5_POW_LEN and n_fract_bits + _N_5_BITS[n_tiny_bits] < 64 and n_tiny_bits == 0:
            insignificant = 0
            if bin_exp > n_significant_bits:
                p2 = bin_exp - n_significant_bits - 1
                insignificant = _INSIGNIFICANT_DIGITS_NUMBER[p2] if 1 < p2 < len(_INSIGNIFICANT_DIGITS_NUMBER) else 0
            if bin_exp >= _EXP_SHIFT:
                fract_bits <<= bin_exp - _EXP_SHIFT
            else:
                fract_bits >>= _EXP_SHIFT - bin_exp
            return _develop_long_digits(0, fract_bits, insignificant)
    dec_exp = _estimate_dec_exp(fract_bits, bin_exp)
    B5 = max(0, -dec_exp)
    B2 = B5 + n_tiny_bits + bin_exp
    S5 = max(0, dec_exp)
    S2 = S5 + n_tiny_bits
    M5 = B5
    M2 = B2 - n_significant_bits
    fract_bits >>= tail_zeros
    B2 -= n_fract_bits - 1
    common2 = min(B2, S2)
    B2 -= common2
    S2 -= common2
    M2 -= common2
    if n_fract_bits == 1:
        M2 -= 1
    if M2 < 0:
        B2 -= M2
        S2 -= M2
        M2 = 0
    digits = []
    b_bits = n_fract_bits + B2 + (_N_5_BITS[B5] if B5 < len(_N_5_BITS) else B5 * 3)
    ten_s_bits = S2 + 1 + (_N_5_BITS[S5 + 1] if S5 + 1 < len(_N_5_BITS) else (S5 + 1) * 3)
    e_form = dec_exp < -3 or dec_exp >= 8
    if b_bits < 64 and ten_s_bits < 64:
        w = _w32 if (b_bits < 32 and ten_s_bits < 32) else _w64
        b = w(w(fract_bits * 5 ** B5) << B2)
        s = w(w(5 ** S5) << S2)
        m = w(w(5 ** M5) << M2)
        tens = w(s * 10)
        q = _jdiv(b, s)
        b = w(10 * _jrem(b, s))
        m = w(m * 10)
        low = b < m
        high = w(b + m) > tens
        if q == 0 and not high:
            dec_exp -= 1
        else:
            digits.append(chr(48 + q))
        if dec_exp < -3 or dec_exp >= 8:
            high = low = False
        while not low and not high:
            q = _jdiv(b, s)
            b = w(10 * _jrem(b, s))
            m = w(m * 10)
            if m > 0:
                low = b < m
                high = w(b + m) > tens
            else:
                low = high = True
            digits.append(chr(48 + q))
        low_digit_difference = w(w(b << 1) - tens)
    else:
        del e_form
        Bv = fract_bits * 5 ** B5 << B2
        Sv = 5 ** S5 << S2
        Mv = 5 ** (M5 + 1) << (M2 + 1)
        tenS = 5 ** (S5 + 1) << (S2 + 1)
        q, Bv = Bv // Sv, (Bv % Sv) * 10
        low = Bv < Mv
        high = tenS <= Bv + Mv
        if q == 0 and not high:
            dec_exp -= 1
        else:
            digits.append(chr(48 + q))
        if dec_exp < -3 or dec_exp >= 8:
            high = low = False
        while not low and not high:
            q, Bv = Bv // Sv, (Bv % Sv) * 10
            Mv *= 10
            low = Bv < Mv
            high = tenS <= Bv + Mv
            digits.append(chr(48 + q))
        low_digit_difference = ((Bv << 1) > tenS) - ((Bv << 1) < tenS) if (high and low) else 0
    dec_exponent = dec_exp + 1
    if high:
        if low:
            if low_digit_difference == 0:
                if ord(digits[-1]) & 1:
                    dec_exponent = _roundup(digits, dec_exponent)
            elif low_digit_difference > 0:
                dec_exponent = _roundup(digits, dec_exponent)
        else:
            dec_exponent = _roundup(digits, dec_exponent)
    return digits, dec_exponent


def _roundup(digits: list, dec_exponent: int) -> int:
    i = len(digits) - 1
    q = digits[i]
    if q == "9":
        while q == "9" and i > 0:
            digits[i] = "0"
            i -= 1
            q = digits[i]
        if q == "9":  # carry out: a leading 1, the rest zeros, one more decimal exponent
            digits[0] = "1"
            return dec_exponent + 1
    digits[i] = chr(ord(q) + 1)
    return dec_exponent


def _java_chars(negative: bool, digits: list, dec_exponent: int) -> str:
    """BinaryToASCIIBuffer.getChars: plain form for 1e-3 <= |v| < 1e7, else E-form."""
    sign = "-" if negative else ""
    nd = len(digits)
    if 0 < dec_exponent < 8:
        n = min(nd, dec_exponent)
        head = "".join(digits[:n])
        if n < dec_exponent:
            return sign + head + "0" * (dec_exponent - n) + ".0"
        return sign + head + "." + ("".join(digits[n:]) if n < nd else "0")
    if -3 < dec_exponent <= 0:
        return sign + "0." + "0" * (-dec_exponent) + "".join(digits)
    e = -dec_exponent + 1 if dec_exponent <= 0 else dec_exponent - 1
    return (sign + digits[0] + "." + ("".join(digits[1:]) if nd > 1 else "0") + "E"
            + ("-" if dec_exponent <= 0 else "") + str(e))


def _to_string(v: float, pack: str, width: int, mantissa: int, bias: int) -> str:
    """``Double.toString`` (``pack`` "d", 64 bits) or ``Float.toString`` ("f", 32 bits) of ``v``:
    the IEEE fields normalised as FloatingDecimal does, then `_dtoa` on a 52-bit-aligned fraction."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    bits = int.from_bytes(struct.pack("<" + pack, v), "little")
    negative = bool(bits >> (width - 1))
    fract = bits & ((1 << mantissa) - 1)
    bin_exp = (bits >> mantissa) & ((1 << (width - 1 - mantissa)) - 1)
    if bin_exp == 0:
        if fract == 0:
            return "-0.0" if negative else "0.0"
        leading = width - fract.bit_length()
        shift = leading - (width - 1 - mantissa)
        fract <<= shift
        bin_exp = 1 - shift
        n_sig = width - leading
    else:
        fract |= 1 << mantissa
        n_sig = mantissa + 1
    digits, dec_exponent = _dtoa(bin_exp - bias, fract << (_EXP_SHIFT - mantissa), n_sig)
    return _java_chars(negative, digits, dec_exponent)


def jdk17_double_str(v: float) -> str:
    """``Double.toString(v)`` exactly as JDK 8-18 print it (FloatingDecimal)."""
    return _to_string(v, "d", 64, 52, 1023)


def jdk17_float_str(v: float) -> str:
    """``Float.toString(v)`` exactly as JDK 8-18 print it; ``v`` must be a float32 value."""
    return _to_string(v, "f", 32, 23, 127)


