//! The Qwirkle rule engine: tiles, the board, placement judging and scoring,
//! and the placement generator. It never parses text.
//!
//! The board is a 256 x 256 grid of bytes centred on the game's first tile:
//! every later tile touches the board and the board holds at most 108 tiles,
//! so no legal tile lies more than 108 squares from the first one. Squares
//! outside the grid read as empty. Coordinates are `i32` in moves and are
//! widened to `i64` for all arithmetic, so no input can overflow.
//!
//! Beside the grid's table of tiles, the occupied squares are bits on a
//! 64 x 64 torus ([`Board`]): a legal placement near the board is judged and
//! scored from them ([`Board::judge_fast`]); an illegal one, and any on a
//! board wider than the torus, by the full judge ([`Board::judge`]), which
//! says what is wrong.

/// A tile kind: `colour * 6 + shape`, `0..36`.
pub type Tile = u8;

pub const COLOURS: &[u8; 6] = b"ROYGBP";
pub const SHAPES: &[u8; 6] = b"osdcx*";
pub const COLOUR_NAMES: [&str; 6] = ["red", "orange", "yellow", "green", "blue", "purple"];
pub const SHAPE_NAMES: [&str; 6] = [
    "circle",
    "square",
    "diamond",
    "clover",
    "criss-cross",
    "starburst",
];

/// The largest line: six tiles.
pub const MAX_LINE: usize = 6;

pub const fn colour(t: Tile) -> u8 {
    t / 6
}

pub const fn shape(t: Tile) -> u8 {
    t % 6
}

/// The two-character code of a tile (`Rc`).
pub fn code(t: Tile) -> String {
    let c = COLOURS.get(usize::from(colour(t))).copied().unwrap_or(b'?');
    let s = SHAPES.get(usize::from(shape(t))).copied().unwrap_or(b'?');
    format!("{}{}", c as char, s as char)
}

/// A tile from its colour and shape letters (`R`, `c`), exact case.
pub fn from_letters(c: u8, s: u8) -> Option<Tile> {
    let ci = LETTER_INDEX[0][usize::from(c)];
    let si = LETTER_INDEX[1][usize::from(s)];
    if ci < 6 && si < 6 {
        Some(ci * 6 + si)
    } else {
        None
    }
}

