"""The Spark SQL back end's text, without Spark: golden fragments, simplicity, injection-proofness.

The injection tests parse each fragment with a tiny tokenizer: every string literal must be either
a hex-encoded ``decode(X'…', 'UTF-8')`` or one of the back end's fixed ASCII words, every quoted
identifier must be well formed, and nothing that could start a comment, a substitution or an
escape may appear outside them.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jms_selector_spark as jss
from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
from jms_selector_spark.translate import selector_to_sql
from jms_selector_spark.backends.sql.render import like_to_sql
from jms_selector_spark.semantics.like import compile_like, like_segments

SCHEMA = {"JMSType": "string", "JMSPriority": "int", "weight": "long", "color": "string", "w": "double",
          "f": "float", "i": "int", "s": "string", "b": "boolean"}

GOLDEN = [
    ("JMSType = 'car' AND weight > 2500", "(`JMSType` = decode(X'636172', 'UTF-8') AND `weight` > 2500)"),
    ("color = 'blue' OR color = 'red'",
     "(`color` = decode(X'626C7565', 'UTF-8') OR `color` = decode(X'726564', 'UTF-8'))"),
    ("NOT (weight > 2500)", "(NOT (`weight` > 2500))"),
    ("JMSPriority BETWEEN 4 AND 9", "((`JMSPriority` >= 4 AND `JMSPriority` <= 9) AND `JMSPriority` IS NOT NULL)"),
    ("weight NOT BETWEEN 1 AND 10", "((NOT (`weight` >= 1 AND `weight` <= 10)) OR `weight` IS NULL)"),
    ("color IN ('a', 'b')", "`color` IN (decode(X'61', 'UTF-8'), decode(X'62', 'UTF-8'))"),
    ("color NOT IN ('a')", "`color` NOT IN (decode(X'61', 'UTF-8'))"),
    ("color LIKE 'bl%'", "`color` LIKE decode(X'626C25', 'UTF-8') ESCAPE '!'"),
    ("color LIKE 'C:\\%'", "`color` LIKE decode(X'433A5C25', 'UTF-8') ESCAPE '!'"),
    ("color LIKE 'a!%b' ESCAPE '!'", "`color` LIKE decode(X'61212562', 'UTF-8') ESCAPE '!'"),
    ("color LIKE 'a!b' ESCAPE '!'", "`color` LIKE decode(X'61212162', 'UTF-8') ESCAPE '!'"),
    ("color LIKE 'a\\_b' ESCAPE '\\'", "`color` LIKE decode(X'61215F62', 'UTF-8') ESCAPE '!'"),
    ("color NOT LIKE '_x'", "(NOT (`color` LIKE decode(X'5F78', 'UTF-8') ESCAPE '!'))"),
    ("color LIKE '%a%b%'",
     "`color` RLIKE decode(X'283F73295C41283F3E2E2A3F6129283F3E2E2A3F62292E2A5C7A', 'UTF-8')"),
    ("color IS NULL", "`color` IS NULL"),
    ("weight IS NOT NULL", "`weight` IS NOT NULL"),
    ("b", "`b`"),
    ("NOT b", "(NOT `b`)"),
    ("b = TRUE", "`b` = TRUE"),
    ("color = 5", "IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)"),
    ("color", "IF(`color` IS NULL, CAST(NULL AS BOOLEAN), FALSE)"),
    ("w > 2.5", "(`w` > 2.5D AND NOT isnan(`w`))"),  # Spark orders NaN above 2.5: Java does not
    ("w < 2.5", "`w` < 2.5D"),  # NaN < 2.5 is FALSE in Spark and in Java: no guard
    ("w <> 1.5", "`w` <> 1.5D"),  # NaN <> 1.5 is TRUE in both
    ("weight / 2 = 1", "(CAST(`weight` AS BIGINT) div CAST(2 AS BIGINT)) = 1"),
    ("missing = 1", "CAST(NULL AS BOOLEAN)"),
    ("missing IS NULL", "TRUE"),
    ("weight = 1E999", "CAST(`weight` AS DOUBLE) = CAST('Infinity' AS DOUBLE)"),
    ("s = ''", "`s` = decode(X'', 'UTF-8')"),
    ("weight > -9223372036854775808", "`weight` > CAST(-9223372036854775808 AS BIGINT)"),
    ("weight = 3000000000", "`weight` = 3000000000L"),
    ("", "TRUE"),
    # arithmetic that cannot overflow needs no wrapping (an int times a small long literal)...
    ("i * 2 > 40", "(CAST(`i` AS BIGINT) * CAST(2 AS BIGINT)) > 40"),
    # ...arithmetic that can overflow wraps as Java does
    ("i + i = 3", "CAST(shiftright(shiftleft(CAST(`i` AS BIGINT) + CAST(`i` AS BIGINT), 32), 32) AS INT) = 3"),
    ("weight * 2 = 4", "CAST(pmod(CAST(`weight` AS DECIMAL(20,0)) * CAST(2 AS DECIMAL(20,0))"
                       " + 9223372036854775808, 18446744073709551616) - 9223372036854775808 AS BIGINT) = 4"),
    # BETWEEN with a constant high bound: Spark's NaN order already fails a NaN operand
    ("w BETWEEN 10.5 AND 99.9", "((`w` >= 10.5D AND `w` <= 99.9D) AND `w` IS NOT NULL)"),
]


@pytest.mark.parametrize("selector, fragment", GOLDEN)
def test_golden(selector, fragment):
    assert selector_to_sql(selector, SCHEMA) == fragment


ACTIVEMQ_GOLDEN = [
    ("color = 'x'", "`color` = decode(X'78', 'UTF-8')"),
    ("color <> 'x'", "(NOT (`color` = decode(X'78', 'UTF-8')))"),
    ("5 / 2 = 2.5", "TRUE"),  # constants are folded by lowering.lower (ActiveMQ divides in double)
    ("i / 2 = 2.5", "try_divide(CAST(`i` AS DOUBLE), 2.0D) = 2.5D"),
    ("w > 2.5", "`w` > 2.5D"),
    ("i = 5", "`i` = 5"),
    # ActiveMQ: NULL = NULL is TRUE, x = NULL FALSE, NULL = x UNKNOWN
    ("i = weight", "CASE WHEN `i` IS NULL THEN IF(`weight` IS NULL, TRUE, CAST(NULL AS BOOLEAN))"
                   " WHEN `weight` IS NULL THEN FALSE ELSE `i` = `weight` END"),
    ("REGEX('a.c', s)", "coalesce(`s` RLIKE decode(X'612E63', 'UTF-8'), FALSE)"),
    # List.contains: a NULL element never matches, a NULL value is FALSE
    ("INLIST(MAKELIST('a', color), s)",
     "coalesce(`s` IN (decode(X'61', 'UTF-8'), `color`), FALSE)"),
    ("INLIST(MAKELIST(1, missing), i)", "coalesce(`i` IN (1), FALSE)"),
]


@pytest.mark.parametrize("selector, fragment", ACTIVEMQ_GOLDEN)
def test_golden_activemq(selector, fragment):
    assert selector_to_sql(selector, SCHEMA, dialect="activemq") == fragment


SIMPLE = ["JMSType = 'car' AND weight > 2500", "color IN ('blue', 'red') AND JMSPriority >= 4",
          "color LIKE 'bl%' OR weight < 10", "weight BETWEEN 1 AND 5", "NOT color = 'x'", "b AND color IS NOT NULL"]


@pytest.mark.parametrize("selector", SIMPLE)
def test_simple_selectors_stay_simple(selector):
    """No CASE, IF, coalesce or IS TRUE around pushable predicates over typed non-double columns."""
    sql = selector_to_sql(selector, SCHEMA)
    assert not re.search(r"\b(CASE|IF|coalesce|IS TRUE|isnan)\b", sql), sql


def test_empty_and_blank_selectors_are_true():
    assert selector_to_sql("", SCHEMA) == "TRUE"
    assert selector_to_sql("   ", SCHEMA) == "TRUE"


def test_no_schema_warns_with_the_assumed_types():
    with pytest.warns(UserWarning, match=r"weight: long.*color: string|color: string.*weight: long"):
        sql = selector_to_sql("weight > 5 AND color = 'x'")
    assert sql == "(`weight` > 5 AND `color` = decode(X'78', 'UTF-8'))"


def test_every_node_has_a_handler():
    assert SparkSqlGenerator.missing_handlers() == []


def test_unsupported_constructs_raise():
    with pytest.raises(jss.UnsupportedSelectorError):
        selector_to_sql("SPLIT(s, ',') IS NULL", SCHEMA, dialect="activemq")
    with pytest.raises(jss.UnsupportedSelectorError):
        selector_to_sql("s + w = 'x'", SCHEMA, dialect="activemq")


# -- the tokenizer ---------------------------------------------------------------------------------

#: The only plain string literals the back end writes (fixed ASCII, same under every parser mode).
FIXED_WORDS = re.compile(r"[A-Za-z0-9_%!/\- ]*")
TOKEN = re.compile(r"""
    (?P<ident>`(?:[^`]|``)*`)
  | (?P<hex>X'(?P<hexbody>[0-9A-F]*)')
  | (?P<str>'(?P<strbody>[^'\\]*)')
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>\d+(?:\.\d*)?(?:E-?\d+)?[LD]?)
  | (?P<punct><>|<=|>=|[(),.=<>+*/%-])
  | (?P<ws>\s+)
""", re.X)


def tokens(sql: str):
    """Yield (kind, text); raise AssertionError on anything outside the expected lexicon."""
    pos = 0
    while pos < len(sql):
        m = TOKEN.match(sql, pos)
        assert m, f"unexpected text at {pos}: {sql[pos:pos + 20]!r} in {sql!r}"
        kind = m.lastgroup if m.lastgroup not in ("hexbody", "strbody") else None
        kind = next(k for k in ("ident", "hex", "str", "word", "num", "punct", "ws") if m.group(k) is not None)
        text = m.group(kind)
        if kind == "str":
            assert FIXED_WORDS.fullmatch(m.group("strbody")), f"plain literal {text!r} in {sql!r}"
        if kind == "punct" and text in ("-", "/") and sql[m.end():m.end() + 1] in ("-", "*"):
            raise AssertionError(f"comment opener at {pos} in {sql!r}")
        yield kind, text
        pos = m.end()


def hex_strings(sql: str) -> list:
    return [bytes.fromhex(t[2:-1]).decode("utf-8") for k, t in tokens(sql) if k == "hex"]


def idents(sql: str) -> list:
    return [t[1:-1].replace("``", "`") for k, t in tokens(sql) if k == "ident"]


