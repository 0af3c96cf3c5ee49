"""The ``jms-selector`` command line: check, lint and explain selectors.

::

    jms-selector check "color = 'blue' AND weight > 2500"
    jms-selector check --dialect activemq --lint "NOT a = 1"
    jms-selector lint --file subscriptions.jsonl --schema archive/
    jms-selector explain --schema "weight:long,color:string" "color = 'blue' AND weight > 2500"
    python -m jms_selector_spark check - < selector.txt

``check`` prints the canonical form of a valid selector and, for an invalid one, the error with a
caret under the offending text (on stderr); ``--lint`` adds `lint`'s warnings. ``lint`` prints
only the warnings. ``explain`` prints the selector as parsed (canonical text), the syntax tree,
the Spark SQL fragment `selector_to_sql` produces for it, how `jms_filter` runs it, and the lint
warnings; without ``--schema`` the SQL assumes flat column types guessed from use, and says so.

Input: one SELECTOR argument, ``-`` (all of stdin is one selector), or ``--file FILE`` (``-`` for
stdin) holding many: one per line, or JSON lines ``{"name": ..., "selector": ...}``. Invalid UTF-8
is reported per selector; output escapes control characters and invalid bytes. ``--schema`` is
``NAME:TYPE,...`` (JMS types), a Spark DDL string, or a Parquet file or folder.

Exit status: 0 all valid (and no lint warning), 1 an invalid selector, 2 usage error (argparse's
convention; also an unreadable --file or a malformed JSON line), 3 lint warnings only.

What this module deliberately does not do: start Spark (the SQL fragment is a string built
without it; pyspark's pure-Python type classes are imported only for a DDL or Parquet
``--schema``), or evaluate anything against data.

``explain`` is a sequence of sections, each a small function from an `_Explanation` to lines
(`EXPLAIN_SECTIONS`): selector, tree, SQL, plan, lint; a new section is one more function.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from .._version import __version__
from ..language import nodes as n
from ..language.errors import SelectorError, UnsupportedSelectorError
from ..frontend.printer import quote_string, to_text
from ..frontend.selector import Selector
from ..parsing import parse
from ..language.dialects import DIALECTS, JMS, Dialect, get_dialect
from ..language.types import JmsType
from .selector_io import (EXIT_INVALID, EXIT_OK, EXIT_USAGE, InputError, add_binding_options, binding_of, emit,
                          entry_prefix, exit_status, lint_lines, parse_entry, read_entries, report, summary)
from .schema import parse_ddl, parse_schema, read_parquet_schema, schema_arg, schema_text

__all__ = ["main", "build_parser", "render_tree", "parse_schema", "parse_ddl", "read_parquet_schema",
           "EXPLAIN_SECTIONS"]


_EXIT_CODES = """\
exit status:
  0  every selector is valid (and, for lint / check --lint, has no warning)
  1  at least one selector is invalid (its error and caret are on stderr)
  2  usage error: bad option, unreadable --file, malformed JSON line, bad --schema
  3  lint / check --lint: every selector is valid, at least one has a warning
"""

_EPILOG = """\
examples:
  jms-selector check "color = 'blue' AND weight > 2500"
  jms-selector check --dialect activemq "NOT a = 1"
  jms-selector check --lint "JMSType = car"
  jms-selector lint --file subscriptions.jsonl --schema archive/      (a Parquet folder)
  jms-selector explain --schema "weight:long,color:string" "color = 'blue' AND weight > 2500"
  jms-selector explain --schema "qty STRING, properties MAP<STRING,STRING>" "qty > 4"
  jms-selector check - < selector.txt        (one selector: all of stdin)
  jms-selector check -f - < selectors.txt    (many: one per line, or JSON lines with names)
  jms-selector report --subscriptions subs.csv --archive archive/ --html report.html

Output escapes control characters and invalid UTF-8 (\\x1b, \\xff).

