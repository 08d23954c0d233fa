"""Every report field against the CLI's JSON report, on every fixture."""

from __future__ import annotations

import json
import pathlib

import pytest

import gamerec

from conftest import ROOT, fixture_files


def diag_fields(d: dict) -> tuple:
    return (d["code"], d["message"], d["ply"], d.get("line"), d.get("column"))


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_reports_match_the_cli(path, cli_json):
    want = cli_json(str(path.relative_to(ROOT)))
    if want["errors"]:
        # a file the CLI cannot read at all: the package refuses it too
        with pytest.raises(gamerec.ReadError) as refused:
            list(gamerec.validate(path))
        assert refused.value.code == want["errors"][0].get("code")
        return
    got = list(gamerec.validate(path))
    assert len(got) == len(want["games"])
    for report, game in zip(got, want["games"]):
        assert report.number == game["number"]
        assert report.valid == game["valid"]
        assert report.game == game["game"]
        assert report.variant == game["variant"]
        assert report.plies == game["plies"]
        assert report.over == game["over"]
        assert report.scores == game["scores"]
        assert report.winners == game["winners"]
        assert [diag_fields(e.to_dict()) for e in report.errors] == [
            diag_fields(e) for e in game["errors"]
        ]
        assert [diag_fields(w.to_dict()) for w in report.warnings] == [
            diag_fields(w) for w in game["warnings"]
        ]
        assert report.tags == game["tags"]
        as_dict = report.to_dict()
        assert as_dict["valid"] == game["valid"] and as_dict["scores"] == game["scores"]


def test_read_yields_games_to_replay():
    path = ROOT / "fixtures" / "reversi" / "valid"
    files = sorted(p for p in path.iterdir() if p.suffix == ".gamerec")
    games = list(gamerec.read(files[0]))
    assert games and games[0].number == 1
    assert games[0].text.lstrip().startswith("[")
    report = games[0].replay()
    assert report.valid
    assert report.tags == games[0].tags


def test_bytes_and_paths_read_the_same():
    path = next(p for p in fixture_files() if p.suffix == ".ggf")
    by_path = [r.to_dict() for r in gamerec.validate(path)]
    by_str = [r.to_dict() for r in gamerec.validate(str(path))]
    by_bytes = [r.to_dict() for r in gamerec.validate(path.read_bytes(), format="ggf")]
    for d in by_bytes:
        d["file"] = str(path)
    for d in by_str:
        d["file"] = str(path)
    for d in by_path:
        d["file"] = str(path)
    assert by_path == by_str == by_bytes


def scan_reports(folder: pathlib.Path) -> list[tuple[str, int, bool]]:
    got = []
    reports = gamerec.validate(folder)
    while True:
        try:
            r = next(reports)
        except StopIteration:
            return got
        except gamerec.ReadError:
            continue  # a file that cannot be read: reading goes on
        got.append((str(pathlib.Path(r.file).relative_to(ROOT)), r.number, r.valid))


def test_a_directory_reads_as_the_cli_scans_it(cli):
    # every game of every file the scan reads, in the CLI's order
    for folder in ["fixtures/reversi", "fixtures/qwirkle", "fixtures/wthor", "fixtures"]:
        out = cli("validate", "--format", "jsonl", folder)
        want = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
        want = [(g["file"], g["number"], g["valid"]) for g in want if "valid" in g]
        assert scan_reports(ROOT / folder) == want, folder


def test_a_directory_scan_skips_hidden_and_unread_files(tmp_path):
    game = '[Game "reversi"]\n\nf5 d6\n'
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "two.gamerec").write_text(game)
    (tmp_path / "a.gamerec").write_text(game)
    (tmp_path / ".hidden.gamerec").write_text(game)
    (tmp_path / "notes.txt").write_text("not a record, just notes\n")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / "games.txt").write_text(game)
    (tmp_path / "b" / "loop").symlink_to(tmp_path, target_is_directory=True)
    files = [(pathlib.Path(g.file).name, g.number) for g in gamerec.read(tmp_path)]
    assert files == [("a.gamerec", 1), ("two.gamerec", 1), ("games.txt", 1)]
    assert list(gamerec.read(tmp_path / "b" / "..")) != []
