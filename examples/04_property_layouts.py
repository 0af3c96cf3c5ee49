"""One selector, four ways to store the properties: flat columns, STRUCT, MAP and VARIANT.

    python examples/04_property_layouts.py [--rows 20000]

`sample_data.messages` builds the same messages (same seed) in each layout of the data model:

- ``flat``: one typed column per property (``weight BIGINT``, ``color STRING`` …);
- ``struct``: ``properties STRUCT<color: STRING, weight: BIGINT, …>``;
- ``map``: ``properties MAP<STRING, STRING>`` — every value is a *string*, as many archives
  store them;
- ``variant``: ``properties VARIANT`` — each value keeps its own type, row by row.

The selectors are translated against each table's schema (`selector_to_sql` prints the
fragment: a column, a struct field, a map lookup, a type-tested variant read) and counted.
What to notice: a selector on string properties selects the same messages in every layout,
but ``weight > 2500`` selects *nothing* in the MAP<STRING, STRING> layout — there ``weight`` is
the string ``'2600'``, and JMS compares a string with a number as FALSE, never by casting.
That is a broker's answer too: a property sent as a string stays a string.
"""
from __future__ import annotations

import argparse
import os
import sys

SELECTORS = [
    "color = 'blue' AND tier IN ('gold', 'silver')",
    "weight > 2500 AND JMSType = 'truck'",
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000, help="messages per layout (default 20000)")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    from _local_spark import start_spark  # a quiet local session (examples/_local_spark.py)

    from jms_selector_spark import evaluate, selector_to_sql
    from jms_selector_spark.spark.sample_data import LAYOUTS, messages

    spark = start_spark("jms-example-04")
    try:
        tables = {layout: messages(spark, args.rows, layout=layout) for layout in LAYOUTS}
        for layout, df in tables.items():
            props = df.schema["properties"].dataType.simpleString() if "properties" in df.columns else "(columns)"
            print(f"{layout:8} properties: {props[:90]}")
        for selector in SELECTORS:
            print()
            print("selector:", selector)
            fragments = {layout: selector_to_sql(selector, df.schema) for layout, df in tables.items()}
            for layout, df in tables.items():
                n = df.where(fragments[layout]).count()
                print(f"  {layout:8} {n:>7,} messages   WHERE {fragments[layout][:110]}"
                      + ("…" if len(fragments[layout]) > 110 else ""))
        print()
        print("the reference evaluator agrees: weight > 2500 with weight the string '2600' ->",
              evaluate("weight > 2500", properties={"weight": "2600"}),
              "/ with the number 2600 ->", evaluate("weight > 2500", properties={"weight": 2600}))
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
