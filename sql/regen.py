"""Regenerate the golden translations on purpose: ``python sql/regen.py`` (or ``make golden``).

    python sql/regen.py                    # rewrite sql/golden/*.sql with today's translations
    python sql/regen.py --check            # write nothing; exit 1 if a golden file is out of date
    python sql/regen.py sql/golden/jms_flat.sql ...   # only these files

Each case keeps its name, comments and selector; its expected fragment (or ``-- raises:``) is
replaced by what `selector_to_sql` gives now, and every case that changed is listed, so the
change can be reviewed in ``git diff sql/golden`` before it is committed. To add a case, write
its ``-- name:`` and ``-- selector:`` lines (no fragment) and run this. The tests never
regenerate: they compare (tests/test_sql_golden.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # the package of this checkout, even when not installed

import golden_format as gfmt  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, help="golden files (default: sql/golden/*.sql)")
    ap.add_argument("--check", action="store_true", help="report out-of-date files, write nothing")
    args = ap.parse_args(argv)
    paths = [p.resolve() for p in args.files] or sorted(gfmt.GOLDEN_DIR.glob("*.sql"))
    stale = 0
    for path in paths:
        old = gfmt.load(path)
        new = gfmt.regenerate(old)
        text = gfmt.render(new)
        if gfmt.load(path, text) != new:
            raise SystemExit(f"{path}: rendering does not read back the same cases")
        changed = [c.name for c, o in zip(new.cases, old.cases) if (c.fragment, c.raises) != (o.fragment, o.raises)]
        shown = path.relative_to(HERE.parent) if path.is_relative_to(HERE.parent) else path
        if path.read_text(encoding="utf-8") == text:
            print(f"{shown}: {len(new.cases)} cases, up to date")
            continue
        stale += 1
        print(f"{shown}: {len(new.cases)} cases, {len(changed)} changed"
              + ("" if args.check else ", rewritten"))
        for name in changed:
            print(f"  {name}")
        if not args.check:
            path.write_text(text, encoding="utf-8")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
