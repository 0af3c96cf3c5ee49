"""The examples of README.md and docs/**/*.md, as the tests run them.

A page's fenced blocks run in order, in one namespace per page (later blocks use what earlier
ones defined), from a temporary working folder:

- a block with ``>>>`` lines (fence ``pycon``, or ``python`` in the README) is a doctest, with
  ELLIPSIS and NORMALIZE_WHITESPACE as in ``test_docs.py``;
- a ``python`` block without ``>>>`` is executed as a script;
- a ``console`` block is a shell session: ``$ jms-selector ARGS`` and ``$ python -m
  jms_selector_spark ARGS`` (any path before ``python``) run the command line in-process, stdout
  and stderr together as a terminal shows them, and must print exactly the lines that follow;
  ``$ echo $?`` must print the last exit status; ``$ cat FILE`` followed by the file's lines
  *writes* that file (so the file shown is the file the next commands read). Any other command
  in a ``console`` block fails the test: show commands that are not checked here in a ``bash``
  block, and their output in a ``text`` block that says where it comes from. (Paths a command
  names that exist in the page's folder are made absolute: an in-process Spark resolves relative
  paths against the folder its JVM started in.);
- a block right after ``<!-- docs-test: skip (reason) -->`` is not run; the reason is required.

Blocks of other languages (``bash``, ``text``, ``sql``, ``yaml``…) are not run.
"""
from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

_FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
_SKIP = re.compile(r"<!-- docs-test: skip \((?P<reason>[^)]*)\) -->\s*\Z")
#: Names whose use makes a block need the session's SparkSession (and the sample tables).
NEEDS_SPARK = re.compile(r"\b(spark|subscriptions|messages)\b")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int          # 1-based line of the block's first body line
    lang: str          # the fence's info string, first word
    body: str
    skip: "str | None"  # the reason, for a block marked not to run

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def kind(self) -> str:
        if self.skip is not None:
            return "skip"
        if re.search(r"^\s*>>> ", self.body, re.M) or self.body.lstrip().startswith(">>>"):
            return "doctest"
        if self.lang == "python":
            return "script"
        if self.lang == "console":
            return "console"
        return "text"


def blocks(path: Path) -> list:
    """Every fenced block of ``path`` at the start of a line (blocks indented in lists are not
    looked at: keep runnable examples at the margin)."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in _FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = _SKIP.search(before)
        out.append(Block(path, text.count("\n", 0, m.start("body")) + 1, (m.group("info").split() or [""])[0],
                         m.group("body"), skip.group("reason").strip() if skip else None))
    return out


def pages() -> list:
    """The docs pages, sorted."""
    return sorted(DOCS.rglob("*.md"))


def runnable(path: Path) -> list:
    return [b for b in blocks(path) if b.kind in ("doctest", "script", "console")]


def source(block: Block) -> str:
    """What a block runs: a doctest's ``>>>``/``...`` lines, a script's text, a console's commands."""
    if block.kind == "doctest":
        return "\n".join(line.strip()[4:] for line in block.body.splitlines()
                         if line.strip().startswith((">>> ", "... ")))
    if block.kind == "console":
        return "\n".join(line for line in block.body.splitlines() if line.startswith("$ "))
    return block.body


def needs_spark(blocks_: list) -> bool:
    return any(NEEDS_SPARK.search(source(b)) for b in blocks_)


# -- running ------------------------------------------------------------------------------------

def run_doctest(block: Block, globs: dict) -> tuple:
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=OPTIONS, verbose=False)
    test = parser.get_doctest(block.body, globs, block.where, str(block.path), block.line - 1)
    failures = []
    result = runner.run(test, out=failures.append, clear_globs=False)
    globs.update(test.globs)  # a DocTest works on a copy; later blocks use what this one defined
    return result.attempted, failures


