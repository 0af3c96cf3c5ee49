"""`Dialect`: the documented differences between selector engines, as one frozen value.

A `Dialect` is passed explicitly to every function that parses or evaluates; there is no global
"current dialect". Each field is one real, observable difference between systems (the dialect
pages of the docs say which system does what, and from which source). Parse-time fields are read
by the front end (lexer, parser, checker, printer) and the header fields by the binder; every
evaluation-time field is read in one place, `semantics.lowering`, which turns it into the
decisions the back ends render. A new broker is a new entry of `dialects.DIALECTS`; a new
evaluation rule is a new field here, one decision in `semantics.lowering` and, where it needs a
new primitive, its rendering in each back end.
"""
from __future__ import annotations

import sys

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Mapping

from .data_model import HEADER_TYPES, JMS_HEADERS
from .types import JmsType as _T

__all__ = ["Dialect", "OPERATORS", "ARITY"]

#: Operator names `Dialect.operators` can list (the surface forms; ``unary -`` is a sign on a
#: non-literal operand: signed literals such as ``-957`` are literals).
OPERATORS = frozenset({"OR", "AND", "NOT", "=", "<>", "<", ">", "<=", ">=", "BETWEEN", "NOT BETWEEN", "IN", "NOT IN",
                       "LIKE", "NOT LIKE", "IS NULL", "IS NOT NULL", "+", "-", "*", "/", "%", "unary +", "unary -"})

