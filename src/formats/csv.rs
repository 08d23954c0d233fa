//! Othello transcripts in CSV (`.csv`): one game per row, a column of moves
//! (a compact transcript), optionally a `winner` column. The common public
//! layout is `id,winner,game_moves` with winner 1 black, -1 white, 0 draw.
//!
//! The text is the file itself; each game's one token is its moves cell (the
//! text inside the quotes when quoted), so spans point into the file.
//!
//! Decisions:
//! - the first row is a header unless one of its cells is a transcript;
//! - the moves column is the header's column named `moves`, `game_moves`,
//!   `transcript` or `game` (case-insensitive; else any name holding
//!   `moves`), or, without a header, the first column holding a transcript
//!   in the first row; no such column is a file-level error;
//! - the `winner` column (case-insensitive) is checked against the replay of
//!   a finished game (`reversi::winner_mismatch`, at the cell); for an
//!   unfinished game it is a `record::result_unchecked` warning; a value other
//!   than 1, -1, 0 is `record::bad_tag` (not checked further);
//! - every other column (and the winner) is kept as a tag named after its
//!   header, characters other than letters, digits and `_` made `_`
//!   (`Column2` without a header, counted from 1), empty cells left out;
//! - fields are separated by `,`, `;` or a tab, whichever the first line that
//!   is not blank holds most often outside quotes (`,` on a tie); they follow
//!   RFC 4180 (quotes, `""`), read with the `csv` crate's engine (`csv_core`); a line ends at LF,
//!   CRLF or a lone CR; rows that are empty are skipped.
//!
//! Writing (`convert --to csv`, [`CsvWriter`]): a header, then a row per
//! game: the `game_moves` column (the compact transcript, passes left out)
//! first, then a column per tag of the first game (its order kept, `Game`
//! left out: every row is Othello). The header is written before the first
//! game, so a later game's tag that has no column is a loss; a game without
//! one of the columns' tags leaves its cell empty. A `winner` column is
//! written only when the games had a `winner` tag (read from a CSV), so a
//! game reads back with the tags it had. Cells are quoted as RFC 4180 says
//! when they hold a separator, a quote or a line end. What a cell cannot
//! keep is a loss: an empty value or blanks around one (cells are read
//! trimmed, empty ones left out: the cell is written trimmed), comments, move numbers, written passes
//! (the moves cell leaves them out: read back, they are automatic passes),
//! per-move claimed scores. Only
//! standard 8x8 Othello from the usual start fits, as for transcripts; the
//! `Variant` tag is a column, so a `wof` game reads back as `wof`.

use super::transcript::game_tag;
use crate::diag::Diag;
use crate::record::{RawGame, Tag, Tags, Token, WinnerClaim};
use crate::source::{Chunk, TextBuf, csv_records};
use crate::span::{Origin, Span};

use super::transcript::{check_standard, compact_moves, note_comments};
use super::{Losses, ReadError, SourceGame, WriteError};
use crate::model::DocGame;

/// Writes games as CSV rows under one header (see the module docs).
#[derive(Debug, Default)]
pub struct CsvWriter {
    /// The tag columns after `game_moves`, fixed by the first game.
    columns: Option<Vec<String>>,
}

impl CsvWriter {
    /// The text of one game's row, the header before the first.
    pub fn game(&mut self, g: &DocGame, losses: &mut Losses) -> Result<String, WriteError> {
        check_standard(g, "CSV")?;
        let moves = compact_moves(g, "a CSV row", losses)?;
        let mut out = String::new();
        let columns = match &self.columns {
            Some(c) => c,
            None => {
                let names = header_of(g, losses);
                out.push_str("game_moves");
                for n in &names {
                    out.push(',');
                    out.push_str(n);
                }
                out.push('\n');
                self.columns.insert(names)
            }
        };
        out.push_str(&moves);
        for name in columns {
            out.push(',');
            let value = g.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
            if let Some(v) = value {
                if v.trim() != v || v.is_empty() {
                    losses.note(format!(
                        "the {name} tag's value `{v}`: CSV cells are read trimmed, empty ones left out"
                    ));
                }
                // as it reads back, so that the file written again is the same
                push_cell(&mut out, v.trim());
            }
        }
        if out.ends_with('\n') && moves.is_empty() && out.trim_end_matches(',').ends_with('\n') {
            return Err(WriteError::new("a CSV row of a game without moves or tags would be empty, which is no game"));
        }
        out.push('\n');
        let unkept: Vec<&str> = g
            .tags
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| *k != "Game" && !columns.iter().any(|c| c == k))
            .collect();
        if !unkept.is_empty() {
            losses.note(format!(
                "{} ({}): the CSV's columns are the first game's tags",
                crate::diag::plural(unkept.len(), "tag", "tags"),
                unkept.join(", ")
            ));
        }
        note_comments(g, "a CSV row", losses);
        Ok(out)
    }
}

