//! Blokus's explanations: an [`Illegal`] and the spans the notation kept
//! ([`CellSpans`]: one per cell, as written) made a diagnostic. The
//! position is the one the move was refused at (an illegal move changes
//! nothing), so a help line can name a legal placement from it.
//!
//! The messages are the same for both boards but for their words
//! ([`Words`]): squares share an edge and touch corner to corner,
//! triangles share a side and touch at a corner; a square off the board
//! is told the board's last square, a triangle its row's first and last.

use super::board::Board;
use super::engine::{Illegal, Move, State};
use super::geometry::{CellList, Geometry};
use super::notation::{self, CellSpans};
use super::trigon;
use super::{Blokus, Position, unplaced};
use crate::diag::Diag;
use crate::game::{Explain, Parsed};
use crate::span::Span;

impl Explain for Blokus {
    fn explain(position: &Position, mv: &Parsed<Move, CellSpans>, why: Illegal) -> Diag {
        each!(position, s => explain(s, mv, why))
    }
}

/// What a board's messages call its cells' contacts and limits.
pub trait Words: Geometry
where
    Self::Place: Send + Sync,
{
    /// How a cell shares an edge (`an edge`, `a side`) and touches at a
    /// corner (`corner to corner`, `at a corner`).
    const EDGE: &'static str;
    const CORNER: &'static str;
    /// The message for a placement of the other board's cells.
    const OTHER_BOARD: &'static str;

    /// The message and help for `cell`, off the board.
    fn off_board(&self, cell: (u8, u8)) -> (String, String);
    /// The message, label and help for a first piece that covers none of
    /// `starts` (`hint`: a legal placement).
    fn start_missed(&self, me: &str, starts: &CellList, hint: String) -> (String, String, String);
}

impl Words for Board {
    const EDGE: &'static str = "an edge";
    const CORNER: &'static str = "corner to corner";
    const OTHER_BOARD: &'static str = "a Trigon placement in a square-board game";

    fn off_board(&self, cell: (u8, u8)) -> (String, String) {
        notation::off_board(self.size, cell)
    }

    fn start_missed(&self, me: &str, starts: &CellList, hint: String) -> (String, String, String) {
        let (sx, sy) = starts.as_slice().first().copied().unwrap_or((0, 0));
        let sq = notation::square_name(sx, sy);
        (
            format!("{me}'s first piece must cover its starting square {sq}"),
            format!("does not cover {sq}"),
            hint,
        )
    }
}

impl Words for trigon::board::Board {
    const EDGE: &'static str = "a side";
    const CORNER: &'static str = "at a corner";
    const OTHER_BOARD: &'static str = "a square placement in a Trigon game";

    fn off_board(&self, cell: (u8, u8)) -> (String, String) {
        trigon::notation::off_board(self.geo(), cell)
    }

    fn start_missed(&self, me: &str, starts: &CellList, hint: String) -> (String, String, String) {
        let free: Vec<String> = starts
            .as_slice()
            .iter()
            .map(|&(col, row)| trigon::notation::triangle_name(col, row))
            .collect();
        (
            format!("{me}'s first piece must cover a starting point"),
            "covers no starting point".to_string(),
            format!("starting points still empty: {}; {hint}", free.join(" ")),
        )
    }
}

/// The diagnostic for `mv`, refused at `state` for `why`.
fn explain<G: Words>(state: &State<G>, mv: &Parsed<Move, CellSpans>, why: Illegal) -> Diag
where
    G::Place: Send + Sync,
{
    let at = |index: u8| mv.parts.of(index, mv.span);
    if mv.mv.is_edit() {
        return setup_refused(state, mv, why);
    }
    match why {
        Illegal::Pass { colour } => Diag::error(
            "blokus::illegal_pass",
            format!(
                "{} can place a piece and may not pass",
                state.colour(colour)
            ),
        )
        .at(mv.span)
        .label("pass while a placement exists")
        .help(hint(state)),
        Illegal::OtherBoard => Diag::error("blokus::not_a_piece", G::OTHER_BOARD).at(mv.span),
        Illegal::OffBoard { index, cell } => {
            let (message, help) = state.board.off_board(cell);
            Diag::error("blokus::not_a_square", message)
                .at(at(index))
                .label("not on the board")
                .help(help)
        }
        Illegal::PieceUsed { colour, piece } => piece_used(state, colour, piece, mv.span),
        Illegal::Occupied { covered } => occupied(state, covered.as_slice(), &at),
        Illegal::StartMissed { colour, starts } => {
            let (message, label, help) =
                state
                    .board
                    .start_missed(state.colour(colour), &starts, hint(state));
            Diag::error("blokus::start_missed", message)
                .at(mv.span)
                .label(label)
                .help(help)
        }
        Illegal::EdgeContact {
            colour,
            index,
            cell,
            own,
        } => edge_contact(state, colour, cell, own, at(index)),
        Illegal::NoCornerContact { colour, piece } => {
            let me = state.colour(colour);
            Diag::error(
                "blokus::no_corner_contact",
                format!(
                    "the {} touches no {me} {} {}",
                    G::piece_label(piece),
                    G::CELL,
                    G::CORNER
                ),
            )
            .at(mv.span)
            .label(format!("no corner contact with {me}"))
            .help(hint(state))
        }
        Illegal::NoPlacement
        | Illegal::NotOnBoard { .. }
        | Illegal::NoColour { .. } => {
            Diag::error("blokus::not_a_piece", "no such placement").at(mv.span)
        }
    }
}

