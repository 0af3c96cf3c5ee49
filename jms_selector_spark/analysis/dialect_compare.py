"""`compare_dialects`: a message on which two dialects answer a selector differently, or how we looked.

Teams moving between brokers need to know which selectors change meaning. This module searches,
with the reference interpreter only (no Spark), for a *witness*: typed header and property values
on which dialect ``a`` and dialect ``b`` give different answers (TRUE / FALSE / UNKNOWN), or the
selector is valid in one and invalid in the other. The search is deliberate and deterministic:

1. the names the selector reads (in either dialect; a name that is a header in one dialect and a
   property in the other gets both a header and a property slot), each with the JMS types the
   ``schema`` allows (every property type without one) and NULL;
2. for each type, the values where dialects' rules differ: NULL, unlike types, boundary ints
   (byte/short/int/long), 0 and divisors, ``-0.0``, NaN, infinities, ``1e23`` (Java's number
   formatting), empty and case-varied strings, strings that order differently in UTF-16 and code
   points, numeric strings — and the selector's own literals (each ±1, in every numeric type,
   numbers written in its strings, strings that match its LIKE patterns);
3. every combination when they fit in ``max_candidates`` (so a small selector is searched
   exhaustively), else the combinations of the literal-derived values first, then every name
   taking values of one type (per type, when those combinations are few), then one name varied at
   a time around a satisfying base, then seeded random combinations biased towards them, until
   ``max_candidates`` or ``timeout`` seconds.

A witness on which delivery differs (TRUE in one dialect only) is preferred over one where the
answers differ only as FALSE vs UNKNOWN (which matters only inside a larger selector).
"""
from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field

from ..language import nodes as n
from ..language.dialects import HEADER_TYPES, Dialect, get_dialect
from ..language.errors import SelectorError
from ..interpreter import ReferenceInterpreter, message_resolver
from ..semantics.javanum import to_float32
from ..parsing import parse
from .typed_message import TypedMessage, answer, format_value, word
from ..language.types import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN, JmsType

__all__ = ["TypedMessage", "DialectComparison", "compare_dialects", "candidate_messages", "answer", "format_value"]

_T = JmsType
_PROPERTY_TYPES = (_T.STRING, _T.LONG, _T.INT, _T.SHORT, _T.BYTE, _T.DOUBLE, _T.FLOAT, _T.BOOLEAN)
_RANGES = {_T.BYTE: (-128, 127), _T.SHORT: (-32768, 32767), _T.INT: (INT_MIN, INT_MAX), _T.LONG: (LONG_MIN, LONG_MAX)}
_EXACT = (0, 1, -1, 2, 3, 5, 7, 10)
_APPROX = (0.0, -0.0, 1.0, -1.0, 0.5, 2.5, math.nan, math.inf, -math.inf, 1e23, 2147483648.0)
_STRINGS = ("", "a", "b", "A", "ab", " ", "1", "0", "true", "TRUE", "é", "\uffff", "\U00010000", "a,b",
            "PERSISTENT", "NON_PERSISTENT")


