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
import json
import os
import re
import sys
import warnings
from dataclasses import dataclass, field

from . import nodes as n
from ._version import __version__
from .dialects import DIALECTS, Dialect, get_dialect
from .errors import SelectorError, SelectorSyntaxError, UnsupportedSelectorError
from .printer import quote_string, to_text
from .selector import Selector, parse
from .source import Span
from .types import JmsType

__all__ = ["main", "build_parser", "render_tree", "parse_schema", "parse_ddl", "read_parquet_schema",
           "EXPLAIN_SECTIONS"]

#: Exit codes (documented in --help and the README; tests/unit/test_cli.py holds them).
EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_WARNINGS = 0, 1, 2, 3

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


_DDL_SIMPLE = {
    "boolean": "BooleanType", "bool": "BooleanType", "tinyint": "ByteType", "byte": "ByteType",
    "smallint": "ShortType", "short": "ShortType", "int": "IntegerType", "integer": "IntegerType",
    "bigint": "LongType", "long": "LongType", "float": "FloatType", "real": "FloatType",
    "double": "DoubleType", "string": "StringType", "date": "DateType", "timestamp": "TimestampType",
    "timestamp_ltz": "TimestampType", "timestamp_ntz": "TimestampNTZType", "binary": "BinaryType",
    "variant": "VariantType", "varchar": "StringType", "char": "StringType",
}
_DDL_TOKEN = re.compile(r"\s*(?:(`(?:[^`]|``)+`)|([A-Za-z_][A-Za-z0-9_$]*)|(\d+)|(.))")


def parse_ddl(text: str):
    """A Spark DDL schema (``"weight BIGINT, properties MAP<STRING, STRING>"``) as a pyspark
    StructType, without a JVM (pyspark's own DDL parser needs a running Spark).

    Takes the types a message table uses: the simple ones, DECIMAL(p, s), CHAR/VARCHAR(n),
    ARRAY<T>, MAP<K, V>, STRUCT<name: T, ...>, VARIANT; ``NOT NULL`` and ``COMMENT '...'`` are
    skipped. Raises `ValueError` naming the position of what it cannot read.
    """
    from pyspark.sql import types as T

    tokens = []
    pos = 0
    while pos < len(text):
        m = _DDL_TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            break
        quoted, word, number, other = m.groups()
        if quoted or word or number or (other and not other.isspace()):
            tokens.append((quoted and quoted[1:-1].replace("``", "`") or word or number or other, m.start(m.lastindex),
                           "name" if quoted else "word" if word else "number" if number else "sym"))
        pos = m.end()
        if other == "'":  # a COMMENT string ('' is a quote): skip to its end
            end = pos
            while True:
                end = text.find("'", end)
                if end < 0 or text[end + 1:end + 2] != "'":
                    break
                end += 2
            if end < 0:
                raise ValueError(f"DDL schema: unterminated string at column {m.start(4) + 1}")
            tokens[-1] = (text[pos:end], m.start(4), "string")
            pos = end + 1
    tokens.append(("", len(text), "end"))
    i = 0

    def peek(value=None):
        tok = tokens[i]
        return tok if value is None or (tok[2] in ("word", "sym") and tok[0].lower() == value) else None

    def take(value=None, kind=None):
        nonlocal i
        tok = tokens[i]
        if (value is not None and not peek(value)) or (kind is not None and tok[2] not in kind):
            want = repr(value) if value else "a name" if kind else "more"
            raise ValueError(f"DDL schema: expected {want} at column {tok[1] + 1}, got "
                             f"{tok[0]!r}" if tok[2] != "end" else f"DDL schema: expected {want} at the end")
        i += 1
        return tok

    def data_type():
        word = take(kind=("word",))[0].lower()
        if word in ("decimal", "dec", "numeric"):
            p, sc = 10, 0
            if peek("("):
                take("(")
                p = int(take(kind=("number",))[0])
                if peek(","):
                    take(",")
                    sc = int(take(kind=("number",))[0])
                take(")")
            return T.DecimalType(p, sc)
        if word in ("char", "varchar") and peek("("):
            take("(")
            take(kind=("number",))
            take(")")
        if word == "array":
            take("<")
            elem = data_type()
            take(">")
            return T.ArrayType(elem)
        if word == "map":
            take("<")
            key = data_type()
            take(",")
            value = data_type()
            take(">")
            return T.MapType(key, value)
        if word == "struct":
            take("<")
            fields = fields_until(">")
            take(">")
            return T.StructType(fields)
        if word not in _DDL_SIMPLE:
            raise ValueError(f"DDL schema: unknown type {word!r}")
        return getattr(T, _DDL_SIMPLE[word])()

    def fields_until(stop):
        fields = []
        while not (stop and peek(stop)) and tokens[i][2] != "end":
            name = take(kind=("word", "name"))[0]
            if peek(":"):
                take(":")
            dt = data_type()
            if peek("not"):
                take("not")
                take("null")
            if peek("comment"):
                take("comment")
                take(kind=("string",))
            fields.append(T.StructField(name, dt))
            if not peek(","):
                break
            take(",")
        return fields

    fields = fields_until(None)
    if tokens[i][2] != "end":
        take(kind=("end",))
    if not fields:
        raise ValueError("DDL schema: no column")
    return T.StructType(fields)


