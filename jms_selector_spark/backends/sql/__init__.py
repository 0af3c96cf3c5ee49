"""The Spark SQL back end: a bound, lowered selector → a WHERE fragment with exact JMS semantics.

`generator` drives the translation (columns, sharing of repeated operands, truth, VARIANT
expansion); `render` holds the text of values, literals, names and the Kleene combinators;
`compare`, `arithmetic` and `logic` render the core nodes of each kind; `javanum` Java's number
parsing; `limits` the nesting Spark's parser takes.
"""
