//! Qwirkle, as `../shared/spec/qwirkle.md` fixes it.
//!
//! - 108 tiles: 6 colours (`R O Y G B P`) x 6 shapes (`o s d c x *`), three of
//!   each kind. 2 to 6 players (`[Players "N"]`, required), seats `player1` ..
//!   `playerN` in turn order, six tiles each; the bag starts at `108 - 6N`.
//! - A turn places tiles (one row or column, one shared colour or shape, no
//!   gaps, touching the board after the first turn, every line one colour with
//!   different shapes or one shape with different colours, no line over 6),
//!   swaps tiles (only if the bag holds at least as many), or passes (only with
//!   an empty bag, and, when the mover's hand is known, only when no placement
//!   exists). Passes are always written (`must_pass` is false).
//! - Score: every line the turn makes or extends counts its tiles, a line of 6
//!   (a Qwirkle) 6 more; a lone first tile scores 1. When the bag is empty the
//!   first player to place their last tile ends the game and scores 6 more; if
//!   every player passes in turn (bag empty), the game ends with no bonus.
//!
//! Layout: [`notation`] reads tokens into [`Move`]s, [`engine`] judges and
//! scores placements and generates them, [`render`] draws positions.
//!
//! Decisions where the spec is silent:
//!
//! - **Hand sizes are always counted** (with or without `HandN` tags): a
//!   placement moves tiles from the hand, then the hand draws
//!   `min(placed, bag)`. A player whose count reaches 0 has placed their last
//!   tile with the bag empty: the game ends and they get the 6. Placing or
//!   swapping more tiles than the hand holds is `not_in_hand`.
//! - **Written draws are always counted**: `<..>` after a placement must hold
//!   exactly `min(placed, bag)` tiles and after a swap exactly the swap's size,
//!   whether the hand is known or not (`wrong_draw_count`). A placement with
//!   nothing to draw (empty bag) keeps a known hand known without `<>`.
//! - **Supply**: the board plus the known hands never hold a fourth copy of a
//!   kind (`fourth_copy`); tiles drawn into an unknown hand are checked against
//!   that supply at the moment they are drawn but are not tracked afterwards.
//!   `HandN` tags holding a fourth copy between them are `fourth_copy` at ply 0.
//! - **Tags**: `Players` missing or not 2..6, a `HandN` (any `N`) that is not
//!   six comma-separated tiles, or with `N` above `Players` (or 0), are
//!   `bad_tags`. An unknown `Variant` is `record::bad_tag`.
//! - **First turn** (all hands known at the start): `player1` must hold a
//!   largest group (ties allowed: the rule breaks them by age, which the record
//!   does not hold), and place a group of exactly that size; a first turn that
//!   swaps is `first_turn` too (a pass is `illegal_pass`: the bag is full).
//!   `moves` then lists only groups of that size.
//! - **Swap** with its tiles written: from a known hand they must be held
//!   (`not_in_hand`); the hand stays known only when the draw is written too.
//!   `swap N` always makes the hand unknown. A swap is legal even when a
//!   placement exists.
//! - **Order of checks** within a placement: occupied (including two tiles of
//!   the turn on one square), one row or column, gaps, contact, shared
//!   attribute, each line (main line first, then the cross lines in written
//!   order: too long, duplicate, mixed), then hand (`not_in_hand`),
//!   `first_turn`, `wrong_draw_count`, `fourth_copy`, and last the claim
//!   (which includes Qwirkle bonuses and the 6 for going out). A swap:
//!   `first_turn`, `not_in_hand` (count, then tiles), `swap_too_large`,
//!   `wrong_draw_count`, `fourth_copy`. A pass: the bag first, then (known
//!   hand) whether a placement exists.
//! - **`moves`** needs the mover's hand known (otherwise an error: exit 2). It
//!   lists the placements and the legal swaps (every distinct set of hand
//!   tiles the bag allows), sorted by text like every game, or `pass` when
//!   passing is legal. `moves --by-score` lists them best scoring first, ties
//!   by text, each with its score (`Rc@0,1 + Ro@0,2 =4`; a swap scores 0).
//!   On the empty board the tiles are listed from 0,0 eastward (any square
//!   and orientation is legal).
//! - `position_rows` (JSON `final_position`): the occupied rectangle, north
//!   first, each row its cells concatenated, a cell a tile code (`Rc`) or
//!   `..`; nothing else is prepended. An empty board gives no rows.
//! - `perft` does not apply (hands and the bag are hidden): an error.
//! - **JSON extras**: per placement `tiles` (`{tile, x, y}`), `score` (when the
//!   placement is legal) and `drawn` (when written); per swap `swapped` (the
//!   count), `swapped_tiles` and `drawn` when written. Per game: `bag`,
//!   `tiles_on_board`, `went_out` and `hands` (the tiles of a known hand, the
//!   count of an unknown one).
//! - **Notation**: every malformed turn is `bad_tile` (the spec lists no other
//!   notation code): an unknown tile code, a square that is not two 32-bit
//!   integers, `+` not followed by a tile on a square, an unclosed `<`, `=`
//!   without a number, `swap` without tiles or a count from 1 to 6, more than 6
//!   tiles in a turn or a swap. Claims `=N` belong to placements only. Drawn
//!   tiles are written without squares.
//! - **Lines in messages** are named by their shared attribute and direction
//!   (`red column`, `criss-cross row`); a wrong claim's help gives the right
//!   score line by line (`criss-cross row 3 + red column 6 + Qwirkle 6 + blue
//!   column 3 = 18`, plus `going out 6` when it applies); `mixed_line`,
//!   `duplicate_in_line` and `line_too_long` list the line's squares and tiles.
//! - `unchecked` (shown by `score`): without any `HandN` tag, the hand checks
//!   (tiles in hand, drawn tiles, first-turn group, pass legality while a
//!   placement exists); otherwise each hand never recorded or lost (with the
//!   ply it was lost at and why), and the first-turn group when not every
//!   hand was recorded.

