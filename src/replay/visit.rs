//! What a replay reports to: the [`Visitor`] the driver calls at each step
//! (as pgn-reader's `Visitor` or ripgrep's `Sink`), and the visitors the
//! commands use.
//!
//! The driver writes the verdict into the [`GameReport`] itself (the
//! diagnostics, plies, whether over, scores, winners, validity: its own
//! result checks read them back). Everything else a command wants is the
//! visitor's business, and every method has a default that does nothing:
//!
//! - [`Visitor::tags`]: the tags the report keeps;
//! - [`Visitor::moved`]: each move as replayed (conversion), asked for once
//!   per game by [`Visitor::records_moves`], so that a replay that keeps no
//!   moves builds no record;
//! - [`Visitor::position`]: the start position and the position after
//!   every ply (pictures, the position at a ply for `show`/`moves`), asked
//!   for once per game by [`Visitor::watches_positions`];
//! - [`Visitor::end`]: the final position (result extras for JSON, the
//!   human `score`'s notes, the final position's rows for conversion).
//!
//! The visitor is a type parameter of the driver, so its calls are
//! compiled away where they do nothing: the move loop of `validate -q`
//! asks two booleans per game and nothing per move.
//!
//! The standard visitor is [`Options`] (by reference): it keeps in the
//! report what its [`Sink`](super::Sink) asks for (the command's choice,
//! asked once per game). [`Frames`]' and [`View`]'s visitors add the
//! positions to it.
//!
//! [`Frames`]: super::Frames
//! [`View`]: super::View

use super::driver::tag_pairs_into;
use super::sink::End;
use super::{GameReport, MoveRecord, Options};
use crate::game::{MoveOf, Rules};
use crate::record::RawGame;

/// What a replay reports to, step by step (see the module's front).
pub trait Visitor<R: Rules> {
    /// The tag step: what the report keeps of the tags (`report.tags` is
    /// empty).
    fn tags(&mut self, report: &mut GameReport, raw: &RawGame, src: &str) {
        let _ = (report, raw, src);
    }

    /// Whether [`Visitor::moved`] sees every move (asked once per game).
    fn records_moves(&self) -> bool {
        false
    }

    /// A move played (an automatic pass included), with who played it and
    /// its fields read before it was played.
    fn moved(&mut self, report: &mut GameReport, record: MoveRecord) {
        let _ = (report, record);
    }

    /// Whether [`Visitor::position`] sees every position (asked once per
    /// game).
    fn watches_positions(&self) -> bool {
        false
    }

    /// The position after `ply` plies (0: the start), with the move that
    /// led to it.
    fn position(&mut self, ply: usize, state: &R::Position, last: Option<&MoveOf<R>>) {
        let _ = (ply, state, last);
    }

    /// The end step, once the verdict (plies, whether over, scores,
    /// winners) is in the report: the final position (or the position
    /// before the move that failed). Not called for a game that could not
    /// be set up.
    fn end(&mut self, report: &mut GameReport, state: &R::Position) {
        let _ = (report, state);
    }

    /// The search limit of the start's claims
    /// ([`Options::check_scores`]), asked once per game; `None`: the
    /// claims a search proves are not checked.
    fn check_scores(&self) -> Option<u32> {
        None
    }
}

/// The standard visitor: keeps what the options' [`Sink`](super::Sink)
/// asks for (the tags, the moves and the final position for conversion,
/// what it takes from the end position).
impl<R: Rules> Visitor<R> for &Options {
    fn tags(&mut self, report: &mut GameReport, raw: &RawGame, src: &str) {
        if !self.all_tags() {
            return;
        }
        tag_pairs_into(&mut report.tags, raw, Some(R::NAME), self);
        // Conversion keeps a final result token as the `Result` tag when
        // there is none (formats without movetext have no other place for
        // the claim); a `*` claims nothing (the writer puts it after a game
        // without moves).
        if let (true, None, Some(t)) = (
            self.sink.records_moves(),
            raw.tags.get("Result"),
            &raw.result_token,
        ) {
            let text = t.text(src).trim();
            if text != "*" {
                report.tags.push(("Result".to_string(), text.to_string()));
            }
        }
    }

    #[inline]
    fn records_moves(&self) -> bool {
        self.sink.records_moves()
    }

    fn check_scores(&self) -> Option<u32> {
        self.check_scores
    }

    #[inline]
    fn moved(&mut self, report: &mut GameReport, record: MoveRecord) {
        report.moves.push(record);
    }

    fn end(&mut self, report: &mut GameReport, state: &R::Position) {
        self.sink.end(report, &EndOf::<R>(state));
        if self.sink.records_moves() {
            report.position = R::position_rows(state);
        }
    }
}

/// A game's final position, as a [`Sink`](super::Sink) asks for its parts.
struct EndOf<'a, R: Rules>(&'a R::Position);

impl<R: Rules> End for EndOf<'_, R> {
    fn result_extras(&self) -> serde_json::Map<String, serde_json::Value> {
        R::result_extras(self.0)
    }

    fn score_notes(&self) -> Vec<String> {
        R::score_notes(self.0)
    }
}
