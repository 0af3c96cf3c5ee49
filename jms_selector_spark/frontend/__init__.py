"""The front end: selector text → tokens → a checked, immutable AST (`selector.parse`)."""
