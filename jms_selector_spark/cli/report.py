"""``jms-selector report``: route an archive and write the estate report (text, JSON, HTML).

::

    jms-selector report --subscriptions subs.csv --archive archive/ [--html report.html] [--json]
        [--mode topic|queue] [--dialect jms] [--routing jms] [--top 20] [--buckets 24]
        [--time-column JMSTimestamp] [--header JMSType=msg_type ...] [--properties props]

It starts a local Spark session (or uses the active one), reads the archive (Parquet unless
``--archive-format``), routes it with `route` and runs `route_report(..., estate=True)`; the
subscriptions file is read as ``migration-report`` reads it (CSV with a header row, or JSON lines).
It prints a summary (`summary_lines`, or the whole dict with ``--json``) and, with ``--html``,
writes the page. Exit status: 0, or 2 for a usage error (an unreadable file).
"""
from __future__ import annotations

import json
import sys

from ..language.dialects import DIALECTS
from .migrate import read_subscriptions
from .selector_io import EXIT_OK, add_binding_options, binding_of, emit

__all__ = ["add_command", "summary_lines"]

_OUTCOMES = ("delivered", "dead_letter", "remains_queued", "dropped")


def _reason_text(r: dict) -> str:
    if r["conjunct"] is None:
        return f"{r['subscription']}: every conjunct TRUE, kept from it by the routing rules (lifetime, R4; R11)"
    why = f" (NULL: {', '.join(r['null'])})" if r["value"] == "UNKNOWN" and r["null"] else ""
    if r["missing"]:
        why += f" (not in the table: {', '.join(r['missing'])})"
    return f"{r['subscription']}: conjunct {r['position']} of {r['conjuncts']} `{r['conjunct']}` is {r['value']}{why}"


def summary_lines(report: dict, *, reasons: int = 10, pairs: int = 5) -> list:
    """The text summary of a `route_report(..., estate=True)` dict, one line a string.

    >>> lines = summary_lines({"routing": "jms", "mode": "topic", "dialect": "jms", "rows": 3,
    ...     "subscriptions": {"cars": {"error": None, "delivered": 2, "dead_letter": 0, "remains_queued": 0,
    ...     "dropped": 0}}, "unassigned": {"delivered": 0, "dead_letter": 0, "remains_queued": 0, "dropped": 1}})
    >>> print("\\n".join(lines))
    3 rows routed (topic mode, routing jms, dialect jms): 1 subscription created, 0 not created
    subscription       delivered  dead_letter  remains_queued  dropped
    cars                       2            0               0        0
    (no subscription)          0            0               0        1
    """
    per = report["subscriptions"]
    created = sum(1 for v in per.values() if not v.get("error"))
    lines = [f"{report['rows']:,} rows routed ({report.get('mode', '?')} mode, routing {report['routing']}, dialect "
             f"{report.get('dialect', '?')}): {created} subscription{'s' if created != 1 else ''} created, "
             f"{len(per) - created} not created"]
    w = max([len("(no subscription)")] + [len(k) for k in per]) + 2
    lines.append(f"{'subscription':{w}}" + "  ".join(f"{o:>{max(9, len(o))}}" for o in _OUTCOMES).lstrip())
    widths = [max(9, len(o)) for o in _OUTCOMES]
    order = sorted(per, key=lambda k: (bool(per[k].get("error")), -per[k].get("delivered", 0), k))
    for name in order + [None]:
        v = report["unassigned"] if name is None else per[name]
        label = "(no subscription)" if name is None else name
        cells = "  ".join(f"{v.get(o, 0):>{wd},}" for o, wd in zip(_OUTCOMES, widths))
        note = "  (not created)" if name is not None and v.get("error") else ""
        lines.append(f"{label:{w}}{cells}".rstrip() + note)
    dead = report.get("dead_letters")
    if dead is not None:
        lines.append(f"messages nobody received: {dead['messages']:,}"
                     + (f" ({dead['unattributed']:,} close to no subscription)" if dead.get("unattributed") else ""))
        for r in dead["reasons"][:reasons]:
            lines.append(f"  {r['messages']:>8,}  {_reason_text(r)}")
        if dead.get("note"):
            lines.append(f"  (reasons not computed: {dead['note']})")
    ov = report.get("overlap")
    if ov and ov["pairs"]:
        lines.append("pairs sharing the most messages: " + "; ".join(
            f"{p['a']} & {p['b']} {p['both']:,} (Jaccard {p['jaccard']:.2f})" for p in ov["pairs"][:pairs]))
    if ov:
        for c in ov["contained"]:
            word = "the same messages as" if c["same"] else "only messages also sent to"
            lines.append(f"contained: {c['subscription']} received {word} {c['within']} "
                         f"({c['messages']:,} of {c['within_messages']:,})")
    if report.get("never_matching"):
        lines.append("never matching: " + ", ".join(report["never_matching"]))
    if report.get("lint"):
        lines.append("lint warnings: " + ", ".join(f"{k} ({len(v)})" for k, v in sorted(report["lint"].items())))
    return lines


