"""The built-in dialects (`DIALECTS`) and `get_dialect`; the `Dialect` value itself is in `dialect`.

Built in, each entry's comment saying what it follows: ``jms`` (the JMS specification's text),
``activemq`` (ActiveMQ Classic 5.17, measured against its own engine), ``ibmmq``, ``mqe``,
``wso2``, ``solace`` (their vendors' documentation), and the brokers judged against their own
test suites: ``artemis``, ``qpid`` (Broker-J), ``qpid-jms``, ``rabbitmq`` (the broker's SQL
filter), ``rabbitmq-jms`` (JMS client + topic exchange), ``qpid-cpp`` (the Qpid C++ broker). The
docs' dialect pages give each rule with its source.
"""
from __future__ import annotations

from types import MappingProxyType

from .data_model import (HEADER_TYPES, JMS_ALL_HEADERS, JMS_HEADERS, QPID_CPP_ALIASES, SOLACE_HEADERS, ZERO_ID,
                         delivery_mode_code, delivery_mode_name)
from .dialect import ARITY, OPERATORS, Dialect
from .types import ACTIVEMQ_COMPARISON_PROMOTION, EXACT_ONLY_PROMOTION, INT64_DOUBLE_PROMOTION

__all__ = ["Dialect", "JMS", "ACTIVEMQ", "IBMMQ", "MQE", "WSO2", "SOLACE", "ARTEMIS", "QPID", "QPID_JMS", "RABBITMQ",
           "RABBITMQ_JMS", "QPID_CPP", "DIALECTS", "get_dialect", "JMS_HEADERS", "JMS_ALL_HEADERS", "SOLACE_HEADERS",
           "ACTIVEMQ_COMPARISON_PROMOTION", "ARITY", "HEADER_TYPES", "delivery_mode_name", "delivery_mode_code",
           "OPERATORS", "ZERO_ID"]


JMS = Dialect(name="jms")

ACTIVEMQ = Dialect(
    name="activemq",
    not_binds_tighter=True,
    null_between_is_false=False,
    integer_division="double",
    narrow_int_literals=True,
    extended_literals=True,
    string_ordering=True,
    modulo=True,
    string_concatenation=True,
    compare_to_doubles=True,
    comparison_promotion=ACTIVEMQ_COMPARISON_PROMOTION,
    float_arithmetic_as_double=True,
    null_equality="activemq",
    ne_is_not_eq=True,
    in_non_string_unknown=True,
    not_between_as_or=True,
    static_operand_checks=False,
    unary_plus_identity=True,
    comments=True,
    unicode_identifiers=False,
    functions=frozenset({"REGEX", "INLIST", "SPLIT", "MAKELIST", "REPLACE"}),
    in_requires_identifier=True,
    headers=JMS_HEADERS | {"JMSRedelivered", "JMSExpiration", "JMSReplyTo", "JMSDestination"},
    reserved_words=frozenset({"XPATH", "XQUERY"}),
    like_escape_as_hex=True,
    jdk=17,
    string_conversion_prefix=True,
)

# -- the brokers whose selector test suites tests/conformance/other-brokers.jsonl carries --
_AMQ_FAMILY = dict(functions=frozenset(), string_conversion_prefix=False, quoted_identifiers=True)

ARTEMIS = ACTIVEMQ.derive(
    name="artemis",
    **_AMQ_FAMILY,
    headers=JMS_HEADERS | {"JMSExpiration"},
    header_aliases=MappingProxyType({"AMQUserID": "JMSMessageID", "AMQPriority": "JMSPriority",
                                     "AMQTimestamp": "JMSTimestamp", "AMQExpiration": "JMSExpiration"}),
)

QPID_JMS = ACTIVEMQ.derive(name="qpid-jms", **_AMQ_FAMILY)

QPID = ACTIVEMQ.derive(name="qpid", **_AMQ_FAMILY, not_binds_tighter=False, chained_comparisons=True)

#: RabbitMQ's broker-side filter for AMQP 1.0 consumers (rabbit_amqp_filter_sql, Erlang): JMS
#: selectors as the SQL Filter Expressions draft extends them.
RABBITMQ = JMS.derive(
    name="rabbitmq",
    integer_division="double",
    modulo=True,
    string_ordering=True,
    ordered_booleans=False,
    ne_is_not_eq=True,
    null_between_is_false=False,
    static_operand_checks=False,
    ordering_literal_checks=False,
    value_conditions=True,
    bang_equals=True,
    strict_like_patterns=True,
    max_length=4096,
    max_tokens=200,
    escape_code_points=True,
)

