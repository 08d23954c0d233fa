"""`Position` play-outs of every game against the CLI's replay of the same
moves."""

from __future__ import annotations

import json
import random

import pytest

import gamerec
from gamerec.qwirkle import Bag, largest_group

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


@pytest.mark.parametrize("players", [2, 3, 4])
def test_qwirkle_play_outs_agree_with_the_cli(players, cli):
    for seed in range(2):
        rng = random.Random(seed)
        bag = Bag(players=players, seed=seed)
        pos = gamerec.Position("qwirkle", Players=str(players), **bag.hands)
        while not pos.is_over and pos.plies < 2000:
            legal = pos.legal_moves()
            pos.play(bag.complete(rng.choice(legal) if legal else "pass"))
        assert pos.is_over
        text = bag.record()
        out = cli("validate", "--format", "json", "-", stdin=text.encode())
        (report,) = json.loads(out.stdout)["games"]
        assert report["valid"], (text, report["errors"])
        assert report["over"]
        assert report["plies"] == pos.plies == len(bag.moves)
        assert report["scores"] == pos.scores
        assert report["winners"] == pos.winners
        # every hand stayed known, so the CLI checked everything
        assert not report.get("unchecked"), report.get("unchecked")
        (again,) = gamerec.validate(text.encode())
        assert again.valid and again.scores == pos.scores


def test_qwirkle_bag_deals_the_starter_first_and_draws_what_a_move_takes():
    bag = Bag(players=3, seed=1)
    sizes = [largest_group(h.split(",")) for h in bag.hands.values()]
    assert sizes[0] == max(sizes) and len(bag.tiles) == 108 - 18
    pos = gamerec.Position("qwirkle", Players="3", **bag.hands)
    first = pos.legal_moves()[0]
    move = bag.complete(first)
    assert move.startswith(first + " <") and move.endswith(">")
    assert len(move[len(first) + 2 : -1].split(",")) == first.count("@")
    assert len(bag.tiles) == 108 - 18 - first.count("@")
    pos.play(move)
    assert pos.legal_moves()  # the next hand is known too


def test_qwirkle_without_hands_cannot_list_moves():
    pos = gamerec.Position("qwirkle", Players="2")
    with pytest.raises(gamerec.GamerecError) as e:
        pos.legal_moves()
    assert "hand of player1 is not known" in str(e.value)
    pos.play("Rc@0,0")  # still played and judged
    assert pos.plies == 1
