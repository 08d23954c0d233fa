//! What a game adds to a report beyond scores and winners.

use serde_json::{Map, Value};

use crate::diag::Diag;
use crate::game::{MoveOf, Setup};
use crate::record::Tags;

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

    /// What a record claims about its start position besides its moves
    /// (Reversi's `MoveScores`, from `.obf` positions: moves listed with
    /// their exact scores), checked once the start is set up, before the
    /// first move: the diagnostics (ply 0), blaming spans in `src`.
    /// `search`: when given, the claims a search proves are checked too,
    /// as far as the limit (`validate --check-scores`; Reversi: the most
    /// empty squares a position searched has). Default: none.
    fn start_claims(
        _tags: &Tags,
        _src: &str,
        _start: &Self::Position,
        _search: Option<u32>,
    ) -> Vec<Diag> {
        Vec::new()
    }
}
