"""Routing by templates: plan and code size that grow with the selector *shapes*, not the subscriptions.

An estate of thousands of subscriptions has few shapes: ``JMSType = 'car' AND weight > 2500`` and
``JMSType = 'bus' AND weight > 100`` differ only in their literals. `template` tokenises the Spark
SQL fragment the native back end wrote for a selector and replaces each literal that may safely be
a run-time value by a typed parameter; subscriptions whose fragments are equal modulo those
literals share one *template*.

**Which literals become parameters** (exactness first; everything else stays in the template):

- a string (``decode(X'…', 'UTF-8')``), an INT (plain digits in int range), a BIGINT (``…L``) or a
  DOUBLE (``…D``) literal that is the right operand of a comparison (``= <> != < <= > >= <=>``) or
  of ``+ * / %``, or an element of an ``IN (…)`` list. Never a LIKE/RLIKE pattern, a function's
  argument (a map key, a CASE's WHEN value, ``ESCAPE``), a signed number, a DECIMAL;
- no number at all in a fragment that has a DECIMAL in it (Spark types an integer *literal*
  meeting a DECIMAL more narrowly than a column of the same type);
- a fragment with a lambda (``->``) is not templated.

Analysis sees ``decode(…)`` as a function call, not a literal, so a STRING parameter is typed and
coerced exactly like it; a numeric parameter has the literal's own Spark type. A parameter whose
value is the same for every member of a template is written back as the literal.

**The index is a constant map.** Each subscription's access predicate (`route_plan`: an
equality or IN on a STRING value, the most selective of its conjuncts) is necessary for its
selector to be TRUE. For each set of access values (``JMSType``, or a pair) the literals the
subscriptions name are its keys, numbered from 1; per message, `lookup_sql` reads the key number
of its values from a constant ``MAP<STRING, INT>`` (nested for a pair) with ``try_element_at``: a
NULL or unnamed value gets NULL, so no candidates, exactly "access predicate not TRUE" (`route_keys`
gives the same key numbers reading each value once, and compares STRING parameters as numbers). Per key a
constant array holds the candidates of each template with their parameters,
``ARRAY<STRUCT<n: name, p0, p1, …>>``, and per template one expression::

    filter(element_at(<candidates>, <key number>), c -> coalesce(<the template over c.p0, …>, false)).n

gives the names of the candidates whose *whole* fragment is TRUE: the plan holds one expression
per template whatever the number of subscriptions. Members of a template with the same parameter
values for a key are one candidate listing their names (`shared`: evaluated once, then
``flatten``). A subscription with no equality/IN access predicate may be indexed on a
``c LIKE 'P…'`` conjunct instead: the key is ``substring(c, 1, len(P))`` (`route_sql.sql_access`),
necessary for the LIKE; ``LIKE 'P%'`` itself is then implied by the index. Such a prefix also pairs
with an equality (``JMSType = 't' AND customer LIKE 'Ac%'`` on ``JMSType`` and the first two
characters of ``customer``, `LIKE_PAIRS`). Subscriptions without an access predicate, and
templates with fewer than `MIN_MEMBERS` members, stay in `route_plan`'s CASE plan. An index's non-shared templates share one filter (`route_merge`): fewer
higher-order-function calls per message, the same names.

A template bounding a number by its own parameters (``JMSTimestamp BETWEEN p0 AND p1``) may have
its candidates split further by the value's bucket (`route_ranges`). The index was a broadcast
hash join until measured (README): 64 MB per relation with a 4 GB driver, more CPU than the map.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import product

from .sqltext import TOKEN as _TOKEN, conjunct_spans, implied, sql_access, string_columns, trivial as _trivial

__all__ = ["template", "TemplatePlan", "plan_templates", "lookup_sql", "template_sql", "MIN_MEMBERS", "MIN_TEMPLATED"]

#: A template with fewer members stays in the CASE plan (its own CASE costs less than a lambda).
MIN_MEMBERS = 2
#: Templates are used only when at least this many subscriptions would be routed through them.
MIN_TEMPLATED = 24
STRIP = True

_OPERATORS = {"=", "<>", "!=", "<", "<=", ">", ">=", "<=>", "+", "*", "/", "%"}
_INT_MAX = 2 ** 31 - 1
_LONG_MAX = 2 ** 63 - 1


def _number(text: str):
    """(Spark type, value) of a numeric literal the renderer writes, or None (kept literal)."""
    if text.endswith("L") and text[:-1].isdigit():
        v = int(text[:-1])
        return ("BIGINT", v) if v <= _LONG_MAX else None
    if text.endswith("D"):
        return "DOUBLE", float(text[:-1])
    if text.isdigit():
        v = int(text)
        return ("INT", v) if v <= _INT_MAX else None
    return None


@dataclass(frozen=True)
class Shape:
    """A fragment as ``pieces`` (text, or the index of a parameter) and its parameters."""

    pieces: tuple
    types: tuple  # Spark type of each parameter
    literals: tuple  # the literal text of each parameter (as the fragment wrote it)
    values: tuple  # its Python value

    @functools.cached_property
    def key(self) -> tuple:
        """The pieces with each parameter replaced by its type: equal for fragments that differ
        only in the parameters' values (computed once per `Shape`)."""
        return tuple(p if isinstance(p, str) else (self.types[p],) for p in self.pieces)


