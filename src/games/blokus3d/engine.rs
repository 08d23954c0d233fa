//! The rule engine: an area's columns (limits), the stones' placements
//! precomputed per orientation and area ([`Footprint`]s), and a [`Board`] of
//! column heights with each column's cubes packed in one word (owner and
//! stone per level). Judging or generating a placement allocates nothing.
//!
//! On the board stands the game's position, [`State`]: typed [`Move`]s
//! without spans, the typed reason a move is refused ([`Illegal`]), the
//! scores, through [`game::Position`].

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::pieces::{self, STONES};
use crate::game::{self, Unlisted};

/// Files and ranks at most.
pub const MAX_SIDE: u8 = 16;
/// Levels at most.
pub const MAX_LEVEL: u8 = 9;
/// Columns are indexed `rank * 16 + file`.
pub const COLUMNS: usize = 256;
/// No footprint at this orientation and offset.
pub const NONE: u16 = u16::MAX;

/// The column index of file `x`, rank `y` (both from 0).
pub fn col(x: u8, y: u8) -> usize {
    usize::from(y) * 16 + usize::from(x)
}

/// One orientation lowered at one offset of the area: the columns it uses
/// (with the lowest and the number of its cubes there) and, per cube, the
/// neighbouring columns of the area at the same level.
#[derive(Clone, Debug)]
pub struct Footprint {
    pub orient: u16,
    pub stone: u8,
    /// Offset of the orientation's origin (file, rank).
    pub x: u8,
    pub y: u8,
    pub ncols: u8,
    /// (column, lowest offset in it, cubes in it).
    pub cols: [(u8, u8, u8); 4],
    pub ncubes: u8,
    /// (column, level offset) of each cube.
    pub cubes: [(u8, u8); 4],
    /// Side neighbours of each cube inside the area, and how many.
    pub nb: [[u8; 4]; 4],
    pub nbn: [u8; 4],
    /// Small areas: each cube's cell bit, and the bits of its side
    /// neighbours (0 elsewhere).
    pub bits: [u64; 4],
    pub nbits: [u64; 4],
}

/// One orientation over the bit masks of a small area (at most 64 cells,
/// the cell of file `x`, rank `y` at bit `y * files + x`): lowered with its
/// origin at cell bit `o`, its cubes are at bits `o + shift`, so one shift
/// tests it at every offset at once.
#[derive(Clone, Debug, Default)]
pub struct Shape {
    /// The origins (cell bits) at which every cube is on a column.
    pub at: u64,
    pub ncols: u8,
    /// (shift, lowest level offset, cubes) of each column it uses.
    pub cols: [(u8, u8, u8); 4],
    pub ncubes: u8,
    /// (shift, level offset) of each cube.
    pub cubes: [(u8, u8); 4],
}

/// A building area: which columns exist and how high each may be built.
#[derive(Debug)]
pub struct Area {
    /// The `Area` tag's value as given (normalised for named areas).
    pub name: String,
    pub files: u8,
    pub ranks: u8,
    /// Limit per column (0: no column there).
    pub limit: [u8; COLUMNS],
    /// One past the last column's index: a board keeps the cubes of the
    /// columns below it only.
    pub reach: usize,
    /// Every footprint, grouped by stone.
    pub fps: Vec<Footprint>,
    /// Each stone's range in `fps`.
    pub by_stone: [(u16, u16); STONES],
    /// Footprint at `orient * 256 + column`, or [`NONE`].
    pub at: Vec<u16>,
    /// Each orientation over the cell masks, when the area's cells number
    /// at most 64 (else empty).
    pub shapes: Vec<Shape>,
    /// Each stone's range of orientations.
    pub orients: [(u16, u16); STONES],
    /// The column index of each cell bit (small areas).
    pub col_of: [u8; 64],
    /// Small areas: the cells of the columns, and those with room for
    /// `n + 1` cubes, on the empty area ([`Board::level`] and
    /// [`Board::room`] at the start).
    pub start: (u64, [u64; 4]),
}

impl Area {
    /// An area from per-column limits (row-major from rank 1, `files` wide).
    pub fn new(name: String, files: u8, ranks: u8, limits: &[u8]) -> Area {
        let limit = limits_by_column(files, ranks, limits);
        let inside = |x: i32, y: i32| -> Option<u8> {
            if x < 0 || y < 0 || x >= i32::from(files) || y >= i32::from(ranks) {
                return None;
            }
            let c = col(x as u8, y as u8);
            (limit.get(c).copied().unwrap_or(0) > 0).then_some(c as u8)
        };
        let orients = pieces::orientations();
        let mut fps = Vec::new();
        let mut at = vec![NONE; orients.len() * COLUMNS];
        let mut by_stone = [(0u16, 0u16); STONES];
        for (oi, o) in orients.iter().enumerate() {
            let s = usize::from(o.stone);
            if let Some(r) = by_stone.get_mut(s)
                && r.1 == 0
            {
                *r = (fps.len() as u16, fps.len() as u16);
            }
            if o.size.0 > files || o.size.1 > ranks {
                continue;
            }
            for y in 0..=ranks - o.size.1 {
                for x in 0..=files - o.size.0 {
                    let Some(fp) = footprint(o, oi as u16, (x, y), &inside) else {
                        continue;
                    };
                    if let Some(a) = at.get_mut(oi * COLUMNS + col(x, y)) {
                        *a = fps.len() as u16;
                    }
                    fps.push(fp);
                    if let Some(r) = by_stone.get_mut(s) {
                        r.1 = fps.len() as u16;
                    }
                }
            }
        }
        let small = usize::from(files) * usize::from(ranks) <= 64;
        if small {
            let bit = |c: u8| 1u64 << (u32::from(c / 16) * u32::from(files) + u32::from(c % 16));
            for fp in &mut fps {
                for k in 0..usize::from(fp.ncubes.min(4)) {
                    fp.bits[k] = bit(fp.cubes[k].0);
                    let n = usize::from(fp.nbn[k].min(4));
                    fp.nbits[k] = fp.nb[k][..n].iter().fold(0, |m, &c| m | bit(c));
                }
            }
        }
        let shapes = if small {
            shapes_of(&fps, files, orients.len())
        } else {
            Vec::new()
        };
        let mut orients_of = [(0u16, 0u16); STONES];
        for (oi, o) in orients.iter().enumerate() {
            if let Some(r) = orients_of.get_mut(usize::from(o.stone)) {
                if r.1 == 0 {
                    r.0 = oi as u16;
                }
                r.1 = oi as u16 + 1;
            }
        }
        let col_of = columns_of_bits(files);
        let reach = limit.iter().rposition(|&l| l > 0).map_or(0, |c| c + 1);
        let mut area = Area {
            name,
            files,
            ranks,
            limit,
            reach,
            fps,
            by_stone,
            at,
            shapes,
            orients: orients_of,
            col_of,
            start: (0, [0; 4]),
        };
        area.start = area.start_masks();
        area
    }

