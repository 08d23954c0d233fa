//! The generic driver: runs any game's [`Rules`] over a container game.
//!
//! [`run`] (in `driver.rs`) replays a game in the steps of spec §5, each in
//! one place:
//!
//! 1. **tags** (`tags`): every tag error in file order (the container's,
//!    the rules tags' from [`Setup::start`](crate::game::Setup::start), a malformed `Result`); an error
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
//!
//! The module's files, one concern each:
//!
//! - `driver.rs`: the run in its named steps (tags, start, moves, end of
//!   the movetext, end); `claims.rs`: the claimed result and winner, read
//!   and checked;
//! - `report.rs`: [`GameReport`], [`MoveRecord`], the report's reset for
//!   reuse and its cap on diagnostics; [`Options`], what a replay is asked
//!   for;
//! - `sink.rs`: [`Sink`], what a command keeps of each replay, and the
//!   library's sinks;
//! - `view.rs`: the position at a ply ([`View`], [`ViewError`]), the
//!   positions of every ply ([`Frames`], [`Frame`]) and their captions;
//! - `describe.rs`: the one-line description of a game from its tags;
//! - `visit.rs`: [`Visitor`], what the driver reports to at each step, and
//!   the standard visitor (`&Options`);
//! - `scratch.rs`: the per-thread buffers of parsed moves.
//!
//! This module knows no game: which games exist, and which one a record is,
//! is the [`crate::registry`]'s business (it erases a game's type and calls
//! the driver).

mod claims;
mod describe;
mod driver;
pub mod packed;
mod report;
mod scratch;
pub mod sink;
mod view;
mod visit;

pub use describe::{describe, describe_tags, described};
pub use driver::run;
pub(crate) use driver::{tag_pairs, tag_section};
pub(crate) use report::cap_diagnostics;
pub use report::{GameReport, MAX_DIAGNOSTICS, MoveRecord, Options};
pub use sink::{Sink, TagsKept};
pub use view::{Frame, Frames, Plots, View, ViewError, caption, frames_of, plots_of, view_at};
pub use visit::Visitor;

/// The end of a game's report at its end `state` after `plies` plies, as
/// the driver's end step writes it with the standard visitor (`opts`'s
/// sink): for replays that reach the end without the driver ([`packed`]).
pub(crate) fn end_report<R: crate::game::Rules>(
    report: &mut GameReport,
    state: &R::Position,
    plies: usize,
    opts: &Options,
) {
    driver::verdict::<R>(report, state, plies);
    let mut visitor = opts;
    Visitor::<R>::end(&mut visitor, report, state);
}

/// Fills in [`GameReport::about`] from the tags (name, value) in file
/// order when the sink wants it ([`TagsKept::Described`];
/// [`TagsKept::DescribedIfDiagnostics`], `validate -q`'s: only for a game
/// with diagnostics).
pub(crate) fn describe_into<'a>(
    report: &mut GameReport,
    tags: impl Iterator<Item = (&'a str, &'a str)> + Clone,
    opts: &Options,
) {
    let about = match opts.sink.tags() {
        TagsKept::Described => true,
        TagsKept::DescribedIfDiagnostics => {
            !(report.errors.is_empty() && report.warnings.is_empty())
        }
        TagsKept::All | TagsKept::Nothing => false,
    };
    if about {
        report.about = Some(describe_tags(tags, report.seats));
    }
}
