//! gamerec: a rules validator and game-record tool for Reversi, Blokus,
//! Qwirkle and Deblockle.
//!
//! The data flow (see `ARCHITECTURE.md`): bytes -> [`formats`] (a reader per
//! input format) -> [`record`] (the container: tags, tokens, spans) -> a game's
//! notation -> its engine, driven by [`replay`] (which reports to a
//! [`replay::Visitor`]) -> a [`replay::GameReport`] -> [`model`] (JSON/YAML),
//! [`pipeline::json`] or the CLI's diagnostics. [`registry`] knows the games
//! by name and which game a record is; [`pipeline`] replays a stream of
//! files' games in parallel, in input order. The library builds without the
//! `cli` feature (no clap, miette, ignore, tempfile or indicatif).
//!
//! Using it from Rust code:
//!
//! ```
//! use gamerec::record::parse_file;
//! use gamerec::registry::replay;
//! use gamerec::replay::Options;
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
//! let moves = gamerec::registry::by_name("othello").map(|g| g.perft(None, 3));
//! assert_eq!(moves, Some(Ok(56)));
//! ```

// A `Diag` is returned at most once per game (the replay stops there): boxing
// it would cost every caller for nothing.
#![allow(clippy::result_large_err)]

pub mod diag;
pub mod formats;
pub mod game;
pub mod games;
pub mod model;
pub mod pipeline;
pub mod play;
pub mod record;
pub mod registry;
pub mod replay;
pub mod source;
pub mod span;
pub mod svg;

#[cfg(feature = "cli")]
pub mod cli;
