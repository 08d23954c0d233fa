//! The Trigon board and rule engine on bit sets.
//!
//! [`Hexagon`] (one per edge length, built once) numbers the triangles of
//! the hexagon row by row from the bottom, and precomputes each triangle's
//! edge and corner neighbours, every placement of every piece orientation on
//! the board, and for each triangle and piece the placements that cover it.
//! A [`Board`] keeps per colour the triangles it covers, the triangles it may
//! not cover (its own and their edge neighbours) and its corner candidates
//! (corner neighbours of its own triangles) as eight-`u64` bit sets, updated
//! when a piece is placed.
//!
//! Move generation walks the colour's candidates (on its first move, the
//! empty starting points) and, for each unplaced piece, the placements
//! covering that candidate that avoid its blocked side neighbours (lists
//! precomputed per status of the three side neighbours), checking each
//! placement's other triangles against the blocked set (occupied, or edge
//! neighbours of the colour). A placement
//! covering several candidates is counted once, at its first candidate:
//! candidates already tried join the blocked set. No allocation on this path.

use std::sync::LazyLock;

use super::pieces::{self, ALL_PIECES, MAX_SIZE, ORIENTS, PIECES};
use crate::games::blokus::geometry::{CellList, Geometry, Placed, Placement, Placements};

/// A set of triangles, bit `i` for triangle index `i` (at most 512).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Bits(pub [u64; 8]);

impl Bits {
    #[inline]
    pub fn has(&self, i: u16) -> bool {
        // `& 7` keeps the word index in the array for any `i`
        self.0[usize::from(i >> 6) & 7] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, i: u16) {
        if let Some(w) = self.0.get_mut(usize::from(i >> 6)) {
            *w |= 1 << (i & 63);
        }
    }

    #[inline]
    pub fn or(&self, o: &Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }

    #[inline]
    pub fn and_not(&self, o: &Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }

    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The indices of the set bits, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as u16;
                w &= w - 1;
                Some(k as u16 * 64 + b)
            })
        })
    }
}

/// A placement on one geometry: the piece and its triangles (indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub piece: u8,
    pub n: u8,
    pub cells: [u16; MAX_SIZE],
}

impl Place {
    pub fn cells(&self) -> &[u16] {
        self.cells.get(..usize::from(self.n)).unwrap_or(&[])
    }
}

/// A placement as seen from one of its triangles: its id and its other
/// triangles, kept next to each other so move generation reads them in
/// order. Unused slots hold [`NEVER`], a bit no board sets, so the check
/// reads all five without a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: u16,
    pub others: [u16; MAX_SIZE - 1],
}

/// A bit index past every board's triangles (never set).
pub const NEVER: u16 = 511;

impl Entry {
    /// Whether none of the other triangles is in `block`.
    #[inline]
    pub fn fits(&self, block: &Bits) -> bool {
        let [a, b, c, d, e] = self.others;
        !(block.has(a) | block.has(b) | block.has(c) | block.has(d) | block.has(e))
    }
}

/// The board of one edge length, with everything precomputed.
pub struct Hexagon {
    /// Edge length of the hexagon (9 or 8).
    pub edge: u8,
    /// Columns (`4 * edge - 1`) and rows (`2 * edge`).
    pub width: u8,
    pub height: u8,
    /// Triangles by index: `(column, row)`, both 0-based, row 0 at the bottom.
    pub cells: Vec<(u8, u8)>,
    /// `index[row * width + column]`: the triangle's index, or `NONE`.
    index: Vec<u16>,
    /// Edge neighbours and corner neighbours of each triangle.
    pub edge_nb: Vec<Vec<u16>>,
    pub corner_nb: Vec<Vec<u16>>,
    /// The six starting points.
    pub starts: [u16; 6],
    pub start_bits: Bits,
    /// Every placement, grouped by piece.
    pub places: Vec<Place>,
    /// Placement ids covering triangle `i` with piece `p`:
    /// `by_cell[offsets[i * PIECES + p]..offsets[i * PIECES + p + 1]]`.
    offsets: Vec<u32>,
    by_cell: Vec<u16>,
    /// The same placements as entries (the covered triangle left out),
    /// filed again by the status of the triangle's side neighbours: for
    /// status `s` (bit `k` set when side neighbour `k` is blocked) the
    /// entries of triangle `i` and piece `p` that avoid those neighbours are
    /// `entries[entry_at[(i * PIECES + p) * 8 + s]..entry_at[.. + 1]]`.
    entry_at: Vec<u32>,
    entries: Vec<Entry>,
}

