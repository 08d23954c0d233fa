//! Playing a game move by move, by name and in notation: the position a
//! program drives (random or engine self-play, a tournament server, a
//! binding), without a record.
//!
//! ```
//! let mut pos = gamerec::play::start("reversi", &[]).unwrap();
//! assert_eq!(pos.turn(), Some("black"));
//! let moves = pos.legal_moves().unwrap();
//! assert_eq!(moves, ["c4", "d3", "e6", "f5"]);
//! pos.play("f5").unwrap();
//! let refused = pos.play("a1").unwrap_err();
//! assert_eq!(refused.code, "reversi::no_flip");
//! assert_eq!(pos.scores(), [4, 1]);
//! ```
//!
//! A move is read by the game's notation (one move: a Qwirkle turn may be
//! several words) and judged by its engine; a refused move leaves the
//! position as it was, and its diagnostic's span points into the move's
//! text. Passes are played as any move (`pass`) when [`AnyPosition::legal_moves`]
//! is empty.

use crate::diag::Diag;
pub use crate::game::{AnyPosition, Live};
use crate::record::{Tag, Tags};

/// The start position of the game `name` (or an alias: `othello`) with the
/// rules tags `tags` (`("Variant", "duo")`, `("Size", "10")`); the
/// diagnostics of a bad tag, or `unknown game`.
pub fn start(name: &str, tags: &[(&str, &str)]) -> Result<Box<dyn AnyPosition>, Vec<Diag>> {
    let Some(game) = crate::registry::by_name(name) else {
        return Err(vec![Diag::error(
            "record::unknown_game",
            format!("unknown game `{name}`"),
        )]);
    };
    let tags = Tags(
        tags.iter()
            .map(|&(name, value)| Tag {
                name: name.to_string(),
                value: value.to_string(),
                ..Tag::default()
            })
            .collect(),
    );
    game.position(&tags)
}
