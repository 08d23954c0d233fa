//! Qwirkle is compared up to the identity alone, a decision: its board is
//! unbounded and the first tile may go anywhere (`0,0` by convention), so
//! the same game may be written translated, turned or mirrored, each a
//! legal game with the same scores. Those are not symmetries of a start (a
//! translation depends on where the first tile went, not on the board),
//! and records of one game written from two origins are rare beside the
//! exact copies a collection holds: only games written with the same
//! coordinates are copies.

use super::Qwirkle;
use crate::game::Symmetry;

impl Symmetry for Qwirkle {}
