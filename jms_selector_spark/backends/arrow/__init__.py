"""The vectorized back end: a lowered selector evaluated over Arrow arrays, three-valued.

`evaluator` walks the core tree (`VectorizedEvaluator`, `evaluate_batch`); `columns` extracts the
values a selector reads from a message struct; `values` holds the per-type unions of values;
`compare` and `arithmetic` the kernels; `javanum` Java's number parsing over arrays.
"""
