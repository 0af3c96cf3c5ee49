"""The selector parser: text → AST. PLY lives here and in `lexer.py` only.

The grammar is in `grammar` (the leaf rules every dialect shares) and `grammar_variants` (the
condition rules: the JMS specification's `SqlGrammar`, ActiveMQ's `ActiveMQGrammar`, Qpid
Broker-J's `BrokerJGrammar`); this module builds and runs one PLY parser per dialect.

A dialect picks its grammar with ``Dialect.not_binds_tighter`` and ``chained_comparisons``.
Without ``Dialect.require_eof`` (WSO2: its JavaCC grammar has no ``<EOF>``) the selector is the
longest prefix the grammar accepts where the next token cannot continue it; the rest (which must
lex) is ignored and reported as `Selector.ignored`. Each parser is built lazily, once per process, from an instance, with ``write_tables=False, debug=False``: nothing is written to
disk, ever (site-packages and executors' zips are read-only). Grammar docstrings are BNF read by
PLY, so ``python -OO`` (which strips docstrings) cannot build the parser; that is detected and
reported.
"""
from __future__ import annotations

import functools
import threading

import ply.yacc as yacc

from ..language.dialects import JMS, Dialect
from ..language import nodes as n
from ..language.errors import SelectorSyntaxError
from .grammar_variants import ActiveMQGrammar, BrokerJGrammar, CppGrammar, SqlGrammar
from .lexer import SelectorLexer
from .limits import MAX_DEPTH, MAX_LENGTH, check_tree_depth
from .lr import LRTables
from .rabbitmq_client import parse_client
from ..language.source import Span

__all__ = ["parse_tree", "parse_tree_with_tail", "parse_tree_info", "MAX_LENGTH", "MAX_DEPTH"]



class _Parser:
    """A built PLY parser plus the lexer for one dialect. Not thread-safe: use under `lock`."""

    def __init__(self, dialect: Dialect):
        grammar_cls = (ActiveMQGrammar if dialect.not_binds_tighter
                       else BrokerJGrammar if dialect.chained_comparisons
                       else CppGrammar if dialect.in_expressions or dialect.cpp_like_escape else SqlGrammar)
        if grammar_cls.p_selector.__doc__ is None:
            raise RuntimeError("the selector grammar lives in docstrings; it cannot be built under python -OO")
        self.grammar = grammar_cls(dialect)
        self.lexer = SelectorLexer(dialect)
        self.tables = LRTables(yacc.yacc(module=self.grammar, write_tables=False, debug=False,
                                       errorlog=yacc.NullLogger(), optimize=False), self.grammar)
        self.lock = threading.Lock()

    def parse(self, text: str) -> "tuple[n.Node, int | None]":
        """The tree, and where ignored trailing text starts (None: the whole text was read)."""
        with self.lock:
            self.grammar.text = text
            if self.grammar.dialect.require_eof:
                tokens = self.lexer.tokenize(text)
                _check_paren_depth(tokens_checked := [], tokens, text)
                limit = self.grammar.dialect.max_tokens
                if limit is not None and len(tokens_checked) > limit:
                    tok = tokens_checked[limit]
                    raise SelectorSyntaxError(f"selector has more than the {self.grammar.dialect.name} limit of"
                                              f" {limit} tokens", text, Span(tok.lexpos, len(text)))
                it = iter(tokens_checked)
                return self.tables.parse(lambda: next(it, None)), None
            return self._parse_prefix(text)

    def _parse_prefix(self, text: str) -> "tuple[n.Node, int | None]":
        # Tokens are lexed one at a time, as JavaCC does: a token after the selector's end must
        # lex (it is the parser's lookahead), the text after it is never read.
        given, depth = [], [0]
        stream = self.lexer.tokenize(text)

        def next_token():
            tok = next(stream, None)
            if tok is not None:
                depth[0] += {"LPAREN": 1, "RPAREN": -1}.get(tok.type, 0)
                if depth[0] > MAX_DEPTH:
                    raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                              Span(tok.lexpos, tok.lexpos + 1))
                given.append(tok)
            return tok

        try:
            return self.tables.parse(next_token), None
        except SelectorSyntaxError as e:
            at = [i for i, tok in enumerate(given) if tok.lexpos == e.span.start]
            if not at or not e.message.startswith("unexpected "):
                raise
            stop = at[0]
            # JavaCC looks two tokens ahead at NOT (NOT LIKE / BETWEEN / IN): `a = 1 NOT x` stops before NOT.
            cuts = [stop] + ([stop - 1] if stop >= 2 and given[stop - 1].type == "NOT" else [])
            for cut in cuts:
                it = iter(given[:cut])
                try:
                    return self.tables.parse(lambda: next(it, None)), given[cut].lexpos
                except SelectorSyntaxError:
                    continue
            raise e