@dataclass
class DialectComparison:
    """What `compare_dialects` found.

    ``differs``: a witness was found (or the selector is valid in one dialect only).
    ``witness``: the `TypedMessage` (None when validity differs, or nothing was found).
    ``answer_a`` / ``answer_b``: ``"TRUE"``, ``"FALSE"``, ``"UNKNOWN"`` on the witness, or ``"valid"`` /
    ``"invalid"`` when the selector is invalid in a dialect (then there is no witness).
    ``error_a`` / ``error_b``: the parse error when invalid. ``delivery_differs``: the message is
    delivered in one dialect only (TRUE vs FALSE/UNKNOWN). ``candidates``: messages evaluated;
    ``exhaustive``: every combination of ``domains`` was tried; ``domains``: slot → its types and
    number of values; ``stopped``: why the search ended.
    """

    selector: str
    a: str
    b: str
    differs: bool
    witness: "TypedMessage | None" = None
    answer_a: "str | None" = None
    answer_b: "str | None" = None
    error_a: "str | None" = None
    error_b: "str | None" = None
    delivery_differs: bool = False
    candidates: int = 0
    exhaustive: bool = False
    domains: dict = field(default_factory=dict)
    stopped: str = ""

    def __str__(self):
        head = f"selector: {self.selector}\n{self.a} -> {self.b}: "
        if self.error_a or self.error_b:
            if self.error_a and self.error_b:
                return head + f"no difference found: invalid in both\n  {self.a}: {self.error_a}\n  {self.b}: {self.error_b}"
            bad, err = (self.a, self.error_a) if self.error_a else (self.b, self.error_b)
            good = self.b if self.error_a else self.a
            return head + f"valid in {good}, invalid in {bad}\n  {bad}: {err}"
        searched = (f"searched {self.candidates:,} message(s)" + (" (every combination)" if self.exhaustive else "")
                    + f"; {self.stopped}\n  domains: " + ("; ".join(
                        f"{k}: {v}" for k, v in self.domains.items()) or "(the selector reads no names)"))
        if not self.differs:
            return head + "no difference found\n  " + searched
        kind = "delivery differs" if self.delivery_differs else "answers differ, delivered by neither"
        return (head + f"{kind}\n  message: {self.witness}\n  {self.a}: {self.answer_a}\n  {self.b}: {self.answer_b}\n  "
                + searched)

    def to_dict(self) -> dict:
        return {"selector": self.selector, "from": self.a, "to": self.b, "differs": self.differs,
                "delivery_differs": self.delivery_differs,
                "witness": None if self.witness is None else self.witness.to_dict(),
                "answers": {self.a: self.answer_a, self.b: self.answer_b},
                "errors": {self.a: self.error_a, self.b: self.error_b},
                "search": {"candidates": self.candidates, "exhaustive": self.exhaustive,
                           "domains": self.domains, "stopped": self.stopped}}


# -- the search domain --------------------------------------------------------------------------------

def _literals(roots) -> tuple:
    """(numbers, strings, like patterns) written in the selectors."""
    nums, strs, likes = [], [], []
    for root in roots:
        for node in n.walk(root):
            lits = [node] if isinstance(node, n.Literal) else list(getattr(node, "values", ()) or ()) if isinstance(
                node, n.InList) else []
            for lit in lits:
                v = lit.value if isinstance(lit, n.Literal) else lit
                if isinstance(v, bool) or v is None:
                    continue
                (strs if isinstance(v, str) else nums).append(v)
            if isinstance(node, n.Like):
                likes.append((node.pattern, node.escape))
    return nums, strs, likes


def _like_samples(pattern: str, escape) -> list:
    out = []
    for fill_any, fill_one in (("", "x"), ("zz", "é")):
        s, i = [], 0
        while i < len(pattern):
            c = pattern[i]
            if escape is not None and c == escape and i + 1 < len(pattern):
                s.append(pattern[i + 1])
                i += 2
                continue
            s.append(fill_any if c == "%" else fill_one if c == "_" else c)
            i += 1
        out.append("".join(s))
    return out + [pattern]


def _values(t: JmsType, nums, strs, likes) -> "tuple[list, list]":
    """(values from the selector's literals, all values) of one JMS type, deduplicated in order."""
    if t is _T.BOOLEAN:
        return [], [True, False]
    if t is _T.STRING:
        mine = []
        for s in strs:
            mine += [s, s.upper(), s.lower(), s + "x", s[:-1], " " + s]
        for p, e in likes:
            mine += _like_samples(p, e)
        mine += [_fmt_num(v) for v in nums]
        return _dedup(mine), _dedup(mine + list(_STRINGS))
    numbers = list(nums) + _combined(nums)
    for s in strs:
        try:
            numbers.append(float(s))
            numbers.append(int(s, 0))
        except ValueError:
            pass
    if t.is_exact:
        lo, hi = _RANGES[t]
        mine = []
        for v in numbers:
            if isinstance(v, float):
                if not math.isfinite(v):
                    continue
                v = int(v)
            mine += [v, v - 1, v + 1]
        base = list(_EXACT) + [lo, hi, lo + 1, hi - 1, INT_MAX, INT_MIN, INT_MAX + 1, INT_MIN - 1]
        keep = lambda vs: _dedup([v for v in vs if lo <= v <= hi])  # noqa: E731
        return keep(mine), keep(mine + base)
    conv = to_float32 if t is _T.FLOAT else float
    mine = []
    for v in numbers:
        try:
            mine += [conv(v), conv(v) + 0.5, -conv(v)]
        except OverflowError:
            pass
    return _dedup(mine), _dedup(mine + [conv(v) for v in _APPROX])


