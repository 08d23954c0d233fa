//! GGF, the Generic Game Format of the GGS game server, for Othello:
//! `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TY[8]BO[8 ... *]B[f5//1.2]W[d6/-3.5/0.4]...;)`,
//! several games per file, a match optionally preceded by its number of
//! games (`1 (;...;)`, `2 (;...;)(;...;)` for a synchro pair). Read and
//! written (`convert --to ggf`).
//!
//! The text is the file itself; each move's token is the square (or pass)
//! inside `B[...]`/`W[...]`, so spans point into the file.
//!
//! Reading, a game at a time (its properties are tokens of the SGF lexer
//! shared with Pentobi, [`super::sgf`]), each byte tokenized once:
//! - the file is cut into units, a game and the text before it: a unit
//!   ends after a game's `;)` (outside `[...]` values), before a `(;`
//!   inside a game, or at a line inside a game that starts (after blanks)
//!   with `(;` or a match count then `(;` (a line ends at LF, CRLF or a lone
//!   CR). A game that stops before its `;)` (a line missing its `;)`, a
//!   value missing its `]`, a game running into the next) is `ggf::syntax`,
//!   blamed where it stops; its moves before that are replayed. Each game
//!   keeps its own text only (from the end of the game before);
//! - text between games that is no game and no match count is skipped with
//!   one `ggf::skipped_text` warning per run of it, on the game after it
//!   (text after the last game is ignored); past 64 KiB such text is
//!   dropped as it is read, the warning saying how many bytes. A file with
//!   no game is `record::no_games`, whatever its size;
//! - the size limit (`--max-game-bytes`) counts what a game costs in
//!   memory: its bytes and [`PROP_COST`] bytes per property. A game past it
//!   is `record::too_large` and reading goes on after it;
//! - `GM` becomes the `Game` tag (compared case-insensitively: `Othello` is
//!   Reversi's alias; another game is `record::unknown_game` at the value); a
//!   game without `GM` is taken as Othello;
//! - a property other than a move (`B`, `W`) given twice in one game is
//!   `ggf::repeated_property` (the first counts);
//! - `TY` (game type: board size digits, `s` synchro, `k` komi, `a` anti,
//!   `r`/`rN` random start, `b`/`w` colour wish) is kept as `GGF_TY` when
//!   it says more than the tags it gives (the writer makes `TY[8]`,
//!   `TY[10]`, `TY[8k]` with a komi, `TY[8a]` from them: those round-trip
//!   to no tag), and gives `Size` (when not 8), `Variant "anti"` (`a`; else `Variant "wof"`:
//!   GGF results give the empty squares to the winner), and with `k` the
//!   komi game's `KM` is needed once a move is played. A size that is not
//!   even within 4..=16 (the octagonal `88` too) or an unknown flag is
//!   `ggf::bad_type`; `r` without `BO` is `ggf::missing_board`; both stop
//!   the replay;
//! - `KM` (the komi, subtracted from black's disc difference to tell the
//!   winner) becomes `Komi` (`+3.500` as `3.5`, `-3.133` as it is: GGS's
//!   komi is the mean of two bids; no number, or more than nine decimals
//!   that are not 0, is `ggf::bad_komi`, which stops the replay, as does a
//!   komi game (`k` in `TY`) with moves and no `KM`);
//! - `PC`, `DT`, `PB`, `PW` become `Site`, `Date`, `Black`, `White`;
//! - `RE` is black's result, as GGS writes it: black's disc difference
//!   minus the komi (igor-ant 19-45 with `KM[-3.133]` is `RE[-22.867]`).
//!   Without `a`, a number `r` (`+12.000`, `-4`, `0`, `-22.867`) such that
//!   `d = r + komi` is a whole number, even and within `-N²..N²`, becomes
//!   `Result` with `b - w = d`, `b + w = N²` (the disc counts with the
//!   empties given to the winner); in an anti game `r + komi` is black's
//!   margin with the empties given to the loser (NBoard's GDK counts it
//!   so), which does not give disc counts: `RE` is kept as `GGF_RE` and its
//!   winner (black iff `r > 0`, a draw iff `r = 0`) is checked
//!   (`reversi::winner_mismatch`); any other `RE` (`+12:r` resigned, `:t`
//!   time, `?`, odd) is kept as `GGF_RE` and not checked;
//! - `BO[N cells side]` becomes `Setup` (N×N cells row by row from `a1`,
//!   `-` empty, `*` black, `O` white; side `*` black, `O` white), left out
//!   when it is the standard start with black to move; a malformed `BO`, or
//!   one whose size is not the `TY` size, is `reversi::bad_setup` and the
//!   game is not replayed;
//! - every other property `XX` is kept as a tag `GGF_XX` (`TI`, `RB`, `C`...),
//!   values unescaped (`\]` and `\\`);
//! - a move is `square[/eval[/time]]`; the evaluation and the time are kept
//!   as written with the move (its `props` in JSON and YAML, `GGF_eval` and
//!   `GGF_time`; an empty evaluation before a time too), and written back
//!   by the GGF writer; other targets name them as a loss; passes are
//!   `PA` or `pass`, any case. The `B`/`W` colour of a move must be the side
//!   to move once the replay has passed automatically for a side without a
//!   move (`record::wrong_player` otherwise);
//! - the games of a match whose count holds get a `GGF_match` tag, each its
//!   place `k/n` (`2 (;...;)(;...;)`: `1/2`, `2/2`), so that conversions
//!   keep the match; the writer ([`Matches`]) holds a match's games until it
//!   is whole and writes the count and the games on one line, as GGS does
//!   (a match cut short by games left out is written with the count of the
//!   games there are, and the loss said);
//! - a match count is checked against the games that follow it up to the
//!   next count or the next game that starts a line, and a synchro game
//!   (`s`) is in a match of two: `ggf::match_count` on the match's first
//!   game (a match's games are held until it closes, at most 16: past
//!   that the count is checked against "more than 16");
//! - other text that is no property inside a game is `ggf::syntax` (the
//!   moves before it are replayed; the game is skipped to its `;)`).
//!
//! Writing (Reversi games only): `GM[Othello]` (a `Game` tag spelling
//! `othello` another way is kept), then the tags in their order as
//! properties: `Site` `PC`, `Date` `DT`, `Black` `PB`, `White` `PW`,
//! `Result` `RE` as black's result under GGF's convention (the disc
//! difference with the empties given to the winner, or to the loser in an
//! anti game, minus the `Komi`, with its decimals), `Size`/`Variant "anti"`/`Komi` as `TY` (keeping the `s` and
//! `r` flags of a `GGF_TY`) and `KM`, `Setup` `BO`, `GGF_XX` `XX`; `TY` and
//! `BO` are written when not given; then the written moves (`B[f5]`,
//! `W[PA]`; automatic passes left out), `;)`. What GGF cannot hold is noted
//! in the [`Losses`]: every other tag by name, comments, the move numbers
//! (`12.`, kept by gamerec text, JSON and YAML), a `Size` of 8 (`TY[8]`
//! reads back as no tag), and a `standard` variant (GGF results count the
//! empties for the winner: read back, the game is `wof`). Reading what was written gives the same moves, winner and
//! kept tags.

use std::borrow::Cow;
use std::collections::{HashSet, VecDeque};

use nom::{Parser, character::complete::digit1, combinator::opt};

use super::sgf::{self, Kind, Lexer, escape};
use crate::diag::Diag;
use crate::games::reversi::{Komi, KomiError};
use crate::formats::{Losses, ReadError, SourceGame, WriteError};
use crate::model::DocGame;
use crate::record::{MAX_TAG_ERRORS, RawGame, Tag, Tags, Token, WinnerClaim};
use crate::source::{BLOCK, Chunk, TOO_LARGE_KEPT, TextBuf};
use crate::span::{Origin, Span};

/// One property: name, unescaped value, spans of the whole and of the value.
struct Prop<'t> {
    name: &'t str,
    value: Cow<'t, str>,
    span: Span,
    value_span: Span,
}

/// A game's type, from `TY`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GameType {
    size: Option<usize>,
    synchro: bool,
    komi: bool,
    anti: bool,
    /// `r` (random start), with its number of discs when given.
    random: Option<Option<usize>>,
}

const HELP: &str = "a GGF game is `(;` then properties `XX[value]` then `;)`";

fn syntax(msg: impl Into<String>, span: Span, label: &str) -> Diag {
    Diag::error("ggf::syntax", msg)
        .at(span)
        .label(label.to_string())
        .help(HELP)
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// A match count before a game at `at`: digits, blanks, then `(;`. Returns
/// the digits' length and where the `(` is.
fn match_count(text: &str, at: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes().get(at..)?;
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let blanks = bytes
        .get(digits..)?
        .iter()
        .take_while(|&&b| is_blank(b))
        .count();
    let paren = digits + blanks;
    (digits > 0 && blanks > 0 && starts_game(text, at + paren)).then_some((digits, at + paren))
}

/// Whether a game's `(;` stands at `at`.
fn starts_game(text: &str, at: usize) -> bool {
    text.as_bytes().get(at..at + 2) == Some(b"(;")
}

/// What one property costs in memory beyond its text, for the size limit
/// of a game: its parsed form, and the tag or the move (token, colour) it
/// becomes. A game's cost is its bytes plus this much per property.
pub const PROP_COST: usize = 128;

/// Where the cutter stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Between games: looking for `(;`.
    #[default]
    Outside,
    /// Inside a game, between properties.
    Game,
    /// Inside a `[...]` value.
    Value,
    /// After a `\` in a value.
    Escape,
}

/// How far the start of a line inside a game reads like the start of a
/// game: blanks, an optional match count and its blanks, then `(;`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineStart {
    Blanks,
    Digits,
    CountBlanks,
    Paren,
}