pub mod engine;
pub mod notation;
pub mod render;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::diag::{Diag, legal_moves_help};
use crate::game::{Parsed, Rules, variant_in};
use crate::record::{Tags, Token};
use crate::span::Span;
use engine::{Board, Counts, PlaceError, Put, Tile, code, count_add, count_take, tiles_of};
pub use notation::Move;

/// The Qwirkle game.
pub struct Qwirkle;

/// Why a hand stopped being known, and from which ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub ply: usize,
    pub why: &'static str,
}

/// The most players.
const SEATS_MOST: usize = 6;

/// A Qwirkle game in progress. The per-seat arrays hold six seats; those
/// past `players` stay as they start (six tiles, unknown, no score).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub players: usize,
    pub board: Board,
    /// Tiles left in the bag.
    pub bag: usize,
    /// Tiles in each hand (always known).
    pub hand_size: [usize; SEATS_MOST],
    /// Each hand's tiles, while known.
    pub hands: [Option<Counts>; SEATS_MOST],
    /// Whether each hand was given by a `HandN` tag.
    pub tagged: [bool; SEATS_MOST],
    /// When a tagged hand became unknown.
    pub lost: [Option<Unknown>; SEATS_MOST],
    pub scores: [i64; SEATS_MOST],
    pub to_move: usize,
    /// Passes in a row.
    pub passes: usize,
    pub over: bool,
    /// The seat that placed its last tile (and got the 6).
    pub went_out: Option<usize>,
    /// Turns played.
    pub ply: usize,
}

fn tile_list(tiles: &[Tile]) -> String {
    tiles.iter().map(|&t| code(t)).collect::<Vec<_>>().join(",")
}

/// `1 tile`, `3 tiles`.
fn n_tiles(n: usize) -> String {
    crate::diag::plural(n, "tile", "tiles")
}

/// The seats' names, in turn order.
const SEATS: [&str; 6] = [
    "player1", "player2", "player3", "player4", "player5", "player6",
];

fn seat(p: usize) -> String {
    format!("player{}", p + 1)
}

/// A seat's name, written only when a message needs it.
#[derive(Clone, Copy)]
struct Seat(usize);

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "player{}", self.0 + 1)
    }
}

/// A `HandN` value: six tiles, comma separated (spaces allowed).
fn parse_hand(value: &str) -> Result<Counts, String> {
    let mut c = [0u8; 36];
    let mut n = 0;
    for part in value.split(',') {
        let p = part.trim().as_bytes();
        let t = match p {
            [a, b] => engine::from_letters(*a, *b),
            _ => None,
        };
        let Some(t) = t else {
            return Err(format!("`{}` is not a tile", part.trim()));
        };
        count_add(&mut c, t);
        n += 1;
    }
    if n != 6 {
        return Err(format!("{} instead of 6", n_tiles(n)));
    }
    Ok(c)
}

impl State {
    fn me(&self) -> String {
        seat(self.to_move)
    }

    fn hand(&self) -> Option<&Counts> {
        self.hands.get(self.to_move).and_then(|h| h.as_ref())
    }

    /// The seats' hands.
    fn seat_hands(&self) -> &[Option<Counts>] {
        self.hands.get(..self.players).unwrap_or(&self.hands)
    }

    /// Whether each seat's hand was tagged.
    fn seat_tagged(&self) -> &[bool] {
        self.tagged.get(..self.players).unwrap_or(&self.tagged)
    }

    fn all_known(&self) -> bool {
        self.seat_hands().iter().all(Option::is_some)
    }

    /// The first-turn group size when the rule applies: first turn, all hands known.
    fn first_group(&self) -> Option<usize> {
        if self.ply == 0 && self.board.is_empty() && self.all_known() {
            self.hand().map(engine::largest_group)
        } else {
            None
        }
    }

