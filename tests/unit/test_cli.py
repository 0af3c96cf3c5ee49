"""The ``jms-selector`` command line: exit codes, caret output, explain's tree and SQL.

Most tests call `main` in-process (capsys captures the output); a few run the real entry points
in a subprocess — ``python -m jms_selector_spark`` and the ``jms-selector`` console script — and
one checks that neither importing the CLI nor running ``explain`` imports pyspark.
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from jms_selector_spark.language.dialects import ACTIVEMQ, DIALECTS

from jms_selector_spark import parse, selector_to_sql
from jms_selector_spark.cli.commands import EXPLAIN_SECTIONS, main, parse_schema, render_tree
from jms_selector_spark.frontend.parser import MAX_DEPTH

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}

#: The exit codes as --help prints them (and as docs/guide/cli.md lists them).
EXIT_CODES_TEXT = """\
exit status:
  0  every selector is valid (and, for lint / check --lint, has no warning)
  1  at least one selector is invalid (its error and caret are on stderr)
  2  usage error: bad option, unreadable --file, malformed JSON line, bad --schema
  3  lint / check --lint: every selector is valid, at least one has a warning
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sql_line(out: str) -> str:
    """The fragment line of explain's "spark sql:" section."""
    lines = out.splitlines()
    return lines[lines.index("spark sql:") + 1]


