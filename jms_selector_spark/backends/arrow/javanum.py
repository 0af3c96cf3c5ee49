"""Java's ``valueOf(String)`` over Arrow string arrays: `javanum.java_value_of` once per distinct
string. The vectorized back end's one conversion primitive, behind ActiveMQ's
``convert_string_expressions:`` comparisons and declared property types of MAP<STRING,STRING>
layouts (`arrow.columns`)."""
from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ...semantics import javanum as jn
from ...language.types import JmsType

__all__ = ["java_value_of_arrow", "ARROW_OF"]

ARROW_OF = {JmsType.BOOLEAN: pa.bool_(), JmsType.BYTE: pa.int8(), JmsType.SHORT: pa.int16(), JmsType.INT: pa.int32(),
            JmsType.LONG: pa.int64(), JmsType.FLOAT: pa.float32(), JmsType.DOUBLE: pa.float64(),
            JmsType.STRING: pa.string()}


def java_value_of_arrow(part, t: JmsType):
    """``t.valueOf(s)`` for each string of ``part`` (an Arrow array, chunked array or scalar):
    values of type ``t``, null where ``s`` is null or Java throws NumberFormatException."""
    arrow_type = ARROW_OF[t]
    if isinstance(part, pa.Scalar):
        return pa.scalar(None if not part.is_valid else jn.java_value_of(part.as_py(), t.value), arrow_type)
    if isinstance(part, pa.ChunkedArray):
        part = part.combine_chunks()
    enc = pc.dictionary_encode(part)
    values = enc.dictionary.to_pylist()
    converted = pa.array([jn.java_value_of(v, t.value) for v in values], arrow_type)
    return converted.take(enc.indices)
