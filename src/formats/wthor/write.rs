//! The WTHOR writer (`convert --to wthor`).
//!
//! A `.wtb` file of 8x8 games, with its names in `WTHOR.JOU` (players) and
//! `WTHOR.TRN` (tournaments) beside it: existing names files are merged into
//! (their names keep their numbers, new names are appended; nothing is ever
//! renumbered), missing ones are created.
//!
//! Each game's record: the numbers of its `Event` (tournament), `Black` and
//! `White` names; black's real score as the database scores it (the empty
//! squares go to the winner, `wof`); black's theoretical score, the score
//! black gets when both sides play perfectly from the position with
//! `depth` empty squares (the header's depth field; the FFO database uses
//! 24), found by an exact endgame search, or the real score when the game
//! never reached that many empty squares; the moves, passes left out.
//!
//! Decisions per thing WTHOR cannot hold:
//! - refused (the game cannot be written, exit 2): a game other than
//!   Reversi, a `Setup` start, a `Size` other than 8, the `anti` variant, a
//!   `Komi` other than 0 (the winner could change), a move that is not a
//!   square or a pass;
//! - written with a warning (`Losses`): the `standard` scoring (the file
//!   scores `wof`; the winner is the same, the scores change when squares
//!   are left empty), tags with no field (anything but `Game`, `Variant`,
//!   `Event`, `Black`, `White`, `Date`, `Result`, `TheoreticalScore`,
//!   `TheoreticalDepth`),
//!   comments, move numbers, written passes (read back as automatic
//!   passes), a `Result` the record does not read back as (a record stores
//!   black's score for every game: an unfinished game with no `Result`, or
//!   `*`, reads back claiming its discs), a `Date`
//!   holding more than a year or another year than the file's (the header
//!   holds one year for all games), a name longer than its field (19 bytes
//!   for a player, 25 for a tournament: cut) or with characters outside
//!   ISO-8859-1 (written `?`) or blanks around it (trimmed), a `Size` of 8
//!   and a `Komi` of 0 (read back without them), a missing `Black`,
//!   `White` or `Event` (written
//!   as `???`, the FFO database's name for an unknown player);
//! - a `TheoreticalScore` tag (a game read from WTHOR) is written as it is,
//!   not searched again, when it is at the file's depth (its
//!   `TheoreticalDepth` tag, which the reader gives for a depth other than
//!   the FFO database's 24, or 24); an unfinished game's real score is black's part of
//!   its `Result` when that sums to 64 (as the reader writes it), else
//!   black's discs.

use super::{GAME_LEN, HEADER_LEN, MOVES_OFFSET, byte_of_square, read_names};
use crate::formats::{Losses, ReadError, WriteError};
use crate::games::reversi::engine::{Bitboard, flips, legal_moves};
use crate::games::reversi::solver::Solver;
use crate::model::DocGame;
/// The depth of the theoretical score `convert --to wthor` writes by
/// default. The FFO database's files use 24 ([`FFO_DEPTH`]), an exact
/// search that takes this searcher a minute or more per game; 14 takes
/// milliseconds for a tournament game, some tens of milliseconds for a
/// random one (`cargo bench --features bench --bench wthor_write`).
pub const DEFAULT_DEPTH: u8 = 14;

/// The depth of the theoretical scores in the FFO database's files.
pub const FFO_DEPTH: u8 = 24;

/// The name written for a missing player or tournament.
pub const UNKNOWN_NAME: &str = "???";

/// The names of a `WTHOR.JOU` or `WTHOR.TRN` being written: those of the
/// existing file first, with their numbers and bytes unchanged, then the
/// names added.
#[derive(Clone, Debug)]
pub struct NameList {
    record_len: usize,
    /// The existing file's header (rewritten with the new count and date).
    header: [u8; HEADER_LEN],
    /// The existing records, as they were.
    existing: Vec<u8>,
    existing_count: usize,
    added: Vec<String>,
    numbers: std::collections::HashMap<String, u16>,
}

