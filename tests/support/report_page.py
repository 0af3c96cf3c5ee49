"""Reading the estate report's HTML page back, as the tests compare it with `route_report`'s dict,
and rendering it in headless Chromium as a person would see it."""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
from html.parser import HTMLParser

#: Chromium's names on Debian, Ubuntu and elsewhere.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> "str | None":
    """The path of a Chromium binary, or None."""
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(html_path, png_path, *, width: int = 1280, height: int = 2000, timeout: float = 90) -> bytes:
    """Render ``html_path`` with headless Chromium into ``png_path`` (within ``timeout`` seconds);
    the PNG's bytes. The page is opened from the file with the network off."""
    exe = chromium()
    if exe is None:
        raise RuntimeError("no chromium binary")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-extensions",
           "--no-first-run", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
           f"--screenshot={os.fspath(png_path)}", f"--window-size={width},{height}",
           "file://" + os.path.abspath(os.fspath(html_path))]
    with tempfile.TemporaryDirectory(prefix="chromium-") as home:  # its profile and caches, not beside the PNG
        subprocess.run(cmd + [f"--user-data-dir={home}"], capture_output=True, timeout=timeout, check=False,
                       env={**os.environ, "HOME": home})
    with open(png_path, "rb") as f:
        return f.read()


def png_size(data: bytes) -> tuple:
    """(width, height) of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def png_colours(path) -> int:
    """How many distinct colours the PNG at ``path`` holds (Pillow): a blank page has one or two,
    the report dozens (text anti-aliasing, the heatmap's shades, the bars)."""
    from PIL import Image

    with Image.open(path) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    return len(colours or ())


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []  # (tag, {attribute: value})
        self.scripts = 0
        self.external = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.elements.append((tag, attrs))
        if tag == "script":
            self.scripts += 1
        for key in ("src", "href"):
            if attrs.get(key):
                self.external.append(attrs[key])


def read_page(html: str) -> dict:
    """The figures a page shows, from its ``data-*`` attributes: ``{"subscriptions": {name:
    {outcome: n}}, "unassigned": {outcome: n}, "sparklines": {name: [counts]}, "reasons": [...],
    "cells": {(a, b): both}, "pairs": [...], "contained": [...], "never": [...], "lint": {name:
    count}, "figures": {key: value}, "scripts": n, "external": [src/href]}``."""
    p = _Collector()
    p.feed(html)
    out = {"subscriptions": {}, "unassigned": None, "sparklines": {}, "reasons": [], "cells": {}, "pairs": [],
           "contained": [], "never": [], "lint": {}, "figures": {}, "scripts": p.scripts, "external": p.external}
    outcomes = ("delivered", "dead_letter", "remains_queued", "dropped")
    row = None
    for tag, a in p.elements:
        if tag == "tr" and "data-reason" in a:
            out["reasons"].append({"subscription": a["data-subscription"], "conjunct": a["data-conjunct"] or None,
                                   "value": a["data-value"], "null": [x for x in a["data-null"].split(",") if x],
                                   "messages": int(a["data-messages"])})
        elif tag == "tr" and "data-pair" in a:
            out["pairs"].append({"a": a["data-a"], "b": a["data-b"], "both": int(a["data-both"]),
                                 "jaccard": float(a["data-jaccard"])})
        elif tag == "tr" and "data-contained" in a:
            out["contained"].append({"subscription": a["data-subscription"], "within": a["data-within"],
                                     "messages": int(a["data-messages"]), "same": a["data-same"] == "true"})
        elif tag == "tr" and "data-subscription" in a:
            row = a["data-subscription"]
            out["subscriptions"][row] = {o: int(a["data-" + o.replace("_", "-")]) for o in outcomes}
        elif tag == "tr" and "data-unassigned" in a:
            row = None
            out["unassigned"] = {o: int(a["data-" + o.replace("_", "-")]) for o in outcomes}
        elif tag == "svg" and "data-counts" in a:
            counts = [int(x) for x in a["data-counts"].split(",") if x != ""]
            out["sparklines"][row if row is not None else None] = counts
        elif tag == "rect" and "data-both" in a:
            out["cells"][(a["data-a"], a["data-b"])] = int(a["data-both"])
        elif tag == "code" and "data-never" in a:
            out["never"].append(a["data-never"])
        elif tag == "div" and "data-lint" in a:
            out["lint"][a["data-lint"]] = int(a["data-count"])
        elif "data-figure" in a:
            out["figures"][a["data-figure"]] = int(a["data-value"]) if a["data-value"] else None
    return out


def expected_page(report: dict) -> dict:
    """What `read_page` must find on the page of ``report`` (a `route_report` dict)."""
    outcomes = ("delivered", "dead_letter", "remains_queued", "dropped")
    out = {"subscriptions": {k: {o: v[o] for o in outcomes} for k, v in report["subscriptions"].items()},
           "unassigned": {o: report["unassigned"][o] for o in outcomes}}
    vol = report.get("volume")
    if vol:
        out["sparklines"] = {k: vol["subscriptions"].get(k, [0] * vol["buckets"]) for k in report["subscriptions"]}
        out["sparklines"][None] = vol["unassigned"]
    ov = report.get("overlap")
    if ov:
        out["cells"] = {(a, b): ov["both"][i][j] for i, a in enumerate(ov["busiest"]) for j, b in enumerate(ov["busiest"])}
        out["pairs"] = ov["pairs"][:15]
        out["contained"] = [{k: c[k] for k in ("subscription", "within", "messages", "same")} for c in ov["contained"]]
    if "never_matching" in report:
        out["never"] = report["never_matching"]
    if "lint" in report:
        out["lint"] = {k: len(v) for k, v in report["lint"].items()}
    dead = report.get("dead_letters")
    if dead is not None:
        out["reasons"] = [{k: r[k] for k in ("subscription", "conjunct", "value", "null", "messages")}
                          for r in dead["reasons"]]
        out["unreceived"] = dead["messages"]
    return out
