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
//! Trigon: its six starting points belong to no colour (a first piece
//! covers any of them), so a symmetry needs no relabelling: it must keep
//! the set of starting points and the start's pieces. The hexagon has
//! twelve symmetries and keeps its starting points under all of them; the
//! four that map its rectangle of columns and rows onto itself are used
//! here, numbered as on the square: 4 the mirror top to bottom (row `r` to
//! `2n + 1 - r`, which turns an up triangle into a down one, as the parity
//! of `x + r` says), 5 the mirror left to right (column `x` to `4n - 2 -
//! x`, parity kept), 2 the half turn (both). The rotations by 60 and 120
//! degrees (and the mirrors through the corners) shear the columns and
//! are not worked out: a Trigon game turned by a sixth is not found.
//!
//! A mapped placement keeps its piece and its orientation number (only its
//! cells are used: the move is written from its piece and sorted cells); a
//! pass maps to a pass.

use super::engine::Move;
use super::{Blokus, Position};
use crate::game::{Symmetries, Symmetry, square_image, square_symmetries};

/// A map of a board's cells `(column, row)`.
type CellMap<'a> = dyn Fn((u8, u8)) -> Option<(u8, u8)> + 'a;

impl Symmetry for Blokus {
    fn symmetries(start: &Position) -> Symmetries {
        match start {
            Position::Squares(state) => square_board(&state.board),
            Position::Triangles(state) => triangle_board(&state.board),
        }
    }

    fn map_move(start: &Position, s: u8, mv: &Move) -> Move {
        let (image, p): (&CellMap, _) = match (start, mv) {
            (Position::Squares(state), Move::Square(p)) => {
                (&|sq| square_image(s, sq, state.board.size), p)
            }
            (Position::Triangles(state), Move::Triangle(p)) => {
                let geo = state.board.geo();
                (&|t| triangle_image(s, t, geo.width, geo.height), p)
            }
            _ => return *mv,
        };
        let mut mapped = *p;
        for cell in mapped.cells.iter_mut().take(usize::from(p.n)) {
            if let Some(to) = image(*cell) {
                *cell = to;
            }
        }
        match mv {
            Move::Triangle(_) => Move::Triangle(mapped),
            _ => Move::Square(mapped),
        }
    }
}

/// The square board's symmetries that keep every colour's starting square
/// and the start's pieces.
fn square_board(board: &super::board::Board) -> Symmetries {
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

/// A triangle `(column, row)` of Trigon's `width` x `height` rectangle
/// under the symmetry `s` (2 the half turn, 4 top to bottom, 5 left to
/// right; the identity for any other number).
fn triangle_image(s: u8, (x, r): (u8, u8), width: u8, height: u8) -> Option<(u8, u8)> {
    if x >= width || r >= height {
        return None;
    }
    let (fx, fr) = (width - 1 - x, height - 1 - r);
    Some(match s {
        2 => (fx, fr),
        4 => (x, fr),
        5 => (fx, r),
        _ => (x, r),
    })
}

/// Trigon's symmetries (of [`triangle_image`]'s) that keep the board's
/// triangles, its starting points and the start's pieces.
fn triangle_board(board: &super::trigon::board::Board) -> Symmetries {
    let geo = board.geo();
    let at = |(x, r): (u8, u8)| geo.at(i32::from(x), i32::from(r));
    let kept = |s: u8| {
        geo.cells.iter().enumerate().all(|(i, &cell)| {
            let Some(to) = triangle_image(s, cell, geo.width, geo.height).and_then(at) else {
                return false;
            };
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            geo.start_bits.has(i) == geo.start_bits.has(to) && board.at(i) == board.at(to)
        })
    };
    Symmetries::of([2u8, 4, 5].into_iter().filter(|&s| kept(s)).fold(0, |m, s| m | 1 << s))
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
    fn classic_has_none_duo_its_diagonal_trigon_its_mirrors() {
        let ids = |tags: &str| Blokus::symmetries(&start(tags)).iter().collect::<Vec<_>>();
        assert_eq!(ids(""), [0]);
        assert_eq!(ids("[Size \"14\"]\n"), [0]);
        assert_eq!(ids("[Corners \"blue a20, yellow t20, red t1, green a1\"]\n"), [0]);
        assert_eq!(ids("[Variant \"duo\"]\n"), [0, 7]);
        assert_eq!(ids("[Variant \"trigon\"]\n"), [0, 2, 4, 5]);
        assert_eq!(ids("[Variant \"trigon\"]\n[Players \"3\"]\n"), [0, 2, 4, 5]);
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

#[cfg(test)]
mod trigon_tests {
    use super::*;
    use crate::game::{Notation, Position as _, Setup};
    use crate::record::parse_file;

    /// Every first placement's image under each symmetry is a legal first
    /// placement (the starting points are kept), and mapping twice gives
    /// the placement back.
    #[test]
    fn trigon_images_of_first_moves_are_first_moves() {
        for tags in ["[Variant \"trigon\"]\n", "[Variant \"trigon\"]\n[Players \"3\"]\n"] {
            let games = parse_file(tags);
            let start = Blokus::start(&games[0].tags).unwrap_or_else(|e| panic!("{e:?}"));
            let legal: Vec<String> = start
                .legal_moves()
                .unwrap_or_else(|e| panic!("{e:?}"))
                .map(|m| Blokus::write_move(&m))
                .collect();
            let mut moves = start.legal_moves().unwrap_or_else(|e| panic!("{e:?}"));
            let mut seen = 0;
            for mv in moves.by_ref().step_by(97) {
                for s in Blokus::symmetries(&start).iter() {
                    let image = Blokus::map_move(&start, s, &mv);
                    assert!(legal.contains(&Blokus::write_move(&image)), "{tags} {s}");
                    let back = Blokus::map_move(&start, s, &image);
                    assert_eq!(Blokus::write_move(&back), Blokus::write_move(&mv));
                }
                seen += 1;
            }
            assert!(seen > 10);
        }
    }
}
