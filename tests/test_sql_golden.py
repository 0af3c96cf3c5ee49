"""The golden translations in ``sql/golden/*.sql``, checked both ways.

(a) ``selector_to_sql(selector, schema, dialect=…, **binding)`` gives exactly the fragment written
    in the file (or raises exactly the error class it names). No Spark needed.
(b) each fragment, run by Spark on a table of that file's schema, gives what the reference
    interpreter `evaluate` gives, row by row — TRUE, FALSE or UNKNOWN (NULL) — with ANSI mode on
    and off. So a golden file is not only "what we emit today" but "what we emit, and it means
    the JMS answer".

The goldens are never regenerated here; ``make golden`` (``python sql/regen.py``) does that on
purpose, and ``git diff sql/golden`` shows what changed. Format: ``sql/README.md``.

The rows for (b) are generated from the schema: per column a pool of values of its type (edges
such as 0, -0.0, NaN, ±Infinity, the int/long limits, quotes and LIKE metacharacters) plus every
literal the file's selectors use, and LIKE patterns turned into matching strings, so comparisons
land on both sides of their literal; about 15 % NULLs. MAP and VARIANT properties get the keys
the selectors read; a VARIANT value's type varies from row to row.
"""
from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "sql"))

import golden_format as gfmt  # noqa: E402

import jms_selector_spark as jss  # noqa: E402
from jms_selector_spark.language import nodes as n
from jms_selector_spark.language.dialects import HEADER_TYPES  # noqa: E402
from jms_selector_spark.language.dialects import get_dialect  # noqa: E402

pytest.importorskip("pyspark")  # the schemas are pyspark StructTypes (no JVM needed for part a)

FILES = gfmt.load_all()
CASES = [(gf, case) for gf in FILES for case in gf.cases]


def test_golden_files_exist_and_are_canonical():
    """Every file parses, and is already in the form `make golden` writes (so its diffs are real)."""
    assert len(FILES) >= 6 and len(CASES) >= 150
    assert {gf.dialect for gf in FILES} == {"jms", "activemq"}
    for gf in FILES:
        assert gfmt.render(gf) == gf.path.read_text(encoding="utf-8"), f"{gf.path.name}: run `make golden`"


@pytest.mark.parametrize("gf, case", CASES, ids=[f"{gf.path.stem}: {c.name}" for gf, c in CASES])
def test_translation_matches_golden(gf, case):
    assert case.fragment is not None or case.raises is not None, "no expected result: run `make golden`"
    fragment, raises = gfmt.translate(gf, case.selector)
    if case.raises is not None:
        assert raises == case.raises, f"expected {case.raises}, got {raises or fragment!r}"
    else:
        assert raises is None, f"raises {raises}"
        assert fragment == case.fragment


def _parsed(gf, case):
    try:
        return jss.parse(case.selector, dialect=gf.dialect)
    except jss.SelectorError:
        return None


def test_goldens_cover_every_construct():
    """Each dialect's goldens use every node type, operator and surface form the dialect has."""
    seen = {"jms": set(), "activemq": set()}
    for gf, case in CASES:
        sel = _parsed(gf, case)
        if sel is None or sel.root is None:
            continue
        for node in n.walk(sel.root):
            marks = seen[gf.dialect]
            marks.add(type(node).__name__)
            for attr in ("op",):
                if hasattr(node, attr):
                    marks.add(f"{type(node).__name__}.{getattr(node, attr).name}")
            if getattr(node, "negated", False):
                marks.add(f"NOT {type(node).__name__}")
            if isinstance(node, n.Like) and node.escape is not None:
                marks.add("Like ESCAPE")
    every = {cls.__name__ for cls in n.NODE_TYPES}
    every |= {f"Comparison.{op.name}" for op in n.CompareOp}
    every |= {f"Arithmetic.{op.name}" for op in n.ArithOp}
    every |= {f"Unary.{op.name}" for op in n.UnaryOp}
    every |= {f"NOT {c}" for c in ("Between", "InList", "Like", "IsNull")} | {"Like ESCAPE"}
    assert every - {"FunctionCall", "Arithmetic.MODULO"} <= seen["jms"], sorted(every - seen["jms"])
    # ActiveMQ's grammar makes unary + the identity: its parser keeps no node for it
    assert every - {"Unary.PLUS"} <= seen["activemq"], sorted(every - seen["activemq"])
    layouts = {_layout(gf) for gf in FILES}
    assert layouts == {"flat", "struct", "map", "variant"}


# -- (b): the fragments mean what `evaluate` says ------------------------------------------------------

UTC = dt.timezone.utc
N_ROWS = 120
NULLS = 0.15
INT_RANGES = {"byte": (-128, 127), "short": (-32768, 32767), "integer": (-2**31, 2**31 - 1),
              "long": (-2**63, 2**63 - 1)}