def read_parquet_schema(path: str):
    """The Spark schema of a Parquet file, or of a folder of them (the first data file, in
    name order, as Spark writes them), read with pyarrow (no JVM)."""
    import pyarrow.parquet as pq
    from pyspark.sql.pandas.types import from_arrow_schema

    target = path
    if os.path.isdir(path):
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
            found += [os.path.join(root, f) for f in sorted(files)
                      if f.endswith(".parquet") and not f.startswith(("_", "."))]
            if found:
                break
        if not found:
            raise ValueError(f"no .parquet file under {path}")
        target = found[0]
    try:
        arrow = pq.read_schema(target)
    except Exception as e:  # pyarrow raises several types for a file that is not Parquet
        raise ValueError(f"{target}: not a Parquet file ({e})") from None
    # Partition folders (name=value) hold columns that are not in the files: not read here.
    return from_arrow_schema(arrow)


def _schema_arg(text: str):
    """``--schema``: an existing path is Parquet; then NAME:TYPE; then a Spark DDL string."""
    if os.path.exists(text):
        try:
            return read_parquet_schema(text)
        except (ValueError, ImportError) as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    try:
        return parse_schema(text)
    except ValueError as e:
        first = e
    try:
        return parse_ddl(text)
    except ImportError:
        raise argparse.ArgumentTypeError(f"{first} (a DDL schema needs pyspark installed)") from None
    except ValueError as e:
        looks_ddl = any(c in text for c in " <(") and not re.fullmatch(r"[^:\s,]+\s*:\s*[^:\s,]+(,.*)?", text)
        raise argparse.ArgumentTypeError(str(e if looks_ddl else first)) from None


def _schema_text(schema) -> str:
    if isinstance(schema, dict):
        return ", ".join(f"{k}: {v}" for k, v in schema.items())
    return ", ".join(f"{f.name}: {f.dataType.simpleString()}" for f in schema.fields)


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
    #: ``headers=`` / ``properties=`` for binding (as for jms_filter).
    binding: dict = field(default_factory=dict)
    #: Filled by the lint section.
    lint: list = field(default_factory=list)


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
            ex.sql = selector_to_sql(ex.selector, ex.schema, dialect=ex.selector.dialect, **ex.binding)
        except UnsupportedSelectorError as e:
            ex.sql = None
            ex.notes.append(e)
    if ex.schema is not None:
        lines.append("schema (--schema): " + _schema_text(ex.schema))
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
        described = explain_filter(ex.selector, schema, **ex.binding)
    except SelectorError as e:
        return [f"plan (jms_filter): none ({e.message})"]
    return ["plan (jms_filter): native where it maps, the vectorized Arrow UDF for the rest"] + [
        "  " + line for line in described.splitlines()]


def _section_lint(ex: _Explanation) -> list[str]:
    """`lint`'s warnings, with their carets (the schema checks only with --schema)."""
    from .lint import lint

    if ex.selector.root is None:
        return []
    ex.lint = lint(ex.selector, schema=ex.schema, **ex.binding)
    if not ex.lint:
        return ["lint: no warnings" + ("" if ex.schema is not None else " (give --schema for the table checks)")]
    return [f"lint: {len(ex.lint)} warning{'s' if len(ex.lint) > 1 else ''}"] + [
        "  " + line for w in ex.lint for line in str(w).splitlines()]


