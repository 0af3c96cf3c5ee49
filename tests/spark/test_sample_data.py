"""`jms_selector_spark.spark.sample_data`: schema per layout, determinism, NULLs, layouts agree, clustering.

Few Spark jobs, small row counts: every check of a kind is one aggregate query.
"""
from __future__ import annotations

import pytest

from jms_selector_spark.spark import sample_data as sd

pytestmark = pytest.mark.spark

N = 2000

FLAT_TYPES = {
    "JMSMessageID": "string", "JMSTimestamp": "bigint", "JMSCorrelationID": "string", "JMSType": "string",
    "JMSPriority": "int", "JMSDeliveryMode": "string", "JMSRedelivered": "boolean",
    "color": "string", "weight": "bigint", "price": "double", "quantity": "int", "region": "string",
    "tier": "string", "customer": "string", "urgent": "boolean", "discount": "float",
}
HEADERS = list(sd.HEADER_COLUMNS)
PROPS = list(sd.PROPERTY_TYPES)


def _types(df):
    return {f.name: f.dataType.simpleString() for f in df.schema.fields}


def test_schema_of_each_layout(spark):
    flat = sd.messages(spark, 10, layout="flat")
    assert _types(flat) == FLAT_TYPES
    assert flat.columns == HEADERS + PROPS

    header_types = {h: FLAT_TYPES[h] for h in HEADERS}
    struct_t = "struct<" + ",".join(f"{k}:{FLAT_TYPES[k]}" for k in PROPS) + ">"
    for layout, props_type in [("struct", struct_t), ("map", "map<string,string>"), ("variant", "variant")]:
        df = sd.messages(spark, 10, layout=layout)
        assert df.columns == HEADERS + ["properties"], layout
        assert _types(df) == {**header_types, "properties": props_type}, layout

    assert _types(sd.messages(spark, 10, delivery_mode="int"))["JMSDeliveryMode"] == "int"


def test_bad_arguments():
    with pytest.raises(ValueError, match="layout"):
        sd.messages(None, 10, layout="json")
    with pytest.raises(ValueError, match="delivery_mode"):
        sd.messages(None, 10, delivery_mode="bool")
    with pytest.raises(ValueError, match="rows"):
        sd.messages(None, -1)


def test_deterministic_by_seed_whatever_the_partitioning(spark):
    a = sd.messages(spark, N, seed=7, partitions=1).collect()
    b = sd.messages(spark, N, seed=7, partitions=3).collect()
    c = sd.messages(spark, N, seed=8, partitions=1).collect()
    assert a == b  # same rows, same order (the timestamp order)
    # another seed: other ids, other property values (most rows differ in the properties)
    assert not {r.JMSMessageID for r in a} & {r.JMSMessageID for r in c}
    same = sum(tuple(x[p] for p in PROPS) == tuple(y[p] for p in PROPS) for x, y in zip(a, c))
    assert same < 0.01 * N


def test_values_nulls_and_distributions(spark):
    from pyspark.sql import functions as F

    df = sd.messages(spark, N, partitions=2)
    nulls = [F.sum(F.col(c).isNull().cast("int")).alias(f"null_{c}") for c in df.columns]
    r = df.select(
        F.count("*").alias("n"),
        F.countDistinct("JMSMessageID").alias("ids"),
        F.min("JMSTimestamp").alias("ts_min"), F.max("JMSTimestamp").alias("ts_max"),
        F.min(F.length("JMSMessageID")).alias("id_len_min"), F.max(F.length("JMSMessageID")).alias("id_len_max"),
        F.sum((F.col("JMSPriority") == 4).cast("int")).alias("prio4"),
        F.min("JMSPriority").alias("prio_min"), F.max("JMSPriority").alias("prio_max"),
        F.collect_set("JMSDeliveryMode").alias("modes"),
        F.collect_set("JMSType").alias("types"),
        F.collect_set("tier").alias("tiers"),
        F.collect_set("customer").alias("customers"),
        F.collect_set("region").alias("regions"),
        F.sum(F.col("JMSRedelivered").cast("int")).alias("redelivered"),
        F.sum(F.isnan("price").cast("int")).alias("nan_prices"),
        *nulls,
    ).first()
    assert r["n"] == N and r["ids"] == N
    assert sd.START_MILLIS <= r["ts_min"] and r["ts_max"] < sd.START_MILLIS + sd.SPAN_MILLIS
    assert r["ts_max"] - r["ts_min"] > 0.99 * sd.SPAN_MILLIS
    assert r["id_len_min"] == r["id_len_max"] == 3 + 48
    assert 0.6 * N < r["prio4"] < 0.85 * N and r["prio_min"] == 0 and r["prio_max"] == 9
    assert sorted(r["modes"]) == ["NON_PERSISTENT", "PERSISTENT"]
    assert {"car", "truck", "bike", "order", "invoice", "alert"} <= set(r["types"])
    assert sorted(r["tiers"]) == ["bronze", "gold", "silver"]
    assert {"O'Brien", "O'Neill", "Zoë Dubois"} <= set(r["customers"])
    assert {"EU-West", "EU-North", "US-East"} <= set(r["regions"])
    assert 0 < r["redelivered"] < 0.05 * N
    assert r["nan_prices"] == 0
    # headers: never NULL except JMSCorrelationID (~60 %)
    for h in HEADERS:
        if h != "JMSCorrelationID":
            assert r[f"null_{h}"] == 0, h
    assert 0.55 * N < r["null_JMSCorrelationID"] < 0.65 * N
    # every property has NULLs and values
    for p in PROPS:
        assert 0 < r[f"null_{p}"] < 0.6 * N, (p, r[f"null_{p}"])


