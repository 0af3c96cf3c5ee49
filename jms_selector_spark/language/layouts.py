"""The named layouts: where connectors land JMS messages, and where each header and property is.

Beside the four layouts the binder reads from the properties column's type (flat, struct, map,
variant), two tables have a fixed shape that says where everything is; ``layout=`` names one,
and a table of exactly that shape is read as it without being named:

- ``"kafka-connect-jms"``: the record value of the Kafka Connect JMS-family source connectors
  (JMS, ActiveMQ, IBM MQ): header columns ``messageID``, ``timestamp`` (epoch ms),
  ``correlationID``, ``type`` (JMSType), ``priority``, ``deliveryMode`` (1 non-persistent,
  2 persistent), ``expiration``, ``redelivered``, ``replyTo`` and ``destination`` (structs whose
  ``name`` is read), and ``properties MAP<STRING, STRUCT<propertyType, boolean, byte, short,
  integer, long, float, double, string>>``: each value is the field ``propertyType`` names, with
  that field's type, so a property keeps its JMS type per message (access ``"typed_map"``);
- ``"kafka-headers"``: Spark's Kafka source (``key``, ``value``, ``topic``, ``partition``,
  ``offset``, ``timestamp``, ``timestampType``, ``headers ARRAY<STRUCT<key STRING, value
  BINARY>>``) with the JMS headers and properties copied into Kafka record headers as UTF-8 text.
  A name reads the *last* header with that key (Kafka's ``lastHeader``), its bytes decoded as
  UTF-8 (malformed bytes become U+FFFD, as Java decodes them) (access ``"kafka_header"``): a
  property is a string (``property_types=`` reads it as a number or boolean, as for
  ``MAP<STRING,STRING>``), a header such as ``JMSPriority`` is read as that header's type, and
  ``JMSTimestamp`` is the record's ``timestamp``.

`header_source` and `property_source` say where a name is in such a table; the binder makes
them column references. ``headers={...}`` still moves a header to another column.
"""
from __future__ import annotations

from types import MappingProxyType

from .errors import BindingOptionError
from .types import JmsType

__all__ = ["LAYOUTS", "TYPED_FIELDS", "check_layout", "detect_layout", "header_source", "property_source"]

#: The named layouts (``layout=``).
LAYOUTS = ("kafka-connect-jms", "kafka-headers")

#: The value fields of a Kafka Connect JMS property struct, by the ``propertyType`` that names
#: them, and the JMS type each holds.
TYPED_FIELDS = MappingProxyType({
    "boolean": JmsType.BOOLEAN, "byte": JmsType.BYTE, "short": JmsType.SHORT, "integer": JmsType.INT,
    "long": JmsType.LONG, "float": JmsType.FLOAT, "double": JmsType.DOUBLE, "string": JmsType.STRING,
})
_SPARK_OF = {"boolean": "boolean", "byte": "byte", "short": "short", "integer": "integer", "long": "long",
             "float": "float", "double": "double", "string": "string"}

_CONNECT_HEADERS = MappingProxyType({
    "JMSMessageID": ("messageID",), "JMSTimestamp": ("timestamp",), "JMSCorrelationID": ("correlationID",),
    "JMSType": ("type",), "JMSPriority": ("priority",), "JMSDeliveryMode": ("deliveryMode",),
    "JMSExpiration": ("expiration",), "JMSRedelivered": ("redelivered",), "JMSReplyTo": ("replyTo", "name"),
    "JMSDestination": ("destination", "name"),
})
_KAFKA_COLUMNS = ("key", "value", "topic", "partition", "offset", "timestamp", "timestampType", "headers")


def _is_typed_map(t) -> bool:
    if t is None or t.typeName() != "map" or t.keyType.typeName() != "string" or t.valueType.typeName() != "struct":
        return False
    fields = {f.name: f.dataType.typeName() for f in t.valueType.fields}
    return fields.get("propertyType") == "string" and all(fields.get(k) == v for k, v in _SPARK_OF.items())


def _is_kafka_headers(t) -> bool:
    element = getattr(t, "elementType", None)
    if t is None or t.typeName() != "array" or element is None or element.typeName() != "struct":
        return False
    fields = {f.name: f.dataType.typeName() for f in element.fields}
    return fields == {"key": "string", "value": "binary"}


def detect_layout(fields) -> "str | None":
    """The named layout a table of columns ``fields`` (``{name: DataType}``) has exactly, or None:
    a ``messageID`` column beside a ``properties`` map of Kafka Connect JMS property structs; or
    exactly the Kafka source's columns, with ``headers``."""
    if "messageID" in fields and _is_typed_map(fields.get("properties")):
        return "kafka-connect-jms"
    if set(fields) == set(_KAFKA_COLUMNS) and _is_kafka_headers(fields["headers"]):
        return "kafka-headers"
    return None


def check_layout(layout: "str | None", fields, properties: str = "properties") -> None:
    """Raise `BindingOptionError` when ``layout`` is not a named layout, or the table lacks the
    column that layout reads properties from."""
    if layout is None:
        return
    if layout not in LAYOUTS:
        raise BindingOptionError(f"layout={layout!r}: the named layouts are {', '.join(map(repr, LAYOUTS))}")
    if layout == "kafka-connect-jms" and not _is_typed_map(fields.get(properties)):
        raise BindingOptionError(
            f"layout='kafka-connect-jms' reads properties from a column {properties!r} of type MAP<STRING, "
            "STRUCT<propertyType STRING, boolean BOOLEAN, byte TINYINT, short SMALLINT, integer INT, long BIGINT, "
            f"float FLOAT, double DOUBLE, string STRING>>; the table has {_describe(fields, properties)}")
    if layout == "kafka-headers" and not _is_kafka_headers(fields.get("headers")):
        raise BindingOptionError("layout='kafka-headers' reads a column 'headers' of type ARRAY<STRUCT<key STRING, "
                                 f"value BINARY>> (Spark's Kafka source with includeHeaders); the table has "
                                 f"{_describe(fields, 'headers')}")


def _describe(fields, column) -> str:
    t = fields.get(column)
    return f"{column!r} of type {t.typeName()}" if t is not None else f"no {column!r} (columns: {', '.join(fields)})"


def header_source(layout: str, header: str) -> "tuple[tuple, str] | None":
    """``(path, access)`` of ``header`` in a table of ``layout`` (None: not there)."""
    if layout == "kafka-connect-jms":
        path = _CONNECT_HEADERS.get(header)
        return None if path is None else (path, "column")
    if header == "JMSTimestamp":
        return ("timestamp",), "column"
    return ("headers", header), "kafka_header"


def property_source(layout: str, name: str, properties: str = "properties") -> "tuple[tuple, str]":
    """``(path, access)`` of the property ``name`` in a table of ``layout``."""
    if layout == "kafka-connect-jms":
        return (properties, name), "typed_map"
    return ("headers", name), "kafka_header"
