//! Reversi notation: squares `a1`..`h8` (case-insensitive; up to `p16` on
//! a 16x16 board), `pass` and its aliases `PA`, `ps`, `--`, and compact
//! transcripts (`f5d6c3`, `j10a9`), where each square of the token is its
//! own ply. The notation learns the board's size, not the position.

use super::Reversi;
use super::engine::{Move, Square, State};
use crate::diag::Diag;
use crate::game::{Notation, Parsed, ParsedMoves};
use crate::record::Token;
use crate::span::Span;

impl Notation for Reversi {
    type Spans = ();

    /// The board's size is all the notation learns of the start.
    fn parse_moves_into(
        start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move>>,
    ) -> Option<Diag> {
        parse_sized_into(tokens, src, start.size(), moves)
    }

    fn write_move(mv: &Move) -> String {
        write(*mv)
    }
}

/// `a1`-style name of a square `16 * row + column` of a board of any size.
pub fn sized_name(sq: u8) -> String {
    let col = char::from(b'a' + sq % 16);
    format!("{col}{}", sq / 16 + 1)
}

/// `a1`-style name of a square by row and column, on a board of any size.
pub fn square_text(sq: Square) -> String {
    format!(
        "{}{}",
        char::from(b'a' + sq.col % 26),
        u32::from(sq.row) + 1
    )
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
        Move::At(sq) => sized_name(sq),
        Move::Pass => "pass".to_string(),
    }
}

fn is_pass(text: &str) -> bool {
    ["pass", "pa", "ps", "--"]
        .iter()
        .any(|p| p.eq_ignore_ascii_case(text))
}

/// `COLUMN[b]`: the column of a letter `a`..`h` or `A`..`H`, `0x80` for
/// any other byte.
static COLUMN: [u8; 256] = {
    let mut t = [0x80u8; 256];
    let mut c = 0;
    while c < 8 {
        t[b'a' as usize + c] = c as u8;
        t[b'A' as usize + c] = c as u8;
        c += 1;
    }
    t
};

/// `ROW[b]`: 8 times the row of a digit `1`..`8`, `0x80` for any other byte.
static ROW: [u8; 256] = {
    let mut t = [0x80u8; 256];
    let mut r = 0;
    while r < 8 {
        t[b'1' as usize + r] = 8 * r as u8;
        r += 1;
    }
    t
};

/// A square from two bytes on the 8x8 board, `None` when they are not one:
/// a table lookup per byte.
#[inline]
fn square(col: u8, row: u8) -> Option<u8> {
    let col = COLUMN.get(usize::from(col)).copied().unwrap_or(0x80);
    let row = ROW.get(usize::from(row)).copied().unwrap_or(0x80);
    let sq = col | row;
    (sq & 0x80 == 0).then_some(sq)
}

/// Reads the run of tokens that are one 8x8 square each (the common
/// movetext) from the start of `tokens`, `first` being the index of
/// `tokens[0]`; returns how many it read. A chunk of tokens is read into
/// squares first, then its moves are added in one `extend` of known length
/// (no capacity check per move). Out of line, so the loops keep their
/// values in registers.
#[inline(never)]
fn eight_squares(
    tokens: &[Token],
    src: &[u8],
    first: usize,
    moves: &mut Vec<Parsed<Move>>,
) -> usize {
    const CHUNK: usize = 64;
    let mut squares = [0u8; CHUNK];
    let mut done = 0;
    while let Some(rest) = tokens.get(done..)
        && !rest.is_empty()
    {
        let chunk = rest.get(..CHUNK).unwrap_or(rest);
        let mut n = 0;
        for (tok, slot) in chunk.iter().zip(squares.iter_mut()) {
            let span = tok.span;
            let sq = match src.get(span.offset..).and_then(<[u8]>::first_chunk) {
                Some(&[c, r]) if span.length == 2 => square(c, r),
                _ => None,
            };
            let Some(sq) = sq else {
                break;
            };
            *slot = sq;
            n += 1;
        }
        let at = first + done;
        let read = squares.get(..n).unwrap_or(&[]);
        moves.extend(
            read.iter()
                .zip(chunk)
                .enumerate()
                .map(|(k, (&sq, tok))| Parsed {
                    mv: Move::Place(sq),
                    span: tok.span,
                    token: at + k,
                    parts: Default::default(),
                }),
        );
        done += n;
        if n < chunk.len() {
            break;
        }
    }
    done
}

/// A square from a letter and the digits after it on an NxN board.
fn sized_square(size: u8, col: u8, digits: &[u8]) -> Option<Move> {
    if size == 8 {
        return match digits {
            [r] => square(col, *r).map(Move::Place),
            _ => None,
        };
    }
    let col = col.to_ascii_lowercase().checked_sub(b'a')?;
    let row = match digits {
        [d @ b'1'..=b'9'] => d - b'0',
        [b'1', d @ b'0'..=b'9'] => 10 + (d - b'0'),
        _ => return None,
    };
    (col < size && (1..=size).contains(&row)).then(|| Move::At((row - 1) * 16 + col))
}

