//! Blokus Trigon, as `../shared/spec/trigon.md` fixes it: `[Game "blokus"]
//! [Variant "trigon"]`.
//!
//! - The board is a hexagon of triangles, edge 9 (486 triangles) with four
//!   colours or two players, edge 8 (384) with `[Players "3"]`. Triangles are
//!   named by column (`a`..`z`, `aa`..) and row from the bottom, as in
//!   Pentobi's files; see [`board`] for the geometry.
//! - Each colour has the 22 polyiamonds of 1 to 6 triangles (110 triangles),
//!   [`pieces`]. A colour's first piece covers one of the six starting points
//!   still empty (they belong to no colour); later pieces touch their own
//!   colour at a corner and never along a side. Passes, the end, the three
//!   scorings and the seats are classic's (`super`), counted in triangles.
//! - Seats: `blue` `yellow` `red` `green` (4 players), `player1` `player2`
//!   (2: blue and red against yellow and green), `blue` `yellow` `red` (3).
//!   `Size` and `Corners` are `bad_tags`; so are `SetupPurple`,
//!   `SetupOrange`, and `SetupGreen` with three players.
//!
//! Layout: [`pieces`] (shapes, orientations), [`board`] (geometry, bit-set
//! engine, perft), [`notation`] (triangle names, shape recognition),
//! [`render`] (terminal, letter rows, SVG). This file holds the Trigon side
//! of the `blokus` rules: judging a move with its diagnostics, set-up tags,
//! help lines, per-move fields.
//!
//! Decisions where the spec is silent:
//! - The same error codes as classic (`not_a_square` for a triangle name or
//!   a triangle off the hexagon, `start_missed` when a first piece covers no
//!   empty starting point). Order of checks in `play`: triangles on the
//!   board, piece already placed, occupied, then the starting point or, for a
//!   later piece, side contact and then corner contact.
//! - A move's JSON fields: `colour`, `seat`, `piece` and `triangles` (names,
//!   sorted by row then column).
//! - `final_position` rows: one string per row, top row first, one
//!   character per column of the 4n-1 columns: a space off the hexagon, `.`
//!   an empty triangle, else the colour's letter.
//! - Set-up tags as classic's (`SetupBlue` ..): pieces written as moves,
//!   checked as notation and for the board, overlap and repeated pieces;
//!   placement rules not applied.

pub mod board;
pub mod notation;
pub mod pieces;
pub mod render;

use super::Placements;
use super::setup;
use super::{Move, State};
use crate::diag::Diag;
use crate::game::Parsed;
use crate::record::{Tag, Tags, Token};
use crate::span::Span;
use board::{Board, Geometry};
use serde_json::{Map, Value, json};

/// Reads movetext for the board `b`.
pub fn parse_into(
    b: &Board,
    tokens: &[Token],
    src: &str,
    moves: &mut Vec<Parsed<Move>>,
) -> Option<Diag> {
    let g = b.geo();
    super::notation::parse_with_into(
        tokens,
        src,
        |text, span| notation::placement(g, text, span.offset, span).map(Move::Tri),
        moves,
    )
}

/// One legal placement for the colour to move, as help text.
pub fn hint(state: &State, b: &Board) -> String {
    let c = b.to_move;
    let g = b.geo();
    match b.one_move(c) {
        Some((p, 1)) => format!(
            "the only legal placement here: {}",
            notation::write_place(g, p)
        ),
        Some((p, n)) => format!(
            "a legal placement here: {} (one of {n})",
            notation::write_place(g, p)
        ),
        None => format!("{} has no legal placement and must pass", state.colour(c)),
    }
}

/// The legal placements of the colour to move, sorted by their text.
pub fn legal_names(b: &Board) -> Vec<String> {
    let g = b.geo();
    let mut names: Vec<String> = b
        .moves(b.to_move)
        .iter()
        .map(|&p| notation::write_place(g, p))
        .collect();
    names.sort();
    names
}

fn name_of(g: &Geometry, i: u16) -> String {
    g.cells
        .get(usize::from(i))
        .map_or_else(|| "?".into(), |&(x, r)| notation::triangle_name(x, r))
}

