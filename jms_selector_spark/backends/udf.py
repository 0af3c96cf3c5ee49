"""The vectorized fallback as Spark Arrow UDFs: ``jms_match``, ``jms_selector_error``, and the
UDFs the hybrid filter and the router build for the selectors native SQL cannot express.

All are Arrow UDFs (``pyspark.sql.functions.arrow_udf``, measured faster than pandas_udf here,
and exact: a BIGINT with NULLs stays int64 with a validity mask instead of becoming float64).
A batch arrives as Arrow arrays; each *distinct* selector in it is parsed, bound to the message
struct's type and evaluated once, over its rows, by `arrow.evaluator` — never a Python
loop over rows (VARIANT decoding excepted, see `arrow.columns`). The columns a batch's selectors
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
from typing import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..binder import Binding, bind
from ..language.errors import SelectorError
from ..parsing import parse
from ..language.dialects import JMS, Dialect
from ..language.schema import to_schema
from .arrow.columns import extract_columns, slice_rows, take_rows
from .arrow.evaluator import VectorizedEvaluator, arrow_strings_only, broadcast, evaluate_rows
from .sql.render import sql_identifier

__all__ = ["match_batch", "error_batch", "match_udf", "selector_error_udf", "piece_udf", "routing_udf",
           "source_struct", "source_args"]


class _Compiled:
    """A bound selector, or one piece of it (`compiler.Piece`), ready to evaluate batches (what
    the UDFs hold, and the per-worker cache of ``jms_match``).

    Whether the selector's strings fit Arrow (no lone UTF-16 surrogate, see
    `arrow.evaluator.evaluate_batch`) is decided once here, not on every batch: with many distinct
    selectors per batch (subscriptions x messages) that walk of the tree was ~15 % of the time.
    Pickled as its bound selector and the piece's paths (the bound selector as its text), so an
    executor evaluates the very node the driver planned.
    """

    __slots__ = ("bound", "piece", "node", "refs", "_arrow_ok")

    def __init__(self, bound, piece=None):
        self.bound, self.piece = bound, piece
        self.node = bound.core if piece is None else piece.node
        self.refs = bound.refs if piece is None else piece.refs
        self._arrow_ok = self.node is not None and arrow_strings_only(self.node)

    def __reduce__(self):
        return (_Compiled, (self.bound, self.piece))

    @property
    def root(self):
        return self.node

    def evaluate(self, columns: dict, n: int) -> pa.BooleanArray:
        """The three-valued value of the selector (or piece) on ``n`` rows of ``columns``."""
        if self.node is None:
            return pa.repeat(pa.scalar(True), n)
        if not self._arrow_ok:  # strings Arrow cannot hold: the reference interpreter, row by row
            return evaluate_rows(self.node, self.bound.dialect, columns, n)
        return broadcast(VectorizedEvaluator(columns, n).truth(self.node), n)


@functools.lru_cache(maxsize=512)
def _compile(text: str, dialect: Dialect, struct_type: pa.DataType, binding: Binding):
    """A `_Compiled` selector for one selector text and message type, or the SelectorError it raises."""
    try:
        return _Compiled(bind(parse(text, dialect=dialect), to_schema(struct_type), binding))
    except SelectorError as exc:
        return exc


@functools.lru_cache(maxsize=64)
def _memo(dialect: Dialect, struct_type: pa.DataType, binding: Binding) -> dict:
    """{selector text: `_compile` result} for one message type: one lookup of the (dialect,
    type, binding) key per batch instead of one per distinct selector (hashing a struct type is
    not free)."""
    return {}


def _compile_texts(texts: list, dialect: Dialect, struct_type: pa.DataType, binding: Binding) -> list:
    memo = _memo(dialect, struct_type, binding)
    out = []
    for text in texts:
        compiled = memo.get(text)
        if compiled is None:
            if len(memo) >= 4096:  # bounded, like _compile's cache
                memo.clear()
            compiled = memo[text] = _compile(text, dialect, struct_type, binding)
        out.append(compiled)
    return out


def _as_array(x) -> pa.Array:
    return x.combine_chunks() if isinstance(x, pa.ChunkedArray) else x


def _evaluate(compiled: _Compiled, messages: pa.Array, cache: dict) -> pa.BooleanArray:
    """Three-valued result of a compiled selector on every row of ``messages``."""
    return compiled.evaluate(extract_columns(compiled.refs, messages, cache), len(messages))


def match_batch(selectors: pa.Array, messages: pa.Array, dialect: Dialect = JMS, *,
                binding: "Binding | None" = None, three_valued: bool = False) -> pa.BooleanArray:
    """Evaluate one selector per row over a batch of message structs.

    Parameters
    ----------
    selectors : pyarrow string array
        The selector of each row (NULL: no selector, every message matches).
    messages : pyarrow struct array
        The messages (top-level fields: header columns and properties, as in the data model).
    dialect : Dialect
        (the entry point normalised it: `get_dialect`)
    binding : Binding, optional
    three_valued : bool, default False
        Keep UNKNOWN (and invalid selectors) as null instead of FALSE.

    Returns
    -------
    pyarrow.BooleanArray

    Notes
    -----
    A batch with one selector (a literal) is evaluated as it is. Otherwise the rows are ordered
    by selector once (one ``take`` of the batch), so that each distinct selector reads a
    zero-copy slice of the shared columns, and the results are put back in row order with one
    more ``take``. Measured on 10,000-row batches with 100 interleaved selectors (the shape of
    subscriptions CROSS JOIN messages), filtering every column for every selector cost more than
    evaluating the selectors.
    """
    binding = binding or Binding()
    selectors, messages = _as_array(selectors), _as_array(messages)
    n = len(messages)
    if n == 0:
        return pa.array([], pa.bool_())
    first = selectors[0].as_py()
    if first is not None and selectors.null_count == 0 and pc.all(pc.equal(selectors, first)).as_py():
        # one selector for the whole batch (a literal): 5x cheaper to check than to encode
        result = _segment(_compile_texts([first], dialect, messages.type, binding)[0], messages, {}, 0, n)
    else:
        enc = pc.dictionary_encode(selectors)
        compiled = _compile_texts(enc.dictionary.to_pylist(), dialect, messages.type, binding)
        idx = enc.indices.fill_null(-1).to_numpy(zero_copy_only=False)
        order = np.argsort(idx, kind="stable")
        counts = np.bincount(idx + 1, minlength=len(compiled) + 1)  # NULL selector first, then each text
        ordered = messages.take(pa.array(order))
        cache: dict = {}
        pieces, start = [], 0
        for k, count in enumerate(counts.tolist()):
            if count:
                if k == 0:  # NULL selector: no selector, every message matches
                    pieces.append(pa.array(np.ones(count, dtype=bool)))
                else:
                    pieces.append(_segment(compiled[k - 1], ordered, cache, start, count))
                start += count
        inverse = np.empty(n, dtype=np.int64)
        inverse[order] = np.arange(n, dtype=np.int64)
        result = pa.concat_arrays(pieces).take(pa.array(inverse))
    return result if three_valued else result.fill_null(False)


def _segment(compiled, ordered: pa.Array, cache: dict, start: int, count: int) -> pa.BooleanArray:
    """Three-valued result of one compiled selector (or SelectorError) on rows [start, start+count)."""
    if isinstance(compiled, SelectorError):
        return pa.nulls(count, pa.bool_())
    if compiled.root is None:  # empty selector
        return pa.array(np.ones(count, dtype=bool))
    columns = extract_columns(compiled.refs, ordered, cache)
    if count != len(ordered):
        columns = slice_rows(columns, start, count)
    return compiled.evaluate(columns, count)


def error_batch(selectors: pa.Array, dialect: Dialect = JMS) -> pa.StringArray:
    """The error text (type, message, position, caret) of each invalid selector; NULL otherwise."""
    enc = pc.dictionary_encode(_as_array(selectors))
    messages = []
    for text in enc.dictionary.to_pylist():
        try:
            parse(text, dialect=dialect)
            messages.append(None)
        except SelectorError as exc:
            messages.append(f"{type(exc).__name__}: {exc}")
    return pc.take(pa.array(messages, pa.string()), enc.indices)


def match_udf(dialect: Dialect = JMS, *, binding: "Binding | None" = None, three_valued: bool = False):
    """An Arrow UDF ``(selector STRING, message STRUCT) -> BOOLEAN`` (see `match_batch`)."""
    from pyspark.sql.functions import arrow_udf


    @arrow_udf("boolean")
    def jms_match(selector: pa.Array, message: pa.Array) -> pa.Array:
        return match_batch(selector, message, dialect, binding=binding, three_valued=three_valued)

    return jms_match


def binding_error_batch(selectors: pa.Array, messages: pa.Array, dialect: Dialect = JMS, *,
                        binding: "Binding | None" = None) -> pa.StringArray:
    """Like `error_batch`, and also the error of binding each selector to the type of ``messages``
    (a struct array): what makes ``jms_match(selector, message)`` FALSE on every row — an ARRAY or
    DATE column, a header column of the wrong type, ``unknown_properties='error'``. NULL: valid."""
    binding = binding or Binding()
    selectors, messages = _as_array(selectors), _as_array(messages)
    enc = pc.dictionary_encode(selectors)
    out = []
    for text in enc.dictionary.to_pylist():
        compiled = _compile(text, dialect, messages.type, binding)
        out.append(f"{type(compiled).__name__}: {compiled}" if isinstance(compiled, SelectorError) else None)
    return pc.take(pa.array(out, pa.string()), enc.indices)


def selector_error_udf(dialect: Dialect = JMS, *, binding: "Binding | None" = None):
    """An Arrow UDF ``(selector STRING[, message STRUCT]) -> STRING``: the error with its
    position, or NULL. With a message struct, binding errors against its type too
    (`binding_error_batch`)."""
    from pyspark.sql.functions import arrow_udf


    @arrow_udf("string")
    def jms_selector_error(*args: pa.Array) -> pa.Array:
        if len(args) == 1:
            return error_batch(args[0], dialect)
        if len(args) != 2:
            raise TypeError(f"jms_selector_error takes (selector) or (selector, message struct), not {len(args)} "
                            "arguments")
        return binding_error_batch(args[0], args[1], dialect, binding=binding)

    return jms_selector_error


def source_struct(columns):
    """``struct(`c1`, `c2`, …)`` of top-level columns (a placeholder field when there are none)."""
    from pyspark.sql import functions as F

    if not columns:
        return F.struct(F.lit(None).cast("boolean").alias("_"))
    return F.struct(*[F.col(sql_identifier(c)) for c in columns])


def source_args(columns) -> list:
    """The top-level ``columns`` as separate UDF arguments (one NULL placeholder when there are
    none: Spark has no zero-argument Arrow UDF). `selector_udf` and `routing_udf` take them so:
    the same hand-written Arrow UDF over 10M rows took 0.1-0.6 s longer with ``struct(...)`` of 3
    columns and 0.7-1.2 s (~10 %) with 6 (Spark builds and serializes the struct)."""
    from pyspark.sql import functions as F

    if not columns:
        return [F.lit(None).cast("boolean")]
    return [F.col(sql_identifier(c)) for c in columns]


def _message(arrays, columns) -> pa.StructArray:
    """The rows of the UDF's arguments (see `source_args`) as one struct array, zero-copy."""
    arrays = [_as_array(a) for a in arrays]
    return pa.StructArray.from_arrays(arrays, names=list(columns) or ["_"])


