"""Regenerate seed-ibm.jsonl: the `ibmmq` and `mqe` rules of docs/dialects/ibm-mq.md.

    python tools/conformance/make_seed_ibm.py

Every expectation below is written by hand from the rule it cites (`source`: the docs page's
rule and the vendor document it comes from), three-valued: true, false, null (UNKNOWN) or "invalid". Each rule is run
over several messages (the header/property present, absent, of another type) so that TRUE,
FALSE and UNKNOWN are all seen. `jms` is given where the JMS text is clear, so each case also
shows how far the broker is from plain JMS. Nothing here is computed by the library.
"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parents[2] / "tests" / "conformance"  # where the corpora live
T, F, U, INV = True, False, None, "invalid"
Z = "ID:" + "0" * 48
REAL_ID = "ID:414D51207061756C745639314C545320C57C1A5F25ECE602"
REAL_CORREL = "ID:414D51207061756C745639314C545320846E5B5F25B1CC02"
S1, S2, S2_MQE = "docs/dialects/ibm-mq.md (ibmmq)", "docs/dialects/ibm-mq.md (mqe)", "docs/dialects/ibm-mq.md (mqe)"
SEED0, SEED2 = "seed 000_3a3168903f8e52c6.txt", "seed 002_fad428c89c6234b5.txt"

CASES = []


def msg(headers=None, **props):
    return {"headers": dict(headers or {}),
            "properties": {k: {"type": t, "value": v} for k, (t, v) in props.items()}}


def case(dialect, selector, message, want, jms, source):
    c = {"id": f"{dialect}-{len([x for x in CASES if dialect in x]) + 1}", "selector": selector,
         "message": message, "source": source, dialect: want}
    if jms is not ...:
        c["jms"] = jms
    CASES.append(c)


# -- ibmmq ---------------------------------------------------------------------------------------
IBM_MSGS = {
    "real": msg({"JMSMessageID": REAL_ID, "JMSCorrelationID": REAL_CORREL, "JMSType": "car", "JMSPriority": 4,
                 "JMSDeliveryMode": "PERSISTENT", "JMSTimestamp": 1000}, color=("string", "x"), qty=("int", 5)),
    "bare": msg({"JMSMessageID": REAL_ID, "JMSDeliveryMode": "NON_PERSISTENT"}),  # no correlation id
    "zero": msg({"JMSMessageID": Z, "JMSCorrelationID": Z}, color=("string", "x")),
}
src = f"{S1} all-zero message/correlation id; {SEED0}"
for m in IBM_MSGS:  # the exact form matches every message (also one with no correlation id)
    for sel in (f"JMSMessageID='{Z}'", f"JMSCorrelationID='{Z}'", f"JMSCorrelationID ='{Z}'",
                f"JMSMessageID = '{Z}'", f"  JMSMessageID\t=\t'{Z}'  "):
        jms = T if m == "zero" else (U if m == "bare" and "Correl" in sel else F)
        case("ibmmq", sel, IBM_MSGS[m], T, jms, src)
src = f"{S1} only the exact form (inferred); {SEED0}"
for m, has_x in (("real", T), ("zero", T), ("bare", U)):
    z = m == "zero"
    for sel, want in ((f"JMSMessageID='{Z}' AND color='x'", T if z else F if has_x is not U else F),
                      (f"({'JMSMessageID'}='{Z}')", T if z else F),
                      (f"'{Z}' = JMSMessageID", T if z else F),
                      (f"JMSMessageID <> '{Z}'", F if z else T),
                      (f"NOT JMSMessageID = '{Z}'", F if z else T),
                      (f"JMSMessageID = '{Z[3:]}'", F),
                      (f"jmsmessageid = '{Z}'", U),
                      (f"JMSMessageID='{Z}' OR color='y'", T if z else (F if m == "real" else U))):
        if m == "bare" and "AND color" in sel:
            want = U if False else F  # FALSE AND UNKNOWN = FALSE
        case("ibmmq", sel, IBM_MSGS[m], want, want, src)
for m, want in (("real", F), ("zero", F), ("bare", U)):  # correlation id: the same rule
    case("ibmmq", f"JMSCorrelationID='{Z}' AND JMSType IS NULL", IBM_MSGS[m], want if m != "zero" else T,
         want if m != "zero" else T, src)
src = f"{S1} non-zero ids: string equality; {SEED0}"
for m in IBM_MSGS:
    case("ibmmq", f"JMSMessageID='{REAL_ID}'", IBM_MSGS[m], T if m != "zero" else F, T if m != "zero" else F, src)
    case("ibmmq", f"JMSCorrelationID='{REAL_CORREL}'", IBM_MSGS[m], T if m == "real" else (U if m == "bare" else F),
         T if m == "real" else (U if m == "bare" else F), src)
src = f"{S1} non-zero ids compare as bytes in the exact form: lower-case hex (inferred); shorter hex unknown: equality"
LOWER = "ID:" + REAL_ID[3:].lower()
for m in IBM_MSGS:
    hit = T if m != "zero" else F
    case("ibmmq", f"JMSMessageID='{LOWER}'", IBM_MSGS[m], hit, F, src)
    case("ibmmq", f"JMSCorrelationID = '{'ID:' + REAL_CORREL[3:].lower()}'", IBM_MSGS[m],
         T if m == "real" else (U if m == "bare" else F), F if m != "bare" else U, src)
    case("ibmmq", f"JMSMessageID='{LOWER}' AND TRUE", IBM_MSGS[m], F, F, src + " (not the exact form)")
    case("ibmmq", f"(JMSMessageID='{LOWER}')", IBM_MSGS[m], F, F, src + " (not the exact form)")
    case("ibmmq", "JMSMessageID='ID:414d5120'", IBM_MSGS[m], F, F, src)
src = f"{S1} constant FALSE rejected (MQRC_SELECTOR_ALWAYS_FALSE); q023000_"
for sel in ("1 = 2", "TRUE = FALSE", "FALSE", "2 > 3", "'a' = 'b'", "NOT TRUE", "1 IS NULL", "1 + 1 = 3",
            "TRUE AND FALSE", "'abc' LIKE 'x%'", "1 BETWEEN 2 AND 3", "(FALSE)", "1 = 2.5"):
    jms = F if sel not in ("2 > 3",) else F
    for m in ("real", "bare"):
        case("ibmmq", sel, IBM_MSGS[m], INV, F, src)
for sel, want in (("TRUE <> FALSE", T), ("TRUE", T), ("1 = 1", T), ("1 IS NOT NULL", T), ("2 > 1", T),
                  ("1 / 0 = 1", U), ("0x10 = 16", T)):
    for m in ("real", "bare"):
        case("ibmmq", sel, IBM_MSGS[m], want, ... if "0x" in sel else want, src + "; constant TRUE / UNKNOWN follow jms")
for sel, (real, bare) in (("1 = 2 AND color = 'x'", (F, F)), ("1 = 2 OR color = 'x'", (T, U)),
                          ("FALSE OR JMSType = 'car'", (T, U)), ("JMSType IS NULL AND FALSE", (F, F))):
    case("ibmmq", sel, IBM_MSGS["real"], real, real, src + "; with property references: evaluated normally")
    case("ibmmq", sel, IBM_MSGS["bare"], bare, bare, src + "; with property references: evaluated normally")
src = f"{S1} hex, octal, L literals (inferred through JMS); q023010_"
for sel, want in (("qty = 0x5", T), ("qty = 0X05", T), ("qty = 05", T), ("qty = 5L", T), ("qty = 5l", T),
                  ("qty = 0x1F", F), ("qty = 017", F), ("qty + 0x1F = 36", T), ("qty = 09", INV), ("qty = 0x", INV),
                  ("qty = 08", INV), ("qty > 0", T)):
    jms = (INV if any(c in sel for c in "xXlL") or "05" in sel or "017" in sel or "09" in sel or "08" in sel
           else want)
    for m in ("real", "bare"):
        w = want if want == INV or m == "real" else U
        case("ibmmq", sel, IBM_MSGS[m], w, jms if jms == INV else w, src)
src = f"{S1} max length 10,240 bytes (MQ_SELECTOR_LENGTH); q098310_"
for size, valid in ((10_240, True), (10_241, False)):
    pad = size - len("color = ''")
    sel = "color = '" + "x" * pad + "'"
    case("ibmmq", sel, IBM_MSGS["real"], F if valid else INV, F, src)
    sel = "color = '" + "é" * (pad // 2) + "'" + " " * (pad % 2)  # UTF-8 bytes, not characters
    case("ibmmq", sel, IBM_MSGS["bare"], U if valid else INV, U, src + " (UTF-8)")
src = f"{S1} as jms: string literals, BETWEEN/IN/LIKE, IS NULL, three-valued logic; {SEED0}"
for sel, (real, bare) in (("color = 'x'", (T, U)), ("color IN ('x', 'y')", (T, U)), ("color LIKE 'x%'", (T, U)),
                          ("qty BETWEEN 1 AND 9", (T, F)), ("qty NOT BETWEEN 1 AND 9", (F, T)),
                          ("color IS NULL", (F, T)), ("JMSDeliveryMode = 'PERSISTENT'", (T, F)),
                          ("JMSDeliveryMode = 2", (F, F)), ("NOT color = 'y'", (T, U)), ("color = \"x\"", (INV, INV)),
                          ("qty / 2 = 2", (T, U)), ("JMSPriority > 3 OR color = 'z'", (T, U)),
                          ("color = 'x' /* c */", (INV, INV))):
    case("ibmmq", sel, IBM_MSGS["real"], real, real, src)
    case("ibmmq", sel, IBM_MSGS["bare"], bare, bare, src)

# -- mqe -----------------------------------------------------------------------------------------
MQE_MSGS = {
    "long": msg({"JMSType": "car", "JMSPriority": 4, "JMSDeliveryMode": "PERSISTENT", "JMSTimestamp": 1000,
                 "JMSExpiration": 5000, "JMSMessageID": "ID:1"},
                qty=("long", 5), price=("double", 2.5), colour=("string", "blue"), flag=("boolean", True)),
    "int": msg({"JMSType": "car ", "JMSPriority": 9, "JMSDeliveryMode": "NON_PERSISTENT", "JMSTimestamp": 5},
               qty=("int", 5), price=("float", 2.5), colour=("string", "red"), flag=("boolean", False)),
    "narrow": msg({"JMSDeliveryMode": 2}, qty=("short", 5), price=("double", 5.0), colour=("string", "blue")),
    "none": msg({}),
}
src = f"{S2} logical operators: AND only; {SEED2}"
for sel in ("colour = 'blue' OR qty = 5", "NOT colour = 'blue'", "NOT (qty = 5)", "qty = 5 OR TRUE"):
    for m in ("long", "none"):
        case("mqe", sel, MQE_MSGS[m], INV, ..., src)
src = f"{S2} comparison: '=' only; {SEED2}"
for sel in ("qty <> 5", "qty < 5", "qty > 5", "qty <= 5", "qty >= 5", "colour <> 'blue'"):
    case("mqe", sel, MQE_MSGS["long"], INV, ..., src)
src = f"{S2} BETWEEN, IN, LIKE (inferred from 'only ='); {SEED2}"
for sel in ("qty BETWEEN 1 AND 9", "qty NOT BETWEEN 1 AND 9", "colour IN ('blue')", "colour NOT IN ('blue')",
            "colour LIKE 'b%'", "colour NOT LIKE 'b%'"):
    case("mqe", sel, MQE_MSGS["long"], INV, ..., src)
src = f"{S2} IS NULL supported, IS NOT NULL not; {SEED2}"
for m, (isnull, hdr) in (("long", (F, F)), ("int", (F, T)), ("none", (T, T))):
    case("mqe", "colour IS NULL", MQE_MSGS[m], isnull, isnull, src)
    case("mqe", "JMSExpiration IS NULL", MQE_MSGS[m], hdr, ..., src + "; JMSExpiration a header (inferred)")
    case("mqe", "colour IS NOT NULL", MQE_MSGS[m], INV, ..., src)
    case("mqe", "colour IS NULL AND qty IS NULL", MQE_MSGS[m], T if m == "none" else F,
         T if m == "none" else F, src)
src = f"{S2} arithmetic not supported (unary minus on an identifier inferred); {SEED2}"
for sel in ("qty + 1 = 6", "qty - 1 = 4", "qty * 1 = 5", "qty / 1 = 5", "-qty = -5", "+qty = 5"):
    case("mqe", sel, MQE_MSGS["long"], INV, ..., src)
src = f"{S2} signed literals are literals; {SEED2}"
for sel, want in (("qty = -957", F), ("qty = +5", T), ("price = -57.9E2", F), ("price = +2.5", T)):
    for m, w in (("long", want), ("none", U)):
        case("mqe", sel, MQE_MSGS[m], w, w, src)
src = f"{S2} exact literal is a long, approximate a double: no numeric promotion; {SEED2}"
for sel, per in (("qty = 5", {"long": (T, T), "int": (F, T), "narrow": (F, T), "none": (U, U)}),
                 ("price = 2.5", {"long": (T, T), "int": (F, T), "narrow": (F, F), "none": (U, U)}),
                 ("price = 5", {"long": (F, F), "int": (F, F), "narrow": (F, T), "none": (U, U)}),
                 ("qty = 5.0", {"long": (F, T), "int": (F, T), "narrow": (F, T), "none": (U, U)}),
                 ("qty = price", {"long": (F, F), "int": (F, F), "narrow": (F, T), "none": (U, U)}),
                 ("colour = 'blue'", {"long": (T, T), "int": (F, F), "narrow": (T, T), "none": (U, U)}),
                 ("colour = 5", {"long": (F, F), "int": (F, F), "narrow": (F, F), "none": (U, U)}),
                 ("flag = TRUE", {"long": (T, T), "int": (F, F), "narrow": (U, U), "none": (U, U)}),
                 ("flag = 1", {"long": (F, F), "int": (F, F), "narrow": (U, U), "none": (U, U)}),
                 ("flag", {"long": (T, T), "int": (F, F), "narrow": (U, U), "none": (U, U)}),
                 ("qty = 5 AND colour = 'blue'", {"long": (T, T), "int": (F, F), "narrow": (F, T), "none": (U, U)}),
                 ("qty = 5 AND colour = 'red'", {"long": (F, F), "int": (F, T), "narrow": (F, F), "none": (U, U)})):
    for m, (want, jms) in per.items():
        case("mqe", sel, MQE_MSGS[m], want, jms, src)
src = f"{S2} header literals take the header's type (int JMSPriority/JMSDeliveryMode, long JMSTimestamp/JMSExpiration); {SEED2}"
for sel, per in (("JMSPriority = 4", {"long": (T, T), "int": (F, F), "none": (U, U)}),
                 ("4 = JMSPriority", {"long": (T, T), "int": (F, F), "none": (U, U)}),
                 ("JMSPriority = 4.0", {"long": (F, T), "int": (F, F), "none": (U, U)}),
                 ("JMSPriority = 9", {"long": (F, F), "int": (T, T), "none": (U, U)}),
                 ("JMSTimestamp = 1000", {"long": (T, T), "int": (F, F), "none": (U, U)}),
                 ("JMSTimestamp = 1000.0", {"long": (F, T), "int": (F, F), "none": (U, U)}),
                 ("JMSExpiration = 5000", {"long": (T, ...), "int": (U, ...), "none": (U, ...)}),
                 ("JMSPriority = qty", {"long": (F, F), "int": (F, F), "none": (U, U)}),
                 ("JMSPriority = 3000000000", {"long": (F, F), "int": (F, F), "none": (U, U)})):
    for m, (want, jms) in per.items():
        case("mqe", sel, MQE_MSGS[m], want, jms, src)
src = f"{S2} JMSDeliveryMode compared as the int 2/1 ('PERSISTENT' a type mismatch, inferred); {SEED2}"
for sel, per in (("JMSDeliveryMode = 2", {"long": (T, F), "int": (F, F), "narrow": (T, F), "none": (U, U)}),
                 ("JMSDeliveryMode = 1", {"long": (F, F), "int": (T, F), "narrow": (F, F), "none": (U, U)}),
                 ("JMSDeliveryMode = 'PERSISTENT'", {"long": (F, T), "int": (F, F), "narrow": (F, T), "none": (U, U)}),
                 ("JMSDeliveryMode = 2.0", {"long": (F, F), "int": (F, F), "narrow": (F, F), "none": (U, U)}),
                 ("JMSDeliveryMode IS NULL", {"long": (F, F), "int": (F, F), "narrow": (F, F), "none": (T, T)})):
    for m, (want, jms) in per.items():
        case("mqe", sel, MQE_MSGS[m], want, jms, src)
src = f"{S2} the seed's example as printed ('car ' with a trailing blank); {SEED2}"
for m, want in (("long", F), ("int", F), ("none", U)):
    case("mqe", "JMSType ='car 'AND colour ='blue'", MQE_MSGS[m], want, want, src)
    case("mqe", "JMSType ='car 'AND colour ='red'", MQE_MSGS[m], T if m == "int" else want,
         T if m == "int" else want, src)
src = f"{S2} unknown: parentheses, literal vs literal, NULL semantics follow jms; {SEED2}"
for sel, per in (("(qty = 5) AND (colour = 'blue')", {"long": T, "int": F, "none": U}),
                 ("1 = 1", {"long": T, "none": T}), ("1 = 2", {"long": F, "none": F}),
                 ("'a' = 'a' AND qty = 5", {"long": T, "none": U}), ("TRUE", {"long": T, "none": T}),
                 ("qty = 5 AND colour = 'nope'", {"long": F, "none": U})):
    for m, want in per.items():
        case("mqe", sel, MQE_MSGS[m], want, want, src)
src = f"{S2} literals: no hex/octal/L (MQe lists JMS's literal forms only; follow jms); {SEED2}"
for sel in ("qty = 0x5", "qty = 5L", "qty = 07"):
    case("mqe", sel, MQE_MSGS["long"], INV, INV, src)


if __name__ == "__main__":
    with open(HERE / "seed-ibm.jsonl", "w", encoding="utf-8") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(len(CASES), "cases:", {d: sum(d in c for c in CASES) for d in ("ibmmq", "mqe", "jms")})
