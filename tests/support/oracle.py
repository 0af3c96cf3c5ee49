"""Run the ActiveMQ Classic 5.17 selector oracle from tests (no dependencies beyond the stdlib).

The oracle (``<repo>/../shared/oracle/activemq/run``) is ActiveMQ's own selector engine behind a
JSON-lines interface: each input line is ``{"id", "selector", "message": {"headers": {...},
"properties": {name: {"type", "value"}}}}`` and each output line is ``{"id", "result", "detail"?}``
with result ``true`` / ``false`` / ``null`` (UNKNOWN) / ``"invalid"`` / ``"error"`` / ``"timeout"``.
See ``../shared/oracle/activemq/README.md``.

The JVM start costs about a second, evaluation is thousands of cases a second: batch every case of
a test (module) into one :func:`run_oracle` call.

    from tests.support.oracle import oracle_unavailable_reason, run_oracle, encode_value
    reason = oracle_unavailable_reason()
    if reason:
        pytest.skip(reason)
    verdicts = run_oracle([{"id": "c1", "selector": "x > 1",
                            "message": {"properties": {"x": {"type": "double",
                                                             "value": encode_value("double", 2.0)}}}}])
    verdicts["c1"]["result"]  # True

Set ``JMS_ORACLE_RUN`` to use another copy of the ``run`` script.
"""
from __future__ import annotations

import functools
import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["ORACLE_RUN", "ACTIVEMQ_CLIENT_JAR", "oracle_unavailable_reason", "encode_value",
           "decode_value", "prop", "run_oracle"]

REPO_ROOT = Path(__file__).resolve().parents[2]
ORACLE_RUN = Path(os.environ.get("JMS_ORACLE_RUN")
                  or REPO_ROOT.parent / "shared" / "oracle" / "activemq" / "run")
ACTIVEMQ_CLIENT_JAR = Path("/usr/share/java/activemq-client.jar")

# Longs whose magnitude exceeds this cannot pass through a JSON number (a double) exactly.
_MAX_SAFE_INT = 2 ** 53


@functools.lru_cache(maxsize=None)
def oracle_unavailable_reason() -> str | None:
    """None when the oracle can run here; otherwise a human-readable reason (for pytest.skip)."""
    if not ORACLE_RUN.is_file():
        return f"ActiveMQ oracle script not found at {ORACLE_RUN} (set JMS_ORACLE_RUN)"
    if not os.access(ORACLE_RUN, os.X_OK):
        return f"ActiveMQ oracle script {ORACLE_RUN} is not executable"
    for tool in ("java", "javac"):
        if shutil.which(tool) is None:
            return f"ActiveMQ oracle needs a JDK: `{tool}` is not on PATH"
    if not ACTIVEMQ_CLIENT_JAR.is_file():
        return (f"ActiveMQ oracle needs {ACTIVEMQ_CLIENT_JAR}: "
                "apt-get install -y --no-install-recommends libactivemq-java")
    return None


def encode_value(type_: str, value):
    """A property value as the oracle expects it in JSON.

    Values JSON cannot carry exactly are sent as strings the Java side parses: NaN, +/-Infinity
    (and -0.0, to keep its sign) for float/double; longs beyond +/-2**53. Everything else is
    returned unchanged.
    """
    if type_ in ("float", "double"):
        v = float(value)
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if v == 0.0 and math.copysign(1.0, v) < 0:
            return "-0.0"
        return value
    if type_ == "long" and isinstance(value, int) and not isinstance(value, bool):
        if abs(value) > _MAX_SAFE_INT:
            return str(value)
        return value
    return value


def decode_value(p: dict):
    """The Python value of a ``{"type", "value"}`` property in the oracle's JSON form (the inverse
    of `encode_value`: strings for NaN, ±Infinity, -0.0 and longs beyond 2**53)."""
    v, t = p["value"], p["type"]
    if isinstance(v, str) and t in ("double", "float"):
        return float(v.replace("Infinity", "inf"))
    if isinstance(v, str) and t in ("long", "int", "short", "byte"):
        return int(v)
    return v


def prop(type_: str, value) -> dict:
    """``{"type": type_, "value": <encoded value>}``: one property of a case's message."""
    return {"type": type_, "value": encode_value(type_, value)}


def run_oracle(cases: list[dict], timeout_s: float = 600) -> dict[str, dict]:
    """Judge all ``cases`` in one oracle run; return ``{id: verdict}``.

    Each case is ``{"id", "selector", "message": {"headers": {...}, "properties": {...}}}``
    (``message`` may be omitted). Property values are passed through :func:`encode_value`, so raw
    Python floats such as ``float("nan")`` are fine. Raises RuntimeError if the oracle is
    unavailable, exits non-zero, or does not answer every case.
    """
    reason = oracle_unavailable_reason()
    if reason:
        raise RuntimeError(reason)
    ids = [str(c["id"]) for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("case ids must be unique")
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".jsonl",
                                     delete=False) as f:
        path = f.name
        for c in cases:
            msg = c.get("message") or {}
            props = {
                name: {"type": p["type"], "value": encode_value(p["type"], p["value"])}
                for name, p in (msg.get("properties") or {}).items()
            }
            line = {"id": str(c["id"]), "selector": c["selector"],
                    "message": {"headers": msg.get("headers") or {}, "properties": props}}
            # allow_nan=False: a NaN that slipped through would be invalid JSON for Jackson.
            f.write(json.dumps(line, allow_nan=False, ensure_ascii=True) + "\n")
    try:
        with open(path, "rb") as stdin:
            proc = subprocess.run([str(ORACLE_RUN)], stdin=stdin, capture_output=True,
                                  timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise RuntimeError(f"ActiveMQ oracle ran past {timeout_s} s") from e
    finally:
        os.unlink(path)
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        raise RuntimeError(f"ActiveMQ oracle failed (exit {proc.returncode}):\n{stderr}")
    verdicts: dict[str, dict] = {}
    # split("\n"), not splitlines(): the JVM writes U+2028, U+0085, \x1c... unescaped inside JSON
    # strings, and str.splitlines() would cut a verdict line there.
    for raw in proc.stdout.decode("utf-8").split("\n"):
        if raw.strip():
            v = json.loads(raw)
            verdicts[str(v["id"])] = v
    missing = [i for i in ids if i not in verdicts]
    if missing:
        raise RuntimeError(f"ActiveMQ oracle gave no verdict for {len(missing)} case(s), "
                           f"first {missing[0]!r}:\n{stderr}")
    return verdicts
