"""`javanum`'s Double.toString / Float.toString against real JVMs.

JDK 17 (what Debian's ActiveMQ runs on, the `activemq` default) prints with FloatingDecimal, which
is not the shortest form; JDK 19 and later print the shortest (two digits when one would do).
Values: random bit patterns, random decimals at every scale, integers, powers of two and ten,
subnormals and the neighbours of the extremes, through one JVM run per JDK.
"""
from __future__ import annotations

import glob
import math
import random
import re
import shutil
import struct
import subprocess

import pytest

from jms_selector_spark.semantics import javanum as jn

PINNED = [  # (value, is_float, JDK 17, JDK 19+), measured with java 17.0.15 and 25.0.3
    (5e-324, False, "4.9E-324", "4.9E-324"), (1e23, False, "9.999999999999999E22", "1.0E23"),
    (2.0**31, True, "2.14748365E9", "2.1474836E9"), (1.401298464324817e-45, True, "1.4E-45", "1.4E-45"),
    (2e-323, False, "2.0E-323", "2.0E-323"), (1e-323, False, "1.0E-323", "9.9E-324"), (2.0**62, False,
    "4.6116860184273879E18", "4.611686018427388E18"), (0.001, False, "0.001", "0.001"), (1e7, False, "1.0E7", "1.0E7"),
    (-0.0, False, "-0.0", "-0.0"), (math.inf, True, "Infinity", "Infinity"), (math.nan, False, "NaN", "NaN"),
]

JAVA_SRC = """
import java.io.*;
public class ToStr {
  public static void main(String[] a) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
    PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
    String line;
    while ((line = r.readLine()) != null) {
      String h = line.substring(2);
      if (line.charAt(0) == 'd') w.println(Double.toString(Double.longBitsToDouble(Long.parseUnsignedLong(h, 16))));
      else w.println(Float.toString(Float.intBitsToFloat((int) Long.parseLong(h, 16))));
    }
    w.flush();
  }
}
"""


@pytest.mark.parametrize("value,is_float,jdk17,jdk19", PINNED)
def test_pinned(value, is_float, jdk17, jdk19):
    v = jn.to_float32(value) if is_float else value
    assert jn.java_number_str(v, is_float=is_float, jdk=17) == jdk17
    assert jn.java_number_str(v, is_float=is_float, jdk=21) == jdk19


def _values(n=6000, seed=18):
    rng = random.Random(seed)
    out = []

    def d(v):
        out.append(("d", struct.unpack("<Q", struct.pack("<d", v))[0]))

    def f(v):
        out.append(("f", struct.unpack("<I", struct.pack("<f", jn.to_float32(v)))[0]))

    for _ in range(n):
        out.append(("d", rng.getrandbits(64)))
        out.append(("f", rng.getrandbits(32)))
        v = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        d(v), f(v)
        k = float(rng.randint(-2**63, 2**63))
        d(k), f(k)
        d(rng.randint(-10**6, 10**6) / 10 ** rng.randint(0, 8))
    for e in range(-1074, 1024):
        d(2.0 ** e)
    for e in range(-323, 309):
        d(float(f"1e{e}"))
    for e in range(-45, 39):
        f(float(f"1e{e}"))
    for k in range(1, 400):  # subnormals and the largest finite values
        out += [("d", k), ("f", k), ("d", 0x7FEFFFFFFFFFFFFF - k), ("f", 0x7F7FFFFF - k)]
    return out


def _mine(kind, bits, jdk):
    if kind == "d":
        return jn.java_number_str(struct.unpack("<d", struct.pack("<Q", bits))[0], is_float=False, jdk=jdk)
    return jn.java_number_str(struct.unpack("<f", struct.pack("<I", bits))[0], is_float=True, jdk=jdk)


def _jdks():
    """(major version, java binary) of the JDKs on this machine."""
    found = {}
    for java in [shutil.which("java")] + sorted(glob.glob("/usr/lib/jvm/*/bin/java")):
        if not java:
            continue
        try:
            out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30).stderr
        except (OSError, subprocess.TimeoutExpired):
            continue
        m = re.search(r'version "(\d+)', out)
        if m:
            found.setdefault(int(m.group(1)), java)
    return found


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    javac = shutil.which("javac")
    if not javac:
        pytest.skip("no javac")
    d = tmp_path_factory.mktemp("tostr")
    (d / "ToStr.java").write_text(JAVA_SRC)
    subprocess.run([javac, "--release", "17", "-d", str(d), str(d / "ToStr.java")], check=True, timeout=120)
    return d


@pytest.mark.slow
@pytest.mark.parametrize("era", ["17", "19+"])
def test_against_the_jvm(compiled, era):
    jdks = _jdks()
    pick = [(v, j) for v, j in sorted(jdks.items()) if (v < 19 if era == "17" else v >= 19)]
    if not pick:
        pytest.skip(f"no JDK {era} on this machine ({sorted(jdks)})")
    version, java = pick[0]
    vals = _values()
    text = "".join(f"{k} {b:x}\n" for k, b in vals)
    out = subprocess.run([java, "-cp", str(compiled), "ToStr"], input=text, capture_output=True, text=True,
                         check=True, timeout=300).stdout.split("\n")[:-1]
    assert len(out) == len(vals)
    bad = [(k, hex(b), o, _mine(k, b, version)) for (k, b), o in zip(vals, out) if o != _mine(k, b, version)]
    assert not bad, f"JDK {version}: {len(bad)}/{len(vals)} differ: {bad[:10]}"


