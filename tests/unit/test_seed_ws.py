"""The ``wso2`` and ``solace`` dialects (issue 13) without Spark: the data model, the front end, and
the conformance corpus ``seed-ws.jsonl`` plus a generated differential through the vectorized
evaluator, each selector bound to an Arrow table as `jms_filter` binds it (so header rules,
aliases and defaults go through the binder, as in production).

The Spark SQL back end runs the same corpus in tests/spark/test_seed_ws_spark.py.
"""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import pyarrow as pa
import pytest

import jms_selector_spark as jss
from jms_selector_spark import evaluate, parse
from jms_selector_spark.backends.arrow.columns import ARROW_TYPES, extract_columns
from jms_selector_spark.binder import to_schema
from jms_selector_spark.backends.arrow.evaluator import evaluate_batch
from jms_selector_spark.binder import Binding, bind, check_options
from jms_selector_spark.language.errors import BindingOptionError, SelectorBindingError, SelectorSyntaxError
from jms_selector_spark.language.nodes import CompareOp
from jms_selector_spark.language.source import Span
from jms_selector_spark.language.dialects import DIALECTS, HEADER_TYPES, SOLACE, WSO2
from jms_selector_spark.semantics.lowering import HeaderRule, Logic, NullEquality, rules_for
from jms_selector_spark.language.types import JmsType
from oracle import decode_value

CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "seed-ws.jsonl"
MINE = ("wso2", "solace")


def corpus():
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- the data model and the decisions -------------------------------------------------------------

def test_the_dialects_are_built_in_and_pickle():
    for name in MINE:
        d = DIALECTS[name]
        assert jss.get_dialect(name) is d and pickle.loads(pickle.dumps(d)) == d
        mine = d.derive(name=f"{name}-copy")
        assert pickle.loads(pickle.dumps(mine)) == mine


def test_solace_aliases_and_alias_only_headers():
    h = SOLACE.header_for
    assert [h(a) for a in ("ci", "mi", "mt", "rt", "ts")] == [
        "JMSCorrelationID", "JMSMessageID", "JMSType", "JMSReplyTo", "JMSTimestamp"]
    assert [h(a) for a in ("si", "sn", "ex", "ct", "ce")] == [
        "SenderID", "SequenceNo", "Expiration", "HttpContentType", "HttpContentEncoding"]
    # the bare Solace-only names, upper-case aliases and JMSX names stay properties
    assert [h(a) for a in ("SequenceNo", "SenderID", "CI", "JMSXUserID", "JMSExpiration")] == [None] * 5
    assert h("JMSReplyTo") == "JMSReplyTo" and h("JMSCorrelationID") == "JMSCorrelationID"
    assert WSO2.header_for("AMQMessageID") == "JMSMessageID" and WSO2.header_for("sn") is None
    assert {HEADER_TYPES[x] for x in ("SenderID", "HttpContentType", "HttpContentEncoding", "JMSReplyTo")} == {JmsType.STRING}
    assert HEADER_TYPES["SequenceNo"] is HEADER_TYPES["Expiration"] is JmsType.LONG


def test_rules_decide_logic_null_equality_and_headers():
    w, s, a = rules_for(WSO2), rules_for(SOLACE), rules_for(DIALECTS["activemq"])
    assert w.and_or is Logic.LEFT_FIRST and s.and_or is a.and_or is Logic.KLEENE
    assert w.eq_nulls(CompareOp.EQ) == NullEquality(False, False, True)
    assert a.eq_nulls(CompareOp.EQ) == NullEquality(None, False, True) and s.eq_nulls(CompareOp.EQ) is None
    assert w.eq_nulls(CompareOp.NE) is None
    assert w.header("JMSDestination") == HeaderRule(True, None) and w.header("JMSRedelivered") == HeaderRule(True, False)
    assert w.header("JMSTimestamp") == HeaderRule(False, 0) and w.header("JMSExpiration") == HeaderRule(False, 0)
    assert w.header("JMSType") == HeaderRule(False, None) and s.header("JMSTimestamp") == HeaderRule(False, None)


