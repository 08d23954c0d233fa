//! What a command keeps of a replay: its [`Sink`].
//!
//! The driver writes the verdict into the [`GameReport`] itself (the
//! diagnostics, plies, whether over, scores, winners, validity). What else
//! the report holds is the business of the command that asked for the
//! replay, and it says so with a sink, passed down in [`Options`]: which
//! tags the report keeps ([`Sink::tags`]), whether it keeps every move
//! ([`Sink::records_moves`]), and what it takes from the final position
//! ([`Sink::end`], given the position as an [`End`]). Each command has its
//! sink in its own file; the library's are here: [`Summary`] (the default:
//! the JSON report), [`Brief`] (a human report's line per game),
//! [`Record`] (conversion), [`Moves`] (statistics, duplicates) and
//! [`Verdict`] (nothing but the verdict).
//!
//! A sink is shared by the replays of every thread, so it keeps nothing
//! itself: it decides what goes into each game's report. It is asked once
//! per game, never per move (the move loop of `validate -q` asks nothing).
//!
//! The driver's generic [`Visitor`](super::Visitor) is the step-by-step
//! interface underneath (a type parameter, for replays that watch every
//! position); `&Options` is the visitor that runs a sink.

use serde_json::{Map, Value};

use super::GameReport;
#[allow(unused_imports)]
use super::Options;

/// Which tags a report keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagsKept {
    /// Every tag, in [`GameReport::tags`] (a `Game` tag first when
    /// `--game` supplied it).
    All,
    /// Only the one-line description built from them, in
    /// [`GameReport::about`].
    Described,
    /// The description only for a game with diagnostics (`validate -q`
    /// prints only those games).
    DescribedIfDiagnostics,
    /// Nothing: no tag value is built.
    Nothing,
}

/// The final position of a replay, as a sink may ask for its parts.
pub trait End {
    /// The game's extra result fields for JSON (`GameReport::result_extras`).
    fn result_extras(&self) -> Map<String, Value>;
    /// The lines the human `score` adds (`GameReport::score_notes`).
    fn score_notes(&self) -> Vec<String>;
}

/// What a command keeps of each replay (see the module's front).
pub trait Sink: Send + Sync + std::fmt::Debug {
    /// Which tags the report keeps. Every tag unless the sink says less.
    fn tags(&self) -> TagsKept {
        TagsKept::All
    }

    /// Whether the report keeps every move as replayed and the final
    /// position's rows ([`GameReport::moves`], [`GameReport::position`]):
    /// conversion. A report that keeps them and every tag also keeps a
    /// final result token as the `Result` tag when there is none (formats
    /// without movetext have no other place for the claim).
    fn records_moves(&self) -> bool {
        false
    }

    /// The end step, once the verdict is in the report: what the command
    /// takes from the final position (or the position before the move that
    /// failed). Not called for a game that could not be set up.
    fn end(&self, report: &mut GameReport, end: &dyn End) {
        let _ = (report, end);
    }
}

/// The JSON report's: every tag and the result extras. The default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary;

impl Sink for Summary {
    fn end(&self, report: &mut GameReport, end: &dyn End) {
        report.result_extras = end.result_extras();
    }
}

/// A human report's: the one-line description of each game, nothing of its
/// position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Brief;

impl Sink for Brief {
    fn tags(&self) -> TagsKept {
        TagsKept::Described
    }
}

/// Conversion's: every tag, every move, the final position's rows and the
/// result extras (all a document holds).
#[derive(Clone, Copy, Debug, Default)]
pub struct Record;

impl Sink for Record {
    fn records_moves(&self) -> bool {
        true
    }

    fn end(&self, report: &mut GameReport, end: &dyn End) {
        report.result_extras = end.result_extras();
    }
}

/// Every tag and every move, nothing of the final position: what
/// statistics and duplicate search read (players, results, openings).
#[derive(Clone, Copy, Debug, Default)]
pub struct Moves;

impl Sink for Moves {
    fn records_moves(&self) -> bool {
        true
    }
}

/// Nothing but the verdict: no tag, no move, nothing of the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Verdict;

impl Sink for Verdict {
    fn tags(&self) -> TagsKept {
        TagsKept::Nothing
    }
}
