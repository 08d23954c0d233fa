//! A file's text read a block at a time, for readers that yield one game at a
//! time (spec §2, "Output order and memory").
//!
//! [`TextBuf`] holds the text from the start of the game being read to as
//! far as its reader has looked ahead, never more than the size limit of a
//! game plus one block. Readers take a game's text out with
//! [`TextBuf::take_to`], which also says where that text stands in the file
//! (its [`Origin`]), so diagnostics still give file offsets, lines and
//! columns.
//!
//! The bytes are UTF-8 text, or as a reader asks ([`Charset`], for
//! Pentobi's SGF files: Latin-1, or UTF-8 unless the first byte past ASCII
//! is not).
//!
//! What ends a file early (the games before it are kept):
//! - bytes that are not UTF-8 (in a UTF-8 text): "not UTF-8 text (invalid
//!   byte at offset N)";
//! - a NUL byte, which no text format holds (binary data, or a device such as
//!   `/dev/zero`): "binary data (a NUL byte at offset N)";
//! - a read error.

use std::io::Read;

use crate::span::Origin;

/// How much is read at once.
pub const BLOCK: usize = 64 * 1024;

/// The default size limit of one game (`--max-game-bytes`).
pub const MAX_GAME_BYTES: usize = 16 * 1024 * 1024;

/// How a file's bytes are decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8; an invalid byte ends the file.
    #[default]
    Utf8,
    /// ISO-8859-1 (Latin-1): every byte is the character of that code.
    Latin1,
    /// UTF-8, unless the first byte that is not ASCII does not start valid
    /// UTF-8: then Latin-1 from the start (SGF's default charset).
    Utf8OrLatin1,
}

/// A reader's text, a block at a time.
pub struct TextBuf<'a> {
    reader: Option<Box<dyn Read + 'a>>,
    /// The text; `text[start..]` is not taken yet.
    text: String,
    start: usize,
    /// Where `text[start]` stands in the file.
    start_origin: Origin,
    /// Bytes read that do not make a whole character yet.
    pending: Vec<u8>,
    /// Bytes read from the reader so far (for error offsets).
    read: usize,
    eof: bool,
    /// Why the file ended early.
    error: Option<String>,
    /// Most bytes of one game (from `start`).
    limit: usize,
    charset: Charset,
    /// Whether a character past ASCII has been read (for `Utf8OrLatin1`).
    past_ascii: bool,
    /// The block the reader reads into, kept between reads.
    block: Vec<u8>,
}

impl<'a> TextBuf<'a> {
    /// A text read from `reader`; `first` is what was already read of it
    /// (format detection looks at the head of a file).
    pub fn new(first: Vec<u8>, reader: Box<dyn Read + 'a>, limit: usize) -> TextBuf<'a> {
        TextBuf::decoded(first, reader, limit, Charset::Utf8)
    }

    /// As [`TextBuf::new`], decoding the bytes as `charset` says.
    pub fn decoded(
        first: Vec<u8>,
        reader: Box<dyn Read + 'a>,
        limit: usize,
        charset: Charset,
    ) -> TextBuf<'a> {
        let mut buf = TextBuf {
            reader: Some(reader),
            text: String::new(),
            start: 0,
            start_origin: Origin::default(),
            pending: Vec::new(),
            read: 0,
            eof: false,
            error: None,
            limit: limit.max(1),
            charset,
            past_ascii: false,
            block: Vec::new(),
        };
        buf.push_bytes(&first);
        buf
    }

