"""Take the docs' picture of the estate report: headless Chromium renders an HTML report to a PNG.

    make demo DEMO_ARGS="--rows 100000 --report out/demo/report.html"
    .venv/bin/python tools/report_screenshot.py out/demo/report.html docs/guide/report.png

Chromium (``chromium``, ``chromium-browser`` or ``google-chrome`` on the PATH; Debian: ``apt-get
install chromium``) opens the file with the network off (a proxy that does not exist) and writes
a ``--width`` × ``--height`` screenshot; the page needs nothing from the network anyway.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from report_page import chromium, png_size, screenshot  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("html", help="the report (route_report(..., html=...) or jms-selector report --html)")
    ap.add_argument("png", help="the screenshot to write")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=2150)
    args = ap.parse_args(argv)
    if chromium() is None:
        print("no chromium binary on the PATH (Debian: apt-get install chromium)", file=sys.stderr)
        return 1
    png = screenshot(args.html, args.png, width=args.width, height=args.height)
    print(f"{args.png}: {png_size(png)[0]}x{png_size(png)[1]}, {len(png):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