def run_script(block: Block, globs: dict) -> tuple:
    code = compile("\n" * (block.line - 1) + block.body, str(block.path), "exec")
    exec(code, globs)  # noqa: S102 - the documentation's own examples
    return 1, []


_CLI = re.compile(r"^(?:jms-selector|(?:\S*/)?python3? -m jms_selector_spark)(?:\s|$)")


def _cli(argv: list) -> tuple:
    from jms_selector_spark.cli.commands import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        code = main(argv)
    return code, buf.getvalue()


def run_console(block: Block, globs: dict) -> tuple:
    """The ``$`` commands of a console block; returns (commands run, failures)."""
    lines = block.body.splitlines()
    steps, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            return 0, [f"{block.where}: output before any command: {lines[i]!r}"]
        j = i + 1
        while j < len(lines) and not lines[j].startswith("$ "):
            j += 1
        steps.append((block.line + i, lines[i][2:], lines[i + 1:j]))
        i = j
    failures, last = [], None
    for line, command, expected in steps:
        where = f"{block.path.relative_to(ROOT)}:{line}"
        if command == "echo $?":
            if [str(last)] != expected:
                failures.append(f"{where}: exit status {last}, the page says {expected}")
            continue
        words = shlex.split(command, comments=True)
        if words[:1] == ["cat"] and len(words) == 2:
            Path(words[1]).write_text("".join(x + "\n" for x in expected), encoding="utf-8")
            continue
        if not _CLI.match(command):
            failures.append(f"{where}: cannot run {command!r} here (use a bash block for it)")
            continue
        argv = words[1:] if words[0] == "jms-selector" else words[3:]
        # In-process, Spark's JVM keeps the working folder it started in: name the files the
        # command reads by absolute path, as a JVM started by the command in this folder would.
        argv = [str(Path(w).resolve()) if not w.startswith("-") and Path(w).exists() else w for w in argv]
        last, out = _cli(argv)
        if out.splitlines() != expected:
            failures.append(f"{where}: $ {command}\n--- the page says\n" + "\n".join(expected)
                            + "\n--- it prints\n" + out)
    return len(steps), failures


RUNNERS = {"doctest": run_doctest, "script": run_script, "console": run_console}


def run_page(blocks_: list, globs: dict) -> tuple:
    """Run the blocks in order in ``globs``; (examples attempted, failure texts)."""
    attempted, failures = 0, []
    for block in blocks_:
        n, bad = RUNNERS[block.kind](block, globs)
        attempted += n
        failures += bad
    return attempted, failures


def spark_tables(spark) -> dict:
    """``spark`` and the tables the pages talk about: ``messages`` (100 sample messages) and
    ``subscriptions`` (those of ``examples/05_spark_submit_job.py``)."""
    import importlib.util

    import jms_selector_spark.spark.sample_data as sample_data

    spec = importlib.util.spec_from_file_location("example05", ROOT / "examples" / "05_spark_submit_job.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return {"spark": spark, "messages": sample_data.messages(spark, 100),
            "subscriptions": spark.createDataFrame(example.SUBSCRIPTIONS, "name STRING, selector STRING")}


def public_names() -> dict:
    import jms_selector_spark

    return {name: getattr(jms_selector_spark, name) for name in jms_selector_spark.__all__}


# -- the demo's output in the README --------------------------------------------------------------

def readme_demo_output() -> str:
    """The README's ``make demo`` output: its ``text`` block that starts with ``Routed ``."""
    for block in blocks(ROOT / "README.md"):
        if block.lang == "text" and block.body.startswith("Routed "):
            return block.body
    return ""


def shape(text: str) -> list:
    """Lines of the demo's summary with every number replaced by ``N`` and runs of blanks by one,
    without the ``Output:`` line (it names the output folder): what does not depend on the
    archive's size or where it was written."""
    return [re.sub(r"\s+", " ", re.sub(r"\d[\d,.]*", "N", line)).strip() for line in text.splitlines()
            if not line.startswith("Output: ")]
