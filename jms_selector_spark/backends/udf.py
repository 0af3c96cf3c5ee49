"""The vectorized fallback as Spark Arrow UDFs: ``jms_match``, ``jms_selector_error``, and the
UDFs the hybrid filter and the router build for the selectors native SQL cannot express.

All are Arrow UDFs (``pyspark.sql.functions.arrow_udf``, measured faster than pandas_udf here,
and exact: a BIGINT with NULLs stays int64 with a validity mask instead of becoming float64).
A batch arrives as Arrow arrays; each *distinct* selector in it is parsed, bound to the message
struct's type and evaluated once, over its rows, by `vectorized.evaluate_batch` — never a Python
loop over rows (VARIANT decoding excepted, see `arrow_columns`). The columns a batch's selectors
read are extracted from the struct once and shared between them.

Compiled selectors are cached per worker process (bounded LRU keyed by selector text, dialect,
struct type and binding): a subscriptions table typically holds few distinct selectors, and
Spark reuses Python workers between tasks.

A bad selector never fails the task: its rows do not match (NULL when three-valued), and
``jms_selector_error`` returns the error text with its position. A NULL selector is "no
selector" (JMS: a consumer created with a null selector receives every message).
"""
from __future__ import annotations

import functools

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..binder import Binding, bind
from ..dialects import Dialect, get_dialect
from ..errors import SelectorError
from ..selector import Selector, parse
from .arrow_columns import extract_columns, spark_like_schema, take_rows

__all__ = ["match_batch", "error_batch", "match_udf", "selector_error_udf", "selector_udf", "routing_udf",
           "source_struct"]


@functools.lru_cache(maxsize=512)
def _compile(text: str, dialect: Dialect, struct_type: pa.DataType, binding: Binding):
    """A BoundSelector for one selector text and message type, or the SelectorError it raises."""
    try:
        return bind(parse(text, dialect=dialect), spark_like_schema(struct_type), binding)
    except SelectorError as exc:
        return exc


def _as_array(x) -> pa.Array:
    return x.combine_chunks() if isinstance(x, pa.ChunkedArray) else x


def _evaluate(bound, messages: pa.Array, cache: dict, mask: "np.ndarray | None" = None) -> pa.BooleanArray:
    """Three-valued result of ``bound`` on the rows of ``messages`` selected by ``mask``."""
    from .vectorized import evaluate_batch

    columns = extract_columns(bound, messages, cache)
    if mask is None:
        return evaluate_batch(bound.selector, columns, len(messages))
    return evaluate_batch(bound.selector, take_rows(columns, pa.array(mask)), int(mask.sum()))


def match_batch(selectors: pa.Array, messages: pa.Array, dialect: "str | Dialect" = "jms", *,
                binding: "Binding | None" = None, three_valued: bool = False) -> pa.BooleanArray:
    """Evaluate one selector per row over a batch of message structs.

    Parameters
    ----------
    selectors : pyarrow string array
        The selector of each row (NULL: no selector, every message matches).
    messages : pyarrow struct array
        The messages (top-level fields: header columns and properties, as in the data model).
    dialect : str or Dialect
    binding : Binding, optional
    three_valued : bool, default False
        Keep UNKNOWN (and invalid selectors) as null instead of FALSE.

    Returns
    -------
    pyarrow.BooleanArray
    """
    d = get_dialect(dialect)
    binding = binding or Binding()
    selectors, messages = _as_array(selectors), _as_array(messages)
    n = len(messages)
    value = np.zeros(n, dtype=bool)
    known = np.ones(n, dtype=bool)
    enc = pc.dictionary_encode(selectors)
    idx = enc.indices.fill_null(-1).to_numpy(zero_copy_only=False)
    cache: dict = {}
    for k, text in enumerate(enc.dictionary.to_pylist()):
        rows = idx == k
        compiled = _compile(text, d, messages.type, binding)
        if isinstance(compiled, SelectorError):
            known[rows] = False
            continue
        if compiled.root is None:
            value[rows] = True
            continue
        everything = bool(rows.all())
        result = _evaluate(compiled, messages, cache, None if everything else rows)
        res = result.fill_null(False).to_numpy(zero_copy_only=False)
        ok = result.is_valid().to_numpy(zero_copy_only=False)
        if everything:
            value, known = res.copy(), ok.copy()
        else:
            value[rows] = res
            known[rows] = ok
    value[idx == -1] = True  # NULL selector: no selector
    if three_valued:
        return pa.array(value, pa.bool_(), mask=~known)
    return pa.array(value & known, pa.bool_())


