//! Bitboard Reversi engine: one `u64` per colour, bit `8 * row + column`
//! (`a1` = bit 0, `h1` = bit 7, `h8` = bit 63). Move generation shifts whole
//! boards in the eight directions (no per-square loops); a move's flips use
//! precomputed rays, one bit operation per direction.
//!
//! On these kernels and those of [`super::sized`] stands the game's
//! position, [`State`]: typed [`Move`]s, the typed reason a move is
//! refused ([`Illegal`]), the scores, through [`game::Position`].

use super::sized::{self, Bits, Board, DIRECTIONS};
use crate::game::{self, Unlisted};

/// Squares where the side owning `p` may move against `o`.
///
/// Per direction, a fill of opponent discs runs from the mover's discs in
/// doubling steps (the pair of directions `d`/`-d` share the masks).
/// Horizontal and diagonal fills use only the opponent discs of columns b-g,
/// which can never wrap across the board's edge.
#[inline(always)]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;
    #[inline(always)]
    fn dir(p: u64, m: u64, d: u32) -> u64 {
        let mut l = m & (p << d);
        let mut r = m & (p >> d);
        l |= m & (l << d);
        r |= m & (r >> d);
        let pl = m & (m << d);
        let pr = m & (m >> d);
        l |= pl & (l << (2 * d));
        r |= pr & (r >> (2 * d));
        l |= pl & (l << (2 * d));
        r |= pr & (r >> (2 * d));
        (l << d) | (r >> d)
    }
    let inner = o & INNER;
    let moves = dir(p, inner, 1) | dir(p, o, 8) | dir(p, inner, 7) | dir(p, inner, 9);
    moves & !(p | o)
}

/// [`legal_moves`] with AVX2: the four direction pairs as the four lanes of
/// one vector (variable shifts), the same fills, then the lanes or-ed.
///
/// # Safety
/// Outside code compiled for AVX2, call it only when the CPU has AVX2
/// ([`Kernel::detect`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn legal_moves_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    const INNER: i64 = 0x7e7e_7e7e_7e7e_7e7e;
    // lanes (low to high): shifts 1, 8, 9, 7; the vertical lane sees all of `o`
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let pp = _mm256_set1_epi64x(p as i64);
    let m = _mm256_and_si256(
        _mm256_set1_epi64x(o as i64),
        _mm256_set_epi64x(INNER, INNER, -1, INNER),
    );
    let mut l = _mm256_and_si256(m, _mm256_sllv_epi64(pp, shift));
    let mut r = _mm256_and_si256(m, _mm256_srlv_epi64(pp, shift));
    l = _mm256_or_si256(l, _mm256_and_si256(m, _mm256_sllv_epi64(l, shift)));
    r = _mm256_or_si256(r, _mm256_and_si256(m, _mm256_srlv_epi64(r, shift)));
    let pl = _mm256_and_si256(m, _mm256_sllv_epi64(m, shift));
    let pr = _mm256_and_si256(m, _mm256_srlv_epi64(m, shift));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, shift2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, shift2)));
    l = _mm256_or_si256(l, _mm256_and_si256(pl, _mm256_sllv_epi64(l, shift2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pr, _mm256_srlv_epi64(r, shift2)));
    let all = _mm256_or_si256(_mm256_sllv_epi64(l, shift), _mm256_srlv_epi64(r, shift));
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let one = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    (_mm_cvtsi128_si64(one) as u64) & !(p | o)
}

/// `RAYS[sq]`: the squares seen from `sq` in each direction, `sq` excluded
/// (directions in the order of [`DIRECTIONS`]).
static RAYS: [[u64; 8]; 64] = {
    let mut table = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            table[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    table
};

/// The discs of `o` flipped by the owner of `p` playing on square `sq`
/// (none for a square off the board).
///
/// Branch-free: in each direction the first square that is not an opponent
/// disc (the outflank) is isolated with one bit operation on the
/// precomputed ray (the lowest bit toward higher indexes, the highest toward
/// lower ones), kept only when it holds a disc of the mover, and the run
/// between `sq` and it flips.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    let Some(rays) = RAYS.get(sq as usize) else {
        return 0;
    };
    let mut flipped = 0;
    // Toward higher indexes: the run below the outflank bit (none without one).
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let out = stop & stop.wrapping_neg() & p;
        flipped |= ray & out.wrapping_sub(u64::from(out != 0));
    }
    // Toward lower indexes: `| 1` gives an empty ray a highest bit; a1 only
    // counts as the outflank when it is on the ray and the mover's.
    for &ray in &rays[4..] {
        let stop = (ray & !o) | 1;
        let out = (1u64 << (63 - stop.leading_zeros())) & p & ray;
        flipped |= ray & !(out << 1).wrapping_sub(1);
    }
    flipped
}

