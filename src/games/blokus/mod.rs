//! Blokus (classic, Duo and Trigon), as `../shared/spec/blokus.md` and
//! `../shared/spec/trigon.md` fix it. The rules are written once, over a
//! board's geometry (classic's squares, Trigon's triangles); Trigon's board,
//! pieces, notation and drawing are in [`trigon`].
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
//! Layout, one rules core over two geometries:
//! - [`geometry`]: the [`Geometry`] trait, what the rules need of a board
//!   (its cells and their edge and corner neighbours, its starting cells,
//!   its pieces, how its cells are named, the position on it and its move
//!   generator), and [`Placements`] (the move generators, for perft).
//!   Implemented by [`board::Board`] (classic's row-mask engine, squares
//!   up to 26x26, [`pieces`] the 21 polyominoes) and
//!   [`trigon::board::Board`] (bit sets on the hexagon, the 22
//!   polyiamonds).
//! - [`engine`]: [`State<G>`] over a geometry, the typed [`Move`] (a
//!   placement's cells by column and row, no spans) and [`Illegal`]; the
//!   rules judged in named steps, scores, seats, turns. No messages.
//! - [`notation`]: tokens into moves with the span of each cell
//!   ([`CellSpans`]), moves back into text; the square reader (Trigon's is
//!   in [`trigon::notation`], which uses this file's helpers; this file
//!   uses no Trigon notation). The start position says which board's
//!   notation reads the record (a triangle's direction depends on the
//!   board's size).
//! - [`explain`]: an [`Illegal`] and the spans made a diagnostic, the
//!   words of each board apart.
//! - [`render`]: terminal text, letter rows and SVG ([`render::Draw`] per
//!   board; Trigon's drawing in [`trigon::render`]).
//! - [`tags`]: the start position from the rules tags; [`setup`]: the
//!   set-up tags (Trigon's in [`trigon::setup`]). This file: the rules
//!   docs, [`Setup`], [`Extras`], [`Perft`], and the [`Position`].
//!
//! Beside `mod.rs` (whose `Blokus` and `Position` the concern traits are
//! implemented for), no two files import each other: [`geometry`] imports
//! no other part; the boards, the rules core, the notations and the
//! drawings build on it in that order, each Trigon file on its classic
//! counterpart and never back (the writer names cells through the
//! geometry; each board's reading and drawing are found through the
//! traits `notation::ReadPlacement` and `render::Draw`, which the Trigon
//! files implement).
//!
//! [`Position`] is an enum of the two monomorphised states,
//! `State<board::Board>` and `State<trigon::board::Board>`, with the
//! dispatch in one place: the `each!` macro, used once per method. Not two
//! game types under one name: a record's `Variant` tag picks the board, and
//! `Variant "trigon"` is a variant of `Game "blokus"` in every part of the
//! tree (the registry, inference, the Pentobi reader, the CLI's
//! `--variant`); two game types would need the registry to pick a type
//! from a tag value, for one game. The enum costs one predictable branch
//! per call; each arm runs the monomorphised rules.
//!
//! Decisions where the spec is silent:
//! - Notation reports what it can judge without the board: malformed squares
//!   (rows 1 to 26, columns `a` to `z`, no leading zero), repeated squares,
//!   shapes and piece names. It does so before the engine checks the move
//!   after the end of the game. A square past the edge of a smaller board is
//!   `not_a_square` from the engine, checked first in `play`; in a placement
//!   the notation refuses anyway (not one piece, a wrong name) the notation
//!   checks the squares against the board first (it is told the board's
//!   size, and a Trigon board's triangles), so the first error is the first
//!   of the spec's list: no square, a square listed twice, off the board,
//!   no piece, then the name (`not_a_square` before `not_a_piece`, with the
//!   engine's message, on both boards). Where the list puts `piece_used`
//!   before a name that does not match the shape, gamerec judges the name
//!   first: the notation reads it, and an engine that knows the colour's
//!   pieces is never shown a placement whose name and shape disagree.
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
//! - Setup edits (the spec has none; added for a Pentobi setup in a node
//!   after moves, which Pentobi's `BoardUpdater` makes a new start: the
//!   position so far plus the node's pieces, less those `AE` takes off,
//!   with `PL`'s colour to move): movetext tokens, one edit each,
//!   `+blue:V3:a20,a19,b19` (a piece put on for a colour),
//!   `-V3:a20,a19,b19` (the piece on exactly those cells taken off),
//!   `>red` (the colour to move). Tokens rather than a tag: an edit stands
//!   between two moves, and a tag holds a start. One token per piece, so
//!   that each is a typed [`Move`] of a fixed size (`Move::Put`,
//!   `Move::Take`, `Move::ToMove`; a colour is its [`engine::PALETTE`]
//!   index, so that a move is written without its board) and each error
//!   blames its piece. The signs are the notation's own (`+`, `-`, `>`:
//!   no move starts so, and they read as put, take, next). The engine
//!   judges an edit like a move ([`State::play`]): a piece put on is on
//!   the board, on free cells, and one its colour has not on the board
//!   (`bad_setup`; the notation's errors keep their codes); a piece taken
//!   off covers cells of one colour, which has such a piece on the board
//!   (its cells are not checked to be that one placement: a colour's
//!   pieces of one shape are one piece, and pieces put on by a setup may
//!   touch by an edge); no contact rule. An edit is no ply
//!   ([`game::Position::is_setup`]): no turn, no automatic pass before
//!   it, allowed after the end. Every edit clears each colour's "last
//!   piece placed" (Pentobi's new start has no moves: the monomino bonus
//!   needs the monomino placed after it). A colour whose pieces are all
//!   taken off is before its first piece again. Pentobi checks less (it
//!   plays a file's moves without judging them and ignores an `AE` that
//!   names no piece); a record gamerec accepts is one Pentobi reads the
//!   same.

