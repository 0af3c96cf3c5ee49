"""The design rules that keep the package livable, as tests (see DESIGN.md and issue #12).

- One rule, one place: outside the `Dialect` definition, the front end (which applies the
  parse-time rules) and the binder (which applies the data model), a `Dialect` field is read
  only by `lowering.py`. No back end reads one, and no field is read in two modules.
- Modules a reader can hold: none passes 500 lines (the two ~850-line back ends were split
  along their seams, issue #12; the exception list is empty and must stay so).
- One-way pipeline, visible in the layout: ``frontend/`` (text → checked AST) and ``semantics/``
  (the value model, the dialects, `lowering`) → ``binder`` → ``interpreter`` (the reference) →
  ``backends/`` and ``analysis/`` → ``spark/`` (the Spark integration) → ``cli/``. No package
  imports one to its right; the front end imports no evaluation code.
- One planner: only `spark/hybrid.py` turns "no exact native form" (`UnsupportedSelectorError`)
  into "run it in the vectorized fallback"; `jms_filter`, `route`, the explains,
  `migration_report` and the CLI all ask it (an ``except`` that re-raises is not a decision).

The scan is the one the reviewers run (`attribute reads of Dialect fields`, by AST).
"""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from jms_selector_spark.semantics.dialects import Dialect

PACKAGE = Path(__file__).resolve().parents[2] / "jms_selector_spark"
FIELDS = {f.name for f in dataclasses.fields(Dialect)} - {"name"}
#: Modules that may read a `Dialect` field, and which fields.
READERS = {
    "semantics/dialects.py": FIELDS,
    "semantics/lowering.py": FIELDS,  # every evaluation-time rule
    "binder.py": {"headers", "header_aliases",  # the data model: which names are headers
                  "header_typed_literals"},  # MQe: a header column holds the header's own type
}
#: Front-end modules that may call evaluation code, and why (reviewed one by one): selector.py
#: asks the reference interpreter for the value of a selector that reads no header or property,
#: for IBM MQ's MQRC_SELECTOR_ALWAYS_FALSE (`Dialect.reject_constant_false`); a constant folder
#: in the front end would be a second copy of the semantics.
FRONT_END_MAY_EVALUATE = {("frontend/selector.py", "interpreter")}
#: Modules over 500 lines, allowed for now: semantics/dialects.py, the one table of every dialect's
#: rules (each rule a documented field), which the RabbitMQ engine's fields took past 500.
TOO_LONG_FOR_NOW: frozenset = frozenset({"semantics/dialects.py"})


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), path


def _reads():
    """{field: {module: [line, ...]}} of every attribute read named like a Dialect field."""
    out = {}
    for rel, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in FIELDS:
                out.setdefault(node.attr, {}).setdefault(rel, []).append(node.lineno)
    return out


def _is_front_end(rel: str) -> bool:
    return rel.startswith("frontend/")


def test_no_back_end_reads_a_dialect_field():
    wrong = []
    for field, where in sorted(_reads().items()):
        for rel, lines in sorted(where.items()):
            if _is_front_end(rel) or field in READERS.get(rel, ()):
                continue
            wrong.append(f"{rel}:{lines[0]} reads Dialect.{field}")
    assert not wrong, "decide the rule in lowering.py and give the back end a decision:\n" + "\n".join(wrong)


def test_each_rule_is_read_in_one_module():
    # The reviewers' yardstick: front-end modules and the Dialect definition aside, one module.
    multi = {}
    for field, where in _reads().items():
        modules = {rel for rel in where if rel != "semantics/dialects.py" and not _is_front_end(rel)}
        if len(modules) > 1:
            multi[field] = sorted(modules)
    assert not multi, f"rules decided in more than one module: {multi}"


def test_the_evaluation_rules_are_decided_in_lowering():
    reads = _reads()
    evaluation = {"comparison_promotion", "integer_division", "null_between_is_false", "not_between_as_or",
                  "in_non_string_unknown", "ne_is_not_eq", "null_equality", "string_ordering",
                  "compare_to_doubles", "string_concatenation", "float_arithmetic_as_double"}
    for field in sorted(evaluation | {"unary_plus_identity"}):
        outside = {rel for rel in reads.get(field, {})
                   if rel not in ("semantics/lowering.py", "semantics/dialects.py") and not _is_front_end(rel)}
        assert "semantics/lowering.py" in reads.get(field, {}) and not outside, (field, reads.get(field))


