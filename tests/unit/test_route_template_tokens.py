"""`route_templates.template`: which literals of a fragment become typed parameters (no Spark)."""
from __future__ import annotations

from jms_selector_spark.compiler import selector_to_sql
from jms_selector_spark.spark.routing.templates import template

SCHEMA = {"JMSType": "STRING", "weight": "LONG", "price": "DOUBLE", "qty": "INT", "code": "STRING"}


def _shape(selector):
    return template(selector_to_sql(selector, SCHEMA))


def test_literals_become_typed_parameters():
    a, b = _shape("JMSType = 'car' AND weight > 2500"), _shape("JMSType = 'bus' AND weight > 100")
    assert a.key == b.key and a.types == ("STRING", "INT") and (a.values, b.values) == (("car", 2500), ("bus", 100))
    big = _shape("JMSType = 'car' AND weight > 3000000000")
    assert big.types == ("STRING", "BIGINT") and big.values[1] == 3000000000 and big.key != a.key
    d = _shape("JMSType IN ('a', 'b') AND price >= 1.5E10")
    assert d.types == ("STRING", "STRING", "DOUBLE") and d.values == ("a", "b", 1.5e10)
    assert _shape("JMSType IN ('a', 'b', 'c')").key != _shape("JMSType IN ('a', 'b')").key


def test_literals_spark_needs_as_they_are_stay_in_the_template():
    like = _shape("code LIKE 'p%' AND JMSType = 'x'")
    assert like.types == ("STRING",) and like.values == ("x",)  # the pattern stays
    assert _shape("code LIKE 'q%' AND JMSType = 'x'").key != like.key
    neg = _shape("weight > -5")  # a signed number stays (Spark reads the sign as part of the literal)
    assert neg.types == () and _shape("weight > -6").key != neg.key
    assert template("CASE `a` WHEN 2 THEN 'PERSISTENT' END = decode(X'41', 'UTF-8')").values == ("A",)
    assert template("try_element_at(`p`, decode(X'6B', 'UTF-8')) = 5").values == (5,)  # a map key stays
    dec = template("CAST(`w` AS DECIMAL(20,0)) * CAST(3 AS DECIMAL(20,0)) > 7 AND `s` = decode(X'41', 'UTF-8')")
    assert dec.values == ("A",)  # no number where a DECIMAL is
    assert template("exists(`a`, x -> x = 1)") is None


def test_a_template_writes_back_the_fragment():
    frag = selector_to_sql("JMSType = 'O''Brien' AND qty * 3 > 7 AND price < 2.5", SCHEMA)
    shape = template(frag)
    out = "".join(p if isinstance(p, str) else shape.literals[p] for p in shape.pieces)
    assert out == frag and shape.values == ("O'Brien", 7, 2.5)  # 3 is read inside a CAST: kept


# -- route_sql: conjuncts of the SQL text (#16: access predicates without a second parse, implied conjuncts)

def test_conjunct_spans_split_only_a_top_level_and_chain():
    from jms_selector_spark.spark.routing.sqltext import conjunct_spans

    text = "(`a` = __jmsP0__ AND (`b` > 1 OR `c` IS NULL) AND `d` IN (__jmsP1__, __jmsP2__))"
    assert [text[a:b] for a, b in conjunct_spans(text)] == [
        "`a` = __jmsP0__", "(`b` > 1 OR `c` IS NULL)", "`d` IN (__jmsP1__, __jmsP2__)"]
    assert conjunct_spans("(`a` = __jmsP0__ OR `b` = 1)") is None  # an OR at the top: not a conjunction
    assert conjunct_spans("`x` BETWEEN 1 AND 2") is None
    assert conjunct_spans("CASE WHEN `a` AND `b` THEN TRUE END") is None
    assert conjunct_spans("(`a` = 1) AND (`b` = 2)") is not None and len(conjunct_spans("(`a` = 1) AND (`b` = 2)")) == 2


def _plan(selectors, schema):
    from jms_selector_spark.compiler import selector_to_sql
    from jms_selector_spark.binder import Binding
    from jms_selector_spark.language.dialects import get_dialect
    from jms_selector_spark.spark.routing.templates import plan_templates
    from jms_selector_spark.spark.routing.route import Subscription

    native = [(Subscription(f"s{i}", s), selector_to_sql(s, schema)) for i, s in enumerate(selectors)]
    return plan_templates(native, schema, get_dialect("jms"), Binding(), min_templated=2)


def test_access_predicates_read_from_the_sql_and_implied_conjuncts():
    schema = {"JMSType": "string", "region": "string", "weight": "long", "n": "int"}
    tp = _plan([f"JMSType = '{t}' AND weight > {w}" for t, w in [("car", 1), ("bus", 2), ("car", 3)]]
               + [f"region IN ('{r}', 'x') AND JMSType = 'car'" for r in ("EU", "US")], schema)
    assert len(tp.names) == 5
    for a in tp.accesses:
        for t in a.templates:
            body = t.lambda_sql("c", a.value_sqls)
            assert "TRUE" in body  # the access conjunct is implied by the join
            if "weight" in body:
                assert "`weight` > c.p" in body and not t.trivial(a.value_sqls)


