//! A game's explanations: an engine's reason for refusing a move, with the
//! spans the driver kept, made a diagnostic.

use crate::diag::Diag;
use crate::game::{IllegalOf, MoveOf, Notation, Position};

/// Turns an engine's typed reason into a diagnostic. The engine judges, this
/// explains: no engine builds messages.
pub trait Explain: Notation {
    /// The diagnostic for `mv`, refused at `position` (as it was before the
    /// move: an illegal move changes nothing) for `why`; it blames the
    /// move's span or the span of the part at fault (`mv.parts`).
    fn explain(
        position: &Self::Position,
        mv: &crate::game::Parsed<MoveOf<Self>, Self::Spans>,
        why: IllegalOf<Self>,
    ) -> Diag;

    /// Judges `mv` at `position` and plays it when it is legal
    /// ([`Position::play`]); when it is not, the position is unchanged and
    /// the refusal is explained ([`Explain::explain`]). What the driver
    /// calls for every move, inlined into its move loop.
    #[inline(always)]
    fn judge(
        position: &mut Self::Position,
        mv: &crate::game::Parsed<MoveOf<Self>, Self::Spans>,
    ) -> Result<(), Diag> {
        match Position::play(position, &mv.mv) {
            Ok(()) => Ok(()),
            Err(why) => Err(Self::explain(position, mv, why)),
        }
    }

    /// A help line for a claimed result whose scores differ from the
    /// replay's, when the game can say more than the final scores (Reversi:
    /// the claim is the count under the other scoring). Default: none.
    fn result_help(_position: &Self::Position, _claimed: &[i64]) -> Option<String> {
        None
    }
}
