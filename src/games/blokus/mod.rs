//! Blokus (classic, Duo and Trigon), as `../shared/spec/blokus.md` and
//! `../shared/spec/trigon.md` fix it. Trigon's board, pieces, notation and
//! drawing are in [`trigon`]; this file holds what the variants share
//! (tags, seats, scoring, the driver's entry points) and classic's rules.
//!
//! - Each colour has the 21 free polyominoes of 1 to 5 squares (89 squares),
//!   named `1`, `2`, `I3`, `V3`, `I4`, `L4`, `T4`, `O`, `Z4`, `I5`, `L5`, `N`,
//!   `P`, `T5`, `U`, `V5`, `W`, `X`, `Y`, `Z5`, `F`; 91 orientations.
//! - Coordinates as in Pentobi: columns `a`.. left to right, rows `1`.. from
//!   the bottom up (`a1` lower-left).
//! - `classic` (default): 20x20 (or `[Size "N"]`, 5 to 26), blue, yellow, red,
//!   green in turn, starting corners blue `a N`, yellow `a1`, red `<last>1`,
//!   green `<last>N` unless a `Corners` tag assigns the four corners otherwise.
//!   `[Players "4"|"3"|"2"]`: one colour each; with 3, green is played in turn
//!   and scores for nobody; with 2, player 1 has blue and red, player 2 yellow
//!   and green. `duo`: 14x14, purple (start `e10`) then orange (`j5`).
//! - A piece covers only empty squares; a colour's first piece covers its
//!   starting square; later pieces touch their own colour corner to corner
//!   and never edge to edge. A colour that cannot place passes (written or
//!   not); a pass while a placement exists is illegal. The game ends when no
//!   colour can place.
//! - `[Scoring "basic"|"official"|"pentobi"]`, see the spec; seat scores sum
//!   their colours'.
//!
//! Layout: [`pieces`] holds the 21 shapes and their orientations, [`notation`]
//! reads tokens into [`Move`]s, [`engine`] is the row-mask rule engine,
//! [`setup`] reads set-up tags, [`render`] draws positions; [`trigon`] has
//! the same layout for Trigon. The notation is told the variant
//! ([`Rules::parse_moves_into`]): a Trigon record's tokens are read as
//! triangles ([`Move::Tri`]), whose shapes depend on the board's size.
//!
//! Decisions where the spec is silent:
//! - Notation reports what it can judge without the board: malformed squares
//!   (rows 1 to 26, columns `a` to `z`, no leading zero), repeated squares,
//!   shapes and piece names. It does so before the engine checks the move
//!   after the end of the game. A square past the edge of a smaller board is
//!   `not_a_square` from the engine, checked first in `play`.
//! - Order of checks in `play`: square on the board, piece already placed
//!   (`piece_used`), occupied squares, then the first piece's starting square
//!   or, for a later piece, edge contact and then corner contact.
//! - An unknown piece name (`Q:a1`) or an empty one (`:a1`) is
//!   `wrong_piece_name`. Squares that touch only at a corner are "not
//!   connected" (`not_a_piece`).
//! - `Size`, `Players` and `Corners` with `duo` are `bad_tags` even when
//!   their value would agree with Duo (`[Size "14"]`). `Corners` entries are
//!   `colour square` separated by commas, colour names case-insensitive; the
//!   tag must name all four colours, each on a different corner of the board.
//!   Tag values are trimmed; `Scoring` and `Variant` values are
//!   case-insensitive.
//! - "No other colour placed all of its pieces" (basic +10) counts every other
//!   colour, a partner's included (two-player games) and the shared green.
//! - Scores are computed for any position, bonuses included as soon as
//!   earned; `official` charges the unplaced squares at any time.
//! - The `player` of a move in JSON is the colour; `move_extras` also gives
//!   the seat. With three players, the shared green's turns (passes
//!   included) go to player 1, 2, 3 in rotation; this is informational only.
//! - A starting square covered by another colour before its owner's first
//!   move (possible on small boards) leaves that colour without a move: it
//!   passes to the end.
//! - `legal_moves` lists placements as `NAME:squares` sorted by that text;
//!   the writer always writes the piece name and the squares from `a1` row by
//!   row. Help lines give one legal placement and how many there are.
//! - `moves --by-score` scores a placement by the points it earns its colour
//!   under the record's `Scoring`: the change in that colour's score, so its
//!   squares plus a bonus it completes (all 21 placed, the monomino last, no
//!   other colour done yet under `basic`).
//! - An occupied-square error lists every occupied square with its colour and
//!   blames the first one in the move's text; an edge contact blames the
//!   first square (in the move's text) that touches its own colour and names
//!   the own square it touches.
//! - Perft (`classic`, the default, or `duo`): a colour with no placement
//!   passes, which is one ply; a position where no colour can place is a
//!   leaf. Pentobi's `.blksgf` import is not part of this module.
//! - Set-up positions (the spec has none; added for Pentobi's `AB`/`AW`/
//!   `A1`..`A4`/`PL`, see [`setup`]): one tag per colour, `[SetupBlue
//!   "V3:a20,a19,b19 1:e17"]` .. `SetupGreen`, or `SetupPurple`/`SetupOrange`
//!   in Duo, each holding that colour's pieces written as moves and
//!   separated by spaces, and `[First "red"]` for the colour that moves
//!   first (default the first colour). Per-colour tags rather than one
//!   `Setup` tag: they mirror Pentobi's properties and need no colour prefix
//!   inside the value; the names follow Deblockle's `SetupGold`/`SetupBlue`
//!   and `First`. Each piece must be one of the 21 (notation errors keep
//!   their codes: `not_a_piece`, `wrong_piece_name`...), on the board, cover
//!   no square set up before it, and be set up once per colour; those
//!   errors are `bad_tags` at the square or piece in the tag's value (the
//!   whole value when it holds escapes). The start square and contact rules
//!   are not checked: a setup is an arbitrary position. A colour with set-up
//!   pieces has made its first move: its next piece touches its own colour
//!   corner to corner. A setup tag of the other variant's colours and an
//!   unknown `First` colour are `bad_tags`. Set-up pieces count as placed
//!   for scores (squares, "all 21 placed" bonuses) but are not a colour's
//!   "last piece": the monomino bonus needs the monomino placed in play as
//!   the colour's last piece. Set-up pieces take no turn (three-player
//!   rotation of the shared green counts played turns only). Setup tags are
//!   only read when the other rules tags are valid.

