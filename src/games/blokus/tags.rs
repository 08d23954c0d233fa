//! The rules tags: the start position a record's tags set up. `Variant`
//! picks the board (Trigon's triangles, else squares); `Scoring`,
//! `Players`, `Size` and `Corners` are read for it (each refused where it
//! does not apply), then the set-up tags ([`super::setup`], Trigon's in
//! [`super::trigon::setup`]) when the others are valid.

use super::board::Board;
use super::engine::{Scoring, State};
use super::setup::apply;
use super::{Blokus, Position, notation, trigon};
use crate::diag::Diag;
use crate::game::variant_in;
use crate::record::{Tag, Tags};

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
