"""`jms_filter`, `selector_to_column`, `register_selector` and `route` compile each selector once on
the driver (`call_counts.count_calls`); their results are checked against the reference."""
from __future__ import annotations

import pytest

import jms_selector_spark as jss
from call_counts import count_calls

pytestmark = pytest.mark.spark

SELECTOR = "JMSType = 'car' AND weight > 2500 AND INLIST(SPLIT(region, '-'), 'EU')"
ROWS = [("car", 3000, "EU-West"), ("car", 3000, "US-East"), ("car", 10, "EU-North"), ("bike", 9000, "EU"),
        (None, 3000, "EU-West"), ("car", None, "EU")]


@pytest.fixture(scope="module")
def messages(spark):
    return spark.createDataFrame(ROWS, "JMSType STRING, weight LONG, region STRING")


def _expected(selector):
    return [r for r in ROWS if jss.evaluate(selector, {"JMSType": r[0]}, {"weight": r[1], "region": r[2]},
                                            dialect="activemq", types={"weight": "long"}) is True]


def _stages(counts):
    return {k: v for k, v in counts.items() if ":" in k}


def test_jms_filter_parses_binds_and_lowers_once(messages):
    from jms_selector_spark.frontend.selector import parse_selector

    parse_selector.cache_clear()
    with count_calls() as counts:
        out = jss.jms_filter(messages, SELECTOR, dialect="activemq")
    stages = _stages(counts)
    assert stages["binder:bind"] == 1 and stages["lowering:lower_selector"] == 1, stages
    assert all(v <= 1 for v in stages.values()), stages
    assert sorted(map(tuple, out.collect()), key=repr) == sorted(_expected(SELECTOR), key=repr)


def test_route_binds_each_distinct_text_once(spark, messages):
    from jms_selector_spark.frontend.selector import parse_selector

    texts = [f"weight > {i * 100}" for i in range(40)] + [SELECTOR, "JMSType = 'car'", "region LIKE 'EU%'",
                                                            "JMSType IS NULL", "weight IS NULL"]
    subs = {f"s{i:02d}": texts[i % 45] for i in range(50)}   # 50 subscriptions, 45 distinct texts
    parse_selector.cache_clear()
    with count_calls() as counts:
        routed = jss.route(messages, subs, mode="topic", dialect="activemq")
    stages = _stages(counts)
    assert stages["binder:bind"] <= 45 and stages["lowering:lower_selector"] <= 45, stages
    assert stages["selector:parse_selector"] <= 45, stages
    got = {}
    for r in routed.where("outcome = 'delivered'").collect():
        got.setdefault(r["subscription"], set()).add((r["JMSType"], r["weight"], r["region"]))
    want = {name: set(_expected(text)) for name, text in subs.items() if _expected(text)}
    assert got == want
