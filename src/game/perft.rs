//! Move-tree counts from a game's start positions.

use std::fmt;

use crate::game::Setup;
use crate::record::Tags;

/// Counts a game's legal-move tree (the spec's perft numbers).
pub trait Perft: Setup {
    /// The legal-move tree to `depth` plies from the start `variant` (and
    /// `players`, in games where the number of players changes the start;
    /// the others refuse it with `no_players`) sets up, counted under
    /// each first move: the first moves in canonical notation (`pass` for a
    /// forced pass), with the leaves below each. Empty when the start is a
    /// leaf itself (depth 0, or the game is over); `perft_total` gives
    /// the count. A pass is a ply; a finished game is a leaf. `done` is told
    /// the leaves of each part of the tree as it is counted (the calls add
    /// up to the total), for a progress display.
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError>;

    /// [`Perft::perft_divide`] from a start that rules tags also set
    /// (`perft --tag NAME=VALUE`, e.g. Blokus 3D's `Area`), for games whose
    /// start depends on more than the variant and the number of players.
    /// Default: refuses any tag and counts [`Perft::perft_divide`].
    fn perft_divide_tags(
        variant: Option<&str>,
        players: Option<u8>,
        tags: &Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError> {
        if let Some(t) = tags.iter().next() {
            return Err(PerftError(format!(
                "{} perft takes no --tag (asked for {})",
                Self::NAME,
                t.name
            )));
        }
        Self::perft_divide(variant, players, depth, done)
    }
}

/// The leaf count of a perft run from its counts per first move
/// ([`Perft::perft_divide`]): their sum, or 1 when the start is a leaf.
pub fn perft_total(divide: &[(String, u64)]) -> u64 {
    if divide.is_empty() {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    }
}

/// For [`Perft::perft_divide`] of a game whose start does not depend on the
/// number of players: refuses `--players`.
pub fn no_players_named(name: &str, players: Option<u8>) -> Result<(), NoPlayers> {
    match players {
        None => Ok(()),
        Some(asked) => Err(NoPlayers {
            game: name.to_string(),
            asked,
        }),
    }
}

/// A number of players asked of a game whose start does not depend on it
/// (refused by `game::no_players`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPlayers {
    /// The game's name.
    pub game: String,
    /// The number of players asked for.
    pub asked: u8,
}

impl fmt::Display for NoPlayers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} perft takes no --players (asked for {})",
            self.game, self.asked
        )
    }
}

impl std::error::Error for NoPlayers {}

/// For a [`Perft`] implementation, which says why in words.
impl From<NoPlayers> for String {
    fn from(e: NoPlayers) -> String {
        e.to_string()
    }
}

/// Why a perft count cannot be made: the game refused the start asked for
/// (a variant it does not know, `--players` or `--tag` it does not take, a
/// board size it has not), in the words of its [`Perft`] implementation, or
/// the count could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftError(pub String);

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PerftError {}

impl From<NoPlayers> for PerftError {
    fn from(e: NoPlayers) -> PerftError {
        PerftError(e.to_string())
    }
}

impl From<crate::game::UnknownVariant> for PerftError {
    fn from(e: crate::game::UnknownVariant) -> PerftError {
        PerftError(e.to_string())
    }
}

impl From<String> for PerftError {
    fn from(message: String) -> PerftError {
        PerftError(message)
    }
}
