"""``jms-selector compare-dialects`` and the subscriptions files of ``migration-report`` (no Spark;
the report itself runs in tests/spark/test_migration.py)."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from jms_selector_spark.cli.commands import main
from jms_selector_spark.cli.migrate import read_subscriptions
from jms_selector_spark.cli.selector_io import InputError

MIGRATION_PAGE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "migration.md"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_docs_compare_block_is_real_output(capsys):
    """The migration page's compare-dialects session (tests/test_docs.py runs every console block;
    this one needs no Spark, so the fast tier checks it too)."""
    text = MIGRATION_PAGE.read_text(encoding="utf-8")
    m = re.search(r"^```console\n\$ (jms-selector compare-dialects [^\n]*)\n(.*?)^\$ echo \$\?\n1\n```", text, re.S | re.M)
    assert m, "docs/guide/migration.md has no compare-dialects session"
    argv = shlex.split(m.group(1))[1:]
    code, out, _ = run(capsys, *argv)
    assert out == m.group(2)
    assert code == 1


def test_compare_text_and_exit_status(capsys):
    code, out, _ = run(capsys, "compare-dialects", "qty / 10 > 2", "--from", "jms", "--to", "activemq",
                       "--schema", "qty:int")
    assert code == 1
    assert "delivery differs" in out and "qty = 21 (int)" in out and "jms: FALSE" in out and "activemq: TRUE" in out
    code, out, _ = run(capsys, "compare-dialects", "color = 'blue'", "--from", "activemq", "--to", "jms")
    assert code == 0 and "no difference found" in out and "every combination" in out


def test_compare_json(capsys):
    code, out, _ = run(capsys, "compare-dialects", "n % 2 = 1", "--from", "activemq", "--to", "jms", "--json")
    d = json.loads(out)
    assert code == 1 and d["differs"] and d["witness"] is None
    assert d["answers"] == {"activemq": "valid", "jms": "invalid"} and "modulo" in d["errors"]["jms"]
    code, out, _ = run(capsys, "compare-dialects", "d = 0", "--from", "jms", "--to", "activemq", "--json",
                       "--schema", "d:double")
    d = json.loads(out)
    assert d["witness"] == {"headers": {}, "properties": {"d": "-0.0"}, "types": {"d": "double"}}
    assert d["answers"] == {"jms": "TRUE", "activemq": "FALSE"} and d["search"]["candidates"] >= 1


def test_compare_usage_errors(capsys):
    code, _, err = run(capsys, "compare-dialects", "a = 1", "--from", "jms", "--to", "nosuch")
    assert code == 2 and "invalid choice" in err
    code, _, err = run(capsys, "compare-dialects", "a = 1", "--to", "jms")
    assert code == 2 and "--from" in err


def test_subscriptions_csv_and_jsonl(tmp_path):
    csv_path = tmp_path / "subs.csv"
    csv_path.write_text('name,selector,durable,subscribed_at\nbulk,"JMSType = \'order\' AND qty > 2",true,\n'
                        'eu,"region IN (\'EU\', \'US\')",,1000\n', encoding="utf-8")
    assert read_subscriptions(str(csv_path)) == [
        {"name": "bulk", "selector": "JMSType = 'order' AND qty > 2", "durable": True, "subscribed_at": None},
        {"name": "eu", "selector": "region IN ('EU', 'US')", "durable": None, "subscribed_at": 1000}]
    jl = tmp_path / "subs.jsonl"
    jl.write_text('{"name": "a", "selector": "x = 1"}\n\n{"name": "b", "selector": "y = 2", "durable": false}\n')
    assert read_subscriptions(str(jl)) == [{"name": "a", "selector": "x = 1"},
                                           {"name": "b", "selector": "y = 2", "durable": False}]


@pytest.mark.parametrize("content, message", [
    ("selector\nx = 1\n", "header row"),
    ("name,selector\na,x = 1,extra\n", "3 cells"),
    ("name,selector,durable\na,x = 1,maybe\n", "durable must be true or false"),
    ('{"name": "a"\n', "not JSON"),
    ('{"selector": "x = 1"}\n', "expected an object"),
])
def test_subscriptions_file_errors(tmp_path, content, message):
    p = tmp_path / "subs"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_subscriptions(str(p))


def test_report_bad_subscriptions_file_is_a_usage_error(tmp_path, capsys):
    p = tmp_path / "subs.csv"
    p.write_text("selector\nx = 1\n", encoding="utf-8")
    code, _, err = run(capsys, "migration-report", "--subscriptions", str(p), "--archive", str(tmp_path),
                       "--from", "jms", "--to", "activemq")
    assert code == 2 and "header row" in err


def test_report_header_option_is_the_other_commands_one(capsys):
    """``--header HEADER=COLUMN`` and ``--properties`` parse as for ``explain`` (one definition,
    `cli_io.add_binding_options`); a malformed one is a usage error."""
    from jms_selector_spark.cli.commands import build_parser
    from jms_selector_spark.cli.selector_io import binding_of

    args = build_parser().parse_args(["migration-report", "--subscriptions", "s.csv", "--archive", "a", "--from", "jms",
                                      "--to", "activemq", "--header", "JMSType=msg_type", "--header",
                                      "JMSTimestamp = ts", "--properties", "props"])
    assert binding_of(args) == {"headers": {"JMSType": "msg_type", "JMSTimestamp": "ts"}, "properties": "props"}
    explain = build_parser().parse_args(["explain", "a = 1", "--header", "JMSType=msg_type", "--properties", "props"])
    assert binding_of(explain) == binding_of(args) | {"headers": {"JMSType": "msg_type"}}
    code, _, err = run(capsys, "migration-report", "--subscriptions", "s.csv", "--archive", "a", "--from", "jms",
                       "--to", "activemq", "--header", "JMSType")
    assert code == 2 and "expected HEADER=COLUMN" in err