HOSTILE_CHARS = st.sampled_from(list("'\"`\\$%_!{}-/*\n\r\t\x00 aZ9é\u2019\uff07\u02bc😀") + ["\\u0041", "${x}", "--", "/*"])
hostile = st.lists(HOSTILE_CHARS, max_size=12).map("".join) | st.text(
    st.characters(blacklist_categories=("Cs",)), max_size=20)


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


@settings(max_examples=300, deadline=None)
@given(hostile)
def test_string_literals_cannot_escape(s):
    sql = selector_to_sql(f"color = {_q(s)} AND color <> {_q(s)}", SCHEMA)
    assert hex_strings(sql) == [s, s]
    assert idents(sql) == ["color", "color"]


@settings(max_examples=300, deadline=None)
@given(hostile, st.sampled_from([None, "!", "\\", "'", "%", "a"]))
def test_like_patterns_cannot_escape_and_keep_their_meaning(pattern, escape):
    esc = "" if escape is None else f" ESCAPE {_q(escape)}"
    sql = selector_to_sql(f"color LIKE {_q(pattern)}{esc}", SCHEMA)
    (spark_pattern,) = hex_strings(sql)
    ours = compile_like(pattern, escape)
    if " LIKE " in sql:
        # Spark's LIKE with ESCAPE '!' read back by the same JMS matcher (escape '!')
        theirs = compile_like(spark_pattern, "!")
        for sample in ["", pattern, pattern.replace("%", "").replace("_", "x"), "abc", "a%b", "!"]:
            assert ours.matches(sample) == theirs.matches(sample), (pattern, escape, spark_pattern, sample)
    else:
        rx = re.compile(spark_pattern.replace("\\A", "^").replace("\\z", r"\Z").replace("(?>", "(?:"))
        for sample in ["", pattern, pattern.replace("%", "").replace("_", "x"), "abc", "xaybz"]:
            assert ours.matches(sample) == (rx.search(sample) is not None), (pattern, escape, spark_pattern, sample)


