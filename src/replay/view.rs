//! Positions to look at: the one at a chosen ply ([`View`], for `show` and
//! `moves`), the one after every ply ([`Frames`], for pictures), captions.

use super::visit::Visitor;
use super::{GameReport, MoveRecord, Options, describe, run};
use crate::game::{MoveOf, Position, Rules, Unlisted};
use crate::record::RawGame;

/// The position at a chosen ply, for `show` and `moves`.
pub struct View {
    /// The whole game's replay: an illegal move after the chosen ply is in it.
    pub report: GameReport,
    /// The ply the view stands at.
    pub ply: usize,
    pub board: String,
    /// The position's slices, bottom level first ([`Render::render_levels`](crate::game::Render::render_levels);
    /// empty for flat games).
    pub levels: Vec<String>,
    /// The position as an SVG document, caption included (empty when the
    /// game could not be set up).
    pub svg: String,
    /// The legal moves, sorted by their text (`legal_moves`).
    pub legal: Result<Vec<String>, Unlisted>,
    /// The legal moves with the score each earns, best first then by text;
    /// `None` for a game that does not score moves ([`Notation::scored_move_texts`](crate::game::Notation::scored_move_texts)).
    pub scored: Option<Result<Vec<(String, i64)>, Unlisted>>,
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
    /// What the score plot draws ([`Render::plot`](crate::game::Render::plot)).
    pub plot: Vec<i64>,
    /// The side to move; `None` once the game is over.
    pub to_move: Option<String>,
    pub scene: crate::svg::Scene,
}

/// A replay with the position after every ply: frame `k` is after `k` plies.
pub struct Frames {
    pub report: GameReport,
    pub frames: Vec<Frame>,
    /// The plot's unit ([`Render::PLOT_UNIT`](crate::game::Render::PLOT_UNIT)).
    pub unit: &'static str,
}

pub(crate) fn frame<R: Rules>(state: &R::Position, last: Option<&MoveOf<R>>) -> Frame {
    Frame {
        scores: Position::scores(state),
        plot: R::plot(state),
        to_move: (!Position::is_over(state)).then(|| Position::to_move(state).to_string()),
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
pub(crate) fn legal_moves<R: Rules>(state: &R::Position) -> Result<Vec<String>, Unlisted> {
    if Position::is_over(state) {
        return Ok(Vec::new());
    }
    let mut moves = R::legal_move_texts(state)?;
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
    state: &R::Position,
) -> Option<Result<Vec<(String, i64)>, Unlisted>> {
    if !<R::Position as Position>::SCORES_MOVES {
        return None;
    }
    if Position::is_over(state) {
        return Some(Ok(Vec::new()));
    }
    Some(R::scored_move_texts(state).map(|mut moves| {
        if moves.is_empty() {
            moves.push(("pass".to_string(), 0));
        }
        moves.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        moves
    }))
}

/// The standard visitor's part of a visitor that also watches positions:
/// tags, moves and the end as its `opts: &Options` keeps them.
macro_rules! standard_visitor {
    ($r:ident) => {
        fn tags(&mut self, report: &mut GameReport, raw: &RawGame, src: &str) {
            Visitor::<$r>::tags(&mut self.opts, report, raw, src);
        }
        fn records_moves(&self) -> bool {
            Visitor::<$r>::records_moves(&self.opts)
        }
        fn moved(&mut self, report: &mut GameReport, record: MoveRecord) {
            Visitor::<$r>::moved(&mut self.opts, report, record);
        }
        fn end(&mut self, report: &mut GameReport, state: &$r::Position) {
            Visitor::<$r>::end(&mut self.opts, report, state);
        }
        fn check_scores(&self) -> Option<u32> {
            Visitor::<$r>::check_scores(&self.opts)
        }
    };
}

/// The visitor of [`frames_of`]: the standard one, plus a frame per position.
struct KeepFrames<'o> {
    opts: &'o Options,
    frames: Vec<Frame>,
}

impl<R: Rules> Visitor<R> for KeepFrames<'_> {
    standard_visitor!(R);
    fn watches_positions(&self) -> bool {
        true
    }
    fn position(&mut self, ply: usize, state: &R::Position, last: Option<&MoveOf<R>>) {
        let f = frame::<R>(state, last);
        // a setup edit changes the position after the same ply
        match self.frames.get_mut(ply) {
            Some(slot) => *slot = f,
            None => self.frames.push(f),
        }
    }
}

