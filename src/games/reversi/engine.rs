//! Bitboard Reversi engine: one `u64` per colour, bit `8 * row + column`
//! (`a1` = bit 0, `h1` = bit 7, `h8` = bit 63). Move generation shifts whole
//! boards in the eight directions (no per-square loops); a move's flips use
//! precomputed rays, one bit operation per direction.

/// Squares where the side owning `p` may move against `o`.
///
/// Per direction, a fill of opponent discs runs from the mover's discs in
/// doubling steps (the pair of directions `d`/`-d` share the masks).
/// Horizontal and diagonal fills use only the opponent discs of columns b-g,
/// which can never wrap across the board's edge.
#[inline]
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

/// The eight directions as (row step, column step): the first four go toward
/// higher bit indexes, the last four toward lower ones.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// `RAYS[sq][d]`: the squares seen from `sq` in direction `d`, `sq` excluded.
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
/// In each direction the first square that is not an opponent disc is found
/// with one bit operation on the precomputed ray (the lowest bit of the ray
/// toward higher indexes, the highest toward lower ones); the run before it
/// flips when that square holds a disc of the mover.
#[inline]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    let Some(rays) = RAYS.get(sq as usize) else {
        return 0;
    };
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            flipped |= ray & (first - 1);
        }
    }
    for &ray in &rays[4..] {
        let stop = ray & !o;
        if stop != 0 {
            let first = 1u64 << (63 - stop.leading_zeros());
            if first & p != 0 {
                flipped |= ray & !((first << 1).wrapping_sub(1));
            }
        }
    }
    flipped
}

/// A position: the discs of the side to move and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub black: u64,
    pub white: u64,
    pub black_to_move: bool,
}

impl Position {
    pub const START: Position = Position {
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

/// Leaf count of the legal-move tree to `depth` plies; a forced pass is a ply
/// and a position where neither side can move is a leaf.
pub fn perft(pos: Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o) = pos.mover();
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            return 1;
        }
        let mut next = pos;
        next.pass();
        return perft(next, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let mut next = pos;
        next.play(sq, flips(p, o, sq));
        total += perft(next, depth - 1);
    }
    total
}

/// [`perft`] with the subtrees two plies down counted in parallel (rayon).
pub fn perft_parallel(pos: Position, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth < 6 {
        return perft(pos, depth);
    }
    let children = |pos: Position| -> Vec<Position> {
        let (p, o) = pos.mover();
        let mut moves = legal_moves(p, o);
        let mut out = Vec::new();
        if moves == 0 && legal_moves(o, p) != 0 {
            let mut next = pos;
            next.pass();
            out.push(next);
        }
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let mut next = pos;
            next.play(sq, flips(p, o, sq));
            out.push(next);
        }
        out
    };
    // Game-over positions before depth 2 are leaves of their own.
    let mut leaves = 0;
    let mut frontier = Vec::new();
    for c in children(pos) {
        let grand = children(c);
        if grand.is_empty() {
            leaves += 1;
        }
        frontier.extend(grand);
    }
    if frontier.is_empty() && leaves == 0 {
        return 1;
    }
    leaves
        + frontier
            .par_iter()
            .map(|&p| perft(p, depth - 2))
            .sum::<u64>()
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
        let pos = Position::START;
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

    #[test]
    fn parallel_perft_agrees() {
        for d in 6..=8 {
            assert_eq!(
                perft_parallel(Position::START, d),
                perft(Position::START, d)
            );
        }
    }

    #[test]
    fn perft_shallow() {
        let want = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390_216];
        for (d, &n) in want.iter().enumerate() {
            assert_eq!(perft(Position::START, d as u32), n, "depth {d}");
        }
    }
}