def _combined(nums) -> list:
    """Values where arithmetic between the literals changes sides: ``p * q`` and its neighbours (an
    integer ``x / p > q`` differs from a floating one for x in ``p*q+1 .. p*(q+1)-1``), sums, differences."""
    out = []
    lits = [v for v in dict.fromkeys(nums) if isinstance(v, (int, float)) and math.isfinite(v)][:8]
    for p, q in itertools.permutations(lits, 2):
        prod = p * q
        out += [prod, prod + 1, prod - 1, prod + abs(p) // 2 if isinstance(p, int) else prod + abs(p) / 2,
                -(prod + 1), p + q, p - q]
        if q:
            out.append(p / q)
    return [v for v in out if isinstance(v, float) or LONG_MIN <= v <= LONG_MAX]


def _fmt_num(v) -> str:
    return repr(v) if isinstance(v, float) else str(v)


def _dedup(values) -> list:
    seen, out = set(), []
    for v in values:
        key = (type(v), repr(v))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _schema_types(schema) -> "dict | None":
    """``{column: JmsType}`` of a flat schema (any form `binder.to_schema` reads, or a DataFrame)."""
    if schema is None:
        return None
    from ..binder import jms_type_of_spark, to_schema

    out = {}
    for f in to_schema(getattr(schema, "schema", schema)).fields:
        jt = f.dataType.jms or (jms_type_of_spark(f.dataType) or (None,))[0]
        if jt is not None:
            out[f.name] = jt
    return out


def _slots(names, da: Dialect, db: Dialect, schema) -> list:
    """``[(kind, key, types)]``: the variables of the search, one per header or property a name reaches."""
    types = _schema_types(schema)
    slots, seen = [], set()
    for name in names:
        headers = {h for h in (da.header_for(name), db.header_for(name)) if h is not None}
        for h in sorted(headers):
            if ("header", h) not in seen:
                seen.add(("header", h))
                slots.append(("header", h, (HEADER_TYPES.get(h, _T.STRING),)))
        property_somewhere = da.header_for(name) is None or db.header_for(name) is None
        if property_somewhere and not (headers and name.startswith("JMS")) and ("property", name) not in seen:
            seen.add(("property", name))
            if types is None:
                slots.append(("property", name, _PROPERTY_TYPES))
            else:
                slots.append(("property", name, (types[name],) if name in types else ()))
    return slots


def _domain(kind, key, types, nums, strs, likes) -> "tuple[list, list]":
    """(preferred, all) values of one slot: ``None`` or ``(JmsType, value)``."""
    if kind == "header" and key == "JMSDeliveryMode":
        return [None], [None, (_T.STRING, "PERSISTENT"), (_T.STRING, "NON_PERSISTENT")]
    mine, every = [None], [None]
    for t in types:
        m, a = _values(t, nums, strs, likes)
        mine += [(t, v) for v in m]
        every += [(t, v) for v in a]
    return mine, _dedup_pairs(mine + every)


def _dedup_pairs(values) -> list:
    seen, out = set(), []
    for v in values:
        key = None if v is None else (v[0], type(v[1]), repr(v[1]))
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _message(slots, combo) -> TypedMessage:
    headers, props, types = [], [], []
    for (kind, key, _), v in zip(slots, combo):
        if kind == "header":
            headers.append((key, None if v is None else v[1]))
        else:
            props.append((key, None if v is None else v[1]))
            if v is not None:
                types.append((key, v[0].value))
    return TypedMessage(tuple(headers), tuple(props), tuple(types))


# -- the search ---------------------------------------------------------------------------------------

