//! The packed replay: a driver hook a game may offer for records a format
//! holds in a compact form (WTHOR's move bytes).
//!
//! A format that reads a game's moves as codes rather than text (no token,
//! no span) hands them to [`replay`] as a [`Packed`] record, with the tags
//! [`tags_needed`] asks for. The game replays them on its fast path
//! ([`PackedReplay::replay_packed`]) and gives back the final state; the
//! driver then builds the report with the code its own end step uses
//! (scores, winners, result extras, notes, the position, the tags or their
//! description). Anything but a clean game (an illegal move, a game not
//! over, a claimed score that differs) is left to the generic driver, which
//! the format then runs on the record written as text: a packed replay
//! never tells a diagnostic, so both give the same report.

use super::{GameReport, MoveRecord, Options, TagsKept};
use crate::game::{Position, Rules};

/// A game's record as a format holds it compactly.
#[derive(Clone, Copy, Debug)]
pub struct Packed<'a> {
    /// The variant, as the game's `Variant` tag names it; the start is the
    /// variant's standard one, with no other rules tag.
    pub variant: &'a str,
    /// One code per move, as the game's [`PackedReplay`] reads them (passes
    /// where the side to move has no move are implied).
    pub moves: &'a [u8],
    /// The scores the record claims, one per seat.
    pub claimed: &'a [i64],
    /// The game's comment.
    pub comment: Option<&'a str>,
}

/// A game's fast replay of [`Packed`] moves.
pub trait PackedReplay: Rules {
    /// The final state and the plies (forced passes included) when every
    /// move is legal (a side with no move passing) and the game is over at
    /// the end; `None` otherwise, or for a variant the fast path does not
    /// play: the driver then replays the record.
    fn replay_packed(variant: &str, moves: &[u8]) -> Option<(Self::Position, usize)>;

    /// The moves [`PackedReplay::replay_packed`] found clean in `plies`
    /// plies, as the driver records them (the forced passes `auto`); `None`
    /// when they do not make that game.
    fn packed_moves(
        moves: &[u8],
        plies: usize,
        seats: &'static [&'static str],
    ) -> Option<Vec<MoveRecord>>;
}

/// Which of a record's tags a report needs, by name, as the driver keeps
/// them: every tag ([`TagsKept::All`]), those the description reads
/// ([`TagsKept::Described`]), or none (`None`: no tag value need be built;
/// a clean game, the only one this path reports, has no diagnostics to
/// describe).
pub fn tags_needed(opts: &Options) -> Option<fn(&str) -> bool> {
    match opts.sink.tags() {
        TagsKept::All => Some(|_| true),
        TagsKept::Described => Some(super::described),
        TagsKept::DescribedIfDiagnostics | TagsKept::Nothing => None,
    }
}

/// Replays a packed record of the game `R` into `report`: `true` when the
/// game is clean and `report` is then its report (the generic driver's);
/// `false` when the record must go through the driver (then `report` holds
/// nothing to keep). `tags`: the record's tags (name, value) in file order,
/// at least those [`tags_needed`] accepts.
pub fn replay<'t, R: PackedReplay>(
    packed: &Packed,
    tags: impl Iterator<Item = (&'t str, &'t str)> + Clone,
    opts: &Options,
    report: &mut GameReport,
) -> bool {
    // a `--game` is the driver's to apply
    if opts.game.is_some() {
        return false;
    }
    let Some((state, plies)) = R::replay_packed(packed.variant, packed.moves) else {
        return false;
    };
    report.reset();
    report.game = R::NAME;
    report.variant = Position::variant(&state);
    report.seats = Position::seats(&state);
    super::end_report::<R>(report, &state, plies, opts);
    if !report.over || report.scores != packed.claimed {
        return false;
    }
    if opts.sink.records_moves() {
        let Some(moves) = R::packed_moves(packed.moves, plies, report.seats) else {
            return false;
        };
        report.moves = moves;
    }
    if opts.all_tags() {
        let pairs = tags.clone().map(|(k, v)| (k.to_string(), v.to_string()));
        report.tags.extend(pairs);
    }
    super::describe_into(report, tags, opts);
    report.comment = packed.comment.map(str::to_string);
    report.valid = true;
    true
}
