"""From Arrow data to the JMS columns a selector reads (the UDF side of the data model).

A message struct reaches a Python UDF as an Arrow ``StructArray``; `language.schema.to_schema` reads its
type in the shape `binder.bind` reads (so headers, flat/struct/map/VARIANT properties and every
conversion follow the same rules as the SQL back end); this module pulls out, for each name a selector
uses, either ``(JmsType, pa.Array)`` or, for a VARIANT property or a Kafka Connect JMS one
(`language.layouts`), one array per JMS type (non-null only on the rows whose value has that type)
— the input of `vectorized.evaluate_batch`. A Kafka record header is read row by row.

VARIANT reaches Python UDFs as ``struct<value: binary, metadata: binary>`` with no marker; that
exact shape is read as a VARIANT. Its values are decoded row by row (pyspark's VariantUtils):
correct, but slow — the native SQL path reads VARIANT without Python.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

import pyarrow as pa
import pyarrow.compute as pc

from ...language.layouts import TYPED_FIELDS
from ...language.types import JmsType
from .javanum import java_value_of_arrow

__all__ = ["ARROW_TYPES", "extract_columns", "slice_rows", "take_rows"]


def _child(arr: pa.Array, name: str) -> pa.Array:
    """A struct child with the parent's nulls applied."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    return pc.struct_field(arr, name)


def _convert(ref, arr: pa.Array):
    conv = ref.conversion
    if conv == "delivery_mode":
        ints = arr.cast(pa.int64())
        return pc.if_else(pc.equal(ints, 2), "PERSISTENT",
                          pc.if_else(pc.equal(ints, 1), "NON_PERSISTENT", pa.scalar(None, pa.string())))
    if conv == "delivery_mode_code":  # MQe: the int constant
        strings = arr if pa.types.is_string(arr.type) else arr.cast(pa.string())
        return pc.if_else(pc.equal(strings, "PERSISTENT"), pa.scalar(2, pa.int32()),
                          pc.if_else(pc.equal(strings, "NON_PERSISTENT"), pa.scalar(1, pa.int32()),
                                     pa.scalar(None, pa.int32())))
    if conv == "epoch_millis":
        unit = arr.type.unit
        per_ms = {"s": None, "ms": 1, "us": 1000, "ns": 1_000_000}[unit]
        raw = arr.cast(pa.int64()) if not pa.types.is_timestamp(arr.type) else pc.cast(arr, pa.int64())
        if per_ms is None:
            return pc.multiply(raw, 1000)
        # floor division, as unix_millis does for instants before 1970
        q = pc.divide(raw, per_ms)
        fix = pc.and_(pc.less(raw, 0), pc.not_equal(pc.multiply(q, per_ms), raw))
        return pc.if_else(fix, pc.subtract(q, 1), q)
    if conv == "java_value_of":  # a declared property type on a string value (Binding.property_types)
        return java_value_of_arrow(arr if pa.types.is_string(arr.type) else arr.cast(pa.string()), ref.type)
    if conv == "decimal":
        if ref.type is JmsType.LONG:
            return _decimal_to_long(arr)
        return pc.cast(arr, pa.float64(), safe=False)
    return arr


def _decimal_to_long(arr):
    vals = [None if v is None else (int(v) if -(2**63) <= int(v) < 2**63 else None) for v in arr.to_pylist()]
    return pa.array(vals, pa.int64())


#: The Arrow type each JMS type is held and computed in (what `extract_columns` produces and
#: `vectorized` computes with): the one table of it.
ARROW_TYPES = MappingProxyType({
    JmsType.BOOLEAN: pa.bool_(), JmsType.BYTE: pa.int8(), JmsType.SHORT: pa.int16(), JmsType.INT: pa.int32(),
    JmsType.LONG: pa.int64(), JmsType.FLOAT: pa.float32(), JmsType.DOUBLE: pa.float64(), JmsType.STRING: pa.string(),
})


def _variant_values(arr: pa.Array, key: str) -> dict:
    """Per-JMS-type arrays for ``key`` of each VARIANT object in ``arr`` (row by row)."""
    from pyspark.sql.variant_utils import VariantUtils

    buckets = {JmsType.BOOLEAN: [], JmsType.LONG: [], JmsType.DOUBLE: [], JmsType.STRING: []}
    for row in arr.to_pylist():
        v = None
        if row is not None:
            try:
                obj = VariantUtils.to_python(row["value"], row["metadata"])
            except Exception:  # malformed variant: treat the row as NULL, never kill the job
                obj = None
            if isinstance(obj, dict):
                v = obj.get(key)
        kind = None
        if isinstance(v, bool):
            kind = JmsType.BOOLEAN
        elif isinstance(v, int):
            kind = JmsType.LONG if -(2**63) <= v < 2**63 else None
        elif isinstance(v, float) or (v is not None and type(v).__name__ == "Decimal"):
            kind, v = JmsType.DOUBLE, float(v)
        elif isinstance(v, str):
            kind = JmsType.STRING
        for t, values in buckets.items():
            values.append(v if t is kind else None)
    return {t: pa.array(vals, ARROW_TYPES[t]) for t, vals in buckets.items()}


def _ref_key(ref):
    """What makes two selectors' references read the same data (the selector name does not)."""
    return (ref.path, ref.access, ref.type, ref.conversion, ref.spark_type, ref.default)


