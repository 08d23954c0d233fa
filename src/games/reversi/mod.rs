//! Reversi (Othello), as `../shared/spec/reversi.md` fixes it.
//!
//! - 8x8 board, columns `a`..`h` left to right, rows `1`..`8` top to bottom
//!   (`a1` top-left). White starts on `d4 e5`, black on `d5 e4`; black moves
//!   first, unless a `Setup` tag gives another start.
//! - A move places a disc that outflanks at least one straight line of
//!   opponent discs; every outflanked disc in every direction flips.
//! - A side with no move passes; a pass while a move exists is illegal. Passes
//!   may be written (`pass`, `PA`, `ps`, `--`) or left out.
//! - The game ends when neither side can move. Score: discs of each colour;
//!   variant `wof` adds the empty squares to the winner (halved on a draw).
//!
//! Layout: [`notation`] reads tokens into [`Move`]s, [`engine`] is the
//! bitboard rule engine, [`render`] draws positions.
//!
//! Decisions where the spec is silent: an unknown `Variant` is a
//! `record::bad_tag` error; a `Setup` position in which the side to move has no
//! move is accepted (the replay passes for it, or ends the game).

pub mod engine;
pub mod notation;
pub mod render;

use serde_json::{Map, Value, json};

use crate::diag::{Diag, legal_moves_help};
use crate::game::{Parsed, ParsedMoves, Rules, variant_in, variant_index};
use crate::record::{Tags, Token};
use engine::Position;
pub use notation::Move;

/// The Reversi game.
pub struct Reversi;

/// A Reversi game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub pos: Position,
    /// The legal moves of the side to move in `pos` (kept with it, so each
    /// ply computes them once).
    pub moves: u64,
    pub wof: bool,
    /// Discs placed by black and by white.
    pub placed: [u32; 2],
}

impl State {
    fn new(pos: Position, wof: bool) -> State {
        State {
            pos,
            moves: pos.moves(),
            wof,
            placed: [0, 0],
        }
    }

    /// Whether neither side can move.
    fn over(&self) -> bool {
        self.moves == 0 && {
            let (p, o) = self.pos.mover();
            engine::legal_moves_fast(o, p) == 0
        }
    }

    fn legal_names(&self) -> Vec<String> {
        let mut moves = self.moves;
        let mut names = Vec::new();
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            names.push(notation::square_name(sq));
        }
        names.sort();
        names
    }

    fn side(&self) -> (&'static str, &'static str) {
        if self.pos.black_to_move {
            ("black", "white")
        } else {
            ("white", "black")
        }
    }
}

/// Reads a `Setup` value: 64 cells from `a1` row by row, then a space and `b`/`w`.
fn parse_setup(value: &str) -> Result<Position, String> {
    let value = value.trim();
    let (cells, side) = value
        .rsplit_once(char::is_whitespace)
        .ok_or("expected 64 cells, a space, then `b` or `w`")?;
    let cells = cells.trim_end();
    let black_to_move = match side {
        "b" | "B" => true,
        "w" | "W" => false,
        other => return Err(format!("the side to move is `{other}`, not `b` or `w`")),
    };
    let count = cells.chars().count();
    if count != 64 {
        return Err(format!(
            "{} instead of 64",
            crate::diag::plural(count, "cell", "cells")
        ));
    }
    let mut pos = Position {
        black: 0,
        white: 0,
        black_to_move,
    };
    for (i, ch) in cells.chars().enumerate() {
        let bit = 1u64 << i;
        match ch {
            'X' | 'x' | '*' => pos.black |= bit,
            'O' | 'o' => pos.white |= bit,
            '-' | '.' => {}
            other => {
                return Err(format!(
                    "cell {} (`{other}`) is not X, *, O, - or .",
                    notation::square_name(i as u8)
                ));
            }
        }
    }
    Ok(pos)
}

impl Rules for Reversi {
    type Move = Move;
    type State = State;

