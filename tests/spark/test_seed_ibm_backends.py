"""The `ibmmq` and `mqe` dialects (issue #13) through every back end, against the reference.

- the corpus ``tests/conformance/seed-ibm.jsonl`` (every rule of docs/dialects/ibm-mq.md, three-valued):
  the reference interpreter runs it in tests/conformance/test_conformance.py; here the native
  Spark SQL (flat and struct layouts, and MAP<STRING, STRING> with the values as text; ANSI on and
  off) and the vectorized evaluator (`match_batch`
  over Arrow structs, flat and struct) must give the checked-in verdict;
- a generated differential per dialect (`gen.CaseGenerator`, which writes MQe's subset and IBM
  MQ's literals and zero ids): reference vs native SQL vs vectorized on the same rows;
- MQe's data model: JMSDeliveryMode stored as an INT column, JMSPriority as a BIGINT.
"""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest

import jms_selector_spark as jss
from jms_selector_spark.translate import selector_to_sql
from jms_selector_spark.backends.udf import match_batch
from jms_selector_spark.language.errors import UnsupportedSelectorError

from conftest import sql_conf
from corpus_rows import message_case
from test_sql_backend import HEADER_TYPES, _case_schema, _rename, _run_batched

pytestmark = pytest.mark.spark

DIALECTS = ("ibmmq", "mqe")
CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "seed-ibm.jsonl"
ARROW = {"boolean": pa.bool_(), "byte": pa.int8(), "short": pa.int16(), "int": pa.int32(), "long": pa.int64(),
         "float": pa.float32(), "double": pa.float64(), "string": pa.string()}


def _corpus(dialect):
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        if dialect not in c or c[dialect] == "invalid":
            continue
        out.append((message_case(c["message"]), c["selector"], c[dialect], c["id"]))
    return out


def _message_struct(case, layout):
    """One message as a one-row Arrow struct in the data model (headers typed as `HEADER_TYPES`)."""
    fields, arrays = [], []
    for h, t in HEADER_TYPES.items():
        fields.append(h)
        arrays.append(pa.array([case["headers"].get(h)], ARROW[t]))
    props = [(k, pa.array([case["props"][k]], ARROW[t])) for k, t in case["types"].items()]
    if layout == "struct":
        fields.append("properties")
        arrays.append(pa.StructArray.from_arrays([a for _, a in props], [k for k, _ in props])
                      if props else pa.array([{}], pa.struct([])))
    else:
        fields += [k for k, _ in props]
        arrays += [a for _, a in props]
    return pa.StructArray.from_arrays(arrays, fields)


def _vectorized(selector, case, dialect, layout):
    got = match_batch(pa.array([selector]), _message_struct(case, layout), jss.get_dialect(dialect),
                      three_valued=True)
    return got.to_pylist()[0]


def _sql_cases(items, dialect, layout):
    cases, unsupported = [], []
    for case, selector, want, cid in items:
        schema = _case_schema(case["types"], layout, case["headers"])
        try:
            frag = selector_to_sql(selector, schema, dialect=dialect)
        except UnsupportedSelectorError:
            unsupported.append(cid)
            continue
        cases.append((case, _rename(frag, case["types"], layout), want))
    return cases, unsupported


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("layout", ["flat", "struct"])
def test_corpus_through_native_sql_and_vectorized(spark, dialect, layout):
    items = _corpus(dialect)
    assert len(items) > 100, len(items)
    bad = [(cid, sel, want, got) for case, sel, want, cid in items
           if (got := _vectorized(sel, case, dialect, layout)) != want]
    assert not bad, f"vectorized {layout}: {len(bad)}/{len(items)} differ:\n" + "\n".join(map(repr, bad[:20]))
    cases, unsupported = _sql_cases(items, dialect, layout)
    assert not unsupported, unsupported  # every ibmmq/mqe rule has an exact Spark form
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi, "spark.sql.caseSensitive": "true"}):
            got = _run_batched(spark, cases, layout)
        bad = [(c["headers"], frag, w, g) for (c, frag, w), g in zip(cases, got) if g != w]
        assert not bad, f"sql ansi={ansi}: {len(bad)}/{len(cases)} differ:\n" + "\n".join(map(repr, bad[:20]))
    print(f"\n{dialect} {layout}: {len(items)}/{len(items)} vectorized, {len(cases)}/{len(cases)} native SQL"
          " (ANSI on and off) agree with the corpus")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_generated_differential(spark, dialect):
    from gen import CaseGenerator

    g = CaseGenerator(1313, dialect)
    items, invalid = [], 0
    for i in range(700):
        c = g.case(i)
        try:
            want = jss.evaluate(c["selector"], c["headers"], c["props"], dialect=dialect, types=c["types"])
        except jss.SelectorError:
            invalid += 1
            continue
        items.append((c, c["selector"], want, c["id"]))
    bad = [(sel, want, got) for c, sel, want, _ in items if (got := _vectorized(sel, c, dialect, "flat")) != want]
    assert not bad, f"vectorized: {len(bad)}/{len(items)} differ:\n" + "\n".join(map(repr, bad[:10]))
    cases, unsupported = _sql_cases(items, dialect, "flat")
    for ansi in ("true", "false"):
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            got = _run_batched(spark, cases, "flat")
        bad = [(c["selector"], c["props"], w, g_) for (c, _, w), g_ in zip(cases, got) if g_ != w]
        assert not bad, f"sql ansi={ansi}: {len(bad)}/{len(cases)} differ:\n" + "\n".join(map(repr, bad[:10]))
    assert len(items) > 500 and len(unsupported) < len(items) // 10, (len(items), unsupported)
    print(f"\n{dialect}: {len(items)} valid generated cases ({invalid} invalid): vectorized {len(items)}/{len(items)},"
          f" native SQL {len(cases)}/{len(cases)} under ANSI on and off ({len(unsupported)} left to the fallback)")