""" + _EXIT_CODES


# -- the tree ------------------------------------------------------------------------------------

def _show_text(s: str) -> str:
    """A string literal as selector text, with unprintable characters as visible escapes so that
    one node stays on one line."""
    quoted = quote_string(s)
    if quoted.isprintable():
        return quoted
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in quoted)


def _literal_label(node: n.Literal, dialect: Dialect) -> str:
    if node.type is JmsType.STRING:
        return f"Literal {_show_text(node.value)} ({node.type.value})"
    if node.type is JmsType.NULL:
        return "Literal NULL"
    return f"Literal {to_text(node, dialect)} ({node.type.value})"


def _identifier_label(node: n.Identifier, dialect: Dialect) -> str:
    name = node.name if node.name.isprintable() else node.name.encode("unicode_escape").decode("ascii")
    header = dialect.header_for(node.name)
    if header is None:
        return f"Identifier {name} (property)"
    return f"Identifier {name} (header {header})" if header != node.name else f"Identifier {name} (header)"


def _neg(node, word: str) -> str:
    return f"NOT {word}" if node.negated else word


# One label per node type: the node's class name and what is not shown as a child (operator,
# value, pattern). A test checks every type in nodes.NODE_TYPES has one.
_LABELS = {
    n.Literal: _literal_label,
    n.Identifier: _identifier_label,
    n.Not: lambda node, d: "Not",
    n.And: lambda node, d: "And",
    n.Or: lambda node, d: "Or",
    n.Comparison: lambda node, d: f"Comparison {node.op.value}",
    n.Arithmetic: lambda node, d: f"Arithmetic {node.op.value}",
    n.Unary: lambda node, d: f"Unary {node.op.value}",
    n.Between: lambda node, d: f"Between {_neg(node, 'BETWEEN')}",
    n.InList: lambda node, d: f"InList {_neg(node, 'IN')} ({', '.join(_show_text(v.value) for v in node.values)})",
    n.Like: lambda node, d: (f"Like {_neg(node, 'LIKE')} {_show_text(node.pattern)}"
                             + ("" if node.escape is None else f" ESCAPE {_show_text(node.escape)}")),
    n.IsNull: lambda node, d: f"IsNull IS {'NOT ' if node.negated else ''}NULL",
    n.FunctionCall: lambda node, d: f"FunctionCall {node.name}",
}


def _tree_children(node: n.Node) -> tuple:
    # IN list values are shown in the InList label; every other sub-expression is a child.
    if isinstance(node, n.InList):
        return (node.operand,)
    return n.children(node)


def render_tree(root: "n.Node | None", dialect: Dialect = JMS, *, ascii_only: bool = False) -> list[str]:
    """The AST as an indented tree, one node a line: class name, then operator or value.

    Iterative, so the deepest tree `parse` accepts renders without recursion.

    Parameters
    ----------
    root : Node or None
        The tree (`Selector.root`); None is the empty selector.
    dialect : Dialect, default JMS
        Decides which names are headers and how literals print.
    ascii_only : bool, default False
        Draw the branches with ``|``, ``+--`` and ``\\--`` instead of box-drawing characters.

    Returns
    -------
    list of str

    Examples
    --------
    >>> print("\\n".join(render_tree(parse("a = 1 OR b IS NULL").root)))
    Or
    ├── Comparison =
    │   ├── Identifier a (property)
    │   └── Literal 1 (long)
    └── IsNull IS NULL
        └── Identifier b (property)
    """
    if root is None:
        return ["(empty selector: every message matches)"]
    tee, last, bar = ("+-- ", "\\-- ", "|   ") if ascii_only else ("├── ", "└── ", "│   ")
    lines = []
    stack = [(root, "", None)]  # (node, indentation, is-last-child; None for the root)
    while stack:
        node, indent, is_last = stack.pop()
        label = _LABELS.get(type(node))
        if label is None:
            raise UnsupportedSelectorError(f"cannot render {type(node).__name__}", "", getattr(node, "span", None))
        if is_last is None:
            lines.append(label(node, dialect))
            child_indent = ""
        else:
            lines.append(indent + (last if is_last else tee) + label(node, dialect))
            child_indent = indent + ("    " if is_last else bar)
        kids = _tree_children(node)
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], child_indent, i == len(kids) - 1))
    return lines


# -- explain -------------------------------------------------------------------------------------

@dataclass
class _Explanation:
    """What the explain sections read: the parsed selector, compiled once for the schema (given,
    or assumed from use), and the output style."""

    selector: Selector
    schema: "dict | None"
    ascii_only: bool = False
    #: ``headers=`` / ``properties=`` for binding (as for jms_filter).
    binding: dict = field(default_factory=dict)
    #: Filled by the lint section.
    lint: list = field(default_factory=list)

    @property
    def compiled(self):
        """The selector compiled once (`compiler.compile_selector`), for every section."""
        known = self.__dict__.get("_compiled")
        if known is None:
            from ..compiler import compile_selector

            known = self.__dict__["_compiled"] = compile_selector(
                self.selector, self.schema, collisions="caller", **self.binding)
        return known


def _section_selector(ex: _Explanation) -> list[str]:
    sel = ex.selector
    lines = [f"selector ({sel.dialect.name} dialect):"]
    lines += ["  " + line for line in (sel.text.splitlines() or [""])]
    if sel.root is not None:
        lines.append(f"canonical: {sel.canonical()}")
    return lines


def _section_tree(ex: _Explanation) -> list[str]:
    return ["tree:"] + ["  " + line for line in render_tree(ex.selector.root, ex.selector.dialect,
                                                           ascii_only=ex.ascii_only)]


def _section_sql(ex: _Explanation) -> list[str]:
    """The fragment `selector_to_sql` produces, or why there is none: the selector as one piece
    (`Compiled.whole`, as `route` takes it); no pyspark."""
    compiled = ex.compiled
    whole = compiled.whole
    if ex.schema is not None:
        lines = ["schema (--schema): " + schema_text(ex.schema)]
    elif ex.selector.root is not None:
        lines = ["schema (assumed, no --schema given): "
                 + ", ".join(f"{k}: {v}" for k, v in compiled.assumed_schema.items())]
    else:
        lines = ["schema (no --schema given): no column is read"]
    lines.append("spark sql:")
    lines.append("  " + whole.sql if whole.is_native else f"  (none: {whole.reason.message})")
    return lines


def _section_plan(ex: _Explanation) -> list[str]:
    """How `jms_filter` runs it: one WHERE fragment, or native pieces plus fallback UDF pieces."""
    if ex.selector.root is None:
        return []
    if ex.compiled.whole.is_native:
        return ["plan (jms_filter): fully native, one WHERE fragment, no Python"]
    return ["plan (jms_filter): native where it maps, the vectorized Arrow UDF for the rest"] + [
        "  " + line for line in ex.compiled.explain().splitlines()]


def _section_lint(ex: _Explanation) -> list[str]:
    """`lint`'s warnings, with their carets (the schema checks only with --schema)."""
    from ..analysis.lint import lint

    if ex.selector.root is None:
        return []
    ex.lint = lint(ex.compiled)
    if not ex.lint:
        return ["lint: no warnings" + ("" if ex.schema is not None else " (give --schema for the table checks)")]
    return [f"lint: {len(ex.lint)} warning{'s' if len(ex.lint) > 1 else ''}"] + [
        "  " + line for w in ex.lint for line in str(w).splitlines()]