def test_modules_stay_under_500_lines():
    sizes = {rel: len(path.read_text(encoding="utf-8").splitlines()) for rel, path in _modules()}
    # Guard against a vacuous scan: it sees the package, back ends included, and counts their lines.
    assert len(sizes) > 40 and sizes["backends/spark_sql.py"] > 200 and sizes["backends/vectorized.py"] > 200
    long = {rel for rel, size in sizes.items() if size > 500}
    assert long <= TOO_LONG_FOR_NOW, f"over 500 lines: {sorted(long - TOO_LONG_FOR_NOW)}"
    assert long == TOO_LONG_FOR_NOW, f"no longer over 500 lines, drop from TOO_LONG_FOR_NOW: {TOO_LONG_FOR_NOW - long}"


def _imports(path: Path, rel: str) -> set:
    """The package modules (dotted, relative to the package) and top-level packages a module imports."""
    package = rel.removesuffix(".py").split("/")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                out.add(node.module.split(".")[0])
                continue
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            mod = base + (node.module.split(".") if node.module else [])
            if node.module:
                out.add(".".join(mod))
            for a in node.names:  # `from . import nodes`, `from .backends import udf`
                out.add(".".join(mod + [a.name]))
    return out


EVALUATION = {"interpreter", "semantics.scalar", "semantics.functions", "semantics.lowering", "semantics.values",
              "semantics.javanum", "semantics.like"}
SPARK_SIDE = {"pyspark", "pandas", "pyarrow"}
#: The packages (and top-level modules) in pipeline order: each imports only from its left.
LAYERS = (("frontend", "semantics"), ("binder",), ("interpreter",), ("backends", "analysis"), ("spark",), ("cli",))


def _layer(dotted: str) -> "int | None":
    head = dotted.split(".")[0]
    return next((i for i, layer in enumerate(LAYERS) if head in layer), None)


def _may_evaluate(rel: str, mod: str) -> bool:
    return any(rel == r and (mod == m or mod.startswith(m + ".")) for r, m in FRONT_END_MAY_EVALUATE)


def test_the_front_end_imports_no_evaluation_back_end_or_spark_code():
    wrong = []
    for rel, path in _modules():
        if not _is_front_end(rel):
            continue
        for mod in _imports(path, rel):
            if _may_evaluate(rel, mod):
                continue
            if mod in EVALUATION or mod in SPARK_SIDE or (_layer(mod) or 0) > 0:
                wrong.append(f"{rel} imports {mod}")
    assert not wrong, wrong


def test_each_package_imports_only_from_the_packages_before_it():
    wrong = []
    for rel, path in _modules():
        here = _layer(rel.removesuffix(".py").replace("/", "."))
        if here is None:  # __init__, __main__, _version: the public face may import anything
            continue
        for mod in _imports(path, rel):
            there = _layer(mod)
            if there is not None and there > here and not _may_evaluate(rel, mod):
                wrong.append(f"{rel} imports {mod}")
    assert not wrong, wrong


def test_lowering_and_the_scalar_semantics_import_no_back_end():
    for rel in ("semantics/lowering.py", "semantics/scalar.py", "semantics/dialects.py", "semantics/types.py"):
        mods = _imports(PACKAGE / rel, rel)
        bad = {m for m in mods if (_layer(m) or 0) > 0 or m in SPARK_SIDE}
        assert not bad, (rel, bad)


def test_the_import_scan_sees_imports():
    # Guard against a vacuous layering test: the scan does find the parser's real imports.
    assert {"frontend.lexer", "frontend.nodes", "semantics.dialects"} <= _imports(PACKAGE / "frontend/parser.py",
                                                                                 "frontend/parser.py")
    assert "backends.spark_sql" in _imports(PACKAGE / "spark/hybrid.py", "spark/hybrid.py")
    assert _layer("spark.routing") > _layer("backends.udf") > _layer("binder") > _layer("frontend.nodes")


#: The one module that decides native vs fallback (issue #12).
PLANNER = "spark/hybrid.py"
_NO_NATIVE_FORM = {"UnsupportedSelectorError", "SelectorTooComplexError"}