pub mod engine;
pub mod notation;
pub mod pieces;
pub mod render;
pub mod setup;
pub mod trigon;

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{Parsed, Rules, variant_in, variant_index};
use crate::record::{Tag, Tags, Token};
use engine::Board;
pub use notation::Move;

/// The Blokus game.
pub struct Blokus;

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    Basic,
    Official,
    Pentobi,
}

/// A Blokus game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub board: Board,
    pub duo: bool,
    /// Players: 2, 3 or 4 (Duo: 2).
    pub players: u8,
    pub scoring: Scoring,
    /// Turns taken by each colour, passes included.
    pub turns: [u32; 4],
    /// The Trigon position (`board` is then unused).
    pub trigon: Option<trigon::board::Board>,
}

const CLASSIC: [&str; 4] = ["blue", "yellow", "red", "green"];
const DUO: [&str; 2] = ["purple", "orange"];

impl State {
    /// The name of colour `c`.
    pub fn colour(&self, c: u8) -> &'static str {
        let names: &[&'static str] = if self.duo { &DUO } else { &CLASSIC };
        names.get(usize::from(c)).copied().unwrap_or("?")
    }

    /// The colours, in turn order.
    pub fn colours(&self) -> std::ops::Range<u8> {
        match &self.trigon {
            Some(t) => 0..t.colours,
            None => 0..self.board.colours,
        }
    }

    /// The colour to move.
    pub fn mover(&self) -> u8 {
        self.trigon
            .as_ref()
            .map_or(self.board.to_move, |t| t.to_move)
    }

    /// The seat that plays colour `c` now.
    pub fn seat_of(&self, c: u8) -> String {
        if self.duo || self.players == 4 || (self.trigon.is_some() && self.players == 3) {
            return self.colour(c).to_string();
        }
        let n = match (self.players, c) {
            (2, c) => u32::from(c % 2) + 1,
            (_, 3) => self.turns.get(3).copied().unwrap_or(0) % 3 + 1,
            (_, c) => u32::from(c) + 1,
        };
        format!("player{n}")
    }

