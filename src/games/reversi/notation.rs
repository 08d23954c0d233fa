//! Reversi notation: squares `a1`..`h8` (case-insensitive), `pass` and its
//! aliases `PA`, `ps`, `--`, and compact transcripts (`f5d6c3`), where each
//! square of the token is its own ply.

use crate::diag::Diag;
use crate::game::{Parsed, ParsedMoves};
use crate::record::Token;
use crate::span::Span;

/// A typed Reversi move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A disc on square `8 * row + column` (`a1` = 0).
    Place(u8),
    Pass,
}

/// `a1`-style name of a square index.
pub fn square_name(sq: u8) -> String {
    let col = char::from(b'a' + sq % 8);
    let row = sq / 8 + 1;
    if row <= 9 {
        // the usual case, without the formatting machinery
        let mut s = String::with_capacity(2);
        s.push(col);
        s.push(char::from(b'0' + row));
        s
    } else {
        format!("{col}{row}")
    }
}

/// The canonical spelling of a move.
pub fn write(mv: Move) -> String {
    match mv {
        Move::Place(sq) => square_name(sq),
        Move::Pass => "pass".to_string(),
    }
}

fn is_pass(text: &str) -> bool {
    ["pass", "pa", "ps", "--"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(text))
}

/// A square from two bytes, `None` when they are not one.
fn square(col: u8, row: u8) -> Option<u8> {
    let col = col.to_ascii_lowercase();
    if (b'a'..=b'h').contains(&col) && (b'1'..=b'8').contains(&row) {
        Some((row - b'1') * 8 + (col - b'a'))
    } else {
        None
    }
}

fn bad_square(text: &str, span: Span) -> Diag {
    Diag::error(
        "reversi::bad_square",
        format!("`{text}` is not a square of the board"),
    )
    .at(span)
    .label("not a square")
    .help("squares are a1 to h8: a column a-h, then a row 1-8; a pass is `pass`")
}

/// Reads the movetext tokens into moves, up to the first malformed one.
pub fn parse(tokens: &[Token], src: &str) -> ParsedMoves<Move> {
    let mut moves = Vec::with_capacity(tokens.len().min(1 << 16));
    for (index, tok) in tokens.iter().enumerate() {
        let text = tok.text(src);
        // the common token first: one square
        if let [c, r] = text.as_bytes() {
            if let Some(sq) = square(*c, *r) {
                moves.push(Parsed {
                    mv: Move::Place(sq),
                    span: tok.span,
                    token: index,
                });
                continue;
            }
        }
        if is_pass(text) {
            moves.push(Parsed {
                mv: Move::Pass,
                span: tok.span,
                token: index,
            });
            continue;
        }
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let at = tok.span.offset + i;
            // A chunk is one letter and the digits after it.
            let digits = bytes
                .get(i + 1..)
                .map_or(0, |r| r.iter().take_while(|b| b.is_ascii_digit()).count());
            let letter = bytes.get(i).copied().filter(u8::is_ascii_alphabetic);
            let sq = match (letter, digits, bytes.get(i + 1)) {
                (Some(c), 1, Some(&r)) => square(c, r),
                _ => None,
            };
            if let Some(sq) = sq {
                moves.push(Parsed {
                    mv: Move::Place(sq),
                    span: Span::new(at, 2),
                    token: index,
                });
                i += 2;
                continue;
            }
            let len = if letter.is_some() && digits > 0 {
                1 + digits
            } else {
                bytes.len() - i
            };
            let span = Span::new(at, len);
            return ParsedMoves {
                moves,
                error: Some(bad_square(span.text(src), span)),
            };
        }
    }
    ParsedMoves { moves, error: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    fn read(src: &str) -> (Vec<String>, Option<String>) {
        let games = parse_file(src);
        let g = &games[0];
        let p = parse(&g.tokens, src);
        (
            p.moves.iter().map(|m| write(m.mv)).collect(),
            p.error
                .map(|d| d.span.unwrap_or_default().text(src).to_string()),
        )
    }

    #[test]
    fn squares_passes_compact() {
        assert_eq!(
            read("F5 d6 PA -- ps Pass").0,
            ["f5", "d6", "pass", "pass", "pass", "pass"]
        );
        assert_eq!(read("f5D6c3").0, ["f5", "d6", "c3"]);
        assert_eq!(read("a1 h8").0, ["a1", "h8"]);
    }

    #[test]
    fn malformed_squares_blame_their_own_span() {
        assert_eq!(
            read("f5 i9 d6"),
            (vec!["f5".to_string()], Some("i9".to_string()))
        );
        assert_eq!(read("f5d6x3c3").1.as_deref(), Some("x3"));
        assert_eq!(read("f5d").1.as_deref(), Some("d"));
        assert_eq!(read("f5 d10").1.as_deref(), Some("d10"));
        assert_eq!(read("f5 é4").1.as_deref(), Some("é4"));
    }
}