    /// Small areas: the columns and the columns with room for `n + 1`
    /// cubes on the empty area ([`Area::start`]; nothing for large ones).
    fn start_masks(&self) -> (u64, [u64; 4]) {
        let (mut cells, mut room) = (0u64, [0u64; 4]);
        if self.shapes.is_empty() {
            return (cells, room);
        }
        for (c, &l) in self.limit.iter().enumerate() {
            if l == 0 {
                continue;
            }
            let bit = self.bit(c);
            cells |= bit;
            for (n, r) in room.iter_mut().enumerate() {
                if n < usize::from(l) {
                    *r |= bit;
                }
            }
        }
        (cells, room)
    }

    /// The bit of standard column `c` in a small area's masks.
    #[inline]
    pub fn bit(&self, c: usize) -> u64 {
        let (x, y) = (c % 16, c / 16);
        1u64.checked_shl((y * usize::from(self.files) + x) as u32)
            .unwrap_or(0)
    }

    /// The limit of file `x`, rank `y` (0 outside the area).
    pub fn limit_at(&self, x: u8, y: u8) -> u8 {
        if x >= self.files || y >= self.ranks {
            return 0;
        }
        self.limit.get(col(x, y)).copied().unwrap_or(0)
    }

    /// The number of columns.
    pub fn columns(&self) -> usize {
        self.limit.iter().filter(|&&l| l > 0).count()
    }
}

/// The column index of each cell bit of a small area `files` wide.
fn columns_of_bits(files: u8) -> [u8; 64] {
    let mut col_of = [0u8; 64];
    for (b, c) in col_of.iter_mut().enumerate() {
        let f = usize::from(files.max(1));
        *c = col((b % f) as u8, (b / f) as u8) as u8;
    }
    col_of
}

/// The limits given row-major from rank 1 (`files` wide), by column
/// index; 0 past the area.
fn limits_by_column(files: u8, ranks: u8, limits: &[u8]) -> [u8; COLUMNS] {
    let mut limit = [0u8; COLUMNS];
    for y in 0..ranks {
        for x in 0..files {
            let l = limits
                .get(usize::from(y) * usize::from(files) + usize::from(x))
                .copied()
                .unwrap_or(0);
            if let Some(v) = limit.get_mut(col(x, y)) {
                *v = l;
            }
        }
    }
    limit
}

/// Orientation `o` (index `oi`) lowered with its origin at file and rank
/// `(x, y)`, when every cube is on a column of the area (`inside` gives a
/// file and rank's column, `None` off the area).
fn footprint(
    o: &pieces::Orientation,
    oi: u16,
    (x, y): (u8, u8),
    inside: &impl Fn(i32, i32) -> Option<u8>,
) -> Option<Footprint> {
    let mut fp = Footprint {
        orient: oi,
        stone: o.stone,
        x,
        y,
        ncols: 0,
        cols: [(0, 0, 0); 4],
        ncubes: 0,
        cubes: [(0, 0); 4],
        nb: [[0; 4]; 4],
        nbn: [0; 4],
        bits: [0; 4],
        nbits: [0; 4],
    };
    for (i, &(dx, dy, dz)) in o.cubes.iter().enumerate() {
        let (cx, cy) = (i32::from(x + dx), i32::from(y + dy));
        let c = inside(cx, cy)?;
        if let Some(slot) = fp.cubes.get_mut(i) {
            *slot = (c, dz);
        }
        fp.ncubes += 1;
        let n = usize::from(fp.ncols);
        match fp.cols.iter_mut().take(n).find(|k| k.0 == c) {
            Some(k) => {
                k.1 = k.1.min(dz);
                k.2 += 1;
            }
            None => {
                if let Some(k) = fp.cols.get_mut(n) {
                    *k = (c, dz, 1);
                }
                fp.ncols += 1;
            }
        }
        for (ex, ey) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(nc) = inside(cx + ex, cy + ey)
                && let Some(list) = fp.nb.get_mut(i)
                && let Some(k) = fp.nbn.get_mut(i)
            {
                if let Some(slot) = list.get_mut(usize::from(*k)) {
                    *slot = nc;
                }
                *k += 1;
            }
        }
    }
    Some(fp)
}

/// Each orientation over a small area's cell masks, from its footprints
/// (an orientation that fits nowhere has no origin).
fn shapes_of(fps: &[Footprint], files: u8, orients: usize) -> Vec<Shape> {
    let bit = |c: u8| u32::from(c / 16) * u32::from(files) + u32::from(c % 16);
    let mut shapes = vec![Shape::default(); orients];
    for fp in fps {
        let Some(sh) = shapes.get_mut(usize::from(fp.orient)) else {
            continue;
        };
        let origin = bit(col(fp.x, fp.y) as u8);
        if sh.at == 0 {
            sh.ncols = fp.ncols;
            let cols = fp.cols.iter().take(usize::from(fp.ncols));
            for (slot, &(c, dz, n)) in sh.cols.iter_mut().zip(cols) {
                *slot = ((bit(c).saturating_sub(origin)) as u8, dz, n);
            }
            sh.ncubes = fp.ncubes;
            let cubes = fp.cubes.iter().take(usize::from(fp.ncubes));
            for (slot, &(c, dz)) in sh.cubes.iter_mut().zip(cubes) {
                *slot = ((bit(c).saturating_sub(origin)) as u8, dz);
            }
        }
        sh.at |= 1u64.checked_shl(origin).unwrap_or(0);
    }
    shapes
}

