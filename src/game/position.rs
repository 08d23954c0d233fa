//! The engine side of a game: a position and its typed moves.

use std::fmt;

/// A game's position: the rule engine, as a library user plays it.
///
/// Moves are typed and carry no spans (where a move was written is the
/// driver's to keep, [`crate::game::Parsed`]); an illegal move is a typed
/// reason ([`Position::Illegal`]), which the game's
/// [`Explain`](crate::game::Explain) turns into a diagnostic. The position
/// holds everything needed to judge the next move: whose turn, pieces left,
/// hands, the variant's options.
pub trait Position: Clone + 'static {
    /// A move, as the engine judges it.
    type Move: Clone + fmt::Debug + 'static;
    /// Why a move is illegal here.
    type Illegal: fmt::Debug + 'static;

    /// Whether the game scores moves (`moves --by-score` applies:
    /// [`Position::scored_moves`]).
    const SCORES_MOVES: bool = false;

    /// The effective variant name, default filled in.
    fn variant(&self) -> &'static str;

    /// Seat names in seat order: the keys of the scores and the order of a
    /// `Result`.
    fn seats(&self) -> &'static [&'static str];

    /// Who moves next (the `player` of a move in JSON: a seat or a colour).
    fn to_move(&self) -> &'static str;

    /// Whether the game is over (no further move of any kind is possible).
    fn is_over(&self) -> bool;

    /// Whether the side to move has no legal move and must pass, so a replay
    /// passes for it when the record leaves the pass out. Asked only when the
    /// game is not over. Games whose passes are always written return `false`.
    fn must_pass(&self) -> bool {
        false
    }

    /// Whether `mv` is legal now for the side to move, by a test cheaper
    /// than [`Position::must_pass`]'s: when `true`, the side to move has a
    /// move (no pass is owed) and the game is not over, so a replay asks
    /// neither question (an engine that searches for them only when asked
    /// then searches for nothing while a record's moves are legal).
    /// `false` says nothing; the default always says it.
    #[inline]
    fn plays_now(&self, mv: &Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Whether a move is a pass (a written pass is taken as a forced one).
    fn is_pass(mv: &Self::Move) -> bool;

    /// Whether a move is an edit of the position rather than a turn (a
    /// setup made in the middle of a game, as Pentobi's files hold): it is
    /// no ply, no player takes it, no pass is owed before it, and it may
    /// come after the end. [`Position::play`] judges and makes it like any
    /// move. Games without such edits keep the default, `false`.
    #[inline]
    fn is_setup(mv: &Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// The pass move (used for automatic passes).
    fn pass() -> Self::Move;

    /// Judges `mv` and, when it is legal, plays it. Asked only when the game
    /// is not over. An illegal move leaves the position as it was, so the
    /// reason can be explained from it.
    fn play(&mut self, mv: &Self::Move) -> Result<(), Self::Illegal>;

    /// Scores per seat in seat order, for this position (final scoring once
    /// over), into `out` (emptied first: a report reuses its room).
    fn scores_into(&self, out: &mut Vec<i64>);

    /// [`Position::scores_into`] as a new vector.
    fn scores(&self) -> Vec<i64> {
        let mut scores = Vec::new();
        self.scores_into(&mut scores);
        scores
    }

    /// The winning seats once the game is over, given its final `scores`
    /// ([`Position::scores`]), as a set: bit `i` for seat `i`. Default: the
    /// top score, several on a draw.
    fn winner_set(&self, scores: &[i64]) -> u64 {
        top_scores(scores)
    }

    /// Winning seats (indices) once the game is over
    /// ([`Position::winner_set`]).
    fn winners(&self) -> Vec<usize> {
        let set = self.winner_set(&self.scores());
        (0..64).filter(|&i| set >> i & 1 == 1).collect()
    }

    /// Every legal move (asked only when the game is not over), in the
    /// engine's order; none when the side to move can only pass. `Err` says
    /// why the moves cannot be listed (a hidden hand).
    fn legal_moves(&self) -> Result<impl Iterator<Item = Self::Move> + '_, Unlisted>;

    /// With [`Position::SCORES_MOVES`]: every legal move with the points it
    /// earns (asked only when the game is not over).
    fn scored_moves(&self) -> Result<Vec<(Self::Move, i64)>, Unlisted> {
        Err(Unlisted(format!("{} does not score moves", self.variant())))
    }
}

/// The seats with the top score, as a set (bit `i` for seat `i`): several
/// on a draw, none without scores.
pub fn top_scores(scores: &[i64]) -> u64 {
    let Some(&best) = scores.iter().max() else {
        return 0;
    };
    scores
        .iter()
        .enumerate()
        .filter(|&(_, &s)| s == best)
        .fold(0, |set, (i, _)| {
            set | 1u64.checked_shl(i as u32).unwrap_or(0)
        })
}

/// Why the legal moves of a position cannot be listed (a Qwirkle hand that
/// the record does not show).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unlisted(pub String);

impl fmt::Display for Unlisted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unlisted {}