def piece_udf(piece):
    """A three-valued Arrow UDF for one piece of a compiled selector (`compiler.Piece`):
    ``(udf, columns)``. Call ``udf(*source_args(columns))``: TRUE / FALSE / NULL (UNKNOWN) per
    row, so it composes with Spark's own Kleene AND / OR / NOT. Only the columns the piece reads
    cross to Python."""
    from pyspark.sql.functions import arrow_udf

    compiled = _Compiled(piece.bound, piece)
    columns = list(piece.source_columns())

    @arrow_udf("boolean")
    def jms_fallback(*arrays: pa.Array) -> pa.Array:
        return _evaluate(compiled, _message(arrays, columns), {})

    return jms_fallback, columns


def routing_udf(named_pieces, *, gates: "Sequence | None" = None):
    """One Arrow UDF evaluating several pieces of compiled selectors over the same rows:
    ``(udf, columns)``.

    ``named_pieces``: ``[(name, compiler.Piece)]``. Call ``udf(*source_args(columns))``; per row it
    returns the names of the pieces that are TRUE, in the given order. Only the columns the pieces
    read cross to Python, once.

    ``gates``: per piece, the position of its gate among ``g`` leading boolean arguments, or
    None (no gate); call ``udf(gate_0, …, gate_g-1, *args)``. A piece is evaluated only on the
    rows where its gate is TRUE (elsewhere it cannot match: the caller knows, e.g. the native
    conjuncts route split off, `compiler.Compiled.conjuncts`) and gets no name on the others. The
    rows no piece needs are dropped before any column is read (the caller may send them as
    NULLs); each piece reads its own gated rows of the columns extracted once for the batch.
    """
    from pyspark.sql.functions import arrow_udf

    bounds = [(name, _Compiled(piece.bound, piece)) for name, piece in named_pieces]
    columns = list(dict.fromkeys(c for _, piece in named_pieces for c in piece.source_columns()))
    names = pa.array([name for name, _ in bounds], pa.string())
    gate_of = list(gates) if gates is not None else [None] * len(bounds)
    if len(gate_of) != len(bounds):
        raise ValueError(f"{len(gate_of)} gates for {len(bounds)} selectors")
    n_gates = max((g + 1 for g in gate_of if g is not None), default=0)
    all_gated = bool(bounds) and all(g is not None for g in gate_of)

    @arrow_udf("array<string>")
    def jms_route(*arrays: pa.Array) -> pa.Array:
        masks = [pc.fill_null(_as_array(g), False).to_numpy(zero_copy_only=False) for g in arrays[:n_gates]]
        message = _message(arrays[n_gates:], columns)
        n = len(message)
        keep = None
        if all_gated:  # rows no selector's gate lets through are not read at all
            keep = np.flatnonzero(np.logical_or.reduce(masks)) if masks else np.zeros(0, np.int64)
            message = message.take(pa.array(keep, pa.int64()))
            masks = [m[keep] for m in masks]
        m = len(message)
        rows_of = [np.flatnonzero(mask) for mask in masks]
        hits = np.zeros((len(bounds), m), dtype=bool)
        cache: dict = {}
        for k, (_, compiled) in enumerate(bounds):
            g = gate_of[k]
            idx = None if g is None or len(rows_of[g]) == m else rows_of[g]
            if idx is not None and not len(idx):
                continue
            if compiled.root is None:
                hits[k, slice(None) if idx is None else idx] = True
                continue
            cols = extract_columns(compiled.refs, message, cache)
            if idx is not None:
                cols = take_rows(cols, pa.array(idx, pa.int64()))
            got = compiled.evaluate(cols, m if idx is None else len(idx))
            hits[k, slice(None) if idx is None else idx] = got.fill_null(False).to_numpy(zero_copy_only=False)
        rows, ks = np.nonzero(hits.T)
        if keep is not None:
            rows = keep[rows]  # back to the batch's row numbers (ascending, as nonzero gives them)
        offsets = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
        return pa.ListArray.from_arrays(pa.array(offsets), names.take(pa.array(ks, pa.int64())))

    return jms_route, columns