def template(fragment: str) -> "Shape | None":
    """``fragment`` as a `Shape` (None: not templated, e.g. it has a lambda)."""
    numbers = re.search(r"\bDECIMAL\b", fragment, re.I) is None
    pieces, types, literals, values = [], [], [], []
    text = []
    prev = None  # previous significant token
    parens = []  # per open parenthesis: is it an IN list
    for m in _TOKEN.finditer(fragment):
        kind, tok = m.lastgroup, m.group()
        if kind == "ws":
            text.append(tok)
            continue
        if kind == "op" and tok == "->":
            return None
        param = None
        if kind in ("str", "num"):
            in_list = prev in ("(", ",") and parens and parens[-1]
            if prev in _OPERATORS or in_list:
                if kind == "str":
                    param = ("STRING", bytes.fromhex(m.group("hex")).decode("utf-8"))
                elif numbers:
                    param = _number(tok)
        if param is not None:
            pieces.append("".join(text))
            text = []
            pieces.append(len(types))
            types.append(param[0])
            literals.append(tok)
            values.append(param[1])
        else:
            text.append(tok)
        if tok == "(":
            parens.append(isinstance(prev, str) and prev.upper() == "IN")
        elif tok == ")" and parens:
            parens.pop()
        prev = tok if kind in ("op", "word") else "<value>"
    pieces.append("".join(text))
    return Shape(tuple(pieces), tuple(types), tuple(literals), tuple(values))


@dataclass(frozen=True)
class Template:
    """Subscriptions that share one shape and one access value."""

    shape: Shape  # of the first member (its text; the parameters' types)
    constant: tuple  # per parameter: True if every member has the same literal (written back)
    members: tuple  # subscription names
    params: dict  # name -> values of the non-constant parameters
    keys: dict  # name -> the access literals it is a candidate for

    def lambda_sql(self, var: str, value_sqls: tuple = ()) -> str:
        """The fragment over ``var.p<i>`` (i over the non-constant parameters); its conjuncts that
        the index makes TRUE for every candidate (`implied`, on ``value_sqls``) written TRUE."""
        done = implied(self, value_sqls)
        out, j = [], 0
        for p in self.shape.pieces:
            if isinstance(p, str):
                out.append(p)
            elif self.constant[p]:
                out.append(self.shape.literals[p])
            else:
                out.append(f"{var}.p{j}")
                j += 1
        if not done:
            return "".join(out)
        # replace each implied conjunct's text (its tokens' span) by TRUE
        text = "".join(f"__jmsP{p}__" if not isinstance(p, str) else p for p in self.shape.pieces)
        spans = conjunct_spans(text)
        keep, pos = [], 0
        for k in sorted(done):
            a, b = spans[k]
            keep.append(text[pos:a] + "TRUE")
            pos = b
        keep.append(text[pos:])
        text, j, mapping = "".join(keep), 0, {}
        for i, c in enumerate(self.constant):
            if c:
                mapping[f"__jmsP{i}__"] = self.shape.literals[i]
            else:
                mapping[f"__jmsP{i}__"] = f"{var}.p{j}"
                j += 1
        return re.sub(r"__jmsP\d+__", lambda m: mapping[m.group()], text)

    def trivial(self, value_sqls: tuple) -> bool:
        """Every candidate the index on ``value_sqls`` gives matches (no evaluation needed)."""
        return STRIP and _trivial(self.lambda_sql("c", value_sqls))

    def values_of(self, name: str) -> tuple:
        """Every parameter's value for member ``name`` (constant ones: the first member's)."""
        it = iter(self.params[name])
        return tuple(v if c else next(it) for v, c in zip(self.shape.values, self.constant))

    @property
    def param_types(self) -> tuple:
        return tuple(t for t, c in zip(self.shape.types, self.constant) if not c)


