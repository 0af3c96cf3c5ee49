"""The streaming router: throughput against batch `route`, micro-batch latency, queue state size.

    .venv/bin/python benchmarks/bench_streaming.py [--rows 200000] [--files 10] [--subs 100,1000]

On a local[2] session, over the sample archive (`sample_data.messages`) written as ``--files``
Parquet files in time order:

1. **throughput**: for each number of subscriptions (``bench_route.subscriptions``), `route` in
   topic mode over a file-source stream (one file per micro-batch, ``trigger(availableNow=True)``,
   Spark's ``noop`` sink) and over the same files read as a table (``noop`` too): messages per
   second of each, and their ratio (stream / batch);
2. **latency**: files of ``--rate`` messages dropped one per second into a folder that a stream
   (``processingTime`` 1 s, the first number of subscriptions) routes; each micro-batch's
   duration, p50 and p99;
3. **queue state**: `route(mode="queue")` (``match_set``, and WSO2's ``consumer_list``) over the
   stream, after half the files and after all of them: the rows of the state store (read with
   Spark's ``statestore`` source), its memory (the query's progress), and the bytes of the
   checkpoint's state folder (which keeps the versions Spark retains, not only the last).

The figures go to stdout and to ``<data-dir>/results/streaming.json``. The machine is shared:
compare ratios, not seconds.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUEUE = {"cars": "JMSType = 'car'", "heavy": "weight > 2500", "eu": "region LIKE 'EU%'", "urgent": "JMSPriority >= 7",
         "gold": "tier = 'gold'"}


def _write_files(spark, messages, folder: Path, files: int) -> list:
    """``files`` Parquet files of ``messages`` in time order, staged (not yet in ``folder``)."""
    staged = folder.parent / (folder.name + "_staged")
    (messages.repartitionByRange(files, "JMSTimestamp", "JMSMessageID").write.mode("overwrite").parquet(str(staged)))
    return sorted(staged.glob("part-*.parquet"))


def _land(part: Path, folder: Path, k: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    landed = folder / f"{k:05d}.parquet"
    shutil.copy(part, landed)
    os.utime(landed, (1_000_000 + k, 1_000_000 + k))  # the file source's order: modification time


def _stream(spark, folder: Path, schema):
    return spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(str(folder))


def _run_stream(df, checkpoint: Path, trigger=None):
    writer = df.writeStream.format("noop").option("checkpointLocation", str(checkpoint))
    writer = writer.trigger(availableNow=True) if trigger is None else writer.trigger(processingTime=trigger)
    return writer.start()


def throughput(spark, route, folder, schema, rows, subs, tmp) -> dict:
    runs = []
    for _ in range(2):  # the better of two: the first also warms the JVM up
        t = time.perf_counter()
        route(spark.read.parquet(str(folder)), subs, mode="topic").write.format("noop").mode("overwrite").save()
        runs.append(time.perf_counter() - t)
    batch = min(runs)
    t = time.perf_counter()
    query = _run_stream(route(_stream(spark, folder, schema), subs, mode="topic"), tmp / f"ck-{len(subs)}")
    query.awaitTermination()
    stream = time.perf_counter() - t
    durations = [p["batchDuration"] for p in query.recentProgress if p["numInputRows"]]
    return {"subscriptions": len(subs), "batch_s": round(batch, 2), "stream_s": round(stream, 2),
            "batch_msgs_per_s": round(rows / batch), "stream_msgs_per_s": round(rows / stream),
            "ratio_stream_over_batch": round(batch / stream, 3), "micro_batches": len(durations)}


def latency(spark, route, parts, schema, subs, tmp, seconds: int) -> dict:
    folder = tmp / "live"
    folder.mkdir()
    query = _run_stream(route(_stream(spark, folder, schema), subs, mode="topic"), tmp / "ck-live", "1 second")

    def produce():
        for k, part in enumerate(parts[:seconds]):
            _land(part, folder, k)
            time.sleep(1.0)

    producer = threading.Thread(target=produce, daemon=True)
    producer.start()
    producer.join()
    query.processAllAvailable()
    query.stop()
    durations = sorted(p["batchDuration"] for p in query.recentProgress if p["numInputRows"])
    rows = [p["numInputRows"] for p in query.recentProgress if p["numInputRows"]]
    p99 = durations[min(len(durations) - 1, round(0.99 * (len(durations) - 1)))]
    return {"subscriptions": len(subs), "micro_batches": len(durations), "messages_per_batch": round(statistics.mean(rows)),
            "p50_ms": statistics.median(durations), "p99_ms": p99, "max_ms": durations[-1]}


def _folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def queue_state(spark, route, parts, schema, tmp) -> list:
    out = []
    for routing in ("jms", "wso2"):
        folder, checkpoint = tmp / f"queue-{routing}", tmp / f"ck-queue-{routing}"
        for upto in (len(parts) // 2, len(parts)):
            for k in range(upto):
                if not (folder / f"{k:05d}.parquet").exists():
                    _land(parts[k], folder, k)
            query = _run_stream(route(_stream(spark, folder, schema), QUEUE, mode="queue", routing=routing), checkpoint)
            query.awaitTermination()
            state = spark.read.format("statestore").load(str(checkpoint))
            messages = spark.read.parquet(str(folder)).count()
            operator = query.lastProgress["stateOperators"][0]
            out.append({"rotation": "consumer_list (wso2)" if routing == "wso2" else "match_set (jms)",
                        "messages": messages, "state_rows": state.count(),
                        "state_memory_bytes": operator["memoryUsedBytes"],
                        "checkpoint_state_folder_bytes": _folder_bytes(checkpoint / "state")})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--subs", default="100,1000")
    ap.add_argument("--rate", type=int, default=5_000, help="messages per second in the latency run")
    ap.add_argument("--seconds", type=int, default=20, help="files dropped in the latency run")
    ap.add_argument("--data-dir", default=str(HERE.parent / "bench-data"))
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    sys.path.insert(0, str(HERE))
    import bench_route
    from pyspark.sql import SparkSession

    from jms_selector_spark import route
    from jms_selector_spark.spark.sample_data import messages

    spark = (SparkSession.builder.master("local[2]").appName("bench_streaming").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2").config("spark.driver.memory", "2g")
             .config("spark.sql.session.timeZone", "UTC").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    tmp = Path(tempfile.mkdtemp(prefix="bench_streaming."))
    try:
        archive = messages(spark, args.rows)
        schema = archive.schema
        folder = tmp / "archive"
        for k, part in enumerate(_write_files(spark, archive, folder, args.files)):
            _land(part, folder, k)
        results = {"rows": args.rows, "files": args.files, "throughput": [], "cores": os.cpu_count(),
                   "load_average": round(os.getloadavg()[0], 1)}
        for n in [int(x) for x in args.subs.split(",")]:
            subs = bench_route.subscriptions(n)
            results["throughput"].append(throughput(spark, route, folder, schema, args.rows, subs, tmp))
            print(json.dumps(results["throughput"][-1]), flush=True)
        live = _write_files(spark, messages(spark, args.rate * args.seconds, seed=8), tmp / "live_src", args.seconds)
        first = bench_route.subscriptions(int(args.subs.split(",")[0]))
        results["latency"] = latency(spark, route, live, schema, first, tmp, args.seconds)
        print(json.dumps(results["latency"]), flush=True)
        results["queue_state"] = queue_state(spark, route, live, schema, tmp)
        for r in results["queue_state"]:
            print(json.dumps(r), flush=True)
        out = Path(args.data_dir) / "results" / "streaming.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        results["summary"] = ([f"{t['subscriptions']} subscriptions: stream {t['stream_msgs_per_s']:,} msg/s, batch "
                               f"{t['batch_msgs_per_s']:,} msg/s, ratio {t['ratio_stream_over_batch']}"
                               for t in results["throughput"]]
                              + [f"latency at {args.rate:,} msg/s: p50 {results['latency']['p50_ms']} ms, "
                                 f"p99 {results['latency']['p99_ms']} ms"])
        out.write_text(json.dumps(results, indent=2), encoding="utf-8")
        print("\n".join(results["summary"]))
    finally:
        spark.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
