//! Byte spans into a source text, and their line/column positions.

use serde::{Deserialize, Serialize};

/// A byte range in a source text: `offset` from the start of the file (a BOM included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// The first byte.
    pub offset: usize,
    /// Its length in bytes.
    pub length: usize,
}

impl Span {
    /// The span of `length` bytes from `offset`.
    pub const fn new(offset: usize, length: usize) -> Self {
        Span { offset, length }
    }

    /// The span from `start` to `end` (exclusive), both byte offsets.
    pub const fn between(start: usize, end: usize) -> Self {
        Span {
            offset: start,
            length: end.saturating_sub(start),
        }
    }

    /// The byte after the span.
    pub const fn end(&self) -> usize {
        self.offset + self.length
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        let start = self.offset.min(other.offset);
        let end = self.end().max(other.end());
        Span::between(start, end)
    }

    /// The text this span covers, or `""` if it does not fall on the text.
    pub fn text(self, src: &str) -> &str {
        src.get(self.offset..self.end()).unwrap_or("")
    }
}

/// Where the lines of a text after its first start: after each LF, and
/// after each CR not followed by LF (a line ends at LF, CRLF or a lone CR).
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(move |&i| !(bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) == Some(&b'\n')))
        .map(|i| i + 1)
}

/// How many lines of a text start after its first ([`line_starts`]
/// counted): LFs counted by `memchr`'s vector count, CRs only looked at
/// when there are any.
pub fn count_line_starts(text: &str) -> usize {
    let bytes = text.as_bytes();
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    if memchr::memchr(b'\r', bytes).is_none() {
        return lf;
    }
    line_starts(text).count()
}

/// The first line end (LF or CR) of `bytes`. A line is usually short: its
/// first bytes are looked at eight at a time in a word (no call, no set-up),
/// a long line's rest with `memchr`.
pub fn find_line_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const SHORT: usize = 64;
    let head = bytes.get(..SHORT).unwrap_or(bytes);
    let mut chunks = head.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let w = u64::from_le_bytes(word);
        let lf = w ^ (ONES * u64::from(b'\n'));
        let cr = w ^ (ONES * u64::from(b'\r'));
        // a byte of `lf` or `cr` is zero where the text has LF or CR; the
        // lowest flagged byte is always a true one
        let hit = ((lf.wrapping_sub(ONES) & !lf) | (cr.wrapping_sub(ONES) & !cr)) & HIGHS;
        if hit != 0 {
            return Some(at + (hit.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = bytes.get(at..).unwrap_or(&[]);
    memchr::memchr2(b'\n', b'\r', rest).map(|i| at + i)
}

/// Where a piece of text stands in its file: a game read on its own keeps
/// only its text, and its origin turns its spans back into file positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Origin {
    /// Byte offset of the text's first byte in the file.
    pub offset: usize,
    /// Lines of the file before the text's first line (0 for the first).
    pub line: usize,
    /// Characters before the text's first byte on its line.
    pub column: usize,
}

impl Origin {
    /// The origin of the text that follows `text`, when `text` starts here.
    pub fn after(self, text: &str) -> Origin {
        let newlines = count_line_starts(text);
        let column = match text.rfind(['\n', '\r']) {
            Some(i) => text.get(i + 1..).map_or(0, |t| t.chars().count()),
            // a byte-order mark is not a column (spec §5)
            None if self.offset == 0 && text.starts_with('\u{feff}') => text.chars().count() - 1,
            None => self.column + text.chars().count(),
        };
        Origin {
            offset: self.offset + text.len(),
            line: self.line + newlines,
            column,
        }
    }

    /// A span of the text as a span of the file.
    pub fn to_file(self, span: Span) -> Span {
        Span::new(self.offset + span.offset, span.length)
    }
}

/// Line starts of a text, for turning byte offsets into 1-based line and column
/// (the column counted in characters).
pub struct LineIndex<'a> {
    src: &'a str,
    starts: Vec<usize>,
    origin: Origin,
}

impl<'a> LineIndex<'a> {
    /// The lines of `src`, a whole file's text.
    pub fn new(src: &'a str) -> Self {
        LineIndex::at(src, Origin::default())
    }

    /// The index of a text that stands at `origin` in its file: positions
    /// are then the file's lines and columns.
    pub fn at(src: &'a str, origin: Origin) -> Self {
        let mut starts = vec![0];
        starts.extend(line_starts(src));
        LineIndex {
            src,
            starts,
            origin,
        }
    }

