"""Planning route's subscriptions: each distinct selector compiled once (`compiler.compile_bound`)."""
from __future__ import annotations

import functools

from ...binder import Binding, check_options
from ...compiler import compile_bound
from ...language.errors import SelectorError
from ...language.schema import to_schema
from ...parsing import parse

__all__ = ["plan_subscriptions", "compiled_selector", "bound_selector", "split_conjuncts"]


@functools.lru_cache(maxsize=16384)
def compiled_selector(text: str, dialect, schema, binding: Binding):
    """The `Compiled` of one selector text, or the `SelectorError` parsing or binding it raises."""
    try:
        return compile_bound(parse(text, dialect=dialect), schema, binding, warn=False)
    except SelectorError as exc:
        return exc


def bound_selector(text: str, dialect, schema, binding: Binding):
    got = compiled_selector(text, dialect, to_schema(schema), binding)
    return got if isinstance(got, SelectorError) else got.bound


def plan_subscriptions(subs, schema, dialect, binding: "Binding | None" = None):
    """``(native [(subscription, SQL)], fallback [subscription], errors [(subscription, text)])``."""
    from ...binder import warn_unknown_properties

    binding = binding or Binding()
    native, fallback, errors = [], [], []
    schema = to_schema(schema)
    for i, s in enumerate(subs):
        if i == 0:
            check_options(schema, binding)
        got = compiled_selector(s.selector or "", dialect, schema, binding)
        if isinstance(got, SelectorError):
            errors.append((s, f"{type(got).__name__}: {got}"))
            continue
        warn_unknown_properties(got.bound)
        if got.whole.is_native:
            native.append((s, got.whole.sql))
        else:
            fallback.append(s)
    return native, fallback, errors


def split_conjuncts(text: str, dialect, schema, binding: "Binding | None" = None):
    """``(compiled, gate plans, residual piece)`` of a fallback subscription (`Compiled.conjuncts`)."""
    got = compiled_selector(text, dialect, to_schema(schema), binding or Binding())
    if isinstance(got, SelectorError):
        raise got
    gate, residual = got.conjuncts()
    return got, gate, residual
