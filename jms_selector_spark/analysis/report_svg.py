"""The estate report's pictures as inline SVG text: sparklines, bars and the overlap heatmap.

Pure Python, no dependency: each function returns one ``<svg>`` element as a string, with every
user string escaped (`html.escape`) and a ``<title>`` a screen reader (and a mouse hover) reads.
The numbers drawn are also in ``data-*`` attributes, so a test reads them back.
"""
from __future__ import annotations

from html import escape

__all__ = ["sparkline", "bar", "heatmap", "heat_colour"]


def _num(x) -> str:
    return f"{x:,}" if isinstance(x, int) else str(x)


def sparkline(counts: list, *, width: int = 168, height: int = 28, label: str = "") -> str:
    """Columns of ``counts`` (one per time bucket) scaled to the largest, in one small SVG.

    >>> s = sparkline([0, 2, 4], label="cars")
    >>> s.startswith("<svg") and 'data-counts="0,2,4"' in s
    True
    """
    top = max(counts) if counts else 0
    n = max(1, len(counts))
    step = width / n
    bars = []
    for i, c in enumerate(counts):
        if c <= 0:
            continue
        h = max(1.0, (height - 2) * c / top)
        bars.append(f'<rect x="{i * step:.1f}" y="{height - h:.1f}" width="{max(1.0, step - 1):.1f}" height="{h:.1f}"/>')
    title = f"{label}: " if label else ""
    title += f"peak {_num(top)} per bucket, {_num(sum(counts))} in all"
    return (f'<svg class="spark" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'data-counts="{",".join(str(c) for c in counts)}"><title>{escape(title)}</title>'
            f'<line x1="0" y1="{height - 0.5}" x2="{width}" y2="{height - 0.5}" class="axis"/>{"".join(bars)}</svg>')


def bar(value: int, largest: int, *, width: int = 120, height: int = 12, cls: str = "bar") -> str:
    """One horizontal bar, ``value`` of ``largest``.

    >>> bar(5, 10)[:4]
    '<svg'
    """
    w = 0 if largest <= 0 else max(1.0, width * value / largest) if value else 0
    return (f'<svg class="{escape(cls)}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'data-value="{value}"><rect width="{w:.1f}" height="{height}"/></svg>')


def heat_colour(share: float) -> str:
    """An RGB colour from white (0) to deep blue (1).

    >>> heat_colour(0.0), heat_colour(1.0)
    ('rgb(255,255,255)', 'rgb(30,64,175)')
    """
    share = min(1.0, max(0.0, share))
    r, g, b = (round(255 + (t - 255) * share) for t in (30, 64, 175))
    return f"rgb({r},{g},{b})"


def heatmap(names: list, both: list, *, cell: int = 28, label_width: int = 150) -> str:
    """The ``names`` × ``names`` matrix ``both`` (messages both received; the diagonal: each one's
    deliveries), each cell coloured by the pair's Jaccard index (both / either), with its counts
    in its ``<title>`` and ``data-*`` attributes.

    >>> h = heatmap(["a", "b"], [[4, 2], [2, 3]])
    >>> 'data-a="a" data-b="b" data-both="2"' in h
    True
    """
    n = len(names)
    width = label_width + n * cell + label_width // 2 + 4  # the column labels lean right
    height = label_width + n * cell + 4
    out = [f'<svg class="heat" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
           f'<title>messages both subscriptions received, coloured by the Jaccard index</title>']
    for i, name in enumerate(names):
        short = name if len(name) <= 24 else name[:23] + "\u2026"
        y = label_width + i * cell + cell * 0.65
        out.append(f'<text x="{label_width - 6}" y="{y:.1f}" text-anchor="end">{escape(short)}</text>')
        x = label_width + i * cell + cell * 0.65
        out.append(f'<text x="{x:.1f}" y="{label_width - 6}" transform="rotate(-60 {x:.1f} {label_width - 6})">'
                   f'{escape(short)}</text>')
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            value = both[i][j]
            if i == j:
                share, fill, what = 1.0, "#e5e7eb", f"{a}: {_num(value)} messages"
            else:
                either = both[i][i] + both[j][j] - value
                share = value / either if either else 0.0
                fill = heat_colour(share)
                what = f"{a} and {b}: {_num(value)} messages both (Jaccard {share:.2f})"
            x, y = label_width + j * cell, label_width + i * cell
            out.append(f'<rect x="{x}" y="{y}" width="{cell - 1}" height="{cell - 1}" fill="{fill}" '
                       f'data-a="{escape(a)}" data-b="{escape(b)}" data-both="{value}"><title>{escape(what)}</title></rect>')
            if i != j and value:
                colour = "#fff" if share > 0.55 else "#111"
                text = f"{share:.0%}" if share < 1 else "100"
                out.append(f'<text x="{x + (cell - 1) / 2:.1f}" y="{y + cell * 0.62:.1f}" text-anchor="middle" '
                           f'class="cell" fill="{colour}">{text.rstrip("%")}</text>')
    out.append("</svg>")
    return "".join(out)