impl NameList {
    /// An empty list (no file yet) of records `record_len` bytes long.
    pub fn new(record_len: usize) -> NameList {
        NameList {
            record_len,
            header: [0; HEADER_LEN],
            existing: Vec::new(),
            existing_count: 0,
            added: Vec::new(),
            numbers: std::collections::HashMap::new(),
        }
    }

    /// The list of an existing names file's bytes.
    pub fn from_bytes(bytes: &[u8], record_len: usize) -> Result<NameList, ReadError> {
        let names = read_names(bytes, record_len)?;
        let mut list = NameList::new(record_len);
        if let Some(h) = bytes.get(..HEADER_LEN) {
            list.header.copy_from_slice(h);
        }
        list.existing_count = names.len();
        list.existing = bytes
            .get(HEADER_LEN..HEADER_LEN + names.len() * record_len)
            .unwrap_or(&[])
            .to_vec();
        for (i, name) in names.into_iter().enumerate() {
            // the first of equal names keeps them
            if let Ok(n) = u16::try_from(i) {
                list.numbers.entry(name).or_insert(n);
            }
        }
        Ok(list)
    }

    /// How many names there are, old and new.
    pub fn len(&self) -> usize {
        self.existing_count + self.added.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The names added to the existing file.
    pub fn added(&self) -> &[String] {
        &self.added
    }

    /// The number of `name` as stored (already fitted to the field),
    /// appending it when new.
    fn number(&mut self, name: &str) -> Result<u16, WriteError> {
        if let Some(&n) = self.numbers.get(name) {
            return Ok(n);
        }
        let n = u16::try_from(self.len()).map_err(|_| {
            WriteError::new(format!(
                "more than {} names: a WTHOR names file numbers them with 16 bits",
                u16::MAX
            ))
        })?;
        self.added.push(name.to_string());
        self.numbers.insert(name.to_string(), n);
        Ok(n)
    }

    /// The file's bytes, its creation date `date` (century, year in the
    /// century, month, day).
    pub fn to_bytes(&self, date: [u8; 4]) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.len() * self.record_len);
        let mut header = self.header;
        header[..4].copy_from_slice(&date);
        let count = u16::try_from(self.len()).unwrap_or(u16::MAX);
        header[8..10].copy_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&self.existing);
        for name in &self.added {
            let mut rec = vec![0u8; self.record_len];
            for (dst, c) in rec.iter_mut().zip(name.chars()) {
                *dst = u8::try_from(u32::from(c)).unwrap_or(b'?');
            }
            out.extend_from_slice(&rec);
        }
        out
    }
}

/// `name` as its field stores it and as the reader gives it back: ISO-8859-1
/// (other characters `?`), at most `record_len - 1` bytes, trimmed. Notes
/// in `losses` what changed.
fn fit_name(name: &str, record_len: usize, what: &str, losses: &mut Losses) -> String {
    let trimmed = name.trim();
    if trimmed != name {
        losses.note(format!(
            "the {what} name `{name}`: the blanks around it are not kept"
        ));
    }
    let mut out: String = trimmed
        .chars()
        .map(|c| {
            if u32::from(c) > 0xff || c.is_control() {
                '?'
            } else {
                c
            }
        })
        .collect();
    if out != trimmed {
        losses.note(format!(
            "the {what} name `{trimmed}`: characters outside ISO-8859-1 are written `?`"
        ));
    }
    let most = record_len - 1;
    if out.chars().count() > most {
        out = out
            .chars()
            .take(most)
            .collect::<String>()
            .trim_end()
            .to_string();
        losses.note(format!(
            "the {what} name `{trimmed}`: longer than the {most} characters of its field, cut to `{out}`"
        ));
    }
    out
}

/// The year a `Date` tag starts with (`2004`, `2004.05.12`, `2004-05-12`).
fn year_of(date: &str) -> Option<u16> {
    let d = date.trim();
    let digits: String = d.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() != 4 {
        return None;
    }
    digits.parse().ok()
}

