"""``jms-selector why``: a selector's answer on one message, and why.

::

    jms-selector why "JMSType = 'car' AND weight > 2500" --message '{"JMSType": "car", "color": "blue"}'
    jms-selector why "qty > 5" --message '{"properties": {"qty": "7"}, "types": {"qty": "string"}}' --json
    jms-selector implies "color = 'blue' AND weight > 2500" "weight > 1000" [--dialect jms]

The message is a JSON object: either ``{"headers": {...}, "properties": {...}, "types": {...}}``
(the form `compare_dialects` prints its witnesses in) or a flat object whose ``JMS…`` names are
headers and whose other names are properties. JSON has no NaN or infinities: as in that form, the
strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"`` and ``"-0.0"`` are those floating values when
``types`` says the property is a ``float`` or ``double``. A property's JMS type defaults from its JSON
value (a whole number is a long, a fraction a double).

``implies`` says whether every message the first selector delivers, the second delivers too (a
subscription shadowed by another), and how it knows: a proof, a witness message, or a search that
found none (`implies`).

Exit status: ``why``: 0 the trace was printed (whatever the answer); ``implies``: 0 implies
(proved), 1 does not (a witness), 3 undecided (no proof, no witness); both: 1 an invalid selector
(error and caret on stderr), 2 usage error (a malformed --message).
"""
from __future__ import annotations

import argparse
import json
import sys

from ..language.dialects import DIALECTS
from ..language.errors import SelectorError
from .selector_io import EXIT_INVALID, EXIT_OK, InputError, emit, report

__all__ = ["add_commands", "read_message"]

_SPECIAL = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf"), "-0.0": -0.0}
_FLOATING = ("float", "double")


def read_message(text: str) -> "tuple[dict, dict, dict]":
    """``(headers, properties, types)`` from a ``--message`` JSON object (see the module)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"--message is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise InputError("--message must be a JSON object")
    if set(data) and set(data) <= {"headers", "properties", "types"}:
        parts = [data.get(k) or {} for k in ("headers", "properties", "types")]
        if not all(isinstance(p, dict) for p in parts):
            raise InputError("--message: headers, properties and types must be JSON objects")
        headers, properties, types = parts
    else:
        headers = {k: v for k, v in data.items() if k.startswith("JMS")}
        properties = {k: v for k, v in data.items() if not k.startswith("JMS")}
        types = {}
    for k, v in list(properties.items()):
        if isinstance(v, (dict, list)):
            raise InputError(f"--message: property {k!r} must be a string, number, boolean or null")
        if isinstance(v, str) and v in _SPECIAL and str(types.get(k, "")).lower() in _FLOATING:
            properties[k] = _SPECIAL[v]
    return headers, properties, types


def _cmd_why(args) -> int:
    from ..analysis.why import explain_delivery

    headers, properties, types = read_message(args.message)
    try:
        delivery = explain_delivery(args.selector, headers, properties, dialect=args.dialect, types=types)
    except SelectorError as e:
        report(e)
        return EXIT_INVALID
    except ValueError as e:  # a value the type named in "types" cannot hold
        raise InputError(f"--message: {e}") from None
    if args.json:
        emit(json.dumps(delivery.to_dict(), ensure_ascii=False), sys.stdout)
    else:
        emit(str(delivery), sys.stdout)
    return EXIT_OK


def _cmd_implies(args) -> int:
    from ..analysis.implication import implies

    try:
        r = implies(args.a, args.b, dialect=args.dialect, max_candidates=args.max_candidates,
                    timeout=args.timeout)
    except SelectorError as e:
        report(e)
        return EXIT_INVALID
    emit(str(r), sys.stdout)
    return {True: EXIT_OK, False: 1, None: 3}[r.implies]


def add_commands(sub, epilog: str = "") -> None:
    """Add ``why`` and ``implies`` to the ``jms-selector`` sub-parsers."""
    why = sub.add_parser(
        "why", help="evaluate a selector on one message and say why it is (not) delivered",
        description="Evaluate the selector on the message as the dialect's broker does and print every "
                    "sub-expression's value, and for each FALSE or UNKNOWN that decided the answer the "
                    "reason, with a caret under its place in the selector.",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    why.add_argument("selector", metavar="SELECTOR")
    why.add_argument("--message", required=True, metavar="JSON",
                     help='the message: {"headers": {...}, "properties": {...}, "types": {...}}, or a flat '
                          'object (JMS... names are headers)')
    why.add_argument("--dialect", choices=sorted(DIALECTS), default="jms")
    why.add_argument("--json", action="store_true", help="print JSON instead of text")
    why.set_defaults(run=_cmd_why, command_parser=why)

    imp = sub.add_parser(
        "implies", help="whether every message selector A delivers, selector B delivers too",
        description="Prove that A implies B (conjunctions of equality, IN and range predicates: containment), "
                    "or find a message A delivers and B does not. Exit 0 implies, 1 does not, 3 undecided.",
        epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    imp.add_argument("a", metavar="A")
    imp.add_argument("b", metavar="B")
    imp.add_argument("--dialect", choices=sorted(DIALECTS), default="jms")
    imp.add_argument("--max-candidates", type=int, default=5_000, help="messages the witness search tries (5,000)")
    imp.add_argument("--timeout", type=float, default=5.0, help="seconds for the witness search (5)")
    imp.set_defaults(run=_cmd_implies, command_parser=imp)
