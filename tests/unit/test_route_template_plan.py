"""Templates (no Spark): which literals the SQL back end marks as slots, the shapes and plans built
from them, access predicates, implied conjuncts — all read from data, never from SQL text."""
from __future__ import annotations

import pytest

from jms_selector_spark.compiler import compile_selector
from jms_selector_spark.language.dialects import get_dialect
from jms_selector_spark.language.schema import to_schema
from jms_selector_spark.binder import Binding
from jms_selector_spark.spark.routing.access import access_predicates
from jms_selector_spark.spark.routing.estate import plan_estate
from jms_selector_spark.spark.routing.subscriptions import Subscription
from jms_selector_spark.spark.routing.templates import plan_templates, shape_of
from jms_selector_spark.spark.routing.tuning import RoutingTuning

SCHEMA = {"JMSType": "string", "weight": "long", "price": "double", "qty": "int", "code": "string"}
SMALL = RoutingTuning(min_templated=2)


def _shape(selector, schema=SCHEMA, dialect="jms"):
    return shape_of(compile_selector(selector, schema, dialect=dialect).fragment)


def test_literals_become_typed_parameters():
    a, b = _shape("JMSType = 'car' AND weight > 2500"), _shape("JMSType = 'bus' AND weight > 100")
    assert a.key == b.key and a.types == ("STRING", "INT") and (a.values, b.values) == (("car", 2500), ("bus", 100))
    big = _shape("JMSType = 'car' AND weight > 3000000000")
    assert big.types == ("STRING", "BIGINT") and big.values[1] == 3000000000 and big.key != a.key
    d = _shape("JMSType IN ('a', 'b') AND price >= 1.5E10")
    assert d.types == ("STRING", "STRING", "DOUBLE") and d.values == ("a", "b", 1.5e10)
    assert _shape("JMSType IN ('a', 'b', 'c')").key != _shape("JMSType IN ('a', 'b')").key
    assert _shape("weight > -5").key == _shape("weight > -6").key  # a negative literal is a value too
    assert _shape("price > 5").types == ("DOUBLE",)  # compared as a double: the slot is the double literal


def test_literals_spark_needs_as_they_are_stay_in_the_template():
    like = _shape("code LIKE 'p%' AND JMSType = 'x'")
    assert like.types == ("STRING",) and like.values == ("x",)  # the pattern stays
    assert _shape("code LIKE 'q%' AND JMSType = 'x'").key != like.key
    mode = _shape("JMSDeliveryMode = 'PERSISTENT'", {"JMSDeliveryMode": "int"})  # the CASE of the int column stays
    assert mode.values == ("PERSISTENT",) and "WHEN 2 THEN 'PERSISTENT'" in mode.pieces[0]
    from pyspark.sql import types as st

    props = st.StructType([st.StructField("properties", st.MapType(st.StringType(), st.LongType()))])
    assert _shape("k = 5", props).values == (5,)  # the map key stays text, the compared literal is a slot
    dec = _shape("weight * 3 > 7 AND code = 'A'")  # a long product wraps through DECIMAL: no numeric slot
    assert dec.values == ("A",)
    nan = compile_selector("price > 0.0 / 0.0", SCHEMA, dialect="activemq").fragment  # NaN is written as a cast
    assert all(s.type != "DOUBLE" or s.value == s.value for s in nan.slots)
    lam = _shape("(a = b) = (a = c)", {"a": "long", "b": "long", "c": "long"}, "activemq")
    assert lam is None or "->" not in "".join(p for p in lam.pieces if isinstance(p, str))


def test_a_shape_writes_back_the_fragment():
    compiled = compile_selector("JMSType = 'O''Brien' AND qty * 3 > 7 AND price < 2.5", SCHEMA)
    shape = shape_of(compiled.fragment)
    out = "".join(p if isinstance(p, str) else shape.literals[p] for p in shape.pieces)
    assert out == compiled.sql() and shape.values == ("O'Brien", 3, 7, 2.5)


def test_fragment_conjuncts_and_bounds_are_data():
    compiled = compile_selector("JMSType = 'car' AND (weight > 5 OR qty IS NULL) AND price BETWEEN 1.5 AND 2.5",
                                SCHEMA)
    f = compiled.fragment
    assert [f.text[a:b] for a, b in f.conjuncts] == [
        "`JMSType` = decode(X'636172', 'UTF-8')", "(`weight` > 5 OR `qty` IS NULL)",
        "((`price` >= 1.5D AND `price` <= 2.5D) AND `price` IS NOT NULL)"]
    assert [[(c, v, op) for c, v, op, _ in atoms] for atoms in f.atoms] == [
        [], [], [("price", "`price`", ">="), ("price", "`price`", "<=")]]
    assert [f.slots[s].value for _, _, _, s in f.atoms[2]] == [1.5, 2.5]
    assert [(u.column, [f.slots[i].value for i in u.slots]) for u in f.columns] == [("JMSType", ["car"])]
    single = compile_selector("(JMSType = 'a' OR JMSType = 'b')", SCHEMA).fragment
    assert single.conjuncts == ((0, len(single.text)),)  # not an AND: one conjunct, the whole


def _plan(selectors, schema, tuning=SMALL):
    subs = [Subscription(f"s{i}", s) for i, s in enumerate(selectors)]
    native, fallback, errors = plan_estate(subs, to_schema(schema), get_dialect("jms"), Binding())
    assert not fallback and not errors
    strings = {k for k, v in schema.items() if v == "string"}
    return plan_templates(native, strings, tuning)