    /// Legal placements of the mover (known hand), best first then by text.
    fn placements(&self) -> Vec<(String, i64)> {
        let Some(hand) = self.hand() else {
            return Vec::new();
        };
        let mut v: Vec<(String, i64)> = self
            .board
            .placements(hand, self.first_group())
            .into_iter()
            // Squares are 32-bit: a board at the edge of that range has no
            // squares beyond it.
            .filter(|(puts, _)| {
                puts.iter()
                    .all(|p| i32::try_from(p.x).is_ok() && i32::try_from(p.y).is_ok())
            })
            .map(|(puts, score)| {
                let text = puts
                    .iter()
                    .map(|p| format!("{}@{},{}", code(p.tile), p.x, p.y))
                    .collect::<Vec<_>>()
                    .join(" + ");
                (text, score)
            })
            .collect();
        // Going out with the bag empty earns the 6.
        let size = self.hand_size.get(self.to_move).copied().unwrap_or(0);
        if self.bag == 0 {
            for (text, score) in &mut v {
                if text.matches('@').count() == size {
                    *score += 6;
                }
            }
        }
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    }

    fn has_placement(&self) -> bool {
        !self.placements().is_empty()
    }

    /// Every distinct swap the bag allows (known hand), sorted by text.
    fn swaps(&self) -> Vec<String> {
        let Some(hand) = self.hand() else {
            return Vec::new();
        };
        if self.first_group().is_some() {
            return Vec::new();
        }
        let mut tiles = tiles_of(hand);
        // A hand holds at most six tiles; keep the subset count bounded anyway.
        tiles.truncate(engine::MAX_LINE);
        let mut out: Vec<String> = Vec::new();
        for mask in 1u32..(1u32 << tiles.len()) {
            let pick: Vec<Tile> = tiles
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &t)| t)
                .collect();
            if pick.len() <= self.bag {
                out.push(format!("swap {}", tile_list(&pick)));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn moves_help(&self) -> String {
        let names: Vec<String> = self
            .placements()
            .into_iter()
            .map(|(t, s)| format!("{t} ={s}"))
            .collect();
        legal_moves_help(&names)
    }

    /// Marks the mover's hand unknown from this ply.
    fn lose(&mut self, p: usize, why: &'static str) {
        if let Some(h) = self.hands.get_mut(p) {
            if h.is_some() {
                *h = None;
                if let Some(l) = self.lost.get_mut(p) {
                    *l = Some(Unknown {
                        ply: self.ply + 1,
                        why,
                    });
                }
            }
        }
    }

    /// The supply check: board plus known hands (the mover's replaced by
    /// `mine`), plus `extra`, hold at most 3 of each kind; the first kind
    /// with a fourth copy, if any.
    ///
    /// Board plus known hands never hold a fourth copy between turns (the
    /// start checks the tagged hands, every turn this check), and a turn
    /// adds copies only of the kinds it places or draws (`extra` and
    /// `drawn`): only those are counted.
    fn fourth_copy(&self, mine: Option<&Counts>, extra: &[Tile], drawn: &[Tile]) -> Option<Tile> {
        let count = |k: Tile| {
            let i = usize::from(k);
            let mut n = u32::from(self.board.on_board.get(i).copied().unwrap_or(0));
            for (p, h) in self.seat_hands().iter().enumerate() {
                let h = if p == self.to_move { mine } else { h.as_ref() };
                n += u32::from(h.and_then(|h| h.get(i)).copied().unwrap_or(0));
            }
            n + extra.iter().filter(|&&t| t == k).count() as u32
        };
        let first = extra
            .iter()
            .chain(drawn)
            .copied()
            .filter(|&k| count(k) > 3)
            .min();
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            first,
            self.fourth_copy_full(mine, extra),
            "{extra:?} {drawn:?}"
        );
        first
    }

    /// [`State::fourth_copy`] counting every kind (the plain computation the
    /// debug build checks it against).
    #[cfg(debug_assertions)]
    fn fourth_copy_full(&self, mine: Option<&Counts>, extra: &[Tile]) -> Option<Tile> {
        let mut c = self.board.on_board;
        for (p, h) in self.seat_hands().iter().enumerate() {
            let h = if p == self.to_move { mine } else { h.as_ref() };
            if let Some(h) = h {
                for (x, &n) in c.iter_mut().zip(h) {
                    *x = x.saturating_add(n);
                }
            }
        }
        for &t in extra {
            count_add(&mut c, t);
        }
        c.iter().position(|&n| n > 3).map(|k| k as Tile)
    }

    fn next_turn(&mut self) {
        self.ply += 1;
        self.to_move = (self.to_move + 1) % self.players.max(1);
    }