/// Each byte's index in [`COLOURS`] and in [`SHAPES`] (255: none).
static LETTER_INDEX: [[u8; 256]; 2] = {
    let mut t = [[255u8; 256]; 2];
    let mut i = 0;
    while i < 6 {
        t[0][COLOURS[i] as usize] = i as u8;
        t[1][SHAPES[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// A multiset of tiles: how many of each kind.
pub type Counts = [u8; 36];

pub fn count_add(c: &mut Counts, t: Tile) {
    if let Some(n) = c.get_mut(usize::from(t)) {
        *n = n.saturating_add(1);
    }
}

/// Takes one `t` out; false when there is none.
pub fn count_take(c: &mut Counts, t: Tile) -> bool {
    match c.get_mut(usize::from(t)) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// The tiles of a multiset in kind order.
pub fn tiles_of(c: &Counts) -> Vec<Tile> {
    let mut v = Vec::new();
    for (t, &n) in c.iter().enumerate() {
        for _ in 0..n {
            v.push(t as Tile);
        }
    }
    v
}

/// The largest group of a hand: tiles sharing a colour or a shape, duplicates
/// not counted.
pub fn largest_group(c: &Counts) -> usize {
    let mut best = 0;
    for k in 0..6u8 {
        let by_colour = (0..6u8)
            .filter(|&s| c.get(usize::from(k * 6 + s)).is_some_and(|&n| n > 0))
            .count();
        let by_shape = (0..6u8)
            .filter(|&col| c.get(usize::from(col * 6 + k)).is_some_and(|&n| n > 0))
            .count();
        best = best.max(by_colour).max(by_shape);
    }
    best
}

/// Squares are kept within 128 of the first tile each way (a game has 108
/// tiles, so no line of play reaches further).
const SIZE: i64 = 256;
const HALF: i64 = 128;
/// Slots of the board's table: a power of two, well above the 108 tiles.
const SLOTS: usize = 256;
/// Tiles the table takes at most (it never fills, so a probe always ends).
const MOST: usize = 192;
/// The side of the occupancy torus ([`Board::rows`]).
const TORUS: i64 = 64;
/// The widest stretch of squares (board and turn) the judge's fast path
/// reads on the torus: short of [`TORUS`], so a run of tiles always ends on
/// an empty square and the squares next to the stretch read as empty.
const FAST_SPAN: i64 = 60;

/// The board: tiles on squares, and how many of each kind are on it.
///
/// The squares live in a fixed open-addressed table (no allocation): a slot
/// holds `(square key + 1) << 8 | tile`, 0 when free; the key is the square's
/// index in a 256 x 256 grid centred on the first tile.
///
/// Beside it, which squares are occupied, on a 64 x 64 torus (a square at
/// `(x, y)` is bit `(x - ox) mod 64` of `rows[(y - oy) mod 64]` and bit
/// `(y - oy) mod 64` of `cols[(x - ox) mod 64]`, `(ox, oy)` the first tile's
/// square). Squares 64 apart share a bit, so the torus speaks for the board
/// only while its tiles span less than 64 squares each way: then a run of
/// tiles is a run of bits, read with a shift and a count.
#[derive(Clone, Debug)]
pub struct Board {
    /// The first tile's square: the grid's centre. `None` while empty.
    origin: Option<(i64, i64)>,
    slots: [u32; SLOTS],
    rows: [u64; TORUS as usize],
    cols: [u64; TORUS as usize],
    pub count: usize,
    pub on_board: Counts,
    /// Occupied rectangle: min x, max x, min y, max y.
    pub bounds: Option<(i64, i64, i64, i64)>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            origin: None,
            slots: [0; SLOTS],
            rows: [0; TORUS as usize],
            cols: [0; TORUS as usize],
            count: 0,
            on_board: [0; 36],
            bounds: None,
        }
    }
}

/// A tile placed (or to be placed) on a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Put {
    pub tile: Tile,
    pub x: i64,
    pub y: i64,
}

/// Up to `N` items in a fixed array (a turn's lines and a line's tiles are
/// few): no allocation. Items pushed past `N` are dropped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Few<T: Copy + Default, const N: usize> {
    len: usize,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Few<T, N> {
    fn default() -> Self {
        Few {
            len: 0,
            items: [T::default(); N],
        }
    }
}

impl<T: Copy + Default, const N: usize> Few<T, N> {
    pub fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = item;
            self.len += 1;
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for Few<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The tiles of a run: [`Board::run`] reads at most 33.
pub type LineTiles = Few<Tile, 34>;

/// A line on the board: its first square (west or south end), its direction
/// and its tiles in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub x: i64,
    pub y: i64,
    /// `true` for a row (east-west), `false` for a column (south-north).
    pub row: bool,
    pub tiles: LineTiles,
}

impl Line {
    /// `red column`, `criss-cross row`: the shared attribute and orientation.
    pub fn name(&self) -> String {
        let dir = if self.row { "row" } else { "column" };
        let first = self.tiles.first().copied().unwrap_or(0);
        let attr = if self.tiles.iter().all(|&t| colour(t) == colour(first)) {
            COLOUR_NAMES
                .get(usize::from(colour(first)))
                .copied()
                .unwrap_or("?")
        } else {
            SHAPE_NAMES
                .get(usize::from(shape(first)))
                .copied()
                .unwrap_or("?")
        };
        format!("{attr} {dir}")
    }

    /// `Rc@0,3 Gs@1,3`: every square and tile of the line.
    pub fn squares(&self) -> String {
        let (dx, dy) = if self.row { (1, 0) } else { (0, 1) };
        self.tiles
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let i = i as i64;
                format!("{}@{},{}", code(t), self.x + dx * i, self.y + dy * i)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub fn score(&self) -> i64 {
        let n = self.tiles.len() as i64;
        if self.tiles.len() == MAX_LINE {
            n + 6
        } else {
            n
        }
    }
}

/// Why a placement is illegal; `at` is the index of the blamed tile in the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// The square holds a tile already (`dup`: another tile of this turn).
    Occupied {
        at: usize,
        dup: bool,
        held: Tile,
    },
    NotInLine {
        at: usize,
    },
    Gap {
        x: i64,
        y: i64,
    },
    NotTouching,
    NoSharedAttribute {
        at: usize,
    },
    TooLong {
        at: usize,
        line: Line,
    },
    Duplicate {
        at: usize,
        line: Line,
        tile: Tile,
    },
    Mixed {
        at: usize,
        line: Line,
    },
}

/// A placement's score, line by line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Score {
    /// The main line and the cross lines (at most seven: a longer placement
    /// makes a line too long).
    pub lines: Few<Line, 8>,
    pub total: i64,
}

impl Score {
    /// `criss-cross row 3 + red column 6 + Qwirkle 6 + blue column 3`.
    pub fn parts(&self) -> Vec<String> {
        if self.lines.is_empty() {
            return vec!["single tile 1".to_string()];
        }
        let mut parts = Vec::new();
        for l in self.lines.iter() {
            parts.push(format!("{} {}", l.name(), l.tiles.len()));
            if l.tiles.len() == MAX_LINE {
                parts.push("Qwirkle 6".to_string());
            }
        }
        parts
    }
}

/// How a line's tiles break the rules, if they do.
enum LineFault {
    TooLong,
    Duplicate(Tile),
    Mixed,
}

fn line_fault(tiles: &[Tile]) -> Option<LineFault> {
    if tiles.len() > MAX_LINE {
        return Some(LineFault::TooLong);
    }
    for (i, &a) in tiles.iter().enumerate() {
        if tiles.iter().skip(i + 1).any(|&b| b == a) {
            return Some(LineFault::Duplicate(a));
        }
    }
    let first = tiles.first().copied().unwrap_or(0);
    let same_colour = tiles.iter().all(|&t| colour(t) == colour(first));
    let same_shape = tiles.iter().all(|&t| shape(t) == shape(first));
    if same_colour || same_shape {
        None
    } else {
        Some(LineFault::Mixed)
    }
}

/// Whether two to six tiles make a valid line, from the sets of their
/// colours and shapes: one colour and as many shapes as tiles, or one shape
/// and as many colours ([`line_fault`] says why not, in its order).
#[cfg(test)]
pub(super) fn line_valid(tiles: &[Tile]) -> bool {
    let mut sets = Sets::default();
    for &t in tiles {
        sets.add(t);
    }
    sets.valid()
}

/// The colours and shapes of a line's tiles, as bit sets (colours in the
/// low byte, shapes in the high byte), and their count.
#[derive(Clone, Copy, Default)]
struct Sets {
    bits: u16,
    n: u32,
}

/// Each kind's colour bit and shape bit, as [`Sets`] keeps them.
static KIND_BITS: [u16; 36] = {
    let mut t = [0u16; 36];
    let mut k = 0;
    while k < 36 {
        t[k] = 1 << (k / 6) | 1 << (8 + k % 6);
        k += 1;
    }
    t
};

/// The number of bits set in each 6-bit set.
static POP6: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

impl Sets {
    #[inline]
    fn add(&mut self, t: Tile) {
        self.bits |= KIND_BITS.get(usize::from(t)).copied().unwrap_or(0);
        self.n += 1;
    }

    /// One colour and as many shapes as tiles, or one shape and as many
    /// colours; at most six tiles.
    #[inline]
    fn valid(self) -> bool {
        let (c, s) = (self.bits & 0x3f, self.bits >> 8 & 0x3f);
        let one = |m: u16| m != 0 && m & (m - 1) == 0;
        let pop = |m: u16| u32::from(POP6.get(usize::from(m)).copied().unwrap_or(0));
        self.n <= MAX_LINE as u32 && ((one(c) && pop(s) == self.n) || (one(s) && pop(c) == self.n))
    }
}

/// The points of a valid line of `n` tiles (a Qwirkle earns 6 more).
fn line_score(n: u32) -> i64 {
    let n = i64::from(n);
    if n == MAX_LINE as i64 { n + 6 } else { n }
}

/// Whether tiles can still be part of one valid line (the cheap test of the
/// generator: distinct, one shared attribute, at most six).
pub(super) fn line_ok(tiles: &[Tile]) -> bool {
    line_fault(tiles).is_none()
}

/// A coordinate's place on the torus, from the origin's coordinate `o`:
/// mod 64 of the wrapped difference is mod 64 of the difference.
#[inline(always)]
fn torus_of(v: i64, o: i64) -> u32 {
    (v.wrapping_sub(o) & (TORUS - 1)) as u32
}

/// Line `i` (mod 64) of a torus side.
#[inline(always)]
fn line_of(lines: &[u64; TORUS as usize], i: u32) -> u64 {
    lines
        .get((i & (TORUS as u32 - 1)) as usize)
        .copied()
        .unwrap_or(0)
}

/// The torus seen along a placement's main line (the row or column its
/// tiles share): position `a` along it, line `c` across it.
struct Axes<'a> {
    board: &'a Board,
    row: bool,
    /// The lines parallel to the main line, and those crossing it.
    along: &'a [u64; TORUS as usize],
    across: &'a [u64; TORUS as usize],
    /// The origin's position along the main line.
    oa: i64,
    /// The main line, and its place on the torus.
    c: i64,
    ct: u32,
}