/// How a colour that cannot place at its turn is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    Out,
    Skip,
}

/// A position: heights, cubes, stones used, whose turn.
#[derive(Clone, Debug)]
pub struct Board {
    pub area: Arc<Area>,
    /// Cubes in each column.
    pub heights: [u8; COLUMNS],
    /// Each column's cubes from level 1 up, 7 bits a level: owner + 1 (3
    /// bits, 0 empty) and stone (4 bits); the columns below
    /// [`Area::reach`] only (none past it), so that a board is small to
    /// make and to copy.
    pub stack: Vec<u64>,
    /// Large areas: per cell (`level * 256 + column`), the colours (a bit
    /// each) that a stone filling it would touch face to face: a cube of
    /// that colour beside it at the same level or right under it. Empty for
    /// small areas (which keep [`Board::touching`]), so that the board of
    /// the usual areas is small to make and to copy.
    pub touch: Vec<u8>,
    /// Small areas: the columns `k` high, for k = 0..=9 (none above).
    pub level: [u64; 16],
    /// Small areas: the columns with room for `n + 1` more cubes.
    pub room: [u64; 4],
    /// Small areas: the cells of each level a cube there would touch, per
    /// colour (index 4: any colour).
    pub touching: [[u64; 16]; 5],
    /// Small areas, kept up to date as stones are placed: per `n`, the
    /// levels (a bit each) at which some column may take `n + 1` cubes
    /// (from [`Board::level`] and [`Board::room`]), and per entry of
    /// [`Board::touching`] the levels with a cell to touch.
    pub open: [u32; 4],
    pub felt: [u32; 5],
    /// Stones placed, a bit per stone, per colour.
    pub used: [u16; 4],
    pub colours: u8,
    pub to_move: u8,
    /// Colours out of the game (the `out` rule), a bit each.
    pub out: u8,
    pub stuck: Stuck,
    /// Cubes placed in all.
    pub cubes: u16,
    /// What the searches found since the last placement or pass
    /// ([`Searched`]): searched only when asked, so that a replay whose
    /// recorded moves are legal asks for none (`Position::plays_now`).
    searched: Memo,
}

/// A [`Searched`] a board keeps through `&self`, in atomics so that a
/// board may be shared between threads (two threads asking at once find
/// and store the same answers); relaxed loads and stores are plain moves.
#[derive(Debug, Default)]
struct Memo {
    /// `known`, `can` and `over` (0: not asked, 1: no, 2: yes), a byte each.
    flags: AtomicU32,
    /// The witnesses, 16 bits each.
    witness: AtomicU64,
    /// The placement last judged legal at this position (footprint + 1,
    /// and its level from bit 17 up; 0: none): `plays_now` judges a move,
    /// then `play` finds it judged.
    judged: AtomicU32,
}

impl Memo {
    fn new(s: Searched) -> Memo {
        let m = Memo::default();
        m.set(s);
        m
    }

    #[inline]
    fn get(&self) -> Searched {
        let f = self.flags.load(Ordering::Relaxed);
        let w = self.witness.load(Ordering::Relaxed);
        Searched {
            known: f as u8,
            can: (f >> 8) as u8,
            over: match f >> 16 & 3 {
                0 => None,
                v => Some(v == 2),
            },
            witness: [0, 1, 2, 3].map(|k| (w >> (16 * k)) as u16),
        }
    }

    #[inline]
    fn set(&self, s: Searched) {
        let over = s.over.map_or(0, |o| 1 + u32::from(o));
        let f = u32::from(s.known) | u32::from(s.can) << 8 | over << 16;
        let w = s
            .witness
            .iter()
            .enumerate()
            .fold(0u64, |w, (k, &x)| w | u64::from(x) << (16 * k));
        self.flags.store(f, Ordering::Relaxed);
        self.witness.store(w, Ordering::Relaxed);
    }
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        let m = Memo::new(self.get());
        m.judged
            .store(self.judged.load(Ordering::Relaxed), Ordering::Relaxed);
        m
    }
}

/// A placement's key in [`Memo::judged`].
fn judged_key(f: u16, z: u8) -> u32 {
    (u32::from(f) + 1) | u32::from(z) << 17
}

/// What a board knows of its colours' moves since the last placement or
/// pass, found by the searches [`Board::has_move`] and [`Board::is_over`]
/// make when asked (a board answers through `&self`).
#[derive(Clone, Copy, Debug)]
struct Searched {
    /// The colours searched (a bit each), and those found able to place.
    known: u8,
    can: u8,
    /// Whether the game is over, once asked (or once no colour is left).
    over: Option<bool>,
    /// Per colour, the footprint of a placement last found legal (or
    /// [`NONE`]): tried first by the next search, it often still is. Kept
    /// across placements.
    witness: [u16; 4],
}

const ALL: u16 = (1 << STONES) - 1;

impl Board {
    /// The empty area, `colours` colours, blue to move.
    pub fn new(area: Arc<Area>, colours: u8, stuck: Stuck) -> Board {
        let stack = vec![0; area.reach];
        let mut b = Board {
            area,
            heights: [0; COLUMNS],
            stack,
            touch: Vec::new(),
            level: [0; 16],
            room: [0; 4],
            touching: [[0; 16]; 5],
            open: [0; 4],
            felt: [0; 5],
            used: [0; 4],
            colours,
            to_move: 0,
            out: 0,
            stuck,
            cubes: 0,
            searched: Memo::new(Searched {
                known: 0,
                can: 0,
                over: None,
                witness: [NONE; 4],
            }),
        };
        if b.area.shapes.is_empty() {
            b.touch = vec![0; COLUMNS * MAX_LEVEL as usize];
        } else {
            (b.level[0], b.room) = b.area.start;
            b.open = open_levels(&b.level, &b.room);
        }
        b
    }