    fn play_place(
        &mut self,
        tiles: &[notation::Placed],
        claim: Option<(i64, Span)>,
        draw: Option<&notation::Draw>,
        span: Span,
    ) -> Result<(), Diag> {
        let me = Seat(self.to_move);
        let put_of = |p: &notation::Placed| Put {
            tile: p.tile,
            x: i64::from(p.x),
            y: i64::from(p.y),
        };
        // a turn's tiles on the stack (a hand holds six); a longer list in a Vec
        let mut few = [Put::default(); 12];
        let many: Vec<Put>;
        let puts: &[Put] = if tiles.len() <= few.len() {
            for (slot, p) in few.iter_mut().zip(tiles) {
                *slot = put_of(p);
            }
            few.get(..tiles.len()).unwrap_or(&[])
        } else {
            many = tiles.iter().map(put_of).collect();
            &many
        };
        let blame = |i: usize| tiles.get(i).map_or(span, |p| p.span);
        let sq = |x: i64, y: i64| format!("{x},{y}");
        let score_total = match self.board.judge_total(puts) {
            Ok(s) => s,
            Err(e) => {
                let d = match e {
                    PlaceError::Occupied { at, dup, held } => {
                        let p = puts.get(at).copied().unwrap_or(Put { tile: 0, x: 0, y: 0 });
                        let msg = if dup {
                            format!(
                                "square {} is given two tiles in this turn ({} and {})",
                                sq(p.x, p.y),
                                code(held),
                                code(p.tile)
                            )
                        } else {
                            format!("square {} already holds {}", sq(p.x, p.y), code(held))
                        };
                        Diag::error("qwirkle::occupied", msg)
                            .at(blame(at))
                            .label(format!("{} is taken", sq(p.x, p.y)))
                            .help("a square holds one tile")
                    }
                    PlaceError::NotInLine { at } => Diag::error(
                        "qwirkle::not_in_line",
                        "the tiles of a turn must lie in one row or one column",
                    )
                    .at(blame(at))
                    .label("not in the row or column of the first tile")
                    .help("place all of a turn's tiles along one row (same y) or one column (same x)"),
                    PlaceError::Gap { x, y } => Diag::error(
                        "qwirkle::gap",
                        format!("square {} between the placed tiles is empty", sq(x, y)),
                    )
                    .at(span)
                    .label(format!("gap at {}", sq(x, y)))
                    .help("the squares between a turn's outermost tiles must all hold tiles"),
                    PlaceError::NotTouching => Diag::error(
                        "qwirkle::not_touching",
                        "none of the placed tiles touches a tile on the board",
                    )
                    .at(span)
                    .label("not touching the board")
                    .help(self.moves_help_or("place next to a tile already on the board")),
                    PlaceError::NoSharedAttribute { at } => {
                        let first = puts.first().map_or(0, |p| p.tile);
                        let t = puts.get(at).map_or(0, |p| p.tile);
                        Diag::error(
                            "qwirkle::no_shared_attribute",
                            format!(
                                "{} and {} share neither colour nor shape",
                                code(first),
                                code(t)
                            ),
                        )
                        .at(blame(at))
                        .label("no attribute in common with the turn's first tile")
                        .help("all tiles of a turn share one colour or one shape")
                    }
                    PlaceError::TooLong { at, line } => Diag::error(
                        "qwirkle::line_too_long",
                        format!(
                            "this makes a {} of {} tiles: {}",
                            if line.row { "row" } else { "column" },
                            line.tiles.len(),
                            line.squares()
                        ),
                    )
                    .at(blame(at))
                    .label("line longer than 6")
                    .help("a line holds at most 6 tiles"),
                    PlaceError::Duplicate { at, line, tile } => Diag::error(
                        "qwirkle::duplicate_in_line",
                        format!(
                            "the {} {} holds {} twice",
                            if line.row { "row" } else { "column" },
                            line.squares(),
                            code(tile)
                        ),
                    )
                    .at(blame(at))
                    .label(format!("second {} in this line", code(tile)))
                    .help("no line holds the same tile twice"),
                    PlaceError::Mixed { at, line } => Diag::error(
                        "qwirkle::mixed_line",
                        format!(
                            "the {} {} is neither one colour nor one shape",
                            if line.row { "row" } else { "column" },
                            line.squares()
                        ),
                    )
                    .at(blame(at))
                    .label("this tile mixes the line")
                    .help("a line is all one colour with different shapes, or all one shape with different colours"),
                };
                return Err(d);
            }
        };
        // Hand.
        let size = self.hand_size.get(self.to_move).copied().unwrap_or(0);
        if puts.len() > size {
            return Err(Diag::error(
                "qwirkle::not_in_hand",
                format!(
                    "{me} holds only {} but places {}",
                    n_tiles(size),
                    puts.len()
                ),
            )
            .at(span)
            .label(format!("{} placed", n_tiles(puts.len())))
            .help(format!("{me} may place at most {}", n_tiles(size))));
        }
        let mut mine = self.hand().copied();
        if let Some(h) = &mut mine {
            for p in tiles {
                if !count_take(h, p.tile) {
                    return Err(Diag::error(
                        "qwirkle::not_in_hand",
                        self.not_held(p.tile, tiles.iter().map(|q| q.tile)),
                    )
                    .at(p.span)
                    .label("not in the hand")
                    .help(format!(
                        "{me} holds {}",
                        tile_list(&tiles_of(self.hand().unwrap_or(&[0; 36])))
                    )));
                }
            }
        }
        if let Some(g) = self.first_group() {
            self.check_first_group(g, puts.len(), span)?;
        }
        // Draws.
        let expect = puts.len().min(self.bag);
        if let Some(d) = draw {
            if d.tiles.len() != expect {
                return Err(self.draw_count_error(d, expect, "this placement"));
            }
        }
        let drawn: &[Tile] = draw.map_or(&[], |d| &d.tiles[..]);
        // `mine` becomes the hand after the draw (without a draw, nothing changes)
        if let Some(h) = &mut mine {
            for &t in drawn {
                count_add(h, t);
            }
        }
        let placed = puts.iter().map(|p| p.tile);
        let unknown = if mine.is_none() { drawn } else { &[] };
        // the placed tiles, then the drawn ones of an unknown hand
        let mut few_extra = [0 as Tile; 24];
        let many_extra: Vec<Tile>;
        let extra: &[Tile] = if puts.len() + unknown.len() <= few_extra.len() {
            for (slot, t) in few_extra
                .iter_mut()
                .zip(placed.chain(unknown.iter().copied()))
            {
                *slot = t;
            }
            few_extra.get(..puts.len() + unknown.len()).unwrap_or(&[])
        } else {
            many_extra = placed.chain(unknown.iter().copied()).collect();
            &many_extra
        };
        if let Some(t) = self.fourth_copy(mine.as_ref(), extra, drawn) {
            let blame = tiles
                .iter()
                .find(|p| p.tile == t)
                .map(|p| p.span)
                .or(draw.map(|d| d.span))
                .unwrap_or(span);
            return Err(Diag::error(
                "qwirkle::fourth_copy",
                format!(
                    "this would be a fourth {} (there are three of each tile)",
                    code(t)
                ),
            )
            .at(blame)
            .label(format!("a fourth {}", code(t)))
            .help("the board and the known hands already hold all three copies"));
        }
        // Score.
        let new_size = size - puts.len() + expect;
        let out = self.bag == 0 && new_size == 0;
        let total = score_total + if out { 6 } else { 0 };
        if let Some((n, cspan)) = claim {
            if n != total {
                // the lines, for the message
                let mut parts = self
                    .board
                    .judge(puts)
                    .map(|s| s.parts())
                    .unwrap_or_default();
                if out {
                    parts.push("going out 6".to_string());
                }
                return Err(Diag::error(
                    "qwirkle::wrong_claim",
                    format!("this turn scores {total}, not {n}"),
                )
                .at(cspan)
                .label(format!("the turn scores {total}"))
                .help(format!("{} = {total}", parts.join(" + "))));
            }
        }
        // Commit.
        for p in puts {
            self.board.set(*p);
        }
        let p = self.to_move;
        match draw {
            Some(_) => {
                if let Some(h) = self.hands.get_mut(p) {
                    *h = mine;
                }
            }
            None if expect == 0 => {
                if let Some(h) = self.hands.get_mut(p) {
                    *h = mine;
                }
            }
            None => self.lose(p, "a draw was not written"),
        }
        self.bag -= expect;
        if let Some(s) = self.hand_size.get_mut(p) {
            *s = new_size;
        }
        if let Some(s) = self.scores.get_mut(p) {
            *s += total;
        }
        self.passes = 0;
        if out {
            self.over = true;
            self.went_out = Some(p);
        }
        self.next_turn();
        Ok(())
    }

