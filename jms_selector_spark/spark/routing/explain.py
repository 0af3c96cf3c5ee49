"""`explain_routing`: the routing plan of an estate as text, for people.

It plans exactly as `route` does (`columns.tag_matches`): the templates and their indexes, how the
values are read, the range buckets, the index plan's groups, how its code is compiled, and each
fallback subscription's native gate and residual. Nothing runs on Spark.
"""
from __future__ import annotations

from typing import Iterable

from ...binder import Binding
from ...language.dialects import get_dialect
from ...language.schema import to_schema
from .columns import numeric_columns, own_methods, split_fallback, string_columns, template_plan
from .estate import plan_estate
from .index import plan_routing
from .keys import plan_keys
from .ranges import plan_ranges
from .render_index import guard_column, needs_guard, own_parts
from .subscriptions import normalize_subscriptions
from .tuning import DEFAULT, RoutingTuning

__all__ = ["explain_routing", "format_plan", "format_templates", "format_fallback", "candidates_per_message"]


def explain_routing(schema, subscriptions, *, dialect="jms", index: bool = True,
                    tuning: "RoutingTuning | None" = None, **binding) -> str:
    """The routing plan of ``subscriptions`` over a table of ``schema`` (a DataFrame's ``schema``,
    or the DataFrame), as text: templates and indexes, groups, access names, subscriptions
    evaluated per message, fallback gates. Given the DataFrame, the plan is the one `route` makes
    in its session (parts or guard follow its subexpression elimination); given a schema, Spark's
    defaults. ``index=False``: the plan without any index (tuning feature ``index`` off)."""
    tuning = tuning or DEFAULT
    if not index:
        tuning = tuning.without("index")
    own = own_methods(schema.sparkSession if hasattr(schema, "sparkSession") else None, tuning)
    schema = getattr(schema, "schema", schema)
    d = get_dialect(dialect)
    native, fallback, errors = plan_estate(normalize_subscriptions(subscriptions), to_schema(schema), d,
                                           Binding.of(**binding))
    tp = template_plan(native, schema, tuning)
    plan = plan_routing(list(tp.rest) if tp else native, fallback, tuning)
    text = format_plan(plan, invalid=[s.name for s, _ in errors], templates=tp, own=own, schema=schema, tuning=tuning)
    # the planner's split of each fallback subscription: its native gate, what the UDF evaluates
    return "\n".join([text] + format_fallback(split_fallback(fallback)))


def format_plan(plan, *, invalid: Iterable = (), max_values: int = 8, templates=None, own: bool = True, schema=None,
                tuning: RoutingTuning = DEFAULT) -> str:
    """The text of `explain_routing` for an `index.RoutingPlan` and its `templates.TemplatePlan`."""
    native = len(plan.fragments)
    invalid = list(invalid)
    lines = [f"routing plan: {native + (len(templates.names) if templates else 0)} native subscriptions"
             + (f": {len(templates.names)} in templates, {native} in " if templates else " in ")
             + f"{len(plan.groups)} indexed group(s) + {len(plan.general)} general; {len(plan.fallback)} fallback "
             f"(Arrow UDF); {len(invalid)} invalid"
             + (f" ({', '.join(invalid[:10])}{', ...' if len(invalid) > 10 else ''}: not routed)" if invalid else "")]
    if templates:
        lines += format_templates(templates, schema, tuning)
    for g in sorted(plan.groups, key=lambda g: -len(g.members)):
        sizes = sorted(((len(c.names), v) for v, c in g.by_value.items()), reverse=True)
        shown = ", ".join(f"{v!r}: {k}" for k, v in sizes[:max_values])
        more = f", ... {len(sizes) - max_values} more" if len(sizes) > max_values else ""
        lines.append(f"  group on {g.name} ({g.value_sql}): {len(g.members)} subscriptions, {len(g.by_value)} values, "
                     f"candidates per value {{{shown}{more}}}, mean {sum(k for k, _ in sizes) / len(sizes):.1f}")
        inner: dict = {}
        for c in g.by_value.values():
            for h in c.groups:
                inner[h.name] = inner.get(h.name, 0) + 1
        if inner:
            lines.append("    indexed again within a value on: " + ", ".join(f"{k} ({m} values)" for k, m in inner.items())
                         + f"; evaluated per message in this group ~"
                         f"{sum(c.estimated_evaluated() for c in g.by_value.values()) / len(g.by_value):.1f}")
    if plan.general:
        lines.append(f"  general (no access predicate, evaluated for every message): {len(plan.general)}")
    lines.append(f"  {'other ' if templates else ''}native subscriptions evaluated per message: ~{plan.estimated_evaluated()} of {native} "
                 f"(estimate: values named by the subscriptions equally frequent)"
                 + (f"; + {len(plan.fallback)} in the UDF" if plan.fallback else ""))
    if plan.index_dropped is not None:
        lines.append(f"  the indexed plan would need {plan.index_dropped} CASE expressions (> {tuning.guard_max_cases}): "
                     "one flat CASE per subscription instead (measured faster once Spark splits the code)")
    guard = needs_guard(plan, own, tuning) and (schema is None or guard_column(schema) is not None)
    parts = own_parts(plan, tuning) if own and (templates or guard) else None
    if parts is not None:
        how = (f"{len(parts)} part(s){' beside the templates' if templates else ''}, each its own method in "
               "whole-stage codegen (kept out of it if the session's subexpression elimination is off)")
    elif guard:
        how = (f"kept out of whole-stage codegen (> {tuning.jit_cases} CASEs or {tuning.jit_sql_chars:,} characters: "
               "split into JIT-able methods)")
    elif plan.case_count > tuning.guard_max_cases:
        how = f"over {tuning.guard_max_cases}: too large for whole-stage codegen, Spark runs it split"
    else:
        how = "one whole-stage-codegen method"
    lines.append(f"  CASE expressions: {plan.case_count}; {how}")
    return "\n".join(lines)