    /// Calls `visit` with each orientation of each unplaced stone of colour
    /// `c` (its index and shape) and the origins at which a small area takes
    /// it, while `visit` returns `true`; whether it stopped early. Each
    /// orientation is tested at every origin at once, per base level.
    #[inline]
    fn scan(&self, c: u8, used: u16, visit: &mut impl FnMut(u16, &Shape, u64) -> bool) -> bool {
        let area = &*self.area;
        let first = self.first_own(c);
        let empty = self.cubes == 0;
        let no = [0u64; 16];
        let t = if first { 4 } else { usize::from(c) };
        let touch = self.touching.get(t).unwrap_or(&no);
        let open = &self.open;
        let felt = if empty {
            u32::MAX
        } else {
            self.felt.get(t).copied().unwrap_or(0)
        };
        for (s, &(from, to)) in area.orients.iter().enumerate() {
            if used >> s & 1 == 1 {
                continue;
            }
            let shapes = area
                .shapes
                .get(usize::from(from)..usize::from(to))
                .unwrap_or(&[]);
            for (k, sh) in shapes.iter().enumerate() {
                let all = self.shape_origins(sh, open, felt, touch, first && !empty);
                if all != 0 && !visit(from + k as u16, sh, all) {
                    return true;
                }
            }
        }
        false
    }

    /// The origins at which shape `sh` rests within the limits and touches
    /// a cell of `touch` (any, when the area is empty: `felt` all ones);
    /// `open` (the levels at which some column has room for n + 1 cubes)
    /// and `felt` the levels worth trying; `base` for a first stone after
    /// the game's first (on the base only).
    #[inline]
    fn shape_origins(
        &self,
        sh: &Shape,
        open: &[u32; 4],
        felt: u32,
        touch: &[u64; 16],
        base: bool,
    ) -> u64 {
        let cols = sh.cols.get(..usize::from(sh.ncols)).unwrap_or(&[]);
        let cubes = sh.cubes.get(..usize::from(sh.ncubes)).unwrap_or(&[]);
        // base levels at which every column's lowest cube could rest and
        // some cube could touch
        let mut zs = cols.iter().fold(u32::MAX, |m, &(_, dz, n)| {
            m & open[usize::from(n).wrapping_sub(1) & 3] >> dz
        });
        zs &= cubes.iter().fold(0, |m, &(_, dz)| m | felt >> dz);
        if base {
            zs &= 1;
        }
        let mut all = 0u64;
        while zs != 0 {
            let z0 = zs.trailing_zeros() as usize;
            zs &= zs - 1;
            let mut a = sh.at;
            for &(p, dz, n) in cols {
                let z = z0 + usize::from(dz);
                let m = self.level[z & 15] & self.room[usize::from(n).wrapping_sub(1) & 3];
                a &= m >> p;
                if a == 0 {
                    break;
                }
            }
            if a == 0 {
                continue;
            }
            if felt != u32::MAX {
                let t = cubes.iter().fold(0, |t, &(p, dz)| {
                    t | touch[(z0 + usize::from(dz)) & 15] >> p
                });
                a &= t;
            }
            all |= a;
        }
        all
    }

    /// Calls `f` with the footprint and base level of orientation `oi` at
    /// each origin of `all`, in the footprints' order; whether it stopped.
    #[inline]
    fn each_origin(&self, oi: u16, sh: &Shape, mut all: u64, f: &mut impl FnMut(u16, u8) -> bool) -> bool {
        let area = &*self.area;
        let (p0, dz0) = sh.cols.first().map_or((0, 0), |&(p, dz, _)| (p, dz));
        while all != 0 {
            let o = all.trailing_zeros() as usize;
            all &= all - 1;
            let origin = usize::from(area.col_of.get(o).copied().unwrap_or(0));
            let c0 = usize::from(area.col_of.get(o + usize::from(p0)).copied().unwrap_or(0));
            let z0 = self.heights.get(c0).copied().unwrap_or(0).saturating_sub(dz0);
            let i = area
                .at
                .get(usize::from(oi) * COLUMNS + origin)
                .copied()
                .unwrap_or(NONE);
            if i != NONE && !f(i, z0) {
                return true;
            }
        }
        false
    }

    /// The owner of the cube at column `c`, level `z` (from 0), if any.
    #[inline]
    pub fn owner(&self, c: usize, z: u8) -> Option<u8> {
        let h = self.heights.get(c).copied().unwrap_or(0);
        if z >= h {
            return None;
        }
        let v = self.stack.get(c).copied().unwrap_or(0) >> (7 * u32::from(z)) & 7;
        (v > 0).then(|| v as u8 - 1)
    }

    /// The stone of the cube at column `c`, level `z`.
    pub fn stone_at(&self, c: usize, z: u8) -> u8 {
        (self.stack.get(c).copied().unwrap_or(0) >> (7 * u32::from(z) + 3) & 15) as u8
    }

    /// Whether colour `c` has placed nothing yet.
    pub fn first_own(&self, c: u8) -> bool {
        self.used.get(usize::from(c)).copied().unwrap_or(0) == 0
    }

    /// Whether colour `c` has placed all its stones.
    pub fn done(&self, c: u8) -> bool {
        self.used.get(usize::from(c)).copied().unwrap_or(0) == ALL
    }

    fn active(&self, c: u8) -> bool {
        self.out >> c & 1 == 0 && !self.done(c)
    }

