//! The engine for boards of every even size from 4 to 16 other than 8 (the
//! 8x8 game runs on the `u64` bitboards of [`super::engine`]).
//!
//! Square `16 * row + column` (`a1` = 0, whatever the size) is bit
//! `square % 64` of word `square / 64` of a 256-bit set ([`Bits`]), one set
//! per colour. A move's flips walk the eight directions from the square,
//! bounded by the board's size; the legal moves are the empty squares with
//! flips. Nothing is allocated: a position is a few fixed arrays.

/// The largest board side.
pub const MAX_SIZE: u8 = 16;

/// The eight directions as (row step, column step): the first four go toward
/// higher bit indexes, the last four toward lower ones (on 8x8, whose
/// ray tables follow this order; this engine walks the same steps).
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// A set of squares of a board up to 16x16 (bit `16 * row + column`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; 4]);

    #[inline]
    pub fn has(&self, sq: u8) -> bool {
        let (w, b) = (usize::from(sq / 64), sq % 64);
        self.0.get(w).is_some_and(|word| word >> b & 1 == 1)
    }

    #[inline]
    pub fn insert(&mut self, sq: u8) {
        let (w, b) = (usize::from(sq / 64), sq % 64);
        if let Some(word) = self.0.get_mut(w) {
            *word |= 1 << b;
        }
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn or(self, other: Bits) -> Bits {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        out
    }

    #[inline]
    pub fn and_not(self, other: Bits) -> Bits {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        out
    }

    /// The squares in the set, lowest first.
    pub fn squares(self) -> impl Iterator<Item = u8> {
        self.0.into_iter().enumerate().flat_map(|(w, mut word)| {
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let b = word.trailing_zeros() as u8;
                word &= word - 1;
                Some(w as u8 * 64 + b)
            })
        })
    }
}

/// Square index of a (row, column), both from 0.
#[inline]
pub fn square(row: u8, col: u8) -> u8 {
    row * 16 + col
}

/// A position on an NxN board: the discs, whose move it is, and the side
/// to move's legal moves (kept with the position, so each ply computes
/// them once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub size: u8,
    pub black: Bits,
    pub white: Bits,
    pub black_to_move: bool,
    /// The legal moves of the side to move.
    pub moves: Bits,
}

impl Board {
    /// The standard start on an NxN board (`size` even, 4..=16): white on
    /// the centre's top-left and bottom-right squares, black on the other
    /// two, black to move (as d4/e5 white, d5/e4 black on 8x8).
    pub fn start(size: u8) -> Board {
        let h = size / 2;
        let mut black = Bits::EMPTY;
        let mut white = Bits::EMPTY;
        white.insert(square(h - 1, h - 1));
        white.insert(square(h, h));
        black.insert(square(h, h - 1));
        black.insert(square(h - 1, h));
        Board::new(size, black, white, true)
    }

    /// A position from its discs (squares off the board are dropped).
    pub fn new(size: u8, black: Bits, white: Bits, black_to_move: bool) -> Board {
        let size = size.min(MAX_SIZE);
        let mut on = Bits::EMPTY;
        for r in 0..size {
            for c in 0..size {
                on.insert(square(r, c));
            }
        }
        let keep = |b: Bits| Bits(std::array::from_fn(|i| b.0[i] & on.0[i]));
        let mut board = Board {
            size,
            black: keep(black),
            white: keep(white),
            black_to_move,
            moves: Bits::EMPTY,
        };
        board.moves = board.legal(board.black_to_move);
        board
    }

    /// (mover's discs, other's discs) for a side.
    #[inline]
    fn sides(&self, black: bool) -> (Bits, Bits) {
        if black {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    /// The discs flipped by `black` (or white) playing on `sq`: none when the
    /// square is off the board or taken, or the move outflanks nothing.
    pub fn flips_for(&self, black: bool, sq: u8) -> Bits {
        let (p, o) = self.sides(black);
        let (row, col) = (sq / 16, sq % 16);
        let mut flipped = Bits::EMPTY;
        if row >= self.size || col >= self.size || p.has(sq) || o.has(sq) {
            return flipped;
        }
        let n = i32::from(self.size);
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (i32::from(row) + dr, i32::from(col) + dc);
            let mut run = Bits::EMPTY;
            while (0..n).contains(&r) && (0..n).contains(&c) {
                let s = square(r as u8, c as u8);
                if o.has(s) {
                    run.insert(s);
                } else {
                    if p.has(s) {
                        flipped = flipped.or(run);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flipped
    }

    /// The discs the side to move flips on `sq`.
    #[inline]
    pub fn flips(&self, sq: u8) -> Bits {
        self.flips_for(self.black_to_move, sq)
    }

    /// Whether a side has a move at `sq` (stops at the first outflanked line).
    fn can_play(&self, black: bool, sq: u8) -> bool {
        let (p, o) = self.sides(black);
        let (row, col) = (sq / 16, sq % 16);
        let n = i32::from(self.size);
        DIRECTIONS.iter().any(|&(dr, dc)| {
            let (mut r, mut c) = (i32::from(row) + dr, i32::from(col) + dc);
            let mut seen = false;
            while (0..n).contains(&r) && (0..n).contains(&c) {
                let s = square(r as u8, c as u8);
                if o.has(s) {
                    seen = true;
                } else {
                    return seen && p.has(s);
                }
                r += dr;
                c += dc;
            }
            false
        })
    }

    /// The legal moves of a side.
    pub fn legal(&self, black: bool) -> Bits {
        let taken = self.black.or(self.white);
        let mut moves = Bits::EMPTY;
        for r in 0..self.size {
            for c in 0..self.size {
                let s = square(r, c);
                if !taken.has(s) && self.can_play(black, s) {
                    moves.insert(s);
                }
            }
        }
        moves
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.moves.is_empty() && self.legal(!self.black_to_move).is_empty()
    }

    /// Plays on `sq` given its flips (nonempty for a legal move).
    pub fn play(&mut self, sq: u8, flipped: Bits) {
        let mut placed = flipped;
        placed.insert(sq);
        if self.black_to_move {
            self.black = self.black.or(placed);
            self.white = self.white.and_not(flipped);
        } else {
            self.white = self.white.or(placed);
            self.black = self.black.and_not(flipped);
        }
        self.black_to_move = !self.black_to_move;
        self.moves = self.legal(self.black_to_move);
    }

    pub fn pass(&mut self) {
        self.black_to_move = !self.black_to_move;
        self.moves = self.legal(self.black_to_move);
    }
}

/// Leaf count of the legal-move tree to `depth` plies, as
/// [`super::engine::perft`] counts it (a forced pass is a ply; a position
/// where neither side can move is a leaf).
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if board.moves.is_empty() {
        if board.legal(!board.black_to_move).is_empty() {
            return 1;
        }
        let mut next = *board;
        next.pass();
        return perft(&next, depth - 1);
    }
    if depth == 1 {
        return u64::from(board.moves.count());
    }
    board
        .moves
        .squares()
        .map(|sq| {
            let mut next = *board;
            next.play(sq, board.flips(sq));
            perft(&next, depth - 1)
        })
        .sum()
}
