"""`compile_selector`: the one descent from a selector to everything that runs it.

Every entry point — `selector_to_sql`, `selector_to_column`, `jms_filter`, `explain_filter`,
`register_selector`, `lint`, the CLI, and `route` for each distinct selector — normalises its
inputs and compiles the selector here, once, into a `Compiled`: one value per stage, as Spark's
own ``QueryExecution`` holds one per plan stage, and ``explain`` prints those same values::

    text ─parse─▶ Selector ─bind(schema)─▶ BoundSelector ─lower─▶ core tree ─plan─▶ Plan
                                                                              └─▶ SQL / Column / UDF

- **bound** (`binder.bind`): each name → its column and JMS type; the properties the table cannot
  hold are logged once, here.
- **core** (`semantics.lowering.lower_selector`): the dialect's rules decided, constants folded,
  the named rewrites applied (IBM MQ's match-option form, the simplified boolean skeleton).
- **plan**: one bottom-up pass over the core tree's boolean skeleton (AND / OR / NOT) renders
  each node once (`backends.sql.generator.SparkSqlGenerator`) and decides, for every node,
  whether it runs natively — it renders, and its SQL nests no deeper than Spark's parser takes
  (`backends.sql.limits.MAX_SQL_DEPTH`) — or in the vectorized fallback. A node the SQL back end
  cannot render (`UnsupportedSelectorError`) is the one reason for a fallback, decided here and
  nowhere else.

Two readings of the same pass: `Compiled.whole` (the selector as one piece, native or not: what
`selector_to_sql` returns and `route` routes) and `Compiled.plan` (split per sub-expression where
AND / OR / NOT let Spark's own Kleene logic join the pieces: what `jms_filter` runs). A fallback
piece is a path into the core tree (`Piece`), so a Spark executor evaluates the very node the
driver planned, without printing or re-binding a sub-selector.

How a piece splits: for ``A AND B AND C`` where only C has no native form, the plan is
``native(A) AND native(B) AND fallback(C)``: Spark pushes A and B down and runs the UDF only on
the rows that pass them. Sibling operands that all fall back share one piece (their AND, or
their OR), so rows cross to Python once per group. Where AND / OR are not Kleene (WSO2's
left-first logic), an AND / OR that is not native as a whole falls back as a whole: Spark's
operators cannot join its pieces. `Compiled.conjuncts` is route's split of a selector that is
not native as a whole: its native top-level conjuncts (a gate Spark evaluates) and the rest (the
UDF's residual); route asks only whether a selector is TRUE, and a top-level AND is TRUE exactly
when every conjunct is, for Kleene and left-first AND alike.
"""
from __future__ import annotations

import functools
import logging

from .backends.sql.fragment import ColumnUse, Fragment, Slot
from .backends.sql.generator import SparkSqlGenerator
from .backends.sql.limits import check_sql_depth
from .binder import (Binding, BoundSelector, bind, check_options, infer_flat_schema, unknown_property_refs,
                     warn_unknown_properties)
from .frontend.printer import to_text
from .frontend.selector import Selector
from .language import nodes as n
from .language.dialects import Dialect
from .language.errors import UnsupportedSelectorError
from .language.schema import column_collisions, to_schema
from .parsing import as_selector
from .plans import AND, OR, SKELETON, Piece, Plan, node_at, top_conjuncts
from .semantics.decisions import Logic
from .semantics.lowering import rules_for

__all__ = ["compile_selector", "compile_bound", "Compiled", "Plan", "Piece"]

log = logging.getLogger(__name__)



def _bounds(v, offset: int, slot_at: dict, clean_length):
    """``(column, value SQL, operator, slot index)`` of each bound among the operands of ``v``'s AND
    chains (`V.conj`, nested ones too; ``offset``: where ``v``'s text starts)."""
    stack = [(v, offset)]
    while stack:
        cur, pos = stack.pop()
        if cur.conj:
            at = pos + 1
            kids = []
            for p in cur.conj:
                kids.append((p, at))
                at += clean_length(p.sql) + 5
            stack.extend(reversed(kids))
        elif cur.form is not None:
            column, value_sql, op = cur.form
            yield column, value_sql, op, slot_at[pos + len(value_sql) + len(op) + 2]


