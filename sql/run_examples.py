"""Run the example queries in ``sql/examples/*.sql`` through ``spark.sql``.

    python sql/run_examples.py            # run them all on a local Spark, print each result
    python sql/run_examples.py --write    # also (re)write each file's "-- result:" block

An example file is SQL plus three kinds of comment lines:

- ``-- setup: <Python call>``: what must be registered first, as the Python to run, e.g.
  ``register(spark)`` or ``register_selector(spark, "heavy_blue", "color = 'blue'", "messages")``
  (evaluated with ``spark``, `register`, `register_selector` and `register_route` in scope);
- the query: every line that is not a comment; one statement, ending with ``;``;
- ``-- result:`` then one ``-- `` line per row, the first being the column names, values
  separated by `` | `` (NULL for null, true/false for booleans). It is real output: written by
  ``--write``, checked by tests/test_sql_golden.py.

``00_setup.sql`` creates the ``messages`` and ``subscriptions`` views (several statements, each
ending with ``;`` at the end of a line) and is run before the others.
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE / "examples"
SETUP = EXAMPLES / "00_setup.sql"


@dataclass(frozen=True)
class Example:
    path: Path
    setup: tuple  # Python calls
    statements: tuple
    result: "tuple | None"  # expected lines (header first), None when the file has no result block


def statements(sql: str) -> list:
    """Split on ``;`` at the end of a line (the examples never put one elsewhere), drop comments."""
    out, current = [], []
    for line in sql.splitlines():
        if line.lstrip().startswith("--"):
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            out.append("\n".join(current).strip().rstrip(";").strip())
            current = []
    if "\n".join(current).strip():
        raise ValueError("a statement does not end with ';' at the end of a line")
    return out


def load(path) -> Example:
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    setup = tuple(line.split(":", 1)[1].strip() for line in lines if line.startswith("-- setup:"))
    if "-- result:" in lines:
        at = lines.index("-- result:")
        body, result = lines[:at], []
        for line in lines[at + 1:]:
            if not line.startswith("-- "):
                raise ValueError(f"{path.name}: the result block has a line that is not '-- …': {line!r}")
            result.append(line[3:])
        result = tuple(result)
    else:
        body, result = lines, None
    return Example(path, setup, tuple(statements("\n".join(body))), result)


def load_all() -> list:
    return [load(p) for p in sorted(EXAMPLES.glob("*.sql")) if p != SETUP]


def _cell(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def format_rows(df) -> tuple:
    """The header line and one line per row, as the ``-- result:`` block holds them."""
    rows = df.collect()
    return tuple([" | ".join(df.columns)] + [" | ".join(_cell(v) for v in row) for row in rows])


def run_setup(spark):
    for statement in load(SETUP).statements:
        spark.sql(statement)


def run(spark, example: Example) -> tuple:
    """Do the example's setup calls, run its query, return its result lines."""
    from jms_selector_spark import register, register_route, register_selector

    scope = {"spark": spark, "register": register, "register_selector": register_selector,
             "register_route": register_route}
    for call in example.setup:
        eval(call, {"__builtins__": {}}, scope)  # noqa: S307 - the repository's own example files
    *before, query = example.statements
    for statement in before:
        spark.sql(statement)
    return format_rows(spark.sql(query))


def write_result(example: Example, lines: tuple) -> None:
    text = example.path.read_text(encoding="utf-8")
    if "\n-- result:\n" in text:
        text = text[:text.index("\n-- result:\n") + 1]
    text = text.rstrip("\n") + "\n-- result:\n" + "".join(f"-- {line}\n" for line in lines)
    example.path.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write each file's -- result: block")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    sys.path.insert(0, str(HERE.parent))
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("jms-sql-examples")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    stale = 0
    try:
        run_setup(spark)
        for example in load_all():
            lines = run(spark, example)
            same = lines == example.result
            stale += not same
            print(f"== {example.path.name}{'' if same else '  (differs from its -- result: block)'}")
            print("\n".join(lines))
            if args.write and not same:
                write_result(example, lines)
    finally:
        spark.stop()
    return 1 if stale and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