def test_timestamps_increase_with_the_row_id(spark):
    from pyspark.sql import Window, functions as F

    # messages() keeps spark.range's order within each partition; check with a window over the id
    df = sd.messages(spark, N, partitions=1).withColumn("rid", F.monotonically_increasing_id())
    w = Window.orderBy("rid")
    bad = df.select((F.col("JMSTimestamp") <= F.lag("JMSTimestamp").over(w)).alias("bad")).where("bad").count()
    assert bad == 0


def test_int_delivery_mode_is_the_jms_constant(spark):
    from pyspark.sql import functions as F

    s = sd.messages(spark, N, delivery_mode="string").select("JMSMessageID", "JMSDeliveryMode")
    i = sd.messages(spark, N, delivery_mode="int").select("JMSMessageID", F.col("JMSDeliveryMode").alias("mode_int"))
    got = {(r[0], r[1]) for r in s.join(i, "JMSMessageID").select("JMSDeliveryMode", "mode_int").distinct().collect()}
    assert got == {("PERSISTENT", 2), ("NON_PERSISTENT", 1)}


def test_all_layouts_hold_the_same_values(spark):
    """Same seed: headers equal; struct fields, map strings and variant values equal the flat columns,
    with absent map/variant keys exactly where the flat column is NULL and variant values typed."""
    from pyspark.sql import functions as F

    n = 3000
    flat = sd.messages(spark, n, layout="flat", partitions=2)
    others = {lay: sd.messages(spark, n, layout=lay, partitions=2).select(
        "JMSMessageID", *[F.col(h).alias(f"{lay}_{h}") for h in HEADERS if h != "JMSMessageID"],
        F.col("properties").alias(lay)) for lay in ("struct", "map", "variant")}
    j = flat
    for df in others.values():
        j = j.join(df, "JMSMessageID")
    variant_type = {"STRING": "STRING", "BIGINT": "BIGINT", "INT": "BIGINT", "DOUBLE": "DOUBLE",
                    "FLOAT": "FLOAT", "BOOLEAN": "BOOLEAN"}  # schema_of_variant reports ints as BIGINT
    checks = [F.count("*").alias("rows")]
    for lay in others:
        for h in HEADERS:
            if h != "JMSMessageID":
                checks.append(F.sum((~F.col(h).eqNullSafe(F.col(f"{lay}_{h}"))).cast("int")).alias(f"{lay}_{h}"))
    for p, t in sd.PROPERTY_TYPES.items():
        flat_col = F.col(p)
        vpath = F.variant_get(F.col("variant"), f"$.{p}", t.lower())
        raw = F.try_variant_get(F.col("variant"), f"$.{p}", "variant")
        checks += [
            F.sum((~flat_col.eqNullSafe(F.col(f"struct.{p}"))).cast("int")).alias(f"struct_{p}"),
            F.sum((~flat_col.cast("string").eqNullSafe(F.col("map")[p])).cast("int")).alias(f"map_{p}"),
            F.sum((flat_col.isNull() != ~F.map_contains_key("map", p)).cast("int")).alias(f"mapkey_{p}"),
            F.sum((~flat_col.eqNullSafe(vpath)).cast("int")).alias(f"variant_{p}"),
            F.sum((flat_col.isNull() != raw.isNull()).cast("int")).alias(f"variantkey_{p}"),
            F.sum((flat_col.isNotNull() & (F.schema_of_variant(raw) != F.lit(variant_type[t]))).cast("int"))
            .alias(f"varianttype_{p}"),
        ]
    r = j.select(*checks).first().asDict()
    assert r.pop("rows") == n
    assert {k: v for k, v in r.items() if v} == {}


def test_write_archive_is_clustered_by_timestamp(spark, tmp_path):
    import pyarrow.parquet as pq

    path = str(tmp_path / "archive")
    rows = 20_000
    assert sd.write_archive(spark, path, rows, partitions=4, row_group_bytes=64 * 1024) == path
    back = spark.read.parquet(path)
    assert _types(back) == FLAT_TYPES
    expected = sd.messages(spark, rows)

    def checksum(df):  # order-independent: count and the sum of a hash of every row
        from pyspark.sql import functions as F

        return tuple(df.select(F.count("*"), F.sum(F.pmod(F.xxhash64(*FLAT_TYPES), F.lit(1 << 31)))).first())

    assert checksum(back) == checksum(expected) and checksum(back)[0] == rows

    # row groups: sorted inside, and their [min, max] ranges do not overlap across the archive
    files = sorted((tmp_path / "archive").glob("part-*.parquet"))
    assert len(files) == 4
    ranges = []
    for f in files:
        md = pq.ParquetFile(f).metadata
        col = md.schema.names.index("JMSTimestamp")
        assert md.num_row_groups > 1  # small row groups, so statistics can prune
        for g in range(md.num_row_groups):
            st = md.row_group(g).column(col).statistics
            ranges.append((st.min, st.max))
        ts = pq.read_table(f, columns=["JMSTimestamp"]).column(0).to_pylist()
        assert ts == sorted(ts)
    ranges.sort()
    assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))