    /// A text already in memory (no limit).
    pub fn of_str(text: &str) -> TextBuf<'a> {
        TextBuf {
            reader: None,
            text: text.to_string(),
            start: 0,
            start_origin: Origin::default(),
            pending: Vec::new(),
            read: text.len(),
            eof: true,
            error: None,
            limit: usize::MAX,
            charset: Charset::Utf8,
            past_ascii: !text.is_ascii(),
            block: Vec::new(),
        }
    }

    /// The text, from the start of the buffer (positions are indices into it).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Where the text not taken yet starts.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Whether everything has been read.
    pub fn at_end(&self) -> bool {
        self.eof
    }

    /// Why the file ended early, once it has.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    /// Whether the game being read has reached the size limit.
    pub fn full(&self) -> bool {
        !self.eof && self.text.len() - self.start >= self.limit
    }

    /// The size limit of a game.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Reads one more block. `false` when nothing more can be read (the end,
    /// an error, or the game's size limit).
    pub fn fill(&mut self) -> bool {
        if self.eof || self.full() {
            return false;
        }
        let room = (self.limit - (self.text.len() - self.start)).min(BLOCK);
        // the same block each time (zeroed once)
        let mut block = std::mem::take(&mut self.block);
        block.resize(room, 0);
        let n = loop {
            let Some(reader) = self.reader.as_mut() else {
                self.eof = true;
                return false;
            };
            match reader.read(&mut block) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.fail(format!("cannot read: {e}"));
                    self.block = block;
                    return false;
                }
            }
        };
        let n = n.min(block.len());
        if n == 0 {
            self.eof = true;
            self.reader = None;
            if !self.pending.is_empty() && self.latin1_instead() {
                let rest = std::mem::take(&mut self.pending);
                self.push_valid(&rest, 0);
            } else if !self.pending.is_empty() {
                let at = self.read - self.pending.len();
                self.fail(format!("not UTF-8 text (invalid byte at offset {at})"));
            }
            self.block = block;
            return false;
        }
        self.push_bytes(block.get(..n).unwrap_or(&[]));
        self.block = block;
        true
    }

    fn fail(&mut self, why: String) {
        self.eof = true;
        self.reader = None;
        self.pending.clear();
        if self.error.is_none() {
            self.error = Some(why);
        }
    }

    /// Appends bytes read: the whole characters among them.
    fn push_bytes(&mut self, block: &[u8]) {
        let first_offset = self.read - self.pending.len();
        self.read += block.len();
        // a character cut at the end of the last block goes first
        let joined;
        let bytes = if self.pending.is_empty() {
            block
        } else {
            let mut b = std::mem::take(&mut self.pending);
            b.extend_from_slice(block);
            joined = b;
            &joined[..]
        };
        if let Some(i) = memchr::memchr(0, bytes) {
            self.push_valid(bytes.get(..i).unwrap_or(&[]), first_offset);
            let at = first_offset + i;
            self.fail(format!(
                "binary data (a NUL byte at offset {at}): not a text format gamerec reads"
            ));
            return;
        }
        self.push_valid(bytes, first_offset);
    }

    fn push_valid(&mut self, bytes: &[u8], first_offset: usize) {
        if self.charset == Charset::Latin1 {
            self.text.extend(bytes.iter().map(|&b| char::from(b)));
            return;
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => self.push_str(s),
            Err(e) => {
                let good = e.valid_up_to();
                if let Some(s) = bytes.get(..good).and_then(|b| std::str::from_utf8(b).ok()) {
                    self.push_str(s);
                }
                if e.error_len().is_some() && self.latin1_instead() {
                    // the first byte past ASCII is not UTF-8: the text so far
                    // reads the same in Latin-1, go on in it
                    self.push_valid(bytes.get(good..).unwrap_or(&[]), first_offset + good);
                } else if e.error_len().is_some() {
                    self.fail(format!(
                        "not UTF-8 text (invalid byte at offset {})",
                        first_offset + good
                    ));
                } else {
                    // an incomplete character at the end: wait for more
                    self.pending = bytes.get(good..).unwrap_or(&[]).to_vec();
                }
            }
        }
    }

    fn push_str(&mut self, s: &str) {
        if !self.past_ascii && !s.is_ascii() {
            self.past_ascii = true;
        }
        self.text.push_str(s);
    }

    /// Whether bytes that are not UTF-8 turn the decoding to Latin-1 (they
    /// are the first past ASCII): switches if so.
    fn latin1_instead(&mut self) -> bool {
        if self.charset == Charset::Utf8OrLatin1 && !self.past_ascii {
            self.charset = Charset::Latin1;
            return true;
        }
        false
    }

    /// Takes the text from the start to `end` (a game), and where it stands in
    /// the file.
    pub fn take_to(&mut self, end: usize) -> (String, Origin) {
        let mut taken = String::new();
        let origin = self.take_into(end, &mut taken);
        (taken, origin)
    }

    /// [`TextBuf::take_to`] into `into` (emptied first, its room reused).
    pub fn take_into(&mut self, end: usize, into: &mut String) -> Origin {
        let end = end.clamp(self.start, self.text.len());
        into.clear();
        into.push_str(self.text.get(self.start..end).unwrap_or(""));
        let origin = self.start_origin;
        self.start_origin = origin.after(into);
        self.start = end;
        origin
    }

    /// Drops the text from the start to `end` (skipped text).
    pub fn skip_to(&mut self, end: usize) {
        let end = end.clamp(self.start, self.text.len());
        let skipped = self.text.get(self.start..end).unwrap_or("");
        self.start_origin = self.start_origin.after(skipped);
        self.start = end;
    }

    /// Forgets the text already taken, when it is worth it; returns by how
    /// much positions move back.
    pub fn compact(&mut self) -> usize {
        if self.start < BLOCK || self.start < self.text.len() / 2 {
            return 0;
        }
        let by = self.start;
        self.text.drain(..by);
        self.start = 0;
        by
    }

    /// Reads until `pred` finds a position in the text after `from` (scanning
    /// each byte once: `scanned` keeps how far it looked), or nothing more
    /// can be read.
    pub fn find_from(
        &mut self,
        from: usize,
        scanned: &mut usize,
        find: impl Fn(&str) -> Option<usize>,
    ) -> Option<usize> {
        let mut at = (*scanned).max(from);
        loop {
            if let Some(i) = self.text.get(at..).and_then(&find) {
                *scanned = at + i;
                return Some(at + i);
            }
            // a match may straddle the end: look again from a little before it
            at = self.text.len().saturating_sub(4).max(from);
            while !self.text.is_char_boundary(at) {
                at -= 1;
            }
            *scanned = at;
            if !self.fill() {
                return self.text.get(at..).and_then(&find).map(|i| at + i);
            }
        }
    }
}

