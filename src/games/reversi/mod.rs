//! Reversi (Othello), as `../shared/spec/reversi.md` fixes it.
//!
//! - 8x8 board, columns `a`..`h` left to right, rows `1`..`8` top to bottom
//!   (`a1` top-left). White starts on `d4 e5`, black on `d5 e4`; black moves
//!   first, unless a `Setup` tag gives another start.
//! - `[Size "N"]`, N even from 4 to 16 (default 8): an NxN board, columns
//!   `a`.. and rows `1`..`N` (`p16` on 16x16). The start is the four centre
//!   squares as on 8x8: white on (N/2-1, N/2-1) and (N/2, N/2) (row, column
//!   from 0), black on the other two. A `Setup` then holds N*N cells.
//! - A move places a disc that outflanks at least one straight line of
//!   opponent discs; every outflanked disc in every direction flips.
//! - A side with no move passes; a pass while a move exists is illegal. Passes
//!   may be written (`pass`, `PA`, `ps`, `--`) or left out.
//! - The game ends when neither side can move. Score: discs of each colour;
//!   variant `wof` adds the empty squares to the winner (halved on a draw);
//!   variant `anti`: the side with fewer discs wins (scores stay disc
//!   counts).
//! - `[Komi "K"]` (a decimal, at most 2 decimals, default 0) is added to
//!   white's score to decide the winner: black wins iff
//!   black - white - K > 0, a draw iff it is 0 (under `anti`, black wins iff
//!   it is below 0), black and white being the scores under the record's
//!   scoring (disc counts; under `wof` the empty squares go to the side
//!   with more discs first, as GGS counts a komi game). Scores, and the
//!   numbers of a `Result` tag, stay those counts; the komi decides only
//!   who won.
//!
//! Layout: [`notation`] reads tokens into [`Move`]s for the board's size,
//! [`engine`] is the 8x8 bitboard rule engine (the fast path), [`sized`] the
//! engine for the other sizes, [`render`] draws positions of any size.
//!
//! Decisions where the spec is silent: an unknown `Variant` is a
//! `record::bad_tag` error; a `Setup` position in which the side to move has no
//! move is accepted (the replay passes for it, or ends the game); under `wof`
//! with a komi, the empty squares go to the side with more discs, and the
//! komi is then added to white's score (GGS's rule); a bad
//! `Size` skips the check of `Setup` (its length depends on the size).

pub mod engine;
pub mod notation;
pub mod packed;
pub mod render;
pub mod sized;
pub mod solver;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::diag::{Diag, legal_moves_help};
use crate::game::{Parsed, Rules, variant_in, variant_index};
use crate::record::{Tags, Token};
use engine::Position;
pub use notation::Move;
use sized::{Bits, Board};

/// The Reversi game.
pub struct Reversi;

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
    const ALL: [Scoring; 3] = [Scoring::Standard, Scoring::Wof, Scoring::Anti];

    fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Wof => "wof",
            Scoring::Anti => "anti",
        }
    }
}

/// A komi in hundredths of a disc (`1.5` is 150).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Komi(pub i32);

impl std::fmt::Display for Komi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, frac) = (self.0.unsigned_abs() / 100, self.0.unsigned_abs() % 100);
        match frac {
            0 => write!(f, "{sign}{whole}"),
            f10 if f10 % 10 == 0 => write!(f, "{sign}{whole}.{}", f10 / 10),
            _ => write!(f, "{sign}{whole}.{frac:02}"),
        }
    }
}

impl Komi {
    /// The komi as a JSON number (an integer when it is one).
    fn json(self) -> Value {
        if self.0 % 100 == 0 {
            json!(self.0 / 100)
        } else {
            json!(f64::from(self.0) / 100.0)
        }
    }
}

