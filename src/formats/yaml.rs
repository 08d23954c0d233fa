//! The YAML form of the document model (`convert --to yaml`).
//!
//! Reading streams, as JSON does: the items of the top-level block sequence
//! `games` are cut as the text is read, a line at a time, and each is parsed
//! on its own, so a document of any size is read in the memory of one game.
//! An item ends at the next line that starts an item at its indentation, or
//! at a line that is a key of the top-level mapping; other top-level keys
//! (and what is indented under them) are skipped. Decisions:
//! - an anchor is resolved inside its game: an alias to an anchor of
//!   another game, or outside `games`, is an error of the file;
//! - a game's text may be at most the size limit (`--max-game-bytes`)
//!   divided by [`YAML_COST`] (what parsing it costs in memory): past it
//!   the game is `record::too_large` and the next one is read;
//! - flow collections nested deeper than [`MAX_DEPTH`] are refused before
//!   parsing (the parser's time and stack would grow with them);
//! - a `games` list in flow style (`games: [...]`) is read whole, up to the
//!   same limit;
//! - a file whose first line that holds something is not a key of a
//!   mapping (nor a directive or `---`) is refused there, before reading
//!   on; so is a second document (`---` after the games).

use super::{DocText, FromDoc, ReadError, SourceGame};
use crate::model::{DocGame, Document};
use crate::source::{Chunk, TOO_LARGE_KEPT, TextBuf};
use crate::span::Origin;

/// How deep flow collections (`[...]`, `{...}`) may nest.
pub const MAX_DEPTH: usize = 64;

pub fn write(doc: &Document) -> String {
    serde_yaml::to_string(doc).unwrap_or_else(|e| format!("error: {e}\n"))
}

pub fn read(text: &str) -> Result<Document, ReadError> {
    check_depth(text)?;
    serde_yaml::from_str(text).map_err(fail)
}

/// Refuses flow collections nested too deep (the parser's time and stack
/// would grow with them). Only what the parser reads as a flow collection
/// counts: a `[` or `{` that begins a value in block context (at a line's
/// start, after `- `, `? ` or `: `, after an anchor or a tag), and every
/// bracket inside a flow collection. Quoted scalars (with their escapes),
/// comments, plain scalars (`a{b`) and the lines of block scalars (`|`,
/// `>`: a multi-line comment) are skipped, so a game's text of braces
/// reads back (issue 30, find 9).
fn check_depth(text: &str) -> Result<(), ReadError> {
    let mut scan = DepthScan::default();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        scan.line(line.as_bytes(), at)?;
        at += line.len();
    }
    Ok(())
}

/// Where [`check_depth`] stands between lines.
#[derive(Default)]
struct DepthScan {
    /// Flow collections open.
    depth: usize,
    /// In a quoted scalar: its quote.
    quote: Option<u8>,
    /// In a block scalar: the column of the node it is the value of (its
    /// lines are indented further, or blank).
    block: Option<usize>,
}

impl DepthScan {
    fn line(&mut self, line: &[u8], at: usize) -> Result<(), ReadError> {
        let indent = line.iter().take_while(|&&c| c == b' ').count();
        if let Some(owner) = self.block {
            if indent > owner || line.iter().all(u8::is_ascii_whitespace) {
                return Ok(());
            }
            self.block = None;
        }
        // in block context, a line without these changes nothing (most lines)
        if self.depth == 0
            && self.quote.is_none()
            && memchr::memchr3(b'[', b'{', b'"', line).is_none()
            && memchr::memchr3(b'\'', b'|', b'>', line).is_none()
        {
            return Ok(());
        }
        // in block context: whether the next character begins a value
        let mut value_start = self.depth == 0;
        // the column of the innermost block node begun on this line
        let mut owner = indent;
        let mut prev = b' ';
        let mut i = 0;
        while let Some(&c) = line.get(i) {
            let next = line.get(i + 1).copied().unwrap_or(b'\n');
            if let Some(q) = self.quote {
                i += match c {
                    b'\\' if q == b'"' => 2,
                    b'\'' if q == b'\'' && next == b'\'' => 2,
                    _ => {
                        if c == q {
                            self.quote = None;
                        }
                        1
                    }
                };
                prev = c;
                continue;
            }
            let flow = self.depth > 0;
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => {}
                b'#' if prev.is_ascii_whitespace() => return Ok(()),
                b'"' | b'\'' if value_start || (flow && b"[{,: \t".contains(&prev)) => {
                    self.quote = Some(c);
                    owner = i;
                    value_start = false;
                }
                b'[' | b'{' if value_start || flow => {
                    self.depth += 1;
                    value_start = false;
                    if self.depth > MAX_DEPTH {
                        return Err(fail(format!(
                            "collections nested more than {MAX_DEPTH} levels deep (at byte {})",
                            at + i
                        )));
                    }
                }
                b']' | b'}' if flow => self.depth -= 1,
                _ if flow => {}
                b'|' | b'>' if value_start => {
                    self.block = Some(owner);
                    return Ok(());
                }
                b'-' | b'?' if value_start && next.is_ascii_whitespace() => owner = i,
                b':' if next.is_ascii_whitespace() => value_start = true,
                // an anchor or a tag before the value: the value is still to come
                b'&' | b'!' if value_start => {
                    while line.get(i + 1).is_some_and(|c| !c.is_ascii_whitespace()) {
                        i += 1;
                    }
                }
                _ if value_start => {
                    owner = i;
                    value_start = false;
                }
                _ => {}
            }
            prev = c;
            i += 1;
        }
        Ok(())
    }
}