#: The sections of ``explain``, in order: each takes the `_Explanation` and returns its lines.
EXPLAIN_SECTIONS = (_section_selector, _section_tree, _section_sql, _section_plan, _section_lint)


# -- commands ------------------------------------------------------------------------------------

def _cmd_check(args, *, lint_always: bool = False) -> int:
    from ..analysis.lint import lint

    entries = read_entries(args)
    want_lint = lint_always or args.lint
    invalid = warned = 0
    for entry in entries:
        try:
            sel = parse_entry(entry, args.dialect)
            found = lint(sel, schema=args.schema, **binding_of(args)) if want_lint else []
        except SelectorError as e:
            invalid += 1
            if not args.quiet:
                report(e, entry)
            continue
        warned += bool(found)
        if args.quiet:
            continue
        if not lint_always or not found:
            what = ("empty (every message matches)" if sel.root is None else sel.canonical())
            emit(f"{entry_prefix(entry)}valid {sel.dialect.name} selector: {what}", sys.stdout)
        for line in lint_lines(found):
            emit(f"{entry_prefix(entry)}{line}", sys.stdout)
    summary(args, entries, invalid, warned)
    return exit_status(invalid, warned)


def _cmd_lint(args) -> int:
    return _cmd_check(args, lint_always=True)


def _cmd_explain(args) -> int:
    entries = read_entries(args)
    invalid = warned = 0
    for k, entry in enumerate(entries):
        try:
            sel = parse_entry(entry, args.dialect)
            ex = _Explanation(sel, args.schema, ascii_only=args.ascii, binding=binding_of(args))
            blocks = [section(ex) for section in EXPLAIN_SECTIONS]
        except SelectorError as e:  # syntax, type, or binding to --schema
            invalid += 1
            report(e, entry)
            continue
        warned += bool(ex.lint)
        head = [f"== {entry.name} =="] if entry.name is not None else []
        if k:
            emit("", sys.stdout)
        emit("\n\n".join("\n".join(block) for block in [head] + blocks if block), sys.stdout)
    summary(args, entries, invalid, 0)
    return EXIT_INVALID if invalid else EXIT_OK


