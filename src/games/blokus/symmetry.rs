//! Blokus's symmetries, on the square board (classic, its other sizes, Duo):
//! those of the eight of the square ([`square_image`]) that map every
//! colour's starting square to that same colour's starting square and the
//! start's pieces (`Setup…` tags) onto pieces of the same colour.
//!
//! Why a symmetry may not relabel the colours: the order of play is fixed
//! by colour (blue, yellow, red, green; purple, orange) and every colour's
//! first piece must cover its own starting square. A board symmetry `g`
//! with colours relabelled by `π` turns the first move, blue's piece on
//! blue's corner, into a piece on `g(blue's corner)` played first, that is
//! by blue again: it is legal only if `g` keeps blue's corner, and so for
//! every colour in turn, so `π` is the identity and `g` keeps every
//! starting square. Hence:
//!
//! - classic (any size, any `Corners` assignment): the four corners each
//!   kept, which only the identity does: no symmetry but the identity;
//! - Duo: `e10` and `j5` both lie on the diagonal from `a14` to `n1`, and
//!   the reflection in that diagonal keeps each of them: two symmetries
//!   (the half turn swaps the two starting points, so it would make orange
//!   move first: not one).
//!
//! Trigon: its six starting points belong to no colour and the hexagon's
//! twelve symmetries keep the set of them, but the triangle board's
//! coordinates under a rotation are not worked out here: Trigon games are
//! compared up to the identity alone. A mapped placement keeps its piece
//! and its orientation number (only its cells are used: the move is
//! written from its piece and sorted cells); a pass maps to a pass.

use super::engine::Move;
use super::{Blokus, Position};
use crate::game::{Symmetries, Symmetry, square_image, square_symmetries};

impl Symmetry for Blokus {
    fn symmetries(start: &Position) -> Symmetries {
        let Position::Squares(state) = start else {
            return Symmetries::IDENTITY;
        };
        let board = &state.board;
        let n = board.size;
        let colours = usize::from(board.placed.colours);
        let starts_kept = (1..8u8).filter(|&s| {
            board
                .start
                .iter()
                .take(colours)
                .all(|&sq| square_image(s, sq, n) == Some(sq))
        });
        let mask = starts_kept.fold(0, |m, s| m | 1 << s);
        let pieces = square_symmetries(n, |(c, r), (tc, tr)| board.at(c, r) == board.at(tc, tr));
        Symmetries::of(mask & pieces.iter().fold(0, |m, s| m | 1 << s))
    }

    fn map_move(start: &Position, s: u8, mv: &Move) -> Move {
        let (Position::Squares(state), Move::Square(p)) = (start, mv) else {
            return *mv;
        };
        let n = state.board.size;
        let mut image = *p;
        for cell in image.cells.iter_mut().take(usize::from(p.n)) {
            if let Some(to) = square_image(s, *cell, n) {
                *cell = to;
            }
        }
        Move::Square(image)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Setup};
    use crate::record::parse_file;

    fn start(tags: &str) -> Position {
        let games = parse_file(tags);
        let tags = games.first().map(|g| g.tags.clone()).unwrap_or_default();
        Blokus::start(&tags).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn classic_has_none_duo_its_diagonal_trigon_none_here() {
        let ids = |tags: &str| Blokus::symmetries(&start(tags)).iter().collect::<Vec<_>>();
        assert_eq!(ids(""), [0]);
        assert_eq!(ids("[Size \"14\"]\n"), [0]);
        assert_eq!(ids("[Corners \"blue a20, yellow t20, red t1, green a1\"]\n"), [0]);
        assert_eq!(ids("[Variant \"duo\"]\n"), [0, 7]);
        assert_eq!(ids("[Variant \"trigon\"]\n"), [0]);
    }

    #[test]
    fn duo_reflection_keeps_the_starting_points() {
        let s = start("[Variant \"duo\"]\n");
        let games = parse_file("[Variant \"duo\"]\n\nV3:e10,f10,f11\n");
        let raw = games.first().unwrap_or_else(|| panic!("a game"));
        let parsed = Blokus::parse_moves_in(&s, &raw.tokens, "[Variant \"duo\"]\n\nV3:e10,f10,f11\n");
        let first = parsed.moves.first().unwrap_or_else(|| panic!("a move"));
        let image = Blokus::map_move(&s, 7, &first.mv);
        assert_eq!(Blokus::write_move(&image), "V3:d9,e9,e10");
    }
}