/// Judges a placement or pass for the colour to move and plays it.
pub fn play(state: &mut State, b: &mut Board, mv: &Parsed<Move>) -> Result<(), Diag> {
    let c = b.to_move;
    let me = state.colour(c);
    let g = b.geo();
    let place = match &mv.mv {
        Move::Pass => {
            if b.has_move(c) {
                return Err(Diag::error(
                    "blokus::illegal_pass",
                    format!("{me} can place a piece and may not pass"),
                )
                .at(mv.span)
                .label("pass while a placement exists")
                .help(hint(state, b)));
            }
            b.pass();
            return Ok(());
        }
        Move::Tri(p) => p,
        Move::Place(_) => {
            return Err(
                Diag::error("blokus::not_a_piece", "a square placement in a Trigon game")
                    .at(mv.span),
            );
        }
    };
    let mut ids = [0u16; pieces::MAX_SIZE];
    for (slot, cell) in ids.iter_mut().zip(place.cells()) {
        match g.at(i32::from(cell.col), i32::from(cell.row)) {
            Some(i) => *slot = i,
            None => {
                let t = notation::triangle_name(cell.col, cell.row);
                return Err(Diag::error(
                    "blokus::not_a_square",
                    format!("{t} is off the edge-{} Trigon board", g.edge),
                )
                .at(cell.span)
                .label("not on the board")
                .help(row_help(g, cell.row)));
            }
        }
    }
    let ids = ids.get(..usize::from(place.n)).unwrap_or(&[]);
    let piece = place.piece;
    let pname = pieces::label(piece);
    let used = b.used.get(usize::from(c)).copied().unwrap_or(0);
    if used & (1 << piece) != 0 {
        let left = super::unplaced(used, pieces::PIECES, pieces::name);
        return Err(super::piece_used(me, &pname, &left, mv.span));
    }
    let taken: Vec<(usize, u8)> = ids
        .iter()
        .enumerate()
        .filter_map(|(k, &i)| b.at(i).map(|o| (k, o)))
        .collect();
    if let Some(&(k, owner)) = taken.first() {
        let what: Vec<String> = taken
            .iter()
            .map(|&(k, o)| {
                let i = ids.get(k).copied().unwrap_or(0);
                format!("{} is occupied by {}", name_of(g, i), state.colour(o))
            })
            .collect();
        let span = place.cells().get(k).map_or(mv.span, |x| x.span);
        return Err(Diag::error("blokus::occupied", what.join(", "))
            .at(span)
            .label(format!("{} is here", state.colour(owner)))
            .help(hint(state, b)));
    }
    if b.first_move(c) {
        if !ids.iter().any(|&i| g.start_bits.has(i)) {
            let free: Vec<String> = g
                .starts
                .iter()
                .filter(|&&s| b.at(s).is_none())
                .map(|&s| name_of(g, s))
                .collect();
            return Err(Diag::error(
                "blokus::start_missed",
                format!("{me}'s first piece must cover a starting point"),
            )
            .at(mv.span)
            .label("covers no starting point")
            .help(format!(
                "starting points still empty: {}; {}",
                free.join(" "),
                hint(state, b)
            )));
        }
    } else {
        let own = &b.occ[usize::from(c) & 3];
        for (k, &i) in ids.iter().enumerate() {
            let nbs = g.edge_nb.get(usize::from(i)).map_or(&[][..], Vec::as_slice);
            if let Some(&o) = nbs.iter().find(|&&o| own.has(o)) {
                let (t, nb) = (name_of(g, i), name_of(g, o));
                let span = place.cells().get(k).map_or(mv.span, |x| x.span);
                return Err(Diag::error(
                    "blokus::edge_contact",
                    format!("{t} shares a side with {me}'s own triangle {nb}"),
                )
                .at(span)
                .label(format!("touches {me} at {nb}"))
                .help(hint(state, b)));
            }
        }
        let corner = ids.iter().any(|&i| {
            g.corner_nb
                .get(usize::from(i))
                .is_some_and(|v| v.iter().any(|&o| own.has(o)))
        });
        if !corner {
            return Err(Diag::error(
                "blokus::no_corner_contact",
                format!("the {pname} touches no {me} triangle at a corner"),
            )
            .at(mv.span)
            .label(format!("no corner contact with {me}"))
            .help(hint(state, b)));
        }
    }
    let Some(id) = g.find_place(ids) else {
        // Every set of on-board triangles forming a piece is a placement.
        return Err(Diag::error("blokus::not_a_piece", "no such placement").at(mv.span));
    };
    b.place(id);
    Ok(())
}

fn row_help(g: &Geometry, row: u8) -> String {
    let span = (0..g.width).filter(|&x| g.at(i32::from(x), i32::from(row)).is_some());
    let (first, last) = (span.clone().min(), span.max());
    match (first, last) {
        (Some(a), Some(z)) => format!(
            "row {} runs from {} to {}",
            u32::from(row) + 1,
            notation::triangle_name(a, row),
            notation::triangle_name(z, row)
        ),
        _ => format!("rows run from 1 to {}", g.height),
    }
}

