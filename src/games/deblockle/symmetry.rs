//! Deblockle has no symmetry but the identity. Its board and standard start
//! are mirror-symmetric east to west (`c` ↔ `e`, the stars on file `d`),
//! but its blocks are not: the cube's faces run clockwise x, hoops, cross,
//! slider around star ([`super::cube`]), and three pairs of distinct
//! opposite faces make any such cube chiral. A mirror keeps a block's top
//! and north faces and swaps east and west: the image of star up, x north
//! would have slider east, which no block of the game has. Played with the
//! game's blocks, the mirrored tips bring other faces up (a tip west from
//! star up, x north brings hoops up; the mirrored tip east brings slider
//! up), so the hops differ and the mirrored moves are another game, legal
//! or not. Games are therefore compared up to the identity alone.

use super::Deblockle;
use crate::game::Symmetry;

impl Symmetry for Deblockle {}

#[cfg(test)]
mod tests {
    use super::super::cube::{Dir, Face, Orient, WEST};

    /// For every orientation: the mirror image of the block (the same top
    /// and north, east and west swapped) is no orientation of the game's
    /// cube, which has one east face per top and north; and the tip west
    /// and its mirror, the tip east, bring different faces up.
    #[test]
    fn the_cube_is_chiral() {
        let mut seen = 0;
        for top in Face::ALL {
            for north in Face::ALL {
                let Some(o) = Orient::new(top, north) else {
                    continue;
                };
                seen += 1;
                let mirror_east = o.face(WEST);
                assert_ne!(o.east(), mirror_east, "{top:?} up, {north:?} north");
                assert_eq!(o.tip_top(Dir::West), o.east());
                assert_ne!(o.tip_top(Dir::West), o.tip_top(Dir::East));
            }
        }
        assert_eq!(seen, 24);
        let o = Orient::new(Face::Star, Face::X).unwrap_or_else(|| panic!("star up, x north"));
        assert_eq!(o.tip_top(Dir::West), Face::Hoops);
        assert_eq!(o.tip_top(Dir::East), Face::Slider);
    }
}
