//! The report of a replay: [`GameReport`] and its [`MoveRecord`]s, reset
//! for reuse; [`Options`], what a replay is asked for; the cap on
//! diagnostics.

use std::sync::Arc;

use serde_json::{Map, Value};

#[allow(unused_imports)]
use super::describe;
use super::sink::{Sink, Summary, TagsKept};
use crate::diag::{Diag, Severity};

/// What the caller wants from a replay: the game and variant of records
/// that name none, and what the report keeps (the command's [`Sink`]).
#[derive(Clone, Debug)]
pub struct Options {
    /// `--game`: the game of records without a `Game` tag.
    pub game: Option<String>,
    /// `--variant`: the variant of records without a `Variant` tag
    /// ([`crate::SourceGame::default_variant`] gives them the tag).
    pub variant: Option<String>,
    /// What the report keeps besides the verdict ([`Summary`] by default:
    /// every tag and the result extras).
    pub sink: Arc<dyn Sink>,
    /// `--check-scores`: the claims of a record's start that a search
    /// proves are checked, up to this limit (Reversi: positions with at
    /// most this many empty squares; `Extras::start_claims`).
    pub check_scores: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options::keeping(Summary)
    }
}

impl Options {
    /// Options whose reports keep what `sink` asks for, no `--game` nor
    /// `--variant`.
    pub fn keeping(sink: impl Sink + 'static) -> Self {
        Options {
            game: None,
            variant: None,
            sink: Arc::new(sink),
            check_scores: None,
        }
    }

    /// Whether the report keeps every tag.
    pub(crate) fn all_tags(&self) -> bool {
        self.sink.tags() == TagsKept::All
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
    /// An edit of the position in the middle of the game
    /// ([`Position::is_setup`](crate::game::Position::is_setup)): no ply,
    /// `ply` is the plies before it, `player` the side to move then.
    pub setup: bool,
    /// The game's extra fields for the move in JSON.
    pub extras: Map<String, Value>,
    /// The move number written before the move (`12.`, `12...`), if any.
    pub number: Option<String>,
    /// What the format kept with the move that gamerec does not interpret
    /// ([`crate::record::RawGame::move_props`]): names and values.
    pub props: Vec<(String, String)>,
}

/// Everything a replay found out about one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameReport {
    /// Normalised game name (empty when it could not be told).
    pub game: &'static str,
    /// The variant (default filled in; empty when the game stopped at its tags).
    pub variant: &'static str,
    /// Every tag in file order (a `Game` tag first when `--game` supplied it);
    /// none unless the sink keeps them ([`TagsKept::All`]).
    pub tags: Vec<(String, String)>,
    /// `describe`'s text, when the sink keeps only that
    /// ([`TagsKept::Described`]).
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
    /// Lines the human `score` adds (`Extras::score_notes`), when its sink
    /// asks for them.
    pub score_notes: Vec<String>,
    /// The errors (the first stops the replay).
    pub errors: Vec<Diag>,
    /// The warnings.
    pub warnings: Vec<Diag>,
    /// Every move as replayed, when the sink records them
    /// ([`Sink::records_moves`]).
    pub moves: Vec<MoveRecord>,
    /// The final position as rows of letters, when the sink records moves.
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
