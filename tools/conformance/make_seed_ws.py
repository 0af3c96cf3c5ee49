"""Write ``seed-ws.jsonl``: the ``wso2`` and ``solace`` rules of docs/dialects/wso2.md and solace.md, one
case (or a few) per rule, three-valued, each with its source.

The expectations are written here by hand from those pages' rules (WSO2: measured on andes' own selector
code; Solace: the seed and Solace's pages), not computed by this project: ``python
tools/conformance/make_seed_ws.py`` regenerates the file, `test_conformance.py` (reference),
`tests/unit/test_seed_ws.py` (vectorized) and `tests/spark/test_seed_ws_spark.py` (SQL, every layout,
ANSI on/off) check every back end against them.

A case is (id, selector, headers, properties, wso2, solace, source); properties are
``{name: (type, value)}``; an expectation is True / False / None (UNKNOWN) / "invalid".
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parents[2] / "tests" / "conformance"  # where the corpora live
D3 = "docs/dialects/wso2.md "
D4 = "docs/dialects/solace.md "
EQ = D3 + "'= with NULL': wso2/andes ComparisonExpression.EqualExpression (measured)"
LOGIC = D3 + "'AND/OR': wso2/andes LogicExpression (measured)"
EOF_ = D3 + "'no EOF': SelectorParser.jj has no <EOF> (measured)"
DEST = D3 + "'JMSDestination': PropertyExpression '//TODO return null' (measured); seed 003"
ALIAS = D4 + "'aliases': seed 004 identifier table"
SOL = D4 + "'Solace-only headers': seed 004 identifier table; connector header tables (types)"
S = "string"
L = "long"

E_2000 = "é" * 997  # `s = '` + 997 two-byte characters + `'`: 2,000 UTF-8 bytes

CASES = [
    # -- = with NULL ---------------------------------------------------------------------------------
    ("eq-missing", "color = 'x'", {}, {}, False, None, EQ),
    ("ne-missing", "color <> 'x'", {}, {}, True, None, EQ),
    ("not-eq-missing", "NOT (color = 'x')", {}, {}, True, None, EQ),
    ("eq-two-missing", "a = b", {}, {}, True, None, EQ),
    ("ne-two-missing", "a <> b", {}, {}, False, None, EQ),
    ("eq-missing-right", "'x' = color", {}, {}, False, None, EQ),
    ("eq-one-missing-prop", "a = b", {}, {"a": (L, 1)}, False, None, EQ),
    ("eq-present", "color = 'x'", {}, {"color": (S, "x")}, True, True, EQ),
    ("ne-present", "color <> 'x'", {}, {"color": (S, "y")}, True, True, EQ),
    ("gt-missing", "qty > 1", {}, {}, None, None, EQ + "; ordering with NULL is UNKNOWN"),
    ("eq-null-literal", "x = NULL", {}, {}, "invalid", "invalid",
     D3 + "'NULL literal': checkEqualOperand; SelectorParserTest (measured)"),
    ("null-eq-literal", "NULL = 0", {}, {}, "invalid", "invalid", D3 + "'NULL literal' (measured)"),
    # -- AND / OR --------------------------------------------------------------------------------------
    ("or-unknown-false-not", "NOT (missing > 1 OR FALSE)", {}, {}, True, None, LOGIC),
    ("and-unknown-false-not", "NOT (missing > 1 AND FALSE)", {}, {}, None, True, LOGIC),
    ("or-unknown-false", "missing > 1 OR FALSE", {}, {}, False, None, LOGIC),
    ("and-unknown-false", "missing > 1 AND FALSE", {}, {}, None, False, LOGIC),
    ("and-false-unknown-not", "NOT (FALSE AND missing > 1)", {}, {}, True, True, LOGIC),
    ("or-true-unknown-not", "NOT (TRUE OR missing > 1)", {}, {}, False, False, LOGIC),
    ("or-unknown-true-not", "NOT (missing > 1 OR TRUE)", {}, {}, False, False, LOGIC),
    ("or-three-not", "NOT (m1 > 1 OR m2 > 1 OR FALSE)", {}, {}, True, None, LOGIC),
    ("and-true-unknown-not", "NOT (a > 1 AND b > 1)", {}, {"a": (L, 2)}, None, None, LOGIC),
    ("and-three", "a > 1 AND m > 1 AND a < 0", {}, {"a": (L, 2)}, None, False, LOGIC),
    ("between-null-low-not", "NOT (x BETWEEN lo AND 3)", {}, {"x": (L, 5)}, None, True,
     LOGIC + "; createBetween is an AND of >= and <= (jms: BETWEEN with NULL is FALSE)"),
    ("between-null-low", "x BETWEEN lo AND 7", {}, {"x": (L, 5)}, None, False, LOGIC),
    ("not-between-null-low", "x NOT BETWEEN lo AND 7", {}, {"x": (L, 5)}, False, True,
     LOGIC + "; createNotBetween is an OR of < and >"),
    ("between-missing", "x BETWEEN 1 AND 2", {}, {}, None, False, LOGIC + "; jms text for solace"),
    # -- no EOF -----------------------------------------------------------------------------------------
    ("seed-short-32", "ShortMsgID=32,767", {}, {"ShortMsgID": ("short", 32)}, True, "invalid", EOF_ + "; seed 003 example"),
    ("seed-short-32767", "ShortMsgID=32,767", {}, {"ShortMsgID": ("short", 32767)}, False, "invalid", EOF_ + "; seed 003 example"),
    ("seed-float-f", "FloatMSgID = 0.0f", {}, {"FloatMSgID": ("float", 0.0)}, True, "invalid", EOF_ + "; seed 003 example"),
    ("trailing-word", "a = 1 garbage", {}, {"a": (L, 1)}, True, "invalid", EOF_),
    ("trailing-paren", "a = 1 )", {}, {"a": (L, 1)}, True, "invalid", EOF_),
    ("trailing-not", "a = 1 NOT x", {}, {"a": (L, 2)}, False, "invalid", EOF_ + "; JavaCC's LOOKAHEAD(2) at NOT (inferred)"),
    ("regex-is-a-property", "REGEX(x,'y')", {}, {}, None, "invalid", D3 + "'functions': none; REGEX is a bare property (measured)"),
    ("trailing-bad-char", "a = 1 !", {}, {"a": (L, 1)}, "invalid", "invalid", EOF_ + "; the next token must lex"),
    ("trailing-and", "a = 1 AND", {}, {"a": (L, 1)}, "invalid", "invalid", EOF_ + "; missing operand"),
    ("octal-then-digit", "a = 09", {}, {"a": (L, 0)}, True, "invalid", EOF_ + "; JavaCC longest match: 0 then 9 (inferred)"),
    # -- quoted identifiers, functions, empty/blank ------------------------------------------------------
    ("quoted-id", '"property-with-hyphen" = \'x\'', {}, {"property-with-hyphen": (S, "x")}, True, "invalid",
     D3 + "'quoted identifiers': SelectorParserTest, systest (measured)"),
    ("quoted-id-escape", '"a""b" = 1', {}, {'a"b': (L, 1)}, True, "invalid", D3 + "'quoted identifiers' (measured)"),
    ("empty", "", {}, {}, True, True, D3 + "'empty and blank': BasicMessageConsumer_0_8; JMS"),
    ("blank", "   ", {}, {}, "invalid", True, D3 + "'empty and blank': grammar (measured)"),
    # -- JMSDestination, JMSRedelivered, the "not filtered" headers, defaults, AMQMessageID ---------------
    ("dest-eq", "JMSDestination = 'q'", {"JMSDestination": "q"}, {}, False, None, DEST + "; solace: a property (jms)"),
    ("dest-ne", "JMSDestination <> 'q'", {"JMSDestination": "q"}, {}, True, None, DEST),
    ("dest-is-null", "JMSDestination IS NULL", {"JMSDestination": "q"}, {}, True, True, DEST),
    ("seed-destqueue", "JMSDestination=destqueue", {"JMSDestination": "destqueue"}, {}, True, None, DEST + "; seed 003 example"),
    ("redelivered", "JMSRedelivered = FALSE", {"JMSRedelivered": True}, {}, True, None,
     D3 + "'JMSRedelivered': AMQPLocalSubscription, QueueEntryImpl (measured)"),
    ("redelivered-bare", "JMSRedelivered", {"JMSRedelivered": True}, {}, False, None, D3 + "'JMSRedelivered' (measured)"),
    ("delivery-mode", "JMSDeliveryMode = 'PERSISTENT'", {"JMSDeliveryMode": "PERSISTENT"}, {}, True, True,
     D3 + "'JMSDeliveryMode, JMSPriority, JMSExpiration': conflict, follow the code (evaluated)"),
    ("priority", "JMSPriority > 4", {"JMSPriority": 7}, {}, True, True, D3 + "'JMSDeliveryMode, JMSPriority, JMSExpiration'"),
    ("expiration", "JMSExpiration > 0", {"JMSExpiration": 1000}, {}, True, None,
     D3 + "'JMSDeliveryMode, JMSPriority, JMSExpiration'; " + D4 + "'everything else': a property by its JMS name"),
    ("timestamp-unset-is-null", "JMSTimestamp IS NULL", {}, {}, False, True,
     D3 + "'never NULL': primitive getters read 0 (measured)"),
    ("timestamp-unset-zero", "JMSTimestamp = 0", {}, {}, True, None, D3 + "'never NULL' (measured)"),
    ("expiration-unset-zero", "JMSExpiration = 0", {}, {}, True, None, D3 + "'never NULL' (measured)"),
    ("timestamp-set", "JMSTimestamp = 5", {"JMSTimestamp": 5}, {}, True, True, D3 + "'never NULL'"),
    ("amq-message-id", "AMQMessageID = 'ID:1'", {"JMSMessageID": "ID:1"}, {}, True, None,
     D3 + "'AMQMessageID': PropertyExpression (measured)"),
    ("reply-to", "JMSReplyTo = 'queue://r'", {"JMSReplyTo": "queue://r"}, {}, True, True,
     D3 + "'headers'; " + D4 + "'JMSReplyTo': selectable"),
    # -- what wso2 keeps from activemq ------------------------------------------------------------------
    ("double-division", "5 / 2 = 2.5", {}, {}, True, False, D3 + "'base': ArithmeticExpression divides in double"),
    ("hex-literal", "i = 0x1F", {}, {"i": (L, 31)}, True, "invalid", D3 + "'base': hex/octal/L"),
    ("concatenation", "s + 'x' = 'ax'", {}, {"s": (S, "a")}, True, "invalid", D3 + "'base': + concatenates strings (jms: arithmetic on a string literal is rejected)"),
    ("comment", "a = 1 /* c */", {}, {"a": (L, 1)}, True, "invalid", D3 + "'base': comments"),
    ("modulo", "a % 3 = 1", {}, {"a": (L, 4)}, True, "invalid", D3 + "'base': %"),
    ("string-order", "s < t", {}, {"s": (S, "a"), "t": (S, "b")}, True, False, D3 + "'base': two string values ordered lexically"),
    ("not-binds-tighter", "NOT i > 5", {}, {"i": (L, 6)}, "invalid", False, D3 + "'base': NOT binds tighter"),
    ("in-non-string", "i IN ('1')", {}, {"i": (L, 1)}, None, False, D3 + "'base': IN on a non-string is UNKNOWN"),
    # -- solace: aliases ---------------------------------------------------------------------------------
    ("ci", "ci = 'myCorrelationId'", {"JMSCorrelationID": "myCorrelationId"}, {}, False, True, ALIAS),
    ("seed-typo", "JMSCorrelationID = 'myCorrelatonId'", {"JMSCorrelationID": "myCorrelationId"}, {}, False, False,
     D4 + "'seed typo'"),
    ("mi", "mi = 'ID:1'", {"JMSMessageID": "ID:1"}, {}, False, True, ALIAS),
    ("mt", "mt = 'car'", {"JMSType": "car"}, {}, False, True, ALIAS),
    ("rt", "rt = 'queue://r'", {"JMSReplyTo": "queue://r"}, {}, False, True, ALIAS + "; 'JMSReplyTo'"),
    ("ts", "ts > 1000", {"JMSTimestamp": 2000}, {}, None, True, ALIAS),
    ("ts-unset", "ts IS NULL", {}, {}, True, True, ALIAS + "; a missing header is NULL in solace"),
    ("alias-case", "CI = 'x'", {"JMSCorrelationID": "x"}, {}, False, None, D4 + "'case': aliases are case sensitive (CI is a property; wso2: one-sided NULL = is FALSE)"),
    ("alias-not-a-property", "ci = 'x'", {"JMSCorrelationID": "y"}, {"ci": (S, "x")}, True, False,
     D4 + "'case': ci never reads a user property (reserved SMF keys)"),
    # -- solace: Solace-only headers ---------------------------------------------------------------------
    ("si", "si = 'sender-1'", {"SenderID": "sender-1"}, {}, False, True, SOL),
    ("sn", "sn = 5", {"SequenceNo": 5}, {"SequenceNo": (L, 6)}, False, True, SOL + "; sn is the header"),
    ("sequence-no-is-a-property", "SequenceNo = 6", {"SequenceNo": 5}, {"SequenceNo": (L, 6)}, True, True,
     D4 + "'Solace-only headers': no JMS name, so SequenceNo is a property"),
    ("sn-string", "sn = '5'", {"SequenceNo": 5}, {}, False, False, SOL + "; long vs string: unlike types"),
    ("ex", "ex = 0", {"Expiration": 0}, {}, False, True, SOL),
    ("ex-promotion", "ex > 1.5", {"Expiration": 2}, {}, None, True, SOL + "; ex is a long"),
    ("ct", "ct = 'text/plain'", {"HttpContentType": "text/plain"}, {}, False, True, SOL),
    ("ce", "ce = 'gzip'", {"HttpContentEncoding": "gzip"}, {}, False, True, SOL),
    ("sn-unset", "sn IS NULL", {}, {}, True, True, SOL),
    # -- solace: JMSX properties, length ------------------------------------------------------------------
    ("jmsx-user-id", "JMSXUserID = 'alice'", {}, {"JMSXUserID": (S, "alice")}, True, True, D4 + "'JMSXUserID'"),
    ("jmsx-user-id-absent", "JMSXUserID IS NULL", {}, {}, True, True, D4 + "'JMSXUserID': absent without jmsx-user-id-enabled"),
    ("jmsx-group-id", "JMSXGroupID = 'g1'", {}, {"JMSXGroupID": (S, "g1")}, True, True, D4 + "'JMSXGroupID, JMSXGroupSeq'"),
    ("length-2000", f"s = '{E_2000}'", {}, {"s": (S, E_2000)}, True, True, D4 + "'max length': 2,000 bytes valid"),
    ("length-2001", f"s = '{E_2000}' ", {}, {"s": (S, E_2000)}, True, "invalid",
     D4 + "'max length': 2,001 UTF-8 bytes (a trailing blank counts) invalid"),
]


def main():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    with open(HERE / "seed-ws.jsonl", "w", encoding="utf-8") as f:
        for cid, selector, headers, props, wso2, solace, source in CASES:
            case = {"id": f"seed-ws-{cid}", "selector": selector,
                    "message": {"headers": headers,
                                "properties": {k: {"type": t, "value": v} for k, (t, v) in props.items()}},
                    "source": source, "wso2": wso2, "solace": solace}
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"{len(CASES)} cases")


if __name__ == "__main__":
    main()
