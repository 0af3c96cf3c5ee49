"""The selector lexer: token type lists, then error messages and positions (pycparser's split).

The lexer is private to the parser; these tests drive `SelectorLexer.tokenize` directly so that a
failure points at the tokenizer, not at the grammar. Positions are 0-based offsets into the
selector (`Span`), with line and column derived for the message.
"""
from __future__ import annotations

import pytest

from jms_selector_spark import SelectorSyntaxError, SelectorTypeError
from jms_selector_spark.frontend.lexer import SelectorLexer, is_java_identifier_part, is_java_identifier_start
from jms_selector_spark.language.source import Span
from jms_selector_spark.language.dialects import DIALECTS

LEXERS = {name: SelectorLexer(d) for name, d in DIALECTS.items()}
BOTH = pytest.mark.usefixtures("dialect")  # tests/conftest.py: every dialect in DIALECTS


def toks(text, dialect="jms"):
    return list(LEXERS[dialect].tokenize(text))


def types(text, dialect="jms"):
    return [t.type for t in toks(text, dialect)]


def values(text, dialect="jms"):
    """Token values with literals reduced to their Python value."""
    return [t.value[0] if isinstance(t.value, tuple) else t.value for t in toks(text, dialect)]


def lex_error(text, dialect="jms", cls=SelectorSyntaxError):
    with pytest.raises(cls) as info:
        toks(text, dialect)
    return info.value


# -- token type lists ---------------------------------------------------------------------------

