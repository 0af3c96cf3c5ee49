"""arrow."""
