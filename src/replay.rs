//! The generic driver: runs any game's [`Rules`] over a container game.
//!
//! `run` replays a game in the steps of spec §5, each in one place:
//!
//! 1. **tags** (`tags`): every tag error in file order (the container's,
//!    the rules tags' from [`Rules::start`], a malformed `Result`); an error
//!    in a rules tag (`Game`, `Variant`, the game's `RULES_TAGS`) stops the
//!    game with `plies` 0; a missing rules tag is blamed on the tag section;
//! 2. **start**: the variant and the seats;
//! 3. **moves** (`Replay::moves`): before each move that is not a written
//!    pass, the automatic passes owed (the end of the game checked first);
//!    then `move_after_end`, `record::wrong_player`, the engine's judgement;
//! 4. **end of the movetext** (`Replay::movetext_end`): a token the
//!    notation cannot read is a move (passes first; after the end it is
//!    `move_after_end`); the container's stop (stray `}`, decreasing move
//!    number, unterminated comment) is not, so no pass is taken before it;
//! 5. **end and result checks** (`Replay::finish`, `Replay::check_claims`,
//!    `Replay::check_winner_claim`): scores, winners, the claimed `Result`
//!    (tag and token) and a claimed winner, checked once the game is over.
//!
//! The outcome is a game-agnostic [`GameReport`]. `show` and `moves` replay
//! the whole game too and keep the state at the ply they look at.

pub mod packed;

use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::diag::{Diag, Severity, plural};
use crate::game::{Parsed, Rules};
use crate::record::{RawGame, each_result_score, parse_result_scores};
use crate::span::Span;

/// What the caller wants from a replay.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--game`: the game of records without a `Game` tag.
    pub game: Option<String>,
    /// Keep a record of every move and the final position (for conversion).
    pub record_moves: bool,
    /// Fill in [`GameReport::result_extras`] (the JSON report and conversion
    /// show them). On by default.
    pub result_extras: bool,
    /// Keep every tag in [`GameReport::tags`] (conversion writes them); when
    /// off, the report keeps only [`describe`]'s text, in
    /// [`GameReport::about`]. On by default.
    pub all_tags: bool,
    /// Fill in [`GameReport::score_notes`] (the human `score` shows them).
    pub score_notes: bool,
    /// With [`Options::all_tags`] off, fill in [`GameReport::about`] (human
    /// output names each game by it). Off when nothing is shown per game
    /// (`validate -q`): no tag text is then built for a valid game.
    pub about: bool,
    /// With [`Options::about`] off, fill in [`GameReport::about`] all the
    /// same for a game with diagnostics (`validate -q` prints its errors).
    pub about_if_diagnostics: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            game: None,
            record_moves: false,
            result_extras: true,
            all_tags: true,
            score_notes: false,
            about: true,
            about_if_diagnostics: false,
        }
    }
}

/// One move as replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub ply: usize,
    pub player: &'static str,
    /// The move as the game writes it: a static name where the game has one
    /// (a WTHOR record's squares), no string built per move.
    pub notation: std::borrow::Cow<'static, str>,
    pub comment: Option<String>,
    /// Taken by the engine, not written in the record.
    pub auto: bool,
    pub extras: Map<String, Value>,
    /// The move number written before the move (`12.`, `12...`), if any.
    pub number: Option<String>,
}

/// Everything a replay found out about one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameReport {
    /// Normalised game name (empty when it could not be told).
    pub game: &'static str,
    pub variant: &'static str,
    /// Every tag in file order (a `Game` tag first when `--game` supplied it);
    /// none when [`Options::all_tags`] is off.
    pub tags: Vec<(String, String)>,
    /// [`describe`]'s text, when [`Options::all_tags`] is off.
    pub about: Option<String>,
    pub comment: Option<String>,
    pub valid: bool,
    pub plies: usize,
    pub over: bool,
    pub seats: &'static [&'static str],
    pub scores: Vec<i64>,
    /// Winning seats, once over.
    pub winners: Vec<&'static str>,
    pub result_extras: Map<String, Value>,
    /// Checks that could not be made on this record.
    pub unchecked: Vec<String>,
    /// Lines the human `score` adds ([`Rules::score_notes`]), with
    /// [`Options::score_notes`].
    pub score_notes: Vec<String>,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
    pub moves: Vec<MoveRecord>,
    pub position: Vec<String>,
}

/// A reused report lets go of the room of more moves than this (a large
/// game's), so that reports kept for reuse stay small.
const KEPT_MOVES: usize = 1024;

impl GameReport {
    /// Empties the report for the next game, keeping its vectors' room (a
    /// report reused game after game allocates nothing in the common case).
    /// The same as [`GameReport::default`] but for that room.
    pub fn reset(&mut self) {
        let GameReport {
            game,
            variant,
            tags,
            about,
            comment,
            valid,
            plies,
            over,
            seats,
            scores,
            winners,
            result_extras,
            unchecked,
            score_notes,
            errors,
            warnings,
            moves,
            position,
        } = self;
        *game = "";
        *variant = "";
        tags.clear();
        *about = None;
        *comment = None;
        *valid = false;
        *plies = 0;
        *over = false;
        *seats = &[];
        scores.clear();
        winners.clear();
        result_extras.clear();
        unchecked.clear();
        score_notes.clear();
        errors.clear();
        warnings.clear();
        if moves.capacity() > KEPT_MOVES {
            *moves = Vec::new();
        } else {
            moves.clear();
        }
        position.clear();
    }

    fn push(&mut self, d: Diag) {
        match d.severity {
            Severity::Error => self.errors.push(d),
            Severity::Warning => self.warnings.push(d),
        }
    }
}

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

