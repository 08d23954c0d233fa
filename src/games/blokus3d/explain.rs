//! Blokus 3D's diagnostics: the engine's reason for refusing a move
//! ([`Illegal`]) made a [`Diag`], at the cube at fault (its span from the
//! notation's [`CubeSpans`]) or the whole move, with a legal placement as
//! the help where one helps.

use super::Blokus3d;
use super::engine::{Illegal, Move, Place, State};
use super::notation::{CubeSpans, cube_name, write_at};
use super::{pieces, render};
use crate::diag::Diag;
use crate::game::{Explain, Parsed};
use crate::span::Span;

impl Explain for Blokus3d {
    /// Out of line and cold: the replay's inline `play` keeps only the
    /// call on its error path.
    #[cold]
    #[inline(never)]
    fn explain(state: &State, mv: &Parsed<Move, CubeSpans>, why: Illegal) -> Diag {
        let Move::Place(p) = &mv.mv else {
            return illegal_pass(state, mv.span);
        };
        let at = |cube: u8| {
            mv.parts
                .0
                .get(usize::from(cube))
                .copied()
                .unwrap_or(mv.span)
        };
        let cube = |cube: u8| {
            p.cubes()
                .get(usize::from(cube))
                .copied()
                .unwrap_or_default()
        };
        let name = |i: u8| {
            let x = cube(i);
            cube_name(x.x, x.y, x.z)
        };
        match why {
            Illegal::Pass => illegal_pass(state, mv.span),
            Illegal::PieceUsed { stone } => piece_used(state, stone, mv.span),
            Illegal::NotACell { cube } => not_a_cell(state, &name(cube), at(cube)),
            Illegal::Occupied { cube, owner } => {
                let owner = owner.map_or("?", |o| state.colour(o));
                Diag::error(
                    "blokus3d::occupied",
                    format!("{} is occupied by {owner}", name(cube)),
                )
                .at(at(cube))
                .label(format!("{owner} is here"))
                .help(hint(state))
            }
            Illegal::Unsupported { cube: i, height } => {
                let x = cube(i);
                unsupported(&name(i), (x.x, x.y), height, at(i))
            }
            Illegal::TooHigh { cube, limit } => Diag::error(
                "blokus3d::too_high",
                format!("{} is above its column's limit of {limit}", name(cube)),
            )
            .at(at(cube))
            .label(format!("at most {limit} high here"))
            .help(hint(state)),
            Illegal::FirstOffBase | Illegal::FirstNoContact | Illegal::NoContact => {
                no_contact(state, p, why, mv.span)
            }
        }
    }
}

/// One legal placement of the colour to move, and how many there are.
fn hint(state: &State) -> String {
    let b = &state.board;
    let c = b.to_move;
    let mut first = None;
    let mut n = 0u64;
    b.each_move(c, |i, z| {
        if first.is_none() {
            first = Some((i, z));
        }
        n += 1;
        true
    });
    match first.and_then(|(i, z)| b.area.fps.get(usize::from(i)).map(|f| (f, z))) {
        Some((fp, z)) => {
            let m = write_at(fp.orient, fp.x, fp.y, z);
            if n == 1 {
                format!("the only legal placement here: {m}")
            } else {
                format!("a legal placement here: {m} (one of {n})")
            }
        }
        None => format!("{} has no legal placement", state.colour(c)),
    }
}

/// `blokus3d::illegal_pass`: a pass while a stone fits.
fn illegal_pass(state: &State, span: Span) -> Diag {
    let me = state.colour(state.board.to_move);
    Diag::error(
        "blokus3d::illegal_pass",
        format!("{me} can place a stone and may not pass"),
    )
    .at(span)
    .label("pass while a stone fits")
    .help(hint(state))
}

/// `blokus3d::piece_used`: the stone is placed already; the help lists
/// the colour's unplaced ones.
fn piece_used(state: &State, stone: u8, span: Span) -> Diag {
    let b = &state.board;
    let me = state.colour(b.to_move);
    let pname = pieces::name(stone);
    let used = b.used.get(usize::from(b.to_move)).copied().unwrap_or(0);
    let left: Vec<&str> = (0..pieces::STONES as u8)
        .filter(|s| used >> s & 1 == 0)
        .map(pieces::name)
        .collect();
    Diag::error(
        "blokus3d::piece_used",
        format!("{me} has already placed the {pname}"),
    )
    .at(span)
    .label(format!("{me}'s {pname} is placed"))
    .help(format!("{me}'s unplaced stones: {}", left.join(" ")))
}

/// `blokus3d::not_a_cell`: the cube is in no column of the area.
fn not_a_cell(state: &State, name: &str, span: Span) -> Diag {
    let area = &*state.board.area;
    Diag::error(
        "blokus3d::not_a_cell",
        format!("{name} is not in the building area ({})", area.name),
    )
    .at(span)
    .label("no column here")
    .help(render::columns_help(area))
}

/// `blokus3d::unsupported`: empty space under the cube in column
/// (`file`, `rank`), `height` high.
fn unsupported(name: &str, (file, rank): (u8, u8), height: u8, span: Span) -> Diag {
    let column = format!("{}{}", char::from(b'a' + file), u32::from(rank) + 1);
    Diag::error(
        "blokus3d::unsupported",
        format!("{name} has empty space under it: column {column} is {height} high",),
    )
    .at(span)
    .label(format!("column {column} holds {height}"))
    .help(format!(
        "a stone is lowered from above: its lowest cube in column {column} goes at level {}",
        height + 1
    ))
}

/// The contact rules: a first stone off the base or touching nothing, a
/// later one touching no stone of its colour (the nearest named).
fn no_contact(state: &State, p: &Place, why: Illegal, span: Span) -> Diag {
    let c = state.board.to_move;
    let me = state.colour(c);
    let (code, message, label) = match why {
        Illegal::FirstOffBase => (
            "blokus3d::first_off_base",
            format!("{me}'s first stone must touch the base (a cube at level 1)"),
            "no cube at level 1".to_string(),
        ),
        Illegal::FirstNoContact => (
            "blokus3d::first_no_contact",
            format!("{me}'s first stone must touch a face of a stone already placed"),
            "touches no stone".to_string(),
        ),
        _ => {
            let near: Vec<&str> = state
                .board
                .nearest_stones(p.cubes(), c)
                .into_iter()
                .map(pieces::name)
                .collect();
            let near = if near.is_empty() {
                String::new()
            } else {
                format!("; nearest of {me}'s stones: {}", near.join(", "))
            };
            (
                "blokus3d::no_contact",
                format!(
                    "the {} touches no face of a {me} stone{near}",
                    pieces::name(p.stone)
                ),
                format!("no face contact with {me}"),
            )
        }
    };
    Diag::error(code, message)
        .at(span)
        .label(label)
        .help(hint(state))
}
