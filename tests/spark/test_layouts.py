"""The named layouts where connectors land JMS messages (`language.layouts`): the Kafka Connect
JMS record value (typed properties) and Spark's Kafka source with JMS headers and properties as
UTF-8 record headers. Generated messages (every JMS property type, NULL values, missing
properties, NaN, repeated headers) judged by the reference interpreter, for the native SQL (ANSI
on and off) and the vectorized UDF, with the layout named and detected from the table's shape."""
from __future__ import annotations

import datetime
import random
import struct

import pytest

import jms_selector_spark as jss
from conftest import sql_conf
from jms_selector_spark import BindingOptionError, UnsupportedSelectorError
from jms_selector_spark.semantics import javanum as jn

pytestmark = pytest.mark.spark

P = ("STRUCT<propertyType: STRING, boolean: BOOLEAN, byte: TINYINT, short: SMALLINT, integer: INT, long: BIGINT, "
     "float: FLOAT, double: DOUBLE, string: STRING>")
DEST = "STRUCT<destinationType: STRING, name: STRING>"
CONNECT = (f"messageID STRING, messageType STRING, timestamp BIGINT, deliveryMode INT, correlationID STRING, "
           f"replyTo {DEST}, destination {DEST}, redelivered BOOLEAN, type STRING, expiration BIGINT, priority INT, "
           f"properties MAP<STRING, {P}>, bytes BINARY, map MAP<STRING, {P}>, text STRING")
KAFKA = ("key BINARY, value BINARY, topic STRING, partition INT, offset BIGINT, timestamp TIMESTAMP, timestampType INT, "
         "headers ARRAY<STRUCT<key: STRING, value: BINARY>>")
KINDS = {"boolean": "boolean", "byte": "byte", "short": "short", "integer": "int", "long": "long", "float": "float",
         "double": "double", "string": "string"}
VALUES = {
    "boolean": [True, False],
    "byte": [0, 5, -128, 127],
    "short": [5, -32768, 32767, 10],
    "integer": [5, 2147483647, -2147483648, 0, 4],
    "long": [5, 9223372036854775807, -9223372036854775808, 3000000000, 1],
    "float": [5.0, 1.5, float("nan"), -0.0, float("inf"), 0.1],
    "double": [5.0, 1.5, float("nan"), 0.0, -1e300, 0.1],
    "string": ["5", "blue", "", "bl%", "O'Brien"],
}
SELECTORS = ["a = 5", "a > 4", "a < 0", "a + 1 > 2147483647", "a * 2 = 10", "a BETWEEN 1 AND 10", "NOT (a > 4)",
             "a = b", "a > b", "a + b > 0", "a = 'blue'", "a IN ('blue', '5')", "a LIKE 'bl%'", "a IS NULL",
             "a IS NOT NULL", "s = 'blue' OR a > 0", "a", "NOT a", "a = TRUE", "a / 2 > 1", "-a < 0", "a <> a",
             "a = 1.5", "a = 0.1", "a > 1E300", "JMSPriority > 4 AND a IS NOT NULL", "JMSType = 'car'",
             "JMSDeliveryMode = 'PERSISTENT'", "JMSTimestamp BETWEEN 1000 AND 5000", "JMSMessageID LIKE 'ID:1%'",
             "JMSCorrelationID IS NULL", "missing IS NULL", "missing = 5 OR s IS NULL"]
DIALECTS = ["jms", "activemq"]


def _f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def _connect_messages(n=160):
    rnd = random.Random(36)
    rows, refs = [], []
    for i in range(n):
        props, ref, types = {}, {}, {}
        for name in ("a", "b", "s"):
            roll = rnd.random()
            if roll < 0.1:
                continue  # missing
            kind = rnd.choice(list(KINDS))
            value = None if roll < 0.18 else rnd.choice(VALUES[kind])
            entry = dict.fromkeys(KINDS)
            entry.update(propertyType=kind)
            entry[kind] = value
            props[name] = entry
            if value is not None:
                ref[name], types[name] = (_f32(value) if kind == "float" else value), KINDS[kind]
        mode = rnd.choice([1, 2, None])
        headers = {"JMSMessageID": f"ID:{i}", "JMSTimestamp": 1000 * (i % 7), "JMSType": rnd.choice(["car", "bus"]),
                   "JMSPriority": rnd.choice([0, 4, 9, None]), "JMSCorrelationID": rnd.choice(["c-1", None]),
                   "JMSDeliveryMode": {1: "NON_PERSISTENT", 2: "PERSISTENT"}.get(mode)}
        rows.append((f"ID:{i}", "text", headers["JMSTimestamp"], mode, headers["JMSCorrelationID"], None,
                     ("queue", "orders"), False, headers["JMSType"], 0, headers["JMSPriority"], props, None, None, "x"))
        refs.append(({k: v for k, v in headers.items() if v is not None}, ref, types))
    return rows, refs


