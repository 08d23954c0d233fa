//! Othello board files (`.obf`), the positions engine authors exchange
//! (Edax's `problem/fforum-*.obf`, the FFO endgame tests): one position per
//! line, its board, the side to move and the moves with their scores.
//!
//! ```text
//! --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;
//! ```
//!
//! Each line is one Reversi record with no moves; the text is the file
//! itself, so spans point into it:
//! - the 64 cells from `a1` row by row and the side to move are the game's
//!   `Setup` tag, written as the Reversi notation defines it (`X` black,
//!   `O` white, `-` empty, then ` b` or ` w`); its span is the board and
//!   the side in the line;
//! - the fields after the side, each ended by `;`, are the `MoveScores` tag,
//!   kept as written (`G8:+18; H1:+12; H7:+6;`), its span the fields in the
//!   line: a move, `:` and the move's score (the final disc difference for
//!   the side to move when both sides then play perfectly, the empty squares
//!   going to the winner), or a score alone (the position's score, which
//!   Edax writes for a position without moves). The replay checks that each
//!   listed move is legal in the position and, with `validate
//!   --check-scores`, its score by the exact endgame search (Reversi's
//!   module docs, `MoveScores`);
//! - the text after a `%` is the game's comment;
//! - a `Game "reversi"` tag is synthesized at the start of the line.
//!
//! A line ends at LF, CRLF or a lone CR. Blank lines and lines whose first
//! character that is not blank is `%` (Edax's comment lines) are skipped.
//!
//! Decisions, following Edax (`obf_read` in `src/obftest.c`, `parse_board`
//! and `parse_move` in `src/util.c`) where it reads a line the same way:
//! - a cell is `X`, `B` or `*` (black), `O` or `W` (white), `-` or `.`
//!   (empty), in either case; white space between cells is skipped, as Edax
//!   skips it;
//! - the side to move is the next character that is not blank, `X`, `B` or
//!   `*` for black, `O` or `W` for white; Edax skips any other character
//!   looking for one, gamerec refuses it (`reversi::bad_setup` at that
//!   character), so that a line without a side is not read from a move's
//!   letter further on;
//! - only blanks may stand between the side and the first `;` (or the end
//!   of the line, for a position without fields); anything else is
//!   `reversi::bad_setup` too;
//! - a board with fewer than 64 cells, or a character that is not a cell,
//!   is `reversi::bad_setup` at that character (Edax skips the line; gamerec
//!   says why). The game stops at its tags, as for any error in a rules tag;
//! - Edax stops reading a line's fields at the first move that is not legal
//!   in the position; gamerec reads them all and reports each such move
//!   (the engine's own codes: `reversi::no_flip`, `reversi::occupied`,
//!   `reversi::bad_square`, `reversi::illegal_pass`) at its span;
//! - a `%` in a line starts a comment to its end (Edax writes a position's
//!   comment after ` % `).
//!
//! Writing: `convert` writes the records as gamerec text (or JSON, YAML):
//! the `Setup` and `MoveScores` tags and the comment keep all of a line.

use super::transcript::{game_tag, lines};
use crate::diag::Diag;
use crate::record::{RawGame, Tag, Tags};
use crate::span::Span;

/// The help of a malformed board or side.
const BOARD_HELP: &str = "64 cells from a1 row by row (X, B or * black, O or W white, - or . empty), then the side to move (X or O), then the moves with their scores, each ended by `;`";

