//! WTHOR, the binary Othello database of the Fédération Française d'Othello
//! (`.wtb` game files, `WTHOR.JOU` players, `WTHOR.TRN` tournaments).
//!
//! Layout (little-endian): a 16-byte header (century, year, month, day of
//! creation; u32 number of games; u16 number of records (JOU/TRN); u16 year
//! of the games; u8 board size, 0 or 8 for 8x8, 10 for 10x10; u8 file type;
//! u8 depth of the theoretical score; u8 reserved), then 68-byte games: u16
//! tournament, u16 black player, u16 white player, u8 black's real score, u8
//! black's theoretical score, 60 move bytes `10 * row + column` (`a1` = 11,
//! `h8` = 88), 0 after the last move. A 10x10 file has 104-byte games: the
//! same 8 bytes, then 96 move bytes `12 * row + column` (`a1` = 13, `j10` =
//! 130). JOU records are 20 bytes, TRN records 26, NUL-terminated ISO-8859-1.
//!
//! Each game becomes a Reversi record: tags `Game "reversi"`, `Variant
//! "wof"` (the database scores that way), `Size "10"` in a 10x10 file,
//! `Event` (the tournament), `Black`,
//! `White`, `Date` (the year of the games, from the header), `Result` (black's
//! stored real score `b` and `64 - b`, `100 - b` on 10x10) and `TheoreticalScore` (the stored
//! theoretical score, not checked); the moves as one compact transcript (10x10: a token per move). The
//! reader builds the games directly (no text parsing) while it writes that
//! text, and records in a [`ByteMap`] which text stands for which file bytes:
//! a move for its move byte, a tag value for its field (`Date` for the
//! header's year), so diagnostics give the byte offset in the `.wtb` file.
//!
//! Speed: [`games`] yields each record unwritten; `validate`, `score` and
//! `convert` replay it straight from its bytes ([`Record::fast_report`]) and
//! build the report (with the moves, for `convert`) when the game is clean
//! (legal, over, stored score right: nearly all of a database), and write
//! text and a container game only for the others, which the generic driver
//! replays for their diagnostics. `show`, `moves` and [`read`] write every
//! game. Tests check both give the same reports.
//!
//! Decisions where the format is loose:
//! - a player or tournament number with no name (no JOU/TRN file found, or
//!   past its end) is written `#N`;
//! - the moves stop at the first 0 byte; bytes after it are not read;
//! - a move byte that is not a square (not `10 * row + column` with row and
//!   column 1 to 8) ends the game's movetext with `reversi::bad_square` at
//!   that byte (the synthesized text shows it as `#BYTE`);
//! - a file shorter than its header says (a partial last record, or missing
//!   records) keeps its complete games and gets one more game, invalid, with
//!   the error `wthor::truncated` at ply 0, pointing at the byte where the
//!   missing data starts;
//! - a file holding more records than its header announces (a count of 0
//!   with 8 games, of 2 with 8) has every record read; its last game has
//!   the warning `wthor::count` naming both counts, at the header's count
//!   (bytes 4 to 7); bytes past the count that make no whole record are
//!   not read;
//! - a file shorter than the header, or of another board size than 8x8 or
//!   10x10, cannot be read (a file-level error, exit 2);
//! - 10x10 games always go through the driver (the replay straight from the
//!   bytes is the 8x8 bitboards').

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use super::{ByteMap, ReadOptions, SourceGame};
use crate::diag::Diag;
use crate::games::reversi::engine::{Replayed, replay_clean};
use crate::record::{RawGame, Tag, Tags, Token};
use crate::replay::{GameReport, MoveRecord, Options, describe_tags, described};
use crate::span::Span;
use serde_json::Map;

pub const HEADER_LEN: usize = 16;
pub const GAME_LEN: usize = 68;
/// The length of a game record of a 10x10 file (8 bytes, 96 moves).
pub const GAME_LEN_10: usize = 104;

/// The length of a game record on a board of side `size` (8 or 10).
fn game_len(size: u8) -> usize {
    if size == 10 { GAME_LEN_10 } else { GAME_LEN }
}

/// The board side a header names (0 means 8).
fn header_size(header: &[u8]) -> u8 {
    match header.get(12).copied().unwrap_or(0) {
        0 => 8,
        n => n,
    }
}

/// The (row, column), from 0, of a move byte of a 10x10 file
/// (`12 * row + column`, both from 1).
#[inline]
pub fn square_of_byte_10(b: u8) -> Option<(u8, u8)> {
    let (row, col) = (b / 12, b % 12);
    ((1..=10).contains(&row) && (1..=10).contains(&col)).then(|| (row - 1, col - 1))
}
pub const MOVES_OFFSET: usize = 8;
pub const PLAYER_LEN: usize = 20;
pub const TOURNAMENT_LEN: usize = 26;

/// Names of the players and tournaments, when their files were found.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub players: Option<Arc<Vec<String>>>,
    pub tournaments: Option<Arc<Vec<String>>>,
}

/// A `.wtb` file read: the synthesized text, the games, the map back to bytes.
pub struct Read {
    pub text: String,
    pub games: Vec<RawGame>,
    pub byte_map: ByteMap,
}

/// The square index (`a1` = 0, bit `8 * row + column`) of a move byte.
#[inline]
pub fn square_of_byte(b: u8) -> Option<u8> {
    let (row, col) = (b / 10, b % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Some((row - 1) * 8 + (col - 1))
    } else {
        None
    }
}

/// The move byte of a square index.
pub fn byte_of_square(sq: u8) -> u8 {
    (sq / 8 + 1) * 10 + sq % 8 + 1
}

/// The name of each square of the 8x8 board by index (`a1`, `b1`, ...,
/// `h8`): a replayed move's notation without a string built per move.
const SQUARE_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at + 2)?;
    Some(u16::from_le_bytes([*b.first()?, *b.get(1)?]))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    let mut a = [0u8; 4];
    a.copy_from_slice(b);
    Some(u32::from_le_bytes(a))
}

/// ISO-8859-1 up to the first NUL, trimmed.
fn latin1(bytes: &[u8]) -> String {
    let s: String = bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| char::from(b))
        .collect();
    s.trim().to_string()
}

/// Reads a JOU or TRN file: its names, by number.
pub fn read_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, String> {
    if bytes.len() < HEADER_LEN {
        return Err(format!(
            "not a WTHOR names file: {}, shorter than the 16-byte header",
            crate::diag::plural(bytes.len(), "byte", "bytes")
        ));
    }
    let count = usize::from(u16_at(bytes, 8).unwrap_or(0));
    let body = bytes.get(HEADER_LEN..).unwrap_or(&[]);
    Ok(body
        .chunks_exact(record_len)
        .take(count)
        .map(latin1)
        .collect())
}