@dataclass(frozen=True)
class Access:
    """The templates indexed on one set of access values (one or two): one index (`lookup_sql`)."""

    names: tuple  # as the selectors write them
    value_sqls: tuple
    templates: tuple  # of Template
    numeric: frozenset = frozenset()  # SQL of the numeric columns (`route_ranges`)

    @property
    def keys(self) -> tuple:
        return tuple(dict.fromkeys(k for t in self.templates for nm in t.members for k in t.keys[nm]))


@dataclass(frozen=True)
class TemplatePlan:
    accesses: tuple  # of Access
    rest: tuple  # (subscription, fragment) pairs left to the CASE plan

    @property
    def names(self) -> tuple:
        return tuple(nm for a in self.accesses for t in a.templates for nm in t.members)

    def candidates_per_message(self, joined: bool = False) -> float:
        """Templated candidates evaluated per message (``joined``: instead, those the index alone
        matches, their whole selector implied by it), if every combination of the values the
        subscriptions name is equally frequent."""
        from .ranges import plan_ranges

        total = 0.0
        for a in self.accesses:
            n = 1
            for i in range(len(a.value_sqls)):
                n *= len({k[i] for k in a.keys})
            split = {} if joined else plan_ranges(a)  # a bucket holds `share` of them (`route_ranges`)
            total += sum(len(t.keys[nm]) * (split[j].share if j in split else 1) for j, t in enumerate(a.templates)
                         if t.trivial(a.value_sqls) == joined for nm in t.members) / n
        return round(total, 2)


#: A subscription is indexed on two access values at once when that names at most this many pairs ...
MAX_PAIRS = 8
#: ... and at least this many subscriptions share that pair of values (each set is one index).
MIN_PAIR_MEMBERS = 16
#: At most this many pairs get an index of their own (those most subscriptions prefer).
MAX_PAIR_INDEXES = 6
#: A LIKE prefix pairs with an equality (both then implied by the index); alone it indexes only a
#: subscription with no equality / IN. #16 stop 30, 2M messages × 1,000 realistic subscriptions,
#: 8 interleaved rounds: matching alone 5.28 -> 5.03 CPU s.
LIKE_PAIRS = True


def _prefix(p) -> bool:  # a LIKE prefix (`route_sql.sql_access`), not an equality or IN
    return p.value_sql.startswith("substring(")


def _key_sets(cands, distinct) -> list:
    """(estimated selectivity, (AccessPredicate, ...)) options of one subscription, best first."""
    best: dict = {}
    for p in cands:
        if p.value_sql not in best or len(p.values) < len(best[p.value_sql].values):
            best[p.value_sql] = p
    ps = sorted(best.values(), key=lambda p: p.value_sql)
    est = {p.value_sql: len(p.values) / len(distinct[p.value_sql]) for p in ps}
    singles = [p for p in ps if not _prefix(p)] or ps
    if not LIKE_PAIRS:
        ps = singles
    out = [(est[p.value_sql], (p,)) for p in singles]
    out += [(est[p.value_sql] * est[q.value_sql], (p, q)) for i, p in enumerate(ps) for q in ps[i + 1:]
            if len(p.values) * len(q.values) <= MAX_PAIRS]
    return sorted(out, key=lambda o: (o[0], len(o[1])))


