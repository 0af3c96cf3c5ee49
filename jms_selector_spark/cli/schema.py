"""``--schema`` for the command line: ``NAME:TYPE,...``, a Spark DDL string, or a Parquet file/folder
(read with pyarrow; no Spark is started)."""
from __future__ import annotations

import argparse
import os
import re

from ..language.types import JmsType

__all__ = ["parse_schema", "parse_ddl", "read_parquet_schema", "schema_arg", "schema_text"]


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


def schema_arg(text: str):
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


def schema_text(schema) -> str:
    if isinstance(schema, dict):
        return ", ".join(f"{k}: {v}" for k, v in schema.items())
    return ", ".join(f"{f.name}: {f.dataType.simpleString()}" for f in schema.fields)