    /// `player1 does not hold G*`, or `holds only one Rc` when the turn uses more.
    fn not_held(&self, t: Tile, used: impl Iterator<Item = Tile>) -> String {
        let me = self.me();
        let held = self
            .hand()
            .and_then(|h| h.get(usize::from(t)).copied())
            .unwrap_or(0);
        let wanted = used.filter(|&u| u == t).count();
        if held == 0 {
            format!("{me} does not hold {}", code(t))
        } else {
            format!("{me} holds {held} {} but this turn uses {wanted}", code(t))
        }
    }

    fn moves_help_or(&self, fallback: &str) -> String {
        if self.hand().is_some() {
            self.moves_help()
        } else {
            fallback.to_string()
        }
    }

    fn check_first_group(&self, group: usize, placed: usize, span: Span) -> Result<(), Diag> {
        let me = self.me();
        let best = self
            .seat_hands()
            .iter()
            .enumerate()
            .filter_map(|(p, h)| h.as_ref().map(|h| (p, engine::largest_group(h))))
            .max_by_key(|&(p, g)| (g, std::cmp::Reverse(p)));
        if let Some((p, g)) = best {
            if g > group {
                return Err(Diag::error(
                    "qwirkle::first_turn",
                    format!(
                        "{} holds a group of {g}, larger than {me}'s {group}, and starts",
                        seat(p)
                    ),
                )
                .at(span)
                .label("not the player who starts")
                .help("the player holding the largest group of one colour or one shape starts"));
            }
        }
        if placed != group {
            return Err(Diag::error(
                "qwirkle::first_turn",
                format!(
                    "the first turn places {}, but {me}'s largest group holds {group}",
                    n_tiles(placed)
                ),
            )
            .at(span)
            .label(format!("{} instead of {group}", n_tiles(placed)))
            .help(self.moves_help()));
        }
        Ok(())
    }

