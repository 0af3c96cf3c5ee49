"""Run RabbitMQ's own selector evaluator from tests (``tools/rabbitmq_oracle/sjx_oracle.escript``).

The oracle is ``sjx_evaluator`` from the ``rabbitmq_jms_topic_exchange`` plugin that Debian's
``rabbitmq-server`` (3.10.8) installs, loaded by an escript behind a JSON-lines interface: each
case is an Erlang term (what a client binds with ``rjms_erlang_selector``: `to_rabbitmq_term`) and
an AMQP header table; each verdict is ``true`` / ``false`` / ``null`` (UNKNOWN) / ``"raise"`` (the
evaluator throws: the exchange routes the message nowhere) / ``"other"`` (a non-boolean value) /
``"invalid_term"`` / ``"timeout"``. One process judges a whole batch (thousands of cases a second).

    from rabbitmq_oracle import rabbitmq_unavailable_reason, run_rabbitmq_oracle, header_table
    reason = rabbitmq_unavailable_reason()
    if reason:
        pytest.skip(reason)
    verdicts = run_rabbitmq_oracle([{"id": "c1", "term": "{'>',{'ident',<<\\"s\\">>},5}.",
                                     "headers": header_table({}, {"s": "abc"}, {"s": "string"})}])
    verdicts["c1"]["result"]  # True

Set ``JMS_RABBITMQ_EBIN`` to use another copy of the plugin's ``ebin`` folder.
"""
from __future__ import annotations

import functools
import glob
import json
import math
import os
import shutil
import struct
import subprocess
from pathlib import Path

__all__ = ["ORACLE_SCRIPT", "rabbitmq_unavailable_reason", "plugin_ebin", "header_table", "amqp_type",
           "run_rabbitmq_oracle"]

REPO_ROOT = Path(__file__).resolve().parents[2]
ORACLE_SCRIPT = REPO_ROOT / "tools" / "rabbitmq_oracle" / "sjx_oracle.escript"
_EBIN_GLOB = "/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/rabbitmq_jms_topic_exchange-*/ebin"

#: A JMS property type → the AMQP field-table type the JMS client sends it as.
_AMQP_TYPES = {"boolean": "bool", "byte": "byte", "short": "short", "int": "signedint", "long": "long",
               "float": "float", "double": "double", "string": "longstr"}
#: The JMS headers the RabbitMQ JMS client copies into AMQP headers (``RMQMessage.toAmqpHeaders``).
_HEADER_TYPES = {"JMSDeliveryMode": "longstr", "JMSMessageID": "longstr", "JMSTimestamp": "long",
                 "JMSPriority": "signedint", "JMSCorrelationID": "longstr", "JMSType": "longstr"}


@functools.lru_cache(maxsize=None)
def plugin_ebin() -> "str | None":
    """The installed plugin's ``ebin`` folder (``JMS_RABBITMQ_EBIN`` first), or None."""
    given = os.environ.get("JMS_RABBITMQ_EBIN")
    if given:
        return given if Path(given, "sjx_evaluator.beam").is_file() else None
    found = sorted(glob.glob(_EBIN_GLOB))
    return found[-1] if found else None


@functools.lru_cache(maxsize=None)
def rabbitmq_unavailable_reason() -> "str | None":
    """None when the oracle can run here; otherwise why not (for ``pytest.skip``)."""
    if shutil.which("escript") is None:
        return "escript not found: RabbitMQ's evaluator needs Erlang (apt-get install -y rabbitmq-server)"
    if plugin_ebin() is None:
        return ("RabbitMQ's rabbitmq_jms_topic_exchange plugin is not installed "
                f"({_EBIN_GLOB} missing): apt-get install -y rabbitmq-server")
    if not ORACLE_SCRIPT.is_file():
        return f"oracle script missing: {ORACLE_SCRIPT}"
    return None


def amqp_type(jms_type: str) -> str:
    """The AMQP field-table type of a JMS property type (``"int"`` → ``"signedint"``)."""
    return _AMQP_TYPES[jms_type]


def header_table(headers: dict, properties: dict, types: dict) -> list:
    """The AMQP header table a message carries: its JMS headers as the JMS client writes them
    (absent ones left out) and its typed properties (NULL ones left out). A ``float`` property is
    the 32-bit float's exact value, as the broker decodes it. Non-finite floats are refused: AMQP
    0-9-1 carries them, but the broker cannot decode them (Erlang has no such floats)."""
    table = []
    for name, value in headers.items():
        if name in _HEADER_TYPES and value is not None:
            table.append([name, _HEADER_TYPES[name], value])
    for name, value in properties.items():
        if value is None:
            continue
        t = amqp_type(types[name])
        if t in ("float", "double"):
            if not math.isfinite(value):
                raise ValueError(f"{name}: {value!r} cannot reach RabbitMQ (no non-finite floats in Erlang)")
            if t == "float":
                value = struct.unpack(">f", struct.pack(">f", value))[0]
        table.append([name, t, value])
    return table


def run_rabbitmq_oracle(cases: list, timeout_s: float = 600) -> dict:
    """Judge ``cases`` (``{"id", "term", "headers"}``) in one oracle process; ``{id: verdict}``.

    Raises RuntimeError when the oracle is unavailable, fails or leaves a case unanswered."""
    reason = rabbitmq_unavailable_reason()
    if reason:
        raise RuntimeError(reason)
    ids = [str(c["id"]) for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("case ids must be unique")
    lines = "".join(json.dumps({"id": str(c["id"]), "term": c["term"], "headers": c.get("headers") or []},
                               allow_nan=False, ensure_ascii=True) + "\n" for c in cases)
    try:
        proc = subprocess.run(["escript", str(ORACLE_SCRIPT), plugin_ebin()], input=lines.encode("ascii"),
                              capture_output=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise RuntimeError(f"RabbitMQ oracle ran past {timeout_s} s") from e
    if proc.returncode != 0:
        raise RuntimeError(f"RabbitMQ oracle failed (exit {proc.returncode}):\n{proc.stderr.decode('utf-8', 'replace')}")
    verdicts = {}
    for raw in proc.stdout.decode("ascii").splitlines():
        if raw.strip():
            v = json.loads(raw)
            verdicts[str(v["id"])] = v
    missing = [i for i in ids if i not in verdicts]
    if missing:
        raise RuntimeError(f"RabbitMQ oracle gave no verdict for {len(missing)} case(s), first {missing[0]!r}:\n"
                           + proc.stderr.decode("utf-8", "replace"))
    return verdicts