def error_batch(selectors: pa.Array, dialect: "str | Dialect" = "jms") -> pa.StringArray:
    """The error text (type, message, position, caret) of each invalid selector; NULL otherwise."""
    d = get_dialect(dialect)
    enc = pc.dictionary_encode(_as_array(selectors))
    messages = []
    for text in enc.dictionary.to_pylist():
        try:
            parse(text, dialect=d)
            messages.append(None)
        except SelectorError as exc:
            messages.append(f"{type(exc).__name__}: {exc}")
    return pc.take(pa.array(messages, pa.string()), enc.indices)


def match_udf(dialect: "str | Dialect" = "jms", *, binding: "Binding | None" = None, three_valued: bool = False):
    """An Arrow UDF ``(selector STRING, message STRUCT) -> BOOLEAN`` (see `match_batch`)."""
    from pyspark.sql.functions import arrow_udf

    d = get_dialect(dialect)

    @arrow_udf("boolean")
    def jms_match(selector: pa.Array, message: pa.Array) -> pa.Array:
        return match_batch(selector, message, d, binding=binding, three_valued=three_valued)

    return jms_match


def selector_error_udf(dialect: "str | Dialect" = "jms"):
    """An Arrow UDF ``(selector STRING) -> STRING``: the error with its position, or NULL."""
    from pyspark.sql.functions import arrow_udf

    d = get_dialect(dialect)

    @arrow_udf("string")
    def jms_selector_error(selector: pa.Array) -> pa.Array:
        return error_batch(selector, d)

    return jms_selector_error


def source_struct(columns):
    """``struct(`c1`, `c2`, …)`` of top-level columns (a placeholder field when there are none)."""
    from pyspark.sql import functions as F

    if not columns:
        return F.struct(F.lit(None).cast("boolean").alias("_"))
    return F.struct(*[F.col("`" + c.replace("`", "``") + "`") for c in columns])


def selector_udf(selector: Selector, schema, binding: "Binding | None" = None):
    """A three-valued Arrow UDF for one (sub-)selector bound to ``schema``: ``(udf, columns)``.

    Call ``udf(source_struct(columns))``: TRUE / FALSE / NULL (UNKNOWN) per row, so it composes
    with Spark's own Kleene AND / OR / NOT. Only the columns the selector reads cross to Python.
    """
    from pyspark.sql.functions import arrow_udf

    bound = bind(selector, schema, binding or Binding())
    columns = list(bound.source_columns())

    @arrow_udf("boolean")
    def jms_fallback(message: pa.Array) -> pa.Array:
        message = _as_array(message)
        return _evaluate(bound, message, {})

    return jms_fallback, columns


def routing_udf(named_selectors, dialect: "str | Dialect", schema, binding: "Binding | None" = None):
    """One Arrow UDF evaluating several (valid) selectors over the same rows: ``(udf, columns)``.

    Call ``udf(source_struct(columns))``; per row it returns the names of the selectors that
    are TRUE, in the given order. Only the columns the selectors read cross to Python, once.
    """
    from pyspark.sql.functions import arrow_udf

    d = get_dialect(dialect)
    b = binding or Binding()
    bounds = [(name, bind(parse(text, dialect=d), schema, b)) for name, text in named_selectors]
    columns = list(dict.fromkeys(c for _, bound in bounds for c in bound.source_columns()))
    names = pa.array([name for name, _ in bounds], pa.string())

    @arrow_udf("array<string>")
    def jms_route(message: pa.Array) -> pa.Array:
        message = _as_array(message)
        n = len(message)
        hits = np.zeros((len(bounds), n), dtype=bool)
        cache: dict = {}
        for k, (_, bound) in enumerate(bounds):
            if bound.root is None:
                hits[k] = True
            else:
                hits[k] = _evaluate(bound, message, cache).fill_null(False).to_numpy(zero_copy_only=False)
        rows, ks = np.nonzero(hits.T)
        offsets = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
        return pa.ListArray.from_arrays(pa.array(offsets), names.take(pa.array(ks, pa.int64())))

    return jms_route, columns
