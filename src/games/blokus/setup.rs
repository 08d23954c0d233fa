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
use super::engine::{Scoring, State};
use super::notation;
use super::pieces;
use super::{Blokus, Position, trigon};
use crate::diag::Diag;
use crate::game::variant_in;
use crate::record::{Tag, Tags};
use crate::span::Span;

/// Classic's colours, as `Corners` names them.
const COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];

/// The start position a record's tags set up: the variant picks the board
/// (Trigon's triangles, else squares), then the rules tags and the setup
/// tags are read (the setup tags only when the others are valid).
pub fn start(tags: &Tags) -> Result<Position, Vec<Diag>> {
    let mut errors = Vec::new();
    let variant = variant_in::<Blokus>(tags, &mut errors);
    let scoring = scoring(tags, &mut errors);
    let position = match variant {
        2 => Position::Triangles(start_trigon(tags, scoring, &mut errors)),
        1 => Position::Squares(start_duo(tags, scoring, &mut errors)),
        _ => Position::Squares(start_classic(tags, scoring, &mut errors)),
    };
    if errors.is_empty() {
        Ok(position)
    } else {
        Err(errors)
    }
}

/// The `Scoring` tag (default `basic`).
fn scoring(tags: &Tags, errors: &mut Vec<Diag>) -> Scoring {
    let Some(t) = tags.get("Scoring") else {
        return Scoring::Basic;
    };
    match t.value.trim().to_ascii_lowercase().as_str() {
        "basic" => Scoring::Basic,
        "official" => Scoring::Official,
        "pentobi" => Scoring::Pentobi,
        _ => {
            errors.push(bad_value(
                t,
                format!("unknown scoring `{}`", t.value),
                "not a scoring",
                "scorings: basic, official, pentobi",
            ));
            Scoring::Basic
        }
    }
}

/// The `Players` tag (default 4); `game` names the game in the help line.
fn players(tags: &Tags, game: &str, errors: &mut Vec<Diag>) -> u8 {
    let Some(t) = tags.get("Players") else {
        return 4;
    };
    match t.value.trim() {
        "2" => 2,
        "3" => 3,
        "4" => 4,
        _ => {
            errors.push(bad_value(
                t,
                format!("`{}` is not a number of players (2, 3 or 4)", t.value),
                "bad number of players",
                &format!("{game} is played by 2, 3 or 4 players"),
            ));
            4
        }
    }
}

/// `bad_tags` for each of `names` present: tags of other variants.
fn refuse(
    tags: &Tags,
    names: &[&str],
    what: &str,
    label: &str,
    help: &str,
    errors: &mut Vec<Diag>,
) {
    for name in names {
        if let Some(t) = tags.get(name) {
            errors.push(
                Diag::error(
                    "blokus::bad_tags",
                    format!("the `{name}` tag does not apply to {what}"),
                )
                .at(t.span)
                .label(label.to_string())
                .help(help.to_string()),
            );
        }
    }
}

fn start_trigon(
    tags: &Tags,
    scoring: Scoring,
    errors: &mut Vec<Diag>,
) -> State<trigon::board::Board> {
    refuse(
        tags,
        &["Size", "Corners"],
        "Blokus Trigon",
        "square boards only",
        "Trigon's board is the hexagon of edge 9 (edge 8 with [Players \"3\"]) and its six starting points are shared; remove this tag",
        errors,
    );
    let players = players(tags, "Blokus Trigon", errors);
    let mut board = trigon::board::Board::new(players == 3);
    if errors.is_empty() {
        *errors = trigon::setup::apply(&mut board, tags);
    }
    State::new(board, false, players, scoring)
}

fn start_duo(tags: &Tags, scoring: Scoring, errors: &mut Vec<Diag>) -> State<Board> {
    refuse(
        tags,
        &["Size", "Players", "Corners"],
        "Blokus Duo",
        "classic only",
        "Duo is always 14x14, two players, purple from e10 and orange from j5; remove this tag or play classic",
        errors,
    );
    let mut board = Board::duo();
    if errors.is_empty() {
        *errors = apply(&mut board, true, tags);
    }
    State::new(board, true, 2, scoring)
}