/// What a YAML game costs in memory per byte of its text while it is
/// parsed (the parser's events and nodes): a game's text may be at most the
/// size limit divided by this.
pub const YAML_COST: usize = 16;

/// Where the reader stands in the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Before the `games:` key (other top-level keys are skipped).
    Before,
    /// In the `games` block sequence, its items `-` at this indentation
    /// (`None` until the first one).
    Games(Option<usize>),
    /// After the sequence (other top-level keys are skipped).
    After,
}

/// A line's indentation and its content (without the line end).
fn content(line: &str) -> (usize, &str) {
    let body = line.trim_end_matches(['\n', '\r']);
    let rest = body.trim_start_matches(' ');
    (body.len() - rest.len(), rest)
}

/// Whether a line holds nothing (blank, or a comment).
fn is_blank(rest: &str) -> bool {
    let t = rest.trim_start_matches([' ', '\t']);
    t.is_empty() || t.starts_with('#')
}

/// Whether a line starts an item of a block sequence (`-` then a blank or
/// the line end).
fn is_item(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ") || rest.starts_with("-\t")
}

/// Whether a line at the top level is a key (`name:` then a blank or the
/// line end), and whether it is `games`; the rest after the colon.
fn top_key(rest: &str) -> Option<(&str, &str)> {
    let colon = rest.find(':')?;
    let (key, after) = rest.split_at(colon);
    let after = after.get(1..).unwrap_or("");
    let key = key.trim_matches(['"', '\'']);
    let ok = !key.is_empty()
        && !key.starts_with(['-', '[', '{', '#', '&', '*', '!', '|', '>', '%', '@', '`'])
        && (after.is_empty() || after.starts_with([' ', '\t']));
    ok.then_some((key, after))
}

/// Reads a YAML document's games (see [`super::open`]) a game at a time:
/// the items of its block sequence `games` are cut as the text is read,
/// and each is parsed on its own (its anchors resolved inside it), with the
/// size limit of a game ([`YAML_COST`]) and the nesting limit
/// ([`MAX_DEPTH`]). A document whose `games` list is written in flow style
/// (`games: [...]`) is read whole, up to the same limit. Text that is not a
/// YAML mapping is refused at its first line.
pub fn games(
    buf: TextBuf<'_>,
) -> Result<impl Iterator<Item = Result<SourceGame, ReadError>>, ReadError> {
    // the first line that holds something decides, from the first block
    let head = buf.text().trim_start_matches('\u{feff}');
    if let Some(rest) = head
        .split_inclusive(['\n', '\r'])
        .map(content)
        .find(|(_, rest)| !is_blank(rest))
        .map(|(indent, rest)| (indent, rest.to_string()))
    {
        let (indent, rest) = rest;
        let directive = rest.starts_with('%') || rest.starts_with("---");
        if !directive && (indent > 0 || top_key(&rest).is_none()) {
            return Err(fail(
                "expected a mapping with a `games` list (`games:` then its games)",
            ));
        }
    }
    let limit = buf.limit();
    let mut r = Reader {
        buf,
        element_limit: (limit / YAML_COST).max(1),
        place: Place::Before,
        first: true,
        item: None,
        flow: None,
        from: FromDoc::new(),
        ready: std::collections::VecDeque::new(),
        index: 0,
        done: false,
    };
    Ok(std::iter::from_fn(move || {
        loop {
            if let Some(g) = r.ready.pop_front() {
                return Some(g);
            }
            if r.done {
                return None;
            }
            match r.line() {
                Ok(true) => {}
                Ok(false) => r.done = true,
                Err(e) => {
                    r.done = true;
                    r.ready.push_back(Err(e));
                }
            }
        }
    }))
}

fn fail(why: impl std::fmt::Display) -> ReadError {
    ReadError::new(format!("not a gamerec YAML document: {why}"))
}