def compare_dialects(selector: str, a="jms", b="activemq", schema=None, *, max_candidates: int = 20_000,
                     timeout: float = 10.0, seed: int = 0, prefer_delivery: bool = True) -> DialectComparison:
    """Search for a message on which dialects ``a`` and ``b`` answer ``selector`` differently.

    Parameters
    ----------
    selector : str
    a, b : str or Dialect
        The dialect migrated from and the one migrated to.
    schema : mapping or StructType, optional
        Property types (``{"qty": "int"}``, or a flat Spark schema / DataFrame): each property is
        searched with its type only (a name the schema lacks is always NULL). Without it, every
        JMS property type is tried. Headers always have their JMS types.
    max_candidates : int
        Messages evaluated at most (every combination is tried when they are fewer).
    timeout : float
        Seconds at most (the search is deterministic unless this cuts it short; ``stopped`` says).
    seed : int
        Seed of the random phase.
    prefer_delivery : bool
        Keep searching after a message on which the answers differ only as FALSE vs UNKNOWN, for
        one on which delivery differs (returned if found, else the first). False: stop at the first.

    Returns
    -------
    DialectComparison
        ``str()`` of it is a human-readable report, ``to_dict()`` a JSON-ready one.

    Examples
    --------
    >>> r = compare_dialects("qty / 2 = 2", "jms", "activemq", {"qty": "int"})
    >>> r.differs, str(r.witness), r.answer_a, r.answer_b
    (True, 'qty = 5 (int)', 'TRUE', 'FALSE')
    >>> compare_dialects("color = 'blue'", "jms", "activemq").differs
    False
    """
    da, db = get_dialect(a), get_dialect(b)
    result = DialectComparison(selector, da.name, db.name, False)
    sels = []
    for d, attr in ((da, "error_a"), (db, "error_b")):
        try:
            sels.append(parse(selector, dialect=d))
        except SelectorError as exc:
            setattr(result, attr, f"{type(exc).__name__}: {exc}")
            sels.append(None)
    if sels[0] is None or sels[1] is None:
        result.differs = (sels[0] is None) != (sels[1] is None)
        result.answer_a = "invalid" if sels[0] is None else "valid"
        result.answer_b = "invalid" if sels[1] is None else "valid"
        result.stopped = "validity differs" if result.differs else "invalid in both"
        return result
    sa, sb = sels
    names = list(dict.fromkeys(sa.identifiers + sb.identifiers))
    nums, strs, likes = _literals([s.root for s in sels if s.root is not None])
    slots = _slots(names, da, db, schema)
    doms = [_domain(kind, key, types, nums, strs, likes) for kind, key, types in slots]
    result.domains = {f"{key} ({kind})": f"NULL + {len(every) - 1} value(s) of {'/'.join(t.value for t in types) or 'no type'}"
                      for (kind, key, types), (_, every) in zip(slots, doms)}
    found = _search(sa, sb, slots, doms, result, max_candidates, timeout, seed, prefer_delivery)
    if found is not None:
        msg, ta, tb = found
        result.differs, result.witness = True, msg
        result.answer_a, result.answer_b = word(ta), word(tb)
        result.delivery_differs = (ta is True) != (tb is True)
    return result


def candidate_messages(sa, sb, schema=None, *, max_candidates: int = 20_000, seed: int = 0,
                       deadline: float = math.inf):
    """Yield ``(TypedMessage, phase)``: the messages the search tries for the parsed selectors ``sa``
    and ``sb`` (each in its own dialect), in the order described in the module, at most
    ``max_candidates`` of them (the caller bounds the time; ``deadline``, a `time.monotonic` value,
    bounds the search for a satisfying base)."""
    names = list(dict.fromkeys(sa.identifiers + sb.identifiers))
    nums, strs, likes = _literals([s.root for s in (sa, sb) if s.root is not None])
    slots = _slots(names, sa.dialect, sb.dialect, schema)
    doms = [_domain(kind, key, types, nums, strs, likes) for kind, key, types in slots]
    combos = _combos(doms, max_candidates, seed, lambda: _satisfying_base(sa, sb, slots, doms, deadline))
    for combo, phase in itertools.islice(combos, max_candidates):
        yield _message(slots, combo), phase


def _conjuncts(sel) -> list:
    root = sel.root
    return list(root.operands) if isinstance(root, n.And) else [root]


