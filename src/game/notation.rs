//! A game's notation: container tokens into typed moves, and moves back
//! into text.

use crate::diag::Diag;
use crate::game::{MoveOf, Setup};
use crate::record::Token;
use crate::span::Span;

/// A move as the notation read it, with where its text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<M, S = ()> {
    /// The move.
    pub mv: M,
    /// All of the move's text (several tokens for a Qwirkle turn, part of a token
    /// for a compact Reversi transcript).
    pub span: Span,
    /// Index of the last token the move uses (comments after it attach to the move).
    pub token: usize,
    /// Where the parts of the move are ([`Notation::Spans`]), for the
    /// diagnostics that blame one part.
    pub parts: S,
}

/// What the notation made of the movetext: the moves read, and the first
/// notation error (after those moves), if any.
pub struct ParsedMoves<M, S = ()> {
    pub moves: Vec<Parsed<M, S>>,
    pub error: Option<Diag>,
}

impl<M, S> ParsedMoves<M, S> {
    /// What a reader that fills a vector (a notation's `parse_into`) reads
    /// into a new one.
    pub fn read(read: impl FnOnce(&mut Vec<Parsed<M, S>>) -> Option<Diag>) -> Self {
        let mut moves = Vec::new();
        let error = read(&mut moves);
        ParsedMoves { moves, error }
    }
}

/// A game's notation: reads the movetext's tokens into typed moves, with
/// their spans, and writes a move back in canonical notation. It knows no
/// rules: the start position tells it only the board's shape.
pub trait Notation: Setup {
    /// Where the parts of a move are in the text (the tiles of a Qwirkle
    /// turn, its claimed score), kept by the driver for
    /// [`Explain`](crate::game::Explain); `()` when a diagnostic blames only
    /// the whole move.
    type Spans: Clone + std::fmt::Debug + Default + 'static;

    /// Reads the movetext of the game `start` set up into `moves` (emptied
    /// first: the replay reuses one buffer game after game), and returns the
    /// first notation error after the moves read, if any. `src` is the file
    /// the token spans point into.
    fn parse_moves_into(
        start: &Self::Position,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<MoveOf<Self>, Self::Spans>>,
    ) -> Option<Diag>;

    /// The move in canonical notation (as the text writer writes it).
    fn write_move(mv: &MoveOf<Self>) -> String;
}

/// Reads one move per token into `moves` (emptied first, its room reused),
/// up to the first token it refuses: that token's diagnostic. Each reader
/// gives the move with the spans of its parts ([`Notation::Spans`]):
/// `quick` reads a token in its usual shape (`None` for anything else),
/// `read` any token, out of the common path. For notations where every
/// token is one move (Blokus, Deblockle).
///
/// A move `quick` gives is pushed as it comes: going through a `Result`
/// holding a diagnostic would put it in memory field by field and read it
/// back in wider words, which the processor cannot forward from the
/// stores (a stall on every move).
#[inline]
pub fn one_move_per_token<M, S>(
    tokens: &[Token],
    moves: &mut Vec<Parsed<M, S>>,
    mut quick: impl FnMut(&Token) -> Option<(M, S)>,
    mut read: impl FnMut(&Token) -> Result<(M, S), Diag>,
) -> Option<Diag> {
    moves.clear();
    moves.reserve(tokens.len().min(1 << 16));
    for (index, tok) in tokens.iter().enumerate() {
        let span = tok.span;
        if let Some((mv, parts)) = quick(tok) {
            moves.push(Parsed {
                mv,
                span,
                token: index,
                parts,
            });
            continue;
        }
        match read(tok) {
            Ok((mv, parts)) => moves.push(Parsed {
                mv,
                span,
                token: index,
                parts,
            }),
            Err(d) => return Some(d),
        }
    }
    None
}