def _extract_one(ref, message: pa.Array):
    if ref.access == "missing":  # a header with a fixed value or a default (lowering.Rules.header)
        return (ref.type, pa.array([ref.default] * len(message), ARROW_TYPES[ref.type]))
    if ref.access == "column":
        arr = message
        for part in ref.path:
            arr = _child(arr, part)
        arr = _convert(ref, arr)
        if ref.default is not None:  # a header's value where the message has none
            arr = pc.fill_null(arr, pa.scalar(ref.default, arr.type))
        return (ref.type, arr)
    if ref.access == "map":
        m = _child(message, ref.path[0])
        return (ref.type, _convert(ref, pc.map_lookup(m, pa.scalar(ref.path[1]), "first")))
    if ref.access == "typed_map":
        return _typed_values(_child(message, ref.path[0]), ref.path[1])
    if ref.access == "kafka_header":
        return (ref.type, _convert(ref, _last_header(_child(message, ref.path[0]), ref.path[1])))
    return _variant_values(_child(message, ref.path[0]), ref.path[1])  # "variant"


def _typed_values(arr: pa.Array, key: str) -> dict:
    """Per-JMS-type arrays for ``key`` of a Kafka Connect JMS properties map: each row's value is
    the struct field its ``propertyType`` names (`language.layouts.TYPED_FIELDS`)."""
    entry = pc.map_lookup(arr, pa.scalar(key), "first")
    kind = pc.struct_field(entry, "propertyType")
    out = {}
    for field, t in TYPED_FIELDS.items():
        values = pc.struct_field(entry, field)
        out[t] = pc.if_else(pc.fill_null(pc.equal(kind, field), False), values, pa.scalar(None, values.type))
    return out


def _last_header(arr: pa.Array, key: str) -> pa.Array:
    """The text of the last Kafka record header named ``key`` per row (Kafka's ``lastHeader``), its
    bytes decoded as UTF-8 as Java decodes them (malformed bytes → U+FFFD); NULL when absent."""
    out = []
    for headers in arr.to_pylist():
        value = None
        for h in headers or ():
            if h is not None and h["key"] == key:
                value = h["value"]
        out.append(None if value is None else bytes(value).decode("utf-8", "replace"))
    return pa.array(out, pa.string())


def extract_columns(refs, message: pa.Array, cache: "dict | None" = None) -> dict:
    """The JMS columns of ``refs`` (``{name: ColumnRef}``, what a bound selector or a piece of
    it reads), taken from a struct array of message rows.

    ``cache`` (a dict, one per batch) shares the work between selectors evaluated over the same
    batch: a column several selectors read is extracted and converted once.
    """
    if isinstance(message, pa.ChunkedArray):
        message = message.combine_chunks()
    out = {}
    for name, ref in refs.items():
        if ref.access == "missing" and ref.default is None:
            continue
        if cache is None:
            out[name] = _extract_one(ref, message)
            continue
        key = _ref_key(ref)
        if key not in cache:
            cache[key] = _extract_one(ref, message)
        out[name] = cache[key]
    return out


def slice_rows(columns: dict, start: int, length: int) -> dict:
    """``columns`` (as `extract_columns` returns them) restricted to rows [start, start + length):
    zero-copy slices, no kernel call."""
    out = {}
    for name, col in columns.items():
        if isinstance(col, tuple):
            out[name] = (col[0], col[1].slice(start, length))
        else:
            out[name] = {t: arr.slice(start, length) for t, arr in col.items()}
    return out


def take_rows(columns: dict, indices: pa.Array) -> dict:
    """``columns`` (as `extract_columns` returns them) restricted to the rows ``indices`` (an
    int64 array, in the order given): one ``take`` per column."""
    out = {}
    for name, col in columns.items():
        if isinstance(col, tuple):
            out[name] = (col[0], col[1].take(indices))
        else:
            out[name] = {t: arr.take(indices) for t, arr in col.items()}
    return out


# -- the evaluator's input: `vectorized.evaluate_batch`'s columns ----------------------------------

def plain_array(t, arr, n_rows: int):
    """A column's array of JMS type ``t`` in one chunk, its length checked."""
    if t not in ARROW_TYPES:
        raise ValueError(f"a column cannot have JMS type {t}")
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if len(arr) != n_rows:
        raise ValueError(f"a column has {len(arr)} rows, the batch {n_rows}")
    return arr


def typed_array(t, arr):
    return arr if arr.type == ARROW_TYPES[t] else pc.cast(arr, ARROW_TYPES[t])  # checked


def column_union(entry, n_rows: int) -> dict:
    """``(JmsType, array)`` or ``{JmsType: array}`` → a union of plain, typed, non-empty arrays."""
    if isinstance(entry, tuple):
        entry = {entry[0]: entry[1]}
    elif not isinstance(entry, Mapping):
        raise TypeError(f"a column is (JmsType, pa.Array) or {{JmsType: pa.Array}}, not {type(entry).__name__}")
    out = {}
    for t, arr in entry.items():
        if t is JmsType.NULL:
            continue
        arr = plain_array(t, arr, n_rows)
        if arr.null_count < len(arr):
            out[t] = typed_array(t, arr)
    return out


def column_types(columns: Mapping, names) -> "tuple[dict, dict]":
    """What lowering knows of a batch's columns: ({name: static JmsType, or DYNAMIC for the
    ``{JmsType: array}`` form}, {name: (None, NULL)} for an absent name: a constant)."""
    types, absent = {}, {}
    for name in names:
        entry = columns.get(name)
        if isinstance(entry, tuple) and entry[0] in ARROW_TYPES:
            types[name] = entry[0]
        elif entry is None or (isinstance(entry, tuple) and entry[0] is JmsType.NULL):
            absent[name] = (None, JmsType.NULL)
        else:  # per-row types (or a malformed entry: `column_union` says what is wrong)
            types[name] = JmsType.DYNAMIC
    return types, absent