    const NAME: &'static str = "reversi";
    const ALIASES: &'static [&'static str] = &["othello"];
    const RULES_TAGS: &'static [&'static str] = &["Setup"];
    const VARIANTS: &'static [&'static str] = &["standard", "wof"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        let wof = variant_in::<Self>(tags, &mut errors) == 1;
        let pos = match tags.get("Setup") {
            None => Position::START,
            Some(t) => match parse_setup(&t.value) {
                Ok(p) => p,
                Err(why) => {
                    errors.push(
                        Diag::error("reversi::bad_setup", format!("bad Setup: {why}"))
                            .at(t.value_span)
                            .label(why)
                            .help("64 cells from a1 row by row (X or * black, O white, - or . empty), a space, then b or w"),
                    );
                    Position::START
                }
            },
        };
        if errors.is_empty() {
            Ok(State::new(pos, wof))
        } else {
            Err(errors)
        }
    }

    fn variant(state: &State) -> &'static str {
        if state.wof { "wof" } else { "standard" }
    }

    fn seats(_: &State) -> &'static [&'static str] {
        &["black", "white"]
    }

    fn parse_moves(tokens: &[Token], src: &str) -> ParsedMoves<Move> {
        notation::parse(tokens, src)
    }

    fn to_move(state: &State) -> String {
        state.side().0.to_string()
    }

    fn is_over(state: &State) -> bool {
        state.over()
    }

    fn must_pass(state: &State) -> bool {
        state.moves == 0
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(state: &mut State, mv: &Parsed<Move>, _src: &str) -> Result<(), Diag> {
        let (me, them) = state.side();
        match mv.mv {
            Move::Pass => {
                if state.moves != 0 {
                    return Err(Diag::error(
                        "reversi::illegal_pass",
                        format!("{me} has a legal move and may not pass"),
                    )
                    .at(mv.span)
                    .label("pass while a move exists")
                    .help(legal_moves_help(&state.legal_names())));
                }
                state.pos.pass();
                state.moves = state.pos.moves();
                Ok(())
            }
            Move::Place(sq) => {
                let sq32 = u32::from(sq);
                let bit = 1u64 << sq32;
                let name = || notation::square_name(sq);
                if (state.pos.black | state.pos.white) & bit != 0 {
                    let owner = if state.pos.black & bit != 0 {
                        "black"
                    } else {
                        "white"
                    };
                    return Err(Diag::error(
                        "reversi::occupied",
                        format!("{} is already occupied by a {owner} disc", name()),
                    )
                    .at(mv.span)
                    .label(format!("{owner} disc here"))
                    .help(legal_moves_help(&state.legal_names())));
                }
                let (p, o) = state.pos.mover();
                let flipped = if state.moves & bit != 0 {
                    engine::flips_fast(p, o, sq32)
                } else {
                    0
                };
                if flipped == 0 {
                    return Err(Diag::error(
                        "reversi::no_flip",
                        format!("{} outflanks no {them} disc", name()),
                    )
                    .at(mv.span)
                    .label(format!("{me} flips nothing here"))
                    .help(legal_moves_help(&state.legal_names())));
                }
                let i = usize::from(!state.pos.black_to_move);
                if let Some(n) = state.placed.get_mut(i) {
                    *n += 1;
                }
                state.pos.play(sq32, flipped);
                let (p, o) = state.pos.mover();
                state.moves = engine::legal_moves_fast(p, o);
                Ok(())
            }
        }
    }

    fn scores(state: &State) -> Vec<i64> {
        let b = i64::from(state.pos.black.count_ones());
        let w = i64::from(state.pos.white.count_ones());
        if state.wof && state.over() {
            let empty = 64 - b - w;
            return match b.cmp(&w) {
                std::cmp::Ordering::Greater => vec![b + empty, w],
                std::cmp::Ordering::Less => vec![b, w + empty],
                std::cmp::Ordering::Equal => vec![b + empty / 2, w + empty - empty / 2],
            };
        }
        vec![b, w]
    }

    fn result_extras(state: &State) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert(
            "discs".into(),
            json!({ "black": state.pos.black.count_ones(), "white": state.pos.white.count_ones() }),
        );
        m.insert(
            "discs_placed".into(),
            json!({ "black": state.placed[0], "white": state.placed[1] }),
        );
        m
    }

    /// The discs each side placed (spec reversi.md, Rules: `score` reports them).
    fn score_notes(state: &State) -> Vec<String> {
        vec![format!(
            "discs placed: black {}, white {}",
            state.placed[0], state.placed[1]
        )]
    }

    fn write_move(mv: &Move) -> String {
        notation::write(*mv)
    }

    fn legal_moves(state: &State) -> Result<Vec<String>, String> {
        Ok(state.legal_names())
    }

    fn render(state: &State, color: bool) -> String {
        render::text(&state.pos, color, state.over())
    }

    fn position_rows(state: &State) -> Vec<String> {
        render::rows(&state.pos)
    }

    fn scene(state: &State, last: Option<&Move>) -> crate::svg::Scene {
        let last = match last {
            Some(Move::Place(sq)) => Some(*sq),
            _ => None,
        };
        render::scene(&state.pos, last)
    }

    const PLOT_UNIT: &'static str = "discs";

    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        variant_index::<Self>(variant)?;
        crate::game::no_players::<Self>(players)?;
        if depth == 0 {
            return Ok(Vec::new());
        }
        Ok(engine::children(Position::START)
            .into_iter()
            .map(|(sq, next)| {
                let name =
                    sq.map_or_else(|| "pass".to_string(), |sq| notation::square_name(sq as u8));
                (name, engine::perft_parallel_with(next, depth - 1, done))
            })
            .collect())
    }
}