def _satisfying_base(sa, sb, slots, doms, deadline: float = math.inf) -> tuple:
    """Greedily, slot by slot, the value that makes the most top-level conjuncts TRUE in either
    dialect: a base where the rest of an AND chain holds, so one slot's difference shows."""
    parts = [(s, c) for s in (sa, sb) for c in _conjuncts(s)]

    def score(combo):
        msg = _message(slots, combo)
        total = 0
        for sel, c in parts:
            resolve = message_resolver(dict(msg.header_values), dict(msg.property_values), sel.dialect, dict(msg.property_types))
            total += ReferenceInterpreter(resolve, sel.dialect).run(c) is True
        return total

    base = [None] * len(doms)
    for i, (_, every) in enumerate(doms):
        if time.monotonic() > deadline:
            break
        best, best_score = None, score(base)
        for v in every[1:]:
            got = score(base[:i] + [v] + base[i + 1:])
            if got > best_score:
                best, best_score = v, got
        base[i] = best
    return tuple(base)


def _combos(doms, max_candidates: int, seed: int, base_of):
    """Yield (combination, phase) without repeats: exhaustive when small, else preferred-first then random."""
    total = math.prod(len(every) for _, every in doms)
    if total <= max_candidates:
        for combo in itertools.product(*(every for _, every in doms)):
            yield combo, "exhaustive"
        return
    tried = set()

    def fresh(combo):
        key = tuple(None if v is None else (v[0], type(v[1]), repr(v[1])) for v in combo)
        if key in tried:
            return False
        tried.add(key)
        return True

    if math.prod(len(mine) for mine, _ in doms) <= max_candidates // 4:
        for combo in itertools.product(*(mine for mine, _ in doms)):
            if fresh(combo):
                yield combo, "literals"
    # every slot one type (dialects differ most between two values of one type: two booleans
    # ordered, two strings, integer division): per type, all its combinations when they are few
    types = {v[0] for _, every in doms for v in every if v is not None}
    for t in sorted(types, key=lambda t: t.value):
        per = [[v for v in every if v is not None and v[0] is t] for _, every in doms]
        if all(per) and math.prod(map(len, per)) <= max_candidates // 4:
            for combo in itertools.product(*per):
                if fresh(combo):
                    yield combo, "one type"
    # one slot at a time over all its values, the others at a satisfying base, NULL, or preferred values
    rng = random.Random(seed)
    good = base_of()
    bases = [good, tuple(None for _ in doms)] + [tuple(rng.choice(mine) for mine, _ in doms) for _ in range(6)]
    for base in bases:
        for i, (_, every) in enumerate(doms):
            for v in every:
                combo = base[:i] + (v,) + base[i + 1:]
                if fresh(combo):
                    yield combo, "one at a time"
    while True:  # random: each slot keeps the satisfying value, or takes a preferred or any value
        combo = tuple(g if rng.random() < 0.4 else rng.choice(mine if rng.random() < 0.5 else every)
                      for g, (mine, every) in zip(good, doms))
        if fresh(combo):
            yield combo, "random"


def _search(sa, sb, slots, doms, result: DialectComparison, max_candidates, timeout, seed, prefer_delivery=True):
    start = time.monotonic()
    fallback = None  # the first witness where the answers differ but delivery does not
    exhaustive, count = True, 0
    stopped = "every combination tried"
    base = lambda: _satisfying_base(sa, sb, slots, doms, start + timeout / 2)  # noqa: E731
    for combo, phase in _combos(doms, max_candidates, seed, base):
        if phase != "exhaustive":
            exhaustive = False
        if count >= max_candidates:
            stopped, exhaustive = f"stopped at max_candidates={max_candidates:,}", False
            break
        if count % 256 == 0 and time.monotonic() - start > timeout:
            stopped, exhaustive = f"stopped at timeout={timeout:g}s", False
            break
        count += 1
        msg = _message(slots, combo)
        ta, tb = msg.evaluate(sa, None), msg.evaluate(sb, None)
        if ta != tb:
            if (ta is True) != (tb is True):
                result.candidates, result.exhaustive = count, False
                result.stopped = f"delivery differs ({phase} phase)"
                return msg, ta, tb
            if fallback is None:
                fallback = (msg, ta, tb, phase)
            if not prefer_delivery:
                result.candidates, result.exhaustive = count, False
                result.stopped = f"answers differ ({phase} phase)"
                return fallback[:3]
    result.candidates, result.exhaustive = count, exhaustive
    result.stopped = stopped if fallback is None else (
        f"answers differ ({fallback[3]} phase); no message delivered in one dialect only: {stopped}")
    return None if fallback is None else fallback[:3]