/// The stretch of the main line from the turn's first to its last tile.
struct Stretch {
    lo: i64,
    /// Its length, and the main line rotated so that bit 0 is `lo`.
    len: u32,
    r: u64,
}

impl Axes<'_> {
    /// A tile's position along the main line.
    #[inline(always)]
    fn key(&self, p: &Put) -> i64 {
        if self.row { p.x } else { p.y }
    }

    /// The tile stored at position `a` along, line `c` across.
    #[inline(always)]
    fn stored(&self, a: i64, c: i64) -> Option<Tile> {
        if self.row {
            self.board.stored(a, c)
        } else {
            self.board.stored(c, a)
        }
    }

    /// The turn's stretch of the main line: its squares free and given one
    /// tile each, no gap, and some tile touching the board (along or
    /// across); `None` otherwise.
    #[inline(always)]
    fn main_stretch(&self, puts: &[Put]) -> Option<Stretch> {
        let board_main = line_of(self.along, self.ct);
        let mut mine = 0u64;
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for p in puts {
            let a = self.key(p);
            let bit = 1u64 << torus_of(a, self.oa);
            if (board_main | mine) & bit != 0 {
                return None;
            }
            mine |= bit;
            lo = lo.min(a);
            hi = hi.max(a);
        }
        // No gaps: the stretch lo..=hi is all tiles.
        let main = board_main | mine;
        let len = u32::try_from(hi - lo + 1).ok()?;
        let r = main.rotate_right(torus_of(lo, self.oa));
        let span = (1u64 << len) - 1;
        if r & span != span {
            return None;
        }
        // Touching: a board tile beside a placed one, along or across.
        let beside =
            line_of(self.along, self.ct.wrapping_sub(1)) | line_of(self.along, self.ct + 1);
        if beside & mine == 0 && board_main & (mine.rotate_left(1) | mine.rotate_right(1)) == 0 {
            return None;
        }
        Some(Stretch { lo, len, r })
    }
}

