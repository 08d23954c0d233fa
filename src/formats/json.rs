//! The JSON form of the document model (`convert --to json`).
//!
//! Reading streams: the `games` list of the document is cut into its
//! elements as the text is read, and each element is read on its own, so a
//! document of any size is read in the memory of one game. Other keys of the
//! top-level object are skipped.

use std::collections::VecDeque;

use super::{DocText, FromDoc, ReadError, SourceGame};
use crate::model::{DocGame, Document};
use crate::replay::{GameReport, MoveRecord};
use crate::source::{Chunk, TextBuf};
use serde_json::{Map, Value};

pub fn write(doc: &Document) -> String {
    let mut s =
        serde_json::to_string_pretty(doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

pub fn read(text: &str) -> Result<Document, ReadError> {
    serde_json::from_str(text)
        .map_err(|e| ReadError::new(format!("not a gamerec JSON document: {e}")))
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

/// Appends the document form of a replayed game (the bytes
/// `serde_json::to_string_pretty` gives for [`crate::model::ReportDoc`])
/// pretty-printed as it stands `indent` spaces deep inside a pretty-printed
/// document, its first line not indented, as [`write_pretty_at`] writes it:
/// written straight into `out` with its indentation, no serializer and no
/// second pass (`convert --to json`; tests check the bytes are the same).
pub fn write_report(out: &mut Vec<u8>, report: &GameReport, indent: usize) {
    let mut p = Pretty { out, indent };
    p.out.push(b'{');
    p.key(1, b"\"game\": ");
    p.string(report.game);
    p.out.push(b',');
    p.key(1, b"\"variant\": ");
    p.string(report.variant);
    p.out.push(b',');
    p.key(1, b"\"tags\": ");
    p.list(1, &report.tags, |p, (name, value), depth| {
        p.out.push(b'[');
        p.line(depth + 1);
        p.string(name);
        p.out.push(b',');
        p.line(depth + 1);
        p.string(value);
        p.line(depth);
        p.out.push(b']');
    });
    p.out.push(b',');
    p.key(1, b"\"comment\": ");
    p.opt_string(report.comment.as_deref());
    p.out.push(b',');
    p.key(1, b"\"moves\": ");
    let text = MoveText::new(indent, 2);
    p.list(1, &report.moves, |p, m, depth| {
        p.move_record(m, depth, &text)
    });
    p.out.push(b',');
    p.key(1, b"\"result\": {");
    p.key(2, b"\"over\": ");
    p.out
        .extend_from_slice(if report.over { b"true" } else { b"false" });
    p.out.push(b',');
    p.key(2, b"\"scores\": ");
    // `model::scores_map`: seat by seat, without building the map
    let mut seats = report.seats.iter().zip(&report.scores).peekable();
    if seats.peek().is_none() {
        p.out.extend_from_slice(b"{}");
    } else {
        p.out.push(b'{');
        let mut first = true;
        for (seat, &score) in seats {
            if !first {
                p.out.push(b',');
            }
            first = false;
            p.line(3);
            p.string(seat);
            p.out.extend_from_slice(b": ");
            p.int(score);
        }
        p.line(2);
        p.out.push(b'}');
    }
    p.out.push(b',');
    p.key(2, b"\"winners\": ");
    p.list(2, &report.winners, |p, w, _| p.string(w));
    p.entries(1, &report.result_extras);
    p.line(1);
    p.out.extend_from_slice(b"},");
    p.key(1, b"\"final_position\": ");
    p.list(1, &report.position, |p, row, _| p.string(row));
    p.line(0);
    p.out.push(b'}');
}

/// The text around a move's fields, for a move object at one nesting level
/// (made once per game): `{` to the `ply` value, the line breaks,
/// indentation and keys before `player`, `notation` and `comment`, and the
/// end of the object.
struct MoveText {
    text: Vec<u8>,
    /// Where each piece ends in `text`.
    ends: [usize; 5],
}

impl MoveText {
    fn new(indent: usize, depth: usize) -> MoveText {
        let mut text = Vec::new();
        let mut ends = [0; 5];
        let mut p = Pretty {
            out: &mut text,
            indent,
        };
        p.out.push(b'{');
        p.key(depth + 1, b"\"ply\": ");
        ends[0] = p.out.len();
        for (i, key) in [&b"\"player\": "[..], b"\"notation\": ", b"\"comment\": "]
            .into_iter()
            .enumerate()
        {
            p.out.push(b',');
            p.key(depth + 1, key);
            ends[i + 1] = p.out.len();
        }
        p.line(depth);
        p.out.push(b'}');
        ends[4] = p.out.len();
        MoveText { text, ends }
    }

    /// Piece `i`.
    #[inline]
    fn get(&self, i: usize) -> &[u8] {
        let start = i.checked_sub(1).map_or(0, |j| self.ends[j]);
        self.text.get(start..self.ends[i]).unwrap_or_default()
    }
}

/// Spaces for the indentation.
const SPACES: &[u8; 64] = b"                                                                ";

/// Writes pretty-printed JSON as serde_json's `PrettyFormatter` does (two
/// spaces a level, `": "` after a key, `[]`/`{}` for empty collections)
/// at a base indentation.
struct Pretty<'a> {
    out: &'a mut Vec<u8>,
    indent: usize,
}

impl Pretty<'_> {
    /// A line break and the indentation of nesting level `depth`.
    #[inline]
    fn line(&mut self, depth: usize) {
        self.out.push(b'\n');
        let mut n = self.indent + 2 * depth;
        while n > 0 {
            let k = n.min(SPACES.len());
            self.out
                .extend_from_slice(SPACES.get(..k).unwrap_or_default());
            n -= k;
        }
    }

    /// A line break, the indentation of `depth` and `key` (quoted, with its
    /// `": "`): a key that needs no escaping.
    #[inline]
    fn key(&mut self, depth: usize, key: &[u8]) {
        self.line(depth);
        self.out.extend_from_slice(key);
    }

    /// The items of a list at nesting level `depth`, each written by `item`
    /// (given the level of its own first line).
    fn list<T>(&mut self, depth: usize, items: &[T], mut item: impl FnMut(&mut Self, &T, usize)) {
        if items.is_empty() {
            self.out.extend_from_slice(b"[]");
            return;
        }
        self.out.push(b'[');
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            self.line(depth + 1);
            item(self, x, depth + 1);
        }
        self.line(depth);
        self.out.push(b']');
    }

    /// One move, an object at nesting level `depth`; `text`: the text
    /// between its fields at that level.
    fn move_record(&mut self, m: &MoveRecord, depth: usize, text: &MoveText) {
        self.out.extend_from_slice(text.get(0));
        self.uint(m.ply as u64);
        self.out.extend_from_slice(text.get(1));
        self.string(m.player);
        self.out.extend_from_slice(text.get(2));
        self.string(&m.notation);
        self.out.extend_from_slice(text.get(3));
        self.opt_string(m.comment.as_deref());
        if m.auto {
            self.out.push(b',');
            self.key(depth + 1, b"\"auto\": true");
        }
        if m.setup {
            self.out.push(b',');
            self.key(depth + 1, b"\"setup\": true");
        }
        if let Some(n) = &m.number {
            self.out.push(b',');
            self.key(depth + 1, b"\"number\": ");
            self.string(n);
        }
        if !m.props.is_empty() {
            // rare (GGF's evaluations): a map built for the value printer
            let props: Map<String, Value> = m
                .props
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            self.out.push(b',');
            self.key(depth + 1, b"\"props\": ");
            self.value(&Value::Object(props), depth + 1);
        }
        self.entries(depth, &m.extras);
        self.out.extend_from_slice(text.get(4));
    }

    /// The entries of `map` inside an object at level `depth` whose other
    /// entries are written already (serde's `flatten`): each after a comma.
    fn entries(&mut self, depth: usize, map: &Map<String, Value>) {
        for (k, v) in map {
            self.out.push(b',');
            self.line(depth + 1);
            self.string(k);
            self.out.extend_from_slice(b": ");
            self.value(v, depth + 1);
        }
    }

    /// Any JSON value whose first line is at level `depth`.
    fn value(&mut self, v: &Value, depth: usize) {
        match v {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    self.uint(u);
                } else if let Some(i) = n.as_i64() {
                    self.int(i);
                } else {
                    // a float: serde_json's own shortest form
                    let _ = serde_json::to_writer(&mut *self.out, n);
                }
            }
            Value::String(s) => self.string(s),
            Value::Array(items) => self.list(depth, items, |p, x, d| p.value(x, d)),
            Value::Object(map) if map.is_empty() => self.out.extend_from_slice(b"{}"),
            Value::Object(map) => {
                self.out.push(b'{');
                let mut first = true;
                for (k, x) in map {
                    if !first {
                        self.out.push(b',');
                    }
                    first = false;
                    self.line(depth + 1);
                    self.string(k);
                    self.out.extend_from_slice(b": ");
                    self.value(x, depth + 1);
                }
                self.line(depth);
                self.out.push(b'}');
            }
        }
    }

    fn opt_string(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.string(s),
            None => self.out.extend_from_slice(b"null"),
        }
    }

    /// A JSON string, escaped as serde_json escapes: `"`, `\` and the
    /// control characters below U+0020 (`\b \t \n \f \r` by name, the
    /// others as `\u00XX`); everything else as it is.
    #[inline]
    fn string(&mut self, s: &str) {
        self.out.push(b'"');
        let bytes = s.as_bytes();
        if !bytes.iter().any(|&b| ESCAPE[usize::from(b)] != 0) {
            self.out.extend_from_slice(bytes);
        } else {
            let mut start = 0;
            for (i, &b) in bytes.iter().enumerate() {
                let e = ESCAPE[usize::from(b)];
                if e == 0 {
                    continue;
                }
                self.out
                    .extend_from_slice(bytes.get(start..i).unwrap_or_default());
                start = i + 1;
                if e == b'u' {
                    let hex = b"0123456789abcdef";
                    self.out.extend_from_slice(b"\\u00");
                    self.out.push(hex[usize::from(b >> 4)]);
                    self.out.push(hex[usize::from(b & 0xf)]);
                } else {
                    self.out.extend_from_slice(&[b'\\', e]);
                }
            }
            self.out
                .extend_from_slice(bytes.get(start..).unwrap_or_default());
        }
        self.out.push(b'"');
    }

    fn uint(&mut self, mut n: u64) {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.out
            .extend_from_slice(digits.get(at..).unwrap_or_default());
    }

    fn int(&mut self, n: i64) {
        if n < 0 {
            self.out.push(b'-');
        }
        self.uint(n.unsigned_abs());
    }
}