def test_implied_conjuncts_are_written_true():
    schema = {"JMSType": "string", "region": "string", "weight": "long", "n": "int"}
    tp = _plan([f"JMSType = '{t}' AND weight > {w}" for t, w in [("car", 1), ("bus", 2), ("car", 3)]]
               + [f"region IN ('{r}', 'x') AND JMSType = 'car'" for r in ("EU", "US")], schema)
    assert len(tp.names) == 5
    for a in tp.accesses:
        for t in a.templates:
            body = t.lambda_sql(lambda j: f"c.p{j}")
            assert "TRUE" in body  # the access conjunct is implied by the index
            if "weight" in body:
                assert "`weight` > c.p" in body and not t.trivial


def test_a_conjunct_is_implied_only_if_every_key_is_among_its_values():
    schema = {"JMSType": "string", "region": "string"}
    # indexed on region (fewer values named); JMSType IN (...) is not implied by the region key
    tp = _plan([f"JMSType IN ('a', 'b', 'c') AND region = '{r}'" for r in ("EU", "US", "APAC")], schema)
    (a,) = tp.accesses
    (t,) = a.templates
    assert a.value_sqls == ("`region`",) and t.implied == {1}
    assert "`JMSType` IN" in t.lambda_sql(lambda j: f"c.p{j}")


def test_duplicates_share_one_compiled_and_one_template():
    schema = {"JMSType": "string", "weight": "long"}
    sels = [f"JMSType = '{t}' AND weight > {w}" for t, w in [("car", 1), ("bus", 2), ("car", 1), ("car", 1), ("bus", 2)]]
    subs = [Subscription(f"s{i}", s) for i, s in enumerate(sels)]
    native, _, _ = plan_estate(subs, to_schema(schema), get_dialect("jms"), Binding())
    assert len({id(c) for _, c in native}) == 2  # 5 subscriptions, 2 distinct selectors compiled
    tp = plan_templates(native, {"JMSType"}, SMALL)
    (a,) = tp.accesses
    (t,) = a.templates
    assert t.members == ("s0", "s1", "s2", "s3", "s4")
    assert [t.values_of(nm) for nm in t.members] == [("car", 1), ("bus", 2), ("car", 1), ("car", 1), ("bus", 2)]
    assert {nm: t.keys[nm] for nm in t.members} == {"s0": (("car",),), "s1": (("bus",),), "s2": (("car",),),
                                                     "s3": (("car",),), "s4": (("bus",),)}


def test_a_schema_hashes_as_its_fields_once():
    import pickle

    from jms_selector_spark.language.schema import Schema

    a, b = to_schema({"x": "long", "s": "string"}), to_schema({"x": "long", "s": "string"})
    assert a is not b and a == b and hash(a) == hash(b) == hash(Schema(a.fields))
    assert hash(to_schema({"x": "int", "s": "string"})) != hash(a)  # the types are part of it
    c = pickle.loads(pickle.dumps(a))
    assert c == a and hash(c) == hash(a) and {a: 1}[c] == 1


@pytest.mark.parametrize("pattern, prefix, exact", [
    ("ORD-!!_%x%", None, None), ("ab!%c%", "ab%c", True), ("%x", None, None), ("abc", "abc", False)])
def test_like_prefix_access_predicates(pattern, prefix, exact):
    sel = f"code LIKE '{pattern}' ESCAPE '!'" if "!" in pattern else f"code LIKE '{pattern}'"
    got = [(p.values[0], p.exact) for p in access_predicates(compile_selector(sel, SCHEMA)) if p.prefix]
    if pattern == "ORD-!!_%x%":  # 'ORD-!' then a wildcard: the prefix stops there
        assert got == [("ORD-!", False)]
    else:
        assert got == ([] if prefix is None else [(prefix, exact)])


def test_a_like_prefix_indexes_a_template_without_an_equality():
    schema = {"corr": "string", "JMSType": "string", "n": "int"}
    sels = ["corr LIKE 'ORD-1%'", "corr LIKE 'ORD-1%'", "corr LIKE 'Zoë%'", "corr LIKE 'Zoë%'",
            "corr LIKE 'ORD-1_%' AND n > 1", "corr LIKE 'ORD-1_%' AND n > 2", "corr LIKE '%1'", "corr LIKE '%1'",
            "corr LIKE 'ab!%%' ESCAPE '!' AND n = 3", "corr LIKE 'ab!%%' ESCAPE '!' AND n = 4",
            "corr LIKE 'OR%' AND JMSType = 'a'", "corr LIKE 'OR%' AND JMSType = 'b'"]
    tp = _plan(sels, schema)
    by = {t.members[0]: (a, t) for a in tp.accesses for t in a.templates}
    assert {s.name for s, _ in tp.rest} == {"s6", "s7"}  # '%1': no literal prefix
    a, t = by["s0"]
    assert a.value_sqls == ("substring(`corr`, 1, 5)",) and t.trivial  # the index implies LIKE 'ORD-1%'
    a, t = by["s2"]
    assert a.value_sqls == ("substring(`corr`, 1, 3)",) and set(a.keys) == {("Zoë",), ("ab%",)} and t.trivial
    a, t = by["s4"]  # 'ORD-1_%': the key is necessary, not sufficient: the LIKE is tested again
    assert a.value_sqls == ("substring(`corr`, 1, 5)",) and t.implied == set()
    assert "LIKE" in t.lambda_sql(lambda j: f"c.p{j}")
    a, t = by["s8"]  # an escaped wildcard is part of the prefix
    assert ("ab%",) in a.keys and "LIKE" not in t.lambda_sql(lambda j: f"c.p{j}")
    a, t = by["s10"]  # an equality is preferred to a LIKE prefix
    assert a.value_sqls == ("`JMSType`",) and "LIKE" in t.lambda_sql(lambda j: f"c.p{j}")