fn frame<R: Rules>(state: &R::State, last: Option<&R::Move>) -> Frame {
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

/// A game behind a name, its type erased.
pub trait DynGame: Sync {
    fn name(&self) -> &'static str;
    fn aliases(&self) -> &'static [&'static str];
    /// The variants, by name; the first is the default.
    fn variants(&self) -> &'static [&'static str];
    /// The tags that set the rules (besides `Game` and `Variant`).
    fn rules_tags(&self) -> &'static [&'static str];
    /// The player tags of every variant and number of players: the seat
    /// names capitalised, in seat order (for `gamerec tags`).
    fn player_tags(&self) -> Vec<String>;
    /// Replays a game into `report` (an earlier game's, whose room is reused).
    fn replay(&self, raw: &RawGame, src: &str, opts: &Options, report: &mut GameReport);
    /// Replays the whole game and looks at the position after `ply` plies (the
    /// end, or the position before the illegal move, when `None` or past it).
    fn view(
        &self,
        raw: &RawGame,
        src: &str,
        opts: &Options,
        ply: Option<usize>,
        color: bool,
    ) -> Result<View, ViewError>;
    /// See [`Rules::perft_divide`].
    fn perft_divide(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String>;
    /// See [`Rules::perft_divide_tags`].
    fn perft_divide_tags(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        tags: &crate::record::Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String>;
    /// The leaf count of the move tree from the variant's start.
    fn perft(&self, variant: Option<&str>, depth: u32) -> Result<u64, String> {
        self.perft_divide(variant, None, depth, &|_| {})
            .map(|d| crate::game::perft_total(&d))
    }
    /// [`DynGame::perft`] for a number of players.
    fn perft_players(&self, variant: Option<&str>, players: u8, depth: u32) -> Result<u64, String> {
        self.perft_divide(variant, Some(players), depth, &|_| {})
            .map(|d| crate::game::perft_total(&d))
    }
    /// Replays the whole game keeping the position after every ply (for the
    /// score plot and the HTML viewer); `None` when it could not be set up.
    fn frames(&self, raw: &RawGame, src: &str, opts: &Options) -> Frames;
    /// Whether the game's notation reads these tokens (the first moves of a
    /// record without a `Game` tag) from the start its tags give, and its
    /// engine plays them.
    fn reads_opening(&self, raw: &RawGame, tokens: &[crate::record::Token], src: &str) -> bool;
    /// The start position the rules tags set up, to play in notation
    /// ([`crate::play`]).
    fn position(
        &self,
        tags: &crate::record::Tags,
    ) -> Result<Box<dyn crate::play::AnyPosition>, Vec<Diag>>;
}

/// The [`DynGame`] of a [`Rules`] type.
pub struct Game<R>(PhantomData<fn() -> R>);

impl<R> Game<R> {
    pub const NEW: Self = Game(PhantomData);
}

impl<R: Rules> DynGame for Game<R>
where
    R::State: Send + Sync,
    R::Move: Send + Sync,
{
    fn position(
        &self,
        tags: &crate::record::Tags,
    ) -> Result<Box<dyn crate::play::AnyPosition>, Vec<Diag>> {
        Ok(Box::new(crate::play::Live::<R>::start(tags)?))
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        R::ALIASES
    }

    fn variants(&self) -> &'static [&'static str] {
        R::VARIANTS
    }

    fn rules_tags(&self) -> &'static [&'static str] {
        R::RULES_TAGS
    }

    fn player_tags(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in R::VARIANTS {
            for players in ["", "2", "3", "4", "5", "6"] {
                let mut text = format!("[Variant \"{v}\"]\n");
                if !players.is_empty() {
                    text.push_str(&format!("[Players \"{players}\"]\n"));
                }
                let games = crate::record::parse_file(&text);
                let Some(Ok(state)) = games.first().map(|g| R::start(&g.tags)) else {
                    continue;
                };
                for seat in R::seats(&state) {
                    let mut chars = seat.chars();
                    let tag: String = chars
                        .next()
                        .map(|c| c.to_ascii_uppercase())
                        .into_iter()
                        .chain(chars)
                        .collect();
                    if !out.contains(&tag) {
                        out.push(tag);
                    }
                }
            }
        }
        out
    }

    fn replay(&self, raw: &RawGame, src: &str, opts: &Options, report: &mut GameReport) {
        run::<R>(raw, src, opts, None, None, report);
    }

    fn frames(&self, raw: &RawGame, src: &str, opts: &Options) -> Frames {
        let mut frames = Vec::new();
        let mut keep = |s: &R::State, last: Option<&R::Move>| frames.push(frame::<R>(s, last));
        let mut report = GameReport::default();
        run::<R>(raw, src, opts, None, Some(&mut keep), &mut report);
        Frames {
            report,
            frames,
            unit: R::PLOT_UNIT,
        }
    }

    fn view(
        &self,
        raw: &RawGame,
        src: &str,
        opts: &Options,
        ply: Option<usize>,
        color: bool,
    ) -> Result<View, ViewError> {
        // the picture of the position the view stands at: the frame after the
        // ply asked for, else the last one (moves are not kept, so frames are)
        let mut seen = 0usize;
        let mut last = None;
        let mut keep = |s: &R::State, mv: Option<&R::Move>| {
            if ply.is_none_or(|k| seen <= k) {
                last = Some(frame::<R>(s, mv));
            }
            seen += 1;
        };
        let mut report = GameReport::default();
        let outcome = run::<R>(raw, src, opts, ply, Some(&mut keep), &mut report);
        let Some(end) = outcome.state else {
            return Err(ViewError::NotSetUp(Box::new(report)));
        };
        // The chosen ply when the replay passed it; else the end (a valid
        // game) or the position before the illegal move (an invalid one).
        let (state, at) = match (ply, outcome.at_stop) {
            (Some(k), Some(s)) => (s, k),
            (Some(_), None) if report.valid => return Err(ViewError::PastEnd(report.plies)),
            _ => (end, report.plies),
        };
        let svg = last.map_or_else(String::new, |f| {
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

    fn perft_divide(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        R::perft_divide(variant, players, depth, done)
    }

    fn perft_divide_tags(
        &self,
        variant: Option<&str>,
        players: Option<u8>,
        tags: &crate::record::Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        R::perft_divide_tags(variant, players, tags, depth, done)
    }

    fn reads_opening(&self, raw: &RawGame, tokens: &[crate::record::Token], src: &str) -> bool {
        let Ok(mut state) = R::start(&raw.tags) else {
            return false;
        };
        let parsed = R::parse_moves_in(&state, tokens, src);
        parsed.error.is_none()
            && !parsed.moves.is_empty()
            && parsed
                .moves
                .iter()
                .all(|pm| !R::is_over(&state) && R::play(&mut state, pm).is_ok())
    }
}

/// The moves `moves` lists (spec §5): nothing once the game is over, `pass`
/// alone when a pass is forced, else the game's legal moves sorted by text.
fn legal_moves<R: Rules>(state: &R::State) -> Result<Vec<String>, String> {
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
fn scored_moves<R: Rules>(state: &R::State) -> Option<Result<Vec<(String, i64)>, String>> {
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

/// Replays a game whose `Game` tag (or `--game`) names a known game.
pub fn replay(raw: &RawGame, src: &str, opts: &Options) -> GameReport {
    let mut report = GameReport::default();
    replay_into(raw, src, opts, &mut report);
    report
}

/// [`replay`] into `report`: an earlier game's, whose room is reused.
pub fn replay_into(raw: &RawGame, src: &str, opts: &Options, report: &mut GameReport) {
    match resolve_in(raw, src, opts) {
        Ok((game, warnings)) => {
            game.replay(raw, src, opts, report);
            if !warnings.is_empty() {
                report.warnings.splice(0..0, warnings);
            }
        }
        Err(failed) => *report = *failed,
    }
    let tags = raw
        .tags
        .0
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()));
    describe_into(report, tags, opts);
    cap_diagnostics(report, raw.tag_errors_dropped);
}

/// Fills in [`GameReport::about`] from the tags (name, value) in file order
/// when the options want it.
fn describe_into<'a>(
    report: &mut GameReport,
    tags: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    opts: &Options,
) {
    let about = opts.about
        || (opts.about_if_diagnostics && !(report.errors.is_empty() && report.warnings.is_empty()));
    if !opts.all_tags && about {
        report.about = Some(describe_tags(tags, report.seats));
    }
}

/// One buffer per thread and game for the parsed moves of a replay, so that
/// a replay allocates none once the thread has replayed a game of its kind.
mod scratch {
    use std::any::Any;
    use std::cell::RefCell;

    /// Moves a kept buffer holds room for at most (a larger game's room is
    /// let go).
    const KEPT: usize = 4096;

    thread_local! {
        /// The buffers, one per element type (a few games: a short list).
        static KEPT_BUFFERS: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
    }

    /// This thread's buffer of `T`s (empty), or a new one.
    pub fn take<T: 'static>() -> Vec<T> {
        KEPT_BUFFERS
            .with(|kept| {
                let mut kept = kept.try_borrow_mut().ok()?;
                kept.iter_mut()
                    .find_map(|b| b.downcast_mut::<Vec<T>>())
                    .map(std::mem::take)
            })
            .unwrap_or_default()
    }

    /// Hands a buffer back (emptied) for the thread's next replay of its kind.
    pub fn give<T: 'static>(mut v: Vec<T>) {
        if v.capacity() > KEPT {
            return;
        }
        v.clear();
        KEPT_BUFFERS.with(|kept| {
            let Ok(mut kept) = kept.try_borrow_mut() else {
                return;
            };
            match kept.iter_mut().find_map(|b| b.downcast_mut::<Vec<T>>()) {
                Some(slot) => *slot = v,
                None => kept.push(Box::new(v)),
            }
        });
    }
}