/// A replay with what the score plot draws after every ply, and no
/// picture but the start's (for its seats' colours): the plot of many
/// games ([`plots_of`]).
pub struct Plots {
    pub report: GameReport,
    /// After `k` plies: [`Render::plot`](crate::game::Render::plot).
    pub values: Vec<Vec<i64>>,
    /// Each seat's colour in the start's picture.
    pub colours: Vec<&'static str>,
    /// The plot's unit ([`Render::PLOT_UNIT`](crate::game::Render::PLOT_UNIT)).
    pub unit: &'static str,
}

/// The visitor of [`plots_of`].
struct KeepPlots<'o> {
    opts: &'o Options,
    values: Vec<Vec<i64>>,
    colours: Vec<&'static str>,
}

impl<R: Rules> Visitor<R> for KeepPlots<'_> {
    standard_visitor!(R);
    fn watches_positions(&self) -> bool {
        true
    }
    fn position(&mut self, ply: usize, state: &R::Position, last: Option<&MoveOf<R>>) {
        if ply == 0 {
            self.colours = R::scene(state, last).seats.iter().map(|(_, c)| *c).collect();
        }
        // a setup edit changes the position after the same ply
        match self.values.get_mut(ply) {
            Some(slot) => *slot = R::plot(state),
            None => self.values.push(R::plot(state)),
        }
    }
}

/// Replays the whole game keeping what the score plot draws after every
/// ply: [`frames_of`] without a picture per ply.
pub fn plots_of<R: Rules>(raw: &RawGame, src: &str, opts: &Options) -> Plots {
    let mut keep = KeepPlots {
        opts,
        values: Vec::new(),
        colours: Vec::new(),
    };
    let mut report = GameReport::default();
    run::<R, _>(raw, src, &mut keep, &mut report);
    Plots {
        report,
        values: keep.values,
        colours: keep.colours,
        unit: R::PLOT_UNIT,
    }
}

/// Replays the whole game keeping the position after every ply (the score
/// plot, the HTML viewer).
pub fn frames_of<R: Rules>(raw: &RawGame, src: &str, opts: &Options) -> Frames {
    let mut keep = KeepFrames {
        opts,
        frames: Vec::new(),
    };
    let mut report = GameReport::default();
    run::<R, _>(raw, src, &mut keep, &mut report);
    Frames {
        report,
        frames: keep.frames,
        unit: R::PLOT_UNIT,
    }
}

/// The visitor of [`view_at`]: the standard one, plus the state at the ply
/// asked for and the picture of the position the view stands at (the frame
/// after that ply, else the last one).
struct KeepPly<'o, R: Rules> {
    opts: &'o Options,
    ply: Option<usize>,
    at: Option<R::Position>,
    picture: Option<Frame>,
}

impl<R: Rules> Visitor<R> for KeepPly<'_, R> {
    standard_visitor!(R);
    fn watches_positions(&self) -> bool {
        true
    }
    fn position(&mut self, ply: usize, state: &R::Position, last: Option<&MoveOf<R>>) {
        if self.ply.is_none_or(|k| ply <= k) {
            self.picture = Some(frame::<R>(state, last));
        }
        // the last position after that ply: a setup edit after it changes it
        if self.ply == Some(ply) {
            self.at = Some(state.clone());
        }
    }
}

/// Replays the whole game and looks at the position after `ply` plies (the
/// end, or the position before the illegal move, when `None` or past it).
pub fn view_at<R: Rules>(
    raw: &RawGame,
    src: &str,
    opts: &Options,
    ply: Option<usize>,
    color: bool,
) -> Result<View, ViewError> {
    let mut keep = KeepPly::<R> {
        opts,
        ply,
        at: None,
        picture: None,
    };
    let mut report = GameReport::default();
    let Some(end) = run::<R, _>(raw, src, &mut keep, &mut report) else {
        return Err(ViewError::NotSetUp(Box::new(report)));
    };
    // The chosen ply when the replay passed it; else the end (a valid
    // game) or the position before the illegal move (an invalid one).
    let (state, at) = match (ply, keep.at) {
        (Some(k), Some(s)) => (s, k),
        (Some(_), None) if report.valid => return Err(ViewError::PastEnd(report.plies)),
        _ => (end, report.plies),
    };
    let svg = keep.picture.map_or_else(String::new, |f| {
        crate::svg::document(&f.scene, &caption(&report, at, &f))
    });
    Ok(View {
        report,
        ply: at,
        board: R::render(&state, color),
        levels: R::render_levels(&state, color),
        svg,
        legal: legal_moves::<R>(&state),
        scored: scored_moves::<R>(&state),
    })
}