def _deciding_handlers() -> dict:
    """{module: [line]} of the ``except`` clauses catching "no native form" without re-raising."""
    out = {}
    for rel, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ExceptHandler) or node.type is None:
                continue
            types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            names = {t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", None) for t in types}
            if names & _NO_NATIVE_FORM and not any(isinstance(x, ast.Raise) for x in ast.walk(node)):
                out.setdefault(rel, []).append(node.lineno)
    return out


def test_one_planner_decides_native_or_fallback():
    found = _deciding_handlers()
    assert set(found) == {PLANNER}, (
        f"only {PLANNER} may catch UnsupportedSelectorError to choose the fallback; ask hybrid.decide / "
        f"plan_filter / plan_subscriptions instead: {found}")


# -- the core language (issue #12): back ends render core nodes, not dialect decisions ----------

#: What a back end is: it gets a core tree (`lowering.lower`) and renders it.
BACK_ENDS = {"interpreter.py", "semantics/scalar.py", "semantics/functions.py"} | {
    rel for rel, _ in _modules() if rel.startswith("backends/")}
#: `Rules` decisions lowered into core nodes: no back end may ask for them any more.
LOWERED_RULES = {"and_or", "between", "in_non_string", "compare", "comparator", "ne_as_not_eq", "eq_nulls",
                 "string_conversion", "converts_strings", "arithmetic", "computation", "plus_keeps", "text_jdk",
                 "negation", "like_non_string"}
#: `Rules` decisions back ends still ask for: none (every evaluation rule is carried by a core node).
NOT_YET_LOWERED: frozenset = frozenset()


def _rules_calls():
    """{(module, Rules attribute)} for every ``rules.X`` / ``self.rules.X`` read in a back end."""
    from jms_selector_spark.semantics.lowering import Rules

    names = {a for a in dir(Rules) if not a.startswith("_")}
    out = set()
    for rel, path in _modules():
        if rel not in BACK_ENDS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Attribute) and node.attr in names):
                continue
            owner = node.value
            if (isinstance(owner, ast.Name) and owner.id == "rules") or (
                    isinstance(owner, ast.Attribute) and owner.attr == "rules"):
                out.add((rel, node.attr))
    return out


def test_back_ends_ask_no_lowered_rule():
    calls = _rules_calls()
    assert ("interpreter.py", "header") in calls  # the scan sees a `rules.X` read (not vacuous)
    lowered = sorted(c for c in calls if c[1] in LOWERED_RULES)
    assert not lowered, f"render the core node lowering.lower makes instead: {lowered}"
    # the interpreter's `message_resolver` binds a dict message as the binder binds a table: the
    # header rules are the data model (`Rules.header`), not an evaluation decision
    unknown = sorted(c for c in calls if c[1] not in NOT_YET_LOWERED and c != ("interpreter.py", "header"))
    assert not unknown, f"a new Rules decision belongs in lowering.lower, as a core node: {unknown}"


def test_back_ends_implement_the_core_language():
    from jms_selector_spark.semantics import core
    from jms_selector_spark.backends.spark_sql import SparkSqlGenerator
    from jms_selector_spark.interpreter import ReferenceInterpreter

    pytest = __import__("pytest")
    vectorized = pytest.importorskip("jms_selector_spark.backends.vectorized")
    for cls in (ReferenceInterpreter, SparkSqlGenerator, vectorized.VectorizedEvaluator):
        assert cls.node_types == core.CORE_TYPES, cls
        assert "rules" not in cls.__init__.__code__.co_names, cls  # no `self.rules`: nothing to ask
        assert cls.missing_handlers() == [], cls
        assert not set(core.LOWERED_AWAY) & set(cls._dispatch), cls


def test_the_core_imports_only_the_tree():
    # semantics.types: `JmsType`, which the tree's literals already carry (frontend.nodes imports it)
    assert _imports(PACKAGE / "semantics/core.py", "semantics/core.py") <= {
        "__future__", "dataclasses", "frontend", "frontend.nodes", "semantics.types", "semantics.types.JmsType"}


def test_lowering_leaves_no_front_end_construct():
    from jms_selector_spark.frontend import nodes
    from jms_selector_spark.semantics import core
    from jms_selector_spark.semantics.dialects import DIALECTS, get_dialect
    from jms_selector_spark.semantics.lowering import lower, rules_for
    from jms_selector_spark.frontend.selector import parse

    text = ("a = 1 AND (b BETWEEN 1 AND 2 OR c NOT BETWEEN 1 AND 2) AND NOT (d IN ('x') OR e NOT IN ('y'))"
            " AND f LIKE 'a%' AND g IS NULL AND -h + 1 > 2 AND +i * 2 = 4")
    lowered = 0
    for d in map(get_dialect, DIALECTS):
        try:
            sel = parse(text, dialect=d)
        except Exception:  # a dialect without one of these operators
            continue
        lowered += 1
        low = lower(sel.root, rules_for(d))
        kinds = {type(x) for x in nodes.walk(low)}
        assert kinds <= set(core.CORE_TYPES), (d.name, kinds - set(core.CORE_TYPES))
        assert {core.InStrings} <= kinds and kinds & {core.KleeneAnd, core.LeftFirstAnd}, d.name
    assert lowered >= 8, lowered