    /// The base level of footprint `fp` lowered onto this position, if every
    /// column it uses lets it rest there within its limit.
    #[inline]
    pub fn level_of(&self, fp: &Footprint) -> Option<u8> {
        let mut z0 = None;
        for &(c, dz, n) in fp.cols.iter().take(usize::from(fp.ncols)) {
            let c = usize::from(c);
            let h = self.heights.get(c).copied().unwrap_or(u8::MAX);
            if h < dz || h + n > self.area.limit.get(c).copied().unwrap_or(0) {
                return None;
            }
            let z = h - dz;
            match z0 {
                None => z0 = Some(z),
                Some(v) if v != z => return None,
                _ => {}
            }
        }
        z0
    }

    /// Whether footprint `fp`, resting at `z0`, meets the contact rules for
    /// colour `c`.
    #[inline]
    pub fn contact(&self, fp: &Footprint, z0: u8, c: u8) -> bool {
        if self.cubes == 0 {
            return true;
        }
        let first = self.first_own(c);
        if first && z0 != 0 {
            return false;
        }
        if !self.area.shapes.is_empty() {
            let touch = &self.touching[if first { 4 } else { usize::from(c) & 3 }];
            let cubes = fp.cubes.iter().zip(&fp.bits).take(usize::from(fp.ncubes));
            return cubes
                .into_iter()
                .any(|(&(_, dz), &bit)| touch[usize::from(z0 + dz) & 15] & bit != 0);
        }
        let mask = if first { 0xF } else { 1u8 << c };
        fp.cubes
            .iter()
            .take(usize::from(fp.ncubes))
            .any(|&(col, dz)| {
                let cell = usize::from(z0 + dz) * COLUMNS + usize::from(col);
                self.touch.get(cell).is_some_and(|&t| t & mask != 0)
            })
    }

    /// The base level if footprint `fp` is a legal placement for colour `c`
    /// (stone unused, resting within the limits, contact rules met).
    #[inline]
    pub fn legal(&self, fp: &Footprint, c: u8) -> Option<u8> {
        if self.used.get(usize::from(c)).copied().unwrap_or(ALL) >> fp.stone & 1 == 1 {
            return None;
        }
        let z0 = self.level_of(fp)?;
        self.contact(fp, z0, c).then_some(z0)
    }

