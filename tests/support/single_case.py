"""The single-CASE plan: every native subscription's fragment in one array, the non-matches dropped.

What `route` ran before the routing plan (no index, no templates, no parts): one
``CASE WHEN <fragment> THEN '<name>' END`` per subscription in one array, NULLs removed by
``array_except``. Frozen here as the reference of the exactness tests and the benchmarks'
baseline, whatever the routing plan becomes.
"""
from __future__ import annotations

from jms_selector_spark.backends.sql.render import sql_string

__all__ = ["single_case_sql"]


def single_case_sql(fragments: dict) -> "str | None":
    """``{subscription name: native fragment}`` as one array of the matching names (unsorted);
    None when there are none."""
    if not fragments:
        return None
    cases = ", ".join(f"CASE WHEN ({f}) THEN {sql_string(nm)} END" for nm, f in fragments.items())
    return f"array_except(array({cases}), array(CAST(NULL AS STRING)))"