/// The tag columns of the first game: its tags but `Game`; a tag whose
/// name would read as moves or as the moves column is noted and left out.
fn header_of(g: &DocGame, losses: &mut Losses) -> Vec<String> {
    let mut names = Vec::new();
    for (k, _) in &g.tags {
        let lower = k.to_ascii_lowercase();
        let clash = is_transcript(k)
            || ["moves", "game_moves", "transcript", "game"].contains(&lower.as_str())
            || lower.contains("moves");
        if k == "Game" {
            continue;
        }
        if clash || names.contains(k) {
            losses.note(format!("the {k} tag: its name cannot be a CSV column"));
            continue;
        }
        names.push(k.clone());
    }
    names
}

/// A cell, quoted when it holds a separator, a quote or a line end.
fn push_cell(out: &mut String, v: &str) {
    if v.contains([',', ';', '\t', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&v.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(v);
    }
}

/// One cell: its text (unquoted) and the span of its content in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cell {
    text: String,
    span: Span,
}

/// The field separator of a file: `,`, `;` or a tab, whichever comes most
/// often outside quotes on the first line that holds one (`,` on a tie or
/// when none does).
fn delimiter(text: &str) -> u8 {
    let mut quoted = false;
    let mut counts = [0usize; 3];
    for b in text.bytes() {
        match b {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted && counts.iter().any(|&c| c > 0) => break,
            b',' if !quoted => counts[0] += 1,
            b';' if !quoted => counts[1] += 1,
            b'\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let [comma, semi, tab] = counts;
    if semi > comma && semi >= tab {
        b';'
    } else if tab > comma && tab > semi {
        b'\t'
    } else {
        b','
    }
}

/// A CSV reader for one separator, kept for a whole file (the `csv` crate's
/// engine, `csv_core`: building it costs more than reading a record).
struct Fields {
    core: csv_core::Reader,
    delim: u8,
    out: Vec<u8>,
    ends: Vec<usize>,
}

impl Fields {
    fn new(delim: u8) -> Fields {
        Fields {
            core: csv_core::ReaderBuilder::new().delimiter(delim).build(),
            delim,
            out: vec![0; 256],
            ends: vec![0; 16],
        }
    }

    /// Splits the text from `start` into rows of cells (RFC 4180 quoting; a
    /// line ends at LF, CRLF or a lone CR); each cell's span (its content,
    /// inside the quotes when quoted) is found from where its record starts.
    fn rows(&mut self, text: &str, start: usize) -> Vec<Vec<Cell>> {
        use csv_core::ReadRecordResult as R;
        self.core.reset();
        let bytes = text.as_bytes();
        let input = bytes.get(start..).unwrap_or(&[]);
        let delim = self.delim;
        let mut rows = Vec::new();
        let mut at = 0;
        loop {
            let record_start = at;
            let (mut outn, mut endn) = (0, 0);
            let ended = loop {
                let rest = input.get(at..).unwrap_or(&[]);
                let (res, nin, nout, nend) = self.core.read_record(
                    rest,
                    self.out.get_mut(outn..).unwrap_or(&mut []),
                    self.ends.get_mut(endn..).unwrap_or(&mut []),
                );
                at += nin;
                outn += nout;
                endn += nend;
                match res {
                    R::InputEmpty => {}
                    R::OutputFull => self.out.resize(self.out.len() * 2, 0),
                    R::OutputEndsFull => self.ends.resize(self.ends.len() * 2, 0),
                    R::Record => break false,
                    R::End => break true,
                }
            };
            if ended {
                break;
            }
            let mut pos = start + record_start;
            // the record starts after the line ends before it
            while matches!(bytes.get(pos), Some(b'\n' | b'\r')) {
                pos += 1;
            }
            let mut row = Vec::with_capacity(endn);
            let mut from = 0;
            for &end in self.ends.get(..endn).unwrap_or(&[]) {
                let field = self.out.get(from..end).unwrap_or(&[]);
                from = end;
                let span = if bytes.get(pos) == Some(&b'"') {
                    // the content runs to the quote not doubled
                    let mut j = pos + 1;
                    while let Some(&b) = bytes.get(j) {
                        if b == b'"' {
                            if bytes.get(j + 1) == Some(&b'"') {
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        j += 1;
                    }
                    let span = Span::between(pos + 1, j.min(bytes.len()));
                    // text after the closing quote belongs to the field
                    pos = j;
                    while let Some(&b) = bytes.get(pos) {
                        if b == delim || b == b'\n' || b == b'\r' {
                            break;
                        }
                        pos += 1;
                    }
                    span
                } else {
                    let span = Span::new(pos, field.len());
                    pos += field.len();
                    span
                };
                // past the separator
                pos += 1;
                row.push(Cell {
                    text: String::from_utf8_lossy(field).into_owned(),
                    span,
                });
            }
            if row.iter().any(|c| !c.text.trim().is_empty()) {
                rows.push(row);
            }
            if at >= input.len() && input.get(record_start..).is_some_and(|r| r.is_empty()) {
                break;
            }
        }
        rows
    }
}

/// Whether a cell looks like a compact transcript (`f5d6...`).
fn is_transcript(s: &str) -> bool {
    let s = s.trim().as_bytes();
    !s.is_empty()
        && s.len() % 2 == 0
        && s.chunks(2).all(|c| {
            matches!(c, [col, row] if (b'a'..=b'h').contains(&col.to_ascii_lowercase())
                && (b'1'..=b'8').contains(row))
        })
}

fn tag_name(header: &str) -> String {
    let s: String = header
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    s
}

/// Where a CSV file keeps what: told by its first rows.
#[derive(Clone, Debug)]
pub struct Layout {
    has_header: bool,
    names: Vec<String>,
    moves_col: usize,
    winner_col: Option<usize>,
}

/// The layout of a file from its first rows (the header, if any, and the
/// first row of data); `Err` when no column holds moves.
fn layout(rows: &[Vec<Cell>]) -> Result<Option<Layout>, ReadError> {
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let has_header = !first.iter().any(|c| is_transcript(&c.text));
    let (names, data): (Vec<String>, &[Vec<Cell>]) = if has_header {
        (
            first.iter().map(|c| c.text.trim().to_string()).collect(),
            rows.get(1..).unwrap_or(&[]),
        )
    } else {
        (
            (1..=first.len()).map(|i| format!("Column{i}")).collect(),
            rows,
        )
    };
    let lower: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    let moves_col = ["moves", "game_moves", "transcript", "game"]
        .iter()
        .find_map(|want| lower.iter().position(|n| n == want))
        .or_else(|| lower.iter().position(|n| n.contains("moves")))
        .or_else(|| {
            data.first()
                .and_then(|r| r.iter().position(|c| is_transcript(&c.text)))
        })
        .ok_or_else(|| {
            ReadError::new("no column of moves (fields separated by `,`, `;` or tabs): name it in a header (game_moves, moves or transcript)")
        })?;
    let winner_col = lower.iter().position(|n| n == "winner");
    Ok(Some(Layout {
        has_header,
        names,
        moves_col,
        winner_col,
    }))
}

pub fn read(text: &str) -> Result<Vec<RawGame>, ReadError> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut fields = Fields::new(delimiter(text.get(bom..).unwrap_or("")));
    let rows = fields.rows(text, bom);
    let Some(layout) = layout(&rows)? else {
        return Ok(Vec::new());
    };
    let data = rows.get(usize::from(layout.has_header)..).unwrap_or(&[]);
    Ok(games_of(data, &layout))
}

/// Reads a CSV file a record at a time (see [`super::open`]); the layout is
/// told by the first records (the header, if any, and the first row of data).
pub struct Games<'a> {
    buf: TextBuf<'a>,
    layout: Option<Layout>,
    /// The fields reader, for the separator the first line that is not
    /// blank tells.
    fields: Option<Fields>,
    /// Games read while telling the layout.
    ready: std::collections::VecDeque<Result<SourceGame, ReadError>>,
    started: bool,
}

pub fn games(buf: TextBuf<'_>) -> Games<'_> {
    Games {
        buf,
        layout: None,
        fields: None,
        ready: Default::default(),
        started: false,
    }
}

impl Games<'_> {
    /// Reads the first records and tells the layout.
    fn start(&mut self) {
        self.started = true;
        let mut head: Vec<(String, Origin, Vec<Vec<Cell>>)> = Vec::new();
        let mut too_large = Vec::new();
        let mut records = 0;
        while records < 2 {
            let Some(chunk) = self.buf.next_chunk(csv_records()) else {
                break;
            };
            match chunk {
                Chunk::Text(text, origin) => {
                    let bom = if origin.offset == 0 && text.starts_with('\u{feff}') {
                        3
                    } else {
                        0
                    };
                    let body = text.get(bom..).unwrap_or("");
                    if body.trim().is_empty() {
                        continue;
                    }
                    let fields = self
                        .fields
                        .get_or_insert_with(|| Fields::new(delimiter(body)));
                    let rows = fields.rows(&text, bom);
                    if rows.is_empty() {
                        continue;
                    }
                    let is_data = rows
                        .first()
                        .is_some_and(|r| r.iter().any(|c| is_transcript(&c.text)));
                    records += if records == 0 && is_data { 2 } else { 1 };
                    head.push((text, origin, rows));
                }
                large => too_large.push(SourceGame::too_large(large)),
            }
        }
        let all: Vec<Vec<Cell>> = head
            .iter()
            .flat_map(|(_, _, r)| r.iter().cloned())
            .collect();
        match layout(&all) {
            Ok(Some(layout)) => {
                for (i, (text, origin, rows)) in head.into_iter().enumerate() {
                    let data = if i == 0 && layout.has_header {
                        rows.get(1..).unwrap_or(&[])
                    } else {
                        &rows[..]
                    };
                    let games = games_of(data, &layout);
                    self.ready.extend(
                        games
                            .into_iter()
                            .map(|g| Ok(SourceGame::of(text.clone(), origin, g))),
                    );
                }
                self.layout = Some(layout);
            }
            Ok(None) => {}
            Err(e) => self.ready.push_back(Err(e)),
        }
        self.ready.extend(too_large.into_iter().map(Ok));
        if self.layout.is_none() {
            if let Some(e) = self.buf.take_error() {
                self.ready.push_back(Err(ReadError::new(e)));
            }
        }
    }
}

impl Iterator for Games<'_> {
    type Item = Result<SourceGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if !self.started {
            self.start();
        }
        loop {
            if let Some(g) = self.ready.pop_front() {
                return Some(g);
            }
            let layout = self.layout.as_ref()?;
            let Some(chunk) = self.buf.next_chunk(csv_records()) else {
                return self.buf.take_error().map(|e| Err(ReadError::new(e)));
            };
            match chunk {
                Chunk::Text(text, origin) => {
                    let fields = self.fields.get_or_insert_with(|| Fields::new(b','));
                    let rows = fields.rows(&text, 0);
                    let games = games_of(&rows, layout);
                    self.ready.extend(
                        games
                            .into_iter()
                            .map(|g| Ok(SourceGame::of(text.clone(), origin, g))),
                    );
                }
                large => return Some(Ok(SourceGame::too_large(large))),
            }
        }
    }
}