    /// Calls `f` with each legal placement of colour `c` (footprint index,
    /// base level) until it returns `false`; whether it stopped early.
    pub fn each_move(&self, c: u8, mut f: impl FnMut(u16, u8) -> bool) -> bool {
        let used = self.used.get(usize::from(c)).copied().unwrap_or(ALL);
        let area = &*self.area;
        if !area.shapes.is_empty() {
            return self.scan(c, used, &mut |oi, sh, all| {
                !self.each_origin(oi, sh, all, &mut f)
            });
        }
        for (s, &(from, to)) in area.by_stone.iter().enumerate() {
            if used >> s & 1 == 1 {
                continue;
            }
            for i in from..to {
                let Some(fp) = area.fps.get(usize::from(i)) else {
                    continue;
                };
                if let Some(z0) = self.level_of(fp)
                    && self.contact(fp, z0, c)
                    && !f(i, z0)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether colour `c` can place a stone (known since the last
    /// placement, or searched up to the first, and then known).
    pub fn has_move(&self, c: u8) -> bool {
        let mut s = self.searched.get();
        if s.known >> c & 1 == 1 {
            return s.can >> c & 1 == 1;
        }
        let found = self.find_move(c, &s.witness);
        if let (Some(i), Some(w)) = (found, s.witness.get_mut(usize::from(c))) {
            *w = i;
        }
        s.known |= 1 << c;
        s.can |= u8::from(found.is_some()) << c;
        self.searched.set(s);
        found.is_some()
    }

    /// Whether the game is over: no colour still in the game can place a
    /// stone (searched when first asked after a placement or pass).
    pub fn is_over(&self) -> bool {
        if let Some(over) = self.searched.get().over {
            return over;
        }
        let over = !self.any_move();
        let mut s = self.searched.get();
        s.over = Some(over);
        self.searched.set(s);
        over
    }

    /// A legal placement of colour `c` (its footprint): its witness if
    /// still legal, else the first found.
    fn find_move(&self, c: u8, witness: &[u16; 4]) -> Option<u16> {
        let w = witness.get(usize::from(c)).copied().unwrap_or(NONE);
        if let Some(fp) = self.area.fps.get(usize::from(w))
            && self.legal(fp, c).is_some()
        {
            return Some(w);
        }
        let mut found = None;
        self.each_move(c, |i, _| {
            found = Some(i);
            false
        });
        found
    }

    /// The number of legal placements of colour `c`.
    pub fn count_moves(&self, c: u8) -> u64 {
        let mut n = 0;
        if !self.area.shapes.is_empty() {
            let used = self.used.get(usize::from(c)).copied().unwrap_or(ALL);
            self.scan(c, used, &mut |_, _, all| {
                n += u64::from(all.count_ones());
                true
            });
            return n;
        }
        self.each_move(c, |_, _| {
            n += 1;
            true
        });
        n
    }

    /// Whether any colour still in the game can place a stone, from the
    /// colour to move on; what it finds of each colour is kept.
    fn any_move(&self) -> bool {
        (0..self.colours).any(|k| {
            let c = (self.to_move + k) % self.colours.max(1);
            self.active(c) && self.has_move(c)
        })
    }

    /// Places footprint `i` at level `z0` for the colour to move (judged
    /// legal by the caller) and passes the turn on.
    pub fn place(&mut self, i: u16, z0: u8) {
        let c = self.to_move;
        let Some(fp) = self.area.fps.get(usize::from(i)) else {
            return;
        };
        let stone = fp.stone;
        for &(col, dz) in fp.cubes.iter().take(usize::from(fp.ncubes)) {
            let z = z0 + dz;
            if let Some(s) = self.stack.get_mut(usize::from(col)) {
                *s |= (u64::from(c + 1) | u64::from(stone) << 3) << (7 * u32::from(z));
            }
        }
        let small = !self.area.shapes.is_empty();
        if small {
            touch_masks(&mut self.touching, &mut self.felt, fp, z0, c);
        } else {
            touch_cells(&mut self.touch, fp, z0, c);
        }
        // the levels a column left or reached: the only ones whose open
        // bits change
        let mut moved = 0u32;
        for &(col, _, n) in fp.cols.iter().take(usize::from(fp.ncols)) {
            let c = usize::from(col);
            if let Some(h) = self.heights.get_mut(c) {
                let old = *h;
                *h += n;
                moved |= (1 << (old & 15)) | (1 << (*h & 15));
                if small {
                    let bit = self.area.bit(c);
                    let new = *h;
                    if let Some(m) = self.level.get_mut(usize::from(old)) {
                        *m &= !bit;
                    }
                    if let Some(m) = self.level.get_mut(usize::from(new)) {
                        *m |= bit;
                    }
                    let l = self.area.limit.get(c).copied().unwrap_or(0);
                    for (k, r) in self.room.iter_mut().enumerate() {
                        if usize::from(new) + k + 1 > usize::from(l) {
                            *r &= !bit;
                        }
                    }
                }
            }
        }
        self.cubes += u16::from(fp.ncubes);
        if small {
            self.open_at(moved & 0x3FF);
        }
        if let Some(u) = self.used.get_mut(usize::from(c)) {
            *u |= 1 << stone;
        }
        self.advance();
    }

    /// Small areas: [`Board::open`] worked out again at the levels of
    /// `levels` (a bit each).
    #[inline]
    fn open_at(&mut self, mut levels: u32) {
        while levels != 0 {
            let z = levels.trailing_zeros();
            levels &= levels - 1;
            let l = self.level.get(z as usize).copied().unwrap_or(0);
            for (o, &r) in self.open.iter_mut().zip(&self.room) {
                *o = (*o & !(1 << z)) | (u32::from(l & r != 0) << z);
            }
        }
    }

    /// The colour to move cannot place: it goes out or is skipped.
    pub fn pass(&mut self) {
        if self.stuck == Stuck::Out {
            self.out |= 1 << self.to_move;
        }
        self.advance();
    }

    /// The turn passes to the next colour still in the game; what the
    /// searches knew is forgotten (but the witnesses).
    fn advance(&mut self) {
        self.searched.judged.store(0, Ordering::Relaxed);
        let mut s = self.searched.get();
        (s.known, s.can, s.over) = (0, 0, Some(true));
        let n = self.colours.max(1);
        for k in 1..=n {
            let c = (self.to_move + k) % n;
            if self.active(c) {
                self.to_move = c;
                s.over = None;
                break;
            }
        }
        self.searched.set(s);
    }

    /// The colour of the top cube of file `x`, rank `y` and the height.
    pub fn top(&self, x: u8, y: u8) -> (Option<u8>, u8) {
        let c = col(x, y);
        let h = self.heights.get(c).copied().unwrap_or(0);
        (h.checked_sub(1).and_then(|z| self.owner(c, z)), h)
    }

    /// Columns whose top cube is colour `c`.
    pub fn visible(&self, c: u8) -> u32 {
        self.visible_all()
            .get(usize::from(c))
            .copied()
            .unwrap_or(0)
    }

    /// Per colour, the columns whose top cube is that colour (one pass).
    pub fn visible_all(&self) -> [u32; 4] {
        let mut n = [0u32; 4];
        for y in 0..self.area.ranks {
            for x in 0..self.area.files {
                if let (Some(c), _) = self.top(x, y)
                    && let Some(v) = n.get_mut(usize::from(c))
                {
                    *v += 1;
                }
            }
        }
        n
    }

    /// Stones colour `c` has not placed.
    pub fn unplaced(&self, c: u8) -> u32 {
        STONES as u32
            - self
                .used
                .get(usize::from(c))
                .copied()
                .unwrap_or(0)
                .count_ones()
    }

    /// Whether every column is at its limit.
    pub fn filled(&self) -> bool {
        self.area
            .limit
            .iter()
            .zip(self.heights.iter())
            .all(|(&l, &h)| h >= l)
    }
}

/// Small areas: the levels (a bit each, levels 0 to 9) at which some
/// column may take `n + 1` cubes, for n = 0..4: [`Board::open`].
#[inline]
fn open_levels(level: &[u64; 16], room: &[u64; 4]) -> [u32; 4] {
    let mut open = [0u32; 4];
    for (z, &l) in level.iter().enumerate().take(10) {
        for (o, &r) in open.iter_mut().zip(room) {
            *o |= u32::from(l & r != 0) << z;
        }
    }
    open
}

/// Small areas: the cells the cubes of footprint `fp` at level `z0`
/// (colour `c`) make touch `c`: above each cube and beside it; `felt`
/// (the levels of [`Board::touching`] with a cell) kept with them.
#[inline]
fn touch_masks(touching: &mut [[u64; 16]; 5], felt: &mut [u32; 5], fp: &Footprint, z0: u8, c: u8) {
    let cubes = fp.cubes.iter().zip(fp.bits.iter().zip(&fp.nbits));
    for (&(_, dz), (&bit, &nbits)) in cubes.take(usize::from(fp.ncubes)) {
        let z = usize::from(z0 + dz) & 15;
        let up = (z + 1) & 15;
        // levels past 9 are never searched (no limit is above 9)
        let levels = ((u32::from(bit != 0) << up) | (u32::from(nbits != 0) << z)) & 0x3FF;
        for i in [usize::from(c) & 3, 4] {
            if let Some(t) = touching.get_mut(i) {
                t[up] |= bit;
                t[z] |= nbits;
            }
            if let Some(f) = felt.get_mut(i) {
                *f |= levels;
            }
        }
    }
}

/// Large areas: [`touch_masks`] in the cells' colour bits.
fn touch_cells(touch: &mut [u8], fp: &Footprint, z0: u8, c: u8) {
    let bit = 1u8 << c;
    for (k, &(col, dz)) in fp.cubes.iter().take(usize::from(fp.ncubes)).enumerate() {
        let level = usize::from(z0 + dz) * COLUMNS;
        if let Some(t) = touch.get_mut(level + COLUMNS + usize::from(col)) {
            *t |= bit;
        }
        let (Some(list), Some(&n)) = (fp.nb.get(k), fp.nbn.get(k)) else {
            continue;
        };
        for &nc in list.iter().take(usize::from(n)) {
            if let Some(t) = touch.get_mut(level + usize::from(nc)) {
                *t |= bit;
            }
        }
    }
}

/// Leaves of the placement tree to `depth` (a stuck colour's turn is no ply).
pub fn perft(b: &Board, depth: u32) -> u64 {
    if depth == 0 || b.is_over() {
        return 1;
    }
    let c = b.to_move;
    if depth == 1 {
        let n = b.count_moves(c);
        if n > 0 {
            return n;
        }
    }
    let mut total = 0;
    let mut any = false;
    b.each_move(c, |i, z0| {
        any = true;
        let mut next = b.clone();
        next.place(i, z0);
        total += perft(&next, depth - 1);
        true
    });
    if !any {
        let mut next = b.clone();
        next.pass();
        return perft(&next, depth);
    }
    total
}

/// A cube of a placement: file, rank and level from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Cube {
    pub x: u8,
    pub y: u8,
    pub z: u8,
}

/// A stone placed: its orientation, the offset of the orientation's origin
/// (smallest file, rank and level), and its cubes (in the order written,
/// which a refusal follows to name the first cube at fault).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub orient: u16,
    pub stone: u8,
    pub x: u8,
    pub y: u8,
    pub z: u8,
    pub cubes: [Cube; 4],
    pub n: u8,
}

impl Place {
    /// The cubes.
    pub fn cubes(&self) -> &[Cube] {
        self.cubes.get(..usize::from(self.n)).unwrap_or(&[])
    }

    /// Orientation `orient` with its origin at (`x`, `y`, `z`), its cubes in
    /// the orientation's order; `None` for an orientation that is none.
    pub fn at(orient: u16, x: u8, y: u8, z: u8) -> Option<Place> {
        let o = pieces::orientations().get(usize::from(orient))?;
        let mut cubes = [Cube::default(); 4];
        for (slot, &(dx, dy, dz)) in cubes.iter_mut().zip(o.cubes.iter()) {
            *slot = Cube {
                x: x + dx,
                y: y + dy,
                z: z + dz,
            };
        }
        Some(Place {
            orient,
            stone: o.stone,
            x,
            y,
            z,
            cubes,
            n: o.cubes.len().min(4) as u8,
        })
    }
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Place(Place),
}

/// Why a move is refused. `cube` is the index of the cube at fault in
/// [`Place::cubes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A pass while the colour to move can place a stone.
    Pass,
    /// The colour to move has placed this stone already.
    PieceUsed { stone: u8 },
    /// The cube is in no column of the area.
    NotACell { cube: u8 },
    /// A cube is there already (its colour's, when known).
    Occupied { cube: u8, owner: Option<u8> },
    /// There is empty space under the cube: its column is `height` high.
    Unsupported { cube: u8, height: u8 },
    /// The cube is above its column's `limit`.
    TooHigh { cube: u8, limit: u8 },
    /// The colour's first stone has no cube at level 1.
    FirstOffBase,
    /// The colour's first stone touches no stone already placed.
    FirstNoContact,
    /// The stone touches no face of its colour's stones.
    NoContact,
}

/// Colour names in turn order.
pub const COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];
/// The seats of the two-colours variant.
pub const TWO: [&str; 2] = ["player1", "player2"];

