//! gamerec: a rules validator and game-record tool for Reversi, Blokus
//! (classic, Duo, Trigon), Blokus 3D, Qwirkle and Deblockle.
//!
//! The data flow (see `ARCHITECTURE.md`): bytes -> a reader per input format
//! ([`open`]: one [`SourceGame`] at a time) -> the record container (tags,
//! tokens, spans: [`RawGame`]) -> a game's [`Notation`] (typed moves) -> its
//! engine ([`Position`]), driven by the replay driver ([`replay`], which
//! reports to a [`Visitor`]) -> a [`GameReport`] with [`Diag`]nostics.
//! [`REGISTRY`] knows the games by name; [`play`] drives a position of any
//! game in notation.
//!
//! This page is the library's front: the types a user needs, re-exported
//! here. The modules behind them are the crate's own (built public only
//! with the `internals` feature, for its tests and benchmarks: no
//! stability is promised there). The library builds without the `cli`
//! feature (no clap, miette, ignore, tempfile or indicatif).
//!
//! Replaying a record:
//!
//! ```
//! use gamerec::{Options, parse_file, replay};
//!
//! let text = "[Game \"reversi\"]\n1. f5 d6 2. c3 d3 3. c4 g7\n";
//! let games = parse_file(text);
//! let report = replay(&games[0], text, &Options::default());
//! assert!(!report.valid);
//! assert_eq!(report.plies, 5);
//! let error = &report.errors[0];
//! assert_eq!(error.code, "reversi::no_flip");
//! assert_eq!(error.ply, 6);
//! assert_eq!(error.span.map(|s| s.text(text)), Some("g7"));
//!
//! let moves = gamerec::by_name("othello").map(|g| g.perft(None, 3));
//! assert_eq!(moves, Some(Ok(56)));
//! ```
//!
//! Playing a game through its engine, with typed moves:
//!
//! ```
//! use gamerec::{Position, Setup, reversi::Reversi};
//!
//! let mut pos = Reversi::start(&Default::default()).unwrap();
//! let moves: Vec<_> = pos.legal_moves().unwrap().collect();
//! assert_eq!(moves.len(), 4);
//! pos.play(&moves[0]).unwrap();
//! assert_eq!(pos.scores(), [4, 1]);
//! ```
#![warn(missing_docs)]
// Without `internals`, what only the crate's tests and benchmarks (and,
// without `cli`, only the command line) use looks unused.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]
// A `Diag` is returned at most once per game (the replay stops there): boxing
// it would cost every caller for nothing.
#![allow(clippy::result_large_err)]

/// The crate's own modules: public with the `internals` feature (for its
/// tests and benchmarks), crate-private otherwise.
macro_rules! internal {
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$attr])*
            #[cfg(feature = "internals")]
            #[allow(missing_docs)]
            pub mod $name;
            $(#[$attr])*
            #[cfg(not(feature = "internals"))]
            pub(crate) mod $name;
        )*
    };
}

internal!(
    codec, diag, filter, formats, game, games, model, pipeline, record, registry, replay, source,
    span, svg,
);

pub mod play;

/// The command line (the `gamerec` binary's code; not part of the
/// library's interface).
#[cfg(feature = "cli")]
#[doc(hidden)]
#[allow(missing_docs)]
pub mod cli;

pub use diag::{Diag, Severity};
pub use formats::{ByteMap, Format, Games, ReadError, ReadOptions, SourceGame, open};
pub use game::{
    Explain, Extras, IllegalOf, MoveOf, NoPlayers, Notation, Parsed, Perft, PerftError, Position,
    Render, Rules, Setup, UnknownVariant, Unlisted,
};
pub use play::{AnyPosition, start};
pub use record::{RawGame, Tag, Tags, parse_file};
pub use registry::{DynGame, REGISTRY, UnknownGame, by_name, lookup, replay, replay_into};
pub use replay::{GameReport, MoveRecord, Options, Sink, Visitor};

/// What a replay's report keeps besides the verdict: the [`Sink`] a
/// command passes in [`Options`], and the library's sinks.
pub mod sink {
    pub use crate::replay::sink::{Brief, End, Moves, Record, Sink, Summary, TagsKept, Verdict};
}
pub use span::{LineIndex, Origin, Span};

/// A game's front: its type, position, moves and reasons for refusing one.
macro_rules! game_front {
    ($(#[$doc:meta])* $module:ident, $game:ident) => {
        $(#[$doc])*
        pub mod $module {
            pub use crate::games::$module::$game;
            /// The game's position (its engine).
            pub type Position = <$game as crate::game::Setup>::Position;
            /// The game's typed move.
            pub type Move = crate::game::MoveOf<$game>;
            /// Why the engine refuses a move.
            pub type Illegal = crate::game::IllegalOf<$game>;
        }
    };
}

game_front!(
    /// Reversi (Othello), on 4x4 to 16x16 boards.
    reversi,
    Reversi
);
game_front!(
    /// Blokus: classic, Duo and Trigon, other sizes and player counts.
    blokus,
    Blokus
);
game_front!(
    /// Blokus 3D (Rumis).
    blokus3d,
    Blokus3d
);
game_front!(
    /// Qwirkle.
    qwirkle,
    Qwirkle
);
game_front!(
    /// Deblockle.
    deblockle,
    Deblockle
);
