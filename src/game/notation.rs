//! A game's notation: container tokens into typed moves, and moves back
//! into text.

use crate::diag::Diag;
use crate::game::{MoveOf, Position, Setup, Unlisted};
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

    /// [`Notation::parse_moves_into`] into a new vector.
    fn parse_moves_in(
        start: &Self::Position,
        tokens: &[Token],
        src: &str,
    ) -> ParsedMoves<MoveOf<Self>, Self::Spans> {
        ParsedMoves::read(|moves| Self::parse_moves_into(start, tokens, src, moves))
    }

    /// Every legal move ([`Position::legal_moves`]) in canonical notation,
    /// in the engine's order (asked only when the game is not over); empty
    /// when the side to move can only pass.
    fn legal_move_texts(position: &Self::Position) -> Result<Vec<String>, Unlisted> {
        Ok(position
            .legal_moves()?
            .map(|mv| Self::write_move(&mv))
            .collect())
    }

    /// With [`Position::SCORES_MOVES`]: every legal move in canonical
    /// notation with the points it earns ([`Position::scored_moves`]; asked
    /// only when the game is not over).
    fn scored_move_texts(position: &Self::Position) -> Result<Vec<(String, i64)>, Unlisted> {
        if !<Self::Position as Position>::SCORES_MOVES {
            return Err(Unlisted(format!("{} does not score moves", Self::NAME)));
        }
        Ok(position
            .scored_moves()?
            .into_iter()
            .map(|(mv, n)| (Self::write_move(&mv), n))
            .collect())
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    /// Both readers' spans reach `Parsed::parts`, and the first refusal
    /// ends the reading with its diagnostic.
    #[test]
    fn one_move_per_token_keeps_the_readers_spans() {
        let src = "ab cde ef xx gh";
        let games = parse_file(src);
        let tokens = &games[0].tokens;
        let mut moves: Vec<Parsed<String, (usize, u8)>> = vec![Parsed {
            mv: "left over".into(),
            span: Span::default(),
            token: 9,
            parts: (0, 0),
        }];
        let error = one_move_per_token(
            tokens,
            &mut moves,
            |tok| {
                let text = tok.text(src);
                (text.len() == 2 && text != "xx").then(|| (text.to_string(), (tok.span.offset, 1)))
            },
            |tok| match tok.text(src) {
                "xx" => Err(Diag::error("test::refused", "refused").at(tok.span)),
                text => Ok((text.to_string(), (tok.span.offset, 2))),
            },
        );
        let read: Vec<_> = moves.iter().map(|m| (m.mv.as_str(), m.token, m.parts)).collect();
        assert_eq!(read, [("ab", 0, (0, 1)), ("cde", 1, (3, 2)), ("ef", 2, (7, 1))]);
        let error = error.expect("the fourth token is refused");
        assert_eq!(error.code, "test::refused");
        assert_eq!(error.span, Some(Span::new(10, 2)));
    }
}