/// What a line's board and side read as: the cells (`X`, `O`, `-`) and the
/// side (`b`, `w`), or the error at the character that is wrong.
fn board(line: &str, at: usize) -> Result<(String, char, usize), Diag> {
    let mut cells = String::with_capacity(64);
    let mut chars = line.char_indices().peekable();
    let bad = |i: usize, c: char, why: String| {
        Diag::error("reversi::bad_setup", format!("bad board: {why}"))
            .at(Span::new(at + i, c.len_utf8()))
            .label(why)
            .help(BOARD_HELP)
    };
    while cells.len() < 64 {
        let Some((i, c)) = chars.next() else {
            let n = cells.len();
            let why = format!(
                "{} instead of 64",
                crate::diag::plural(n, "cell", "cells")
            );
            let end = line.trim_end().len();
            return Err(Diag::error("reversi::bad_setup", format!("bad board: {why}"))
                .at(Span::new(at, end))
                .label(why)
                .help(BOARD_HELP));
        };
        let cell = match c.to_ascii_lowercase() {
            'x' | 'b' | '*' => 'X',
            'o' | 'w' => 'O',
            '-' | '.' => '-',
            c if c.is_whitespace() => continue,
            _ => {
                let n = cells.len();
                let name = format!("{}{}", char::from(b'a' + (n % 8) as u8), n / 8 + 1);
                let why = if c == ';' || c == '%' {
                    format!(
                        "the board ends at {name}, after {} instead of 64",
                        crate::diag::plural(cells.len(), "cell", "cells")
                    )
                } else {
                    format!("cell {name} (`{c}`) is not X, B, *, O, W, - or .")
                };
                return Err(bad(i, c, why));
            }
        };
        cells.push(cell);
    }
    // the side to move: the next character that is not blank
    let side = chars.find(|(_, c)| !c.is_whitespace());
    let (i, side) = match side {
        Some((i, c)) => match c.to_ascii_lowercase() {
            'x' | 'b' | '*' => (i, 'b'),
            'o' | 'w' => (i, 'w'),
            _ => {
                return Err(bad(
                    i,
                    c,
                    format!("the side to move is `{c}`, not X or O"),
                ));
            }
        },
        None => {
            let end = line.trim_end().len();
            return Err(Diag::error(
                "reversi::bad_setup",
                "bad board: no side to move after the 64 cells",
            )
            .at(Span::new(at + end, 0))
            .label("the side to move (X or O) is missing here")
            .help(BOARD_HELP));
        }
    };
    let end = i + 1;
    // blanks only, up to the first `;` (or the end, or a comment)
    let rest = line.get(end..).unwrap_or("");
    if let Some((j, c)) = rest
        .char_indices()
        .find(|&(_, c)| !c.is_whitespace())
        .filter(|&(_, c)| c != ';' && c != '%')
    {
        return Err(bad(
            end + j,
            c,
            format!("`{c}` after the side to move, where `;` ends the board"),
        ));
    }
    Ok((cells, side, end))
}

/// Whether the first line of a text that is not blank or a `%` comment is
/// an `.obf` position (the content detection of [`super::detect`]).
pub fn looks_like(text: &str) -> bool {
    lines(text)
        .map(|(_, l)| l)
        .find(|l| {
            let t = l.trim_start();
            !t.is_empty() && !t.starts_with('%')
        })
        .is_some_and(|l| board(l, 0).is_ok())
}

/// The games of a text of whole lines (see the module docs).
pub fn read(text: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    for (at, line) in lines(text) {
        let lead = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('%') {
            continue;
        }
        games.push(position(line, at, lead));
    }
    games
}