/// [`flips`] with AVX2: the four rays toward higher indexes in one vector,
/// the four toward lower ones in another. Upward the outflank is the lowest
/// bit of the ray's non-opponent squares; downward the nearest one is found
/// by smearing them away from the square along each lane's own direction
/// (steps 1, 7, 8, 9: three doublings cover a ray of 7) instead of a
/// leading-zero count.
///
/// # Safety
/// As [`legal_moves_avx2`]: only where the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2(p: u64, o: u64, sq: u32) -> u64 {
    use std::arch::x86_64::*;
    let Some(rays) = RAYS.get(sq as usize) else {
        return 0;
    };
    let (up, down) = rays.split_at(4);
    let (Ok(up), Ok(down)) = (<[u64; 4]>::try_from(up), <[u64; 4]>::try_from(down)) else {
        return 0;
    };
    let lanes = |r: [u64; 4]| _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
    let (up, down) = (lanes(up), lanes(down));
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // upward: out = lowest non-opponent square, if the mover's; flip below it
    let stop = _mm256_andnot_si256(oo, up);
    let out = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), pp);
    let none = _mm256_cmpeq_epi64(out, zero);
    let below = _mm256_add_epi64(out, _mm256_cmpeq_epi64(zero, zero));
    let f_up = _mm256_andnot_si256(none, _mm256_and_si256(up, below));
    // downward (directions 4..8 of DIRECTIONS: steps 1, 7, 8, 9): smear the
    // non-opponent squares away from `sq` along the ray; out = the one no
    // other smears onto (the nearest), if the mover's; flip the ray short
    // of the smear. A smear past the ray's end never comes back onto it.
    let step = _mm256_set_epi64x(9, 8, 7, 1);
    let stop = _mm256_andnot_si256(oo, down);
    let mut s = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
    s = _mm256_or_si256(s, _mm256_srlv_epi64(s, _mm256_set_epi64x(18, 16, 14, 2)));
    s = _mm256_or_si256(s, _mm256_srlv_epi64(s, _mm256_set_epi64x(36, 32, 28, 4)));
    let out = _mm256_and_si256(_mm256_andnot_si256(_mm256_srlv_epi64(s, step), stop), pp);
    let none = _mm256_cmpeq_epi64(out, zero);
    let f_down = _mm256_andnot_si256(none, _mm256_andnot_si256(s, down));
    let all = _mm256_or_si256(f_up, f_down);
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let one = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(one) as u64
}

/// [`flips`] on the fastest form this CPU runs.
#[inline]
pub fn flips_fast(p: u64, o: u64, sq: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { flips_avx2(p, o, sq) };
    }
    flips(p, o, sq)
}

/// A legal move of the mover `p` at `sq` (0..64, taken modulo 64) against
/// `o`, for the replay: the discs it flips and the next mover's legal moves
/// after it, in one call. The caller knows the move is legal (`sq` is one
/// of `legal_moves(p, o)`); for another square the flips are whatever
/// [`flips`] gives (none when it outflanks nothing) and the moves those of
/// the position with the disc added. Out of line: the replay's inline
/// fast path calls it (or [`step_avx2`]).
#[inline(never)]
pub fn step(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let sq = sq & 63;
    let f = flips(p, o, sq);
    (f, legal_moves(o & !f, p | f | 1u64 << sq))
}

/// [`step`] with AVX2 (the same results).
///
/// # Safety
/// As [`legal_moves_avx2`]: only where the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub fn step_avx2(p: u64, o: u64, sq: u32) -> (u64, u64) {
    let sq = sq & 63;
    let f = flips_avx2(p, o, sq);
    (f, legal_moves_avx2(o & !f, p | f | 1u64 << sq))
}

/// An 8x8 position as bitboards: black's and white's discs (bit
/// `8 * row + column`) and whose turn it is. The game's position, with the
/// scoring and the side to move's legal moves, is [`State`] (the
/// [`game::Position`] of Reversi).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bitboard {
    pub black: u64,
    pub white: u64,
    pub black_to_move: bool,
}

impl Bitboard {
    pub const START: Bitboard = Bitboard {
        // white d4 (bit 27) and e5 (bit 36), black d5 (bit 35) and e4 (bit 28)
        black: (1 << 35) | (1 << 28),
        white: (1 << 27) | (1 << 36),
        black_to_move: true,
    };