def plan_templates(native, schema, dialect, binding, *, min_members: int = MIN_MEMBERS,
                   min_templated: int = MIN_TEMPLATED, pairs: bool = True) -> TemplatePlan:
    """Split ``native`` ``[(subscription, fragment)]`` into templates on access values and the rest."""
    from .index import AccessPredicate, access_candidates

    from .ranges import numeric_columns

    strings, numeric = string_columns(schema), numeric_columns(schema)
    found: dict = {}  # shape key -> its access conjuncts (one look per shape, not per subscription)
    # fragment -> (its Shape, its access predicates read from the SQL): estates repeat selectors
    # (half of bench_route's 10,000), so each distinct fragment is tokenised once. Local to this
    # call: at most one entry per distinct fragment of ``native``, dropped when the plan is made.
    seen: dict = {}
    shapes, cands = {}, {}
    for s, frag in native:
        got = seen.get(frag)
        if got is None:
            shape = template(frag)
            if shape is not None and shape.key not in found:
                found[shape.key] = sql_access(shape, strings)
            ps = [] if shape is None else [
                AccessPredicate(name, v, fixed or tuple(dict.fromkeys(shape.values[q] for q in qs)))
                for name, v, qs, fixed in found[shape.key]]
            got = seen[frag] = (shape, ps)
        shape, cands[s.name] = got
        if shape is not None and not cands[s.name]:  # a form the SQL does not show (e.g. a non-Kleene dialect's)
            cands[s.name] = access_candidates(s.selector or "", schema, dialect, binding)
        shapes[s.name] = shape if cands[s.name] else None
    distinct: dict = {}
    for ps in cands.values():
        for p in ps:
            distinct.setdefault(p.value_sql, set()).update(p.values)
    key_sets: dict = {}  # id of a (shared) candidates list -> its options, computed once (lists alive in cands)
    options = {nm: key_sets.get(id(cands[nm])) or key_sets.setdefault(id(cands[nm]), _key_sets(cands[nm], distinct))
               for nm, sh in shapes.items() if sh is not None}
    # the pairs of access values worth an index of their own: preferred by enough subscriptions
    preferred: dict = {}
    for nm, opts in options.items():
        if pairs and len(opts[0][1]) == 2:
            key = tuple(p.value_sql for p in opts[0][1])
            preferred[key] = preferred.get(key, 0) + 1
    kept_pairs = {k for k, c in sorted(preferred.items(), key=lambda kc: -kc[1])[:MAX_PAIR_INDEXES] if c >= MIN_PAIR_MEMBERS}
    groups: dict = {}
    rest = []
    for s, frag in native:
        shape = shapes[s.name]
        if shape is None:
            rest.append((s, frag))
            continue
        chosen = next(o for _, o in options[s.name] if len(o) == 1 or tuple(p.value_sql for p in o) in kept_pairs)
        groups.setdefault((tuple(p.value_sql for p in chosen), shape.key), []).append((s, frag, shape, chosen))
    kept: dict = {}
    for (value_sqls, _), members in groups.items():
        if len(members) < min_members:
            rest.extend((s, frag) for s, frag, _, _ in members)
        else:
            kept.setdefault(value_sqls, []).append(members)
    if sum(len(m) for ms in kept.values() for m in ms) < min_templated:
        return TemplatePlan((), tuple(native))
    accesses = []
    for value_sqls, tgroups in kept.items():
        templates = []
        for members in tgroups:
            first = members[0][2]
            constant = tuple(all(m[2].literals[i] == first.literals[i] for m in members) for i in range(len(first.types)))
            params = {s.name: tuple(v for v, c in zip(shape.values, constant) if not c) for s, _, shape, _ in members}
            keys = {s.name: tuple(product(*(p.values for p in chosen))) for s, _, _, chosen in members}
            templates.append(Template(first, constant, tuple(s.name for s, *_ in members), params, keys))
        accesses.append(Access(tuple(p.name for p in tgroups[0][0][3]), value_sqls, tuple(templates), numeric))
    order = {s.name: i for i, (s, _) in enumerate(native)}
    rest.sort(key=lambda p: order[p[0].name])
    return TemplatePlan(tuple(accesses), tuple(rest))