/// Today's date as a WTHOR header's first four bytes.
pub fn today() -> [u8; 4] {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    [(y / 100) as u8, (y % 100) as u8, m as u8, d as u8]
}

/// The (year, month, day) of a day count since 1970-01-01 (proleptic
/// Gregorian calendar).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Writes a `.wtb` file a game at a time: [`WtbWriter::record`] per game,
/// then [`WtbWriter::header`] once the games are counted.
#[derive(Clone, Debug)]
pub struct WtbWriter {
    pub players: NameList,
    pub tournaments: NameList,
    /// The depth of the theoretical scores: given, or chosen at the first
    /// game (see [`WtbWriter::new`]).
    depth: Option<u8>,
    /// Whether the depth was given (`--wthor-depth`), not chosen.
    depth_given: bool,
    year: Option<u16>,
    games: u32,
    /// The endgame search, made at the first game that needs it.
    solver: Option<Box<Solver>>,
}

/// The tags a WTHOR record keeps (some changed: see the writing notes).
const KEPT_TAGS: [&str; 9] = [
    "Game",
    "Variant",
    "Event",
    "Black",
    "White",
    "Date",
    "Result",
    "TheoreticalScore",
    "TheoreticalDepth",
];

impl WtbWriter {
    /// A writer whose names go to `players` and `tournaments`, theoretical
    /// scores searched from `depth` empty squares. Without a depth, the
    /// first game chooses: the depth of its `TheoreticalScore` tag (a game
    /// read from WTHOR: its `TheoreticalDepth` tag, else [`FFO_DEPTH`]),
    /// else [`DEFAULT_DEPTH`]. A `TheoreticalScore` tag is written as it
    /// is at its own depth, and searched again (with a warning when it
    /// changes) at another.
    pub fn new(players: NameList, tournaments: NameList, depth: Option<u8>) -> WtbWriter {
        WtbWriter {
            players,
            tournaments,
            depth,
            depth_given: depth.is_some(),
            year: None,
            games: 0,
            solver: None,
        }
    }

