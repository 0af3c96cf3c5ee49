"""`report_html`: `route_report`'s figures as one self-contained HTML page a person reads.

The page needs nothing at view time: the CSS is inline, the pictures are inline SVG
(`report_svg`), there is no script and no font or image to fetch, so it opens from a file, a mail
attachment or a CI artifact alike. Every string that comes from the user (subscription names,
selectors, errors, warnings) is escaped with `html.escape`. Every figure is also written in a
``data-*`` attribute of the element that shows it (``data-subscription``, ``data-delivered``,
``data-reason`` …), so that a test reads the page back and compares it with the dict.

Sections, in order: the summary, the subscriptions (outcome counts, volume over the message time,
status), the messages nobody received and why, the overlap of the busiest subscriptions, the
subscriptions contained in another or never matching, lint warnings, subscriptions not created,
and the routing rules behind the outcomes. A report without the estate figures (`route_report`
without ``estate=True``) renders its counts only. Pure Python: no Spark.
"""
from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path

from .._version import __version__
from .report_svg import bar, heatmap, sparkline

__all__ = ["report_html", "write_report", "OUTCOME_COLUMNS"]

#: The outcome columns of the subscriptions table, in order.
OUTCOME_COLUMNS = ("delivered", "dead_letter", "remains_queued", "dropped")

_CSS = """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #111827;
       margin: 0; background: #f9fafb; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 28px 40px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #e5e7eb;
 padding-bottom: 4px; }
.meta { color: #4b5563; margin: 0 0 14px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px 14px; min-width: 120px; }
.card .n { font-size: 20px; font-weight: 600; } .card .l { color: #6b7280; font-size: 12px; }
.card.warn .n { color: #b45309; } .card.bad .n { color: #b91c1c; }
table { border-collapse: collapse; background: #fff; border: 1px solid #e5e7eb; }
th, td { padding: 4px 8px; border-bottom: 1px solid #f3f4f6; text-align: left; vertical-align: middle; }
th { background: #f3f4f6; font-weight: 600; font-size: 12px; color: #374151; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
pre { background: #fff; border: 1px solid #e5e7eb; padding: 8px; overflow-x: auto; margin: 4px 0 10px; }
.tag { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 9px; margin-right: 4px; }
.tag.err { background: #fee2e2; color: #991b1b; } .tag.never { background: #fef3c7; color: #92400e; }
.tag.shadow { background: #e0e7ff; color: #3730a3; } .tag.lint { background: #f3e8ff; color: #6b21a8; }
.v-FALSE { color: #b91c1c; font-weight: 600; } .v-UNKNOWN { color: #b45309; font-weight: 600; }
.v-TRUE { color: #047857; font-weight: 600; }
svg.spark rect { fill: #2563eb; } svg.spark .axis { stroke: #d1d5db; stroke-width: 1; }
svg.bar rect { fill: #f59e0b; } svg.bar.del rect { fill: #2563eb; }
svg.heat text { font-size: 11px; fill: #374151; } svg.heat text.cell { font-size: 9px; }
.muted { color: #6b7280; } .small { font-size: 12px; }
.axis-labels { display: flex; justify-content: space-between; width: 168px; font-size: 10px; color: #6b7280; }
footer { color: #9ca3af; font-size: 12px; margin-top: 30px; }
"""


def _num(x) -> str:
    return "–" if x is None else f"{x:,}" if isinstance(x, int) else escape(str(x))


def _time(ms) -> str:
    try:
        return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, OSError, ValueError, TypeError):
        return str(ms)


def _duration(ms: int) -> str:
    """``ms`` milliseconds as a person reads it: ``250 ms``, ``1.5 s``, ``12.0 min``, ``4.5 h``, ``3.0 days``.

    >>> _duration(107_998_652), _duration(834)
    ('30.0 h', '834 ms')
    """
    for unit, size in (("days", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000)):
        if ms >= 2 * size if unit == "days" else ms >= size:
            return f"{ms / size:.1f} {unit}"
    return f"{ms} ms"


def _card(label: str, value, key: str, cls: str = "") -> str:
    return (f'<div class="card {cls}" data-figure="{escape(key)}" data-value="{value if value is not None else ""}">'
            f'<div class="n">{_num(value)}</div><div class="l">{escape(label)}</div></div>')


