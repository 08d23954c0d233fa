"""Validates a collection with Spark: record texts (one file per row, read
whole, or a Parquet dataset with a `text` column) replayed by
`DataFrame.mapInArrow` in Arrow batches, then counted with Spark SQL into
the summary `gamerec validate` prints.

    python examples/spark_validate.py DIR                 # local[2]
    python examples/spark_validate.py --parquet DATASET
    python examples/spark_validate.py --master spark://host:7077 DIR
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List

import gamerec

from gamerec.cluster import SPARK_SCHEMA, replay_batches


def verdicts(spark, paths: List[str], parquet: bool):
    """A DataFrame of every game's verdict."""
    if parquet:
        texts = spark.read.parquet(*paths).select("text")
        column = "text"
    else:
        texts = spark.read.text(paths, wholetext=True)
        column = "value"
    return texts.mapInArrow(lambda it: replay_batches(it, column), SPARK_SCHEMA)


def summary(frame) -> gamerec.Summary:
    """The CLI's summary counted by Spark."""
    from pyspark.sql import functions as F

    row = frame.agg(
        F.count("*").alias("games"),
        F.sum(F.col("valid").cast("int")).alias("valid"),
        F.sum((F.col("valid") & ~F.col("over")).cast("int")).alias("unfinished"),
    ).collect()[0]
    codes = (
        frame.select(F.explode("warning_codes").alias("code")).groupBy("code").count().collect()
    )
    games, valid = row["games"], row["valid"] or 0
    return gamerec.Summary(
        games=games,
        valid=valid,
        invalid=games - valid,
        unfinished=row["unfinished"] or 0,
        warning_codes={r["code"]: r["count"] for r in codes},
    )


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--parquet", action="store_true")
    args = ap.parse_args(argv)
    from pyspark.sql import SparkSession

    # the workers' Python is this one, where gamerec is installed
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master(args.master).appName("gamerec").getOrCreate()
    try:
        s = summary(verdicts(spark, args.paths, args.parquet))
    finally:
        spark.stop()
    print(s.line())
    return 1 if s.invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
