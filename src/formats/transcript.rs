//! Othello transcripts (`.txt`): one game per line, its moves as a compact
//! transcript (`f5d6c3...`) or squares separated by spaces.
//!
//! The text is the file itself: each game's tokens are the line's
//! whitespace-separated pieces, with their spans in the file. Blank lines and
//! lines starting with `#` are skipped. Every game is Reversi (standard
//! scoring; the `Game` tag is synthesized, its span the start of the line).

use crate::record::{RawGame, Tag, Tags, Token};
use crate::span::Span;

/// A synthesized `Game "reversi"` tag standing at `span`.
pub(crate) fn game_tag(span: Span) -> Tag {
    Tag {
        name: "Game".into(),
        value: "reversi".into(),
        span,
        value_span: span,
    }
}

/// The lines of a text with their byte offsets (line ends removed, `\r` too).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').map(move |raw| {
        let at = offset;
        offset += raw.len();
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        (at, line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The whitespace-separated pieces of a line, with their byte offsets.
pub(crate) fn pieces(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = None;
    let mut out = Vec::new();
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, line.get(s..i).unwrap_or("")));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out.into_iter()
}

pub fn read(text: &str) -> Vec<RawGame> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut games = Vec::new();
    for (at, line) in lines(text) {
        let (at, line) = if at == 0 {
            (bom, line.get(bom..).unwrap_or(""))
        } else {
            (at, line)
        };
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let tokens: Vec<Token> = pieces(line)
            .map(|(pos, piece)| Token {
                span: Span::new(at + pos, piece.len()),
                comment: None,
            })
            .collect();
        let first = tokens.first().map_or(Span::new(at, 0), |t| t.span);
        games.push(RawGame {
            tags: Tags(vec![game_tag(first)]),
            tokens,
            span: Span::new(at, line.len()),
            ..RawGame::default()
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_game_per_line_spans_in_the_file() {
        let text = "\u{feff}f5d6c3\r\n\n# comment\n  f5 d6\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tokens[0].text(text), "f5d6c3");
        let t: Vec<&str> = games[1].tokens.iter().map(|t| t.text(text)).collect();
        assert_eq!(t, ["f5", "d6"]);
    }
}