class Compiled:
    """A selector compiled for one table: every stage computed once (see the module docstring).

    Build it with `compile_selector`. Attributes: ``selector`` (`Selector`), ``schema``
    (`language.schema.Schema`), ``binding`` (`Binding`), ``bound`` (`BoundSelector`),
    ``assumed_schema`` (the flat schema guessed when none was given, else None); properties
    ``core``, ``whole``, ``plan``.
    """

    def __init__(self, selector: Selector, schema, binding: Binding, bound: BoundSelector, *,
                 qualifier: tuple = (), assumed_schema: "dict | None" = None):
        self.selector = selector
        self.schema = schema
        self.binding = binding
        self.bound = bound
        self.qualifier = tuple(qualifier)
        self.assumed_schema = assumed_schema
        self._rendered: dict = {}  # id(core node) -> V, or the UnsupportedSelectorError rendering raised
        self._paths: dict = {}  # id(core node) -> its path from the core root
        self._unmarked: dict = {}  # id(core node) -> its SQL unmarked, and the marks

    def __repr__(self):
        return f"Compiled({self.selector.text!r}, dialect={self.dialect.name!r})"

    @property
    def dialect(self) -> Dialect:
        return self.selector.dialect

    @property
    def text(self) -> str:
        return self.selector.text

    @property
    def core(self):
        """The lowered core tree (None for an empty selector)."""
        return self.bound.core

    def top_conjuncts(self) -> list:
        """The operands of the core tree's top-level AND chain (nested ANDs of either kind
        flattened), or the root alone; [] for an empty selector."""
        return [] if self.core is None else top_conjuncts(self.core)

    @functools.cached_property
    def generator(self) -> SparkSqlGenerator:
        """The one SQL generator of this selector: every node is rendered by it, once."""
        return SparkSqlGenerator(self.bound, qualifier=self.qualifier)

    # -- rendering, once per node -------------------------------------------------------------
    def render(self, node):
        """The rendered value (`backends.sql.render.V`) of the core node ``node``: its skeleton
        joined from its operands' values, a predicate rendered by the generator. Raises the
        `UnsupportedSelectorError` of a node (or operand) with no native form."""
        key = id(node)
        got = self._rendered.get(key)
        if got is None:
            try:
                if type(node) in SKELETON:
                    kids = n.children(node)
                    got = self.generator.combine(node, [self.render(k) for k in kids])
                else:
                    got = self.generator.truth(node)
            except UnsupportedSelectorError as exc:
                got = exc
            self._rendered[key] = got
        if isinstance(got, UnsupportedSelectorError):
            raise got
        return got

    def unmarked(self, node) -> "tuple[str, list]":
        """`backends.sql.fragment.unmark` of ``node``'s rendered SQL (once per node)."""
        key = id(node)
        got = self._unmarked.get(key)
        if got is None:
            got = self._unmarked[key] = self.generator.unmark(self.render(node).sql)
        return got

    def native_sql(self, node) -> str:
        """The native SQL of ``node``, or the `UnsupportedSelectorError` (too deep included)."""
        try:
            return check_sql_depth(self.unmarked(node)[0], self.text)
        except UnsupportedSelectorError as e:
            if not e.selector:
                raise UnsupportedSelectorError(e.message, self.text, e.span) from None
            raise

    def _decide(self, node) -> Plan:
        try:
            return Plan("native", node, self.native_sql(node))
        except UnsupportedSelectorError as exc:
            return Plan("fallback", node, reason=exc, piece=self.piece(node))

    # -- the two readings of the plan ---------------------------------------------------------
    @functools.cached_property
    def whole(self) -> Plan:
        """The selector as one piece: ``native`` with its SQL, or ``fallback`` with the reason."""
        if self.core is None:
            return Plan("native", None, "TRUE")
        return self._decide(self.core)

    @functools.cached_property
    def plan(self) -> Plan:
        """The selector split into native and fallback pieces (see the module docstring)."""
        if self.core is None:
            return Plan("native", None, "TRUE")
        kleene = rules_for(self.dialect).and_or is Logic.KLEENE
        memo: dict = {}
        # iterative post-order: a selector may nest 1,000 levels
        stack = [(self.core, False)]
        while stack:
            node, ready = stack.pop()
            if id(node) in memo:
                continue
            kind = type(node)
            splittable = kind is n.Not or (kleene and kind in AND + OR)
            if not ready:
                stack.append((node, True))
                if splittable:
                    stack.extend((k, False) for k in n.children(node))
                continue
            whole = self._decide(node)
            if whole.is_native or not splittable:
                memo[id(node)] = whole
                continue
            kids = [memo[id(k)] for k in n.children(node)]
            if kind is n.Not:
                memo[id(node)] = Plan("not", node, parts=(kids[0],))
                continue
            kids = self._merge_fallbacks(node, kids)
            memo[id(node)] = kids[0] if len(kids) == 1 else Plan(
                "and" if kind in AND else "or", node, parts=tuple(kids))
        return memo[id(self.core)]

    def _merge_fallbacks(self, node, kids: list) -> list:
        """Sibling fallback pieces of an AND / OR as one piece (rows cross to Python once)."""
        fb = [k for k in kids if k.kind == "fallback"]
        if len(fb) < 2:
            return kids
        how = "and" if type(node) in AND else "or"
        paths = tuple(p for k in fb for p in k.piece.paths)
        piece = Piece(self.bound, paths, how)
        return [k for k in kids if k.kind != "fallback"] + [Plan("fallback", piece.node, piece=piece)]

    def sql(self) -> str:
        """The selector's native SQL as one fragment (`selector_to_sql`); raises the
        `UnsupportedSelectorError` when it has none."""
        if not self.whole.is_native:
            raise self.whole.reason
        return self.whole.sql

    def conjuncts(self) -> "tuple[list, Piece | None]":
        """``(gate, residual)`` of a selector that is not native as a whole (see the module
        docstring): ``gate`` the native `Plan` of each top-level conjunct that has a native form,
        ``residual`` the `Piece` of the others (the whole selector when nothing splits off:
        no native conjunct, or every one native but too deep as one)."""
        root = self.core
        if root is None:
            return [], None
        if type(root) not in AND:
            return [], self.piece(root)
        gate, rest = [], []
        for k in top_conjuncts(root):
            p = self._decide(k)
            (gate if p.is_native else rest).append(p if p.is_native else k)
        if not gate or not rest:
            return [], self.piece(root)
        return gate, Piece(self.bound, tuple(self.path_of(k) for k in rest), "and")

    @functools.cached_property
    def fragment(self) -> "Fragment | None":
        """The whole selector's native SQL as data (`backends.sql.fragment.Fragment`): its
        literals' slots, its compared columns, its top-level conjuncts and their bounds; None when
        the selector is not native as a whole."""
        if not self.whole.is_native or self.core is None:
            return None
        v = self.render(self.core)
        gen = self.generator
        text, marks = self.unmarked(self.core)
        slots, slot_at, occurrences, uses = [], {}, {}, []
        for kind, mid, start, end in marks:
            if kind == "literal":
                spark_type, value = gen.slots[mid]
                slot_at[start] = len(slots)
                occurrences.setdefault(mid, []).append(len(slots))
                slots.append(Slot(start, end, spark_type, value, text[start:end]))
            else:
                uses.append((mid, start, end))
        columns = []
        for cid, start, end in uses:  # each compared literal: its first occurrence after the column
            column, sids = gen.uses[cid]
            columns.append(ColumnUse(start, end, column, tuple(
                next(i for i in occurrences[sid] if slots[i].start > start) for sid in sids)))
        parts, pos = [], 0
        if v.conj:
            pos = 1
            for p in v.conj:
                parts.append((p, pos))
                pos += gen.clean_length(p.sql) + 5
        else:
            parts.append((v, 0))
        conjuncts = tuple((pos, pos + gen.clean_length(p.sql)) for p, pos in parts)
        atoms = tuple(tuple(_bounds(p, pos, slot_at, gen.clean_length)) for p, pos in parts)
        return Fragment(text, tuple(slots), tuple(columns), conjuncts, atoms, gen.lambdas, gen.decimal)

    @functools.cached_property
    def conjunct_nodes(self) -> "tuple | None":
        """The core node of each of `fragment`'s top-level conjuncts, in order (None when the
        fragment's conjuncts are not the core's: a selector not native as a whole, or an AND
        whose rendering is not the join of its operands')."""
        fragment = self.fragment
        if fragment is None:
            return None
        v = self.render(self.core)
        if not v.conj:
            return (self.core,)
        if type(self.core) not in AND:
            return None
        kept = [k for k in self.core.operands if self.render(k).lit is not True]
        if len(kept) != len(v.conj) or any(self.render(k) is not p for k, p in zip(kept, v.conj)):
            return None
        return tuple(kept)

    # -- pieces -------------------------------------------------------------------------------
    def path_of(self, node) -> tuple:
        """``node``'s child positions from the core root."""
        if not self._paths:
            stack = [(self.core, ())]
            while stack:
                cur, path = stack.pop()
                self._paths.setdefault(id(cur), path)
                stack.extend((k, path + (i,)) for i, k in enumerate(n.children(cur)))
        return self._paths[id(node)]

    def piece(self, node) -> Piece:
        """The `Piece` of one core node."""
        return Piece(self.bound, (self.path_of(node),))

    # -- text ---------------------------------------------------------------------------------
    def source_text(self, node) -> str:
        """The selector text of a core node, as the selector wrote it (printed canonically)."""
        if node is None:
            return "(empty selector)"
        return to_text(self.bound.types.source_node(node), self.dialect)

    def piece_text(self, plan: Plan) -> str:
        """The selector text of a leaf of the plan (a merged fallback: its parts joined)."""
        piece = plan.piece
        if piece is None or len(piece.paths) == 1:
            return self.source_text(plan.node)
        srcs = tuple(self.bound.types.source_node(node_at(self.core, p)) for p in piece.paths)
        joined = (n.And if piece.how == "and" else n.Or)(srcs, span=srcs[0].span)
        return to_text(joined, self.dialect)

    def describe(self, plan: "Plan | None" = None) -> str:
        """One line per piece of ``plan`` (default: `plan`): native with its SQL, or fallback."""
        lines = []
        for leaf in (plan or self.plan).leaves():
            text = self.piece_text(leaf)
            if leaf.kind == "native":
                lines.append(f"native    {text}\n          -> {leaf.sql}")
            else:
                lines.append(f"fallback  {text}\n          -> vectorized Arrow UDF")
        return "\n".join(lines)

    def explain(self, extended: bool = False) -> str:
        """How `jms_filter` runs the selector (`describe`), and the properties the table cannot
        hold (`explain_filter`). ``extended``: every stage's value first, as Spark's
        ``explain(extended=True)`` prints each plan — the parsed selector, the bound names, the
        core tree — then the plan."""
        lines = [self.describe()]
        if self.selector.root is not None and self.binding.unknown_properties == "warn":
            for name in unknown_property_refs(self.bound):
                lines.append(f"warning   {name!r} is not in the table: always NULL (a typo?)")
        if not extended:
            return "\n".join(lines)
        sel = self.selector
        stages = ["== Selector ==", f"{sel.canonical() if sel.root is not None else '(empty)'}  [dialect {self.dialect.name}]",
                  "== Bound ==", *(_ref_line(ref) for ref in self.bound.refs.values()),
                  "== Core ==", *(core_lines(self.core) if self.core is not None else ["TRUE"]),
                  "== Plan =="]
        return "\n".join(stages + lines)


