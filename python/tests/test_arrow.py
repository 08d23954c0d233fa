"""`validate_arrow` and `read_arrow` against the CLI, game by game."""

from __future__ import annotations

import json
import pathlib

import pytest

import gamerec

from conftest import ROOT, fixture_files, wthor_dir

pa = pytest.importorskip("pyarrow")


def jsonl_games(cli, *args: str, stdin: bytes = b"") -> list[dict]:
    out = cli("validate", "--format", "jsonl", *args, stdin=stdin)
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    return [l for l in lines if "valid" in l and "summary" not in l]


def same(row: dict, game: dict) -> None:
    assert row["valid"] == game["valid"]
    assert row["game"] == game["game"]
    assert row["variant"] == game["variant"]
    assert row["plies"] == game["plies"]
    assert row["over"] == game["over"]
    assert dict(row["scores"]) == game["scores"]
    assert row["winners"] == game["winners"]
    codes = [e["code"] for e in game["errors"]]
    assert [e["code"] for e in row["errors"]] == codes
    assert row["first_error_code"] == (codes[0] if codes else None)
    if codes:
        first = game["errors"][0]
        assert row["first_error_ply"] == first["ply"]
        assert row["first_error_message"] == first["message"]
        assert row["errors"][0]["line"] == first.get("line")
        assert row["errors"][0]["column"] == first.get("column")


def text_fixtures() -> list[pathlib.Path]:
    return [p for p in fixture_files() if p.suffix == ".gamerec"]


def test_validate_arrow_on_every_text_fixture(cli):
    files = text_fixtures()
    texts = pa.array([p.read_text() for p in files], type=pa.large_string())
    batch = gamerec.validate_arrow(texts)
    rows = batch.to_pylist()
    for i, path in enumerate(files):
        want = jsonl_games(cli, str(path.relative_to(ROOT)))
        got = [r for r in rows if r["source"] == i]
        assert len(got) == len(want), path
        for row, game in zip(got, want):
            same(row, game)


def test_validate_arrow_takes_lists_and_chunked_arrays():
    text = '[Game "reversi"]\n1. f5 d6\n'
    a = gamerec.validate_arrow([text, text])
    b = gamerec.validate_arrow(pa.chunked_array([[text], [text]]))
    assert a.to_pylist() == b.to_pylist()
    assert a.num_rows == 2 and a.column("valid").to_pylist() == [True, True]


@pytest.mark.skipif(wthor_dir() is None, reason="the WTHOR database is not beside the repository")
def test_validate_arrow_on_the_wthor_database(cli, tmp_path):
    """The whole database as gamerec text, one text per game, replayed by
    validate_arrow and by the CLI: the same verdict for every game."""
    text = cli("convert", "-q", "--to", "gamerec", str(wthor_dir())).stdout.decode()
    games = ["[" + g for g in text.split("\n[Game ")]
    games[0] = games[0][1:]
    games = [g if g.startswith("[Game ") else "[Game " + g[1:] for g in games]
    batch = gamerec.validate_arrow(pa.array(games, type=pa.large_string()))
    want = jsonl_games(cli, "-", stdin=text.encode())
    assert batch.num_rows == len(want) == len(games) > 100_000
    valid = batch.column("valid").to_pylist()
    plies = batch.column("plies").to_pylist()
    codes = batch.column("first_error_code").to_pylist()
    for i, game in enumerate(want):
        assert valid[i] == game["valid"], i
        assert plies[i] == game["plies"], i
        first = game["errors"][0]["code"] if game["errors"] else None
        assert codes[i] == first, i


def test_read_arrow_streams_a_file_in_batches(tmp_path, cli):
    path = ROOT / "fixtures" / "wthor" / "valid" / "WTH_1978.wtb"
    batches = list(gamerec.read_arrow(path, batch_size=3))
    assert all(b.num_rows <= 3 for b in batches)
    table = pa.Table.from_batches(batches)
    want = jsonl_games(cli, str(path.relative_to(ROOT)))
    assert table.num_rows == len(want)
    for row, game in zip(table.to_pylist(), want):
        same(row, game)
        assert dict(row["tags"]) == game["tags"]
        assert row["text"].startswith("[Game ")
    import pyarrow.parquet as pq

    pq.write_table(table, tmp_path / "games.parquet")
    assert pq.read_table(tmp_path / "games.parquet").num_rows == table.num_rows


def test_read_arrow_raises_a_read_error_after_the_games_before_it(tmp_path):
    # bytes that are not UTF-8 in the second game: that game (a bad tag),
    # then the file's read error, not a silent end after the batch
    path = tmp_path / "two.gamerec"
    path.write_bytes(b'[Game "reversi"]\n\nf5 d6\n\n[Game "reversi"]\n[Event "\xff\xfe"]\n1. f5\n')
    batches = gamerec.read_arrow(path, batch_size=10)
    first = next(batches)
    assert first.column("valid").to_pylist() == [True, False]
    assert first.column("first_error_code").to_pylist() == [None, "record::bad_tag"]
    with pytest.raises(gamerec.ReadError) as e:
        next(batches)
    assert "two.gamerec" in str(e.value) and "not UTF-8" in str(e.value)
    with pytest.raises(StopIteration):
        next(batches)


def test_validate_arrow_keeps_text_order_across_its_tasks():
    # more texts than one task takes: rows stay in text order
    texts = [f'[Game "reversi"]\n[Round "{i}"]\n\nf5 d6\n' for i in range(5000)]
    texts[4321] = '[Game "reversi"]\n\na1\n'
    batch = gamerec.validate_arrow(texts)
    assert batch.column("source").to_pylist() == list(range(5000))
    assert batch.column("valid").to_pylist().count(False) == 1
    assert batch.column("first_error_code")[4321].as_py() == "reversi::no_flip"
