//! Blokus 3D is compared up to the identity alone: its areas (`Area` maps,
//! towers, cubes) and their start cells differ from record to record, and
//! a piece's levels are fixed by gravity, so only the quarter turns and
//! mirrors of the floor could apply, and only to some areas; they are not
//! worked out here.

use super::Blokus3d;
use crate::game::Symmetry;

impl Symmetry for Blokus3d {}