/// Cuts a GGF text into units, each a game and the text before it, fed
/// every byte once. A unit ends after a game's `;)` (outside values), before
/// a `(;` inside a game (the game has no `;)`), or at a line inside a game
/// that starts a game or a match (an unclosed game or value stops there).
/// Positions are indices into the reader's text.
#[derive(Default)]
struct Cutter {
    state: State,
    /// In a game: the last byte was `;`.
    semi: bool,
    /// The last byte was `(`, at this position.
    paren: Option<usize>,
    /// In a game, after a line end: where the line starts and how far it
    /// reads like a game's start.
    line: Option<(usize, LineStart)>,
    /// Where the unit's game starts (its `(`).
    game: Option<usize>,
    /// Whether a byte other than a blank or a line end was seen outside a
    /// game (text that is no game, or a match count).
    text_outside: bool,
}

fn is_line_end(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

impl Cutter {
    /// Takes the byte at `at`; returns where the unit ends, once known.
    fn feed(&mut self, at: usize, b: u8) -> Option<usize> {
        if let Some((start, phase)) = self.line {
            let next = match (phase, b) {
                (LineStart::Blanks, b' ' | b'\t') => Some(LineStart::Blanks),
                (LineStart::Blanks, b'0'..=b'9') | (LineStart::Digits, b'0'..=b'9') => {
                    Some(LineStart::Digits)
                }
                (LineStart::Digits | LineStart::CountBlanks, b' ' | b'\t') => {
                    Some(LineStart::CountBlanks)
                }
                (LineStart::Blanks | LineStart::CountBlanks, b'(') => Some(LineStart::Paren),
                (LineStart::Paren, b';') => return Some(start),
                _ => None,
            };
            match next {
                Some(p) => {
                    self.line = Some((start, p));
                    // blanks, digits and `(` do not change the state
                    if b != b'(' {
                        return None;
                    }
                }
                None => self.line = None,
            }
        }
        let paren = self.paren.take();
        let semi = std::mem::replace(&mut self.semi, false);
        match self.state {
            State::Outside => match b {
                b';' if paren.is_some() => {
                    self.state = State::Game;
                    self.game = paren;
                }
                b'(' => self.paren = Some(at),
                b' ' | b'\t' | b'\n' | b'\r' => {}
                _ => self.text_outside = true,
            },
            State::Game => match b {
                b'[' => self.state = State::Value,
                b')' if semi => return Some(at + 1),
                // a game inside a game: this one has no `;)`
                b';' if paren.is_some() => return paren,
                b';' => self.semi = true,
                b'(' => self.paren = Some(at),
                _ if is_line_end(b) => self.line = Some((at + 1, LineStart::Blanks)),
                _ => {}
            },
            State::Value | State::Escape => {
                if self.state == State::Escape {
                    self.state = State::Value;
                } else if b == b'\\' {
                    self.state = State::Escape;
                } else if b == b']' {
                    self.state = State::Game;
                }
                if is_line_end(b) {
                    self.line = Some((at + 1, LineStart::Blanks));
                }
            }
        }
        None
    }

    /// Positions move `by` bytes back (the reader dropped text before them).
    fn shift(&mut self, by: usize) {
        self.paren = self.paren.map(|p| p.saturating_sub(by));
        self.game = self.game.map(|p| p.saturating_sub(by));
        self.line = self.line.map(|(p, s)| (p.saturating_sub(by), s));
    }
}

/// Reads every game of a GGF text.
pub fn read(text: &str) -> Vec<RawGame> {
    games(TextBuf::of_str(text))
        .filter_map(Result::ok)
        .map(|mut g| {
            g.raw.shift(g.origin.offset);
            g.raw
        })
        .collect()
}

/// A game of a unit, with what stands before it.
struct UnitGame {
    raw: RawGame,
    synchro: bool,
    /// The match count before it: the count and its span.
    count: Option<(usize, Span)>,
    /// Whether it (or its match count) is the first thing on its line.
    starts_line: bool,
    /// The text before it that is no game, nor a match count.
    junk: Option<Span>,
}

/// Reads the games of a unit (normally one); spans are offsets into `text`.
/// `line_start`: whether the unit starts a line. A game that costs more
/// than `budget` ([`PROP_COST`]) is `record::too_large`.
fn read_unit(text: &str, line_start: bool, budget: usize) -> Vec<UnitGame> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut games = Vec::new();
    let mut line_start = line_start;
    let mut count: Option<(usize, Span, bool)> = None;
    let mut junk: Option<Span> = None;
    while let Some(&b) = bytes.get(i) {
        if is_blank(b) || is_line_end(b) {
            line_start = line_start || is_line_end(b);
            i += 1;
            continue;
        }
        if let Some((digits, paren)) = match_count(text, i) {
            let span = Span::new(i, digits);
            let n = span.text(text).parse().unwrap_or(usize::MAX);
            count = Some((n, span, line_start));
            i = paren;
            continue;
        }
        if starts_game(text, i) {
            let starts_line = count.map_or(line_start, |(_, _, l)| l);
            let (raw, synchro, rest) = game(text, i, budget);
            games.push(UnitGame {
                raw,
                synchro,
                count: count.take().map(|(n, s, _)| (n, s)),
                starts_line,
                junk: junk.take(),
            });
            i = rest;
            line_start = false;
            continue;
        }
        // text that is no game: skipped, with a warning on the next game
        let len = text
            .get(i..)
            .and_then(|r| r.chars().next())
            .map_or(1, char::len_utf8);
        let here = Span::new(i, len);
        junk = Some(junk.map_or(here, |j| j.join(here)));
        i += len;
        line_start = false;
    }
    games
}

/// The most bytes of a match count (its digits and the blanks around
/// them) kept when the text between games before it is dropped.
const COUNT_KEPT: usize = 32;

/// How many games of a match are held back (its first game is told when
/// its count is wrong): a match holding more is checked then.
const MATCH_HELD: usize = 16;

/// A match count and the games read since it, held until the match closes.
struct Match {
    count: usize,
    span: Span,
    games: Vec<(SourceGame, bool)>,
    /// Whether more games followed than were held.
    more: bool,
}

impl Match {
    /// Checks the match: the count against its games, and a synchro match
    /// is two games; gives its games back.
    fn close(mut self) -> Vec<(SourceGame, bool)> {
        let n = self.games.len();
        let synchro = self.games.iter().any(|(_, s)| *s);
        let plural = |k| crate::diag::plural(k, "game", "games");
        let d = if self.more {
            (self.count <= n).then(|| {
                Diag::error(
                    "ggf::match_count",
                    format!(
                        "the match count says {}, but more than {} follow",
                        plural(self.count),
                        plural(n)
                    ),
                )
                .label(format!("should be more than {n}"))
            })
        } else if self.count != n {
            Some(
                Diag::error(
                    "ggf::match_count",
                    format!(
                        "the match count says {}, but {} {}",
                        plural(self.count),
                        plural(n),
                        if n == 1 { "follows" } else { "follow" }
                    ),
                )
                .label(format!("should be {n}")),
            )
        } else if synchro && n != 2 {
            Some(
                Diag::error(
                    "ggf::match_count",
                    format!(
                        "a synchro match (`s` in TY) is two games, but this one has {}",
                        plural(n)
                    ),
                )
                .label("should be 2"),
            )
        } else {
            None
        };
        let valid = d.is_none() && !self.more;
        if let (Some(d), Some((first, _))) = (d, self.games.first_mut()) {
            let d = d.at(self.span).help(
                "a match is its number of games then the games: `1 (;...;)`, or `2 (;...;)(;...;)` for a synchro pair",
            );
            first.raw.tag_error_first(d);
        }
        if valid {
            // each game's place in its match, so that a conversion keeps it
            for (k, (g, _)) in self.games.iter_mut().enumerate() {
                g.raw.tags.0.push(Tag {
                    name: MATCH_TAG.into(),
                    value: format!("{}/{n}", k + 1),
                    span: self.span,
                    value_span: self.span,
                });
            }
        }
        std::mem::take(&mut self.games)
    }
}

/// The warning for text between games that is skipped: `span` in the game's
/// text, and how many bytes of it were dropped unseen before that.
fn skipped_text(span: Span, dropped: usize) -> Diag {
    let message = if dropped > 0 {
        format!(
            "text between games is skipped ({} bytes before this game are no game)",
            dropped + span.length
        )
    } else {
        "text between games is skipped".to_string()
    };
    Diag::warning("ggf::skipped_text", message)
        .at(span)
        .label("not a game: skipped")
        .help(
            "a GGF file holds games `(;...;)`, each optionally after its match count (`1 (;...;)`)",
        )
}

/// A file's games, a unit (a game and the text before it) at a time: each
/// byte is looked at once, and a unit never holds more than the size limit
/// of a game (text between games past a block is dropped as it is read).
pub fn games(buf: TextBuf<'_>) -> impl Iterator<Item = Result<SourceGame, ReadError>> + '_ {
    let mut r = Units {
        buf,
        ready: VecDeque::new(),
        open: None,
        line_start: true,
        dropped: 0,
        done: false,
    };
    std::iter::from_fn(move || {
        loop {
            if let Some(g) = r.ready.pop_front() {
                return Some(g);
            }
            if r.done {
                return None;
            }
            r.next_unit();
        }
    })
}

struct Units<'a> {
    buf: TextBuf<'a>,
    ready: VecDeque<Result<SourceGame, ReadError>>,
    open: Option<Match>,
    /// Whether the next unit starts a line.
    line_start: bool,
    /// Bytes between games dropped before the next unit's text.
    dropped: usize,
    done: bool,
}