class TestTokenTypes:
    @BOTH
    def test_simple_comparison(self, dialect):
        assert types("color = 'blue'", dialect) == ["IDENTIFIER", "EQ", "STRING"]

    @BOTH
    def test_every_operator(self, dialect):
        assert types("= <> < > <= >= + - * / ( ) ,", dialect) == [
            "EQ", "NE", "LT", "GT", "LE", "GE", "PLUS", "MINUS", "TIMES", "DIVIDE", "LPAREN", "RPAREN", "COMMA"]

    @BOTH
    def test_two_character_operators_without_spaces(self, dialect):
        assert types("a<>b<=c>=d<e>f", dialect) == [
            "IDENTIFIER", "NE", "IDENTIFIER", "LE", "IDENTIFIER", "GE", "IDENTIFIER", "LT", "IDENTIFIER", "GT",
            "IDENTIFIER"]

    @BOTH
    def test_keywords(self, dialect):
        text = "AND OR NOT BETWEEN LIKE ESCAPE IN IS NULL TRUE FALSE"
        assert types(text, dialect) == text.split()

    @BOTH
    @pytest.mark.parametrize("spelling", ["and", "And", "aNd", "AND"])
    def test_keywords_are_case_insensitive(self, dialect, spelling):
        assert types(f"a {spelling} b", dialect) == ["IDENTIFIER", "AND", "IDENTIFIER"]

    @BOTH
    @pytest.mark.parametrize("word", ["between", "Like", "escape", "iN", "Is", "null", "True", "fAlSe", "not", "or"])
    def test_every_keyword_in_any_case_is_reserved(self, dialect, word):
        assert types(word, dialect) == [word.upper()]

    @BOTH
    def test_keyword_prefixes_and_suffixes_are_identifiers(self, dialect):
        text = "ANDY ORB NOTE INTO ISLAND NULLS TRUEX FALSEY _AND AND_ NOTNULL ISNULL"
        assert types(text, dialect) == ["IDENTIFIER"] * len(text.split())

    def test_keywords_are_matched_ascii_case_insensitively_only(self):
        # Python's str.upper maps dotless i to I and long s to S; Java's keywords are ASCII.
        assert types("ın") == ["IDENTIFIER"]  # not IN
        assert types("falſe") == ["IDENTIFIER"]  # not FALSE
        assert types("ıs") == ["IDENTIFIER"]  # not IS

    @BOTH
    def test_numbers(self, dialect):
        assert types("57 -957 +62 7E3 -57.9E2 7. .5 +6.2 1e+5 1E-5", dialect) == [
            "EXACT_NUMERIC", "MINUS", "EXACT_NUMERIC", "PLUS", "EXACT_NUMERIC", "APPROX_NUMERIC", "MINUS",
            "APPROX_NUMERIC", "APPROX_NUMERIC", "APPROX_NUMERIC", "PLUS", "APPROX_NUMERIC", "APPROX_NUMERIC",
            "APPROX_NUMERIC"]
        assert values("57 7E3 57.9E2 7. .5 1e+5 1E-5", dialect) == [57, 7000.0, 5790.0, 7.0, 0.5, 1e5, 1e-5]

    def test_extended_literals_in_activemq(self):
        assert types("0x1F 017 10L 10l 0", "activemq") == ["EXACT_NUMERIC"] * 5
        assert values("0x1F 0X1f 017 10L 10l 00", "activemq") == [31, 31, 15, 10, 10, 0]

    @BOTH
    def test_strings(self, dialect):
        assert values("'' 'a' 'it''s' ''''", dialect) == ["", "a", "it's", "'"]
        assert [t.value[1] for t in toks("'it''s'", dialect)] == ["'it''s'"]  # the raw text is kept

    @BOTH
    def test_strings_hold_any_character(self, dialect):
        assert values("'\u00e9\U0001F600 \" -- /* \\ %_\n'", dialect) == ["\u00e9\U0001F600 \" -- /* \\ %_\n"]

    @BOTH
    def test_identifiers(self, dialect):
        assert values("a _b $c a1 a_b$ JMSType JMSX_Group", dialect) == [
            "a", "_b", "$c", "a1", "a_b$", "JMSType", "JMSX_Group"]

    @BOTH
    def test_identifiers_are_case_sensitive_text(self, dialect):
        assert values("Color color COLOR", dialect) == ["Color", "color", "COLOR"]

    @BOTH
    def test_java_whitespace_including_form_feed(self, dialect):
        assert types("a\t=\f1\r\nAND\nb\r=\x0c2", dialect) == [
            "IDENTIFIER", "EQ", "EXACT_NUMERIC", "AND", "IDENTIFIER", "EQ", "EXACT_NUMERIC"]

    @BOTH
    @pytest.mark.parametrize("ch", ["\u00a0", "\u2003", "\u000b", "\u3000"])
    def test_other_unicode_spaces_are_not_whitespace(self, dialect, ch):
        err = lex_error(f"a ={ch}1", dialect)
        assert err.span == Span(3, 4)
        assert repr(ch) in err.message

    def test_double_minus_is_two_minus_signs_in_jms(self):
        assert types("a --1 = 0") == ["IDENTIFIER", "MINUS", "MINUS", "EXACT_NUMERIC", "EQ", "EXACT_NUMERIC"]
        assert types("a -- b\n = c") == ["IDENTIFIER", "MINUS", "MINUS", "IDENTIFIER", "EQ", "IDENTIFIER"]

    def test_double_minus_positions_in_jms(self):
        assert [t.lexpos for t in toks("a --b")] == [0, 2, 3, 4]

    def test_double_minus_starts_a_line_comment_in_activemq(self):
        assert types("a = 1 -- the rest\nAND b", "activemq") == ["IDENTIFIER", "EQ", "EXACT_NUMERIC", "AND",
                                                                 "IDENTIFIER"]
        assert types("a = 1 -- cr\rAND b", "activemq")[-2:] == ["AND", "IDENTIFIER"]
        assert types("a = 1 -- it's /* not closed\nAND b", "activemq")[-2:] == ["AND", "IDENTIFIER"]

    def test_activemq_line_comment_needs_a_line_terminator(self):
        # ActiveMQ's LINE_COMMENT token ends with a line terminator; without one, `--` is two minus signs.
        assert types("a = 1 -- x", "activemq") == ["IDENTIFIER", "EQ", "EXACT_NUMERIC", "MINUS", "MINUS",
                                                   "IDENTIFIER"]

    def test_block_comment_in_activemq(self):
        assert types("a /* c */ = /* ** / */ 1", "activemq") == ["IDENTIFIER", "EQ", "EXACT_NUMERIC"]
        assert types("a = /*/ still a comment */ 1", "activemq") == ["IDENTIFIER", "EQ", "EXACT_NUMERIC"]

    @BOTH
    def test_a_number_ends_where_a_keyword_begins(self, dialect):
        # Java's tokenizer (and ActiveMQ's) reads `100AND` as 100 AND: no space is needed there.
        assert types("a BETWEEN 100AND 200", dialect) == ["IDENTIFIER", "BETWEEN", "EXACT_NUMERIC", "AND",
                                                          "EXACT_NUMERIC"]
        assert values("1.5OR b", dialect) == [1.5, "OR", "b"]
        assert values("1e5and b", dialect) == [1e5, "and", "b"]
        assert [t.lexpos for t in toks("x = 7IS NULL", dialect)] == [0, 2, 4, 5, 8]

    def test_an_extended_literal_may_touch_a_keyword_in_activemq(self):
        assert values("0x1FOR 10LAND", "activemq") == [31, "OR", 10, "AND"]

    @BOTH
    @pytest.mark.parametrize("text", ["100ANDx", "1ANDb", "1EAND", "5TRUEX", "2.5F"])
    def test_other_letters_after_a_number_are_one_bad_literal(self, dialect, text):
        if DIALECTS[dialect].cpp_literals:  # Qpid C++'s tokeniser: the number ends, a name follows; 1E needs digits
            if text == "1EAND":
                assert lex_error(text, dialect).message.startswith("invalid numeric literal '1EAND'")
                return
            assert toks(text, dialect)[0].value[0] == {"100ANDx": 100, "1ANDb": 1, "5TRUEX": 5, "2.5F": 2.5}[text]
            assert types(text, dialect)[1:] == ([] if text == "2.5F" else ["IDENTIFIER"])
            return
        if not DIALECTS[dialect].require_eof:  # WSO2 (JavaCC's longest match): the number, then a name
            number = {"100ANDx": "100", "2.5F": "2.5"}.get(text, text[0])
            assert toks(text, dialect)[0].value[1] == number and types(text, dialect)[1] in ("IDENTIFIER", "AND")
            return
        err = lex_error(text, dialect)
        assert err.message == f"invalid numeric literal {text!r}"
        assert err.span == Span(0, len(text))

    def test_unicode_identifiers_in_jms(self):
        assert values("héllo Ärger ø µ 名前 नमस्ते x‿y € a٣ ǅ ʰ Ⅻ 𝒜") == [
            "héllo", "Ärger", "ø", "µ", "名前", "नमस्ते", "x‿y", "€", "a٣", "ǅ", "ʰ", "Ⅻ", "𝒜"]

    def test_identifier_ignorable_characters_continue_an_identifier_in_jms(self):
        # Character.isJavaIdentifierPart: format characters and some controls are "ignorable" parts.
        assert values("a\u00adb c\u200dd e\x01f") == ["a\u00adb", "c\u200dd", "e\x01f"]