    #[inline]
    pub fn mover(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    #[inline]
    pub fn moves(&self) -> u64 {
        let (p, o) = self.mover();
        legal_moves(p, o)
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_over(&self) -> bool {
        let (p, o) = self.mover();
        legal_moves(p, o) == 0 && legal_moves(o, p) == 0
    }

    /// Plays on `sq` given the flips (nonzero for a legal move).
    #[inline]
    pub fn play(&mut self, sq: u32, flipped: u64) {
        let bit = 1u64 << sq;
        if self.black_to_move {
            self.black |= bit | flipped;
            self.white &= !flipped;
        } else {
            self.white |= bit | flipped;
            self.black &= !flipped;
        }
        self.black_to_move = !self.black_to_move;
    }

    #[inline]
    pub fn pass(&mut self) {
        self.black_to_move = !self.black_to_move;
    }
}

/// The bit-operation kernels perft can run on: `Plain` is portable code for
/// any x86-64 (or other) CPU, `X86V3` the same code compiled for POPCNT,
/// LZCNT, BMI1/2 and AVX2, chosen at run time when the CPU has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Plain,
    X86V3,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("avx2")
            {
                return Kernel::X86V3;
            }
        }
        Kernel::Plain
    }

    /// Whether this CPU can run the kernel.
    pub fn available(self) -> bool {
        self == Kernel::Plain || Kernel::detect() == Kernel::X86V3
    }
}

/// The perft recursion over (mover, other), written once and compiled per
/// kernel: the move generation and flips are inlined into it, and the last
/// two plies count moves in bulk (a position's leaf count at depth 1 is its
/// number of moves, or 1 for a pass or a finished game).
macro_rules! perft_kernel {
    ($name:ident, $legal_moves:ident, $flips:ident $(, #[$attr:meta])*) => {
        $(#[$attr])*
        fn $name(p: u64, o: u64, depth: u32) -> u64 {
            let legal_moves = $legal_moves;
            let flips = $flips;
            let mut moves = legal_moves(p, o);
            if depth <= 1 {
                return if depth == 0 {
                    1
                } else {
                    u64::from(moves.count_ones().max(1))
                };
            }
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    return 1;
                }
                return $name(o, p, depth - 1);
            }
            let mut total = 0;
            if depth == 2 {
                while moves != 0 {
                    let sq = moves.trailing_zeros();
                    moves &= moves - 1;
                    let f = flips(p, o, sq);
                    let (np, no) = (o & !f, p | f | (1u64 << sq));
                    total += u64::from(legal_moves(np, no).count_ones().max(1));
                }
                return total;
            }
            while moves != 0 {
                let sq = moves.trailing_zeros();
                moves &= moves - 1;
                let f = flips(p, o, sq);
                total += $name(o & !f, p | f | (1u64 << sq), depth - 1);
            }
            total
        }
    };
}

perft_kernel!(perft_plain, legal_moves, flips);
#[cfg(target_arch = "x86_64")]
perft_kernel!(perft_x86v3, legal_moves_avx2, flips_avx2, #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);

/// [`perft`] on a chosen kernel (the plain one when the CPU lacks the other).
pub fn perft_with(kernel: Kernel, pos: Bitboard, depth: u32) -> u64 {
    let (p, o) = pos.mover();
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::X86V3 && kernel.available() {
        // SAFETY: the CPU has every feature the kernel was compiled for.
        return unsafe { perft_x86v3(p, o, depth) };
    }
    let _ = kernel;
    perft_plain(p, o, depth)
}

/// Leaf count of the legal-move tree to `depth` plies; a forced pass is a ply
/// and a position where neither side can move is a leaf.
pub fn perft(pos: Bitboard, depth: u32) -> u64 {
    perft_with(Kernel::detect(), pos, depth)
}

/// A game replayed from its squares by [`replay_clean`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The final position.
    pub pos: Bitboard,
    /// The discs each side placed (black, white).
    pub placed: [u32; 2],
    /// Plies, forced passes included.
    pub plies: usize,
}

