"""`explain_routing`'s text: the routing plan (`route_plan.RoutingPlan`), its templates
(`route_templates.TemplatePlan`) and range buckets, for people."""
from __future__ import annotations

from typing import Iterable

from .index import GUARD_MAX_CASES, JIT_CASES, JIT_SQL_CHARS, RoutingPlan

__all__ = ["format_plan", "format_templates"]


def format_plan(plan: RoutingPlan, *, invalid: Iterable = (), max_values: int = 8, templates=None,
                own: bool = True, schema=None) -> str:
    """The text of `route_plan.explain_routing`. ``own``: the session compiles the parts as methods of
    their own (`route_merge.own_methods`: subexpression elimination on, Spark's default); ``schema``:
    the messages' (`format_templates`)."""
    from .merge import own_parts

    native = len(plan.fragments)
    invalid = list(invalid)
    lines = [f"routing plan: {native + (len(templates.names) if templates else 0)} native subscriptions"
             + (f": {len(templates.names)} in templates, {native} in " if templates else " in ")
             + f"{len(plan.groups)} indexed group(s) + {len(plan.general)} general; {len(plan.fallback)} fallback "
             f"(Arrow UDF); {len(invalid)} invalid"
             + (f" ({', '.join(invalid[:10])}{', ...' if len(invalid) > 10 else ''}: not routed)" if invalid else "")]
    if templates:
        lines += format_templates(templates, schema)
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
        lines.append(f"  the indexed plan would need {plan.index_dropped} CASE expressions (> {GUARD_MAX_CASES}): "
                     "one flat CASE per subscription instead (measured faster once Spark splits the code)")
    parts = own_parts(plan) if own and (templates or plan.guard_column) else None
    if parts is not None:
        how = (f"{len(parts)} part(s){' beside the templates' if templates else ''}, each its own method in "
               "whole-stage codegen (kept out of it if the session's subexpression elimination is off)")
    elif plan.guard_column:
        how = (f"kept out of whole-stage codegen (> {JIT_CASES} CASEs or {JIT_SQL_CHARS:,} characters: "
               "split into JIT-able methods)")
    elif plan.case_count > GUARD_MAX_CASES:
        how = f"over {GUARD_MAX_CASES}: too large for whole-stage codegen, Spark runs it split"
    else:
        how = "one whole-stage-codegen method"
    lines.append(f"  CASE expressions: {plan.case_count}; {how}")
    return "\n".join(lines)


def format_templates(plan, schema=None) -> list:
    """Lines for `format_plan`: the templates (`route_templates.TemplatePlan` ``plan``), their indexes,
    candidates per message; given the ``schema``, how the message values are read (`route_keys`)."""
    from .keys import format_keys
    from .ranges import format_ranges

    count = sum(len(a.templates) for a in plan.accesses)
    lines = [f"  templates: {len(plan.names)} subscriptions in {count} templates (one expression each, whatever "
             f"the number of members), matched through {len(plan.accesses)} index(es) (constant maps)"]
    for a in sorted(plan.accesses, key=lambda a: -sum(len(t.members) for t in a.templates)):
        members = sum(len(t.members) for t in a.templates)
        sizes = sorted((len(t.members) for t in a.templates), reverse=True)
        like = " LIKE prefix" if any(v.startswith("substring(") for v in a.value_sqls) else ""
        lines.append(f"    index on {' AND '.join(a.names)} ({', '.join(a.value_sqls)}){like}: {len(a.keys)} keys, "
                     f"{len(a.templates)} templates, {members} subscriptions (per template: "
                     f"{', '.join(map(str, sizes[:8]))}{', ...' if len(sizes) > 8 else ''})")
    lines += format_ranges(plan)
    trivial = [t for a in plan.accesses for t in a.templates if t.trivial(a.value_sqls)]
    lines.append(f"    templated candidates evaluated per message: ~{plan.candidates_per_message()} of {len(plan.names)}, "
                 f"+ ~{plan.candidates_per_message(joined=True)} matched by the index alone ({len(trivial)} templates, "
                 f"{sum(len(t.members) for t in trivial)} subscriptions, whose whole selector the index implies) "
                 "(estimate: key combinations named by the subscriptions equally frequent); conjuncts the index "
                 "implies are not evaluated again")
    return lines + ([format_keys(plan.accesses, schema)] if schema is not None else [])
