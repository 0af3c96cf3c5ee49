"""Parse a selector, look at its tree, see an error with its caret, evaluate messages.

    python examples/01_parse_and_evaluate.py

No Spark needed: this is the reference evaluator every back end is tested against.
"""
from jms_selector_spark import SelectorError, evaluate, parse
from jms_selector_spark.frontend.printer import to_text

selector = "JMSType = 'car' AND color = 'blue' AND weight > 2500"
tree = parse(selector)
print("selector :", selector)
print("canonical:", to_text(tree.root))
print("names    :", ", ".join(tree.identifiers))

messages = [
    ({"JMSType": "car"}, {"color": "blue", "weight": 3000}),
    ({"JMSType": "car"}, {"color": "blue", "weight": 1000}),
    ({"JMSType": "car"}, {"color": "blue"}),  # no weight: UNKNOWN, not delivered
    ({"JMSType": "car"}, {"color": 5, "weight": 3000}),  # unlike types: FALSE
]
for headers, props in messages:
    print(f"{str(props):40} -> {evaluate(tree, headers, props)}")

# The two dialects differ where brokers differ:
for dialect in ("jms", "activemq"):
    print(f"{dialect:9} NOT a = 1 with a=2 -> {evaluate('NOT a = 1', properties={'a': 2}, dialect=dialect)};"
          f" 5 / 2 = 2 -> {evaluate('5 / 2 = 2', dialect=dialect)}")

try:
    parse("color = 'blue' AND AND weight > 2500")
except SelectorError as exc:
    print(f"{type(exc).__name__}: {exc}")
