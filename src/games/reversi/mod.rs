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
//! - `[Komi "K"]` (a decimal, at most 9 decimals, default 0) is added to
//!   white's score to decide the winner: black wins iff
//!   black - white - K > 0, a draw iff it is 0 (under `anti`, black wins iff
//!   it is below 0), black and white being the scores under the record's
//!   scoring (disc counts; under `wof` the empty squares go to the side
//!   with more discs first, as GGS counts a komi game). Scores, and the
//!   numbers of a `Result` tag, stay those counts; the komi decides only
//!   who won.
//!
//! Layout, one file per concern:
//! - [`engine`]: the rules. The 8x8 bitboard kernels (the fast path) and
//!   the game position, [`State`] ([`Position`](crate::game::Position)):
//!   typed span-free [`Move`]s, `play` refusing a move with a typed
//!   [`Illegal`] and changing nothing then, the legal moves, the scores;
//! - [`sized`]: the kernel for the other sizes, which [`State`] runs;
//! - [`notation`]: tokens into [`Move`]s for the board's size, and moves
//!   back into text ([`Notation`](crate::game::Notation)); it knows no rules;
//! - `explain`: an [`Illegal`] and the move's span made the diagnostic
//!   ([`Explain`](crate::game::Explain)), the only place that writes the
//!   message of a refused move;
//! - [`render`]: terminal text, letter rows and SVG of any size
//!   ([`Render`](crate::game::Render));
//! - [`listed`]: the `MoveScores` tag (moves of the start listed with
//!   their scores, as `.obf` positions list them), each move judged at the
//!   start and, with `validate --check-scores`, each score searched by the
//!   endgame [`solver`] ([`Extras::start_claims`]);
//! - this module: the start from the tags ([`Setup`](crate::game::Setup)),
//!   the report's extras ([`Extras`](crate::game::Extras)) and perft
//!   ([`Perft`](crate::game::Perft)).
//!
//! Decisions where the spec is silent: an unknown `Variant` is a
//! `record::bad_tag` error; a `Setup` position in which the side to move has no
//! move is accepted (the replay passes for it, or ends the game); under `wof`
//! with a komi, the empty squares go to the side with more discs, and the
//! komi is then added to white's score (GGS's rule); a bad
//! `Size` skips the check of `Setup` (its length depends on the size).

pub mod engine;
mod explain;
pub mod listed;
pub mod notation;
pub mod packed;
pub mod render;
pub mod sized;
pub mod solver;
mod symmetry;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{Extras, Perft, PerftError, Setup, variant_in, variant_index};
use crate::record::{Tag, Tags};
use engine::Bitboard;
pub use engine::{Illegal, Komi, Move, Scoring, Square, State};
use sized::{Bits, Board};

/// The Reversi game.
pub struct Reversi;

/// The komi as a JSON number (an integer when it is one).
fn komi_json(komi: Komi) -> Value {
    if komi.is_whole() {
        json!(komi.0 / Komi::UNIT)
    } else {
        json!(komi.0 as f64 / Komi::UNIT as f64)
    }
}

/// Why a `Komi` value (or GGF's `KM`) is refused; each variant holds the
/// value, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KomiError {
    /// Not an optional sign, digits, and decimals.
    NotDecimal(String),
    /// A point with no decimals after it.
    NoDecimals(String),
    /// More decimals that are not 0 than [`Komi::DECIMALS`].
    TooManyDecimals(String),
    /// A whole part above 10000.
    TooLarge(String),
}

impl std::fmt::Display for KomiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KomiError::NotDecimal(v) => write!(f, "`{v}` is not a decimal number"),
            KomiError::NoDecimals(v) => write!(f, "`{v}` has a point without decimals"),
            KomiError::TooManyDecimals(v) => {
                write!(f, "`{v}` has more than {} decimals", Komi::DECIMALS)
            }
            KomiError::TooLarge(v) => write!(f, "`{v}` is more than 10000"),
        }
    }
}

impl std::error::Error for KomiError {}

