//! Reversi's diagnostics: the engine's reason for refusing a move
//! ([`Illegal`]) made a [`Diag`] at the move's span, with the legal moves
//! as the help; and the help for a `Result` counted under the other
//! scoring.

use super::Reversi;
use super::engine::{Illegal, Move, Scoring, State};
use super::notation::{square_text, write};
use crate::diag::{Diag, legal_moves_help};
use crate::game::{Explain, Parsed, Position};
use crate::span::Span;

impl Explain for Reversi {
    /// Out of line and cold: the replay's inline `play` keeps only the
    /// call on its error path.
    #[cold]
    #[inline(never)]
    fn explain(state: &State, mv: &Parsed<Move>, why: Illegal) -> Diag {
        let span = mv.span;
        match why {
            Illegal::Pass => illegal_pass(state, span),
            Illegal::OffBoard(sq) => off_board(&square_text(sq), span),
            Illegal::Occupied { square, black } => {
                occupied(state, &square_text(square), black, span)
            }
            Illegal::NoFlip(sq) => no_flip(state, &square_text(sq), span),
        }
    }

    /// A `Result` that is the count under the other scoring (standard or
    /// `wof`): say so and name the `Variant` tag that gives it.
    fn result_help(state: &State, claimed: &[i64]) -> Option<String> {
        let other = match state.scoring {
            Scoring::Standard => Scoring::Wof,
            Scoring::Wof => Scoring::Standard,
            Scoring::Anti => return None,
        };
        let scores = state.scores_under(other);
        if scores != claimed || scores == state.scores_under(state.scoring) {
            return None;
        }
        let how = match other {
            Scoring::Wof => "empty squares to the winner",
            _ => "discs on the board",
        };
        let name = other.name();
        Some(format!(
            "the claim holds under the `{name}` scoring ({how}): add [Variant \"{name}\"], or --variant {name} for records without a Variant tag"
        ))
    }
}

/// The side to move's legal moves in notation, sorted by text.
fn legal_names(state: &State) -> Vec<String> {
    let mut names: Vec<String> = match state.legal_moves() {
        Ok(moves) => moves.map(write).collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    names
}

/// `reversi::illegal_pass`: a pass while the side to move has a move.
fn illegal_pass(state: &State, span: Span) -> Diag {
    let (me, _) = state.sides();
    Diag::error(
        "reversi::illegal_pass",
        format!("{me} has a legal move and may not pass"),
    )
    .at(span)
    .label("pass while a move exists")
    .help(legal_moves_help(&legal_names(state)))
}

/// `reversi::bad_square`: a square the board does not have.
fn off_board(name: &str, span: Span) -> Diag {
    Diag::error(
        "reversi::bad_square",
        format!("`{name}` is not a square of the board"),
    )
    .at(span)
    .label("not a square")
}

/// `reversi::occupied`: a disc (black's when `black`) is on the square.
fn occupied(state: &State, name: &str, black: bool, span: Span) -> Diag {
    let owner = if black { "black" } else { "white" };
    Diag::error(
        "reversi::occupied",
        format!("{name} is already occupied by a {owner} disc"),
    )
    .at(span)
    .label(format!("{owner} disc here"))
    .help(legal_moves_help(&legal_names(state)))
}

/// `reversi::no_flip`: the square outflanks nothing.
fn no_flip(state: &State, name: &str, span: Span) -> Diag {
    let (me, them) = state.sides();
    Diag::error(
        "reversi::no_flip",
        format!("{name} outflanks no {them} disc"),
    )
    .at(span)
    .label(format!("{me} flips nothing here"))
    .help(legal_moves_help(&legal_names(state)))
}
