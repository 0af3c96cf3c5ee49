"""Input and output of the command line: selectors from arguments, stdin or a file (lines or JSON
lines with names), escaped output, error reports and the exit status."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from ..language.errors import SelectorError, SelectorSyntaxError
from ..parsing import parse
from ..language.source import Span

#: Exit codes (documented in --help and the README; tests/unit/test_cli.py holds them).
EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_WARNINGS = 0, 1, 2, 3


# -- input ---------------------------------------------------------------------------------------

@dataclass
class Entry:
    """One selector to work on: its name (shown before each result when there are several)."""

    name: "str | None"
    text: str


def decode_utf8(data: bytes) -> str:
    # Invalid UTF-8 is kept as lone surrogates (surrogateescape) and reported per selector.
    return data.decode("utf-8", "surrogateescape")


def read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    with open(path, "rb") as f:
        return f.read()


class InputError(Exception):
    """Input that cannot be read as selectors (usage error, exit 2)."""


def entries_from_file(path: str, fmt: str) -> "list[Entry]":
    try:
        text = decode_utf8(read_bytes(path))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
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
            entries.append(Entry(f"line {i}", line))
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise InputError(f"{where}, line {i}: not JSON ({e})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("selector"), str):
            raise InputError(f'{where}, line {i}: expected {{"name": ..., "selector": "..."}}')
        name = obj.get("name")
        entries.append(Entry(str(name) if name is not None else f"line {i}", obj["selector"]))
    return entries


def read_entries(args) -> "list[Entry]":
    if args.file is not None:
        if args.selector is not None:
            raise InputError("give a SELECTOR or --file, not both")
        return entries_from_file(args.file, args.format)
    if args.selector is None:
        raise InputError("a SELECTOR (or '-' for stdin, or --file FILE) is required")
    if args.selector == "-":
        return [Entry(None, decode_utf8(read_bytes("-")).rstrip("\r\n"))]
    return [Entry(None, args.selector)]


def invalid_utf8(text: str) -> "SelectorSyntaxError | None":
    for i, c in enumerate(text):
        if "\udc80" <= c <= "\udcff":
            return SelectorSyntaxError(f"invalid UTF-8 (byte 0x{ord(c) - 0xDC00:02X})", text, Span(i, i + 1))
    return None


def parse_entry(entry: Entry, dialect: str):
    bad = invalid_utf8(entry.text)
    if bad is not None:
        raise bad
    return parse(entry.text, dialect=dialect)


# -- output ---------------------------------------------------------------------------------------

def escape(text: str) -> str:
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


def emit(text: str, stream) -> None:
    """Write a line with unprintable characters escaped, replacing what the stream's encoding
    cannot show (a selector may hold any character) instead of failing."""
    text = escape(text)
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        text = text.encode(encoding, "backslashreplace").decode(encoding)
    print(text, file=stream)


def entry_prefix(entry: Entry) -> str:
    return f"{entry.name}: " if entry.name is not None else ""


def report(err: SelectorError, entry: "Entry | None" = None) -> None:
    emit(f"{entry_prefix(entry) if entry else ''}{type(err).__name__}: {err}", sys.stderr)


def header_arg(text: str):
    """``--header HEADER=COLUMN`` (argparse type): ``(header, column)``."""
    header, sep, column = text.partition("=")
    if not sep or not header.strip() or not column.strip():
        raise argparse.ArgumentTypeError(f"expected HEADER=COLUMN, got {text!r}")
    return header.strip(), column.strip()


def add_binding_options(p) -> None:
    """``--properties COLUMN`` and ``--header HEADER=COLUMN`` (how the table holds messages)."""
    p.add_argument("--properties", metavar="COLUMN",
                   help="the column holding the properties (STRUCT, MAP or VARIANT; default 'properties')")
    p.add_argument("--header", dest="header_columns", type=header_arg, action="append", metavar="HEADER=COLUMN",
                   help="a header's column when not named as the header, e.g. JMSType=msg_type (repeatable)")


def binding_of(args) -> dict:
    binding = {}
    if getattr(args, "header_columns", None):
        binding["headers"] = dict(args.header_columns)
    if getattr(args, "properties", None) is not None:
        binding["properties"] = args.properties
    return binding


def lint_lines(warnings_) -> list:
    return [str(w) for w in warnings_]


def exit_status(invalid: int, warned: int) -> int:
    return EXIT_INVALID if invalid else EXIT_WARNINGS if warned else EXIT_OK


def summary(args, entries, invalid, warned) -> None:
    if len(entries) > 1 and not getattr(args, "quiet", False):
        valid = len(entries) - invalid
        extra = f" ({warned} with lint warnings)" if warned else ""
        emit(f"{len(entries)} selectors: {valid} valid{extra}, {invalid} invalid", sys.stdout)
