"""Validates a collection on a Dask cluster: one task per file (or per
partition of a Parquet dataset of record texts), reduced to the summary
`gamerec validate` prints.

    python examples/dask_validate.py DIR_OR_FILES...            # a local cluster
    python examples/dask_validate.py --scheduler tcp://host:8786 DIR
    python examples/dask_validate.py --parquet DATASET_DIR       # a `text` column

Prints the summary line; with `--verdicts FILE`, writes each game's verdict
(file, number, valid, first error code) as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from typing import Iterable, List, Tuple

import gamerec

from gamerec.cluster import Verdict, validate_file, validate_texts


def files(paths: Iterable[str]) -> List[str]:
    out: List[str] = []
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            out.extend(str(f) for f in sorted(p.rglob("*")) if f.is_file() and not f.name.startswith("."))
        else:
            out.append(str(p))
    return out


def run(client, paths: List[str], parquet: bool) -> Tuple[gamerec.Summary, List[Verdict]]:
    """The collection's summary and verdicts, computed on `client`'s workers."""
    if parquet:
        import dask.dataframe as dd

        frame = dd.read_parquet(paths, columns=["text"])
        parts = frame.to_delayed()
        import dask

        tasks = [dask.delayed(validate_texts)(p["text"]) for p in parts]
        results = client.compute(tasks, sync=True)
    else:
        futures = client.map(validate_file, files(paths), pure=False)
        results = client.gather(futures)
    summary = gamerec.Summary.of(s for s, _ in results)
    verdicts = [v for _, vs in results for v in vs]
    return summary, verdicts


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--scheduler", help="a running scheduler's address (default: a local cluster)")
    ap.add_argument("--workers", type=int, default=2, help="local cluster: worker processes")
    ap.add_argument("--parquet", action="store_true", help="the paths are a Parquet dataset with a `text` column")
    ap.add_argument("--verdicts", help="write each game's verdict here, as JSON lines")
    args = ap.parse_args(argv)

    from distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    with client:
        summary, verdicts = run(client, args.paths, args.parquet)
    if args.verdicts:
        with open(args.verdicts, "w") as out:
            for v in verdicts:
                out.write(json.dumps(v) + "\n")
    print(summary.line())
    return 1 if summary.invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
