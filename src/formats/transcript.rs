//! Othello transcripts (`.txt`): one game per line, its moves as a compact
//! transcript (`f5d6c3...`) or squares separated by spaces, commas or
//! hyphens (`f5 d6 c3`, `f5,d6,c3`, `f5-d6-c3`), optionally followed by a
//! final score (`33-31`, after a space or a comma).
//!
//! The text is the file itself: each game's tokens are the line's pieces
//! between separators, with their spans in the file; a final score is the
//! game's result token, checked like a `Result` tag. A line ends at LF, CRLF
//! or a lone CR. Blank lines and lines starting with `#` are skipped. Every
//! game is Reversi (standard scoring; the `Game` tag is synthesized, its
//! span the start of the line).

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

/// The lines of a text with their byte offsets, line ends (LF, CRLF, a
/// lone CR) removed.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = text.get(at..).filter(|r| !r.is_empty())?;
        let start = at;
        let (len, next) = match rest.find(['\n', '\r']) {
            Some(i) if rest.get(i..i + 2) == Some("\r\n") => (i, i + 2),
            Some(i) => (i, i + 1),
            None => (rest.len(), rest.len()),
        };
        at += next;
        Some((start, rest.get(..len).unwrap_or("")))
    })
}

/// Separators between the moves of a line (besides white space).
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// The move tokens of a line standing at `at`, and its final score.
fn moves(line: &str, at: usize) -> (Vec<Token>, Option<Token>) {
    let token = |pos: usize, len: usize| Token::new(Span::new(at + pos, len));
    // a final score: the last piece after a space or a comma, when moves
    // come before it
    let body = line.trim_end_matches(is_separator);
    let last = body.rfind(is_separator).map_or(0, |i| i + 1);
    let (body, result_token) = match body.get(last..) {
        Some(piece) if last > 0 && is_score(piece) => (
            body.get(..last).unwrap_or(""),
            Some(token(last, piece.len())),
        ),
        _ => (body, None),
    };
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in body.char_indices() {
        let sep = is_separator(c) || c == '-';
        match (sep, start) {
            (true, Some(s)) => {
                tokens.push(token(s, i - s));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        tokens.push(token(s, body.len() - s));
    }
    (tokens, result_token)
}

/// A final score: two integers joined by `-` (`33-31`).
fn is_score(piece: &str) -> bool {
    piece.contains('-')
        && !piece.contains(',')
        && crate::record::parse_result_scores(piece).is_some_and(|s| s.len() == 2)
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
        let (tokens, result_token) = moves(line, at);
        let first = tokens
            .first()
            .or(result_token.as_ref())
            .map_or(Span::new(at, 0), |t| t.span);
        games.push(RawGame {
            tags: Tags(vec![game_tag(first)]),
            tokens,
            result_token,
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

    #[test]
    fn separators_scores_and_lone_cr() {
        let text = "f5,d6,c3\rf5-d6 33-31\r\nf5 d6, 40-24\nf5d6c3 -\n";
        let games = read(text);
        assert_eq!(games.len(), 4);
        let toks = |g: &RawGame| -> Vec<&str> { g.tokens.iter().map(|t| t.text(text)).collect() };
        assert_eq!(toks(&games[0]), ["f5", "d6", "c3"]);
        assert_eq!(toks(&games[1]), ["f5", "d6"]);
        assert_eq!(
            games[1].result_token.as_ref().map(|t| t.text(text)),
            Some("33-31")
        );
        assert_eq!(toks(&games[2]), ["f5", "d6"]);
        assert_eq!(
            games[2].result_token.as_ref().map(|t| t.text(text)),
            Some("40-24")
        );
        assert_eq!(toks(&games[3]), ["f5d6c3"]);
        assert!(games[0].result_token.is_none());
        // a line of a score alone is not a result: its pieces are moves
        let lone = read("33-31\n");
        assert!(lone[0].result_token.is_none());
        assert_eq!(lone[0].tokens.len(), 2);
    }
}