    /// Cells (squares or triangles) of colour `c` on the board.
    pub fn cells(&self, c: u8) -> u32 {
        match &self.trigon {
            Some(t) => t.triangles(c),
            None => self.board.squares(c),
        }
    }

    fn all_placed(&self, c: u8) -> bool {
        match &self.trigon {
            Some(t) => t.all_placed(c),
            None => self.board.all_placed(c),
        }
    }

    /// The score of colour `c` under the record's scoring.
    pub fn colour_score(&self, c: u8) -> i64 {
        let squares = i64::from(self.cells(c));
        let all = self.all_placed(c);
        let (last, mono, total) = match &self.trigon {
            Some(t) => (
                t.last.get(usize::from(c)).copied().flatten(),
                trigon::pieces::MONOMINO,
                trigon::pieces::ALL_TRIANGLES,
            ),
            None => (
                self.board.last.get(usize::from(c)).copied().flatten(),
                0,
                pieces::ALL_SQUARES,
            ),
        };
        let mono_last = last == Some(mono);
        match self.scoring {
            Scoring::Basic => {
                let alone = self.colours().all(|o| o == c || !self.all_placed(o));
                squares
                    + if all {
                        15 + if alone { 10 } else { 0 }
                    } else {
                        0
                    }
            }
            Scoring::Official => {
                squares - i64::from(total)
                    + if all {
                        15 + if mono_last { 5 } else { 0 }
                    } else {
                        0
                    }
            }
            Scoring::Pentobi => {
                squares
                    + if all {
                        15 + if mono_last { 5 } else { 0 }
                    } else {
                        0
                    }
            }
        }
    }

    /// One legal placement for the colour to move, as help text.
    fn hint(&self) -> String {
        if let Some(t) = &self.trigon {
            return trigon::hint(self, t);
        }
        let c = self.board.to_move;
        match self.board.one_move(c) {
            Some((p, 1)) => format!(
                "the only legal placement here: {}",
                notation::write_placement(&p)
            ),
            Some((p, n)) => format!(
                "a legal placement here: {} (one of {n})",
                notation::write_placement(&p)
            ),
            None => format!("{} has no legal placement and must pass", self.colour(c)),
        }
    }

    fn legal_names(&self) -> Vec<String> {
        if let Some(t) = &self.trigon {
            return trigon::legal_names(t);
        }
        let mut names: Vec<String> = self
            .board
            .moves(self.board.to_move)
            .iter()
            .map(notation::write_placement)
            .collect();
        names.sort();
        names
    }
}

/// What both Blokus engines, classic's and Trigon's, offer: their placements
/// visited one at a time (and what derives from that), playing one.
pub trait Placements: Clone {
    type Place: Copy;

    /// The colour to move.
    fn side(&self) -> u8;
    /// Plays a placement for the colour to move (legality checked by the caller).
    fn play(&mut self, p: Self::Place);
    /// The colour to move passes.
    fn skip(&mut self);
    /// Whether no colour can place a piece.
    fn over(&self) -> bool;

    /// Visits colour `c`'s legal placements while `f` returns true; `false`
    /// when `f` stopped it.
    fn each_move(&self, c: u8, f: impl FnMut(Self::Place) -> bool) -> bool;

    /// Number of legal placements of colour `c`.
    fn count_moves(&self, c: u8) -> u64 {
        let mut n = 0;
        self.each_move(c, |_| {
            n += 1;
            true
        });
        n
    }

    /// The legal placements of colour `c`.
    fn moves(&self, c: u8) -> Vec<Self::Place> {
        let mut v = Vec::new();
        self.each_move(c, |p| {
            v.push(p);
            true
        });
        v
    }

    /// The first legal placement of `c` found, and how many there are.
    fn one_move(&self, c: u8) -> Option<(Self::Place, u64)> {
        let mut first = None;
        let mut n = 0;
        self.each_move(c, |p| {
            first.get_or_insert(p);
            n += 1;
            true
        });
        first.map(|p| (p, n))
    }
}