/// Diagnostics kept per game and kind (errors, warnings): a damaged file
/// could give thousands for one game.
pub const MAX_DIAGNOSTICS: usize = 20;

/// Keeps the first [`MAX_DIAGNOSTICS`] errors and warnings of a game, and
/// says how many more there were: those cut here and the `dropped` ones the
/// reader did not keep (tag errors past [`crate::record::MAX_TAG_ERRORS`]).
fn cap_diagnostics(report: &mut GameReport, dropped: usize) {
    let over = report.errors.len().saturating_sub(MAX_DIAGNOSTICS)
        + report.warnings.len().saturating_sub(MAX_DIAGNOSTICS)
        + dropped;
    if over == 0 {
        return;
    }
    report.errors.truncate(MAX_DIAGNOSTICS);
    report.warnings.truncate(MAX_DIAGNOSTICS);
    report.warnings.push(Diag::warning(
        "record::too_many_diagnostics",
        format!(
            "{over} more diagnostic{} of this game not shown (at most {MAX_DIAGNOSTICS} errors and {MAX_DIAGNOSTICS} warnings per game)",
            if over == 1 { "" } else { "s" }
        ),
    ));
}

/// How many of the first tokens a record without a `Game` tag must read as
/// moves of a game for the game to be inferred.
pub const INFER_TOKENS: usize = 4;

/// Which game a record is, from its `Game` tag or `--game`; the warnings to add
/// (`--game` disagreeing with the tag), or the failed report. Without either,
/// `record::missing_game` ([`resolve_in`] infers the game from the moves).
pub fn resolve(
    raw: &RawGame,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    resolve_with(raw, None, opts)
}

/// [`resolve`], and without a `Game` tag or `--game`: when exactly one
/// game's notation reads the first moves (up to [`INFER_TOKENS`] tokens of
/// `src`, the text the spans point into), that game, with a
/// `record::game_inferred` warning (PGN exports of Othello databases carry
/// no `Game` tag); otherwise `record::missing_game`, its help saying which
/// games were tried.
pub fn resolve_in(
    raw: &RawGame,
    src: &str,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    resolve_with(raw, Some(src), opts)
}

