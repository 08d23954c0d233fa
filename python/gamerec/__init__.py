"""gamerec: read, replay and play game records of Reversi, Blokus (classic,
Duo, Trigon), Blokus 3D, Qwirkle and Deblockle, with the rules checked to
the letter; Arrow batches for data pipelines.

    import gamerec
    for report in gamerec.validate("games.gamerec"):
        print(report.number, report.valid, report.scores)
    pos = gamerec.Position("reversi")
    pos.play("f5")
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from . import _gamerec, qwirkle
from ._gamerec import Diagnostic, Game, Position, Report, games, read, validate
from .errors import BadSetup, GamerecError, IllegalMove, ReadError, UnknownGame
from .summary import Summary

__all__ = [
    "BadSetup",
    "Diagnostic",
    "Game",
    "GamerecError",
    "IllegalMove",
    "Position",
    "ReadError",
    "Report",
    "Summary",
    "UnknownGame",
    "games",
    "qwirkle",
    "read",
    "read_arrow",
    "validate",
    "validate_arrow",
]


def _string_array(texts: Any) -> Any:
    import pyarrow as pa

    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks()
    if not isinstance(texts, pa.Array):
        texts = pa.array(list(texts), type=pa.large_string())
    if pa.types.is_dictionary(texts.type):
        texts = texts.dictionary_decode()
    return texts


def validate_arrow(
    texts: Iterable[str] | Any,
    game: Optional[str] = None,
    format: Optional[str] = None,
) -> Any:
    """Replays record texts (a `pyarrow` string array, or any iterable of
    str; one game or one file's text each) in parallel, without the GIL,
    and returns a `pyarrow.RecordBatch` with one row per game: `source`
    (the index of its text), `number`, `valid`, `game`, `variant`,
    `plies`, `over`, `scores` (a map seat -> score), `winners`,
    `first_error_code`, `first_error_ply`, `first_error_message`, `errors`
    (a list of structs: code, message, ply, line, column), `warnings`
    (their count) and `warning_codes`."""
    return _gamerec.validate_arrow(_string_array(texts), game, format)


def read_arrow(
    path: Any,
    batch_size: int = 16384,
    format: Optional[str] = None,
    game: Optional[str] = None,
) -> Iterable[Any]:
    """Streams the games of a file as `pyarrow.RecordBatch`es of
    `batch_size` games (the columns of `validate_arrow`, then `text` and
    `tags`): memory stays bounded by one batch (games are read and
    replayed 512 at a time; a batch of 16384 WTHOR games is about 10 MB of
    Arrow data). A read error after some games yields their batch first,
    then raises `ReadError`.

        import pyarrow as pa, pyarrow.parquet as pq
        batches = gamerec.read_arrow("WTH_2001.wtb")
        first = next(batches)
        with pq.ParquetWriter("games.parquet", first.schema) as w:
            w.write_batch(first)
            for b in batches:
                w.write_batch(b)
    """
    yield from _gamerec.read_arrow(path, batch_size, format, game)
