"""Back ends: each turns a bound selector into something that runs (SQL text, Arrow results)."""
