//! The game abstraction: what every game module provides, one trait per
//! concern.
//!
//! - [`Setup`]: the game's names, variants, rules tags, and the start
//!   [`Position`] a record's tags set up;
//! - [`Position`]: the engine, with typed moves that carry no spans:
//!   `play(move) -> Result<(), Illegal>`, the legal moves, whose turn, is it
//!   over, the scores;
//! - [`Notation`]: container tokens into typed moves ([`Parsed`]: a move with
//!   its span and the spans of its parts), and moves back into text;
//! - [`Explain`]: an `Illegal` and the spans the driver kept, made a [`Diag`];
//! - [`Render`]: terminal text and [`svg::Scene`](crate::svg::Scene)s;
//! - [`Extras`]: what a report adds beyond scores (JSON fields, notes);
//! - [`Perft`]: move-tree counts from the start.
//!
//! [`Rules`] is what the replay driver runs: every game that implements the
//! concern traits has it, by one implementation. The generic driver in [`crate::replay`] runs any
//! `Rules` over a [`RawGame`](crate::record::RawGame): automatic passes,
//! moves after the end, the `Result` check, ply counting, the per-move
//! records for conversion. [`DynGame`](crate::registry::DynGame) erases the
//! type so the CLI can pick a game by name; [`crate::registry::REGISTRY`] lists
//! them.

mod explain;
mod extras;
mod notation;
mod perft;
mod position;
mod render;
mod setup;

pub use explain::Explain;
pub use extras::Extras;
pub use notation::{Notation, Parsed, ParsedMoves, one_move_per_token};
pub use perft::{Perft, perft_total};
pub use position::{Position, Unlisted, top_scores};
pub use render::Render;
pub use setup::{IllegalOf, MoveOf, Setup};

use crate::diag::Diag;
use crate::record::{Tags, Token};

