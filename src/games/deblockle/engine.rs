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
//! The engine never reads text: [`judge`] takes a typed [`Turn`] and either
//! returns the turn as the generator would produce it, or the diagnostic that
//! says what is wrong with it.

use super::cube::{Dir, Face, Orient};
use super::notation::{Hop, SqRef, Turn, square_name, write_turn};
use crate::diag::Diag;
use crate::span::Span;

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

    /// Canonical notation.
    pub fn name(&self) -> String {
        write_turn(self.from, self.tip, self.has_hop().then_some(self.dest))
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

    /// Canonical names of the legal turns of the side to move, sorted.
    pub fn legal_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.turns(self.to_move).iter().map(Gen::name).collect();
        v.sort();
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

/// [`perft`] counted under each first move (by its name, `pass` for a
/// forced pass), the first moves in parallel; see
/// [`crate::game::Rules::perft_divide`].
pub fn perft_divide(pos: &Position, depth: u32, done: &(dyn Fn(u64) + Sync)) -> Vec<(String, u64)> {
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
        return vec![("pass".to_string(), n)];
    }
    turns
        .par_iter()
        .map(|g| {
            let mut next = *pos;
            next.play(g);
            let n = perft(&next, depth - 1);
            done(n);
            (g.name(), n)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Judging a written turn.

fn err(code: &'static str, message: String, span: Span, label: impl Into<String>) -> Diag {
    Diag::error(code, message).at(span).label(label)
}

fn hop_span(t: &Turn, ms: Span) -> Span {
    match t.hop {
        Hop::None => ms,
        Hop::Dest(d) => d.span(ms),
        Hop::Path([a, _, c]) => a.span(ms).join(c.span(ms)),
    }
}

/// The legal hops after one tip, as `/DEST` texts.
fn hops_help(pos: &Position, side: usize, from: u8, d: Dir) -> Vec<String> {
    let mut v = Vec::new();
    pos.tip_turns(side, from, d, &mut |g| {
        v.push(format!("/{}", square_name(g.dest)));
        true
    });
    v.sort();
    v
}

fn hops_help_text(list: &[String], top: Face) -> String {
    if list.is_empty() {
        format!(
            "no legal {} hop follows this tip, so it is not a legal turn",
            top.name()
        )
    } else {
        format!("legal hops after this tip: {}", list.join(" "))
    }
}

/// The legal turns of one block.
fn block_turns(pos: &Position, side: usize, from: u8) -> Vec<String> {
    let mut v = Vec::new();
    for d in Dir::ALL {
        pos.tip_turns(side, from, d, &mut |g| {
            v.push(g.name());
            true
        });
    }
    v.sort();
    v
}

fn block_help(pos: &Position, side: usize, from: u8) -> String {
    let v = block_turns(pos, side, from);
    if v.is_empty() {
        format!("the block on {} has no legal turn", square_name(from))
    } else {
        crate::diag::legal_moves_help(&v).replace("legal moves here", "legal turns of this block")
    }
}

/// Judges a written turn for the side to move: the generated turn, or the
/// diagnostic for the first rule it breaks. `ms` is the move's span.
///
/// A legal turn is recognised by [`quick_judge`]; anything else goes the
/// long way ([`judge_long`]), which finds the first rule broken.
#[inline(always)]
pub fn judge(pos: &Position, t: &Turn, ms: Span) -> Result<Gen, Diag> {
    match quick_judge(pos, t) {
        Some(g) => Ok(g),
        None => judge_long(pos, t, ms),
    }
}

/// The turn as written when it is legal; `None` when it is not (then
/// [`judge_long`] says why). Checks only the written turn: the tip, then
/// the written final square against the hop's squares ([`hop_reaches`]:
/// a mask for cross and x, the run's end for slider, the three-step reach
/// for hoops, all made and the top face's taken, so that no branch depends
/// on the face; a hoops path one mask test per step).
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
fn hop_reaches(top: Face, to: SqRef, r: SqRef, tip: u8, dest: u8, others: u64) -> bool {
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

/// [`judge`] check by check, in the order of the rules (see the module
/// docs of `deblockle`): the generated turn, or the diagnostic for the
/// first rule the turn breaks.
#[cold]
#[inline(never)]
pub fn judge_long(pos: &Position, t: &Turn, ms: Span) -> Result<Gen, Diag> {
    let side = pos.to_move & 1;
    let me = SIDES[side];
    let them = SIDES[side ^ 1];
    let from_span = t.from.span(ms);
    let to_span = t.to.span(ms);
    let tip_span = from_span.join(to_span);
    // The tip as written (`c3-c4`), for messages only.
    let tipped = || format!("{}-{}", t.from.name(), t.to.name());

    // Ownership.
    let Some(from) = t.from.index() else {
        return Err(err(
            "deblockle::bad_square",
            format!("{} is not a square of the 7x7 board", t.from.name()),
            from_span,
            "off the board",
        )
        .help("squares are a1 to g7: a column a-g, then a row 1-7"));
    };
    if pos.occ[side] & bit(from) == 0 {
        let mine: Vec<String> = (0..49u8)
            .filter(|&s| pos.occ[side] & bit(s) != 0)
            .map(square_name)
            .collect();
        let (message, label) = if pos.occ[side ^ 1] & bit(from) != 0 {
            (
                format!(
                    "the block on {} is {them}'s, and {me} is to move",
                    square_name(from)
                ),
                format!("a {them} block"),
            )
        } else {
            (
                format!("there is no block on {}", square_name(from)),
                "no block here".to_string(),
            )
        };
        return Err(err("deblockle::not_your_block", message, from_span, label)
            .help(format!("{me}'s blocks stand on {}", mine.join(" "))));
    }

    // The tip.
    let dc = i16::from(t.to.col) - i16::from(t.from.col);
    let dr = i16::from(t.to.row) - i16::from(t.from.row);
    let d = match (dc, dr) {
        (0, 1) => Dir::North,
        (1, 0) => Dir::East,
        (0, -1) => Dir::South,
        (-1, 0) => Dir::West,
        _ => {
            let message = if dc.abs() == 1 && dr.abs() == 1 {
                format!(
                    "{} tips diagonally; a block tips only north, east, south or west",
                    tipped()
                )
            } else {
                format!(
                    "{} is not a tip: a block tips onto an orthogonally adjacent square",
                    tipped()
                )
            };
            return Err(err(
                "deblockle::diagonal_tip",
                message,
                tip_span,
                "not an orthogonal tip",
            )
            .help(block_help(pos, side, from)));
        }
    };
    let Some(tip) = t.to.index() else {
        return Err(err(
            "deblockle::tip_off_board",
            format!(
                "the block on {} would tip {} off the board",
                t.from.name(),
                d.name()
            ),
            to_span,
            "off the board",
        )
        .help(block_help(pos, side, from)));
    };
    if pos.all() & bit(tip) != 0 {
        let owner = pos.owner(tip).map_or("a", |s| SIDES[s]);
        return Err(err(
            "deblockle::tip_occupied",
            format!(
                "{} is occupied by a {owner} block; a block tips only onto an empty square",
                square_name(tip)
            ),
            to_span,
            format!("{owner} block here"),
        )
        .help(block_help(pos, side, from)));
    }
    let orient = pos.orient_at(from).tip(d);
    let top = orient.top();
    let others = pos.all() & !bit(from);
    let hop_sp = hop_span(t, ms);

    if STARS & bit(tip) != 0 {
        let goal = target(side);
        if tip != goal || top != Face::Star {
            let message = if tip != goal {
                format!(
                    "{} is {me}'s own home star; {me} scores only on {}, and no block may tip onto any other star space",
                    square_name(tip),
                    square_name(goal)
                )
            } else {
                format!(
                    "tipping onto {} brings {} up; a block may tip onto {them}'s home star only with star coming up",
                    square_name(tip),
                    top.name()
                )
            };
            return Err(err(
                "deblockle::tip_onto_star",
                message,
                to_span,
                format!("{} comes up on a star space", top.name()),
            )
            .help(block_help(pos, side, from)));
        }
        let g = Gen {
            from,
            tip,
            dest: tip,
            orient,
            scored: true,
        };
        if t.hop != Hop::None {
            return Err(err(
                "deblockle::unexpected_hop",
                format!(
                    "star came up on {}: the block scores and leaves the board, so no hop follows",
                    square_name(tip)
                ),
                hop_sp,
                "no hop after a scoring tip",
            )
            .help(format!("write the scoring tip alone: {}", g.name())));
        }
        return finish(pos, side, g, ms);
    }
    if top == Face::Star {
        return Err(err(
            "deblockle::star_up",
            format!(
                "tipping {} brings star up on {}; star may come up only on {} ({them}'s home star), where the block scores",
                tipped(),
                square_name(tip),
                square_name(target(side))
            ),
            tip_span,
            "star comes up here",
        )
        .help(block_help(pos, side, from)));
    }

    let help = |top: Face| hops_help_text(&hops_help(pos, side, from, d), top);
    let mk = |dest: u8| Gen {
        from,
        tip,
        dest,
        orient,
        scored: false,
    };
    let sym = top.name();

    // The hop.
    let dest_ref = match (top, t.hop) {
        (Face::Stop, Hop::None) => return finish(pos, side, mk(tip), ms),
        (Face::Stop, _) => {
            return Err(err(
                "deblockle::unexpected_hop",
                format!(
                    "stop came up after {}: the turn ends without a hop",
                    tipped()
                ),
                hop_sp,
                "no hop after stop",
            )
            .help(format!("write the tip alone: {}", mk(tip).name())));
        }
        (_, Hop::None) => {
            let legal = hops_help(pos, side, from, d);
            if legal.is_empty() {
                let code = if top == Face::Hoops {
                    "deblockle::hoops_unreachable"
                } else {
                    "deblockle::hop_blocked"
                };
                return Err(err(
                    code,
                    format!(
                        "{sym} came up after {}, and no {sym} hop is possible from {}: the tip is not a legal turn",
                        tipped(),
                        square_name(tip)
                    ),
                    ms,
                    format!("{sym} cannot hop"),
                )
                .help(block_help(pos, side, from)));
            }
            return Err(err(
                "deblockle::missing_hop",
                format!(
                    "{sym} came up after {}, so {} {sym} hop must follow",
                    tipped(),
                    article(top)
                ),
                ms,
                format!("{sym} hop missing"),
            )
            .help(hops_help_text(&legal, top)));
        }
        (Face::Hoops, Hop::Path(path)) => {
            let mut prev = t.to;
            for s in path {
                let step = (i16::from(s.col) - i16::from(prev.col)).abs()
                    + (i16::from(s.row) - i16::from(prev.row)).abs();
                let why = if step != 1 {
                    Some(format!(
                        "{} to {} is not one orthogonal step",
                        prev.name(),
                        s.name()
                    ))
                } else {
                    match s.index() {
                        None => Some(format!("{} is off the board", s.name())),
                        Some(sq) if others & bit(sq) != 0 => {
                            Some(format!("{} holds a block", s.name()))
                        }
                        Some(_) => None,
                    }
                };
                if let Some(why) = why {
                    return Err(err(
                        "deblockle::hoops_bad_step",
                        format!("hoops came up after {}, but its step {why}", tipped()),
                        s.span(ms),
                        why,
                    )
                    .help(help(top)));
                }
                prev = s;
            }
            let Some(end) = prev.index() else {
                return Err(err(
                    "deblockle::hoops_bad_step",
                    "hoops path leaves the board".into(),
                    hop_sp,
                    "off the board",
                ));
            };
            if STARS & bit(end) != 0 {
                return Err(ends_on_star(sym, end, prev.span(ms)).help(help(top)));
            }
            return finish(pos, side, mk(end), ms);
        }
        (_, Hop::Path(_)) => {
            return Err(err(
                "deblockle::unexpected_hop",
                format!(
                    "{sym} came up after {}: only hoops takes a three-step path; {} {sym} hop is written /DEST",
                    tipped(),
                    article(top)
                ),
                hop_sp,
                format!("not {} {sym} hop", article(top)),
            )
            .help(help(top)));
        }
        (_, Hop::Dest(dr)) => dr,
    };
    let dsp = dest_ref.span(ms);
    let ddc = i16::from(dest_ref.col) - i16::from(t.to.col);
    let ddr = i16::from(dest_ref.row) - i16::from(t.to.row);
    let shape_err = |what: &str| {
        err(
            "deblockle::unexpected_hop",
            format!(
                "{sym} came up after {}, and {} is not {what} from {}",
                tipped(),
                dest_ref.name(),
                square_name(tip)
            ),
            dsp,
            format!("not {} {sym} hop", article(top)),
        )
        .help(help(top))
    };
    match top {
        Face::Cross | Face::X => {
            let ok_shape = if top == Face::Cross {
                ddc.abs() + ddr.abs() == 1
            } else {
                ddc.abs() == 1 && ddr.abs() == 1
            };
            if !ok_shape {
                return Err(shape_err(if top == Face::Cross {
                    "one orthogonal step"
                } else {
                    "one diagonal step"
                }));
            }
            let Some(dest) = dest_ref.index() else {
                return Err(err(
                    "deblockle::hop_blocked",
                    format!(
                        "{sym} came up after {}, but {} is off the board",
                        tipped(),
                        dest_ref.name()
                    ),
                    dsp,
                    "off the board",
                )
                .help(help(top)));
            };
            if STARS & bit(dest) != 0 {
                return Err(ends_on_star(sym, dest, dsp).help(help(top)));
            }
            if others & bit(dest) != 0 {
                return Err(err(
                    "deblockle::hop_blocked",
                    format!(
                        "{sym} came up after {}, but {} holds a block",
                        tipped(),
                        dest_ref.name()
                    ),
                    dsp,
                    "occupied",
                )
                .help(help(top)));
            }
            finish(pos, side, mk(dest), ms)
        }
        Face::Slider => {
            let dd = match (ddc.signum(), ddr.signum()) {
                (0, 1) => Dir::North,
                (1, 0) => Dir::East,
                (0, -1) => Dir::South,
                (-1, 0) => Dir::West,
                _ => return Err(shape_err("straight north, east, south or west")),
            };
            let Some(end) = slide_end(tip, dd, others) else {
                let why = match neigh(tip, dd as usize) {
                    NONE => "the board's edge".to_string(),
                    n => format!("the block on {}", square_name(n)),
                };
                return Err(err(
                    "deblockle::hop_blocked",
                    format!(
                        "slider came up after {}, but it cannot slide {} from {}: {why} stops it at once",
                        tipped(),
                        dd.name(),
                        square_name(tip)
                    ),
                    dsp,
                    format!("no slide {}", dd.name()),
                )
                .help(help(top)));
            };
            if STARS & bit(end) != 0 {
                return Err(err(
                    "deblockle::slide_onto_star",
                    format!(
                        "slider came up after {}, and its slide {} would end on the star space {}",
                        tipped(),
                        dd.name(),
                        square_name(end)
                    ),
                    dsp,
                    format!("the slide ends on {}", square_name(end)),
                )
                .help(help(top)));
            }
            if dest_ref.index() != Some(end) {
                return Err(err(
                    "deblockle::short_slide",
                    format!(
                        "slider must slide to {}, the end of its run, not {}",
                        square_name(end),
                        dest_ref.name()
                    ),
                    dsp,
                    format!("the slide ends on {}", square_name(end)),
                )
                .help(help(top)));
            }
            finish(pos, side, mk(end), ms)
        }
        Face::Hoops => {
            let reach = hoops_reach(tip, others);
            match dest_ref.index() {
                Some(dest) if STARS & bit(dest) != 0 => {
                    Err(ends_on_star(sym, dest, dsp).help(help(top)))
                }
                Some(dest) if reach & bit(dest) != 0 => finish(pos, side, mk(dest), ms),
                _ => Err(err(
                    "deblockle::hoops_unreachable",
                    format!(
                        "hoops came up after {}, but no path of three orthogonal steps over empty squares leads from {} to {}",
                        tipped(),
                        square_name(tip),
                        dest_ref.name()
                    ),
                    dsp,
                    "hoops cannot reach this square",
                )
                .help(help(top))),
            }
        }
        Face::Star | Face::Stop => Err(shape_err("a hop")),
    }
}

/// `a` or `an` before a symbol's name.
fn article(f: Face) -> &'static str {
    if f == Face::X { "an" } else { "a" }
}

fn ends_on_star(sym: &str, sq: u8, span: Span) -> Diag {
    err(
        "deblockle::ends_on_star",
        format!(
            "the {sym} hop would end on the star space {}; no block may end its turn on a star space",
            square_name(sq)
        ),
        span,
        "a star space",
    )
}

/// The last check: the `no-side-by-side` variant.
fn finish(pos: &Position, side: usize, g: Gen, ms: Span) -> Result<Gen, Diag> {
    if pos.no_side_by_side && pos.side_by_side(side, &g) {
        let mut mine = pos.occ[side] & !bit(g.from);
        if !g.scored {
            mine |= bit(g.dest);
        }
        let theirs = pos.occ[side ^ 1];
        let touching: Vec<String> = (0..49u8)
            .filter(|&s| mine & bit(s) != 0 && around(bit(s)) & theirs != 0)
            .map(|s| {
                let next: Vec<String> = (0..49u8)
                    .filter(|&t| theirs & around(bit(s)) & bit(t) != 0)
                    .map(square_name)
                    .collect();
                format!(
                    "{}'s block on {} would stand orthogonally next to {}'s on {}",
                    SIDES[side],
                    square_name(s),
                    SIDES[side ^ 1],
                    next.join(" and ")
                )
            })
            .collect();
        let legal = pos.legal_names();
        return Err(err(
            "deblockle::side_by_side",
            format!(
                "after {}, {} (variant no-side-by-side)",
                g.name(),
                touching.join("; ")
            ),
            ms,
            "ends side by side",
        )
        .help(crate::diag::legal_moves_help(&legal).replace("legal moves", "legal turns")));
    }
    Ok(g)
}

/// A generated turn as a written one (no spans), for tests and extras.
pub fn as_turn(g: &Gen) -> Turn {
    Turn {
        from: SqRef::bare(g.from),
        to: SqRef::bare(g.tip),
        hop: if g.has_hop() {
            Hop::Dest(SqRef::bare(g.dest))
        } else {
            Hop::None
        },
    }
}
