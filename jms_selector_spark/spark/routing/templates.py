"""Templates: a plan that grows with the selector *shapes*, not the subscriptions.

An estate of thousands of subscriptions has few shapes: ``JMSType = 'car' AND weight > 2500`` and
``JMSType = 'bus' AND weight > 100`` differ only in their literals. The SQL back end marks each
literal that a run-time value of the same Spark type could replace (a *slot*,
`backends.sql.fragment`); subscriptions whose fragments are equal but for their slots' values share
one *template* (`Shape`), each slot a typed parameter. A slot whose value is the same for every
member is written back as the literal. A fragment holding a lambda is not templated; in one
holding a DECIMAL only its STRING slots are parameters (Spark types an integer literal meeting a
DECIMAL more narrowly than a value of its type).

**Indexed by access values.** Each member's access predicate (`access`, the most selective) is
necessary for its selector to be TRUE. For each set of access values (``JMSType``, or a pair) the
literals the members name are its keys; per message, its key selects the candidates of each
template, and one expression per template evaluates the template over each candidate's
parameters (`render_templates`). A subscription with no equality / IN access predicate may be
indexed on a ``LIKE 'P…'`` prefix (``substring(c, 1, len(P))``); such a prefix also pairs with an
equality (``JMSType = 't' AND customer LIKE 'Ac%'``). Subscriptions without an access predicate,
and templates with fewer than `tuning.RoutingTuning.min_members` members, stay in the index plan
(`index`).

**Implied conjuncts.** A top-level conjunct that is an access predicate on the index's value and
TRUE for every key a member is listed under (``JMSType = 'car'`` under the key ``'car'``) is TRUE
for every candidate the index gives: the template writes it as TRUE (`Template.implied`). A
template all of whose conjuncts are implied needs no evaluation (`Template.trivial`).
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from itertools import product
from types import MappingProxyType

from .access import access_predicates, conjunct_access
from .tuning import DEFAULT, RoutingTuning

__all__ = ["Shape", "shape_of", "Template", "Access", "TemplatePlan", "plan_templates", "with_numbers", "json_value",
           "distinct_candidates"]


@dataclass(frozen=True)
class Shape:
    """A fragment as ``pieces`` (text, or the index of a parameter slot) and its slots."""

    pieces: tuple
    types: tuple  # Spark type of each slot
    literals: tuple  # the literal text of each slot
    values: tuple  # its Python value
    slots: tuple = ()  # each slot's index among the fragment's slots (`Fragment.slots`)

    @functools.cached_property
    def key(self) -> tuple:
        """The pieces with each slot replaced by its type: equal for fragments that differ only in
        the slots' values (computed once per `Shape`)."""
        return tuple(p if isinstance(p, str) else (self.types[p],) for p in self.pieces)


def shape_of(fragment) -> "Shape | None":
    """``fragment`` (`backends.sql.fragment.Fragment`) as a `Shape`; None when it is not templated
    (it holds a lambda). Under a DECIMAL only STRING slots are parameters."""
    if fragment is None or fragment.lambdas:
        return None
    text = fragment.text
    kept = [k for k, s in enumerate(fragment.slots) if s.type == "STRING" or not fragment.decimal]
    pieces, pos = [], 0
    for i, k in enumerate(kept):
        s = fragment.slots[k]
        pieces.append(text[pos:s.start])
        pieces.append(i)
        pos = s.end
    pieces.append(text[pos:])
    slots = [fragment.slots[k] for k in kept]
    return Shape(tuple(pieces), tuple(s.type for s in slots), tuple(s.text for s in slots),
                 tuple(s.value for s in slots), tuple(kept))


