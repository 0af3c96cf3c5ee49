"""The message data model: which headers exist, their JMS types, and how JMSDeliveryMode reads.

One place for what a message *is* (the docs' data-model page); `dialects` says which of these
headers each broker lets a selector name, and the binder maps them onto columns.
"""
from __future__ import annotations

from types import MappingProxyType

from .types import JmsType as _T

__all__ = ["JMS_HEADERS", "JMS_ALL_HEADERS", "SOLACE_HEADERS", "HEADER_TYPES", "ZERO_ID", "QPID_CPP_ALIASES", "delivery_mode_name",
           "delivery_mode_code"]

#: Headers the JMS specification makes selectable.
JMS_HEADERS = frozenset(
    {"JMSDeliveryMode", "JMSPriority", "JMSMessageID", "JMSTimestamp", "JMSCorrelationID", "JMSType"}
)

#: JMS types of the headers a selector can name (any dialect).
HEADER_TYPES = MappingProxyType({
    "JMSDeliveryMode": _T.STRING,
    "JMSPriority": _T.INT,
    "JMSMessageID": _T.STRING,
    "JMSTimestamp": _T.LONG,
    "JMSCorrelationID": _T.STRING,
    "JMSType": _T.STRING,
    "JMSRedelivered": _T.BOOLEAN,
    "JMSExpiration": _T.LONG,
    "JMSReplyTo": _T.STRING,
    "JMSDestination": _T.STRING,
    # Solace-only headers (seed 004: no JMS name; selectable through si sn ex ct ce)
    "SenderID": _T.STRING,
    "SequenceNo": _T.LONG,
    "Expiration": _T.LONG,
    "HttpContentType": _T.STRING,
    "HttpContentEncoding": _T.STRING,
})

#: The JMS message headers: the selectable six and the four others ActiveMQ and WSO2 select.
JMS_ALL_HEADERS = JMS_HEADERS | {"JMSRedelivered", "JMSExpiration", "JMSReplyTo", "JMSDestination"}

#: Solace's headers that have no JMS name: selectable only through their aliases.
SOLACE_HEADERS = frozenset({"SenderID", "SequenceNo", "Expiration", "HttpContentType", "HttpContentEncoding"})


def delivery_mode_name(value):
    """JMS delivery mode as selectors see it: 2 → 'PERSISTENT', 1 → 'NON_PERSISTENT'."""
    if isinstance(value, bool):
        raise ValueError(f"JMSDeliveryMode must be 'PERSISTENT', 'NON_PERSISTENT', 1 or 2, not {value!r}")
    if value in (2, "2"):
        return "PERSISTENT"
    if value in (1, "1"):
        return "NON_PERSISTENT"
    if value in ("PERSISTENT", "NON_PERSISTENT"):
        return value
    raise ValueError(f"JMSDeliveryMode must be 'PERSISTENT', 'NON_PERSISTENT', 1 or 2, not {value!r}")


def delivery_mode_code(value):
    """JMS delivery mode as the int constant (MQe): 'PERSISTENT' or 2 → 2, 'NON_PERSISTENT' or 1 → 1."""
    return 2 if delivery_mode_name(value) == "PERSISTENT" else 1


#: IBM MQ's all-zero identifier (MQMI_NONE / MQCI_NONE) as a JMS id string: ``ID:`` + 48 zeros.
ZERO_ID = "ID:" + "0" * 48

#: Qpid C++'s ``amqp.*`` names for the headers (Selector.cpp's special values; JMS names alias them).
QPID_CPP_ALIASES = MappingProxyType({f"amqp.{k}": v for k, v in {
    "subject": "JMSType", "correlation_id": "JMSCorrelationID", "message_id": "JMSMessageID",
    "delivery_mode": "JMSDeliveryMode", "redelivered": "JMSRedelivered", "priority": "JMSPriority",
    "to": "JMSDestination", "reply_to": "JMSReplyTo", "creation_time": "JMSTimestamp",
    "absolute_expiry_time": "JMSExpiration"}.items()})