const NONE: u16 = u16::MAX;

/// The edge-9 board (four colours, or two players).
pub static EDGE9: LazyLock<Hexagon> = LazyLock::new(|| Hexagon::new(9));
/// The edge-8 board (three colours).
pub static EDGE8: LazyLock<Hexagon> = LazyLock::new(|| Hexagon::new(8));

/// The geometry of an edge length (8, else 9).
pub fn geometry(edge: u8) -> &'static Hexagon {
    if edge == 8 { &EDGE8 } else { &EDGE9 }
}

impl Hexagon {
    fn new(edge: u8) -> Hexagon {
        let n = i32::from(edge);
        let (width, height) = (4 * edge - 1, 2 * edge);
        let mut cells = Vec::new();
        let mut index = vec![NONE; usize::from(width) * usize::from(height)];
        for r in 0..i32::from(height) {
            // rows 1..n widen downwards-out; the top half mirrors them
            let dy = r.min(2 * n - 1 - r);
            let first = n - 1 - dy;
            let last = i32::from(width) - 1 - first;
            for x in first..=last {
                index[(r * i32::from(width) + x) as usize] = cells.len() as u16;
                cells.push((x as u8, r as u8));
            }
        }
        let mut g = Hexagon {
            edge,
            width,
            height,
            cells,
            index,
            edge_nb: Vec::new(),
            corner_nb: Vec::new(),
            starts: [0; 6],
            start_bits: Bits::default(),
            places: Vec::new(),
            offsets: Vec::new(),
            by_cell: Vec::new(),
            entry_at: Vec::new(),
            entries: Vec::new(),
        };
        for &(x, r) in &g.cells {
            let (x, r) = (i32::from(x), i32::from(r));
            let up = g.up(x, r);
            let v = if up { -1 } else { 1 };
            let e = [(x - 1, r), (x + 1, r), (x, r + v)];
            let c = [
                (x - 2, r),
                (x + 2, r),
                (x - 1, r - v),
                (x, r - v),
                (x + 1, r - v),
                (x - 2, r + v),
                (x - 1, r + v),
                (x + 1, r + v),
                (x + 2, r + v),
            ];
            let e = e.iter().filter_map(|&(a, b)| g.at(a, b)).collect();
            let c = c.iter().filter_map(|&(a, b)| g.at(a, b)).collect();
            g.edge_nb.push(e);
            g.corner_nb.push(c);
        }
        // Starting points (0-based column, row): edge 9 r15 r4 j12 j7 z12
        // z7; edge 8 p14 p3 h11 h6 x11 x6.
        let pts: [(i32, i32); 6] = if edge == 8 {
            [(15, 13), (15, 2), (7, 10), (7, 5), (23, 10), (23, 5)]
        } else {
            [(17, 14), (17, 3), (9, 11), (9, 6), (25, 11), (25, 6)]
        };
        for (k, &(x, r)) in pts.iter().enumerate() {
            let i = g.at(x, r).unwrap_or(0);
            g.starts[k] = i;
            g.start_bits.set(i);
        }
        g.build_places();
        g
    }

    /// Whether the triangle at `(x, r)` (0-based) points up: with the row
    /// number `r + 1`, `x + r + 1` even on the edge-9 board (`a10` is up),
    /// odd on the edge-8 board.
    pub fn up(&self, x: i32, r: i32) -> bool {
        (x + r + i32::from(self.edge)).rem_euclid(2) == 0
    }