fn start_classic(tags: &Tags, scoring: Scoring, errors: &mut Vec<Diag>) -> State<Board> {
    let mut size = 20u8;
    if let Some(t) = tags.get("Size") {
        match t.value.trim().parse::<u8>() {
            Ok(n) if (5..=26).contains(&n) => size = n,
            _ => errors.push(bad_value(
                t,
                format!("`{}` is not a board size from 5 to 26", t.value),
                "bad size",
                "write the side of the square board, e.g. [Size \"14\"]",
            )),
        }
    }
    let players = players(tags, "classic Blokus", errors);
    let m = size - 1;
    let mut start = [(0, m), (0, 0), (m, 0), (m, m)];
    if let Some(t) = tags.get("Corners") {
        match parse_corners(t, size) {
            Ok(s) => start = s,
            Err(d) => errors.push(d),
        }
    }
    let mut board = Board::new(size, 4, start);
    if errors.is_empty() {
        *errors = apply(&mut board, false, tags);
    }
    State::new(board, false, players, scoring)
}

fn bad_value(tag: &Tag, message: String, label: &str, help: &str) -> Diag {
    Diag::error("blokus::bad_tags", message)
        .at(tag.value_span)
        .label(label.to_string())
        .help(help.to_string())
}

/// One `Corners` entry, `colour square`: the colour's index and its corner.
fn corner_entry(tag: &Tag, item: &str, size: u8, help: &str) -> Result<(usize, (u8, u8)), Diag> {
    let m = size - 1;
    let corners = [(0, 0), (0, m), (m, 0), (m, m)];
    let mut words = item.split_whitespace();
    let (Some(colour), Some(square), None) = (words.next(), words.next(), words.next()) else {
        return Err(bad_value(
            tag,
            format!("`{}` is not a colour and a square", item.trim()),
            "bad Corners entry",
            help,
        ));
    };
    let Some(c) = COLOURS.iter().position(|n| n.eq_ignore_ascii_case(colour)) else {
        return Err(bad_value(
            tag,
            format!("`{colour}` is not a colour (blue, yellow, red, green)"),
            "bad colour",
            help,
        ));
    };
    let sq = notation::parse_square(square)
        .filter(|&(x, y)| x < size && y < size)
        .filter(|sq| corners.contains(sq));
    let Some(sq) = sq else {
        let n = notation::square_name(m, m);
        return Err(bad_value(
            tag,
            format!("`{square}` is not a corner of the {size}x{size} board"),
            "not a corner",
            &format!(
                "the corners are a1, a{size}, {}, {n}",
                notation::square_name(m, 0)
            ),
        ));
    };
    Ok((c, sq))
}

/// Reads a `Corners` value into starting squares per colour.
fn parse_corners(tag: &Tag, size: u8) -> Result<[(u8, u8); 4], Diag> {
    let help = "write each colour and its corner, e.g. [Corners \"blue a20, yellow t20, red t1, green a1\"]";
    let mut start: [Option<(u8, u8)>; 4] = [None; 4];
    for item in tag.value.split(',') {
        let (c, sq) = corner_entry(tag, item, size, help)?;
        let slot = start.get_mut(c);
        match slot {
            Some(Some(_)) => {
                return Err(bad_value(
                    tag,
                    format!("{} is given two corners", COLOURS.get(c).unwrap_or(&"?")),
                    "colour repeated",
                    help,
                ));
            }
            Some(s) => *s = Some(sq),
            None => {}
        }
    }
    let mut out = [(0, 0); 4];
    for (c, s) in start.iter().enumerate() {
        let Some(sq) = *s else {
            return Err(bad_value(
                tag,
                format!(
                    "Corners gives no corner to {}",
                    COLOURS.get(c).unwrap_or(&"?")
                ),
                "colour missing",
                help,
            ));
        };
        if out.iter().take(c).any(|&o| o == sq) {
            return Err(bad_value(
                tag,
                format!(
                    "corner {} is given to two colours",
                    notation::square_name(sq.0, sq.1)
                ),
                "corner repeated",
                help,
            ));
        }
        if let Some(o) = out.get_mut(c) {
            *o = sq;
        }
    }
    Ok(out)
}

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
        if let Some(cell) = spans.cells(&place).find(|x| x.col >= size || x.row >= size) {
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
        let used = board.used.get(usize::from(c)).copied().unwrap_or(0);
        if used & (1 << piece) != 0 {
            return Err(bad(
                span,
                format!("{colour}'s {} is set up twice", pieces::label(piece)),
                "piece already set up",
                "each colour has one piece of each shape",
            ));
        }
        if let Some((cell, o)) = spans
            .cells(&place)
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
    let names: &[&'static str] = if board.colours == 2 {
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
            (0..board.colours).find(|&c| board_colour(board, c).eq_ignore_ascii_case(wanted));
        match found {
            Some(c) => board.to_move = c,
            None => {
                let names: Vec<&str> = (0..board.colours).map(|c| board_colour(board, c)).collect();
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
