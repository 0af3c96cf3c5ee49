"""The ``jms-selector`` command line: `main` (the entry point), in `commands`."""
from .commands import main

__all__ = ["main"]