@dataclass(frozen=True)
class Dialect:
    """The rules one selector engine applies.

    Attributes
    ----------
    name : str
        Short name (``"jms"``, ``"activemq"``).
    not_binds_tighter : bool
        ``NOT a = 1`` parses as ``(NOT a) = 1`` (ActiveMQ's grammar) instead of ``NOT (a = 1)``.
    null_between_is_false : bool
        ``x BETWEEN a AND b`` with any NULL operand is FALSE (and NOT BETWEEN TRUE), as the JMS
        text says; otherwise UNKNOWN (SQL, ActiveMQ).
    integer_division : str
        ``"truncate"``: ``/`` on two exact numerics is Java integer division (by zero: UNKNOWN);
        ``"double"``: it is floating division (``5/2 = 2.5``, ``5/0 = Infinity``).
    narrow_int_literals : bool
        An exact literal that fits in 32 bits is a Java ``int`` (so ``2147483647 + 1`` wraps);
        otherwise every exact literal is a ``long``.
    extended_literals : bool
        Accept ``0x1F`` hex, ``017`` octal and a ``L`` suffix on exact literals.
    string_ordering : bool
        ``<, >, <=, >=`` between two strings compare them lexically (UTF-16 order) instead of
        giving FALSE.
    modulo : bool
        Accept ``%`` (Java remainder).
    string_concatenation : bool
        ``'a' + x`` concatenates when the left value is a string (ActiveMQ); otherwise it is a
        type error (UNKNOWN).
    comparison_promotion : Mapping or None
        ``(left type, right type) → type both are converted to`` before a comparison; a pair of
        different numeric types that is absent compares FALSE. None: Java's symmetric binary
        numeric promotion. ActiveMQ's table is asymmetric (``int = byte`` is FALSE, ``byte = int``
        is compared).
    float_arithmetic_as_double : bool
        ``+ - * / %`` with a float operand compute in double (ActiveMQ) instead of Java float.
    null_equality : str
        ``"unknown"``: ``=`` with a NULL operand is UNKNOWN (SQL, JMS). ``"activemq"``: NULL on
        the left is UNKNOWN, NULL only on the right is FALSE, NULL on both sides is TRUE.
        ``"andes"`` (WSO2, ActiveMQ before AMQ-5281): NULL on one side is FALSE, on both TRUE.
    ne_is_not_eq : bool
        ``a <> b`` is ``NOT (a = b)``, so unlike types give TRUE (ActiveMQ); otherwise ``<>`` of
        unlike types is FALSE like every other comparison of unlike types.
    in_non_string_unknown : bool
        ``x [NOT] IN (...)`` where x is not a string is UNKNOWN (ActiveMQ) rather than FALSE
        (TRUE when negated).
    not_between_as_or : bool
        ``x NOT BETWEEN a AND b`` is ``x < a OR x > b`` (ActiveMQ) rather than
        ``NOT (x BETWEEN a AND b)``.
    static_operand_checks : bool
        Reject at parse time arithmetic on string/boolean literals and LIKE on non-string
        literals (JMS). ActiveMQ only fails, or gives FALSE, when the message is evaluated.
    unary_plus_identity : bool
        Unary ``+`` returns its operand unchanged, whatever its type (ActiveMQ); otherwise it is
        numeric only (a string or boolean gives NULL).
    comments : bool
        Accept ``/* … */`` and ``-- …<newline>`` comments (ActiveMQ's grammar has them; the JMS
        specification has none).
    unicode_identifiers : bool
        Identifiers may use any Java letter (JMS); ActiveMQ's grammar takes ASCII letters,
        digits, ``_`` and ``$`` only.
    functions : frozenset
        Built-in functions callable as ``NAME(args)`` (ActiveMQ: REGEX, INLIST, SPLIT,
        MAKELIST, REPLACE); empty in JMS.
    compare_to_doubles : bool
        Doubles compare with ``Double.equals`` / ``Double.compareTo`` (NaN = NaN, NaN is the
        greatest value, -0.0 < 0.0) instead of Java ``==``/``<`` (NaN equals nothing, -0.0 = 0.0).
    in_requires_identifier : bool
        The left side of IN must be a header or property name.
    headers : frozenset
        Header names that refer to message headers (others are properties).
    header_aliases : Mapping[str, str]
        Extra names for headers (Solace's ``ci``, ``mi``…).
    max_length : int | None
        Longest selector accepted, in UTF-8 bytes.
    reserved_words : frozenset
        Words reserved beyond the JMS keywords, upper case (ActiveMQ: ``XPATH``, ``XQUERY``, its
        body-selector keywords): never identifiers, in any case.
    like_escape_as_hex : bool
        LIKE reads an escaped character the way ActiveMQ's ``LikeExpression`` compiles it: as
        ``\\x`` + ``Integer.toHexString(c)`` inside a Java regex, which is the character itself
        only for U+0010..U+00FF. An escape character below U+0010 escaping itself swallows the
        next pattern character as a second hex digit (or makes the selector invalid); one above
        U+00FF escaping itself stands for U+00hh and the remaining hex digits as text. The
        pattern is rewritten once, at parse time (``activemq_like.py``).
    jdk : int
        The Java version whose ``Double.toString``/``Float.toString`` string concatenation and
        functions use: below 19 FloatingDecimal (``1e23`` → ``9.999999999999999E22``,
        ``Double.MIN_VALUE`` → ``4.9E-324``; ActiveMQ on Debian's JDK 17), 19 and later the
        shortest form (``1.0E23``).
    string_conversion_prefix : bool
        Accept ActiveMQ's ``convert_string_expressions:`` prefix (exactly, at position 0): the
        selector is parsed without it and gets ``convert_string_expressions=True``.
    convert_string_expressions : bool
        Comparisons between a string and a number or boolean convert the string with the Java
        ``valueOf`` of the other operand's class (ActiveMQ's ``ComparisonExpression.compare``
        under the prefix; invalid text compares FALSE).

    Artemis, Qpid and RabbitMQ (``artemis``, ``qpid``, ``qpid-jms``, ``qpid-cpp``, ``rabbitmq``):

    quoted_identifiers : bool
        ``"any text"`` is an identifier (``""`` inside stands for ``"``), so properties such as
        ``a.test`` or ``hyphenated-prop`` can be named (Artemis, Qpid Broker-J, qpid-jms).
    chained_comparisons : bool
        With ``not_binds_tighter`` False: the predicates chain as in ActiveMQ's grammar (``a = b =
        c`` is ``(a = b) = c``) while ``NOT`` still takes a whole predicate (Qpid Broker-J).
    bang_equals : bool
        ``!=`` is another spelling of ``<>`` (RabbitMQ's SQL filter).
    ordering_literal_checks : bool
        Reject at parse time a string or boolean literal as an operand of ``< > <= >=`` or
        BETWEEN (JMS). Without it they are evaluated (RabbitMQ: strings in lexical order, a string
        against a number FALSE).
    value_conditions : bool
        Any expression may stand where a condition is expected (``+weight`` as a whole selector,
        RabbitMQ); it is TRUE only when its value is a boolean TRUE.
    strict_like_patterns : bool
        A LIKE pattern holding a control character (below U+0020, or U+007F) or ending in its
        escape character is invalid (RabbitMQ's ``check_char``, ``invalid_escape_at_end``).
    max_tokens : int | None
        Most tokens a selector may have (RabbitMQ: 200).
    escape_code_points : bool
        An ESCAPE is one Unicode character (a code point, RabbitMQ's Erlang lists) rather than
        one Java char (UTF-16 unit).
    ordered_booleans : bool
        With ``string_ordering``: ``<`` etc. on two booleans order FALSE before TRUE (ActiveMQ's
        ``Comparable``); otherwise they compare FALSE (RabbitMQ orders numbers and strings only).
    dotted_identifiers : bool
        ``.`` may continue an identifier (``period.bool.prop``: the RabbitMQ JMS client).
    constant_type_checks : bool
        A comparison of two literals of unlike types (``TRUE = 'a'``) is invalid (the RabbitMQ
        JMS client's type checker).
    erlang_term_order, non_boolean_condition_unknown, between_null_unknown, like_escape_one_byte : bool
        RabbitMQ's ``sjx_evaluator`` (`erlang_terms`): unlike types ordered number < boolean < string
        (``s > 5`` TRUE), strings by code point; a non-boolean condition UNKNOWN; BETWEEN UNKNOWN
        with any NULL operand; LIKE UNKNOWN (the engine raises) with an ESCAPE that is not one byte.
    rabbitmq_client_grammar : bool
        Selectors are read by the RabbitMQ JMS client's tokenizer, grammar and type checker
        (`frontend.rabbitmq_client`), which `jms_selector_spark.to_rabbitmq_term` compiles.

    IBM MQ (``ibmmq``, ``mqe``):

    zero_id_wildcard : bool
        IBM MQ: a selector that is exactly ``JMSMessageID='ID:'+48 zeros`` or
        ``JMSCorrelationID='ID:'+48 zeros`` (blanks around ``=`` allowed, nothing else) matches
        every message, also one without a correlation id (the client gets the first message with
        MQMI_NONE/MQCI_NONE). In that exact form a non-zero id compares as bytes, so lower-case hex
        selects the id an archive holds as ``ID:`` + upper-case hex. Any other form is plain string
        equality. Decided at parse time.
    reject_constant_false : bool
        IBM MQ: a selector that refers to no header or property and is FALSE is invalid
        (``MQRC_SELECTOR_ALWAYS_FALSE``, 2504): ``1 = 2``, ``FALSE``, ``'a' = 'b'``.
    operators : frozenset or None
        The operators the dialect has (names from `OPERATORS`); any other is a syntax error at
        its position. None: every operator of the grammar (MQe: only AND, ``=``, IS NULL).
    header_typed_literals : bool
        MQe: an exact literal compared with a header takes the header's type (int for JMSPriority
        and JMSDeliveryMode, long for JMSTimestamp/JMSExpiration), and a header column is read as
        the header's own type whatever its integer width. Property literals keep long/double.
    delivery_mode_int : bool
        MQe: JMSDeliveryMode is the int constant (PERSISTENT = 2, NON_PERSISTENT = 1), not the
        strings ``'PERSISTENT'``/``'NON_PERSISTENT'`` of JMS.

    WSO2 and Solace (``wso2``, ``solace``):

    logic : str
        ``"kleene"``: AND/OR are SQL's three-valued operators.
        ``"andes"``: ActiveMQ r450141's ``LogicExpression`` (WSO2): ``a AND b`` is UNKNOWN as soon
        as ``a`` is, else FALSE when ``a`` is, else ``b``; ``a OR b`` is TRUE when ``a`` is, else
        ``b`` (so ``UNKNOWN AND FALSE`` is UNKNOWN and ``UNKNOWN OR FALSE`` FALSE). BETWEEN and
        NOT BETWEEN, built from AND/OR there, follow the same rule.
    require_eof : bool
        The whole text must be one selector. False (WSO2's grammar has no ``<EOF>``): parsing
        stops before the first token that cannot continue the selector and the rest is ignored
        (``ShortMsgID=32,767`` is ``ShortMsgID=32``; ``0.0f`` is ``0.0`` then ``f``); the ignored
        text must still lex, and a selector that is incomplete where it stops is invalid.
    blank_selector_invalid : bool
        A selector of blanks only is a syntax error (WSO2 parses it); the empty string is still
        "no selector".
    header_overrides : Mapping[str, object]
        Headers whose value is fixed whatever the message holds: ``None`` is always NULL (WSO2's
        JMSDestination), a value that value (WSO2's JMSRedelivered: FALSE when selecting).
    null_header_defaults : Mapping[str, object]
        The value a header reads when the message has none (NULL, or no column): WSO2 reads an
        unset JMSTimestamp or JMSExpiration as 0 (primitive getters).
    alias_only_headers : frozenset
        Headers reachable only through an alias of ``header_aliases`` (Solace's SenderID,
        SequenceNo…: ``sn`` is the header, ``SequenceNo`` stays a property name).

    Qpid C++ (``qpid-cpp``, as its src/qpid/broker/Selector*.cpp reads selectors; docs/dialects/qpid-cpp.md):

    cpp_literals : bool
        Numbers as SelectorToken.cpp lexes them: ``0b`` binary, ``_`` separators, ``L`` and ``f``/``d``
        suffixes, hex floats (``0x800p-3``), leading ``0`` octal; hex/binary/octal wrap to int64.
    in_expressions : bool
        IN takes any expressions on both sides: ``x IN (a, b)`` is ``x = a OR x = b``; NOT IN is
        FALSE when an element's type is unlike x's (UNKNOWN when an element is NULL).
    cpp_like_escape : bool
        ESCAPE ``''`` is no escape; ``'%'``, ``'_'`` or several UTF-8 bytes are invalid; the escape
        character never stands for itself.
    long_arithmetic, like_non_string_unknown : bool
        Exact values compute in 64 bits whatever their width (unary minus too); ``x [NOT] LIKE p``
        on a non-NULL non-string is UNKNOWN instead of FALSE (TRUE).
    """

    name: str
    not_binds_tighter: bool = False
    null_between_is_false: bool = True
    integer_division: str = "truncate"
    narrow_int_literals: bool = False
    extended_literals: bool = False
    string_ordering: bool = False
    modulo: bool = False
    string_concatenation: bool = False
    compare_to_doubles: bool = False
    comparison_promotion: "Mapping | None" = None
    float_arithmetic_as_double: bool = False
    null_equality: str = "unknown"
    ne_is_not_eq: bool = False
    in_non_string_unknown: bool = False
    not_between_as_or: bool = False
    static_operand_checks: bool = True
    unary_plus_identity: bool = False
    comments: bool = False
    unicode_identifiers: bool = True
    functions: frozenset = frozenset()
    in_requires_identifier: bool = True
    headers: frozenset = JMS_HEADERS
    header_aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    max_length: int | None = None
    reserved_words: frozenset = frozenset()
    like_escape_as_hex: bool = False
    jdk: int = 17
    string_conversion_prefix: bool = False
    convert_string_expressions: bool = False
    # -- the brokers judged against their own test suites: artemis, qpid, qpid-jms, qpid-cpp, rabbitmq --
    quoted_identifiers: bool = False
    chained_comparisons: bool = False
    bang_equals: bool = False
    ordering_literal_checks: bool = True
    value_conditions: bool = False
    strict_like_patterns: bool = False
    max_tokens: "int | None" = None
    escape_code_points: bool = False
    ordered_booleans: bool = True
    dotted_identifiers: bool = False
    constant_type_checks: bool = False
    between_null_unknown: bool = False
    erlang_term_order: bool = False
    non_boolean_condition_unknown: bool = False
    like_escape_one_byte: bool = False
    rabbitmq_client_grammar: bool = False
    # -- ibmmq / mqe --
    zero_id_wildcard: bool = False
    reject_constant_false: bool = False
    operators: "frozenset | None" = None
    header_typed_literals: bool = False
    delivery_mode_int: bool = False
    # -- wso2 / solace --
    logic: str = "kleene"
    require_eof: bool = True
    blank_selector_invalid: bool = False
    header_overrides: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    null_header_defaults: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    alias_only_headers: frozenset = frozenset()
    # -- qpid-cpp --
    cpp_literals: bool = False
    in_expressions: bool = False
    cpp_like_escape: bool = False
    long_arithmetic: bool = False
    like_non_string_unknown: bool = False

    def __post_init__(self):
        if self.null_equality not in ("unknown", "activemq", "andes"):
            raise ValueError(f"null_equality must be 'unknown', 'activemq' or 'andes', not {self.null_equality!r}")
        if self.logic not in ("kleene", "andes"):
            raise ValueError(f"logic must be 'kleene' or 'andes', not {self.logic!r}")
        if self.integer_division not in ("truncate", "double"):
            raise ValueError(f"integer_division must be 'truncate' or 'double', not {self.integer_division!r}")
        if self.operators is not None and not self.operators <= OPERATORS:
            raise ValueError(f"operators: unknown {sorted(self.operators - OPERATORS)}; known: {sorted(OPERATORS)}")

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        # MappingProxyType does not pickle; Spark ships dialects to executors inside UDFs. A
        # built-in dialect unpickles as the built-in object itself (caches and `is` checks key on
        # it): its table (`language.dialects`, which imports this module, so it is looked up, not
        # imported) is loaded whenever a built-in exists. Any other dialect is a value, rebuilt
        # from its fields (equal, and equally hashed, to the original).
        table = sys.modules.get(__name__ + "s")  # jms_selector_spark.language.dialects
        if table is not None and table.DIALECTS.get(self.name) is self:
            return (table.get_dialect, (self.name,))
        state = {f: getattr(self, f) for f in self.__dataclass_fields__}
        state = {k: dict(v) if isinstance(v, MappingProxyType) else v for k, v in state.items()}
        return (_rebuild, (state,))

    def header_for(self, name: str) -> str | None:
        """The header a selector name refers to, or None when it names a property.

        An alias names its header; a header of ``alias_only_headers`` is reached only through its
        alias (Solace: ``sn`` is SequenceNo, the bare name ``SequenceNo`` is a property)."""
        aliased = self.header_aliases.get(name)
        if aliased is not None:
            return aliased if aliased in self.headers else None
        if name in self.alias_only_headers:
            return None
        return name if name in self.headers else None

    def header_type(self, header: str) -> _T:
        """The JMS type of a header's value in this dialect (`HEADER_TYPES`; MQe's int JMSDeliveryMode)."""
        if header == "JMSDeliveryMode" and self.delivery_mode_int:
            return _T.INT
        return HEADER_TYPES.get(header, _T.STRING)

    def derive(self, **changes) -> "Dialect":
        """A copy with some rules changed (``JMS.derive(name="mine", modulo=True)``)."""
        return replace(self, **changes)

#: Arguments of each built-in function (ActiveMQ's ``isValid``, checked by the parser): (least, most or None).
ARITY = MappingProxyType({"REGEX": (2, 2), "INLIST": (2, 2), "SPLIT": (2, 3), "REPLACE": (3, 3),
                          "MAKELIST": (1, None)})

def _rebuild(state: dict) -> "Dialect":
    state = {k: MappingProxyType(v) if isinstance(v, dict) else v for k, v in state.items()}
    return Dialect(**state)