def sql_for(text, schema=None, dialect="jms"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return selector_to_sql(text, schema, dialect=dialect)


# -- check --------------------------------------------------------------------------------------

class TestCheck:
    def test_valid(self, capsys):
        code, out, err = run(capsys, "check", "color='blue' and weight>2500")
        assert code == 0
        assert out == "valid jms selector: color = 'blue' AND weight > 2500\n"
        assert err == ""

    def test_invalid_prints_the_error_with_its_caret(self, capsys):
        code, out, err = run(capsys, "check", "color = 'blue' AND AND weight > 2500")
        assert code == 1
        assert out == ""
        assert err == ("SelectorSyntaxError: unexpected 'AND' at line 1, column 20\n"
                       "  color = 'blue' AND AND weight > 2500\n"
                       "                     ^^^\n")

    def test_type_error(self, capsys):
        code, _, err = run(capsys, "check", "'a' < 'b'")
        assert code == 1
        assert err.startswith("SelectorTypeError: the string 'a' cannot be compared with <")
        assert err.splitlines()[-1] == "  ^^^"

    def test_dialects_differ(self, capsys):
        assert run(capsys, "check", "NOT i > 5")[0] == 0
        code, _, err = run(capsys, "check", "--dialect", "activemq", "NOT i > 5")
        assert code == 1 and "a condition cannot be compared with >" in err
        assert run(capsys, "check", "--dialect", "activemq", "x = 0x1F")[0] == 0
        assert run(capsys, "check", "--dialect", "jms", "x = 0x1F")[0] == 1

    def test_quiet(self, capsys):
        assert run(capsys, "check", "-q", "a = 1") == (0, "", "")
        assert run(capsys, "check", "--quiet", "a = ") == (1, "", "")

    def test_empty_selector(self, capsys):
        code, out, _ = run(capsys, "check", "  ")
        assert code == 0 and out == "valid jms selector: empty (every message matches)\n"

    def test_selector_from_stdin(self, capsys, monkeypatch):
        monkeypatch.setattr(sys, "stdin", io.StringIO("a = 1\n  AND AND b\n"))
        code, _, err = run(capsys, "check", "-")
        assert code == 1
        assert err.splitlines() == ["SelectorSyntaxError: unexpected 'AND' at line 2, column 7",
                                    "    AND AND b", "        ^^^"]

    def test_selector_that_starts_with_a_minus_sign(self, capsys):
        assert run(capsys, "check", "-a > 0")[0] == 0
        assert run(capsys, "check", "--", "-a")[0] == 1  # `-a` is not a condition


# -- explain ------------------------------------------------------------------------------------

class TestExplain:
    def test_tree_and_sql_with_a_schema(self, capsys):
        text = "color = 'blue' AND weight > 2500"
        code, out, err = run(capsys, "explain", "--schema", "weight:long,color:string", text)
        assert code == 0 and err == ""
        expected_sql = sql_for(text, {"weight": "long", "color": "string"})
        assert out == (
            "selector (jms dialect):\n"
            "  color = 'blue' AND weight > 2500\n"
            "canonical: color = 'blue' AND weight > 2500\n"
            "\n"
            "tree:\n"
            "  And\n"
            "  ├── Comparison =\n"
            "  │   ├── Identifier color (property)\n"
            "  │   └── Literal 'blue' (string)\n"
            "  └── Comparison >\n"
            "      ├── Identifier weight (property)\n"
            "      └── Literal 2500 (long)\n"
            "\n"
            "schema (--schema): weight: long, color: string\n"
            "spark sql:\n"
            f"  {expected_sql}\n"
            "\n"
            "plan (jms_filter): fully native, one WHERE fragment, no Python\n"
            "\n"
            "lint: no warnings\n")
        assert "`weight` > 2500" in expected_sql

    def test_without_a_schema_the_assumed_types_are_shown(self, capsys):
        code, out, _ = run(capsys, "explain", "weight > 2500 AND color LIKE 'bl%' AND JMSPriority = 4")
        assert code == 0
        lines = out.splitlines()
        schema_line = next(line for line in lines if line.startswith("schema"))
        assert schema_line.startswith("schema (assumed, no --schema given): ")
        assumed = dict(item.split(": ") for item in schema_line.split(": ", 1)[1].split(", "))
        assert assumed["color"] == "string" and assumed["JMSPriority"] == "int" and "weight" in assumed
        assert sql_line(out) == "  " + sql_for("weight > 2500 AND color LIKE 'bl%' AND JMSPriority = 4")

    def test_schema_types_change_the_sql(self, capsys):
        text = "a = b"
        _, as_strings, _ = run(capsys, "explain", "--schema", "a:string,b:string", text)
        _, as_mixed, _ = run(capsys, "explain", "--schema", "a:string,b:long", text)
        assert sql_line(as_strings) != sql_line(as_mixed)
        assert sql_line(as_mixed) == "  " + sql_for(text, {"a": "string", "b": "long"})

    def test_activemq_tree_shows_not_binding_tighter(self, capsys):
        code, out, _ = run(capsys, "explain", "--dialect", "activemq", "NOT a = 1")
        assert code == 0
        tree = out.split("tree:\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert tree == ["  Comparison =", "  ├── Not", "  │   └── Identifier a (property)", "  └── Literal 1 (int)"]
        _, out, _ = run(capsys, "explain", "NOT a = 1")
        assert out.split("tree:\n", 1)[1].splitlines()[:2] == ["  Not", "  └── Comparison ="]

    def test_construct_without_a_spark_sql_form(self, capsys):
        code, out, _ = run(capsys, "explain", "--dialect", "activemq", "SPLIT(s, ',') IS NULL")
        assert code == 0
        assert sql_line(out) == "  (none: SPLIT(...) has no exact Spark SQL form here)"
        assert out.splitlines()[-5:] == ["plan (jms_filter): native where it maps, the vectorized Arrow UDF for the rest",
                                         "  fallback  SPLIT(s, ',') IS NULL", "            -> vectorized Arrow UDF",
                                         "", "lint: no warnings (give --schema for the table checks)"]

    def test_invalid_selector(self, capsys):
        code, out, err = run(capsys, "explain", "a = ")
        assert code == 1 and out == ""
        assert err.splitlines() == ["SelectorSyntaxError: unexpected end of selector at line 1, column 5",
                                    "  a = ", "      ^"]

    def test_selector_that_does_not_fit_the_schema(self, capsys):
        code, _, err = run(capsys, "explain", "--schema", "JMSType:long", "JMSType = 'car'")
        assert code == 1
        assert err.startswith("SelectorBindingError: 'JMSType' refers to column 'JMSType' of type long")
        assert err.splitlines()[-1] == "  ^^^^^^^"

    def test_empty_selector(self, capsys):
        code, out, _ = run(capsys, "explain", "")
        assert code == 0
        assert "(empty selector: every message matches)" in out and out.splitlines()[-1] == "  TRUE"

    def test_every_predicate_in_the_tree(self, capsys):
        text = ("a NOT BETWEEN -1 AND 2.5 OR s NOT LIKE 'x!%' ESCAPE '!' OR t IN ('p', 'q') OR u IS NOT NULL"
                " OR -v * 2 <> w / 3 OR JMSType = 'car'")
        _, out, _ = run(capsys, "explain", "--ascii", text)
        tree = out.split("tree:\n", 1)[1].split("\n\n", 1)[0]
        assert tree == "\n".join("  " + line for line in [
            "Or",
            "+-- Between NOT BETWEEN",
            "|   +-- Identifier a (property)",
            "|   +-- Literal -1 (long)",
            "|   \\-- Literal 2.5 (double)",
            "+-- Like NOT LIKE 'x!%' ESCAPE '!'",
            "|   \\-- Identifier s (property)",
            "+-- InList IN ('p', 'q')",
            "|   \\-- Identifier t (property)",
            "+-- IsNull IS NOT NULL",
            "|   \\-- Identifier u (property)",
            "+-- Comparison <>",
            "|   +-- Arithmetic *",
            "|   |   +-- Unary -",
            "|   |   |   \\-- Identifier v (property)",
            "|   |   \\-- Literal 2 (long)",
            "|   \\-- Arithmetic /",
            "|       +-- Identifier w (property)",
            "|       \\-- Literal 3 (long)",
            "\\-- Comparison =",
            "    +-- Identifier JMSType (header)",
            "    \\-- Literal 'car' (string)",
        ])

    def test_sections_are_a_table(self):
        assert [f.__name__ for f in EXPLAIN_SECTIONS] == ["_section_selector", "_section_tree", "_section_sql",
                                                          "_section_plan", "_section_lint"]


class TestRenderTree:
    def test_unprintable_characters_stay_on_one_line(self):
        lines = render_tree(parse("s = 'a\nb\tc' OR s LIKE '\x00%'").root)
        assert len(lines) == 6
        assert "Literal 'a\\u000ab\\u0009c' (string)" in lines[3]
        assert lines[4].endswith("Like LIKE '\\u0000%'")

    def test_the_deepest_tree_renders(self):
        lines = render_tree(parse("NOT " * (MAX_DEPTH - 1) + "a").root)
        assert len(lines) == MAX_DEPTH
        assert lines[-1].endswith("└── Identifier a (property)")

    def test_header_alias_and_functions(self):
        lines = render_tree(parse("REGEX('^a', JMSType)", dialect="activemq").root, ACTIVEMQ)
        assert lines == ["FunctionCall REGEX", "├── Literal '^a' (string)", "└── Identifier JMSType (header)"]

    def test_empty(self):
        assert render_tree(None) == ["(empty selector: every message matches)"]


class TestSchemaOption:
    def test_parse(self):
        assert parse_schema("weight:long, color : string,,flag:bool,n:bigint") == {
            "weight": "long", "color": "string", "flag": "boolean", "n": "long"}

    @pytest.mark.parametrize("text, message", [
        ("weight", "expected NAME:TYPE, got 'weight'"),
        ("weight:", "expected NAME:TYPE, got 'weight:'"),
        (":long", "expected NAME:TYPE, got ':long'"),
        ("a:long,a:int", "column 'a' is given twice"),
        ("a:decimal", "column 'a': unknown JMS type 'decimal'"),
        ("a:dynamic", "column 'a': 'dynamic' is not a column type"),
        (" , ", "the schema names no column"),
    ])
    def test_errors(self, text, message):
        with pytest.raises(ValueError) as info:
            parse_schema(text)
        assert str(info.value).startswith(message)

    def test_bad_schema_is_a_usage_error(self, capsys):
        code, out, err = run(capsys, "explain", "--schema", "weight:lng", "weight > 1")
        assert code == 2 and out == ""
        assert "argument --schema: column 'weight': unknown JMS type 'lng'" in err


# -- usage ----------------------------------------------------------------------------------------

class TestUsage:
    @pytest.mark.parametrize("argv", [[], ["frobnicate", "a"], ["check"], ["explain"], ["check", "--dialect", "sql", "a"],
                                      ["check", "a", "b"], ["explain", "--schema"]])
    def test_usage_errors_exit_2(self, capsys, argv):
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert out == "" and err.startswith("usage: jms-selector")

    def test_help(self, capsys):
        code, out, _ = run(capsys, "--help")
        assert code == 0
        assert "check" in out and "explain" in out and "lint" in out
        assert out.endswith(EXIT_CODES_TEXT)
        code, out, _ = run(capsys, "explain", "--help")
        assert code == 0 and "--schema SCHEMA" in out and "--dialect {" + ",".join(sorted(DIALECTS)) + "}" in " ".join(out.split())
        assert out.endswith(EXIT_CODES_TEXT)
        page = Path(__file__).resolve().parents[2] / "docs" / "guide" / "cli.md"
        assert EXIT_CODES_TEXT in page.read_text(encoding="utf-8")

    def test_version(self, capsys):
        from jms_selector_spark import __version__

        code, out, _ = run(capsys, "--version")
        assert code == 0 and out.strip() == f"jms-selector {__version__}"


# -- the real entry points --------------------------------------------------------------------------

def test_python_dash_m_entry_point():
    ok = subprocess.run([sys.executable, "-m", "jms_selector_spark", "check", "weight > 2500"],
                        capture_output=True, text=True, env=ENV, timeout=60)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "valid jms selector: weight > 2500\n", "")
    bad = subprocess.run([sys.executable, "-m", "jms_selector_spark", "check", "a = 'x"],
                         capture_output=True, text=True, env=ENV, timeout=60)
    assert bad.returncode == 1
    assert bad.stderr == "SelectorSyntaxError: unterminated string literal at line 1, column 5\n  a = 'x\n      ^^\n"
    usage = subprocess.run([sys.executable, "-m", "jms_selector_spark"], capture_output=True, text=True, env=ENV,
                           timeout=60)
    assert usage.returncode == 2


def test_console_script():
    script = Path(sys.executable).with_name("jms-selector")
    if not script.exists():
        script = shutil.which("jms-selector")
    if not script:
        pytest.skip("the jms-selector console script is not installed (pip install -e .)")
    proc = subprocess.run([str(script), "explain", "--schema", "w:long", "w > 1"], capture_output=True, text=True,
                          env=ENV, timeout=60)
    assert proc.returncode == 0
    assert sql_line(proc.stdout) == "  " + sql_for("w > 1", {"w": "long"})


def test_the_cli_does_not_import_pyspark():
    code = ("import sys, io, contextlib\n"
            "import jms_selector_spark.cli.commands as cli\n"
            "before = 'pyspark' in sys.modules\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    rc = cli.main(['explain', \"color = 'blue' AND weight > 2500\"])\n"
            "print(before, 'pyspark' in sys.modules, rc)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False", "0"]


def test_explain_shows_the_hybrid_plan(capsys):
    code, out, _ = run(capsys, "explain", "JMSType = 'car' AND SPLIT(color, ',') IS NOT NULL",
                       "--dialect", "activemq", "--schema", "JMSType:string,color:string")
    assert code == 0
    plan = out[out.index("plan (jms_filter)"):]
    assert "native    JMSType = 'car'\n" in plan and "-> `JMSType` = decode(X'636172', 'UTF-8')" in plan
    assert "fallback  SPLIT(color, ',') IS NOT NULL\n" in plan and "vectorized Arrow UDF" in plan
    code, out, _ = run(capsys, "explain", "weight > 2500", "--schema", "weight:long")
    assert "plan (jms_filter): fully native, one WHERE fragment, no Python" in out


# -- many selectors, lint, schemas, escaping, exit codes ------------------------------------------

SELECTORS = ("JMSType = 'car'\n"
             "# a comment, and a blank line\n"
             "\n"
             "color = 'blue' AND AND w > 1\n"
             "JMSType = car\n")


class TestManySelectors:
    def test_lines_from_a_file(self, capsys, tmp_path):
        path = tmp_path / "selectors.txt"
        path.write_text(SELECTORS)
        code, out, err = run(capsys, "check", "--file", str(path))
        assert code == 1
        assert out.splitlines() == ["line 1: valid jms selector: JMSType = 'car'",
                                    "line 5: valid jms selector: JMSType = car",
                                    "3 selectors: 2 valid, 1 invalid"]
        assert err.splitlines() == ["line 4: SelectorSyntaxError: unexpected 'AND' at line 1, column 20",
                                    "  color = 'blue' AND AND w > 1", "                     ^^^"]

    def test_json_lines_from_stdin_with_lint(self, capsys, monkeypatch):
        data = ('{"name": "cars", "selector": "JMSType = \'car\'"}\n'
                '{"name": "typo", "selector": "JMSType = car"}\n')
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
        code, out, err = run(capsys, "check", "--lint", "-f", "-")
        assert code == 3 and err == ""
        assert out.splitlines() == [
            "cars: valid jms selector: JMSType = 'car'",
            "typo: valid jms selector: JMSType = car",
            "typo: warning [header-vs-property] at line 1, column 11: JMSType is compared with car, a property "
            "name (NULL unless messages carry a property 'car'); a string is written 'car'",
            "  JMSType = car", "            ^^^",
            "2 selectors: 2 valid (1 with lint warnings), 0 invalid"]

    def test_explain_many(self, capsys, tmp_path):
        path = tmp_path / "s.jsonl"
        path.write_text('{"name": "a", "selector": "a = 1"}\n{"name": "b", "selector": "b = 2"}\n')
        code, out, _ = run(capsys, "explain", "-f", str(path), "--schema", "a:long,b:long")
        assert code == 0
        assert out.startswith("== a ==\n\nselector (jms dialect):\n  a = 1\n")
        assert "\n\n== b ==\n\nselector (jms dialect):\n  b = 2\n" in out
        assert out.endswith("2 selectors: 2 valid, 0 invalid\n")

    @pytest.mark.parametrize("content, message", [
        ('{"name": "x"}\n', 'line 1: expected {"name": ..., "selector": "..."}'),
        ('{"name": "x", "selector": "a = 1"}\n{oops\n', "line 2: not JSON"),
    ])
    def test_malformed_json_lines_are_usage_errors(self, capsys, tmp_path, content, message):
        path = tmp_path / "bad.jsonl"
        path.write_text(content)
        code, out, err = run(capsys, "check", "-f", str(path))
        assert code == 2 and out == ""
        assert err.startswith("usage: jms-selector check") and message in err

    def test_usage_errors(self, capsys, tmp_path):
        assert run(capsys, "check", "-f", str(tmp_path / "missing.txt"))[0] == 2
        assert run(capsys, "check", "-f", str(tmp_path / "missing.txt"), "a = 1")[0] == 2
        assert run(capsys, "lint")[0] == 2
        assert run(capsys, "check", "--header", "JMSType", "a = 1")[0] == 2


class TestLintCommand:
    def test_exit_codes(self, capsys):
        assert run(capsys, "lint", "JMSType = 'car'") == (0, "valid jms selector: JMSType = 'car'\n", "")
        code, out, _ = run(capsys, "lint", "a = 1 -- note")
        assert code == 3
        assert out.splitlines() == ["warning [double-minus] at line 1, column 7: '--' is two minus signs in the jms "
                                    "dialect (1 - (-note)), not a comment", "  a = 1 -- note", "        ^^"]
        assert run(capsys, "lint", "a = ")[0] == 1
        assert run(capsys, "lint", "-q", "a = 1 -- note") == (3, "", "")
        assert run(capsys, "check", "a = 1 -- note")[0] == 0  # without --lint, check only validates

    def test_function_of_another_dialect(self, capsys):
        code, _, err = run(capsys, "check", "SPLIT(region, '-') IS NOT NULL")
        assert code == 1
        assert err.splitlines()[0] == ("SelectorSyntaxError: SPLIT is not a function of the 'jms' dialect (it has no "
                                       'functions); it exists in dialect="activemq" at line 1, column 1')

    def test_binding_options(self, capsys):
        schema = "mt STRING, props MAP<STRING,STRING>"
        code, out, _ = run(capsys, "lint", "--schema", schema, "--properties", "props", "--header", "JMSType=mt",
                           "JMSType = 'x' AND qty > 4")
        assert code == 3 and out.startswith("warning [string-numeric] at line 1, column 19:")
        assert "MAP<STRING,STRING> column 'props'" in out and "missing-header" not in out

    def test_explain_shows_warnings(self, capsys):
        code, out, _ = run(capsys, "explain", "--schema", "weight:long", "Weight > 5")
        assert code == 0
        assert out.split("\n\nlint: ")[1].splitlines()[:2] == [
            "1 warning",
            "  warning [missing-property] at line 1, column 1: property 'Weight' cannot be held by this table "
            "(the table has no such column): NULL on every message; did you mean 'weight'? (names are "
            "case-sensitive)"]


class TestSchemaSources:
    def test_ddl(self, capsys):
        code, out, _ = run(capsys, "explain", "--schema", "qty STRING, properties MAP<STRING, STRING>", "qty > 4")
        assert code == 0
        assert "schema (--schema): qty: string, properties: map<string,string>" in out
        assert "warning [string-numeric]" in out and "warning [shadowed-column]" in out

    def test_ddl_types(self):
        from jms_selector_spark.cli.commands import parse_ddl

        schema = parse_ddl("a DECIMAL(38, 0) NOT NULL COMMENT 'it''s', `b c` STRUCT<x: INT, y ARRAY<STRING>>,"
                           " d VARCHAR(3), m map<string, variant>, t timestamp_ntz")
        assert schema.simpleString() == ("struct<a:decimal(38,0),b c:struct<x:int,y:array<string>>,d:string,"
                                         "m:map<string,variant>,t:timestamp_ntz>")

    @pytest.mark.parametrize("text, message", [
        ("a BIGINT, b MAP<STRING, STRING", "DDL schema: expected '>' at the end"),
        ("a FROB", "DDL schema: unknown type 'frob'"),
        ("weight:lng", "column 'weight': unknown JMS type 'lng'"),
    ])
    def test_bad_schema(self, capsys, text, message):
        code, _, err = run(capsys, "lint", "--schema", text, "a = 1")
        assert code == 2 and f"argument --schema: {message}" in err

    def test_parquet_file_and_folder(self, capsys, tmp_path):
        pa = pytest.importorskip("pyarrow")
        pq = pytest.importorskip("pyarrow.parquet")
        from decimal import Decimal

        table = pa.table({"JMSType": pa.array(["car"]), "amount": pa.array([Decimal(1)], pa.decimal128(38, 0)),
                          "properties": pa.array([[("qty", "5")]], pa.map_(pa.string(), pa.string()))})
        folder = tmp_path / "archive"
        folder.mkdir()
        (folder / "_SUCCESS").write_text("")
        pq.write_table(table, folder / "part-00000.parquet")
        for where in (folder, folder / "part-00000.parquet"):
            code, out, _ = run(capsys, "lint", "--schema", str(where), "JMSType = 'car' AND qty > 4")
            assert code == 3 and "MAP<STRING,STRING> column 'properties'" in out
        code, out, _ = run(capsys, "lint", "--schema", str(tmp_path), "a = 1")  # found in a sub-folder
        assert code == 3 and "MAP<STRING,STRING> column 'properties'" in out
        (tmp_path / "empty").mkdir()
        code, _, err = run(capsys, "lint", "--schema", str(tmp_path / "empty"), "a = 1")
        assert code == 2 and "no .parquet file under" in err
        (tmp_path / "not.parquet").write_text("hello")
        code, _, err = run(capsys, "lint", "--schema", str(tmp_path / "not.parquet"), "a = 1")
        assert code == 2 and "not a Parquet file" in err


class TestEscaping:
    def test_control_characters_and_invalid_utf8(self, capsys, monkeypatch):
        data = b"x = '\x1b[31mred'\nbad = '\xff'\n"
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        code, out, err = run(capsys, "check", "-f", "-")
        assert code == 1
        assert out.splitlines()[0] == "line 1: valid jms selector: x = '\\x1b[31mred'"
        assert err.splitlines() == ["line 2: SelectorSyntaxError: invalid UTF-8 (byte 0xFF) at line 1, column 8",
                                    "  bad = ' '", "         ^"]
        assert "\x1b" not in out + err

    def test_only_line_feeds_separate_selectors(self, capsys, tmp_path):
        path = tmp_path / "s.txt"
        path.write_bytes("a = 1\x0cAND b = 2\r\nc = '\u2028'\n".encode("utf-8"))
        code, out, _ = run(capsys, "check", "-f", str(path))
        assert code == 0
        assert out.splitlines() == ["line 1: valid jms selector: a = 1 AND b = 2", "line 2: valid jms selector: c = '\\u2028'",
                                    "2 selectors: 2 valid, 0 invalid"]

    def test_names_and_messages_are_escaped(self, capsys, tmp_path):
        path = tmp_path / "s.jsonl"
        path.write_text('{"name": "bell\\u0007", "selector": "a = \'\\u2028\'"}\n')
        code, out, _ = run(capsys, "check", "-f", str(path))
        assert code == 0 and out.splitlines()[0] == "bell\\x07: valid jms selector: a = '\\u2028'"

    def test_subprocess_bytes(self, tmp_path):
        path = tmp_path / "s.txt"
        path.write_bytes(b"a = '\xc3\xa9\x07'\nb = '\xe9'\n")
        proc = subprocess.run([sys.executable, "-m", "jms_selector_spark", "check", "-f", str(path)],
                              capture_output=True, env=ENV, timeout=60)
        assert proc.returncode == 1
        assert proc.stdout.decode("utf-8").splitlines()[0] == "line 1: valid jms selector: a = '\u00e9\\x07'"
        assert proc.stderr.decode("utf-8").startswith("line 2: SelectorSyntaxError: invalid UTF-8 (byte 0xE9)")