def candidates_per_message(plan, numeric=frozenset(), tuning: RoutingTuning = DEFAULT, joined: bool = False) -> float:
    """Templated candidates evaluated per message (``joined``: instead, those the index alone
    matches, their whole selector implied by it), if every combination of the values the
    subscriptions name is equally frequent."""
    total = 0.0
    for a in plan.accesses:
        n = 1
        for i in range(len(a.value_sqls)):
            n *= len({k[i] for k in a.keys})
        split = {} if joined else plan_ranges(a, numeric, tuning)  # a bucket holds `share` of them
        total += sum(len(t.keys[nm]) * (split[j].share if j in split else 1) for j, t in enumerate(a.templates)
                     if t.trivial == joined for nm in t.members) / n
    return round(total, 2)


def format_templates(plan, schema=None, tuning: RoutingTuning = DEFAULT) -> list:
    """Lines for `format_plan`: the templates, their indexes, range buckets, candidates per
    message; given the ``schema``, how the message values are read (`keys`)."""
    count = sum(len(a.templates) for a in plan.accesses)
    numeric = numeric_columns(schema) if schema is not None else frozenset()
    lines = [f"  templates: {len(plan.names)} subscriptions in {count} templates (one expression each, whatever "
             f"the number of members), matched through {len(plan.accesses)} index(es) (constant maps)"]
    for a in sorted(plan.accesses, key=lambda a: -sum(len(t.members) for t in a.templates)):
        members = sum(len(t.members) for t in a.templates)
        sizes = sorted((len(t.members) for t in a.templates), reverse=True)
        like = " LIKE prefix" if any(v.startswith("substring(") for v in a.value_sqls) else ""
        lines.append(f"    index on {' AND '.join(a.names)} ({', '.join(a.value_sqls)}){like}: {len(a.keys)} keys, "
                     f"{len(a.templates)} templates, {members} subscriptions (per template: "
                     f"{', '.join(map(str, sizes[:8]))}{', ...' if len(sizes) > 8 else ''})")
    for a in plan.accesses:
        for j, rng in plan_ranges(a, numeric, tuning).items():
            lines.append(f"    range buckets: {len(a.templates[j].members)} subscriptions of index on "
                         f"{' AND '.join(a.names)} by {rng.value_sql} ({len(rng.bounds) + 1} buckets): "
                         f"~{rng.share:.0%} of their candidates evaluated per message")
    trivial = [t for a in plan.accesses for t in a.templates if t.trivial]
    lines.append(f"    templated candidates evaluated per message: ~{candidates_per_message(plan, numeric, tuning)} of "
                 f"{len(plan.names)}, + ~{candidates_per_message(plan, numeric, tuning, joined=True)} matched by the index "
                 f"alone ({len(trivial)} templates, {sum(len(t.members) for t in trivial)} subscriptions, whose whole "
                 "selector the index implies) (estimate: key combinations named by the subscriptions equally frequent);"
                 " conjuncts the index implies are not evaluated again")
    if schema is not None:
        kp = plan_keys(plan, string_columns(schema), tuning)
        arrays = sum(1 for a in kp.accesses if tuning.on("value_numbers")
                     and _slots(a, kp.numbers) <= tuning.max_slots)
        lines.append(f"    per message: {len(kp.numbers)} value(s) looked up once ({', '.join(kp.numbers)}); {arrays} of "
                     f"{len(kp.accesses)} index(es) read their key number from a constant array; STRING comparisons in the "
                     f"candidates made on those numbers: {', '.join(sorted(kp.zeros)) or 'none'}")
    return lines


def _slots(access, numbers) -> int:
    out = 1
    for v in access.value_sqls:
        out *= len(numbers[v])
    return out


def format_fallback(splits) -> list:
    """Explain lines: per fallback subscription, its native gate and what the UDF evaluates."""
    if not splits:
        return []
    gated = sum(1 for s in splits if s.gate)
    lines = [f"  fallback (Arrow UDF): {len(splits)} subscriptions, {gated} gated by their native conjuncts "
             f"({len(dict.fromkeys(s.gate_sql for s in splits if s.gate))} distinct gates); each evaluated only where "
             "its gate is TRUE" + ("" if gated == len(splits) else "; ungated ones on every message")]
    for s in splits:
        where = (f"where its native gate {' AND '.join(s.gate_text)} is TRUE" if s.gate else "on every message")
        lines.append(f"  fallback {s.name}: no native form for {s.residual_text} (the UDF evaluates it {where})")
    return lines
