"""`Position` play-outs of every game against the CLI's replay of the same
moves."""

from __future__ import annotations

import json
import random

import pytest

import gamerec

STARTS = [
    ("reversi", {}),
    ("reversi", {"Size": "10"}),
    ("reversi", {"variant": "wof"}),
    ("blokus", {"variant": "duo"}),
    ("blokus", {}),
    ("blokus", {"variant": "trigon", "Players": "3"}),
    (
        "deblockle",
        {
            "SetupGold": "c1 stop/x, e1 stop/x, c3 stop/x, e3 stop/x",
            "SetupBlue": "c5 stop/x, e5 stop/x, c7 stop/x, e7 stop/x",
        },
    ),
    ("blokus3d", {"Area": "cube4", "Players": "2"}),
]


def play_out(game: str, tags: dict, seed: int) -> tuple[gamerec.Position, list[str]]:
    rng = random.Random(seed)
    pos = gamerec.Position(game, **tags)
    moves = []
    while not pos.is_over and pos.plies < 5000:
        legal = pos.legal_moves()
        mv = rng.choice(legal) if legal else "pass"
        pos.play(mv)
        moves.append(mv)
    return pos, moves


def record(game: str, tags: dict, moves: list[str]) -> str:
    lines = [f'[Game "{game}"]']
    for k, v in tags.items():
        name = "Variant" if k == "variant" else k
        lines.append(f'[{name} "{v}"]')
    return "\n".join(lines) + "\n\n" + " ".join(moves) + "\n"


@pytest.mark.parametrize("game,tags", STARTS, ids=lambda x: str(x))
def test_play_outs_agree_with_the_cli(game, tags, cli):
    for seed in range(3):
        pos, moves = play_out(game, tags, seed)
        assert pos.is_over
        text = record(game, tags, moves)
        out = cli("validate", "--format", "json", "-", stdin=text.encode())
        doc = json.loads(out.stdout)
        (report,) = doc["games"]
        assert report["valid"], (text, report["errors"])
        assert report["over"]
        assert report["plies"] == pos.plies == len(moves)
        assert report["scores"] == pos.scores
        assert report["winners"] == pos.winners
        # the package's own replay of the record agrees too
        (again,) = gamerec.validate(text.encode())
        assert again.valid and again.scores == pos.scores


def test_copy_explores_without_changing_the_original():
    pos = gamerec.Position("reversi")
    pos.play("f5")
    other = pos.copy()
    other.play(other.legal_moves()[0])
    assert pos.plies == 1 and other.plies == 2
    assert pos.turn == "white" and other.turn == "black"
    assert pos.svg().startswith("<svg")
    assert "a b c d" in str(pos)
