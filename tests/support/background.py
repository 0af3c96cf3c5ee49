"""Whole programs some tests check — the examples, the real-broker harness, ``spark-submit`` —
started when the session starts and run in the background while the pure-Python tests run.

Each of those runs is seconds of JVM time with nothing for the test process to do meanwhile. A
test module that has such runs defines ``start_background(background, tmp_path_factory, items)``
(``items``: its selected tests); `tests/conftest.py` calls it once, before the first test, and
runs the pure-Python tests first. Each test then waits for its own run (`Background.result`),
which also starts the run there if nothing started it before (a test run on its own).
"""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

__all__ = ["Background"]


class Background:
    """Keyed runs on a small thread pool (each run a subprocess: the threads only wait)."""

    def __init__(self, workers: int = 2):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="background")
        self._runs: dict = {}
        self._folders: dict = {}

    def folder(self, key, tmp_path_factory):
        """The temporary folder of the run of ``key`` (made once per session)."""
        if key not in self._folders:
            self._folders[key] = tmp_path_factory.mktemp("-".join(map(str, key)).replace(".", "_"))
        return self._folders[key]

    def submit(self, key, fn, *args) -> Future:
        """Start ``fn(*args)`` under ``key`` unless a run of that key was started already."""
        if key not in self._runs:
            self._runs[key] = self._pool.submit(fn, *args)
        return self._runs[key]

    def result(self, key, fn, *args):
        """The result of the run of ``key`` (started here, now, if it was not)."""
        return self.submit(key, fn, *args).result()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
