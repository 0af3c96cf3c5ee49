"""`migration_report` equals two `route` runs diffed, per subscription (ANSI on and off).

A generated archive (typed columns with NULLs, NaN, -0.0, int boundaries, unlike-type strings) and
generated subscriptions: the dialect table's selectors, random ones over the archive's names, ones
valid in one dialect only, one needing the Arrow fallback, one with a time window and a duplicate
name. For each pair of dialects (built-in both ways, and a derived one), the report's counts are
|old ∩ new|, |old − new|, |new − old| of the two `route` runs' delivered messages, each example is
the first message (JMSTimestamp order) of its difference, and the errors are `route`'s.
"""
from __future__ import annotations

import json
import math
import random

import pytest

from jms_selector_spark import ACTIVEMQ, JMS, Subscription, migration_report, route, subscription_errors
from jms_selector_spark.analysis.dialect_table import ROWS

from conftest import sql_conf

pytestmark = pytest.mark.spark

DDL = ("JMSMessageID string, JMSTimestamp long, JMSType string, JMSRedelivered boolean, qty int, n long, "
       "d double, e double, b byte, s string, t string, f boolean, x string, i int, color string")


def _rows(count=240):
    rng = random.Random(14)
    pick = lambda *vs: rng.choice(vs)  # noqa: E731
    return [(f"ID:{k:04d}", 1_000 + k, pick("order", "car", None, "Order"), pick(True, False, None),
             pick(0, 1, 7, 21, 25, 30, -3, 2147483647, None), pick(0, 1, 7, 31, 15, 10, None),
             pick(0.0, -0.0, 2.5, math.nan, 1e23, None, 15.0), pick(math.nan, 0.0, None), pick(1, 0, None),
             pick("a", "b", "5", "a,b", "a&3a", "", None), pick("a", "b", None), pick(True, False, None),
             pick("a", "2", None), pick(2147483647, 1, None), pick("blue", "red", None))
            for k in range(count)]


def _subscriptions(rng):
    names = ["qty", "n", "d", "s", "x", "i", "b"]
    lits = ["1", "2", "7", "10", "0", "2.5", "'a'", "'5'"]
    subs = []
    for k, row in enumerate(ROWS):
        subs.append(Subscription(f"row-{k}", row.selector))
    for k in range(25):
        a, c = rng.choice(names), rng.choice(names)
        shape = rng.randrange(6)
        sel = [f"{a} / {rng.choice(lits[:4])} > {rng.choice(lits)}", f"{a} <> {rng.choice(lits)}",
               f"{a} NOT BETWEEN {rng.choice(lits[:4])} AND {rng.choice(lits[:4])}", f"{a} = {c}",
               f"NOT {a} = {rng.choice(lits)} AND JMSType = 'order'", f"{a} IN ('a', '5') OR {c} IS NULL"][shape]
        subs.append(Subscription(f"gen-{k}", sel))
    subs += [Subscription("split", "INLIST(SPLIT(s, ','), 'b')"),  # activemq: the Arrow fallback
             Subscription("windowed", "qty / 10 > 2", subscribed_at=1_100, unsubscribed_at=1_200),
             Subscription("twice", "qty > 1"), Subscription("twice", "qty > 2"),
             Subscription("empty", "")]
    return subs


def _delivered(spark, messages, subs, d) -> dict:
    out = {}
    routed = route(messages, subs, dialect=d).where("outcome = 'delivered'").select("subscription", "JMSMessageID")
    for r in routed.collect():
        out.setdefault(r["subscription"], set()).add(r["JMSMessageID"])
    return out


