"""Read, translate and write the golden translation files in ``sql/golden/*.sql``.

The format (documented for reviewers in ``sql/README.md``)::

    -- Free comment lines: what this file is about.
    -- dialect: jms
    -- schema: JMSType STRING, JMSPriority INT, color STRING, weight BIGINT
    -- binding: {"headers": {"JMSType": "msg_type"}}

    -- name: string equality
    -- selector: color = 'blue'
    `color` = decode(X'626C7565', 'UTF-8')

    -- name: an ActiveMQ function has no exact Spark SQL form
    -- selector: INLIST(SPLIT(color, ','), 'blue')
    -- raises: UnsupportedSelectorError

Blocks are separated by blank lines. The first block is the file header: ``-- dialect:``
(``jms`` or ``activemq``), ``-- schema:`` (the table, as Spark DDL) and optionally
``-- binding:`` (JSON: the ``headers`` / ``properties`` keyword arguments of
`selector_to_sql`). Every other block is one case: optional comment lines, an optional
``-- name:``, one ``-- selector:`` line (the text after ``-- selector:`` and one space,
verbatim; nothing after it is the empty selector), then either the expected fragment (the
non-comment lines, joined with newlines) or ``-- raises: <SelectorError subclass>``.

Everything that is not a comment is SQL: each case's fragment is exactly what goes after a
``WHERE``, so a reviewer reads it, and an editor highlights it, as SQL.

This module needs ``pyspark.sql.types`` (no JVM): `parse_ddl` builds the schema objects.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"

_DIRECTIVE = re.compile(r"--\s*(dialect|schema|binding|name|selector|raises):(.*)\Z")


@dataclass(frozen=True)
class Case:
    """One golden case. ``fragment`` is None when the translation raises ``raises``."""

    name: str
    selector: str
    fragment: "str | None" = None
    raises: "str | None" = None
    comments: tuple = ()
    line: int = field(default=0, compare=False)  # where the case starts in its file

    @property
    def id(self) -> str:
        return self.name


@dataclass(frozen=True)
class GoldenFile:
    path: Path
    dialect: str
    schema_ddl: str
    binding: dict = field(default_factory=dict)
    header_comments: tuple = ()
    cases: tuple = ()

    @property
    def schema(self):
        return parse_ddl(self.schema_ddl)


class GoldenFormatError(ValueError):
    pass


def _blocks(text: str):
    """(first line number, [lines]) for each run of non-blank lines."""
    block, start = [], 0
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            if not block:
                start = i
            block.append(line)
        elif block:
            yield start, block
            block = []
    if block:
        yield start, block


def _directive(line: str):
    m = _DIRECTIVE.match(line)
    if not m:
        return None, None
    value = m.group(2)
    if m.group(1) == "selector":
        return "selector", value[1:] if value.startswith(" ") else value  # verbatim after one space
    return m.group(1), value.strip()


def load(path, text: "str | None" = None) -> GoldenFile:
    """Parse one golden file, or ``text`` as if it were that file.

    Raises `GoldenFormatError`, with the line number, on a malformed file.
    """
    path = Path(path)
    blocks = list(_blocks(path.read_text(encoding="utf-8") if text is None else text))
    if not blocks:
        raise GoldenFormatError(f"{path}: empty file")
    start, header = blocks[0]
    meta, comments = {}, []
    for offset, line in enumerate(header):
        key, value = _directive(line)
        if key in ("dialect", "schema", "binding"):
            meta[key] = value
        elif key is not None:
            raise GoldenFormatError(f"{path}:{start + offset}: '{key}' in the file header (add a blank line?)")
        elif line.startswith("--"):
            comments.append(line)
        else:
            raise GoldenFormatError(f"{path}:{start + offset}: SQL in the file header")
    for key in ("dialect", "schema"):
        if key not in meta:
            raise GoldenFormatError(f"{path}: the file header needs '-- {key}: …'")
    binding = json.loads(meta["binding"]) if meta.get("binding") else {}
    cases, names = [], set()
    for start, lines in blocks[1:]:
        info, body, case_comments = {}, [], []
        for offset, line in enumerate(lines):
            key, value = _directive(line)
            if key in ("name", "selector", "raises"):
                if key in info:
                    raise GoldenFormatError(f"{path}:{start + offset}: a second '-- {key}:' in one case")
                if key == "raises" and body:
                    raise GoldenFormatError(f"{path}:{start + offset}: both a fragment and '-- raises:'")
                info[key] = value
            elif key is not None:
                raise GoldenFormatError(f"{path}:{start + offset}: '-- {key}:' belongs in the file header")
            elif line.startswith("--"):
                if "selector" in info:
                    raise GoldenFormatError(f"{path}:{start + offset}: comment after the selector line")
                case_comments.append(line)
            else:
                if "selector" not in info:
                    raise GoldenFormatError(f"{path}:{start + offset}: SQL before the '-- selector:' line")
                if "raises" in info:
                    raise GoldenFormatError(f"{path}:{start + offset}: both '-- raises:' and a fragment")
                body.append(line)
        if "selector" not in info:
            raise GoldenFormatError(f"{path}:{start}: a case needs a '-- selector:' line")
        name = info.get("name") or f"line {start}"
        if name in names:
            raise GoldenFormatError(f"{path}:{start}: case name {name!r} is used twice")
        names.add(name)
        cases.append(Case(name, info["selector"], "\n".join(body) if body else None, info.get("raises"),
                          tuple(case_comments), start))
    return GoldenFile(path, meta["dialect"], meta["schema"], binding, tuple(comments), tuple(cases))


def load_all(directory=GOLDEN_DIR) -> list:
    return [load(p) for p in sorted(Path(directory).glob("*.sql"))]


def render(gf: GoldenFile) -> str:
    """The file text for ``gf`` (`load` of it gives ``gf`` back)."""
    out = list(gf.header_comments)
    out.append(f"-- dialect: {gf.dialect}")
    out.append(f"-- schema: {gf.schema_ddl}")
    if gf.binding:
        out.append(f"-- binding: {json.dumps(gf.binding, sort_keys=True)}")
    for case in gf.cases:
        out.append("")
        out.extend(case.comments)
        if not case.name.startswith("line "):
            out.append(f"-- name: {case.name}")
        out.append(f"-- selector: {case.selector}" if case.selector else "-- selector:")
        if case.raises is not None:
            out.append(f"-- raises: {case.raises}")
        else:
            out.append(case.fragment)
    return "\n".join(out) + "\n"


def translate(gf: GoldenFile, selector: str):
    """``(fragment, None)`` or ``(None, error class name)``: what `selector_to_sql` does today."""
    from jms_selector_spark import SelectorError, selector_to_sql

    try:
        return selector_to_sql(selector, gf.schema, dialect=gf.dialect, **gf.binding), None
    except SelectorError as exc:
        return None, type(exc).__name__


def regenerate(gf: GoldenFile) -> GoldenFile:
    """``gf`` with every case's expected result replaced by today's translation."""
    cases = []
    for case in gf.cases:
        fragment, raises = translate(gf, case.selector)
        if fragment is not None and ("\n\n" in fragment or any(
                line.startswith("--") or not line.strip() for line in fragment.splitlines())):
            raise GoldenFormatError(f"{gf.path}: {case.name}: the fragment cannot be written in this format")
        cases.append(replace(case, fragment=fragment, raises=raises))
    return replace(gf, cases=tuple(cases))


# -- Spark DDL → pyspark.sql.types (no JVM) ---------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(`(?:[^`]|``)*`)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|([<>(),:]))")


def _tokens(ddl: str):
    pos, out = 0, []
    while pos < len(ddl):
        m = _TOKEN.match(ddl, pos)
        if not m or m.end() == pos:
            if ddl[pos:].strip() == "":
                break
            raise GoldenFormatError(f"cannot read the DDL at {ddl[pos:pos + 20]!r}")
        quoted, word, number, punct = m.groups()
        out.append(("name", quoted[1:-1].replace("``", "`")) if quoted else
                   ("word", word) if word else ("num", int(number)) if number else ("p", punct))
        pos = m.end()
    return out


def parse_ddl(ddl: str):
    """A top-level ``name TYPE, …`` DDL as a pyspark `StructType` (the subset the goldens use)."""
    from pyspark.sql import types as st

    simple = {"BOOLEAN": st.BooleanType, "TINYINT": st.ByteType, "BYTE": st.ByteType,
              "SMALLINT": st.ShortType, "SHORT": st.ShortType, "INT": st.IntegerType,
              "INTEGER": st.IntegerType, "BIGINT": st.LongType, "LONG": st.LongType,
              "FLOAT": st.FloatType, "REAL": st.FloatType, "DOUBLE": st.DoubleType,
              "STRING": st.StringType, "TIMESTAMP": st.TimestampType, "DATE": st.DateType,
              "BINARY": st.BinaryType, "VARIANT": st.VariantType}
    toks = _tokens(ddl)
    i = 0

    def take(kind=None, value=None):
        nonlocal i
        if i >= len(toks):
            raise GoldenFormatError(f"unexpected end of DDL {ddl!r}")
        t = toks[i]
        if (kind and t[0] != kind) or (value and str(t[1]).upper() != value):
            raise GoldenFormatError(f"DDL {ddl!r}: expected {value or kind}, found {t[1]!r}")
        i += 1
        return t[1]

    def peek(value):
        return i < len(toks) and str(toks[i][1]).upper() == value and toks[i][0] in ("p", "word")

    def name():
        t = toks[i] if i < len(toks) else None
        if t is None or t[0] not in ("name", "word"):
            raise GoldenFormatError(f"DDL {ddl!r}: expected a field name")
        return take()

    def data_type():
        word = take("word").upper()
        if word in simple:
            return simple[word]()
        if word == "DECIMAL":
            take("p", "(")
            p = take("num")
            take("p", ",")
            s = take("num")
            take("p", ")")
            return st.DecimalType(p, s)
        if word == "ARRAY":
            take("p", "<")
            t = data_type()
            take("p", ">")
            return st.ArrayType(t)
        if word == "MAP":
            take("p", "<")
            k = data_type()
            take("p", ",")
            v = data_type()
            take("p", ">")
            return st.MapType(k, v)
        if word == "STRUCT":
            take("p", "<")
            fields = [struct_field(colon=True)]
            while peek(","):
                take("p", ",")
                fields.append(struct_field(colon=True))
            take("p", ">")
            return st.StructType(fields)
        raise GoldenFormatError(f"DDL {ddl!r}: unknown type {word}")

    def struct_field(colon=False):
        n = name()
        if colon:
            take("p", ":")
        return st.StructField(n, data_type())

    fields = [struct_field()]
    while peek(","):
        take("p", ",")
        fields.append(struct_field())
    if i != len(toks):
        raise GoldenFormatError(f"DDL {ddl!r}: unexpected {toks[i][1]!r}")
    return st.StructType(fields)