/// The turn's tiles lie in one row or one column; whether a row (a single
/// tile is judged as a row; its column is a cross line).
fn check_one_line(puts: &[Put]) -> Result<bool, PlaceError> {
    let Some(first) = puts.first() else {
        return Err(PlaceError::NotInLine { at: 0 });
    };
    let same_y = puts.iter().all(|p| p.y == first.y);
    let same_x = puts.iter().all(|p| p.x == first.x);
    if !same_x && !same_y {
        let at = if puts.get(1).is_some_and(|p| p.y == first.y) {
            puts.iter().position(|p| p.y != first.y)
        } else {
            puts.iter().position(|p| p.x != first.x)
        };
        return Err(PlaceError::NotInLine {
            at: at.unwrap_or(0),
        });
    }
    Ok(same_y)
}

/// The turn's tiles share a colour or a shape (the first tile's).
fn check_shared_attribute(puts: &[Put]) -> Result<(), PlaceError> {
    let Some(first) = puts.first() else {
        return Ok(());
    };
    let c0 = colour(first.tile);
    let s0 = shape(first.tile);
    if !puts.iter().all(|p| colour(p.tile) == c0) && !puts.iter().all(|p| shape(p.tile) == s0) {
        let at = if puts.get(1).is_some_and(|p| colour(p.tile) == c0) {
            puts.iter().position(|p| colour(p.tile) != c0)
        } else {
            puts.iter().position(|p| shape(p.tile) != s0)
        };
        return Err(PlaceError::NoSharedAttribute {
            at: at.unwrap_or(0),
        });
    }
    Ok(())
}

impl PartialEq for Board {
    /// The same tiles on the same squares (however the table lays them out).
    fn eq(&self, other: &Self) -> bool {
        self.origin == other.origin
            && self.count == other.count
            && self.on_board == other.on_board
            && self.bounds == other.bounds
            && self
                .slots
                .iter()
                .filter(|&&s| s != 0)
                .all(|&s| other.find((s >> 8) - 1).1 == Some((s & 0xff) as Tile))
    }
}

impl Eq for Board {}