    /// The column shift that puts this board on the shape lattice (where
    /// `(x, r)` points up when `x + r` is even): lattice `x` = board `x` +
    /// shift.
    pub fn lattice_shift(&self) -> i32 {
        i32::from(self.edge % 2)
    }

    /// The index of the triangle at `(x, r)`, if it is on the board.
    pub fn at(&self, x: i32, r: i32) -> Option<u16> {
        if x < 0 || r < 0 || x >= i32::from(self.width) || r >= i32::from(self.height) {
            return None;
        }
        let i = *self.index.get((r * i32::from(self.width) + x) as usize)?;
        (i != NONE).then_some(i)
    }

    /// Number of triangles.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    fn build_places(&mut self) {
        let shift = self.lattice_shift();
        let mut per_cell: Vec<Vec<u16>> = vec![Vec::new(); self.len() * PIECES];
        for o in ORIENTS.iter() {
            for tr in 0..i32::from(self.height) {
                for tx in -2..i32::from(self.width) + 2 {
                    // a translation keeps each triangle's direction
                    if (tx + tr).rem_euclid(2) != 0 {
                        continue;
                    }
                    let mut p = Place {
                        piece: o.piece,
                        n: o.n,
                        cells: [0; MAX_SIZE],
                    };
                    let mut ok = true;
                    for (slot, &(x, r)) in p.cells.iter_mut().zip(o.cells()) {
                        match self.at(i32::from(x) + tx - shift, i32::from(r) + tr) {
                            Some(i) => *slot = i,
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    if !ok {
                        continue;
                    }
                    let id = self.places.len() as u16;
                    for &c in p.cells() {
                        per_cell[usize::from(c) * PIECES + usize::from(p.piece)].push(id);
                    }
                    self.places.push(p);
                }
            }
        }
        self.offsets = Vec::with_capacity(per_cell.len() + 1);
        self.offsets.push(0);
        self.entry_at = Vec::with_capacity(per_cell.len() * 8 + 1);
        self.entry_at.push(0);
        for (k, list) in per_cell.iter().enumerate() {
            let cell = (k / PIECES) as u16;
            self.by_cell.extend_from_slice(list);
            self.offsets.push(self.by_cell.len() as u32);
            let nbs = self
                .edge_nb
                .get(usize::from(cell))
                .cloned()
                .unwrap_or_default();
            for status in 0..8u32 {
                for &id in list {
                    let cells = self
                        .places
                        .get(usize::from(id))
                        .map_or(&[][..], Place::cells);
                    let avoids = nbs
                        .iter()
                        .enumerate()
                        .all(|(b, n)| status >> b & 1 == 0 || !cells.contains(n));
                    if !avoids {
                        continue;
                    }
                    let mut e = Entry {
                        id,
                        others: [NEVER; MAX_SIZE - 1],
                    };
                    let others = cells.iter().filter(|&&t| t != cell);
                    for (slot, &t) in e.others.iter_mut().zip(others) {
                        *slot = t;
                    }
                    self.entries.push(e);
                }
                self.entry_at.push(self.entries.len() as u32);
            }
        }
    }

    /// The status of triangle `i`'s side neighbours in `block`, bit `k` for
    /// neighbour `k`.
    #[inline]
    pub fn side_status(&self, i: u16, block: &Bits) -> usize {
        self.edge_nb.get(usize::from(i)).map_or(0, |nbs| {
            nbs.iter()
                .enumerate()
                .fold(0, |s, (k, &n)| s | usize::from(block.has(n)) << k)
        })
    }

    #[inline]
    fn range(&self, i: u16, p: usize) -> std::ops::Range<usize> {
        let k = usize::from(i) * PIECES + p;
        self.offsets.get(k).copied().unwrap_or(0) as usize
            ..self.offsets.get(k + 1).copied().unwrap_or(0) as usize
    }

    /// The placements of piece `p` covering triangle `i`.
    #[inline]
    pub fn covering(&self, i: u16, p: usize) -> &[u16] {
        self.by_cell.get(self.range(i, p)).unwrap_or(&[])
    }

    /// The placements of piece `p` covering triangle `i` that avoid the
    /// side neighbours blocked in `status`, each with its other triangles.
    #[inline]
    pub fn entries(&self, i: u16, p: usize, status: usize) -> &[Entry] {
        let k = (usize::from(i) * PIECES + p) * 8 + (status & 7);
        let (a, b) = (
            self.entry_at.get(k).copied().unwrap_or(0) as usize,
            self.entry_at.get(k + 1).copied().unwrap_or(0) as usize,
        );
        self.entries.get(a..b).unwrap_or(&[])
    }

    /// The placement with these triangles (any order), if any.
    pub fn find_place(&self, cells: &[u16]) -> Option<u16> {
        let first = *cells.first()?;
        let n = cells.len() as u32;
        (0..PIECES)
            .filter(|&p| pieces::size(p as u8) == n)
            .find_map(|p| {
                self.covering(first, p).iter().copied().find(|&id| {
                    self.places.get(usize::from(id)).is_some_and(|pl| {
                        pl.n as usize == cells.len() && cells.iter().all(|c| pl.cells().contains(c))
                    })
                })
            })
    }

    pub fn place(&self, id: u16) -> Option<&Place> {
        self.places.get(usize::from(id))
    }
}

/// A Trigon position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub edge: u8,
    /// Triangles of each colour.
    pub occ: [Bits; 4],
    /// All occupied triangles.
    pub all: Bits,
    /// Own triangles and their edge neighbours, per colour.
    pub forb: [Bits; 4],
    /// Corner neighbours of own triangles, per colour.
    pub cand: [Bits; 4],
    /// The colours (4, or 3 on the edge-8 board) and the pieces each has
    /// placed.
    pub placed: Placed,
    pub to_move: u8,
}

