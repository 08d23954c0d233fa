//! The Deblockle rule engine.
//!
//! The 7x7 board is a bitboard: bit `7 * row + column` (`a1` = 0, `g7` = 48),
//! one `u64` of occupied squares per side, and the orientation index of the
//! block on each square. Neighbours, cross and x hop squares and slide lines
//! come from precomputed tables; the squares a hoops hop reaches are three
//! shifts of a bit set (no path enumeration); every turn is generated without
//! allocation through a callback.
//!
//! Two questions are asked every ply and answered without generating turns.
//! Whether a side can move ([`Position::can_move`]) is nearly always settled
//! by a tip that brings stop or cross up onto an open square: per side and
//! direction, a mask of the blocks whose tip that way does so
//! ([`Position::easy_blocks`]; a game's `State` keeps them up to date, only
//! the moving block's bits change), tested against the open squares with
//! four shifts ([`easy_tip_open`]); otherwise [`Position::tip`] per block and
//! direction, a tip's final squares as one bit set. Whether a written turn is
//! legal ([`quick_judge`]) is checked on that turn alone: its tip, then its
//! written final square against the hop's mask, the slide's end or the
//! hoops reach, every face's test made and the top face's taken (the face
//! is as good as random from turn to turn: a branch on it is mispredicted
//! most of the time). Tests check both against the generator and the long judge,
//! and the kept masks against the blocks along played games.
//!
//! The engine never reads or writes text. Its moves are typed and carry no
//! spans ([`Move`], [`Turn`]: squares as columns and rows, possibly off the
//! board); [`judge`] takes a [`Turn`] and returns either the turn as the
//! generator would produce it or the first rule it breaks, an [`Illegal`]
//! carrying the squares, faces and directions that rule found (the long
//! judge, [`judge_long`], one function per rule in the rules' order).
//! [`State`] is the game's [`game::Position`]: it judges a move before it
//! changes anything, so a refused move leaves it as it was.

use super::cube::{Dir, Face, Orient};
use crate::game::{self, Unlisted};

pub const GOLD: usize = 0;
pub const BLUE: usize = 1;
pub const SIDES: [&str; 2] = ["gold", "blue"];

/// Squares on the board.
pub const BOARD: u64 = (1 << 49) - 1;
/// Gold's home star `d2`.
pub const GOLD_STAR: u8 = 7 + 3;
/// Blue's home star `d6`.
pub const BLUE_STAR: u8 = 5 * 7 + 3;
pub const STARS: u64 = (1 << GOLD_STAR) | (1 << BLUE_STAR);

/// Column `a`: bits 0, 7, ..., 42.
const COL_A: u64 = 0x0408_1020_4081;
const COL_G: u64 = COL_A << 6;

/// The star a side scores on: the opponent's home star.
pub const fn target(side: usize) -> u8 {
    if side == GOLD { BLUE_STAR } else { GOLD_STAR }
}

/// No square.
const NONE: u8 = 255;