DECLARED = {"qty": "long", "ratio": "double", "flag": "boolean"}
TEXTS = {"qty": ["5", "4", "-3", "abc", "", " 5", "9223372036854775807", "3000000000"],
         "ratio": ["1.5", "NaN", "-0.0", "1e3", "x", "0.1", "Infinity"],
         "flag": ["true", "TRUE", "false", "yes"], "color": ["blue", "", "5", "bl%"]}
HEADER_SELECTORS = ["qty > 4", "qty = 5", "qty BETWEEN 1 AND 10", "NOT (qty > 4)", "qty IS NULL", "ratio < 1.5",
                    "ratio = 0.1", "ratio * 2 = 3", "flag", "NOT flag", "flag = TRUE", "qty + ratio > 0",
                    "color = 'blue'", "color LIKE 'bl%'", "color IN ('5', 'blue')", "qty = '5'", "other IS NULL",
                    "JMSPriority > 4", "JMSType = 'car'", "JMSTimestamp = 2000", "JMSDeliveryMode = 'PERSISTENT'",
                    "JMSMessageID = 'ID:3'", "JMSPriority IS NULL AND qty > 0"]


def _kafka_messages(n=120):
    rnd = random.Random(37)
    rows, refs = [], []
    for i in range(n):
        record, props = [], {}
        for name, texts in TEXTS.items():
            roll = rnd.random()
            if roll < 0.15:
                continue  # missing
            if roll < 0.3:  # repeated: the last one counts (Kafka's lastHeader)
                record.append((name, b"abc"))
            text = rnd.choice(texts)
            value = None if roll > 0.93 else text.encode()
            record.append((name, value))
            if value is not None:
                props[name] = text
        headers = {"JMSMessageID": f"ID:{i}", "JMSType": rnd.choice(["car", "bus", None]),
                   "JMSPriority": rnd.choice(["7", "1", "x", None]), "JMSDeliveryMode": rnd.choice(["PERSISTENT", None])}
        record += [(k, v.encode()) for k, v in headers.items() if v is not None]
        rnd.shuffle(record)
        order = {}
        for k, v in record:  # the reference sees the last header of each key
            order[k] = v
        props = {k: order[k].decode() for k in TEXTS if order.get(k) is not None}
        stamp = 1000 * (i % 5)
        rows.append((None, b"body", "jms", 0, i, datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=stamp),
                     0, record))
        typed = {k: jn.java_value_of(v, DECLARED[k]) if k in DECLARED else v for k, v in props.items()}
        ref_headers = {"JMSTimestamp": stamp}
        for k in ("JMSMessageID", "JMSType", "JMSDeliveryMode"):
            if order.get(k) is not None:
                ref_headers[k] = order[k].decode()
        priority = jn.java_value_of(order["JMSPriority"].decode(), "int") if order.get("JMSPriority") else None
        if priority is not None:
            ref_headers["JMSPriority"] = priority
        refs.append((ref_headers, {k: v for k, v in typed.items() if v is not None},
                     {k: DECLARED.get(k, "string") for k, v in typed.items() if v is not None}))
    return rows, refs


def _expected(selector, ref, dialect):
    headers, props, types = ref
    return jss.evaluate(selector, headers, props, dialect=dialect, types=types)


