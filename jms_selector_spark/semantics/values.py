"""Typed JMS values for the reference interpreter: turning Python inputs into (type, value).

A message given to `evaluate` is two dicts of Python values. Each value becomes a `TypedValue`:
bool → boolean, int → long, float → double, str → string, unless ``types`` names another JMS
type (``{"qty": "int", "ratio": "float"}``), in which case the value is checked against that
type's range (and a float is rounded to a Java float). None, or an absent name, is NULL.
"""
from __future__ import annotations

import datetime as _dt
from typing import NamedTuple

from .javanum import to_float32
from ..language.types import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN, JmsType

__all__ = ["TypedValue", "typed"]

_RANGES = {
    JmsType.BYTE: (-128, 127),
    JmsType.SHORT: (-32768, 32767),
    JmsType.INT: (INT_MIN, INT_MAX),
    JmsType.LONG: (LONG_MIN, LONG_MAX),
}

class TypedValue(NamedTuple):
    type: JmsType
    value: object


def _plain(value):
    item = getattr(value, "item", None)  # numpy scalars
    if item is not None and not isinstance(value, (str, bytes)):
        try:
            return item()
        except (TypeError, ValueError):
            return value
    return value


def typed(name: str, value, declared: "JmsType | str | None" = None) -> "TypedValue | None":
    """Turn a Python value into a `TypedValue` (None for NULL), checking it against ``declared``."""
    value = _plain(value)
    if value is None:
        return None
    if isinstance(declared, str):
        declared = JmsType.parse(declared)
    if declared is None:
        if isinstance(value, bool):
            declared = JmsType.BOOLEAN
        elif isinstance(value, int):
            declared = JmsType.LONG
        elif isinstance(value, float):
            declared = JmsType.DOUBLE
        elif isinstance(value, str):
            declared = JmsType.STRING
        elif isinstance(value, _dt.datetime):
            declared = JmsType.LONG
        else:
            raise TypeError(f"property {name!r}: unsupported value {value!r} ({type(value).__name__});"
                            " use bool, int, float or str")
    if declared is JmsType.BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"property {name!r} is declared boolean but holds {value!r}")
        return TypedValue(declared, value)
    if declared.is_exact:
        if isinstance(value, _dt.datetime):
            if value.tzinfo is None:
                value = value.replace(tzinfo=_dt.timezone.utc)
            value = int(value.timestamp() * 1000)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"property {name!r} is declared {declared.value} but holds {value!r}")
        lo, hi = _RANGES[declared]
        if not lo <= value <= hi:
            raise ValueError(f"property {name!r}: {value} is out of the range of a Java {declared.value}")
        return TypedValue(declared, value)
    if declared.is_approximate:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"property {name!r} is declared {declared.value} but holds {value!r}")
        value = float(value)
        return TypedValue(declared, to_float32(value) if declared is JmsType.FLOAT else value)
    if declared is JmsType.STRING:
        if not isinstance(value, str):
            raise TypeError(f"property {name!r} is declared string but holds {value!r}")
        return TypedValue(declared, value)
    raise TypeError(f"property {name!r}: {declared.value} is not a property type")