/// A file beside `file` named `want` (case-insensitive).
fn beside(file: &str, want: &str) -> Option<PathBuf> {
    if file == "-" {
        return None;
    }
    let dir = Path::new(file).parent()?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(want))
        })
}

/// The players and tournaments for a `.wtb` file: from `--players` /
/// `--tournaments` (an error if unreadable), or `WTHOR.JOU` / `WTHOR.TRN`
/// beside it (left out if absent or unreadable).
pub fn side_files(file: &str, opts: &ReadOptions) -> Result<Names, String> {
    let load = |given: &Option<PathBuf>, default: &str, len: usize| match given {
        Some(p) => read_side_file(p, len)
            .and_then(|b| read_names(&b, len).map_err(|e| format!("{}: {e}", p.display())))
            .map(Arc::new)
            .map(Some),
        None => Ok(beside(file, default)
            .and_then(|p| read_side_file(&p, len).ok())
            .and_then(|b| read_names_cached(b, len).ok())),
    };
    Ok(Names {
        players: load(&opts.players, "WTHOR.JOU", PLAYER_LEN)?,
        tournaments: load(&opts.tournaments, "WTHOR.TRN", TOURNAMENT_LEN)?,
    })
}

/// [`read_names`], remembering the last file read per record length: the
/// `.wtb` files of a directory share the same `WTHOR.JOU` and `WTHOR.TRN`,
/// which are then decoded once.
fn read_names_cached(bytes: Vec<u8>, record_len: usize) -> Result<Arc<Vec<String>>, String> {
    use std::sync::Mutex;
    type Cached = Option<(Vec<u8>, Arc<Vec<String>>)>;
    static PLAYERS: Mutex<Cached> = Mutex::new(None);
    static TOURNAMENTS: Mutex<Cached> = Mutex::new(None);
    let cache = if record_len == PLAYER_LEN {
        &PLAYERS
    } else {
        &TOURNAMENTS
    };
    if let Ok(guard) = cache.lock() {
        if let Some((b, names)) = guard.as_ref() {
            if *b == bytes {
                return Ok(Arc::clone(names));
            }
        }
    }
    let names = Arc::new(read_names(&bytes, record_len)?);
    if let Ok(mut guard) = cache.lock() {
        *guard = Some((bytes, Arc::clone(&names)));
    }
    Ok(names)
}

/// Reads a names file, which holds at most 65,535 names: a longer one
/// (a device such as `/dev/zero`, or another file) is refused, not read on.
fn read_side_file(path: &Path, record_len: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let most = HEADER_LEN + usize::from(u16::MAX) * record_len;
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(most as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() > most {
        return Err(format!(
            "{}: not a WTHOR names file: longer than {most} bytes",
            path.display()
        ));
    }
    Ok(bytes)
}

fn name_of(list: &Option<Arc<Vec<String>>>, n: u16) -> Cow<'_, str> {
    match list.as_ref().and_then(|l| l.get(usize::from(n))) {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(format!("#{n}")),
    }
}

/// Writes the games' text and builds them.
struct Writer {
    text: String,
    map: ByteMap,
}

impl Writer {
    /// Writes `[name "value"]` and returns the tag; `file` is the field it
    /// comes from (offset, length).
    fn tag(&mut self, name: &str, value: String, file: Option<(usize, usize)>) -> Tag {
        let start = self.text.len();
        self.text.push('[');
        self.text.push_str(name);
        self.text.push_str(" \"");
        let vstart = self.text.len() - 1;
        for c in value.chars() {
            if c == '"' || c == '\\' {
                self.text.push('\\');
            }
            self.text.push(c);
        }
        self.text.push('"');
        let vend = self.text.len();
        self.text.push_str("]\n");
        let value_span = Span::between(vstart, vend);
        if let Some((at, len)) = file {
            self.map.push(vstart, value_span.length, 1, at, len);
        }
        Tag {
            name: name.to_string(),
            value,
            span: Span::between(start, vend + 1),
            value_span,
        }
    }
}

/// `Err` for a file that is not a WTHOR file of 8x8 games.
fn check_header(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() < HEADER_LEN {
        return Err(format!(
            "not a WTHOR file: {}, shorter than the 16-byte header",
            crate::diag::plural(bytes.len(), "byte", "bytes")
        ));
    }
    let board = bytes.get(12).copied().unwrap_or(0);
    if board != 0 && board != 8 && board != 10 {
        return Err(format!(
            "a WTHOR file of {board}x{board} boards: only 8x8 and 10x10 are supported"
        ));
    }
    Ok(())
}

/// Reads a `.wtb` file. `Err` only for a file that is not WTHOR at all.
pub fn read(bytes: &[u8], names: &Names) -> Result<Read, String> {
    check_header(bytes)?;
    let announced = u32_at(bytes, 4).unwrap_or(0) as usize;
    let year = u16_at(bytes, 10).unwrap_or(0);
    let size = header_size(bytes);
    let len = game_len(size);
    let body = bytes.get(HEADER_LEN..).unwrap_or(&[]);
    // every whole record, also past the header's count
    let complete = body.len() / len;
    let mut w = Writer {
        text: String::with_capacity(complete * 300),
        map: ByteMap::default(),
    };
    let mut games = Vec::with_capacity(complete + 1);
    for (i, rec) in body.chunks_exact(len).enumerate() {
        let at = HEADER_LEN + i * len;
        let mut g = read_game(&mut w, rec, at, year, names, size);
        if i + 1 == complete && complete > announced {
            count_note(&mut w, &mut g, announced, complete);
        }
        games.push(g);
    }
    if complete < announced {
        let partial = body.len().saturating_sub(complete * len);
        games.push(truncated_game(&mut w, complete, announced, partial, len));
    }
    Ok(Read {
        text: w.text,
        games,
        byte_map: w.map,
    })
}

/// Notes on the last game of a file holding more records than its header
/// announces: a warning naming both counts, at the header's count.
fn count_note(w: &mut Writer, raw: &mut RawGame, announced: usize, present: usize) {
    let games = |n| crate::diag::plural(n, "game", "games");
    let note_start = w.text.len();
    w.text.push_str("; the header announces ");
    w.text.push_str(&games(announced));
    let span = Span::between(note_start, w.text.len());
    w.text.push_str("\n\n");
    w.map.push(span.offset, span.length, 1, 4, 4);
    raw.tag_errors.push(
        Diag::warning(
            "wthor::count",
            format!(
                "the header announces {}, but the file holds {}: every record is read",
                games(announced),
                games(present)
            ),
        )
        .at(span)
        .label(format!("the header's count: {announced}"))
        .help(format!(
            "bytes 4 to 7 of the header are the number of games: {present} for this file"
        )),
    );
}

