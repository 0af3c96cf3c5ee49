"""Binding a selector to a table: each name → a column reference and a JMS type.

This is where the data model (the docs' data-model page) is decided (the header names and types it uses are
`dialects.HEADER_TYPES`; each back end renders the conversions named here, e.g. the SQL text and
`backends/arrow/columns.py`):

- headers come from top-level columns, by default named as the header (``JMSType``), remappable
  with ``headers={"JMSType": "msg_type"}``; ``JMSDeliveryMode`` may be a string column
  (``'PERSISTENT'``) or an integer one (2 = PERSISTENT, 1 = NON_PERSISTENT); ``JMSTimestamp`` a
  BIGINT of epoch millis or a TIMESTAMP (read as epoch millis);
- properties come from the ``properties`` column (name configurable) when the table has one —
  a STRUCT (one typed field per property), a ``MAP<STRING, T>`` (every value of type T), or a
  VARIANT (each value keeps its own type per row) — and otherwise from typed top-level columns
  ("flat");
- resolution is case-sensitive whatever ``spark.sql.caseSensitive`` says; a property the table
  does not have is NULL (type `JmsType.NULL`), never a column that merely differs in case;
- Spark types map to JMS types: boolean → boolean; tinyint/smallint/int/bigint → byte/short/int/
  long; float/double → float/double; string → string; decimal → long when its scale is 0, else
  double; timestamp → long epoch millis. Anything else is not selectable: referring to such a
  column raises `SelectorBindingError` naming it.

The schema is read as `language.schema.to_schema` normalises it (a Spark StructType, a plain ``{"column":
"jms type"}`` dict for a flat table, or an Arrow schema), so this module imports neither pyspark
nor pyarrow.
"""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from .language import nodes as n
from .language.errors import BindingOptionError, SelectorBindingError
from .language.guess import infer_flat_schema
from .language.layouts import LAYOUTS, check_layout, detect_layout, header_source, property_source
from .frontend.selector import Selector
from .language.dialects import HEADER_TYPES
from .semantics.lowering import lower_selector, rules_for
from .language.schema import to_schema
from .semantics.typed_tree import TypedTree, type_tree
from .language.types import JmsType

__all__ = ["infer_flat_schema", "Binding", "ColumnRef", "BoundSelector", "bind", "to_schema", "jms_type_of_spark", "check_options",
           "unknown_property_refs", "warn_unknown_properties", "UNKNOWN_PROPERTIES"]

log = logging.getLogger(__name__)

#: The values of ``unknown_properties`` (see `Binding`).
UNKNOWN_PROPERTIES = ("warn", "null", "error")

_SIMPLE = {
    "boolean": JmsType.BOOLEAN,
    "byte": JmsType.BYTE,
    "short": JmsType.SHORT,
    "integer": JmsType.INT,
    "long": JmsType.LONG,
    "float": JmsType.FLOAT,
    "double": JmsType.DOUBLE,
    "string": JmsType.STRING,
    "varchar": JmsType.STRING,
    "char": JmsType.STRING,
}


