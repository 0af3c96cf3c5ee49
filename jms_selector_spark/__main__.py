"""``python -m jms_selector_spark``: the ``jms-selector`` command line (see `cli`)."""
from .cli.commands import main

if __name__ == "__main__":
    raise SystemExit(main())
