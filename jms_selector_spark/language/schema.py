"""The one internal shape of a table's schema, and `to_schema`, which reads every form the entry
points accept (after sqlglot's ``ensure_schema``).

A schema reaches the package as a Spark ``StructType`` (``df.schema``), a plain ``{column: JMS
type}`` mapping (a flat table: ``{"weight": "long"}``), or, inside the fallback UDFs, the Arrow
``pa.StructType`` / ``pa.Schema`` of a batch. `to_schema` turns each into a `Schema` of frozen
`Field` / `DataType` values; the binder reads only that. The attribute names are Spark's
(``dataType``, ``keyType``, ``valueType``, ``typeName()``), so the rules of the data model read
the same whichever form the table came in, and a Spark schema needs no translation table.

No import of pyspark or pyarrow here: a pyarrow type is recognised by its module and converted
with a lazy import.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .errors import SelectorBindingError
from .types import JmsType

__all__ = ["column_collisions", "DataType", "Field", "Schema", "to_schema", "is_arrow_variant"]


@dataclass(frozen=True)
class DataType:
    """A column's type as the binder reads it.

    Attributes
    ----------
    name : str
        Spark's ``typeName()``: ``"long"``, ``"integer"``, ``"string"``, ``"decimal"``,
        ``"timestamp"``, ``"struct"``, ``"map"``, ``"variant"``, ... (an unselectable type keeps
        its own name, for the error message).
    fields : tuple of Field
        A struct's fields.
    keyType, valueType : DataType or None
        A map's key and value types.
    elementType : DataType or None
        An array's element type.
    precision, scale : int or None
        A decimal's.
    jms : JmsType or None
        The JMS type, when the schema named it directly (``{"qty": "int"}``).
    """

    name: str
    fields: tuple = ()
    keyType: "DataType | None" = None
    valueType: "DataType | None" = None
    precision: "int | None" = None
    scale: "int | None" = None
    jms: "JmsType | None" = None
    elementType: "DataType | None" = None

    def typeName(self) -> str:
        return self.name


@dataclass(frozen=True)
class Field:
    name: str
    dataType: DataType


@dataclass(frozen=True)
class Schema:
    """A table's top-level columns, in order."""

    fields: tuple

    def __post_init__(self):
        # made once: the binder reads it for every selector bound to this schema
        object.__setattr__(self, "_types", MappingProxyType({f.name: f.dataType for f in self.fields}))
        # hashed once: a Schema keys the routing caches (`hybrid.bound_selector`, ...), looked up
        # once per subscription; hashing its nested fields each time cost more than the lookup
        object.__setattr__(self, "_hash", hash(self.fields))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):  # pickled as its fields (the view above does not pickle)
        return (Schema, (self.fields,))

    def names(self) -> tuple:
        """The column names, in order (a name may repeat: a DataFrame after a join)."""
        return tuple(f.name for f in self.fields)

    def field_types(self) -> Mapping:
        """``{column: DataType}`` (the last of equal names wins, as a dict of them would); a
        read-only view, made once per `Schema`."""
        return self._types


#: The atomic types, made once (frozen, so shared; keyed by Spark type name, or by ``("jms", JMS
#: type name or JmsType)`` for a dict schema): a schema is normalised on every `bind` not given a `Schema`.
_ATOMIC: dict = {}
#: The Spark type name a JMS type name stands for in a ``{column: JMS type}`` schema.
_JMS_TO_SPARK = {JmsType.INT: "integer"}


def to_schema(schema) -> Schema:
    """The `Schema` of a Spark ``StructType``, a ``{column: JMS type name or JmsType}`` mapping, an
    Arrow ``pa.Schema`` / ``pa.StructType``, or a `Schema` (returned as it is).

    >>> [(f.name, f.dataType.typeName()) for f in to_schema({"qty": "int", "name": "string"}).fields]
    [('qty', 'integer'), ('name', 'string')]
    >>> to_schema([1])
    Traceback (most recent call last):
      ...
    TypeError: a schema is a Spark StructType, a {column: JMS type} dict or an Arrow schema, not list
    """
    if isinstance(schema, Schema):
        return schema
    if isinstance(schema, Mapping):  # collections.abc's: a C-level, cached check
        return Schema(tuple(Field(k, _named(v)) for k, v in schema.items()))
    if type(schema).__module__.split(".")[0] == "pyarrow":
        return _from_arrow(schema)
    if hasattr(schema, "fields"):  # a Spark StructType (or anything shaped like one)
        return _from_struct_type(schema)
    raise TypeError("a schema is a Spark StructType, a {column: JMS type} dict or an Arrow schema, "
                    f"not {type(schema).__name__}")


#: Recently normalised Spark schemas: ``id → (schema, its top-level fields, their ids, Schema)``. The entry
#: points bind many selectors to one ``df.schema`` (pyspark keeps one StructType per DataFrame);
#: converting a 50-column schema costs more than binding a selector to it. The schema object is
#: held, so its id is not reused; a schema whose top-level fields changed since (``add``) is
#: converted again.
_RECENT: dict = {}
_RECENT_MAX = 32