@dataclass(frozen=True)
class Binding:
    """How a table holds messages.

    Parameters
    ----------
    headers : Mapping[str, str]
        JMS header name → column name, for headers whose column is not named as the header.
    properties : str
        Name of the column holding the application properties (STRUCT, MAP or VARIANT). When
        the table has no such column, properties are its other top-level columns ("flat").
    property_types : Mapping[str, str]
        Declared JMS types of properties stored as strings (``{"qty": "long"}``), typically in a
        ``MAP<STRING,STRING>`` column: each value is read as JMS ``getLongProperty`` /
        ``getIntProperty`` / ``getDoubleProperty`` / ``getBooleanProperty``… would read it from a
        String property, with Java's ``valueOf`` (``" 5"``, ``"5.0"`` and ``"0x5"`` are not longs;
        ``"١٢"`` is 12; any text is a boolean: TRUE only for "true" in any case). Text Java cannot
        read (NumberFormatException there) is NULL here. Applies to string-valued properties of
        any layout; naming a property whose column is not a string is a binding error.
    unknown_properties : {"warn", "null", "error"}, default "warn"
        A property the table *cannot* hold (no such struct field, no such flat column) is NULL,
        as JMS says of a missing property. ``"warn"``: the entry points also log a warning
        naming it (once per call) and `explain_filter` shows it; ``"null"``: silently NULL;
        ``"error"``: `bind` raises `SelectorBindingError` naming it and the properties there are.
    properties_given : bool
        True when ``properties`` was passed explicitly: then the column must exist
        (`check_options`); the default name may be absent (flat layout).
    layout : {None, "kafka-connect-jms", "kafka-headers"}
        A named layout (`language.layouts`): where connectors land messages. None: read from the
        table's shape (a table of exactly a named layout's shape is read as it).
    """

    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    properties: str = "properties"
    property_types: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    unknown_properties: str = "warn"
    properties_given: bool = False
    layout: "str | None" = None

    @classmethod
    def of(cls, headers=None, properties=None, property_types=None, unknown_properties="warn",
           layout=None) -> "Binding":
        if layout is not None and layout not in LAYOUTS:
            check_layout(layout, {})
        if unknown_properties not in UNKNOWN_PROPERTIES:
            raise ValueError(f"unknown_properties must be one of {', '.join(map(repr, UNKNOWN_PROPERTIES))}, "
                             f"not {unknown_properties!r}")
        declared = {}
        for name, t in dict(property_types or {}).items():
            try:
                jt = t if isinstance(t, JmsType) else JmsType.parse(str(t))
            except ValueError:
                jt = None
            if jt is None or not jt.is_static or jt is JmsType.NULL:
                raise ValueError(f"property_types[{name!r}] = {t!r}: expected one of boolean, byte, short, int,"
                                 " long, float, double, string")
            declared[name] = jt.value
        return cls(MappingProxyType(dict(headers or {})), "properties" if properties is None else properties,
                   MappingProxyType(declared), unknown_properties, properties is not None, layout)

    def __hash__(self):
        return hash((tuple(sorted(self.headers.items())), self.properties, tuple(sorted(self.property_types.items())),
                     self.unknown_properties, self.properties_given, self.layout))

    def __reduce__(self):  # MappingProxyType does not pickle
        return (Binding.of, (dict(self.headers), self.properties if self.properties_given else None,
                             dict(self.property_types), self.unknown_properties, self.layout))

    def layout_of(self, fields) -> "str | None":
        """The named layout of a table of columns ``fields``: the one given, else its shape's."""
        return self.layout if self.layout is not None else detect_layout(fields)

    def column_of(self, header: str) -> str:
        """The column holding ``header`` (its own name unless ``headers=`` maps it)."""
        return self.headers.get(header, header)


@dataclass(frozen=True)
class ColumnRef:
    """Where one selector name lives in the table, and its JMS type.

    Attributes
    ----------
    name : str
        The name as the selector writes it.
    path : tuple[str, ...]
        Column path: ``("JMSType",)``, ``("properties", "weight")``. Empty for a missing name.
    access : str
        ``"column"`` (top-level or struct field), ``"map"`` (``path[0][path[1]]``), ``"variant"``
        (a key of a VARIANT object), or ``"missing"`` (always NULL).
    type : JmsType
        The JMS type of every value (DYNAMIC for VARIANT, NULL for missing).
    conversion : str or None
        ``"delivery_mode"`` (int column → 'PERSISTENT'/'NON_PERSISTENT'), ``"delivery_mode_code"``
        (MQe: string column → the int 2/1), ``"epoch_millis"``
        (TIMESTAMP → long), ``"decimal"`` (DECIMAL → long/double), or None.
    spark_type : str
        The Spark type name of the source (``typeName()``), for messages and explain.
    header : bool
        The name is a header (``missing`` then means the table has no column for it).
    default : object
        A header's value where the column is NULL or absent (`decisions.HeaderRule`; WSO2's unset
        JMSTimestamp reads 0); with ``access == "missing"`` the value of every row (WSO2's
        JMSRedelivered: FALSE). None: NULL.
    """

    name: str
    path: tuple
    access: str
    type: JmsType
    conversion: "str | None" = None
    spark_type: str = ""
    header: bool = False
    default: object = None