@dataclass(frozen=True)
class Template:
    """Subscriptions that share one shape and one access value.

    ``fragment`` and ``shape`` are the first member's; ``constant`` says per slot of the shape
    whether every member has the same literal there; ``params`` holds each member's values of
    the other slots (as numbers where `numbers` interns them), ``keys`` the access literals it
    is a candidate for. ``implied``: the indexes of the top-level conjuncts the index makes TRUE.
    ``numbers`` (shape slot → {value: number}) and ``uses`` (column use index → the column of
    its number) are `keys.intern`'s: STRING comparisons made on numbers.
    """

    shape: Shape
    fragment: object
    constant: tuple
    members: tuple
    params: dict
    keys: dict
    implied: frozenset = frozenset()
    numbers: "MappingProxyType" = field(default_factory=lambda: MappingProxyType({}))
    uses: "MappingProxyType" = field(default_factory=lambda: MappingProxyType({}))

    @property
    def param_slots(self) -> tuple:
        """The slot index of each parameter (the slots not constant), in order."""
        return tuple(i for i, c in enumerate(self.constant) if not c)

    @property
    def param_types(self) -> tuple:
        """The Spark type of each parameter (INT where it is interned)."""
        return tuple("INT" if i in self.numbers else self.shape.types[i] for i in self.param_slots)

    @property
    def trivial(self) -> bool:
        """Every candidate the index gives matches: every top-level conjunct is implied."""
        return len(self.implied) == len(self.fragment.conjuncts)

    def values_of(self, name: str) -> tuple:
        """Every slot's value for member ``name`` (constant ones: the first member's), before
        interning."""
        it = iter(self.raw_params[name])
        return tuple(v if c else next(it) for v, c in zip(self.shape.values, self.constant))

    @functools.cached_property
    def raw_params(self) -> dict:
        """``params`` with interned values turned back into the literals' values."""
        back = {i: {num: v for v, num in m.items()} for i, m in self.numbers.items()}
        return {nm: tuple(back[i][v] if i in back else v for i, v in zip(self.param_slots, vs))
                for nm, vs in self.params.items()}

    def lambda_sql(self, param) -> str:
        """The template's SQL: the first member's fragment with each parameter slot the SQL
        ``param(j)`` gives for parameter ``j``, each constant slot its literal (or its number),
        each implied conjunct TRUE and each interned column use its number's column."""
        frag = self.fragment
        out: list = []
        cuts = []
        for k in sorted(self.implied):
            a, b = frag.conjuncts[k]
            cuts.append((a, b, "TRUE"))
        for u, column in self.uses.items():
            use = frag.columns[u]
            cuts.append((use.start, use.end, "`" + column.replace("`", "``") + "`"))
        j = 0
        for i, k in enumerate(self.shape.slots):  # a numeric slot under a DECIMAL stays its text
            slot = frag.slots[k]
            if not self.constant[i]:
                text = param(j)
                j += 1
            elif i in self.numbers:
                text = str(self.numbers[i][slot.value])
            else:
                continue
            cuts.append((slot.start, slot.end, text))
        cuts.sort(key=lambda cut: (cut[0], -cut[1]))
        pos = 0
        for a, b, text in cuts:
            if a < pos:  # inside a conjunct already written TRUE
                continue
            out.append(frag.text[pos:a])
            out.append(text)
            pos = b
        out.append(frag.text[pos:])
        return "".join(out)


@dataclass(frozen=True)
class Access:
    """The templates indexed on one set of access values (one or two): one index."""

    names: tuple  # as the selectors write them
    value_sqls: tuple
    templates: tuple  # of Template

    @functools.cached_property
    def keys(self) -> tuple:
        """The index's keys, in first-seen order (the key number of a message is its position
        from 1)."""
        return tuple(dict.fromkeys(k for t in self.templates for nm in t.members for k in t.keys[nm]))


@dataclass(frozen=True)
class TemplatePlan:
    accesses: tuple  # of Access
    rest: tuple  # (subscription, Compiled) pairs left to the index plan

    @property
    def names(self) -> tuple:
        return tuple(nm for a in self.accesses for t in a.templates for nm in t.members)


def _key_sets(cands, distinct, tuning: RoutingTuning) -> list:
    """(estimated selectivity, (AccessPredicate, ...)) options of one subscription, best first."""
    best: dict = {}
    for p in cands:
        if p.value_sql not in best or len(p.values) < len(best[p.value_sql].values):
            best[p.value_sql] = p
    ps = sorted(best.values(), key=lambda p: p.value_sql)
    est = {p.value_sql: len(p.values) / len(distinct[p.value_sql]) for p in ps}
    singles = [p for p in ps if not p.prefix] or ps
    out = [(est[p.value_sql], (p,)) for p in singles]
    out += [(est[p.value_sql] * est[q.value_sql], (p, q)) for i, p in enumerate(ps) for q in ps[i + 1:]
            if len(p.values) * len(q.values) <= tuning.max_pairs]
    return sorted(out, key=lambda o: (o[0], len(o[1])))


def _candidates(compiled, strings) -> list:
    """A subscription's access predicates for templates: those on a plain STRING column of the
    default collation (``strings``), LIKE prefixes included; else every other equality / IN."""
    every = access_predicates(compiled)
    plain = [p for p in every if p.column is not None and p.column in strings]
    return plain or [p for p in every if not p.prefix]


def _implied(members, keys, value_sqls) -> frozenset:
    """The top-level conjuncts (indexes) TRUE for every candidate the index on ``value_sqls`` gives:
    for every member, an access predicate on ``value_sqls[i]`` whose literals hold ``key[i]`` of
    every key the member is listed under (a LIKE prefix: equal to it, the pattern ``P%``)."""
    first = members[0][1].conjunct_nodes
    if not first:
        return frozenset()
    out = set()
    for k in range(len(first)):
        for i, value_sql in enumerate(value_sqls):
            def holds(member) -> bool:
                s, compiled = member
                nodes = compiled.conjunct_nodes
                p = None if not nodes or len(nodes) != len(first) else conjunct_access(nodes[k], compiled)
                if p is None or p.value_sql != value_sql or (p.prefix and not p.exact):
                    return False
                return all(key[i] in p.values for key in keys[s.name])

            if all(holds(m) for m in members):
                out.add(k)
                break
    return frozenset(out)