    /// The games written so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The file's header for the games written, created on `date`.
    pub fn header(&self, date: [u8; 4]) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..4].copy_from_slice(&date);
        h[4..8].copy_from_slice(&self.games.to_le_bytes());
        h[10..12].copy_from_slice(&self.year.unwrap_or(0).to_le_bytes());
        h[12] = 8;
        h[13] = 0;
        h[14] = self.depth.unwrap_or(DEFAULT_DEPTH);
        h
    }

    /// The record of one replayed game; `Err` when WTHOR cannot hold it.
    pub fn record(
        &mut self,
        g: &DocGame,
        losses: &mut Losses,
    ) -> Result<[u8; GAME_LEN], WriteError> {
        let tag = |name: &str| tag_value(g, name);
        let wof = holdable(g)?;
        let moves = Moves::of(g)?;
        let stored = tag("TheoreticalScore")
            .and_then(|t| t.parse::<u8>().ok())
            .filter(|&t| t <= 64);
        // the depth of a stored score: its file's (a WTHOR file gamerec
        // wrote at another depth than the FFO database's says it)
        let stored_depth = tag("TheoreticalDepth")
            .and_then(|t| t.trim().parse::<u8>().ok())
            .unwrap_or(FFO_DEPTH);
        let depth = *self.depth.get_or_insert(if stored.is_some() {
            stored_depth
        } else {
            DEFAULT_DEPTH
        });
        let stored = stored.map(|t| (t, stored_depth));
        let replayed = replay_for_record(&moves.squares, depth)
            .ok_or_else(|| WriteError::new("the moves do not replay from the standard start"))?;
        let real = real_score(g, &replayed.end, wof, losses);
        let theory = self.theory(g, stored, &replayed, depth, real, losses)?;
        let tournament = self.name_number(g, "Event", false, losses)?;
        let black = self.name_number(g, "Black", true, losses)?;
        let white = self.name_number(g, "White", true, losses)?;
        self.note_year(tag("Date"), losses);
        moves.note_dropped(g, losses);
        let mut rec = [0u8; GAME_LEN];
        rec[0..2].copy_from_slice(&tournament.to_le_bytes());
        rec[2..4].copy_from_slice(&black.to_le_bytes());
        rec[4..6].copy_from_slice(&white.to_le_bytes());
        rec[6] = real.clamp(0, 64) as u8;
        rec[7] = theory.clamp(0, 64) as u8;
        for (dst, &sq) in rec[MOVES_OFFSET..].iter_mut().zip(&moves.squares) {
            *dst = byte_of_square(sq);
        }
        self.games += 1;
        Ok(rec)
    }

    /// Black's theoretical score: the stored one when it is at the file's
    /// depth (`stored`: the score and its depth), else searched from the
    /// position at `depth` empty squares (the real score when the game
    /// never reached it). `Err` for a game without a stored score in a
    /// file whose first game chose the FFO depth.
    fn theory(
        &mut self,
        g: &DocGame,
        stored: Option<(u8, u8)>,
        replayed: &ForRecord,
        depth: u8,
        real: i64,
        losses: &mut Losses,
    ) -> Result<i64, WriteError> {
        if stored.is_none()
            && replayed.at_depth.is_some()
            && depth == FFO_DEPTH
            && !self.depth_given
        {
            // the first game chose the FFO depth; a search that deep takes
            // minutes per game, which nobody asked for
            return Err(WriteError::new(format!(
                "this game has no TheoreticalScore, and the file's depth is {depth} empty squares (chosen because the first game has one): searching it would take minutes; give --wthor-depth (e.g. 14) to search every game from that depth"
            )));
        }
        let theory = match stored {
            Some((t, d)) if d == depth => i64::from(t),
            _ => match replayed.at_depth {
                Some(pos) => {
                    let solver = self.solver.get_or_insert_with(|| Box::new(Solver::new()));
                    solve(&pos, real, solver)
                }
                None => real,
            },
        };
        if let Some(t) = tag_value(g, "TheoreticalScore").filter(|_| stored.is_none()) {
            losses.note(format!(
                "the TheoreticalScore {t}: not a score from 0 to 64, searched instead ({theory})"
            ));
        }
        if let Some((t, _)) = stored.filter(|&(t, _)| i64::from(t) != theory) {
            losses.note(format!(
                "the TheoreticalScore {t}: searched again from the file's depth, {depth} empty squares, it is {theory}"
            ));
        }
        Ok(theory)
    }

    /// The number of the name in tag `key` (a player's or the tournament's),
    /// added to its list when new; a missing name is written as
    /// [`UNKNOWN_NAME`].
    fn name_number(
        &mut self,
        g: &DocGame,
        key: &str,
        player: bool,
        losses: &mut Losses,
    ) -> Result<u16, WriteError> {
        // untrimmed: [`fit_name`] says the blanks it drops
        let given = g
            .tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.trim().is_empty());
        let value = given.unwrap_or_else(|| {
            losses.note(format!("no {key} tag: written as `{UNKNOWN_NAME}`"));
            UNKNOWN_NAME
        });
        let list = if player {
            &mut self.players
        } else {
            &mut self.tournaments
        };
        let fitted = fit_name(value, list.record_len, key, losses);
        list.number(&fitted)
    }

    /// The file's year from a game's `Date` (the first game with one sets
    /// it), and what the file cannot keep of it.
    fn note_year(&mut self, date: Option<&str>, losses: &mut Losses) {
        match date {
            None => losses
                .note("no Date tag: reading the file back gives the game the year of the file"),
            Some(date) => match year_of(date) {
                None => losses.note(format!(
                    "the Date {date}: WTHOR keeps a year only, and this has none"
                )),
                Some(y) if self.year.is_none_or(|f| f == y) => {
                    self.year = Some(y);
                    if date != y.to_string() {
                        losses.note(format!("the Date {date}: WTHOR keeps the year only ({y})"));
                    }
                }
                Some(y) => losses.note(format!(
                    "the Date {date}: a WTHOR file holds games of one year, {}, not {y}",
                    self.year.unwrap_or(0)
                )),
            },
        }
    }
}