def _ref_line(ref) -> str:
    where = {"missing": "(no column: always NULL)" if ref.default is None else f"(no column: {ref.default!r})",
             "map": "`" + ref.path[0] + "`[" + repr(ref.path[1]) + "]" if len(ref.path) > 1 else "",
             "typed_map": "`" + ref.path[0] + "`[" + repr(ref.path[-1]) + "]",
             "kafka_header": "the last `" + ref.path[0] + "` named " + repr(ref.path[-1])}.get(
        ref.access, ".".join(f"`{p}`" for p in ref.path))
    conv = f", read as {ref.conversion}" if ref.conversion else ""
    kind = "header" if ref.header else "property"
    return f"{ref.name} -> {where} {ref.type.value}{conv} ({kind}, {ref.access})"


#: The fields of a core node `core_lines` shows (the others are its operands, its span, and the
#: decision objects their types stand for).
_SHOWN = ("op", "name", "value", "type", "types", "pattern", "escape", "negated")


def core_lines(root) -> list:
    """The core tree, one node per line, indented by depth (iterative: 1,000 levels print)."""
    out, stack = [], [(root, 0)]
    while stack:
        node, depth = stack.pop()
        fields = []
        for f in _SHOWN:
            v = getattr(node, f, None)
            if v is None or (f == "negated" and v is False):
                continue
            if f == "types":
                v = "(" + ", ".join(getattr(t, "value", str(t)) for t in v) + ")"
            elif f == "op":
                v = repr(getattr(v, "value", v))
            elif f == "type":
                v = getattr(v, "value", v)
            else:
                v = repr(v)
            fields.append(f"{f}={v}")
        out.append("  " * depth + type(node).__name__ + (" " + " ".join(fields) if fields else ""))
        stack.extend((k, depth + 1) for k in reversed(n.children(node)))
    return out


