"""Each entry point parses, binds and lowers a selector once (`compiler.compile_selector`): the
package's functions named after those stages are called at most once per call (counted by
`call_counts.count_calls`, recursion not counted)."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from call_counts import count_calls

SELECTOR = "JMSType = 'car' AND weight > 2500 AND INLIST(SPLIT(region, '-'), 'EU')"
NATIVE = "JMSType = 'car' AND weight > 2500 AND region LIKE 'EU-%'"
SCHEMA = {"JMSType": "string", "weight": "long", "region": "string"}


def _each_at_most_once(counts):
    stages = {k: v for k, v in counts.items() if ":" in k}
    assert stages, "no stage ran: the counter sees nothing"
    assert all(v <= 1 for v in stages.values()), stages
    return stages


@pytest.mark.parametrize("entry", [
    lambda: jss.selector_to_sql(NATIVE, SCHEMA, dialect="activemq"),
    lambda: jss.explain_filter(SELECTOR, SCHEMA, dialect="activemq"),
    lambda: jss.compile_selector(SELECTOR, SCHEMA, dialect="activemq").explain(),
], ids=["selector_to_sql", "explain_filter", "compile_selector.explain"])
def test_an_entry_point_runs_each_stage_once(entry):
    from jms_selector_spark.frontend.selector import parse_selector

    parse_selector.cache_clear()
    with count_calls() as counts:
        entry()
    stages = _each_at_most_once(counts)
    assert {"parsing:parse", "binder:bind", "lowering:lower_selector"} <= set(stages), stages


def test_the_counter_counts_every_call():
    """Two compilations count two of each (the counter is not blind to repeats)."""
    from jms_selector_spark.frontend.selector import parse_selector

    parse_selector.cache_clear()
    with count_calls() as counts:
        jss.selector_to_sql(NATIVE, SCHEMA, dialect="activemq")
        jss.selector_to_sql("weight > 1", SCHEMA, dialect="activemq")
    assert counts["binder:bind"] == 2 and counts["lowering:lower_selector"] == 2, counts