/// The game that stands for the missing end of a file whose header
/// announces more games than it holds: `complete` whole games, then
/// `partial` bytes; `len`: the length of a game record.
fn truncated_game(
    w: &mut Writer,
    complete: usize,
    announced: usize,
    partial: usize,
    len: usize,
) -> RawGame {
    let at = HEADER_LEN + complete * len;
    let start = w.text.len();
    let tags = vec![
        w.tag("Game", "reversi".into(), None),
        w.tag("Variant", "wof".into(), None),
    ];
    let missing = announced - complete;
    let what = if partial > 0 {
        format!("game {complete} has {partial} of its {len} bytes")
    } else {
        format!("the file ends after game {}", complete.saturating_sub(1))
    };
    let note_start = w.text.len();
    w.text.push_str("; ");
    w.text.push_str(&what);
    let span = Span::between(note_start, w.text.len());
    w.text.push_str("\n\n");
    w.map.push(span.offset, span.length, 1, at, partial);
    let diag = Diag::error(
        "wthor::truncated",
        format!(
            "the file is truncated: its header announces {}, {missing} missing or incomplete",
            crate::diag::plural(announced, "game", "games")
        ),
    )
    .at(span)
    .label(what)
    .help(format!(
        "a WTHOR file of {} is {} bytes long",
        crate::diag::plural(announced, "game", "games"),
        HEADER_LEN + announced * len
    ));
    RawGame {
        tags: Tags(tags),
        tag_errors: vec![diag],
        span: Span::between(start, w.text.len()),
        ..RawGame::default()
    }
}

/// One game record of a `.wtb` file, read a record at a time ([`games`]):
/// written as text only when needed ([`Record::write`]); `validate`,
/// `score` and `convert` replay a clean one straight from its bytes
/// ([`Record::fast_report`]).
#[derive(Clone, Debug)]
pub struct Record {
    /// The record's bytes (the first `len`); a short one stands for the
    /// truncated end of the file.
    bytes: [u8; GAME_LEN_10],
    len: u8,
    /// The board side (8 or 10).
    size: u8,
    /// Its offset in the file.
    at: usize,
    year: u16,
    names: Arc<Names>,
    /// For the truncated end: the games the header announces, and how many
    /// are whole.
    truncated: Option<(usize, usize)>,
    /// For the last record of a file holding more than its header
    /// announces: the games announced and the records present.
    count: Option<(usize, usize)>,
}

impl Record {
    /// The record as gamerec text, its container game, and where the text
    /// comes from in the file.
    pub fn write(&self) -> (String, RawGame, ByteMap) {
        let mut w = Writer {
            text: String::with_capacity(300),
            map: ByteMap::default(),
        };
        let raw = match self.truncated {
            Some((announced, complete)) => {
                let len = game_len(self.size);
                truncated_game(&mut w, complete, announced, self.bytes().len(), len)
            }
            None => read_game(
                &mut w,
                self.bytes(),
                self.at,
                self.year,
                &self.names,
                self.size,
            ),
        };
        let mut raw = raw;
        if let Some((announced, present)) = self.count {
            count_note(&mut w, &mut raw, announced, present);
        }
        (w.text, raw, w.map)
    }

    /// The report of a clean game (every move legal, the game over, the
    /// stored score right) without the generic driver; `None` otherwise.
    pub fn fast_report(&self, opts: &Options) -> Option<GameReport> {
        if self.truncated.is_some() || self.count.is_some() || self.size != 8 {
            return None;
        }
        let rec = self.bytes();
        let real = i64::from(rec.get(6).copied().unwrap_or(0));
        let moves = rec.get(MOVES_OFFSET..).unwrap_or(&[]);
        let moves = moves
            .get(..memchr::memchr(0, moves).unwrap_or(moves.len()))
            .unwrap_or(&[]);
        let squares = moves.iter().map(|&b| square_of_byte(b).map(u32::from));
        let replayed = replay_clean(squares.clone())?;
        let claimed = [real, 64 - real];
        if !opts.all_tags && !opts.about {
            // no tag is shown: none is built
            return clean_report(replayed, &claimed, std::iter::empty(), None, squares, opts);
        }
        let keep = |n: &str| opts.all_tags || described(n);
        let tags = record_tags(rec, self.at, self.year, &self.names, 8, keep);
        let pairs = tags.iter().flatten().map(|(n, v, _)| (*n, v.as_ref()));
        clean_report(replayed, &claimed, pairs, None, squares, opts)
    }

    /// The record's bytes.
    fn bytes(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

/// Reads a `.wtb` file a record at a time. `Err` for a file that is not WTHOR.
pub fn games<'a>(
    first: Vec<u8>,
    mut reader: Box<dyn std::io::Read + 'a>,
    names: Arc<Names>,
) -> Result<impl Iterator<Item = Result<Box<SourceGame>, String>> + 'a, String> {
    use std::io::Read as _;
    let mut header = first;
    if header.len() < HEADER_LEN {
        let mut more = Vec::new();
        let _ = (&mut reader)
            .take((HEADER_LEN - header.len()) as u64)
            .read_to_end(&mut more);
        header.extend(more);
    }
    check_header(&header)?;
    let announced = u32_at(&header, 4).unwrap_or(0) as usize;
    let year = u16_at(&header, 10).unwrap_or(0);
    let size = header_size(&header);
    let game_len = game_len(size);
    // the bytes read past the header start the records; one block buffer
    // for the whole file, `pending` its unread part
    let mut block = vec![0u8; (1024 * GAME_LEN).max(header.len())];
    let first = header.get(HEADER_LEN..).unwrap_or(&[]);
    if let Some(dst) = block.get_mut(..first.len()) {
        dst.copy_from_slice(first);
    }
    let mut records = Records {
        reader,
        block,
        pending: 0..first.len(),
        game_len,
    };
    let mut index = 0usize;
    let mut ended = false;
    // from the header's count on, the record after the one handed out is
    // read first: the last one says when the file holds more than announced
    let mut ahead: Option<Result<([u8; GAME_LEN_10], usize), String>> = None;
    Ok(std::iter::from_fn(move || {
        if ended {
            return None;
        }
        let (rec, len) = match ahead.take().unwrap_or_else(|| records.next()) {
            Ok(r) => r,
            Err(e) => {
                ended = true;
                return Some(Err(e));
            }
        };
        let at = HEADER_LEN + index * game_len;
        if len < game_len && index >= announced {
            // the end (bytes past the count that make no whole record are
            // not read)
            ended = true;
            return None;
        }
        let truncated = (len < game_len).then(|| {
            ended = true;
            (announced, index)
        });
        let mut count = None;
        if truncated.is_none() && index + 1 >= announced {
            let next = records.next();
            if index + 1 > announced && next.as_ref().is_ok_and(|(_, l)| *l < game_len) {
                count = Some((announced, index + 1));
            }
            ahead = Some(next);
        }
        index += 1;
        let record = Record {
            bytes: rec,
            len: len as u8,
            size,
            at,
            year,
            names: Arc::clone(&names),
            truncated,
            count,
        };
        let mut g = crate::formats::pooled();
        g.text.clear();
        g.raw = RawGame::default();
        g.record = Some(record);
        Some(Ok(g))
    }))
}