fn resolve_with(
    raw: &RawGame,
    src: Option<&str>,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    let fail = |d: Diag| {
        let mut report = GameReport {
            tags: tag_pairs(raw, None, opts),
            comment: raw.comment.clone(),
            ..GameReport::default()
        };
        // tag errors in file order (spec §5), this one among them
        let mut errors = raw.tag_errors.clone();
        errors.push(d);
        errors.sort_by_key(|e| e.span.map_or(0, |s| s.offset));
        for e in errors {
            report.push(e);
        }
        Box::new(report)
    };
    let mut warnings = Vec::new();
    let tag = raw.tags.get("Game");
    let cli = opts.game.as_deref();
    let (name, tag_span) = match (tag, cli) {
        (Some(t), cli) => {
            if let Some(c) = cli {
                let same = crate::games::by_name(c)
                    .zip(crate::games::by_name(&t.value))
                    .is_some_and(|(a, b)| a.name() == b.name());
                if !same {
                    warnings.push(
                        Diag::warning(
                            "record::game_mismatch",
                            format!("--game {c} disagrees with the Game tag; the tag wins"),
                        )
                        .at(t.value_span)
                        .label(format!("this record says {}", t.value)),
                    );
                }
            }
            (t.value.as_str(), Some(t.value_span))
        }
        (None, Some(c)) => (c, None),
        (None, None) => {
            // A game over the size limit was dropped before its tags were
            // read: that is what is wrong with it, not a missing tag.
            if let Some(stop) = raw.stop.as_ref().filter(|d| d.code == "record::too_large") {
                return Err(fail(stop.clone()));
            }
            // Point at the game's first tag, or its first move.
            let first = raw
                .tags
                .0
                .first()
                .map(|t| t.span)
                .or_else(|| raw.tokens.first().map(|t| t.span))
                .unwrap_or(crate::span::Span::new(raw.span.offset, 0));
            let opening = raw.tokens.get(..raw.tokens.len().min(INFER_TOKENS));
            let read: Vec<&'static dyn DynGame> = match (src, opening) {
                (Some(src), Some(opening)) if !opening.is_empty() => crate::games::REGISTRY
                    .iter()
                    .copied()
                    .filter(|g| g.reads_opening(raw, opening, src))
                    .collect(),
                _ => Vec::new(),
            };
            if let (Some(src), [game]) = (src, &read[..]) {
                let moves = raw.tokens.first().map_or(first, |t| t.span);
                let at = if raw.tags.0.is_empty() {
                    moves
                } else {
                    tag_section(raw)
                };
                let shown: Vec<&str> = opening.unwrap_or(&[]).iter().map(|t| t.text(src)).collect();
                warnings.push(
                    Diag::warning(
                        "record::game_inferred",
                        format!(
                            "no `Game` tag: read as {}, the only game whose notation reads the first moves (as legal moves)",
                            game.name()
                        ),
                    )
                    .at(at)
                    .label(format!("read as {}", game.name()))
                    .help(format!(
                        "the first moves `{}` read as {} only; add [Game \"{}\"] or pass --game {} to say so",
                        shown.join(" "),
                        game.name(),
                        game.name(),
                        game.name()
                    )),
                );
                return Ok((*game, warnings));
            }
            let all: Vec<&str> = crate::games::REGISTRY.iter().map(|g| g.name()).collect();
            let tried = match &read[..] {
                _ if src.is_none() => String::new(),
                [] if raw.tokens.is_empty() => {
                    "; there are no moves to tell the game by".to_string()
                }
                [] => format!(
                    "; the first moves read as no game's notation (tried {})",
                    all.join(", ")
                ),
                several => format!(
                    "; the first moves read as {} alike (tried {})",
                    several
                        .iter()
                        .map(|g| g.name())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    all.join(", ")
                ),
            };
            let d = Diag::error(
                "record::missing_game",
                "the record has no `Game` tag and no --game was given",
            )
            .at(first)
            .label("this game does not say which game it is")
            .help(format!(
                "add a tag such as [Game \"reversi\"], or pass --game reversi{tried}"
            ));
            return Err(fail(d));
        }
    };
    match crate::games::by_name(name) {
        Some(g) => Ok((g, warnings)),
        None => {
            let mut d = Diag::error("record::unknown_game", format!("unknown game `{name}`"))
                .label("not a game gamerec knows")
                .help(crate::games::unknown_help(name));
            if let Some(s) = tag_span {
                d = d.at(s);
            }
            Err(fail(d))
        }
    }
}

fn tag_pairs(raw: &RawGame, game: Option<&str>, opts: &Options) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    tag_pairs_into(&mut tags, raw, game, opts);
    tags
}

/// [`tag_pairs`] into `tags` (empty).
fn tag_pairs_into(
    tags: &mut Vec<(String, String)>,
    raw: &RawGame,
    game: Option<&str>,
    opts: &Options,
) {
    if !opts.all_tags {
        return;
    }
    tags.reserve(raw.tags.0.len() + 1);
    if let (None, Some(g)) = (raw.tags.get("Game"), game) {
        tags.push(("Game".into(), g.into()));
    }
    tags.extend(raw.tags.iter().map(|t| (t.name.clone(), t.value.clone())));
}

/// A claimed result: from the `Result` tag or the final result token.
struct Claim<'a> {
    /// The scores' text (well formed, one score per seat when the seats are
    /// known), read again when checked: no vector per game; `None` for `*`.
    scores: Option<&'a str>,
    span: Span,
    what: &'static str,
}

/// Reads a claimed result. The number of scores is checked against `seats`
/// when they are known (the game could be set up).
fn read_claim<'a>(
    text: &'a str,
    span: Span,
    what: &'static str,
    seats: Option<&[&str]>,
) -> Result<Claim<'a>, Diag> {
    let text = text.trim();
    if text == "*" {
        return Ok(Claim {
            scores: None,
            span,
            what,
        });
    }
    let in_order = |seats: &[&str]| seats.join(", ");
    match (each_result_score(text, |_| {}), seats) {
        (Some(count), Some(seats)) if count != seats.len() => Err(Diag::error(
            "record::bad_result",
            format!(
                "the result gives {}, but this game has {}",
                plural(count, "score", "scores"),
                plural(seats.len(), "seat", "seats"),
            ),
        )
        .at(span)
        .label("wrong number of scores")
        .help(format!("one score per seat, in order: {}", in_order(seats)))),
        (Some(_), _) => Ok(Claim {
            scores: Some(text),
            span,
            what,
        }),
        (None, seats) => {
            let per_seat = match seats {
                Some(seats) => format!("one integer per seat ({})", in_order(seats)),
                None => "one integer per seat".to_string(),
            };
            Err(
                Diag::error("record::bad_result", format!("`{text}` is not a result"))
                    .at(span)
                    .label("not a result")
                    .help(format!(
                        "write {per_seat} joined by `-`, or by `, ` when one is negative, or `*`"
                    )),
            )
        }
    }
}

/// What `run` found besides the report: the state at the end (when the game
/// could be set up), and the state after the ply asked for (when the replay
/// passed it).
struct Outcome<S> {
    state: Option<S>,
    at_stop: Option<S>,
}

/// The replay, in the steps of spec §5: the tags, the start, the moves with
/// their automatic passes, the end of the movetext, then the result checks.
/// `stop_at`: keep the state after that many plies too (for `show`/`moves`);
/// the replay still runs to the end, so an illegal move after it is reported.
/// `on_ply` sees the start position and the position after every ply, with
/// the move that led to it (pictures: `show --svg`, plots, the HTML viewer).
/// The report is written into `report` (an earlier game's: its room is
/// reused; it is filled in place, never moved).
fn run<'a, R: Rules>(
    raw: &'a RawGame,
    src: &'a str,
    opts: &'a Options,
    stop_at: Option<usize>,
    on_ply: Option<OnPly<'a, R>>,
    report: &'a mut GameReport,
) -> Outcome<R::State> {
    report.reset();
    report.game = R::NAME;
    tag_pairs_into(&mut report.tags, raw, Some(R::NAME), opts);
    report.comment.clone_from(&raw.comment);
    // Conversion keeps a final result token as the `Result` tag when there
    // is none (formats without movetext have no other place for the claim);
    // a `*` claims nothing (the writer puts it after a game without moves).
    if let (true, true, None, Some(t)) = (
        opts.record_moves,
        opts.all_tags,
        raw.tags.get("Result"),
        &raw.result_token,
    ) {
        let text = t.text(src).trim();
        if text != "*" {
            report.tags.push(("Result".to_string(), text.to_string()));
        }
    }
    let (state, seats, result_tag) = tags::<R>(raw, src, report);
    let Some(state) = state else {
        report.valid = false;
        return Outcome {
            state: None,
            at_stop: None,
        };
    };
    report.variant = R::variant(&state);
    report.seats = seats.unwrap_or_else(|| R::seats(&state));
    let mut replay = Replay::<R> {
        raw,
        src,
        opts,
        report,
        state,
        plies: 0,
        stop_at,
        at_stop: None,
        next_comment_token: 0,
        on_ply,
    };
    replay.played(None);
    // the parsed moves go into this thread's buffer for the game's moves
    let mut moves: Vec<Parsed<R::Move, R::Spans>> = scratch::take();
    let error = R::parse_moves_into(&replay.state, &raw.tokens, src, &mut moves);
    let split = split_document_move::<R>(raw, src, &moves);
    let failed = match split {
        None => replay.moves(&moves).is_err() || replay.movetext_end(error, moves.last()).is_err(),
        Some((k, d)) => {
            if replay.moves(moves.get(..k).unwrap_or(&[])).is_ok() {
                let ply = replay.plies + 1;
                replay.report.push(d.ply(ply));
            }
            true
        }
    };
    scratch::give(moves);
    let token_claim = raw.result_token.as_ref().and_then(|t| {
        read_claim(
            t.text(src),
            t.span,
            "result token",
            Some(replay.report.seats),
        )
        .map_err(|d| replay.report.push(d))
        .ok()
    });
    replay.finish();
    if !failed {
        replay.check_claims([result_tag, token_claim]);
        replay.check_winner_claim();
    }
    let report = replay.report;
    report.valid = report.errors.is_empty();
    Outcome {
        state: Some(replay.state),
        at_stop: replay.at_stop,
    }
}