impl Board {
    /// The slot of a square key, and the tile on it: its own slot, or the
    /// free slot where it would go.
    #[inline]
    fn find(&self, key: u32) -> (usize, Option<Tile>) {
        let mut i = (key.wrapping_mul(0x9e37_79b1) >> 23) as usize % SLOTS;
        loop {
            match self.slots.get(i).copied() {
                Some(0) | None => return (i, None),
                Some(s) if s >> 8 == key + 1 => return (i, Some((s & 0xff) as Tile)),
                Some(_) => i = (i + 1) % SLOTS,
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn index(&self, x: i64, y: i64) -> Option<u32> {
        let (ox, oy) = self.origin?;
        let gx = x.checked_sub(ox)?.checked_add(HALF)?;
        let gy = y.checked_sub(oy)?.checked_add(HALF)?;
        if (0..SIZE).contains(&gx) && (0..SIZE).contains(&gy) {
            u32::try_from(gy * SIZE + gx).ok()
        } else {
            None
        }
    }

    /// A square's place on the torus (column, row), once there is a first tile.
    #[inline]
    fn torus(&self, x: i64, y: i64) -> Option<(u32, u32)> {
        let (ox, oy) = self.origin?;
        // mod 64 of the wrapped difference is mod 64 of the difference
        let t = |v: i64, o: i64| (v.wrapping_sub(o) & (TORUS - 1)) as u32;
        Some((t(x, ox), t(y, oy)))
    }

    /// The tile on a square. A square outside the occupied rectangle is
    /// empty; inside it, while the rectangle fits the torus, an unset bit
    /// says empty without a look in the table.
    #[inline]
    pub fn get(&self, x: i64, y: i64) -> Option<Tile> {
        let (x0, x1, y0, y1) = self.bounds?;
        if x < x0 || x > x1 || y < y0 || y > y1 {
            return None;
        }
        if x1 - x0 < TORUS && y1 - y0 < TORUS {
            let (tx, ty) = self.torus(x, y)?;
            let row = self.rows.get(ty as usize).copied().unwrap_or(0);
            if row >> tx & 1 == 0 {
                return None;
            }
        }
        self.find(self.index(x, y)?).1
    }

    /// The tile on a square, counting the tiles of a turn being judged.
    fn get_with(&self, extra: &[Put], x: i64, y: i64) -> Option<Tile> {
        extra
            .iter()
            .find(|p| p.x == x && p.y == y)
            .map(|p| p.tile)
            .or_else(|| self.get(x, y))
    }

    fn has_neighbour(&self, x: i64, y: i64) -> bool {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|&(dx, dy)| self.get(x + dx, y + dy).is_some())
    }

    /// Puts a tile down (after the move was judged legal).
    pub fn set(&mut self, p: Put) {
        if self.origin.is_none() {
            self.origin = Some((p.x, p.y));
        }
        let Some(key) = self.index(p.x, p.y) else {
            return;
        };
        let (i, held) = self.find(key);
        if held.is_none() {
            if self.count >= MOST {
                return;
            }
            self.count += 1;
        }
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = (key + 1) << 8 | u32::from(p.tile);
        }
        if let Some((tx, ty)) = self.torus(p.x, p.y) {
            if let Some(r) = self.rows.get_mut(ty as usize) {
                *r |= 1 << tx;
            }
            if let Some(c) = self.cols.get_mut(tx as usize) {
                *c |= 1 << ty;
            }
        }
        count_add(&mut self.on_board, p.tile);
        self.bounds = Some(match self.bounds {
            None => (p.x, p.x, p.y, p.y),
            Some((a, b, c, d)) => (a.min(p.x), b.max(p.x), c.min(p.y), d.max(p.y)),
        });
    }

    /// The maximal run through `(x, y)` in a direction, the turn's tiles
    /// included. At most 16 squares each way are read (a longer run is
    /// already too long).
    fn run(&self, extra: &[Put], x: i64, y: i64, row: bool, buf: &mut LineTiles) -> (i64, i64) {
        let (dx, dy) = if row { (1, 0) } else { (0, 1) };
        let mut sx = x;
        let mut sy = y;
        for _ in 0..16 {
            if self.get_with(extra, sx - dx, sy - dy).is_none() {
                break;
            }
            sx -= dx;
            sy -= dy;
        }
        buf.clear();
        let (mut cx, mut cy) = (sx, sy);
        while let Some(t) = self.get_with(extra, cx, cy) {
            buf.push(t);
            if buf.len() > 32 {
                break;
            }
            cx += dx;
            cy += dy;
        }
        (sx, sy)
    }

    /// Judges a placement and scores it. The checks run in the spec's order:
    /// occupied, one row or column, gaps, contact, shared attribute, then every
    /// line the turn makes (too long, duplicate, mixed).
    pub fn judge(&self, puts: &[Put]) -> Result<Score, PlaceError> {
        let mut lines = Few::default();
        let total = self.judge_lines(puts, Some(&mut lines))?;
        Ok(Score { lines, total })
    }

    /// [`Board::judge`]'s score alone (the same checks, no lines kept): a
    /// legal placement near the board is scored on the torus
    /// ([`Board::judge_fast`]); anything else, and every error, by the full
    /// judge.
    pub fn judge_total(&self, puts: &[Put]) -> Result<i64, PlaceError> {
        match self.judge_fast(puts) {
            Some(total) => Ok(total),
            None => self.judge_lines(puts, None),
        }
    }

    /// The score of a legal placement of at most six tiles on a non-empty
    /// board when board and turn together span less than [`FAST_SPAN`]
    /// squares each way; `None` for anything else (an illegal placement
    /// among it), which the full judge then reads. Every run of tiles is
    /// read from the torus bits: constant work per line but for reading
    /// its (at most six) tiles.
    #[inline]
    pub fn judge_fast(&self, puts: &[Put]) -> Option<i64> {
        let row = self.fast_shape(puts)?;
        let axes = self.axes(row, puts.first()?)?;
        let main = axes.main_stretch(puts)?;
        let total =
            self.fast_main_line(&axes, puts, &main)? + self.fast_cross_lines(&axes, puts)?;
        // A lone tile with no line scores 1 (a line scores at least 2).
        Some(if total == 0 { 1 } else { total })
    }

    /// The fast path's first test: at most six known tiles in one row or
    /// column sharing a colour or a shape, board and turn within
    /// [`FAST_SPAN`]; whether the main line is a row (a single tile is
    /// judged as a row, like the full judge).
    #[inline(always)]
    fn fast_shape(&self, puts: &[Put]) -> Option<bool> {
        let (x0, x1, y0, y1) = self.bounds?;
        let first = puts.first()?;
        if puts.len() > MAX_LINE {
            return None;
        }
        let (mut ux0, mut ux1, mut uy0, mut uy1) = (x0, x1, y0, y1);
        let (mut same_x, mut same_y) = (true, true);
        let (mut same_c, mut same_s) = (true, true);
        for p in puts {
            if usize::from(p.tile) >= 36 {
                return None;
            }
            ux0 = ux0.min(p.x);
            ux1 = ux1.max(p.x);
            uy0 = uy0.min(p.y);
            uy1 = uy1.max(p.y);
            same_x &= p.x == first.x;
            same_y &= p.y == first.y;
            same_c &= colour(p.tile) == colour(first.tile);
            same_s &= shape(p.tile) == shape(first.tile);
        }
        if ux1.checked_sub(ux0)? >= FAST_SPAN || uy1.checked_sub(uy0)? >= FAST_SPAN {
            return None;
        }
        if !(same_x || same_y) || !(same_c || same_s) {
            return None;
        }
        Some(same_y)
    }

    /// The torus seen along the main line through `first`.
    #[inline(always)]
    fn axes(&self, row: bool, first: &Put) -> Option<Axes<'_>> {
        let (ox, oy) = self.origin?;
        let (along, across) = if row {
            (&self.rows, &self.cols)
        } else {
            (&self.cols, &self.rows)
        };
        let (oa, oc) = if row { (ox, oy) } else { (oy, ox) };
        let c = if row { first.y } else { first.x };
        Some(Axes {
            board: self,
            row,
            along,
            across,
            oa,
            c,
            ct: torus_of(c, oc),
        })
    }