/// Leaf count of the legal-move tree to `depth` plies, for either engine. A
/// colour that cannot place passes (one ply); a position where no colour can
/// place is a leaf.
pub fn perft<B: Placements>(board: &B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let c = board.side();
    if depth == 1 {
        // No placement: either a leaf (nobody can move) or one pass ply; both count 1.
        return board.count_moves(c).max(1);
    }
    let mut total = 0;
    let mut any = false;
    board.each_move(c, |p| {
        any = true;
        let mut next = board.clone();
        next.play(p);
        total += perft(&next, depth - 1);
        true
    });
    if !any {
        if board.over() {
            return 1;
        }
        let mut next = board.clone();
        next.skip();
        return perft(&next, depth - 1);
    }
    total
}

/// [`perft`] counted under each first move (named by `name`, `pass` for a
/// forced pass), the first moves in parallel; see
/// [`crate::game::Rules::perft_divide`].
pub fn perft_divide<B: Placements + Sync>(
    board: &B,
    depth: u32,
    name: impl Fn(B::Place) -> String + Sync,
    done: &(dyn Fn(u64) + Sync),
) -> Vec<(String, u64)>
where
    B::Place: Send + Sync,
{
    use rayon::prelude::*;
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.moves(board.side());
    if moves.is_empty() {
        if board.over() {
            return Vec::new();
        }
        let mut next = board.clone();
        next.skip();
        let n = perft(&next, depth - 1);
        done(n);
        return vec![("pass".to_string(), n)];
    }
    moves
        .par_iter()
        .map(|&p| {
            let mut next = board.clone();
            next.play(p);
            let n = perft(&next, depth - 1);
            done(n);
            (name(p), n)
        })
        .collect()
}

/// The names of the pieces a colour has not placed (`used`: a bit per
/// piece), classic's or Trigon's.
pub(crate) fn unplaced(
    used: u32,
    pieces: usize,
    name: fn(u8) -> &'static str,
) -> Vec<&'static str> {
    (0..pieces as u8)
        .filter(|p| used & (1 << p) == 0)
        .map(name)
        .collect()
}

/// `blokus::piece_used`: `me` places its `pname` a second time.
pub(crate) fn piece_used(me: &str, pname: &str, left: &[&str], span: crate::span::Span) -> Diag {
    Diag::error(
        "blokus::piece_used",
        format!("{me} has already placed the {pname}"),
    )
    .at(span)
    .label(format!("{me}'s {pname} is on the board"))
    .help(format!("{me}'s unplaced pieces: {}", left.join(" ")))
}

fn bad(tag: &Tag, message: String, label: &str, help: &str) -> Diag {
    Diag::error("blokus::bad_tags", message)
        .at(tag.value_span)
        .label(label.to_string())
        .help(help.to_string())
}

/// Reads a `Corners` value into starting squares per colour.
fn parse_corners(tag: &Tag, size: u8) -> Result<[(u8, u8); 4], Diag> {
    let help = "write each colour and its corner, e.g. [Corners \"blue a20, yellow t20, red t1, green a1\"]";
    let m = size - 1;
    let corners = [(0, 0), (0, m), (m, 0), (m, m)];
    let mut start: [Option<(u8, u8)>; 4] = [None; 4];
    for item in tag.value.split(',') {
        let mut words = item.split_whitespace();
        let (Some(colour), Some(square), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad(
                tag,
                format!("`{}` is not a colour and a square", item.trim()),
                "bad Corners entry",
                help,
            ));
        };
        let Some(c) = CLASSIC.iter().position(|n| n.eq_ignore_ascii_case(colour)) else {
            return Err(bad(
                tag,
                format!("`{colour}` is not a colour (blue, yellow, red, green)"),
                "bad colour",
                help,
            ));
        };
        let sq = notation::parse_square(square)
            .filter(|&(x, y)| x < size && y < size)
            .filter(|sq| corners.contains(sq));
        let Some(sq) = sq else {
            let n = notation::square_name(m, m);
            return Err(bad(
                tag,
                format!("`{square}` is not a corner of the {size}x{size} board"),
                "not a corner",
                &format!(
                    "the corners are a1, a{size}, {}, {n}",
                    notation::square_name(m, 0)
                ),
            ));
        };
        let slot = start.get_mut(c);
        match slot {
            Some(Some(_)) => {
                return Err(bad(
                    tag,
                    format!("{} is given two corners", CLASSIC.get(c).unwrap_or(&"?")),
                    "colour repeated",
                    help,
                ));
            }
            Some(s) => *s = Some(sq),
            None => {}
        }
    }
    let mut out = [(0, 0); 4];
    for (c, s) in start.iter().enumerate() {
        let Some(sq) = *s else {
            return Err(bad(
                tag,
                format!(
                    "Corners gives no corner to {}",
                    CLASSIC.get(c).unwrap_or(&"?")
                ),
                "colour missing",
                help,
            ));
        };
        if out.iter().take(c).any(|&o| o == sq) {
            return Err(bad(
                tag,
                format!(
                    "corner {} is given to two colours",
                    notation::square_name(sq.0, sq.1)
                ),
                "corner repeated",
                help,
            ));
        }
        if let Some(o) = out.get_mut(c) {
            *o = sq;
        }
    }
    Ok(out)
}

