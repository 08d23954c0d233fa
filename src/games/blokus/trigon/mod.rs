//! Blokus Trigon, as `../shared/spec/trigon.md` fixes it.

pub mod board;
pub mod pieces;

#[cfg(test)]
mod tests;
