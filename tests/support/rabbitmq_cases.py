"""The engine's answers behind each rule of ``rabbitmq-jms``, one case each: the RabbitMQ oracle test
(tests/differential/test_rabbitmq_oracle.py) checks every answer against ``sjx_evaluator`` itself,
and the back-end tests run the same cases through the reference interpreter, the vectorized
evaluator (tests/conformance/test_rabbitmq_engine_backends.py) and Spark SQL, ANSI on and off
(tests/spark/test_rabbitmq_engine_sql.py). A name has one type in every case (one table holds them).

Results: True / False / None (``undefined``) as the engine gives them, ``"raise"`` (the evaluator
throws: not routed; the dialect gives UNKNOWN) or ``"other"`` (a non-boolean value: not routed,
UNKNOWN here).
"""
from __future__ import annotations

__all__ = ["KNOWN", "COLUMNS", "dialect_answer"]

#: Every property name the cases use, with its one JMS type.
COLUMNS = {"s": "string", "t": "string", "b": "boolean", "f": "float", "n": "long", "x": "long", "i": "int",
           "m": "long"}


def dialect_answer(engine_result):
    """What ``evaluate`` must give where the engine gives ``engine_result``."""
    return engine_result if engine_result in (True, False, None) else None


#: (selector, properties {name: (type, value)}, the engine's result, why it matters)
KNOWN = [
    ("s > 5", {"s": ("string", "abc")}, True, "term order: every number is less than every string"),
    ("b > 1", {"b": ("boolean", True)}, True, "term order: every number is less than a boolean"),
    ("b < s", {"b": ("boolean", False), "s": ("string", "")}, True, "term order: a boolean is less than a string"),
    ("b <> 1", {"b": ("boolean", True)}, True, "unlike types differ (/=)"),
    ("b = 1", {"b": ("boolean", True)}, False, "unlike types are not equal (==)"),
    ("s BETWEEN 1 AND t", {"s": ("string", "abc"), "t": ("string", "abd")}, True, "BETWEEN in term order"),
    ("f = 3.0E-2", {"f": ("float", 0.03)}, False, "an AMQP 32-bit float is its own value, not 0.03"),
    ("f < 3.0E-2", {"f": ("float", 0.03)}, True, "0.03 as a 32-bit float is 0.029999999329447746"),
    ("n NOT LIKE '5%'", {"n": ("long", 5)}, "raise", "LIKE on a number raises (byte_size/1): not routed"),
    ("n LIKE '5%'", {"n": ("long", 5)}, "raise", "LIKE on a number raises (byte_size/1): not routed"),
    ("NOT x", {"x": ("long", 5)}, None, "NOT of a number is undefined (not3/1)"),
    ("x OR TRUE", {"x": ("long", 5)}, True, "or3(5, true) is true"),
    ("s AND TRUE", {"s": ("string", "a")}, None, "and3 of a string is undefined"),
    ("x", {"x": ("long", 5)}, "other", "a number as the selector: not routed"),
    ("x BETWEEN m AND 9", {"x": ("long", 7)}, None, "BETWEEN with a NULL bound is undefined, not Kleene"),
    ("x NOT BETWEEN m AND 5", {"x": ("long", 7)}, None, "NOT BETWEEN with a NULL bound is undefined too"),
    ("s < t", {"s": ("string", "\uff5a"), "t": ("string", "\U0001F600")}, True,
     "strings by UTF-8 bytes (code points): U+FF5A < U+1F600, unlike UTF-16"),
    ("i + i > 0", {"i": ("int", 2147483647)}, True, "integers do not wrap at 32 bits"),
    ("f * f = 0.010000000298023226", {"f": ("float", 0.1)}, True, "float arithmetic is double arithmetic"),
    ("s LIKE 'a' ESCAPE 'ab'", {"s": ("string", "a")}, "raise", "an escape of two bytes: no pattern, raises"),
    ("s LIKE 'a' ESCAPE '\u00e9'", {"s": ("string", "a")}, "raise", "a non-ASCII escape is two UTF-8 bytes"),
    ("s LIKE 'a!%' ESCAPE '!'", {"s": ("string", "a%")}, True, "a one-byte escape works"),
    ("10 - 5 - 2 = 7", {}, True, "the client's arithmetic is right-associative: 10 - (5 - 2)"),
    ("a IS NULL = TRUE", {}, True, "IS NULL is a value the client lets you compare"),
]
