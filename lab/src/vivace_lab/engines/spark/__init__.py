"""Apache Spark in local mode as a lab engine: PySpark jobs that read the bench driver's input and
write output its validators accept byte for byte (see lab/docs/spark.md)."""
