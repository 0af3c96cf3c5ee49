"""The lexer's fast path (`frontend.scanner.scan`) returns PLY's tokens or nothing.

For every text it reads, `scan` must return exactly the tokens the PLY lexer returns (type, value
with its Python type, position), and it must read no text on which PLY raises: PLY is the
definition, the scanner only skips its per-token overhead. Checked on every corpus selector and
on token soups built from the pieces where the two could disagree (dots, non-ASCII letters, glued
numbers, comments, reserved words, ``!=``, quotes), in every dialect.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from jms_selector_spark.frontend.lexer import SelectorLexer
from jms_selector_spark.frontend.scanner import scan
from jms_selector_spark.language.dialects import DIALECTS
from jms_selector_spark.language.errors import SelectorError

CORPORA = Path(__file__).resolve().parents[1] / "conformance"

PIECES = ["a", "JMSType", "$x", "_y9", "AND", "or", "Not", "between", "LIKE", "escape", "in", "IS", "null",
          "TRUE", "false", "xpath", "XQUERY", "a.b", "x.", "é", "naïve", "ſ", "\u200b", "\x01", "\x1c",
          "'s'", "'it''s'", "''", "'é'", "'unterminated", '"q"', '"a""b"', "0", "7", "12", "007", "0.5", "1.",
          ".5", "1e5", "2.5E-3", "10L", "0x1F", "077", "9223372036854775807", "123456789012345678",
          "1234567890123456789", "100AND", "2.5F", "1..2", "=", "<>", "!=", "==", "<", "<=", ">", ">=", "+", "-",
          "--", "---", "*", "/", "/*", "*/", "%", "(", ")", ",", ":", "?", "convert_string_expressions:", " ", " ",
          "  ", "\t", "\n", "\r\n", "\f", "\v"]


def corpus_selectors() -> list:
    texts = []
    for path in sorted(CORPORA.glob("**/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                selector = json.loads(line).get("selector")
                if isinstance(selector, str):
                    texts.append(selector)
    return list(dict.fromkeys(texts))


def soups(count: int, seed: int) -> list:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) + rng.choice(["", " ", ""]) for _ in range(rng.randrange(1, 9)))
            for _ in range(count)]


def ply_answer(lexer: SelectorLexer, text: str):
    try:
        return [(t.type, t.value, type(t.value), t.lexpos) for t in lexer.ply_tokens(text)]
    except SelectorError as e:
        return ("error", type(e).__name__, e.message)


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_scan_returns_plys_tokens_or_nothing(name):
    dialect = DIALECTS[name]
    lexer = SelectorLexer(dialect)
    corpus = corpus_selectors()
    fast = 0
    for text in corpus + soups(3000, seed=len(name)):
        got = scan(text, dialect)
        if got is None:
            continue
        fast += text in corpus
        assert [(t.type, t.value, type(t.value), t.lexpos) for t in got] == ply_answer(lexer, text), text
    # the fast path is the common one: most corpus selectors are plain (C++ literals aside)
    assert fast > len(corpus) // (4 if dialect.cpp_literals else 2), (fast, len(corpus))


def test_scan_leaves_every_unusual_form_to_ply():
    jms, activemq = DIALECTS["jms"], DIALECTS["activemq"]
    for text in ["a.b = 1", "é = 1", "a = 10L", "a = 0x1F", "a = 07", "a = 1e5", "a = 1.", "a = .5",
                 "b BETWEEN 100AND 200", "a = 1 -- c\n", "a /* c */ = 1", "a != 1", '"a" = 1', "a = 'x",
                 "a = 1234567890123456789", "xpath = 1", "a\v= 1", "convert_string_expressions:a = 'b'"]:
        assert scan(text, activemq) is None, text
    assert scan("a = 1", DIALECTS["qpid-cpp"]) is None  # C++ literals: every number is PLY's
    tokens = scan("JMSType = 'car' AND weight > 2500 AND price <= 0.5", jms)
    assert [t.type for t in tokens] == ["IDENTIFIER", "EQ", "STRING", "AND", "IDENTIFIER", "GT", "EXACT_NUMERIC",
                                        "AND", "IDENTIFIER", "LE", "APPROX_NUMERIC"]
    assert tokens[2].value == ("car", "'car'") and tokens[6].value == (2500, "2500") and tokens[6].lexpos == 29
