"""Messages as typed header and property values, and a selector's answer on one (TRUE, FALSE,
UNKNOWN or invalid): what `compare_dialects` searches over and the dialect table shows."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..language.errors import SelectorError
from ..interpreter import ReferenceInterpreter, message_resolver
from ..parsing import as_selector, parse
from ..language.types import JmsType

__all__ = ["TypedMessage", "answer", "format_value", "word"]


@dataclass(frozen=True)
class TypedMessage:
    """A message as typed header and property values (what `evaluate` takes).

    ``header_values``: (header name, value) pairs; ``property_values``: (property name, value)
    pairs; ``property_types``: (property name, JMS type name: ``"int"``, ``"float"``…) pairs. A name
    absent from both is NULL. ``to_dict()`` gives them as ``headers``/``properties``/``types`` dicts.
    """

    header_values: tuple = ()
    property_values: tuple = ()
    property_types: tuple = ()

    @classmethod
    def of(cls, headers=None, properties=None, types=None) -> "TypedMessage":
        """Build one from dicts (types default from the Python values: int → long, float → double)."""
        props = dict(properties or {})
        given = {k: (v.value if isinstance(v, JmsType) else str(v)) for k, v in (types or {}).items()}
        for k, v in props.items():
            if k not in given and v is not None:
                given[k] = ("boolean" if isinstance(v, bool) else "long" if isinstance(v, int) else
                            "double" if isinstance(v, float) else "string")
        return cls(tuple((headers or {}).items()), tuple(props.items()), tuple(given.items()))

    def evaluate(self, selector, dialect) -> "bool | None":
        """The selector's answer on this message (``selector`` parsed, or text parsed with ``dialect``)."""
        sel = as_selector(selector, dialect)
        if sel.root is None:
            return True
        d = sel.dialect
        resolve = message_resolver(dict(self.header_values), dict(self.property_values), d, dict(self.property_types))
        return ReferenceInterpreter(resolve, d).run_selector(sel)

    def cells(self) -> list:
        """``["JMSType = 'car'", "qty = 5 (int)", "x = NULL"]``: one cell per value."""
        types = dict(self.property_types)
        out = [f"{k} = {format_value(v)}" for k, v in self.header_values]
        out += [f"{k} = {format_value(v)}" + (f" ({types[k]})" if v is not None and k in types else "")
                for k, v in self.property_values]
        return out

    def __str__(self):
        return ", ".join(self.cells()) or "(no headers or properties)"

    def to_dict(self) -> dict:
        """JSON-ready: ``{"headers": {...}, "properties": {...}, "types": {...}}`` (NaN and
        infinities as the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``, -0.0 as ``"-0.0"``)."""
        def js(v):
            if isinstance(v, float) and (not math.isfinite(v) or (v == 0 and math.copysign(1, v) < 0)):
                return format_value(v)
            return v
        return {"headers": {k: js(v) for k, v in self.header_values},
                "properties": {k: js(v) for k, v in self.property_values}, "types": dict(self.property_types)}


def format_value(v) -> str:
    """A value as a selector literal would read it: ``'text'``, ``5``, ``-0.0``, ``NaN``, ``NULL``."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return "'" + "".join(c if c.isprintable() else f"\\u{ord(c):04X}" for c in v.replace("'", "''")) + "'"
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    return str(v)


def answer(selector: str, dialect, message: "TypedMessage | None" = None) -> str:
    """``"TRUE"``, ``"FALSE"``, ``"UNKNOWN"`` or ``"invalid"``: the selector in ``dialect`` on ``message``."""
    try:
        sel = parse(selector, dialect=dialect)
    except SelectorError:
        return "invalid"
    return word((message or TypedMessage()).evaluate(sel, None))


def word(t) -> str:
    return "UNKNOWN" if t is None else ("TRUE" if t else "FALSE")