    /// The main line's score (0 when the turn makes none): the board tiles
    /// before the stretch, the stretch, those after it; `None` when it is
    /// too long or not a valid line.
    #[inline(always)]
    fn fast_main_line(&self, axes: &Axes<'_>, puts: &[Put], main: &Stretch) -> Option<i64> {
        let back = main.r.leading_ones();
        let n = back + main.len + (main.r >> main.len).trailing_ones();
        if n > MAX_LINE as u32 {
            return None;
        }
        if n < 2 {
            return Some(0);
        }
        let mut sets = Sets::default();
        let start = main.lo - i64::from(back);
        for k in 0..i64::from(n) {
            let a = start + k;
            let tile = match puts.iter().find(|p| axes.key(p) == a) {
                Some(p) => p.tile,
                None => axes.stored(a, axes.c)?,
            };
            sets.add(tile);
        }
        sets.valid().then(|| line_score(n))
    }

    /// The cross lines' scores: through each placed tile, the board tiles
    /// and that tile; `None` when one is too long or not a valid line.
    #[inline(always)]
    fn fast_cross_lines(&self, axes: &Axes<'_>, puts: &[Put]) -> Option<i64> {
        let mut total = 0;
        for p in puts {
            let a = axes.key(p);
            let r = line_of(axes.across, torus_of(a, axes.oa)).rotate_right(axes.ct);
            let back = r.leading_ones();
            let n = back + 1 + (r >> 1).trailing_ones();
            if n > MAX_LINE as u32 {
                return None;
            }
            if n < 2 {
                continue;
            }
            let mut sets = Sets::default();
            sets.add(p.tile);
            let start = axes.c - i64::from(back);
            for k in 0..i64::from(n) {
                let cc = start + k;
                if cc != axes.c {
                    sets.add(axes.stored(a, cc)?);
                }
            }
            if !sets.valid() {
                return None;
            }
            total += line_score(n);
        }
        Some(total)
    }

    /// The tile the table holds on a square (a kind, `0..36`).
    #[inline]
    fn stored(&self, x: i64, y: i64) -> Option<Tile> {
        self.find(self.index(x, y)?).1.filter(|&t| t < 36)
    }

