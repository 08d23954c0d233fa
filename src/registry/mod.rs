//! The games gamerec knows, by name: [`REGISTRY`], [`by_name`], the type
//! erasure of a game ([`DynGame`], [`Game`]), which game a record is
//! ([`resolve`], [`resolve_in`]: its `Game` tag, `--game`, or inferred
//! from its first moves), and the replay of a record of any game
//! ([`replay`], [`replay_into`]).
//!
//! The layering: [`crate::games`] holds the games' modules and knows no
//! registry; [`crate::replay`] is the driver generic over a game's
//! [`Rules`](crate::game::Rules) and knows no registry either; this module
//! stands above both. A new game is a module in `games` and one line in
//! [`REGISTRY`].

mod dyn_game;
mod infer;

#[cfg(test)]
mod tests;

pub use dyn_game::{DynGame, Game};
pub use infer::{INFER_TOKENS, resolve, resolve_in};

use crate::games::{blokus, blokus3d, deblockle, qwirkle, reversi};
use crate::record::RawGame;
use crate::replay::{GameReport, Options, cap_diagnostics, describe_into};

/// Every game, by its normalised name.
pub static REGISTRY: &[&dyn DynGame] = &[
    &Game::<reversi::Reversi>::NEW,
    &Game::<blokus::Blokus>::NEW,
    &Game::<qwirkle::Qwirkle>::NEW,
    &Game::<deblockle::Deblockle>::NEW,
    &Game::<blokus3d::Blokus3d>::NEW,
];

/// The game a `Game` tag or `--game` names (case-insensitive, aliases included).
pub fn by_name(name: &str) -> Option<&'static dyn DynGame> {
    let name = name.trim();
    REGISTRY.iter().copied().find(|g| {
        g.name().eq_ignore_ascii_case(name)
            || g.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

/// The game a name names, as [`by_name`], or the typed refusal: its
/// message is the one the command line gives (`unknown game `NAME` (did
/// you mean ...? known games: ...)`).
pub fn lookup(name: &str) -> Result<&'static dyn DynGame, UnknownGame> {
    by_name(name).ok_or_else(|| UnknownGame {
        name: name.to_string(),
    })
}

/// A game name the registry does not know ([`lookup`]); its message names
/// the closest known name and every known one (`registry::unknown_help`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
}

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown game `{}` ({})",
            self.name,
            unknown_help(&self.name)
        )
    }
}

impl std::error::Error for UnknownGame {}

/// The help of an unknown game's name: a "did you mean" when a known name
/// or alias is two edits away or less, then every name and alias.
pub fn unknown_help(name: &str) -> String {
    let mut known: Vec<&str> = Vec::new();
    for g in REGISTRY {
        known.push(g.name());
        known.extend(g.aliases().iter().copied());
    }
    let list = format!("known games: {}", known.join(", "));
    match crate::diag::closest(name.trim(), known.iter().copied(), 2) {
        Some(k) => format!("did you mean `{k}`? {list}"),
        None => list,
    }
}

/// Replays a game whose `Game` tag (or `--game`) names a known game.
pub fn replay(raw: &RawGame, src: &str, opts: &Options) -> GameReport {
    let mut report = GameReport::default();
    replay_into(raw, src, opts, &mut report);
    report
}

/// [`replay`] into `report`: an earlier game's, whose room is reused.
pub fn replay_into(raw: &RawGame, src: &str, opts: &Options, report: &mut GameReport) {
    match resolve_in(raw, src, opts) {
        Ok((game, warnings)) => {
            game.replay(raw, src, opts, report);
            if !warnings.is_empty() {
                report.warnings.splice(0..0, warnings);
            }
        }
        Err(failed) => *report = *failed,
    }
    let tags = raw
        .tags
        .0
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()));
    describe_into(report, tags, opts);
    cap_diagnostics(report, raw.tag_errors_dropped);
}
