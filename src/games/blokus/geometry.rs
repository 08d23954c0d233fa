//! What the Blokus rules need of a board, whatever its cells: the
//! [`Geometry`] trait, implemented by classic's square board
//! ([`super::board::Board`]) and Trigon's triangle board
//! ([`super::trigon::board::Board`]), and the [`Placements`] both move
//! generators offer (perft runs on it).
//!
//! A cell is a `u16` index on its board; a move names its cells by column
//! and row ([`Placement`]), as the notation reads them, and the board says
//! which cell each is (or that it is off the board). This file imports no
//! other part of Blokus: the rules core ([`super::engine`]) and the boards
//! build on it.

/// What both Blokus move generators offer: their placements visited one at
/// a time (and what derives from that), playing one.
pub trait Placements: Clone {
    type Place: Copy;

    /// The colour to move.
    fn side(&self) -> u8;
    /// Plays a placement for the colour to move (legality checked by the caller).
    fn play(&mut self, p: Self::Place);
    /// The colour to move passes.
    fn skip(&mut self);
    /// Whether no colour can place a piece.
    fn over(&self) -> bool;

    /// Visits colour `c`'s legal placements while `f` returns true; `false`
    /// when `f` stopped it.
    fn each_move(&self, c: u8, f: impl FnMut(Self::Place) -> bool) -> bool;

    /// Number of legal placements of colour `c`.
    fn count_moves(&self, c: u8) -> u64 {
        let mut n = 0;
        self.each_move(c, |_| {
            n += 1;
            true
        });
        n
    }

    /// The legal placements of colour `c`.
    fn moves(&self, c: u8) -> Vec<Self::Place> {
        let mut v = Vec::new();
        self.each_move(c, |p| {
            v.push(p);
            true
        });
        v
    }

    /// The first legal placement of `c` found, and how many there are.
    fn one_move(&self, c: u8) -> Option<(Self::Place, u64)> {
        let mut first = None;
        let mut n = 0;
        self.each_move(c, |p| {
            first.get_or_insert(p);
            n += 1;
            true
        });
        first.map(|p| (p, n))
    }
}

/// A placement as a move names it: the piece, its orientation on the
/// board's piece table (classic; 0 in Trigon), and the cells it covers as
/// `(column, row)`, 0-based, row 0 at the bottom, in the order written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub piece: u8,
    pub orient: u8,
    pub n: u8,
    pub cells: [(u8, u8); 6],
}

impl Placement {
    pub fn cells(&self) -> &[(u8, u8)] {
        self.cells.get(..usize::from(self.n)).unwrap_or(&[])
    }

    /// The cells sorted by row, then column (how they are written out).
    pub fn sorted(&self) -> CellList {
        let mut cells = self.cells;
        let n = usize::from(self.n).min(cells.len());
        if let Some(used) = cells.get_mut(..n) {
            used.sort_by_key(|&(col, row)| (row, col));
        }
        let mut out = CellList::default();
        for &cell in cells.iter().take(n) {
            out.push(cell);
        }
        out
    }
}

/// A few cells by column and row (a move's, the starting cells), without
/// allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellList {
    n: u8,
    cells: [(u8, u8); 6],
}

impl CellList {
    /// Adds a cell (past six, none is kept).
    pub fn push(&mut self, cell: (u8, u8)) {
        if let Some(slot) = self.cells.get_mut(usize::from(self.n)) {
            *slot = cell;
            self.n += 1;
        }
    }

    pub fn as_slice(&self) -> &[(u8, u8)] {
        self.cells.get(..usize::from(self.n)).unwrap_or(&[])
    }
}

/// What each colour has placed, kept alike by both boards: the number of
/// colours, per colour the pieces placed (a bit per piece) and the last one
/// placed in play (the monomino bonus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub colours: u8,
    pub used: [u32; 4],
    pub last: [Option<u8>; 4],
}

impl Placed {
    /// `colours` colours that have placed nothing.
    pub const fn new(colours: u8) -> Placed {
        Placed {
            colours,
            used: [0; 4],
            last: [None; 4],
        }
    }
}

