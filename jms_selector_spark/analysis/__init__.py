"""Tools over selectors and dialects: `lint`, `compare_dialects`, the dialect table."""
