//! A position of any game driven in notation ([`AnyPosition`]), and its
//! implementation for one game's [`Rules`] ([`Live`]): what
//! [`crate::play`] hands out and the registry's games build
//! ([`DynGame::position`](crate::registry::DynGame::position)).

use crate::diag::Diag;
use crate::game::{MoveOf, Parsed, Position, Rules, Unlisted};
use crate::record::{Tags, Token};
use crate::span::Span;

/// A position of any game, driven in notation.
pub trait AnyPosition: Send + Sync {
    /// The game's name (`reversi`).
    fn game(&self) -> &'static str;
    /// The variant in play (default filled in).
    fn variant(&self) -> &'static str;
    /// The seats, in seat order (the order of [`AnyPosition::scores`]).
    fn seats(&self) -> &'static [&'static str];
    /// Who moves next; `None` once the game is over.
    fn turn(&self) -> Option<&'static str>;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// Plies played from the start (passes included).
    fn plies(&self) -> usize;
    /// Every legal move in canonical notation, sorted; empty when the side
    /// to move can only pass (or the game is over). `Err`: the moves cannot
    /// be listed (a hand the position does not know).
    fn legal_moves(&self) -> Result<Vec<String>, Unlisted>;
    /// Reads `notation` as one move and plays it when legal; a refused move
    /// changes nothing, and its diagnostic's spans point into `notation`.
    fn play(&mut self, notation: &str) -> Result<(), Diag>;
    /// Scores per seat (final scoring once over).
    fn scores(&self) -> Vec<i64>;
    /// The winning seats once over (several on a draw); empty before.
    fn winners(&self) -> Vec<&'static str>;
    /// The position for a terminal; `color` for ANSI colours.
    fn text(&self, color: bool) -> String;
    /// The position as an SVG picture, the last move marked.
    fn svg(&self) -> String;
    /// A copy to explore from.
    fn boxed_clone(&self) -> Box<dyn AnyPosition>;
}

impl Clone for Box<dyn AnyPosition> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// [`AnyPosition`] for one game's [`Rules`].
pub struct Live<R: Rules> {
    state: R::Position,
    last: Option<MoveOf<R>>,
    plies: usize,
}

impl<R: Rules> Clone for Live<R> {
    fn clone(&self) -> Self {
        Live {
            state: self.state.clone(),
            last: self.last.clone(),
            plies: self.plies,
        }
    }
}

impl<R: Rules> Live<R> {
    /// The start position the tags set up.
    pub fn start(tags: &Tags) -> Result<Self, Vec<Diag>> {
        Ok(Live {
            state: R::start(tags)?,
            last: None,
            plies: 0,
        })
    }
}

/// The words of a move's text as container tokens.
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut at = 0;
    for word in text.split(' ') {
        if !word.is_empty() {
            out.push(Token::new(Span::new(at, word.len())));
        }
        at += word.len() + 1;
    }
    out
}

impl<R: Rules> AnyPosition for Live<R>
where
    R::Position: Send + Sync,
    MoveOf<R>: Send + Sync,
{
    fn game(&self) -> &'static str {
        R::NAME
    }

    fn variant(&self) -> &'static str {
        Position::variant(&self.state)
    }

    fn seats(&self) -> &'static [&'static str] {
        Position::seats(&self.state)
    }

    fn turn(&self) -> Option<&'static str> {
        (!Position::is_over(&self.state)).then(|| Position::to_move(&self.state))
    }

    fn is_over(&self) -> bool {
        Position::is_over(&self.state)
    }

    fn plies(&self) -> usize {
        self.plies
    }

    fn legal_moves(&self) -> Result<Vec<String>, Unlisted> {
        if Position::is_over(&self.state) {
            return Ok(Vec::new());
        }
        let mut moves = R::legal_move_texts(&self.state)?;
        moves.sort();
        Ok(moves)
    }

    fn play(&mut self, notation: &str) -> Result<(), Diag> {
        let text = notation.replace(['\t', '\n', '\r'], " ");
        let whole = Span::new(0, text.len());
        if Position::is_over(&self.state) {
            return Err(Diag::error("record::move_after_end", "the game is over").at(whole));
        }
        let tokens = tokens(&text);
        let mut read = R::parse_moves_in(&self.state, &tokens, &text);
        if let Some(d) = read.error {
            return Err(d);
        }
        let mv: Parsed<MoveOf<R>, R::Spans> = match read.moves.len() {
            1 => read.moves.remove(0),
            n => {
                return Err(Diag::error(
                    "record::bad_move",
                    format!("expected one move, read {n}"),
                )
                .at(whole));
            }
        };
        let mut next = self.state.clone();
        R::judge(&mut next, &mv)?;
        self.state = next;
        self.last = Some(mv.mv);
        self.plies += 1;
        Ok(())
    }

    fn scores(&self) -> Vec<i64> {
        Position::scores(&self.state)
    }

    fn winners(&self) -> Vec<&'static str> {
        if !Position::is_over(&self.state) {
            return Vec::new();
        }
        let seats = Position::seats(&self.state);
        Position::winners(&self.state)
            .into_iter()
            .filter_map(|i| seats.get(i).copied())
            .collect()
    }

    fn text(&self, color: bool) -> String {
        R::render(&self.state, color)
    }

    fn svg(&self) -> String {
        let scene = R::scene(&self.state, self.last.as_ref());
        let mut name = R::NAME.to_string();
        if let Some(first) = name.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        let mut status = if self.plies == 0 {
            "start position".to_string()
        } else {
            format!("after ply {}", self.plies)
        };
        match self.turn() {
            Some(side) => status.push_str(&format!(", {side} to move")),
            None => status.push_str(", game over"),
        }
        let caption = crate::svg::Caption {
            title: format!("{name} ({})", Position::variant(&self.state)),
            status,
            scores: Position::seats(&self.state)
                .iter()
                .map(|s| s.to_string())
                .zip(Position::scores(&self.state))
                .collect(),
        };
        crate::svg::document(&scene, &caption)
    }

    fn boxed_clone(&self) -> Box<dyn AnyPosition> {
        Box::new(self.clone())
    }
}
