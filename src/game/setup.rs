//! A game's names and its start from a record's tags.

use crate::diag::Diag;
use crate::game::Position;
use crate::record::Tags;

/// A game: its names, variants and rules tags, and the start position a
/// record's tags set up. Implemented by a unit type per game (`Reversi`);
/// the other concern traits ([`Notation`](crate::game::Notation),
/// [`Explain`](crate::game::Explain), [`Render`](crate::game::Render),
/// [`Extras`](crate::game::Extras), [`Perft`](crate::game::Perft)) build on it.
pub trait Setup: 'static {
    /// The position type: the game's engine.
    type Position: Position;

    /// Normalised name, as in the `Game` tag (`reversi`).
    const NAME: &'static str;
    /// Other accepted `Game` tag values (`othello`).
    const ALIASES: &'static [&'static str] = &[];
    /// Tags that set the rules: an error in one of these stops the game at ply 0.
    const RULES_TAGS: &'static [&'static str];
    /// The variants, by name; the first is the default.
    const VARIANTS: &'static [&'static str];

    /// The start position from the tags (`Variant`, `Setup`, `Size`, ...).
    /// Any error stops the game before its first move.
    fn start(tags: &Tags) -> Result<Self::Position, Vec<Diag>>;
}

/// A game's move type.
pub type MoveOf<G> = <<G as Setup>::Position as Position>::Move;
/// A game's reason for an illegal move.
pub type IllegalOf<G> = <<G as Setup>::Position as Position>::Illegal;