def test_a_conjunct_is_implied_only_if_every_key_is_among_its_values():
    from jms_selector_spark.spark.routing.sqltext import implied

    schema = {"JMSType": "string", "region": "string"}
    # indexed on region (fewer values named); JMSType = p is not implied by the region key
    tp = _plan([f"JMSType IN ('a', 'b', 'c') AND region = '{r}'" for r in ("EU", "US", "APAC")], schema)
    (a,) = tp.accesses
    (t,) = a.templates
    assert a.value_sqls == ("`region`",)
    assert implied(t, a.value_sqls) == {1}
    assert "`JMSType` IN" in t.lambda_sql("c", a.value_sqls)


def test_each_distinct_fragment_is_tokenised_once_and_duplicates_share_a_template(monkeypatch):
    from jms_selector_spark.spark.routing import templates as route_templates

    calls = []
    real = route_templates.template
    monkeypatch.setattr(route_templates, "template", lambda frag: calls.append(frag) or real(frag))
    schema = {"JMSType": "string", "weight": "long"}
    sels = [f"JMSType = '{t}' AND weight > {w}" for t, w in [("car", 1), ("bus", 2), ("car", 1), ("car", 1), ("bus", 2)]]
    tp = _plan(sels, schema)
    assert len(calls) == 2 and len(set(calls)) == 2  # 5 subscriptions, 2 distinct fragments
    (a,) = tp.accesses
    (t,) = a.templates
    assert t.members == ("s0", "s1", "s2", "s3", "s4")
    assert [t.values_of(nm) for nm in t.members] == [("car", 1), ("bus", 2), ("car", 1), ("car", 1), ("bus", 2)]
    assert {nm: t.keys[nm] for nm in t.members} == {"s0": (("car",),), "s1": (("bus",),), "s2": (("car",),),
                                                     "s3": (("car",),), "s4": (("bus",),)}


def test_a_schema_hashes_as_its_fields_once():
    import pickle

    from jms_selector_spark.language.schema import Schema, to_schema

    a, b = to_schema({"x": "long", "s": "string"}), to_schema({"x": "long", "s": "string"})
    assert a is not b and a == b and hash(a) == hash(b) == hash(Schema(a.fields))
    assert hash(to_schema({"x": "int", "s": "string"})) != hash(a)  # the types are part of it
    c = pickle.loads(pickle.dumps(a))
    assert c == a and hash(c) == hash(a) and {a: 1}[c] == 1


def test_a_like_prefix_is_an_access_predicate_only_without_an_equality():
    from jms_selector_spark.spark.routing.sqltext import implied, like_prefix

    assert like_prefix("ORD-!!_%x%") == ("ORD-!", "_%x%") and like_prefix("ab!%c%") == ("ab%c", "%")
    assert like_prefix("%x") == ("", "%x") and like_prefix("abc") == ("abc", "")
    schema = {"corr": "string", "JMSType": "string", "n": "int"}
    sels = ["corr LIKE 'ORD-1%'", "corr LIKE 'ORD-1%'", "corr LIKE 'Zoë%'", "corr LIKE 'Zoë%'",
            "corr LIKE 'ORD-1_%' AND n > 1", "corr LIKE 'ORD-1_%' AND n > 2", "corr LIKE '%1'", "corr LIKE '%1'",
            "corr LIKE 'ab!%%' ESCAPE '!' AND n = 3", "corr LIKE 'ab!%%' ESCAPE '!' AND n = 4",
            "corr LIKE 'OR%' AND JMSType = 'a'", "corr LIKE 'OR%' AND JMSType = 'b'"]
    tp = _plan(sels, schema)
    by = {t.members[0]: (a, t) for a in tp.accesses for t in a.templates}
    assert {nm for nm, _ in ((s.name, f) for s, f in tp.rest)} == {"s6", "s7"}  # '%1': no literal prefix
    a, t = by["s0"]
    assert a.value_sqls == ("substring(`corr`, 1, 5)",) and t.trivial(a.value_sqls)  # the join implies LIKE 'ORD-1%'
    a, t = by["s2"]
    assert a.value_sqls == ("substring(`corr`, 1, 3)",) and set(a.keys) == {("Zoë",), ("ab%",)} and t.trivial(a.value_sqls)
    a, t = by["s4"]  # 'ORD-1_%': the key is necessary, not sufficient: the LIKE is tested again
    assert a.value_sqls == ("substring(`corr`, 1, 5)",) and implied(t, a.value_sqls) == set()
    assert "LIKE" in t.lambda_sql("c", a.value_sqls)
    a, t = by["s8"]  # an escaped wildcard is part of the prefix
    assert ("ab%",) in a.keys and "LIKE" not in t.lambda_sql("c", a.value_sqls)
    a, t = by["s10"]  # an equality is preferred to a LIKE prefix
    assert a.value_sqls == ("`JMSType`",) and "LIKE" in t.lambda_sql("c", a.value_sqls)