/// The value of a game's tag `name`, trimmed.
fn tag_value<'g>(g: &'g DocGame, name: &str) -> Option<&'g str> {
    g.tags
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim())
}

/// Whether WTHOR can hold the game: `Err` for what it cannot (another
/// game, a `Setup`, a `Size` other than 8, a komi, a variant other than
/// `wof` and `standard`); else whether it scores `wof`.
fn holdable(g: &DocGame) -> Result<bool, WriteError> {
    let tag = |name: &str| tag_value(g, name);
    if g.game != "reversi" {
        return Err(WriteError::new(format!("WTHOR holds Othello games only, not {}", g.game)));
    }
    if tag("Setup").is_some() {
        return Err(WriteError::new("WTHOR games start from the standard position, not a Setup"));
    }
    if let Some(size) = tag("Size").filter(|s| *s != "8") {
        return Err(WriteError::new(format!(
            "WTHOR writing holds 8x8 games only, not Size {size}"
        )));
    }
    if let Some(komi) = tag("Komi").filter(|k| k.parse::<f64>() != Ok(0.0)) {
        return Err(WriteError::new(format!(
            "WTHOR has no komi (Komi {komi} can change the winner)"
        )));
    }
    let variant = g
        .variant
        .as_deref()
        .or(tag("Variant"))
        .unwrap_or("standard");
    match variant.to_ascii_lowercase().as_str() {
        "wof" => Ok(true),
        "standard" => Ok(false),
        other => Err(WriteError::new(format!(
            "WTHOR scores games with the empty squares to the winner; the {other} variant cannot be written"
        ))),
    }
}

/// A game's moves as WTHOR keeps them: the squares, passes left out.
struct Moves {
    squares: Vec<u8>,
    written_passes: usize,
    comments: usize,
}

impl Moves {
    /// `Err` for a move that is not a square or a pass, or more than 60.
    fn of(g: &DocGame) -> Result<Moves, WriteError> {
        let mut squares = Vec::with_capacity(60);
        let mut written_passes = 0;
        let mut comments = usize::from(g.comment.is_some());
        for m in &g.moves {
            comments += usize::from(m.comment.is_some());
            if m.notation.eq_ignore_ascii_case("pass") {
                written_passes += usize::from(!m.auto);
                continue;
            }
            match m.notation.as_bytes() {
                [c @ b'a'..=b'h', r @ b'1'..=b'8'] => squares.push((r - b'1') * 8 + (c - b'a')),
                _ => return Err(WriteError::new(format!("`{}` is not a square of an 8x8 board", m.notation))),
            }
        }
        if squares.len() > 60 {
            return Err(WriteError::new("more than 60 moves"));
        }
        Ok(Moves {
            squares,
            written_passes,
            comments,
        })
    }

    /// Notes what the record has no place for: tags without a field,
    /// comments, written passes, move numbers, the moves' kept properties.
    fn note_dropped(&self, g: &DocGame, losses: &mut Losses) {
        for (k, v) in &g.tags {
            if k == "Size" || k == "Komi" {
                // 8 and 0 (any other is refused): said by the file itself
                losses.note(format!(
                    "the {k} tag `{v}`: WTHOR holds 8x8 games without komi only, and reads back without the tag"
                ));
            } else if !KEPT_TAGS.contains(&k.as_str()) {
                losses.note(format!("the {k} tag: WTHOR has no place for it"));
            }
        }
        if self.comments > 0 {
            losses.note(format!(
                "{}: WTHOR has no place for them",
                crate::diag::plural(self.comments, "comment", "comments")
            ));
        }
        if self.written_passes > 0 {
            losses.note(format!(
                "{}: WTHOR leaves passes out (reading it back takes them as automatic passes)",
                crate::diag::plural(self.written_passes, "written pass", "written passes")
            ));
        }
        losses.move_props(g, "WTHOR", |_| false);
        losses.move_numbers(g, "WTHOR");
    }
}