/// One line's game: `line` stands at `at` in the text, its first `lead`
/// bytes blank.
fn position(line: &str, at: usize, lead: usize) -> RawGame {
    // a comment runs from a `%` to the end of the line
    let (body, comment) = match line.find('%') {
        Some(i) => (
            line.get(..i).unwrap_or(""),
            Some(line.get(i + 1..).unwrap_or("").trim().to_string()),
        ),
        None => (line, None),
    };
    let start = at + lead;
    let body_from = body.get(lead..).unwrap_or("");
    let mut tags = vec![game_tag(Span::new(start, 0))];
    let mut tag_errors = Vec::new();
    // the board and the side run to the first `;`, the fields after it
    let (head, fields) = match body_from.find(';') {
        Some(i) => (
            body_from.get(..i).unwrap_or(""),
            Some((i + 1, body_from.get(i + 1..).unwrap_or(""))),
        ),
        None => (body_from, None),
    };
    match board(body_from, start) {
        Ok((cells, side, end)) => {
            let span = Span::new(start, end);
            tags.push(Tag {
                name: "Setup".into(),
                value: format!("{cells} {side}"),
                span,
                value_span: span,
            });
        }
        Err(d) => {
            // the board as written is the Setup tag: the error inside it
            // stops the game at its tags
            let text = head.trim_end();
            let span = Span::new(start, text.len());
            tags.push(Tag {
                name: "Setup".into(),
                value: text.to_string(),
                span,
                value_span: span,
            });
            tag_errors.push(d);
        }
    }
    // the fields as written
    if let Some((from, fields)) = fields {
        let lead = fields.len() - fields.trim_start().len();
        let value = fields.trim();
        if !value.is_empty() {
            let span = Span::new(start + from + lead, value.len());
            tags.push(Tag {
                name: "MoveScores".into(),
                value: value.to_string(),
                span,
                value_span: span,
            });
        }
    }
    RawGame {
        tags: Tags(tags),
        tag_errors,
        comment: comment.filter(|c| !c.is_empty()),
        span: Span::new(start, line.trim().len()),
        ..RawGame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";

    #[test]
    fn a_line_is_a_setup_and_its_move_scores() {
        let text = format!("% FFO\n\n{FIRST}\r\n");
        let games = read(&text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        let setup = g.tags.get("Setup").unwrap();
        assert_eq!(
            setup.value,
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- b"
        );
        assert_eq!(setup.value_span.text(&text), FIRST.get(..66).unwrap());
        let scores = g.tags.get("MoveScores").unwrap();
        assert_eq!(scores.value, "G8:+18; H1:+12; H7:+6;");
        assert_eq!(scores.value_span.text(&text), scores.value);
        assert!(g.tag_errors.is_empty());
    }

    #[test]
    fn cells_as_edax_reads_them_and_comments() {
        let board = "bw..".repeat(16);
        let text = format!("{} {} o % a comment\n", &board[..32], &board[32..]);
        let games = read(&text);
        let g = &games[0];
        assert!(g.tag_errors.is_empty(), "{:?}", g.tag_errors);
        let v = &g.tags.get("Setup").unwrap().value;
        assert_eq!(v, &format!("{} w", "XO--".repeat(16)));
        assert!(g.tags.get("MoveScores").is_none());
        assert_eq!(g.comment.as_deref(), Some("a comment"));
    }

    #[test]
    fn bad_boards_are_blamed_at_the_character() {
        let text = format!("{}Z{} X;\n", "-".repeat(10), "-".repeat(53));
        let g = &read(&text)[0];
        let d = &g.tag_errors[0];
        assert_eq!(d.code, "reversi::bad_setup");
        assert_eq!(d.span.unwrap().text(&text), "Z");
        let text = format!("{} Q; A1:+2;\n", "-".repeat(64));
        let d = &read(&text)[0].tag_errors[0];
        assert_eq!(d.span.unwrap().text(&text), "Q");
        let text = format!("{} X G8:+2;\n", "-".repeat(64));
        let d = &read(&text)[0].tag_errors[0];
        assert_eq!(d.span.unwrap().text(&text), "G");
        let short = format!("{} X;\n", "-".repeat(60));
        // the side is read as the 61st cell: the board ends at the `;`
        let d = &read(&short)[0].tag_errors[0];
        assert!(d.message.contains("61 cells"), "{}", d.message);
        assert_eq!(d.span.unwrap().text(&short), ";");
        let d = &read(&"-".repeat(64))[0].tag_errors[0];
        assert!(d.message.contains("no side"), "{}", d.message);
        assert!(looks_like(FIRST));
        assert!(!looks_like("f5d6c3\n"));
        assert!(!looks_like("[Game \"reversi\"]\n"));
    }
}