/// A board of one geometry (squares or triangles): its cells and their
/// neighbours, its starting cells, its pieces, how its cells are named,
/// and the position on it (the engine: each colour's cells and pieces,
/// whose turn, the move generator).
pub trait Geometry: Placements + std::fmt::Debug + PartialEq + Send + Sync + 'static
where
    Self::Place: Send + Sync,
{
    /// Whether this is Trigon's board (the variant, its seats).
    const TRIGON: bool;
    /// A colour's number of pieces, and the bit mask of all of them.
    const PIECES: usize;
    const ALL_PIECES: u32;
    /// Cells of all of a colour's pieces.
    const ALL_CELLS: u32;
    /// The monomino (its bonus when placed last).
    const MONOMINO: u8;
    /// What a cell is called (`square`, `triangle`).
    const CELL: &'static str;

    /// A piece's name (`V3`) and its name in messages (`V3`, `1 (monomino)`).
    fn piece_name(p: u8) -> &'static str;
    fn piece_label(p: u8) -> String;
    /// The name of the cell at a column and row (`a1`, `aa12`).
    fn cell_name(col: u8, row: u8) -> String;

    /// The colours and the pieces each has placed.
    fn placed(&self) -> &Placed;
    fn placed_mut(&mut self) -> &mut Placed;

    /// Puts a generated placement on the board for colour `c`, or takes
    /// one of `c`'s off (setup edits: no turn taken; legality and presence
    /// checked by the caller).
    fn put_piece(&mut self, c: u8, p: Self::Place);
    fn take_piece(&mut self, c: u8, p: Self::Place);
    /// Makes `c` the colour to move.
    fn set_side(&mut self, c: u8);

    /// No colour has a last piece placed in play (after a setup edit, as
    /// Pentobi starts a new move history with a setup).
    fn forget_last(&mut self) {
        self.placed_mut().last = [None; 4];
    }

    /// Number of colours.
    fn colours(&self) -> u8 {
        self.placed().colours
    }

    /// Pieces colour `c` has placed (a bit per piece).
    fn used(&self, c: u8) -> u32 {
        self.placed().used.get(usize::from(c)).copied().unwrap_or(0)
    }

    /// The last piece colour `c` placed in play.
    fn last(&self, c: u8) -> Option<u8> {
        self.placed().last.get(usize::from(c)).copied().flatten()
    }

    /// How many cells colour `c` covers.
    fn count(&self, c: u8) -> u32;
    /// Whether colour `c` can place a piece.
    fn has_move(&self, c: u8) -> bool;

    /// Whether colour `c` has placed no piece yet.
    fn first_move(&self, c: u8) -> bool {
        self.used(c) == 0
    }

    /// Whether all of colour `c`'s pieces are placed.
    fn all_placed(&self, c: u8) -> bool {
        self.used(c) == Self::ALL_PIECES
    }

    /// The cell at a column and row, if it is on the board, and back.
    fn cell(&self, col: u8, row: u8) -> Option<u16>;
    fn coords(&self, cell: u16) -> (u8, u8);
    /// The colour on a cell, if any.
    fn owner(&self, cell: u16) -> Option<u8>;
    /// A cell's neighbours across an edge (the order messages name them in),
    /// and those it touches only at a corner.
    fn edge_neighbours(&self, cell: u16) -> impl Iterator<Item = u16> + '_;
    fn corner_neighbours(&self, cell: u16) -> impl Iterator<Item = u16> + '_;
    /// The cells colour `c`'s first piece may cover one of: its starting
    /// square (classic), the starting points still empty (Trigon).
    fn starts(&self, c: u8) -> CellList;

    /// The generated placement `p` is, when it is legal for colour `c` now
    /// (a quick check before the rules are judged one by one; `None` sends
    /// every move through them).
    fn legal(&self, c: u8, p: &Placement) -> Option<Self::Place>;
    /// The generated placement of a move whose `cells` (on the board) the
    /// rules found legal.
    fn find(&self, p: &Placement, cells: &[u16]) -> Option<Self::Place>;
    /// A generated placement as a move's placement (cells sorted by row,
    /// then column).
    fn written(&self, p: Self::Place) -> Placement;
}