/// The records of a `.wtb` file after its header, read a block at a time.
struct Records<'a> {
    reader: Box<dyn std::io::Read + 'a>,
    block: Vec<u8>,
    /// The part of `block` not handed out yet.
    pending: std::ops::Range<usize>,
    game_len: usize,
}

impl Records<'_> {
    /// The next record's bytes and how many there are (fewer than a record
    /// at the end of the file).
    fn next(&mut self) -> Result<([u8; GAME_LEN_10], usize), String> {
        let mut rec = [0u8; GAME_LEN_10];
        let mut len = 0;
        while len < self.game_len {
            if !self.pending.is_empty() {
                let take = (self.game_len - len).min(self.pending.len());
                let (Some(dst), Some(src)) = (
                    rec.get_mut(len..len + take),
                    self.block
                        .get(self.pending.start..self.pending.start + take),
                ) else {
                    break;
                };
                dst.copy_from_slice(src);
                len += take;
                self.pending.start += take;
                continue;
            }
            match self.reader.read(&mut self.block) {
                Ok(0) => break,
                Ok(n) => self.pending = 0..n.min(self.block.len()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read: {e}")),
            }
        }
        Ok((rec, len))
    }
}

/// A tag of a record: name, value, and the file bytes it comes from.
type RecordTag<'a> = (&'static str, Cow<'a, str>, Option<(usize, usize)>);

/// A [`RecordTag`] whose value is built on demand.
type LazyTag<'a, 'b> = (
    &'static str,
    &'b dyn Fn() -> Cow<'a, str>,
    Option<(usize, usize)>,
);

/// The tags of the record at file offset `at`, in order: those whose name
/// `keep` accepts (the values of the others are not built).
fn record_tags<'a>(
    rec: &[u8],
    at: usize,
    year: u16,
    names: &'a Names,
    size: u8,
    keep: impl Fn(&str) -> bool,
) -> [Option<RecordTag<'a>>; 9] {
    let tournament = u16_at(rec, 0).unwrap_or(0);
    let black = u16_at(rec, 2).unwrap_or(0);
    let white = u16_at(rec, 4).unwrap_or(0);
    let real = i64::from(rec.get(6).copied().unwrap_or(0));
    let theory = rec.get(7).copied().unwrap_or(0);
    let squares = i64::from(size) * i64::from(size);
    let fields: [LazyTag; 9] = [
        ("Game", &|| "reversi".into(), None),
        ("Variant", &|| "wof".into(), None),
        ("Size", &|| size.to_string().into(), Some((12, 1))),
        (
            "Event",
            &|| name_of(&names.tournaments, tournament),
            Some((at, 2)),
        ),
        (
            "Black",
            &|| name_of(&names.players, black),
            Some((at + 2, 2)),
        ),
        (
            "White",
            &|| name_of(&names.players, white),
            Some((at + 4, 2)),
        ),
        ("Date", &|| year.to_string().into(), Some((10, 2))),
        (
            "Result",
            &|| crate::record::format_result(&[real, squares - real]).into(),
            Some((at + 6, 1)),
        ),
        (
            "TheoreticalScore",
            &|| theory.to_string().into(),
            Some((at + 7, 1)),
        ),
    ];
    // `Size` only for boards other than 8x8
    fields.map(|(name, value, file)| {
        (keep(name) && (name != "Size" || size != 8)).then(|| (name, value(), file))
    })
}

fn read_game(w: &mut Writer, rec: &[u8], at: usize, year: u16, names: &Names, size: u8) -> RawGame {
    let start = w.text.len();
    let tags = record_tags(rec, at, year, names, size, |_| true)
        .into_iter()
        .flatten()
        .map(|(name, value, file)| w.tag(name, value.into_owned(), file))
        .collect();
    w.text.push('\n');
    let moves = rec.get(MOVES_OFFSET..).unwrap_or(&[]);
    let mut tokens = Vec::with_capacity(1);
    let mut stop = None;
    let mstart = w.text.len();
    let mut n = 0;
    let mut bad = None;
    for &b in moves.iter().take_while(|&&b| b != 0) {
        // one decoding per move byte, for the file's board
        let (sq8, sq10) = if size == 10 {
            (None, square_of_byte_10(b))
        } else {
            (square_of_byte(b), None)
        };
        if sq8.is_none() && sq10.is_none() {
            let file_at = at + MOVES_OFFSET + n;
            if n > 0 {
                w.text.push(' ');
            }
            let s = w.text.len();
            w.text.push('#');
            w.text.push_str(&b.to_string());
            let span = Span::between(s, w.text.len());
            stop = Some(
                Diag::error(
                    "reversi::bad_square",
                    format!("move byte {b} (at byte {file_at}) is not a square"),
                )
                .at(span)
                .label(format!("byte {b}: not a square"))
                .help(if size == 10 {
                    "a move byte of a 10x10 WTHOR file is 12 * row + column, 13 (a1) to 130 (j10)"
                } else {
                    "a WTHOR move byte is 10 * row + column, 11 (a1) to 88 (h8)"
                }),
            );
            bad = Some((s, span.length, file_at));
            break;
        }
        if let Some((row, col)) = sq10 {
            // 10x10: a token per move (`j10` is three letters)
            if n > 0 {
                w.text.push(' ');
            }
            let s = w.text.len();
            w.text.push(char::from(b'a' + col));
            w.text.push_str(&(row + 1).to_string());
            let span = Span::between(s, w.text.len());
            tokens.push(Token::new(span));
            w.map.push(s, span.length, 1, at + MOVES_OFFSET + n, 1);
        } else if let Some(sq) = sq8 {
            w.text.push(char::from(b'a' + sq % 8));
            w.text.push(char::from(b'1' + sq / 8));
        }
        n += 1;
    }
    if n > 0 && size != 10 {
        tokens.push(Token::new(Span::new(mstart, n * 2)));
        w.map.push(mstart, 2, n, at + MOVES_OFFSET, 1);
    }
    if let Some((s, len, file_at)) = bad {
        w.map.push(s, len, 1, file_at, 1);
    }
    w.text.push_str("\n\n");
    RawGame {
        tags: Tags(tags),
        tokens,
        stop,
        span: Span::between(start, w.text.len()),
        ..RawGame::default()
    }
}

