//! Reversi's packed replay ([`PackedReplay`]): a record's moves as square
//! indices, replayed on the 8x8 bitboards without the generic driver.
//!
//! A packed move is its square's byte `10 * row + column`, row and column
//! from 1 (`a1` = 11, `h8` = 88: the encoding of the WTHOR database, read
//! without a copy; any other byte is no square); passes are left out and
//! taken where the side to move has none. The start is the
//! standard 8x8 one, without `Setup`, `Size` or `Komi`; the variants played
//! are `standard` and `wof`.

use std::borrow::Cow;

use serde_json::Map;

use super::engine::{Bitboard, Replayed, flips_fast, replay_clean};
use super::{Reversi, Scoring, State};
use crate::replay::MoveRecord;
use crate::replay::packed::PackedReplay;

/// The square index (`a1` = 0, bit `8 * row + column`) of a packed move.
#[inline]
pub fn square_of_byte(b: u8) -> Option<u8> {
    let (row, col) = (b / 10, b % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Some((row - 1) * 8 + (col - 1))
    } else {
        None
    }
}

/// The packed move of a square index.
pub fn byte_of_square(sq: u8) -> u8 {
    (sq / 8 + 1) * 10 + sq % 8 + 1
}

/// The name of each square of the 8x8 board by index (`a1`, `b1`, ...,
/// `h8`): a replayed move's notation without a string built per move.
const SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// The squares of packed moves (`None`: no square).
fn squares(moves: &[u8]) -> impl ExactSizeIterator<Item = Option<u32>> + '_ {
    moves.iter().map(|&b| square_of_byte(b).map(u32::from))
}

impl PackedReplay for Reversi {
    fn replay_packed(variant: &str, moves: &[u8]) -> Option<(State, usize)> {
        let scoring = match variant {
            "wof" => Scoring::Wof,
            "standard" => Scoring::Standard,
            _ => return None,
        };
        let Replayed { pos, placed, plies } = replay_clean(squares(moves))?;
        let state = State {
            placed,
            ..State::new(pos, scoring)
        };
        Some((state, plies))
    }

    fn packed_moves(
        moves: &[u8],
        plies: usize,
        seats: &'static [&'static str],
    ) -> Option<Vec<MoveRecord>> {
        let record = |ply, black: bool, notation, auto| {
            Some(MoveRecord {
                ply,
                player: seats.get(usize::from(!black)).copied()?,
                notation: Cow::Borrowed(notation),
                comment: None,
                auto,
                setup: false,
                extras: Map::new(),
                number: None,
                props: Vec::new(),
            })
        };
        let mut out = Vec::with_capacity(plies);
        // without a pass, each side in turn from black: no need to play the moves
        let passes = moves.len() != plies;
        let mut pos = Bitboard::START;
        for sq in squares(moves) {
            let sq = sq?;
            let name = SQUARE_NAMES.get(sq as usize)?;
            if passes {
                // in a clean game, a move that flips nothing for the side to
                // move comes after its forced pass
                let (p, o) = pos.mover();
                let mut flipped = flips_fast(p, o, sq);
                if flipped == 0 {
                    out.push(record(out.len() + 1, pos.black_to_move, "pass", true)?);
                    pos.pass();
                    let (p, o) = pos.mover();
                    flipped = flips_fast(p, o, sq);
                }
                out.push(record(out.len() + 1, pos.black_to_move, name, false)?);
                pos.play(sq, flipped);
            } else {
                out.push(record(out.len() + 1, pos.black_to_move, name, false)?);
                // the turn passes on (the discs are not needed)
                pos.pass();
            }
        }
        (out.len() == plies).then_some(out)
    }
}
