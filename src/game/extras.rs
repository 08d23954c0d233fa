//! What a game adds to a report beyond scores and winners.

use serde_json::{Map, Value};

use crate::game::{MoveOf, Setup};

/// A game's extra report fields: JSON result and move fields, the lines the
/// human `score` adds, the checks a record could not have.
pub trait Extras: Setup {
    /// Extra per-game result fields for JSON (per-colour scores, discs placed...).
    fn result_extras(_position: &Self::Position) -> Map<String, Value> {
        Map::new()
    }

    /// Extra structured fields for a move in JSON, given the position before it.
    fn move_extras(_before: &Self::Position, _mv: &MoveOf<Self>) -> Map<String, Value> {
        Map::new()
    }

    /// Lines the human `score` shows under the scores (Reversi: the discs
    /// each side placed).
    fn score_notes(_position: &Self::Position) -> Vec<String> {
        Vec::new()
    }

    /// Checks that could not be made on this record (shown by `score`).
    fn unchecked(_position: &Self::Position) -> Vec<String> {
        Vec::new()
    }
}
