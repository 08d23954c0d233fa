//! The 22 Trigon pieces (every polyiamond of 1 to 6 triangles) and their
//! 155 orientations, computed once.
//!
//! Shapes live on the lattice where the triangle `(x, r)` points up when
//! `x + r` is even (the edge-9 board's lattice). An orientation is a piece
//! turned by a multiple of 60 degrees and/or turned over, moved so that its
//! lowest row is 0 and its leftmost column is 0 or 1 (a move that keeps every
//! triangle pointing the way it did). The edge-8 board points the other way
//! ([`super::board::Hexagon`] shifts its columns by one to match).

use std::sync::LazyLock;

/// Number of pieces per colour.
pub const PIECES: usize = 22;
/// Triangles of all 22 pieces.
pub const ALL_TRIANGLES: u32 = 110;
/// Bit mask of all 22 pieces.
pub const ALL_PIECES: u32 = (1 << PIECES) - 1;
/// Most triangles in a piece.
pub const MAX_SIZE: usize = 6;
/// The monomino's index.
pub const MONOMINO: u8 = 21;

/// Piece names, in piece order (Pentobi's names and order).
pub const NAMES: [&str; PIECES] = [
    "I6", "L6", "V", "S", "P6", "F", "W", "A6", "G", "Y", "X", "O", "I5", "L5", "C5", "P5", "I4",
    "C4", "A4", "I3", "2", "1",
];

/// The triangles of each piece in one orientation, `(x, r)` (rows up).
const SHAPES: [&[(i8, i8)]; PIECES] = [
    &[(1, 1), (2, 1), (0, 0), (1, 0), (-1, -1), (0, -1)],
    &[(1, 1), (2, 1), (0, 0), (1, 0), (0, -1), (1, -1)],
    &[(-2, 1), (-1, 1), (-1, 0), (0, 0), (1, 0), (2, 0)],
    &[(-1, 1), (0, 1), (-1, 0), (0, 0), (-1, -1), (0, -1)],
    &[(1, 1), (0, 0), (1, 0), (2, 0), (-1, -1), (0, -1)],
    &[(0, 0), (1, 0), (0, -1), (1, -1), (2, -1), (1, -2)],
    &[(1, 1), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)],
    &[(1, 1), (0, 0), (1, 0), (2, 0), (0, -1), (2, -1)],
    &[(1, 1), (0, 0), (1, 0), (0, -1), (1, -1), (2, -1)],
    &[(-1, 1), (-1, 0), (0, 0), (1, 0), (-1, -1), (0, -1)],
    &[(-1, 0), (0, 0), (1, 0), (-1, -1), (0, -1), (1, -1)],
    &[(-1, 1), (0, 1), (1, 1), (-1, 0), (0, 0), (1, 0)],
    &[(1, 1), (0, 0), (1, 0), (-1, -1), (0, -1)],
    &[(1, 1), (0, 0), (1, 0), (0, -1), (1, -1)],
    &[(0, 0), (1, 0), (0, -1), (1, -1), (2, -1)],
    &[(1, 1), (0, 0), (1, 0), (2, 0), (0, -1)],
    &[(0, 0), (1, 0), (-1, -1), (0, -1)],
    &[(0, 0), (1, 0), (0, -1), (1, -1)],
    &[(1, 1), (0, 0), (1, 0), (2, 0)],
    &[(1, 1), (0, 0), (1, 0)],
    &[(0, 0), (1, 0)],
    &[(0, 0)],
];

/// One orientation: its triangles `(x, r)`, the first `n` used, sorted by
/// row then column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orient {
    pub piece: u8,
    pub cells: [(u8, u8); MAX_SIZE],
    pub n: u8,
}

impl Orient {
    pub fn cells(&self) -> &[(u8, u8)] {
        self.cells.get(..usize::from(self.n)).unwrap_or(&[])
    }
}

/// Every orientation, grouped by piece.
pub static ORIENTS: LazyLock<Vec<Orient>> = LazyLock::new(build);

/// Centroid coordinates of a triangle: `(P, Q)` with the centroid at
/// `(P / 6, Q * sqrt(3) / 6)` in units of a side, so that turning by 60
/// degrees about a lattice vertex is integer arithmetic.
fn centroid(x: i32, r: i32) -> (i32, i32) {
    let up = (x + r).rem_euclid(2) == 0;
    (3 * (x + 1), 3 * r + if up { 1 } else { 2 })
}

fn from_centroid(p: i32, q: i32) -> (i32, i32) {
    (p / 3 - 1, q.div_euclid(3))
}