/// One game's notation, engine and renderer, as the replay driver runs it.
///
/// `State` holds the position and everything needed to judge the next move
/// (whose turn, pieces left, hands, the variant's options). Every game that
/// implements the concern traits ([`Setup`], [`Position`], [`Notation`],
/// [`Explain`], [`Render`], [`Extras`], [`Perft`]) has it; a game may
/// still implement it in one block instead.
pub trait Rules: 'static {
    /// A move as the notation reads it.
    type Move: Clone + std::fmt::Debug + 'static;
    /// The position and everything needed to judge the next move.
    type State: Clone;
    /// Where the parts of a move are ([`Notation::Spans`]).
    type Spans: Clone + std::fmt::Debug + Default + 'static;

    /// Normalised name, as in the `Game` tag (`reversi`).
    const NAME: &'static str;
    /// Other accepted `Game` tag values (`othello`).
    const ALIASES: &'static [&'static str];
    /// Tags that set the rules: an error in one of these stops the game at ply 0.
    const RULES_TAGS: &'static [&'static str];
    /// The variants, by name; the first is the default.
    const VARIANTS: &'static [&'static str];

    /// The start state from the tags (`Variant`, `Setup`, `Size`, ...).
    /// Any error stops the game before its first move.
    fn start(tags: &Tags) -> Result<Self::State, Vec<Diag>>;

    /// The effective variant name, default filled in.
    fn variant(state: &Self::State) -> &'static str;

    /// Seat names in seat order: the keys of `scores` and the order of `Result`.
    fn seats(state: &Self::State) -> &'static [&'static str];

    /// Reads the movetext of the game `start` set up into `moves` (emptied
    /// first: the replay reuses one buffer game after game), and returns the
    /// first notation error after the moves read, if any. `src` is the file
    /// the token spans point into. The notation learns the board's shape
    /// from `start` (Blokus Trigon's triangles), not the position.
    fn parse_moves_into(
        start: &Self::State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Self::Move, Self::Spans>>,
    ) -> Option<Diag>;

    /// [`Rules::parse_moves_into`] into a new vector.
    fn parse_moves_in(
        start: &Self::State,
        tokens: &[Token],
        src: &str,
    ) -> ParsedMoves<Self::Move, Self::Spans> {
        ParsedMoves::read(|moves| Self::parse_moves_into(start, tokens, src, moves))
    }

    /// Who moves next (the `player` of a move in JSON: a seat or a colour).
    fn to_move(state: &Self::State) -> &'static str;

    /// Whether the game is over (no further move of any kind is possible).
    fn is_over(state: &Self::State) -> bool;

    /// Whether the side to move has no legal move and must pass, so the driver
    /// passes for it when the record leaves the pass out. Asked only when the
    /// game is not over. Games whose passes are always written return `false`.
    fn must_pass(state: &Self::State) -> bool;

    /// Whether a move is a pass (a written pass is taken as a forced one).
    fn is_pass(mv: &Self::Move) -> bool;

    /// The pass move (used for automatic passes).
    fn pass() -> Self::Move;

    /// Judges a move and, if legal, plays it. The game is not over when this is
    /// called. Errors carry the span they blame (the move's, or a part of it).
    fn play(state: &mut Self::State, mv: &Parsed<Self::Move, Self::Spans>) -> Result<(), Diag>;

    /// Scores per seat in seat order, for this position (final scoring once
    /// over), into `out` (emptied first: a report reuses its room).
    fn scores_into(state: &Self::State, out: &mut Vec<i64>);

    /// [`Rules::scores_into`] as a new vector.
    fn scores(state: &Self::State) -> Vec<i64> {
        let mut scores = Vec::new();
        Self::scores_into(state, &mut scores);
        scores
    }

    /// The winning seats once the game is over, given its final `scores`
    /// ([`Rules::scores`]), as a set: bit `i` for seat `i`
    /// ([`Position::winner_set`]: by default the top score, several on a
    /// draw).
    fn winner_set(state: &Self::State, scores: &[i64]) -> u64;

    /// Winning seats (indices) once the game is over ([`Rules::winner_set`]).
    fn winners(state: &Self::State) -> Vec<usize> {
        let set = Self::winner_set(state, &Self::scores(state));
        (0..64).filter(|&i| set >> i & 1 == 1).collect()
    }

    /// Extra per-game result fields for JSON (per-colour scores, discs placed...).
    fn result_extras(state: &Self::State) -> serde_json::Map<String, serde_json::Value>;

    /// Lines the human `score` shows under the scores (Reversi: the discs
    /// each side placed).
    fn score_notes(state: &Self::State) -> Vec<String>;

    /// A help line for a claimed result whose scores differ from the
    /// replay's, when the game can say more than the final scores (Reversi:
    /// the claim is the count under the other scoring); [`Explain::result_help`].
    fn result_help(state: &Self::State, claimed: &[i64]) -> Option<String>;

    /// Checks that could not be made on this record (shown by `score`).
    fn unchecked(state: &Self::State) -> Vec<String>;

    /// The move in canonical notation (as the text writer writes it).
    fn write_move(mv: &Self::Move) -> String;

    /// Extra structured fields for a move in JSON, given the state before it.
    fn move_extras(
        before: &Self::State,
        mv: &Self::Move,
    ) -> serde_json::Map<String, serde_json::Value>;

    /// Every legal move in canonical notation (asked only when the game is not
    /// over; the driver sorts them by text); empty when the side to move can
    /// only pass (the caller then lists `pass`). `Err` says why moves cannot be
    /// listed (a hidden hand).
    fn legal_moves(state: &Self::State) -> Result<Vec<String>, String>;

    /// Whether the game scores moves (`moves --by-score` applies).
    const SCORES_MOVES: bool;

    /// With [`Rules::SCORES_MOVES`]: every legal move in canonical notation
    /// with the points it earns (asked only when the game is not over; the
    /// driver sorts them best first).
    fn scored_moves(state: &Self::State) -> Result<Vec<(String, i64)>, String>;

    /// The position for a terminal, with coordinates; `color` for ANSI colours.
    fn render(state: &Self::State, color: bool) -> String;

    /// The position's horizontal slices for a terminal, bottom level first
    /// (`show --level K` prints the K-th), for games built in levels (Blokus
    /// 3D); empty for flat games.
    fn render_levels(state: &Self::State, color: bool) -> Vec<String>;

    /// The position as rows of letters, top to bottom (`final_position` in JSON).
    fn position_rows(state: &Self::State) -> Vec<String>;

    /// The position as a picture (`crate::svg` draws it): the board's cells,
    /// the cells of `last` (the move that led here, when known) marked.
    fn scene(state: &Self::State, last: Option<&Self::Move>) -> crate::svg::Scene;

    /// What the score plot draws per seat after each ply ([`Render::plot`]).
    fn plot(state: &Self::State) -> Vec<i64>;

    /// The unit of [`Rules::plot`]'s values (`discs`, `points`).
    const PLOT_UNIT: &'static str;

    /// The legal-move tree to `depth` plies from the start `variant` (and
    /// `players`, in games where the number of players changes the start;
    /// the others refuse it with `no_players`) sets up, counted under
    /// each first move: the first moves in canonical notation (`pass` for a
    /// forced pass), with the leaves below each. Empty when the start is a
    /// leaf itself (depth 0, or the game is over); `perft_total` gives
    /// the count. A pass is a ply; a finished game is a leaf. `done` is told
    /// the leaves of each part of the tree as it is counted (the calls add
    /// up to the total), for a progress display.
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String>;
    /// [`Rules::perft_divide`] from a start that rules tags also set
    /// (`perft --tag NAME=VALUE`, e.g. Blokus 3D's `Area`), for games whose
    /// start depends on more than the variant and the number of players.
    /// [`Perft::perft_divide_tags`].
    fn perft_divide_tags(
        variant: Option<&str>,
        players: Option<u8>,
        tags: &Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String>;
}