    fn draw_count_error(&self, d: &notation::Draw, expect: usize, what: &str) -> Diag {
        Diag::error(
            "qwirkle::wrong_draw_count",
            format!(
                "{what} draws {} (the bag holds {}), not {}",
                n_tiles(expect),
                self.bag,
                d.tiles.len()
            ),
        )
        .at(d.span)
        .label(format!("{} drawn", n_tiles(d.tiles.len())))
        .help(format!("write exactly {} drawn", n_tiles(expect)))
    }

    fn play_swap(
        &mut self,
        tiles: Option<&[(Tile, Span)]>,
        count: usize,
        what: Span,
        draw: Option<&notation::Draw>,
        span: Span,
    ) -> Result<(), Diag> {
        let me = self.me();
        if self.first_group().is_some() {
            return Err(Diag::error(
                "qwirkle::first_turn",
                "the first turn places the largest group; it may not swap",
            )
            .at(span)
            .label("swap as the first turn")
            .help(self.moves_help()));
        }
        let size = self.hand_size.get(self.to_move).copied().unwrap_or(0);
        if count > size {
            return Err(Diag::error(
                "qwirkle::not_in_hand",
                format!("{me} holds only {} but swaps {count}", n_tiles(size)),
            )
            .at(what)
            .label(n_tiles(count))
            .help(format!("swap at most {}", n_tiles(size))));
        }
        let mut mine = self.hand().copied();
        if let (Some(h), Some(ts)) = (&mut mine, tiles) {
            for &(t, s) in ts {
                if !count_take(h, t) {
                    return Err(Diag::error(
                        "qwirkle::not_in_hand",
                        self.not_held(t, ts.iter().map(|&(t, _)| t)),
                    )
                    .at(s)
                    .label("not in the hand")
                    .help(format!(
                        "{me} holds {}",
                        tile_list(&tiles_of(self.hand().unwrap_or(&[0; 36])))
                    )));
                }
            }
        }
        if count > self.bag {
            return Err(Diag::error(
                "qwirkle::swap_too_large",
                format!(
                    "the bag holds {}, too few to swap {count}",
                    n_tiles(self.bag)
                ),
            )
            .at(what)
            .label(format!("{} to swap", n_tiles(count)))
            .help(if self.bag == 0 {
                "with the bag empty, a player who cannot place passes".to_string()
            } else {
                format!("swap at most {}", n_tiles(self.bag))
            }));
        }
        if let Some(d) = draw {
            if d.tiles.len() != count {
                return Err(self.draw_count_error(d, count, "this swap"));
            }
        }
        let drawn: &[Tile] = draw.map_or(&[], |d| &d.tiles[..]);
        let known_after = tiles.is_some() && draw.is_some();
        let mut after = if known_after { mine } else { None };
        if let Some(h) = &mut after {
            for &t in drawn {
                count_add(h, t);
            }
        }
        let extra: &[Tile] = if after.is_none() { drawn } else { &[] };
        // The swapped tiles are back in the bag: out of the supply count.
        if let Some(t) = self.fourth_copy(after.as_ref(), extra, drawn) {
            return Err(Diag::error(
                "qwirkle::fourth_copy",
                format!(
                    "this would be a fourth {} (there are three of each tile)",
                    code(t)
                ),
            )
            .at(draw.map_or(span, |d| d.span))
            .label(format!("a fourth {}", code(t)))
            .help("the board and the known hands already hold all three copies"));
        }
        let p = self.to_move;
        if known_after {
            if let Some(h) = self.hands.get_mut(p) {
                *h = after;
            }
        } else if tiles.is_none() {
            self.lose(p, "a swap without its tiles");
        } else {
            self.lose(p, "a draw was not written");
        }
        self.passes = 0;
        self.next_turn();
        Ok(())
    }

    fn play_pass(&mut self, span: Span) -> Result<(), Diag> {
        let me = self.me();
        if self.bag > 0 {
            let help = if self.hand().is_some() && self.has_placement() {
                self.moves_help()
            } else {
                "a player who cannot place swaps tiles while the bag holds any".to_string()
            };
            return Err(Diag::error(
                "qwirkle::illegal_pass",
                format!(
                    "{me} may not pass: the bag still holds {}",
                    n_tiles(self.bag)
                ),
            )
            .at(span)
            .label("pass while the bag holds tiles")
            .help(help));
        }
        if self.has_placement() {
            return Err(Diag::error(
                "qwirkle::illegal_pass",
                format!("{me} may not pass: a placement exists"),
            )
            .at(span)
            .label("pass while a placement exists")
            .help(self.moves_help()));
        }
        self.passes += 1;
        if self.passes >= self.players {
            self.over = true;
        }
        self.next_turn();
        Ok(())
    }
}

