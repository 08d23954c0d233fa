//! Positions to look at: the one at a chosen ply ([`View`], for `show` and
//! `moves`), the one after every ply ([`Frames`], for pictures), captions.

use super::{GameReport, describe};
use crate::game::Rules;

/// The position at a chosen ply, for `show` and `moves`.
pub struct View {
    /// The whole game's replay: an illegal move after the chosen ply is in it.
    pub report: GameReport,
    /// The ply the view stands at.
    pub ply: usize,
    pub board: String,
    /// The position's slices, bottom level first ([`Rules::render_levels`];
    /// empty for flat games).
    pub levels: Vec<String>,
    /// The position as an SVG document, caption included (empty when the
    /// game could not be set up).
    pub svg: String,
    /// The legal moves, sorted by their text (`legal_moves`).
    pub legal: Result<Vec<String>, String>,
    /// The legal moves with the score each earns, best first then by text;
    /// `None` for a game that does not score moves ([`Rules::scored_moves`]).
    pub scored: Option<Result<Vec<(String, i64)>, String>>,
}

/// Why there is no position to look at.
#[derive(Debug)]
pub enum ViewError {
    /// `--ply` is past the end of a valid game of this many plies.
    PastEnd(usize),
    /// The tags failed: there is no start position (the report says why).
    NotSetUp(Box<GameReport>),
}

/// The position after one ply of a replay, for pictures.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub scores: Vec<i64>,
    /// What the score plot draws ([`Rules::plot`]).
    pub plot: Vec<i64>,
    /// The side to move; `None` once the game is over.
    pub to_move: Option<String>,
    pub scene: crate::svg::Scene,
}

/// A replay with the position after every ply: frame `k` is after `k` plies.
pub struct Frames {
    pub report: GameReport,
    pub frames: Vec<Frame>,
    /// The plot's unit ([`Rules::PLOT_UNIT`]).
    pub unit: &'static str,
}

pub(crate) fn frame<R: Rules>(state: &R::State, last: Option<&R::Move>) -> Frame {
    Frame {
        scores: R::scores(state),
        plot: R::plot(state),
        to_move: (!R::is_over(state)).then(|| R::to_move(state).to_string()),
        scene: R::scene(state, last),
    }
}

/// The caption of a picture of `report`'s game after `ply` plies.
pub fn caption(report: &GameReport, ply: usize, frame: &Frame) -> crate::svg::Caption {
    let mut name = report.game.to_string();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    let mut title = format!("{name} ({})", report.variant);
    let about = describe(report);
    if !about.is_empty() {
        title.push_str(": ");
        title.push_str(&about);
    }
    let mut status = if ply == 0 {
        "start position".to_string()
    } else {
        format!("after ply {ply}")
    };
    match &frame.to_move {
        Some(side) => status.push_str(&format!(", {side} to move")),
        None => status.push_str(", game over"),
    }
    if let Some(e) = report.errors.first() {
        status.push_str(&format!("; invalid at ply {}: {}", e.ply, e.code));
    }
    crate::svg::Caption {
        title,
        status,
        scores: report
            .seats
            .iter()
            .map(|s| s.to_string())
            .zip(frame.scores.iter().copied())
            .collect(),
    }
}

/// The moves `moves` lists (spec §5): nothing once the game is over, `pass`
/// alone when a pass is forced, else the game's legal moves sorted by text.
pub(crate) fn legal_moves<R: Rules>(state: &R::State) -> Result<Vec<String>, String> {
    if R::is_over(state) {
        return Ok(Vec::new());
    }
    let mut moves = R::legal_moves(state)?;
    if moves.is_empty() {
        return Ok(vec!["pass".to_string()]);
    }
    moves.sort_unstable();
    Ok(moves)
}

/// `legal_moves` with scores (`moves --by-score`): best first, ties by
/// text; `pass` alone (scoring 0) when a pass is forced. `None` when the game
/// does not score moves.
pub(crate) fn scored_moves<R: Rules>(
    state: &R::State,
) -> Option<Result<Vec<(String, i64)>, String>> {
    if !R::SCORES_MOVES {
        return None;
    }
    if R::is_over(state) {
        return Some(Ok(Vec::new()));
    }
    Some(R::scored_moves(state).map(|mut moves| {
        if moves.is_empty() {
            moves.push(("pass".to_string(), 0));
        }
        moves.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        moves
    }))
}