/// The replay of a WTHOR game in the common case, without the generic
/// driver: every move legal (automatic passes taken where the side to move
/// has none), the game over and the stored score right. Returns the report
/// the driver would give (`tests::fast_path_agrees_with_the_driver` checks
/// it), or `None` when the game needs the driver (a diagnostic or warning to
/// tell). Only for games this reader built, replayed without `--game`.
pub fn fast_report(raw: &RawGame, text: &str, opts: &Options) -> Option<GameReport> {
    // a move's comment or move number is the driver's to record
    let annotated = || !raw.comments.is_empty() || !raw.numbers.is_empty();
    if !raw.tag_errors.is_empty()
        || (opts.record_moves && annotated())
        || raw.stop.is_some()
        || raw.result_token.is_some()
        || raw.winner_claim.is_some()
        || raw.tokens.len() > 1
        || raw.tags.get("Setup").is_some()
        || raw.tags.get("Size").is_some()
        || raw.tags.value("Game") != Some("reversi")
        || raw.tags.value("Variant") != Some("wof")
    {
        return None;
    }
    let claimed = crate::record::parse_result_scores(raw.tags.value("Result")?)?;
    let moves = raw
        .tokens
        .first()
        .map_or(&b""[..], |t| t.text(text).as_bytes());
    let squares = moves.chunks(2).map(|c| match c {
        [col, row] if (b'a'..=b'h').contains(col) && (b'1'..=b'8').contains(row) => {
            Some(u32::from((row - b'1') * 8 + (col - b'a')))
        }
        _ => None,
    });
    let tags = raw
        .tags
        .0
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()));
    let replayed = replay_clean(squares.clone())?;
    clean_report(replayed, &claimed, tags, raw.comment.clone(), squares, opts)
}

/// The moves of a game [`replay_clean`] found clean in `plies` plies, as
/// the driver records them: each square's static name, the forced passes
/// (`auto`) where the side to move had no move. `None` when the squares do
/// not make that game.
fn clean_moves(
    squares: impl ExactSizeIterator<Item = Option<u32>>,
    plies: usize,
    seats: &'static [&'static str],
) -> Option<Vec<MoveRecord>> {
    use crate::games::reversi::engine::{Position, flips_fast};
    let record = |ply, black: bool, notation, auto| {
        Some(MoveRecord {
            ply,
            player: seats.get(usize::from(!black)).copied()?,
            notation: Cow::Borrowed(notation),
            comment: None,
            auto,
            extras: Map::new(),
            number: None,
        })
    };
    let mut moves = Vec::with_capacity(plies);
    // without a pass, each side in turn from black: no need to play the moves
    let passes = squares.len() != plies;
    let mut pos = Position::START;
    for sq in squares {
        let sq = sq?;
        let name = SQUARE_NAMES.get(sq as usize)?;
        if passes {
            // in a clean game, a move that flips nothing for the side to
            // move comes after its forced pass
            let (p, o) = pos.mover();
            let mut flipped = flips_fast(p, o, sq);
            if flipped == 0 {
                moves.push(record(moves.len() + 1, pos.black_to_move, "pass", true)?);
                pos.pass();
                let (p, o) = pos.mover();
                flipped = flips_fast(p, o, sq);
            }
            moves.push(record(moves.len() + 1, pos.black_to_move, name, false)?);
            pos.play(sq, flipped);
        } else {
            moves.push(record(moves.len() + 1, pos.black_to_move, name, false)?);
            // the turn passes on (the discs are not needed)
            pos.pass();
        }
    }
    (moves.len() == plies).then_some(moves)
}