#: The RabbitMQ JMS client (its parser and type checker) with the JMS topic exchange plugin that
#: evaluates the selector (sjx_evaluator, Erlang; LIKE on a number raises: UNKNOWN here).
RABBITMQ_JMS = JMS.derive(
    name="rabbitmq-jms", rabbitmq_client_grammar=True, dotted_identifiers=True, constant_type_checks=True,
    integer_division="double", string_ordering=True, ne_is_not_eq=True, null_between_is_false=False,
    erlang_term_order=True, non_boolean_condition_unknown=True, between_null_unknown=True, like_escape_one_byte=True,
    like_non_string_unknown=True, long_arithmetic=True, float_arithmetic_as_double=True)

#: The Qpid C++ broker (qpidd), src/qpid/broker/Selector*.cpp: values are int64, double, string, boolean.
QPID_CPP = JMS.derive(
    name="qpid-cpp", null_between_is_false=False, extended_literals=True, cpp_literals=True,
    comparison_promotion=INT64_DOUBLE_PROMOTION, float_arithmetic_as_double=True, long_arithmetic=True,
    static_operand_checks=False, ordering_literal_checks=False, value_conditions=True, unary_plus_identity=True,
    unicode_identifiers=False, quoted_identifiers=True, dotted_identifiers=True, in_requires_identifier=False,
    in_expressions=True, cpp_like_escape=True, like_non_string_unknown=True,
    headers=JMS_ALL_HEADERS, header_aliases=QPID_CPP_ALIASES,
    header_overrides=MappingProxyType({"JMSRedelivered": True}),  # Selector.cpp: "delivery count >= 0"
    null_header_defaults=MappingProxyType({"JMSExpiration": 0}))  # "Java property has value of 0"

# -- ibmmq / mqe: docs/dialects/ibm-mq.md --
IBMMQ = JMS.derive(
    name="ibmmq",
    max_length=10240,
    extended_literals=True,
    zero_id_wildcard=True,
    reject_constant_false=True,
)

MQE = JMS.derive(
    name="mqe",
    operators=frozenset({"AND", "=", "IS NULL"}),
    # "Only values of the same type can be compared", without JMS's numeric-promotion exception
    comparison_promotion=EXACT_ONLY_PROMOTION,
    header_typed_literals=True,
    delivery_mode_int=True,
    headers=JMS_HEADERS | {"JMSExpiration"},
)

# -- wso2 / solace: docs/dialects/wso2.md, docs/dialects/solace.md --

#: WSO2 Message Broker 3.x: andes' selector, ActiveMQ r450141 (2006) as Qpid Java 0.1x copied it.
WSO2 = ACTIVEMQ.derive(
    name="wso2",
    null_equality="andes",
    logic="andes",
    require_eof=False,
    quoted_identifiers=True,
    functions=frozenset(),
    blank_selector_invalid=True,
    string_conversion_prefix=False,  # ActiveMQ 5.x's prefix came later
    headers=JMS_ALL_HEADERS,
    header_aliases=MappingProxyType({"AMQMessageID": "JMSMessageID"}),
    header_overrides=MappingProxyType({"JMSDestination": None, "JMSRedelivered": False}),
    null_header_defaults=MappingProxyType({"JMSTimestamp": 0, "JMSExpiration": 0}),
)

#: Solace PubSub+: JMS 1.1 rules, a 2,000-byte limit, ten two-letter aliases, JMSReplyTo and five
#: Solace-only headers selectable.
SOLACE = JMS.derive(
    name="solace",
    max_length=2000,
    headers=JMS_HEADERS | {"JMSReplyTo"} | SOLACE_HEADERS,
    header_aliases=MappingProxyType({
        "ci": "JMSCorrelationID", "mi": "JMSMessageID", "mt": "JMSType", "rt": "JMSReplyTo", "ts": "JMSTimestamp",
        "si": "SenderID", "sn": "SequenceNo", "ex": "Expiration", "ct": "HttpContentType", "ce": "HttpContentEncoding",
    }),
    alias_only_headers=SOLACE_HEADERS,
)

DIALECTS = MappingProxyType({d.name: d for d in (JMS, ACTIVEMQ, IBMMQ, MQE, WSO2, SOLACE, ARTEMIS, QPID, QPID_JMS,
                                                  RABBITMQ, RABBITMQ_JMS, QPID_CPP)})


def get_dialect(dialect: "str | Dialect") -> Dialect:
    """Return the `Dialect` for a name, or ``dialect`` itself when it already is one."""
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect]
    except (KeyError, TypeError):
        raise ValueError(f"unknown dialect {dialect!r}; expected one of {sorted(DIALECTS)}") from None