/// Reads a `Komi` value (and GGF's `KM`): an optional sign, digits, and
/// decimals, at most [`Komi::DECIMALS`] of them that are not 0.
pub(crate) fn parse_komi(value: &str) -> Result<Komi, KomiError> {
    let v = value.trim();
    let (neg, digits) = match v.as_bytes().first() {
        Some(b'-') => (true, v.get(1..).unwrap_or("")),
        Some(b'+') => (false, v.get(1..).unwrap_or("")),
        _ => (false, v),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(frac) {
        return Err(KomiError::NotDecimal(v.to_string()));
    }
    if digits.ends_with('.') {
        return Err(KomiError::NoDecimals(v.to_string()));
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > Komi::DECIMALS {
        return Err(KomiError::TooManyDecimals(v.to_string()));
    }
    let whole: i64 = match whole.parse() {
        Ok(w) if w <= 10_000 => w,
        _ => return Err(KomiError::TooLarge(v.to_string())),
    };
    let frac: i64 = format!("{frac:0<9}").parse().unwrap_or(0);
    let k = whole * Komi::UNIT + frac;
    Ok(Komi(if neg { -k } else { k }))
}

/// Why a `Size` value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// An odd number.
    Odd(u8),
    /// An even number outside 4 to 16.
    OutOfRange(u8),
    /// Not a number from 0 to 255 (the value, trimmed).
    NotNumber(String),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::Odd(n) => write!(f, "{n} is odd"),
            SizeError::OutOfRange(n) => write!(f, "{n} is not from 4 to 16"),
            SizeError::NotNumber(v) => write!(f, "`{v}` is not a number"),
        }
    }
}

impl std::error::Error for SizeError {}

/// Reads a `Size` value: an even number from 4 to 16.
fn parse_size(value: &str) -> Result<u8, SizeError> {
    let v = value.trim();
    match v.parse::<u8>() {
        Ok(n) if (4..=sized::MAX_SIZE).contains(&n) && n % 2 == 0 => Ok(n),
        Ok(n) if n % 2 == 1 => Err(SizeError::Odd(n)),
        Ok(n) => Err(SizeError::OutOfRange(n)),
        Err(_) => Err(SizeError::NotNumber(v.to_string())),
    }
}

/// A start position read from a `Setup` value.
struct StartPosition {
    black: Bits,
    white: Bits,
    black_to_move: bool,
}

/// Why a `Setup` value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// No white space before a last word: `want` is the board's cell count.
    Shape {
        /// The cells the board has.
        want: usize,
    },
    /// The last word is not `b` or `w`.
    Side(String),
    /// The wrong number of cells.
    Count {
        /// The cells written.
        count: usize,
        /// The cells the board has.
        want: usize,
        /// The board's side.
        size: u8,
    },
    /// A cell that is not X, *, O, - or .: the cell's name and character.
    Cell {
        /// The cell's name (`a1`...).
        name: String,
        /// What stands there.
        found: char,
    },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Shape { want } => {
                write!(f, "expected {want} cells, a space, then `b` or `w`")
            }
            SetupError::Side(other) => write!(f, "the side to move is `{other}`, not `b` or `w`"),
            SetupError::Count { count, want, size } => {
                let cells = crate::diag::plural(*count, "cell", "cells");
                write!(f, "{cells} instead of {want}")?;
                if *size != 8 {
                    write!(f, " for a {size}x{size} board")?;
                }
                Ok(())
            }
            SetupError::Cell { name, found } => {
                write!(f, "cell {name} (`{found}`) is not X, *, O, - or .")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Reads a `Setup` value: N*N cells from `a1` row by row, then a space and `b`/`w`.
fn parse_setup(value: &str, size: u8) -> Result<StartPosition, SetupError> {
    let want = usize::from(size) * usize::from(size);
    let value = value.trim();
    let (cells, side) = value
        .rsplit_once(char::is_whitespace)
        .ok_or(SetupError::Shape { want })?;
    let cells = cells.trim_end();
    let black_to_move = match side {
        "b" | "B" => true,
        "w" | "W" => false,
        other => return Err(SetupError::Side(other.to_string())),
    };
    let count = cells.chars().count();
    if count != want {
        return Err(SetupError::Count { count, want, size });
    }
    let mut setup = StartPosition {
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
            found => {
                return Err(SetupError::Cell {
                    name: notation::sized_name(sq),
                    found,
                });
            }
        }
    }
    Ok(setup)
}

