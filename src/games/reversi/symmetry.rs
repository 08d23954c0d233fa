//! Reversi's symmetries: the eight of the square board
//! ([`square_image`]) that map the start's discs onto discs of the same
//! colour and its empty squares onto empty squares. The side to move is
//! not changed by a board symmetry, and a disc's colour is kept, so the
//! image of a legal game is a legal game from the same start, with the same
//! discs counted at the end. The standard start (`d4`, `e5` white, `d5`,
//! `e4` black, on any size) keeps four: the identity, the half turn and the
//! two diagonal reflections (a quarter turn or a mirror swaps the colours
//! of the centre). A `Setup` tag keeps those of its position alone.
//! A pass maps to a pass.

use super::Reversi;
use super::engine::{Move, State};
use crate::game::{Symmetries, Symmetry, square_image, square_symmetries};

impl Symmetry for Reversi {
    fn symmetries(start: &State) -> Symmetries {
        square_symmetries(start.size(), |(c, r), (tc, tr)| {
            start.disc(r, c) == start.disc(tr, tc)
        })
    }

    fn map_move(start: &State, s: u8, mv: &Move) -> Move {
        let n = start.size();
        match *mv {
            Move::Place(sq) => square_image(s, (sq % 8, sq / 8), 8)
                .map_or(*mv, |(c, r)| Move::Place(8 * r + c)),
            Move::At(sq) => square_image(s, (sq % 16, sq / 16), n)
                .map_or(*mv, |(c, r)| Move::At(16 * r + c)),
            Move::Pass => Move::Pass,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Setup};
    use crate::record::parse_file;

    fn start(tags: &str) -> State {
        let games = parse_file(tags);
        let tags = games.first().map(|g| g.tags.clone()).unwrap_or_default();
        Reversi::start(&tags).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn the_standard_start_keeps_four() {
        for size in ["", "[Size \"6\"]\n", "[Size \"16\"]\n"] {
            let set = Reversi::symmetries(&start(size));
            assert_eq!(set.iter().collect::<Vec<_>>(), [0, 2, 6, 7], "{size}");
        }
    }

    #[test]
    fn f5_goes_to_the_other_three_first_moves() {
        let s = start("");
        let f5 = Move::Place(8 * 4 + 5);
        let images: Vec<String> = Reversi::symmetries(&s)
            .iter()
            .map(|t| Reversi::write_move(&Reversi::map_move(&s, t, &f5)))
            .collect();
        assert_eq!(images, ["f5", "c4", "e6", "d3"]);
    }

    #[test]
    fn a_setup_keeps_only_its_own_symmetries() {
        // black on a1 alone besides the centre: only the a1 diagonal keeps it
        let mut cells = vec!['-'; 64];
        for (sq, c) in [(0, 'X'), (27, 'O'), (36, 'O'), (28, 'X'), (35, 'X')] {
            cells[sq] = c;
        }
        let setup: String = cells.into_iter().collect();
        let s = start(&format!("[Setup \"{setup} b\"]\n"));
        assert_eq!(Reversi::symmetries(&s).iter().collect::<Vec<_>>(), [0, 6]);
    }
}
