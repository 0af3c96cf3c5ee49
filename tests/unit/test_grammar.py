"""The grammars and the visitors, checked as artefacts.

- Each dialect's PLY grammar builds with zero shift/reduce and reduce/reduce conflicts, no unused
  tokens or rules and no unreachable symbols. PLY only reports conflicts when ``debug=True``; the
  build here passes its own loggers (collecting into StringIO), so nothing is written to disk.
  A deliberately ambiguous grammar proves the collecting logger does see conflicts.
- Building the lexer and parser the way the library does, and parsing, writes no file: no
  ``parsetab.py``, ``parser.out`` or ``lextab.py`` in the package or the working directory.
- Every `NodeVisitor` subclass in the package has a ``visit_`` method for every node type (found
  statically, so back ends that import pyspark/pyarrow are checked without importing them), and
  the importable ones agree through `NodeVisitor.missing_handlers`. The printer and the CLI's
  tree renderer handle every node type too.
"""
from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import ply.yacc as yacc
import pytest

import jms_selector_spark
from jms_selector_spark.semantics import core
from jms_selector_spark import ACTIVEMQ, JMS
from jms_selector_spark.cli.commands import _LABELS, render_tree
from jms_selector_spark.frontend import grammar_variants
from jms_selector_spark.language import nodes as n
from jms_selector_spark.frontend import parser as selector_parser
from jms_selector_spark.frontend.lexer import SelectorLexer
from jms_selector_spark.frontend.printer import to_text
from jms_selector_spark.frontend.tokens import TOKENS
from jms_selector_spark.language.visitor import NodeVisitor
from jms_selector_spark.language.types import JmsType

PACKAGE_DIR = Path(jms_selector_spark.__file__).parent
GRAMMARS = {"jms": (grammar_variants.SqlGrammar, JMS), "activemq": (grammar_variants.ActiveMQGrammar, ACTIVEMQ)}
PLY_FILES = {"parsetab.py", "parser.out", "lextab.py", "parsetab.pyc", "lextab.pyc"}


def build_with_logs(grammar):
    """Build a PLY parser for ``grammar`` with collecting loggers; return (errorlog, debuglog) text."""
    errors, debug = io.StringIO(), io.StringIO()
    yacc.yacc(module=grammar, debug=True, write_tables=False, optimize=False,
              errorlog=yacc.PlyLogger(errors), debuglog=yacc.PlyLogger(debug))
    return errors.getvalue(), debug.getvalue()


@pytest.mark.parametrize("dialect", sorted(GRAMMARS))
def test_grammar_has_no_conflicts_or_unused_parts(dialect):
    cls, d = GRAMMARS[dialect]
    errors, debug = build_with_logs(cls(d))
    assert "Generating LALR tables" in errors  # the collecting logger is the one PLY used
    for bad in ("conflict", "defined, but not used", "unused", "unreachable", "never reduced", "ERROR"):
        assert bad not in errors, errors
    assert "conflict" not in debug.lower()
    assert "Unused terminals" not in debug


@pytest.mark.parametrize("dialect", sorted(GRAMMARS))
def test_every_token_is_used_by_the_grammar(dialect):
    cls, d = GRAMMARS[dialect]
    _, debug = build_with_logs(cls(d))
    terminals = debug.split("Terminals, with rules where they appear", 1)[1].split("Nonterminals", 1)[0]
    used = {line.split(":")[0].strip() for line in terminals.splitlines() if ":" in line and line.split(":")[1].strip()}
    assert set(TOKENS) <= used


class _Ambiguous:
    """``expr : expr PLUS expr``: the classic shift/reduce conflict, plus an unused token."""

    tokens = ("IDENTIFIER", "PLUS", "TIMES")

    def p_expr(self, p):
        """expr : expr PLUS expr
                | IDENTIFIER"""

    def p_error(self, p):
        pass


def test_the_collecting_logger_would_see_a_conflict():
    errors, _ = build_with_logs(_Ambiguous())
    assert "1 shift/reduce conflict" in errors
    assert "Token 'TIMES' defined, but not used" in errors


def _listing(*dirs):
    return {d: sorted(str(p.relative_to(d)) for p in Path(d).rglob("*") if "__pycache__" not in p.parts)
            for d in dirs}


def test_building_and_parsing_writes_no_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = _listing(PACKAGE_DIR, tmp_path)
    for d in (JMS, ACTIVEMQ):
        lexer = SelectorLexer(d)
        list(lexer.tokenize("a = 1 AND b LIKE 'x%'"))
        built = selector_parser._Parser(d)  # a fresh build, as the library does it (not the cache)
        assert built.parse("a = 1 AND NOT (b LIKE 'x%' OR c IS NULL)") is not None
    jms_selector_spark.parse("color = 'blue' AND weight > 2500")
    jms_selector_spark.parse("NOT a = 1", dialect="activemq")
    assert _listing(PACKAGE_DIR, tmp_path) == before
    assert not PLY_FILES & {p.name for p in PACKAGE_DIR.rglob("*")}
    assert not PLY_FILES & {p.name for p in tmp_path.rglob("*")}