@settings(max_examples=200, deadline=None)
@given(hostile.filter(lambda s: s != ""))
def test_column_names_cannot_escape(name):
    sql = selector_to_sql("JMSType = 'x' AND weight > 1", {"weight": "long", name: "string"},
                          headers={"JMSType": name})
    assert idents(sql) == [name, "weight"]


@settings(max_examples=100, deadline=None)
@given(hostile)
def test_struct_and_map_keys_cannot_escape(key):
    from types import SimpleNamespace as NS

    def t(name, **kw):
        return NS(typeName=lambda: name, **kw)

    struct = NS(fields=[NS(name="properties", dataType=t("struct", fields=[NS(name="p", dataType=t("string"))]))])
    assert idents(selector_to_sql("p = 'a'", struct)) == ["properties", "p"]
    mp = NS(fields=[NS(name="properties", dataType=t("map", keyType=t("string"), valueType=t("string")))])
    # the key is a selector identifier, so take an identifier-safe version of the hostile text
    ident = "p" + "".join(c for c in key if c.isalnum() and c.isascii())
    sql = selector_to_sql(f"{ident} = {_q(key)}", mp)
    assert hex_strings(sql) == [ident, key]


def test_linear_like_rule():
    # two or more % with something after the last: the atomic-group RLIKE form
    assert " RLIKE " in like_to_sql("`s`", like_segments("%a%b"))
    assert " RLIKE " in like_to_sql("`s`", like_segments("%_a%_b%x"))
    # normalization first: '%_%_…%x' is '_…_%x', one % (linear in Spark's regex)
    assert like_to_sql("`s`", like_segments("%_%_%_%_%_%_%_%_%_%_%x")) == (
        "`s` LIKE decode(X'" + ("_" * 10 + "%x").encode().hex().upper() + "', 'UTF-8') ESCAPE '!'")
    # at most one %, or %…% with nothing after: Spark's own (simplifiable, linear) LIKE
    for p in ("abc", "a%", "%a", "a%b", "%a%", "a_b%", "a%%%"):
        assert " LIKE " in like_to_sql("`s`", like_segments(p)), p