@dataclass(frozen=True)
class BoundSelector:
    # refs is a MappingProxyType: pickled as a plain dict (see __reduce__)
    """A selector plus where each of its names lives in one table, and (`types`) the static type
    of each of its nodes."""

    selector: Selector
    refs: Mapping[str, ColumnRef]
    binding: Binding

    @functools.cached_property
    def types(self) -> TypedTree:
        """The typed tree: every node's static JMS type, or DYNAMIC / NULL (`typed_tree`); built
        on first use, once."""
        return type_tree(self.selector.root, {name: ref.type for name, ref in self.refs.items()},
                         rules_for(self.selector.dialect))

    @functools.cached_property
    def core(self):
        """The selector's tree lowered to the core language (`lowering.lower`; None for an empty
        selector), its constants folded: a name the table cannot hold reads NULL, a header the
        dialect fixes its value (``access == "missing"``). `types` knows its nodes too. Built on
        first use, once."""
        constants = {name: (ref.default, ref.type) for name, ref in self.refs.items() if ref.access == "missing"}
        return lower_selector(self.selector, rules_for(self.selector.dialect), self.types, constants)

    @property
    def root(self):
        return self.selector.root

    @property
    def dialect(self):
        return self.selector.dialect

    def __reduce__(self):
        return (_rebuild_bound, (self.selector, dict(self.refs), self.binding))

    def source_columns(self) -> tuple:
        """Top-level columns the selector reads (what a UDF must be sent), in first-use order."""
        out = {}
        for ref in self.refs.values():
            if ref.path:
                out.setdefault(ref.path[0], None)
        return tuple(out)


def _rebuild_bound(selector, refs, binding):
    return BoundSelector(selector, MappingProxyType(refs), binding)


def jms_type_of_spark(data_type) -> "tuple[JmsType, str | None] | None":
    """(JMS type, conversion) for a Spark DataType, or None when it is not selectable."""
    name = data_type.typeName() if hasattr(data_type, "typeName") else str(data_type)
    if name in _SIMPLE:
        return _SIMPLE[name], None
    if name == "decimal":
        return (JmsType.LONG if data_type.scale == 0 else JmsType.DOUBLE), "decimal"
    if name in ("timestamp", "timestamp_ntz"):
        return JmsType.LONG, "epoch_millis"
    return None


def _fields(schema) -> dict:
    """``{column: schema.DataType}``: every form of schema read through `to_schema`, once."""
    return to_schema(schema).field_types()


def bind(selector: Selector, schema, binding: "Binding | None" = None) -> BoundSelector:
    """Resolve every name of ``selector`` against ``schema`` (a Spark StructType, or a dict).

    Raises `SelectorBindingError` (with the name's position) for a name whose column cannot be
    selected, such as an ARRAY or a DATE column, or a MAP whose keys are not strings.
    """
    binding = binding or Binding()
    fields = _fields(schema)
    props_type = fields.get(binding.properties)
    # Columns holding a header of the data model are never read as properties, even for a header
    # the dialect does not make selectable (in `jms`, JMSExpiration names a property, which such a
    # table does not have: NULL; nor does it read Solace's SequenceNo column as a property:
    # ``headers={"SequenceNo": "other"}`` moves the header elsewhere).
    headers = _header_names(selector.dialect)
    header_columns = {binding.headers.get(h, h) for h in headers} if binding.headers else headers
    layout = binding.layout_of(fields)
    refs = {}
    for name in selector.identifiers:
        refs[name] = _declared(_resolve(name, selector, fields, props_type, header_columns, binding, layout),
                               selector, binding)
    bound = BoundSelector(selector, MappingProxyType(refs), binding)
    if binding.unknown_properties == "error":
        _raise_unknown(bound, fields, props_type)
    return bound


@functools.lru_cache(maxsize=64)
def _header_names(dialect) -> frozenset:
    """The dialect's headers and the data model's (`HEADER_TYPES`): a pure function of the
    immutable dialect, cached (bounded)."""
    return frozenset(dialect.headers | HEADER_TYPES.keys())


def _declared(ref: ColumnRef, selector: Selector, binding: Binding) -> ColumnRef:
    """Apply ``binding.property_types`` to a property read from strings (`Binding`)."""
    declared = binding.property_types.get(ref.name)
    if declared is None or ref.header or ref.access in ("missing", "variant", "typed_map"):
        return ref
    t = JmsType.parse(declared)
    if ref.type is not JmsType.STRING or ref.conversion is not None:
        raise SelectorBindingError(
            f"property_types declares {ref.name!r} as {declared}, but its column {'.'.join(ref.path)!r} holds"
            f" {ref.spark_type or ref.type.value} values, not strings (declared types convert string values only)",
            selector.text, _first_span(selector, ref.name))
    if t is JmsType.STRING:
        return ref
    return ColumnRef(ref.name, ref.path, ref.access, t, "java_value_of", ref.spark_type, False)


