//! The JSON form of the document model (`convert --to json`).
//!
//! Reading streams: the `games` list of the document is cut into its
//! elements as the text is read, and each element is read on its own, so a
//! document of any size is read in the memory of one game. Other keys of the
//! top-level object are skipped.

use std::collections::VecDeque;

use super::{DocText, FromDoc, SourceGame};
use crate::model::{DocGame, Document};
use crate::source::{Chunk, TextBuf};

pub fn write(doc: &Document) -> String {
    let mut s =
        serde_json::to_string_pretty(doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

pub fn read(text: &str) -> Result<Document, String> {
    serde_json::from_str(text).map_err(|e| format!("not a gamerec JSON document: {e}"))
}

/// Writes `value` pretty-printed as it stands `indent` spaces deep inside a
/// pretty-printed document (its first line not indented): the document can
/// be written a piece at a time, the same bytes as whole. JSON strings hold
/// no raw line breaks, so every line break is the printer's.
pub fn write_pretty_at(
    w: &mut dyn std::io::Write,
    value: &impl serde::Serialize,
    indent: usize,
) -> std::io::Result<()> {
    let pad = &"        "[..indent.min(8)];
    // one buffer per thread, kept between calls: no allocation per value
    thread_local! {
        static TEXT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    TEXT.with(|text| {
        let mut text = text.try_borrow_mut().map_err(std::io::Error::other)?;
        text.clear();
        serde_json::to_writer_pretty(&mut *text, value).map_err(std::io::Error::from)?;
        let mut rest = &text[..];
        while let Some(i) = memchr::memchr(b'\n', rest) {
            let (line, after) = rest.split_at(i + 1);
            w.write_all(line)?;
            w.write_all(pad.as_bytes())?;
            rest = after;
        }
        w.write_all(rest)
    })
}

/// How deep a document may nest (serde_json's own limit).
const MAX_DEPTH: usize = 128;

/// Cuts a JSON document after each element of its top-level `games` list.
#[derive(Default)]
struct Scanner {
    /// Bytes seen in the current piece.
    at: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The string being read at depth 1 (a key, most likely).
    string: Vec<u8>,
    last_string: Vec<u8>,
    in_games: bool,
    seen_games: bool,
    /// Where the current element starts in the piece.
    element: Option<usize>,
    first_byte: Option<u8>,
    too_deep: bool,
}

impl Scanner {
    fn feed(&mut self, b: u8) -> bool {
        let at = self.at;
        self.at += 1;
        if self.first_byte.is_none() && !b.is_ascii_whitespace() && !matches!(b, 0xef | 0xbb | 0xbf)
        {
            self.first_byte = Some(b);
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if self.depth == 1 {
                    self.last_string = std::mem::take(&mut self.string);
                }
            } else if self.depth == 1 && self.string.len() < 16 {
                self.string.push(b);
            }
            return false;
        }
        let element_level = self.in_games && self.depth == 2;
        if element_level
            && self.element.is_none()
            && !b.is_ascii_whitespace()
            && b != b','
            && b != b']'
        {
            self.element = Some(at);
        }
        match b {
            b'"' => {
                self.in_string = true;
                self.string.clear();
            }
            b'{' | b'[' => {
                if b == b'[' && self.depth == 1 && self.last_string == b"games" && !self.seen_games
                {
                    self.in_games = true;
                    self.seen_games = true;
                }
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    self.too_deep = true;
                    return true;
                }
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if element_level && b == b']' {
                    self.in_games = false;
                    return true;
                }
            }
            b',' if element_level => return true,
            _ => {}
        }
        false
    }
}

/// Reads a JSON document one game at a time (see [`super::open`]).
pub fn games(mut buf: TextBuf<'_>) -> impl Iterator<Item = Result<SourceGame, String>> + '_ {
    let mut scanner = Scanner::default();
    let mut doc = FromDoc::new();
    let mut ready: VecDeque<Result<SourceGame, String>> = VecDeque::new();
    let mut ended = false;
    let mut index = 0usize;
    std::iter::from_fn(move || {
        loop {
            if let Some(g) = ready.pop_front() {
                return Some(g);
            }
            if ended {
                return None;
            }
            scanner.at = 0;
            scanner.element = None;
            let chunk = buf.next_chunk(|b| scanner.feed(b));
            let fail = |why: String| Some(Err(format!("not a gamerec JSON document: {why}")));
            if scanner.too_deep {
                ended = true;
                return fail(format!("nested more than {MAX_DEPTH} levels deep"));
            }
            if scanner.first_byte.is_some_and(|b| b != b'{') {
                ended = true;
                return fail("expected an object `{\"games\": [...]}`".into());
            }
            let Some(chunk) = chunk else {
                ended = true;
                if let Some(e) = buf.take_error() {
                    return Some(Err(e));
                }
                if !scanner.seen_games {
                    return fail("no `games` list".into());
                }
                if scanner.in_games || scanner.depth > 0 || scanner.in_string {
                    return fail("the document ends early".into());
                }
                return None;
            };
            match chunk {
                Chunk::Text(text, origin) => {
                    let Some(start) = scanner.element else {
                        continue;
                    };
                    let element = text.get(start..).unwrap_or("");
                    let element = element
                        .strip_suffix(',')
                        .or_else(|| element.strip_suffix(']'))
                        .unwrap_or(element);
                    let at = DocText {
                        text: element,
                        origin: origin.after(text.get(..start).unwrap_or("")),
                        whole: false,
                    };
                    match serde_json::from_str::<DocGame>(element) {
                        Ok(game) => ready.extend(doc.game(&game, Some(&at)).into_iter().map(Ok)),
                        Err(e) => {
                            ended = true;
                            return fail(format!("game {index}: {e}"));
                        }
                    }
                    index += 1;
                }
                large => ready.push_back(Ok(SourceGame::too_large(large))),
            }
        }
    })
}