/// The streaming reader's state (see [`games`]).
struct Reader<'a> {
    buf: TextBuf<'a>,
    /// Most bytes of one game's text.
    element_limit: usize,
    place: Place,
    /// Whether no line has been read yet (a byte-order mark may start it).
    first: bool,
    /// The item being read: its text, origin, and whether it is past the
    /// limit (then only its first bytes are kept).
    item: Option<(String, Origin, bool)>,
    /// A `games` list in flow style: the document from its `games:` line.
    flow: Option<(String, Origin)>,
    from: FromDoc,
    ready: std::collections::VecDeque<Result<SourceGame, ReadError>>,
    index: usize,
    done: bool,
}

impl Reader<'_> {
    /// Parses the item read, queueing its games.
    fn finish(&mut self) -> Result<(), ReadError> {
        let Some((text, origin, large)) = self.item.take() else {
            return Ok(());
        };
        let n = self.index;
        self.index += 1;
        if large {
            self.ready
                .push_back(Ok(SourceGame::too_large(Chunk::TooLarge(text, origin))));
            return Ok(());
        }
        check_depth(&text).map_err(|e| ReadError::new(format!("game {n}: {e}")))?;
        // the item as a sequence of one, at its own indentation
        let games: Vec<DocGame> =
            serde_yaml::from_str(&text).map_err(|e| fail(format!("game {n}: {e}")))?;
        let at = DocText {
            text: &text,
            origin,
            whole: false,
        };
        for g in &games {
            self.ready
                .extend(self.from.game(g, Some(&at)).into_iter().map(Ok));
        }
        Ok(())
    }

    /// A flow-style list: the document from its `games:` line, read whole.
    fn finish_flow(&mut self, text: &str, origin: Origin) -> Result<(), ReadError> {
        let doc = read(text)?;
        let whole = doc
            .games
            .iter()
            .any(|g| crate::model::check_moves(g).is_some());
        for g in &doc.games {
            let at = DocText {
                text,
                origin,
                whole: true,
            };
            let at = whole.then_some(&at);
            self.ready.extend(self.from.game(g, at).into_iter().map(Ok));
        }
        Ok(())
    }

    /// Reads one line; `false` at the end.
    fn line(&mut self) -> Result<bool, ReadError> {
        let Some(chunk) = self.buf.next_chunk(crate::source::lines()) else {
            return self.end().map(|()| false);
        };
        let (line, origin, large_line) = match chunk {
            Chunk::Text(t, o) => (t, o, false),
            Chunk::TooLarge(t, o) => (t, o, true),
        };
        let limit = self.element_limit;
        if let Some((text, _)) = self.flow.as_mut() {
            if large_line || text.len() + line.len() > limit {
                return Err(fail(format!(
                    "its `games` list is in flow style (`games: [...]`), which is read whole, and it is larger than {limit} bytes: write the list in block style (`- game: ...`), or as JSON"
                )));
            }
            text.push_str(&line);
            return Ok(true);
        }
        let body = if std::mem::replace(&mut self.first, false) {
            line.trim_start_matches('\u{feff}')
        } else {
            line.as_str()
        };
        let (indent, rest) = content(body);
        if is_blank(rest) && !large_line {
            if let Some((text, _, false)) = self.item.as_mut() {
                text.push_str(&line);
            }
            return Ok(true);
        }
        let at_line = origin.line + 1;
        if indent == 0 && (rest.starts_with("---") || rest.starts_with("...")) {
            if self.place == Place::Before {
                return Ok(true);
            }
            self.finish()?;
            if rest.starts_with("---") {
                return Err(fail(format!(
                    "line {at_line}: a second document (gamerec reads one)"
                )));
            }
            self.place = Place::After;
            return Ok(true);
        }
        // the content, past a BOM and the indentation
        let rest_at = line.len() - body.len() + indent;
        let rest = rest_at..rest_at + rest.len();
        let line = Line {
            text: line,
            rest,
            indent,
            origin,
            large: large_line,
        };
        match self.place {
            Place::Before | Place::After => self.top_level_line(line),
            Place::Games(at) => self.games_line(line, at),
        }
    }

    /// The end of the text: the flow list or the last item read, or what
    /// the document lacks.
    fn end(&mut self) -> Result<(), ReadError> {
        if let Some(e) = self.buf.take_error() {
            self.finish()?;
            return Err(ReadError::new(e));
        }
        if let Some((text, origin)) = self.flow.take() {
            return self.finish_flow(&text, origin);
        }
        self.finish()?;
        if self.place == Place::Before {
            return Err(fail("no `games` list"));
        }
        Ok(())
    }

    /// A line outside the `games` list: a top-level key (`games:` starts
    /// the list, in block or flow style), or a line inside another key's
    /// value, skipped.
    fn top_level_line(&mut self, line: Line) -> Result<bool, ReadError> {
        if line.indent > 0 {
            // inside the value of another key: skipped
            return Ok(true);
        }
        let (limit, at_line) = (self.element_limit, line.origin.line + 1);
        match top_key(line.rest()) {
            Some(("games", after)) if self.place == Place::Before => {
                let value = after.trim_start_matches([' ', '\t']);
                if value.is_empty() || value.starts_with('#') {
                    self.place = Place::Games(None);
                } else if line.large || line.text.len() > limit {
                    return Err(fail(format!(
                        "line {at_line}: a `games` list in flow style larger than {limit} bytes"
                    )));
                } else {
                    self.flow = Some((line.text, line.origin));
                }
            }
            Some(_) => {}
            None if line.rest().starts_with('%') => {}
            None => {
                return Err(fail(format!(
                    "line {at_line}: expected a key of the top-level mapping"
                )));
            }
        }
        Ok(true)
    }

    /// A line of the `games` list (its items at indent `at`, once known):
    /// an item starts, goes on, or the list ends.
    fn games_line(&mut self, line: Line, at: Option<usize>) -> Result<bool, ReadError> {
        let (limit, at_line, indent) = (self.element_limit, line.origin.line + 1, line.indent);
        if is_item(line.rest()) && at.is_none_or(|a| a == indent) {
            self.finish()?;
            self.place = Place::Games(Some(indent));
            let large = line.large || line.text.len() > limit;
            let mut text = line.text;
            if large {
                keep_start(&mut text);
            }
            self.item = Some((text, line.origin, large));
        } else if at.is_some_and(|a| indent > a) {
            if let Some((text, _, large)) = self.item.as_mut() {
                if *large {
                } else if line.large || text.len() + line.text.len() > limit {
                    *large = true;
                    keep_start(text);
                } else {
                    text.push_str(&line.text);
                }
            }
        } else if at.is_none() {
            return Err(fail(format!(
                "line {at_line}: the `games` list holds no items `- ...` (a list in flow style is written on the `games:` line)"
            )));
        } else {
            // the list has ended: a key of the top level follows
            self.finish()?;
            self.place = Place::After;
            if indent > 0 || top_key(line.rest()).is_none() {
                return Err(fail(format!(
                    "line {at_line}: expected an item of the `games` list or a top-level key"
                )));
            }
        }
        Ok(true)
    }
}

