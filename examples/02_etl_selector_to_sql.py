"""ETL with a selector: ``df.where(selector_to_sql(selector, df.schema))`` on a Parquet archive.

    python examples/02_etl_selector_to_sql.py [--rows 100000] [--out out/examples/02]

What it shows:

- `selector_to_sql` turns a JMS selector into a plain Spark SQL boolean expression, bound to the
  table's schema (so it knows ``weight`` is a BIGINT and ``color`` a STRING) and exact under
  every session setting (ANSI on or off);
- because the fragment is ordinary SQL, Catalyst optimizes it and the Parquet reader gets the
  filters: the physical plan's ``PushedFilters`` list the selector's comparisons, and the LIKE
  prefix becomes ``StringStartsWith``, exactly as for a hand-written WHERE;
- the filtered messages are written back as Parquet (the "E" and "L" of the job).

Needs pyspark (``pip install '.[spark]'``); runs on a local[2] Spark in well under a minute.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=100_000, help="messages in the archive (default 100000)")
    ap.add_argument("--out", default="out/examples/02", help="output folder (default out/examples/02)")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    from _local_spark import start_spark  # a quiet local session (examples/_local_spark.py)

    from jms_selector_spark import selector_to_sql
    from jms_selector_spark.spark.sample_data import write_archive

    out = args.out
    # print the scan's whole filter list in explain() (default: cut at 100 characters)
    spark = start_spark("jms-example-02", **{"spark.sql.maxMetadataStringLength": "1000"})
    try:
        archive = write_archive(spark, os.path.join(out, "archive"), args.rows)
        messages = spark.read.parquet(archive)

        selector = "JMSType = 'car' AND color = 'blue' AND weight > 2500 AND region LIKE 'EU-%'"
        where = selector_to_sql(selector, messages.schema)
        print("selector :", selector)
        print("WHERE    :", where)

        blue_cars = messages.where(where)
        # explain() prints the plan; keep the scan's pushed filters only
        plan = io.StringIO()
        with contextlib.redirect_stdout(plan):
            blue_cars.explain(mode="formatted")
        for line in plan.getvalue().splitlines():
            if line.startswith("PushedFilters"):
                print(line)

        target = os.path.join(out, "blue-eu-cars")
        blue_cars.write.mode("overwrite").parquet(target)
        written = spark.read.parquet(target)
        print(f"{written.count():,} of {messages.count():,} messages written to {target}")
        written.select("JMSMessageID", "JMSType", "color", "weight", "region").orderBy("JMSMessageID").show(3, False)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