/// A piece of a text cut by [`TextBuf::next_chunk`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// The piece and where it stands.
    Text(String, Origin),
    /// A piece over the size limit: its first bytes, to show where it starts
    /// (the rest was read and dropped).
    TooLarge(String, Origin),
}

/// How much of a piece over the size limit is kept.
pub const TOO_LARGE_KEPT: usize = 4096;

/// What a piece reader's step says of a byte ([`TextBuf::next_piece`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The piece goes on.
    Go,
    /// The piece ends after this byte.
    End,
    /// The piece goes on, and costs more than the size limit so far.
    Over,
}

impl TextBuf<'_> {
    /// The next piece of the text: up to and including the byte after which
    /// `ends_after` (fed every byte once, in order) says a piece ends, or to
    /// the end of the text. `None` once nothing is left. A piece past the
    /// size limit is read to its end without being kept.
    pub fn next_chunk(&mut self, mut ends_after: impl FnMut(u8) -> bool) -> Option<Chunk> {
        self.next_piece(|b| if ends_after(b) { Cut::End } else { Cut::Go })
    }

    /// [`TextBuf::next_chunk`] for pieces that cost more than their bytes:
    /// `step` (fed every byte once, in order) also says when the piece read
    /// so far costs more than the size limit ([`Cut::Over`]); from there it
    /// is read to its end without being kept, as a piece past the limit in
    /// bytes is.
    pub fn next_piece(&mut self, mut step: impl FnMut(u8) -> Cut) -> Option<Chunk> {
        let mut at = self.start;
        let mut large: Option<(String, Origin)> = None;
        loop {
            let mut end = None;
            let mut over = false;
            if let Some(bytes) = self.text.as_bytes().get(at..) {
                for (i, &b) in bytes.iter().enumerate() {
                    match step(b) {
                        Cut::Go => {}
                        Cut::Over => over = true,
                        Cut::End => {
                            end = Some(at + i + 1);
                            break;
                        }
                    }
                }
            }
            if over && large.is_none() {
                large = Some(self.take_kept(end.unwrap_or(self.text.len())));
            }
            if let Some(mut end) = end {
                // a piece never ends between the CR and the LF of a CRLF
                if self.text.as_bytes().get(end - 1) == Some(&b'\r') {
                    if end >= self.text.len() {
                        self.fill();
                    }
                    if self.text.as_bytes().get(end) == Some(&b'\n') {
                        end += 1;
                    }
                }
                return Some(self.cut(end, large));
            }
            at = self.text.len();
            if self.full() && large.is_none() {
                large = Some(self.take_kept(at));
            }
            if large.is_some() {
                self.skip_to(at);
                let by = self.compact();
                at -= by;
            }
            if !self.fill() {
                if self.start >= self.text.len() && large.is_none() {
                    return None;
                }
                let end = self.text.len();
                return Some(self.cut(end, large));
            }
        }
    }

    /// Takes what is kept of a piece over the size limit: its first
    /// [`TOO_LARGE_KEPT`] bytes, never past `end`.
    fn take_kept(&mut self, end: usize) -> (String, Origin) {
        let mut keep = (self.start + TOO_LARGE_KEPT).min(end);
        while !self.text.is_char_boundary(keep) {
            keep -= 1;
        }
        self.take_to(keep)
    }

    fn cut(&mut self, end: usize, mut large: Option<(String, Origin)>) -> Chunk {
        if large.is_none() && end - self.start > self.limit {
            // what is kept of it never reaches past its end
            large = Some(self.take_kept(end));
        }
        let chunk = match large {
            Some((kept, origin)) => {
                self.skip_to(end);
                Chunk::TooLarge(kept, origin)
            }
            None => {
                let (text, origin) = self.take_to(end);
                Chunk::Text(text, origin)
            }
        };
        self.compact();
        chunk
    }
}

