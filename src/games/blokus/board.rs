//! The Blokus rule engine on row masks: one `u32` per board row and colour
//! (bit `x` is column `x`, row 0 is row `1` at the bottom), boards up to 26x26.
//!
//! Move generation starts from the colour's corner candidates (empty squares
//! diagonal to its own squares and not edge-adjacent to them; on its first
//! move, its starting square) and fits every cell of every orientation of every
//! unplaced piece onto each candidate, checking whole rows at once against the
//! forbidden mask (occupied squares, squares edge-adjacent to the colour, and
//! columns past the board). A placement covering several candidates is counted
//! once, at its first candidate: candidates already tried join the forbidden
//! mask. No allocation on this path.

use super::geometry::{CellList, Geometry, Placed, Placement, Placements};
use super::pieces::{self, ABOVE, ALL_PIECES, BELOW, LEFT, Orient, RIGHT, TABLE};

/// Largest board side.
pub const MAX: usize = 26;

/// Row masks of a board.
pub type Rows = [u32; MAX];

/// A piece placed: orientation index into [`TABLE`] and its lower-left offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub orient: u8,
    pub x: u8,
    pub y: u8,
}

impl Place {
    pub fn orientation(&self) -> &'static Orient {
        // Orientation indices come from the table itself.
        &TABLE.orients[usize::from(self.orient) % TABLE.orients.len()]
    }

    pub fn piece(&self) -> u8 {
        self.orientation().piece
    }

    /// The squares covered, `(column, row)`, sorted by row then column.
    pub fn squares(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.orientation()
            .cells()
            .iter()
            .map(|&(dx, dy)| (self.x + dx, self.y + dy))
    }
}

/// What [`Board::has_move`] last found for a colour: nothing yet
/// ([`UNKNOWN`]), no move ([`STUCK`]: final, a board only fills up), or a
/// legal placement (a witness, re-checked in a few row operations before a
/// new search: it stays legal until a placement covers or touches it).
const UNKNOWN: u32 = 0;
const STUCK: u32 = 1;
const WITNESS: u32 = 1 << 24;

fn witness_of(p: Place) -> u32 {
    WITNESS | u32::from(p.orient) << 16 | u32::from(p.x) << 8 | u32::from(p.y)
}

fn placement_of(v: u32) -> Place {
    Place {
        orient: (v >> 16) as u8,
        x: (v >> 8) as u8,
        y: v as u8,
    }
}

/// A position: the squares of each colour, pieces placed, whose turn.
#[derive(Debug)]
pub struct Board {
    pub size: u8,
    pub occ: [Rows; 4],
    /// The colours (4 classic, 2 Duo) and the pieces each has placed.
    pub placed: Placed,
    /// Starting squares `(column, row)`.
    pub start: [(u8, u8); 4],
    pub to_move: u8,
    /// Per colour, what `has_move` knows (see [`STUCK`], [`WITNESS`]); not
    /// part of the position (ignored by `==`, not cloned). Valid while the
    /// board only fills up, as `put`/`place` do.
    moves_seen: [std::sync::atomic::AtomicU32; 4],
    /// Pieces put on this board so far (by `put`/`place`), and per colour
    /// that count plus one when its witness was last found legal (0:
    /// never): a witness checked since the last piece is still legal. Not
    /// part of the position, like `moves_seen`.
    puts: u32,
    witness_checked: [std::sync::atomic::AtomicU32; 4],
    /// The placement last found legal by [`Board::is_legal`] and for which
    /// colour, with the count of pieces put then (0: none): a replay asks
    /// twice of each move (may it be played now, then play it), and the
    /// second answer is the first while no piece was put. Not part of the
    /// position, like `moves_seen`.
    legal_memo: std::sync::atomic::AtomicU64,
}

/// A clone starts with nothing known about moves: code that edits `occ` or
/// `used` directly (taking squares or pieces away) works on a clone.
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            size: self.size,
            occ: self.occ,
            placed: self.placed,
            start: self.start,
            to_move: self.to_move,
            moves_seen: Default::default(),
            puts: 0,
            witness_checked: Default::default(),
            legal_memo: Default::default(),
        }
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.occ == other.occ
            && self.placed == other.placed
            && self.start == other.start
            && self.to_move == other.to_move
    }
}