def _first_span(selector: Selector, name: str):
    for node in n.walk(selector.root):
        if isinstance(node, n.Identifier) and node.name == name:
            return node.span
    return None


def _unselectable(selector, name, column, data_type, why=""):
    tname = data_type.typeName() if hasattr(data_type, "typeName") else str(data_type)
    raise SelectorBindingError(
        f"{name!r} refers to column {column!r} of type {tname}, which a selector cannot use{why}"
        " (selectable: boolean, tinyint, smallint, int, bigint, float, double, decimal, string, timestamp)",
        selector.text,
        _first_span(selector, name),
    )


def _typed_ref(selector, name, path, access, data_type, header=False) -> ColumnRef:
    if data_type.jms is not None:  # a {column: JMS type} schema names the type itself
        return ColumnRef(name, path, access, data_type.jms, None, data_type.typeName(), header)
    found = jms_type_of_spark(data_type)
    if found is None:
        _unselectable(selector, name, ".".join(path), data_type)
    jms, conv = found
    return ColumnRef(name, path, access, jms, conv, data_type.typeName(), header)


def _field_at(fields, path):
    """The type at ``path`` (a column, or a struct field of one), or None."""
    t = fields.get(path[0])
    for part in path[1:]:
        t = next((f.dataType for f in t.fields if f.name == part), None) if t is not None and t.typeName() == "struct" \
            else None
    return t


def _header_ref(name, header, selector, fields, binding, layout=None) -> ColumnRef:
    """A header: its column (``headers=`` may rename it; a named layout says where it is), as
    `lowering.Rules.header` says the dialect reads it (fixed, or a default where the message has
    no value)."""
    d = selector.dialect
    rule = rules_for(d).header(header)
    want = d.header_type(header)
    path, access = ((binding.headers.get(header, header),), "column")
    if layout is not None and header not in binding.headers:
        path, access = header_source(layout, header) or ((), "missing")
    dt = _field_at(fields, path) if access == "column" and path else None
    if rule.fixed or access != "kafka_header" and dt is None:
        if rule.value is None:
            return ColumnRef(name, (), "missing", JmsType.NULL, header=True)
        return ColumnRef(name, (), "missing", want, header=True, default=rule.value)
    if access == "kafka_header":  # text: read as the header's type (Java's valueOf)
        conv = None if want is JmsType.STRING else "delivery_mode_code" if header == "JMSDeliveryMode" else "java_value_of"
        ref = ColumnRef(name, path, access, want, conv, "binary", True)
    else:
        ref = _column_header_ref(name, header, selector, path, dt, want)
    if rule.value is not None:
        ref = ColumnRef(ref.name, ref.path, ref.access, ref.type, ref.conversion, ref.spark_type, True, rule.value)
    return ref


def _column_header_ref(name, header, selector, path, dt, want) -> ColumnRef:
    """A header read from a column (or struct field) of type ``dt``, converted to the type ``want``."""
    ref = _typed_ref(selector, name, path, "column", dt, header=True)
    if header == "JMSDeliveryMode" and ref.type.is_exact and want is JmsType.STRING:
        return ColumnRef(name, path, "column", JmsType.STRING, "delivery_mode", ref.spark_type, True)
    if header == "JMSDeliveryMode" and ref.type is JmsType.STRING and want is JmsType.INT:
        # MQe: the int constant, from a 'PERSISTENT'/'NON_PERSISTENT' column
        return ColumnRef(name, path, "column", JmsType.INT, "delivery_mode_code", ref.spark_type, True)
    if (want.is_exact and not ref.type.is_exact or want is JmsType.STRING and ref.type is not JmsType.STRING
            or want is JmsType.BOOLEAN and ref.type is not JmsType.BOOLEAN):
        _unselectable(selector, name, ".".join(path), dt, f": header {header} needs a {want.value} column")
    if selector.dialect.header_typed_literals and want.is_exact and ref.conversion is None and ref.type is not want:
        # MQe: a header holds its own type (JMSPriority an int) whatever the column's width
        return ColumnRef(name, path, "column", want, None, ref.spark_type, True)
    return ref