EVAL_TYPE = {"boolean": "boolean", "byte": "byte", "short": "short", "integer": "int", "long": "long",
             "float": "float", "double": "double", "string": "string"}
BASE_POOLS = {
    "boolean": [True, False],
    "byte": [0, 1, -1, 5, 127, -128],
    "short": [0, 1, -3, 5, 32767, -32768],
    "integer": [0, 1, -1, 2, 3, 6, 7, 40, 2147483647, -2147483648],
    "long": [0, 1, -1, 10, 2500, 2600, 3000, 2**31, 2**63 - 1, -2**63],
    "float": [0.0, -0.0, 0.1, 0.5, 1.5, 2.5, math.nan, math.inf, -math.inf],
    "double": [0.0, -0.0, 0.5, 2.5, 10.5, 99.9, 1e300, math.nan, math.inf, -math.inf],
    "string": ["", "blue", "red", "bLue", "O'Brien", "Zoë Dubois", "100% Organic", "C:\\x", "2600", "5",
               "gold", "bronze", "MacDonald Ltd", "a_b"],
}
HEADER_POOLS = {
    "JMSDeliveryMode": ["PERSISTENT", "NON_PERSISTENT"],
    "JMSPriority": list(range(10)),
    "JMSTimestamp": [0, 1_700_000_000_000, 1_790_000_000_000, 1_790_000_000_001],
    "JMSType": ["car", "truck", "bike", "order"],
    "JMSMessageID": ["ID:1", "ID:2", "ID:abc"],
    "JMSCorrelationID": ["ID:1", "ORD-1"],
}


def _layout(gf) -> str:
    col = gf.binding.get("properties", "properties")
    field = next((f for f in gf.schema.fields if f.name == col), None)
    if field is None:
        return "flat"
    return {"struct": "struct", "map": "map", "variant": "variant"}[field.dataType.typeName()]


def _literal_values(gf):
    """Values the file's selectors mention: literals (and neighbours), strings matching LIKE patterns."""
    strings, exact, approx = set(), set(), set()
    for _, case in [(g, c) for g, c in CASES if g is gf]:
        sel = _parsed(gf, case)
        if sel is None or sel.root is None:
            continue
        for node in n.walk(sel.root):
            if isinstance(node, n.Literal) and node.value is not None and not isinstance(node.value, bool):
                if isinstance(node.value, str):
                    strings.add(node.value)
                elif isinstance(node.value, int):
                    exact.update({node.value - 1, node.value, node.value + 1})
                elif math.isfinite(node.value):
                    approx.add(node.value)
            elif isinstance(node, n.Like):
                example, chars = [], iter(node.pattern)
                for ch in chars:
                    if node.escape is not None and ch == node.escape:
                        example.append(next(chars, ""))
                    elif ch == "_":
                        example.append("x")
                    elif ch != "%":
                        example.append(ch)
                strings.add("".join(example))
    return strings, exact, approx


def _pool(type_name, extra):
    strings, exact, approx = extra
    if type_name == "string":
        return BASE_POOLS["string"] + sorted(strings)
    if type_name in INT_RANGES:
        lo, hi = INT_RANGES[type_name]
        return BASE_POOLS[type_name] + sorted(v for v in exact if lo <= v <= hi)
    if type_name in ("float", "double"):
        return BASE_POOLS[type_name] + sorted(approx | {float(v) for v in exact if abs(v) < 2**53})
    return list(BASE_POOLS[type_name])


def _variant_pool(extra):
    """Values of every JMS type a VARIANT can hold (JSON: no NaN, no -0.0)."""
    strings, exact, approx = extra
    finite = [v for v in BASE_POOLS["double"] if math.isfinite(v) and str(v) != "-0.0"]
    return (BASE_POOLS["long"] + sorted(exact) + finite + sorted(approx) + BASE_POOLS["string"] + sorted(strings)
            + ["2600", "true"] + [True, False])