def compile_selector(selector, schema=None, *, dialect: "str | Dialect | None" = None, qualifier: tuple = (),
                     case_sensitive: bool = False, collisions: str = "refuse", warn: bool = True,
                     **binding) -> Compiled:
    """Compile ``selector`` for a table of ``schema``: the only place inputs are normalised.

    Parameters
    ----------
    selector : str or Selector
        The selector (parsed with ``dialect`` when a string; a `Selector` keeps its own).
    schema : pyspark StructType, Arrow schema or dict, optional
        The table (``df.schema``), or ``{column: jms type}`` for a flat table. None: flat
        columns whose types are guessed from use (`infer_flat_schema`; ``assumed_schema``).
    dialect : str or Dialect, optional
    qualifier : tuple of str
        Name parts put before every column (``("message",)`` reads ```message`.`color```: the
        struct parameter of a SQL function).
    case_sensitive : bool, default False
        Whether Spark tells columns apart by case (``spark.sql.caseSensitive``): when it does
        not, a selector reading a column that has a case-only twin in the table is refused
        (`column_collisions`), since Spark would reject the SQL as ambiguous.
    collisions : {"refuse", "caller"}, default "refuse"
        ``"caller"``: the caller holds the DataFrame and renames the twins no selector reads
        (`spark.collisions`); nothing is checked here.
    warn : bool, default True
        Log the properties the table cannot hold (``unknown_properties="warn"``), once.
    **binding
        ``headers=``, ``properties=``, ``property_types=``, ``unknown_properties=`` (`Binding`).

    Raises
    ------
    SelectorError
        The selector is invalid or does not bind (`SelectorBindingError`).
    BindingOptionError
        An option names a column the table does not have.

    Examples
    --------
    >>> c = compile_selector("color = 'blue' AND weight > 2500", {"color": "string", "weight": "long"})
    >>> c.sql()
    "(`color` = decode(X'626C7565', 'UTF-8') AND `weight` > 2500)"
    >>> [p.kind for p in c.plan.leaves()]
    ['native']
    """
    sel = as_selector(selector, dialect)
    b = Binding.of(**binding)
    if collisions not in ("refuse", "caller"):
        raise ValueError(f"collisions must be 'refuse' or 'caller', not {collisions!r}")
    assumed = None
    if schema is None:
        assumed = infer_flat_schema(sel) if sel.root is not None else {}
        schema = to_schema(assumed)
    else:
        schema = to_schema(schema)
        check_options(schema, b)
    compiled = compile_bound(sel, schema, b, qualifier=qualifier, warn=warn, assumed_schema=assumed)
    if sel.root is not None and collisions == "refuse":
        column_collisions(schema.names(), compiled.bound.source_columns(), sel.text, case_sensitive=case_sensitive,
                          refuse=True)
    return compiled


def compile_bound(sel: Selector, schema, binding: Binding, *, qualifier: tuple = (), warn: bool = True,
                  assumed_schema: "dict | None" = None) -> Compiled:
    """`compile_selector` for inputs an entry point has normalised already (a `Selector`, a
    `language.schema.Schema` whose options were checked, a `Binding`): what `route` calls once per
    distinct selector of an estate."""
    bound = bind(sel, schema, binding)
    if warn:
        warn_unknown_properties(bound)
    return Compiled(sel, schema, binding, bound, qualifier=qualifier, assumed_schema=assumed_schema)