def _check_paren_depth(out: list, tokens, text: str) -> None:
    depth = 0
    for tok in tokens:
        if tok.type == "LPAREN":
            depth += 1
            if depth > MAX_DEPTH:
                raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                          Span(tok.lexpos, tok.lexpos + 1))
        elif tok.type == "RPAREN":
            depth -= 1
        out.append(tok)


@functools.lru_cache(maxsize=16)
def _parser_for(dialect: Dialect) -> _Parser:
    return _Parser(dialect)


def parse_tree(text: str, dialect: Dialect = JMS, *, max_length: int = MAX_LENGTH) -> "n.Node | None":
    """Parse ``text`` to an unchecked AST (None for an empty or blank selector); see
    `parse_tree_with_tail`."""
    return parse_tree_info(text, _dialect(dialect), max_length=max_length)[0]


def parse_tree_with_tail(text: str, dialect: Dialect = JMS, *,
                         max_length: int = MAX_LENGTH) -> "tuple[n.Node | None, Span | None]":
    """Parse ``text`` to an unchecked AST (None for an empty or blank selector), and the span of
    trailing text the dialect ignores (``Dialect.require_eof`` False; else None).

    ``max_length`` is the longest text accepted, in characters (default `MAX_LENGTH`).

    Raises `SelectorSyntaxError` for text that is not a selector. Static type rules are applied
    afterwards by `checker.check`; use `jms_selector_spark.parse` for both. ``dialect`` is a
    `Dialect` (the entry points turn a name into one, once: `get_dialect`).
    """
    return parse_tree_info(text, _dialect(dialect), max_length=max_length)[:2]


def _dialect(dialect) -> Dialect:
    if not isinstance(dialect, Dialect):
        raise TypeError(f"dialect must be a Dialect, not {type(dialect).__name__}: pass get_dialect({dialect!r})")
    return dialect


def parse_tree_info(text: str, d: Dialect, *, max_length: int = MAX_LENGTH) -> "tuple[n.Node | None, Span | None, int]":
    """`parse_tree_with_tail`'s tree and tail, and the tree's depth (`nodes.depth`; 0 for no tree),
    found by the same walk that checks it against `MAX_DEPTH`."""
    if not isinstance(text, str):
        raise TypeError(f"a selector is a str, not {type(text).__name__}")
    if len(text) > max_length:
        raise SelectorSyntaxError(f"selector is longer than {max_length:,} characters"
                                  + (" (parse(text, max_length=N) takes a larger limit)" if max_length == MAX_LENGTH
                                     else ""), text, Span(max_length, len(text)))
    if d.max_length is not None and len(text.encode("utf-8", "surrogatepass")) > d.max_length:
        raise SelectorSyntaxError(f"selector is longer than the {d.name} limit of {d.max_length:,} bytes",
                                  text, Span(0, len(text)))
    if not text.strip(" \t\f\r\n"):
        if text and d.blank_selector_invalid:
            raise SelectorSyntaxError(f"a selector of blanks only is invalid in the {d.name!r} dialect"
                                      " (the empty string means no selector)", text, Span(0, len(text)))
        return None, None, 0
    if d.rabbitmq_client_grammar:
        root, stop = parse_client(text), None
        return root, None, 0 if root is None else check_tree_depth(root, text)
    try:
        # the parser does not depend on string conversion (a comparison-time rule): one per dialect
        root, stop = _parser_for(d.derive(convert_string_expressions=False) if d.convert_string_expressions else d
                                 ).parse(text)
    except RecursionError:  # defensive: PLY itself is iterative
        raise SelectorSyntaxError(f"selector nested more than {MAX_DEPTH} levels deep", text,
                                  Span(0, len(text))) from None
    depth = check_tree_depth(root, text)
    tail = None if stop is None else Span(stop, len(text.rstrip(" \t\f\r\n")))
    return root, tail, depth