/// The replay of a game given as squares (`None` for a malformed one),
/// passes taken where the side to move has no move: `None` unless every
/// move is legal and the game is over at the end. Written once, compiled
/// per [`Kernel`].
macro_rules! replay_kernel {
    ($name:ident, $legal_moves:ident, $flips:ident $(, #[$attr:meta])*) => {
        $(#[$attr])*
        fn $name<I: Iterator<Item = Option<u32>>>(squares: I) -> Option<Replayed> {
            let legal_moves = $legal_moves;
            let flips = $flips;
            // (mover, other) and whether black is the mover
            let (mut p, mut o, mut black) = (Bitboard::START.black, Bitboard::START.white, true);
            let mut placed = [0u32; 2];
            let mut plies = 0usize;
            for sq in squares {
                let sq = sq?;
                let bit = 1u64.checked_shl(sq)?;
                if (p | o) & bit != 0 {
                    return None;
                }
                let mut f = flips(p, o, sq);
                if f == 0 {
                    // legal only if the mover must pass and the other can play here
                    if legal_moves(p, o) != 0 {
                        return None;
                    }
                    (p, o, black) = (o, p, !black);
                    plies += 1;
                    f = flips(p, o, sq);
                    if f == 0 {
                        return None;
                    }
                }
                if let Some(n) = placed.get_mut(usize::from(!black)) {
                    *n += 1;
                }
                (p, o, black) = (o & !f, p | f | bit, !black);
                plies += 1;
            }
            if legal_moves(p, o) != 0 || legal_moves(o, p) != 0 {
                return None;
            }
            let (b, w) = if black { (p, o) } else { (o, p) };
            let pos = Bitboard { black: b, white: w, black_to_move: black };
            Some(Replayed { pos, placed, plies })
        }
    };
}

replay_kernel!(replay_plain, legal_moves, flips);
#[cfg(target_arch = "x86_64")]
replay_kernel!(replay_x86v3, legal_moves_avx2, flips_avx2, #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);

/// [`replay_clean`] on a chosen kernel (the plain one when the CPU lacks the other).
pub fn replay_clean_with<I: Iterator<Item = Option<u32>>>(
    kernel: Kernel,
    squares: I,
) -> Option<Replayed> {
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::X86V3 && kernel.available() {
        // SAFETY: the CPU has every feature the kernel was compiled for.
        return unsafe { replay_x86v3(squares) };
    }
    let _ = kernel;
    replay_plain(squares)
}

/// The replay of a clean game from its squares, on the fastest kernel:
/// `None` unless every move is legal (forced passes implied) and the game
/// is over at the end.
pub fn replay_clean<I: Iterator<Item = Option<u32>>>(squares: I) -> Option<Replayed> {
    replay_clean_with(Kernel::detect(), squares)
}

/// The positions one ply on, each with the square played (`None`: a
/// forced pass); none when the game is over.
pub fn children(pos: Bitboard) -> Vec<(Option<u32>, Bitboard)> {
    let (p, o) = pos.mover();
    let mut moves = legal_moves(p, o);
    let mut out = Vec::new();
    if moves == 0 && legal_moves(o, p) != 0 {
        let mut next = pos;
        next.pass();
        out.push((None, next));
    }
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let mut next = pos;
        next.play(sq, flips(p, o, sq));
        out.push((Some(sq), next));
    }
    out
}

/// [`perft`] with the subtrees three plies down counted in parallel on the
/// current rayon pool (`perft --threads N` runs it in a pool of `N`).
pub fn perft_parallel(pos: Bitboard, depth: u32) -> u64 {
    perft_parallel_with(pos, depth, &|_| {})
}

/// [`perft_parallel`], calling `done` with the leaves of each subtree as it
/// is counted (the calls add up to the result), for a progress display.
pub fn perft_parallel_with(pos: Bitboard, depth: u32, done: &(dyn Fn(u64) + Sync)) -> u64 {
    use rayon::prelude::*;
    const SPLIT: u32 = 3;
    if depth < 7 || rayon::current_num_threads() < 2 {
        let n = perft(pos, depth);
        done(n);
        return n;
    }
    // Expand the root SPLIT plies; a game over before that is a leaf of its own.
    let mut leaves = 0;
    let mut frontier = vec![pos];
    for _ in 0..SPLIT {
        let mut next = Vec::new();
        for &q in &frontier {
            let c = children(q);
            if c.is_empty() {
                leaves += 1;
            }
            next.extend(c.into_iter().map(|(_, q)| q));
        }
        frontier = next;
    }
    done(leaves);
    let kernel = Kernel::detect();
    leaves
        + frontier
            .par_iter()
            .map(|&q| {
                let n = perft_with(kernel, q, depth - SPLIT);
                done(n);
                n
            })
            .sum::<u64>()
}

/// A typed Reversi move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A disc on square `8 * row + column` (`a1` = 0) of the 8x8 board.
    Place(u8),
    /// A disc on square `16 * row + column` (`a1` = 0) of a board of another
    /// size.
    At(u8),
    Pass,
}

/// A square by row and column from 0 (`a1` is row 0, column 0), as a
/// refused move names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    /// Square `8 * row + column` of the 8x8 board.
    fn eight(sq: u8) -> Square {
        Square {
            row: sq / 8,
            col: sq % 8,
        }
    }

    /// Square `16 * row + column` of a board of any size.
    fn sized(sq: u8) -> Square {
        Square {
            row: sq / 16,
            col: sq % 16,
        }
    }
}

/// Why a Reversi move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A pass while the side to move has a move.
    Pass,
    /// A square the board does not have.
    OffBoard(Square),
    /// A disc is on the square: black's when `black`.
    Occupied { square: Square, black: bool },
    /// The square outflanks no disc of the other side.
    NoFlip(Square),
}

/// How a finished game is scored and won (the `Variant` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Disc counts; more discs wins.
    Standard,
    /// Disc counts, the empty squares added to the winner's at the end.
    Wof,
    /// Disc counts; fewer discs wins.
    Anti,
}

