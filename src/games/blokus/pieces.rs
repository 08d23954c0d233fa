//! The 21 Blokus pieces and their 91 orientations, computed once.
//!
//! An orientation is a piece turned and/or mirrored, moved so that its lowest
//! column and lowest row are 0. It is kept both as row masks (bit `x` of
//! `rows[y]`) for the engine and as a list of cells for recognising a move.

use std::ops::Range;
use std::sync::LazyLock;

/// Number of pieces per colour.
pub const PIECES: usize = 21;
/// Squares of all 21 pieces.
pub const ALL_SQUARES: u32 = 89;
/// Bit mask of all 21 pieces.
pub const ALL_PIECES: u32 = (1 << PIECES) - 1;

/// Piece names, in piece order (Pentobi's names).
pub const NAMES: [&str; PIECES] = [
    "1", "2", "I3", "V3", "I4", "L4", "T4", "O", "Z4", "I5", "L5", "N", "P", "T5", "U", "V5", "W",
    "X", "Y", "Z5", "F",
];

/// The cells of each piece in one orientation, `(x, y)`.
const SHAPES: [&[(u8, u8)]; PIECES] = [
    &[(0, 0)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (1, 0), (2, 0)],
    &[(0, 0), (1, 0), (0, 1)],
    &[(0, 0), (1, 0), (2, 0), (3, 0)],
    &[(0, 0), (0, 1), (0, 2), (1, 0)],
    &[(0, 0), (1, 0), (2, 0), (1, 1)],
    &[(0, 0), (1, 0), (0, 1), (1, 1)],
    &[(0, 0), (1, 0), (1, 1), (2, 1)],
    &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
    &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)],
    &[(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)],
    &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
    &[(0, 2), (1, 2), (2, 2), (1, 1), (1, 0)],
    &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
    &[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)],
    &[(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)],
    &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
    &[(0, 0), (1, 0), (2, 0), (3, 0), (1, 1)],
    &[(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)],
    &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)],
];

/// One orientation of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orient {
    pub piece: u8,
    /// Width and height.
    pub w: u8,
    pub h: u8,
    /// Row masks, bit `x` of `rows[y]`; rows past `h` are 0.
    pub rows: [u32; 5],
    /// The cells, the first `n` of them used, sorted by row then column.
    pub cells: [(u8, u8); 5],
    pub n: u8,
}

impl Orient {
    pub fn cells(&self) -> &[(u8, u8)] {
        self.cells.get(..usize::from(self.n)).unwrap_or(&[])
    }

    /// The shape key: bit `5 * y + x` for each cell.
    pub fn key(&self) -> u32 {
        key_of(self.cells())
    }
}

/// The shape key of normalised cells (all within 5x5).
pub fn key_of(cells: &[(u8, u8)]) -> u32 {
    cells.iter().fold(0, |k, &(x, y)| {
        k | 1u32 << (5 * u32::from(y) + u32::from(x))
    })
}

/// One cell of one orientation, as the cell that lands on a corner
/// candidate: the placement is the candidate minus `(dx, dy)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// Index into [`Table::orients`].
    pub orient: u8,
    pub piece: u8,
    pub dx: u8,
    pub dy: u8,
}

/// Neighbour directions of a cell, one bit each (see [`Table::anchors`]).
pub const LEFT: usize = 1;
pub const RIGHT: usize = 2;
pub const BELOW: usize = 4;
pub const ABOVE: usize = 8;

/// All orientations, grouped by piece.
pub struct Table {
    pub orients: Vec<Orient>,
    /// The orientations of each piece.
    pub ranges: [Range<usize>; PIECES],
    /// For each set of free edge neighbours of a square ([`LEFT`] |
    /// [`RIGHT`] | [`BELOW`] | [`ABOVE`]), every cell of every orientation
    /// whose neighbours inside its piece all lie in that set: the only cells
    /// that can cover the square. In piece, orientation, cell order.
    pub anchors: [Vec<Anchor>; 16],
    /// The shape keys ([`Orient::key`]) with their orientation, sorted by key.
    pub keys: Vec<(u32, u8)>,
}

/// The orientation table, built on first use.
pub static TABLE: LazyLock<Table> = LazyLock::new(build);

fn normalise(cells: &mut [(i8, i8)]) {
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    for c in cells.iter_mut() {
        c.0 -= min_x;
        c.1 -= min_y;
    }
    cells.sort_by_key(|&(x, y)| (y, x));
}

/// The cells of every orientation whose neighbours inside the piece all
/// lie in `free` (a set of [`LEFT`] | [`RIGHT`] | [`BELOW`] | [`ABOVE`]).
fn anchors(orients: &[Orient], free: usize) -> Vec<Anchor> {
    let mut list = Vec::new();
    for (oi, o) in orients.iter().enumerate() {
        for &(x, y) in o.cells() {
            let has = |a: i32, b: i32| {
                o.cells()
                    .iter()
                    .any(|&(cx, cy)| (i32::from(cx), i32::from(cy)) == (a, b))
            };
            let (x32, y32) = (i32::from(x), i32::from(y));
            let mut need = 0;
            for (bit, a, b) in [
                (LEFT, x32 - 1, y32),
                (RIGHT, x32 + 1, y32),
                (BELOW, x32, y32 - 1),
                (ABOVE, x32, y32 + 1),
            ] {
                if has(a, b) {
                    need |= bit;
                }
            }
            if need & !free == 0 {
                list.push(Anchor {
                    orient: oi as u8,
                    piece: o.piece,
                    dx: x,
                    dy: y,
                });
            }
        }
    }
    list
}

