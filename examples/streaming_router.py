"""A live router: messages dropped into a folder over time, routed as they land to one folder per
subscription (and the dead letters), exactly once, with a broker's queue rotation.

    .venv/bin/python examples/streaming_router.py                  # 20,000 messages in 8 files, 1 s apart
    .venv/bin/python examples/streaming_router.py --rows 2000 --files 4 --interval 0.5 --out out/streaming

What it does, on a local Spark (``local[2]``):

1. a producer thread drops the messages (`sample_data.messages`, in time order) into
   ``<out>/incoming/`` as Parquet files, one every ``--interval`` seconds;
2. a streaming query reads that folder (``spark.readStream.parquet``, one file per micro-batch),
   routes each micro-batch with `route` — queue mode under WSO2's rules by default: one cursor
   over the consumers in bind order, carried from micro-batch to micro-batch in the query's
   checkpoint, and a message no consumer selects goes to the dead-letter channel — and writes
   the rows to ``<out>/routed/outcome=<outcome>/subscription=<name>/`` with Spark's file sink and
   a checkpoint (``<out>/checkpoint/``): exactly once, also across a crash and a restart, for
   readers that read the folder with Spark (its ``_spark_metadata`` log lists the committed files);
3. prints one line per micro-batch as it completes (a StreamingQueryListener), then the rows per
   folder, and checks that what the stream delivered equals `route` over all the messages at once.

Progress and the summary go to stdout; Spark's chatter is switched off (``examples/_local_spark.py``).
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import sys
import threading
import time

from _local_spark import start_spark

#: Consumers of one queue, written for ActiveMQ-family brokers (``eu`` needs the vectorized fallback).
SUBSCRIPTIONS = {
    "cars": "JMSType = 'car'",
    "heavy": "weight > 2500",
    "eu": "INLIST(SPLIT(region, '-'), 'EU')",
    "urgent": "JMSPriority >= 7",
}


def drop_files(spark, messages, incoming: str, files: int, interval: float) -> threading.Thread:
    """Write ``messages`` in time order as ``files`` Parquet files, then move one into ``incoming``
    every ``interval`` seconds from a thread (a move is atomic: the stream never sees half a file).
    Files must land in message order for the rotation to be the broker's: a micro-batch is put in
    message order, but the stream cannot reorder messages across micro-batches."""
    staged = os.path.join(os.path.dirname(incoming), "_staged")
    (messages.orderBy("JMSTimestamp", "JMSMessageID").repartitionByRange(files, "JMSTimestamp", "JMSMessageID")
     .write.mode("overwrite").parquet(staged))
    parts = sorted(p for p in os.listdir(staged) if p.endswith(".parquet"))

    def run():
        for k, part in enumerate(parts):
            landed = os.path.join(incoming, f"{k:04d}.parquet")
            os.rename(os.path.join(staged, part), landed)
            # the file source takes files in modification-time order: the time they landed, not written
            os.utime(landed, (time.time() + k, time.time() + k))
            time.sleep(interval)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, len(parts)


def progress_listener():
    """Print each micro-batch that read messages: its id, its messages, its time."""
    from pyspark.sql.streaming import StreamingQueryListener

    class Progress(StreamingQueryListener):
        def onQueryStarted(self, event):
            pass

        def onQueryProgress(self, event):
            p = event.progress
            if p.numInputRows:
                print(f"micro-batch {p.batchId}: {p.numInputRows:,} messages routed in {p.batchDuration:,} ms",
                      flush=True)

        def onQueryIdle(self, event):
            pass

        def onQueryTerminated(self, event):
            pass

    return Progress()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000, help="messages (default 20000)")
    ap.add_argument("--files", type=int, default=8, help="files they arrive in (default 8)")
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between two files (default 1)")
    ap.add_argument("--out", default="out/streaming", help="working folder (default out/streaming)")
    ap.add_argument("--mode", default="queue", choices=["queue", "topic"])
    ap.add_argument("--routing", default="wso2", help="the broker's routing rules (default wso2)")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)

    from jms_selector_spark import route
    from jms_selector_spark.spark.sample_data import messages

    shutil.rmtree(args.out, ignore_errors=True)
    incoming, routed_dir = os.path.join(args.out, "incoming"), os.path.join(args.out, "routed")
    os.makedirs(incoming)
    spark = start_spark("streaming_router", **{"spark.sql.shuffle.partitions": "2"})
    try:
        spark.streams.addListener(progress_listener())
        archive = messages(spark, args.rows)
        producer, files = drop_files(spark, archive, incoming, args.files, args.interval)
        options = dict(mode=args.mode, dialect="activemq", routing=args.routing)
        stream = spark.readStream.schema(archive.schema).option("maxFilesPerTrigger", 1).parquet(incoming)
        query = (route(stream, SUBSCRIPTIONS, **options)
                 .writeStream.partitionBy("outcome", "subscription").format("parquet")
                 .option("path", routed_dir).option("checkpointLocation", os.path.join(args.out, "checkpoint"))
                 .trigger(processingTime="500 milliseconds").start())
        print(f"routing {args.rows:,} messages arriving in {files} files, {args.interval:g} s apart, to "
              f"{len(SUBSCRIPTIONS)} consumers ({args.mode} mode, {args.routing} rules)", flush=True)
        producer.join()
        query.processAllAvailable()
        query.stop()

        streamed = spark.read.parquet(routed_dir)  # through the sink's log: committed files only
        counts = collections.Counter((r["outcome"], r["subscription"]) for r in
                                     streamed.select("outcome", "subscription").collect())
        print()
        print(f"{'outcome':14}{'subscription':14}{'rows':>8}")
        for (outcome, name), n in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            print(f"{outcome:14}{name or '-':14}{n:>8,}")
        cols = ["JMSMessageID", "subscription", "outcome"]
        batch = collections.Counter(tuple(r) for r in route(spark.read.parquet(incoming), SUBSCRIPTIONS, **options)
                                    .select(*cols).collect())
        live = collections.Counter(tuple(r) for r in streamed.select(*cols).collect())
        print()
        print(f"streamed == batch route: {live == batch} ({sum(live.values()):,} rows, "
              f"{sum(n for n in live.values() if n > 1)} duplicated)")
        print(f"output: {routed_dir}/outcome=<outcome>/subscription=<name>/ (Parquet; read it with spark.read)")
        return 0 if live == batch else 1
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
