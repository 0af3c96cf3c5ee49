"""The estate report's page (`analysis.report_html`, no Spark): every figure of the dict is on the
page (read back from its ``data-*`` attributes), every user string is escaped, nothing is fetched
at view time, and headless Chromium renders it (skipped, with the reason, without a chromium)."""
from __future__ import annotations

import pytest

from jms_selector_spark.analysis.conjuncts import top_level_conjuncts
from jms_selector_spark.analysis.report_html import report_html, write_report
from jms_selector_spark.analysis.report_svg import heat_colour, heatmap, sparkline
from jms_selector_spark.parsing import parse
from report_page import chromium, expected_page, png_colours, png_size, read_page, screenshot

EVIL = "<script>alert('x')</script>&\""


def _outcomes(delivered=0, dead=0, queued=0, dropped=0, error=None):
    return {"error": error, "delivered": delivered, "dead_letter": dead, "remains_queued": queued, "dropped": dropped}


def _report() -> dict:
    """A `route_report(..., estate=True)` dict by hand: four subscriptions, one named to break HTML."""
    return {
        "routing": "jms", "rows": 61, "notes": ["a note <b>"],
        "rules": {"dropped": "topic_unmatched=dropped (JMS: no subscriber, no copy)"},
        "subscriptions": {"cars": _outcomes(30), "heavy": _outcomes(20), EVIL: _outcomes(5), "never": _outcomes(),
                          "broken": _outcomes(error="SelectorSyntaxError: unexpected 'AND' <here>")},
        "unassigned": _outcomes(dropped=6),
        "mode": "topic", "dialect": "jms",
        "volume": {"time_column": "JMSTimestamp", "start": 1_700_000_000_000, "bucket_ms": 60_000, "buckets": 4,
                   "subscriptions": {"cars": [10, 5, 5, 10], "heavy": [0, 10, 10, 0], EVIL: [5, 0, 0, 0]},
                   "unassigned": [1, 2, 3, 0]},
        "overlap": {"busiest": ["cars", "heavy", EVIL], "both": [[30, 12, 5], [12, 20, 0], [5, 0, 5]],
                    "pairs": [{"a": "cars", "b": "heavy", "both": 12, "jaccard": 0.3158},
                              {"a": "cars", "b": EVIL, "both": 5, "jaccard": 0.1667}],
                    "contained": [{"subscription": EVIL, "within": "cars", "messages": 5, "within_messages": 30,
                                   "same": False}]},
        "never_matching": ["never"],
        "dead_letters": {"messages": 6, "unattributed": 1, "reasons": [
            {"subscription": "heavy", "conjunct": "weight > 2500", "position": 2, "conjuncts": 2, "value": "UNKNOWN",
             "null": ["weight"], "missing": [], "messages": 3},
            {"subscription": EVIL, "conjunct": "a = '<x>'", "position": 1, "conjuncts": 3, "value": "FALSE",
             "null": [], "missing": ["a"], "messages": 1},
            {"subscription": "cars", "conjunct": None, "position": None, "conjuncts": 1, "value": "TRUE", "null": [],
             "missing": [], "messages": 1}]},
        "lint": {EVIL: ["warning [x] at line 1, column 1: <b>bold</b>"]},
    }


def test_every_figure_of_the_dict_is_on_the_page():
    report = _report()
    page = read_page(report_html(report))
    want = expected_page(report)
    for key in ("subscriptions", "unassigned", "sparklines", "cells", "pairs", "contained", "never", "lint", "reasons"):
        assert page[key] == want[key], key
    assert page["figures"]["unreceived"] == 6 and page["figures"]["unattributed"] == 1
    assert page["figures"]["never_matching"] == 1 and page["figures"]["not_created"] == 1


def test_user_strings_are_escaped_and_nothing_is_fetched():
    html = report_html(_report(), title="<i>estate</i>")
    assert "<script>" not in html and "<b>bold</b>" not in html and "<i>estate</i>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&amp;&quot;" in html
    page = read_page(html)
    assert page["scripts"] == 0 and page["external"] == []
    assert "@import" not in html and "url(" not in html and "http" not in html.replace("http-equiv", "")


def test_a_report_without_estate_figures_renders_its_counts():
    report = {k: v for k, v in _report().items() if k in ("routing", "rows", "notes", "rules", "subscriptions",
                                                          "unassigned")}
    page = read_page(report_html(report))
    assert page["subscriptions"] == expected_page(report)["subscriptions"]
    assert page["reasons"] == [] and page["cells"] == {} and page["sparklines"] == {}


def test_queue_mode_says_why_there_is_no_overlap():
    report = dict(_report(), mode="queue", overlap=None)
    assert "each message goes to one consumer" in report_html(report)


def test_svg_pieces():
    assert 'data-counts=""' in sparkline([])
    assert sparkline([0, 0]).count("<rect") == 0
    assert heat_colour(0.5) == "rgb(142,160,215)"
    cells = read_page(heatmap(["a", "<b>"], [[2, 1], [1, 1]]))["cells"]
    assert cells == {("a", "a"): 2, ("a", "<b>"): 1, ("<b>", "a"): 1, ("<b>", "<b>"): 1}


def test_conjuncts_of_a_selector():
    assert top_level_conjuncts(parse("")) == []
    many = " AND ".join(f"a{i} = {i}" for i in range(70))
    assert len(top_level_conjuncts(parse(many))) == 1  # more than MAX_CONJUNCTS: the whole selector
    got = top_level_conjuncts(parse("NOT (a = 1 AND b = 2) AND c BETWEEN 1 AND 2", dialect="activemq"))
    assert [c.text for c in got] == ["NOT (a = 1 AND b = 2)", "c BETWEEN 1 AND 2"]
    assert [c.names for c in got] == [("a", "b"), ("c",)]


@pytest.mark.skipif(chromium() is None, reason="no chromium binary (apt-get install chromium): the page is not rendered")
def test_headless_chromium_renders_the_page(tmp_path):
    pytest.importorskip("PIL", reason="Pillow reads the screenshot back (the dev extra has it)")
    path = write_report(tmp_path / "report.html", _report())
    png = screenshot(path, tmp_path / "report.png", width=1200, height=1400)
    assert png_size(png) == (1200, 1400)
    assert len(png) > 30_000 and png_colours(tmp_path / "report.png") > 50


def test_the_command_line_summary_and_options():
    from jms_selector_spark.cli.commands import build_parser
    from jms_selector_spark.cli.report import summary_lines

    lines = summary_lines(dict(_report(), rows=61))
    assert lines[0] == "61 rows routed (topic mode, routing jms, dialect jms): 4 subscriptions created, 1 not created"
    assert any(line.startswith("broken") and line.endswith("(not created)") for line in lines)
    assert "         3  heavy: conjunct 2 of 2 `weight > 2500` is UNKNOWN (NULL: weight)" in lines
    assert "never matching: never" in lines and any(line.startswith("contained: ") for line in lines)
    args = build_parser().parse_args(["report", "--subscriptions", "s.csv", "--archive", "a", "--mode", "queue",
                                      "--routing", "wso2", "--html", "r.html", "--top", "5"])
    assert (args.mode, args.routing, args.html, args.top, args.buckets) == ("queue", "wso2", "r.html", 5, 24)
