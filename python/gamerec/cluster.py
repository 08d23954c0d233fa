"""Tasks for cluster engines (Dask, Spark): importable by their workers,
used by `examples/dask_validate.py` and `examples/spark_validate.py`."""

from __future__ import annotations

from typing import Any, Iterator, List, Tuple

from . import validate, validate_arrow
from .summary import Summary

#: a game's verdict: (file or source row, number, valid, first error code)
Verdict = Tuple[str, int, bool, Any]


def validate_file(path: str) -> Tuple[Summary, List[Verdict]]:
    """A file's games replayed: their summary and verdicts."""
    summary = Summary()
    verdicts: List[Verdict] = []
    for report in validate(path):
        summary.add(report)
        first = report.errors[0].code if report.errors else None
        verdicts.append((path, report.number, report.valid, first))
    return summary, verdicts


def validate_texts(texts: Any) -> Tuple[Summary, List[Verdict]]:
    """Record texts (any sequence of str, a pandas Series) replayed in one
    Arrow batch: their summary and verdicts (by the text's position)."""
    import pyarrow as pa

    batch = validate_arrow(pa.array(list(texts), type=pa.large_string()))
    summary = Summary()
    verdicts: List[Verdict] = []
    for row in batch.to_pylist():
        summary.add(row)
        verdicts.append((str(row["source"]), row["number"], row["valid"], row["first_error_code"]))
    return summary, verdicts


#: the columns `replay_batches` yields, in Spark's types (no unsigned integers)
SPARK_SCHEMA = (
    "number int, valid boolean, game string, plies int, over boolean, "
    "first_error_code string, warning_codes array<string>"
)


def replay_batches(batches: Iterator[Any], column: str = "value") -> Iterator[Any]:
    """For `DataFrame.mapInArrow`: each Arrow batch of record texts (in
    `column`) into a batch of verdicts, one row per game
    (`SPARK_SCHEMA`)."""
    import pyarrow as pa

    for batch in batches:
        texts = batch.column(batch.schema.get_field_index(column))
        out = validate_arrow(texts)
        yield pa.RecordBatch.from_arrays(
            [
                out.column("number").cast(pa.int32()),
                out.column("valid"),
                out.column("game"),
                out.column("plies").cast(pa.int32()),
                out.column("over"),
                out.column("first_error_code"),
                out.column("warning_codes"),
            ],
            names=["number", "valid", "game", "plies", "over", "first_error_code", "warning_codes"],
        )