/// The games of rows of data.
fn games_of(data: &[Vec<Cell>], layout: &Layout) -> Vec<RawGame> {
    let Layout {
        names,
        moves_col,
        winner_col,
        ..
    } = layout;
    let (moves_col, winner_col) = (*moves_col, *winner_col);
    let mut games = Vec::with_capacity(data.len());
    for row in data {
        let Some(moves) = row.get(moves_col) else {
            continue;
        };
        let trimmed = moves.text.trim();
        let lead = moves.text.len() - moves.text.trim_start().len();
        let token_span = Span::new(moves.span.offset + lead, trimmed.len());
        let mut tags = vec![game_tag(token_span)];
        let mut tag_errors = Vec::new();
        for (k, cell) in row.iter().enumerate() {
            if k == moves_col || cell.text.trim().is_empty() {
                continue;
            }
            let name = names
                .get(k)
                .map(|n| tag_name(n))
                .filter(|n| !n.is_empty() && n != "Game")
                .unwrap_or_else(|| format!("Column{}", k + 1));
            tags.push(Tag {
                name,
                value: cell.text.trim().to_string(),
                span: cell.span,
                value_span: cell.span,
            });
        }
        let mut winner_claim = None;
        if let Some(cell) = winner_col.and_then(|k| row.get(k)) {
            let seats = match cell.text.trim() {
                "1" => Some(vec![0]),
                "-1" => Some(vec![1]),
                "0" => Some(vec![0, 1]),
                "" => None,
                other => {
                    tag_errors.push(
                        Diag::error(
                            "record::bad_tag",
                            format!("winner `{other}` is not 1 (black), -1 (white) or 0 (draw)"),
                        )
                        .at(cell.span)
                        .label("not a winner")
                        .help("1 black, -1 white, 0 draw"),
                    );
                    None
                }
            };
            winner_claim = seats.map(|seats| WinnerClaim {
                seats,
                span: cell.span,
                text: cell.text.trim().to_string(),
                margin: None,
            });
        }
        let span = match (row.first(), row.last()) {
            (Some(a), Some(b)) => a.span.join(b.span),
            _ => token_span,
        };
        let tokens = if trimmed.is_empty() {
            Vec::new()
        } else {
            vec![Token::new(token_span)]
        };
        games.push(RawGame {
            tags: Tags(tags),
            tag_errors,
            tokens,
            span,
            winner_claim,
            ..RawGame::default()
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_moves_column_and_spans() {
        let text = "id,winner,game_moves\r\n7,1,\"f5d6\"\n8,-1,f5f6\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tokens[0].text(text), "f5d6");
        assert_eq!(games[1].tokens[0].text(text), "f5f6");
        assert_eq!(games[0].tags.value("id"), Some("7"));
        let w = games[1].winner_claim.as_ref().unwrap();
        assert_eq!(w.seats, [1]);
        assert_eq!(w.span.text(text), "-1");
    }

    #[test]
    fn no_header_and_quotes() {
        let text = "f5d6c3,\"a \"\"b\"\", c\"\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tags.value("Column2"), Some("a \"b\", c"));
        assert!(read("a,b\n1,2\n").is_err());
        // semicolons and tabs, lone CR line ends
        let text = "id;game_moves\r1;f5d6\r2;\"f5f6\"\r";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].tokens[0].text(text), "f5f6");
        assert_eq!(games[0].tags.value("id"), Some("1"));
        let text = "id\tgame_moves\n1\tf5d6\n";
        let games = read(text).unwrap();
        assert_eq!(games[0].tokens[0].text(text), "f5d6");
        assert_eq!(delimiter("\"a;b\",c\n"), b',');
        assert!(read("").unwrap().is_empty());
        // an unterminated quote does not hang or panic
        let _ = read("game_moves\n\"f5d6");
    }

    /// A value with blanks around it is written as it reads back (trimmed,
    /// said), so that the file read back writes the same again; written
    /// passes and move numbers are said.
    #[test]
    fn writes_cells_as_they_read_back_and_says_passes_and_numbers() {
        let moves = ["f5", "pass", "d6"].map(String::from);
        let tags = [("Game", "reversi"), ("White", " Ben ")];
        let mut g = DocGame::written("reversi", Some("standard"), &tags, moves);
        g.moves[2].number = Some("2.".into());
        let mut losses = Losses::default();
        let out = CsvWriter::default().game(&g, &mut losses).unwrap();
        assert_eq!(out, "game_moves,White\nf5d6,Ben\n");
        assert_eq!(
            losses.iter().collect::<Vec<_>>(),
            [
                "1 written pass: a CSV row leaves passes out (reading it back takes them as automatic passes)",
                "the White tag's value ` Ben `: CSV cells are read trimmed, empty ones left out",
                "the move numbers of 1 move: a CSV row has no place for them",
            ]
        );
        let back = read(&out).unwrap();
        assert_eq!(back[0].tags.value("White"), Some("Ben"));
    }
}