impl Board {
    /// The empty edge-9 board with four colours, or edge-8 with three.
    pub fn new(three: bool) -> Board {
        Board {
            edge: if three { 8 } else { 9 },
            occ: [Bits::default(); 4],
            all: Bits::default(),
            forb: [Bits::default(); 4],
            cand: [Bits::default(); 4],
            placed: Placed::new(if three { 3 } else { 4 }),
            to_move: 0,
        }
    }

    #[inline]
    pub fn geo(&self) -> &'static Hexagon {
        geometry(self.edge)
    }

    /// The colour on triangle `i`, if any.
    pub fn at(&self, i: u16) -> Option<u8> {
        (0..self.placed.colours).find(|&c| self.occ.get(usize::from(c)).is_some_and(|b| b.has(i)))
    }

    /// Triangles of colour `c`.
    pub fn triangles(&self, c: u8) -> u32 {
        self.occ.get(usize::from(c)).map_or(0, Bits::count)
    }

    /// Whether colour `c` has no piece on the board.
    pub fn first_move(&self, c: u8) -> bool {
        self.placed.used.get(usize::from(c)).is_none_or(|&u| u == 0)
    }

    /// Whether all 22 pieces of `c` are placed.
    pub fn all_placed(&self, c: u8) -> bool {
        self.placed.used
            .get(usize::from(c))
            .is_some_and(|&u| u == ALL_PIECES)
    }

    /// Calls `f` on every legal placement (id) of colour `c`, each once,
    /// until `f` returns false. Returns false when stopped.
    #[inline]
    pub fn each_move<F: FnMut(u16) -> bool>(&self, c: u8, mut f: F) -> bool {
        let g = self.geo();
        let ci = usize::from(c) & 3;
        let mut block = self.all.or(&self.forb[ci]);
        let cands = if self.first_move(c) {
            g.start_bits.and_not(&self.all)
        } else {
            self.cand[ci].and_not(&block)
        };
        let unused = !self.placed.used[ci] & ALL_PIECES;
        for i in cands.iter() {
            let status = g.side_status(i, &block);
            let mut left = unused;
            while left != 0 {
                let p = left.trailing_zeros() as usize;
                left &= left - 1;
                for e in g.entries(i, p, status) {
                    if e.fits(&block) && !f(e.id) {
                        return false;
                    }
                }
            }
            block.set(i);
        }
        true
    }

    /// Whether colour `c` can place a piece.
    pub fn has_move(&self, c: u8) -> bool {
        !self.each_move(c, |_| false)
    }

    /// Whether no colour can place a piece.
    pub fn is_over(&self) -> bool {
        (0..self.placed.colours).all(|c| !self.has_move(c))
    }

    /// Places placement `id` for the colour to move (legality checked by the
    /// caller) and passes the turn on.
    pub fn place(&mut self, id: u16) {
        let c = self.to_move;
        self.put(c, id);
        let g = self.geo();
        if let (Some(l), Some(p)) = (self.placed.last.get_mut(usize::from(c)), g.place(id)) {
            *l = Some(p.piece);
        }
        self.pass();
    }

    /// Puts placement `id` on the board for colour `c` (a set-up piece: no
    /// turn taken, not recorded as the last piece).
    pub fn put(&mut self, c: u8, id: u16) {
        let g = self.geo();
        let ci = usize::from(c) & 3;
        let Some(pl) = g.place(id) else { return };
        for &t in pl.cells() {
            self.occ[ci].set(t);
            self.mark(ci, t);
        }
        self.placed.used[ci] |= 1 << pl.piece;
    }

    /// Notes triangle `t` of colour `ci` in the occupied, forbidden and
    /// corner sets (its edge neighbours forbidden, its corner neighbours
    /// candidates).
    fn mark(&mut self, ci: usize, t: u16) {
        let g = self.geo();
        self.all.set(t);
        self.forb[ci].set(t);
        for &e in g.edge_nb.get(usize::from(t)).map_or(&[][..], Vec::as_slice) {
            self.forb[ci].set(e);
        }
        for &k in g
            .corner_nb
            .get(usize::from(t))
            .map_or(&[][..], Vec::as_slice)
        {
            self.cand[ci].set(k);
        }
    }

    /// Passes the turn to the next colour.
    pub fn pass(&mut self) {
        self.to_move = (self.to_move + 1) % self.placed.colours.max(1);
    }

    /// Takes colour `c`'s placement `id` off the board (a setup edit; the
    /// caller checked that it is there): its triangles cleared, and every
    /// colour's forbidden and corner sets made again from the triangles
    /// left (they only grow as pieces are put).
    pub fn take(&mut self, c: u8, id: u16) {
        let g = self.geo();
        let ci = usize::from(c) & 3;
        let Some(pl) = g.place(id) else { return };
        let mut gone = Bits::default();
        for &t in pl.cells() {
            gone.set(t);
        }
        self.occ[ci] = self.occ[ci].and_not(&gone);
        self.placed.used[ci] &= !(1 << pl.piece);
        self.all = Bits::default();
        for k in 0..4 {
            let own = self.occ[k];
            self.forb[k] = Bits::default();
            self.cand[k] = Bits::default();
            for t in own.iter() {
                self.mark(k, t);
            }
        }
    }
}