#: The sections of ``explain``, in order: each takes the `_Explanation` and returns its lines.
EXPLAIN_SECTIONS = (_section_selector, _section_tree, _section_sql, _section_plan, _section_lint)


# -- input ---------------------------------------------------------------------------------------

@dataclass
class _Entry:
    """One selector to work on: its name (shown before each result when there are several)."""

    name: "str | None"
    text: str


def _decode(data: bytes) -> str:
    # Invalid UTF-8 is kept as lone surrogates (surrogateescape) and reported per selector.
    return data.decode("utf-8", "surrogateescape")


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    with open(path, "rb") as f:
        return f.read()


class _InputError(Exception):
    """Input that cannot be read as selectors (usage error, exit 2)."""


def _entries_from_file(path: str, fmt: str) -> "list[_Entry]":
    try:
        text = _decode(_read_bytes(path))
    except OSError as e:
        raise _InputError(f"cannot read {path}: {e.strerror or e}") from None
    where = "stdin" if path == "-" else path
    # Only line feeds (and CR LF) end a selector: str.splitlines would also split at form feeds,
    # U+2028 and other characters a selector may hold.
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    if fmt == "auto":
        first = next((ln.strip() for ln in lines if ln.strip()), "")
        fmt = "jsonl" if first.startswith("{") else "lines"
    entries = []
    for i, line in enumerate(lines, 1):
        if not line.strip() or (fmt == "lines" and line.lstrip().startswith("#")):
            continue
        if fmt == "lines":
            entries.append(_Entry(f"line {i}", line))
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise _InputError(f"{where}, line {i}: not JSON ({e})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("selector"), str):
            raise _InputError(f'{where}, line {i}: expected {{"name": ..., "selector": "..."}}')
        name = obj.get("name")
        entries.append(_Entry(str(name) if name is not None else f"line {i}", obj["selector"]))
    return entries


def _entries(args) -> "list[_Entry]":
    if args.file is not None:
        if args.selector is not None:
            raise _InputError("give a SELECTOR or --file, not both")
        return _entries_from_file(args.file, args.format)
    if args.selector is None:
        raise _InputError("a SELECTOR (or '-' for stdin, or --file FILE) is required")
    if args.selector == "-":
        return [_Entry(None, _decode(_read_bytes("-")).rstrip("\r\n"))]
    return [_Entry(None, args.selector)]


def _invalid_utf8(text: str) -> "SelectorSyntaxError | None":
    for i, c in enumerate(text):
        if "\udc80" <= c <= "\udcff":
            return SelectorSyntaxError(f"invalid UTF-8 (byte 0x{ord(c) - 0xDC00:02X})", text, Span(i, i + 1))
    return None


def _parse_entry(entry: _Entry, dialect: str):
    bad = _invalid_utf8(entry.text)
    if bad is not None:
        raise bad
    return parse(entry.text, dialect=dialect)


# -- output ---------------------------------------------------------------------------------------

def _escape(text: str) -> str:
    """Control characters, other unprintable ones and invalid UTF-8 (lone surrogates from
    ``surrogateescape``) as visible escapes; line breaks between lines are kept."""
    if text.isprintable() or all(c.isprintable() or c == "\n" for c in text):
        return text
    out = []
    for c in text:
        if c == "\n" or c.isprintable():
            out.append(c)
        elif "\udc80" <= c <= "\udcff":
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    return "".join(out)


def _print(text: str, stream) -> None:
    """Write a line with unprintable characters escaped, replacing what the stream's encoding
    cannot show (a selector may hold any character) instead of failing."""
    text = _escape(text)
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    print(text, file=stream)


def _prefix(entry: _Entry) -> str:
    return f"{entry.name}: " if entry.name is not None else ""


def _report(err: SelectorError, entry: "_Entry | None" = None) -> None:
    _print(f"{_prefix(entry) if entry else ''}{type(err).__name__}: {err}", sys.stderr)


def _binding(args) -> dict:
    binding = {}
    if getattr(args, "header_columns", None):
        binding["headers"] = dict(args.header_columns)
    if getattr(args, "properties", None) is not None:
        binding["properties"] = args.properties
    return binding


def _lint_lines(warnings_) -> list:
    return [str(w) for w in warnings_]


def _status(invalid: int, warned: int) -> int:
    return EXIT_INVALID if invalid else EXIT_WARNINGS if warned else EXIT_OK


def _summary(args, entries, invalid, warned) -> None:
    if len(entries) > 1 and not getattr(args, "quiet", False):
        valid = len(entries) - invalid
        extra = f" ({warned} with lint warnings)" if warned else ""
        _print(f"{len(entries)} selectors: {valid} valid{extra}, {invalid} invalid", sys.stdout)


# -- commands ------------------------------------------------------------------------------------

def _cmd_check(args, *, lint_always: bool = False) -> int:
    from .lint import lint

    entries = _entries(args)
    want_lint = lint_always or args.lint
    invalid = warned = 0
    for entry in entries:
        try:
            sel = _parse_entry(entry, args.dialect)
            found = lint(sel, schema=args.schema, **_binding(args)) if want_lint else []
        except SelectorError as e:
            invalid += 1
            if not args.quiet:
                _report(e, entry)
            continue
        warned += bool(found)
        if args.quiet:
            continue
        if not lint_always or not found:
            what = ("empty (every message matches)" if sel.root is None else sel.canonical())
            _print(f"{_prefix(entry)}valid {sel.dialect.name} selector: {what}", sys.stdout)
        for line in _lint_lines(found):
            _print(f"{_prefix(entry)}{line}", sys.stdout)
    _summary(args, entries, invalid, warned)
    return _status(invalid, warned)


def _cmd_lint(args) -> int:
    return _cmd_check(args, lint_always=True)


def _cmd_explain(args) -> int:
    entries = _entries(args)
    invalid = warned = 0
    for k, entry in enumerate(entries):
        try:
            sel = _parse_entry(entry, args.dialect)
            ex = _Explanation(sel, args.schema, ascii_only=args.ascii, binding=_binding(args))
            blocks = [section(ex) for section in EXPLAIN_SECTIONS]
        except SelectorError as e:  # syntax, type, or binding to --schema
            invalid += 1
            _report(e, entry)
            continue
        warned += bool(ex.lint)
        head = [f"== {entry.name} =="] if entry.name is not None else []
        if k:
            _print("", sys.stdout)
        _print("\n\n".join("\n".join(block) for block in [head] + blocks if block), sys.stdout)
    _summary(args, entries, invalid, 0)
    return EXIT_INVALID if invalid else EXIT_OK


def _header_arg(text: str):
    header, sep, column = text.partition("=")
    if not sep or not header.strip() or not column.strip():
        raise argparse.ArgumentTypeError(f"expected HEADER=COLUMN, got {text!r}")
    return header.strip(), column.strip()


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
                       help="the rules to apply: 'jms' (the specification, default) or "
                            "'activemq' (ActiveMQ Classic 5.17)")
        p.add_argument(
            "--schema", type=_schema_arg, metavar="SCHEMA",
            help="the table: 'weight:long,color:string' (JMS types), a Spark DDL string "
                 "('weight BIGINT, properties MAP<STRING,STRING>'), or a Parquet file or folder "
                 "(its schema is read). Without it, explain guesses flat types from use.",
        )
        p.add_argument("--properties", metavar="COLUMN",
                       help="the column holding the properties (STRUCT, MAP or VARIANT; default 'properties')")
        p.add_argument("--header", dest="header_columns", type=_header_arg, action="append", metavar="HEADER=COLUMN",
                       help="a header's column when not named as the header, e.g. JMSType=msg_type (repeatable)")

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
    plan.add_argument("--schema", type=_schema_arg, metavar="NAME:TYPE,...",
                      help="flat column types; without it, guessed from use")
    plan.set_defaults(run=_cmd_route_plan, command_parser=plan)
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
    try:
        return args.run(args)
    except _InputError as e:
        args.command_parser.print_usage(sys.stderr)
        _print(f"jms-selector {args.command}: error: {e}", sys.stderr)
        return EXIT_USAGE