def _summary(report: dict) -> str:
    per = report.get("subscriptions", {})
    created = [k for k, v in per.items() if not v.get("error")]
    delivered = sum(v.get("delivered", 0) for v in per.values())
    cards = [_card("subscriptions created", len(created), "created"),
             _card("not created", len(per) - len(created), "not_created", "bad" if len(per) > len(created) else ""),
             _card("rows", report.get("rows"), "rows"),
             _card("deliveries", delivered, "delivered")]
    dead = report.get("dead_letters")
    if dead is not None:
        cards.append(_card("messages nobody received", dead.get("messages"), "unreceived",
                           "warn" if dead.get("messages") else ""))
    if "never_matching" in report:
        never = report["never_matching"]
        cards.append(_card("never matching", len(never), "never_matching", "warn" if never else ""))
    ov = report.get("overlap")
    if ov is not None:
        cards.append(_card("contained in another", len(ov.get("contained", [])), "contained"))
    if "lint" in report:
        cards.append(_card("subscriptions with lint warnings", len(report["lint"]), "lint",
                           "warn" if report["lint"] else ""))
    return '<section id="summary"><div class="cards">' + "".join(cards) + "</div></section>"


def _statuses(report: dict) -> dict:
    out: dict = {}
    for name in report.get("never_matching", []):
        out.setdefault(name, []).append('<span class="tag never">never matches</span>')
    ov = report.get("overlap") or {}
    for c in ov.get("contained", []):
        word = "same as" if c["same"] else "within"
        out.setdefault(c["subscription"], []).append(f'<span class="tag shadow">{word} {escape(c["within"])}</span>')
    for name, warnings in report.get("lint", {}).items():
        out.setdefault(name, []).append(f'<span class="tag lint">{len(warnings)} lint</span>')
    return out


def _subscriptions(report: dict) -> str:
    per = report.get("subscriptions", {})
    vol = report.get("volume")
    series = (vol or {}).get("subscriptions", {})
    nb = (vol or {}).get("buckets", 0)
    statuses = _statuses(report)
    head = ["subscription"] + (["volume over time"] if vol else []) + list(OUTCOME_COLUMNS) + ["status"]
    rows = []
    order = sorted(per, key=lambda k: (per[k].get("error") is not None, -per[k].get("delivered", 0), k))
    for name in order:
        v = per[name]
        attrs = " ".join(f'data-{o.replace("_", "-")}="{v.get(o, 0)}"' for o in OUTCOME_COLUMNS)
        cells = [f"<td><code>{escape(name)}</code></td>"]
        if vol:
            counts = series.get(name, [0] * nb)
            cells.append(f"<td>{sparkline(counts, label=name)}</td>")
        cells += [f'<td class="num">{_num(v.get(o, 0))}</td>' for o in OUTCOME_COLUMNS]
        tags = (['<span class="tag err">not created</span>'] if v.get("error") else []) + statuses.get(name, [])
        cells.append("<td>" + "".join(tags) + "</td>")
        rows.append(f'<tr data-subscription="{escape(name)}" {attrs}>' + "".join(cells) + "</tr>")
    un = report.get("unassigned", {})
    attrs = " ".join(f'data-{o.replace("_", "-")}="{un.get(o, 0)}"' for o in OUTCOME_COLUMNS)
    cells = ['<td class="muted">(no subscription)</td>']
    if vol:
        cells.append(f"<td>{sparkline(vol.get('unassigned', [0] * nb), label='no subscription')}</td>")
    cells += [f'<td class="num">{_num(un.get(o, 0))}</td>' for o in OUTCOME_COLUMNS] + ["<td></td>"]
    rows.append(f'<tr data-unassigned="1" {attrs}>' + "".join(cells) + "</tr>")
    heads = "".join(f'<th class="{"num" if h in OUTCOME_COLUMNS else ""}">{escape(h.replace("_", " "))}</th>'
                    for h in head)
    axis = ""
    if vol:
        end = vol["start"] + vol["bucket_ms"] * vol["buckets"]
        axis = (f'<p class="small muted">Volume: deliveries per bucket of {escape(str(vol["time_column"]))} '
                f'({vol["buckets"]} buckets of {_duration(vol["bucket_ms"])}, {escape(_time(vol["start"]))} to '
                f'{escape(_time(end))}); each sparkline has its own scale (hover for its peak).</p>')
    return (f'<section id="subscriptions"><h2>Subscriptions</h2>{axis}<table><thead><tr>{heads}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></section>')


def _value(value: str) -> str:
    return f'<span class="v-{escape(value)}">{escape(value)}</span>'