impl Scoring {
    /// In the order of the variants' names.
    pub(crate) const ALL: [Scoring; 3] = [Scoring::Standard, Scoring::Wof, Scoring::Anti];

    /// The variant's name.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Wof => "wof",
            Scoring::Anti => "anti",
        }
    }
}

/// A komi in billionths of a disc (`1.5` is `1_500_000_000`): exact for
/// any komi written with at most [`Komi::DECIMALS`] decimals, as GGS's
/// (the mean of two bids, `-3.133`) are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Komi(pub i64);

impl Komi {
    /// The decimals a komi keeps.
    pub const DECIMALS: usize = 9;
    /// One disc.
    pub const UNIT: i64 = 1_000_000_000;

    /// A komi of whole discs.
    pub fn discs(d: i64) -> Komi {
        Komi(d * Komi::UNIT)
    }

    /// Whether it is a whole number of discs.
    pub fn is_whole(self) -> bool {
        self.0 % Komi::UNIT == 0
    }

    /// The decimals its shortest form has (`1.25`: 2).
    pub fn decimals(self) -> usize {
        let frac = self.0.unsigned_abs() % Komi::UNIT.unsigned_abs();
        if frac == 0 {
            return 0;
        }
        let mut digits = Komi::DECIMALS;
        let mut f = frac;
        while f % 10 == 0 {
            f /= 10;
            digits -= 1;
        }
        digits
    }

    /// Written with exactly `decimals` decimals (at least its own are
    /// written: a komi is never rounded).
    pub fn with_decimals(self, decimals: usize) -> String {
        let decimals = decimals.clamp(self.decimals(), Komi::DECIMALS);
        let sign = if self.0 < 0 { "-" } else { "" };
        let unit = Komi::UNIT.unsigned_abs();
        let (whole, frac) = (self.0.unsigned_abs() / unit, self.0.unsigned_abs() % unit);
        if decimals == 0 {
            return format!("{sign}{whole}");
        }
        let frac = format!("{frac:09}");
        format!("{sign}{whole}.{}", frac.get(..decimals).unwrap_or(&frac))
    }
}

impl std::fmt::Display for Komi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.with_decimals(0))
    }
}

/// The engine a game's moves run on (the common one first: its test is
/// the shortest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// The 8x8 bitboards on AVX2 ([`step_avx2`]), chosen when the CPU has
    /// it.
    Avx2,
    /// The 8x8 bitboards, portable code.
    Plain,
    /// A board of another size than 8 ([`sized`]).
    Sized,
}

impl Engine {
    /// The fastest 8x8 engine this CPU runs (asked once per game, not per
    /// move).
    fn eight() -> Engine {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Engine::Avx2;
        }
        Engine::Plain
    }
}

/// The side to move's legal moves in the standard start: d3, c4, f5, e6.
const START_MOVES: u64 = (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44);

/// A Reversi game in progress: the position, through [`game::Position`].
///
/// The 8x8 position is kept as the discs of the side to move and of the
/// other side with the side to move's legal moves and whether the game is
/// over, so a move is one kernel call and the questions the replay asks
/// between moves (must the side to move pass, is the game over) are a load
/// each. A board of another size lives apart ([`Board`]); the fields of the
/// 8x8 position then mirror what those questions need. (The private fields
/// are crate-visible so that `State { placed, ..State::new(pos, scoring) }`
/// can be written outside the module.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The discs of the side to move (8x8).
    pub(crate) mover: u64,
    /// The discs of the other side (8x8).
    pub(crate) other: u64,
    /// The legal moves of the side to move on 8x8; on another size nonzero
    /// iff the side to move has a move.
    pub(crate) moves: u64,
    pub(crate) black_to_move: bool,
    /// Whether neither side can move.
    pub(crate) over: bool,
    pub(crate) engine: Engine,
    pub scoring: Scoring,
    /// Discs placed by black and by white.
    pub placed: [u32; 2],
    /// The `Komi` tag's value, when given.
    pub komi: Option<Komi>,
    /// The position on a board of another size than 8 (its engine).
    pub(crate) sized: Option<Box<Board>>,
}

impl State {
    /// A game on the 8x8 board from `pos`.
    pub fn new(pos: Bitboard, scoring: Scoring) -> State {
        let (mover, other) = pos.mover();
        let mut state = State {
            mover,
            other,
            moves: START_MOVES,
            black_to_move: pos.black_to_move,
            over: false,
            engine: Engine::eight(),
            scoring,
            placed: [0, 0],
            komi: None,
            sized: None,
        };
        if pos != Bitboard::START {
            state.moves = state.legal(mover, other);
            state.over = state.moves == 0 && state.legal(other, mover) == 0;
        }
        state
    }