impl Units<'_> {
    fn release(&mut self, games: Vec<(SourceGame, bool)>) {
        self.ready.extend(games.into_iter().map(|(g, _)| Ok(g)));
    }

    fn close_match(&mut self) {
        if let Some(m) = self.open.take() {
            let games = m.close();
            self.release(games);
        }
    }

    /// Reads one unit and queues its games.
    fn next_unit(&mut self) {
        let limit = self.buf.limit();
        let mut cut = Cutter::default();
        let mut at = self.buf.start();
        // a game past the size limit: what is kept of it, the rest dropped
        let mut large: Option<(String, Origin)> = None;
        let end = loop {
            let found = self.buf.text().as_bytes().get(at..).and_then(|bytes| {
                bytes
                    .iter()
                    .enumerate()
                    .find_map(|(k, &b)| cut.feed(at + k, b))
            });
            if let Some(end) = found {
                break Some(end);
            }
            at = self.buf.text().len();
            let between = large.is_none() && cut.state == State::Outside;
            if between && at - self.buf.start() >= BLOCK {
                // a block of text between games: dropped as it is read
                self.drop_between(&mut cut, at);
                let by = self.buf.compact();
                cut.shift(by);
                at -= by;
            }
            if self.buf.fill() {
                continue;
            }
            if !self.buf.full() {
                break None;
            }
            // the unit has reached the size limit
            if between {
                self.drop_between(&mut cut, at);
            } else {
                if large.is_none() {
                    let start = cut.game.unwrap_or(self.buf.start());
                    self.buf.skip_to(start);
                    let text = self.buf.text();
                    let mut keep = (start + TOO_LARGE_KEPT).min(text.len());
                    while !text.is_char_boundary(keep) {
                        keep -= 1;
                    }
                    large = Some(self.buf.take_to(keep));
                }
                self.buf.skip_to(at);
            }
            let by = self.buf.compact();
            cut.shift(by);
            at -= by;
        };
        let end = end.unwrap_or(self.buf.text().len());
        let at_end = end >= self.buf.text().len() && self.buf.at_end();
        if let Some(kept) = large {
            self.buf.skip_to(end);
            self.buf.compact();
            self.line_start = false;
            self.dropped = 0;
            self.close_match();
            self.ready
                .push_back(Ok(SourceGame::too_large(Chunk::TooLarge(kept.0, kept.1))));
        } else {
            let (text, origin) = self.buf.take_to(end);
            self.buf.compact();
            let line_start = std::mem::replace(&mut self.line_start, text.ends_with(['\n', '\r']));
            let games = read_unit(&text, line_start, limit);
            self.queue(text, origin, games);
        }
        if at_end {
            self.done = true;
            self.close_match();
            if let Some(e) = self.buf.take_error() {
                self.ready.push_back(Err(ReadError::new(e)));
            }
        }
    }

    /// Drops the text between games read so far (up to `at`), but for what
    /// may start what follows: a `(` at the end, or a match count (digits
    /// and blanks, at most [`COUNT_KEPT`] bytes) before it.
    fn drop_between(&mut self, cut: &mut Cutter, at: usize) {
        let text = self.buf.text();
        let mut from = cut.paren.unwrap_or(at).min(text.len());
        let floor = from.saturating_sub(COUNT_KEPT).max(self.buf.start());
        let bytes = text.as_bytes();
        while from > floor
            && bytes
                .get(from - 1)
                .is_some_and(|&b| b.is_ascii_digit() || is_blank(b))
        {
            from -= 1;
        }
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        if from <= self.buf.start() && self.buf.full() {
            // under a size limit smaller than what is kept: all of it goes,
            // or reading would stand still
            from = at.min(text.len());
            cut.paren = None;
        }
        if from > self.buf.start() {
            // what is kept starts a line if the dropped text ended one
            self.line_start = from
                .checked_sub(1)
                .and_then(|k| bytes.get(k))
                .is_some_and(|&b| is_line_end(b));
        }
        if cut.text_outside {
            self.dropped += from - self.buf.start();
        }
        cut.text_outside = false;
        self.buf.skip_to(from);
    }

    /// Queues a unit's games, each with its own part of the unit's text.
    fn queue(&mut self, mut text: String, mut origin: Origin, games: Vec<UnitGame>) {
        let n = games.len();
        let mut cut = 0;
        for (k, mut g) in games.into_iter().enumerate() {
            // this game's text: from the end of the one before to its end
            // (the last one to the end of the unit)
            let end = if k + 1 == n {
                text.len()
            } else {
                g.raw.span.end().clamp(cut, text.len())
            };
            let own = if k + 1 == n {
                let mut own = std::mem::take(&mut text);
                own.drain(..cut.min(own.len()));
                own
            } else {
                text.get(cut..end).unwrap_or("").to_string()
            };
            g.raw.unshift(cut);
            let shift = |s: Span| Span::new(s.offset.saturating_sub(cut), s.length);
            if let Some(j) = g.junk.map(shift) {
                g.raw.tag_error_first(skipped_text(j, self.dropped));
            } else if self.dropped > 0 {
                let at = Span::new(g.raw.span.offset.saturating_sub(cut), 0);
                g.raw.tag_error_first(skipped_text(at, self.dropped));
            }
            self.dropped = 0;
            let count = g.count.map(|(c, s)| (c, shift(s)));
            let here = origin;
            origin = origin.after(&own);
            cut = end;
            let game = SourceGame::of(own, here, g.raw);
            if count.is_some() || g.starts_line {
                self.close_match();
            }
            if let Some((count, span)) = count {
                self.open = Some(Match {
                    count,
                    span,
                    games: Vec::new(),
                    more: false,
                });
            }
            match self.open.as_mut() {
                Some(m) if m.games.len() < MATCH_HELD => m.games.push((game, g.synchro)),
                Some(_) => {
                    // past what is held: the match is checked now, and
                    // its later games go out as they come
                    if let Some(mut m) = self.open.take() {
                        m.more = true;
                        let held = m.close();
                        self.release(held);
                    }
                    self.ready.push_back(Ok(game));
                }
                None => self.ready.push_back(Ok(game)),
            }
        }
    }
}

/// Reads the properties of one game from `from` (after `(;`) in `text`;
/// returns them, where the rest starts (after `;)`) and a syntax error if
/// one stopped the game.
fn props(text: &str, from: usize, budget: usize) -> (Vec<Prop<'_>>, usize, Option<Diag>) {
    let mut lex = Lexer::new(text, from, &sgf::GGF);
    let mut out = Vec::new();
    let mut last = from;
    let next_is = |t: &sgf::Token, b: u8| text.as_bytes().get(t.end()) == Some(&b);
    loop {
        let cost = (last - from).saturating_add(out.len().saturating_mul(PROP_COST));
        if cost > budget {
            return (Vec::new(), text.len(), Some(too_large(from, budget)));
        }
        let Some(t) = lex.next() else {
            let d = unclosed(last).help("a GGF game ends with `;)`; the next game (a line starting with `(;`) or the end of the file came first");
            return (out, text.len(), Some(d));
        };
        let start = t.start();
        match t.kind {
            Kind::Node if next_is(&t, b')') => return (out, start + 2, None),
            Kind::Open if next_is(&t, b';') => {
                let d = unclosed(last)
                    .help("a GGF game ends with `;)`; another game `(;` starts after this one");
                return (out, start, Some(d));
            }
            Kind::Ident => {}
            _ => {
                let len = text
                    .get(start..)
                    .and_then(|r| r.chars().next())
                    .map_or(1, char::len_utf8);
                let d = syntax(
                    "unexpected text inside a game",
                    Span::new(start, len),
                    "not a property",
                );
                return (out, skip_game(text, start), Some(d));
            }
        }
        let name = t.span.text(text);
        if !next_is(&t, b'[') {
            let d = syntax(
                format!("property `{name}` has no `[value]`"),
                t.span,
                "expected `[` after this",
            );
            return (out, skip_game(text, t.end()), Some(d));
        }
        let (v, escaped) = match lex.next() {
            Some(
                v @ sgf::Token {
                    kind: Kind::Value { escaped },
                    ..
                },
            ) => (v, escaped),
            _ => {
                let d = syntax(
                    format!("the value of `{name}` has no closing `]`"),
                    Span::between(start, t.end() + 1),
                    "unterminated",
                )
                .help("a value ends at `]` (written `\\]` inside it); the game stops here, and the next line that starts with `(;` starts the next game");
                return (out, text.len(), Some(d));
            }
        };
        out.push(Prop {
            name,
            value: sgf::ggf_value(v.span.text(text), escaped),
            span: Span::between(start, v.end()),
            value_span: v.span,
        });
        last = v.end();
    }
}

/// A game over its size limit, blamed on its `(;` (just before `first`).
fn too_large(first: usize, budget: usize) -> Diag {
    Diag::error(
        "record::too_large",
        format!("this game is larger than the limit of {budget} bytes"),
    )
    .at(Span::new(first.saturating_sub(2), 2))
    .label("the game that starts here is too large")
    .help(format!(
        "a game costs its bytes and {PROP_COST} bytes per property; split the game, or raise the limit with --max-game-bytes"
    ))
}

/// A game without its `;)`, expected after its last property (ending at
/// `last`); the help says what came instead.
fn unclosed(last: usize) -> Diag {
    syntax(
        "the game has no closing `;)`",
        Span::new(last, 0),
        "`;)` expected here",
    )
}

/// Where the rest after the next `;)` from `at` starts, or the end.
fn skip_game(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|i| memchr::memmem::find(i.as_bytes(), b";)"))
        .map_or(text.len(), |k| at + k + 2)
}