/// A document (JSON, YAML) move whose notation reads as more or less than
/// one move of the game (`f5d6`, `f5 d6` for Reversi): the index of the
/// first parsed move that does not end where a document move does, and its
/// `record::bad_notation_value`.
fn split_document_move<R: Rules>(
    raw: &RawGame,
    src: &str,
    moves: &[Parsed<R::Move, R::Spans>],
) -> Option<(usize, Diag)> {
    if raw.doc_moves.is_empty() {
        return None;
    }
    let k = moves
        .iter()
        .zip(&raw.doc_moves)
        .position(|(pm, &last)| pm.token != last)?;
    let pm = moves.get(k)?;
    // the document move whose tokens hold this move
    let j = raw.doc_moves.partition_point(|&last| last < pm.token);
    let first = j
        .checked_sub(1)
        .and_then(|i| raw.doc_moves.get(i))
        .map_or(0, |&l| l + 1);
    let last = raw.doc_moves.get(j).copied().unwrap_or(first);
    let notation = match (raw.tokens.get(first), raw.tokens.get(last)) {
        (Some(a), Some(b)) => a.span.join(b.span).text(src),
        _ => pm.span.text(src),
    };
    Some((
        k,
        Diag::error(
            "record::bad_notation_value",
            format!(
                "the notation `{notation}` of written move {} of the document is not one {} move",
                j + 1,
                R::NAME
            ),
        )
        .at(pm.span)
        .label("one move of the game, not all of this notation")
        .help("write one move per document move (`f5`, not `f5d6` or `f5 d6`)"),
    ))
}

/// The tag step: every tag error in file order (the container's, the rules
/// tags', a malformed `Result`), and the start state unless a rules tag failed.
/// Also returns the seats when it needed them, and the `Result` tag's claim
/// when it reads.
fn tags<'a, R: Rules>(
    raw: &'a RawGame,
    src: &str,
    report: &mut GameReport,
) -> (
    Option<R::State>,
    Option<&'static [&'static str]>,
    Option<Claim<'a>>,
) {
    let mut errors: Vec<Diag> = raw.tag_errors.clone();
    let stopped = raw.tag_errors.iter().any(|e| {
        e.severity == Severity::Error
            && e.span
                .map(|s| s.text(src))
                .is_some_and(|t| is_rules_tag::<R>(t))
    });
    let state = if stopped {
        None
    } else {
        match R::start(&raw.tags) {
            Ok(s) => Some(s),
            Err(diags) => {
                // A missing rules tag has no span of its own: blame the
                // game's tag section (its first token when it has no tags).
                let section = tag_section(raw);
                errors.extend(
                    diags
                        .into_iter()
                        .map(|d| if d.span.is_none() { d.at(section) } else { d }),
                );
                None
            }
        }
    };
    let mut seats = None;
    let mut claim = None;
    if let Some(t) = raw.tags.get("Result") {
        seats = state.as_ref().map(R::seats);
        match read_claim(&t.value, t.value_span, "Result tag", seats) {
            Ok(c) => claim = Some(c),
            Err(d) => errors.push(d),
        }
    }
    // misspelled or mis-cased tag names: warnings
    errors.extend(crate::record::unknown_tag_warnings(
        &raw.tags,
        &[crate::record::COMMON_TAGS, &PLAYER_TAGS, R::RULES_TAGS],
        R::NAME,
    ));
    errors.sort_by_key(|d| d.span.map_or(0, |s| s.offset));
    for d in errors {
        report.push(d.ply(0));
    }
    (state, seats, claim)
}

/// A game's tag section, from its first tag to its last; its first token when
/// it has no tags.
fn tag_section(raw: &RawGame) -> Span {
    match (raw.tags.0.first(), raw.tags.0.last()) {
        (Some(first), Some(last)) => first.span.join(last.span),
        _ => raw
            .tokens
            .first()
            .map(|t| t.span)
            .unwrap_or(Span::new(raw.span.offset, 0)),
    }
}

/// The error of a move (or any token) after the end of the game.
fn after_end<R: Rules>(span: Span, ply: usize) -> Diag {
    Diag::error(
        format!("{}::move_after_end", R::NAME),
        "the game is already over",
    )
    .at(span)
    .label("move after the end of the game")
    .help("no move of any kind (pass included) may follow the end; remove it")
    .ply(ply)
}

/// A replay under way, past its start.
struct Replay<'a, R: Rules> {
    raw: &'a RawGame,
    src: &'a str,
    opts: &'a Options,
    report: &'a mut GameReport,
    state: R::State,
    plies: usize,
    stop_at: Option<usize>,
    /// The state after `stop_at` plies, once reached.
    at_stop: Option<R::State>,
    /// The first token whose comment is not yet attached to a recorded move.
    next_comment_token: usize,
    on_ply: Option<OnPly<'a, R>>,
}

/// What sees every position of a replay, with the move that led to it.
type OnPly<'a, R> = &'a mut dyn FnMut(&<R as Rules>::State, Option<&<R as Rules>::Move>);

/// A move failed: the replay of the moves stops (its diagnostic is in the report).
struct Stopped;