/// The number of placements of each piece on the empty board (for docs and
/// tests).
pub fn placements_of(g: &Hexagon, p: u8) -> usize {
    g.places.iter().filter(|pl| pl.piece == p).count()
}

/// The name of a column: `a`..`z`, then `aa`, `ab`, ...
pub fn column_name(col: u8) -> String {
    if col < 26 {
        char::from(b'a' + col).to_string()
    } else {
        let (hi, lo) = (col / 26 - 1, col % 26);
        format!("{}{}", char::from(b'a' + hi % 26), char::from(b'a' + lo))
    }
}

/// `r15`-style name of a triangle (0-based column and row).
pub fn triangle_name(col: u8, row: u8) -> String {
    format!("{}{}", column_name(col), u32::from(row) + 1)
}

impl Geometry for Board {
    const TRIGON: bool = true;
    const PIECES: usize = PIECES;
    const ALL_PIECES: u32 = ALL_PIECES;
    const ALL_CELLS: u32 = pieces::ALL_TRIANGLES;
    const MONOMINO: u8 = pieces::MONOMINO;
    const CELL: &'static str = "triangle";

    fn piece_name(p: u8) -> &'static str {
        pieces::name(p)
    }

    fn piece_label(p: u8) -> String {
        pieces::label(p)
    }

    fn cell_name(col: u8, row: u8) -> String {
        triangle_name(col, row)
    }

    fn placed(&self) -> &Placed {
        &self.placed
    }

    fn placed_mut(&mut self) -> &mut Placed {
        &mut self.placed
    }

    fn put_piece(&mut self, c: u8, id: u16) {
        self.put(c, id);
    }

    fn take_piece(&mut self, c: u8, id: u16) {
        self.take(c, id);
    }

    fn set_side(&mut self, c: u8) {
        self.to_move = c % self.placed.colours.max(1);
    }

    fn count(&self, c: u8) -> u32 {
        self.triangles(c)
    }

    fn has_move(&self, c: u8) -> bool {
        Board::has_move(self, c)
    }

    fn cell(&self, col: u8, row: u8) -> Option<u16> {
        self.geo().at(i32::from(col), i32::from(row))
    }

    fn coords(&self, cell: u16) -> (u8, u8) {
        self.geo()
            .cells
            .get(usize::from(cell))
            .copied()
            .unwrap_or((0, 0))
    }

    fn owner(&self, cell: u16) -> Option<u8> {
        self.at(cell)
    }

    fn edge_neighbours(&self, cell: u16) -> impl Iterator<Item = u16> + '_ {
        let g = self.geo();
        g.edge_nb
            .get(usize::from(cell))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
    }

    fn corner_neighbours(&self, cell: u16) -> impl Iterator<Item = u16> + '_ {
        let g = self.geo();
        g.corner_nb
            .get(usize::from(cell))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
    }

    fn starts(&self, _c: u8) -> CellList {
        let mut out = CellList::default();
        for &s in &self.geo().starts {
            if self.at(s).is_none() {
                out.push(self.coords(s));
            }
        }
        out
    }

    fn legal(&self, _c: u8, _p: &Placement) -> Option<u16> {
        None
    }

    fn find(&self, _p: &Placement, cells: &[u16]) -> Option<u16> {
        self.geo().find_place(cells)
    }

    fn written(&self, id: u16) -> Placement {
        let mut out = Placement {
            piece: 0,
            orient: 0,
            n: 0,
            cells: [(0, 0); 6],
        };
        if let Some(pl) = self.geo().place(id) {
            out.piece = pl.piece;
            out.n = pl.n;
            for (slot, &i) in out.cells.iter_mut().zip(pl.cells()) {
                *slot = self.coords(i);
            }
        }
        let sorted = out.sorted();
        for (slot, &cell) in out.cells.iter_mut().zip(sorted.as_slice()) {
            *slot = cell;
        }
        out
    }
}

impl Placements for Board {
    type Place = u16;

    fn each_move(&self, c: u8, f: impl FnMut(u16) -> bool) -> bool {
        Board::each_move(self, c, f)
    }

    fn side(&self) -> u8 {
        self.to_move
    }

    fn play(&mut self, p: u16) {
        self.place(p);
    }

    fn skip(&mut self) {
        self.pass();
    }

    fn over(&self) -> bool {
        self.is_over()
    }
}