def _from_struct_type(schema) -> Schema:
    fields = tuple(schema.fields)
    ids = tuple(map(id, fields))  # the cached entry holds its fields: their ids are not reused
    hit = _RECENT.get(id(schema))
    if hit is not None and hit[0] is schema and hit[2] == ids:
        return hit[3]
    out = Schema(tuple(Field(f.name, _from_spark(f.dataType)) for f in fields))
    if len(_RECENT) >= _RECENT_MAX:
        _RECENT.clear()  # atomic, unlike evicting one (driver threads may bind at once)
    _RECENT[id(schema)] = (schema, fields, ids, out)
    return out


def _named(name) -> DataType:
    key = ("jms", name if isinstance(name, JmsType) else str(name))
    known = _ATOMIC.get(key)
    if known is None:
        t = name if isinstance(name, JmsType) else JmsType.parse(key[1])
        known = _ATOMIC[key] = DataType(_JMS_TO_SPARK.get(t, t.value), jms=t)
    return known


def _from_spark(t) -> DataType:
    name = t.typeName() if hasattr(t, "typeName") else str(t)
    if name == "struct":
        return DataType(name, tuple(Field(f.name, _from_spark(f.dataType)) for f in t.fields))
    if name == "map":
        return DataType(name, keyType=_from_spark(t.keyType), valueType=_from_spark(t.valueType))
    if name == "array":
        return DataType(name, elementType=_from_spark(t.elementType))
    if name == "decimal":
        return DataType(name, precision=t.precision, scale=t.scale)
    if isinstance(t, DataType):
        return t
    atomic = _ATOMIC.get(name)
    if atomic is None:
        atomic = _ATOMIC[name] = DataType(name)
    return atomic


def is_arrow_variant(t) -> bool:
    """True for the Arrow shape a Spark VARIANT reaches a Python UDF in (no marker):
    ``struct<value: binary, metadata: binary>``."""
    import pyarrow as pa

    return (pa.types.is_struct(t) and t.num_fields == 2
            and {t.field(i).name for i in range(2)} == {"value", "metadata"}
            and all(pa.types.is_binary(t.field(i).type) or pa.types.is_large_binary(t.field(i).type) for i in range(2)))


def _from_arrow(t) -> "Schema | DataType":
    import pyarrow as pa

    if isinstance(t, pa.Schema):
        return Schema(tuple(Field(f.name, _arrow_type(f.type)) for f in t))
    if pa.types.is_struct(t):
        return Schema(tuple(Field(t.field(i).name, _arrow_type(t.field(i).type)) for i in range(t.num_fields)))
    raise TypeError(f"an Arrow schema is a pa.Schema or a pa.StructType, not {t}")


_ARROW_SIMPLE = (("is_boolean", "boolean"), ("is_int8", "byte"), ("is_int16", "short"), ("is_int32", "integer"),
                 ("is_int64", "long"), ("is_float32", "float"), ("is_float64", "double"), ("is_string", "string"),
                 ("is_large_string", "string"), ("is_string_view", "string"), ("is_timestamp", "timestamp"),
                 ("is_binary", "binary"), ("is_large_binary", "binary"))


def _arrow_type(t) -> DataType:
    """The Spark type an Arrow type carries in a UDF batch."""
    import pyarrow as pa

    for test, name in _ARROW_SIMPLE:
        if getattr(pa.types, test)(t):
            return DataType(name)
    if pa.types.is_decimal(t):
        return DataType("decimal", precision=t.precision, scale=t.scale)
    if is_arrow_variant(t):
        return DataType("variant")
    if pa.types.is_struct(t):
        return DataType("struct", tuple(Field(t.field(i).name, _arrow_type(t.field(i).type))
                                        for i in range(t.num_fields)))
    if pa.types.is_map(t):
        return DataType("map", keyType=_arrow_type(t.key_type), valueType=_arrow_type(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return DataType("array", elementType=_arrow_type(t.value_type))
    return DataType(str(t))


def column_collisions(columns, used, text: str, *, case_sensitive: bool, refuse: bool = False,
                      how: str = "use jms_filter, which resolves them") -> dict:
    """``{key: [columns]}`` of the top-level columns Spark cannot tell apart by name (equal, or
    equal but for case when ``case_sensitive`` is false). Raises `SelectorBindingError` naming
    them and the fix when the selector reads a column the table has twice; with ``refuse``, also
    when it reads one of a case-only group (an entry point that cannot rename the table's
    columns: Spark would reject the SQL as ``AMBIGUOUS_REFERENCE``); ``how`` names that entry
    point's way out."""
    groups: dict = {}
    for col in columns:
        groups.setdefault(col if case_sensitive else col.lower(), []).append(col)
    groups = {k: v for k, v in groups.items() if len(v) > 1}
    if not groups:
        return groups
    used = set(used)
    for names in groups.values():
        for name in sorted(set(names) & used):
            if names.count(name) > 1:
                raise SelectorBindingError(
                    f"the selector reads column {name!r}, which the table has {names.count(name)} times (after a"
                    " join?): rename or drop all but one (DataFrame.toDF / withColumnRenamed / drop)",
                    text)
        read = sorted(set(names) & used)
        if len(read) > 1 or (refuse and read):
            raise SelectorBindingError(
                f"the selector reads {', '.join(map(repr, read))}, and the table has"
                f" {', '.join(map(repr, names))}, which differ only in case: with spark.sql.caseSensitive=false"
                f" Spark cannot tell them apart: {how}, set spark.sql.caseSensitive=true (and pass"
                " case_sensitive=True), or rename one (withColumnRenamed)", text)
    return groups