impl<R: Rules> Replay<'_, R> {
    /// A ply was played (or the start position set up): shows it and keeps
    /// it when it is the view's ply.
    fn played(&mut self, mv: Option<&R::Move>) {
        if let Some(f) = self.on_ply.as_mut() {
            f(&self.state, mv);
        }
        self.reached();
    }

    /// Keeps the state when the view's ply is reached.
    fn reached(&mut self) {
        if self.stop_at == Some(self.plies) && self.at_stop.is_none() {
            self.at_stop = Some(self.state.clone());
        }
    }

    /// Takes the automatic passes owed before a move at `span` (spec §5:
    /// only before a move, legal or not; the end of the game is checked first).
    #[inline(never)]
    fn auto_passes(&mut self, span: Span, token: usize) {
        // `must_pass` first: the cheaper question, and most often no
        while R::must_pass(&self.state) && !R::is_over(&self.state) {
            let pass = Parsed {
                mv: R::pass(),
                span,
                token,
                parts: Default::default(),
            };
            let recorded = self.opts.record_moves.then(|| {
                (
                    R::to_move(&self.state),
                    R::move_extras(&self.state, &pass.mv),
                )
            });
            if R::play(&mut self.state, &pass).is_err() {
                return;
            }
            self.plies += 1;
            if let Some((player, extras)) = recorded {
                self.report.moves.push(MoveRecord {
                    ply: self.plies,
                    player,
                    notation: R::write_move(&pass.mv).into(),
                    comment: None,
                    auto: true,
                    extras,
                    number: None,
                });
            }
            self.played(Some(&pass.mv));
        }
    }

    /// The moves step: each move after its automatic passes, up to the first
    /// that fails (after the end, by the wrong player, or illegal).
    fn moves(&mut self, moves: &[Parsed<R::Move, R::Spans>]) -> Result<(), Stopped> {
        // what most records lack, asked once per game rather than per ply
        let marks_passes = !self.raw.auto_passes.is_empty();
        let names_players = !self.raw.token_players.is_empty();
        let watched = self.on_ply.is_some() || self.stop_at.is_some();
        for (k, pm) in moves.iter().enumerate() {
            let before = self.plies;
            // the loop's own first question, asked here so that the
            // common case (a side that can move) makes no call
            if !R::is_pass(&pm.mv) && R::must_pass(&self.state) {
                self.auto_passes(pm.span, pm.token);
            }
            if marks_passes {
                self.check_marked_passes(k, self.plies - before, pm)?;
            }
            if R::is_over(&self.state) {
                self.report.push(after_end::<R>(pm.span, self.plies + 1));
                return Err(Stopped);
            }
            if names_players {
                self.check_player(pm)?;
            }
            // Who moved and the move's fields, read before the move (for conversion).
            let recorded = self
                .opts
                .record_moves
                .then(|| (R::to_move(&self.state), R::move_extras(&self.state, &pm.mv)));
            if let Err(d) = R::play(&mut self.state, pm) {
                let d = if d.span.is_none() { d.at(pm.span) } else { d };
                self.report.push(d.ply(self.plies + 1));
                return Err(Stopped);
            }
            self.plies += 1;
            if let Some((player, extras)) = recorded {
                let last_of_token = moves.get(k + 1).is_none_or(|n| n.token > pm.token);
                let comment = if last_of_token {
                    self.comments_up_to(pm.token)
                } else {
                    None
                };
                // the number written before the move's first token
                let after = k.checked_sub(1).and_then(|j| moves.get(j)).map(|p| p.token);
                let number = self
                    .raw
                    .numbers
                    .iter()
                    .rev()
                    .find(|&&(t, _)| t <= pm.token && after.is_none_or(|a| t > a))
                    .map(|&(_, s)| s.text(self.src).to_string());
                self.report.moves.push(MoveRecord {
                    ply: self.plies,
                    player,
                    notation: R::write_move(&pm.mv).into(),
                    comment,
                    auto: false,
                    extras,
                    number,
                });
            }
            if watched {
                self.played(Some(&pm.mv));
            }
        }
        Ok(())
    }

    /// `record::bad_auto_move`: a document marks more automatic passes
    /// before its `k`-th written move than the engine took (`taken`).
    fn check_marked_passes(
        &mut self,
        k: usize,
        taken: usize,
        pm: &Parsed<R::Move, R::Spans>,
    ) -> Result<(), Stopped> {
        let marked = self.raw.auto_passes.iter().filter(|&&i| i == k).count();
        if marked <= taken {
            return Ok(());
        }
        let mover = R::to_move(&self.state);
        self.report.push(
            Diag::error(
                "record::bad_auto_move",
                format!(
                    "the document marks {} before this move, but the engine takes {taken}: {mover} has a move",
                    plural(marked, "automatic pass", "automatic passes"),
                ),
            )
            .at(pm.span)
            .label(format!("{mover} to move here"))
            .help("an automatic pass is marked `auto: true` only where the side to move has no move")
            .ply(self.plies + 1),
        );
        Err(Stopped)
    }

    /// `record::wrong_player`: a format that says whose move it is
    /// disagrees with the side to move.
    fn check_player(&mut self, pm: &Parsed<R::Move, R::Spans>) -> Result<(), Stopped> {
        let Some(want) = self
            .raw
            .token_players
            .get(pm.token)
            .and_then(Option::as_deref)
        else {
            return Ok(());
        };
        let mover = R::to_move(&self.state);
        if want.eq_ignore_ascii_case(mover) {
            return Ok(());
        }
        self.report.push(
            Diag::error(
                "record::wrong_player",
                format!("the record gives this move to {want}, but {mover} is to move"),
            )
            .at(pm.span)
            .label(format!("{mover} to move"))
            .help(format!(
                "the move's colour must be the side to move ({mover}); a side with no move passes"
            ))
            .ply(self.plies + 1),
        );
        Err(Stopped)
    }

    /// The comments of the tokens not yet attached, up to `token`, joined.
    fn comments_up_to(&mut self, token: usize) -> Option<String> {
        let mut comment: Option<String> = None;
        for c in self.raw.comments_of(self.next_comment_token, token) {
            match &mut comment {
                Some(existing) => {
                    existing.push(' ');
                    existing.push_str(c);
                }
                None => comment = Some(c.to_string()),
            }
        }
        self.next_comment_token = token + 1;
        comment
    }

    /// The end of the movetext, once every move read has been played: a
    /// token the notation could not read is a move (after its automatic
    /// passes; after the end of the game it is `move_after_end`, whatever it
    /// says); the container's own stop (a stray `}`, a decreasing move
    /// number, an unterminated comment) is not a move, so no pass is taken.
    fn movetext_end(
        &mut self,
        notation_error: Option<Diag>,
        last: Option<&Parsed<R::Move, R::Spans>>,
    ) -> Result<(), Stopped> {
        if let Some(d) = notation_error {
            let span = d.span.unwrap_or_default();
            let token = last.map_or(0, |m| m.token + 1);
            self.auto_passes(span, token);
            let d = if R::is_over(&self.state) {
                // The first token not read, unless the error is inside the
                // last move's token (a compact transcript).
                let at = self
                    .raw
                    .tokens
                    .get(token)
                    .map(|t| t.span)
                    .filter(|t| t.offset <= span.offset)
                    .unwrap_or(span);
                after_end::<R>(at, self.plies + 1)
            } else {
                d.ply(self.plies + 1)
            };
            self.report.push(d);
            return Err(Stopped);
        }
        if let Some(d) = &self.raw.stop {
            self.report.push(d.clone().ply(self.plies + 1));
            return Err(Stopped);
        }
        Ok(())
    }

    /// The end step: plies, whether over, scores, winners, the position.
    fn finish(&mut self) {
        end_report::<R>(self.report, &self.state, self.plies, self.opts);
    }

    /// The result check: claimed scores against the replay's once the game
    /// is over; a warning, unchecked, while it is not.
    /// `claims`: the `Result` tag's, then the result token's.
    fn check_claims(&mut self, claims: [Option<Claim>; 2]) {
        let report = &mut self.report;
        for claim in claims.into_iter().flatten() {
            let Some(text) = claim.scores else {
                continue;
            };
            // the claim against the replay's scores, a score at a time
            let (mut at, mut same) = (0, true);
            let count = each_result_score(text, |s| {
                same &= report.scores.get(at) == Some(&s);
                at += 1;
            });
            let same = same && count == Some(report.scores.len());
            if !report.over {
                report.push(
                    Diag::warning(
                        "record::result_unchecked",
                        format!(
                            "the {} gives scores, but the game is not over; not checked",
                            claim.what
                        ),
                    )
                    .at(claim.span)
                    .label("game not over")
                    .help("write `*` for an unfinished game"),
                );
            } else if !same {
                let claimed = parse_result_scores(text).unwrap_or_default();
                let actual = crate::record::format_result(&report.scores);
                let d = Diag::error(
                    "record::result_mismatch",
                    format!(
                        "the {} claims {}, but the replay gives {actual}",
                        claim.what,
                        crate::record::format_result(&claimed)
                    ),
                )
                .at(claim.span)
                .label(format!("the final scores are {actual}"))
                .help(R::result_help(&self.state, &claimed).unwrap_or_else(|| {
                    format!(
                        "scores in seat order ({}): {actual}",
                        report.seats.join(", ")
                    )
                }));
                report.push(d);
            }
        }
    }

    /// A claimed winner (a CSV winner column) against the replay's.
    fn check_winner_claim(&mut self) {
        let Some(claim) = &self.raw.winner_claim else {
            return;
        };
        let report = &mut self.report;
        let claimed: Vec<&str> = claim
            .seats
            .iter()
            .filter_map(|&i| report.seats.get(i).cloned())
            .collect();
        let say = |w: &[&str]| match w {
            [] => "no winner".to_string(),
            [one] => one.to_string(),
            _ => format!("a draw ({})", w.join(", ")),
        };
        if !report.over {
            report.push(
                Diag::warning(
                    "record::result_unchecked",
                    "the record names a winner, but the game is not over; not checked",
                )
                .at(claim.span)
                .label("game not over"),
            );
        } else if claimed != report.winners {
            let actual = say(&report.winners);
            let d = Diag::error(
                format!("{}::winner_mismatch", R::NAME),
                format!(
                    "the record says the winner is {} (`{}`), but the replay gives {actual}",
                    say(&claimed),
                    claim.text
                ),
            )
            .at(claim.span)
            .label(format!("the replay gives {actual}"))
            .help(format!(
                "final scores ({}): {}",
                report.seats.join(", "),
                crate::record::format_result(&report.scores)
            ));
            report.push(d);
        }
    }
}