fn bad_tags(message: String, span: Span, label: &str) -> Diag {
    Diag::error("qwirkle::bad_tags", message)
        .at(span)
        .label(label.to_string())
        .help("[Players \"N\"] with N from 2 to 6; [Hand1 \"Rc,Rd,Ro,Gs,Bx,Y*\"] .. [HandN \"..\"], six tiles each")
}

impl Rules for Qwirkle {
    type Move = Move;
    type State = State;
    type Spans = ();

    const NAME: &'static str = "qwirkle";
    const RULES_TAGS: &'static [&'static str] = &[
        "Players", "Hand1", "Hand2", "Hand3", "Hand4", "Hand5", "Hand6",
    ];
    const VARIANTS: &'static [&'static str] = &["standard"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        variant_in::<Self>(tags, &mut errors);
        let players = match tags.get("Players") {
            None => {
                errors.push(
                    Diag::error(
                        "qwirkle::bad_tags",
                        "a Qwirkle record needs a `Players` tag",
                    )
                    .label("no Players tag")
                    .help("add [Players \"N\"] with N from 2 to 6"),
                );
                2
            }
            Some(t) => match t.value.trim().parse::<usize>() {
                Ok(n) if (2..=6).contains(&n) => n,
                _ => {
                    errors.push(bad_tags(
                        format!("`Players` is `{}`, not a number from 2 to 6", t.value),
                        t.value_span,
                        "not 2 to 6",
                    ));
                    2
                }
            },
        };
        let mut hands: [Option<Counts>; SEATS_MOST] = [None; SEATS_MOST];
        for t in tags.iter() {
            let Some(num) = t.name.strip_prefix("Hand") else {
                continue;
            };
            let Ok(n) = num.parse::<usize>() else {
                continue;
            };
            if n == 0 || n > players {
                errors.push(bad_tags(
                    format!(
                        "`{}` names a seat, but the game has {players} players",
                        t.name
                    ),
                    t.span,
                    "no such seat",
                ));
                continue;
            }
            match parse_hand(&t.value) {
                Ok(c) => {
                    if let Some(h) = hands.get_mut(n - 1) {
                        *h = Some(c);
                    }
                }
                Err(why) => errors.push(bad_tags(
                    format!("bad `{}`: {why}", t.name),
                    t.value_span,
                    &why,
                )),
            }
        }
        let tagged = hands.map(|h| h.is_some());
        let mut total = [0u8; 36];
        for h in hands.iter().flatten() {
            for (k, &n) in h.iter().enumerate() {
                if let Some(x) = total.get_mut(k) {
                    *x = x.saturating_add(n);
                }
            }
        }
        if let Some(k) = total.iter().position(|&n| n > 3) {
            let span = tags
                .iter()
                .filter(|t| t.name.starts_with("Hand"))
                .last()
                .map(|t| t.value_span);
            let mut d = Diag::error(
                "qwirkle::fourth_copy",
                format!("the hands hold more than three {}", code(k as Tile)),
            )
            .label("a fourth copy")
            .help("there are three tiles of each kind");
            if let Some(s) = span {
                d = d.at(s);
            }
            errors.push(d);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(State {
            players,
            board: Board::default(),
            bag: 108 - 6 * players,
            hand_size: [6; SEATS_MOST],
            hands,
            tagged,
            lost: [const { None }; SEATS_MOST],
            scores: [0; SEATS_MOST],
            to_move: 0,
            passes: 0,
            over: false,
            went_out: None,
            ply: 0,
        })
    }

    fn variant(_: &State) -> &'static str {
        "standard"
    }

    fn seats(state: &State) -> &'static [&'static str] {
        SEATS.get(..state.players).unwrap_or(&SEATS)
    }

    fn parse_moves_into(
        _start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move>>,
    ) -> Option<Diag> {
        notation::parse_into(tokens, src, moves)
    }

    fn to_move(state: &State) -> &'static str {
        SEATS.get(state.to_move).copied().unwrap_or("player?")
    }

    fn is_over(state: &State) -> bool {
        state.over
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(state: &mut State, mv: &Parsed<Move>) -> Result<(), Diag> {
        match &mv.mv {
            Move::Pass => state.play_pass(mv.span),
            Move::Place { tiles, claim, draw } => {
                state.play_place(tiles, *claim, draw.as_ref(), mv.span)
            }
            Move::Swap {
                tiles,
                count,
                span,
                draw,
            } => state.play_swap(tiles.as_deref(), *count, *span, draw.as_ref(), mv.span),
        }
    }

    fn scores_into(state: &State, out: &mut Vec<i64>) {
        out.clear();
        out.extend_from_slice(state.scores.get(..state.players).unwrap_or(&[]));
    }

    fn result_extras(state: &State) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("bag".into(), json!(state.bag));
        m.insert("tiles_on_board".into(), json!(state.board.count));
        m.insert(
            "went_out".into(),
            state.went_out.map_or(Value::Null, |p| json!(seat(p))),
        );
        let hands: Map<String, Value> = (0..state.players)
            .map(|p| {
                let v = match state.hands.get(p).and_then(|h| h.as_ref()) {
                    Some(h) => json!(tiles_of(h).into_iter().map(code).collect::<Vec<_>>()),
                    None => json!(state.hand_size.get(p).copied().unwrap_or(0)),
                };
                (seat(p), v)
            })
            .collect();
        m.insert("hands".into(), Value::Object(hands));
        m
    }

    fn unchecked(state: &State) -> Vec<String> {
        let mut out = Vec::new();
        if state.seat_tagged().iter().all(|t| !t) {
            out.push(
                "hands not recorded: tiles in hand, drawn tiles, first-turn group and pass legality not checked"
                    .to_string(),
            );
            return out;
        }
        for p in 0..state.players {
            if !state.tagged.get(p).copied().unwrap_or(false) {
                out.push(format!(
                    "hand of {} not recorded: its tiles and pass legality not checked",
                    seat(p)
                ));
            } else if let Some(Some(u)) = state.lost.get(p) {
                out.push(format!(
                    "hand of {} unknown from ply {} ({}): its tiles and pass legality not checked after that",
                    seat(p),
                    u.ply,
                    u.why
                ));
            }
        }
        if state.seat_tagged().iter().any(|t| !t) {
            out.push("first-turn group not checked (not every hand recorded)".to_string());
        }
        out
    }

    fn write_move(mv: &Move) -> String {
        notation::write(mv)
    }

    fn move_extras(before: &State, mv: &Move) -> Map<String, Value> {
        let mut m = Map::new();
        match mv {
            Move::Place { tiles, draw, .. } => {
                m.insert(
                    "tiles".into(),
                    Value::Array(
                        tiles
                            .iter()
                            .map(|p| json!({ "tile": code(p.tile), "x": p.x, "y": p.y }))
                            .collect(),
                    ),
                );
                let puts: Vec<Put> = tiles
                    .iter()
                    .map(|p| Put {
                        tile: p.tile,
                        x: i64::from(p.x),
                        y: i64::from(p.y),
                    })
                    .collect();
                if let Ok(s) = before.board.judge(&puts) {
                    let size = before.hand_size.get(before.to_move).copied().unwrap_or(0);
                    let out = before.bag == 0 && size == tiles.len();
                    m.insert("score".into(), json!(s.total + if out { 6 } else { 0 }));
                }
                if let Some(d) = draw {
                    m.insert(
                        "drawn".into(),
                        json!(d.tiles.iter().map(|&t| code(t)).collect::<Vec<_>>()),
                    );
                }
            }
            Move::Swap {
                tiles, count, draw, ..
            } => {
                m.insert("swapped".into(), json!(count));
                if let Some(ts) = tiles {
                    m.insert(
                        "swapped_tiles".into(),
                        json!(ts.iter().map(|&(t, _)| code(t)).collect::<Vec<_>>()),
                    );
                }
                if let Some(d) = draw {
                    m.insert(
                        "drawn".into(),
                        json!(d.tiles.iter().map(|&t| code(t)).collect::<Vec<_>>()),
                    );
                }
            }
            Move::Pass => {}
        }
        m
    }

    fn legal_moves(state: &State) -> Result<Vec<String>, String> {
        if state.hand().is_none() {
            return Err(format!("the hand of {} is not known", state.me()));
        }
        Ok(Self::scored_moves(state)?
            .into_iter()
            .map(|(text, _)| text)
            .collect())
    }

    const SCORES_MOVES: bool = true;

    /// Placements with their score (the 6 for going out included), then the
    /// swaps the bag allows, scoring 0.
    fn scored_moves(state: &State) -> Result<Vec<(String, i64)>, String> {
        if state.hand().is_none() {
            return Err(format!("the hand of {} is not known", state.me()));
        }
        let mut out = state.placements();
        if state.bag > 0 {
            out.extend(state.swaps().into_iter().map(|s| (s, 0)));
        }
        Ok(out)
    }

    fn render(state: &State, color: bool) -> String {
        render::text(state, color)
    }

    fn position_rows(state: &State) -> Vec<String> {
        render::rows(&state.board)
    }

    fn scene(state: &State, last: Option<&Move>) -> crate::svg::Scene {
        let last: Vec<(i64, i64)> = match last {
            Some(Move::Place { tiles, .. }) => tiles
                .iter()
                .map(|t| (i64::from(t.x), i64::from(t.y)))
                .collect(),
            _ => Vec::new(),
        };
        render::scene(&state.board, &last, state.players)
    }

    const PLOT_UNIT: &'static str = "points";

    fn perft_divide(
        _variant: Option<&str>,
        _players: Option<u8>,
        _depth: u32,
        _done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        Err("perft does not apply to Qwirkle: hands and the bag are hidden".to_string())
    }
}
