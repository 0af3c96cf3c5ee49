"""Spark integration: filtering (`api`, `hybrid`), ``spark.sql`` functions, routing and
migration reports. pyspark is imported only inside the functions that need it."""