/// The end step's report of a game at its end `state` after `plies`
/// plies: plies, whether over, scores, winners, the position (the driver's
/// [`Replay::finish`] and the packed replay, [`packed::replay`]).
fn end_report<R: Rules>(report: &mut GameReport, state: &R::State, plies: usize, opts: &Options) {
    report.plies = plies;
    report.over = R::is_over(state);
    R::scores_into(state, &mut report.scores);
    if opts.result_extras {
        report.result_extras = R::result_extras(state);
    }
    report.unchecked = R::unchecked(state);
    if opts.score_notes {
        report.score_notes = R::score_notes(state);
    }
    report.winners.clear();
    if report.over {
        let set = R::winner_set(state, &report.scores);
        let seats = report.seats.iter().enumerate();
        report.winners.extend(
            seats
                .filter(|&(i, _)| set.checked_shr(i as u32).is_some_and(|s| s & 1 == 1))
                .map(|(_, &seat)| seat),
        );
    }
    if opts.record_moves {
        report.position = R::position_rows(state);
    }
}

fn is_rules_tag<R: Rules>(tag_text: &str) -> bool {
    let name = tag_text
        .trim_start_matches('[')
        .trim_start()
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("");
    name == "Game" || name == "Variant" || R::RULES_TAGS.contains(&name)
}

/// The player tags: each game's seat names, capitalised.
const PLAYER_TAGS: [&str; 15] = [
    "Black", "White", "Blue", "Yellow", "Red", "Green", "Purple", "Orange", "Gold", "Player1",
    "Player2", "Player3", "Player4", "Player5", "Player6",
];

/// Whether [`describe`] may read the tag `name` (every game's seats,
/// capitalised, are among the player tags).
pub fn described(name: &str) -> bool {
    name == "Event" || PLAYER_TAGS.contains(&name)
}

/// The description of a game for diagnostics: `Event`, then the players in
/// seat order (player tags are the seat names capitalised: `Black`, `Gold`,
/// `Player1`).
pub fn describe(report: &GameReport) -> String {
    match &report.about {
        Some(about) => about.clone(),
        None => describe_tags(
            report.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            report.seats,
        ),
    }
}

/// [`describe`] from the tags (name, value) in file order and the seats.
pub fn describe_tags<'a, I>(tags: I, seats: &[&str]) -> String
where
    I: Iterator<Item = (&'a str, &'a str)> + Clone,
{
    // measured first, so the text is allocated once
    let mut len = 0;
    describe_pieces(tags.clone(), seats, |piece| len += piece.len());
    if len == 0 {
        return String::new();
    }
    let mut out = String::with_capacity(len);
    describe_pieces(tags, seats, |piece| out.push_str(piece));
    out
}