/// For each byte, what a JSON string writes after a backslash in its place
/// (`u`: `\u00XX`), or 0 for the byte itself.
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

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
    /// A byte that no JSON text holds there, at the top level of the
    /// document (junk after a `{`): its offset in the piece.
    junk: Option<(usize, u8)>,
}

impl Scanner {
    fn feed(&mut self, b: u8) -> bool {
        let at = self.at;
        self.at += 1;
        if self.first_byte.is_none() && !b.is_ascii_whitespace() && !matches!(b, 0xef | 0xbb | 0xbf)
        {
            self.first_byte = Some(b);
            if b != b'{' {
                // not a JSON object: refused at once, nothing more is read
                return true;
            }
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
        if self.depth <= 1 && !is_json_byte(b) {
            // not JSON: refused here, nothing more is read
            self.junk = Some((at, b));
            return true;
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

/// Whether a byte may stand outside strings at the top of a JSON document:
/// white space, punctuation, and the characters of numbers, `true`,
/// `false` and `null`.
fn is_json_byte(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'[' | b']' | b':' | b',' | b'"' | b'0'
            ..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'
            | b't' | b'r' | b'u' | b'f' | b'a' | b'l' | b's' | b'n'
            // a byte-order mark
            | 0xef | 0xbb | 0xbf
    )
}

impl Scanner {
    /// What ends the document after a piece was scanned: a byte JSON does
    /// not allow there, too deep a nesting, or no object at the top.
    fn error(&self, chunk: Option<&Chunk>) -> Option<String> {
        if let Some((at, b)) = self.junk {
            let shown = if b.is_ascii_graphic() {
                format!("`{}`", char::from(b))
            } else {
                format!("byte 0x{b:02x}")
            };
            let base = match chunk {
                Some(Chunk::Text(_, o) | Chunk::TooLarge(_, o)) => o.offset,
                None => 0,
            };
            return Some(format!(
                "{shown} at byte {}, where JSON expects a key, a value or punctuation",
                base + at
            ));
        }
        if self.too_deep {
            return Some(format!("nested more than {MAX_DEPTH} levels deep"));
        }
        if self.first_byte.is_some_and(|b| b != b'{') {
            return Some("expected an object `{\"games\": [...]}`".into());
        }
        None
    }

    /// What is wrong with the document at its end, if anything: no `games`
    /// list, or an end before the document's.
    fn end_error(&self) -> Option<String> {
        if !self.seen_games {
            return Some("no `games` list".into());
        }
        if self.in_games || self.depth > 0 || self.in_string {
            return Some("the document ends early".into());
        }
        None
    }
}

/// Reads a JSON document one game at a time (see [`super::open`]).
pub fn games(mut buf: TextBuf<'_>) -> impl Iterator<Item = Result<SourceGame, ReadError>> + '_ {
    let mut scanner = Scanner::default();
    let mut doc = FromDoc::new();
    let mut ready: VecDeque<Result<SourceGame, ReadError>> = VecDeque::new();
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
            let fail = |why: String| {
                Some(Err(ReadError::new(format!(
                    "not a gamerec JSON document: {why}"
                ))))
            };
            if let Some(why) = scanner.error(chunk.as_ref()) {
                ended = true;
                return fail(why);
            }
            let Some(chunk) = chunk else {
                ended = true;
                if let Some(e) = buf.take_error() {
                    return Some(Err(ReadError::new(e)));
                }
                return scanner.end_error().and_then(fail);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ReportDoc;
    use crate::registry::replay;
    use crate::replay::Options;

    /// What `convert` wrote before [`write_report`]: serde_json's printer,
    /// then the indentation put in.
    fn by_serde(report: &GameReport, indent: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let written = write_pretty_at(&mut out, &ReportDoc::of(report), indent);
        assert!(written.is_ok());
        out
    }

    fn assert_same(report: &GameReport, what: &str) {
        for indent in [0, 2, 4, 8] {
            let mut out = b"x".to_vec();
            write_report(&mut out, report, indent);
            let want = [b"x".to_vec(), by_serde(report, indent)].concat();
            assert!(
                out == want,
                "{what} (indent {indent}):\n{}\n---- serde_json:\n{}",
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&want)
            );
        }
    }

    /// Every fixture of every game and format, valid or not, replayed with
    /// its moves: the same bytes as serde_json gives.
    #[test]
    fn reports_are_written_as_serde_json_writes_them() {
        let opts = Options::keeping(crate::replay::sink::Record);
        let mut games = 0;
        let mut dirs: Vec<_> = std::fs::read_dir("fixtures")
            .into_iter()
            .flatten()
            .flatten()
            .flat_map(|d| ["valid", "invalid"].map(|v| d.path().join(v)))
            .collect();
        dirs.sort();
        for dir in dirs {
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            for path in files {
                let name = path.display().to_string();
                let bytes = std::fs::read(&path).unwrap_or_default();
                let Ok(input) = crate::formats::read(&name, bytes, None) else {
                    continue;
                };
                for raw in &input.games {
                    let report = replay(raw, &input.text, &opts);
                    assert_same(&report, &name);
                    games += 1;
                }
            }
        }
        assert!(games > 200, "{games} games");
    }

    /// Strings that need escaping, numbers of every kind, nested values,
    /// empty lists and maps, automatic passes, move numbers and comments.
    #[test]
    fn every_kind_of_value_is_written_as_serde_json_writes_it() {
        use serde_json::json;
        let weird = "q\"b\\s/\u{0}\u{1}\u{8}\t\n\u{b}\u{c}\r\u{1f} \u{7f}é€😀";
        let extras = |v: Value| -> Map<String, Value> {
            match v {
                Value::Object(m) => m,
                _ => Map::new(),
            }
        };
        let mut report = GameReport {
            game: "reversi",
            variant: "wof",
            tags: vec![
                ("Game".into(), "reversi".into()),
                (weird.into(), weird.into()),
                (String::new(), String::new()),
            ],
            comment: Some(weird.into()),
            seats: &["black", "white"],
            scores: vec![i64::MIN, i64::MAX],
            winners: vec!["black", "white"],
            over: true,
            result_extras: extras(json!({
                "f": 0.1, "g": -2.5e-300, "h": 1e300, "i": 1.0, "j": -0.0,
                "u": u64::MAX, "n": -7, "z": 0,
                "deep": {"a": [[], {}, [1, [2, {"b": null}]], true, false, weird]},
                "empty": {}, "none": [],
            })),
            moves: vec![
                MoveRecord {
                    ply: 1,
                    player: "black",
                    notation: "f5".into(),
                    comment: Some(weird.into()),
                    auto: false,
                    setup: false,
                    extras: Map::new(),
                    number: Some("1.".into()),
                    props: vec![("GGF_eval".into(), weird.into()), (weird.into(), String::new())],
                },
                MoveRecord {
                    ply: usize::MAX,
                    player: "white",
                    notation: weird.to_string().into(),
                    comment: None,
                    auto: true,
                    setup: false,
                    extras: extras(json!({"x": [1, 2], weird: {"y": "z"}})),
                    number: Some(weird.into()),
                    props: Vec::new(),
                },
            ],
            position: vec!["XO".into(), weird.into()],
            ..GameReport::default()
        };
        assert_same(&report, "every kind");
        report.seats = &[];
        report.tags.clear();
        report.moves.clear();
        report.winners.clear();
        report.position.clear();
        report.result_extras.clear();
        report.comment = None;
        report.over = false;
        assert_same(&report, "empty");
        assert_same(&GameReport::default(), "default");
    }

    /// Every string of up to three characters from a set holding each kind
    /// of byte the escaping tells apart.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let chars = [
            'a', '"', '\\', '\u{0}', '\u{1f}', '\n', '\u{7f}', 'é', '😀', ' ',
        ];
        let mut strings = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = strings
                .iter()
                .flat_map(|s| chars.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(longer);
        }
        for s in strings {
            let mut out = Vec::new();
            Pretty {
                out: &mut out,
                indent: 0,
            }
            .string(&s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap_or_default(), "{s:?}");
        }
    }
}
