"""Count the calls of the package's pipeline stages made by a piece of code (issue: compile once).

`count_calls` profiles the current thread (`sys.setprofile`) and counts each call of a function of
``jms_selector_spark`` whose name is one of ``names`` — a call made by the same function (a
recursion) is not counted, so a stage counts once per use whatever the tree's size.
"""
from __future__ import annotations

import collections
import contextlib
import sys
from pathlib import Path

import jms_selector_spark

PACKAGE = str(Path(jms_selector_spark.__file__).resolve().parent)
#: The pipeline's stages (``JmsType.parse``, which reads a type name, is not one of them).
STAGES = ("parse", "parse_selector", "bind", "lower", "lower_selector")
NOT_STAGES = frozenset({"types:parse"})


@contextlib.contextmanager
def count_calls(names=STAGES):
    """Yields a `collections.Counter` of ``name -> calls`` (and ``"module:name" -> calls``),
    filled while the block runs."""
    counts = collections.Counter()
    wanted = frozenset(names)

    def profile(frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        if code.co_name not in wanted or not code.co_filename.startswith(PACKAGE):
            return
        caller = frame.f_back
        key = f"{Path(code.co_filename).stem}:{code.co_name}"
        if (caller is not None and caller.f_code is code) or key in NOT_STAGES:
            return
        counts[code.co_name] += 1
        counts[key] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield counts
    finally:
        sys.setprofile(previous)