PAIRS = [(JMS, ACTIVEMQ), (ACTIVEMQ, JMS), (JMS, JMS.derive(name="jms-double-div", integer_division="double"))]


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_migration_report_equals_two_routes_diffed(spark, ansi):
    messages = spark.createDataFrame(_rows(), DDL)
    subs = _subscriptions(random.Random(1))
    changed_total = 0
    division = next(f"row-{k}" for k, r in enumerate(ROWS) if r.selector == "5 / 2 = 2")
    with sql_conf(spark, {"spark.sql.ansi.enabled": ansi}):
        delivered = {d.name: _delivered(spark, messages, subs, d) for d in {d for p in PAIRS for d in p}}
        for old, new in PAIRS:
            report = migration_report(messages, subs, old, new)
            assert report.messages == 240
            o, nw = delivered[old.name], delivered[new.name]
            err_o, err_n = subscription_errors(subs, dialect=old), subscription_errors(subs, dialect=new)
            assert [c.name for c in report.subscriptions] == [s.name for s in subs]
            for c in report.subscriptions:
                so, sn = o.get(c.name, set()), nw.get(c.name, set())
                where = (old.name, new.name, ansi, c.name, c.selector)
                assert (c.both, c.only_old, c.only_new) == (len(so & sn), len(so - sn), len(sn - so)), where
                assert (c.error_old is None, c.error_new is None) == (c.name not in err_o, c.name not in err_n), where
                for ex, diff in ((c.example_only_old, so - sn), (c.example_only_new, sn - so)):
                    assert (ex is None) == (not diff), where
                    if ex is not None:
                        assert ex["JMSMessageID"] == min(diff), where  # first by JMSTimestamp (= id order)
            changed_total += len(report.changed)
            assert division in {c.name for c in report.changed}  # 5 / 2 = 2 differs for every message
    assert changed_total >= 20


def test_report_text_and_json(spark):
    messages = spark.createDataFrame(_rows(60), DDL)
    report = migration_report(messages, {"div": "qty / 10 > 2", "mod": "qty % 2 = 1", "same": "s = 'a'"},
                              "jms", "activemq")
    text = str(report)
    assert text.splitlines()[0] == "migration jms -> activemq: 60 messages, 3 subscriptions, 2 changed"
    assert "invalid in jms" in text and "delivered only by activemq" in text
    d = report.to_dict()
    assert d["changed"] == 2 and [s["name"] for s in d["subscriptions"]] == ["div", "mod", "same"]
    same = d["subscriptions"][2]
    assert same["only_old"] == same["only_new"] == 0 and not same["changed"] and same["both"] > 0


def test_cli_migration_report(spark, tmp_path, capsys):
    from jms_selector_spark.cli.commands import main

    archive = str(tmp_path / "archive")
    spark.createDataFrame(_rows(80), DDL).write.parquet(archive)
    subs = tmp_path / "subs.jsonl"
    subs.write_text('{"name": "div", "selector": "qty / 10 > 2"}\n{"name": "mod", "selector": "qty % 2 = 1"}\n'
                    '{"name": "same", "selector": "s = \'a\'"}\n', encoding="utf-8")
    argv = ["migration-report", "--subscriptions", str(subs), "--archive", archive, "--from", "jms", "--to", "activemq"]
    expected = migration_report(spark.read.parquet(archive), {"div": "qty / 10 > 2", "mod": "qty % 2 = 1",
                                                              "same": "s = 'a'"}, "jms", "activemq")
    assert main(argv) == 1
    out, _ = capsys.readouterr()
    assert out == str(expected) + "\n"
    assert main(argv + ["--json"]) == 1
    got = json.loads(capsys.readouterr()[0])
    assert got == json.loads(json.dumps(expected.to_dict(), default=str))
    same = tmp_path / "same.csv"
    same.write_text("name,selector\nsame,s = 'a'\n", encoding="utf-8")
    assert main(["migration-report", "--subscriptions", str(same), "--archive", archive, "--from", "jms", "--to", "activemq"]) == 0
    assert "0 changed" in capsys.readouterr()[0]


