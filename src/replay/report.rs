//! The report of a replay: [`GameReport`] and its [`MoveRecord`]s, reset
//! for reuse; [`Options`], what a report keeps; the cap on diagnostics.

use serde_json::{Map, Value};

#[allow(unused_imports)]
use super::describe;
use crate::diag::{Diag, Severity};

/// What the caller wants from a replay.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--game`: the game of records without a `Game` tag.
    pub game: Option<String>,
    /// `--variant`: the variant of records without a `Variant` tag
    /// ([`crate::SourceGame::default_variant`] gives them the tag).
    pub variant: Option<String>,
    /// Keep a record of every move and the final position (for conversion).
    pub record_moves: bool,
    /// Fill in [`GameReport::result_extras`] (the JSON report and conversion
    /// show them). On by default.
    pub result_extras: bool,
    /// Keep every tag in [`GameReport::tags`] (conversion writes them); when
    /// off, the report keeps only `describe`'s text, in
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
            variant: None,
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
    /// Its ply, from 1.
    pub ply: usize,
    /// Who played it (a seat or a colour).
    pub player: &'static str,
    /// The move as the game writes it: a static name where the game has one
    /// (a WTHOR record's squares), no string built per move.
    pub notation: std::borrow::Cow<'static, str>,
    /// The comment after it, if any.
    pub comment: Option<String>,
    /// Taken by the engine, not written in the record.
    pub auto: bool,
    /// The game's extra fields for the move in JSON.
    pub extras: Map<String, Value>,
    /// The move number written before the move (`12.`, `12...`), if any.
    pub number: Option<String>,
}

/// Everything a replay found out about one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameReport {
    /// Normalised game name (empty when it could not be told).
    pub game: &'static str,
    /// The variant (default filled in; empty when the game stopped at its tags).
    pub variant: &'static str,
    /// Every tag in file order (a `Game` tag first when `--game` supplied it);
    /// none when [`Options::all_tags`] is off.
    pub tags: Vec<(String, String)>,
    /// `describe`'s text, when `Options::all_tags` is off.
    pub about: Option<String>,
    /// The comment before the movetext, if any.
    pub comment: Option<String>,
    /// No error (warnings allowed).
    pub valid: bool,
    /// Plies replayed (passes included), up to the first illegal move.
    pub plies: usize,
    /// Whether the game reached its end.
    pub over: bool,
    /// The seats in seat order.
    pub seats: &'static [&'static str],
    /// Scores in seat order, of the position reached.
    pub scores: Vec<i64>,
    /// Winning seats, once over.
    pub winners: Vec<&'static str>,
    /// The game's extra result fields for JSON.
    pub result_extras: Map<String, Value>,
    /// Checks that could not be made on this record.
    pub unchecked: Vec<String>,
    /// Lines the human `score` adds (`Extras::score_notes`), with
    /// [`Options::score_notes`].
    pub score_notes: Vec<String>,
    /// The errors (the first stops the replay).
    pub errors: Vec<Diag>,
    /// The warnings.
    pub warnings: Vec<Diag>,
    /// Every move as replayed, with `Options::record_moves`.
    pub moves: Vec<MoveRecord>,
    /// The final position as rows of letters, with `Options::record_moves`.
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

    pub(crate) fn push(&mut self, d: Diag) {
        match d.severity {
            Severity::Error => self.errors.push(d),
            Severity::Warning => self.warnings.push(d),
        }
    }
}

/// Diagnostics kept per game and kind (errors, warnings): a damaged file
/// could give thousands for one game.
pub const MAX_DIAGNOSTICS: usize = 20;

/// Keeps the first [`MAX_DIAGNOSTICS`] errors and warnings of a game, and
/// says how many more there were: those cut here and the `dropped` ones the
/// reader did not keep (tag errors past [`crate::record::MAX_TAG_ERRORS`]).
pub(crate) fn cap_diagnostics(report: &mut GameReport, dropped: usize) {
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