def _resolve(name, selector, fields, props_type, header_columns, binding, layout=None) -> ColumnRef:
    d = selector.dialect
    header = d.header_for(name)
    if header is not None:
        return _header_ref(name, header, selector, fields, binding, layout)
    if layout is not None:  # typed per message (Kafka Connect), or text (Kafka record headers)
        path, access = property_source(layout, name, binding.properties)
        if access == "typed_map":
            return ColumnRef(name, path, access, JmsType.DYNAMIC, None, "map")
        return ColumnRef(name, path, access, JmsType.STRING, None, "binary")
    if props_type is not None:
        kind = props_type.typeName()
        if kind == "struct":
            sub = {f.name: f.dataType for f in props_type.fields}
            if name not in sub:
                return ColumnRef(name, (), "missing", JmsType.NULL)
            return _typed_ref(selector, name, (binding.properties, name), "column", sub[name])
        if kind == "map":
            if props_type.keyType.typeName() != "string":
                _unselectable(selector, name, binding.properties, props_type, ": map keys must be strings")
            ref = _typed_ref(selector, name, (binding.properties, name), "map", props_type.valueType)
            return ref
        if kind == "variant":
            return ColumnRef(name, (binding.properties, name), "variant", JmsType.DYNAMIC, None, "variant")
        _unselectable(selector, name, binding.properties, props_type,
                      ": the properties column must be a STRUCT, MAP<STRING, T> or VARIANT")
    # flat layout: any top-level column that is not a header column
    if name in fields and name not in header_columns:
        return _typed_ref(selector, name, (name,), "column", fields[name])
    return ColumnRef(name, (), "missing", JmsType.NULL)


# -- misconfiguration: options naming absent columns, properties the table cannot hold -----------

def check_options(schema, binding: "Binding | None") -> None:
    """Raise `BindingOptionError` when an option names a column ``schema`` does not have.

    ``headers={"JMSType": "missing_col"}`` and an explicit ``properties="typo"`` are user errors
    (they would silently read NULL / fall back to the flat layout): the message names the
    option and the columns there are. Called by the entry points that get the whole table
    (`selector_to_sql` with a schema, `jms_filter`, `explain_filter`, `register_selector`, `route`
    through `selector_to_sql`), not by the UDFs, which may get only the columns a selector reads.
    """
    if binding is None:
        return
    fields = _fields(schema)
    check_layout(binding.layout, fields, binding.properties)
    if not binding.headers and not binding.properties_given:
        return  # nothing named (the common case)
    available = ", ".join(map(repr, fields)) or "none"
    known = set(HEADER_TYPES)
    for header, column in binding.headers.items():
        if header not in known:
            raise BindingOptionError(
                f"headers={{{header!r}: {column!r}}}: {header!r} is not a JMS header"
                f" (headers: {', '.join(sorted(known))})")
        if column not in fields:
            raise BindingOptionError(
                f"headers={{{header!r}: {column!r}}}: the table has no column {column!r} (columns: {available})")
    if binding.properties_given and binding.properties not in fields:
        raise BindingOptionError(
            f"properties={binding.properties!r}: the table has no column {binding.properties!r}"
            f" (columns: {available}); leave properties out for one column per property (flat)")


def unknown_property_refs(bound: BoundSelector) -> list:
    """The selector's property names that the table cannot hold (always NULL), in order."""
    return [name for name, ref in bound.refs.items() if ref.access == "missing" and not ref.header]


def _holdable(fields, props_type, binding) -> list:
    if props_type is not None and props_type.typeName() == "struct":
        return [f.name for f in props_type.fields]
    return [c for c in fields if c != binding.properties]


def _raise_unknown(bound: BoundSelector, fields, props_type) -> None:
    missing = unknown_property_refs(bound)
    if missing:
        where = (f"struct column {bound.binding.properties!r}" if props_type is not None else "the table")
        raise SelectorBindingError(
            f"property {missing[0]!r} is not in {where} (unknown_properties='error'; there:"
            f" {', '.join(map(repr, _holdable(fields, props_type, bound.binding))) or 'none'})",
            bound.selector.text, _first_span(bound.selector, missing[0]))


def warn_unknown_properties(bound: BoundSelector) -> list:
    """Log one warning naming the properties the table cannot hold (policy ``"warn"``); returns them."""
    missing = unknown_property_refs(bound)
    if missing and bound.binding.unknown_properties == "warn":
        log.warning("selector %r: %s %s not in the table, so always NULL (JMS: a missing property is NULL);"
                    " a typo? (unknown_properties='null' silences this, 'error' raises)",
                    bound.selector.text, ", ".join(map(repr, missing)),
                    "is" if len(missing) == 1 else "are")
    return missing
