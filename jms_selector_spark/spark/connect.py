"""Spark Connect: ship this package to the session's Python workers, in one call.

Over Spark Connect (``SparkSession.builder.remote(...)``) every entry point works as in a
classic session — native SQL needs nothing on the server — but every Python UDF (the vectorized
fallback, ``jms_match``, fallback subscriptions in ``route``) runs in the *server's* Python
workers, which must be able to import ``jms_selector_spark``. Unless the server's Python has it
installed, ship it first::

    from jms_selector_spark import connect
    spark = SparkSession.builder.remote("sc://host:15002").getOrCreate()
    connect.ship(spark)          # before the first UDF is registered or used
    register(spark)              # jms_match & co.

`ship` builds the same zip as ``make dist``'s ``--py-files`` zip (the package and PLY, its only
pure-Python dependency) in a temporary folder and adds it with
``spark.addArtifacts(zip, pyfile=True)``; the server puts it on its workers' ``sys.path`` for
this session. The workers still need pandas and pyarrow, as PySpark's Arrow UDFs do.

Nothing here imports pyspark: the session is only used through ``addArtifacts``.
"""
from __future__ import annotations

import hashlib
import io
import tempfile
import zipfile
from pathlib import Path

from .._version import __version__

__all__ = ["ship", "pyfiles_zip_bytes", "write_pyfiles_zip", "is_connect_session"]

#: A fixed timestamp for every zip entry, so the same sources make the same bytes (and name).
_EPOCH = (2020, 1, 1, 0, 0, 0)


def _trees():
    import ply

    package = Path(__file__).resolve().parents[1]  # this package's own folder
    for src, arc_root in ((package, "jms_selector_spark"), (Path(ply.__file__).parent, "ply")):
        if not src.is_dir():
            raise RuntimeError(f"cannot zip {arc_root}: it is not imported from a folder ({src})")
        yield src, arc_root


def pyfiles_zip_bytes() -> bytes:
    """The ``--py-files`` zip (this package and PLY, ``*.py`` only), built in memory.

    Deterministic: the same sources give the same bytes.
    """
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for src, arc_root in _trees():
            for path in sorted(src.rglob("*.py")):
                if "__pycache__" in path.parts:
                    continue
                info = zipfile.ZipInfo(f"{arc_root}/{path.relative_to(src).as_posix()}", _EPOCH)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, path.read_bytes())
    return buf.getvalue()


def write_pyfiles_zip(out_dir, name: "str | None" = None) -> Path:
    """Write `pyfiles_zip_bytes` to ``out_dir/name`` (default
    ``jms_selector_spark-<version>-pyfiles.zip``) and return the path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / (name or f"jms_selector_spark-{__version__}-pyfiles.zip")
    target.write_bytes(pyfiles_zip_bytes())
    return target


def is_connect_session(spark) -> bool:
    """True for a Spark Connect session (``pyspark.sql.connect.session.SparkSession``)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def ship(spark) -> str:
    """Add this package (and PLY) to a Spark Connect session's Python workers.

    Call it once per session, before the first UDF runs (``register``, ``jms_match``,
    ``jms_filter``/``route`` with a fallback selector). Shipping the same sources again is a
    no-op on the server (the artifact's name is its content hash).

    Parameters
    ----------
    spark : pyspark.sql.connect.session.SparkSession

    Returns
    -------
    str
        The artifact's file name, ``jms_selector_spark-<version>-<sha256 prefix>.zip``.

    Raises
    ------
    TypeError
        ``spark`` is a classic session: there, use ``spark-submit --py-files`` with the zip of
        ``make dist``, or ``spark.sparkContext.addPyFile``.
    """
    if not is_connect_session(spark):
        raise TypeError(
            f"ship() is for Spark Connect sessions (SparkSession.builder.remote(...)), not {type(spark).__module__}."
            f"{type(spark).__name__}; a classic session takes the zip of `make dist` with spark-submit --py-files"
            " or spark.sparkContext.addPyFile")
    data = pyfiles_zip_bytes()
    name = f"jms_selector_spark-{__version__}-{hashlib.sha256(data).hexdigest()[:12]}.zip"
    with tempfile.TemporaryDirectory(prefix="jms_selector_spark-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        spark.addArtifacts(str(path), pyfile=True)
    return name
