"""The ``jms-selector`` command line: check a selector, or explain how it is understood.

::

    jms-selector check "color = 'blue' AND weight > 2500"
    jms-selector check --dialect activemq "NOT a = 1"
    jms-selector explain --schema "weight:long,color:string" "color = 'blue' AND weight > 2500"
    python -m jms_selector_spark check - < selector.txt

``check`` exits 0 for a valid selector and 1 for an invalid one, printing the error with a caret
under the offending text (on stderr). ``explain`` prints the selector as parsed (canonical text),
the syntax tree, and the Spark SQL fragment `selector_to_sql` produces for it; without
``--schema`` that function guesses flat column types from how each name is used, and the guess is
shown. Usage errors exit 2 (argparse's convention).

What this module deliberately does not do: import pyspark (the SQL fragment is a string built
without Spark), or evaluate anything against data.

``explain`` is a sequence of sections, each a small function from an `_Explanation` to lines
(`EXPLAIN_SECTIONS`). The tree and the SQL are the first ones; a later section describing the
execution plan (which sub-expressions run natively in Spark and which in the fallback UDF) is one
more function appended to that tuple, reading the same `_Explanation`.
"""
from __future__ import annotations

import argparse
import sys
import warnings
from dataclasses import dataclass, field

from . import nodes as n
from ._version import __version__
from .dialects import DIALECTS, Dialect, get_dialect
from .errors import SelectorError, UnsupportedSelectorError
from .printer import quote_string, to_text
from .selector import Selector, parse
from .types import JmsType

__all__ = ["main", "build_parser", "render_tree", "parse_schema", "EXPLAIN_SECTIONS"]

#: Exit codes.
EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2

_EPILOG = """\
examples:
  jms-selector check "color = 'blue' AND weight > 2500"
  jms-selector check --dialect activemq "NOT a = 1"
  jms-selector explain --schema "weight:long,color:string" "color = 'blue' AND weight > 2500"
  jms-selector check - < selector.txt        (read the selector from stdin)

exit status: 0 valid, 1 invalid selector, 2 usage error.
"""


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


def render_tree(root: "n.Node | None", dialect: "str | Dialect" = "jms", *, ascii_only: bool = False) -> list[str]:
    """The AST as an indented tree, one node a line: class name, then operator or value.

    Iterative, so the deepest tree `parse` accepts renders without recursion.

    Parameters
    ----------
    root : Node or None
        The tree (`Selector.root`); None is the empty selector.
    dialect : str or Dialect, default "jms"
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
    d = get_dialect(dialect)
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
            lines.append(label(node, d))
            child_indent = ""
        else:
            lines.append(indent + (last if is_last else tee) + label(node, d))
            child_indent = indent + ("    " if is_last else bar)
        kids = _tree_children(node)
        for i in range(len(kids) - 1, -1, -1):
            stack.append((kids[i], child_indent, i == len(kids) - 1))
    return lines


# -- schema --------------------------------------------------------------------------------------

def parse_schema(text: str) -> dict:
    """Parse ``"weight:long,color:string"`` into ``{"weight": "long", "color": "string"}``.

    Types are JMS type names (boolean, byte, short, int, long, float, double, string) or their
    Spark spellings (tinyint, smallint, integer, bigint, real). Raises `ValueError` with a
    message fit for the command line.
    """
    schema = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, sep, type_name = item.partition(":")
        name, type_name = name.strip(), type_name.strip()
        if not sep or not name or not type_name:
            raise ValueError(f"expected NAME:TYPE, got {item.strip()!r}")
        try:
            t = JmsType.parse(type_name)
        except ValueError as e:
            raise ValueError(f"column {name!r}: {e}") from None
        if not t.is_static:
            raise ValueError(f"column {name!r}: {type_name!r} is not a column type")
        if name in schema:
            raise ValueError(f"column {name!r} is given twice")
        schema[name] = t.value
    if not schema:
        raise ValueError("the schema names no column")
    return schema


def _schema_arg(text: str) -> dict:
    try:
        return parse_schema(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# -- explain -------------------------------------------------------------------------------------

@dataclass
class _Explanation:
    """What the explain sections read: the parsed selector, the schema, and the output style."""

    selector: Selector
    schema: "dict | None"
    ascii_only: bool = False
    #: Filled by the SQL section: the fragment (None when it has no Spark SQL form) and the
    #: schema selector_to_sql assumed when none was given.
    sql: "str | None" = None
    notes: list = field(default_factory=list)


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


_ASSUMED = "assumes flat columns of types "


def _section_sql(ex: _Explanation) -> list[str]:
    from .api import selector_to_sql  # no pyspark: the fragment is built as a string

    lines = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ex.sql = selector_to_sql(ex.selector, ex.schema, dialect=ex.selector.dialect)
        except UnsupportedSelectorError as e:
            ex.sql = None
            ex.notes.append(e)
    if ex.schema is not None:
        lines.append("schema (--schema): " + ", ".join(f"{k}: {v}" for k, v in ex.schema.items()))
    else:
        assumed = [str(w.message) for w in caught]
        shown = [m.split(_ASSUMED, 1)[1] if _ASSUMED in m else m for m in assumed]
        if shown:
            lines.append("schema (assumed, no --schema given): " + "; ".join(shown))
        else:
            lines.append("schema (no --schema given): no column is read")
    lines.append("spark sql:")
    if ex.sql is not None:
        lines.append("  " + ex.sql)
    else:
        err = ex.notes[-1]
        lines.append(f"  (none: {err.message})")
    return lines


def _section_plan(ex: _Explanation) -> list[str]:
    """How `jms_filter` runs it: one WHERE fragment, or native pieces plus fallback UDF pieces."""
    if ex.selector.root is None:
        return []
    if ex.sql is not None:
        return ["plan (jms_filter): fully native, one WHERE fragment, no Python"]
    from .api import explain_filter
    from .backends.spark_sql import infer_flat_schema

    schema = ex.schema if ex.schema is not None else infer_flat_schema(ex.selector)
    try:
        described = explain_filter(ex.selector, schema)
    except SelectorError as e:
        return [f"plan (jms_filter): none ({e.message})"]
    return ["plan (jms_filter): native where it maps, the vectorized Arrow UDF for the rest"] + [
        "  " + line for line in described.splitlines()]


#: The sections of ``explain``, in order: each takes the `_Explanation` and returns its lines.
EXPLAIN_SECTIONS = (_section_selector, _section_tree, _section_sql, _section_plan)


# -- commands ------------------------------------------------------------------------------------

def _read_selector(args) -> str:
    if args.selector == "-":
        return sys.stdin.read().rstrip("\r\n")
    return args.selector


def _print(text: str, stream) -> None:
    """Write a line, replacing what the stream's encoding cannot show (a selector may hold any
    character) instead of failing."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    print(text, file=stream)


