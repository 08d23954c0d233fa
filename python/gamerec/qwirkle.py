"""Playing Qwirkle out: a seeded bag that deals the hands and draws the
tiles each turn takes, so that a `Position` always knows the mover's hand
and can list its moves.

A Qwirkle position lists moves only while the mover's hand is known: from
the `HandN` tags, and while every move writes the tiles drawn after it
(`Rc@0,0 + Rd@1,0 <Gs,Bx>`, `swap Rc <Po>`). A record without them is still
validated, but cannot be played on. `Bag` is the hidden part of the game
the rules leave to chance:

    import random, gamerec
    from gamerec.qwirkle import Bag

    bag = Bag(players=2, seed=7)
    pos = gamerec.Position("qwirkle", Players="2", **bag.hands)
    rng = random.Random(7)
    while not pos.is_over:
        moves = pos.legal_moves()
        pos.play(bag.complete(rng.choice(moves) if moves else "pass"))

`bag.moves` is then the movetext of the game, draws included, and
`bag.record()` the whole record (hands as tags) for `gamerec validate`.
"""

from __future__ import annotations

import random
from typing import Dict, List, Optional

COLOURS = "ROYGBP"
SHAPES = "osdcx*"


def tiles() -> List[str]:
    """The 108 tiles: 3 of each colour and shape, in a fixed order."""
    return [c + s for c in COLOURS for s in SHAPES for _ in range(3)]


def largest_group(hand: List[str]) -> int:
    """The size of the hand's largest group of tiles sharing a colour or a
    shape (duplicates not counted): who holds the largest starts."""
    kinds = set(hand)
    by_colour = max(sum(1 for t in kinds if t[0] == c) for c in COLOURS)
    by_shape = max(sum(1 for t in kinds if t[1] == s) for s in SHAPES)
    return max(by_colour, by_shape)


class Bag:
    """The bag of a game of `players` (2 to 6), shuffled by `seed`; each
    player draws six tiles. The seats are numbered from the player whose
    hand holds the largest group (the rules' starter: `player1`), then in
    dealing order."""

    def __init__(self, players: int = 2, seed: Optional[int] = None) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"Qwirkle is played by 2 to 6 players, not {players}")
        self.players = players
        self.rng = random.Random(seed)
        self.tiles = tiles()
        self.rng.shuffle(self.tiles)
        dealt = [self.draw(6) for _ in range(players)]
        sizes = [largest_group(h) for h in dealt]
        first = sizes.index(max(sizes))
        self.dealt = dealt[first:] + dealt[:first]
        #: The moves completed so far, draws included.
        self.moves: List[str] = []

    @property
    def hands(self) -> Dict[str, str]:
        """The hands dealt, as the `Hand1` .. `HandN` tags of a record."""
        return {f"Hand{i + 1}": ",".join(h) for i, h in enumerate(self.dealt)}

    def draw(self, n: int) -> List[str]:
        """Takes up to `n` tiles (as many as the bag holds)."""
        n = min(n, len(self.tiles))
        out, self.tiles = self.tiles[:n], self.tiles[n:]
        return out

    def complete(self, move: str) -> str:
        """`move` as `legal_moves` lists it (a placement `Rc@0,0 + Rd@1,0`,
        a swap `swap Rc,Bs`, or `pass`), with the tiles drawn after it
        written: a placement draws back up to six, a swap draws as many as
        it puts aside, which then go back into the bag. Returns the move to
        play and keeps it in `moves`."""
        words = move.split()
        if words[:1] == ["swap"] and len(words) == 2:
            aside = words[1].split(",")
            drawn = self.draw(len(aside))
            self.tiles.extend(aside)
            self.rng.shuffle(self.tiles)
        elif "@" in move:
            drawn = self.draw(move.count("@"))
        else:
            drawn = []
        done = f"{move} <{','.join(drawn)}>" if drawn else move
        self.moves.append(done)
        return done

    def record(self) -> str:
        """The game so far as a gamerec record: the players, the hands
        dealt and every move with its draws."""
        tags = {"Game": "qwirkle", "Players": str(self.players), **self.hands}
        head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
        return head + "\n" + " ".join(self.moves) + "\n"