    /// A game on a board of another size.
    pub fn on(board: Board, scoring: Scoring) -> State {
        let mut state = State {
            engine: Engine::Sized,
            sized: Some(Box::new(board)),
            ..State::new(Bitboard::START, scoring)
        };
        state.mirror(&board);
        state
    }

    /// Sets the 8x8 fields that answer for a board of another size.
    fn mirror(&mut self, board: &Board) {
        self.moves = u64::from(!board.moves.is_empty());
        self.black_to_move = board.black_to_move;
        self.over = board.is_over();
    }

    /// The 8x8 position (the start position on other sizes).
    pub(crate) fn pos(&self) -> Bitboard {
        let (black, white) = if self.black_to_move {
            (self.mover, self.other)
        } else {
            (self.other, self.mover)
        };
        Bitboard {
            black,
            white,
            black_to_move: self.black_to_move,
        }
    }

    /// The board's side.
    pub fn size(&self) -> u8 {
        self.sized.as_ref().map_or(8, |b| b.size)
    }

    /// Whether black moves next.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// Discs of black and of white.
    pub fn counts(&self) -> (u32, u32) {
        match &self.sized {
            Some(b) => (b.black.count(), b.white.count()),
            None => {
                let pos = self.pos();
                (pos.black.count_ones(), pos.white.count_ones())
            }
        }
    }

    /// The disc on (row, column), both from 0: `Some(true)` black,
    /// `Some(false)` white.
    pub fn disc(&self, row: u8, col: u8) -> Option<bool> {
        let (black, white) = match &self.sized {
            Some(b) => {
                let sq = sized::square(row, col);
                (b.black.has(sq), b.white.has(sq))
            }
            None => {
                let bit = 1u64
                    .checked_shl(u32::from(row) * 8 + u32::from(col))
                    .unwrap_or(0);
                let pos = self.pos();
                (pos.black & bit != 0, pos.white & bit != 0)
            }
        };
        (black || white).then_some(black)
    }

    /// Plays a legal 8x8 move: `bit` its square, `flipped` its flips, `next`
    /// the next side's legal moves.
    #[inline(always)]
    fn place(&mut self, bit: u64, flipped: u64, next: u64) {
        if let Some(n) = self.placed.get_mut(usize::from(!self.black_to_move)) {
            *n += 1;
        }
        let mover = self.mover;
        self.mover = self.other & !flipped;
        self.other = mover | flipped | bit;
        self.black_to_move = !self.black_to_move;
        self.moves = next;
        if next == 0 {
            self.stuck_now();
        }
    }

    /// The legal moves of the owner of `p` against `o` on this game's
    /// 8x8 engine.
    fn legal(&self, p: u64, o: u64) -> u64 {
        match self.engine {
            // SAFETY: `Engine::Avx2` is chosen only when the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 => unsafe { legal_moves_avx2(p, o) },
            _ => legal_moves(p, o),
        }
    }

    /// Whether the game ended, once the side to move has no move (8x8).
    #[cold]
    #[inline(never)]
    fn stuck_now(&mut self) {
        self.over = self.legal(self.other, self.mover) == 0;
    }

    /// A pass on the 8x8 board.
    fn pass_eight(&mut self) {
        (self.mover, self.other) = (self.other, self.mover);
        self.black_to_move = !self.black_to_move;
        self.moves = self.legal(self.mover, self.other);
        self.over = self.moves == 0 && self.legal(self.other, self.mover) == 0;
    }

    /// `(side to move, other side)` as seat names.
    pub fn sides(&self) -> (&'static str, &'static str) {
        if self.black_to_move {
            ("black", "white")
        } else {
            ("white", "black")
        }
    }

    /// Black's lead in billionths of a disc once the komi is counted:
    /// `black - white - komi`, black's and white's scores under the
    /// record's scoring (under `wof`, the empty squares already given to
    /// the side with more discs).
    fn margin(&self) -> i64 {
        let [b, w] = self.scores_under(self.scoring);
        Komi::UNIT * (b - w) - self.komi.map_or(0, |k| k.0)
    }

    /// The winning seats as a set: bit 0 black, bit 1 white (both on a draw).
    fn winning(&self) -> u64 {
        let m = if self.scoring == Scoring::Anti {
            -self.margin()
        } else {
            self.margin()
        };
        match m.cmp(&0) {
            std::cmp::Ordering::Greater => 0b01,
            std::cmp::Ordering::Less => 0b10,
            std::cmp::Ordering::Equal => 0b11,
        }
    }