/// The report of a game replayed clean to its end ([`replay_clean`]) when
/// its `wof` scores are the claimed ones; `None` otherwise. `tags`: (name,
/// value) in file order; `squares`: the moves replayed (recorded with
/// [`Options::record_moves`]).
fn clean_report<'a>(
    replayed: Replayed,
    claimed: &[i64],
    tags: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    comment: Option<String>,
    squares: impl ExactSizeIterator<Item = Option<u32>>,
    opts: &Options,
) -> Option<GameReport> {
    use crate::game::Rules;
    use crate::games::reversi::{Reversi, Scoring, State};
    let Replayed { pos, placed, plies } = replayed;
    let state = State {
        placed,
        ..State::new(pos, Scoring::Wof)
    };
    let scores = Reversi::scores(&state);
    if scores != claimed {
        return None;
    }
    let seats = Reversi::seats(&state);
    let (moves, position) = if opts.record_moves {
        (
            clean_moves(squares, plies, seats)?,
            Reversi::position_rows(&state),
        )
    } else {
        // the driver draws the final position only when recording moves
        (Vec::new(), Vec::new())
    };
    // Rules::winners (the top score, both on a draw) without scoring again
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners = seats
        .iter()
        .zip(&scores)
        .filter(|&(_, &s)| s == best)
        .map(|(&seat, _)| seat)
        .collect();
    // as the driver keeps them (see replay::replay)
    let (tags, about) = if opts.all_tags {
        let pairs = tags.map(|(k, v)| (k.to_string(), v.to_string()));
        (pairs.collect(), None)
    } else if opts.about {
        (Vec::new(), Some(describe_tags(tags, seats)))
    } else {
        (Vec::new(), None)
    };
    Some(GameReport {
        game: Reversi::NAME,
        variant: Reversi::variant(&state),
        tags,
        about,
        comment,
        valid: true,
        plies,
        over: true,
        seats,
        scores,
        winners,
        result_extras: if opts.result_extras {
            Reversi::result_extras(&state)
        } else {
            Map::new()
        },
        unchecked: Reversi::unchecked(&state),
        score_notes: if opts.score_notes {
            Reversi::score_notes(&state)
        } else {
            Vec::new()
        },
        errors: Vec::new(),
        warnings: Vec::new(),
        moves,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(games: u32) -> Vec<u8> {
        let mut h = vec![20, 21, 1, 1];
        h.extend_from_slice(&games.to_le_bytes());
        h.extend_from_slice(&[0, 0]);
        h.extend_from_slice(&1999u16.to_le_bytes());
        h.extend_from_slice(&[8, 0, 22, 0]);
        h
    }

    fn game(moves: &[u8], score: u8) -> Vec<u8> {
        let mut g = vec![1, 0, 2, 0, 3, 0, score, score];
        let mut m = moves.to_vec();
        m.resize(60, 0);
        g.extend(m);
        g
    }

    #[test]
    fn squares_and_bytes() {
        assert_eq!(square_of_byte(11), Some(0));
        assert_eq!(square_of_byte(88), Some(63));
        assert_eq!(square_of_byte(56), Some(4 * 8 + 5)); // f5
        for b in [0u8, 9, 10, 19, 20, 89, 90, 91, 255] {
            assert_eq!(square_of_byte(b), None, "{b}");
        }
        for sq in 0..64 {
            assert_eq!(square_of_byte(byte_of_square(sq)), Some(sq));
        }
    }

    #[test]
    fn reads_moves_and_maps_them_to_bytes() {
        let mut f = header(1);
        f.extend(game(&[56, 64, 33], 40));
        let r = read(&f, &Names::default()).unwrap();
        assert_eq!(r.games.len(), 1);
        let g = &r.games[0];
        assert_eq!(g.tokens[0].text(&r.text), "f5d6c3");
        assert_eq!(g.tags.value("Result"), Some("40-24"));
        assert_eq!(g.tags.value("Black"), Some("#2"));
        let d6 = Span::new(g.tokens[0].span.offset + 2, 2);
        assert_eq!(r.byte_map.map(d6), Some(Span::new(16 + 8 + 1, 1)));
        let result = g.tags.get("Result").unwrap().value_span;
        assert_eq!(r.byte_map.map(result), Some(Span::new(16 + 6, 1)));
    }

    #[test]
    fn bad_byte_stops_the_game_at_its_offset() {
        let mut f = header(1);
        f.extend(game(&[56, 64, 90, 33], 40));
        let r = read(&f, &Names::default()).unwrap();
        let g = &r.games[0];
        let d = g.stop.as_ref().unwrap();
        assert_eq!(d.code, "reversi::bad_square");
        assert_eq!(d.span.unwrap().text(&r.text), "#90");
        assert_eq!(r.byte_map.map(d.span.unwrap()), Some(Span::new(16 + 10, 1)));
        assert_eq!(
            r.byte_map.map(Span::new(g.tokens[0].span.offset, 2)),
            Some(Span::new(24, 1))
        );
    }

    #[test]
    fn truncated_files_keep_their_complete_games() {
        let mut f = header(3);
        f.extend(game(&[56], 40));
        f.extend(&game(&[56], 40)[..30]);
        let r = read(&f, &Names::default()).unwrap();
        assert_eq!(r.games.len(), 2);
        let d = &r.games[1].tag_errors[0];
        assert_eq!(d.code, "wthor::truncated");
        assert_eq!(r.byte_map.map(d.span.unwrap()), Some(Span::new(84, 30)));
        assert!(read(&[1, 2, 3], &Names::default()).is_err());
        // a header alone announcing games
        let r = read(&header(2), &Names::default()).unwrap();
        assert_eq!(r.games.len(), 1);
    }

    /// The default options, those of `validate` and `score` in human form,
    /// and `convert`'s (the moves recorded).
    fn both_options() -> [Options; 3] {
        let brief = Options {
            result_extras: false,
            all_tags: false,
            ..Options::default()
        };
        let convert = Options {
            record_moves: true,
            ..Options::default()
        };
        [Options::default(), brief, convert]
    }

    /// Every WTHOR fixture, valid and invalid.
    const FIXTURES: [&str; 6] = [
        "fixtures/wthor/valid/WTH_1978.wtb",
        "fixtures/wthor/valid/unfinished.wtb",
        "fixtures/wthor/invalid/bad_square.wtb",
        "fixtures/wthor/invalid/no_flip.wtb",
        "fixtures/wthor/invalid/result_mismatch.wtb",
        "fixtures/wthor/invalid/truncated.wtb",
    ];

    #[test]
    fn fast_path_agrees_with_the_driver() {
        for opts in both_options() {
            let mut fast = 0;
            for f in FIXTURES
                .iter()
                .chain(&["../shared/data/wthor/WTH_2004.wtb"])
            {
                let Ok(bytes) = std::fs::read(f) else {
                    continue;
                };
                let r = read(&bytes, &Names::default()).unwrap();
                for g in &r.games {
                    let full = crate::registry::replay(g, &r.text, &opts);
                    match fast_report(g, &r.text, &opts) {
                        Some(quick) => {
                            assert_eq!(quick, full, "{f}");
                            fast += 1;
                        }
                        None => assert!(
                            !full.valid || !full.over || !full.warnings.is_empty(),
                            "{f}"
                        ),
                    }
                }
            }
            // the clean games, whatever the options
            assert!(fast >= 9, "{opts:?}");
        }
    }

    /// Reading a record at a time (clean games replayed from their bytes,
    /// the others written as text) gives the reports of [`read`] then the
    /// driver.
    #[test]
    fn records_agree_with_read_then_replay() {
        for opts in both_options() {
            for f in FIXTURES
                .iter()
                .chain(&["../shared/data/wthor/WTH_1985.wtb"])
            {
                let Ok(bytes) = std::fs::read(f) else {
                    continue;
                };
                let r = read(&bytes, &Names::default()).unwrap();
                let names = Arc::new(Names::default());
                let streamed: Vec<Box<SourceGame>> =
                    games(bytes.clone(), Box::new(std::io::empty()), names)
                        .unwrap()
                        .map(Result::unwrap)
                        .collect();
                assert_eq!(streamed.len(), r.games.len(), "{f}");
                for (g, mut s) in r.games.iter().zip(streamed) {
                    let quick = match s.record.as_ref().and_then(|rec| rec.fast_report(&opts)) {
                        Some(q) => q,
                        None => {
                            s.materialize();
                            crate::registry::replay(&s.raw, &s.text, &opts)
                        }
                    };
                    let mut full = crate::registry::replay(g, &r.text, &opts);
                    // spans differ (each game has its own text): compare them
                    // through the byte maps
                    for (a, b) in full
                        .errors
                        .iter_mut()
                        .chain(full.warnings.iter_mut())
                        .zip(quick.errors.iter().chain(quick.warnings.iter()))
                    {
                        let map = s.byte_map.as_ref();
                        assert_eq!(
                            a.span.and_then(|x| r.byte_map.map(x)),
                            b.span.and_then(|x| map.and_then(|m| m.map(x))),
                            "{f}"
                        );
                        a.span = b.span;
                    }
                    assert_eq!(full, quick, "{f}");
                }
            }
        }
    }

    #[test]
    fn names_are_latin1() {
        let mut f = vec![0u8; 16];
        f[8] = 2;
        let mut rec = b"Andr\xe9\0".to_vec();
        rec.resize(20, 0);
        f.extend(&rec);
        let mut rec = b"Ben  ".to_vec();
        rec.resize(20, 0);
        f.extend(&rec);
        assert_eq!(read_names(&f, 20).unwrap(), ["André", "Ben"]);
    }

    /// A 10x10 file: 104-byte records, `12 * row + column` move bytes, a
    /// token per move mapped to its byte, `Size "10"`, a 100-square result;
    /// read whole or a record at a time, the games replay the same.
    #[test]
    fn ten_by_ten_files() {
        assert_eq!(square_of_byte_10(13), Some((0, 0)));
        assert_eq!(square_of_byte_10(130), Some((9, 9)));
        for b in [0u8, 12, 23, 24, 131, 143, 255] {
            assert_eq!(square_of_byte_10(b), None, "{b}");
        }
        let mut f = header(1);
        f[12] = 10;
        let mut g = vec![1, 0, 2, 0, 3, 0, 60, 60];
        // e4 (12 * 4 + 5), then j10 (130)
        g.extend([53, 130]);
        g.resize(GAME_LEN_10, 0);
        f.extend(&g);
        let r = read(&f, &Names::default()).unwrap();
        let game = &r.games[0];
        assert_eq!(game.tags.value("Size"), Some("10"));
        assert_eq!(game.tags.value("Result"), Some("60-40"));
        let texts: Vec<&str> = game.tokens.iter().map(|t| t.text(&r.text)).collect();
        assert_eq!(texts, ["e4", "j10"]);
        assert_eq!(
            r.byte_map.map(game.tokens[1].span),
            Some(Span::new(16 + 8 + 1, 1))
        );
        let mut short = f.clone();
        short.truncate(16 + 50);
        let r = read(&short, &Names::default()).unwrap();
        assert_eq!(r.games[0].tag_errors[0].code, "wthor::truncated");
        for f in [
            "fixtures/wthor/valid/grand-10x10.wtb",
            "fixtures/wthor/invalid/bad_square_10x10.wtb",
        ] {
            let bytes = std::fs::read(f).unwrap();
            let r = read(&bytes, &Names::default()).unwrap();
            let streamed: Vec<Box<SourceGame>> =
                games(bytes.clone(), Box::new(std::io::empty()), Arc::default())
                    .unwrap()
                    .map(Result::unwrap)
                    .collect();
            assert_eq!(streamed.len(), r.games.len(), "{f}");
            for (g, mut s) in r.games.iter().zip(streamed) {
                let opts = Options::default();
                assert!(s.record.as_ref().unwrap().fast_report(&opts).is_none());
                s.materialize();
                let full = crate::registry::replay(g, &r.text, &opts);
                let one = crate::registry::replay(&s.raw, &s.text, &opts);
                assert_eq!(
                    (full.valid, full.plies, &full.scores),
                    (one.valid, one.plies, &one.scores)
                );
                assert_eq!(full.valid, f.contains("/valid/"), "{f}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Writing (`convert --to wthor`)
// ---------------------------------------------------------------------------
//
// A `.wtb` file of 8x8 games, with its names in `WTHOR.JOU` (players) and
// `WTHOR.TRN` (tournaments) beside it: existing names files are merged into
// (their names keep their numbers, new names are appended; nothing is ever
// renumbered), missing ones are created.
//
// Each game's record: the numbers of its `Event` (tournament), `Black` and
// `White` names; black's real score as the database scores it (the empty
// squares go to the winner, `wof`); black's theoretical score, the score
// black gets when both sides play perfectly from the position with
// `depth` empty squares (the header's depth field; the FFO database uses
// 24), found by an exact endgame search, or the real score when the game
// never reached that many empty squares; the moves, passes left out.
//
// Decisions per thing WTHOR cannot hold:
// - refused (the game cannot be written, exit 2): a game other than
//   Reversi, a `Setup` start, a `Size` other than 8, the `anti` variant, a
//   `Komi` other than 0 (the winner could change), a move that is not a
//   square or a pass;
// - written with a warning (`Losses`): the `standard` scoring (the file
//   scores `wof`; the winner is the same, the scores change when squares
//   are left empty), tags with no field (anything but `Game`, `Variant`,
//   `Event`, `Black`, `White`, `Date`, `Result`, `TheoreticalScore`),
//   comments, written passes (read back as automatic passes), a `Date`
//   holding more than a year or another year than the file's (the header
//   holds one year for all games), a name longer than its field (19 bytes
//   for a player, 25 for a tournament: cut) or with characters outside
//   ISO-8859-1 (written `?`), a missing `Black`, `White` or `Event` (written
//   as `???`, the FFO database's name for an unknown player);
// - a `TheoreticalScore` tag (a game read from WTHOR) is written as it is,
//   not searched again; an unfinished game's real score is black's part of
//   its `Result` when that sums to 64 (as the reader writes it), else
//   black's discs.

use crate::formats::Losses;
use crate::games::reversi::engine::{flips, legal_moves};
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
    pub fn from_bytes(bytes: &[u8], record_len: usize) -> Result<NameList, String> {
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
    fn number(&mut self, name: &str) -> Result<u16, String> {
        if let Some(&n) = self.numbers.get(name) {
            return Ok(n);
        }
        let n = u16::try_from(self.len()).map_err(|_| {
            format!(
                "more than {} names: a WTHOR names file numbers them with 16 bits",
                u16::MAX
            )
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
const KEPT_TAGS: [&str; 8] = [
    "Game",
    "Variant",
    "Event",
    "Black",
    "White",
    "Date",
    "Result",
    "TheoreticalScore",
];

impl WtbWriter {
    /// A writer whose names go to `players` and `tournaments`, theoretical
    /// scores searched from `depth` empty squares. Without a depth, the
    /// first game chooses: [`FFO_DEPTH`] when it has a `TheoreticalScore`
    /// tag (a game read from the FFO database), else [`DEFAULT_DEPTH`].
    /// A `TheoreticalScore` tag is written as it is at [`FFO_DEPTH`], and
    /// searched again (with a warning when it changes) at another depth.
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
    pub fn record(&mut self, g: &DocGame, losses: &mut Losses) -> Result<[u8; GAME_LEN], String> {
        if g.game != "reversi" {
            return Err(format!("WTHOR holds Othello games only, not {}", g.game));
        }
        let tag = |name: &str| {
            g.tags
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.trim())
        };
        if tag("Setup").is_some() {
            return Err("WTHOR games start from the standard position, not a Setup".into());
        }
        if let Some(size) = tag("Size").filter(|s| *s != "8") {
            return Err(format!(
                "WTHOR writing holds 8x8 games only, not Size {size}"
            ));
        }
        if let Some(komi) = tag("Komi").filter(|k| k.parse::<f64>() != Ok(0.0)) {
            return Err(format!(
                "WTHOR has no komi (Komi {komi} can change the winner)"
            ));
        }
        let variant = g
            .variant
            .as_deref()
            .or(tag("Variant"))
            .unwrap_or("standard");
        let wof = match variant.to_ascii_lowercase().as_str() {
            "wof" => true,
            "standard" => false,
            other => {
                return Err(format!(
                    "WTHOR scores games with the empty squares to the winner; the {other} variant cannot be written"
                ));
            }
        };
        // the moves: squares, passes left out
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
                _ => return Err(format!("`{}` is not a square of an 8x8 board", m.notation)),
            }
        }
        if squares.len() > 60 {
            return Err("more than 60 moves".into());
        }
        let stored = tag("TheoreticalScore")
            .and_then(|t| t.parse::<u8>().ok())
            .filter(|&t| t <= 64);
        let depth = *self.depth.get_or_insert(if stored.is_some() {
            FFO_DEPTH
        } else {
            DEFAULT_DEPTH
        });
        let replayed = replay_for_record(&squares, depth)
            .ok_or_else(|| "the moves do not replay from the standard start".to_string())?;
        let (b, w) = (
            i64::from(replayed.end.black.count_ones()),
            i64::from(replayed.end.white.count_ones()),
        );
        let over = replayed.end.is_over();
        let real = if over {
            wof_black(b, w)
        } else {
            match tag("Result")
                .and_then(crate::record::parse_result_scores)
                .as_deref()
            {
                Some(&[rb, rw]) if rb + rw == 64 && (0..=64).contains(&rb) => rb,
                _ => b,
            }
        };
        if !wof {
            let empty = 64 - b - w;
            if over && empty > 0 {
                losses.note(format!(
                    "the standard scoring: WTHOR gives the empty squares to the winner ({b}-{w} becomes {real}-{})",
                    64 - real
                ));
            } else {
                losses.note(
                    "the standard scoring: WTHOR games are scored with the empty squares to the winner (wof); the scores are the same here",
                );
            }
        }
        if stored.is_none()
            && replayed.at_depth.is_some()
            && depth == FFO_DEPTH
            && !self.depth_given
        {
            // the first game chose the FFO depth; a search that deep takes
            // minutes per game, which nobody asked for
            return Err(format!(
                "this game has no TheoreticalScore, and the file's depth is {depth} empty squares (chosen because the first game has one): searching it would take minutes; give --wthor-depth (e.g. 14) to search every game from that depth"
            ));
        }
        let theory = match stored {
            Some(t) if depth == FFO_DEPTH => i64::from(t),
            _ => match replayed.at_depth {
                Some(pos) => {
                    let (p, o) = pos.mover();
                    let solver = self.solver.get_or_insert_with(|| Box::new(Solver::new()));
                    // the game's own result is a good first guess
                    let played = 2 * real - 64;
                    let guess = if pos.black_to_move { played } else { -played };
                    let d = i64::from(solver.exact(p, o, guess as i32));
                    let d = if pos.black_to_move { d } else { -d };
                    (64 + d) / 2
                }
                None => real,
            },
        };
        if let Some(t) = tag("TheoreticalScore").filter(|_| stored.is_none()) {
            losses.note(format!(
                "the TheoreticalScore {t}: not a score from 0 to 64, searched instead ({theory})"
            ));
        }
        if let Some(t) = stored.filter(|&t| i64::from(t) != theory) {
            losses.note(format!(
                "the TheoreticalScore {t}: searched again from the file's depth, {depth} empty squares, it is {theory}"
            ));
        }
        // names
        let mut name = |key: &str, what: &str, players: bool, losses: &mut Losses| {
            let given = tag(key).filter(|v| !v.is_empty());
            let value = given.unwrap_or_else(|| {
                losses.note(format!("no {key} tag: written as `{UNKNOWN_NAME}`"));
                UNKNOWN_NAME
            });
            let list = if players {
                &mut self.players
            } else {
                &mut self.tournaments
            };
            let fitted = fit_name(value, list.record_len, what, losses);
            list.number(&fitted)
        };
        let tournament = name("Event", "Event", false, losses)?;
        let black = name("Black", "Black", true, losses)?;
        let white = name("White", "White", true, losses)?;
        // the year
        match tag("Date") {
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
        // everything else
        for (k, _) in &g.tags {
            if !KEPT_TAGS.contains(&k.as_str()) && k != "Size" && k != "Komi" {
                losses.note(format!("the {k} tag: WTHOR has no place for it"));
            }
        }
        if comments > 0 {
            losses.note(format!(
                "{}: WTHOR has no place for them",
                crate::diag::plural(comments, "comment", "comments")
            ));
        }
        if written_passes > 0 {
            losses.note(format!(
                "{}: WTHOR leaves passes out (reading it back takes them as automatic passes)",
                crate::diag::plural(written_passes, "written pass", "written passes")
            ));
        }
        let mut rec = [0u8; GAME_LEN];
        rec[0..2].copy_from_slice(&tournament.to_le_bytes());
        rec[2..4].copy_from_slice(&black.to_le_bytes());
        rec[4..6].copy_from_slice(&white.to_le_bytes());
        rec[6] = real.clamp(0, 64) as u8;
        rec[7] = theory.clamp(0, 64) as u8;
        for (dst, &sq) in rec[MOVES_OFFSET..].iter_mut().zip(&squares) {
            *dst = byte_of_square(sq);
        }
        self.games += 1;
        Ok(rec)
    }
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

/// A game replayed for its record: the final position, and the position
/// with `depth` empty squares when the game reached it.
struct ForRecord {
    end: Position,
    at_depth: Option<Position>,
}

use crate::games::reversi::engine::Position;

/// Replays `squares` from the standard start, passing where the side to
/// move has no move; `None` at an illegal move.
fn replay_for_record(squares: &[u8], depth: u8) -> Option<ForRecord> {
    let mut pos = Position::START;
    let empties = |p: &Position| 64 - (p.black | p.white).count_ones();
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

/// The exact endgame search behind the theoretical score: MTD(f) over a
/// fail-soft alpha-beta with a transposition table (allocated once per
/// writer, kept across games: an entry is a whole position), moves tried
/// best-known first, then those leaving the opponent fewest replies.
#[derive(Clone)]
struct Solver {
    table: Vec<Entry>,
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
    fn new() -> Solver {
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
    fn exact(&mut self, p: u64, o: u64, guess: i32) -> i32 {
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
mod write_tests {
    use super::*;

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
            let mut pos = Position::START;
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
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            ["the Site tag: WTHOR has no place for it"]
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