    /// Judges a placement: its score, and its lines in `keep` when given.
    fn judge_lines(
        &self,
        puts: &[Put],
        keep: Option<&mut Few<Line, 8>>,
    ) -> Result<i64, PlaceError> {
        self.check_free(puts)?;
        let row = check_one_line(puts)?;
        self.check_no_gap(puts, row)?;
        if !self.is_empty() && !puts.iter().any(|p| self.has_neighbour(p.x, p.y)) {
            return Err(PlaceError::NotTouching);
        }
        check_shared_attribute(puts)?;
        self.score_lines(puts, row, keep)
    }

    /// Every square of the turn is empty and given one tile.
    fn check_free(&self, puts: &[Put]) -> Result<(), PlaceError> {
        for (i, p) in puts.iter().enumerate() {
            if let Some(held) = self.get(p.x, p.y) {
                return Err(PlaceError::Occupied {
                    at: i,
                    dup: false,
                    held,
                });
            }
            if let Some(q) = puts.iter().take(i).find(|q| q.x == p.x && q.y == p.y) {
                return Err(PlaceError::Occupied {
                    at: i,
                    dup: true,
                    held: q.tile,
                });
            }
        }
        Ok(())
    }

    /// The squares between the turn's outermost tiles all hold tiles.
    fn check_no_gap(&self, puts: &[Put], row: bool) -> Result<(), PlaceError> {
        let Some(first) = puts.first() else {
            return Ok(());
        };
        let key = |p: &Put| if row { p.x } else { p.y };
        let lo = puts.iter().map(key).min().unwrap_or(0);
        let hi = puts.iter().map(key).max().unwrap_or(0);
        let mut k = lo;
        while k < hi {
            let (x, y) = if row { (k, first.y) } else { (first.x, k) };
            if self.get_with(puts, x, y).is_none() {
                return Err(PlaceError::Gap { x, y });
            }
            k += 1;
        }
        Ok(())
    }

    /// The lines the turn makes, the main one then the cross line through
    /// every tile: each valid, the total of their scores (a lone tile with
    /// no line scores 1), each kept in `keep` when given.
    fn score_lines(
        &self,
        puts: &[Put],
        row: bool,
        mut keep: Option<&mut Few<Line, 8>>,
    ) -> Result<i64, PlaceError> {
        let mut total = 0;
        let mut buf = LineTiles::default();
        let mut check = |at: usize, p: &Put, r: bool| {
            let (sx, sy) = self.run(puts, p.x, p.y, r, &mut buf);
            if buf.len() < 2 {
                return Ok(());
            }
            let line = || Line {
                x: sx,
                y: sy,
                row: r,
                tiles: buf,
            };
            match line_fault(&buf) {
                Some(LineFault::TooLong) => Err(PlaceError::TooLong { at, line: line() }),
                Some(LineFault::Duplicate(tile)) => Err(PlaceError::Duplicate {
                    at,
                    line: line(),
                    tile,
                }),
                Some(LineFault::Mixed) => Err(PlaceError::Mixed { at, line: line() }),
                None => {
                    let n = buf.len() as i64;
                    total += if buf.len() == MAX_LINE { n + 6 } else { n };
                    if let Some(keep) = keep.as_mut() {
                        keep.push(line());
                    }
                    Ok(())
                }
            }
        };
        if let Some(first) = puts.first() {
            check(0, first, row)?;
        }
        for (i, p) in puts.iter().enumerate() {
            check(i, p, !row)?;
        }
        Ok(if total == 0 { 1 } else { total })
    }

    /// Every legal placement of tiles from `hand`, each with its score.
    /// `first_group`: on the empty board, only groups of exactly this size.
    ///
    /// The generator starts from the squares next to the board (anchors): a
    /// placement is a stretch of one row or column whose westmost (southmost)
    /// placed square lies at most five squares before an anchor; it walks
    /// east (north) from there, skipping over board tiles, placing one hand
    /// tile on each empty square and pruning as soon as the line or a cross
    /// line breaks. On the empty board tiles are placed eastward from 0,0.
    pub fn placements(&self, hand: &Counts, first_group: Option<usize>) -> Vec<(Vec<Put>, i64)> {
        let mut out = Vec::new();
        let mut kinds: Vec<(Tile, u8)> = Vec::with_capacity(6);
        for (t, &n) in hand.iter().enumerate() {
            if n > 0 {
                kinds.push((t as Tile, n));
            }
        }
        let hand_size: usize = kinds.iter().map(|&(_, n)| usize::from(n)).sum();
        if self.is_empty() {
            let mut placed = Vec::with_capacity(6);
            self.first_rec(&mut kinds, &mut placed, first_group, &mut out);
            return out;
        }
        let Some((x0, x1, y0, y1)) = self.bounds else {
            return out;
        };
        for row in [true, false] {
            // Start squares: empty squares within five squares before an anchor.
            let mut starts: Vec<(i64, i64)> = Vec::new();
            let (dx, dy) = if row { (1, 0) } else { (0, 1) };
            for y in y0 - 1..=y1 + 1 {
                for x in x0 - 1..=x1 + 1 {
                    if self.get(x, y).is_some() || !self.has_neighbour(x, y) {
                        continue;
                    }
                    for back in 0..MAX_LINE as i64 {
                        let (sx, sy) = (x - dx * back, y - dy * back);
                        if self.get(sx, sy).is_none() {
                            starts.push((sx, sy));
                        }
                    }
                }
            }
            starts.sort_unstable();
            starts.dedup();
            let mut placed: Vec<Put> = Vec::with_capacity(6);
            let mut line: Vec<Tile> = Vec::with_capacity(16);
            for &(sx, sy) in &starts {
                // The board tiles just before the start join the line.
                line.clear();
                let mut bx = sx - dx;
                let mut by = sy - dy;
                let mut before = Vec::new();
                while let Some(t) = self.get(bx, by) {
                    before.push(t);
                    if before.len() > MAX_LINE {
                        break;
                    }
                    bx -= dx;
                    by -= dy;
                }
                before.reverse();
                line.extend_from_slice(&before);
                if !line_ok(&line) {
                    continue;
                }
                self.walk(
                    &mut kinds,
                    hand_size,
                    row,
                    sx,
                    sy,
                    &mut placed,
                    &mut line,
                    &mut out,
                );
            }
        }
        out
    }