/// For [`Rules::perft_divide`] of a game whose start does not depend on the
/// number of players: refuses `--players`.
pub fn no_players<R: Rules>(players: Option<u8>) -> Result<(), String> {
    perft::no_players_named(R::NAME, players)
}

/// The index in `R::VARIANTS` of a variant name (trimmed, case-insensitive);
/// the default (0) when none is given.
pub fn variant_index<R: Rules>(value: Option<&str>) -> Result<usize, String> {
    let Some(value) = value else {
        return Ok(0);
    };
    let value = value.trim();
    R::VARIANTS
        .iter()
        .position(|v| v.eq_ignore_ascii_case(value))
        .ok_or_else(|| {
            format!(
                "unknown {} variant `{value}` (known: {})",
                R::NAME,
                R::VARIANTS.join(", ")
            )
        })
}

/// The variant a record's `Variant` tag names, as an index in `R::VARIANTS`;
/// an unknown one is a `record::bad_tag` error at the value.
pub fn variant_of<R: Rules>(tags: &Tags) -> Result<usize, Diag> {
    let tag = tags.get("Variant");
    variant_index::<R>(tag.map(|t| t.value.as_str())).map_err(|message| {
        let mut d = Diag::error("record::bad_tag", message)
            .label(format!("not a {} variant", R::NAME))
            .help(format!("{} variants: {}", R::NAME, R::VARIANTS.join(", ")));
        if let Some(t) = tag {
            d = d.at(t.value_span);
        }
        d
    })
}

/// [`variant_of`] for a game's `start`: an unknown variant's error joins
/// `errors` and the default variant (0) is used.
pub fn variant_in<R: Rules>(tags: &Tags, errors: &mut Vec<Diag>) -> usize {
    variant_of::<R>(tags).unwrap_or_else(|d| {
        errors.push(d);
        0
    })
}