/// `ends_after` for pieces that are lines: a line ends at LF, CRLF or a
/// lone CR ([`TextBuf::next_chunk`] keeps the LF of a CRLF with its CR).
pub fn lines() -> impl FnMut(u8) -> bool {
    |b| b == b'\n' || b == b'\r'
}

/// `ends_after` for CSV records: a line end (LF, CRLF, a lone CR) outside
/// double quotes.
pub fn csv_records() -> impl FnMut(u8) -> bool {
    let mut quoted = false;
    move |b| {
        if b == b'"' {
            quoted = !quoted;
        }
        (b == b'\n' || b == b'\r') && !quoted
    }
}

/// `ends_after` for SGF-like game trees (GGF, Pentobi): a `)` that closes a
/// tree opened at the top level, outside `[...]` values (`\` escapes).
pub fn trees() -> impl FnMut(u8) -> bool {
    let mut step = costed_trees(usize::MAX, 0);
    move |b| step(b) == Cut::End
}

/// [`trees`] for readers that hold a tree's nodes: a tree whose bytes and
/// `item_cost` per node (`;`) and per property value (`[`) come to more
/// than `limit` is [`Cut::Over`] there (once per tree), so that its text is
/// not kept past that point. The bytes are counted from the end of the
/// tree before (the text between trees is part of the next piece).
pub fn costed_trees(limit: usize, item_cost: usize) -> impl FnMut(u8) -> Cut {
    let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
    let (mut bytes, mut cost, mut over) = (0usize, 0usize, false);
    move |b| {
        bytes += 1;
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
        } else {
            match b {
                b'[' => {
                    in_value = true;
                    if depth > 0 {
                        cost = cost.saturating_add(item_cost);
                    }
                }
                b';' if depth > 0 => cost = cost.saturating_add(item_cost),
                b'(' => depth += 1,
                b')' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        (bytes, cost, over) = (0, 0, false);
                        return Cut::End;
                    }
                }
                _ => {}
            }
        }
        if !over && bytes.saturating_add(cost) > limit {
            over = true;
            return Cut::Over;
        }
        Cut::Go
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(bytes: &[u8], limit: usize) -> TextBuf<'static> {
        TextBuf::new(
            Vec::new(),
            Box::new(std::io::Cursor::new(bytes.to_vec())),
            limit,
        )
    }

    #[test]
    fn reads_blocks_and_takes_games_with_their_origin() {
        let mut b = buf("ab\ncç [d\n".as_bytes(), 100);
        while b.fill() {}
        assert_eq!(b.text(), "ab\ncç [d\n");
        let (t, o) = b.take_to(7);
        assert_eq!((t.as_str(), o), ("ab\ncç ", Origin::default()));
        let (t, o) = b.take_to(100);
        assert_eq!(t, "[d\n");
        assert_eq!(
            o,
            Origin {
                offset: 7,
                line: 1,
                column: 3
            }
        );
        assert!(b.take_error().is_none());
    }

    #[test]
    fn stops_at_bad_utf8_and_nul() {
        let mut b = buf(b"ok\xff more", 100);
        while b.fill() {}
        assert_eq!(b.text(), "ok");
        assert_eq!(
            b.take_error().as_deref(),
            Some("not UTF-8 text (invalid byte at offset 2)")
        );
        let mut b = buf(b"ok\0", 100);
        while b.fill() {}
        assert!(
            b.take_error()
                .is_some_and(|e| e.contains("NUL byte at offset 2"))
        );
    }

    #[test]
    fn latin1_and_utf8_or_latin1() {
        let latin1 = |bytes: &[u8], charset| {
            let mut b = TextBuf::decoded(
                Vec::new(),
                Box::new(std::io::Cursor::new(bytes.to_vec())),
                100,
                charset,
            );
            while b.fill() {}
            (b.text().to_string(), b.take_error())
        };
        assert_eq!(
            latin1(b"Jos\xe9", Charset::Latin1),
            ("Jos\u{e9}".into(), None)
        );
        assert_eq!(
            latin1("\u{e9}".as_bytes(), Charset::Latin1),
            ("\u{c3}\u{a9}".into(), None)
        );
        // the first byte past ASCII decides, also at the very end
        assert_eq!(
            latin1(b"ab\xe9 c\xe8", Charset::Utf8OrLatin1),
            ("ab\u{e9} c\u{e8}".into(), None)
        );
        assert_eq!(
            latin1(b"ab\xe9", Charset::Utf8OrLatin1),
            ("ab\u{e9}".into(), None)
        );
        assert_eq!(
            latin1("\u{e9}".as_bytes(), Charset::Utf8OrLatin1),
            ("\u{e9}".into(), None)
        );
        let (text, err) = latin1(b"\xc3\xa9 \xe9", Charset::Utf8OrLatin1);
        assert_eq!(text, "\u{e9} ");
        assert!(err.is_some_and(|e| e.contains("offset 3")));
        // a UTF-8 character split across blocks is not taken for Latin-1
        let mut b = TextBuf::decoded(
            Vec::new(),
            Box::new(std::io::empty()),
            100,
            Charset::Utf8OrLatin1,
        );
        b.push_bytes(&[b'a', 0xc3]);
        b.push_bytes(&[0xa9, b'b']);
        assert_eq!(b.text(), "a\u{e9}b");
    }

    #[test]
    fn characters_split_across_blocks_are_kept() {
        let mut b = buf(&[], 100);
        b.push_bytes(&[b'a', 0xc3]);
        b.push_bytes(&[0xa7, b'b']);
        assert_eq!(b.text(), "açb");
    }

    #[test]
    fn a_game_never_grows_past_the_limit() {
        let big = vec![b'x'; 10 * BLOCK];
        let mut b = buf(&big, 3 * BLOCK);
        while b.fill() {}
        assert!(b.full());
        assert_eq!(b.text().len(), 3 * BLOCK);
    }

    #[test]
    fn chunks_of_lines_records_and_trees() {
        let mut b = buf(b"a\nb\n\nc", 100);
        let mut got = Vec::new();
        while let Some(Chunk::Text(t, o)) = b.next_chunk(lines()) {
            got.push((t, o.line));
        }
        let want = [("a\n", 0), ("b\n", 1), ("\n", 2), ("c", 3)];
        assert_eq!(got, want.map(|(t, l)| (t.to_string(), l)));
        // lone CR and CRLF end lines; a CRLF is never cut in two
        let mut b = buf(b"a\rb\r\nc", 100);
        let mut got = Vec::new();
        while let Some(Chunk::Text(t, o)) = b.next_chunk(lines()) {
            got.push((t, o.line));
        }
        let want = [("a\r", 0), ("b\r\n", 1), ("c", 2)];
        assert_eq!(got, want.map(|(t, l)| (t.to_string(), l)));
        let mut b = buf(b"x,\"a\nb\"\ny\n", 100);
        let t = b.next_chunk(csv_records());
        assert!(matches!(t, Some(Chunk::Text(t, _)) if t == "x,\"a\nb\"\n"));
        let mut b = buf(b"1 (;A[)\\]](;B[x]);)\n(;C[])", 100);
        let t = b.next_chunk(trees());
        assert!(matches!(t, Some(Chunk::Text(t, _)) if t == "1 (;A[)\\]](;B[x]);)"));
        let t = b.next_chunk(trees());
        assert!(matches!(t, Some(Chunk::Text(t, _)) if t == "\n(;C[])"));
        assert_eq!(b.next_chunk(trees()), None);
    }

    /// A tree that costs more than the limit (a node and a value per 9
    /// bytes, at 64 each) is read to its end without being kept: the buffer
    /// holds a block or two, not the tree; the next tree is read whole.
    #[test]
    fn costly_trees_are_dropped_where_they_pass_the_limit() {
        let mut text = "(;GM[x]".to_string() + &"(;B[e10])".repeat(400_000) + ")";
        text.push_str("\n(;C[ok])");
        let limit = 1 << 20;
        let mut b = buf(text.as_bytes(), 16 << 20);
        let mut step = costed_trees(limit, 64);
        let Some(Chunk::TooLarge(kept, _)) = b.next_piece(&mut step) else {
            panic!("not too large");
        };
        assert_eq!(kept.len(), TOO_LARGE_KEPT);
        assert!(b.text.capacity() <= 4 * BLOCK, "{}", b.text.capacity());
        let t = b.next_piece(&mut step);
        assert!(matches!(t, Some(Chunk::Text(ref t, _)) if t == "\n(;C[ok])"), "{t:?}");
        assert_eq!(b.next_piece(&mut step), None);
        // as `trees`, where the cost stays under the limit
        let mut b = buf(b"1 (;A[)\\]](;B[x]);)\n(;C[])", 100);
        let mut step = costed_trees(100, 1);
        let t = b.next_piece(&mut step);
        assert!(matches!(t, Some(Chunk::Text(t, _)) if t == "1 (;A[)\\]](;B[x]);)"));
    }

    #[test]
    fn chunks_past_the_limit_are_dropped_but_read() {
        let mut big = vec![b'x'; 5 * BLOCK];
        big.extend_from_slice(b"\nok\n");
        let mut b = buf(&big, 2 * BLOCK);
        match b.next_chunk(lines()) {
            Some(Chunk::TooLarge(kept, o)) => {
                assert_eq!(kept.len(), TOO_LARGE_KEPT);
                assert_eq!(o.offset, 0);
            }
            other => panic!("{other:?}"),
        }
        match b.next_chunk(lines()) {
            Some(Chunk::Text(t, o)) => {
                assert_eq!(t, "ok\n");
                assert_eq!((o.offset, o.line), (5 * BLOCK + 1, 1));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn find_scans_each_byte_once() {
        let mut b = buf(b"aaaa\n[b", 100);
        let mut scanned = 0;
        assert_eq!(b.find_from(0, &mut scanned, |t| t.find("\n[")), Some(4));
        assert_eq!(b.find_from(0, &mut scanned, |t| t.find("\n[")), Some(4));
        let mut scanned = 0;
        assert_eq!(b.find_from(0, &mut scanned, |t| t.find('}')), None);
    }
}