_SPARK_TYPES = {"STRING": "STRING", "INT": "INT", "BIGINT": "BIGINT", "DOUBLE": "DOUBLE"}


def lookup_sql(access: Access) -> str:
    """SQL of the message's key number in ``access`` (its position from 1 in `Access.keys`, as in
    `candidates_sql`), NULL when its values are not a key or one is NULL: a constant map, nested
    for a pair, which ``from_json`` reads and Spark folds into a literal."""
    import json

    from ...backends.sql.render import sql_string

    tree: dict = {}
    for i, key in enumerate(access.keys, 1):
        d = tree
        for v in key[:-1]:
            d = d.setdefault(v, {})
        d[key[-1]] = i
    t = "INT"
    for _ in access.value_sqls:
        t = f"MAP<STRING, {t}>"
    out = f"from_json({sql_string(json.dumps(tree))}, '{t}')"
    for v in access.value_sqls:  # try_: a missing key is NULL, ANSI or not
        out = f"try_element_at({out}, {v})"
    return out


def _json_value(v) -> str:
    import json

    if isinstance(v, float):
        return repr(v)  # the shortest text that reads back as the same double
    return json.dumps(v)


def names_sql(access: Access, js) -> str:
    """A constant ``ARRAY<ARRAY<STRING>>``: per key of ``access`` the members of its templates ``js``."""
    from ...backends.sql.render import sql_string

    by_key: dict = {k: [] for k in access.keys}
    for j in js:
        t = access.templates[j]
        for nm in t.members:
            for k in t.keys[nm]:
                by_key[k].append(_json_value(nm))
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key.values()) + "]"
    return f"from_json({sql_string(text)}, 'ARRAY<ARRAY<STRING>>')"


def _distinct(access: Access, j: int) -> dict:
    """Per key of ``access`` (`Access.keys` order): ``{parameter values (JSON): [member names]}`` of its
    template ``j``; members with the same values are one candidate (evaluated once)."""
    t = access.templates[j]
    by_key: dict = {k: {} for k in access.keys}
    for nm in t.members:
        for k in t.keys[nm]:
            # keyed by the values' JSON text: 0.0 and -0.0 (equal in Python) stay apart
            by_key[k].setdefault(tuple(_json_value(v) for v in t.params[nm]), []).append(nm)
    return by_key


def shared(access: Access, j: int, by_key: "dict | None" = None) -> bool:
    """Template ``j``'s candidates list their members' names (``ns``), one candidate per distinct
    parameter values of a key: when that saves at least `SHARED_MIN` of the evaluations.
    ``by_key``: `_distinct` of ``(access, j)`` if the caller has it (computed otherwise)."""
    by_key = _distinct(access, j) if by_key is None else by_key
    entries = sum(len(ns) for d in by_key.values() for ns in d.values())
    return len(access.templates[j].members) > 1 and sum(len(d) for d in by_key.values()) <= (1 - SHARED_MIN) * entries


#: Members sharing parameter values are evaluated once when that saves at least this share.
SHARED_MIN = 0.2


def candidate_json(params: tuple, names: list, many: bool) -> list:
    """JSON objects of the candidates with parameter values ``params`` (JSON texts) and member
    ``names``: one listing them (``many``, `shared`) or one per name."""
    ps = "".join(f',"p{i}":{v}' for i, v in enumerate(params))
    if many:
        return ['{"ns":[' + ",".join(_json_value(nm) for nm in names) + "]" + ps + "}"]
    return [f'{{"n":{_json_value(nm)}{ps}}}' for nm in names]