    /// The scores under a scoring: disc counts, plus the empty squares to
    /// the winner under `wof` once the game is over.
    pub fn scores_under(&self, scoring: Scoring) -> [i64; 2] {
        let (b, w) = self.counts();
        let (b, w) = (i64::from(b), i64::from(w));
        if scoring == Scoring::Wof && self.over {
            let n = i64::from(self.size());
            let empty = n * n - b - w;
            return match b.cmp(&w) {
                std::cmp::Ordering::Greater => [b + empty, w],
                std::cmp::Ordering::Less => [b, w + empty],
                std::cmp::Ordering::Equal => [b + empty / 2, w + empty - empty / 2],
            };
        }
        [b, w]
    }

    /// [`game::Position::play`] for every move but a legal one on the 8x8
    /// board: a pass, a move on another size, an illegal move.
    #[cold]
    #[inline(never)]
    fn play_other(&mut self, mv: Move) -> Result<(), Illegal> {
        if let Some(b) = &self.sized {
            let mut board = **b;
            let black = board.black_to_move;
            judge_sized(&mut board, mv)?;
            if mv != Move::Pass
                && let Some(n) = self.placed.get_mut(usize::from(!black))
            {
                *n += 1;
            }
            self.mirror(&board);
            self.sized = Some(Box::new(board));
            return Ok(());
        }
        match mv {
            Move::Pass if self.moves != 0 => Err(Illegal::Pass),
            Move::Pass => {
                self.pass_eight();
                Ok(())
            }
            Move::At(sq) => Err(Illegal::OffBoard(Square::sized(sq))),
            // not a legal move: the square is taken or outflanks nothing
            Move::Place(sq) => Err(self.refused_eight(sq)),
        }
    }

    /// Why an 8x8 square that is not among the legal moves is refused.
    fn refused_eight(&self, sq: u8) -> Illegal {
        let bit = 1u64.checked_shl(u32::from(sq)).unwrap_or(0);
        let square = Square::eight(sq);
        if (self.mover | self.other) & bit != 0 {
            let black = self.pos().black & bit != 0;
            return Illegal::Occupied { square, black };
        }
        Illegal::NoFlip(square)
    }
}

/// Judges a move on a board of another size than 8 and, when it is legal,
/// plays it on `board` (a copy: the caller keeps it only then).
fn judge_sized(board: &mut Board, mv: Move) -> Result<(), Illegal> {
    let sq = match mv {
        Move::Pass if !board.moves.is_empty() => return Err(Illegal::Pass),
        Move::Pass => {
            board.pass();
            return Ok(());
        }
        Move::At(sq) => sq,
        Move::Place(sq) => sized::square(sq / 8, sq % 8),
    };
    let square = Square::sized(sq);
    if sq / 16 >= board.size || sq % 16 >= board.size {
        return Err(Illegal::OffBoard(square));
    }
    if board.black.has(sq) || board.white.has(sq) {
        let black = board.black.has(sq);
        return Err(Illegal::Occupied { square, black });
    }
    let flipped = if board.moves.has(sq) {
        board.flips(sq)
    } else {
        Bits::EMPTY
    };
    if flipped.is_empty() {
        return Err(Illegal::NoFlip(square));
    }
    board.play(sq, flipped);
    Ok(())
}

/// The squares of an 8x8 move set, lowest first.
fn squares_of(mut moves: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let sq = (moves != 0).then(|| moves.trailing_zeros() as u8)?;
        moves &= moves - 1;
        Some(sq)
    })
}

impl game::Position for State {
    type Move = Move;
    type Illegal = Illegal;

