"""`route`'s subscription input: malformed input raises naming the subscription;
well-formed subscriptions a broker would refuse are reported per subscription (no Spark here)."""
from __future__ import annotations

import datetime as dt

import pytest

from jms_selector_spark.spark.routing import (ROUTING_RULES, RULES, Subscription, normalize_subscriptions, routing_rules,
                                             subscription_errors)
from jms_selector_spark.spark.routing.outcomes import exclusive_timeline


def test_a_plain_string_is_refused_not_split_per_character():
    with pytest.raises(TypeError, match=r"one selector: pass \{'name': selector\} or \[selector\]"):
        normalize_subscriptions("color = 'blue'")
    with pytest.raises(TypeError, match="got NoneType"):
        normalize_subscriptions(None)
    with pytest.raises(TypeError, match="got int"):
        normalize_subscriptions(3)


@pytest.mark.parametrize("subs, exc, text", [
    ([("a", "x = 1", "false")], ValueError, r"subscription #1: subscription 'a': durable must be True or False, not str 'false'"),
    ([("a", "x = 1", 1)], ValueError, "durable must be True or False, not int 1"),
    ({"a": {"selector": "x = 1", "durable": "yes"}}, ValueError, "'a': durable must be True or False"),
    ([{"name": "a", "selector": "x = 1", "duarble": True}], ValueError, r"#1: unknown subscription attribute\(s\) \['duarble'\]"),
    ({"a": {"selector": "x = 1", "colour": 1}}, ValueError, r"unknown subscription attribute\(s\) \['colour'\]"),
    ([("a", "x = 1", True, "extra")], ValueError, r"#1: a tuple must be \(name, selector\[, durable\]\), not 4 items"),
    ([("a", 42)], TypeError, "'a': selector must be a string or None, not int"),
    ([(7, "x = 1")], TypeError, "name must be a string, not int"),
    ([("ok", "x = 1"), 3.5], TypeError, "#2: float 3.5 is not a subscription"),
    ({"a": 5}, TypeError, "'a': the value must be a selector string or an attribute dict"),
    ([Subscription("a", "x = 1")], None, None),
    ([{"name": "a", "kind": "fanout"}], ValueError, "kind must be one of"),
    ([{"name": "a", "transport": "udp"}], ValueError, "transport must be one of"),
    ([{"name": "a", "subscribed_at": "yesterday"}], TypeError, "subscribed_at must be epoch milliseconds"),
    ([{"name": "a", "subscribed_at": 10, "unsubscribed_at": 10}], ValueError, r"unsubscribed_at \(10\) must be after"),
])
def test_malformed_subscriptions_raise_naming_the_subscription(subs, exc, text):
    if exc is None:
        assert normalize_subscriptions(subs)[0].name == "a"
        return
    with pytest.raises(exc, match=text):
        normalize_subscriptions(subs)


def test_real_booleans_and_defaults_are_accepted():
    np = pytest.importorskip("numpy")
    subs = normalize_subscriptions([("a", "x = 1", False), ("b", "x = 2", np.bool_(True)), ("c", None, None),
                                    {"name": "d", "subscribed_at": dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)}])
    assert [s.durable for s in subs] == [False, True, True, True]
    assert type(subs[1].durable) is bool
    assert subs[3].subscribed_at == 1767225600000 and subs[3].kind is None and subs[3].transport == "guaranteed"
    assert [s.name for s in normalize_subscriptions(["a = 1", "b = 2"])] == ["sub-1", "sub-2"]


def test_configuration_errors_are_reported_per_subscription():
    subs = [("a", "x = 1"), (None, "x = 2"), ("", "x = 3"), ("dup", "x = 4"), ("b", "x >"), ("dup", "x = 5"),
            {"name": "direct", "selector": "x = 1", "transport": "direct"},
            {"name": "direct-all", "selector": " ", "transport": "direct"},
            {"name": "q", "selector": "x = 1", "kind": "queue"}]
    errors = subscription_errors(subs)
    assert set(errors) == {"#2", "#3", "dup", "b", "q"}
    assert errors["#2"] == "subscription #2 has no name (None): not created"
    assert errors["dup"] == "the name 'dup' is used by 2 subscriptions (#4, #6): none of them is created"
    assert errors["b"].startswith("SelectorSyntaxError") or "column" in errors["b"]
    assert "is not a topic subscription" in errors["q"]
    solace = subscription_errors(subs, routing="solace")
    assert set(solace) == set(errors) | {"direct"}  # a blank selector on Direct is no selector
    assert "R13" in solace["direct"]
    queue = subscription_errors([("s", "x = 1"), {"name": "e", "kind": "exclusive_queue"}], mode="queue")
    assert list(queue) == ["e"] and "one queue is shared or exclusive" in queue["e"]


