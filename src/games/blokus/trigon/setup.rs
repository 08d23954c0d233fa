//! Trigon's set-up tags, as classic's (`SetupBlue` ..): pieces written as
//! moves, checked as notation and for the board, overlap and repeated
//! pieces; placement rules not applied. `SetupPurple`, `SetupOrange` and
//! the tags of colours the game does not have are `bad_tags`.

use super::board::Board;
use super::notation::{self, row_help};
use super::pieces;
use crate::diag::Diag;
use crate::games::blokus::setup;
use crate::record::{Tag, Tags};
use crate::span::Span;

/// The set-up tags of a Trigon game, applied to the empty board.
pub fn apply(b: &mut Board, tags: &Tags) -> Vec<Diag> {
    let mut errors = Vec::new();
    let colours = usize::from(b.placed.colours);
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
        let (place, spans) = notation::placement(g, item, span.offset, span).map_err(|mut d| {
            if start.is_none() {
                d.span = Some(whole);
            }
            d
        })?;
        let at = |cell: &notation::Cell| if start.is_some() { cell.span } else { whole };
        let mut ids = Vec::with_capacity(pieces::MAX_SIZE);
        let cells: Vec<notation::Cell> = spans.cells(&place, span).collect();
        for cell in &cells {
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
        let used = b.placed.used.get(usize::from(c)).copied().unwrap_or(0);
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
            let cell = cells.get(k).copied().unwrap_or_default();
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