# -- String -> number: Byte/Short/Integer/Long/Float/Double/Boolean.valueOf -------------------------

PARSE_SRC = r"""
import java.io.*;
public class Parse {
  public static void main(String[] a) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, "UTF-8")));
    String line;
    while ((line = r.readLine()) != null) {
      String k = line.substring(0, 1);
      String s = line.substring(2).replace("\\n", "\n").replace("\\t", "\t");
      String out;
      try {
        switch (k) {
          case "b": out = String.valueOf(Byte.valueOf(s)); break;
          case "s": out = String.valueOf(Short.valueOf(s)); break;
          case "i": out = String.valueOf(Integer.valueOf(s)); break;
          case "l": out = String.valueOf(Long.valueOf(s)); break;
          case "f": out = Integer.toHexString(Float.floatToRawIntBits(Float.valueOf(s))); break;
          case "d": out = Long.toHexString(Double.doubleToRawLongBits(Double.valueOf(s))); break;
          default: out = String.valueOf(Boolean.valueOf(s));
        }
      } catch (NumberFormatException e) { out = "NFE"; }
      w.println(out);
    }
    w.flush();
  }
}
"""
KINDS = {"b": "byte", "s": "short", "i": "int", "l": "long", "f": "float", "d": "double", "o": "boolean"}


def _strings(n=4000, seed=7):
    rng = random.Random(seed)
    alphabet = list("0123456789+-.eEpPxXfFdDaAbB \t") + ["١", "１", "\u0966", "NaN", "Infinity", "_", "\u00a0"]
    out = ["", "+", "-", "true", "TRUE", "tRuE", "yes", "1", " 1", "1 ", "127", "128", "-128", "-129", "32767", "32768",
           "2147483647", "2147483648", "-2147483648", "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "0" * 30 + "1", "1.", ".5", ".", "1e", "1e5", "1E-5", "0x1p3", "0x.8p1", "0x1.8p1d",
           "NaN", "-Infinity", "Infinityf", "inf", "1e999", "-1e-999", "3.4028235677973366e38", "1.4e-45", "7.006e-46",
           "7.0064923216240854e-46", "1.00000005960464477539062500000001", "\t7\n", "1_0", "١٢", "１２", "0x", "1.5f", "1.5D"]
    for _ in range(n):
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))))
        out.append(repr(rng.uniform(-1, 1) * 10 ** rng.randint(-50, 50)))
        out.append(str(rng.randint(-2**64, 2**64)))
        m = rng.getrandbits(25) | 1  # float midpoints and their neighbours
        e = rng.randint(-150, 100)
        from fractions import Fraction
        out.append(format(Fraction(m) * Fraction(2) ** e, "") if False else f"{m}e0" if e == 0 else
                   str(float(m * 2.0 ** e)) if abs(e) < 60 else f"{m}e0")
    return out


@pytest.fixture(scope="module")
def parse_compiled(tmp_path_factory):
    javac = shutil.which("javac")
    if not javac:
        pytest.skip("no javac")
    d = tmp_path_factory.mktemp("parse")
    (d / "Parse.java").write_text(PARSE_SRC)
    subprocess.run([javac, "--release", "17", "-d", str(d), str(d / "Parse.java")], check=True, timeout=120)
    return d


def _ours_parsed(kind, s):
    v = jn.java_value_of(s, KINDS[kind])
    if v is None:
        return "NFE"
    if kind == "f":
        return format(struct.unpack("<I", struct.pack("<f", v))[0], "x")
    if kind == "d":
        return format(struct.unpack("<Q", struct.pack("<d", v))[0], "x")
    if kind == "o":
        return "true" if v else "false"
    return str(v)


@pytest.mark.slow
def test_value_of_against_the_jvm(parse_compiled):
    java = _jdks().get(17) or shutil.which("java")
    strings = _strings()
    lines = [(k, s) for s in strings for k in KINDS if "\n" not in s.replace("\n", "")]
    text = "".join(f"{k} {s.replace(chr(10), chr(92) + 'n').replace(chr(9), chr(92) + 't')}\n" for k, s in lines)
    out = subprocess.run([java, "-cp", str(parse_compiled), "Parse"], input=text.encode("utf-8"), capture_output=True,
                         check=True, timeout=300).stdout.decode("utf-8").split("\n")[:-1]
    assert len(out) == len(lines)
    bad = [(k, s, o, _ours_parsed(k, s)) for (k, s), o in zip(lines, out)
           if o != _ours_parsed(k, s) and not (k in "fd" and o.startswith("7f") and _ours_parsed(k, s).startswith("7f")
                                               and "NaN" in s)]
    assert not bad, f"{len(bad)}/{len(lines)} differ: {bad[:10]}"