def _report(err: SelectorError) -> None:
    _print(f"{type(err).__name__}: {err}", sys.stderr)


def _cmd_check(args) -> int:
    text = _read_selector(args)
    try:
        sel = parse(text, dialect=args.dialect)
    except SelectorError as e:
        if not args.quiet:
            _report(e)
        return EXIT_INVALID
    if not args.quiet:
        if sel.root is None:
            _print(f"valid {sel.dialect.name} selector: empty (every message matches)", sys.stdout)
        else:
            _print(f"valid {sel.dialect.name} selector: {sel.canonical()}", sys.stdout)
    return EXIT_OK


def _cmd_explain(args) -> int:
    text = _read_selector(args)
    try:
        sel = parse(text, dialect=args.dialect)
        ex = _Explanation(sel, args.schema, ascii_only=args.ascii)
        blocks = [section(ex) for section in EXPLAIN_SECTIONS]
    except SelectorError as e:  # syntax, type, or binding to --schema
        _report(e)
        return EXIT_INVALID
    _print("\n\n".join("\n".join(block) for block in blocks if block), sys.stdout)
    return EXIT_OK


def _cmd_route_plan(args) -> int:
    """The routing plan of several subscriptions (`route_plan.explain_routing`): no Spark needed."""
    from .backends.spark_sql import infer_flat_schema
    from .route_plan import explain_routing

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
        _print("route-plan: give selectors as arguments or --file", sys.stderr)
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
    _print(explain_routing(schema, subs, dialect=args.dialect), sys.stdout)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``jms-selector`` (sub-commands ``check`` and ``explain``)."""
    parser = argparse.ArgumentParser(
        prog="jms-selector",
        description="Check JMS message selectors and explain how they are parsed and translated to Spark SQL.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def common(p):
        p.add_argument("selector", metavar="SELECTOR",
                       help="the selector text; '-' reads it from standard input")
        p.add_argument("--dialect", choices=sorted(DIALECTS), default="jms",
                       help="the rules to apply: 'jms' (the specification, default) or "
                            "'activemq' (ActiveMQ Classic 5.17)")

    check = sub.add_parser(
        "check", help="exit 0 if the selector is valid, 1 (with the error and a caret) if not",
        description="Parse and statically check a selector. Prints its canonical form when it is "
                    "valid (exit 0); prints the error with a caret under the offending text on "
                    "stderr when it is not (exit 1).",
    )
    common(check)
    check.add_argument("-q", "--quiet", action="store_true", help="print nothing; only the exit status tells")
    check.set_defaults(run=_cmd_check)

    explain = sub.add_parser(
        "explain", help="print the parsed tree and the Spark SQL fragment",
        description="Print the selector's canonical form, its syntax tree, and the Spark SQL WHERE "
                    "fragment selector_to_sql produces for it.",
    )
    common(explain)
    explain.add_argument(
        "--schema", type=_schema_arg, metavar="NAME:TYPE,...",
        help="flat column types, e.g. 'weight:long,color:string' (types: boolean, byte, short, int, "
             "long, float, double, string). Without it, types are guessed from use and shown.",
    )
    explain.add_argument("--ascii", action="store_true", help="draw the tree with ASCII characters only")
    explain.set_defaults(run=_cmd_explain)

    plan = sub.add_parser(
        "route-plan", help="print the routing plan of several subscriptions (groups, access names, cost)",
        description="How route() evaluates these subscriptions: the groups of the predicate index, "
                    "their access names and values, and the subscriptions evaluated per message.",
    )
    plan.add_argument("selectors", nargs="*", metavar="SELECTOR", help="selectors (named sub-1, sub-2, ...)")
    plan.add_argument("-f", "--file", metavar="FILE", help="one subscription per line: NAME<TAB>SELECTOR, or a selector")
    plan.add_argument("--dialect", choices=sorted(DIALECTS), default="jms")
    plan.add_argument("--schema", type=_schema_arg, metavar="NAME:TYPE,...",
                      help="flat column types; without it, guessed from use")
    plan.set_defaults(run=_cmd_route_plan)
    return parser


def main(argv: "list[str] | None" = None) -> int:
    """Run ``jms-selector`` with ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    Parameters
    ----------
    argv : list of str, optional

    Returns
    -------
    int
        0 valid (or help shown), 1 invalid selector, 2 usage error.

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
    return args.run(args)
