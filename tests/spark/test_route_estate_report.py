"""`route_report(..., estate=True / html=...)`: the estate figures checked against a plain-Python
model of the routed rows and the reference interpreter `evaluate` (each conjunct of each selector
on each message nobody received), the page's figures against the dict, and the page of the demo's
archive rendered by headless Chromium."""
from __future__ import annotations

import collections
import importlib.util
import random
from pathlib import Path

import pytest

import jms_selector_spark as jss
from jms_selector_spark.analysis.conjuncts import top_level_conjuncts
from jms_selector_spark.spark.routing import Subscription, normalize_subscriptions, route, route_report
from report_page import chromium, expected_page, png_colours, png_size, read_page, screenshot

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[2]
DDL = ("JMSMessageID string, JMSTimestamp long, JMSType string, JMSPriority int, color string, weight long, "
       "region string")
NAMES = [c.split()[0] for c in DDL.split(", ")]
HEADERS = {"JMSMessageID", "JMSTimestamp", "JMSType", "JMSPriority"}


def _rows(n=160, seed=38):
    rnd = random.Random(seed)
    pick = lambda *xs: xs[rnd.randrange(len(xs))]  # noqa: E731
    return [(f"ID:{i:04d}", 10_000 + i * 250, pick("car", "truck", "bike", "alert", None), rnd.randrange(10),
             pick("blue", "red", None), pick(None, rnd.randrange(5000)), pick("EU-West", "EU-North", "US-East", None))
            for i in range(n)]


SUBS = [
    Subscription("cars", "JMSType = 'car'"),
    Subscription("heavy", "weight > 2500"),
    Subscription("heavy-blue-cars", "JMSType = 'car' AND color = 'blue' AND weight > 2500"),
    Subscription("eu-trucks", "JMSType = 'truck' AND region IN ('EU-West', 'EU-North') AND weight < 1000"),
    Subscription("late-bikes", "JMSType = 'bike'", subscribed_at=40_000),
    Subscription("ghost", "JMSType = 'alert' AND nosuch = 1"),
    Subscription("never", "JMSPriority > 100"),
    Subscription("same-as-cars", "JMSType = 'car' AND JMSType IS NOT NULL"),
    Subscription("broken", "color = 'blue' AND AND weight > 2500"),
]


def _message(row):
    values = dict(zip(NAMES, row))
    return ({k: v for k, v in values.items() if k in HEADERS and v is not None},
            {k: v for k, v in values.items() if k not in HEADERS and v is not None})


def _model_dead_letters(rows, received: set, subs, dialect="jms"):
    """The reasons, by `evaluate`: {(subscription, conjunct or None, value, nulls): messages}, and
    the messages on which no conjunct of any subscription is TRUE."""
    out, unattributed = collections.Counter(), 0
    created = [s for s in subs if not jss.subscription_errors([s], dialect=dialect)]
    for row in rows:
        if row[0] in received:
            continue
        headers, props = _message(row)
        best = None
        for i, s in enumerate(created):
            conj = top_level_conjuncts(jss.parse(s.selector, dialect=dialect))
            values = [jss.evaluate(c.text, headers, props, dialect=dialect) for c in conj]
            ntrue = sum(v is True for v in values)
            full = ntrue == len(conj)
            if not full and ntrue == 0:
                continue
            key = (full, ntrue, ntrue - len(conj), -i)
            if best is None or key > best[0]:
                first = next((k for k, v in enumerate(values) if v is not True), None)
                best = (key, s, conj, values, first)
        if best is None:
            unattributed += 1
            continue
        _, s, conj, values, first = best
        if first is None:
            out[(s.name, None, "TRUE", ())] += 1
            continue
        value = "FALSE" if values[first] is False else "UNKNOWN"
        nulls = tuple(n for n in conj[first].names if n in NAMES and dict(zip(NAMES, row))[n] is None) \
            if value == "UNKNOWN" else ()
        out[(s.name, conj[first].text, value, nulls)] += 1
    return out, unattributed


def _model_overlap(routed_rows, busiest):
    by_message = collections.defaultdict(set)
    for mid, sub, outcome in routed_rows:
        if outcome == "delivered":
            by_message[mid].add(sub)
    both = [[sum(1 for subs in by_message.values() if a in subs and b in subs) for b in busiest] for a in busiest]
    delivered = collections.defaultdict(set)
    for mid, subs in by_message.items():
        for s in subs:
            delivered[s].add(mid)
    contained = {(a, b) for a in busiest for b in busiest if a != b and delivered[a] <= delivered[b]}
    return both, contained


@pytest.fixture(scope="module")
def archive(spark):
    return spark.createDataFrame(_rows(), DDL)