class _Table:
    """Rows for one golden file: Spark rows, and the (headers, properties, types) `evaluate` takes."""

    def __init__(self, gf):
        from pyspark.sql import types as st

        self.gf = gf
        self.schema = gf.schema
        self.layout = _layout(gf)
        dialect = get_dialect(gf.dialect)
        headers = {h: gf.binding.get("headers", {}).get(h, h) for h in HEADER_TYPES}
        by_column = {col: h for h, col in headers.items()}
        extra = _literal_values(gf)
        rng = random.Random(gf.path.name)
        prop_col = gf.binding.get("properties", "properties")
        keys = sorted({name for g, c in CASES if g is gf and _parsed(g, c) is not None
                       for name in _parsed(g, c).identifiers if dialect.header_for(name) is None})
        self.spark_rows, self.messages = [], []
        for r in range(N_ROWS):
            row, head, props, types = [r], {}, {}, {}

            def pick(pool, null=NULLS):
                return None if rng.random() < null else rng.choice(pool)

            for f in self.schema.fields:
                t = f.dataType
                if f.name in by_column:  # a header column
                    h = by_column[f.name]
                    v = self._header_value(h, t, rng, extra, pick)
                    row.append(v)
                    if v is not None:
                        head[h] = v if not isinstance(t, st.DecimalType) else int(v)
                elif f.name == prop_col and self.layout != "flat":
                    row.append(self._properties(t, keys, extra, pick, props, types))
                else:  # a flat property
                    v, jv, jt = self._typed_value(t, extra, pick)
                    row.append(v)
                    if self.layout == "flat" and jv is not None:
                        props[f.name], types[f.name] = jv, jt
            self.spark_rows.append(tuple(row))
            self.messages.append((head, props, types))

    @staticmethod
    def _header_value(h, t, rng, extra, pick):
        from pyspark.sql import types as st

        if isinstance(t, st.TimestampType):
            ms = pick(HEADER_POOLS["JMSTimestamp"] + [1_790_000_000_123], null=0.05)
            return None if ms is None else dt.datetime.fromtimestamp(ms / 1000, UTC)
        if h == "JMSDeliveryMode":
            return pick([2, 1] if t.typeName() == "integer" else HEADER_POOLS[h], null=0.05)
        pool = HEADER_POOLS.get(h) or _pool(t.typeName(), extra)
        if t.typeName() == "string":
            pool = pool + sorted(extra[0])
        return pick(pool, null=0.05)

    @staticmethod
    def _typed_value(t, extra, pick):
        """(Spark value, evaluate value, evaluate type) for a column/field of Spark type ``t``."""
        from pyspark.sql import types as st

        if isinstance(t, st.DecimalType):
            if t.scale == 0:
                v = pick([0, 1, 3, 4, 10 ** (t.precision - 1)] + sorted(x for x in extra[1] if 0 <= x < 10 ** t.precision))
                return (None if v is None else decimal.Decimal(v)), v, "long"
            v = pick(["0.00", "10.50", "10.49", "10.51", "-3.25", "9999999999.99"])
            return (None if v is None else decimal.Decimal(v)), (None if v is None else float(v)), "double"
        v = pick(_pool(t.typeName(), extra))
        return v, v, EVAL_TYPE[t.typeName()]

    def _properties(self, t, keys, extra, pick, props, types):
        kind = t.typeName()
        if kind == "struct":
            values = []
            for f in t.fields:
                v, jv, jt = self._typed_value(f.dataType, extra, pick)
                values.append(v)
                if jv is not None:
                    props[f.name], types[f.name] = jv, jt
            return tuple(values)
        if kind == "map":
            out = {}
            for k in keys:
                v, jv, jt = self._typed_value(t.valueType, extra, pick)
                if v is not None:
                    out[k], props[k], types[k] = v, jv, jt
            return out
        out = {}  # variant: JSON text, parsed by Spark's parse_json
        pool = _variant_pool(extra)
        for k in keys:
            v = pick(pool)
            if v is not None:
                out[k] = props[k] = v
                types[k] = ("boolean" if isinstance(v, bool) else "long" if isinstance(v, int)
                            else "double" if isinstance(v, float) else "string")
        return json.dumps(out)

    def dataframe(self, spark):
        from pyspark.sql import types as st

        fields = [st.StructField("__row", st.IntegerType())]
        for f in self.schema.fields:
            if f.dataType.typeName() == "variant":
                fields.append(st.StructField(f.name, st.StringType()))
            else:
                fields.append(f)
        df = spark.createDataFrame(self.spark_rows, st.StructType(fields))
        if self.layout == "variant":
            col = self.gf.binding.get("properties", "properties")
            df = df.selectExpr(*[f"parse_json(`{c}`) AS `{c}`" if c == col else f"`{c}`" for c in df.columns])
        return df


@pytest.mark.spark
def test_ddl_reader_agrees_with_spark(spark):
    from pyspark.sql.types import DataType

    for gf in FILES:
        assert DataType.fromDDL(gf.schema_ddl) == gf.schema, gf.path.name