/// The fields of a move in JSON, given the position before it.
pub fn move_extras(b: &Board, mv: &Move, m: &mut Map<String, Value>) {
    if let Move::Tri(p) = mv {
        let _ = b;
        m.insert("piece".into(), json!(pieces::name(p.piece)));
        let mut cells: Vec<(u8, u8)> = p.cells().iter().map(|c| (c.col, c.row)).collect();
        cells.sort_by_key(|&(x, r)| (r, x));
        let names: Vec<String> = cells
            .iter()
            .map(|&(x, r)| notation::triangle_name(x, r))
            .collect();
        m.insert("triangles".into(), json!(names));
    }
}

/// The set-up tags of a Trigon game, applied to the empty board.
pub fn apply_setup(b: &mut Board, tags: &Tags) -> Vec<Diag> {
    let mut errors = Vec::new();
    let colours = usize::from(b.colours);
    for name in setup::DUO_TAGS
        .iter()
        .chain(setup::CLASSIC_TAGS.get(colours..).unwrap_or(&[]))
    {
        if let Some(t) = tags.get(name) {
            errors.push(
                Diag::error(
                    "blokus::bad_tags",
                    format!("the `{name}` tag names no colour of this Trigon game"),
                )
                .at(t.span)
                .label("not a colour of this game")
                .help(format!(
                    "this game's setup tags: {}",
                    setup::CLASSIC_TAGS.get(..colours).unwrap_or(&[]).join(", ")
                )),
            );
        }
    }
    for (c, name) in setup::CLASSIC_TAGS.iter().take(colours).enumerate() {
        if let Some(t) = tags.get(name) {
            if let Err(d) = setup_tag(b, c as u8, t) {
                errors.push(d);
            }
        }
    }
    if let Some(t) = tags.get(setup::FIRST) {
        let wanted = t.value.trim();
        let names = ["blue", "yellow", "red", "green"];
        match names
            .iter()
            .take(colours)
            .position(|n| n.eq_ignore_ascii_case(wanted))
        {
            Some(c) => b.to_move = c as u8,
            None => errors.push(
                Diag::error(
                    "blokus::bad_tags",
                    format!("`{wanted}` is not a colour of this game"),
                )
                .at(t.value_span)
                .label("not a colour")
                .help(format!(
                    "the colours: {}",
                    names.get(..colours).unwrap_or(&[]).join(", ")
                )),
            ),
        }
    }
    errors
}

fn setup_tag(b: &mut Board, c: u8, tag: &Tag) -> Result<(), Diag> {
    let start = setup::value_start(tag);
    let whole = tag.value_span;
    let g = b.geo();
    let bad = |span: Span, message: String, label: &str, help: &str| {
        Diag::error("blokus::bad_tags", message)
            .at(span)
            .label(label.to_string())
            .help(help.to_string())
    };
    for (off, item) in setup::items(&tag.value) {
        let span = start.map_or(whole, |s| Span::new(s + off, item.len()));
        if item.eq_ignore_ascii_case("pass") {
            return Err(bad(
                span,
                "a pass is not a set-up piece".into(),
                "not a placement",
                "write the pieces as moves separated by spaces, e.g. [SetupBlue \"I3:r15,s15,t15\"]",
            ));
        }
        let place = notation::placement(g, item, span.offset, span).map_err(|mut d| {
            if start.is_none() {
                d.span = Some(whole);
            }
            d
        })?;
        let at = |cell: &notation::Cell| if start.is_some() { cell.span } else { whole };
        let mut ids = Vec::with_capacity(pieces::MAX_SIZE);
        for cell in place.cells() {
            match g.at(i32::from(cell.col), i32::from(cell.row)) {
                Some(i) => ids.push(i),
                None => {
                    return Err(bad(
                        at(cell),
                        format!(
                            "set-up triangle {} is off the edge-{} board",
                            notation::triangle_name(cell.col, cell.row),
                            g.edge
                        ),
                        "not on the board",
                        &row_help(g, cell.row),
                    ));
                }
            }
        }
        let used = b.used.get(usize::from(c)).copied().unwrap_or(0);
        if used & (1 << place.piece) != 0 {
            return Err(bad(
                span,
                format!(
                    "this colour's {} is set up twice",
                    pieces::label(place.piece)
                ),
                "piece already set up",
                "each colour has one piece of each shape",
            ));
        }
        if let Some((k, _)) = ids.iter().enumerate().find(|(_, i)| b.at(**i).is_some()) {
            let cell = place.cells().get(k).copied().unwrap_or_default();
            return Err(bad(
                at(&cell),
                format!(
                    "set-up triangle {} is already covered",
                    notation::triangle_name(cell.col, cell.row)
                ),
                "covered twice",
                "set-up pieces may not overlap",
            ));
        }
        if let Some(id) = g.find_place(&ids) {
            b.put(c, id);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
