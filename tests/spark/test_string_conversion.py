"""Java's valueOf(String) in Spark SQL (`backends.sql.javanum`) equals `javanum.java_value_of`
on hostile and ordinary strings, with ANSI on and off: the one primitive behind ActiveMQ's
`convert_string_expressions:` and declared property types of MAP<STRING,STRING> layouts."""
from __future__ import annotations

import math
import random
import struct

import pytest

from conftest import sql_conf
from jms_selector_spark.backends.sql.javanum import java_value_of_sql
from jms_selector_spark.semantics import javanum as jn
from jms_selector_spark.language.types import JmsType

pytestmark = pytest.mark.spark

KINDS = [JmsType.BYTE, JmsType.SHORT, JmsType.INT, JmsType.LONG, JmsType.FLOAT, JmsType.DOUBLE, JmsType.BOOLEAN]
FIXED = ["", "+", "-", "1", "+1", "-1", " 1", "1 ", "\t1\n", "1.5", "1.", ".5", ".", "1e5", "1E-5", "1e", "0x1p3", "0x.8p1",
         "0x1.8p1d", "0x10", "NaN", "nan", "+NaN", "-Infinity", "Infinity", "inf", "-inf", "Infinityf", "1e999", "-1e-999",
         "3.4028235677973366e38", "3.4028236e38", "1.4e-45", "7.006e-46", "1.00000005960464477539062500000001",
         "1.000000059604644775390625", "1_0", "١٢", "１２", "٣.٥", "1.5f", "1.5D", "1.5F ", "127", "128", "-128", "-129",
         "32767", "32768", "2147483647", "2147483648", "-2147483648", "9223372036854775807", "9223372036854775808",
         "-9223372036854775808", "0" * 40 + "7", "true", "TRUE", "tRuE", "true ", "yes", "1\u00a0", "\u20081", "0x", "++1",
         "1e+5", "1e-5f", "0X1P-3", "1__", "٠", "𝟙"]


def _strings(n=600, seed=11):
    rng = random.Random(seed)
    alphabet = list("0123456789+-.eEpPxXfFdDaAbB \t") + ["١", "１", "NaN", "Infinity", "_", "\u00a0"]
    out = list(FIXED)
    for _ in range(n):
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))))
        out.append(repr(rng.uniform(-1, 1) * 10 ** rng.randint(-50, 50)))
        out.append(str(rng.randint(-2**64, 2**64)))
        m, e = rng.getrandbits(25) | 1, rng.randint(-60, 60)
        out.append(repr(m * 2.0 ** e))  # float32 midpoints: Float.parseFloat must not round twice
    return out


def _key(v, t):
    if v is None:
        return None
    if t is JmsType.FLOAT:
        return "nan" if math.isnan(v) else struct.pack("<f", v).hex()
    if t is JmsType.DOUBLE:
        return "nan" if math.isnan(v) else struct.pack("<d", v).hex()
    return v


def test_value_of_matches_java_under_ansi_on_and_off(spark):
    strings = _strings()
    df = spark.createDataFrame([(s,) for s in strings] + [(None,)], "s string")
    exprs = [f"{java_value_of_sql('s', t)} AS c{i}" for i, t in enumerate(KINDS)]
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            rows = df.selectExpr("s", *exprs).collect()
        bad = []
        for row in rows:
            for i, t in enumerate(KINDS):
                want = None if row["s"] is None else jn.java_value_of(row["s"], t.value)
                if _key(row[f"c{i}"], t) != _key(want, t):
                    bad.append((row["s"], t.value, row[f"c{i}"], want))
        assert not bad, f"ansi={ansi}: {len(bad)} differ, e.g. {bad[:8]}"