/// Runs `$body` with `$s` bound to the monomorphised [`State`] inside a
/// [`Position`]: the one place where the two geometries are told apart.
macro_rules! each {
    ($position:expr, $s:ident => $body:expr) => {
        match $position {
            $crate::games::blokus::Position::Squares($s) => $body,
            $crate::games::blokus::Position::Triangles($s) => $body,
        }
    };
}

pub mod board;
pub mod engine;
pub mod explain;
pub mod geometry;
pub mod notation;
pub mod pieces;
pub mod render;
pub mod setup;
pub mod tags;
pub mod trigon;
mod symmetry;

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{self, Extras, Perft, Setup, Unlisted, variant_index};
use crate::record::Tags;
pub use engine::{Illegal, Move, Scoring, State};
pub use geometry::{Geometry, Placement, Placements};
pub use notation::CellSpans;

/// The Blokus game.
pub struct Blokus;

/// A Blokus position: a [`State`] on classic's square board (classic and
/// Duo) or on Trigon's triangle board.
// Unboxed: a position is cloned whole (perft, scored moves, the driver's
// states), and a box would allocate on each clone and add a pointer to
// every move played.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Position {
    Squares(State<board::Board>),
    Triangles(State<trigon::board::Board>),
}

impl Setup for Blokus {
    type Position = Position;

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

    /// The variant picks the board: Trigon's triangles, else squares.
    fn start(tags: &Tags) -> Result<Position, Vec<Diag>> {
        tags::start(tags)
    }
}

impl game::Position for Position {
    type Move = Move;
    type Illegal = Illegal;

    const SCORES_MOVES: bool = true;

    fn variant(&self) -> &'static str {
        each!(self, s => s.variant())
    }

    fn seats(&self) -> &'static [&'static str] {
        each!(self, s => s.seats())
    }

    fn to_move(&self) -> &'static str {
        each!(self, s => s.colour(s.mover()))
    }

    fn is_over(&self) -> bool {
        each!(self, s => s.is_over())
    }

    fn must_pass(&self) -> bool {
        each!(self, s => s.must_pass())
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    #[inline]
    fn is_setup(mv: &Move) -> bool {
        mv.is_edit()
    }

    /// A placement the board's quick check finds legal (classic's squares;
    /// Trigon's board has no quick check and always says `false`): the
    /// side to move has it, so no pass is owed and the game is not over.
    /// The board remembers the answer for the `play` that follows.
    #[inline]
    fn plays_now(&self, mv: &Move) -> bool {
        each!(self, s => s.plays_now(mv))
    }

    fn pass() -> Move {
        Move::Pass
    }

    #[inline]
    fn play(&mut self, mv: &Move) -> Result<(), Illegal> {
        each!(self, s => s.play(mv))
    }

    fn scores_into(&self, out: &mut Vec<i64>) {
        each!(self, s => s.scores_into(out));
    }

    fn legal_moves(&self) -> Result<impl Iterator<Item = Move> + '_, Unlisted> {
        Ok(each!(self, s => s.legal()).into_iter())
    }

    /// Each placement with the points it earns its colour under the record's
    /// scoring: its cells, plus a bonus it completes (all pieces placed, the
    /// monomino last, no other colour done).
    fn scored_moves(&self) -> Result<Vec<(Move, i64)>, Unlisted> {
        Ok(each!(self, s => s.scored()))
    }
}