def test_mqe_int_delivery_mode_and_bigint_priority(spark):
    """MQe's headers from an INT JMSDeliveryMode (2/1) and a BIGINT JMSPriority column."""
    from pyspark.sql import types as st

    schema = st.StructType([st.StructField("JMSDeliveryMode", st.IntegerType()),
                            st.StructField("JMSPriority", st.LongType()), st.StructField("qty", st.IntegerType())])
    rows = [(2, 4, 5), (1, 9, None), (None, None, 5), (3, 4, 5)]
    df = spark.createDataFrame(rows, schema)
    sels = ["JMSDeliveryMode = 2", "JMSDeliveryMode = 1", "JMSDeliveryMode = 'PERSISTENT'", "JMSPriority = 4",
            "JMSPriority = 4.0", "JMSDeliveryMode IS NULL AND qty IS NULL", "qty = 5"]
    arrow = pa.StructArray.from_arrays([pa.array([r[i] for r in rows], t) for i, t in
                                        enumerate((pa.int32(), pa.int64(), pa.int32()))],
                                       ["JMSDeliveryMode", "JMSPriority", "qty"])
    for sel in sels:
        want = [jss.evaluate(sel, {"JMSDeliveryMode": m if m in (1, 2) else None, "JMSPriority": p}, {"qty": q},
                             dialect="mqe", types={"qty": "int"}) if m != 3 else None for m, p, q in rows]
        frag = selector_to_sql(sel, schema, dialect="mqe")
        for ansi in ("true", "false"):
            with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
                got = [r[0] for r in df.selectExpr(frag).collect()]
            assert got[:3] == want[:3], (sel, ansi, got, want)
        vec = match_batch(pa.array([sel] * len(rows)), arrow, jss.get_dialect("mqe"), three_valued=True).to_pylist()
        assert vec == got, (sel, vec, got)
    # the literal types the header's type: TRUE on the persistent row, FALSE for a JMS string
    assert [r[0] for r in df.selectExpr(selector_to_sql("JMSDeliveryMode = 2", schema, dialect="mqe")).collect()][:2] \
        == [True, False]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_corpus_in_the_map_layout(spark, dialect):
    """MAP<STRING, STRING> properties: every corpus selector valid in the dialect on every corpus
    message, its property values held as text, native SQL against `evaluate` (ANSI on and off)."""
    from test_seed_ws_spark import _check, _frame

    def text(v):  # a MAP<STRING, STRING> holds strings: each corpus value as its text
        return None if v is None else ("true" if v else "false") if isinstance(v, bool) else str(v)

    messages, kinds, seen = [], {}, set()
    for case, _, _, _ in _corpus(dialect):
        props = {k: text(v) for k, v in case["props"].items()}
        key = json.dumps([case["headers"], props], sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            kinds.update(dict.fromkeys(props, "string"))
            messages.append((case["headers"], props, dict.fromkeys(props, "string")))
    selectors = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        try:
            sel = jss.parse(json.loads(line)["selector"], dialect=dialect)
            selector_to_sql(sel, _frame(spark, "map", messages[:1], kinds).schema, unknown_properties="null")
        except jss.SelectorError:
            continue  # invalid here (or not native: every ibmmq/mqe rule is, see above)
        selectors.append(sel)
    assert len(messages) >= 3 and len(selectors) >= 200, (len(messages), len(selectors))  # few messages, many selectors
    df = _frame(spark, "map", messages, kinds)
    bad, checked = _check(spark, df, messages, selectors, dialect)
    assert checked == 2 * len(selectors) * len(messages)
    assert not bad, f"{len(bad)}/{checked}:\n" + "\n".join(bad[:10])
    print(f"\n{dialect} map: {len(selectors)} selectors x {len(messages)} messages, native SQL = reference"
          f" under ANSI on and off ({checked} values)")
