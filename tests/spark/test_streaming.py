"""Every entry point on a streaming DataFrame (a file source read with ``trigger(availableNow=True)``)
gives what it gives on the archive of the same messages: `jms_filter` (native and fallback),
`selector_to_column`, `jms_match` and `register_selector` on a streaming view, and `route` in
topic and queue mode under several brokers' rules — the queue rotation carried across
micro-batches and a stop and restart from the checkpoint. What needs the whole table raises
`StreamingUnsupportedError`.

Each case is one streaming query over four files (one per micro-batch), run twice: the first run
sees two files, the second resumes from the checkpoint after two more landed; the output (a
Parquet sink: exactly once) is compared with the batch answer, duplicates included.
"""
from __future__ import annotations

import collections
import os

import pytest

import jms_selector_spark as jss
from jms_selector_spark import StreamingUnsupportedError, Subscription

pytestmark = pytest.mark.spark

DDL = "JMSMessageID string, JMSTimestamp long, JMSType string, JMSPriority int, color string, weight long, region string"
TYPES = ["car", "truck", "bike", None]
COLORS = ["blue", "red", None]
REGIONS = ["EU-west", "US-east", "EU-north", None]
N, FILES = 240, 4
ROWS = [(f"ID:{i:04d}", 10_000 + i * 10, TYPES[(i * 7) % 4], i % 10, COLORS[(i // 3) % 3],
         None if i % 13 == 0 else (i * 37) % 4000, REGIONS[(i * 5) % 4]) for i in range(N)]

TOPIC = [Subscription("cars", "JMSType = 'car'"), Subscription("heavy", "weight > 2500"),
         Subscription("blue", "color = 'blue'", durable=False, subscribed_at=11_000, unsubscribed_at=12_000),
         Subscription("urgent", "JMSPriority >= 8")]
QUEUE = {"cars": "JMSType = 'car'", "light": "weight < 1500", "tiny": "weight < 300", "blue": "color = 'blue'"}
EXCLUSIVE = [Subscription("heavy", "weight > 1000", kind="exclusive_queue", unsubscribed_at=11_000),
             Subscription("light", "weight < 2000", kind="exclusive_queue", subscribed_at=11_500)]
EU = "INLIST(SPLIT(region, '-'), 'EU')"  # ActiveMQ's SPLIT: no native form (the fallback UDF)

#: (case, what it computes from a DataFrame of messages, columns that identify a row)
ROUTES = [
    ("topic-jms", lambda df: jss.route(df, TOPIC, mode="topic")),
    ("topic-wso2", lambda df: jss.route(df, TOPIC, mode="topic", routing="wso2")),
    ("topic-activemq-fallback", lambda df: jss.route(df, {"eu": EU, "cars": "JMSType = 'car'"}, mode="topic",
                                                      dialect="activemq")),
    ("queue-jms", lambda df: jss.route(df, QUEUE, mode="queue")),
    ("queue-wso2", lambda df: jss.route(df, QUEUE, mode="queue", routing="wso2")),
    ("queue-solace-exclusive", lambda df: jss.route(df, EXCLUSIVE, mode="queue", routing="solace")),
    ("queue-activemq-fallback", lambda df: jss.route(df, {"eu": EU, "cars": "JMSType = 'car'", "any": "weight > 0"},
                                                      mode="queue", dialect="activemq")),
]


def _landing(spark, root):
    """Write the messages as FILES Parquet files in time order; returns a function landing file k."""
    staged = root / "staged"
    per = N // FILES
    for k in range(FILES):
        spark.createDataFrame(ROWS[k * per:(k + 1) * per], DDL).coalesce(1).write.parquet(str(staged / f"{k}"))
    incoming = root / "incoming"
    incoming.mkdir()

    def land(k):
        part = next((staged / f"{k}").glob("part-*.parquet"))
        landed = incoming / f"{k:03d}.parquet"
        part.rename(landed)
        os.utime(landed, (1_000_000 + k, 1_000_000 + k))  # the file source's order: modification time

    return incoming, land


def _run(spark, build, incoming, out, checkpoint, schema):
    stream = spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).parquet(str(incoming))
    query = (build(stream).writeStream.format("parquet").option("path", str(out))
             .option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start())
    assert query.awaitTermination(600), "the streaming query did not finish within its deadline"
    return query


def _rows(df, cols):
    return collections.Counter(tuple(r) for r in df.select(*cols).collect())


#: Cases whose route keeps a rotation in the checkpoint: Spark runs one such operator per query.
STATEFUL = {"queue-jms", "queue-wso2", "queue-activemq-fallback"}


def _queries(cases):
    """The cases as streaming queries: every stateless case in one, each stateful one alone."""
    stateless = [c for c in cases if c[0] not in STATEFUL]
    return [stateless] + [[c] for c in cases if c[0] in STATEFUL]


def _tagged(cases):
    def build(stream):
        out = None
        for name, make, cols in cases:
            part = make(stream).selectExpr(f"'{name}' AS case", *[f"CAST(`{c}` AS STRING) AS c{i}"
                                                                   for i, c in enumerate(cols)],
                                           *[f"CAST(NULL AS STRING) AS c{i}" for i in range(len(cols), 3)])
            out = part if out is None else out.unionByName(part)
        return out
    return build


@pytest.fixture(scope="module")
def landed(spark, tmp_path_factory):
    """The cases' outputs after two runs (two files, a stop, two more files, a restart), and the archive."""
    root = tmp_path_factory.mktemp("streaming")
    incoming, land = _landing(spark, root)
    schema = spark.createDataFrame([], DDL).schema
    cases = _filter_cases(spark) + [(name, build, ("JMSMessageID", "subscription", "outcome")) for name, build in ROUTES]
    batches = []
    for run in (range(0, 2), range(2, FILES)):
        for k in run:
            land(k)
        for q, group in enumerate(_queries(cases)):
            query = _run(spark, _tagged(group), incoming, root / f"out{q}", root / f"checkpoint{q}", schema)
            batches.append(len(query.recentProgress))
    streamed = spark.read.parquet(*[str(root / f"out{q}") for q in range(len(_queries(cases)))])
    archive = spark.read.parquet(str(incoming))
    return streamed, archive, cases, batches, root


def _filter_cases(spark):
    """Filters as (case, build, id columns): jms_filter native and fallback, selector_to_column, and
    the spark.sql functions on a streaming temporary view."""
    jss.register(spark)

    def view(df, name):
        df.createOrReplaceTempView("stream_messages")
        return spark.sql(f"SELECT * FROM stream_messages WHERE {name}")

    def registered(df):
        df.createOrReplaceTempView("stream_messages")
        jss.register_selector(spark, "stream_heavy_cars", "JMSType = 'car' AND weight > 1000", "stream_messages")
        return spark.sql("SELECT * FROM stream_messages WHERE stream_heavy_cars(struct(*))")

    def registered_view(df):
        df.createOrReplaceTempView("stream_messages")
        jss.register_selector(spark, "stream_eu_view", "color IS NOT NULL AND " + EU, "stream_messages", kind="view",
                              dialect="activemq")
        return spark.table("stream_eu_view")

    ids = ("JMSMessageID",)
    return [
        ("filter-native", lambda df: jss.jms_filter(df, "JMSType = 'car' AND weight > 2500 OR JMSPriority BETWEEN 2 AND 3"),
         ids),
        ("filter-fallback", lambda df: jss.jms_filter(df, "weight > 100 AND " + EU, dialect="activemq"), ids),
        ("column", lambda df: df.where(jss.selector_to_column("color = 'blue' AND NOT (weight < 1000)", df.schema)),
         ids),
        ("jms-match", lambda df: view(df, "jms_match('region LIKE ''EU%'' AND weight IS NULL', struct(*))"), ids),
        ("register-selector", registered, ids),
        ("register-selector-view", registered_view, ids),
    ]


def test_streamed_output_equals_the_batch_answer_across_micro_batches_and_a_restart(landed):
    streamed, archive, cases, batches, _ = landed
    assert set(batches) == {2}  # one file per micro-batch; the second run resumed after the first two
    got = collections.defaultdict(collections.Counter)
    for r in streamed.collect():
        got[r["case"]][tuple(x for x in (r["c0"], r["c1"], r["c2"]))] += 1
    for name, build, cols in cases:
        want = collections.Counter(tuple(None if v is None else str(v) for v in row) + (None,) * (3 - len(cols))
                                   for row in build(archive).select(*cols).collect())
        assert got[name] == want, name
        assert want, name  # every case selects something
    # every queue message is routed exactly once, and the rotation really rotated
    queue = collections.Counter(s for (m, s, o) in got["queue-jms"].elements())
    assert sum(got["queue-jms"].values()) == N and len([s for s in queue if s]) == 4


def test_the_queue_state_is_one_count_per_matching_set(landed, spark):
    """The checkpoint of the match_set rotation (queue-jms, the second query) holds one count per
    set of consumers (its key), and the counts add up to the messages: none counted twice."""
    *_, root = landed
    state = spark.read.format("statestore").load(str(root / "checkpoint1")).collect()
    keys = [r["key"][0] for r in state]
    assert len(keys) == len(set(keys)) <= 2 ** len(QUEUE)
    assert sum(r["value"]["groupState"]["count"] for r in state) == N


def test_what_needs_the_whole_table_refuses_a_stream(spark, tmp_path):
    stream = spark.readStream.schema(DDL).parquet(str(tmp_path))
    routed = jss.route(stream, QUEUE, mode="queue")
    with pytest.raises(StreamingUnsupportedError, match="route_report needs the whole table.*foreachBatch"):
        jss.route_report(routed, QUEUE, mode="queue")
    with pytest.raises(StreamingUnsupportedError, match="migration_report"):
        jss.migration_report(stream, QUEUE, "jms", "activemq")
    subs = spark.readStream.schema("name string, selector string").parquet(str(tmp_path))
    with pytest.raises(StreamingUnsupportedError, match="subscriptions"):
        jss.route(stream, subs)