def test_rule_sets_and_overrides():
    assert set(ROUTING_RULES) == {"jms", "ibmmq", "activemq", "wso2", "solace"}
    wso2 = routing_rules("wso2", queue_rotation="match_set")
    assert (wso2.queue_rotation, wso2.durable_nonmatch, wso2.why("queue_rotation")) == (
        "match_set", "dead_letter", "queue_rotation=match_set (overridden)")
    assert "R3" in wso2.why("durable_nonmatch")
    with pytest.raises(ValueError, match="unknown routing rules"):
        routing_rules("jms", queue_unmached="dropped")
    with pytest.raises(ValueError, match="must be one of"):
        routing_rules("jms", queue_unmatched="lost")
    with pytest.raises(ValueError, match="unknown routing rule set"):
        routing_rules("rabbitmq")


def test_exclusive_queue_timeline():
    S = Subscription
    # a bound first; b takes over when a leaves; c (bound before a left, but after b) only after b
    subs = [S("a", None, subscribed_at=0, unsubscribed_at=100), S("b", None, subscribed_at=50),
            S("c", None, subscribed_at=60, unsubscribed_at=300)]
    assert exclusive_timeline(subs) == [("a", 100), ("b", None)]
    subs = [S("a", None, unsubscribed_at=100), S("b", None, subscribed_at=200, unsubscribed_at=300), S("c", None)]
    assert exclusive_timeline(subs) == [("a", 100), ("c", None)]
    assert exclusive_timeline([S("a", None, subscribed_at=10, unsubscribed_at=20)]) == [("a", 20)]


def test_versions_of_a_subscription_are_validated_per_subscription():
    """R10: one name, different subscribed_at: versions; equal times, overlaps, or versions of
    another kind or durability are reported (the subscription is not created) and the rest kept."""
    S = Subscription
    ok = [S("v", "x = 1"), S("v", "x = 2", subscribed_at=100, unsubscribed_at=150), S("v", "x = 2", subscribed_at=200)]
    assert subscription_errors(ok) == {}
    bad = [S("same", "x = 1", subscribed_at=5), S("same", "x = 2", subscribed_at=5), S("same", "x = 3", subscribed_at=9),
           S("over", "x = 1", subscribed_at=0, unsubscribed_at=300), S("over", "x = 2", subscribed_at=200),
           S("kind", "x = 1", kind="topic"), S("kind", "x = 2", kind="queue", subscribed_at=10),
           S("dur", "x = 1"), S("dur", "x = 2", durable=False, subscribed_at=10), S("fine", "x = 1")]
    errors = subscription_errors(bad)
    assert set(errors) == {"same", "over", "kind", "dur"}
    assert "2 of them with subscribed_at=5" in errors["same"] and "need different subscribed_at" in errors["same"]
    assert errors["over"] == "the versions of 'over' overlap: #4 is bound until 300 but #5 binds at 200; none of them is created"
    assert "different kind" in errors["kind"] and "different durable" in errors["dur"]
    assert routing_rules("solace").rebind_selector_change == "drop" and "R10" in routing_rules("solace").why(
        "rebind_selector_change")
    assert ROUTING_RULES["wso2"].rebind_selector_change == "keep"


def test_every_rule_a_rule_set_cites_is_defined():
    import re

    cited = {m for rules in ROUTING_RULES.values() for src in rules.sources.values()
             for m in re.findall(r"\bR\d+\b", src)}
    assert cited and cited <= set(RULES), sorted(cited - set(RULES))
    assert [f"R{i}" for i in range(1, 18)] == list(RULES)