def _dead_letters(report: dict) -> str:
    dead = report.get("dead_letters")
    if dead is None:
        return ""
    total, un = dead.get("messages", 0), dead.get("unattributed")
    parts = ['<section id="dead-letters"><h2>Messages nobody received</h2>',
             f'<p data-figure="unreceived" data-value="{total}"><b>{_num(total)}</b> messages were received by no '
             "subscription. For each, the subscription that came closest (the most conjuncts of its selector "
             "TRUE) and the first of its conjuncts that was not TRUE:</p>"]
    if dead.get("note"):
        parts.append(f'<p class="muted">Reasons not computed: {escape(dead["note"])}.</p>')
    if un:
        parts.append(f'<p data-figure="unattributed" data-value="{un}" class="small muted">{_num(un)} of them came '
                     "close to no subscription: no conjunct of any selector was TRUE on them.</p>")
    reasons = dead.get("reasons", [])
    if reasons:
        top = max(r["messages"] for r in reasons)
        rows = []
        for r in reasons:
            if r["conjunct"] is None:
                what = '<span class="muted">every conjunct TRUE: kept from it by the routing rules (lifetime, R4; ' \
                       'inactive exclusive consumer, R11)</span>'
                where = ""
            else:
                what = f'<code>{escape(r["conjunct"])}</code>'
                where = f'{r["position"]} of {r["conjuncts"]}'
            why = []
            if r["value"] == "UNKNOWN" and r["null"]:
                why.append("NULL: " + ", ".join(f"<code>{escape(x)}</code>" for x in r["null"]))
            if r["missing"]:
                why.append("not in the table: " + ", ".join(f"<code>{escape(x)}</code>" for x in r["missing"]))
            rows.append(
                f'<tr data-reason="1" data-subscription="{escape(r["subscription"])}" '
                f'data-conjunct="{escape(r["conjunct"] or "")}" data-value="{escape(r["value"])}" '
                f'data-null="{escape(",".join(r["null"]))}" data-messages="{r["messages"]}">'
                f'<td class="num">{_num(r["messages"])}</td><td>{bar(r["messages"], top)}</td>'
                f'<td><code>{escape(r["subscription"])}</code></td><td>{what}</td><td class="num">{where}</td>'
                f'<td>{_value(r["value"])}</td><td class="small">{"; ".join(why)}</td></tr>')
        parts.append('<table><thead><tr><th class="num">messages</th><th></th><th>closest subscription</th>'
                     '<th>deciding conjunct</th><th class="num">which</th><th>value</th><th>why</th></tr></thead>'
                     f'<tbody>{"".join(rows)}</tbody></table>')
    parts.append("</section>")
    return "".join(parts)


def _overlap(report: dict) -> str:
    if "overlap" not in report:
        return ""
    ov = report["overlap"]
    if ov is None:
        return ('<section id="overlap"><h2>Overlap</h2><p class="muted">Queue mode: each message goes to one '
                "consumer, so no two subscriptions share a delivery.</p></section>")
    names = ov.get("busiest", [])
    if not names:
        return '<section id="overlap"><h2>Overlap</h2><p class="muted">No subscription received a message.</p></section>'
    parts = [f'<section id="overlap"><h2>Overlap of the {len(names)} busiest subscriptions</h2>',
             '<p class="small muted">Each cell: the share of the messages either subscription received that both '
             "received (Jaccard index, in %); the diagonal is grey. Hover a cell for its counts.</p>",
             heatmap(names, ov.get("both", []))]
    pairs = ov.get("pairs", [])[:15]
    if pairs:
        rows = "".join(
            f'<tr data-pair="1" data-a="{escape(p["a"])}" data-b="{escape(p["b"])}" data-both="{p["both"]}" '
            f'data-jaccard="{p["jaccard"]}"><td><code>{escape(p["a"])}</code></td><td><code>{escape(p["b"])}</code>'
            f'</td><td class="num">{_num(p["both"])}</td><td class="num">{p["jaccard"]:.2f}</td></tr>' for p in pairs)
        parts.append('<h3 class="small">The pairs that share the most messages</h3><table><thead><tr><th>subscription'
                     '</th><th>and</th><th class="num">both received</th><th class="num">Jaccard</th></tr></thead>'
                     f"<tbody>{rows}</tbody></table>")
    parts.append("</section>")
    return "".join(parts)


