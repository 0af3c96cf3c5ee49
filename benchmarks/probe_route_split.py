"""Probe (issue #12, not part of ``make bench``): would `route` gain from splitting a partly-native
fallback subscription the way `jms_filter` does?

One fallback subscription over N cached messages (default 2M), ``local[2]``, median of 5 of
``sum(size(matches))``: (a) today, the whole selector in the Arrow UDF behind the access-predicate
gate (`route_plan.tag_matches`); (b) the whole selector, gated by its native conjuncts; (c) the
hybrid: gated by its native conjuncts, the UDF evaluating only the rest. All three must find the
same matches. ``python benchmarks/probe_route_split.py [N]``; results in `hybrid`'s docstring.
"""
import statistics, sys, time
from pyspark.sql import SparkSession, functions as F
import jms_selector_spark as jss
from jms_selector_spark.backends.udf import routing_udf, source_args
from jms_selector_spark.spark.route_plan import tag_matches
from jms_selector_spark.spark.subscriptions import Subscription

spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
N = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
df = (spark.range(N).select(
    F.element_at(F.array(*[F.lit(x) for x in ("car", "bus", "bike", "truck", "van")]), (F.col("id") % 5 + 1).cast("int")).alias("JMSType"),
    ((F.col("id") * 7919) % 10000).alias("weight"),
    F.concat_ws(",", F.lit("a"), F.when(F.col("id") % 3 == 0, "b").otherwise("c"), F.lit("d")).alias("s"))
    .cache())
df.count()
AMQ = jss.ACTIVEMQ
CASES = {
    "no access predicate": ("weight > 9900 AND INLIST(SPLIT(s, ','), 'b')", "weight > 9900", "INLIST(SPLIT(s, ','), 'b')"),
    "access predicate": ("JMSType = 'car' AND weight > 9900 AND INLIST(SPLIT(s, ','), 'b')",
                         "JMSType = 'car' AND weight > 9900", "INLIST(SPLIT(s, ','), 'b')"),
}


def timed(col, frame=None):
    out = []
    frame = df if frame is None else frame
    for _ in range(5):
        t = time.perf_counter()
        got = frame.select(F.sum(F.size(col)).alias("n")).first().n
        out.append(time.perf_counter() - t)
    return statistics.median(out), got


for name, (whole, native, rest) in CASES.items():
    tagged = tag_matches(df, [], [Subscription("f", whole)], dialect=AMQ)
    t_a, n_a = timed(F.col("__jms_matches"), tagged)
    gate = F.coalesce(F.expr(jss.selector_to_sql(native, df.schema, dialect=AMQ)), F.lit(False))
    udf, cols = routing_udf([("f", whole)], AMQ, df.schema, gated=True)
    t_b, n_b = timed(udf(gate, *[F.when(gate, a) for a in source_args(cols)]))
    udf, cols = routing_udf([("f", rest)], AMQ, df.schema, gated=True)
    t_c, n_c = timed(udf(gate, *[F.when(gate, a) for a in source_args(cols)]))
    assert n_a == n_b == n_c, (n_a, n_b, n_c)
    print(f"| {name} | {n_a:,} | {t_a:.2f} | {t_b:.2f} | {t_c:.2f} |", flush=True)
