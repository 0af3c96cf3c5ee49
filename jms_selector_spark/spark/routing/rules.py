"""The brokers' routing rules as data: `RoutingRules`, the built-in sets, and the rules they cite.

Each broker routes by a few rules (what a topic message nobody selects becomes, what a durable
subscription that does not match it does, how a queue rotates…). A `RoutingRules` names one value
per rule; `ROUTING_RULES` holds the built-in sets (``jms``, ``ibmmq``, ``activemq``, ``wso2``,
``solace``) with the source of each rule, and `routing_rules` derives one with some overridden.
The rules the sources state are numbered R1–R17 (`RULES`); the documentation's routing page
defines each with its source.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ...language.dialects import Dialect

__all__ = ["RULES", "OUTCOMES", "RULE_VALUES", "RoutingRules", "ROUTING_RULES", "routing_rules", "resolve_rules"]

#: The values of the ``outcome`` column.
OUTCOMES = ("delivered", "dead_letter", "remains_queued", "dropped")

#: The routing rules the sources state, by number (cited as "R3" by the rule sets and reports).
RULES = MappingProxyType({
    "R1": "topic fan-out: every subscription whose selector is TRUE gets a copy",
    "R2": "WSO2 non-durable topic: a message no subscriber matches is dropped",
    "R3": "WSO2 durable topic: a durable subscription whose selector does not match the message sends its copy to"
          " the dead-letter channel, even when others matched",
    "R4": "a topic subscriber receives only the messages that arrive after it subscribed",
    "R5": "queue: exactly one consumer whose selector matches receives the message",
    "R6": "WSO2 queue rotation: one cursor over the consumers in bind order; a message goes to the first matching"
          " consumer at or after it",
    "R7": "WSO2 queue or durable subscription: no consumer matches -> dead-letter channel; a queue without"
          " consumers keeps its messages",
    "R8": "WSO2 evaluates selectors on delivery: dead letters re-routed meet the subscriptions of that time",
    "R9": "Solace durable topic subscription: the selector is an ingress filter; non-matching messages are neither"
          " queued nor dead-lettered",
    "R10": "a durable subscriber rebinding with a different selector loses the copies it still holds",
    "R11": "Solace exclusive queue: the selector is an egress filter; excluded messages stay on the queue",
    "R12": "non-exclusive queue: round-robin among the bound consumers that select the message",
    "R13": "Solace refuses selectors on Direct-transport consumers",
    "R14": "IBM MQ / JMS queue: a message no receiver selects stays on the queue",
    "R15": "IBM MQ: a receiver selecting the all-zero message or correlation id competes for every message",
    "R16": "WSO2 ignores noLocal",
    "R17": "an invalid selector: the subscription is not created",
})

RULE_VALUES = {
    "topic_unmatched": ("dropped", "dead_letter"),
    "durable_nonmatch": ("ignore", "dead_letter"),
    "queue_unmatched": ("remains_queued", "dead_letter", "dropped"),
    "queue_rotation": ("match_set", "consumer_list"),
    "direct_selectors": ("allowed", "refused"),
    "rebind_selector_change": ("drop", "keep"),
}


@dataclass(frozen=True)
class RoutingRules:
    """How one broker routes. Every rule is a name from a small set:

    - ``topic_unmatched``: a topic message no subscription receives: ``dropped`` | ``dead_letter``;
    - ``durable_nonmatch``: a durable topic subscription whose selector does not match:
      ``ignore`` (the selector is an ingress filter) | ``dead_letter`` (one dead-letter row per
      such subscription, even when others matched: WSO2 R3);
    - ``queue_unmatched``: a queue message no consumer selects: ``remains_queued`` |
      ``dead_letter`` | ``dropped`` (a queue without any consumer always keeps it);
    - ``queue_rotation``: ``match_set`` (parallel) | ``consumer_list`` (WSO2's single cursor);
    - ``direct_selectors``: a selector on a Direct-transport subscription: ``allowed`` |
      ``refused`` (reported, not created: Solace R13);
    - ``rebind_selector_change``: a durable subscriber rebinds (a new version of the subscription,
      `jms_selector_spark.spark.routing.versions`) with a different selector: ``drop`` (the copies it still holds
      are deleted: Solace R10, JMS, ActiveMQ) | ``keep``.

    ``sources`` says where each rule of a built-in set comes from.
    """
    name: str
    topic_unmatched: str = "dropped"
    durable_nonmatch: str = "ignore"
    queue_unmatched: str = "remains_queued"
    queue_rotation: str = "match_set"
    direct_selectors: str = "allowed"
    rebind_selector_change: str = "drop"
    sources: Mapping = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        for rule, allowed in RULE_VALUES.items():
            if getattr(self, rule) not in allowed:
                raise ValueError(f"routing rule {rule} must be one of {allowed}, not {getattr(self, rule)!r}")
        object.__setattr__(self, "sources", MappingProxyType(dict(self.sources)))

    def why(self, rule: str) -> str:
        """``"rule=value (source)"``, as `route_report` names it."""
        src = self.sources.get(rule)
        return f"{rule}={getattr(self, rule)}" + (f" ({src})" if src else "")


_JMS_SOURCES = {"topic_unmatched": "JMS: no subscriber, no copy", "durable_nonmatch": "JMS: the selector filters what the subscription receives",
                "queue_unmatched": "R14: stays on the queue", "queue_rotation": "R12: rotation unspecified; deterministic and parallel",
                "direct_selectors": "no Direct transport",
                "rebind_selector_change": "R10, JMS 1.1 6.11.1: changing a durable subscription is deleting and recreating it"}
_JMS = dict(topic_unmatched="dropped", durable_nonmatch="ignore", queue_unmatched="remains_queued",
            queue_rotation="match_set", direct_selectors="allowed", rebind_selector_change="drop")

#: The built-in rule sets by broker (the documentation's routing page gives each rule's source).
ROUTING_RULES = MappingProxyType({
    "jms": RoutingRules("jms", **_JMS, sources=_JMS_SOURCES),
    "ibmmq": RoutingRules("ibmmq", **_JMS, sources=dict(_JMS_SOURCES, queue_unmatched="R14: seed 000, a message no receiver selects stays on the queue")),
    "activemq": RoutingRules("activemq", **_JMS, sources=dict(
        _JMS_SOURCES, topic_unmatched="broker-e2e: delivered to no durable subscriber, not dead-lettered",
        queue_unmatched="broker-e2e: left on the queue, browsed and drained",
        rebind_selector_change="R10: TopicRegion.addConsumer: a changed selector deletes the durable subscription")),
    "wso2": RoutingRules("wso2", topic_unmatched="dropped", durable_nonmatch="dead_letter", queue_unmatched="dead_letter",
                         queue_rotation="consumer_list", direct_selectors="allowed", rebind_selector_change="keep", sources={
                             "topic_unmatched": "R2: seed 003, non-durable topic drops",
                             "durable_nonmatch": "R3: seed 003, each durable subscription's copy goes to the DLC",
                             "queue_unmatched": "R7: seed 003, no subscriber matches -> DLC",
                             "queue_rotation": "R6: FlowControlledQueueMessageDeliveryImpl, one cursor in bind order",
                             "direct_selectors": "no Direct transport",
                             "rebind_selector_change": "not R10: seed 003 silent; andes binds the subscriber to the existing "
                                                       "storage queue and evaluates selectors on delivery (R8)"}),
    "solace": RoutingRules("solace", topic_unmatched="dropped", durable_nonmatch="ignore", queue_unmatched="remains_queued",
                           queue_rotation="match_set", direct_selectors="refused", rebind_selector_change="drop", sources={
                               "topic_unmatched": "R9: seed 004, no copy, no dead letter",
                               "durable_nonmatch": "R9: seed 004, the selector is an ingress filter",
                               "queue_unmatched": "R11/R12: seed 004, excluded messages stay on the queue (non-exclusive: inferred)",
                               "queue_rotation": "R12: seed 004, round-robin, exact rotation unspecified",
                               "direct_selectors": "R13: seed 004, selectors refused on Direct transport",
                               "rebind_selector_change": "R10: seed 004, a changed selector removes the queued messages"}),
})


def routing_rules(base: "str | RoutingRules" = "jms", **overrides) -> RoutingRules:
    """A rule set: a built-in one by name (`ROUTING_RULES`), with single rules overridden.

    >>> routing_rules("wso2", queue_rotation="match_set").queue_rotation
    'match_set'
    """
    if isinstance(base, RoutingRules):
        rules = base
    elif base in ROUTING_RULES:
        rules = ROUTING_RULES[base]
    else:
        raise ValueError(f"unknown routing rule set {base!r}; built in: {sorted(ROUTING_RULES)}")
    unknown = sorted(set(overrides) - set(RULE_VALUES))
    if unknown:
        raise ValueError(f"unknown routing rules {unknown}; the rules are {sorted(RULE_VALUES)}")
    if not overrides:
        return rules
    sources = {k: v for k, v in rules.sources.items() if k not in overrides}
    return dataclasses.replace(rules, **overrides, sources=dict(sources, **{k: "overridden" for k in overrides}))


def resolve_rules(routing, dialect: Dialect) -> RoutingRules:
    if routing is None:
        return ROUTING_RULES.get(dialect.name, ROUTING_RULES["jms"])
    return routing_rules(routing)