/// Why a `TY` value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeError {
    /// The octagonal board, `88`.
    Octagonal,
    /// A board size that is not even, 4 to 16 (its digits).
    Size(String),
    /// A character that is no flag.
    Flag(char),
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeError::Octagonal => f.write_str("the octagonal board (`88`) is not supported"),
            TypeError::Size(digits) => {
                write!(f, "a board of size `{digits}`: sizes are even, 4 to 16")
            }
            TypeError::Flag(c) => write!(
                f,
                "`{c}` is not a game type flag (a board size, s, k, a, r, b or w)"
            ),
        }
    }
}

impl std::error::Error for TypeError {}

/// Reads `TY`.
fn game_type(v: &str) -> Result<GameType, TypeError> {
    let mut t = GameType::default();
    let mut i = v.trim();
    while !i.is_empty() {
        if let Ok((rest, digits)) = digit1::<&str, nom::error::Error<&str>>(i) {
            let n: usize = digits.parse().unwrap_or(usize::MAX);
            if n == 88 {
                return Err(TypeError::Octagonal);
            }
            if !(4..=16).contains(&n) || n % 2 != 0 {
                return Err(TypeError::Size(digits.to_string()));
            }
            t.size = Some(n);
            i = rest;
            continue;
        }
        let Some(c) = i.chars().next() else {
            break;
        };
        i = i.get(c.len_utf8()..).unwrap_or("");
        match c.to_ascii_lowercase() {
            's' => t.synchro = true,
            'k' => t.komi = true,
            'a' => t.anti = true,
            'b' | 'w' => {}
            'r' => {
                let (rest, n) = opt(digit1::<&str, nom::error::Error<&str>>)
                    .parse(i)
                    .unwrap_or((i, None));
                t.random = Some(n.and_then(|n| n.parse().ok()));
                i = rest;
            }
            other => return Err(TypeError::Flag(other)),
        }
    }
    Ok(t)
}

/// `KM` as a komi, read as the Reversi `Komi` tag is (any decimals up to
/// nine that are not 0); its `Komi` tag is its text (`+3.500` is `3.5`,
/// `-3.133` stays).
fn komi_of(v: &str) -> Result<Komi, KomiError> {
    crate::games::reversi::parse_komi(v)
}

/// GGF's `RE` for black's result `units` (in billionths of a disc, as a
/// komi is), written with `decimals` decimals (more if it needs them) and
/// its sign always (`+26`, `-22.867`, `+0`).
pub(crate) fn re_text(units: i64, decimals: usize) -> String {
    let v = Komi(units).with_decimals(decimals);
    if units >= 0 { format!("+{v}") } else { v }
}

/// Reads `RE` exactly, in billionths of a disc, when it is a number (no
/// `:r`/`:t`).
fn re_units(re: &str) -> Option<i64> {
    crate::games::reversi::parse_komi(re).ok().map(|k| k.0)
}

/// Reads `RE` as disc counts on an `n`×`n` board (empties to the winner):
/// with a komi, GGS's `RE` is black's disc difference minus the komi
/// (`RE[-22.867]` with `KM[-3.133]` is a difference of -26).
fn result_of(re: &str, n: usize, komi: Option<Komi>) -> Option<(i64, i64)> {
    let k = komi.map_or(0, |k| k.0);
    let units = re_units(re)?.checked_add(k)?;
    if units % Komi::UNIT != 0 {
        return None;
    }
    let d = units / Komi::UNIT;
    let all = (n * n) as i64;
    if d.abs() > all || (all + d) % 2 != 0 {
        return None;
    }
    Some(((all + d) / 2, (all - d) / 2))
}

/// The standard start on an `n`×`n` board, row by row from `a1`.
fn start_cells(n: usize) -> String {
    let h = n / 2;
    if h == 0 {
        return "-".repeat(n * n);
    }
    (0..n * n)
        .map(|k| {
            let (r, c) = (k / n, k % n);
            match (r, c) {
                _ if (r == h - 1 && c == h - 1) || (r == h && c == h) => 'O',
                _ if (r == h - 1 && c == h) || (r == h && c == h - 1) => '*',
                _ => '-',
            }
        })
        .collect()
}

/// Why a `BO` value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A first word that is not an even size from 4 to 16 (the word).
    Size(String),
    /// A board of another size than `TY` says.
    NotTy {
        /// The board's side.
        n: usize,
        /// `TY`'s.
        ty: usize,
    },
    /// A last character that is not `*` or `O` (none when there is none).
    Side(Option<char>),
    /// The wrong number of cells.
    Count {
        /// The cells written.
        count: usize,
        /// The cells the board has.
        want: usize,
    },
    /// A character that is no cell.
    Cell(char),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::Size(first) => {
                write!(f, "a board of size `{first}`: sizes are even, 4 to 16")
            }
            BoardError::NotTy { n, ty } => write!(f, "a {n}x{n} board, but TY says {ty}x{ty}"),
            BoardError::Side(side) => {
                let side = side.map(String::from).unwrap_or_default();
                write!(f, "the side to move is `{side}`, not `*` or `O`")
            }
            BoardError::Count { count, want } => {
                let cells = crate::diag::plural(*count, "cell", "cells");
                write!(f, "{cells} instead of {want}")
            }
            BoardError::Cell(c) => write!(f, "cell `{c}` is not -, * or O"),
        }
    }
}

impl std::error::Error for BoardError {}

/// `BO` to a `Setup` value: `Ok(None)` for the standard start, `Err` for a
/// malformed board or one of another size than `size` (from `TY`).
fn setup_of(bo: &str, size: Option<usize>) -> Result<(usize, Option<String>), BoardError> {
    let mut parts = bo.split_whitespace();
    let first = parts.next().unwrap_or("");
    let n: usize = first
        .parse()
        .ok()
        .filter(|n| (4..=16).contains(n) && n % 2 == 0)
        .ok_or_else(|| BoardError::Size(first.to_string()))?;
    if let Some(ty) = size.filter(|&ty| ty != n) {
        return Err(BoardError::NotTy { n, ty });
    }
    let rest: String = parts.collect();
    let mut chars: Vec<char> = rest.chars().collect();
    let side = match chars.pop() {
        Some('*') => 'b',
        Some('O' | 'o') => 'w',
        other => return Err(BoardError::Side(other)),
    };
    if chars.len() != n * n {
        return Err(BoardError::Count {
            count: chars.len(),
            want: n * n,
        });
    }
    let mut cells = String::with_capacity(n * n);
    for c in chars {
        cells.push(match c {
            '-' | '.' => '-',
            '*' | 'X' | 'x' => '*',
            'O' | 'o' => 'O',
            other => return Err(BoardError::Cell(other)),
        });
    }
    if cells == start_cells(n) && side == 'b' {
        return Ok((n, None));
    }
    Ok((n, Some(format!("{cells} {side}"))))
}

fn tag_of(name: &str, value: String, p: &Prop) -> Tag {
    Tag {
        name: name.to_string(),
        value,
        span: p.span,
        value_span: p.value_span,
    }
}

/// A game's tag errors, at most [`MAX_TAG_ERRORS`], and how many more.
#[derive(Default)]
struct TagErrors {
    list: Vec<Diag>,
    dropped: usize,
}

impl TagErrors {
    fn push(&mut self, d: Diag) {
        if self.list.len() < MAX_TAG_ERRORS {
            self.list.push(d);
        } else {
            self.dropped += 1;
        }
    }
}

/// What a game's `TY`, `BO` and `KM` say, read before its other properties.
struct GameRules<'p, 't> {
    ty: GameType,
    ty_prop: Option<&'p Prop<'t>>,
    bo: Option<&'p Prop<'t>>,
    /// The board side (8 when neither `TY` nor `BO` gives one).
    n: usize,
    setup: Option<String>,
    komi: Option<Komi>,
    /// A bad `TY` or `BO`: the moves are not replayed.
    no_replay: bool,
}

/// Reads the game whose `(;` is at `start`: the container's game, whether
/// it is a synchro game (`s`), and where the rest after it starts.
fn game(text: &str, start: usize, budget: usize) -> (RawGame, bool, usize) {
    let (props, rest, stop) = props(text, start + 2, budget);
    let game_end = rest;
    if let Some(d) = stop.as_ref().filter(|d| d.code == "record::too_large") {
        let raw = RawGame {
            stop: Some(d.clone()),
            span: Span::between(start, game_end),
            ..RawGame::default()
        };
        return (raw, false, rest);
    }
    let mut errors = TagErrors::default();
    let kept = first_of_each(&props, &mut errors);
    let rules = game_rules(&kept, &mut errors);
    let head = Span::new(start, 2);
    let mut game = GameParts::default();
    game.tags.push(match first(&kept, "GM") {
        Some(p) => tag_of("Game", p.value.trim().to_string(), p),
        None => Tag {
            name: "Game".into(),
            value: "reversi".into(),
            span: head,
            value_span: head,
        },
    });
    game.tags.push(Tag {
        name: "Variant".into(),
        value: if rules.ty.anti { "anti" } else { "wof" }.into(),
        span: rules.ty_prop.map_or(head, |p| p.span),
        value_span: rules.ty_prop.map_or(head, |p| p.value_span),
    });
    for p in kept {
        game.prop(text, p, &rules);
    }
    if rules.no_replay {
        game.tokens.clear();
        game.players.clear();
        game.move_props.clear();
    }
    // in file order
    errors.list.sort_by_key(|d| d.span.map_or(0, |s| s.offset));
    let raw = RawGame {
        tags: Tags(game.tags),
        tag_errors: errors.list,
        tag_errors_dropped: errors.dropped,
        tokens: game.tokens,
        stop: if rules.no_replay { None } else { stop },
        span: Span::between(start, game_end),
        token_players: game.players,
        winner_claim: game.winner_claim,
        move_props: game.move_props,
        ..RawGame::default()
    };
    (raw, rules.ty.synchro, rest)
}

/// The first property of a name among the kept ones.
fn first<'p, 't>(kept: &[&'p Prop<'t>], name: &str) -> Option<&'p Prop<'t>> {
    kept.iter().find(|p| p.name == name).copied()
}

