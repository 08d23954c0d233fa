"""Every report field against the CLI's JSON report, on every fixture."""

from __future__ import annotations

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
