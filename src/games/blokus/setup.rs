//! Set-up positions: `[SetupBlue "..."]` .. `[SetupGreen "..."]` (classic)
//! or `[SetupPurple "..."]`/`[SetupOrange "..."]` (Duo) put pieces of that
//! colour on the board before the first move; `[First "red"]` names the
//! colour that moves first.
//!
//! A setup value is placements separated by white space, each written as a
//! move (`V3:a20,a19,b19`, the name optional). Each must form one of the 21
//! pieces (the notation's own errors), lie on the board, cover no square
//! already set up, and use a piece at most once per colour (`bad_tags`).
//! The placement rules (start square, corner and edge contact) do not apply.

use super::board::Board;
use super::notation;
use super::pieces;
use super::trigon;
use crate::diag::Diag;
use crate::record::{Tag, Tags};
use crate::span::Span;

/// The setup tag of each classic colour, then Duo's two.
pub const CLASSIC_TAGS: [&str; 4] = ["SetupBlue", "SetupYellow", "SetupRed", "SetupGreen"];
pub const DUO_TAGS: [&str; 2] = ["SetupPurple", "SetupOrange"];
/// The tag naming the colour to move first.
pub const FIRST: &str = "First";

/// The setup tag of colour `c` (`None` past the variant's colours).
pub fn tag_name(duo: bool, c: u8) -> Option<&'static str> {
    let names: &[&'static str] = if duo { &DUO_TAGS } else { &CLASSIC_TAGS };
    names.get(usize::from(c)).copied()
}

fn bad(span: Span, message: String, label: &str, help: &str) -> Diag {
    Diag::error("blokus::bad_tags", message)
        .at(span)
        .label(label.to_string())
        .help(help.to_string())
}
/// The items of a value separated by white space, with their byte offsets.
pub(crate) fn items(value: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in value.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, value.get(s..i).unwrap_or("")));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, value.get(s..).unwrap_or("")));
    }
    out
}

/// Where the value's text starts in the source, when the value is its text
/// (no escapes): after the opening quote of a gamerec tag, or at the value of
/// a synthesised tag.
pub(crate) fn value_start(tag: &Tag) -> Option<usize> {
    let (len, span) = (tag.value.len(), tag.value_span);
    let synthesised = tag.span == span;
    if !synthesised && span.length == len + 2 {
        Some(span.offset + 1)
    } else if synthesised && span.length == len {
        Some(span.offset)
    } else {
        None
    }
}

/// Puts one setup tag's pieces of colour `c` on the board; the first error.
fn apply_tag(board: &mut Board, c: u8, colour: &str, tag: &Tag) -> Result<(), Diag> {
    let start = value_start(tag);
    let whole = tag.value_span;
    let help = "write the pieces as moves separated by spaces, e.g. [SetupBlue \"V3:a20,a19,b19 I2:c17,c18\"]";
    let size = board.size;
    for (off, item) in items(&tag.value) {
        let span = start.map_or(whole, |s| Span::new(s + off, item.len()));
        if item.eq_ignore_ascii_case("pass") {
            return Err(bad(
                span,
                "a pass is not a set-up piece".into(),
                "not a placement",
                help,
            ));
        }
        let (place, spans) = match notation::placement(item, span.offset, span) {
            Ok(p) => p,
            Err(mut d) => {
                if start.is_none() {
                    d.span = Some(whole);
                }
                return Err(d);
            }
        };
        let at = |cell: &notation::Cell| if start.is_some() { cell.span } else { whole };
        if let Some(cell) = spans.cells(&place, span).find(|x| x.col >= size || x.row >= size) {
            return Err(bad(
                at(&cell),
                format!(
                    "set-up square {} is off the {size}x{size} board",
                    notation::square_name(cell.col, cell.row)
                ),
                "not on the board",
                &format!(
                    "squares run from a1 to {}",
                    notation::square_name(size - 1, size - 1)
                ),
            ));
        }
        let piece = place.piece;
        let used = board.placed.used.get(usize::from(c)).copied().unwrap_or(0);
        if used & (1 << piece) != 0 {
            return Err(bad(
                span,
                format!("{colour}'s {} is set up twice", pieces::label(piece)),
                "piece already set up",
                "each colour has one piece of each shape",
            ));
        }
        if let Some((cell, o)) = spans
            .cells(&place, span)
            .find_map(|x| board.at(x.col, x.row).map(|o| (x, o)))
        {
            let other = board_colour(board, o);
            return Err(bad(
                at(&cell),
                format!(
                    "set-up square {} is already covered by {other}",
                    notation::square_name(cell.col, cell.row)
                ),
                "covered twice",
                "set-up pieces may not overlap",
            ));
        }
        board.put(c, Board::place_of(&place));
    }
    Ok(())
}

fn board_colour(board: &Board, c: u8) -> &'static str {
    let names: &[&'static str] = if board.placed.colours == 2 {
        &["purple", "orange"]
    } else {
        &["blue", "yellow", "red", "green"]
    };
    names.get(usize::from(c)).copied().unwrap_or("?")
}

/// Applies the setup tags and `First` to an empty board of the variant;
/// every error found (at most one per tag).
pub fn apply(board: &mut Board, duo: bool, tags: &Tags) -> Vec<Diag> {
    let mut errors = Vec::new();
    let (mine, others): (&[&str], &[&str]) = if duo {
        (&DUO_TAGS, &CLASSIC_TAGS)
    } else {
        (&CLASSIC_TAGS, &DUO_TAGS)
    };
    for name in others {
        if let Some(t) = tags.get(name) {
            errors.push(bad(
                t.span,
                format!(
                    "the `{name}` tag does not apply to {}",
                    if duo { "Blokus Duo" } else { "classic Blokus" }
                ),
                "not a colour of this game",
                &format!("this game's setup tags: {}", mine.join(", ")),
            ));
        }
    }
    for (c, name) in mine.iter().enumerate() {
        let Some(t) = tags.get(name) else { continue };
        let c = c as u8;
        if let Err(d) = apply_tag(board, c, board_colour(board, c), t) {
            errors.push(d);
        }
    }
    if let Some(t) = tags.get(FIRST) {
        let wanted = t.value.trim();
        let found =
            (0..board.placed.colours).find(|&c| board_colour(board, c).eq_ignore_ascii_case(wanted));
        match found {
            Some(c) => board.to_move = c,
            None => {
                let names: Vec<&str> = (0..board.placed.colours).map(|c| board_colour(board, c)).collect();
                errors.push(bad(
                    t.value_span,
                    format!("`{wanted}` is not a colour of this game"),
                    "not a colour",
                    &format!("the colours: {}", names.join(", ")),
                ));
            }
        }
    }
    errors
}

/// The squares (or Trigon triangles) of each placement in a setup value,
/// sorted from `a1` row by row, the piece name left out (Pentobi's
/// spelling). An item that is not
/// squares is kept as written.
pub fn squares_sorted(value: &str) -> Vec<String> {
    items(value)
        .into_iter()
        .map(|(_, item)| {
            let squares = item.rsplit(':').next().unwrap_or("");
            // Trigon's names include classic's (`a`..`z`, then `aa`..).
            let parsed: Option<Vec<(u8, u8)>> = squares
                .split(',')
                .map(trigon::notation::parse_triangle)
                .collect();
            match parsed {
                Some(mut sq) => {
                    sq.sort_by_key(|&(col, row)| (row, col));
                    let names: Vec<String> = sq
                        .iter()
                        .map(|&(col, row)| trigon::notation::triangle_name(col, row))
                        .collect();
                    names.join(",")
                }
                None => item.to_string(),
            }
        })
        .collect()
}
