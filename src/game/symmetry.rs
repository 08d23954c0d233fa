//! A game's symmetries: the transformations of its board that take a legal
//! game to another legal game of the same start, and how a typed move maps
//! under each. `dedup --symmetric` and `convert --dedup --symmetric` compare
//! games up to them (`crate::pipeline::dedup`).

use crate::game::{MoveOf, Setup};

/// A set of a game's symmetries, by number (at most 32; 0 is the
/// identity, always in the set). What each number means is the game's
/// ([`Symmetry::map_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetries(u32);

impl Symmetries {
    /// The identity alone.
    pub const IDENTITY: Symmetries = Symmetries(1);

    /// The identity and the symmetries numbered by the bits of `mask`
    /// (bits past 31 are ignored).
    pub fn of(mask: u32) -> Symmetries {
        Symmetries(mask | 1)
    }

    /// The numbers in the set, the identity (0) first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..32u8).filter(move |&s| self.0 & (1 << s) != 0)
    }

    /// How many symmetries the set holds (1 or more).
    pub fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds the identity alone.
    pub fn is_identity(self) -> bool {
        self.0 == 1
    }
}

/// A game's symmetries: those of its board that keep a start position (its
/// discs, pieces, starting squares and the order of play), and the image of
/// a move under each. The default is the identity alone: a game without
/// symmetries implements this trait with no items.
///
/// A symmetry `s` of a start is such that, for every game from that start,
/// the game whose moves are `map_move(start, s, m)` is a legal game from the
/// same start with the same scores seat by seat: `dedup --symmetric` counts
/// such games as copies. The mapped move is used for its canonical text
/// ([`Notation::write_move`](crate::game::Notation::write_move)): it writes
/// as the image move does.
pub trait Symmetry: Setup {
    /// The symmetries that keep `start`.
    fn symmetries(_start: &Self::Position) -> Symmetries {
        Symmetries::IDENTITY
    }

    /// The image of `mv` (a move of a game from `start`) under the symmetry
    /// numbered `s` (one of [`Symmetry::symmetries`]`(start)`; the identity
    /// for any other number).
    fn map_move(_start: &Self::Position, _s: u8, mv: &MoveOf<Self>) -> MoveOf<Self> {
        mv.clone()
    }
}

/// The eight symmetries of a square `n`x`n` board, numbered 0 to 7, on a
/// square `(column, row)` from 0: 0 the identity, 1 a quarter turn, 2 a half
/// turn, 3 three quarters, 4 the mirror top to bottom, 5 left to right, 6
/// the reflection in the diagonal through `(0, 0)`, 7 in the other
/// diagonal. `None` off the board.
pub fn square_image(s: u8, (col, row): (u8, u8), n: u8) -> Option<(u8, u8)> {
    if col >= n || row >= n {
        return None;
    }
    let (c, r, m) = (col, row, n - 1);
    Some(match s {
        1 => (r, m - c),
        2 => (m - c, m - r),
        3 => (m - r, c),
        4 => (c, m - r),
        5 => (m - c, r),
        6 => (r, c),
        7 => (m - r, m - c),
        _ => (c, r),
    })
}

/// The symmetries of a square `n`x`n` board (numbered as [`square_image`])
/// under which `keeps` holds for every square and its image.
pub fn square_symmetries(n: u8, keeps: impl Fn((u8, u8), (u8, u8)) -> bool) -> Symmetries {
    let mut mask = 1;
    for s in 1..8u8 {
        let kept = (0..n).all(|c| {
            (0..n).all(|r| square_image(s, (c, r), n).is_some_and(|to| keeps((c, r), to)))
        });
        if kept {
            mask |= 1 << s;
        }
    }
    Symmetries::of(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_images_are_a_group_of_distinct_maps() {
        let n = 5;
        let images: Vec<Vec<(u8, u8)>> = (0..8)
            .map(|s| {
                (0..n)
                    .flat_map(|c| (0..n).map(move |r| (c, r)))
                    .filter_map(|sq| square_image(s, sq, n))
                    .collect()
            })
            .collect();
        for (i, a) in images.iter().enumerate() {
            assert_eq!(a.len(), 25);
            for b in images.iter().skip(i + 1) {
                assert_ne!(a, b);
            }
        }
        assert_eq!(square_image(0, (5, 0), 5), None);
        // a quarter turn four times is the identity
        let mut sq = (1, 3);
        for _ in 0..4 {
            sq = square_image(1, sq, n).unwrap_or((9, 9));
        }
        assert_eq!(sq, (1, 3));
    }

    #[test]
    fn a_set_lists_the_identity_first() {
        let set = Symmetries::of(0b1000_0100);
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 2, 7]);
        assert_eq!(set.count(), 3);
        assert!(Symmetries::IDENTITY.is_identity());
    }
}