/// The 8x8 position of a setup (squares `16 * row + column` to bits
/// `8 * row + column`).
fn eight(setup: &StartPosition) -> Bitboard {
    let bits = |b: &Bits| {
        b.squares()
            .filter(|sq| sq % 16 < 8 && sq / 16 < 8)
            .fold(0u64, |acc, sq| acc | 1u64 << ((sq / 16) * 8 + sq % 16))
    };
    Bitboard {
        black: bits(&setup.black),
        white: bits(&setup.white),
        black_to_move: setup.black_to_move,
    }
}

/// A tag's error at its value.
fn tag_error(code: &str, what: &str, tag: &Tag, why: String, help: String) -> Diag {
    Diag::error(code.to_string(), format!("bad {what}: {why}"))
        .at(tag.value_span)
        .label(why)
        .help(help)
}

/// Leaf count of the legal-move tree from the standard start of an NxN
/// board (`size` even, 4 to 16): the 8x8 bitboard engine for 8, the
/// sized engine otherwise.
pub fn perft_sized(size: u8, depth: u32) -> Result<u64, PerftError> {
    parse_size(&size.to_string())
        .map_err(|why| PerftError(format!("board size {why} (even, 4 to 16)")))?;
    if size == 8 {
        return Ok(engine::perft_parallel(Bitboard::START, depth));
    }
    Ok(sized::perft(&Board::start(size), depth))
}

/// A record's rules tags, the first of each name.
#[derive(Default)]
struct RulesTags<'a> {
    variant: bool,
    size: Option<&'a Tag>,
    komi: Option<&'a Tag>,
    setup: Option<&'a Tag>,
}

impl<'a> RulesTags<'a> {
    /// The rules tags in one pass, most tags told apart by their first
    /// letter.
    fn of(tags: &'a Tags) -> RulesTags<'a> {
        let mut found = RulesTags::default();
        for t in tags.iter() {
            if !matches!(t.name.as_bytes().first(), Some(b'V' | b'S' | b'K')) {
                continue;
            }
            match t.name.as_str() {
                "Variant" => found.variant = true,
                "Size" => _ = found.size.get_or_insert(t),
                "Komi" => _ = found.komi.get_or_insert(t),
                "Setup" => _ = found.setup.get_or_insert(t),
                _ => {}
            }
        }
        found
    }
}

/// The scoring the `Variant` tag names (read only when there is one).
fn scoring_of(tags: &Tags, variant: bool, errors: &mut Vec<Diag>) -> Scoring {
    if !variant {
        return Scoring::Standard;
    }
    Scoring::ALL
        .get(variant_in::<Reversi>(tags, errors))
        .copied()
        .unwrap_or(Scoring::Standard)
}

/// The board's side from the `Size` tag (8 without one); `None` when it
/// is bad.
fn size_of(tag: Option<&Tag>, errors: &mut Vec<Diag>) -> Option<u8> {
    let Some(t) = tag else {
        return Some(8);
    };
    parse_size(&t.value)
        .map_err(|why| {
            let help = "the board's side: an even number from 4 to 16 (default 8)";
            errors.push(tag_error("reversi::bad_size", "Size", t, why.to_string(), help.into()));
        })
        .ok()
}

/// The `Komi` tag's value, when given and good.
fn komi_of(tag: Option<&Tag>, errors: &mut Vec<Diag>) -> Option<Komi> {
    let t = tag?;
    parse_komi(&t.value)
        .map_err(|why| {
            let help = "a decimal number (at most 9 decimals), added to white's discs to decide the winner: `0`, `1.5`, `-3.133`";
            errors.push(tag_error("reversi::bad_komi", "Komi", t, why.to_string(), help.into()));
        })
        .ok()
}

/// The `Setup` tag's position, when given and good on a board of the
/// size (not read when the size is bad: its length depends on it).
fn setup_of(tag: Option<&Tag>, size: Option<u8>, errors: &mut Vec<Diag>) -> Option<StartPosition> {
    let (t, size) = (tag?, size?);
    parse_setup(&t.value, size)
        .map_err(|why| {
            let n = usize::from(size) * usize::from(size);
            errors.push(
                Diag::error("reversi::bad_setup", format!("bad Setup: {why}"))
                    .at(t.value_span)
                    .label(why.to_string())
                    .help(format!("{n} cells from a1 row by row (X or * black, O white, - or . empty), a space, then b or w")),
            );
        })
        .ok()
}

impl Setup for Reversi {
    type Position = State;

