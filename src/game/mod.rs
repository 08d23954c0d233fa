//! The game abstraction: what every game module provides, one trait per
//! concern.
//!
//! - [`Setup`]: the game's names, variants, rules tags, and the start
//!   [`Position`] a record's tags set up;
//! - [`Position`]: the engine, with typed moves that carry no spans:
//!   `play(move) -> Result<(), Illegal>`, the legal moves, whose turn, is it
//!   over, the scores;
//! - [`Notation`]: container tokens into typed moves ([`Parsed`]: a move with
//!   its span and the spans of its parts), and moves back into text;
//! - [`Explain`]: an `Illegal` and the spans the driver kept, made a [`Diag`];
//! - [`Render`]: terminal text and [`svg::Scene`](crate::svg::Scene)s;
//! - [`Extras`]: what a report adds beyond scores (JSON fields, notes);
//! - [`Perft`]: move-tree counts from the start;
//! - [`Symmetry`]: the board's symmetries that keep a start, and a move's
//!   image under each (identity only by default).
//!
//! [`AnyPosition`] is a position of any game driven in notation, and
//! [`Live`] its implementation for one game's `Rules` (what
//! [`crate::play`] hands out).
//!
//! [`Rules`] is what the replay driver runs: the union of the concern
//! traits, which every game that implements them has. The generic driver in [`crate::replay`] runs any
//! `Rules` over a [`RawGame`](crate::record::RawGame): automatic passes,
//! moves after the end, the `Result` check, ply counting, the per-move
//! records for conversion. [`DynGame`](crate::registry::DynGame) erases the
//! type so the CLI can pick a game by name; [`crate::registry::REGISTRY`] lists
//! them.

mod digest;
mod explain;
mod extras;
mod live;
mod notation;
mod perft;
mod position;
mod render;
mod setup;
mod symmetry;

pub use digest::{Fnv128, digest};
pub use explain::Explain;
pub use extras::Extras;
pub use live::{AnyPosition, Live};
pub use notation::{Notation, Parsed, ParsedMoves, one_move_per_token};
pub use perft::{NoPlayers, Perft, PerftError, perft_total};
pub use position::{Position, Unlisted, top_scores};
pub use render::Render;
pub use setup::{IllegalOf, MoveOf, Setup};
pub use symmetry::{Symmetries, Symmetry, square_image, square_symmetries};

use crate::diag::Diag;
use crate::record::Tags;

/// One game's notation, engine and renderer, as the replay driver runs it:
/// the union of the concern traits ([`Setup`], [`Position`] through
/// `Setup::Position`, [`Notation`], [`Explain`], [`Render`], [`Extras`],
/// [`Perft`], `Symmetry`). It adds nothing of its own: every game that implements them
/// has it, and the driver and the registry call the concern traits'
/// items directly (`R::start`, `R::judge`, `state.is_over()`).
pub trait Rules: Notation + Explain + Render + Extras + Perft + Symmetry {}

impl<G> Rules for G where G: Notation + Explain + Render + Extras + Perft + Symmetry {}

/// For [`Perft::perft_divide`] of a game whose start does not depend on the
/// number of players: refuses `--players`.
pub fn no_players<R: Setup>(players: Option<u8>) -> Result<(), NoPlayers> {
    perft::no_players_named(R::NAME, players)
}

/// The index in `R::VARIANTS` of a variant name (trimmed, case-insensitive);
/// the default (0) when none is given.
pub fn variant_index<R: Setup>(value: Option<&str>) -> Result<usize, UnknownVariant> {
    let Some(value) = value else {
        return Ok(0);
    };
    let value = value.trim();
    R::VARIANTS
        .iter()
        .position(|v| v.eq_ignore_ascii_case(value))
        .ok_or_else(|| UnknownVariant {
            game: R::NAME,
            value: value.to_string(),
            known: R::VARIANTS,
        })
}

/// A variant name a game does not have (refused by `game::variant_index`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant {
    /// The game's name.
    pub game: &'static str,
    /// The name asked for, trimmed.
    pub value: String,
    /// The game's variants.
    pub known: &'static [&'static str],
}

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown {} variant `{}` (known: {})",
            self.game,
            self.value,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

/// For a [`Perft`] implementation, which says why in words.
impl From<UnknownVariant> for String {
    fn from(e: UnknownVariant) -> String {
        e.to_string()
    }
}

/// The variant a record's `Variant` tag names, as an index in `R::VARIANTS`;
/// an unknown one is a `record::bad_tag` error at the value.
pub fn variant_of<R: Setup>(tags: &Tags) -> Result<usize, Diag> {
    let tag = tags.get("Variant");
    variant_index::<R>(tag.map(|t| t.value.as_str())).map_err(|unknown| {
        let mut d = Diag::error("record::bad_tag", unknown.to_string())
            .label(format!("not a {} variant", R::NAME))
            .help(format!("{} variants: {}", R::NAME, R::VARIANTS.join(", ")));
        if let Some(t) = tag {
            d = d.at(t.value_span);
        }
        d
    })
}

/// [`variant_of`] for a game's `start`: an unknown variant's error joins
/// `errors` and the default variant (0) is used.
pub fn variant_in<R: Setup>(tags: &Tags, errors: &mut Vec<Diag>) -> usize {
    variant_of::<R>(tags).unwrap_or_else(|d| {
        errors.push(d);
        0
    })
}
