//! The games gamerec knows, one module each (rules docs at the top,
//! `notation`, `engine`, `render`). A new game is a module here and one
//! line in [`crate::registry::REGISTRY`].

pub mod blokus;
pub mod blokus3d;
pub mod deblockle;
pub mod qwirkle;
pub mod reversi;