/// Black's real score as WTHOR stores it (`wof`): from the final position
/// `end` when the game is over, else black's part of a `Result` summing to
/// 64, else black's discs. Notes the `standard` scoring (`wof` false), and
/// a `Result` the record reads back otherwise ([`note_result`]).
fn real_score(g: &DocGame, end: &Bitboard, wof: bool, losses: &mut Losses) -> i64 {
    let (b, w) = (
        i64::from(end.black.count_ones()),
        i64::from(end.white.count_ones()),
    );
    let over = end.is_over();
    let real = if over {
        wof_black(b, w)
    } else {
        match tag_value(g, "Result")
            .and_then(crate::record::parse_result_scores)
            .as_deref()
        {
            Some(&[rb, rw]) if rb + rw == 64 && (0..=64).contains(&rb) => rb,
            _ => b,
        }
    };
    let rescored = !wof && over && b + w < 64;
    if rescored {
        losses.note(format!(
            "the standard scoring: WTHOR gives the empty squares to the winner ({b}-{w} becomes {real}-{})",
            64 - real
        ));
    } else if !wof {
        losses.note(
            "the standard scoring: WTHOR games are scored with the empty squares to the winner (wof); the scores are the same here",
        );
    }
    note_result(g, real, rescored.then_some([b, w]), losses);
    real
}

/// Notes a `Result` tag that the record does not read back as: a record
/// stores black's score for every game (an unfinished game's too: its
/// `Result` when that sums to 64, else black's discs), and the reader makes
/// the game's `Result` from it. `rescored`: the standard scores of a
/// finished game, which the scoring's note already says become others.
fn note_result(g: &DocGame, real: i64, rescored: Option<[i64; 2]>, losses: &mut Losses) {
    let stored = [real, 64 - real];
    let given = tag_value(g, "Result");
    let claimed = given.and_then(crate::record::parse_result_scores);
    if claimed.as_deref() == Some(&stored[..])
        || rescored.is_some_and(|s| claimed.as_deref() == Some(&s[..]))
    {
        return;
    }
    let read_back = crate::record::format_result(&stored);
    losses.note(match given {
        None => format!(
            "no Result tag: a WTHOR record stores black's score, so the game reads back with the Result {read_back}"
        ),
        Some(v) => format!(
            "the Result tag `{v}`: a WTHOR record stores black's score, so the game reads back with the Result {read_back}"
        ),
    });
}

/// Black's score when the empty squares go to the winner (half each on a draw).
fn wof_black(b: i64, w: i64) -> i64 {
    let empty = 64 - b - w;
    match b.cmp(&w) {
        std::cmp::Ordering::Greater => b + empty,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => b + empty / 2,
    }
}

/// Black's score with perfect play from `pos` (empty squares to the
/// winner), searched exactly; `real`, black's score in the game, is the
/// first guess.
fn solve(pos: &Bitboard, real: i64, solver: &mut Solver) -> i64 {
    let (p, o) = pos.mover();
    let played = 2 * real - 64;
    let guess = if pos.black_to_move { played } else { -played };
    let d = i64::from(solver.exact(p, o, guess as i32));
    let d = if pos.black_to_move { d } else { -d };
    (64 + d) / 2
}

/// Black's theoretical score of an 8x8 game whose moves are `squares`
/// (from the standard start, passes left out; `a1` = 0, `h8` = 63), as the
/// writer searches it: exactly from the position with `depth` empty
/// squares, or `real` (black's score in the game) when the game never
/// reached it. `None` when the moves do not replay.
pub fn searched_theory(squares: &[u8], depth: u8, real: i64, solver: &mut Solver) -> Option<i64> {
    let replayed = replay_for_record(squares, depth)?;
    Some(match replayed.at_depth {
        Some(pos) => solve(&pos, real, solver),
        None => real,
    })
}