/// The properties that count: the first of each name, and every move
/// (`B`, `W`); a repeated property is a `ggf::repeated_property` error.
fn first_of_each<'p, 't>(props: &'p [Prop<'t>], errors: &mut TagErrors) -> Vec<&'p Prop<'t>> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut kept: Vec<&Prop> = Vec::new();
    for p in props {
        if p.name == "B" || p.name == "W" || seen.insert(p.name) {
            kept.push(p);
            continue;
        }
        errors.push(
            Diag::error(
                "ggf::repeated_property",
                format!("property `{}` is given twice in one game", p.name),
            )
            .at(p.span)
            .label("repeated here")
            .help(format!(
                "a GGF game has one `{}`; the first one counts, remove this one",
                p.name
            )),
        );
    }
    kept
}

/// The game's type (`TY`), board (`BO`) and komi (`KM`), with their errors.
fn game_rules<'p, 't>(kept: &[&'p Prop<'t>], errors: &mut TagErrors) -> GameRules<'p, 't> {
    let mut no_replay = false;
    let ty_prop = first(kept, "TY");
    let ty = match ty_prop.map(|p| (p, game_type(&p.value))) {
        None => GameType::default(),
        Some((_, Ok(t))) => t,
        Some((p, Err(why))) => {
            no_replay = true;
            errors.push(
                Diag::error("ggf::bad_type", format!("bad TY: {why}"))
                    .at(p.value_span)
                    .label(why.to_string())
                    .help("TY is a board size (4 to 16, even) and flags: s synchro, k komi, a anti, r or rN random start, b or w"),
            );
            GameType::default()
        }
    };
    let bo = first(kept, "BO");
    let mut size = ty.size;
    let mut setup = None;
    if let Some(p) = bo {
        match setup_of(&p.value, ty.size) {
            Ok((n, s)) => {
                size = Some(n);
                setup = s;
            }
            Err(why) => {
                no_replay = true;
                errors.push(
                    Diag::error("reversi::bad_setup", format!("bad BO: {why}"))
                        .at(p.value_span)
                        .label(why.to_string())
                        .help("BO[N then N×N cells (- empty, * black, O white) then * or O to move], N the TY size"),
                );
            }
        }
    }
    if let (Some(_), Some(p), None) = (ty.random, ty_prop, bo) {
        no_replay = true;
        errors.push(
            Diag::error(
                "ggf::missing_board",
                "a random start (`r` in TY) without its board (BO)",
            )
            .at(p.value_span)
            .label("a random start")
            .help("a game from a random start gives that start in BO[...]; it is not the standard start"),
        );
    }
    let has_moves = kept.iter().any(|p| p.name == "B" || p.name == "W");
    let komi = game_komi(kept, &ty, ty_prop, has_moves, errors);
    // a bad or missing komi is a rules error: the winner cannot be told
    no_replay |= komi.is_err();
    let komi = komi.ok().flatten();
    GameRules {
        ty,
        ty_prop,
        bo,
        n: size.unwrap_or(8),
        setup,
        komi,
        no_replay,
    }
}

/// The komi (`KM`), or `Err` after its error: a bad value, or a komi game
/// (`k` in `TY`) with moves and no komi.
fn game_komi(
    kept: &[&Prop],
    ty: &GameType,
    ty_prop: Option<&Prop>,
    has_moves: bool,
    errors: &mut TagErrors,
) -> Result<Option<Komi>, ()> {
    let km = first(kept, "KM");
    let mut komi = None;
    if let Some(p) = km {
        match komi_of(&p.value) {
            Ok(k) => komi = Some(k),
            Err(why) => {
                errors.push(
                    Diag::error("ggf::bad_komi", format!("bad KM: {why}"))
                        .at(p.value_span)
                        .label(why.to_string())
                        .help("KM is the komi, subtracted from black's disc difference: a decimal number (`3.5`, `-2`, `-3.133`)"),
                );
                return Err(());
            }
        }
    }
    if let (true, None, true, Some(p)) = (ty.komi, km, has_moves, ty_prop) {
        errors.push(
            Diag::error(
                "ggf::bad_komi",
                "a komi game (`k` in TY) without its komi (KM)",
            )
            .at(p.value_span)
            .label("a komi game")
            .help("a komi game gives its komi in KM[...] once the first move is played"),
        );
        return Err(());
    }
    Ok(komi)
}

/// A game's tags, move tokens and their players, and claimed winner, as
/// its properties are read in file order.
#[derive(Default)]
struct GameParts {
    tags: Vec<Tag>,
    tokens: Vec<Token>,
    players: Vec<Option<String>>,
    /// A move's evaluation and time (`B[f5/-25.99/0.20]`) by token index.
    move_props: Vec<(usize, String, String)>,
    winner_claim: Option<WinnerClaim>,
}

impl GameParts {
    /// What one property becomes: a move, a tag (the common ones by their
    /// names, the others `GGF_XX`), nothing for `GM` (read first).
    fn prop(&mut self, text: &str, p: &Prop, rules: &GameRules) {
        let n = rules.n;
        let tags = &mut self.tags;
        match p.name {
            "GM" => {}
            "B" | "W" => self.move_token(text, p),
            "PC" => tags.push(tag_of("Site", p.value.to_string(), p)),
            "DT" => tags.push(tag_of("Date", p.value.to_string(), p)),
            "PB" => tags.push(tag_of("Black", p.value.to_string(), p)),
            "PW" => tags.push(tag_of("White", p.value.to_string(), p)),
            "RE" if !rules.ty.anti => match result_of(&p.value, n, rules.komi) {
                Some((b, w)) => tags.push(tag_of("Result", format!("{b}-{w}"), p)),
                None => tags.push(tag_of("GGF_RE", p.value.to_string(), p)),
            },
            "RE" => self.anti_result(p),
            "TY" => {
                if n != 8 {
                    tags.push(tag_of("Size", n.to_string(), p));
                }
                // kept only when it says more than the tags it gives: the
                // writer makes the same `TY` from them (`TY[8]`: nothing)
                let komi = rules.komi.map(|k| k.to_string());
                if type_value(None, komi.as_deref(), n, rules.ty.anti) != p.value.trim() {
                    tags.push(tag_of("GGF_TY", p.value.to_string(), p));
                }
            }
            "KM" => {
                if let Some(k) = rules.komi {
                    tags.push(tag_of("Komi", k.to_string(), p));
                }
            }
            "BO" => {
                let size_at = rules.ty_prop.or(rules.bo);
                if n != 8 && size_at.is_some_and(|s| std::ptr::eq(s, p)) {
                    tags.push(tag_of("Size", n.to_string(), p));
                }
                if let Some(s) = &rules.setup {
                    tags.push(tag_of("Setup", s.clone(), p));
                }
            }
            other => tags.push(tag_of(&format!("GGF_{other}"), p.value.to_string(), p)),
        }
    }

    /// A move (`B[f5]`, `W[d6/1.23]`): its square's token, found in the
    /// file text (the value is unescaped), and its player.
    fn move_token(&mut self, text: &str, p: &Prop) {
        let mut fields = p.value.splitn(3, '/');
        let raw = fields.next().unwrap_or("");
        // the evaluation and the time, kept as written (an empty
        // evaluation too: `f5//1.2`), for the move's record
        let token = self.tokens.len();
        for (name, value) in [MOVE_EVAL, MOVE_TIME].into_iter().zip(fields) {
            self.move_props
                .push((token, name.to_string(), value.to_string()));
        }
        let lead = raw.len() - raw.trim_start().len();
        let sq = raw.trim();
        let at = p.value_span.offset + lead;
        let span = if text.get(at..at + sq.len()) == Some(sq) {
            Span::new(at, sq.len())
        } else {
            p.value_span
        };
        self.tokens.push(Token::new(span));
        self.players.push(Some(
            if p.name == "B" { "black" } else { "white" }.to_string(),
        ));
    }

    /// An anti game's `RE`: kept as `GGF_RE`, and the winner it claims:
    /// black's margin (empties to the loser) minus the komi, so black iff
    /// it is above 0, a draw iff 0.
    fn anti_result(&mut self, p: &Prop) {
        if let Some(d) = re_units(&p.value) {
            let seats = match d.cmp(&0) {
                std::cmp::Ordering::Greater => vec![0],
                std::cmp::Ordering::Less => vec![1],
                std::cmp::Ordering::Equal => vec![0, 1],
            };
            self.winner_claim = Some(WinnerClaim {
                seats,
                span: p.value_span,
                text: format!("RE[{}]", p.value),
                margin: None,
            });
        }
        self.tags.push(tag_of("GGF_RE", p.value.to_string(), p));
    }
}

/// Black's result as GGF writes it, from disc counts on an `n`×`n` board:
/// the difference with the empty squares given to the winner, or in an
/// anti game black's margin with the empties given to the loser. `None` for
/// counts no board holds.
fn ggf_result(b: i64, w: i64, n: usize, anti: bool) -> Option<i64> {
    let all = i64::try_from(n * n).ok()?;
    if b < 0 || w < 0 || b.checked_add(w)? > all {
        return None;
    }
    let empty = all - b - w;
    let net = b - w;
    let net = match net.cmp(&0) {
        std::cmp::Ordering::Greater => net + empty,
        std::cmp::Ordering::Less => net - empty,
        std::cmp::Ordering::Equal => 0,
    };
    Some(if anti { -net } else { net })
}

/// The properties the writer makes from tags; a `GGF_XX` tag naming one of
/// them is not written again.
const MADE: &[&str] = &[
    "GM", "PC", "DT", "PB", "PW", "RE", "TY", "KM", "BO", "B", "W",
];

