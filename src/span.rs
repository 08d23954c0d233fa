//! Byte spans into a source text, and their line/column positions.

use serde::{Deserialize, Serialize};

/// A byte range in a source text: `offset` from the start of the file (a BOM included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    pub offset: usize,
    pub length: usize,
}

impl Span {
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

/// Line starts of a text, for turning byte offsets into 1-based line and column
/// (the column counted in characters).
pub struct LineIndex<'a> {
    src: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(src: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { src, starts }
    }

    /// 1-based line and column of a byte offset. The column counts
    /// characters after a byte-order mark (spec §5); the offset counts its bytes.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.src.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        (line, column_from(self.src, start, offset) + 1)
    }
}

/// The 0-based column of a byte offset, in characters after the line start
/// (and after a byte-order mark on line 1).
pub fn column(src: &str, offset: usize) -> usize {
    let offset = offset.min(src.len());
    let start = src
        .as_bytes()
        .get(..offset)
        .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
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
}