fn build() -> Table {
    let mut orients = Vec::with_capacity(91);
    let mut ranges: [Range<usize>; PIECES] = std::array::from_fn(|_| 0..0);
    for (p, shape) in SHAPES.iter().enumerate() {
        let start = orients.len();
        for t in 0..8 {
            let mut cells: Vec<(i8, i8)> = shape
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = (x as i8, y as i8);
                    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
                    let x = if t & 1 != 0 { -x } else { x };
                    let y = if t & 2 != 0 { -y } else { y };
                    (x, y)
                })
                .collect();
            normalise(&mut cells);
            let mut o = Orient {
                piece: p as u8,
                w: 0,
                h: 0,
                rows: [0; 5],
                cells: [(0, 0); 5],
                n: cells.len() as u8,
            };
            for (i, &(x, y)) in cells.iter().enumerate() {
                let (x, y) = (x as u8, y as u8);
                o.cells[i] = (x, y);
                o.rows[usize::from(y)] |= 1 << x;
                o.w = o.w.max(x + 1);
                o.h = o.h.max(y + 1);
            }
            if !orients[start..].iter().any(|q: &Orient| q.key() == o.key()) {
                orients.push(o);
            }
        }
        ranges[p] = start..orients.len();
    }
    let anchors = std::array::from_fn(|free| anchors(&orients, free));
    let mut keys: Vec<(u32, u8)> = orients
        .iter()
        .enumerate()
        .map(|(i, o)| (o.key(), i as u8))
        .collect();
    keys.sort_unstable();
    Table {
        orients,
        ranges,
        anchors,
        keys,
    }
}

/// The piece named `name` (case-insensitive).
pub fn by_name(name: &str) -> Option<u8> {
    NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .map(|p| p as u8)
}

/// The name of piece `p`.
pub fn name(p: u8) -> &'static str {
    NAMES.get(usize::from(p)).copied().unwrap_or("?")
}

/// The piece's name for messages: `I3`, but `1 (monomino)` and `2 (domino)`.
pub fn label(p: u8) -> String {
    match p {
        0 => "1 (monomino)".to_string(),
        1 => "2 (domino)".to_string(),
        _ => name(p).to_string(),
    }
}

/// Squares of piece `p`.
pub fn size(p: u8) -> u32 {
    SHAPES.get(usize::from(p)).map_or(0, |s| s.len() as u32)
}

/// The orientation whose normalised cells have this key.
pub fn find(key: u32) -> Option<usize> {
    let keys = &TABLE.keys;
    let i = keys.binary_search_by_key(&key, |&(k, _)| k).ok()?;
    keys.get(i).map(|&(_, o)| usize::from(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ninety_one_orientations_eighty_nine_squares() {
        let t = &*TABLE;
        assert_eq!(t.orients.len(), 91);
        let counts: Vec<usize> = t.ranges.iter().map(|r| r.len()).collect();
        assert_eq!(
            counts,
            [
                1, 2, 2, 4, 2, 8, 4, 1, 4, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4, 8
            ]
        );
        assert_eq!((0..21).map(size).sum::<u32>(), ALL_SQUARES);
        // Every orientation key is distinct (no two pieces share a shape).
        let mut keys: Vec<u32> = t.orients.iter().map(Orient::key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 91);
        for o in &t.orients {
            assert_eq!(
                o.rows.iter().map(|r| r.count_ones()).sum::<u32>(),
                size(o.piece)
            );
        }
    }

    #[test]
    fn anchors_by_free_neighbours() {
        let t = &*TABLE;
        let cells: usize = t.orients.iter().map(|o| o.cells().len()).sum();
        // every cell when all four neighbours are free; with none free, only
        // the monomino
        assert_eq!(t.anchors[15].len(), cells);
        assert_eq!(t.anchors[0].len(), 1);
        assert_eq!(t.anchors[0][0].piece, 0);
        for (free, list) in t.anchors.iter().enumerate() {
            for a in list {
                let o = &t.orients[usize::from(a.orient)];
                assert_eq!(o.piece, a.piece);
                assert!(o.cells().contains(&(a.dx, a.dy)));
                let left = a.dx > 0 && o.cells().contains(&(a.dx - 1, a.dy));
                let below = a.dy > 0 && o.cells().contains(&(a.dx, a.dy - 1));
                assert!(!left || free & LEFT != 0);
                assert!(!below || free & BELOW != 0);
            }
        }
        for (oi, o) in t.orients.iter().enumerate() {
            assert_eq!(find(o.key()), Some(oi));
        }
        assert_eq!(find(0b11 << 10), None);
    }

    #[test]
    fn names() {
        assert_eq!(by_name("v3"), Some(3));
        assert_eq!(by_name("1"), Some(0));
        assert_eq!(by_name("z5"), Some(19));
        assert_eq!(by_name("Q"), None);
        assert_eq!(name(20), "F");
    }
}
