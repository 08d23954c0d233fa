//! The WTHOR reader: a `.wtb` file's records as games, a record at a time
//! ([`games`]) or the whole file at once ([`read`]), each written as gamerec
//! text with a [`ByteMap`] back to the file's bytes (see the [module
//! notes](super) for the layout and the decisions).

use std::borrow::Cow;
use std::sync::Arc;

use super::{
    GAME_LEN, GAME_LEN_10, HEADER_LEN, MOVES_OFFSET, Names, game_len, header_size, name_of,
    square_of_byte, square_of_byte_10, u16_at, u32_at,
};
use crate::diag::Diag;
use crate::formats::{ByteMap, ReadError, SourceGame};
use crate::games::reversi::Reversi;
use crate::record::{RawGame, Tag, Tags, Token};
use crate::replay::packed::{self, Packed};
use crate::replay::{GameReport, Options};
use crate::span::Span;

/// A `.wtb` file read: the synthesized text, the games, the map back to bytes.
pub struct Read {
    pub text: String,
    pub games: Vec<RawGame>,
    pub byte_map: ByteMap,
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
fn check_header(bytes: &[u8]) -> Result<(), ReadError> {
    if bytes.len() < HEADER_LEN {
        return Err(ReadError::new(format!(
            "not a WTHOR file: {}, shorter than the 16-byte header",
            crate::diag::plural(bytes.len(), "byte", "bytes")
        )));
    }
    let board = bytes.get(12).copied().unwrap_or(0);
    if board != 0 && board != 8 && board != 10 {
        return Err(ReadError::new(format!(
            "a WTHOR file of {board}x{board} boards: only 8x8 and 10x10 are supported"
        )));
    }
    Ok(())
}

/// Reads a `.wtb` file. `Err` only for a file that is not WTHOR at all.
pub fn read(bytes: &[u8], names: &Names) -> Result<Read, ReadError> {
    check_header(bytes)?;
    let announced = u32_at(bytes, 4).unwrap_or(0) as usize;
    let year = u16_at(bytes, 10).unwrap_or(0);
    let depth = bytes.get(14).copied().unwrap_or(0);
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
        let mut g = read_game(&mut w, rec, at, (year, depth), names, size);
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
/// ([`Record::replay_packed`]).
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
    /// The header's depth of the theoretical scores.
    depth: u8,
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
                (self.year, self.depth),
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

    /// Hands the record's moves, packed, to the driver's packed replay
    /// (Reversi's): `true` when the game is clean (every move legal, the
    /// game over, the stored score right) and `report` is then its report;
    /// `false` when the record must be written as text
    /// ([`SourceGame::materialize`]) for the generic driver: the truncated
    /// end, a count note, a 10x10 board, or a game that is not clean.
    pub fn replay_packed(&self, opts: &Options, report: &mut GameReport) -> bool {
        if self.truncated.is_some() || self.count.is_some() || self.size != 8 {
            return false;
        }
        let rec = self.bytes();
        let real = i64::from(rec.get(6).copied().unwrap_or(0));
        let moves = rec.get(MOVES_OFFSET..).unwrap_or(&[]);
        let moves = moves
            .get(..memchr::memchr(0, moves).unwrap_or(moves.len()))
            .unwrap_or(&[]);
        let packed = Packed {
            variant: "wof",
            moves,
            claimed: &[real, 64 - real],
            comment: None,
        };
        let tags = packed::tags_needed(opts)
            .map(|keep| record_tags(rec, self.at, (self.year, self.depth), &self.names, 8, keep));
        let pairs = tags
            .iter()
            .flatten()
            .flatten()
            .map(|(name, value, _)| (*name, value.as_ref()));
        packed::replay::<Reversi>(&packed, pairs, opts, report)
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
) -> Result<impl Iterator<Item = Result<Box<SourceGame>, ReadError>> + 'a, ReadError> {
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
    let depth = header.get(14).copied().unwrap_or(0);
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
    let mut ahead: Option<Result<([u8; GAME_LEN_10], usize), ReadError>> = None;
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
            depth,
            names: Arc::clone(&names),
            truncated,
            count,
        };
        let mut g = crate::formats::pooled();
        g.text.to_mut().clear();
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
    fn next(&mut self) -> Result<([u8; GAME_LEN_10], usize), ReadError> {
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
                Err(e) => return Err(ReadError::new(format!("cannot read: {e}"))),
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

/// The tags of the record at file offset `at` of a file whose header gives
/// `(year, depth)`, in order: those whose name `keep` accepts (the values
/// of the others are not built). `TheoreticalDepth` (the header's depth of
/// the theoretical scores) only on 8x8 and when it is not the FFO
/// database's 24, so that a file gamerec wrote at another depth is written
/// again at its own.
fn record_tags<'a>(
    rec: &[u8],
    at: usize,
    (year, depth): (u16, u8),
    names: &'a Names,
    size: u8,
    keep: impl Fn(&str) -> bool,
) -> [Option<RecordTag<'a>>; 10] {
    let tournament = u16_at(rec, 0).unwrap_or(0);
    let black = u16_at(rec, 2).unwrap_or(0);
    let white = u16_at(rec, 4).unwrap_or(0);
    let real = i64::from(rec.get(6).copied().unwrap_or(0));
    let theory = rec.get(7).copied().unwrap_or(0);
    let squares = i64::from(size) * i64::from(size);
    let fields: [LazyTag; 10] = [
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
        (
            "TheoreticalDepth",
            &|| depth.to_string().into(),
            Some((14, 1)),
        ),
    ];
    // `Size` only for boards other than 8x8
    let shown = |name: &str| match name {
        "Size" => size != 8,
        "TheoreticalDepth" => size == 8 && depth != super::write::FFO_DEPTH,
        _ => true,
    };
    fields.map(|(name, value, file)| (keep(name) && shown(name)).then(|| (name, value(), file)))
}

fn read_game(w: &mut Writer, rec: &[u8], at: usize, head: (u16, u8), names: &Names, size: u8) -> RawGame {
    let start = w.text.len();
    let tags = record_tags(rec, at, head, names, size, |_| true)
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

#[cfg(test)]
mod tests {
    use super::super::{byte_of_square, read_names};
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
    /// `validate -q`'s (no tag shown) and `convert`'s (the moves recorded).
    fn both_options() -> [Options; 4] {
        /// `validate -q`'s: a description only for a game with diagnostics.
        #[derive(Debug)]
        struct Quiet;
        impl crate::replay::Sink for Quiet {
            fn tags(&self) -> crate::replay::TagsKept {
                crate::replay::TagsKept::DescribedIfDiagnostics
            }
        }
        [
            Options::default(),
            Options::keeping(crate::replay::sink::Brief),
            Options::keeping(Quiet),
            Options::keeping(crate::replay::sink::Record),
        ]
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

    /// The packed replay of each record (Reversi's, through the driver's
    /// hook) gives the report of the generic driver over the record written
    /// as text, or declines a game that is not clean.
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
                let names = Arc::new(Names::default());
                let streamed = games(bytes, Box::new(std::io::empty()), names).unwrap();
                for s in streamed {
                    let mut s = s.unwrap();
                    let mut quick = GameReport::default();
                    let packed = s.record.as_ref().unwrap().replay_packed(&opts, &mut quick);
                    s.materialize();
                    let full = crate::registry::replay(&s.raw, &s.text, &opts);
                    if packed {
                        assert_eq!(quick, full, "{f}");
                        fast += 1;
                    } else {
                        assert!(
                            !full.valid || !full.over || !full.warnings.is_empty(),
                            "{f}"
                        );
                    }
                }
            }
            // the clean games, whatever the options
            assert!(fast >= 9, "{opts:?}");
        }
    }

    /// With `--game`, every record goes through the driver.
    #[test]
    fn a_game_option_declines_the_packed_replay() {
        let bytes = std::fs::read(FIXTURES[0]).unwrap();
        let names = Arc::new(Names::default());
        let opts = Options {
            game: Some("reversi".into()),
            ..Options::default()
        };
        for s in games(bytes, Box::new(std::io::empty()), names).unwrap() {
            let s = s.unwrap();
            let mut report = GameReport::default();
            assert!(!s.record.as_ref().unwrap().replay_packed(&opts, &mut report));
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
                    let mut quick = GameReport::default();
                    if !s.record.as_ref().unwrap().replay_packed(&opts, &mut quick) {
                        s.materialize();
                        quick = crate::registry::replay(&s.raw, &s.text, &opts);
                    }
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
                let mut report = GameReport::default();
                assert!(!s.record.as_ref().unwrap().replay_packed(&opts, &mut report));
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