/// A line of the document past its blank lines and document markers.
struct Line {
    text: String,
    /// Where its content stands, past the indentation (and a BOM), before
    /// the line break.
    rest: std::ops::Range<usize>,
    indent: usize,
    origin: Origin,
    /// Over the size limit of a piece.
    large: bool,
}

impl Line {
    /// The line's content after its indentation.
    fn rest(&self) -> &str {
        self.text.get(self.rest.clone()).unwrap_or("")
    }
}

/// Cuts an item over the size limit to the start it keeps.
fn keep_start(text: &mut String) {
    let mut keep = TOO_LARGE_KEPT.min(text.len());
    while !text.is_char_boundary(keep) {
        keep -= 1;
    }
    text.truncate(keep);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_flow_collections_are_refused_quickly() {
        let deep = format!("games: {}", "[".repeat(100_000));
        assert!(read(&deep).is_err_and(|e| e.message.contains("nested more than")));
        assert!(check_depth("games: [ '[[[[' , \"{{{{\" ] # [[[[").is_ok());
    }

    /// Issue 30, find 9a: braces in a block scalar, a plain scalar or a
    /// quoted one with escapes are text, not collections; flow collections
    /// after an anchor or under a key still count.
    #[test]
    fn the_depth_check_counts_only_flow_collections() {
        let many = "{".repeat(100);
        let text = format!("games:\n- comment: |-\n    a\n    {many}\n  moves: []\n");
        assert!(check_depth(&text).is_ok());
        assert!(check_depth(&format!("games:\n- comment: a{many}\n")).is_ok());
        assert!(check_depth(&format!("games:\n- comment: \"a\\\"{many}\"\n")).is_ok());
        assert!(check_depth(&format!("games:\n- comment: 'it''s {many}'\n")).is_ok());
        for deep in [
            format!("games:\n- comment: |-\n    a\n  moves: {many}\n"),
            format!("games:\n- moves: &a {many}\n"),
            format!("games:\n- - {many}\n"),
            format!("games:\n  {many}\n"),
        ] {
            assert!(check_depth(&deep).is_err(), "{deep}");
        }
    }
}