def _calls_apply(path: Path) -> bool:
    """Whether a module calls the scalar rules' `apply` (``scalar.apply`` / ``sem.apply`` / an imported ``apply``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr == "apply" and isinstance(node.value, ast.Name) \
                and node.value.id in ("sem", "scalar"):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("scalar") \
                and any(a.name == "apply" for a in node.names):
            return True
    return False


def test_constants_are_folded_once_in_lowering():
    # `lowering.lower` folds every node whose operands are constant (scalar.apply); no back end
    # folds again or evaluates a constant with the interpreter's rules
    assert _calls_apply(PACKAGE / "semantics/lowering.py")  # the scan sees a call (not vacuous)
    folding = sorted(rel for rel, path in _modules() if rel in BACK_ENDS - {"semantics/scalar.py"} and _calls_apply(path))
    assert not folding, f"fold constants in lowering.lower, render the literal: {folding}"


def _names(path: Path) -> set:
    return {node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else a.name
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            for a in (node.names if isinstance(node, ast.ImportFrom) else [None])
            if isinstance(node, (ast.Name, ast.Attribute)) or (isinstance(node, ast.ImportFrom) and a is not None)}


def test_one_like_planner():
    # `lowering.lower` plans each LIKE pattern once (`like.like_segments` → `LikeString.segments`);
    # back ends render the plan and never plan a pattern again
    planners = {"like_segments", "like_tokens", "compile_like"}
    assert "like_segments" in _names(PACKAGE / "semantics/lowering.py")  # the scan sees names
    replanning = sorted((rel, sorted(_names(path) & planners)) for rel, path in _modules()
                        if rel in BACK_ENDS and _names(path) & planners)
    assert not replanning, f"render core.LikeString.segments instead: {replanning}"


# -- the SQL generator takes static types from the core tree, not from its rendered values ------

SQL_GENERATOR = ["backends/spark_sql.py"] + sorted(
    p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "backends").glob("sql_*.py"))
#: The one function that reads a rendered value's type (`V.branch_type`): a node lowering could
#: not type (an operand reads a VARIANT property, or is a function's value) takes its operands'
#: types as rendered in the current branch of `SparkSqlGenerator._expand`.
BRANCH_TYPE_READERS = {("backends/spark_sql.py", "_branch_types")}
#: Every other ``.type`` read in the generator, by (module, function, the name read): each is a
#: front-end/core node's (a literal's type), a binder `ColumnRef`'s, a `NumericOrder`'s or a
#: list element's, never a rendered value's. A new entry must be one of those, not a `V`.
TYPE_READS = {
    ("backends/spark_sql.py", "_column", "ref"), ("backends/spark_sql.py", "visit_Literal", "node"),
    ("backends/spark_sql.py", "lit_type", "node"), ("backends/sql_compare.py", "_numeric_compare", "rule"),
    ("backends/sql_arithmetic.py", "visit_Call", "pat"), ("backends/sql_arithmetic.py", "visit_Call", "rx"),
    ("backends/sql_arithmetic.py", "visit_Call", "repl"), ("backends/sql_arithmetic.py", "_list_items", "node"),
    ("backends/sql_arithmetic.py", "_list_items", "x"),
}


def _attribute_reads(rel: str, attrs: set, root: Path = PACKAGE) -> set:
    """``(module, enclosing function, base name)`` of each read of an attribute in ``attrs``."""
    out = set()

    def walk(node, func):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else func
            if isinstance(child, ast.Attribute) and child.attr in attrs and isinstance(child.ctx, ast.Load):
                base = child.value
                name = base.id if isinstance(base, ast.Name) else ast.unparse(base)
                out.add((rel, func, name, child.attr))
            walk(child, inner)

    walk(ast.parse((root / rel).read_text(encoding="utf-8")), None)
    return out


def test_the_sql_generator_reads_a_rendered_type_only_in_variant_branches():
    """Issue #12: static types ride on the core nodes (`core.Compare.types`, ``operand_type``,
    `core.static_type`); the generator reads `V.branch_type` in `_branch_types` only."""
    from jms_selector_spark.backends.sql_render import V

    assert "type" not in V._fields  # `v.type` is no shortcut around the scan: it raises
    branch = set().union(*(_attribute_reads(rel, {"branch_type"}) for rel in SQL_GENERATOR))
    assert {(rel, func) for rel, func, _, _ in branch} == BRANCH_TYPE_READERS
    reads = set().union(*(_attribute_reads(rel, {"type"}) for rel in SQL_GENERATOR))
    assert {(rel, func, name) for rel, func, name, _ in reads} == TYPE_READS


def test_the_type_read_scan_sees_reads(tmp_path):
    src = "def f(v):\n    return v.branch_type\n\nclass C:\n    def g(self, w):\n        return w.type\n"
    (tmp_path / "m.py").write_text(src, encoding="utf-8")
    assert _attribute_reads("m.py", {"branch_type", "type"}, tmp_path) == {
        ("m.py", "f", "v", "branch_type"), ("m.py", "g", "w", "type")}
    assert _attribute_reads("m.py", {"type"}, tmp_path) == {("m.py", "g", "w", "type")}