/// Writes games as GGF. `Err` for a game that is not Reversi.
pub fn write(games: &[DocGame]) -> Result<String, WriteError> {
    let mut out = String::new();
    let mut matches = Matches::default();
    let mut losses = Losses::default();
    for g in games {
        out.push_str(&matches.game(g, &mut losses)?);
    }
    out.push_str(&matches.finish());
    Ok(out)
}

/// The tag that gives a game's place in its GGF match, `k/n` (game `k` of
/// `n`, from 1): `2 (;...;)(;...;)` gives its games `1/2` and `2/2`.
pub const MATCH_TAG: &str = "GGF_match";

/// A game's place in its match, from its [`MATCH_TAG`] tag.
fn match_place(g: &DocGame) -> Option<(usize, usize)> {
    let v = g.tags.iter().find(|(k, _)| k == MATCH_TAG)?.1.trim();
    let (k, n) = v.split_once('/')?;
    let (k, n) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (1 <= k && k <= n && n <= MATCH_HELD).then_some((k, n))
}

/// Games written as GGF one at a time, the games of a match (their
/// [`MATCH_TAG`] tags) held until it is whole and then written after its
/// count on one line, as GGS writes them: `2 (;...;)(;...;)`. A match cut
/// short (a game of it left out of the conversion) is written as a match of
/// the games there are, with a loss noted.
#[derive(Debug, Default)]
pub struct Matches {
    held: Vec<String>,
    /// The count of the match being held.
    count: usize,
    /// What a match written short lost, not yet told.
    lost: Vec<String>,
}

impl Matches {
    /// The text to write for game `g` (empty while its match is held).
    pub fn game(&mut self, g: &DocGame, losses: &mut Losses) -> Result<String, WriteError> {
        let text = write_game(g, losses)?;
        let mut out = String::new();
        match match_place(g) {
            Some((k, n)) if k == self.held.len() + 1 && (k == 1 || n == self.count) => {
                if k == 1 {
                    out.push_str(&self.finish());
                    self.count = n;
                }
                self.held.push(text.trim_end().to_string());
                if k == n {
                    out.push_str(&self.finish());
                }
            }
            _ => {
                out.push_str(&self.finish());
                out.push_str(&text);
            }
        }
        // the match held before this game, written short
        for lost in self.take_lost() {
            losses.note(format!("the match before this game: {lost}"));
        }
        Ok(out)
    }

    /// What matches written short lost since last asked (a match cut at
    /// the end of the output: after [`Matches::finish`]).
    pub fn take_lost(&mut self) -> Vec<String> {
        std::mem::take(&mut self.lost)
    }

    /// The match held, written out (none: nothing).
    pub fn finish(&mut self) -> String {
        if self.held.is_empty() {
            return String::new();
        }
        let held = std::mem::take(&mut self.held);
        if held.len() < self.count {
            self.lost.push(format!(
                "a match of {}: only {} of it written, as a match of {}",
                crate::diag::plural(self.count, "game", "games"),
                held.len(),
                held.len()
            ));
        }
        format!("{} {}\n", held.len(), held.concat())
    }
}

/// Writes one game as GGF, noting in `losses` what GGF cannot keep. `Err`
/// for a game that is not Reversi.
pub fn write_game(g: &DocGame, losses: &mut Losses) -> Result<String, WriteError> {
    if g.game != "reversi" {
        return Err(WriteError::new(format!("GGF holds Othello games only, not {}", g.game)));
    }
    let tag = |name: &str| {
        g.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
    };
    let n = tag("Size")
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|n| (4..=16).contains(n) && n % 2 == 0)
        .unwrap_or(8);
    let variant = g
        .variant
        .as_deref()
        .or(tag("Variant"))
        .unwrap_or("standard")
        .to_ascii_lowercase();
    let anti = variant == "anti";
    let gm = g
        .tags
        .iter()
        .find(|(k, v)| k == "Game" && v.trim().eq_ignore_ascii_case("othello"))
        .map_or("Othello", |(_, v)| v.as_str());
    let mut w = GameWriter {
        out: format!("(;GM[{}]", escape(gm)),
        n,
        anti,
        ty: type_value(tag("GGF_TY"), tag("Komi"), n, anti),
        komi: tag("Komi").and_then(|k| crate::games::reversi::parse_komi(k).ok()),
        ty_done: false,
        bo_done: false,
        re_done: false,
    };
    for (name, value) in &g.tags {
        w.tag(name, value, losses);
    }
    let mut out = w.finish_head();
    for m in g.moves.iter().filter(|m| !m.auto) {
        let colour = if m.player == "white" { "W" } else { "B" };
        let mv = if m.notation == "pass" {
            "PA"
        } else {
            m.notation.as_str()
        };
        // the evaluation and time kept from a GGF move (`f5/-25.99/0.20`)
        let eval = super::move_prop(m, MOVE_EVAL);
        let time = super::move_prop(m, MOVE_TIME);
        let mut value = mv.to_string();
        if eval.is_some() || time.is_some() {
            value.push('/');
            value.push_str(eval.as_deref().unwrap_or_default());
        }
        if let Some(t) = &time {
            value.push('/');
            value.push_str(t);
        }
        out.push_str(&format!("{colour}[{}]", escape(&value)));
    }
    losses.move_props(g, "GGF", |name| name == MOVE_EVAL || name == MOVE_TIME);
    losses.move_numbers(g, "GGF");
    out.push_str(";)\n");
    let comments =
        usize::from(g.comment.is_some()) + g.moves.iter().filter(|m| m.comment.is_some()).count();
    if comments > 0 {
        losses.note(format!(
            "{}: GGF has no place for them",
            crate::diag::plural(comments, "comment", "comments")
        ));
    }
    if variant == "standard" {
        losses.note(
            "the Variant `standard`: GGF results give the empty squares to the winner (read back, the game is `wof`)",
        );
    }
    Ok(out)
}

/// The `TY` value of a game on an `n`×`n` board: the synchro and random
/// flags of its `GGF_TY` tag kept, komi and anti as the game says.
fn type_value(old: Option<&str>, komi: Option<&str>, n: usize, anti: bool) -> String {
    let komi = komi.filter(|k| !k.is_empty());
    let old = old.and_then(|v| game_type(v).ok()).unwrap_or_default();
    let mut ty = String::new();
    if old.synchro {
        ty.push('s');
    }
    ty.push_str(&n.to_string());
    if old.komi || komi.is_some_and(|k| k.parse::<f64>().is_ok_and(|k| k != 0.0)) {
        ty.push('k');
    }
    if anti {
        ty.push('a');
    }
    if let Some(r) = old.random {
        ty.push('r');
        if let Some(k) = r {
            ty.push_str(&k.to_string());
        }
    }
    ty
}

/// The names a move's evaluation and time are kept under
/// ([`crate::record::RawGame::move_props`], a document move's `props`).
pub const MOVE_EVAL: &str = "GGF_eval";
pub const MOVE_TIME: &str = "GGF_time";

/// A GGF game's properties being written from its tags, in their order.
struct GameWriter {
    out: String,
    n: usize,
    anti: bool,
    /// The `TY` value, written at the first `Size` or `GGF_TY` tag, or
    /// after the tags.
    ty: String,
    /// The `Komi` tag's komi: `RE` is then black's result minus it.
    komi: Option<Komi>,
    ty_done: bool,
    bo_done: bool,
    re_done: bool,
}

impl GameWriter {
    /// Writes the property of one tag, or notes that GGF has none for it.
    fn tag(&mut self, name: &str, value: &str, losses: &mut Losses) {
        let out = &mut self.out;
        match name {
            // the match is written by [`Matches`]
            "Game" | "Variant" | MATCH_TAG => {}
            "Site" => out.push_str(&format!("PC[{}]", escape(value))),
            "Date" => out.push_str(&format!("DT[{}]", escape(value))),
            "Black" => out.push_str(&format!("PB[{}]", escape(value))),
            "White" => out.push_str(&format!("PW[{}]", escape(value))),
            "Result" if !self.re_done => self.result(value, losses),
            "GGF_RE" if !self.re_done => {
                out.push_str(&format!("RE[{}]", escape(value)));
                self.re_done = true;
            }
            // a Size of 8 reads back as no tag: `TY` goes where it goes
            // without one (after the tags), so that the file reads back
            // and writes again the same
            "Size" if self.n == 8 => losses.note(format!(
                "the Size tag `{value}`: GGF's type says 8x8 by the size alone (TY[8]), which reads back as no tag"
            )),
            "Size" | "GGF_TY" => {
                if !self.ty_done {
                    out.push_str(&format!("TY[{}]", self.ty));
                    self.ty_done = true;
                }
            }
            "Komi" => out.push_str(&format!("KM[{}]", escape(value.trim()))),
            "Setup" => {
                out.push_str(&board(value, self.n));
                self.bo_done = true;
            }
            other => match other.strip_prefix("GGF_") {
                Some(p)
                    if !p.is_empty()
                        && p.chars().all(|c| c.is_ascii_alphanumeric())
                        && p.starts_with(|c: char| c.is_ascii_uppercase())
                        && !MADE.contains(&p) =>
                {
                    out.push_str(&format!("{p}[{}]", escape(value)));
                }
                _ => losses.note(format!("the {name} tag: GGF has no place for it")),
            },
        }
    }

    /// The `Result` tag as `RE`: black's result as GGF writes it.
    fn result(&mut self, value: &str, losses: &mut Losses) {
        let scores = crate::record::parse_result_scores(value);
        let d = match scores.as_deref() {
            Some(&[b, w]) => ggf_result(b, w, self.n, self.anti),
            _ => None,
        };
        match d {
            Some(d) => {
                let k = self.komi.unwrap_or(Komi(0));
                let re = re_text(Komi::UNIT * d - k.0, k.decimals());
                self.out.push_str(&format!("RE[{re}]"));
                self.re_done = true;
                if self.anti {
                    losses.note(format!(
                        "the Result tag `{value}` of an anti game: GGF keeps black's margin only (read back, its winner is checked)"
                    ));
                }
            }
            None => losses.note(format!(
                "the Result tag `{value}`: not scores GGF can write"
            )),
        }
    }