    fn variant(&self) -> &'static str {
        self.scoring.name()
    }

    fn seats(&self) -> &'static [&'static str] {
        &["black", "white"]
    }

    fn to_move(&self) -> &'static str {
        self.sides().0
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn must_pass(&self) -> bool {
        self.moves == 0
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    /// A legal move on the 8x8 board inline: its square is one of the
    /// side to move's legal moves (so empty and outflanking), and one
    /// kernel call gives its flips and the next side's moves. Everything
    /// else out of line (`State::play_other`).
    #[inline(always)]
    fn play(&mut self, mv: &Move) -> Result<(), Illegal> {
        if let Move::Place(sq) = *mv
            && sq < 64
            && self.moves >> sq & 1 != 0
        {
            let (p, o, sq) = (self.mover, self.other, u32::from(sq));
            let step = match self.engine {
                // SAFETY: `Engine::Avx2` is chosen only when the CPU has AVX2.
                #[cfg(target_arch = "x86_64")]
                Engine::Avx2 => Some(unsafe { step_avx2(p, o, sq) }),
                Engine::Plain => Some(step(p, o, sq)),
                _ => None,
            };
            if let Some((flipped, next)) = step {
                self.place(1 << sq, flipped, next);
                return Ok(());
            }
        }
        self.play_other(*mv)
    }

    fn scores_into(&self, out: &mut Vec<i64>) {
        out.clear();
        out.extend(self.scores_under(self.scoring));
    }

    fn winner_set(&self, _scores: &[i64]) -> u64 {
        self.winning()
    }

    /// The 8x8 squares lowest bit first, or the other size's squares.
    fn legal_moves(&self) -> Result<impl Iterator<Item = Move> + '_, Unlisted> {
        let (eight, other) = match &self.sized {
            Some(b) => (0, Some(b.moves)),
            None => (self.moves, None),
        };
        let other = other.into_iter().flat_map(Bits::squares);
        Ok(squares_of(eight)
            .map(Move::Place)
            .chain(other.map(Move::At)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain square-by-square reference for the bitboard code.
    fn slow_flips(p: u64, o: u64, sq: u32) -> u64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut all = 0;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut rr, mut cc, mut f) = (r + dr, c + dc, 0u64);
            while (0..8).contains(&rr) && (0..8).contains(&cc) {
                let b = 1u64 << (rr * 8 + cc);
                if o & b != 0 {
                    f |= b;
                } else {
                    if p & b != 0 {
                        all |= f;
                    }
                    break;
                }
                rr += dr;
                cc += dc;
            }
        }
        all
    }

    #[test]
    fn start_moves() {
        let pos = Bitboard::START;
        // d3 (bit 19), c4 (26), f5 (37), e6 (44)
        assert_eq!(pos.moves(), (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
    }

    #[test]
    fn bitboard_agrees_with_reference() {
        // Pseudo-random positions from a fixed xorshift sequence.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let a = s;
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (p, o) = (a & s, a & !s);
            let mut want = 0;
            for sq in 0..64 {
                if (p | o) & (1 << sq) == 0 && slow_flips(p, o, sq) != 0 {
                    want |= 1 << sq;
                }
                assert_eq!(flips(p, o, sq) & !o, 0);
                if (p | o) & (1 << sq) == 0 {
                    assert_eq!(flips(p, o, sq), slow_flips(p, o, sq));
                }
            }
            assert_eq!(legal_moves(p, o), want);
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_moves_agree() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let a = s;
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (p, o) = (a & s, a & !s);
            // SAFETY: the CPU has AVX2.
            assert_eq!(unsafe { legal_moves_avx2(p, o) }, legal_moves(p, o));
            assert_eq!(unsafe { legal_moves_avx2(o, p) }, legal_moves(o, p));
            for sq in 0..65 {
                // SAFETY: as above.
                assert_eq!(unsafe { flips_avx2(p, o, sq) }, flips(p, o, sq));
                if sq < 64 {
                    // SAFETY: as above.
                    assert_eq!(unsafe { step_avx2(p, o, sq) }, step(p, o, sq));
                }
            }
        }
    }

    #[test]
    fn replay_kernels_agree() {
        // random games, then the same squares with one move changed
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..300 {
            let mut pos = Bitboard::START;
            let mut squares = Vec::new();
            while !pos.is_over() {
                let (p, o) = pos.mover();
                let legal = legal_moves(p, o);
                if legal == 0 {
                    pos.pass();
                    continue;
                }
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let mut bits = legal;
                for _ in 0..(s % u64::from(legal.count_ones())) {
                    bits &= bits - 1;
                }
                let sq = bits.trailing_zeros();
                pos.play(sq, flips(p, o, sq));
                squares.push(Some(sq));
            }
            for kernel in [Kernel::Plain, Kernel::X86V3] {
                let r = replay_clean_with(kernel, squares.iter().copied());
                assert_eq!(r.map(|r| r.pos), Some(pos));
                let cut = replay_clean_with(kernel, squares.iter().copied().take(20));
                assert_eq!(cut, None);
                let mut bad = squares.clone();
                if let Some(m) = bad.get_mut((s % 40) as usize) {
                    *m = Some(((s >> 8) % 64) as u32);
                }
                assert_eq!(
                    replay_clean_with(kernel, bad.iter().copied()),
                    replay_clean_with(Kernel::Plain, bad.iter().copied())
                );
            }
        }
    }

    #[test]
    fn kernels_agree() {
        // The plain kernel always runs; the other one where the CPU has it.
        let want = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390_216];
        for kernel in [Kernel::Plain, Kernel::X86V3] {
            if !kernel.available() {
                continue;
            }
            for (d, &n) in want.iter().enumerate() {
                assert_eq!(perft_with(kernel, Bitboard::START, d as u32), n);
            }
        }
    }

    #[test]
    fn parallel_perft_agrees() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for d in 6..=9 {
            assert_eq!(
                pool.install(|| perft_parallel(Bitboard::START, d)),
                perft(Bitboard::START, d)
            );
        }
    }

    #[test]
    fn perft_shallow() {
        let want = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390_216];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft(Bitboard::START, d as u32), n, "depth {d}");
        }
    }
}