/// A game of the concern traits, as the driver runs it.
impl<G> Rules for G
where
    G: Notation + Explain + Render + Extras + Perft,
{
    type Move = MoveOf<G>;
    type State = G::Position;
    type Spans = <G as Notation>::Spans;

    const NAME: &'static str = <G as Setup>::NAME;
    const ALIASES: &'static [&'static str] = <G as Setup>::ALIASES;
    const RULES_TAGS: &'static [&'static str] = <G as Setup>::RULES_TAGS;
    const VARIANTS: &'static [&'static str] = <G as Setup>::VARIANTS;
    const SCORES_MOVES: bool = <G::Position as Position>::SCORES_MOVES;
    const PLOT_UNIT: &'static str = <G as Render>::PLOT_UNIT;

    fn start(tags: &Tags) -> Result<G::Position, Vec<Diag>> {
        <G as Setup>::start(tags)
    }

    fn variant(state: &G::Position) -> &'static str {
        state.variant()
    }

    fn seats(state: &G::Position) -> &'static [&'static str] {
        Position::seats(state)
    }

    fn parse_moves_into(
        start: &G::Position,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<MoveOf<G>, Self::Spans>>,
    ) -> Option<Diag> {
        <G as Notation>::parse_moves_into(start, tokens, src, moves)
    }

    fn to_move(state: &G::Position) -> &'static str {
        Position::to_move(state)
    }

    fn is_over(state: &G::Position) -> bool {
        Position::is_over(state)
    }

    fn must_pass(state: &G::Position) -> bool {
        Position::must_pass(state)
    }

    fn is_pass(mv: &MoveOf<G>) -> bool {
        <G::Position as Position>::is_pass(mv)
    }

    fn pass() -> MoveOf<G> {
        <G::Position as Position>::pass()
    }

    #[inline(always)]
    fn play(state: &mut G::Position, mv: &Parsed<MoveOf<G>, Self::Spans>) -> Result<(), Diag> {
        match Position::play(state, &mv.mv) {
            Ok(()) => Ok(()),
            Err(why) => Err(<G as Explain>::explain(state, mv, why)),
        }
    }

    fn scores_into(state: &G::Position, out: &mut Vec<i64>) {
        Position::scores_into(state, out);
    }

    fn winner_set(state: &G::Position, scores: &[i64]) -> u64 {
        Position::winner_set(state, scores)
    }

    fn result_extras(state: &G::Position) -> serde_json::Map<String, serde_json::Value> {
        <G as Extras>::result_extras(state)
    }

    fn score_notes(state: &G::Position) -> Vec<String> {
        <G as Extras>::score_notes(state)
    }

    fn result_help(state: &G::Position, claimed: &[i64]) -> Option<String> {
        <G as Explain>::result_help(state, claimed)
    }

    fn unchecked(state: &G::Position) -> Vec<String> {
        <G as Extras>::unchecked(state)
    }

    fn write_move(mv: &MoveOf<G>) -> String {
        <G as Notation>::write_move(mv)
    }

    fn move_extras(
        before: &G::Position,
        mv: &MoveOf<G>,
    ) -> serde_json::Map<String, serde_json::Value> {
        <G as Extras>::move_extras(before, mv)
    }

    fn legal_moves(state: &G::Position) -> Result<Vec<String>, String> {
        match Position::legal_moves(state) {
            Ok(moves) => Ok(moves.map(|mv| <G as Notation>::write_move(&mv)).collect()),
            Err(why) => Err(why.0),
        }
    }

    fn scored_moves(state: &G::Position) -> Result<Vec<(String, i64)>, String> {
        if !<G::Position as Position>::SCORES_MOVES {
            return Err(format!("{} does not score moves", <G as Setup>::NAME));
        }
        match Position::scored_moves(state) {
            Ok(moves) => Ok(moves
                .into_iter()
                .map(|(mv, n)| (<G as Notation>::write_move(&mv), n))
                .collect()),
            Err(why) => Err(why.0),
        }
    }

    fn render(state: &G::Position, color: bool) -> String {
        <G as Render>::render(state, color)
    }

    fn render_levels(state: &G::Position, color: bool) -> Vec<String> {
        <G as Render>::render_levels(state, color)
    }

    fn position_rows(state: &G::Position) -> Vec<String> {
        <G as Render>::position_rows(state)
    }

    fn scene(state: &G::Position, last: Option<&MoveOf<G>>) -> crate::svg::Scene {
        <G as Render>::scene(state, last)
    }

    fn plot(state: &G::Position) -> Vec<i64> {
        <G as Render>::plot(state)
    }

    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        <G as Perft>::perft_divide(variant, players, depth, done)
    }

    fn perft_divide_tags(
        variant: Option<&str>,
        players: Option<u8>,
        tags: &Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        <G as Perft>::perft_divide_tags(variant, players, tags, depth, done)
    }
}