class TestJavaIdentifierCharacters:
    @pytest.mark.parametrize("c", list("aZ_$") + ["é", "名", "ǅ", "ʰ", "Ⅻ", "€", "¢", "‿", "𝒜"])
    def test_starts(self, c):
        assert is_java_identifier_start(c) and is_java_identifier_part(c)

    @pytest.mark.parametrize("c", list("09") + ["٣", "\u0301", "\u093f", "\u00ad", "\x00", "\x7f", "\x85"])
    def test_parts_only(self, c):
        assert is_java_identifier_part(c) and not is_java_identifier_start(c)

    @pytest.mark.parametrize("c", list(" .-+'\"#@!`\t\n\f") + ["²", "½", "\u00a0", "—", "\u2028", "\ud800", "\x09"])
    def test_neither(self, c):
        assert not is_java_identifier_part(c) and not is_java_identifier_start(c)


# -- errors and positions -----------------------------------------------------------------------

class TestErrors:
    @BOTH
    def test_unterminated_string(self, dialect):
        err = lex_error("a = 'abc", dialect)
        assert err.message == "unterminated string literal"
        assert err.span == Span(4, 8)
        assert (err.line, err.column) == (1, 5)

    @BOTH
    def test_unterminated_string_after_a_doubled_quote(self, dialect):
        # Longest match, as JavaCC lexes it: 'it' is a whole string; the second one starts at 8.
        err = lex_error("a = 'it''s", dialect)
        assert err.message == "unterminated string literal"
        assert err.span == Span(8, 10)

    @BOTH
    @pytest.mark.parametrize("literal", ["2.5F", "2.5f", "2.5D", "1e5L", "1.5e5f", "1E", "1.5e", "1a", "08"])
    def test_bad_numeric_literals(self, dialect, literal):
        if DIALECTS[dialect].cpp_literals:  # Qpid C++: f/d suffixes are doubles; 08 is 0 then 8
            if literal in ("1E", "1.5e"):
                assert lex_error(f"x = {literal}", dialect).span == Span(4, 4 + len(literal))
                return
            want = {"2.5F": 2.5, "2.5f": 2.5, "2.5D": 2.5, "1e5L": 1e5, "1.5e5f": 1.5e5, "1a": 1, "08": 0}[literal]
            assert toks(f"x = {literal}", dialect)[2].value[0] == want
            return
        if not DIALECTS[dialect].require_eof:  # WSO2: the longest literal, then the rest as tokens
            first = toks(f"x = {literal}", dialect)[2].value[1]
            assert literal.startswith(first) and first != literal and LEXERS[dialect]._literal_kind(first)
            return
        err = lex_error(f"x = {literal}", dialect)
        assert err.message == f"invalid numeric literal {literal!r}"
        assert err.span == Span(4, 4 + len(literal))

    @pytest.mark.parametrize("literal", ["0x1F", "017", "10L", "00"])
    def test_hex_octal_and_long_suffix_are_not_jms(self, literal):
        err = lex_error(f"x = {literal}")
        assert err.message.startswith(f"invalid numeric literal {literal!r} (hex, octal and L-suffixed")
        assert "'activemq' dialect accepts them" in err.message
        assert err.span == Span(4, 4 + len(literal))

    @pytest.mark.parametrize("literal", ["0x", "0L", "0x1FL", "1.5L", "0xG"])
    def test_bad_extended_literals_in_activemq(self, literal):
        err = lex_error(f"x = {literal}", "activemq")
        assert err.message == f"invalid numeric literal {literal!r}"

    @BOTH
    def test_non_ascii_digits_are_not_digits(self, dialect):
        # Python's \d and int() accept Arabic-Indic digits: `1٣` must not read as 13.
        err = lex_error("x = 1٣", dialect)
        if DIALECTS[dialect].unicode_identifiers:  # ٣ is a Java identifier part: glued to the number, one bad literal
            assert err.message == "invalid numeric literal '1٣'"
            assert err.span == Span(4, 6)
        else:
            assert err.message == "unexpected character '٣'"
            assert err.span == Span(5, 6)
        err = lex_error("x = ١", dialect)
        assert err.message == "unexpected character '١'"
        assert err.span == Span(4, 5)

    @BOTH
    def test_exact_literal_too_long_for_any_long(self, dialect):
        # More than 19 digits: beyond a long even when negated; rejected before int() (which refuses
        # more than 4,300 digits with a plain ValueError).
        for digits in (20, 5000):
            err = lex_error("x = " + "1" * digits, dialect, SelectorTypeError)
            assert err.message == "exact numeric literal out of the range of a Java long"
            assert err.span == Span(4, 4 + digits)

    @BOTH
    def test_not_equal_written_c_style(self, dialect):
        if DIALECTS[dialect].bang_equals:  # RabbitMQ's SQL filter: another spelling of <>
            assert types("a != 1", dialect) == ["IDENTIFIER", "NE", "EXACT_NUMERIC"]
            return
        err = lex_error("a != 1", dialect)
        assert err.message == "unexpected '!=' (use = and <>)"
        assert err.span == Span(2, 4)

    @BOTH
    def test_double_equals(self, dialect):
        assert types("a == 1", dialect) == ["IDENTIFIER", "EQ", "EQ", "EXACT_NUMERIC"]  # the parser rejects it

    @BOTH
    def test_lone_bang(self, dialect):
        err = lex_error("!a", dialect)
        assert err.message == "unexpected character '!'"
        assert err.span == Span(0, 1)

    @BOTH
    def test_double_quote(self, dialect):
        if DIALECTS[dialect].quoted_identifiers:  # "x" is the identifier x (Artemis, Qpid)
            assert values('a = "x" AND "a""b" = "NOT"', dialect) == ["a", "=", "x", "AND", 'a"b', "=", "NOT"]
            err = lex_error('a = "x', dialect)
            assert err.span == Span(4, 5)
            assert types('a = "x"', dialect) == ["IDENTIFIER", "EQ", "IDENTIFIER"] and values('"x"""', dialect) == ['x"']
            return
        err = lex_error('a = "x"', dialect)
        assert err.message == "unexpected '\"' (string literals use single quotes)"
        assert err.span == Span(4, 5)

    def test_block_comment_is_an_error_in_jms(self):
        for text in ("a = 1 /* c */", "a = 1 /* never closed", "a /**/ = 1"):
            err = lex_error(text)
            assert err.message == "comments are not part of JMS selectors"
            assert err.span == Span(text.index("/*"), text.index("/*") + 2)

    def test_unterminated_block_comment_in_activemq(self):
        err = lex_error("a = 1 /* c", "activemq")
        assert err.message == "unterminated comment"
        assert err.span == Span(6, 8)

    @pytest.mark.parametrize("text, bad", [("aé = 1", 1), ("héllo = 1", 1), ("名 = 1", 0), ("ın = 1", 0)])
    def test_activemq_identifiers_are_ascii(self, text, bad):
        err = lex_error(text, "activemq")
        assert err.message == f"unexpected character {text[bad]!r} (the 'activemq' dialect takes ASCII identifiers only)"
        assert err.span == Span(bad, bad + 1)

    def test_activemq_identifiers_have_no_ignorable_characters(self):
        err = lex_error("a\x01b = 1", "activemq")
        assert err.message == "unexpected character '\\x01'"
        assert err.span == Span(1, 2)

    @pytest.mark.parametrize("text, bad", [("a² = 1", 1), ("² = 1", 0), ("a½", 1), ("a—b", 1), ("٣a = 1", 0)])
    def test_characters_java_does_not_take_in_identifiers(self, text, bad):
        err = lex_error(text)
        assert err.message == f"unexpected character {text[bad]!r}"
        assert err.span == Span(bad, bad + 1)

    @BOTH
    @pytest.mark.parametrize("ch", ["@", "#", "?", ";", "[", "{", "~", "^", "&", "|", ".", ":", "`", "\\"])
    def test_stray_characters(self, dialect, ch):
        err = lex_error(f"a = 1 {ch} 2", dialect)
        assert err.message == f"unexpected character {ch!r}"
        assert err.span == Span(6, 7)

    @BOTH
    def test_position_on_a_later_line(self, dialect):
        err = lex_error("a = 1\n  AND b = 'x\n", dialect)
        assert (err.line, err.column) == (2, 11)
        assert str(err).endswith("    AND b = 'x\n            ^^")  # the caret under the bad token

    @BOTH
    def test_errors_render_a_caret(self, dialect):
        if not DIALECTS[dialect].require_eof or DIALECTS[dialect].cpp_literals:  # WSO2 reads 2.5 and ignores F,
            # Qpid C++ reads 2.5F as 2.5: a caret on another error
            err = lex_error("weight > '2.5F", dialect)
            assert str(err) == "unterminated string literal at line 1, column 10\n  weight > '2.5F\n           ^^^^^"
            return
        err = lex_error("weight > 2.5F", dialect)
        assert str(err) == ("invalid numeric literal '2.5F' at line 1, column 10\n"
                            "  weight > 2.5F\n"
                            "           ^^^^")
