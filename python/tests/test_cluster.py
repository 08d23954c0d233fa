"""The Dask and Spark examples on real local clusters, against the CLI."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import shutil
import sys

import pytest

from conftest import ROOT, wthor_dir

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def collection(tmp_path_factory, cli):
    """A collection split into many files: the WTHOR database as gamerec
    text, one file per year (or, without it, the text fixtures)."""
    out = tmp_path_factory.mktemp("collection")
    source = wthor_dir()
    if source is not None:
        made = cli("convert", "-q", "--to", "gamerec", "-o", str(out / "text"), str(source))
        assert made.returncode in (0, 1), made.stderr
        root = out / "text"
    else:
        root = out / "text"
        root.mkdir()
        for p in (ROOT / "fixtures").rglob("*.gamerec"):
            shutil.copy(p, root / f"{p.parent.parent.name}-{p.parent.name}-{p.name}")
    files = sorted(str(p) for p in root.rglob("*") if p.is_file())
    assert len(files) > 5
    return files


def cli_summary(cli, files) -> str:
    out = cli("validate", "-qq", "--no-progress", *files)
    return out.stdout.decode().strip().splitlines()[-1]


def cli_verdicts(cli, files) -> list:
    out = cli("validate", "--format", "jsonl", *files)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    return [
        (g["file"], g["number"], g["valid"], g["errors"][0]["code"] if g["errors"] else None)
        for g in rows
        if "valid" in g and "summary" not in g
    ]


def test_dask_on_a_local_cluster_agrees_with_the_cli(collection, cli):
    distributed = pytest.importorskip("distributed")
    dask_validate = load("dask_validate")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as client:
        summary, verdicts = dask_validate.run(client, collection, parquet=False)
    cluster.close()
    assert summary.line() == cli_summary(cli, collection)
    assert verdicts == cli_verdicts(cli, collection)


def test_dask_over_a_parquet_dataset(collection, cli, tmp_path):
    distributed = pytest.importorskip("distributed")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    dask_validate = load("dask_validate")
    dataset = tmp_path / "texts"
    dataset.mkdir()
    for i, f in enumerate(collection):
        table = pa.table({"text": pa.array([pathlib.Path(f).read_text()], type=pa.large_string())})
        pq.write_table(table, dataset / f"part-{i:04}.parquet")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as client:
        summary, _ = dask_validate.run(client, [str(dataset)], parquet=True)
    cluster.close()
    assert summary.line() == cli_summary(cli, collection)


def test_spark_local_agrees_with_the_cli(collection, cli):
    pytest.importorskip("pyspark")
    if shutil.which("java") is None:
        pytest.skip("no Java for Spark")
    from pyspark.sql import SparkSession

    spark_validate = load("spark_validate")
    # Spark's Python workers run this interpreter (the one gamerec is installed in)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").appName("gamerec-test").getOrCreate()
    try:
        frame = spark_validate.verdicts(spark, collection, parquet=False)
        summary = spark_validate.summary(frame)
    finally:
        spark.stop()
    assert summary.line() == cli_summary(cli, collection)