/// A game replayed for its record: the final position, and the position
/// with `depth` empty squares when the game reached it.
struct ForRecord {
    end: Bitboard,
    at_depth: Option<Bitboard>,
}

/// Replays `squares` from the standard start, passing where the side to
/// move has no move; `None` at an illegal move.
fn replay_for_record(squares: &[u8], depth: u8) -> Option<ForRecord> {
    let mut pos = Bitboard::START;
    let empties = |p: &Bitboard| 64 - (p.black | p.white).count_ones();
    let mut at_depth = (empties(&pos) == u32::from(depth)).then_some(pos);
    for &sq in squares {
        let (p, o) = pos.mover();
        if legal_moves(p, o) == 0 {
            pos.pass();
        }
        let (p, o) = pos.mover();
        let sq = u32::from(sq);
        if (p | o) & (1u64 << sq) != 0 {
            return None;
        }
        let f = flips(p, o, sq);
        if f == 0 {
            return None;
        }
        pos.play(sq, f);
        if at_depth.is_none() && empties(&pos) == u32::from(depth) {
            at_depth = Some(pos);
        }
    }
    Some(ForRecord { end: pos, at_depth })
}

#[cfg(test)]
mod tests {
    use super::super::{Names, PLAYER_LEN, TOURNAMENT_LEN, read};
    use super::*;
    use std::sync::Arc;

    fn doc(moves: &[&str], tags: &[(&str, &str)], variant: &str) -> DocGame {
        DocGame::written(
            "reversi",
            Some(variant),
            tags,
            moves.iter().map(|m| m.to_string()),
        )
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(year_of("2004.05.12"), Some(2004));
        assert_eq!(year_of("04"), None);
    }

    /// A writer with empty name lists, the depth of its theoretical scores 4.
    fn fresh_writer() -> WtbWriter {
        WtbWriter::new(
            NameList::new(PLAYER_LEN),
            NameList::new(TOURNAMENT_LEN),
            Some(4),
        )
    }