def test_migration_report_on_colliding_columns(spark):
    """Case-only twins and a column twice (after a join), caseSensitive false and true: the report
    hides the colliding columns no selector reads, as `route` does, refuses on a side only the
    subscription reading a name Spark cannot resolve there, and still equals two routes diffed."""
    from pyspark.sql import functions as F

    twins = spark.createDataFrame([(1, 3000, 5, "a"), (2, 10, 9000, "b"), (3, None, 7000, "a")],
                                  "JMSTimestamp long, weight long, WeIgHt long, color string")
    joined = twins.join(spark.createDataFrame([("a", "blue"), ("b", "red")], "k string, color string"),
                        twins.color == F.col("k")).drop("k")
    subs = {"heavy": "weight > 2500", "HEAVY": "WeIgHt > 2500", "div": "weight / 1000 = 0",
            "by-color": "color = 'a'", "early": "JMSTimestamp < 3"}
    for table, sensitive, refused in ((twins, "false", {"HEAVY"}), (twins, "true", set()),
                                      (joined, "false", {"HEAVY", "by-color"}), (joined, "true", {"by-color"})):
        with sql_conf(spark, {"spark.sql.caseSensitive": sensitive}):
            report = migration_report(table, subs, "jms", "activemq")
            delivered = {}
            for d in ("jms", "activemq"):
                out = route(table, subs, dialect=d).where("outcome = 'delivered'")
                for r in out.select("subscription", "JMSTimestamp").collect():
                    delivered.setdefault(d, {}).setdefault(r.subscription, set()).add(r.JMSTimestamp)
        where = (table.columns, sensitive)
        assert report.messages == 3, where
        assert {c.name for c in report.subscriptions if c.error_old} == refused, where
        assert {c.name for c in report.subscriptions if c.error_new} == refused, where
        for c in report.subscriptions:
            if c.name in refused:
                assert "SelectorBindingError" in c.error_old and (c.both, c.only_old, c.only_new) == (0, 0, 0)
                continue
            so, sn = delivered["jms"].get(c.name, set()), delivered["activemq"].get(c.name, set())
            assert (c.both, c.only_old, c.only_new) == (len(so & sn), len(so - sn), len(sn - so)), (where, c)
        div = next(c for c in report.subscriptions if c.name == "div")
        assert div.only_old == 1 and div.example_only_old == {"weight": 10}, where  # jms: 10 / 1000 = 0


def test_cli_migration_report_with_header_columns(spark, tmp_path, capsys):
    """``--header JMSType=msg_type --header JMSTimestamp=ts``: the archive names its header columns
    its own way; the CLI report is `migration_report(..., headers=...)`."""
    from jms_selector_spark.cli.commands import main

    archive = str(tmp_path / "renamed")
    renamed = spark.createDataFrame(_rows(60), DDL).withColumnRenamed("JMSType", "msg_type") \
        .withColumnRenamed("JMSTimestamp", "ts")
    renamed.write.parquet(archive)
    subs = tmp_path / "subs.csv"
    subs.write_text("name,selector\norders,\"JMSType = 'order' AND qty / 10 > 2\"\nlate,JMSTimestamp > 1030\n",
                    encoding="utf-8")
    headers = {"JMSType": "msg_type", "JMSTimestamp": "ts"}
    expected = migration_report(spark.read.parquet(archive), {"orders": "JMSType = 'order' AND qty / 10 > 2",
                                                              "late": "JMSTimestamp > 1030"}, "jms", "activemq",
                                time_column="ts", headers=headers)
    assert expected.subscriptions[1].both == 29  # ts 1031..1059 (the header is read from its column)
    argv = ["migration-report", "--subscriptions", str(subs), "--archive", archive, "--from", "jms", "--to", "activemq",
            "--header", "JMSType=msg_type", "--header", "JMSTimestamp=ts", "--json"]
    assert main(argv) == (1 if expected.changed else 0)
    assert json.loads(capsys.readouterr()[0]) == json.loads(json.dumps(expected.to_dict(), default=str))
    main(argv[:-5] + ["--json"])  # without --header the headers are absent columns: NULL, nothing delivered
    plain = json.loads(capsys.readouterr()[0])
    assert [(s["both"], s["only_old"], s["only_new"]) for s in plain["subscriptions"]] == [(0, 0, 0), (0, 0, 0)]