    /// Places a tile on the empty square `(x, y)` and walks on.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        kinds: &mut Vec<(Tile, u8)>,
        hand_size: usize,
        row: bool,
        x: i64,
        y: i64,
        placed: &mut Vec<Put>,
        line: &mut Vec<Tile>,
        out: &mut Vec<(Vec<Put>, i64)>,
    ) {
        let (dx, dy) = if row { (1, 0) } else { (0, 1) };
        let mut cross = LineTiles::default();
        for k in 0..kinds.len() {
            let Some(&(t, n)) = kinds.get(k) else {
                continue;
            };
            if n == 0 {
                continue;
            }
            // The cross line through (x, y).
            let put = Put { tile: t, x, y };
            self.run(std::slice::from_ref(&put), x, y, !row, &mut cross);
            if cross.len() >= 2 && !line_ok(&cross) {
                continue;
            }
            let mark = line.len();
            line.push(t);
            if !line_ok(line) {
                line.truncate(mark);
                continue;
            }
            placed.push(put);
            if let Some(e) = kinds.get_mut(k) {
                e.1 -= 1;
            }
            // The board tiles right after this square join the line.
            let mut nx = x + dx;
            let mut ny = y + dy;
            let mark2 = line.len();
            while let Some(b) = self.get(nx, ny) {
                line.push(b);
                if line.len() > MAX_LINE {
                    break;
                }
                nx += dx;
                ny += dy;
            }
            if line_ok(line) {
                let touches = placed.iter().any(|p| self.has_neighbour(p.x, p.y));
                // A single tile is listed once (as a row move).
                if touches && (row || placed.len() > 1) {
                    if let Ok(total) = self.judge_total(placed) {
                        out.push((placed.clone(), total));
                    }
                }
                if placed.len() < hand_size && line.len() < MAX_LINE {
                    self.walk(kinds, hand_size, row, nx, ny, placed, line, out);
                }
            }
            line.truncate(mark2);
            line.truncate(mark);
            placed.pop();
            if let Some(e) = kinds.get_mut(k) {
                e.1 += 1;
            }
        }
    }

    /// The empty board: groups placed eastward from 0,0.
    fn first_rec(
        &self,
        kinds: &mut Vec<(Tile, u8)>,
        placed: &mut Vec<Put>,
        group: Option<usize>,
        out: &mut Vec<(Vec<Put>, i64)>,
    ) {
        if !placed.is_empty() && group.is_none_or(|g| g == placed.len()) {
            if let Ok(score) = self.judge(placed) {
                out.push((placed.clone(), score.total));
            }
        }
        if placed.len() >= MAX_LINE || group.is_some_and(|g| placed.len() >= g) {
            return;
        }
        for k in 0..kinds.len() {
            let Some(&(t, n)) = kinds.get(k) else {
                continue;
            };
            if n == 0 {
                continue;
            }
            let mut tiles: Vec<Tile> = placed.iter().map(|p| p.tile).collect();
            tiles.push(t);
            if !line_ok(&tiles) {
                continue;
            }
            placed.push(Put {
                tile: t,
                x: placed.len() as i64,
                y: 0,
            });
            if let Some(e) = kinds.get_mut(k) {
                e.1 -= 1;
            }
            self.first_rec(kinds, placed, group, out);
            placed.pop();
            if let Some(e) = kinds.get_mut(k) {
                e.1 += 1;
            }
        }
    }
}