    /// The game's text so far, with `TY` and `BO` when no tag gave them.
    fn finish_head(mut self) -> String {
        if !self.ty_done {
            self.out.push_str(&format!("TY[{}]", self.ty));
        }
        if !self.bo_done {
            let n = self.n;
            self.out
                .push_str(&board(&format!("{} b", start_cells(n)), n));
        }
        self.out
    }
}

/// A `Setup` value as `BO[N rows... side]`.
fn board(setup: &str, n: usize) -> String {
    let v = setup.trim();
    let (cells, side) = v.rsplit_once(char::is_whitespace).unwrap_or((v, "b"));
    let cells: Vec<char> = cells
        .trim()
        .chars()
        .map(|c| match c {
            'X' | 'x' | '*' => '*',
            'O' | 'o' => 'O',
            _ => '-',
        })
        .collect();
    let rows: Vec<String> = cells.chunks(n.max(1)).map(|r| r.iter().collect()).collect();
    let side = if side.eq_ignore_ascii_case("w") {
        'O'
    } else {
        '*'
    };
    format!("BO[{n} {} {side}]", rows.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START8: &str = "---------------------------O*------*O---------------------------";

    fn one(text: &str) -> RawGame {
        let games = read(text);
        assert_eq!(games.len(), 1, "{text}");
        games.into_iter().next().unwrap()
    }

    fn codes(g: &RawGame) -> Vec<&str> {
        g.tag_errors.iter().map(|d| d.code.as_ref()).collect()
    }

    #[test]
    fn reads_properties_moves_and_spans() {
        let text =
            "junk (;GM[othello]PC[GGS]PB[a\\]b]RE[+2.000]TY[8]B[f5//1.2]W[ d6/-3.5/0.4]B[PA];)";
        let g = one(text);
        assert_eq!(g.tags.value("Game"), Some("othello"));
        assert_eq!(g.tags.value("Variant"), Some("wof"));
        assert_eq!(g.tags.value("Black"), Some("a]b"));
        assert_eq!(g.tags.value("Result"), Some("33-31"));
        // the default type says nothing the other tags do not
        assert_eq!(g.tags.value("GGF_TY"), None);
        assert_eq!(g.tags.value("Size"), None);
        let t: Vec<&str> = g.tokens.iter().map(|t| t.text(text)).collect();
        assert_eq!(t, ["f5", "d6", "PA"]);
        assert!(g.stop.is_none());
        assert_eq!(g.tags.get("Black").unwrap().value_span.text(text), "a\\]b");
    }

    #[test]
    fn results_boards_and_komi() {
        assert_eq!(result_of("+64", 8, None), Some((64, 0)));
        assert_eq!(result_of("-4.000", 8, None), Some((30, 34)));
        assert_eq!(result_of("+3", 8, None), None);
        assert_eq!(result_of("+12:r", 8, None), None);
        assert_eq!(result_of("+100", 10, None), Some((100, 0)));
        assert_eq!(result_of("+66", 8, None), None);
        // GGS: RE is the disc difference minus the komi (igor-ant 19-45,
        // ming1014-ant 36-28)
        assert_eq!(result_of("-22.867", 8, komi_of("-3.133").ok()), Some((19, 45)));
        assert_eq!(result_of("+8.5", 8, komi_of("-0.5").ok()), Some((36, 28)));
        assert_eq!(result_of("+26", 8, komi_of("2").ok()), Some((46, 18)));
        assert_eq!(result_of("+26.5", 8, komi_of("2").ok()), None);
        assert_eq!(re_text(-22_867_000_000, 3), "-22.867");
        assert_eq!(re_text(8_500_000_000, 0), "+8.5");
        assert_eq!(re_text(0, 3), "+0.000");
        assert_eq!(re_text(26_000_000_000, 0), "+26");
        assert_eq!(start_cells(8), START8);
        assert_eq!(start_cells(4), "-----O*--*O-----");
        assert_eq!(setup_of(&format!("8 {START8} *"), None), Ok((8, None)));
        assert!(
            setup_of(&format!("8 {START8} O"), None)
                .unwrap()
                .1
                .is_some()
        );
        assert!(setup_of(&format!("8 {START8} *"), Some(10)).is_err());
        assert!(setup_of("10 --- *", None).is_err());
        assert!(setup_of("9 --- *", None).is_err());
        assert_eq!(
            setup_of(&format!("10 {} *", start_cells(10)), Some(10)),
            Ok((10, None))
        );
        assert_eq!(komi_of("+3.500").map(|k| k.to_string()), Ok("3.5".into()));
        assert_eq!(komi_of("-2").map(|k| k.to_string()), Ok("-2".into()));
        assert_eq!(komi_of("-0.00").map(|k| k.to_string()), Ok("0".into()));
        assert_eq!(komi_of("007.25").map(|k| k.to_string()), Ok("7.25".into()));
        assert_eq!(komi_of("-3.133").map(|k| k.to_string()), Ok("-3.133".into()));
        assert_eq!(komi_of("0.1234567890").map(|k| k.to_string()), Ok("0.123456789".into()));
        assert!(komi_of("0.1234567891").is_err());
        assert!(komi_of("x").is_err());
        assert!(komi_of("1.5x").is_err());
    }

    #[test]
    fn game_types() {
        let t = game_type("s8r20").unwrap();
        assert!(t.synchro && !t.komi && !t.anti);
        assert_eq!((t.size, t.random), (Some(8), Some(Some(20))));
        let t = game_type("10ka").unwrap();
        assert!(t.komi && t.anti && t.random.is_none());
        assert_eq!(t.size, Some(10));
        assert_eq!(game_type("8kr").unwrap().random, Some(None));
        assert_eq!(game_type("").unwrap(), GameType::default());
        assert!(game_type("88").is_err());
        assert!(game_type("9").is_err());
        assert!(game_type("18").is_err());
        assert!(game_type("8x").is_err());
    }

    #[test]
    fn type_flags_become_tags() {
        let start10 = start_cells(10);
        let text =
            format!("(;GM[Othello]PB[a]PW[b]TY[10ka]KM[+2.50]RE[-6]BO[10 {start10} *]B[e4];)");
        let g = one(&text);
        assert_eq!(g.tags.value("Size"), Some("10"));
        assert_eq!(g.tags.value("Variant"), Some("anti"));
        assert_eq!(g.tags.value("Komi"), Some("2.5"));
        assert_eq!(g.tags.value("Setup"), None);
        assert_eq!(g.tags.value("Result"), None);
        assert_eq!(g.tags.value("GGF_RE"), Some("-6"));
        let claim = g.winner_claim.as_ref().unwrap();
        assert_eq!(claim.seats, [1]);
        assert_eq!(claim.span.text(&text), "-6");
        assert!(g.tag_errors.is_empty(), "{:?}", g.tag_errors);
        assert_eq!(g.tokens.len(), 1);

        // RE is the margin minus the komi: 0 is a draw against the komi,
        // above 0 a black win, in an anti game too
        let g = one("(;TY[8ka]KM[2]RE[0]B[f5];)");
        assert_eq!(g.winner_claim.unwrap().seats, [0, 1]);
        let g = one("(;TY[8ka]KM[2]RE[+0.5]B[f5];)");
        assert_eq!(g.winner_claim.unwrap().seats, [0]);
        let g = one("(;TY[8a]RE[+10.000]B[f5];)");
        assert_eq!(g.winner_claim.unwrap().seats, [0]);
        // a resigned anti game claims nothing
        assert!(one("(;TY[8a]RE[+10:r]B[f5];)").winner_claim.is_none());

        // komi without anti: the Result stays disc counts
        let g = one("(;TY[8k]KM[-1.5]RE[+3.5]B[f5];)");
        assert_eq!(g.tags.value("Variant"), Some("wof"));
        assert_eq!(g.tags.value("Komi"), Some("-1.5"));
        assert_eq!(g.tags.value("Result"), Some("33-31"));

        // a random start takes its board from BO
        let mut cells: Vec<char> = START8.chars().collect();
        cells[0] = '*';
        cells[63] = 'O';
        let cells: String = cells.into_iter().collect();
        let g = one(&format!("(;TY[s8r20]BO[8 {cells} O]W[f5];)"));
        assert_eq!(g.tags.value("Setup"), Some(format!("{cells} w").as_str()));
        assert!(g.tag_errors.is_empty());

        // 6x6 from BO alone
        let g = one(&format!("(;BO[6 {} *]B[c2];)", start_cells(6)));
        assert_eq!(g.tags.value("Size"), Some("6"));
    }

    #[test]
    fn type_errors_stop_the_replay() {
        let g = one("(;GM[Othello]TY[8r20]B[f5];)");
        assert_eq!(codes(&g), ["ggf::missing_board"]);
        assert!(g.tokens.is_empty());
        let g = one("(;GM[Othello]TY[88]B[f5];)");
        assert_eq!(codes(&g), ["ggf::bad_type"]);
        assert!(g.tokens.is_empty());
        let g = one(&format!("(;TY[10]BO[8 {START8} *]B[f5];)"));
        assert_eq!(codes(&g), ["reversi::bad_setup"]);
        assert!(g.tokens.is_empty());
        let g = one("(;TY[8k]B[f5];)");
        assert_eq!(codes(&g), ["ggf::bad_komi"]);
        assert!(g.tokens.is_empty());
        // a komi game not started yet has no KM
        assert!(one("(;TY[8k];)").tag_errors.is_empty());
        let g = one("(;KM[1.5x]B[f5];)");
        assert_eq!(codes(&g), ["ggf::bad_komi"]);
        assert!(g.tokens.is_empty());
        // GGS's komi has three decimals
        assert!(one("(;KM[-3.133]B[f5];)").tag_errors.is_empty());
    }

    #[test]
    fn repeated_properties() {
        let text = "(;GM[Othello]PB[a]TY[8x]PB[c]GM[Chess]B[f5]W[d6];)";
        let g = one(text);
        assert_eq!(
            codes(&g),
            [
                "ggf::bad_type",
                "ggf::repeated_property",
                "ggf::repeated_property"
            ]
        );
        assert_eq!(g.tag_errors[1].span.unwrap().text(text), "PB[c]");
        assert_eq!(g.tags.value("Black"), Some("a"));
        assert_eq!(g.tags.value("Game"), Some("Othello"));
        assert!(g.tokens.is_empty());
        let many = format!("(;GM[Othello]{};)", "BO[2]".repeat(1000));
        assert_eq!(one(&many).tag_errors.len(), MAX_TAG_ERRORS);
    }

    #[test]
    fn broken_games_recover_at_the_next_line() {
        // a line missing its `;)`
        let text = "(;GM[Othello]PB[a]B[f5]W[d6]\n(;GM[Othello]PB[c]B[f5];)\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        let stop = games[0].stop.as_ref().unwrap();
        assert_eq!(stop.code, "ggf::syntax");
        assert_eq!(stop.span.unwrap().offset, text.find('\n').unwrap());
        assert_eq!(games[0].tokens.len(), 2);
        assert!(games[1].stop.is_none());
        assert_eq!(games[1].tags.value("Black"), Some("c"));

        // an unclosed value, lone CR line ends
        let text = "(;GM[Othello]PB[a]B[f5]C[oops;)\r(;GM[Othello]PB[c]B[f5]W[d6];)\r";
        let games = read(text);
        assert_eq!(games.len(), 2);
        let stop = games[0].stop.as_ref().unwrap();
        assert_eq!(stop.span.unwrap().text(text), "C[");
        assert_eq!(games[0].tokens.len(), 1);
        assert_eq!(games[1].tokens.len(), 2);
        assert!(games[1].stop.is_none());

        // a game that runs into the next one on its line
        let games = read("(;GM[Othello]B[f5](;GM[Othello]B[d3];)");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].stop.as_ref().unwrap().code, "ggf::syntax");
        assert!(games[1].stop.is_none());

        // junk inside a game skips to its `;)`; a file cut short
        let games = read("(;GM[Othello]B[f5]x;)(;B[f5];)");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].stop.as_ref().unwrap().code, "ggf::syntax");
        assert_eq!(
            read("(;GM[Othello]B[f5")[0].stop.as_ref().unwrap().code,
            "ggf::syntax"
        );
        assert_eq!(read("(;GM[Othello]B").len(), 1);
        assert!(read("12345678 ( ( 9").is_empty());
    }

    #[test]
    fn match_counts() {
        let g = "(;GM[Othello]B[f5];)";
        let s = "(;GM[Othello]TY[s8]B[f5];)";
        assert!(
            read(&format!("1 {g}\n2 {s}{s}\n"))
                .iter()
                .all(|g| g.tag_errors.is_empty())
        );
        let games = read(&format!("1 {g}{g}\n"));
        assert_eq!(codes(&games[0]), ["ggf::match_count"]);
        assert!(games[1].tag_errors.is_empty());
        let games = read(&format!("3 {g}{g}\n1 {g}\n"));
        assert_eq!(codes(&games[0]), ["ggf::match_count"]);
        assert!(
            games[0].tag_errors[0]
                .message
                .contains("3 games, but 2 games follow")
        );
        assert!(games[2].tag_errors.is_empty());
        let games = read(&format!("1 {s}\n"));
        assert_eq!(codes(&games[0]), ["ggf::match_count"]);
        assert!(games[0].tag_errors[0].message.contains("synchro"));
    }

    fn streamed(text: &str, limit: usize) -> Vec<RawGame> {
        let buf = TextBuf::new(
            Vec::new(),
            Box::new(std::io::Cursor::new(text.as_bytes().to_vec())),
            limit,
        );
        games(buf)
            .map(|g| {
                let mut g = g.unwrap();
                g.raw.shift(g.origin.offset);
                g.raw
            })
            .collect()
    }

    #[test]
    fn streaming_gives_the_same_games() {
        let text = "junk\n1 (;GM[Othello]PB[a]B[f5]W[d6]\r\n(;GM[Othello]C[x\ny;)]B[f5];)(;B[f5];)\r(;B[f5]C[open\n\n2 (;B[f5];)(;B[f5];)\n";
        let whole = read(text);
        assert_eq!(whole.len(), 6);
        assert_eq!(streamed(text, 1 << 20), whole);
        // a long line of games is read a game at a time, under the size limit
        let line = "(;GM[Othello]PB[a]C[;)]B[f5];)".repeat(6000);
        let whole = read(&line);
        assert_eq!(whole.len(), 6000);
        assert!(
            whole
                .iter()
                .all(|g| g.stop.is_none() && g.tokens.len() == 1)
        );
        assert_eq!(streamed(&line, 100_000), whole);
    }

    fn doc(tags: &[(&str, &str)], variant: &str) -> DocGame {
        DocGame {
            comment: Some("hi".into()),
            ..DocGame::written("reversi", Some(variant), tags, [])
        }
    }

    #[test]
    fn ggf_results() {
        assert_eq!(ggf_result(4, 59, 8, false), Some(-56));
        assert_eq!(ggf_result(41, 23, 8, false), Some(18));
        assert_eq!(ggf_result(15, 48, 8, true), Some(34));
        assert_eq!(ggf_result(30, 30, 8, true), Some(0));
        assert_eq!(ggf_result(60, 39, 10, false), Some(22));
        assert_eq!(ggf_result(i64::MAX, 1, 8, false), None);
        assert_eq!(ggf_result(-1, 1, 8, false), None);
        assert_eq!(ggf_result(40, 40, 8, false), None);
        assert_eq!(start_cells(0), "");
    }

    #[test]
    fn writes_types_results_and_losses() {
        let mut losses = Losses::default();
        let g = doc(
            &[
                ("Game", "reversi"),
                ("Event", "Cup"),
                ("Black", "a"),
                ("Result", "4-59"),
                ("Round", "2"),
            ],
            "standard",
        );
        let out = write_game(&g, &mut losses).unwrap();
        assert!(
            out.starts_with("(;GM[Othello]PB[a]RE[-56]TY[8]BO[8 "),
            "{out}"
        );
        let notes: Vec<&str> = losses.iter().collect();
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(notes[0].contains("Event"));
        assert!(notes[1].contains("Round"));
        assert!(notes[2].contains("1 comment"));
        assert!(notes[3].contains("standard"));
        let read_back = one(&out);
        assert_eq!(read_back.tags.value("Result"), Some("4-60"));

        let mut losses = Losses::default();
        let g = doc(
            &[
                ("Size", "10"),
                ("Komi", "1.5"),
                ("GGF_TY", "s8r20"),
                ("Result", "30-60"),
            ],
            "anti",
        );
        let out = write_game(&g, &mut losses).unwrap();
        assert!(
            out.starts_with("(;GM[Othello]TY[s10kar20]KM[1.5]RE[+38.5]BO[10 "),
            "{out}"
        );
        let back = one(&out);
        assert_eq!(back.tags.value("Size"), Some("10"));
        assert_eq!(back.tags.value("Komi"), Some("1.5"));
        assert_eq!(back.tags.value("Variant"), Some("anti"));
        assert_eq!(back.winner_claim.unwrap().seats, [0]);
        assert!(back.tag_errors.is_empty(), "{:?}", back.tag_errors);
        assert!(losses.iter().any(|l| l.contains("anti game")));
    }

    /// The move numbers the text formats keep and a `Size` of 8 (which
    /// reads back as no tag) are said; `TY` then goes after the tags, where
    /// it goes without a `Size`, so that the file read back writes the same
    /// again. A match cut short is said with the game after it as the match
    /// before that game.
    #[test]
    fn says_move_numbers_a_size_of_eight_and_a_match_cut_short() {
        let tags = [("Size", "8"), ("Black", "a")];
        let mut g = DocGame::written("reversi", Some("wof"), &tags, ["f5".to_string()]);
        g.moves[0].number = Some("1.".into());
        let mut losses = Losses::default();
        let out = write_game(&g, &mut losses).unwrap();
        assert!(out.starts_with("(;GM[Othello]PB[a]TY[8]BO[8 "), "{out}");
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            [
                "the Size tag `8`: GGF's type says 8x8 by the size alone (TY[8]), which reads back as no tag",
                "the move numbers of 1 move: GGF has no place for them",
            ]
        );
        let back = one(&out);
        assert_eq!(back.tags.value("Size"), None);
        let again = DocGame::written("reversi", Some("wof"), &[("Black", "a")], ["f5".to_string()]);
        assert_eq!(write_game(&again, &mut Losses::default()).unwrap(), out);

        let mut matches = Matches::default();
        let mut losses = Losses::default();
        let first = DocGame::written("reversi", Some("wof"), &[(MATCH_TAG, "1/2")], []);
        assert_eq!(matches.game(&first, &mut losses).unwrap(), "");
        let next = DocGame::written("reversi", Some("wof"), &[], []);
        let out = matches.game(&next, &mut losses).unwrap();
        assert!(out.starts_with("1 (;GM[Othello]"), "{out}");
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            ["the match before this game: a match of 2 games: only 1 of it written, as a match of 1"]
        );
    }
}