    #[test]
    fn writes_a_record_that_reads_back() {
        let mut w = fresh_writer();
        let mut losses = Losses::default();
        let g = doc(
            &["f5", "d6", "c3"],
            &[
                ("Game", "reversi"),
                ("Event", "Open"),
                ("Black", "Ann"),
                ("White", "Ben"),
                ("Date", "2003"),
                ("Site", "Paris"),
            ],
            "wof",
        );
        let rec = w.record(&g, &mut losses).unwrap();
        assert_eq!(&rec[..6], &[0, 0, 0, 0, 1, 0]);
        assert_eq!(&rec[8..12], &[56, 64, 33, 0]);
        // the unfinished game without a Result reads back claiming its discs
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            [
                "no Result tag: a WTHOR record stores black's score, so the game reads back with the Result 5-59",
                "the Site tag: WTHOR has no place for it",
            ]
        );
        let mut file = w.header([20, 26, 1, 2]).to_vec();
        file.extend_from_slice(&rec);
        let names = Names {
            players: Some(Arc::new(
                read_names(&w.players.to_bytes([0; 4]), PLAYER_LEN).unwrap(),
            )),
            tournaments: Some(Arc::new(
                read_names(&w.tournaments.to_bytes([0; 4]), TOURNAMENT_LEN).unwrap(),
            )),
        };
        let r = read(&file, &names).unwrap();
        let back = &r.games[0];
        assert_eq!(back.tags.value("Black"), Some("Ann"));
        assert_eq!(back.tags.value("White"), Some("Ben"));
        assert_eq!(back.tags.value("Event"), Some("Open"));
        assert_eq!(back.tags.value("Date"), Some("2003"));
        assert_eq!(back.tokens[0].text(&r.text), "f5d6c3");
        assert_eq!(back.tags.value("Result"), Some("5-59"));
    }

    /// What a record reads back otherwise is said: the blanks around a
    /// name, a `Size` of 8 and a `Komi` of 0 (no tag read back), a `Result`
    /// of `*` on an unfinished game (read back, black's discs), the move
    /// numbers; a `Result` the record keeps is not.
    #[test]
    fn says_what_reads_back_otherwise() {
        let mut w = fresh_writer();
        let tags = [
            ("Event", "Open"),
            ("Black", " Ann"),
            ("White", "Ben"),
            ("Date", "2003"),
            ("Size", "8"),
            ("Komi", "0"),
            ("Result", "*"),
        ];
        let mut g = doc(&["f5", "d6", "c3"], &tags, "wof");
        g.moves[0].number = Some("1.".into());
        let mut losses = Losses::default();
        w.record(&g, &mut losses).unwrap();
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            [
                "the Result tag `*`: a WTHOR record stores black's score, so the game reads back with the Result 5-59",
                "the Black name ` Ann`: the blanks around it are not kept",
                "the Size tag `8`: WTHOR holds 8x8 games without komi only, and reads back without the tag",
                "the Komi tag `0`: WTHOR holds 8x8 games without komi only, and reads back without the tag",
                "the move numbers of 1 move: WTHOR has no place for them",
            ]
        );
        // a Result summing to 64 is the record's own
        let kept = [("Event", "Open"), ("Black", "Ann"), ("White", "Ben"), ("Date", "2003"), ("Result", "33-31")];
        let mut losses = Losses::default();
        w.record(&doc(&["f5", "d6", "c3"], &kept, "wof"), &mut losses).unwrap();
        assert!(losses.is_empty(), "{:?}", losses.iter().collect::<Vec<_>>());
    }

    #[test]
    fn refuses_what_it_cannot_hold() {
        let mut w = fresh_writer();
        let mut l = Losses::default();
        let mut other = doc(&[], &[], "classic");
        other.game = "blokus".into();
        assert!(w.record(&other, &mut l).is_err());
        for tags in [&[("Setup", "x")][..], &[("Size", "10")], &[("Komi", "1.5")]] {
            assert!(
                w.record(&doc(&["f5"], tags, "wof"), &mut l).is_err(),
                "{tags:?}"
            );
        }
        assert!(w.record(&doc(&["f5"], &[], "anti"), &mut l).is_err());
        assert!(
            w.record(&doc(&["f5"], &[("Komi", "0")], "wof"), &mut l)
                .is_ok()
        );
        assert_eq!(w.games(), 1);
    }

    #[test]
    fn names_merge_without_renumbering() {
        let mut old = NameList::new(PLAYER_LEN);
        old.number("Ann").unwrap();
        old.number("Ben").unwrap();
        let bytes = old.to_bytes([20, 1, 1, 1]);
        let mut merged = NameList::from_bytes(&bytes, PLAYER_LEN).unwrap();
        assert_eq!(merged.number("Ben").unwrap(), 1);
        assert_eq!(merged.number("Cid").unwrap(), 2);
        assert_eq!(merged.added(), ["Cid"]);
        let again = merged.to_bytes([20, 2, 2, 2]);
        assert_eq!(&again[HEADER_LEN..bytes.len()], &bytes[HEADER_LEN..]);
        assert_eq!(
            read_names(&again, PLAYER_LEN).unwrap(),
            ["Ann", "Ben", "Cid"]
        );
    }

    #[test]
    fn long_and_foreign_names_are_fitted_and_said() {
        let mut l = Losses::default();
        assert_eq!(
            fit_name("Abcdefghij Klmnopqrstu", PLAYER_LEN, "Black", &mut l),
            "Abcdefghij Klmnopqr"
        );
        assert_eq!(fit_name("Zoë 李", PLAYER_LEN, "Black", &mut l), "Zoë ?");
        assert_eq!(l.iter().count(), 2);
    }
}
