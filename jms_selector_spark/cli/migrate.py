"""``jms-selector compare-dialects`` and ``jms-selector migration-report``: moving between brokers.

::

    jms-selector compare-dialects "qty / 2 = 2" --from jms --to activemq [--schema qty:int] [--json]
    jms-selector migration-report --subscriptions subs.csv --archive archive/ --from jms --to activemq [--json]
        [--header JMSType=msg_type ...] [--properties props]

``compare-dialects`` needs no Spark (`compare_dialects`); ``migration-report`` starts a local
Spark session (or uses the active one), reads the archive (Parquet by default) and runs
`migration_report`. The subscriptions file is CSV with a header (``name,selector`` and optional
attribute columns such as ``durable``, ``subscribed_at``) or JSON lines (``{"name": ...,
"selector": ...}``), chosen by ``--subscriptions-format`` or the first character (``{``: JSON lines).

``--header``/``--properties`` say how the archive holds messages, as for ``explain`` and the other
commands. ``compare-dialects`` has no table (its witness is a message, not a row), so it has none.

Exit status, as diff(1): 0 no difference found, 1 a difference (a witness, or a subscription whose
delivery or validity changes), 2 usage error.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import sys

from ..language.dialects import DIALECTS
from .schema import schema_arg
from .selector_io import InputError, add_binding_options, binding_of, decode_utf8, emit, read_bytes

__all__ = ["add_commands", "read_subscriptions"]

EXIT_SAME, EXIT_DIFFERENT = 0, 1
_ATTRIBUTES = {"durable": "bool", "subscribed_at": "int", "unsubscribed_at": "int"}


def _cell(name: str, value: str, where: str):
    """A CSV cell as the attribute's type (empty: unset)."""
    if value == "" and name != "selector":
        return None
    kind = _ATTRIBUTES.get(name)
    if kind == "bool":
        if value.lower() not in ("true", "false"):
            raise InputError(f"{where}: {name} must be true or false, not {value!r}")
        return value.lower() == "true"
    if kind == "int":
        try:
            return int(value)
        except ValueError:
            raise InputError(f"{where}: {name} must be epoch milliseconds, not {value!r}") from None
    return value


def read_subscriptions(path: str, fmt: str = "auto") -> list:
    """Subscriptions from a CSV (with a header row) or JSON-lines file, as attribute dicts."""
    try:
        text = decode_utf8(read_bytes(path))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    if fmt == "auto":
        fmt = "jsonl" if text.lstrip().startswith("{") else "csv"
    out = []
    if fmt == "jsonl":
        for i, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{i}: not JSON: {e.msg}") from None
            if not isinstance(item, dict) or "name" not in item:
                raise InputError(f"{path}:{i}: expected an object with \"name\" and \"selector\"")
            out.append(item)
        return out
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or "name" not in rows[0] or "selector" not in rows[0]:
        raise InputError(f"{path}: a CSV subscriptions file starts with a header row naming name and selector")
    header = rows[0]
    for i, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise InputError(f"{path}:{i}: {len(row)} cells, the header has {len(header)}")
        out.append({k: _cell(k, v, f"{path}:{i}") for k, v in zip(header, row)})
    return out


def _cmd_compare(args) -> int:
    from ..analysis.dialect_compare import compare_dialects

    result = compare_dialects(args.selector, args.from_dialect, args.to_dialect, args.schema,
                              max_candidates=args.max_candidates, timeout=args.timeout, seed=args.seed)
    if args.json:
        emit(json.dumps(result.to_dict(), ensure_ascii=False, sort_keys=False), sys.stdout)
    else:
        emit(str(result), sys.stdout)
    return EXIT_DIFFERENT if result.differs else EXIT_SAME


def _cmd_report(args) -> int:
    from pyspark.sql import SparkSession

    from ..spark.routing.migration import migration_report

    subs = read_subscriptions(args.subscriptions, args.subscriptions_format)
    spark = SparkSession.getActiveSession() or SparkSession.builder.master(args.master).appName(
        "jms-selector migration-report").getOrCreate()
    messages = spark.read.format(args.archive_format).load(args.archive)
    report = migration_report(messages, subs, args.from_dialect, args.to_dialect, **binding_of(args))
    if args.json:
        emit(json.dumps(report.to_dict(), ensure_ascii=False, default=str), sys.stdout)
    else:
        emit(str(report), sys.stdout)
    return EXIT_DIFFERENT if report.changed else EXIT_SAME


def add_commands(sub, epilog: str = "") -> None:
    """Add ``compare-dialects`` and ``migration-report`` to the ``jms-selector`` sub-parsers."""
    names = sorted(DIALECTS)

    def dialects(p):
        p.add_argument("--from", dest="from_dialect", choices=names, required=True, help="the dialect today")
        p.add_argument("--to", dest="to_dialect", choices=names, required=True, help="the dialect moved to")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")

    cmp_ = sub.add_parser(
        "compare-dialects", help="find a message on which two dialects answer a selector differently",
        description="Search for typed header and property values on which the two dialects give "
                    "different answers (or the selector is valid in one only); prints the witness "
                    "or how the search went. Exit 1 when a difference is found, 0 when none.",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    cmp_.add_argument("selector", metavar="SELECTOR")
    dialects(cmp_)
    cmp_.add_argument("--schema", type=schema_arg, metavar="SCHEMA",
                      help="property types ('qty:int,color:string', DDL, or a Parquet path); default: every type")
    cmp_.add_argument("--max-candidates", type=int, default=20_000, help="messages evaluated at most (20,000)")
    cmp_.add_argument("--timeout", type=float, default=10.0, help="seconds at most (10)")
    cmp_.add_argument("--seed", type=int, default=0, help="seed of the random phase (0)")
    cmp_.set_defaults(run=_cmd_compare, command_parser=cmp_)

    rep = sub.add_parser(
        "migration-report", help="per subscription: messages of an archive delivered by both dialects or one",
        description="Run both dialects' subscriptions over an archive in one Spark pass: per subscription "
                    "the messages delivered by both, only by the old dialect, only by the new one, with "
                    "an example message of each difference. Exit 1 when something changes, 0 when not.",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    rep.add_argument("--subscriptions", required=True, metavar="FILE",
                     help="CSV with a header (name,selector[,durable,subscribed_at,...]) or JSON lines; '-': stdin")
    rep.add_argument("--subscriptions-format", choices=("auto", "csv", "jsonl"), default="auto")
    rep.add_argument("--archive", required=True, metavar="PATH", help="the messages (Parquet unless --archive-format)")
    rep.add_argument("--archive-format", default="parquet", help="a Spark source: parquet (default), json, orc, delta...")
    add_binding_options(rep)  # --properties, --header HEADER=COLUMN: as for the other commands
    rep.add_argument("--master", default="local[*]", help="Spark master when no session is active (local[*])")
    dialects(rep)
    rep.set_defaults(run=_cmd_report, command_parser=rep)