/// The triangles after `t` (0..12): `t % 6` turns by 60 degrees, then a
/// mirror image when `t >= 6`.
fn transform(cells: &[(i8, i8)], t: u8) -> Vec<(i32, i32)> {
    cells
        .iter()
        .map(|&(x, r)| {
            let (mut p, mut q) = centroid(i32::from(x), i32::from(r));
            for _ in 0..t % 6 {
                (p, q) = ((p - 3 * q) / 2, (p + q) / 2);
            }
            if t >= 6 {
                p = -p;
            }
            from_centroid(p, q)
        })
        .collect()
}

/// Moves cells so the lowest row is 0 and the leftmost column 0 or 1,
/// keeping each triangle's direction; sorted by row then column.
pub fn normalise(cells: &mut [(i32, i32)]) {
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_r = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let (mut dx, dr) = (-min_x, -min_r);
    if (dx + dr).rem_euclid(2) != 0 {
        dx += 1;
    }
    for c in cells.iter_mut() {
        c.0 += dx;
        c.1 += dr;
    }
    cells.sort_by_key(|&(x, r)| (r, x));
}

fn build() -> Vec<Orient> {
    let mut out: Vec<Orient> = Vec::with_capacity(155);
    for (p, shape) in SHAPES.iter().enumerate() {
        let start = out.len();
        for t in 0..12 {
            let mut cells = transform(shape, t);
            normalise(&mut cells);
            let mut o = Orient {
                piece: p as u8,
                cells: [(0, 0); MAX_SIZE],
                n: cells.len() as u8,
            };
            for (slot, &(x, r)) in o.cells.iter_mut().zip(&cells) {
                *slot = (x as u8, r as u8);
            }
            if !out.get(start..).unwrap_or(&[]).contains(&o) {
                out.push(o);
            }
        }
    }
    out
}

/// The orientation whose normalised triangles are `cells`.
pub fn find(cells: &[(u8, u8)]) -> Option<&'static Orient> {
    ORIENTS.iter().find(|o| o.cells() == cells)
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

/// The piece's name for messages: `I3`, but `1 (monomino)` and `2 (diamond)`.
pub fn label(p: u8) -> String {
    match p {
        MONOMINO => "1 (monomino)".to_string(),
        20 => "2 (diamond)".to_string(),
        _ => name(p).to_string(),
    }
}

/// Triangles of piece `p`.
pub fn size(p: u8) -> u32 {
    SHAPES.get(usize::from(p)).map_or(0, |s| s.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edge neighbours on the shape lattice.
    fn touch(a: (u8, u8), b: (u8, u8)) -> bool {
        let up = (a.0 + a.1) % 2 == 0;
        (a.1 == b.1 && a.0.abs_diff(b.0) == 1)
            || (a.0 == b.0 && if up { b.1 + 1 == a.1 } else { a.1 + 1 == b.1 })
    }

    fn connected(cells: &[(u8, u8)]) -> bool {
        let mut seen = vec![false; cells.len()];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..cells.len() {
                if !seen[j] && touch(cells[i], cells[j]) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|&s| s)
    }

    #[test]
    fn all_polyiamonds_once() {
        // Fixed polyiamonds of 1..6 triangles: 2, 3, 6, 14, 36, 94.
        let mut by_size = [0usize; 7];
        for o in ORIENTS.iter() {
            assert!(connected(o.cells()), "{o:?}");
            by_size[o.cells().len()] += 1;
        }
        assert_eq!(by_size, [0, 2, 3, 6, 14, 36, 94]);
        assert_eq!(ORIENTS.len(), 155);
        assert_eq!((0..22).map(size).sum::<u32>(), ALL_TRIANGLES);
        // No two pieces share an orientation: 155 distinct cell sets.
        for (i, a) in ORIENTS.iter().enumerate() {
            for b in &ORIENTS[i + 1..] {
                assert_ne!(a.cells(), b.cells());
            }
        }
    }

    #[test]
    fn orientation_counts() {
        let counts: Vec<usize> = (0..22u8)
            .map(|p| ORIENTS.iter().filter(|o| o.piece == p).count())
            .collect();
        // 12 for a shape without symmetry, 6 with a mirror line or a half
        // turn, fewer with more: the butterfly X 3, the triangle A4 2, the
        // hexagon O 1.
        assert_eq!(
            counts,
            [
                6, 12, 6, 6, 12, 12, 6, 6, 12, 12, 3, 1, 6, 12, 6, 12, 6, 6, 2, 6, 3, 2
            ]
        );
    }

    #[test]
    fn names() {
        assert_eq!(by_name("a6"), Some(7));
        assert_eq!(by_name("1"), Some(21));
        assert_eq!(by_name("V3"), None);
        assert_eq!(name(0), "I6");
    }
}