/// A game in progress: the position, through [`game::Position`].
#[derive(Clone, Debug)]
pub struct State {
    pub board: Board,
    /// Players: 1 to 4 (2 with two-colours).
    pub players: u8,
    pub two_colours: bool,
}

impl State {
    /// The name of colour `c`.
    pub fn colour(&self, c: u8) -> &'static str {
        COLOURS.get(usize::from(c)).copied().unwrap_or("?")
    }

    /// The score of colour `c`: visible columns minus unplaced stones.
    pub fn colour_score(&self, c: u8) -> i64 {
        i64::from(self.board.visible(c)) - i64::from(self.board.unplaced(c))
    }

    /// Why placement `p`, which is not among the legal ones, is refused:
    /// the checks in the order of the rules docs.
    fn judge(&self, p: &Place) -> Illegal {
        let b = &self.board;
        if b.used.get(usize::from(b.to_move)).copied().unwrap_or(0) >> p.stone & 1 == 1 {
            return Illegal::PieceUsed { stone: p.stone };
        }
        self.judge_cubes(p.cubes())
            .unwrap_or_else(|| self.judge_contact(p))
    }

    /// The first cube outside the area, then the first occupied,
    /// unsupported and too high one.
    fn judge_cubes(&self, cubes: &[Cube]) -> Option<Illegal> {
        let b = &self.board;
        let area = &*b.area;
        let index = |i: usize| i.min(3) as u8;
        let find = |bad: &dyn Fn(&Cube) -> bool| cubes.iter().position(bad);
        if let Some(i) = find(&|x| area.limit_at(x.x, x.y) == 0) {
            return Some(Illegal::NotACell { cube: index(i) });
        }
        let height = |x: &Cube| b.heights.get(col(x.x, x.y)).copied().unwrap_or(0);
        if let Some(i) = find(&|x| x.z < height(x)) {
            let x = cubes.get(i)?;
            let owner = b.owner(col(x.x, x.y), x.z);
            return Some(Illegal::Occupied {
                cube: index(i),
                owner,
            });
        }
        let held = |x: &Cube| cubes.iter().any(|o| (o.x, o.y, o.z + 1) == (x.x, x.y, x.z));
        if let Some(i) = find(&|x| x.z > height(x) && !held(x)) {
            let height = cubes.get(i).map_or(0, height);
            return Some(Illegal::Unsupported {
                cube: index(i),
                height,
            });
        }
        let limit = |x: &Cube| area.limit_at(x.x, x.y);
        let i = find(&|x| x.z >= limit(x))?;
        let limit = cubes.get(i).map_or(0, limit);
        Some(Illegal::TooHigh {
            cube: index(i),
            limit,
        })
    }

    /// A placement that rests within the limits but breaks a contact rule.
    fn judge_contact(&self, p: &Place) -> Illegal {
        if !self.board.first_own(self.board.to_move) {
            Illegal::NoContact
        } else if p.z != 0 {
            Illegal::FirstOffBase
        } else {
            Illegal::FirstNoContact
        }
    }

    /// The footprint index of placement `p` when it is legal for the
    /// colour to move.
    #[inline]
    fn legal_footprint(&self, p: &Place) -> Option<u16> {
        let b = &self.board;
        if p.x >= 16 || p.y >= 16 {
            return None;
        }
        let i = usize::from(p.orient) * COLUMNS + col(p.x, p.y);
        let f = b.area.at.get(i).copied()?;
        let key = judged_key(f, p.z);
        if b.searched.judged.load(Ordering::Relaxed) == key {
            return Some(f);
        }
        let fp = b.area.fps.get(usize::from(f))?;
        let legal = b.legal(fp, b.to_move) == Some(p.z);
        if legal {
            b.searched.judged.store(key, Ordering::Relaxed);
        }
        legal.then_some(f)
    }
}

