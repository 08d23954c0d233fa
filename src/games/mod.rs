//! The games gamerec knows. A new game is a module here and one line in
//! [`REGISTRY`].

use crate::replay::{DynGame, Game};

pub mod blokus;
pub mod blokus3d;
pub mod deblockle;
pub mod qwirkle;
pub mod reversi;

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