def _cmd_report(args) -> int:
    from pyspark.sql import SparkSession

    from ..spark.routing.route import route, route_report

    subs = read_subscriptions(args.subscriptions, args.subscriptions_format)
    spark = SparkSession.getActiveSession() or SparkSession.builder.master(args.master).appName(
        "jms-selector report").getOrCreate()
    messages = spark.read.format(args.archive_format).load(args.archive)
    common = dict(mode=args.mode, dialect=args.dialect, routing=args.routing, **binding_of(args))
    routed = route(messages, subs, time_column=args.time_column, **common)
    report = route_report(routed, subs, estate=True, html=args.html, top=args.top, buckets=args.buckets,
                          time_column=args.time_column, title=args.title, **common)
    if args.json:
        emit(json.dumps(report, ensure_ascii=False, default=str), sys.stdout)
    else:
        for line in summary_lines(report):
            emit(line, sys.stdout)
        if args.html:
            emit(f"HTML report: {args.html}", sys.stdout)
    return EXIT_OK


def add_command(sub) -> None:
    """Add ``report`` to the ``jms-selector`` sub-parsers."""
    from ..spark.routing.rules import ROUTING_RULES

    rep = sub.add_parser(
        "report", help="route an archive and report the estate: outcomes, volume, overlap, dead letters (HTML)",
        description="Route the archive to the subscriptions (one Spark pass) and report, per subscription, "
                    "its outcome counts and volume over time, the busiest subscriptions' overlap, the ones "
                    "never matching or contained in another, why nobody received the dead letters, and lint "
                    "warnings; --html writes it all as one self-contained page.")
    rep.add_argument("--subscriptions", required=True, metavar="FILE",
                     help="CSV with a header (name,selector[,durable,subscribed_at,...]) or JSON lines; '-': stdin")
    rep.add_argument("--subscriptions-format", choices=("auto", "csv", "jsonl"), default="auto")
    rep.add_argument("--archive", required=True, metavar="PATH", help="the messages (Parquet unless --archive-format)")
    rep.add_argument("--archive-format", default="parquet", help="a Spark source: parquet (default), json, orc...")
    rep.add_argument("--mode", choices=("topic", "queue"), default="topic")
    rep.add_argument("--dialect", choices=sorted(DIALECTS), default="jms")
    rep.add_argument("--routing", choices=sorted(ROUTING_RULES), default=None,
                     help="the broker's rule set (default: the one named like the dialect, else jms)")
    rep.add_argument("--html", metavar="FILE", help="write the report as one self-contained HTML page")
    rep.add_argument("--title", default=None, help="the page's heading")
    rep.add_argument("--json", action="store_true", help="print route_report's dict as JSON instead of the summary")
    rep.add_argument("--top", type=int, default=20, help="busiest subscriptions compared for overlap (default 20, at most 62)")
    rep.add_argument("--buckets", type=int, default=24, help="time buckets of the volume sparklines (default 24)")
    rep.add_argument("--time-column", default="JMSTimestamp", help="the message time (default JMSTimestamp)")
    add_binding_options(rep)
    rep.add_argument("--master", default="local[*]", help="Spark master when no session is active (local[*])")
    rep.set_defaults(run=_cmd_report, command_parser=rep)
