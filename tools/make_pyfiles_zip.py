"""Build the zip for ``spark-submit --py-files``: the package plus its pure-Python dependency.

    python tools/make_pyfiles_zip.py dist      # → dist/jms_selector_spark-<version>-pyfiles.zip

Executors import from this zip (read-only): the package never writes files (PLY builds its tables
in memory). PLY is pure Python, so it goes in the zip too; pandas and pyarrow are compiled and
must be installed on the cluster's Python (they are wherever PySpark's Arrow support is).
"""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import ply

ROOT = Path(__file__).resolve().parents[1]


def _add_tree(zf: zipfile.ZipFile, src: Path, arc_root: str) -> int:
    count = 0
    for path in sorted(src.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        zf.write(path, f"{arc_root}/{path.relative_to(src).as_posix()}")
        count += 1
    return count


def build(out_dir: Path) -> Path:
    sys.path.insert(0, str(ROOT))
    from jms_selector_spark import __version__

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"jms_selector_spark-{__version__}-pyfiles.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        n = _add_tree(zf, ROOT / "jms_selector_spark", "jms_selector_spark")
        n += _add_tree(zf, Path(ply.__file__).parent, "ply")
    print(f"{target} ({n} modules, {target.stat().st_size:,} bytes)")
    return target


if __name__ == "__main__":
    build(Path(sys.argv[1] if len(sys.argv) > 1 else "dist"))