def test_header_columns_bind_per_dialect():
    schema = {"JMSTimestamp": "long", "JMSRedelivered": "boolean", "JMSDestination": "string", "SequenceNo": "long",
              "seq": "long", "color": "string"}
    w = bind(parse("JMSTimestamp > 0 AND JMSRedelivered AND JMSDestination = 'q' AND JMSExpiration = 0", dialect="wso2"),
             schema)
    assert w.refs["JMSTimestamp"].default == 0 and w.refs["JMSTimestamp"].path == ("JMSTimestamp",)
    assert (w.refs["JMSRedelivered"].access, w.refs["JMSRedelivered"].default) == ("missing", False)  # fixed FALSE
    assert (w.refs["JMSDestination"].access, w.refs["JMSDestination"].type) == ("missing", JmsType.NULL)
    assert (w.refs["JMSExpiration"].access, w.refs["JMSExpiration"].default) == ("missing", 0)  # no column: 0
    s = bind(parse("sn = 1 AND SequenceNo = 2 AND ex = 3", dialect="solace"), schema)
    assert s.refs["sn"].path == ("SequenceNo",) and s.refs["sn"].header
    # a column holding a header is not a property, in any dialect; headers= moves the header away
    assert s.refs["SequenceNo"].access == "missing" and not s.refs["SequenceNo"].header
    assert s.refs["ex"].access == "missing" and s.refs["ex"].header
    moved = bind(parse("sn = 1 AND SequenceNo = 2", dialect="solace"), schema, Binding.of(headers={"SequenceNo": "seq"}))
    assert moved.refs["sn"].path == ("seq",) and moved.refs["SequenceNo"].path == ("SequenceNo",)
    check_options(schema, Binding.of(headers={"SenderID": "color"}))
    with pytest.raises(BindingOptionError):
        check_options(schema, Binding.of(headers={"SenderId": "color"}))


def test_a_header_column_of_the_wrong_type_is_refused():
    with pytest.raises(SelectorBindingError, match="JMSRedelivered needs a boolean column"):
        bind(parse("JMSRedelivered", dialect="activemq"), {"JMSRedelivered": "string"})
    with pytest.raises(SelectorBindingError, match="SequenceNo needs a long column"):
        bind(parse("sn = 1", dialect="solace"), {"SequenceNo": "string"})


def test_solace_length_is_counted_in_utf8_bytes():
    text = "s = '" + "é" * 997 + "'"
    assert len(text.encode()) == 2000 and parse(text, dialect="solace").root is not None
    for over in (text + " ", "s = '" + "é" * 998 + "'"):
        with pytest.raises(SelectorSyntaxError, match="solace limit of 2,000 bytes"):
            parse(over, dialect="solace")
    parse(text + " ", dialect="jms")  # other dialects: no such limit


def test_wso2_trailing_text_is_reported_and_printing_round_trips():
    sel = parse("ShortMsgID=32,767", dialect="wso2")
    assert sel.ignored == Span(13, 17) and sel.canonical() == "ShortMsgID = 32"
    assert parse("a = 1", dialect="wso2").ignored is None
    for text in ['"a-b" = 1 AND "AND" = 2', '"x""y" IS NULL', '"" = 1']:
        sel = parse(text, dialect="wso2")
        assert parse(sel.canonical(), dialect="wso2").root == sel.root
    with pytest.raises(SelectorSyntaxError, match="blanks only"):
        parse(" \t", dialect="wso2")
    assert parse("", dialect="wso2").root is None and evaluate(" \t", dialect="solace") is True


# -- the corpus through the vectorized evaluator, bound like jms_filter binds ----------------------

def _arrow(value, t: JmsType):
    return pa.array([value], ARROW_TYPES[t])


def _table(case: dict, layout: str, header_columns: str) -> "pa.StructArray | None":
    """One message as a one-row struct array: headers as columns (``all``: every header column,
    NULL where unset; ``given``: only the headers the message has), properties flat or in a
    ``properties`` struct."""
    msg = case["message"]
    heads = msg.get("headers") or {}
    names = HEADER_TYPES if header_columns == "all" else [h for h in HEADER_TYPES if h in heads]
    arrays, fields = [], []
    for h in names:
        arrays.append(_arrow(heads.get(h), HEADER_TYPES[h]))
        fields.append(h)
    props = {k: (JmsType.parse(p["type"]), decode_value(p)) for k, p in msg.get("properties", {}).items()}
    if layout == "flat":
        if set(props) & set(HEADER_TYPES):
            return None  # a flat table cannot hold a property named like a header column
        for k, (t, v) in props.items():
            arrays.append(_arrow(v, t))
            fields.append(k)
    else:
        sub = [_arrow(v, t) for t, v in props.values()]
        arrays.append(pa.StructArray.from_arrays(sub, list(props)) if sub else
                      pa.array([{}], pa.struct([])))
        fields.append("properties")
    return pa.StructArray.from_arrays(arrays, fields) if arrays else pa.array([{}], pa.struct([]))


def _vectorized(selector, table):
    bound = bind(selector, to_schema(table.type), Binding.of(unknown_properties="null"))
    return evaluate_batch(selector, extract_columns(bound.refs, table), len(table)).to_pylist()