def test_parser_is_not_built_at_import():
    code = ("import sys, jms_selector_spark, jms_selector_spark.frontend.parser as p; "
            "print(p._parser_for.cache_info().currsize, 'ply.yacc' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["0", "True"]  # PLY is imported, but no parser is built until the first parse


# -- visitors ------------------------------------------------------------------------------------

NODE_NAMES = {t.__name__ for t in n.NODE_TYPES}
#: Every visitor of the package is a back end: it implements the core language (`core`), and no
#: front-end node that lowering replaces.
CORE_NAMES = {t.__name__ for t in core.CORE_TYPES}
LOWERED_AWAY = {t.__name__ for t in core.LOWERED_AWAY}


def _visitor_classes():
    """{(module path, class name): set of visit_ handler names}, resolving bases within the package."""
    classes = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                handlers = {f.name[len("visit_"):] for f in node.body
                            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith("visit_")}
                classes[node.name] = (path.relative_to(PACKAGE_DIR), bases, handlers)

    def is_visitor(name, seen=()):
        if name == "NodeVisitor":
            return True
        entry = classes.get(name)
        return bool(entry) and name not in seen and any(is_visitor(b, seen + (name,)) for b in entry[1])

    def all_handlers(name):
        path, bases, handlers = classes[name]
        out = set(handlers)
        for b in bases:
            if b in classes:
                out |= all_handlers(b)
        return out

    return {(str(classes[c][0]), c): all_handlers(c) for c in classes if c != "NodeVisitor" and is_visitor(c)}


VISITORS = _visitor_classes()


def test_the_known_visitors_are_found():
    names = {cls for _, cls in VISITORS}
    assert {"ReferenceInterpreter", "SparkSqlGenerator", "VectorizedEvaluator"} <= names


@pytest.mark.parametrize("where", sorted(VISITORS), ids=lambda w: f"{w[0]}:{w[1]}")
def test_every_visitor_handles_every_core_node_type_and_no_other(where):
    missing = CORE_NAMES - VISITORS[where]
    assert not missing, f"{where[1]} in {where[0]} has no visit_ method for {sorted(missing)}"
    front_end = LOWERED_AWAY & VISITORS[where]
    assert not front_end, f"{where[1]} in {where[0]} handles front-end nodes lowering replaces: {sorted(front_end)}"


def test_importable_visitors_report_no_missing_handlers():
    from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
    from jms_selector_spark.interpreter import ReferenceInterpreter

    for cls in (ReferenceInterpreter, SparkSqlGenerator):
        assert issubclass(cls, NodeVisitor)
        assert cls.missing_handlers() == []


def test_missing_handlers_would_be_reported():
    class Partial(NodeVisitor):
        def visit_Literal(self, node):
            return node.value

    assert set(Partial.missing_handlers()) == NODE_NAMES - {"Literal"}
    with pytest.raises(jms_selector_spark.UnsupportedSelectorError, match="Partial cannot handle Identifier"):
        Partial().visit(n.Identifier("a"))


def one_of_each():
    """An instance of every node type."""
    a, one = n.Identifier("a"), n.Literal(1, JmsType.LONG)
    made = [
        n.Literal("x", JmsType.STRING), a, n.Not(a), n.And((a, a)), n.Or((a, a)),
        n.Comparison(n.CompareOp.EQ, a, one), n.Arithmetic(n.ArithOp.PLUS, a, one), n.Unary(n.UnaryOp.MINUS, a),
        n.Between(a, one, one), n.InList(a, (n.Literal("x", JmsType.STRING),)), n.Like(a, "x%", "!"),
        n.IsNull(a), n.FunctionCall("REGEX", (n.Literal("x", JmsType.STRING), a)),
    ]
    assert {type(m) for m in made} == set(n.NODE_TYPES)
    return made


@pytest.mark.parametrize("node", one_of_each(), ids=lambda node: type(node).__name__)
def test_printer_and_tree_renderer_handle_every_node_type(node):
    assert to_text(node, ACTIVEMQ)
    assert render_tree(node, ACTIVEMQ)
    assert set(_LABELS) == set(n.NODE_TYPES)


def test_no_parser_objects_in_module_globals():
    # PLY objects live in the cached builder only (picklable, executor-safe modules).
    for module in (selector_parser, jms_selector_spark.frontend.lexer):
        for name, value in vars(module).items():
            assert not isinstance(value, (yacc.LRParser, SelectorLexer)), name
