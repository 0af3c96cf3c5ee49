"""The ActiveMQ oracle helper runs a batch once and maps verdicts back by id."""
import math

import pytest

from oracle import encode_value, oracle_unavailable_reason, prop, run_oracle


def test_encode_value_non_json_values():
    assert encode_value("double", math.nan) == "NaN"
    assert encode_value("float", math.inf) == "Infinity"
    assert encode_value("double", -math.inf) == "-Infinity"
    assert encode_value("double", -0.0) == "-0.0"
    assert encode_value("double", 1.5) == 1.5
    assert encode_value("long", 2 ** 63 - 1) == "9223372036854775807"
    assert encode_value("long", 42) == 42
    assert encode_value("string", "NaN") == "NaN"


@pytest.mark.oracle
def test_run_oracle_three_cases():
    reason = oracle_unavailable_reason()
    if reason:
        pytest.skip(reason)
    cases = [
        {"id": "t", "selector": "color = 'blue' AND weight > 2500",
         "message": {"headers": {"JMSType": "car"},
                     "properties": {"color": prop("string", "blue"), "weight": prop("long", 3000)}}},
        {"id": "nan", "selector": "d = d", "message": {"properties": {"d": prop("double", math.nan)}}},
        {"id": "bad", "selector": "a = ", "message": {}},
    ]
    v = run_oracle(cases)
    assert v["t"]["result"] is True
    # Measured: ActiveMQ compares boxed numbers with equals(), so NaN = NaN is TRUE (not Java ==).
    assert v["nan"]["result"] is True
    assert v["bad"]["result"] == "invalid" and v["bad"]["detail"]