@pytest.mark.parametrize("dialect", MINE)
@pytest.mark.parametrize("layout", ["flat", "struct"])
@pytest.mark.parametrize("header_columns", ["all", "given"])
def test_corpus_through_the_vectorized_evaluator(dialect, layout, header_columns):
    bad, checked = [], 0
    for case in corpus():
        try:
            sel = parse(case["selector"], dialect=dialect)
        except jss.SelectorError:
            got = "invalid"
        else:
            table = _table(case, layout, header_columns)
            if table is None:
                continue
            got = _vectorized(sel, table)[0]
        checked += 1
        if got != case[dialect]:
            bad.append(f"{case['id']}: {case['selector']!r} expected {case[dialect]!r}, got {got!r}")
    assert checked >= 80
    assert not bad, "\n".join(bad)


# -- generated differential: reference vs vectorized, selectors naming headers and aliases -----------

def _gen_table(rows):
    from gen import NAMES

    heads = [pa.array([r["headers"].get(h) for r in rows], ARROW_TYPES[t]) for h, t in HEADER_TYPES.items()]
    # one type per property in this batch: the rows' values of another type are dropped
    kinds = {}
    for r in rows:
        for k, t in r["types"].items():
            kinds.setdefault(k, t)
    for r in rows:
        for k in list(r["props"]):
            if r["types"][k] != kinds[k]:
                del r["props"][k], r["types"][k]
    props = [pa.array([r["props"].get(k) for r in rows], ARROW_TYPES[JmsType.parse(kinds[k])]) for k in NAMES if k in kinds]
    struct = pa.StructArray.from_arrays(props, [k for k in NAMES if k in kinds]) if props else pa.array([{}] * len(rows), pa.struct([]))
    return pa.StructArray.from_arrays(heads + [struct], list(HEADER_TYPES) + ["properties"])


@pytest.mark.parametrize("dialect", MINE)
def test_generated_differential_reference_vs_vectorized(dialect):
    from gen import CaseGenerator

    gen = CaseGenerator(13013, dialect, headers=True)
    rows = []
    for _ in range(60):
        headers, props, types = gen.message()
        rows.append({"headers": headers, "props": props, "types": types})
    table = _gen_table(rows)
    bad, checked, selectors = [], 0, 0
    for _ in range(400):
        try:
            sel = parse(gen.selector(), dialect=dialect)
        except jss.SelectorError:
            continue
        selectors += 1
        got = _vectorized(sel, table)
        for r, g in zip(rows, got):
            want = evaluate(sel, r["headers"], r["props"], types=r["types"])
            checked += 1
            if g is not want:
                bad.append(f"{sel.text!r} {r}: vectorized {g}, reference {want}")
    assert selectors > 250 and checked > 15_000
    assert not bad, f"{len(bad)}/{checked}:\n" + "\n".join(bad[:10])


# -- lint for the target brokers ---------------------------------------------------------------------

def _codes(text, dialect, **kw):
    return [(w.code, text[w.span.start:w.span.end]) for w in jss.lint(text, dialect, **kw)]


def test_lint_wso2():
    assert _codes("ShortMsgID=32,767", "wso2") == [("ignored-text", ",767")]
    assert ("fixed-header", "JMSDestination") in _codes("JMSDestination = 'q'", "wso2")
    assert _codes("JMSRedelivered = FALSE", "wso2") == [("fixed-header", "JMSRedelivered")]
    assert _codes("color <> 'red'", "wso2") == [("ne-missing", "color <> 'red'")]
    assert _codes("'red' <> color", "wso2") == [("ne-missing", "'red' <> color")]
    assert _codes("JMSPriority > 4", "wso2") == [("not-filtered", "JMSPriority")]
    assert _codes("NOT (a > 1 OR FALSE)", "wso2") == [("non-kleene", "a > 1 OR FALSE")]
    assert _codes("a > 1 OR FALSE", "wso2") == []  # the whole selector: TRUE exactly when Kleene's is
    assert _codes("NOT (FALSE OR a > 1)", "wso2") == []  # only the last operand can be UNKNOWN
    # with a schema: the property the table lacks is named
    w = jss.lint("color <> 'red'", "wso2", schema={"x": "long"})
    assert [x.code for x in w] == ["missing-property", "ne-missing"] and "the table has no 'color'" in w[1].message
    # the same selectors in the dialects whose rules differ: no such warning
    for text in ("ShortMsgID = 32", "color <> 'red'", "NOT (a > 1 OR FALSE)", "JMSRedelivered = FALSE"):
        assert _codes(text, "activemq") == []


def test_lint_solace():
    assert _codes("sn = 5 AND SequenceNo = 6", "solace") == [("alias", "sn")]
    text = "s = '" + "x" * 1850 + "'"
    assert _codes(text, "solace") == [("broker-length", text)] and _codes(text, "jms") == []
    assert _codes("JMSReplyTo = 'q'", "solace") == []
