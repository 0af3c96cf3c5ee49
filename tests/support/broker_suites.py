"""Issue #14: which cases of ``tests/conformance/other-brokers.jsonl`` belong to which dialect, how a
suite's assertion is judged, and the cases each dialect deliberately answers otherwise.

A case's ``expect`` is what the broker's own test asserts: ``true`` (delivered), ``false`` (not
delivered: FALSE or UNKNOWN, as a suite cannot tell them apart unless it says so), ``null``
(asserted UNKNOWN: Artemis's ``UnknownHandlingSelectorTest``), ``"invalid"`` (rejected) or
``"valid"`` (only accepted). `KNOWN` lists, per dialect, every case where the dialect disagrees
with its suite, with the reason; the README's section for the dialect lists the same ids (checked
by ``tests/conformance/test_broker_suites.py``).
"""
from __future__ import annotations

import json
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "other-brokers.jsonl"

#: Case-id prefixes (the part before the last ``-n``) of each dialect's suites.
SUITES = {
    "artemis": ("art-sel", "art-parse", "art-unk", "art-filter", "joram-sel", "joram-syn", "art-jmstests"),
    "qpid": ("bj-syntax", "bj-systest", "qpid-old"),
    "qpid-jms": ("qpidjms-sel", "qpidjms-parse"),
}

_XPATH = ("XPATH body selector: the data model has no message body; rejected like the `activemq` "
          "dialect's XPATH/XQUERY (a deliberate choice)")
_AMQ_DURABLE = ("AMQDurable reads 'DURABLE'/'NON_DURABLE' off JMSDeliveryMode (Artemis FilterImpl); "
                "not modelled: AMQDurable is an (absent) property here")

#: {dialect: {case id: why the dialect answers otherwise than the suite}}
KNOWN = {
    "artemis": {"art-parse-1": _XPATH, "art-filter-7": _AMQ_DURABLE, "art-filter-10": _AMQ_DURABLE},
    "qpid": {},
    "qpid-jms": {},
}


def cases_for(dialect: str) -> list:
    """The corpus cases of ``dialect``'s broker suites (empty for a dialect without one)."""
    prefixes = SUITES.get(dialect, ())
    out = []
    with open(CORPUS, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                c = json.loads(line)
                if c["id"].rsplit("-", 1)[0] in prefixes:
                    out.append(c)
    return out


def agrees(expect, got) -> bool:
    """Whether a result (True/False/None, or "invalid") is what the suite asserts."""
    if expect == "valid":
        return got != "invalid"
    if expect is False:
        return got is False or got is None
    return got == expect
