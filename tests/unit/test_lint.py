"""`lint`: warnings with position and caret, for what is legal but probably not meant.

Schemas here are pyspark type objects (pure Python, no JVM) or plain ``{column: type}`` dicts.
"""
from __future__ import annotations

import pickle

import pytest

from jms_selector_spark import LintWarning, lint, parse
from jms_selector_spark.language.errors import SelectorBindingError, SelectorSyntaxError
from jms_selector_spark.frontend.parser import MAX_LENGTH
from jms_selector_spark.language.source import Span

T = pytest.importorskip("pyspark.sql.types")


def codes(*args, **kwargs):
    return [w.code for w in lint(*args, **kwargs)]


def only(*args, **kwargs) -> LintWarning:
    found = lint(*args, **kwargs)
    assert len(found) == 1, found
    return found[0]


# -- text and tree checks ------------------------------------------------------------------------

class TestDoubleMinus:
    def test_jms_reads_it_as_two_minus_signs(self):
        w = only("a = 1 -- note")
        assert w.code == "double-minus" and w.span == Span(6, 8)
        assert "(1 - (-note))" in w.message
        assert str(w) == ("warning [double-minus] at line 1, column 7: '--' is two minus signs in the jms "
                          "dialect (1 - (-note)), not a comment\n"
                          "  a = 1 -- note\n"
                          "        ^^")

    def test_activemq_comment_needs_a_line_break(self):
        assert codes("a = 1 -- note", dialect="activemq") == ["double-minus"]
        assert codes("a = 1 -- note\n", dialect="activemq") == []
        assert codes("a = 1 -- note\nOR b = 2", dialect="activemq") == []

    def test_not_inside_strings_or_block_comments(self):
        assert codes("a = '--x' OR b = 'it''s -- fine'") == []
        assert codes("a = 1 /* -- */ OR b = 2", dialect="activemq") == []

    def test_a_comment_that_breaks_the_selector_says_why(self):
        with pytest.raises(SelectorSyntaxError) as e:
            parse("qty > 4 -- more than four")
        assert e.value.message == ("unexpected 'than' ('--' at column 9 is two minus signs: the 'jms' dialect has no "
                                   "comments)")
        with pytest.raises(SelectorSyntaxError) as e:
            parse("a = '--' AND AND b")
        assert e.value.message == "unexpected 'AND'"  # the -- is inside a string

    def test_spaced_minus_signs_are_deliberate(self):
        assert codes("a = 1 - -b") == []


class TestHeaderVsProperty:
    def test_header_compared_with_a_bare_name(self):
        w = only("JMSType = car")
        assert w.code == "header-vs-property" and w.span == Span(10, 13)
        assert "'car'" in w.message
        assert only("car <> JMSCorrelationID").span == Span(0, 3)

    def test_two_properties_or_a_literal_are_fine(self):
        assert codes("JMSType = 'car'") == []
        assert codes("color = shade") == []

    def test_a_map_layout_does_not_silence_it(self):
        assert codes("JMSType = car", schema=map_schema()) == ["header-vs-property"]

    def test_a_real_column_of_that_name_silences_it(self):
        schema = {"JMSType": "string", "car": "string"}
        assert codes("JMSType = car", schema=schema) == []
        assert codes("JMSType = car", schema={"JMSType": "string"}) == ["header-vs-property", "missing-property"]


# -- schema checks -------------------------------------------------------------------------------

def map_schema(value=None):
    return T.StructType([T.StructField("JMSType", T.StringType()),
                         T.StructField("properties", T.MapType(T.StringType(), value or T.StringType()))])


class TestStringNumeric:
    def test_map_of_strings_compared_with_a_number(self):
        w = only("qty > 4", schema=map_schema())
        assert w.code == "string-numeric" and w.span == Span(0, 7)
        assert "MAP<STRING,STRING>" in w.message and "property_types={'qty': 'long'}" in w.message
        assert "convert_string_expressions" not in w.message

    def test_activemq_mentions_its_prefix(self):
        assert "'convert_string_expressions:'" in only("qty = 4", dialect="activemq", schema=map_schema()).message

    def test_each_numeric_use(self):
        s = map_schema()
        for text in ("qty BETWEEN 1 AND 5", "qty * 2 = 10", "-qty < 0", "qty = 1.5", "qty >= other"):
            assert "string-numeric" in codes(text, schema=s), text

    def test_string_uses_are_fine(self):
        s = map_schema()
        assert codes("qty > other", dialect="activemq", schema=s) == []  # ActiveMQ orders strings
        assert codes("qty = '4' AND qty LIKE '4%' AND qty IN ('4') AND qty IS NULL", schema=s) == []
        assert codes("qty + 'x' = 'ax'", dialect="activemq", schema=s) == []  # concatenation

    def test_typed_map_and_declared_types_are_fine(self):
        assert codes("qty > 4", schema=map_schema(T.LongType())) == []
        assert codes("qty > 4", schema=map_schema(), property_types={"qty": "long"}) == []

    @pytest.mark.skipif("not _has_prefix()", reason="the parser does not take ActiveMQ's convert_string_expressions: yet")
    def test_activemq_prefix_silences_it(self):
        assert codes("convert_string_expressions: qty > 4", dialect="activemq", schema=map_schema()) == []

    def test_flat_string_column(self):
        w = only("weight > 2500", schema={"weight": "string"})
        assert "'weight' is a string column" in w.message and "property_types" not in w.message

    def test_headers_are_not_properties(self):
        assert codes("JMSType = 1", schema=map_schema()) == []