/// `blokus::bad_setup`: a setup edit (a piece put on or taken off the
/// board in the middle of the game, the colour to move) that cannot be
/// made.
fn setup_refused<G: Words>(state: &State<G>, mv: &Parsed<Move, CellSpans>, why: Illegal) -> Diag
where
    G::Place: Send + Sync,
{
    let at = |index: u8| mv.parts.of(index, mv.span);
    let help_put = "a piece is put on empty cells, once per colour; take a piece off first with -piece";
    let (message, span, label, help) = match why {
        Illegal::OffBoard { index, cell } => {
            let (message, help) = state.board.off_board(cell);
            (message, at(index), "not on the board".to_string(), help)
        }
        Illegal::PieceUsed { colour, piece } => {
            let me = state.colour(colour);
            let left = unplaced::<G>(state.board.used(colour));
            (
                format!("{me}'s {} is on the board already", G::piece_label(piece)),
                mv.span,
                format!("{me} has one {}", G::piece_label(piece)),
                format!("{me}'s pieces not on the board: {}", left.join(" ")),
            )
        }
        Illegal::Occupied { covered } => {
            let c = covered.as_slice();
            let what: Vec<String> = c
                .iter()
                .map(|&(_, (col, row), o)| format!("{} is covered by {}", G::cell_name(col, row), state.colour(o)))
                .collect();
            let (first, owner) = c.first().map_or((0, "?"), |&(k, _, o)| (k, state.colour(o)));
            (what.join(", "), at(first), format!("{owner} is here"), help_put.to_string())
        }
        Illegal::NotOnBoard { index, cell, owner } => {
            let name = G::cell_name(cell.0, cell.1);
            let message = match owner {
                None => format!("{name} is empty: there is no piece here to take off"),
                Some(o) => format!(
                    "{name} is {}'s, but the cells are not one piece of {}",
                    state.colour(o),
                    state.colour(o)
                ),
            };
            (
                message,
                at(index),
                "not this piece".to_string(),
                "a piece is taken off by naming all of its cells, -piece".to_string(),
            )
        }
        Illegal::NoColour { colour } => {
            let name = super::engine::PALETTE.get(usize::from(colour)).copied().unwrap_or("?");
            let names: Vec<&str> = state.colours().map(|c| state.colour(c)).collect();
            (
                format!("`{name}` is not a colour of this game"),
                mv.span,
                "not a colour".to_string(),
                format!("the colours: {}", names.join(", ")),
            )
        }
        _ => (
            "no such placement".to_string(),
            mv.span,
            "not a placement".to_string(),
            help_put.to_string(),
        ),
    };
    Diag::error("blokus::bad_setup", message)
        .at(span)
        .label(label)
        .help(help)
}

/// `blokus::piece_used`: the colour's unplaced pieces in the help.
fn piece_used<G: Geometry>(state: &State<G>, colour: u8, piece: u8, span: Span) -> Diag
where
    G::Place: Send + Sync,
{
    let me = state.colour(colour);
    let pname = G::piece_label(piece);
    let left = unplaced::<G>(state.board.used(colour));
    Diag::error(
        "blokus::piece_used",
        format!("{me} has already placed the {pname}"),
    )
    .at(span)
    .label(format!("{me}'s {pname} is on the board"))
    .help(format!("{me}'s unplaced pieces: {}", left.join(" ")))
}

/// `blokus::occupied`: every covered cell with its colour, blaming the
/// first one written.
fn occupied<G: Geometry>(
    state: &State<G>,
    covered: &[(u8, (u8, u8), u8)],
    at: &dyn Fn(u8) -> Span,
) -> Diag
where
    G::Place: Send + Sync,
{
    let what: Vec<String> = covered
        .iter()
        .map(|&(_, (col, row), o)| {
            format!(
                "{} is occupied by {}",
                G::cell_name(col, row),
                state.colour(o)
            )
        })
        .collect();
    let (first, owner) = covered
        .first()
        .map_or((0, "?"), |&(k, _, o)| (k, state.colour(o)));
    Diag::error("blokus::occupied", what.join(", "))
        .at(at(first))
        .label(format!("{owner} is here"))
        .help(hint(state))
}

/// `blokus::edge_contact`: the cell and the own cell it touches.
fn edge_contact<G: Words>(
    state: &State<G>,
    colour: u8,
    (col, row): (u8, u8),
    (ox, oy): (u8, u8),
    span: Span,
) -> Diag
where
    G::Place: Send + Sync,
{
    let me = state.colour(colour);
    let (cell, nb) = (G::cell_name(col, row), G::cell_name(ox, oy));
    Diag::error(
        "blokus::edge_contact",
        format!("{cell} shares {} with {me}'s own {} {nb}", G::EDGE, G::CELL),
    )
    .at(span)
    .label(format!("touches {me} at {nb}"))
    .help(hint(state))
}

/// One legal placement for the colour to move, as help text.
pub fn hint<G: Geometry>(state: &State<G>) -> String
where
    G::Place: Send + Sync,
{
    match state.one_placement() {
        Some((p, 1)) => format!(
            "the only legal placement here: {}",
            notation::write_placement::<G>(&p)
        ),
        Some((p, n)) => format!(
            "a legal placement here: {} (one of {n})",
            notation::write_placement::<G>(&p)
        ),
        None => format!(
            "{} has no legal placement and must pass",
            state.colour(state.mover())
        ),
    }
}
