//! Blokus Trigon, as `../shared/spec/trigon.md` fixes it: `[Game "blokus"]
//! [Variant "trigon"]`.
//!
//! - The board is a hexagon of triangles, edge 9 (486 triangles) with four
//!   colours or two players, edge 8 (384) with `[Players "3"]`. Triangles are
//!   named by column (`a`..`z`, `aa`..) and row from the bottom, as in
//!   Pentobi's files; see [`board`] for the geometry.
//! - Each colour has the 22 polyiamonds of 1 to 6 triangles (110 triangles),
//!   [`pieces`]. A colour's first piece covers one of the six starting points
//!   still empty (they belong to no colour); later pieces touch their own
//!   colour at a corner and never along a side. Passes, the end, the three
//!   scorings and the seats are classic's (`super`), counted in triangles.
//! - Seats: `blue` `yellow` `red` `green` (4 players), `player1` `player2`
//!   (2: blue and red against yellow and green), `blue` `yellow` `red` (3).
//!   `Size` and `Corners` are `bad_tags`; so are `SetupPurple`,
//!   `SetupOrange`, and `SetupGreen` with three players.
//!
//! Layout: [`pieces`] (shapes, orientations), [`board`] (the hexagon, the
//! bit-set move generator, and the [`Geometry`](super::Geometry) the
//! Blokus rules core judges moves over), [`notation`] (reading triangles,
//! shape recognition), [`setup`] (set-up tags), [`render`] (terminal,
//! letter rows, SVG). The rules, the explanations and the per-move fields
//! are Blokus's own (`super`), written once for both boards.
//!
//! Decisions where the spec is silent:
//! - The same error codes as classic (`not_a_square` for a triangle name or
//!   a triangle off the hexagon, `start_missed` when a first piece covers no
//!   empty starting point). Order of checks in `play`: triangles on the
//!   board, piece already placed, occupied, then the starting point or, for a
//!   later piece, side contact and then corner contact.
//! - A move's JSON fields: `colour`, `seat`, `piece` and `triangles` (names,
//!   sorted by row then column).
//! - `final_position` rows: one string per row, top row first, one
//!   character per column of the 4n-1 columns: a space off the hexagon, `.`
//!   an empty triangle, else the colour's letter.
//! - Set-up tags as classic's (`SetupBlue` ..): pieces written as moves,
//!   checked as notation and for the board, overlap and repeated pieces;
//!   placement rules not applied.

pub mod board;
pub mod notation;
pub mod pieces;
pub mod render;
pub mod setup;

#[cfg(test)]
mod tests;