const fn build_neigh() -> [[u8; 4]; 49] {
    let mut t = [[NONE; 4]; 49];
    let mut sq = 0;
    while sq < 49 {
        let (c, r) = ((sq % 7) as i8, (sq / 7) as i8);
        let deltas = [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)];
        let mut d = 0;
        while d < 4 {
            let (nc, nr) = (c + deltas[d].0, r + deltas[d].1);
            if nc >= 0 && nc < 7 && nr >= 0 && nr < 7 {
                t[sq][d] = (nr * 7 + nc) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn build_diag() -> [[u8; 4]; 49] {
    let mut t = [[NONE; 4]; 49];
    let mut sq = 0;
    while sq < 49 {
        let (c, r) = ((sq % 7) as i8, (sq / 7) as i8);
        let deltas = [(1i8, 1i8), (1, -1), (-1, -1), (-1, 1)];
        let mut d = 0;
        while d < 4 {
            let (nc, nr) = (c + deltas[d].0, r + deltas[d].1);
            if nc >= 0 && nc < 7 && nr >= 0 && nr < 7 {
                t[sq][d] = (nr * 7 + nc) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The neighbours of each square in a neighbour table, as a bit set (64
/// rows, the last 15 empty, so that a square masked with 63 picks its row
/// without a bounds check).
const fn build_masks(t: &[[u8; 4]; 49]) -> [u64; 64] {
    let mut m = [0u64; 64];
    let mut sq = 0;
    while sq < 49 {
        let mut d = 0;
        while d < 4 {
            if t[sq][d] != NONE {
                m[sq] |= 1u64 << t[sq][d];
            }
            d += 1;
        }
        sq += 1;
    }
    m
}

/// Orthogonal neighbours by [`Dir`] (`NONE` off the board).
static NEIGH: [[u8; 4]; 49] = build_neigh();
/// Diagonal neighbours (NE, SE, SW, NW).
static DIAG: [[u8; 4]; 49] = build_diag();
/// The squares beyond each square toward each [`Dir`], to the edge.
const fn build_rays() -> [[u64; 64]; 4] {
    let mut t = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 49 {
            let mut at = NEIGH[sq][d];
            while at != NONE {
                t[d][sq] |= 1u64 << at;
                at = NEIGH[at as usize][d];
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// The squares beyond a square toward each [`Dir`] (a slide's lines; 64
/// rows per direction, the last 15 empty, so that a square masked with 63
/// picks its row without a bounds check).
static RAYS: [[u64; 64]; 4] = build_rays();
/// Orthogonal neighbours as a bit set (a cross hop's squares).
static CROSS_MASK: [u64; 64] = build_masks(&NEIGH);
/// Diagonal neighbours as a bit set (an x hop's squares).
static X_MASK: [u64; 64] = build_masks(&DIAG);

#[inline(always)]
fn bit(sq: u8) -> u64 {
    1u64 << (sq & 63)
}

#[inline(always)]
fn neigh(sq: u8, d: usize) -> u8 {
    NEIGH
        .get(usize::from(sq))
        .and_then(|n| n.get(d))
        .copied()
        .unwrap_or(NONE)
}

#[inline(always)]
fn mask(table: &[u64; 64], sq: u8) -> u64 {
    table[usize::from(sq & 63)]
}

#[inline(always)]
fn diag(sq: u8, d: usize) -> u8 {
    DIAG.get(usize::from(sq))
        .and_then(|n| n.get(d))
        .copied()
        .unwrap_or(NONE)
}

/// The squares orthogonally next to any square of `m`.
#[inline(always)]
pub fn around(m: u64) -> u64 {
    (((m << 1) & !COL_A) | ((m >> 1) & !COL_G) | (m << 7) | (m >> 7)) & BOARD
}

/// Board size.
pub const SIZE: i8 = 7;

/// A square as a move names it: column and row, 0-based, possibly off the
/// 7x7 board (`h1`, `d0`), so that the engine can say that a tip or a hop
/// leaves the board. Two bytes, aligned as one `u16`, so a move is built and
/// copied in whole words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(2))]
pub struct Sq {
    /// 0 for `a`.
    pub col: i8,
    /// 0 for row `1` (-1 for row `0`).
    pub row: i8,
}

impl Sq {
    /// The square of a board index.
    pub const fn of(sq: u8) -> Sq {
        Sq {
            col: (sq % 7) as i8,
            row: (sq / 7) as i8,
        }
    }

    /// The board index `7 * row + col`, when on the board.
    #[inline]
    pub fn index(self) -> Option<u8> {
        if (0..SIZE).contains(&self.col) && (0..SIZE).contains(&self.row) {
            u8::try_from(self.row * SIZE + self.col).ok()
        } else {
            None
        }
    }
}

/// The hop part of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// No hop (stop, a scoring tip, or a missing hop).
    None,
    /// The final square.
    Dest(Sq),
    /// A hoops path of three steps, the last the final square.
    Path([Sq; 3]),
}

/// A turn: the tip (`from`, `to`) and the hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub from: Sq,
    pub to: Sq,
    pub hop: Hop,
}

impl Turn {
    /// The direction of the tip, when `to` is an orthogonal neighbour of
    /// `from` (on the board or not).
    pub fn dir(&self) -> Option<Dir> {
        let dc = i16::from(self.to.col) - i16::from(self.from.col);
        let dr = i16::from(self.to.row) - i16::from(self.from.row);
        match (dc, dr) {
            (0, 1) => Some(Dir::North),
            (1, 0) => Some(Dir::East),
            (0, -1) => Some(Dir::South),
            (-1, 0) => Some(Dir::West),
            _ => None,
        }
    }

    /// The final square as written: the hop's last square, or the tip's.
    pub fn end(&self) -> Sq {
        match self.hop {
            Hop::None => self.to,
            Hop::Dest(d) | Hop::Path([_, _, d]) => d,
        }
    }
}

/// A typed Deblockle move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Turn(Turn),
    Pass,
}

/// A turn as the generator produces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gen {
    pub from: u8,
    pub tip: u8,
    /// The final square (the tip square for stop and scoring tips).
    pub dest: u8,
    /// The orientation after the tip (the hop does not turn the block).
    pub orient: Orient,
    /// A scoring tip: the block leaves the board.
    pub scored: bool,
}

impl Gen {
    pub fn top(&self) -> Face {
        self.orient.top()
    }

    /// Whether the turn is written with a hop part.
    pub fn has_hop(&self) -> bool {
        !self.scored && self.top() != Face::Stop
    }

    /// The turn as a move, in its canonical form: the tip, then the final
    /// square when the turn has a hop.
    pub fn as_move(&self) -> Move {
        Move::Turn(self.as_turn())
    }

    /// The turn as a [`Turn`] ([`Gen::as_move`]).
    pub fn as_turn(&self) -> Turn {
        Turn {
            from: Sq::of(self.from),
            to: Sq::of(self.tip),
            hop: if self.has_hop() {
                Hop::Dest(Sq::of(self.dest))
            } else {
                Hop::None
            },
        }
    }
}

/// Where one tip leads: the bit-set form of [`Position::tip_turns`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tip {
    /// The square tipped onto.
    pub tip: u8,
    /// The orientation after the tip.
    pub orient: Orient,
    /// A scoring tip (onto the opponent's home star, star up).
    pub scored: bool,
    /// The final squares of the legal turns (the star for a scoring tip);
    /// empty when the tip starts no legal turn.
    pub dests: u64,
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Occupied squares of gold and of blue.
    pub occ: [u64; 2],
    /// Orientation index of the block on each square (meaningless where empty).
    pub orient: [u8; 49],
    pub to_move: usize,
    /// Blocks each side has removed (scored).
    pub removed: [u8; 2],
    /// Blocks each side started with.
    pub total: [u8; 2],
    /// The `no-side-by-side` variant.
    pub no_side_by_side: bool,
}

impl Position {
    /// An empty board.
    pub fn empty(no_side_by_side: bool) -> Position {
        Position {
            occ: [0, 0],
            orient: [0; 49],
            to_move: GOLD,
            removed: [0, 0],
            total: [0, 0],
            no_side_by_side,
        }
    }

    /// The perft start: gold `c1 e1 c3 e3`, blue `c5 e5 c7 e7`, every block
    /// stop on top and x to the north, gold to move.
    pub fn standard(no_side_by_side: bool) -> Position {
        let mut p = Position::empty(no_side_by_side);
        let o = Orient::new(Face::Stop, Face::X).map_or(0, Orient::index);
        for (side, squares) in [(GOLD, [2u8, 4, 16, 18]), (BLUE, [30, 32, 44, 46])] {
            for sq in squares {
                p.put(side, sq, o);
            }
        }
        p
    }

    /// Places a block (setup).
    pub fn put(&mut self, side: usize, sq: u8, orient: u8) {
        if let (Some(occ), Some(o), Some(t)) = (
            self.occ.get_mut(side),
            self.orient.get_mut(usize::from(sq)),
            self.total.get_mut(side),
        ) {
            *occ |= bit(sq);
            *o = orient;
            *t += 1;
        }
    }

    #[inline]
    pub fn all(&self) -> u64 {
        self.occ[0] | self.occ[1]
    }

    /// The orientation of the block on `sq`.
    #[inline]
    pub fn orient_at(&self, sq: u8) -> Orient {
        let i = self.orient.get(usize::from(sq)).copied().unwrap_or(0);
        Orient::wrapping(i)
    }

    /// The side whose block stands on `sq`.
    pub fn owner(&self, sq: u8) -> Option<usize> {
        (0..2).find(|&s| self.occ[s] & bit(sq) != 0)
    }

    /// Blocks of a side still on the board.
    pub fn on_board(&self, side: usize) -> u32 {
        self.occ.get(side).map_or(0, |o| o.count_ones())
    }

    /// Calls `f` for every legal turn of `side`, one per (block, tip, final
    /// square); stops early when `f` returns `false`. Returns `false` if stopped.
    pub fn each_turn(&self, side: usize, f: &mut impl FnMut(Gen) -> bool) -> bool {
        let mut blocks = self.occ[side & 1];
        while blocks != 0 {
            let from = blocks.trailing_zeros() as u8;
            blocks &= blocks - 1;
            for d in Dir::ALL {
                if !self.tip_turns(side & 1, from, d, f) {
                    return false;
                }
            }
        }
        true
    }

    /// The legal turns of the block on `from` (of `side`) tipping toward `d`.
    pub fn tip_turns(
        &self,
        side: usize,
        from: u8,
        d: Dir,
        f: &mut impl FnMut(Gen) -> bool,
    ) -> bool {
        let all = self.all();
        let tip = neigh(from, d as usize);
        if tip == NONE || all & bit(tip) != 0 {
            return true;
        }
        let orient = self.orient_at(from).tip(d);
        let top = orient.top();
        let mut emit = |dest: u8, scored: bool| -> bool {
            let g = Gen {
                from,
                tip,
                dest,
                orient,
                scored,
            };
            if self.no_side_by_side && self.side_by_side(side, &g) {
                return true;
            }
            f(g)
        };
        if STARS & bit(tip) != 0 {
            if tip == target(side) && top == Face::Star {
                return emit(tip, true);
            }
            return true;
        }
        // The other blocks: the square left counts as empty.
        let others = all & !bit(from);
        match top {
            Face::Star => true,
            Face::Stop => emit(tip, false),
            Face::Cross => {
                for dd in 0..4 {
                    let n = neigh(tip, dd);
                    if n != NONE && (others | STARS) & bit(n) == 0 && !emit(n, false) {
                        return false;
                    }
                }
                true
            }
            Face::X => {
                for dd in 0..4 {
                    let n = diag(tip, dd);
                    if n != NONE && (others | STARS) & bit(n) == 0 && !emit(n, false) {
                        return false;
                    }
                }
                true
            }
            Face::Slider => {
                for dd in Dir::ALL {
                    if let Some(end) = slide_end(tip, dd, others) {
                        if STARS & bit(end) == 0 && !emit(end, false) {
                            return false;
                        }
                    }
                }
                true
            }
            Face::Hoops => {
                let mut dests = hoops_reach(tip, others) & !STARS;
                while dests != 0 {
                    let dest = dests.trailing_zeros() as u8;
                    dests &= dests - 1;
                    if !emit(dest, false) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// The legal turns of the block on `from` (of `side`) tipping toward `d`
    /// as one bit set of final squares, in a few table look-ups and shifts;
    /// `None` when the tip itself is impossible (off the board or onto a
    /// block). The same turns as [`Position::tip_turns`] (a test checks it).
    #[inline]
    pub fn tip(&self, side: usize, from: u8, d: Dir) -> Option<Tip> {
        let side = side & 1;
        let all = self.all();
        let tip = neigh(from, d as usize);
        if tip == NONE || all & bit(tip) != 0 {
            return None;
        }
        let before = self.orient_at(from);
        let top = before.tip_top(d);
        let scored = STARS & bit(tip) != 0;
        let others = all & !bit(from);
        let mut dests = if scored {
            if tip == target(side) && top == Face::Star {
                bit(tip)
            } else {
                0
            }
        } else {
            let open = BOARD & !others & !STARS;
            match top {
                Face::Star => 0,
                Face::Stop => bit(tip),
                Face::Cross => mask(&CROSS_MASK, tip) & open,
                Face::X => mask(&X_MASK, tip) & open,
                Face::Slider => slide_ends(tip, others) & !STARS,
                Face::Hoops => hoops_reach(tip, others) & !STARS,
            }
        };
        if self.no_side_by_side && dests != 0 {
            // `around` distributes over union: the blocks that stay must
            // touch no opponent, and the block that moves must not end next
            // to one.
            let theirs = self.occ[side ^ 1];
            if around(self.occ[side] & !bit(from)) & theirs != 0 {
                dests = 0;
            } else if !scored {
                dests &= !around(theirs);
            }
        }
        Some(Tip {
            tip,
            orient: before.tip(d),
            scored,
            dests,
        })
    }

    /// Whether the turn would end with one of the mover's blocks orthogonally
    /// next to an opponent's block.
    pub fn side_by_side(&self, side: usize, g: &Gen) -> bool {
        let side = side & 1;
        let mut mine = self.occ[side] & !bit(g.from);
        if !g.scored {
            mine |= bit(g.dest);
        }
        around(mine) & self.occ[side ^ 1] != 0
    }

    /// Whether `side` has a legal turn: the first tip with a final square
    /// ([`Position::tip`]), no turn generated. In the standard variant a
    /// tip that brings stop or cross up onto an empty square off the stars
    /// is always a turn (stop ends there; cross can hop back onto the square
    /// the block left, never a star), which settles nearly every position
    /// with a few masks per block.
    pub fn can_move(&self, side: usize) -> bool {
        self.has_easy_tip(side) || self.has_tip_turn(side)
    }

    /// Whether some tip of `side` starts a legal turn, block by block and
    /// tip by tip ([`Position::tip`]): [`Position::can_move`] once the easy
    /// tips are ruled out.
    pub fn has_tip_turn(&self, side: usize) -> bool {
        let mut blocks = self.occ[side & 1];
        while blocks != 0 {
            let from = blocks.trailing_zeros() as u8;
            blocks &= blocks - 1;
            for d in Dir::ALL {
                if self.tip(side, from, d).is_some_and(|t| t.dests != 0) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `side` has a tip that brings stop or cross up onto an open
    /// square, which in the standard variant is a legal turn (always `false`
    /// in `no-side-by-side`): [`Position::easy_blocks`] against the open
    /// squares ([`easy_tip_open`]).
    #[inline]
    pub fn has_easy_tip(&self, side: usize) -> bool {
        !self.no_side_by_side && easy_tip_open(&self.easy_blocks(side), self.all())
    }

    /// The blocks of `side` whose tip toward each [`Dir`] brings stop or
    /// cross up and stays on the board (the square tipped onto may be
    /// taken), computed block by block; a [`super::State`] keeps them up to
    /// date as turns are played instead.
    pub fn easy_blocks(&self, side: usize) -> [u64; 4] {
        let mut easy = [0u64; 4];
        let mut blocks = self.occ[side & 1];
        while blocks != 0 {
            let from = blocks.trailing_zeros() as u8;
            blocks &= blocks - 1;
            add_easy(&mut easy, from, self.orient_at(from));
        }
        easy
    }

    /// Every legal turn of `side`.
    pub fn turns(&self, side: usize) -> Vec<Gen> {
        let mut v = Vec::new();
        self.each_turn(side, &mut |g| {
            v.push(g);
            true
        });
        v
    }

    /// Whether a side has removed all its blocks.
    pub fn finished(&self, side: usize) -> bool {
        let s = side & 1;
        self.total[s] > 0 && self.removed[s] >= self.total[s]
    }

    /// Whether the game is over: a side has removed all its blocks, or
    /// neither side can move.
    pub fn is_over(&self) -> bool {
        self.finished(GOLD)
            || self.finished(BLUE)
            || (!self.can_move(self.to_move) && !self.can_move(self.to_move ^ 1))
    }

    /// Plays a generated turn for the side to move.
    pub fn play(&mut self, g: &Gen) {
        let s = self.to_move & 1;
        self.occ[s] &= !bit(g.from);
        if g.scored {
            self.removed[s] += 1;
        } else {
            self.occ[s] |= bit(g.dest);
            if let Some(o) = self.orient.get_mut(usize::from(g.dest)) {
                *o = g.orient.index();
            }
        }
        self.to_move = s ^ 1;
    }

    pub fn pass(&mut self) {
        self.to_move ^= 1;
    }
}

/// Where a slide from `sq` toward `d` stops (`None`: it cannot move): on
/// the line beyond `sq`, the squares before the first block; the last of
/// them.
#[inline]
pub fn slide_end(sq: u8, d: Dir, others: u64) -> Option<u8> {
    let ray = RAYS
        .get(d as usize)
        .and_then(|r| r.get(usize::from(sq)))
        .copied()
        .unwrap_or(0);
    let blockers = ray & others;
    let run = match d {
        // the line runs up the bits: the squares below the lowest blocker
        Dir::North | Dir::East => ray & (blockers & blockers.wrapping_neg()).wrapping_sub(1),
        // down the bits: the squares above the highest blocker
        Dir::South | Dir::West => {
            ray & u64::MAX
                .checked_shl(64 - blockers.leading_zeros())
                .unwrap_or(0)
        }
    };
    if run == 0 {
        return None;
    }
    Some(match d {
        Dir::North | Dir::East => 63 - run.leading_zeros() as u8,
        Dir::South | Dir::West => run.trailing_zeros() as u8,
    })
}

/// The ends of the four slides from `sq`.
#[inline]
fn slide_ends(sq: u8, others: u64) -> u64 {
    let mut ends = 0;
    for d in Dir::ALL {
        if let Some(end) = slide_end(sq, d, others) {
            ends |= bit(end);
        }
    }
    ends
}

/// The squares a hoops hop from `sq` reaches in exactly three orthogonal
/// steps onto squares free of `others` (star spaces included).
#[inline]
pub fn hoops_reach(sq: u8, others: u64) -> u64 {
    let free = BOARD & !others;
    let r1 = around(bit(sq)) & free;
    let r2 = around(r1) & free;
    around(r2) & free
}

/// The directions (bit `d`) in which a block with orientation `o` on `sq`
/// tips onto the board with stop or cross coming up.
#[inline(always)]
pub fn easy_dirs(sq: u8, o: Orient) -> u8 {
    (o.tips_up(Face::Stop) | o.tips_up(Face::Cross)) & on_board_dirs(sq)
}

/// The directions (bit `d`) in which `sq` has an orthogonal neighbour.
#[inline(always)]
fn on_board_dirs(sq: u8) -> u8 {
    ON_BOARD_DIRS[usize::from(sq & 63)]
}

const fn build_on_board_dirs() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 49 {
        let mut d = 0;
        while d < 4 {
            if NEIGH[sq][d] != NONE {
                t[sq] |= 1 << d;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Per square, the directions with a neighbour on the board (64 rows, as
/// [`CROSS_MASK`]).
static ON_BOARD_DIRS: [u8; 64] = build_on_board_dirs();

/// Per set of directions (bit `d`), all ones in the masks of those
/// directions: spreads a block's easy directions over the four masks.
static SPREAD: [[u64; 4]; 16] = {
    let mut t = [[0u64; 4]; 16];
    let mut dirs = 0;
    while dirs < 16 {
        let mut d = 0;
        while d < 4 {
            if dirs & (1 << d) != 0 {
                t[dirs][d] = u64::MAX;
            }
            d += 1;
        }
        dirs += 1;
    }
    t
};

/// Adds the block on `sq` with orientation `o` to per-direction easy-tip
/// masks ([`Position::easy_blocks`]).
#[inline(always)]
pub fn add_easy(easy: &mut [u64; 4], sq: u8, o: Orient) {
    move_easy(easy, 0, sq, o);
}

/// Removes the square `sq` from per-direction easy-tip masks.
#[inline(always)]
pub fn remove_easy(easy: &mut [u64; 4], sq: u8) {
    for m in easy.iter_mut() {
        *m &= !bit(sq);
    }
}

/// Moves a block in per-direction easy-tip masks: the squares of `gone`
/// leave them, and the block on `sq` with orientation `o` comes in.
#[inline(always)]
pub fn move_easy(easy: &mut [u64; 4], gone: u64, sq: u8, o: Orient) {
    let spread = SPREAD[usize::from(easy_dirs(sq, o) & 15)];
    let b = bit(sq);
    for (m, s) in easy.iter_mut().zip(spread) {
        *m = (*m & !gone) | (s & b);
    }
}

/// Whether one of the easy tips ([`Position::easy_blocks`]) lands on an
/// open square (empty, off the stars) with the board's blocks `all`: four
/// shifts and masks. The masks hold only tips that stay on the board, so no
/// shift wraps from one row to the next.
#[inline(always)]
pub fn easy_tip_open(easy: &[u64; 4], all: u64) -> bool {
    let open = BOARD & !all & !STARS;
    ((easy[Dir::North as usize] & (open >> 7))
        | (easy[Dir::East as usize] & (open >> 1))
        | (easy[Dir::South as usize] & (open << 7))
        | (easy[Dir::West as usize] & (open << 1)))
        != 0
}

/// Leaf count of the legal-move tree to `depth` plies. A forced pass is a ply;
/// a finished game is a leaf.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.finished(GOLD) || pos.finished(BLUE) {
        return 1;
    }
    let side = pos.to_move;
    if depth == 1 {
        let mut n = 0u64;
        pos.each_turn(side, &mut |_| {
            n += 1;
            true
        });
        if n > 0 {
            return n;
        }
    } else {
        let mut total = 0u64;
        let mut any = false;
        pos.each_turn(side, &mut |g| {
            any = true;
            let mut next = *pos;
            next.play(&g);
            total += perft(&next, depth - 1);
            true
        });
        if any {
            return total;
        }
    }
    if !pos.can_move(side ^ 1) {
        return 1;
    }
    let mut next = *pos;
    next.pass();
    perft(&next, depth - 1)
}

/// [`perft`] counted under each first move ([`Move::Pass`] for a forced
/// pass), the first moves in parallel; see
/// [`crate::game::Perft::perft_divide`].
pub fn perft_divide(pos: &Position, depth: u32, done: &(dyn Fn(u64) + Sync)) -> Vec<(Move, u64)> {
    use rayon::prelude::*;
    if depth == 0 || pos.finished(GOLD) || pos.finished(BLUE) {
        return Vec::new();
    }
    let side = pos.to_move;
    let turns = pos.turns(side);
    if turns.is_empty() {
        if !pos.can_move(side ^ 1) {
            return Vec::new();
        }
        let mut next = *pos;
        next.pass();
        let n = perft(&next, depth - 1);
        done(n);
        return vec![(Move::Pass, n)];
    }
    turns
        .par_iter()
        .map(|g| {
            let mut next = *pos;
            next.play(g);
            let n = perft(&next, depth - 1);
            done(n);
            (g.as_move(), n)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Judging a turn.

/// Why a move is illegal: the first rule it breaks, in the order of the
/// rules (see the module docs of `deblockle`), with the squares, faces and
/// directions that rule found; [`super::explain`] says it in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A pass while the side to move has a legal turn.
    Pass,
    /// The tip starts off the board.
    FromOffBoard,
    /// No block of the mover stands on `from`; `theirs`: an opponent's does.
    NotYourBlock { from: u8, theirs: bool },
    /// The tip's two squares are not orthogonal neighbours; `diagonal`:
    /// they are diagonal ones.
    NotATip { diagonal: bool },
    /// The tip toward `dir` leaves the board.
    TipOffBoard { dir: Dir },
    /// The square tipped onto, `tip`, holds a block of `owner`.
    TipOccupied { tip: u8, owner: Option<usize> },
    /// The tip lands on the star space `tip` with `top` coming up: the
    /// mover's own home star, or the opponent's without star up.
    TipOntoStar { tip: u8, top: Face },
    /// Star comes up on `tip`, which is no star space.
    StarUp { tip: u8 },
    /// A hop is written after the scoring tip onto `tip`.
    HopAfterScoring { tip: u8 },
    /// A hop is written after stop came up.
    HopAfterStop,
    /// No hop is written after `top` came up on `tip`, and none is
    /// possible: the tip is no legal turn.
    CannotHop { top: Face, tip: u8 },
    /// No hop is written after `top` came up, though one is possible.
    MissingHop { top: Face },
    /// Step `step` (0-2) of a hoops path is wrong.
    BadStep { step: u8, fault: StepFault },
    /// A path is written after `top`, which is not hoops.
    PathNotHoops { top: Face },
    /// The written final square is not where a `top` hop from `tip` goes
    /// (not one step for cross or x, not on a line for slider).
    HopShape { top: Face, tip: u8 },
    /// A cross or x hop ends off the board.
    HopOffBoard { top: Face },
    /// A cross or x hop ends on a block.
    HopOccupied { top: Face },
    /// The hop of `top` would end on the star space `at`.
    EndsOnStar { top: Face, at: u8 },
    /// The slide from `tip` toward `dir` cannot start: `stop` is the block
    /// next to it (`None`: the board's edge).
    SlideBlocked { dir: Dir, tip: u8, stop: Option<u8> },
    /// The slide toward `dir` ends on the star space `end`.
    SlideOntoStar { dir: Dir, end: u8 },
    /// The written final square is not `end`, where the slide stops.
    ShortSlide { end: u8 },
    /// No hoops path from `tip` reaches the written final square.
    HoopsUnreachable { tip: u8 },
    /// The turn would end with a block of the mover orthogonally next to an
    /// opponent's (`no-side-by-side`).
    SideBySide { turn: Gen },
}

/// What is wrong with one step of a hoops path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepFault {
    /// It is not one orthogonal step from the square before it.
    NotAStep,
    /// It leaves the board.
    OffBoard,
    /// It lands on a block.
    Occupied,
}

/// Judges a turn for the side to move: the generated turn, or the first
/// rule it breaks.
///
/// A legal turn is recognised by [`quick_judge`]; anything else goes the
/// long way ([`judge_long`]), which finds the first rule broken.
#[inline(always)]
pub fn judge(pos: &Position, t: &Turn) -> Result<Gen, Illegal> {
    match quick_judge(pos, t) {
        Some(g) => Ok(g),
        None => judge_long(pos, t),
    }
}

/// The turn when it is legal; `None` when it is not (then [`judge_long`]
/// says why). Checks only this turn: the tip, then the final square against
/// the hop's squares ([`hop_reaches`]: a mask for cross and x, the run's
/// end for slider, the three-step reach for hoops, all made and the top
/// face's taken, so that no branch depends on the face; a hoops path one
/// mask test per step).
/// Accepts exactly the turns [`judge_long`] accepts, and gives the same
/// [`Gen`] (a test checks it on every candidate turn along random games).
#[inline(always)]
pub fn quick_judge(pos: &Position, t: &Turn) -> Option<Gen> {
    let side = pos.to_move & 1;
    let from = t.from.index()?;
    let tip = t.to.index()?;
    let mine = pos.occ[side];
    let all = pos.all();
    // one of the mover's blocks, one orthogonal step onto an empty square
    if mine & bit(from) == 0 || all & bit(tip) != 0 || mask(&CROSS_MASK, from) & bit(tip) == 0 {
        return None;
    }
    // the step's direction from its difference (7, 1, -7, -1), without a
    // branch: down the board gives 2, a sideways step 1
    let diff = tip.wrapping_sub(from);
    let d = Dir::ALL[usize::from(diff >> 7) * 2 + usize::from(diff == 1 || diff == 0xff)];
    let before = pos.orient_at(from);
    let orient = before.tip(d);
    // from the orientation before, so that the two look-ups run side by side
    let top = before.tip_top(d);
    let others = all & !bit(from);
    let scored = STARS & bit(tip) != 0;
    let dest = if scored {
        if tip != target(side) || top != Face::Star || t.hop != Hop::None {
            return None;
        }
        tip
    } else {
        let (dest, ok) = match t.hop {
            Hop::None => (tip, top == Face::Stop),
            Hop::Dest(r) => {
                let dest = r.index()?;
                (dest, hop_reaches(top, t.to, r, tip, dest, others))
            }
            Hop::Path(path) => {
                if top != Face::Hoops {
                    return None;
                }
                // three orthogonal steps over squares free of blocks
                let mut prev = tip;
                for s in path {
                    let sq = s.index()?;
                    if mask(&CROSS_MASK, prev) & !others & bit(sq) == 0 {
                        return None;
                    }
                    prev = sq;
                }
                (prev, STARS & bit(prev) == 0)
            }
        };
        if !ok {
            return None;
        }
        dest
    };
    if pos.no_side_by_side {
        // The blocks that stay, and the one that moves unless it scored,
        // must touch no opponent.
        let mut after = mine & !bit(from);
        if !scored {
            after |= bit(dest);
        }
        if around(after) & pos.occ[side ^ 1] != 0 {
            return None;
        }
    }
    Some(Gen {
        from,
        tip,
        dest,
        orient,
        scored,
    })
}

/// Whether a hop from `tip` (written `to`) with `top` up may end on `dest`
/// (written `r`), `others` being the blocks that stay: every face's test is
/// made and the top face's taken, so no branch depends on the face (it is
/// as good as random from one turn to the next). Cross and x: one mask;
/// slider: `dest` on a line from the tip, the squares up to it free and the
/// one after it a block or off the board; hoops: three steps over free
/// squares (the reach as a bit set); stop and star have no hop. A hop never
/// ends on a block or a star.
#[inline(always)]
fn hop_reaches(top: Face, to: Sq, r: Sq, tip: u8, dest: u8, others: u64) -> bool {
    let open = BOARD & !others;
    let at = bit(dest) & open & !STARS;
    // the slide's direction from the columns and rows (any direction when
    // they are not on a line: then `dest` is on none of the tip's rays)
    let (dc, dr) = (r.col.wrapping_sub(to.col), r.row.wrapping_sub(to.row));
    let d = usize::from(dc != 0) + 2 * usize::from((dc < 0) | ((dc == 0) & (dr < 0)));
    let ray = RAYS[d & 3][usize::from(tip & 63)];
    let beyond = RAYS[d & 3][usize::from(dest & 63)];
    let between = ray & !beyond & !bit(dest);
    let after = beyond & mask(&CROSS_MASK, dest);
    let slides = u64::from((between & others) | (after & open) == 0).wrapping_neg();
    let next_to_tip = mask(&CROSS_MASK, tip);
    let hoops = around(around(next_to_tip & open) & open);
    // by face (`Face as usize`): star, stop, cross, x, slider, hoops; an
    // index, not a match, so that no branch is taken on it
    let reach = [0, 0, next_to_tip, mask(&X_MASK, tip), ray & slides, hoops];
    reach.get(top as usize).copied().unwrap_or(0) & at != 0
}

/// [`judge`] rule by rule, in the order of the rules (see the module docs
/// of `deblockle`): the generated turn, or the first rule the turn breaks.
#[cold]
#[inline(never)]
pub fn judge_long(pos: &Position, t: &Turn) -> Result<Gen, Illegal> {
    let side = pos.to_move & 1;
    let from = own_block(pos, side, t)?;
    let (d, tip) = tip_square(pos, t)?;
    let orient = pos.orient_at(from).tip(d);
    let top = orient.top();
    let turn = |dest: u8, scored: bool| Gen {
        from,
        tip,
        dest,
        orient,
        scored,
    };
    let g = if STARS & bit(tip) != 0 {
        scoring_tip(side, t, tip, top)?;
        turn(tip, true)
    } else if top == Face::Star {
        return Err(Illegal::StarUp { tip });
    } else {
        let others = pos.all() & !bit(from);
        let dest = match (top, t.hop) {
            (Face::Stop, Hop::None) => tip,
            (Face::Stop, _) => return Err(Illegal::HopAfterStop),
            (_, Hop::None) => return Err(no_hop(pos, side, from, d, tip, top)),
            (Face::Hoops, Hop::Path(path)) => hoops_path(t.to, path, tip, others)?,
            (_, Hop::Path(_)) => return Err(Illegal::PathNotHoops { top }),
            (_, Hop::Dest(r)) => hop_dest(top, t.to, r, tip, others)?,
        };
        turn(dest, false)
    };
    apart(pos, side, g)
}

/// Ownership: the square the tip starts from, holding a block of the mover.
fn own_block(pos: &Position, side: usize, t: &Turn) -> Result<u8, Illegal> {
    let from = t.from.index().ok_or(Illegal::FromOffBoard)?;
    if pos.occ[side] & bit(from) == 0 {
        let theirs = pos.occ[side ^ 1] & bit(from) != 0;
        return Err(Illegal::NotYourBlock { from, theirs });
    }
    Ok(from)
}

/// The tip: one orthogonal step, onto an empty square of the board; its
/// direction and the square tipped onto.
fn tip_square(pos: &Position, t: &Turn) -> Result<(Dir, u8), Illegal> {
    let Some(d) = t.dir() else {
        let dc = i16::from(t.to.col) - i16::from(t.from.col);
        let dr = i16::from(t.to.row) - i16::from(t.from.row);
        let diagonal = dc.abs() == 1 && dr.abs() == 1;
        return Err(Illegal::NotATip { diagonal });
    };
    let tip = t.to.index().ok_or(Illegal::TipOffBoard { dir: d })?;
    if pos.all() & bit(tip) != 0 {
        let owner = pos.owner(tip);
        return Err(Illegal::TipOccupied { tip, owner });
    }
    Ok((d, tip))
}

/// A tip onto a star space: only onto the opponent's home star, with star
/// coming up, and no hop after it (the block leaves the board).
fn scoring_tip(side: usize, t: &Turn, tip: u8, top: Face) -> Result<(), Illegal> {
    if tip != target(side) || top != Face::Star {
        return Err(Illegal::TipOntoStar { tip, top });
    }
    if t.hop != Hop::None {
        return Err(Illegal::HopAfterScoring { tip });
    }
    Ok(())
}

/// A turn written without a hop after a face that hops: no legal turn at
/// all when no hop can follow, else a missing hop.
fn no_hop(pos: &Position, side: usize, from: u8, d: Dir, tip: u8, top: Face) -> Illegal {
    let mut possible = false;
    pos.tip_turns(side, from, d, &mut |_| {
        possible = true;
        false
    });
    if possible {
        Illegal::MissingHop { top }
    } else {
        Illegal::CannotHop { top, tip }
    }
}

/// A hoops path from `tip` (written `to`): three orthogonal steps over
/// squares free of `others`, the last off the stars; the final square.
fn hoops_path(to: Sq, path: [Sq; 3], tip: u8, others: u64) -> Result<u8, Illegal> {
    let (mut prev, mut end) = (to, tip);
    for (step, s) in (0u8..).zip(path) {
        let fault = |fault| Illegal::BadStep { step, fault };
        let len = (i16::from(s.col) - i16::from(prev.col)).abs()
            + (i16::from(s.row) - i16::from(prev.row)).abs();
        if len != 1 {
            return Err(fault(StepFault::NotAStep));
        }
        end = s.index().ok_or(fault(StepFault::OffBoard))?;
        if others & bit(end) != 0 {
            return Err(fault(StepFault::Occupied));
        }
        prev = s;
    }
    if STARS & bit(end) != 0 {
        return Err(Illegal::EndsOnStar {
            top: Face::Hoops,
            at: end,
        });
    }
    Ok(end)
}

/// A hop written as its final square `r`, after `top` came up on `tip`
/// (written `to`); the final square.
fn hop_dest(top: Face, to: Sq, r: Sq, tip: u8, others: u64) -> Result<u8, Illegal> {
    match top {
        Face::Cross | Face::X => step_hop(top, to, r, tip, others),
        Face::Slider => slide(to, r, tip, others),
        Face::Hoops => hoops_dest(r, tip, others),
        Face::Star | Face::Stop => Err(Illegal::HopShape { top, tip }),
    }
}

/// A cross or x hop: one orthogonal (cross) or diagonal (x) step, onto a
/// square of the board that is no star space and holds no block.
fn step_hop(top: Face, to: Sq, r: Sq, tip: u8, others: u64) -> Result<u8, Illegal> {
    let dc = (i16::from(r.col) - i16::from(to.col)).abs();
    let dr = (i16::from(r.row) - i16::from(to.row)).abs();
    let shape = if top == Face::Cross {
        dc + dr == 1
    } else {
        dc == 1 && dr == 1
    };
    if !shape {
        return Err(Illegal::HopShape { top, tip });
    }
    let dest = r.index().ok_or(Illegal::HopOffBoard { top })?;
    if STARS & bit(dest) != 0 {
        return Err(Illegal::EndsOnStar { top, at: dest });
    }
    if others & bit(dest) != 0 {
        return Err(Illegal::HopOccupied { top });
    }
    Ok(dest)
}

/// A slider hop: straight north, east, south or west, to the end of its
/// run, which is no star space.
fn slide(to: Sq, r: Sq, tip: u8, others: u64) -> Result<u8, Illegal> {
    let dc = i16::from(r.col) - i16::from(to.col);
    let dr = i16::from(r.row) - i16::from(to.row);
    let dir = match (dc.signum(), dr.signum()) {
        (0, 1) => Dir::North,
        (1, 0) => Dir::East,
        (0, -1) => Dir::South,
        (-1, 0) => Dir::West,
        _ => {
            let top = Face::Slider;
            return Err(Illegal::HopShape { top, tip });
        }
    };
    let Some(end) = slide_end(tip, dir, others) else {
        let stop = Some(neigh(tip, dir as usize)).filter(|&n| n != NONE);
        return Err(Illegal::SlideBlocked { dir, tip, stop });
    };
    if STARS & bit(end) != 0 {
        return Err(Illegal::SlideOntoStar { dir, end });
    }
    if r.index() != Some(end) {
        return Err(Illegal::ShortSlide { end });
    }
    Ok(end)
}

/// A hoops hop written as its final square: reached in three orthogonal
/// steps over empty squares, and no star space.
fn hoops_dest(r: Sq, tip: u8, others: u64) -> Result<u8, Illegal> {
    let reach = hoops_reach(tip, others);
    match r.index() {
        Some(at) if STARS & bit(at) != 0 => Err(Illegal::EndsOnStar {
            top: Face::Hoops,
            at,
        }),
        Some(dest) if reach & bit(dest) != 0 => Ok(dest),
        _ => Err(Illegal::HoopsUnreachable { tip }),
    }
}

/// The last rule, of the `no-side-by-side` variant: no block of the mover
/// ends orthogonally next to an opponent's.
fn apart(pos: &Position, side: usize, g: Gen) -> Result<Gen, Illegal> {
    if pos.no_side_by_side && pos.side_by_side(side, &g) {
        return Err(Illegal::SideBySide { turn: g });
    }
    Ok(g)
}

// ---------------------------------------------------------------------------
// The game's position.

/// A Deblockle game in progress.
#[derive(Clone, Debug)]
pub struct State {
    pub pos: Position,
    /// Per side, per [`cube::Dir`], the blocks whose tip that way brings
    /// stop or cross up and stays on the board ([`Position::easy_blocks`]),
    /// kept up to date by [`State::play_turn`]: a turn changes only the moving
    /// block's bits. With them "can this side move?" is nearly always
    /// answered by four shifts and masks ([`easy_tip_open`]). Code
    /// that changes `pos` directly calls [`State::forget_moves`].
    easy: [[u64; 4]; 2],
    /// Whether the side to move has a legal turn, and whether the game is
    /// over, worked out once when the position is reached: the driver asks
    /// both every ply (`must_pass`, then `is_over`), and each question is
    /// then one load.
    mover_moves: bool,
    over: bool,
    /// A side has removed all its blocks (changes only with a scoring tip).
    done: bool,
}

/// Only the position counts: the rest is worked out from it.
impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.pos == other.pos
    }
}

impl Eq for State {}

impl State {
    pub fn new(pos: Position) -> State {
        let mut state = State {
            pos,
            easy: [[0; 4]; 2],
            mover_moves: false,
            over: false,
            done: false,
        };
        state.forget_moves();
        state
    }

    /// Whether `side` has a legal turn: an easy tip onto an open square
    /// (standard variant), else tip by tip.
    pub(super) fn side_can_move(&self, side: usize) -> bool {
        let p = &self.pos;
        (!p.no_side_by_side && easy_tip_open(&self.easy[side & 1], p.all())) || p.has_tip_turn(side)
    }

    /// Works out whether the side to move can move and whether the game is
    /// over, for the position as it now stands.
    #[inline(always)]
    fn settle(&mut self) {
        let p = &self.pos;
        self.mover_moves = self.side_can_move(p.to_move);
        self.over = self.done || (!self.mover_moves && !self.side_can_move(p.to_move ^ 1));
    }

    /// Plays a judged turn, keeping the easy-tip masks up to date: only the
    /// moving block's bits change.
    #[inline]
    fn play_turn(&mut self, g: &Gen) {
        let side = self.pos.to_move & 1;
        if let Some(easy) = self.easy.get_mut(side) {
            if g.scored {
                remove_easy(easy, g.from);
            } else {
                move_easy(easy, 1u64 << (g.from & 63), g.dest, g.orient);
            }
        }
        self.pos.play(g);
        if g.scored {
            self.done = self.pos.finished(GOLD) || self.pos.finished(BLUE);
        }
        self.settle();
    }

    /// Works out again what is kept beside `pos`, after code changed `pos`
    /// directly: the easy-tip masks, the can-move answer and the end.
    pub fn forget_moves(&mut self) {
        self.easy = [self.pos.easy_blocks(GOLD), self.pos.easy_blocks(BLUE)];
        self.done = self.pos.finished(GOLD) || self.pos.finished(BLUE);
        self.settle();
    }

    /// The easy-tip masks kept for `side` (for tests).
    #[cfg(test)]
    pub(super) fn easy_blocks(&self, side: usize) -> [u64; 4] {
        self.easy[side & 1]
    }
}

/// The engine as the [`game::Position`] a library user plays: typed moves,
/// judged before anything changes.
impl game::Position for State {
    type Move = Move;
    type Illegal = Illegal;

    fn variant(&self) -> &'static str {
        if self.pos.no_side_by_side {
            "no-side-by-side"
        } else {
            "standard"
        }
    }

    fn seats(&self) -> &'static [&'static str] {
        &SIDES
    }

    fn to_move(&self) -> &'static str {
        SIDES[self.pos.to_move & 1]
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn must_pass(&self) -> bool {
        !self.mover_moves
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(&mut self, mv: &Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => {
                if self.mover_moves {
                    return Err(Illegal::Pass);
                }
                self.pos.pass();
                self.settle();
                Ok(())
            }
            Move::Turn(t) => {
                let g = judge(&self.pos, t)?;
                self.play_turn(&g);
                Ok(())
            }
        }
    }

    fn scores_into(&self, out: &mut Vec<i64>) {
        out.clear();
        out.extend([
            i64::from(self.pos.removed[GOLD]),
            i64::from(self.pos.removed[BLUE]),
        ]);
    }

    /// The first side to remove all its blocks wins; when neither side can
    /// move, fewer blocks left on the board, both on a draw.
    fn winner_set(&self, _scores: &[i64]) -> u64 {
        let p = &self.pos;
        let (gold, blue) = (1 << GOLD, 1 << BLUE);
        if p.finished(GOLD) {
            return gold;
        }
        if p.finished(BLUE) {
            return blue;
        }
        match p.on_board(GOLD).cmp(&p.on_board(BLUE)) {
            std::cmp::Ordering::Less => gold,
            std::cmp::Ordering::Greater => blue,
            std::cmp::Ordering::Equal => gold | blue,
        }
    }

    fn legal_moves(&self) -> Result<impl Iterator<Item = Move> + '_, Unlisted> {
        let turns = self.pos.turns(self.pos.to_move);
        Ok(turns.into_iter().map(|g| g.as_move()))
    }
}