impl Extras for Blokus {
    fn result_extras(position: &Position) -> Map<String, Value> {
        each!(position, s => result_extras(s))
    }

    fn move_extras(before: &Position, mv: &Move) -> Map<String, Value> {
        each!(before, s => move_extras(s, mv))
    }
}

/// Each colour's score and cells (`squares` or `triangles`).
fn result_extras<G: Geometry>(state: &State<G>) -> Map<String, Value>
where
    G::Place: Send + Sync,
{
    let mut colours = Map::new();
    let mut cells = Map::new();
    for c in state.colours() {
        colours.insert(state.colour(c).into(), json!(state.colour_score(c)));
        cells.insert(state.colour(c).into(), json!(state.cells(c)));
    }
    let mut m = Map::new();
    m.insert("colours".into(), Value::Object(colours));
    m.insert(format!("{}s", G::CELL), Value::Object(cells));
    m
}

/// A move's colour and seat, and for a placement its piece and cells
/// (sorted by row, then column).
fn move_extras<G: Geometry>(before: &State<G>, mv: &Move) -> Map<String, Value>
where
    G::Place: Send + Sync,
{
    let c = before.mover();
    let mut m = Map::new();
    m.insert("colour".into(), json!(before.colour(c)));
    m.insert("seat".into(), json!(before.seat_of(c)));
    if let Some(p) = mv.placement_on::<G>() {
        m.insert("piece".into(), json!(G::piece_name(p.piece)));
        let names: Vec<String> = p
            .sorted()
            .as_slice()
            .iter()
            .map(|&(col, row)| G::cell_name(col, row))
            .collect();
        m.insert(format!("{}s", G::CELL), json!(names));
    }
    m
}

impl Perft for Blokus {
    /// Classic's player count does not change its tree (four colours in
    /// turn); Trigon's three players play on the smaller board; Duo is two.
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, crate::game::PerftError> {
        let v = variant_index::<Self>(variant)?;
        match (v, players) {
            (_, None) | (1, Some(2)) | (0 | 2, Some(2..=4)) => {}
            (1, Some(n)) => return Err(format!("Blokus Duo has 2 players, not {n}").into()),
            (_, Some(n)) => {
                return Err(format!("Blokus is played by 2, 3 or 4 players, not {n}").into());
            }
        }
        Ok(match v {
            2 => divide_named(&trigon::board::Board::new(players == Some(3)), depth, done),
            1 => divide_named(&board::Board::duo(), depth, done),
            _ => divide_named(&board::Board::classic(), depth, done),
        })
    }
}

/// [`perft_divide`] with the first moves in canonical notation.
fn divide_named<G: Geometry>(
    board: &G,
    depth: u32,
    done: &(dyn Fn(u64) + Sync),
) -> Vec<(String, u64)>
where
    G::Place: Send + Sync,
{
    perft_divide(
        board,
        depth,
        |p| notation::write_placement::<G>(&board.written(p)),
        done,
    )
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
/// [`Perft::perft_divide`].
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
/// piece), on a board of geometry `G`.
pub(crate) fn unplaced<G: Geometry>(used: u32) -> Vec<&'static str>
where
    G::Place: Send + Sync,
{
    (0..G::PIECES as u8)
        .filter(|p| used & (1 << p) == 0)
        .map(G::piece_name)
        .collect()
}

#[cfg(test)]
mod tests;