@pytest.mark.spark
@pytest.mark.parametrize("gf", FILES, ids=[gf.path.stem for gf in FILES])
def test_golden_fragments_mean_what_evaluate_says(spark, gf):
    from conftest import sql_conf

    table = _Table(gf)
    df = table.dataframe(spark)
    assert [f.dataType for f in df.schema.fields[1:]] == [f.dataType for f in gf.schema.fields]
    cases = [c for c in gf.cases if c.fragment is not None]
    selectors = [jss.parse(c.selector, dialect=gf.dialect) for c in cases]
    want = [[jss.evaluate(sel, head, props, dialect=gf.dialect, types=types) for sel in selectors]
            for head, props, types in table.messages]
    for ansi in ("true", "false"):
        got = [[None] * len(cases) for _ in range(N_ROWS)]
        with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
            for start in range(0, len(cases), 40):  # one job per 40 cases
                chunk = range(start, min(start + 40, len(cases)))
                for row in df.selectExpr("__row", *[f"{cases[i].fragment} AS c{i}" for i in chunk]).collect():
                    for i in chunk:
                        got[row["__row"]][i] = row[f"c{i}"]
        bad = [(cases[i].name, table.messages[r], want[r][i], got[r][i])
               for r in range(N_ROWS) for i in range(len(cases)) if got[r][i] != want[r][i]]
        assert not bad, f"ansi={ansi}: {len(bad)} differ, e.g.\n" + "\n".join(map(repr, bad[:8]))
    # the rows exercise the cases: most of them are TRUE on some row and not TRUE on another
    both = sum(1 for i in range(len(cases)) if {want[r][i] is True for r in range(N_ROWS)} == {True, False})
    assert both >= len(cases) // 2, f"only {both} of {len(cases)} cases see both outcomes"


# -- sql/examples/*.sql: the example queries, run through spark.sql ----------------------------------

import run_examples  # noqa: E402  (sql/run_examples.py)

SQL_EXAMPLES = run_examples.load_all()
HEADER_NAMES = {"JMSMessageID", "JMSTimestamp", "JMSType", "JMSPriority", "JMSDeliveryMode"}


def _message(row):
    values = row.asDict()
    headers = {k: v for k, v in values.items() if k in HEADER_NAMES and v is not None}
    return headers, {k: v for k, v in values.items() if k not in HEADER_NAMES}


def _expected(spark, name):
    """What each example must return, from `evaluate` over the same two tables (not from Spark)."""
    messages = sorted(spark.table("messages").collect(), key=lambda r: r.JMSMessageID)
    subs = sorted(spark.table("subscriptions").collect(), key=lambda r: r.name)
    errors = jss.subscription_errors([(s.name, s.selector) for s in subs])
    valid = [s for s in subs if s.name not in errors]

    def hits(selector, row):
        return jss.evaluate(selector, *_message(row)) is True

    heavy_blue = "color = 'blue' AND weight > 2500"
    if name.startswith(("01_", "04_")):
        return [r.JMSMessageID for r in messages if hits(heavy_blue, r)]
    if name.startswith("02_"):
        return [(s.name, r.JMSMessageID) for s in valid for r in messages if hits(s.selector, r)]
    if name.startswith("03_"):
        return [(k, v.splitlines()[0]) for k, v in sorted(errors.items())]
    matching = {r.JMSMessageID: [s.name for s in valid if hits(s.selector, r)] for r in messages}
    if name.startswith("05_"):
        groups = {}
        for mid, names in matching.items():
            for sub in names or ["(dropped)"]:  # kept once, outcome 'dropped' (jms routing rules)
                groups.setdefault(sub, []).append(mid)
        return sorted((k, len(v), ", ".join(sorted(v))) for k, v in groups.items())
    if name.startswith("06_"):
        return matching
    if name.startswith("07_"):
        selector = "JMSType = 'car' AND color = 'blue' AND INLIST(SPLIT(customer, ' '), 'Dubois')"
        return [(r.JMSMessageID, r.customer) for r in messages
                if jss.evaluate(selector, *_message(r), dialect="activemq") is True]
    raise AssertionError(f"no independent expectation for {name}")


@pytest.mark.spark
@pytest.mark.parametrize("example", SQL_EXAMPLES, ids=[e.path.name for e in SQL_EXAMPLES])
def test_sql_example(spark, example):
    run_examples.run_setup(spark)
    assert example.result is not None, "no -- result: block: run python sql/run_examples.py --write"
    got = run_examples.run(spark, example)
    assert got == example.result, "the file's -- result: block is not what the query returns"
    rows = [line.split(" | ") for line in got[1:]]
    want = _expected(spark, example.path.name)
    name = example.path.name
    if name.startswith(("01_", "04_")):
        assert [r[0] for r in rows] == want and want
    elif name.startswith("02_"):
        assert [tuple(r) for r in rows] == want and len(want) >= 3
    elif name.startswith("03_"):
        assert [tuple(r) for r in rows] == want == [("broken", want[0][1])]
    elif name.startswith("05_"):
        assert sorted((r[0], int(r[1]), r[2]) for r in rows) == want
    elif name.startswith("07_"):
        assert [tuple(r) for r in rows] == want and want
    else:  # queue: every message once, to one of the subscriptions it matches (NULL: none)
        assert sorted(r[0] for r in rows) == sorted(want)
        for mid, sub in rows:
            assert (sub == "NULL") if not want[mid] else (sub in want[mid]), (mid, sub, want[mid])