def struct_sql(t: Template, many: bool) -> str:
    """The Spark type of template ``t``'s candidates."""
    return "STRUCT<" + ", ".join(["ns: ARRAY<STRING>" if many else "n: STRING"]
                                 + [f"p{i}: {_SPARK_TYPES[ty]}" for i, ty in enumerate(t.param_types)]) + ">"


def candidates_sql(access: Access, j: int, by_key: "dict | None" = None) -> str:
    """A constant ``ARRAY<ARRAY<STRUCT<n, p0, ...>>>``: per key of ``access`` (in `Access.keys`
    order) the candidates of its template ``j`` with their parameters (`shared`: instead of the
    name ``n``, ``ns``: the names of the members with those parameters). Written as one JSON string
    read by ``from_json``, which Spark folds into a single literal when it optimizes the plan
    (the plan's size does not grow with the members). ``by_key``: `_distinct` of ``(access, j)``
    if the caller has it."""
    from ...backends.sql.render import sql_string

    distinct = _distinct(access, j) if by_key is None else by_key
    many = shared(access, j, distinct)
    by_key = [[c for params, names in d.items() for c in candidate_json(params, names, many)] for d in distinct.values()]
    text = "[" + ",".join("[" + ",".join(c) + "]" for c in by_key) + "]"
    return f"from_json({sql_string(text)}, 'ARRAY<ARRAY<{struct_sql(access.templates[j], many)}>>')"


def _lambda_sql(access: Access, a: int, j: int, distinct: dict, many: bool, body: str) -> str:
    """Template ``j``'s own ``filter(...)``: the names of its candidates whose body is TRUE."""
    cands = f"element_at({candidates_sql(access, j, distinct)}, `__jms_ix{a}_id`)"
    return names_sql_of(cands, f"coalesce({body}, false)", many)


def names_sql_of(cands: str, test: str, many: bool) -> str:
    """SQL of the names of the candidates ``cands`` (an array of structs, or NULL: []) for which
    the lambda body ``test`` over ``__jms_c`` is TRUE: the filtered structs' field ``n`` (``ns``,
    flattened, for `shared` ones). A field of an array of structs needs no second lambda (a
    ``transform(..., c -> c.n)`` copied every name): measured ~10 % less CPU for the matching."""
    kept = f"(filter({cands}, __jms_c -> {test}))"
    return f"coalesce({f'flatten({kept}.ns)' if many else kept + '.n'}, CAST(array() AS ARRAY<STRING>))"


def template_sql(access: Access, a: int) -> list:
    """Per template of ``access`` (index number ``a``): SQL of the names of its matching candidates."""
    from . import merge as u
    from .ranges import ranged_sql, template_range

    out, trivial, rest = [], [], []
    for j, t in enumerate(access.templates):
        body = t.lambda_sql("__jms_c", access.value_sqls if STRIP else ())
        if _trivial(body):  # every candidate the index gives matches: no lambda
            trivial.append(j)
            continue
        distinct = _distinct(access, j)  # once per template (it walks every member)
        rng = template_range(access, j, body, distinct)
        if rng is not None:  # its candidates narrowed by the value's bucket (`route_ranges`)
            out.append(ranged_sql(access, a, j, distinct, shared(access, j, distinct), body, rng))
            continue
        rest.append((j, distinct, shared(access, j, distinct), body))
    if trivial:
        out.append(f"coalesce(element_at({names_sql(access, trivial)}, `__jms_ix{a}_id`), CAST(array() AS ARRAY<STRING>))")
    plain = [(j, d, body) for j, d, many, body in rest if not many]
    merge = u.MERGE and len(plain) > 1
    if merge:  # one filter for them (`route_merge.merged_sql`)
        out.append(u.merged_sql(access, a, plain))
    return out + [_lambda_sql(access, a, j, d, many, body) for j, d, many, body in rest if many or not merge]