def plan_templates(native, strings, tuning: RoutingTuning = DEFAULT) -> TemplatePlan:
    """Split ``native`` ``[(subscription, Compiled)]`` into templates on access values and the rest.

    ``strings``: the top-level STRING columns of the default collation (access values a LIKE
    prefix or a first choice may be on)."""
    per: dict = {}  # id(Compiled) -> (Shape, access predicates): estates repeat selectors
    shapes, cands = {}, {}
    for s, compiled in native:
        got = per.get(id(compiled))
        if got is None:
            shape = shape_of(compiled.fragment)
            got = per[id(compiled)] = (shape, _candidates(compiled, strings) if shape is not None else [])
        shape, cands[s.name] = got
        shapes[s.name] = shape if cands[s.name] else None
    distinct: dict = {}
    for ps in cands.values():
        for p in ps:
            distinct.setdefault(p.value_sql, set()).update(p.values)
    key_sets: dict = {}  # id of a shared candidates list -> its options, computed once
    options = {nm: key_sets.get(id(cands[nm])) or key_sets.setdefault(id(cands[nm]), _key_sets(cands[nm], distinct, tuning))
               for nm, sh in shapes.items() if sh is not None}
    # the pairs of access values worth an index of their own: preferred by enough subscriptions
    preferred: dict = {}
    for nm, opts in options.items():
        if tuning.on("pairs") and len(opts[0][1]) == 2:
            key = tuple(p.value_sql for p in opts[0][1])
            preferred[key] = preferred.get(key, 0) + 1
    kept_pairs = {k for k, c in sorted(preferred.items(), key=lambda kc: -kc[1])[:tuning.max_pair_indexes]
                  if c >= tuning.min_pair_members}
    groups: dict = {}
    rest = []
    for s, compiled in native:
        shape = shapes[s.name]
        if shape is None:
            rest.append((s, compiled))
            continue
        chosen = next(o for _, o in options[s.name] if len(o) == 1 or tuple(p.value_sql for p in o) in kept_pairs)
        groups.setdefault((tuple(p.value_sql for p in chosen), shape.key), []).append((s, compiled, shape, chosen))
    kept: dict = {}
    for (value_sqls, _), members in groups.items():
        if len(members) < tuning.min_members:
            rest.extend((s, compiled) for s, compiled, _, _ in members)
        else:
            kept.setdefault(value_sqls, []).append(members)
    if sum(len(m) for ms in kept.values() for m in ms) < tuning.min_templated:
        return TemplatePlan((), tuple(native))
    accesses = []
    for value_sqls, tgroups in kept.items():
        templates = []
        for members in tgroups:
            first = members[0][2]
            constant = tuple(all(m[2].literals[i] == first.literals[i] for m in members) for i in range(len(first.types)))
            params = {s.name: tuple(v for v, c in zip(shape.values, constant) if not c) for s, _, shape, _ in members}
            keys = {s.name: tuple(product(*(p.values for p in chosen))) for s, _, _, chosen in members}
            implied = _implied([(s, compiled) for s, compiled, _, _ in members], keys, value_sqls)
            templates.append(Template(first, members[0][1].fragment, constant, tuple(s.name for s, *_ in members),
                                      params, keys, implied))
        accesses.append(Access(tuple(p.name for p in tgroups[0][0][3]), value_sqls, tuple(templates)))
    order = {s.name: i for i, (s, _) in enumerate(native)}
    rest.sort(key=lambda p: order[p[0].name])
    return TemplatePlan(tuple(accesses), tuple(rest))


def with_numbers(t: Template, numbers: dict, uses: dict) -> Template:
    """``t`` with slots interned (``numbers``: shape slot → {value: number}) and column uses read
    as number columns (``uses``: use index → column)."""
    slots = t.param_slots
    params = {nm: tuple(numbers[i][v] if i in numbers else v for i, v in zip(slots, vs)) for nm, vs in t.params.items()}
    return replace(t, params=params, numbers=MappingProxyType(dict(numbers)), uses=MappingProxyType(dict(uses)))


def json_value(v) -> str:
    """A parameter's value as JSON: a float as its shortest ``repr`` (reads back as the same
    double), anything else as ``json.dumps`` writes it."""
    if isinstance(v, float):
        return repr(v)
    return json.dumps(v)


def distinct_candidates(access, j: int) -> dict:
    """Per key of ``access`` (`Access.keys` order): ``{parameter values: [member names]}`` of its
    template ``j``; members with the same values are one candidate (evaluated once). Keyed by
    the values' JSON text, so 0.0 and -0.0 (equal in Python) stay apart."""
    t = access.templates[j]
    by_key: dict = {k: {} for k in access.keys}
    for nm in t.members:
        for k in t.keys[nm]:
            by_key[k].setdefault(tuple(json_value(v) for v in t.params[nm]), []).append(nm)
    return by_key