fn bad_square(text: &str, span: Span, size: u8) -> Diag {
    let last_col = char::from(b'a' + size.clamp(1, 26) - 1);
    Diag::error(
        "reversi::bad_square",
        format!("`{text}` is not a square of the board"),
    )
    .at(span)
    .label("not a square")
    .help(format!(
        "squares are a1 to {last_col}{size}: a column a-{last_col}, then a row 1-{size}; a pass is `pass`"
    ))
}

/// Reads the movetext tokens into moves of the 8x8 board, up to the first
/// malformed one.
pub fn parse(tokens: &[Token], src: &str) -> ParsedMoves<Move> {
    parse_sized(tokens, src, 8)
}

/// Reads the movetext tokens into moves of an NxN board, up to the first
/// malformed one (a square off the board is malformed).
pub fn parse_sized(tokens: &[Token], src: &str, size: u8) -> ParsedMoves<Move> {
    ParsedMoves::read(|moves| parse_sized_into(tokens, src, size, moves))
}

/// [`parse_sized`] into `moves` (emptied first, its room reused): the
/// notation error after the moves read, if any.
pub fn parse_sized_into(
    tokens: &[Token],
    src: &str,
    size: u8,
    moves: &mut Vec<Parsed<Move>>,
) -> Option<Diag> {
    moves.clear();
    moves.reserve(tokens.len().min(1 << 16));
    let mut next = 0;
    loop {
        if size == 8 {
            // the common tokens first: one square each, read from two bytes
            let rest = tokens.get(next..).unwrap_or(&[]);
            next += eight_squares(rest, src.as_bytes(), next, moves);
        }
        let index = next;
        let Some(tok) = tokens.get(index) else {
            break;
        };
        next += 1;
        // one square of another size, from its two bytes
        if size != 8
            && let Some(&[c, r]) = src.as_bytes().get(tok.span.offset..tok.span.end())
            && let Some(mv) = sized_square(size, c, &[r])
        {
            moves.push(Parsed {
                mv,
                span: tok.span,
                token: index,
                parts: Default::default(),
            });
            continue;
        }
        let text = tok.text(src);
        if is_pass(text) {
            moves.push(Parsed {
                mv: Move::Pass,
                span: tok.span,
                token: index,
                parts: Default::default(),
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
            let sq = match (letter, bytes.get(i + 1..i + 1 + digits)) {
                (Some(c), Some(d)) if digits > 0 => sized_square(size, c, d),
                _ => None,
            };
            if let Some(mv) = sq {
                moves.push(Parsed {
                    mv,
                    span: Span::new(at, 1 + digits),
                    token: index,
                    parts: Default::default(),
                });
                i += 1 + digits;
                continue;
            }
            let len = if letter.is_some() && digits > 0 {
                1 + digits
            } else {
                bytes.len() - i
            };
            let span = Span::new(at, len);
            return Some(bad_square(span.text(src), span, size));
        }
    }
    None
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

    fn read_sized(src: &str, size: u8) -> (Vec<String>, Option<String>) {
        let games = parse_file(src);
        let g = &games[0];
        let p = parse_sized(&g.tokens, src, size);
        (
            p.moves.iter().map(|m| write(m.mv)).collect(),
            p.error
                .map(|d| d.span.unwrap_or_default().text(src).to_string()),
        )
    }

    #[test]
    fn other_sizes() {
        assert_eq!(
            read_sized("j10 A1 p16 pass", 16).0,
            ["j10", "a1", "p16", "pass"]
        );
        assert_eq!(read_sized("j10a9b10c1", 10).0, ["j10", "a9", "b10", "c1"]);
        assert_eq!(read_sized("c3 f6 g1", 6).1.as_deref(), Some("g1"));
        assert_eq!(read_sized("c3 a7", 6).1.as_deref(), Some("a7"));
        assert_eq!(read_sized("c3 a0", 6).1.as_deref(), Some("a0"));
        assert_eq!(read_sized("k1", 10).1.as_deref(), Some("k1"));
        assert_eq!(read_sized("a11", 10).1.as_deref(), Some("a11"));
        assert_eq!(read_sized("a17", 16).1.as_deref(), Some("a17"));
        assert_eq!(read_sized("c3d10x", 10).1.as_deref(), Some("x"));
        assert_eq!(read_sized("a010", 10).1.as_deref(), Some("a010"));
        // any byte after a letter, not only digits
        for text in ["a!", "b/", "c:", "\u{7f}1", "a1\u{0}"] {
            assert!(read_sized(text, 10).1.is_some(), "{text}");
        }
    }
}
