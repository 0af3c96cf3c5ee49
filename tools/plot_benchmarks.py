"""Draw the Performance page's plots from the benchmarks' JSON output.

    make plots                                   # from docs/performance/data/*.json (committed)
    make plots PLOTS_ARGS="--from-results bench-data/results"   # after a fresh make bench

``--from-results DIR`` first copies ``native.json`` and ``route_matrix.json`` from DIR (where
``benchmarks/bench_native.py`` and ``benchmarks/bench_route.py --matrix`` write them) into
``docs/performance/data/``, so the committed figures and the plots always go together. It draws:

- ``docs/performance/native-filter.png``: per selector, the median wall time of `jms_filter` and
  of the hand-written Spark SQL filter (bars), every timed run (dots), and the ratio;
- ``docs/performance/route-by-subscriptions.png``: `route`'s topic pass by number of
  subscriptions, the routing plan against the single-CASE plan (one ``CASE WHEN`` per
  subscription), in CPU seconds (JVM + Python workers) and wall seconds, log-log.

Needs matplotlib (the ``docs`` extra). The PNGs carry no timestamp, so redrawing the same data
gives the same files.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "performance"
DATA = OUT / "data"
FILES = ("native.json", "route_matrix.json")


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _load_text(d: dict) -> str:
    start, end = d.get("loadavg_start"), d.get("loadavg_end")
    return f"load average {start[0]:.1f} → {end[0]:.1f} on {d.get('cpus', '?')} CPUs" if start and end else ""


def plot_native(plt) -> Path:
    d = _load("native.json")
    sel = d["selectors"]
    names = [s["name"] for s in sel]
    fig, ax = plt.subplots(figsize=(9, 4.2), dpi=110)
    width = 0.38
    for i, s in enumerate(sel):
        for offset, key, color, label in ((-width / 2, "jms", "#3f51b5", "jms_filter"),
                                          (width / 2, "hand", "#9e9e9e", "hand-written WHERE")):
            ax.bar(i + offset, s[f"{key}_median_s"], width, color=color, label=label if i == 0 else None)
            runs = s[f"{key}_times_s"]
            ax.plot([i + offset] * len(runs), runs, "o", ms=3, color="black", alpha=0.6,
                    label="each timed run" if i == 0 and key == "jms" else None)
        top = max(s["jms_times_s"] + s["hand_times_s"])
        ax.text(i, top * 1.04, f"{s['ratio_hand_over_jms']:.2f}", ha="center", fontsize=8)
    ax.set_xticks(range(len(names)), names, rotation=15, fontsize=8)
    ax.set_ylabel("wall seconds (median of the runs)")
    ax.set_ylim(0, max(max(s["jms_times_s"] + s["hand_times_s"]) for s in sel) * 1.3)
    ax.set_title(f"jms_filter vs the hand-written filter, {d['rows_total']:,} messages "
                 f"(numbers: hand / jms of the medians)", fontsize=10)
    ax.legend(fontsize=8, loc="upper center", ncol=3)
    fig.text(0.01, 0.01, f"benchmarks/bench_native.py --rows {d['rows_total']} --reps {d['reps']}; "
             f"Spark {d['spark']}, noop sink; {_load_text(d)}", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    path = OUT / "native-filter.png"
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def plot_route(plt) -> Path:
    from matplotlib import ticker

    d = _load("route_matrix.json")
    rows = [r for r in d["variants"] if r["kind"] == "realistic" and r["hugeMethodLimit"] is None]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), dpi=110)
    styles = {"indexed": ("routing plan (route)", "#3f51b5", "o-"),
              "baseline": ("single-CASE plan", "#e65100", "s--")}
    for ax, key, label in ((axes[0], "cpu_median_s", "CPU seconds (JVM + Python)"),
                           (axes[1], "median_s", "wall seconds")):
        for plan, (name, color, fmt) in styles.items():
            pts = sorted((r["subs"], r[key]) for r in rows if r["plan"] == plan and r.get(key) is not None)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], fmt, color=color, label=name)
                below = plan == "indexed"
                for x, y in pts:
                    ax.annotate(f"{y:.1f}", (x, y), textcoords="offset points", xytext=(0, -11 if below else 6),
                                ha="center", fontsize=7, color=color)
        ax.set_xscale("log")
        ax.set_yscale("log")
        counts = sorted({r["subs"] for r in rows})
        ax.set_xticks(counts, [f"{c:,}" for c in counts])
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        plain = ticker.FuncFormatter(lambda v, _: f"{v:g}")
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(plain)
        ax.tick_params(axis="y", which="minor", labelsize=7)
        ax.margins(y=0.12)
        ax.set_xlabel("subscriptions")
        ax.set_ylabel(label)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8)
    sel = " at equal per-subscription selectivity" if d.get("equal_selectivity") else ""
    fig.suptitle(f"route(mode='topic') over {d['rows_total']:,} messages by number of subscriptions{sel}",
                 fontsize=10)
    fig.text(0.01, 0.01, f"benchmarks/bench_route.py --matrix, medians of {d['reps']} rounds after a cold run; "
             f"Spark {d['spark']}, noop sink; {_load_text(d)}", fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    path = OUT / "route-by-subscriptions.png"
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from-results", metavar="DIR", default=None,
                    help="copy native.json and route_matrix.json from DIR into docs/performance/data first")
    args = ap.parse_args(argv)
    if args.from_results:
        DATA.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            shutil.copyfile(Path(args.from_results) / name, DATA / name)
            print(f"copied {Path(args.from_results) / name} -> {DATA / name}")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for draw in (plot_native, plot_route):
        print(f"wrote {draw(plt).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
