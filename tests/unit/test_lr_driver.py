"""The LR driver (`frontend.lr`) runs PLY's tables: what it skips must be skippable, and it must
parse what PLY's own loop parses, to the same trees and the same errors."""
from __future__ import annotations

import ast
import inspect
import textwrap

import pytest
import ply.yacc as yacc

from jms_selector_spark.frontend import grammar_variants
from jms_selector_spark.frontend.lr import UNIT_ACTIONS
from jms_selector_spark.frontend.parser import _parser_for
from jms_selector_spark.language.dialects import DIALECTS
from jms_selector_spark.language.errors import SelectorSyntaxError

GRAMMARS = [grammar_variants.SqlGrammar, grammar_variants.ActiveMQGrammar, grammar_variants.BrokerJGrammar,
            grammar_variants.CppGrammar]


@pytest.mark.parametrize("cls", GRAMMARS, ids=lambda c: c.__name__)
def test_every_unit_action_only_passes_its_operand_on(cls):
    """A production the driver reduces without calling its action: the action is ``p[0] = p[1]``
    (a docstring aside) in every grammar class that has it."""
    for name in UNIT_ACTIONS:
        fn = getattr(cls, name, None)
        if fn is None:
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0].body
        body = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        assert len(body) == 1 and ast.unparse(body[0]) == "p[0] = p[1]", (cls.__name__, name, ast.unparse(body[0]))


SELECTORS = ["JMSType = 'car' AND color = 'blue' AND weight > 2500", "NOT a = 1 OR b IS NOT NULL",
             "-(a + -5) * 3 / +2 % 7 <> 1", "x BETWEEN 1 AND 2 AND y NOT IN ('a', 'b')",
             "s LIKE 'a!%%' ESCAPE '!'", "a = b = c", "(a)", "a = = 1", "a AND", "", "1 + 'x' = a",
             "INLIST(SPLIT(r, '-'), 'EU')", "x IN (1, 2)", "NULL IS NULL", "TRUE"]


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_the_driver_and_plys_loop_agree(dialect):
    """Each selector through the driver and through ``LRParser.parse`` on the same tables: the same
    tree, or the same error message and position."""
    parser = _parser_for(DIALECTS[dialect])  # (a dialect parsing prefixes runs the same tables)
    ply_parser = yacc.yacc(module=parser.grammar, write_tables=False, debug=False, errorlog=yacc.NullLogger())

    def run(use_ply, text):
        parser.grammar.text = text
        # PLY's loop reads PLY's own tokens (its error path needs them); the driver reads the
        # lexer's, from the fast path where it applies (`frontend.scanner`)
        tokens = iter(list(parser.lexer.ply_tokens(text) if use_ply else parser.lexer.tokenize(text)))
        try:
            if use_ply:
                return ply_parser.parse(tokenfunc=lambda: next(tokens, None))
            return parser.tables.parse(lambda: next(tokens, None))
        except SelectorSyntaxError as e:
            return ("error", e.message, e.span)
        except Exception as e:  # noqa: BLE001 - a type error and the like: compared by class and text
            return ("error", type(e).__name__, str(e))

    with parser.lock:
        for text in SELECTORS:
            if not text:
                continue
            assert run(False, text) == run(True, text), text