impl Eq for Board {}

impl Board {
    fn seen(&self, c: usize) -> u32 {
        self.moves_seen
            .get(c)
            .map_or(UNKNOWN, |a| a.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn set_seen(&self, c: usize, v: u32) {
        if let Some(a) = self.moves_seen.get(c) {
            a.store(v, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Whether colour `c`'s witness was found legal since the last piece.
    fn checked_now(&self, c: usize) -> bool {
        self.witness_checked.get(c).is_some_and(|a| {
            a.load(std::sync::atomic::Ordering::Relaxed) == self.puts.wrapping_add(1)
        })
    }

    fn set_checked(&self, c: usize) {
        if let Some(a) = self.witness_checked.get(c) {
            a.store(
                self.puts.wrapping_add(1),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
    }

    /// Whether placement `p` is legal for colour `c` now: its piece unplaced,
    /// its rows clear of the forbidden mask, one of its squares on a corner
    /// candidate (the same masks as the generator, for its rows only).
    fn legal_now(&self, c: usize, p: Place) -> bool {
        let o = p.orientation();
        let piece_bit = 1u32.checked_shl(u32::from(o.piece)).unwrap_or(0);
        let used = self.placed.used.get(c).copied().unwrap_or(ALL_PIECES);
        if piece_bit == 0 || used & piece_bit != 0 {
            return false;
        }
        let n = usize::from(self.size);
        let full = self.full();
        let empty_rows: Rows = [0; MAX];
        let own = self.occ.get(c).unwrap_or(&empty_rows);
        let first = self.first_move(c as u8);
        let (sx, sy) = self.start.get(c).copied().unwrap_or((0, 0));
        let mut corner = false;
        for (r, &m) in o.rows.iter().take(usize::from(o.h)).enumerate() {
            let y = usize::from(p.y) + r;
            if y >= n {
                return false;
            }
            let Some(cells) = m.checked_shl(u32::from(p.x)) else {
                return false;
            };
            if cells >> u32::from(p.x) != m {
                return false;
            }
            let all = self.occ.iter().fold(0, |a, rows| a | rows[y]);
            let o_row = own[y];
            let below = if y > 0 { own[y - 1] } else { 0 };
            let above = if y + 1 < MAX { own[y + 1] } else { 0 };
            let forb = all | o_row << 1 | o_row >> 1 | below | above | !full;
            if cells & forb != 0 {
                return false;
            }
            let cand = if first {
                if y == usize::from(sy) {
                    1u32.checked_shl(u32::from(sx)).unwrap_or(0)
                } else {
                    0
                }
            } else {
                let diag = below | above;
                diag << 1 | diag >> 1
            };
            corner |= cells & cand != 0;
        }
        corner
    }

    /// An empty board.
    pub fn new(size: u8, colours: u8, start: [(u8, u8); 4]) -> Board {
        Board {
            size: size.clamp(1, MAX as u8),
            occ: [[0; MAX]; 4],
            placed: Placed::new(colours.clamp(1, 4)),
            start,
            to_move: 0,
            moves_seen: Default::default(),
            puts: 0,
            witness_checked: Default::default(),
            legal_memo: Default::default(),
        }
    }

    /// Classic 20x20: blue a20, yellow a1, red t1, green t20.
    pub fn classic() -> Board {
        Board::new(20, 4, [(0, 19), (0, 0), (19, 0), (19, 19)])
    }

    /// Duo 14x14: purple e10, orange j5.
    pub fn duo() -> Board {
        Board::new(14, 2, [(4, 9), (9, 4), (0, 0), (0, 0)])
    }

    fn full(&self) -> u32 {
        (1u32 << self.size) - 1
    }

    /// The colour (index) on a square, if any.
    pub fn at(&self, x: u8, y: u8) -> Option<u8> {
        let bit = 1u32.checked_shl(u32::from(x))?;
        (0..self.placed.colours).find(|&c| {
            self.occ
                .get(usize::from(c))
                .and_then(|rows| rows.get(usize::from(y)))
                .is_some_and(|r| r & bit != 0)
        })
    }

    /// Squares of colour `c`.
    pub fn squares(&self, c: u8) -> u32 {
        self.occ
            .get(usize::from(c))
            .map_or(0, |rows| rows.iter().map(|r| r.count_ones()).sum())
    }

    /// Whether colour `c` has placed no piece yet.
    pub fn first_move(&self, c: u8) -> bool {
        self.placed.used.get(usize::from(c)).is_none_or(|&u| u == 0)
    }

    /// Whether all 21 pieces of `c` are placed.
    pub fn all_placed(&self, c: u8) -> bool {
        self.placed.used
            .get(usize::from(c))
            .is_some_and(|&u| u == ALL_PIECES)
    }

    /// The forbidden mask of colour `c` (occupied, edge-adjacent to `c`, off the
    /// board) and its corner candidates.
    fn masks(&self, c: usize) -> (Rows, Rows) {
        let n = usize::from(self.size);
        let full = self.full();
        let mut forb = [!0u32; MAX];
        let mut cand = [0u32; MAX];
        let empty_rows: Rows = [0; MAX];
        let own = self.occ.get(c).unwrap_or(&empty_rows);
        for y in 0..n {
            let all = self.occ.iter().fold(0, |a, rows| a | rows[y]);
            let o = own[y];
            let below = if y > 0 { own[y - 1] } else { 0 };
            let above = if y + 1 < MAX { own[y + 1] } else { 0 };
            let f = all | o << 1 | o >> 1 | below | above | !full;
            forb[y] = f;
            let diag = below | above;
            cand[y] = (diag << 1 | diag >> 1) & !f;
        }
        if self.first_move(c as u8) {
            cand = [0; MAX];
            let (sx, sy) = self.start.get(c).copied().unwrap_or((0, 0));
            if let Some(f) = forb.get(usize::from(sy)) {
                let bit = 1u32.checked_shl(u32::from(sx)).unwrap_or(0);
                if f & bit == 0 {
                    cand[usize::from(sy)] = bit;
                }
            }
        }
        (forb, cand)
    }

    /// Calls `f` on every legal placement of colour `c`, each once, until `f`
    /// returns false. Returns false when stopped.
    #[inline]
    pub fn each_move<F: FnMut(Place) -> bool>(&self, c: u8, mut f: F) -> bool {
        let t = &*TABLE;
        let n = usize::from(self.size);
        let (mut block, cand) = self.masks(usize::from(c));
        let used = self.placed.used.get(usize::from(c)).copied().unwrap_or(ALL_PIECES);
        for cy in 0..n {
            let mut bits = cand[cy];
            while bits != 0 {
                let cx = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // Only cells whose in-piece neighbours are free squares here
                // can cover the candidate.
                let row = block[cy];
                let mut free = 0;
                if cx > 0 && row & (1 << (cx - 1)) == 0 {
                    free |= LEFT;
                }
                if row & (2 << cx) == 0 {
                    free |= RIGHT;
                }
                if cy > 0 && block[cy - 1] & (1 << cx) == 0 {
                    free |= BELOW;
                }
                if cy + 1 < n && block[cy + 1] & (1 << cx) == 0 {
                    free |= ABOVE;
                }
                for a in &t.anchors[free] {
                    if used & (1 << a.piece) != 0 {
                        continue;
                    }
                    let o = &t.orients[usize::from(a.orient)];
                    let h = usize::from(o.h);
                    let (dx, dy) = (usize::from(a.dx), usize::from(a.dy));
                    if dx > cx || dy > cy || cy - dy + h > n {
                        continue;
                    }
                    let (ox, oy) = (cx - dx, cy - dy);
                    let fits = (0..h).all(|r| (o.rows[r] << ox) & block[oy + r] == 0);
                    if fits
                        && !f(Place {
                            orient: a.orient,
                            x: ox as u8,
                            y: oy as u8,
                        })
                    {
                        return false;
                    }
                }
                block[cy] |= 1 << cx;
            }
        }
        true
    }

    /// Whether colour `c` may place `p` now (its piece unplaced, on the
    /// board, on no occupied square, touching its own colour at a corner
    /// only, or covering its starting square first).
    pub fn is_legal(&self, c: u8, p: Place) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let memo = u64::from(witness_of(p) | u32::from(c & 3) << 25) << 32
            | u64::from(self.puts.wrapping_add(1));
        if self.legal_memo.load(Relaxed) == memo {
            return true;
        }
        let legal = self.legal_now(usize::from(c), p);
        if legal {
            self.legal_memo.store(memo, Relaxed);
        }
        legal
    }

    /// Whether colour `c` can place a piece.
    ///
    /// Incremental: a colour found stuck stays stuck (the board only fills
    /// up and pieces are only used up); a placement found legal is re-checked
    /// first ([`Board::legal_now`], unless no piece was put since it was
    /// last found legal) and the search runs again only when a later
    /// placement took it away.
    pub fn has_move(&self, c: u8) -> bool {
        let ci = usize::from(c);
        match self.seen(ci) {
            STUCK => return false,
            v if v & WITNESS != 0
                && (self.checked_now(ci) || self.legal_now(ci, placement_of(v))) =>
            {
                self.set_checked(ci);
                return true;
            }
            _ => {}
        }
        let mut found = None;
        self.each_move(c, |p| {
            found = Some(p);
            false
        });
        self.set_seen(ci, found.map_or(STUCK, witness_of));
        if found.is_some() {
            self.set_checked(ci);
        }
        found.is_some()
    }

    /// [`Board::has_move`] by a full search, nothing remembered.
    pub fn has_move_searched(&self, c: u8) -> bool {
        !self.each_move(c, |_| false)
    }

    /// Whether no colour can place a piece.
    pub fn is_over(&self) -> bool {
        (0..self.placed.colours).all(|c| !self.has_move(c))
    }

    /// Places a piece for the colour to move (legality checked by the caller)
    /// and passes the turn on.
    pub fn place(&mut self, p: Place) {
        let c = self.to_move;
        self.put(c, p);
        if let Some(l) = self.placed.last.get_mut(usize::from(c)) {
            *l = Some(p.piece());
        }
        self.pass();
    }

    /// Puts a piece of colour `c` on the board (a set-up piece: legality
    /// checked by the caller, no turn taken, not recorded as the last piece).
    pub fn put(&mut self, c: u8, p: Place) {
        self.puts = self.puts.wrapping_add(1);
        let c = usize::from(c);
        let o = p.orientation();
        if let Some(rows) = self.occ.get_mut(c) {
            for (r, &m) in o.rows.iter().take(usize::from(o.h)).enumerate() {
                if let Some(row) = rows.get_mut(usize::from(p.y) + r) {
                    *row |= m << p.x;
                }
            }
        }
        if let Some(u) = self.placed.used.get_mut(c) {
            *u |= 1 << o.piece;
        }
    }

    /// Passes the turn to the next colour.
    pub fn pass(&mut self) {
        self.to_move = (self.to_move + 1) % self.placed.colours;
    }

    /// Takes colour `c`'s piece at `p` off the board (a setup edit; the
    /// caller checked that it is there). What `has_move` knew is
    /// forgotten: it holds only while the board fills up.
    pub fn take(&mut self, c: u8, p: Place) {
        let ci = usize::from(c);
        let o = p.orientation();
        if let Some(rows) = self.occ.get_mut(ci) {
            for (r, &m) in o.rows.iter().take(usize::from(o.h)).enumerate() {
                if let Some(row) = rows.get_mut(usize::from(p.y) + r) {
                    *row &= !(m << p.x);
                }
            }
        }
        if let Some(u) = self.placed.used.get_mut(ci) {
            *u &= !(1 << o.piece);
        }
        *self = self.clone();
    }
}

/// `a1`-style name of a square (0-based column and row).
pub fn square_name(col: u8, row: u8) -> String {
    format!("{}{}", char::from(b'a' + col % 26), u32::from(row) + 1)
}

/// The four edge and the four corner directions, in the order messages
/// name a square's neighbours.
const EDGES: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const CORNERS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Board {
    /// The square one step from `cell` in direction `(dx, dy)`, if on the board.
    fn step(&self, cell: u16, (dx, dy): (i32, i32)) -> Option<u16> {
        let (x, y) = self.coords(cell);
        let x = u8::try_from(i32::from(x) + dx).ok()?;
        let y = u8::try_from(i32::from(y) + dy).ok()?;
        self.cell(x, y)
    }

    /// The generated placement a move's cells make (its orientation and
    /// lower-left corner).
    pub fn place_of(p: &Placement) -> Place {
        let cells = p.cells();
        Place {
            orient: p.orient,
            x: cells.iter().map(|c| c.0).min().unwrap_or(0),
            y: cells.iter().map(|c| c.1).min().unwrap_or(0),
        }
    }
}

impl Geometry for Board {
    const TRIGON: bool = false;
    const PIECES: usize = pieces::PIECES;
    const ALL_PIECES: u32 = ALL_PIECES;
    const ALL_CELLS: u32 = pieces::ALL_SQUARES;
    const MONOMINO: u8 = 0;
    const CELL: &'static str = "square";

    fn piece_name(p: u8) -> &'static str {
        pieces::name(p)
    }

    fn piece_label(p: u8) -> String {
        pieces::label(p)
    }

    fn cell_name(col: u8, row: u8) -> String {
        square_name(col, row)
    }

    fn placed(&self) -> &Placed {
        &self.placed
    }

    fn placed_mut(&mut self) -> &mut Placed {
        &mut self.placed
    }

    fn put_piece(&mut self, c: u8, p: Place) {
        self.put(c, p);
    }

    fn take_piece(&mut self, c: u8, p: Place) {
        self.take(c, p);
    }

    fn set_side(&mut self, c: u8) {
        self.to_move = c % self.placed.colours.max(1);
    }

    fn count(&self, c: u8) -> u32 {
        self.squares(c)
    }

    fn has_move(&self, c: u8) -> bool {
        Board::has_move(self, c)
    }

    fn cell(&self, col: u8, row: u8) -> Option<u16> {
        (col < self.size && row < self.size).then(|| u16::from(row) << 5 | u16::from(col))
    }

    fn coords(&self, cell: u16) -> (u8, u8) {
        ((cell & 31) as u8, (cell >> 5) as u8)
    }

    fn owner(&self, cell: u16) -> Option<u8> {
        let (x, y) = self.coords(cell);
        self.at(x, y)
    }

    fn edge_neighbours(&self, cell: u16) -> impl Iterator<Item = u16> + '_ {
        EDGES.into_iter().filter_map(move |d| self.step(cell, d))
    }

    fn corner_neighbours(&self, cell: u16) -> impl Iterator<Item = u16> + '_ {
        CORNERS.into_iter().filter_map(move |d| self.step(cell, d))
    }

    fn starts(&self, c: u8) -> CellList {
        let mut out = CellList::default();
        out.push(self.start.get(usize::from(c)).copied().unwrap_or((0, 0)));
        out
    }

    #[inline]
    fn legal(&self, c: u8, p: &Placement) -> Option<Place> {
        let place = Board::place_of(p);
        self.is_legal(c, place).then_some(place)
    }

    fn find(&self, p: &Placement, _cells: &[u16]) -> Option<Place> {
        Some(Board::place_of(p))
    }

    fn written(&self, p: Place) -> Placement {
        let mut cells = [(0, 0); 6];
        for (slot, sq) in cells.iter_mut().zip(p.squares()) {
            *slot = sq;
        }
        Placement {
            piece: p.piece(),
            orient: p.orient,
            n: p.orientation().n,
            cells,
        }
    }
}

impl Placements for Board {
    type Place = Place;

    fn each_move(&self, c: u8, f: impl FnMut(Place) -> bool) -> bool {
        Board::each_move(self, c, f)
    }

    fn side(&self) -> u8 {
        self.to_move
    }

    fn play(&mut self, p: Place) {
        self.place(p);
    }

    fn skip(&mut self) {
        self.pass();
    }

    fn over(&self) -> bool {
        self.is_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::blokus::Placements;
    use crate::games::blokus::perft;
    use std::collections::HashSet;

    /// Plain reference: try every orientation at every offset.
    fn slow_moves(b: &Board, c: u8) -> HashSet<Place> {
        let t = &*TABLE;
        let n = b.size;
        let mut out = HashSet::new();
        for (oi, o) in t.orients.iter().enumerate() {
            if b.placed.used[usize::from(c)] & (1 << o.piece) != 0 {
                continue;
            }
            for y in 0..n {
                for x in 0..n {
                    let sq: Vec<(u8, u8)> =
                        o.cells().iter().map(|&(dx, dy)| (x + dx, y + dy)).collect();
                    if sq.iter().any(|&(a, b)| a >= n || b >= n) {
                        continue;
                    }
                    if sq.iter().any(|&(a, bb)| b.at(a, bb).is_some()) {
                        continue;
                    }
                    let own = |a: i32, bb: i32| {
                        a >= 0
                            && bb >= 0
                            && a < i32::from(n)
                            && bb < i32::from(n)
                            && b.at(a as u8, bb as u8) == Some(c)
                    };
                    let edge = sq.iter().any(|&(a, bb)| {
                        let (a, bb) = (i32::from(a), i32::from(bb));
                        own(a + 1, bb) || own(a - 1, bb) || own(a, bb + 1) || own(a, bb - 1)
                    });
                    if edge {
                        continue;
                    }
                    let ok = if b.first_move(c) {
                        sq.contains(&b.start[usize::from(c)])
                    } else {
                        sq.iter().any(|&(a, bb)| {
                            let (a, bb) = (i32::from(a), i32::from(bb));
                            own(a + 1, bb + 1)
                                || own(a - 1, bb + 1)
                                || own(a + 1, bb - 1)
                                || own(a - 1, bb - 1)
                        })
                    };
                    if ok {
                        out.insert(Place {
                            orient: oi as u8,
                            x,
                            y,
                        });
                    }
                }
            }
        }
        out
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn first_moves() {
        assert_eq!(Board::classic().count_moves(0), 58);
        assert_eq!(Board::duo().count_moves(0), 414);
    }

    #[test]
    fn perft_shallow() {
        assert_eq!(perft(&Board::duo(), 1), 414);
        assert_eq!(perft(&Board::duo(), 2), 171_396);
        assert_eq!(perft(&Board::classic(), 2), 58 * 58);
    }

    #[test]
    #[ignore = "slow in debug builds; run with --release"]
    fn perft_duo_3() {
        assert_eq!(perft(&Board::duo(), 3), 89_204_762);
    }

    #[test]
    #[ignore = "slow in debug builds; run with --release"]
    fn perft_classic_4() {
        assert_eq!(perft(&Board::classic(), 4), 11_316_496);
    }

    #[test]
    fn generator_agrees_with_reference_on_random_games() {
        let mut s = 0x1234_5678_9abc_def1u64;
        for size in [7u8, 14, 20] {
            for duo in [false, true] {
                let mut b = if duo {
                    Board::duo()
                } else {
                    let m = size - 1;
                    Board::new(size, 4, [(0, m), (0, 0), (m, 0), (m, m)])
                };
                for _ in 0..80 {
                    let c = b.to_move;
                    let fast = b.moves(c);
                    let set: HashSet<Place> = fast.iter().copied().collect();
                    assert_eq!(set.len(), fast.len(), "duplicate placements");
                    assert_eq!(set, slow_moves(&b, c));
                    // the witness check agrees with the generator, on its own
                    // placements and on the other colours'
                    for k in 0..b.placed.colours {
                        for p in b.moves(k) {
                            assert_eq!(b.legal_now(usize::from(c), p), set.contains(&p));
                        }
                    }
                    // the remembered answer, asked twice, and the searched one
                    for k in 0..b.placed.colours {
                        let want = !b.moves(k).is_empty();
                        assert_eq!(b.has_move(k), want);
                        assert_eq!(b.has_move(k), want);
                        assert_eq!(b.has_move_searched(k), want);
                    }
                    if b.is_over() {
                        break;
                    }
                    if fast.is_empty() {
                        b.pass();
                    } else {
                        let k = (xorshift(&mut s) % fast.len() as u64) as usize;
                        b.place(fast[k]);
                    }
                }
            }
        }
    }
}
