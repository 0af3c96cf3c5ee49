"""A conformance-corpus message (``tests/conformance/*.jsonl``) as the case the Spark tests put on
a row: ``{"headers": ..., "props": ..., "types": ...}`` (used by tests/spark/test_sql_backend.py and
tests/spark/test_seed_ibm_backends.py)."""
from __future__ import annotations

from oracle import decode_value

__all__ = ["message_case"]

_DELIVERY_MODES = {2: "PERSISTENT", 1: "NON_PERSISTENT"}


def message_case(msg: dict, keep_headers=None) -> dict:
    """``msg`` (a corpus case's ``message``) as a row's case: headers as the data model holds them
    (JMSDeliveryMode 2/1 as 'PERSISTENT'/'NON_PERSISTENT'; only those named in ``keep_headers``
    when given), property values decoded (`oracle.decode_value`) and their JMS types."""
    headers = dict(msg.get("headers") or {})
    if headers.get("JMSDeliveryMode") in (1, 2):
        headers["JMSDeliveryMode"] = _DELIVERY_MODES[headers["JMSDeliveryMode"]]
    if keep_headers is not None:
        headers = {k: v for k, v in headers.items() if k in keep_headers}
    props = msg.get("properties", {})
    return {"headers": headers, "props": {k: decode_value(v) for k, v in props.items()},
            "types": {k: v["type"] for k, v in props.items()}}
