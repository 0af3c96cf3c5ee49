"""The shared vocabulary every stage speaks: JMS types (`types`), the data model of a message
table (`data_model`, `schema`), the dialects (`dialects`), the selector tree (`nodes`), source
positions (`source`), errors (`errors`) and the tree visitor (`visitor`).

It imports nothing else from the package; the front end (text → tree) and the semantics (tree →
core) are siblings above it.
"""