    /// 1-based line and column of a byte offset. The column counts
    /// characters after a byte-order mark (spec §5); the offset counts its bytes.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.src.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let mut column = column_from(self.src, start, offset) + 1;
        if line == 1 {
            column += self.origin.column;
        }
        (line + self.origin.line, column)
    }

    /// The 0-based line (in the text, not the file) of a byte offset.
    pub fn text_line(&self, offset: usize) -> usize {
        let offset = offset.min(self.src.len());
        self.starts
            .partition_point(|&s| s <= offset)
            .max(1)
            .saturating_sub(1)
    }

    /// Where the text stands in its file.
    pub fn origin(&self) -> Origin {
        self.origin
    }
}

/// The 0-based column of a byte offset, in characters after the line start
/// (and after a byte-order mark on line 1).
pub fn column(src: &str, offset: usize) -> usize {
    let offset = offset.min(src.len());
    let start = src
        .as_bytes()
        .get(..offset)
        .and_then(|b| b.iter().rposition(|&c| c == b'\n' || c == b'\r'))
        .map_or(0, |i| i + 1);
    column_from(src, start, offset)
}

fn column_from(src: &str, mut start: usize, offset: usize) -> usize {
    if start == 0 && src.starts_with('\u{feff}') {
        start = '\u{feff}'.len_utf8().min(offset);
    }
    src.get(start..offset)
        .map(|s| s.chars().count())
        .unwrap_or(offset.saturating_sub(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let src = "ab\nçd ef\n";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(3), (2, 1));
        // 'ç' is two bytes: "d" starts at byte 5, column 2
        assert_eq!(idx.line_col(5), (2, 2));
        assert_eq!(idx.line_col(usize::MAX), (3, 1));
    }

    #[test]
    fn origins_give_file_positions() {
        let file = "ab\ncd [x] e\nf";
        let first = Origin::default();
        let second = first.after("ab\ncd ");
        assert_eq!(
            second,
            Origin {
                offset: 6,
                line: 1,
                column: 3
            }
        );
        let idx = LineIndex::at("[x] e\nf", second);
        assert_eq!(idx.line_col(0), (2, 4));
        assert_eq!(idx.line_col(6), (3, 1));
        assert_eq!(second.to_file(Span::new(4, 1)).text(file), "e");
        assert_eq!(second.after("[x] e\nf").offset, file.len());
        assert_eq!(Origin::default().after("\u{feff}ab").column, 2);
    }

    #[test]
    fn columns_start_after_a_bom() {
        let src = "\u{feff}[A \"x\"]\n[B \"y\"]\n";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(3), (1, 1));
        assert_eq!(idx.line_col(4), (1, 2));
        assert_eq!(idx.line_col(11), (2, 1));
        assert_eq!(column(src, 4), 1);
        assert_eq!(column("ab\nçd", 6), 2);
    }

    #[test]
    fn lone_cr_ends_lines() {
        let src = "a\rb\r\nc\nd";
        assert_eq!(line_starts(src).collect::<Vec<_>>(), [2, 5, 7]);
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_col(2), (2, 1));
        assert_eq!(idx.line_col(5), (3, 1));
        assert_eq!(column(src, 3), 1);
        let o = Origin::default().after("x\ry\r\nzz");
        assert_eq!((o.line, o.column), (2, 2));
    }

    #[test]
    fn line_ends_and_counts_agree_with_the_plain_search() {
        // every length around the word and short-line boundaries, each
        // line end at every place, and bytes one off LF and CR
        for len in 0..150 {
            for at in 0..=len {
                for end in [b'\n', b'\r'] {
                    let mut bytes = vec![b'a'; len];
                    for (i, b) in bytes.iter_mut().enumerate() {
                        *b = [b'a', 0x0b, 0x0e, 0x0c, 0x8a, 0x8d][i % 6];
                    }
                    if let Some(b) = bytes.get_mut(at) {
                        *b = end;
                    }
                    let plain = memchr::memchr2(b'\n', b'\r', &bytes);
                    assert_eq!(find_line_end(&bytes), plain, "len {len} at {at}");
                }
            }
        }
        for text in [
            "",
            "a",
            "a\nb",
            "a\r\nb\rc\n",
            "\r\r\n\n",
            "x\ry\r\nzz",
            "\n\n\n",
        ] {
            assert_eq!(
                count_line_starts(text),
                line_starts(text).count(),
                "{text:?}"
            );
        }
    }
}