def _has_prefix() -> bool:
    try:
        parse("convert_string_expressions: qty > 4", dialect="activemq")
        return True
    except SelectorSyntaxError:
        return False


class TestMissing:
    def test_flat_column_that_differs_in_case(self):
        w = only("Weight > 5", schema={"weight": "long"})
        assert w.code == "missing-property" and w.span == Span(0, 6)
        assert "did you mean 'weight'?" in w.message

    def test_struct_field(self):
        schema = T.StructType([T.StructField("properties", T.StructType([T.StructField("color", T.StringType())]))])
        w = only("colour = 'blue'", schema=schema)
        assert w.code == "missing-property" and "struct column 'properties' has no such field" in w.message

    def test_map_and_variant_hold_any_name(self):
        assert codes("anything = 'x'", schema=map_schema()) == []
        schema = T.StructType([T.StructField("properties", T.VariantType())])
        assert codes("anything = 'x'", schema=schema) == []

    def test_top_level_column_beside_a_properties_column(self):
        schema = T.StructType([T.StructField("amount", T.LongType()), map_schema().fields[1]])
        assert codes("amount > 5", schema=schema) == ["string-numeric", "shadowed-column"]
        w = only("amount = '5'", schema=schema)
        assert w.code == "shadowed-column" and "properties column 'properties'" in w.message

    def test_header_without_its_column(self):
        w = only("JMSPriority > 4", schema={"weight": "long"})
        assert w.code == "missing-header" and "headers={'JMSPriority': '<column>'}" in w.message
        assert codes("JMSPriority > 4", schema={"prio": "int"}, headers={"JMSPriority": "prio"}) == []

    def test_unselectable_column_is_an_error(self):
        schema = T.StructType([T.StructField("tags", T.ArrayType(T.StringType()))])
        with pytest.raises(SelectorBindingError):
            lint("tags = 'x'", schema=schema)


class TestDecimalRange:
    def test_wide_decimal_read_as_long(self):
        schema = T.StructType([T.StructField("amount", T.DecimalType(38, 0)),
                               T.StructField("small", T.DecimalType(18, 0)),
                               T.StructField("price", T.DecimalType(38, 2))])
        w = only("amount > 5 AND small > 5 AND price > 5", schema=schema)
        assert w.code == "decimal-range" and w.span == Span(0, 6)
        assert "DECIMAL(38,0)" in w.message and "NULL" in w.message

    def test_inside_a_struct(self):
        schema = T.StructType([T.StructField("properties", T.StructType([T.StructField("n", T.DecimalType(20, 0))]))])
        assert codes("n = 1", schema=schema) == ["decimal-range"]


# -- errors, limits ------------------------------------------------------------------------------

class TestErrorsAndLimits:
    def test_invalid_selector_raises_with_caret(self):
        with pytest.raises(SelectorSyntaxError) as e:
            lint("color = 'blue' AND AND weight > 2500")
        assert e.value.span == Span(19, 22)

    def test_function_of_another_dialect(self):
        with pytest.raises(SelectorSyntaxError) as e:
            lint("SPLIT(region, '-') IS NOT NULL")
        assert str(e.value) == ("SPLIT is not a function of the 'jms' dialect (it has no functions); it exists in "
                                'dialect="activemq" at line 1, column 1\n'
                                "  SPLIT(region, '-') IS NOT NULL\n"
                                "  ^^^^^")
        assert codes("SPLIT(region, '-') IS NOT NULL", dialect="activemq") == []

    def test_length_limit_is_an_option(self):
        text = "a IN (" + ", ".join(f"'{i}'" for i in range(10_000)) + ")"
        assert len(text) > MAX_LENGTH
        with pytest.raises(SelectorSyntaxError, match="max_length=N"):
            parse(text)
        sel = parse(text, max_length=100_000)
        assert len(sel.root.values) == 10_000
        assert len(pickle.loads(pickle.dumps(sel)).root.values) == 10_000  # executors re-parse it
        assert "over the default limit of 65,536" in only(sel).message
        with pytest.raises(SelectorSyntaxError, match="longer than 10 characters"):
            parse("a = 'abcdefgh'", max_length=10)
        with pytest.raises(ValueError):
            parse("a = 1", max_length=0)

    def test_close_to_the_limit(self):
        text = "a IN (" + ", ".join(f"'{i}'" for i in range(8_000)) + ")"
        assert 0.9 * MAX_LENGTH < len(text) <= MAX_LENGTH
        assert codes(text) == ["length"]

    def test_empty_and_clean(self):
        assert lint("") == []
        assert lint("JMSType = 'car' AND weight > 2500", schema={"JMSType": "string", "weight": "long"}) == []
