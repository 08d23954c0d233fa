//! The exact endgame solver of 8x8 Reversi: the score of a position when
//! both sides play perfectly, the empty squares going to the winner (`wof`).
//! The WTHOR writer searches its theoretical scores with it.

use super::engine::{flips, legal_moves};

/// The exact endgame search behind the theoretical score: MTD(f) over a
/// fail-soft alpha-beta with a transposition table (allocated once per
/// writer, kept across games: an entry is a whole position), moves tried
/// best-known first, then those leaving the opponent fewest replies.
#[derive(Clone)]
pub struct Solver {
    table: Vec<Entry>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Solver")
    }
}

/// A transposition-table entry: a position and the bounds of its value.
#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

const TABLE_BITS: u32 = 18;
/// Positions with fewer empty squares are searched without the table.
const TABLE_EMPTIES: u32 = 7;
const NO_MOVE: u8 = 64;

impl Solver {
    /// A solver with an empty transposition table (allocated here, once).
    pub fn new() -> Solver {
        Solver {
            table: vec![Entry::default(); 1 << TABLE_BITS],
        }
    }

    fn slot(p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h.rotate_left(29) >> (64 - TABLE_BITS)) as usize
    }

    /// The final disc difference for the side to move (`p` its discs, `o`
    /// the other's) when both play perfectly, the empty squares going to
    /// the winner.
    /// `guess`: where the search starts (the closer, the fewer passes).
    pub fn exact(&mut self, p: u64, o: u64, guess: i32) -> i32 {
        let (mut lower, mut upper) = (-64, 64);
        let mut guess = guess.clamp(-64, 64);
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            guess = self.search(p, o, beta - 1, beta);
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        lower
    }

    /// Fail-soft alpha-beta in the window `alpha..beta`.
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return final_difference(p, o);
            }
            return -self.search(o, p, -beta, -alpha);
        }
        let empties = 64 - (p | o).count_ones();
        if empties < TABLE_EMPTIES {
            return Self::shallow(p, o, moves, alpha, beta);
        }
        let slot = Self::slot(p, o);
        let mut hint = NO_MOVE;
        if let Some(e) = self.table.get(slot).copied() {
            if e.p == p && e.o == o {
                let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                hint = e.best;
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        // the hinted move first, the others by the opponent's replies
        let mut order = [(0u32, 0u32, 0u64); 32];
        let mut n = 0;
        let mut bits = moves;
        while bits != 0 {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let f = flips(p, o, sq);
            let key = if sq == u32::from(hint) {
                0
            } else {
                let (np, no) = (p | f | (1u64 << sq), o & !f);
                1 + legal_moves(no, np).count_ones()
            };
            if let Some(slot) = order.get_mut(n) {
                *slot = (key, sq, f);
                n += 1;
            }
        }
        let order = order.get_mut(..n).unwrap_or(&mut []);
        order.sort_unstable_by_key(|&(k, _, _)| k);
        let mut best = -65;
        let mut best_sq = NO_MOVE;
        for &(_, sq, f) in order.iter() {
            let v = -self.search(o & !f, p | f | (1u64 << sq), -beta, -alpha);
            if v > best {
                best = v;
                best_sq = sq as u8;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best <= alpha0 {
            (-64, best)
        } else if best >= beta0 {
            (best, 64)
        } else {
            (best, best)
        };
        if let Some(e) = self.table.get_mut(slot) {
            *e = Entry {
                p,
                o,
                lower: lower as i8,
                upper: upper as i8,
                best: best_sq,
            };
        }
        best
    }

    /// The search near the end: moves in square order, no table.
    fn shallow(p: u64, o: u64, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -65;
        let mut bits = moves;
        while bits != 0 {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let f = flips(p, o, sq);
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            let v = {
                let replies = legal_moves(no, np);
                if replies == 0 {
                    if legal_moves(np, no) == 0 {
                        -final_difference(no, np)
                    } else {
                        Self::shallow(np, no, legal_moves(np, no), alpha, beta)
                    }
                } else {
                    -Self::shallow(no, np, replies, -beta, -alpha)
                }
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The final disc difference for `p` with the empty squares to the winner.
fn final_difference(p: u64, o: u64) -> i32 {
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let empty = 64 - pc - oc;
    match pc.cmp(&oc) {
        std::cmp::Ordering::Greater => pc - oc + empty,
        std::cmp::Ordering::Less => pc - oc - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The exact value of a position for the side to move (see [`Solver`]).
#[cfg(test)]
fn solve(p: u64, o: u64) -> i32 {
    Solver::new().exact(p, o, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::engine::Bitboard;

    #[test]
    fn solver_agrees_with_a_full_search_on_small_endings() {
        // a plain minimax over every move, no pruning
        fn minimax(p: u64, o: u64) -> i32 {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
                    let e = 64 - pc - oc;
                    return match pc.cmp(&oc) {
                        std::cmp::Ordering::Greater => pc - oc + e,
                        std::cmp::Ordering::Less => pc - oc - e,
                        std::cmp::Ordering::Equal => 0,
                    };
                }
                return -minimax(o, p);
            }
            let mut best = -65;
            let mut bits = moves;
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                let f = flips(p, o, sq);
                best = best.max(-minimax(o & !f, p | f | (1 << sq)));
            }
            best
        }
        // positions with 9 empty squares from pseudo-random games
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for _ in 0..12 {
            let mut pos = Bitboard::START;
            while 64 - (pos.black | pos.white).count_ones() > 9 && !pos.is_over() {
                let (p, o) = pos.mover();
                let m = legal_moves(p, o);
                if m == 0 {
                    pos.pass();
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mut bits = m;
                for _ in 0..(seed % u64::from(m.count_ones())) {
                    bits &= bits - 1;
                }
                let sq = bits.trailing_zeros();
                pos.play(sq, flips(p, o, sq));
            }
            let (p, o) = pos.mover();
            assert_eq!(solve(p, o), minimax(p, o));
            checked += 1;
        }
        assert_eq!(checked, 12);
    }
}