impl Rules for Blokus {
    type Move = Move;
    type State = State;
    type Spans = ();

    const NAME: &'static str = "blokus";
    const RULES_TAGS: &'static [&'static str] = &[
        "Size",
        "Players",
        "Corners",
        "Scoring",
        "SetupBlue",
        "SetupYellow",
        "SetupRed",
        "SetupGreen",
        "SetupPurple",
        "SetupOrange",
        "First",
    ];
    const VARIANTS: &'static [&'static str] = &["classic", "duo", "trigon"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        let variant = variant_in::<Self>(tags, &mut errors);
        let duo = variant == 1;
        let scoring = match tags.get("Scoring") {
            None => Scoring::Basic,
            Some(t) => match t.value.trim().to_ascii_lowercase().as_str() {
                "basic" => Scoring::Basic,
                "official" => Scoring::Official,
                "pentobi" => Scoring::Pentobi,
                _ => {
                    errors.push(bad(
                        t,
                        format!("unknown scoring `{}`", t.value),
                        "not a scoring",
                        "scorings: basic, official, pentobi",
                    ));
                    Scoring::Basic
                }
            },
        };
        let mut state = State {
            board: Board::classic(),
            duo,
            players: if duo { 2 } else { 4 },
            scoring,
            turns: [0; 4],
            trigon: None,
        };
        if variant == 2 {
            for name in ["Size", "Corners"] {
                if let Some(t) = tags.get(name) {
                    errors.push(
                        Diag::error(
                            "blokus::bad_tags",
                            format!("the `{name}` tag does not apply to Blokus Trigon"),
                        )
                        .at(t.span)
                        .label("square boards only")
                        .help("Trigon's board is the hexagon of edge 9 (edge 8 with [Players \"3\"]) and its six starting points are shared; remove this tag"),
                    );
                }
            }
            if let Some(t) = tags.get("Players") {
                match t.value.trim() {
                    "2" => state.players = 2,
                    "3" => state.players = 3,
                    "4" => state.players = 4,
                    _ => errors.push(bad(
                        t,
                        format!("`{}` is not a number of players (2, 3 or 4)", t.value),
                        "bad number of players",
                        "Blokus Trigon is played by 2, 3 or 4 players",
                    )),
                }
            }
            let mut b = trigon::board::Board::new(state.players == 3);
            if errors.is_empty() {
                errors = trigon::apply_setup(&mut b, tags);
            }
            state.trigon = Some(b);
        } else if duo {
            state.board = Board::duo();
            for name in ["Size", "Players", "Corners"] {
                if let Some(t) = tags.get(name) {
                    errors.push(
                        Diag::error(
                            "blokus::bad_tags",
                            format!("the `{name}` tag does not apply to Blokus Duo"),
                        )
                        .at(t.span)
                        .label("classic only")
                        .help("Duo is always 14x14, two players, purple from e10 and orange from j5; remove this tag or play classic"),
                    );
                }
            }
        } else {
            let mut size = 20u8;
            if let Some(t) = tags.get("Size") {
                match t.value.trim().parse::<u8>() {
                    Ok(n) if (5..=26).contains(&n) => size = n,
                    _ => errors.push(bad(
                        t,
                        format!("`{}` is not a board size from 5 to 26", t.value),
                        "bad size",
                        "write the side of the square board, e.g. [Size \"14\"]",
                    )),
                }
            }
            if let Some(t) = tags.get("Players") {
                match t.value.trim() {
                    "2" => state.players = 2,
                    "3" => state.players = 3,
                    "4" => state.players = 4,
                    _ => errors.push(bad(
                        t,
                        format!("`{}` is not a number of players (2, 3 or 4)", t.value),
                        "bad number of players",
                        "classic Blokus is played by 2, 3 or 4 players",
                    )),
                }
            }
            let m = size - 1;
            let mut start = [(0, m), (0, 0), (m, 0), (m, m)];
            if let Some(t) = tags.get("Corners") {
                match parse_corners(t, size) {
                    Ok(s) => start = s,
                    Err(d) => errors.push(d),
                }
            }
            state.board = Board::new(size, 4, start);
        }
        if errors.is_empty() && state.trigon.is_none() {
            errors = setup::apply(&mut state.board, duo, tags);
        }
        if errors.is_empty() {
            Ok(state)
        } else {
            Err(errors)
        }
    }

    fn variant(state: &State) -> &'static str {
        if state.trigon.is_some() {
            "trigon"
        } else if state.duo {
            "duo"
        } else {
            "classic"
        }
    }

    fn seats(state: &State) -> &'static [&'static str] {
        if state.duo {
            return &DUO;
        }
        if state.trigon.is_some() && state.players == 3 {
            return &["blue", "yellow", "red"];
        }
        match state.players {
            2 => &["player1", "player2"],
            3 => &["player1", "player2", "player3"],
            _ => &CLASSIC,
        }
    }

    fn parse_moves_into(
        start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move>>,
    ) -> Option<Diag> {
        match &start.trigon {
            Some(t) => trigon::parse_into(t, tokens, src, moves),
            None => notation::parse_into(tokens, src, moves),
        }
    }

    fn to_move(state: &State) -> &'static str {
        state.colour(state.mover())
    }

    fn is_over(state: &State) -> bool {
        match &state.trigon {
            Some(t) => t.is_over(),
            None => state.board.is_over(),
        }
    }

    fn must_pass(state: &State) -> bool {
        match &state.trigon {
            Some(t) => !t.has_move(t.to_move),
            None => !state.board.has_move(state.board.to_move),
        }
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(state: &mut State, mv: &Parsed<Move>) -> Result<(), Diag> {
        if let Some(mut t) = state.trigon.take() {
            let c = t.to_move;
            let r = trigon::play(state, &mut t, mv);
            if r.is_ok() {
                if let Some(n) = state.turns.get_mut(usize::from(c)) {
                    *n += 1;
                }
            }
            state.trigon = Some(t);
            return r;
        }
        let c = state.board.to_move;
        let me = state.colour(c);
        let place = match &mv.mv {
            Move::Pass => {
                if state.board.has_move(c) {
                    return Err(Diag::error(
                        "blokus::illegal_pass",
                        format!("{me} can place a piece and may not pass"),
                    )
                    .at(mv.span)
                    .label("pass while a placement exists")
                    .help(state.hint()));
                }
                if let Some(t) = state.turns.get_mut(usize::from(c)) {
                    *t += 1;
                }
                state.board.pass();
                return Ok(());
            }
            Move::Place(p) => p,
            Move::Tri(_) => {
                return Err(Diag::error(
                    "blokus::not_a_piece",
                    "a Trigon placement in a square-board game",
                )
                .at(mv.span));
            }
        };
        // A legal placement (the common case) is played at once; the checks
        // below only find and explain what makes a placement illegal.
        if state.board.is_legal(c, place.placement) {
            state.board.place(place.placement);
            if let Some(t) = state.turns.get_mut(usize::from(c)) {
                *t += 1;
            }
            return Ok(());
        }
        let b = &state.board;
        let size = b.size;
        if let Some(cell) = place
            .cells()
            .iter()
            .find(|x| x.col >= size || x.row >= size)
        {
            let sq = notation::square_name(cell.col, cell.row);
            return Err(Diag::error(
                "blokus::not_a_square",
                format!("{sq} is off the {size}x{size} board"),
            )
            .at(cell.span)
            .label("not on the board")
            .help(format!(
                "squares run from a1 to {}",
                notation::square_name(size - 1, size - 1)
            )));
        }
        let piece = place.placement.piece();
        let pname = pieces::label(piece);
        let used = b.used.get(usize::from(c)).copied().unwrap_or(0);
        if used & (1 << piece) != 0 {
            let left = unplaced(used, pieces::PIECES, pieces::name);
            return Err(piece_used(me, &pname, &left, mv.span));
        }
        let taken: Vec<(&notation::Cell, u8)> = place
            .cells()
            .iter()
            .filter_map(|x| b.at(x.col, x.row).map(|o| (x, o)))
            .collect();
        if let Some(&(first, _)) = taken.first() {
            let what: Vec<String> = taken
                .iter()
                .map(|(x, o)| {
                    format!(
                        "{} is occupied by {}",
                        notation::square_name(x.col, x.row),
                        state.colour(*o)
                    )
                })
                .collect();
            let owner = taken.first().map_or("?", |&(_, o)| state.colour(o));
            return Err(Diag::error("blokus::occupied", what.join(", "))
                .at(first.span)
                .label(format!("{owner} is here"))
                .help(state.hint()));
        }
        if b.first_move(c) {
            let (sx, sy) = b.start.get(usize::from(c)).copied().unwrap_or((0, 0));
            if !place.cells().iter().any(|x| (x.col, x.row) == (sx, sy)) {
                return Err(Diag::error(
                    "blokus::start_missed",
                    format!(
                        "{me}'s first piece must cover its starting square {}",
                        notation::square_name(sx, sy)
                    ),
                )
                .at(mv.span)
                .label(format!("does not cover {}", notation::square_name(sx, sy)))
                .help(state.hint()));
            }
        } else {
            let own = |x: i32, y: i32| -> bool {
                u8::try_from(x)
                    .ok()
                    .zip(u8::try_from(y).ok())
                    .is_some_and(|(x, y)| x < size && y < size && b.at(x, y) == Some(c))
            };
            for cell in place.cells() {
                let (x, y) = (i32::from(cell.col), i32::from(cell.row));
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if own(x + dx, y + dy) {
                        let sq = notation::square_name(cell.col, cell.row);
                        let nb = notation::square_name((x + dx) as u8, (y + dy) as u8);
                        return Err(Diag::error(
                            "blokus::edge_contact",
                            format!("{sq} shares an edge with {me}'s own square {nb}"),
                        )
                        .at(cell.span)
                        .label(format!("touches {me} at {nb}"))
                        .help(state.hint()));
                    }
                }
            }
            let corner = place.cells().iter().any(|cell| {
                let (x, y) = (i32::from(cell.col), i32::from(cell.row));
                [(1, 1), (1, -1), (-1, 1), (-1, -1)]
                    .iter()
                    .any(|&(dx, dy)| own(x + dx, y + dy))
            });
            if !corner {
                return Err(Diag::error(
                    "blokus::no_corner_contact",
                    format!("the {pname} touches no {me} square corner to corner"),
                )
                .at(mv.span)
                .label(format!("no corner contact with {me}"))
                .help(state.hint()));
            }
        }
        state.board.place(place.placement);
        if let Some(t) = state.turns.get_mut(usize::from(c)) {
            *t += 1;
        }
        Ok(())
    }

    fn scores_into(state: &State, out: &mut Vec<i64>) {
        let s = |c: u8| state.colour_score(c);
        out.clear();
        if state.duo {
            return out.extend([s(0), s(1)]);
        }
        match state.players {
            2 => out.extend([s(0) + s(2), s(1) + s(3)]),
            3 => out.extend([s(0), s(1), s(2)]),
            _ => out.extend([s(0), s(1), s(2), s(3)]),
        }
    }

    fn result_extras(state: &State) -> Map<String, Value> {
        let mut colours = Map::new();
        let mut squares = Map::new();
        for c in state.colours() {
            colours.insert(state.colour(c).into(), json!(state.colour_score(c)));
            squares.insert(state.colour(c).into(), json!(state.cells(c)));
        }
        let mut m = Map::new();
        m.insert("colours".into(), Value::Object(colours));
        let key = if state.trigon.is_some() {
            "triangles"
        } else {
            "squares"
        };
        m.insert(key.into(), Value::Object(squares));
        m
    }

    fn write_move(mv: &Move) -> String {
        notation::write(mv)
    }

    fn move_extras(before: &State, mv: &Move) -> Map<String, Value> {
        let c = before.mover();
        let mut m = Map::new();
        m.insert("colour".into(), json!(before.colour(c)));
        m.insert("seat".into(), json!(before.seat_of(c)));
        if let Some(t) = &before.trigon {
            trigon::move_extras(t, mv, &mut m);
            return m;
        }
        if let Move::Place(p) = mv {
            m.insert("piece".into(), json!(pieces::name(p.placement.piece())));
            let squares: Vec<String> = p
                .placement
                .squares()
                .map(|(x, y)| notation::square_name(x, y))
                .collect();
            m.insert("squares".into(), json!(squares));
        }
        m
    }

    fn legal_moves(state: &State) -> Result<Vec<String>, String> {
        Ok(state.legal_names())
    }

    const SCORES_MOVES: bool = true;

    /// Each placement with the points it earns its colour under the record's
    /// scoring: its squares, plus a bonus it completes (all 21 placed, the
    /// monomino last, no other colour done).
    fn scored_moves(state: &State) -> Result<Vec<(String, i64)>, String> {
        if let Some(t) = &state.trigon {
            let c = t.to_move;
            let before = state.colour_score(c);
            return Ok(t
                .moves(c)
                .iter()
                .map(|&p| {
                    let mut after = state.clone();
                    if let Some(b) = after.trigon.as_mut() {
                        b.place(p);
                    }
                    (
                        trigon::notation::write_place(t.geo(), p),
                        after.colour_score(c) - before,
                    )
                })
                .collect());
        }
        let c = state.board.to_move;
        let before = state.colour_score(c);
        Ok(state
            .board
            .moves(c)
            .iter()
            .map(|p| {
                let mut after = state.clone();
                after.board.place(*p);
                (notation::write_placement(p), after.colour_score(c) - before)
            })
            .collect())
    }

    fn render(state: &State, color: bool) -> String {
        match &state.trigon {
            Some(t) => trigon::render::text(state, t, color),
            None => render::text(state, color),
        }
    }

    fn position_rows(state: &State) -> Vec<String> {
        match &state.trigon {
            Some(t) => trigon::render::rows(state, t),
            None => render::rows(state),
        }
    }

    fn scene(state: &State, last: Option<&Move>) -> crate::svg::Scene {
        if let Some(t) = &state.trigon {
            let last: Vec<(u8, u8)> = match last {
                Some(Move::Tri(p)) => p.cells().iter().map(|c| (c.col, c.row)).collect(),
                _ => Vec::new(),
            };
            return trigon::render::scene(state, t, &last);
        }
        let last: Vec<(u8, u8)> = match last {
            Some(Move::Place(p)) => p.placement.squares().collect(),
            _ => Vec::new(),
        };
        render::scene(state, &last)
    }

    const PLOT_UNIT: &'static str = "points";

    /// Classic's player count does not change its tree (four colours in
    /// turn); Trigon's three players play on the smaller board; Duo is two.
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        let v = variant_index::<Self>(variant)?;
        match (v, players) {
            (_, None) | (1, Some(2)) | (0 | 2, Some(2..=4)) => {}
            (1, Some(n)) => return Err(format!("Blokus Duo has 2 players, not {n}")),
            (_, Some(n)) => {
                return Err(format!("Blokus is played by 2, 3 or 4 players, not {n}"));
            }
        }
        if v == 2 {
            let board = trigon::board::Board::new(players == Some(3));
            let geo = board.geo();
            return Ok(perft_divide(
                &board,
                depth,
                |p| trigon::notation::write_place(geo, p),
                done,
            ));
        }
        let board = if v == 1 {
            Board::duo()
        } else {
            Board::classic()
        };
        Ok(perft_divide(
            &board,
            depth,
            |p| notation::write_placement(&p),
            done,
        ))
    }
}

#[cfg(test)]
mod tests;