def _shadowed(report: dict) -> str:
    if "never_matching" not in report:
        return ""
    never = report.get("never_matching", [])
    contained = (report.get("overlap") or {}).get("contained", [])
    parts = ['<section id="shadowed"><h2>Never matching and contained subscriptions</h2>']
    if never:
        parts.append("<p>Received no message of this archive: " + ", ".join(
            f'<code data-never="{escape(x)}">{escape(x)}</code>' for x in never) + "</p>")
    else:
        parts.append('<p class="muted">Every subscription created received at least one message.</p>')
    if contained:
        rows = "".join(
            f'<tr data-contained="1" data-subscription="{escape(c["subscription"])}" data-within="{escape(c["within"])}" '
            f'data-messages="{c["messages"]}" data-same="{str(c["same"]).lower()}"><td><code>{escape(c["subscription"])}'
            f'</code></td><td>{"received the same messages as" if c["same"] else "received only messages also sent to"}'
            f'</td><td><code>{escape(c["within"])}</code></td><td class="num">{_num(c["messages"])} of '
            f'{_num(c["within_messages"])}</td></tr>' for c in contained)
        parts.append('<p class="small muted">On this archive, every message the first received, the second received '
                     "too (compared with the busiest subscriptions only).</p><table><tbody>" + rows + "</tbody></table>")
    elif report.get("overlap") is not None:
        parts.append('<p class="muted">No subscription\'s deliveries are contained in a busiest one\'s.</p>')
    parts.append("</section>")
    return "".join(parts)


def _lint(report: dict) -> str:
    if "lint" not in report:
        return ""
    found = report["lint"]
    if not found:
        return '<section id="lint"><h2>Lint warnings</h2><p class="muted">None.</p></section>'
    parts = ['<section id="lint"><h2>Lint warnings</h2>']
    for name in sorted(found):
        parts.append(f'<div data-lint="{escape(name)}" data-count="{len(found[name])}"><b><code>{escape(name)}</code>'
                     "</b>" + "".join(f"<pre>{escape(w)}</pre>" for w in found[name]) + "</div>")
    parts.append("</section>")
    return "".join(parts)


def _errors(report: dict) -> str:
    bad = {k: v["error"] for k, v in report.get("subscriptions", {}).items() if v.get("error")}
    if not bad:
        return ""
    return ('<section id="errors"><h2>Subscriptions not created</h2>' + "".join(
        f'<div data-error="{escape(k)}"><b><code>{escape(k)}</code></b><pre>{escape(v)}</pre></div>'
        for k, v in sorted(bad.items())) + "</section>")


def _rules(report: dict) -> str:
    rules, notes = report.get("rules", {}), report.get("notes", [])
    if not rules and not notes:
        return ""
    items = "".join(f"<li><b>{escape(o.replace('_', ' '))}</b>: {escape(why)}</li>" for o, why in rules.items())
    items += "".join(f'<li class="muted">{escape(n)}</li>' for n in notes)
    return f'<section id="rules"><h2>Routing rules behind the outcomes</h2><ul class="small">{items}</ul></section>'


def report_html(report: dict, *, title: "str | None" = None) -> str:
    """The HTML page of a `route_report` result: self-contained (inline CSS and SVG, no script).

    Parameters
    ----------
    report : dict
        What `route_report` returned; with ``estate=True`` (or ``html=``) it has the estate figures
        (volume, overlap, never-matching and contained subscriptions, dead letters and their
        reasons, lint warnings), else the page shows the counts only.
    title : str, optional
        The page's heading (default: "Subscription estate report").

    Returns
    -------
    str
        The page; every user string in it is escaped.

    Examples
    --------
    >>> report = {"routing": "jms", "rows": 3, "notes": [], "rules": {},
    ...           "subscriptions": {"<cars>": {"error": None, "delivered": 2, "dead_letter": 0,
    ...                                        "remains_queued": 0, "dropped": 0}},
    ...           "unassigned": {"delivered": 0, "dead_letter": 0, "remains_queued": 0, "dropped": 1}}
    >>> page = report_html(report)
    >>> '<tr data-subscription="&lt;cars&gt;" data-delivered="2"' in page, "<script" in page
    (True, False)
    """
    title = title or "Subscription estate report"
    meta = [f"routing rules <b>{escape(str(report.get('routing', '?')))}</b>"]
    if report.get("mode"):
        meta.append(f"{escape(report['mode'])} mode")
    if report.get("dialect"):
        meta.append(f"dialect {escape(report['dialect'])}")
    meta.append(f"{_num(report.get('rows'))} routed rows")
    body = [f"<header><h1>{escape(title)}</h1><p class=\"meta\">{' · '.join(meta)}</p></header>",
            _summary(report), _subscriptions(report), _dead_letters(report), _overlap(report), _shadowed(report),
            _lint(report), _errors(report), _rules(report),
            f"<footer>jms_selector_spark {escape(__version__)}: route_report(..., html=...)</footer>"]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><main>" + "\n".join(b for b in body if b) + "</main></body></html>\n")


def write_report(path, report: dict, *, title: "str | None" = None) -> Path:
    """Write `report_html` of ``report`` to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.write_text(report_html(report, title=title), encoding="utf-8")
    return path
