"""The engine's answers behind ``rabbitmq-jms``'s rules (`rabbitmq_cases.KNOWN`, checked against
RabbitMQ's ``sjx_evaluator`` by tests/differential/test_rabbitmq_oracle.py) through the reference
interpreter and the vectorized evaluator, all cases in one batch (Spark SQL:
tests/spark/test_rabbitmq_engine_sql.py)."""
from __future__ import annotations

import pyarrow as pa

import jms_selector_spark as jss
from jms_selector_spark.backends.arrow.evaluator import evaluate_batch
from jms_selector_spark.language.types import JmsType
from rabbitmq_cases import COLUMNS, KNOWN, dialect_answer

ARROW = {"boolean": pa.bool_(), "int": pa.int32(), "long": pa.int64(), "float": pa.float32(), "string": pa.string()}


def test_interpreter_and_vectorized_give_the_engines_answers():
    rows = [{k: v for k, (_, v) in props.items()} for _, props, _, _ in KNOWN]
    cols = {name: (JmsType.parse(t), pa.array([r.get(name) for r in rows], ARROW[t])) for name, t in COLUMNS.items()}
    wrong = []
    for j, (selector, props, theirs, why) in enumerate(KNOWN):
        want = dialect_answer(theirs)
        ours = jss.evaluate(selector, {}, rows[j], dialect="rabbitmq-jms", types={k: t for k, (t, _) in props.items()})
        batch = evaluate_batch(jss.parse(selector, dialect="rabbitmq-jms"), cols, len(rows)).to_pylist()[j]
        if ours != want or batch != want:
            wrong.append(f"{selector!r}: engine {theirs!r}, interpreter {ours!r}, vectorized {batch!r} ({why})")
    assert not wrong, "\n".join(wrong)