/// The pieces of [`describe_tags`]'s text, in order.
fn describe_pieces<'a, I>(tags: I, seats: &[&str], mut piece: impl FnMut(&'a str))
where
    I: Iterator<Item = (&'a str, &'a str)> + Clone,
{
    let event = tags.clone().find(|&(k, _)| k == "Event").map(|(_, v)| v);
    if let Some(e) = event {
        piece(e);
    }
    let mut players = 0;
    let mut add = |player: &'a str| {
        if players > 0 {
            piece(" vs ");
        } else if event.is_some() {
            piece(", ");
        }
        piece(player);
        players += 1;
    };
    if seats.is_empty() {
        // Before the seats are known (a game that could not be set up), the
        // player tags in file order.
        for (_, v) in tags.filter(|&(k, _)| PLAYER_TAGS.contains(&k)) {
            add(v);
        }
    } else {
        for seat in seats {
            if let Some((_, v)) = tags.clone().find(|&(k, _)| is_capitalised(k, seat)) {
                add(v);
            }
        }
    }
}

/// Whether `name` is `seat` with its first letter in upper case.
fn is_capitalised(name: &str, seat: &str) -> bool {
    match (name.as_bytes().split_first(), seat.as_bytes().split_first()) {
        (Some((n, name_rest)), Some((s, seat_rest))) if s.is_ascii() => {
            *n == s.to_ascii_uppercase() && name_rest == seat_rest
        }
        _ => {
            let mut c = seat.chars();
            match c.next() {
                Some(first) => name.chars().eq(first.to_uppercase().chain(c)),
                None => name.is_empty(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    /// Every `.gamerec` fixture under `dir`, in a fixed order.
    fn fixture_texts(dir: &std::path::Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                fixture_texts(&p, out);
            } else if p.extension().is_some_and(|e| e == "gamerec") {
                out.extend(std::fs::read_to_string(&p).ok());
            }
        }
    }

    /// A report reused game after game (the last game's, of any game, valid
    /// or not) comes out as a fresh one, under every set of options the
    /// commands use.
    #[test]
    fn reused_reports_are_fresh_reports() {
        let mut texts = Vec::new();
        fixture_texts(std::path::Path::new("fixtures"), &mut texts);
        assert!(texts.len() > 100, "fixtures found: {}", texts.len());
        let quiet = Options {
            result_extras: false,
            all_tags: false,
            about: false,
            ..Options::default()
        };
        let convert = Options {
            record_moves: true,
            score_notes: true,
            ..Options::default()
        };
        for opts in [Options::default(), quiet, convert] {
            let mut spare = GameReport::default();
            for text in &texts {
                for raw in parse_file(text) {
                    let fresh = replay(&raw, text, &opts);
                    replay_into(&raw, text, &opts, &mut spare);
                    assert_eq!(spare, fresh);
                }
            }
        }
    }

    /// A game's moves read into a reused buffer (holding another game's
    /// moves) are the moves read fresh, with the same error.
    fn reads_into_a_used_buffer<R: Rules>(games: &[(RawGame, &str)]) -> usize {
        let mut buffer = Vec::new();
        let mut read = 0;
        for (raw, src) in games {
            let Ok(start) = R::start(&raw.tags) else {
                continue;
            };
            let fresh = R::parse_moves_in(&start, &raw.tokens, src);
            let error = R::parse_moves_into(&start, &raw.tokens, src, &mut buffer);
            assert_eq!(format!("{buffer:?}"), format!("{:?}", fresh.moves));
            assert_eq!(format!("{error:?}"), format!("{:?}", fresh.error));
            read += 1;
        }
        read
    }

    #[test]
    fn moves_read_into_a_reused_buffer_are_moves_read_fresh() {
        use crate::games::reversi::Reversi;
        use crate::games::{blokus::Blokus, deblockle::Deblockle, qwirkle::Qwirkle};
        let mut texts = Vec::new();
        fixture_texts(std::path::Path::new("fixtures"), &mut texts);
        let games: Vec<(RawGame, &str)> = texts
            .iter()
            .flat_map(|t| parse_file(t).into_iter().map(move |g| (g, t.as_str())))
            .collect();
        for read in [
            reads_into_a_used_buffer::<Reversi>(&games),
            reads_into_a_used_buffer::<Blokus>(&games),
            reads_into_a_used_buffer::<Qwirkle>(&games),
            reads_into_a_used_buffer::<Deblockle>(&games),
        ] {
            assert!(read > 20, "{read} games read");
        }
    }

    /// `describe` gives the same text from the kept tags and from `about`.
    #[test]
    fn about_is_describe_of_the_tags() {
        let brief = Options {
            all_tags: false,
            ..Options::default()
        };
        let text = "[Event \"Club, round 2\"]\n[White \"W\"]\n[Black \"B\"]\n[Game \"reversi\"]\nf5 d6\n\n\
            [Black \"only\"]\n[Game \"reversi\"]\nf5\n\n\
            [Event \"\"]\n[White \"w\"]\n[Game \"nope\"]\n[Gold \"g\"]\nf5\n\n\
            [Game \"reversi\"]\n[Variant \"bad\"]\n[White \"x\"]\n[Black \"y\"]\nf5\n\n\
            [Game \"deblockle\"]\n[Gold \"G\"]\n[Blue \"Bl\"]\n[Event \"E\"]\nf5\n\n\
            [Game \"reversi\"]\nf5\n";
        let games = parse_file(text);
        assert_eq!(games.len(), 6);
        let mut seen = Vec::new();
        for g in &games {
            let full = replay(g, text, &Options::default());
            let lean = replay(g, text, &brief);
            assert!(lean.tags.is_empty());
            assert_eq!(lean.about.as_deref(), Some(describe(&full).as_str()));
            assert_eq!(describe(&lean), describe(&full));
            seen.push(describe(&full));
        }
        assert_eq!(
            seen,
            [
                "Club, round 2, B vs W",
                "only",
                ", w vs g",
                "x vs y",
                "E, G vs Bl",
                ""
            ]
        );
    }

    #[test]
    fn capitalised_seats() {
        assert!(is_capitalised("Black", "black"));
        assert!(is_capitalised("Player2", "player2"));
        assert!(!is_capitalised("black", "black"));
        assert!(!is_capitalised("Blacks", "black"));
        assert!(is_capitalised("Élan", "élan"));
        assert!(is_capitalised("", ""));
        assert!(!is_capitalised("B", ""));
    }
}