def _cmd_route_plan(args) -> int:
    """The routing plan of several subscriptions (`explain_routing`): no Spark needed."""
    from ..binder import infer_flat_schema
    from ..spark.routing.explain import explain_routing

    subs = []
    for i, item in enumerate(args.selectors):
        subs.append((f"sub-{i + 1}", item))
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                name, tab, sel = line.partition("\t")
                subs.append((name, sel) if tab else (f"sub-{len(subs) + 1}", line))
    if not subs:
        emit("route-plan: give selectors as arguments or --file", sys.stderr)
        return EXIT_USAGE
    schema = args.schema
    if schema is None:  # flat columns, types guessed from use across all the selectors
        schema = {}
        for _, sel in subs:
            try:
                for k, v in infer_flat_schema(parse(sel, dialect=args.dialect)).items():
                    schema.setdefault(k, v)
            except SelectorError:
                pass
    emit(explain_routing(schema, subs, dialect=args.dialect), sys.stdout)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``jms-selector`` (sub-commands ``check``, ``lint`` and ``explain``)."""
    parser = argparse.ArgumentParser(
        prog="jms-selector",
        description="Check JMS message selectors, lint them, and explain how they are parsed and "
                    "translated to Spark SQL.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(p):
        p.add_argument("selector", metavar="SELECTOR", nargs="?",
                       help="the selector text; '-' reads one selector (all of stdin) from standard input")
        p.add_argument("-f", "--file", metavar="FILE",
                       help="read many selectors from FILE ('-': stdin): one per line (blank lines and lines "
                            "starting with # skipped), or JSON lines {\"name\": ..., \"selector\": ...}")
        p.add_argument("--format", choices=("auto", "lines", "jsonl"), default="auto",
                       help="how --file is laid out (default: JSON lines when its first line starts with '{')")
        p.add_argument("--dialect", choices=sorted(DIALECTS), default="jms",
                       help="the rules to apply: 'jms' (the specification, default), "
                            "'activemq' (ActiveMQ Classic 5.17) or another broker's (README, 'Dialects')")
        p.add_argument(
            "--schema", type=schema_arg, metavar="SCHEMA",
            help="the table: 'weight:long,color:string' (JMS types), a Spark DDL string "
                 "('weight BIGINT, properties MAP<STRING,STRING>'), or a Parquet file or folder "
                 "(its schema is read). Without it, explain guesses flat types from use.",
        )
        add_binding_options(p)

    check = sub.add_parser(
        "check", help="exit 0 if every selector is valid, 1 (with the error and a caret) if one is not",
        description="Parse and statically check selectors. Prints the canonical form of each valid one "
                    "(exit 0); prints the error with a caret under the offending text on stderr for an "
                    "invalid one (exit 1). With --lint, also the lint warnings (exit 3 when there are "
                    "some and nothing is invalid).",
        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common(check)
    check.add_argument("--lint", action="store_true", help="also print lint warnings (see the lint command)")
    check.add_argument("-q", "--quiet", action="store_true", help="print nothing; only the exit status tells")
    check.set_defaults(run=_cmd_check, command_parser=check)

    lint = sub.add_parser(
        "lint", help="print warnings about what is legal but probably not meant (exit 3 if any)",
        description="Print lint warnings with a caret: '--' read as two minus signs, a header compared "
                    "with a bare name, a string property used as a number, a name the --schema "
                    "cannot hold, a wide DECIMAL read as a long, a selector near the length limit. "
                    "Prints the canonical form of a selector without warnings.",
        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common(lint)
    lint.add_argument("-q", "--quiet", action="store_true", help="print nothing; only the exit status tells")
    lint.set_defaults(run=_cmd_lint, command_parser=lint)

    explain = sub.add_parser(
        "explain", help="print the parsed tree, the Spark SQL fragment and lint warnings",
        description="Print the selector's canonical form, its syntax tree, the Spark SQL WHERE "
                    "fragment selector_to_sql produces for it, how jms_filter runs it, and its lint "
                    "warnings.",
        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    common(explain)
    explain.add_argument("--ascii", action="store_true", help="draw the tree with ASCII characters only")
    explain.set_defaults(run=_cmd_explain, command_parser=explain)

    plan = sub.add_parser(
        "route-plan", help="print the routing plan of several subscriptions (groups, access names, cost)",
        description="How route() evaluates these subscriptions: the groups of the predicate index, "
                    "their access names and values, and the subscriptions evaluated per message.",
    )
    plan.add_argument("selectors", nargs="*", metavar="SELECTOR", help="selectors (named sub-1, sub-2, ...)")
    plan.add_argument("-f", "--file", metavar="FILE", help="one subscription per line: NAME<TAB>SELECTOR, or a selector")
    plan.add_argument("--dialect", choices=sorted(DIALECTS), default="jms")
    plan.add_argument("--schema", type=schema_arg, metavar="NAME:TYPE,...",
                      help="flat column types; without it, guessed from use")
    plan.set_defaults(run=_cmd_route_plan, command_parser=plan)
    from . import migrate, why  # compare-dialects, migration-report; why, implies
    from .report import add_command as add_report  # report
    migrate.add_commands(sub)
    why.add_commands(sub)
    add_report(sub)
    return parser


def main(argv: "list[str] | None" = None) -> int:
    """Run ``jms-selector`` with ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    Parameters
    ----------
    argv : list of str, optional

    Returns
    -------
    int
        0 valid (or help shown), 1 an invalid selector, 2 usage error, 3 lint warnings.

    Examples
    --------
    >>> main(["check", "color = 'blue' AND weight > 2500"])
    valid jms selector: color = 'blue' AND weight > 2500
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version (0) and usage errors (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    for attr in ("dialect", "from_dialect", "to_dialect"):  # str -> Dialect, once for every command
        if isinstance(getattr(args, attr, None), str):
            setattr(args, attr, get_dialect(getattr(args, attr)))
    try:
        return args.run(args)
    except InputError as e:
        args.command_parser.print_usage(sys.stderr)
        emit(f"jms-selector {args.command}: error: {e}", sys.stderr)
        return EXIT_USAGE
