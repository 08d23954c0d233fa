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
//! `convert` hand its moves, packed, to the driver's packed replay
//! ([`Record::replay_packed`], [`crate::replay::packed`]), which Reversi
//! offers: the driver builds the report (with the moves, for `convert`) when
//! the game is clean (legal, over, stored score right: nearly all of a
//! database); only the others are written as text and a container game,
//! which the generic driver replays for their diagnostics. `show`, `moves`
//! and [`read`] write every game. Tests check both give the same reports.
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
//!
//! Files: this one holds the file layout (header, game records, the names
//! files) and what reading and writing share; [`read`](mod@read) the reader,
//! [`write`](mod@write) the writer (with the names-file merge).

mod read;
mod write;

pub use read::{Read, Record, games, read};
pub use write::{
    DEFAULT_DEPTH, FFO_DEPTH, NameList, UNKNOWN_NAME, WtbWriter, searched_theory, today,
};

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{ReadError, ReadOptions};

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

/// A move byte is a Reversi packed move (`10 * row + column`).
pub use crate::games::reversi::packed::{byte_of_square, square_of_byte};

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
pub fn read_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, ReadError> {
    if bytes.len() < HEADER_LEN {
        return Err(ReadError::new(format!(
            "not a WTHOR names file: {}, shorter than the 16-byte header",
            crate::diag::plural(bytes.len(), "byte", "bytes")
        )));
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
pub fn side_files(file: &str, opts: &ReadOptions) -> Result<Names, ReadError> {
    let load = |given: &Option<PathBuf>, default: &str, len: usize| match given {
        Some(p) => read_side_file(p, len)
            .and_then(|b| {
                read_names(&b, len)
                    .map_err(|e| ReadError::new(format!("{}: {}", p.display(), e.message)))
            })
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
fn read_names_cached(bytes: Vec<u8>, record_len: usize) -> Result<Arc<Vec<String>>, ReadError> {
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
fn read_side_file(path: &Path, record_len: usize) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let most = HEADER_LEN + usize::from(u16::MAX) * record_len;
    let file =
        std::fs::File::open(path).map_err(|e| ReadError::new(format!("cannot read {}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    file.take(most as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::new(format!("cannot read {}: {e}", path.display())))?;
    if bytes.len() > most {
        return Err(ReadError::new(format!(
            "{}: not a WTHOR names file: longer than {most} bytes",
            path.display()
        )));
    }
    Ok(bytes)
}

fn name_of(list: &Option<Arc<Vec<String>>>, n: u16) -> Cow<'_, str> {
    match list.as_ref().and_then(|l| l.get(usize::from(n))) {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(format!("#{n}")),
    }
}