/// Reads a `Komi` value: an optional sign, digits, and at most 2 decimals.
fn parse_komi(value: &str) -> Result<Komi, String> {
    let v = value.trim();
    let (neg, digits) = match v.as_bytes().first() {
        Some(b'-') => (true, v.get(1..).unwrap_or("")),
        Some(b'+') => (false, v.get(1..).unwrap_or("")),
        _ => (false, v),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(frac) {
        return Err(format!("`{v}` is not a decimal number"));
    }
    if digits.ends_with('.') {
        return Err(format!("`{v}` has a point without decimals"));
    }
    if frac.len() > 2 {
        return Err(format!("`{v}` has more than 2 decimals"));
    }
    let whole: i32 = match whole.parse() {
        Ok(w) if w <= 10_000 => w,
        _ => return Err(format!("`{v}` is more than 10000")),
    };
    let frac: i32 = format!("{frac:0<2}").parse().unwrap_or(0);
    let k = whole * 100 + frac;
    Ok(Komi(if neg { -k } else { k }))
}

/// Reads a `Size` value: an even number from 4 to 16.
fn parse_size(value: &str) -> Result<u8, String> {
    let v = value.trim();
    match v.parse::<u8>() {
        Ok(n) if (4..=sized::MAX_SIZE).contains(&n) && n % 2 == 0 => Ok(n),
        Ok(n) if n % 2 == 1 => Err(format!("{n} is odd")),
        Ok(n) => Err(format!("{n} is not from 4 to 16")),
        Err(_) => Err(format!("`{v}` is not a number")),
    }
}

/// The engine a game's moves run on (the common one first: its test is
/// the shortest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// The 8x8 bitboards on AVX2 ([`engine::step_avx2`]), chosen when the
    /// CPU has it.
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

/// A Reversi game in progress.
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
    pub fn new(pos: Position, scoring: Scoring) -> State {
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
        if pos != Position::START {
            state.moves = state.legal(mover, other);
            state.over = state.moves == 0 && state.legal(other, mover) == 0;
        }
        state
    }

    /// A game on a board of another size.
    fn on(board: Board, scoring: Scoring) -> State {
        let mut state = State {
            engine: Engine::Sized,
            sized: Some(Box::new(board)),
            ..State::new(Position::START, scoring)
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
    fn pos(&self) -> Position {
        let (black, white) = if self.black_to_move {
            (self.mover, self.other)
        } else {
            (self.other, self.mover)
        };
        Position {
            black,
            white,
            black_to_move: self.black_to_move,
        }
    }

    /// The board's side.
    pub fn size(&self) -> u8 {
        self.sized.as_ref().map_or(8, |b| b.size)
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

    /// Whether the side to move has no move.
    #[inline]
    fn stuck(&self) -> bool {
        self.moves == 0
    }

    /// Whether neither side can move.
    #[inline]
    fn over(&self) -> bool {
        self.over
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
            Engine::Avx2 => unsafe { engine::legal_moves_avx2(p, o) },
            _ => engine::legal_moves(p, o),
        }
    }

    /// Whether the game ended, once the side to move has no move (8x8).
    #[cold]
    #[inline(never)]
    fn stuck_now(&mut self) {
        self.over = self.legal(self.other, self.mover) == 0;
    }

    /// A pass on the 8x8 board.
    fn pass(&mut self) {
        (self.mover, self.other) = (self.other, self.mover);
        self.black_to_move = !self.black_to_move;
        self.moves = self.legal(self.mover, self.other);
        self.over = self.moves == 0 && self.legal(self.other, self.mover) == 0;
    }

    fn legal_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        match &self.sized {
            Some(b) => names.extend(b.moves.squares().map(notation::sized_name)),
            None => {
                let mut moves = self.moves;
                while moves != 0 {
                    let sq = moves.trailing_zeros() as u8;
                    moves &= moves - 1;
                    names.push(notation::square_name(sq));
                }
            }
        }
        names.sort();
        names
    }

    fn side(&self) -> (&'static str, &'static str) {
        if self.black_to_move {
            ("black", "white")
        } else {
            ("white", "black")
        }
    }

    /// Black's lead in hundredths of a disc once the komi is counted:
    /// `100 * (black - white) - komi`, black's and white's scores under the
    /// record's scoring (under `wof`, the empty squares already given to
    /// the side with more discs).
    fn margin(&self) -> i64 {
        let [b, w] = self.scores_under(self.scoring);
        100 * (b - w) - i64::from(self.komi.map_or(0, |k| k.0))
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
    fn scores_under(&self, scoring: Scoring) -> [i64; 2] {
        let (b, w) = self.counts();
        let (b, w) = (i64::from(b), i64::from(w));
        if scoring == Scoring::Wof && self.over() {
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
}

impl render::Cells for State {
    fn size(&self) -> u8 {
        State::size(self)
    }

    fn cell(&self, row: u8, col: u8) -> char {
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
        if black {
            'X'
        } else if white {
            'O'
        } else {
            '.'
        }
    }
}

/// A start position read from a `Setup` value.
struct Setup {
    black: Bits,
    white: Bits,
    black_to_move: bool,
}

/// Reads a `Setup` value: N*N cells from `a1` row by row, then a space and `b`/`w`.
fn parse_setup(value: &str, size: u8) -> Result<Setup, String> {
    let want = usize::from(size) * usize::from(size);
    let value = value.trim();
    let (cells, side) = value
        .rsplit_once(char::is_whitespace)
        .ok_or_else(|| format!("expected {want} cells, a space, then `b` or `w`"))?;
    let cells = cells.trim_end();
    let black_to_move = match side {
        "b" | "B" => true,
        "w" | "W" => false,
        other => return Err(format!("the side to move is `{other}`, not `b` or `w`")),
    };
    let count = cells.chars().count();
    if count != want {
        return Err(format!(
            "{} instead of {want}{}",
            crate::diag::plural(count, "cell", "cells"),
            if size == 8 {
                String::new()
            } else {
                format!(" for a {size}x{size} board")
            }
        ));
    }
    let mut setup = Setup {
        black: Bits::EMPTY,
        white: Bits::EMPTY,
        black_to_move,
    };
    for (i, ch) in cells.chars().enumerate() {
        let (row, col) = ((i / usize::from(size)) as u8, (i % usize::from(size)) as u8);
        let sq = sized::square(row, col);
        match ch {
            'X' | 'x' | '*' => setup.black.insert(sq),
            'O' | 'o' => setup.white.insert(sq),
            '-' | '.' => {}
            other => {
                return Err(format!(
                    "cell {} (`{other}`) is not X, *, O, - or .",
                    notation::sized_name(sq)
                ));
            }
        }
    }
    Ok(setup)
}

/// The 8x8 position of a setup (squares `16 * row + column` to bits
/// `8 * row + column`).
fn eight(setup: &Setup) -> Position {
    let bits = |b: &Bits| {
        b.squares()
            .filter(|sq| sq % 16 < 8 && sq / 16 < 8)
            .fold(0u64, |acc, sq| acc | 1u64 << ((sq / 16) * 8 + sq % 16))
    };
    Position {
        black: bits(&setup.black),
        white: bits(&setup.white),
        black_to_move: setup.black_to_move,
    }
}

/// A tag's error at its value.
fn tag_error(code: &str, what: &str, tag: &crate::record::Tag, why: String, help: String) -> Diag {
    Diag::error(code.to_string(), format!("bad {what}: {why}"))
        .at(tag.value_span)
        .label(why)
        .help(help)
}

impl Reversi {
    /// Judges a move on a board of another size than 8.
    fn play_sized(state: &State, board: &mut Board, mv: &Parsed<Move>) -> Result<(), Diag> {
        let sq = match mv.mv {
            Move::Pass => {
                if !board.moves.is_empty() {
                    return Err(illegal_pass(state, mv.span));
                }
                board.pass();
                return Ok(());
            }
            Move::At(sq) => sq,
            Move::Place(sq) => sized::square(sq / 8, sq % 8),
        };
        let name = notation::sized_name(sq);
        if sq / 16 >= board.size || sq % 16 >= board.size {
            return Err(off_board(&name, mv.span));
        }
        if board.black.has(sq) || board.white.has(sq) {
            return Err(occupied(state, &name, board.black.has(sq), mv.span));
        }
        let flipped = if board.moves.has(sq) {
            board.flips(sq)
        } else {
            Bits::EMPTY
        };
        if flipped.is_empty() {
            return Err(no_flip(state, &name, mv.span));
        }
        board.play(sq, flipped);
        Ok(())
    }

    /// [`Rules::play`] for every move but a legal one on the 8x8 board: a
    /// pass, a move on another size, an illegal move.
    #[cold]
    #[inline(never)]
    fn play_other(state: &mut State, mv: &Parsed<Move>) -> Result<(), Diag> {
        if let Some(b) = &state.sized {
            let mut board = **b;
            let black = board.black_to_move;
            Self::play_sized(state, &mut board, mv)?;
            if !matches!(mv.mv, Move::Pass)
                && let Some(n) = state.placed.get_mut(usize::from(!black))
            {
                *n += 1;
            }
            state.mirror(&board);
            state.sized = Some(Box::new(board));
            return Ok(());
        }
        match mv.mv {
            Move::Pass => {
                if state.moves != 0 {
                    return Err(illegal_pass(state, mv.span));
                }
                state.pass();
                Ok(())
            }
            Move::At(sq) => Err(off_board(&notation::sized_name(sq), mv.span)),
            // not a legal move: the square is taken or outflanks nothing
            Move::Place(sq) => {
                let bit = 1u64.checked_shl(u32::from(sq)).unwrap_or(0);
                let name = notation::square_name(sq);
                if (state.mover | state.other) & bit != 0 {
                    let black = state.pos().black & bit != 0;
                    return Err(occupied(state, &name, black, mv.span));
                }
                Err(no_flip(state, &name, mv.span))
            }
        }
    }
}

/// `reversi::illegal_pass`: a pass while the side to move has a move.
fn illegal_pass(state: &State, span: crate::span::Span) -> Diag {
    let (me, _) = state.side();
    Diag::error(
        "reversi::illegal_pass",
        format!("{me} has a legal move and may not pass"),
    )
    .at(span)
    .label("pass while a move exists")
    .help(legal_moves_help(&state.legal_names()))
}

/// `reversi::bad_square`: a square the board does not have.
fn off_board(name: &str, span: crate::span::Span) -> Diag {
    Diag::error(
        "reversi::bad_square",
        format!("`{name}` is not a square of the board"),
    )
    .at(span)
    .label("not a square")
}

/// `reversi::occupied`: a disc (black's when `black`) is on the square.
fn occupied(state: &State, name: &str, black: bool, span: crate::span::Span) -> Diag {
    let owner = if black { "black" } else { "white" };
    Diag::error(
        "reversi::occupied",
        format!("{name} is already occupied by a {owner} disc"),
    )
    .at(span)
    .label(format!("{owner} disc here"))
    .help(legal_moves_help(&state.legal_names()))
}

/// `reversi::no_flip`: the square outflanks nothing.
fn no_flip(state: &State, name: &str, span: crate::span::Span) -> Diag {
    let (me, them) = state.side();
    Diag::error(
        "reversi::no_flip",
        format!("{name} outflanks no {them} disc"),
    )
    .at(span)
    .label(format!("{me} flips nothing here"))
    .help(legal_moves_help(&state.legal_names()))
}

/// Leaf count of the legal-move tree from the standard start of an NxN
/// board (`size` even, 4 to 16): the 8x8 bitboard engine for 8, the
/// sized engine otherwise.
pub fn perft_sized(size: u8, depth: u32) -> Result<u64, String> {
    parse_size(&size.to_string()).map_err(|why| format!("board size {why} (even, 4 to 16)"))?;
    if size == 8 {
        return Ok(engine::perft_parallel(Position::START, depth));
    }
    Ok(sized::perft(&Board::start(size), depth))
}

impl Rules for Reversi {
    type Move = Move;
    type State = State;
    type Spans = ();

    const NAME: &'static str = "reversi";
    const ALIASES: &'static [&'static str] = &["othello"];
    const RULES_TAGS: &'static [&'static str] = &["Setup", "Size", "Komi"];
    const VARIANTS: &'static [&'static str] = &["standard", "wof", "anti"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        // the rules tags in one pass (the first of each name), most tags
        // told apart by their first letter
        let (mut variant, mut size_tag, mut komi_tag, mut setup_tag) = (false, None, None, None);
        for t in tags.iter() {
            if !matches!(t.name.as_bytes().first(), Some(b'V' | b'S' | b'K')) {
                continue;
            }
            match t.name.as_str() {
                "Variant" => variant = true,
                "Size" => _ = size_tag.get_or_insert(t),
                "Komi" => _ = komi_tag.get_or_insert(t),
                "Setup" => _ = setup_tag.get_or_insert(t),
                _ => {}
            }
        }
        let scoring = if variant {
            Scoring::ALL
                .get(variant_in::<Self>(tags, &mut errors))
                .copied()
                .unwrap_or(Scoring::Standard)
        } else {
            Scoring::Standard
        };
        let size = match size_tag {
            None => Some(8),
            Some(t) => match parse_size(&t.value) {
                Ok(n) => Some(n),
                Err(why) => {
                    errors.push(tag_error(
                        "reversi::bad_size",
                        "Size",
                        t,
                        why,
                        "the board's side: an even number from 4 to 16 (default 8)".into(),
                    ));
                    None
                }
            },
        };
        let komi = match komi_tag {
            None => None,
            Some(t) => match parse_komi(&t.value) {
                Ok(k) => Some(k),
                Err(why) => {
                    errors.push(tag_error(
                        "reversi::bad_komi",
                        "Komi",
                        t,
                        why,
                        "a decimal number with at most 2 decimals, added to white's discs to decide the winner: `0`, `1.5`, `-2`".into(),
                    ));
                    None
                }
            },
        };
        let setup = match (setup_tag, size) {
            (Some(t), Some(size)) => match parse_setup(&t.value, size) {
                Ok(s) => Some(s),
                Err(why) => {
                    let n = usize::from(size) * usize::from(size);
                    errors.push(
                        Diag::error("reversi::bad_setup", format!("bad Setup: {why}"))
                            .at(t.value_span)
                            .label(why)
                            .help(format!("{n} cells from a1 row by row (X or * black, O white, - or . empty), a space, then b or w")),
                    );
                    None
                }
            },
            _ => None,
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let size = size.unwrap_or(8);
        let mut state = match (&setup, size) {
            (None, 8) => State::new(Position::START, scoring),
            (Some(s), 8) => State::new(eight(s), scoring),
            (None, n) => State::on(Board::start(n), scoring),
            (Some(s), n) => State::on(Board::new(n, s.black, s.white, s.black_to_move), scoring),
        };
        state.komi = komi;
        Ok(state)
    }

    fn variant(state: &State) -> &'static str {
        state.scoring.name()
    }

    fn seats(_: &State) -> &'static [&'static str] {
        &["black", "white"]
    }

    fn parse_moves_into(
        start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move>>,
    ) -> Option<Diag> {
        notation::parse_sized_into(tokens, src, start.size(), moves)
    }

    fn to_move(state: &State) -> &'static str {
        state.side().0
    }

    fn is_over(state: &State) -> bool {
        state.over()
    }

    fn must_pass(state: &State) -> bool {
        state.stuck()
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
    /// else out of line (`Reversi::play_other`).
    #[inline]
    fn play(state: &mut State, mv: &Parsed<Move>) -> Result<(), Diag> {
        if let Move::Place(sq) = mv.mv
            && sq < 64
            && state.moves >> sq & 1 != 0
        {
            let (p, o, sq) = (state.mover, state.other, u32::from(sq));
            let step = match state.engine {
                // SAFETY: `Engine::Avx2` is chosen only when the CPU has AVX2.
                #[cfg(target_arch = "x86_64")]
                Engine::Avx2 => Some(unsafe { engine::step_avx2(p, o, sq) }),
                Engine::Plain => Some(engine::step(p, o, sq)),
                _ => None,
            };
            if let Some((flipped, next)) = step {
                state.place(1 << sq, flipped, next);
                return Ok(());
            }
        }
        Self::play_other(state, mv)
    }

    fn scores_into(state: &State, out: &mut Vec<i64>) {
        out.clear();
        out.extend(state.scores_under(state.scoring));
    }

    fn winner_set(state: &State, _scores: &[i64]) -> u64 {
        state.winning()
    }

    fn result_extras(state: &State) -> Map<String, Value> {
        let (b, w) = state.counts();
        let mut m = Map::new();
        m.insert("discs".into(), json!({ "black": b, "white": w }));
        m.insert(
            "discs_placed".into(),
            json!({ "black": state.placed[0], "white": state.placed[1] }),
        );
        if let Some(k) = state.komi {
            m.insert("komi".into(), k.json());
        }
        if state.size() != 8 {
            m.insert("size".into(), json!(state.size()));
        }
        m
    }

    /// The discs each side placed (spec reversi.md, Rules: `score` reports
    /// them); the komi and the `anti` rule, which decide the winner.
    fn score_notes(state: &State) -> Vec<String> {
        let mut notes = vec![format!(
            "discs placed: black {}, white {}",
            state.placed[0], state.placed[1]
        )];
        if state.scoring == Scoring::Anti {
            notes.push("anti: the side with fewer discs wins".to_string());
        }
        if let Some(k) = state.komi {
            notes.push(format!(
                "komi {k}: added to white's score to decide the winner"
            ));
        }
        notes
    }

    /// A `Result` that is the count under the other scoring (standard or
    /// `wof`): say so and name the `Variant` tag that gives it.
    fn result_help(state: &State, claimed: &[i64]) -> Option<String> {
        let other = match state.scoring {
            Scoring::Standard => Scoring::Wof,
            Scoring::Wof => Scoring::Standard,
            Scoring::Anti => return None,
        };
        let scores = state.scores_under(other);
        if scores != claimed || scores == state.scores_under(state.scoring) {
            return None;
        }
        let how = match other {
            Scoring::Wof => "empty squares to the winner",
            _ => "discs on the board",
        };
        Some(format!(
            "{} is the count under {} scoring ({how}): add [Variant \"{}\"]",
            crate::record::format_result(&scores),
            other.name(),
            other.name()
        ))
    }

    fn write_move(mv: &Move) -> String {
        notation::write(*mv)
    }

    fn legal_moves(state: &State) -> Result<Vec<String>, String> {
        Ok(state.legal_names())
    }

    fn render(state: &State, color: bool) -> String {
        let to_move = (!state.over()).then_some(state.black_to_move);
        render::text(state, color, state.counts(), to_move)
    }

    fn position_rows(state: &State) -> Vec<String> {
        render::rows(state)
    }

    fn scene(state: &State, last: Option<&Move>) -> crate::svg::Scene {
        let last = match last {
            Some(Move::Place(sq)) => Some((sq / 8, sq % 8)),
            Some(Move::At(sq)) => Some((sq / 16, sq % 16)),
            _ => None,
        };
        render::scene(state, last)
    }

    const PLOT_UNIT: &'static str = "discs";

    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        variant_index::<Self>(variant)?;
        crate::game::no_players::<Self>(players)?;
        if depth == 0 {
            return Ok(Vec::new());
        }
        Ok(engine::children(Position::START)
            .into_iter()
            .map(|(sq, next)| {
                let name =
                    sq.map_or_else(|| "pass".to_string(), |sq| notation::square_name(sq as u8));
                (name, engine::perft_parallel_with(next, depth - 1, done))
            })
            .collect())
    }
}