@pytest.fixture(scope="module")
def topic_report(archive, tmp_path_factory):
    routed = route(archive, SUBS, mode="topic")
    path = tmp_path_factory.mktemp("report") / "report.html"
    report = route_report(routed, SUBS, mode="topic", html=path, buckets=8, top=6)
    rows = [(r["JMSMessageID"], r["subscription"], r["outcome"]) for r in routed.select(
        "JMSMessageID", "subscription", "outcome").collect()]
    return report, rows, path


def test_the_counts_are_those_of_the_plain_report(topic_report, archive):
    report, _, _ = topic_report
    plain = route_report(route(archive, SUBS, mode="topic"), SUBS, mode="topic")
    assert {k: report[k] for k in plain} == plain
    assert set(report) - set(plain) == set(jss.spark.routing.estate_report.ESTATE_KEYS)


def test_volume_per_subscription_over_time(topic_report):
    report, rows, _ = topic_report
    vol = report["volume"]
    times = {r[0]: r[1] for r in _rows()}
    assert vol["start"] == min(times.values())
    want = collections.defaultdict(lambda: [0] * vol["buckets"])
    for mid, sub, outcome in rows:
        if outcome == "delivered" or sub is None:
            want[sub][min((times[mid] - vol["start"]) // vol["bucket_ms"], vol["buckets"] - 1)] += 1
    assert vol["subscriptions"] == {k: v for k, v in want.items() if k is not None}
    assert vol["unassigned"] == want[None]


def test_overlap_and_containment_of_the_busiest(topic_report):
    report, rows, _ = topic_report
    ov = report["overlap"]
    delivered = collections.Counter(sub for _, sub, outcome in rows if outcome == "delivered")
    assert ov["busiest"] == sorted(delivered, key=lambda s: (-delivered[s], s))[:6]
    both, contained = _model_overlap(rows, ov["busiest"])
    assert ov["both"] == both
    got = {(c["subscription"], c["within"]) for c in ov["contained"]}
    # equal delivery sets are listed once
    assert got <= contained and {frozenset(p) for p in got} == {frozenset(p) for p in contained}
    assert ("heavy-blue-cars", "cars") in got and any(c["same"] for c in ov["contained"])
    for p in ov["pairs"]:
        i, j = ov["busiest"].index(p["a"]), ov["busiest"].index(p["b"])
        assert p["jaccard"] == round(both[i][j] / (both[i][i] + both[j][j] - both[i][j]), 4)


def test_never_matching_and_lint(topic_report):
    report, _, _ = topic_report
    assert report["never_matching"] == ["ghost", "never"]
    assert report["subscriptions"]["broken"]["error"] and "broken" not in report["lint"]
    assert any("nosuch" in w for w in report["lint"]["ghost"])


def test_dead_letter_reasons_equal_the_reference_interpreter(topic_report):
    report, rows, _ = topic_report
    received = {mid for mid, _, outcome in rows if outcome == "delivered"}
    want, unattributed = _model_dead_letters(_rows(), received, SUBS)
    dead = report["dead_letters"]
    assert dead["messages"] == len(_rows()) - len(received)
    assert dead["unattributed"] == unattributed
    got = {(r["subscription"], r["conjunct"], r["value"], tuple(r["null"])): r["messages"] for r in dead["reasons"]}
    assert got == dict(want)
    kinds = {(r["value"], bool(r["null"]), bool(r["missing"])) for r in dead["reasons"]}
    assert {("FALSE", False, False), ("UNKNOWN", True, False), ("TRUE", False, False)} <= kinds
    assert any(r["missing"] == ["nosuch"] for r in dead["reasons"] if r["subscription"] == "ghost")


def test_the_page_shows_the_dict(topic_report):
    report, _, path = topic_report
    page = read_page(path.read_text(encoding="utf-8"))
    want = expected_page(report)
    for key in ("subscriptions", "unassigned", "sparklines", "cells", "pairs", "contained", "never", "lint", "reasons"):
        assert page[key] == want[key], key
    assert page["figures"]["unreceived"] == report["dead_letters"]["messages"]
    assert page["scripts"] == 0 and page["external"] == []


def test_wso2_durable_copies_and_a_fallback_conjunct(archive):
    """WSO2's rules dead-letter each durable subscription's copy (R3): a message nobody received
    has several rows; an ActiveMQ function (no SQL form) is a conjunct evaluated by the Arrow UDF."""
    subs = [Subscription("eu", "INLIST(SPLIT(region, '-'), 'EU') AND JMSType = 'truck'"),
            Subscription("cars", "JMSType = 'car' AND weight > 100", durable=False)]
    routed = route(archive, subs, mode="topic", dialect="activemq", routing="wso2")
    report = route_report(routed, subs, mode="topic", dialect="activemq", routing="wso2", estate=True)
    rows = [(r["JMSMessageID"], r["subscription"], r["outcome"]) for r in routed.select(
        "JMSMessageID", "subscription", "outcome").collect()]
    received = {mid for mid, _, outcome in rows if outcome == "delivered"}
    assert any(o == "dead_letter" and s == "eu" for _, s, o in rows)
    want, unattributed = _model_dead_letters(_rows(), received, subs, dialect="activemq")
    dead = report["dead_letters"]
    assert dead["messages"] == len(_rows()) - len(received) and dead["unattributed"] == unattributed
    assert {(r["subscription"], r["conjunct"], r["value"], tuple(r["null"])): r["messages"]
            for r in dead["reasons"]} == dict(want)


def test_queue_mode_has_no_overlap(archive):
    subs = {"cars": "JMSType = 'car'", "light": "weight < 600 AND color = 'red'"}
    routed = route(archive, subs, mode="queue")
    report = route_report(routed, subs, mode="queue", estate=True, buckets=4)
    assert report["overlap"] is None
    received = {r["JMSMessageID"] for r in routed.where("outcome = 'delivered'").collect()}
    want, unattributed = _model_dead_letters(_rows(), received, normalize_subscriptions(subs))
    assert {(r["subscription"], r["conjunct"], r["value"], tuple(r["null"])): r["messages"]
            for r in report["dead_letters"]["reasons"]} == dict(want)
    assert sum(report["volume"]["unassigned"]) == report["unassigned"]["remains_queued"]


def _demo():
    spec = importlib.util.spec_from_file_location("route_demo_module", ROOT / "examples" / "route_demo.py")
    module = importlib.util.module_from_spec(spec)
    import sys

    sys.path.insert(0, str(ROOT / "examples"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "examples"))
    return module


@pytest.mark.slow
@pytest.mark.skipif(chromium() is None, reason="no chromium binary (apt-get install chromium): the page is not rendered")
def test_the_demo_archive_report_renders_in_headless_chromium(spark, tmp_path):
    """The demo's archive (examples/route_demo.py: `sample_data.write_archive`, its subscriptions,
    ActiveMQ dialect), smaller: the page renders, and shows what the dict says."""
    pytest.importorskip("PIL", reason="Pillow reads the screenshot back (the dev extra has it)")
    from jms_selector_spark.spark.sample_data import write_archive

    demo = _demo()
    write_archive(spark, str(tmp_path / "archive"), 3000, partitions=2)
    messages = spark.read.parquet(str(tmp_path / "archive"))
    subs = spark.createDataFrame(demo.SUBSCRIPTIONS, "name string, selector string, durable boolean")
    routed = route(messages, subs, mode="topic", dialect="activemq")
    report = route_report(routed, subs, mode="topic", dialect="activemq", html=tmp_path / "report.html")
    assert report["dead_letters"]["reasons"] and report["overlap"]["pairs"]
    page = read_page((tmp_path / "report.html").read_text(encoding="utf-8"))
    want = expected_page(report)
    assert all(page[k] == want[k] for k in ("subscriptions", "sparklines", "cells", "reasons", "never", "lint"))
    png = screenshot(tmp_path / "report.html", tmp_path / "report.png", width=1280, height=2400)
    assert png_size(png) == (1280, 2400) and len(png) > 50_000 and png_colours(tmp_path / "report.png") > 100


def test_the_routing_index_path_gives_the_same_reasons(topic_report, archive, monkeypatch):
    """Many dead letters: the conjuncts are matched through a routing index planned for them
    instead of evaluated directly; the reasons are the same."""
    from jms_selector_spark.spark.routing import estate_report

    monkeypatch.setattr(estate_report, "DIRECT_DEAD_LETTERS", -1)
    report, _, _ = topic_report
    again = route_report(route(archive, SUBS, mode="topic"), SUBS, mode="topic", estate=True, top=6)
    assert again["dead_letters"] == report["dead_letters"]


def test_an_empty_archive_and_an_estate_of_invalid_subscriptions(spark, tmp_path):
    empty = spark.createDataFrame([], DDL)
    report = route_report(route(empty, SUBS), SUBS, html=tmp_path / "empty.html")
    assert report["rows"] == 0 and report["volume"] is None and report["overlap"]["busiest"] == []
    assert report["dead_letters"]["messages"] == 0 and len(report["never_matching"]) == 8
    archive = spark.createDataFrame(_rows(20), DDL)
    bad = {"broken": "a = = 1"}
    report = route_report(route(archive, bad), bad, html=tmp_path / "bad.html")
    assert report["dead_letters"] == {"messages": 20, "unattributed": None, "reasons": [],
                                      "note": "no subscription was created"}
    assert "not created" in (tmp_path / "bad.html").read_text(encoding="utf-8")
