"""A streaming router run as its own driver process, for the kill-and-restart test
(tests/spark/test_streaming_recovery.py): ``python streaming_driver.py IN OUT CHECKPOINT STALL``.

It routes the Parquet files of IN (one per micro-batch, ``trigger(availableNow=True)``) in queue
mode under WSO2's rules (one cursor, kept in the checkpoint; dead letters) to OUT, one folder per outcome and subscription (Spark's file sink, exactly once with the
checkpoint), and exits when every file is routed. With STALL > 0 the second partition of every
micro-batch after the first waits STALL seconds before it is written, while the first partition's
files are written: a SIGKILL then lands in the middle of a micro-batch that has written part of
its output.
"""
from __future__ import annotations

import os
import sys
import time

SUBSCRIPTIONS = {"cars": "JMSType = 'car'", "light": "weight < 1500", "tiny": "weight < 300", "blue": "color = 'blue'"}


def main(source, out, checkpoint, stall):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark import TaskContext
    from pyspark.sql import SparkSession

    from jms_selector_spark import route

    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "2")
             .config("spark.sql.session.timeZone", "UTC").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    schema = spark.read.parquet(source).schema
    stream = spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(source)
    routed = route(stream, SUBSCRIPTIONS, mode="queue", routing="wso2")

    def stalled(batches):
        for b in batches:
            if TaskContext.get().partitionId() == 1 and os.path.exists(os.path.join(checkpoint, "commits", "0")):
                time.sleep(stall)
            yield b

    if stall > 0:
        routed = routed.mapInPandas(stalled, routed.schema)
    query = (routed.writeStream.partitionBy("outcome", "subscription").format("parquet").option("path", out)
             .option("checkpointLocation", checkpoint).trigger(availableNow=True).start())
    query.awaitTermination()
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]))
