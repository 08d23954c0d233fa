//! gamerec: a rules validator and game-record tool for Reversi, Blokus,
//! Qwirkle and Deblockle.
//!
//! The data flow (see `ARCHITECTURE.md`): bytes -> [`formats`] (a reader per
//! input format) -> [`record`] (the container: tags, tokens, spans) -> a game's
//! notation -> its engine, driven by [`replay`] -> a [`replay::GameReport`] ->
//! [`model`] (JSON/YAML) or the CLI's diagnostics.

// A `Diag` is returned at most once per game (the replay stops there): boxing
// it would cost every caller for nothing.
#![allow(clippy::result_large_err)]

pub mod diag;
pub mod formats;
pub mod game;
pub mod games;
pub mod model;
pub mod record;
pub mod replay;
pub mod span;

#[cfg(feature = "cli")]
pub mod cli;
