"""The design rules that keep the package livable, as tests.

- Layers, checked by import-linter (`.importlinter`, the contracts `make test` runs): each layer
  of the pipeline imports only the layers below it (``language`` < ``frontend`` | ``semantics`` <
  ``parsing`` < ``binder`` < ``interpreter`` < ``backends`` < ``compiler`` < ``analysis`` <
  ``spark`` < ``cli``), no sibling modules import each other in a cycle, and routing's stages
  import only the stages before them.
- No import cycle among the scripts outside the package either (benchmarks, tools).
- Back ends render the core language, all of it and only it; lowering leaves no front-end node.
- Modules a reader can hold: none passes 500 lines.
"""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "jms_selector_spark"


def test_the_import_contracts_hold():
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("import-linter is not installed (pip install -c constraints.txt -e '.[dev]')")
    proc = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout and "Contracts: 3 kept" in proc.stdout, proc.stdout[-2000:]


def _script_graph(folder: Path) -> dict:
    """{script: {scripts of the same folder it imports}} (the scripts import each other by name)."""
    names = {p.stem for p in folder.glob("*.py")}
    graph = {}
    for p in folder.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                deps.add(node.module.split(".")[0])
        graph[p.stem] = (deps & names) - {p.stem}
    return graph


def _cycles(graph: dict) -> list:
    seen, out = set(), []

    def visit(v, path):
        if v in path:
            out.append(path[path.index(v):] + [v])
            return
        if v in seen:
            return
        seen.add(v)
        for w in sorted(graph[v]):
            visit(w, path + [v])

    for v in sorted(graph):
        visit(v, [])
    return out


@pytest.mark.parametrize("folder", ["benchmarks", "tools"])
def test_no_import_cycle_among_scripts(folder):
    graph = _script_graph(ROOT / folder)
    assert graph, folder
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b", "a"]]


def test_back_ends_implement_the_core_language():
    from jms_selector_spark.backends.sql.generator import SparkSqlGenerator
    from jms_selector_spark.interpreter import ReferenceInterpreter
    from jms_selector_spark.semantics import core

    vectorized = pytest.importorskip("jms_selector_spark.backends.arrow.evaluator")
    for cls in (ReferenceInterpreter, SparkSqlGenerator, vectorized.VectorizedEvaluator):
        assert cls.node_types == core.CORE_TYPES, cls
        assert "rules" not in cls.__init__.__code__.co_names, cls  # no `self.rules`: nothing to ask
        assert cls.missing_handlers() == [], cls
        assert not set(core.LOWERED_AWAY) & set(cls._dispatch), cls


def test_lowering_leaves_no_front_end_construct():
    from jms_selector_spark.language import nodes
    from jms_selector_spark.language.dialects import DIALECTS, get_dialect
    from jms_selector_spark.parsing import parse
    from jms_selector_spark.semantics import core
    from jms_selector_spark.semantics.lowering import lower_selector, rules_for

    text = ("a = 1 AND (b BETWEEN 1 AND 2 OR c NOT BETWEEN 1 AND 2) AND NOT (d IN ('x') OR e NOT IN ('y'))"
            " AND f LIKE 'a%' AND g IS NULL AND -h + 1 > 2 AND +i * 2 = 4")
    lowered = 0
    for d in map(get_dialect, DIALECTS):
        try:
            sel = parse(text, dialect=d)
        except Exception:  # a dialect without one of these operators
            continue
        lowered += 1
        kinds = {type(x) for x in nodes.walk(lower_selector(sel, rules_for(d)))}
        assert kinds <= set(core.CORE_TYPES), (d.name, kinds - set(core.CORE_TYPES))
        assert {core.InStrings} <= kinds and kinds & {core.KleeneAnd, core.LeftFirstAnd}, d.name
    assert lowered >= 8, lowered


def test_modules_stay_under_500_lines():
    sizes = {p.relative_to(PACKAGE).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in PACKAGE.rglob("*.py")}
    assert len(sizes) > 60 and sizes["compiler.py"] > 200  # the scan sees the package
    assert {rel for rel, size in sizes.items() if size > 500} == set()