impl Board {
    /// The stones of colour `c` nearest to `cubes` (by the distance between
    /// cubes), each named once, in the order met (rank, file, level).
    pub fn nearest_stones(&self, cubes: &[Cube], c: u8) -> Vec<u8> {
        let area = &*self.area;
        let mut best: Option<(u32, Vec<u8>)> = None;
        for y in 0..area.ranks {
            for x in 0..area.files {
                let k = col(x, y);
                for z in 0..self.heights.get(k).copied().unwrap_or(0) {
                    if self.owner(k, z) != Some(c) {
                        continue;
                    }
                    let d = cubes
                        .iter()
                        .map(|m| {
                            u32::from(m.x.abs_diff(x))
                                + u32::from(m.y.abs_diff(y))
                                + u32::from(m.z.abs_diff(z))
                        })
                        .min()
                        .unwrap_or(u32::MAX);
                    let s = self.stone_at(k, z);
                    match &mut best {
                        Some((bd, list)) if *bd == d => {
                            if !list.contains(&s) {
                                list.push(s);
                            }
                        }
                        Some((bd, _)) if *bd < d => {}
                        _ => best = Some((d, vec![s])),
                    }
                }
            }
        }
        best.map_or_else(Vec::new, |(_, list)| list)
    }
}

impl game::Position for State {
    type Move = Move;
    type Illegal = Illegal;
    const SCORES_MOVES: bool = true;

    fn variant(&self) -> &'static str {
        if self.two_colours {
            "two-colours"
        } else {
            "standard"
        }
    }

    fn seats(&self) -> &'static [&'static str] {
        if self.two_colours {
            &TWO
        } else {
            COLOURS.get(..usize::from(self.players)).unwrap_or(&COLOURS)
        }
    }

    fn to_move(&self) -> &'static str {
        self.colour(self.board.to_move)
    }

    fn is_over(&self) -> bool {
        self.board.is_over()
    }

    fn must_pass(&self) -> bool {
        !self.board.has_move(self.board.to_move)
    }

    /// A placement legal for a colour still in the game: the replay of a
    /// record of legal moves then searches for nothing.
    #[inline]
    fn plays_now(&self, mv: &Move) -> bool {
        match mv {
            Move::Place(p) => {
                self.board.active(self.board.to_move) && self.legal_footprint(p).is_some()
            }
            Move::Pass => false,
        }
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(&mut self, mv: &Move) -> Result<(), Illegal> {
        let p = match mv {
            Move::Pass if self.board.has_move(self.board.to_move) => return Err(Illegal::Pass),
            Move::Pass => {
                self.board.pass();
                return Ok(());
            }
            Move::Place(p) => p,
        };
        match self.legal_footprint(p) {
            Some(f) => {
                self.board.place(f, p.z);
                Ok(())
            }
            None => Err(self.judge(p)),
        }
    }

    fn scores_into(&self, out: &mut Vec<i64>) {
        out.clear();
        let visible = self.board.visible_all();
        let s = |c: u8| {
            let v = visible.get(usize::from(c)).copied().unwrap_or(0);
            i64::from(v) - i64::from(self.board.unplaced(c))
        };
        if self.two_colours {
            out.extend([s(0).max(s(2)), s(1).max(s(3))]);
        } else {
            out.extend((0..self.board.colours).map(s));
        }
    }

    /// Each placement with what it earns its colour: the change in that
    /// colour's score: the columns it brings on top that did not show the
    /// colour, plus 1 for the stone no longer unplaced.
    fn scored_moves(&self) -> Result<Vec<(Move, i64)>, Unlisted> {
        let b = &self.board;
        let c = b.to_move;
        let before = self.colour_score(c);
        let mut out = Vec::new();
        b.each_move(c, |i, z| {
            if let Some(fp) = b.area.fps.get(usize::from(i))
                && let Some(p) = Place::at(fp.orient, fp.x, fp.y, z)
            {
                let mut after = self.clone();
                after.board.place(i, z);
                out.push((Move::Place(p), after.colour_score(c) - before));
            }
            true
        });
        Ok(out)
    }

    /// The placements in the engine's order (stone, orientation, offset).
    fn legal_moves(&self) -> Result<impl Iterator<Item = Move> + '_, Unlisted> {
        let b = &self.board;
        let mut out = Vec::new();
        b.each_move(b.to_move, |i, z| {
            if let Some(fp) = b.area.fps.get(usize::from(i))
                && let Some(p) = Place::at(fp.orient, fp.x, fp.y, z)
            {
                out.push(Move::Place(p));
            }
            true
        });
        Ok(out.into_iter())
    }
}
