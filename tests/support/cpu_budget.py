"""CPU-time budgets for tests: what a bound on work measures on a shared machine (wall time grows
with other people's load; the CPU seconds of the process doing the work barely do)."""
from __future__ import annotations

import os


def jvm_cpu_seconds(spark) -> "float | None":
    """User + system CPU seconds the local session's JVM has used so far (its ``/proc`` entry), or
    None where that cannot be read (a remote session, no ``/proc``)."""
    proc = getattr(getattr(spark.sparkContext, "_gateway", None), "proc", None)
    pid = getattr(proc, "pid", None)
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