    const NAME: &'static str = "reversi";
    const ALIASES: &'static [&'static str] = &["othello"];
    const RULES_TAGS: &'static [&'static str] = &["Setup", "Size", "Komi"];
    const VARIANTS: &'static [&'static str] = &["standard", "wof", "anti"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        let found = RulesTags::of(tags);
        let scoring = scoring_of(tags, found.variant, &mut errors);
        let size = size_of(found.size, &mut errors);
        let komi = komi_of(found.komi, &mut errors);
        let setup = setup_of(found.setup, size, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut state = match (&setup, size.unwrap_or(8)) {
            (None, 8) => State::new(Bitboard::START, scoring),
            (Some(s), 8) => State::new(eight(s), scoring),
            (None, n) => State::on(Board::start(n), scoring),
            (Some(s), n) => State::on(Board::new(n, s.black, s.white, s.black_to_move), scoring),
        };
        state.komi = komi;
        Ok(state)
    }
}

impl Extras for Reversi {
    /// The moves a `MoveScores` tag lists, legal at the start, and with a
    /// search limit their scores (`listed.rs`).
    fn start_claims(tags: &Tags, src: &str, start: &State, search: Option<u32>) -> Vec<Diag> {
        listed::check(tags, src, start, search)
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
            m.insert("komi".into(), komi_json(k));
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
}

impl Perft for Reversi {
    /// The 8x8 start of any variant (they share the move tree).
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError> {
        variant_index::<Self>(variant)?;
        crate::game::no_players::<Self>(players)?;
        if depth == 0 {
            return Ok(Vec::new());
        }
        Ok(engine::children(Bitboard::START)
            .into_iter()
            .map(|(sq, next)| {
                let name =
                    sq.map_or_else(|| "pass".to_string(), |sq| notation::square_name(sq as u8));
                (name, engine::perft_parallel_with(next, depth - 1, done))
            })
            .collect())
    }

    /// The start a record's rules tags set up (`Setup`, `Size`; `Komi`
    /// changes no move and is read only to be checked): `perft --tag
    /// Setup=...`, and `perft FILE`, from an `.obf` position. Tag errors
    /// are refused.
    fn perft_divide_tags(
        variant: Option<&str>,
        players: Option<u8>,
        tags: &Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, PerftError> {
        if tags.iter().next().is_none() {
            return Self::perft_divide(variant, players, depth, done);
        }
        variant_index::<Self>(variant)?;
        crate::game::no_players::<Self>(players)?;
        if let Some(t) = tags.iter().find(|t| !Self::RULES_TAGS.contains(&t.name.as_str())) {
            return Err(PerftError(format!(
                "reversi perft takes the tags {}, not {}",
                Self::RULES_TAGS.join(", "),
                t.name
            )));
        }
        let state = <Self as Setup>::start(tags).map_err(|e| {
            PerftError(
                e.iter()
                    .map(|d| d.message.clone())
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        })?;
        if depth == 0 {
            return Ok(Vec::new());
        }
        if state.size() == 8 {
            return Ok(engine::children(state.pos())
                .into_iter()
                .map(|(sq, next)| {
                    let name = sq
                        .map_or_else(|| "pass".to_string(), |sq| notation::square_name(sq as u8));
                    (name, engine::perft_parallel_with(next, depth - 1, done))
                })
                .collect());
        }
        // another size: each first move (or the forced pass) on the sized board
        let Some(board) = state.sized.as_deref() else {
            return Ok(Vec::new());
        };
        let mut firsts: Vec<(String, Board)> = Vec::new();
        let black = board.black_to_move;
        for sq in board.legal(black).squares() {
            let mut next = *board;
            next.play(sq, board.flips(sq));
            firsts.push((notation::sized_name(sq), next));
        }
        if firsts.is_empty() && !board.is_over() {
            let mut next = *board;
            next.pass();
            firsts.push(("pass".to_string(), next));
        }
        Ok(firsts
            .into_iter()
            .map(|(name, next)| {
                let n = sized::perft(&next, depth - 1);
                done(n);
                (name, n)
            })
            .collect())
    }
}