CASES = {
    "kafka-connect-jms": (CONNECT, _connect_messages, SELECTORS, {}),
    "kafka-headers": (KAFKA, _kafka_messages, HEADER_SELECTORS, {"property_types": DECLARED}),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def layout(request, spark):
    ddl, make, selectors, options = CASES[request.param]
    rows, refs = make()
    df = spark.createDataFrame(rows, ddl)
    return request.param, df, refs, selectors, options


def _valid(selectors, dialect):
    out = []
    for s in selectors:
        try:
            jss.parse(s, dialect=dialect)
        except jss.SelectorError:
            continue
        out.append(s)
    return out


@pytest.mark.parametrize("dialect", DIALECTS)
def test_native_sql_agrees_with_the_reference_ansi_on_and_off(spark, layout, dialect):
    name, df, refs, selectors, options = layout
    selectors = _valid(selectors, dialect)
    exprs, native = [], []
    for s in selectors:
        try:
            named = jss.selector_to_sql(s, df.schema, dialect=dialect, layout=name, **options)
        except UnsupportedSelectorError:  # ActiveMQ's string + double: Java's formatting, in the UDF only
            continue
        assert jss.selector_to_sql(s, df.schema, dialect=dialect, **options) == named  # detected from the shape
        exprs.append(named)
        native.append(s)
    assert len(native) >= len(selectors) - 1
    indexed = df.selectExpr("*", "monotonically_increasing_id() AS __i")
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            got = indexed.selectExpr("__i", *[f"{e} AS r{k}" for k, e in enumerate(exprs)]).orderBy("__i").collect()
        bad = [(native[k], refs[i], r[f"r{k}"], _expected(native[k], refs[i], dialect))
               for i, r in enumerate(got) for k in range(len(native))
               if r[f"r{k}"] != _expected(native[k], refs[i], dialect)]
        assert not bad, f"{name} ansi={ansi}: {len(bad)} differ, e.g. {bad[:5]}"


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_vectorized_udf_agrees_with_the_reference(spark, layout, dialect):
    """``jms_match_3vl`` (every selector in one query: the selectors joined to the messages)
    binds each selector in the UDF to the Arrow row, where the layout is detected from its shape."""
    name, df, refs, selectors, options = layout
    selectors = _valid(selectors, dialect)
    fn = f"layout_match_{dialect}"
    jss.register(spark, dialect=dialect, name=fn, **options)
    indexed = df.selectExpr("*", "monotonically_increasing_id() AS __i")
    sels = spark.createDataFrame([(k, s) for k, s in enumerate(selectors)], "k int, selector string")
    msg = ", ".join(f"`{c}`" for c in df.columns)
    got = (indexed.crossJoin(sels).selectExpr("__i", "k", f"{fn}_3vl(selector, struct({msg})) AS r")
           .orderBy("__i", "k").collect())
    ids = sorted({r["__i"] for r in got})
    bad = [(selectors[r["k"]], refs[ids.index(r["__i"])], r["r"]) for r in got
           if r["r"] != _expected(selectors[r["k"]], refs[ids.index(r["__i"])], dialect)]
    assert not bad, f"{name}: {len(bad)} differ, e.g. {bad[:5]}"


def test_jms_filter_and_route_with_a_fallback_piece(spark, layout):
    """ActiveMQ's SPLIT has no native form: jms_filter and route evaluate it in the fallback UDF on
    the layout's values, the rest natively."""
    name, df, refs, selectors, options = layout
    prop = "s" if name == "kafka-connect-jms" else "color"
    sel = f"JMSType = 'car' AND INLIST(SPLIT({prop}, 'l'), 'b')"
    want = [i for i, ref in enumerate(refs) if _expected(sel, ref, "activemq") is True]
    key = "messageID" if name == "kafka-connect-jms" else "offset"
    ids = [r[key] for r in df.collect()]
    got = sorted(ids.index(r[key]) for r in jss.jms_filter(df, sel, dialect="activemq", **options).collect())
    assert got == want and want
    routed = jss.route(df, {"split": sel, "cars": "JMSType = 'car'"}, mode="topic", dialect="activemq", layout=name,
                       **options)
    got = sorted(ids.index(r[key]) for r in routed.where("subscription = 'split'").collect())
    assert got == want


def test_a_named_layout_the_table_does_not_have_is_an_option_error(spark):
    flat = spark.createDataFrame([("car", 1)], "JMSType string, weight long")
    with pytest.raises(BindingOptionError, match="layout='kafka-headers' reads a column 'headers'"):
        jss.jms_filter(flat, "weight > 0", layout="kafka-headers")
    with pytest.raises(BindingOptionError, match="kafka-connect-jms.*MAP<STRING"):
        jss.selector_to_sql("weight > 0", flat.schema, layout="kafka-connect-jms")
    with pytest.raises(BindingOptionError, match="the named layouts are"):
        jss.selector_to_sql("weight > 0", flat.schema, layout="kafka")
    with pytest.raises(UnsupportedSelectorError):  # no exact SQL: the fallback's (jms_filter, route)
        jss.selector_to_sql("a + b + s > 0", spark.createDataFrame([], CONNECT).schema)
