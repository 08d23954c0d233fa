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
//! Layout, the same in every game:
//!
//! - [`notation`] reads tokens into typed [`Move`]s (no spans in them: the
//!   spans of a turn's tiles, claim, draw and swap go in
//!   [`notation::Spans`], which the driver keeps) and writes them back; it
//!   knows no rules ([`Notation`](crate::game::Notation));
//! - [`engine`] is the position ([`State`], the
//!   [`Position`](crate::game::Position) API): it judges a turn in named
//!   steps, one per rule, before it changes anything, refuses with a typed
//!   [`Illegal`] carrying what the message needs, lists the legal turns,
//!   and builds no message; [`board`] holds the tiles, the board, the
//!   placement judge and scorer and the generator;
//! - [`explain`] turns an [`Illegal`] and the spans into the diagnostic
//!   (code, message, span, label, help): the only place that words a
//!   refused turn ([`Explain`](crate::game::Explain));
//! - [`render`] draws positions ([`Render`](crate::game::Render));
//! - this module: the rules (above), the start from the tags
//!   ([`Setup`]), the JSON extras and `unchecked` ([`Extras`]), and
//!   [`Perft`], which does not apply.
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

pub mod board;
pub mod engine;
pub mod explain;
pub mod notation;
pub mod render;
mod symmetry;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{Extras, Perft, Setup, variant_in};
use crate::record::{Tag, Tags};
use crate::span::Span;
use board::{Counts, Tile, code, count_add, tiles_of};
pub use engine::{Illegal, Move, SEATS_MOST, State, Unknown};
use explain::{n_tiles, seat};

/// The Qwirkle game.
pub struct Qwirkle;

/// Why a `HandN` value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandError {
    /// A part between commas that is not a tile (the part, trimmed).
    NotATile(String),
    /// Not six tiles: how many there are.
    Count(usize),
}

impl std::fmt::Display for HandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandError::NotATile(part) => write!(f, "`{part}` is not a tile"),
            HandError::Count(n) => write!(f, "{} instead of 6", n_tiles(*n)),
        }
    }
}

impl std::error::Error for HandError {}

/// A `HandN` value: six tiles, comma separated (spaces allowed).
fn parse_hand(value: &str) -> Result<Counts, HandError> {
    let mut c = [0u8; 36];
    let mut n = 0;
    for part in value.split(',') {
        let p = part.trim().as_bytes();
        let t = match p {
            [a, b] => board::from_letters(*a, *b),
            _ => None,
        };
        let Some(t) = t else {
            return Err(HandError::NotATile(part.trim().to_string()));
        };
        count_add(&mut c, t);
        n += 1;
    }
    if n != 6 {
        return Err(HandError::Count(n));
    }
    Ok(c)
}

fn bad_tags(message: String, span: Span, label: &str) -> Diag {
    Diag::error("qwirkle::bad_tags", message)
        .at(span)
        .label(label.to_string())
        .help("[Players \"N\"] with N from 2 to 6; [Hand1 \"Rc,Rd,Ro,Gs,Bx,Y*\"] .. [HandN \"..\"], six tiles each")
}

/// The `Players` tag: 2 to 6 (an error joins `errors` and 2 is used).
fn players_of(tags: &Tags, errors: &mut Vec<Diag>) -> usize {
    let Some(t) = tags.get("Players") else {
        errors.push(
            Diag::error(
                "qwirkle::bad_tags",
                "a Qwirkle record needs a `Players` tag",
            )
            .label("no Players tag")
            .help("add [Players \"N\"] with N from 2 to 6"),
        );
        return 2;
    };
    match t.value.trim().parse::<usize>() {
        Ok(n) if (2..=6).contains(&n) => n,
        _ => {
            errors.push(bad_tags(
                format!("`Players` is `{}`, not a number from 2 to 6", t.value),
                t.value_span,
                "not 2 to 6",
            ));
            2
        }
    }
}

/// The hand a `HandN` tag gives seat `N - 1` of `players`: `None` for
/// another tag, an error for a seat the game lacks or a malformed hand.
fn hand_tag(t: &Tag, players: usize) -> Option<Result<(usize, Counts), Diag>> {
    let n = t.name.strip_prefix("Hand")?.parse::<usize>().ok()?;
    if n == 0 || n > players {
        return Some(Err(bad_tags(
            format!(
                "`{}` names a seat, but the game has {players} players",
                t.name
            ),
            t.span,
            "no such seat",
        )));
    }
    Some(match parse_hand(&t.value) {
        Ok(c) => Ok((n - 1, c)),
        Err(why) => Err(bad_tags(
            format!("bad `{}`: {why}", t.name),
            t.value_span,
            &why.to_string(),
        )),
    })
}

/// `fourth_copy` at ply 0: the tagged hands hold a fourth copy of a kind
/// between them (blamed on the last `HandN` tag).
fn hands_fourth_copy(tags: &Tags, hands: &[Option<Counts>]) -> Option<Diag> {
    let mut total = [0u8; 36];
    for h in hands.iter().flatten() {
        for (k, &n) in h.iter().enumerate() {
            if let Some(x) = total.get_mut(k) {
                *x = x.saturating_add(n);
            }
        }
    }
    let k = total.iter().position(|&n| n > 3)?;
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
    Some(d)
}

impl Setup for Qwirkle {
    type Position = State;

    const NAME: &'static str = "qwirkle";
    const RULES_TAGS: &'static [&'static str] = &[
        "Players", "Hand1", "Hand2", "Hand3", "Hand4", "Hand5", "Hand6",
    ];
    const VARIANTS: &'static [&'static str] = &["standard"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        variant_in::<Self>(tags, &mut errors);
        let players = players_of(tags, &mut errors);
        let mut hands: [Option<Counts>; SEATS_MOST] = [None; SEATS_MOST];
        for t in tags.iter() {
            match hand_tag(t, players) {
                Some(Ok((p, c))) => {
                    if let Some(h) = hands.get_mut(p) {
                        *h = Some(c);
                    }
                }
                Some(Err(d)) => errors.push(d),
                None => {}
            }
        }
        errors.extend(hands_fourth_copy(tags, &hands));
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(State::new(players, hands))
    }
}

/// The JSON fields of a placement: its tiles, its score when legal, what
/// it drew when written.
fn place_extras(before: &State, mv: &Move, m: &mut Map<String, Value>) {
    let Move::Place { tiles, draw, .. } = mv else {
        return;
    };
    m.insert(
        "tiles".into(),
        Value::Array(
            tiles
                .iter()
                .map(|p| json!({ "tile": code(p.tile), "x": p.x, "y": p.y }))
                .collect(),
        ),
    );
    let puts: Vec<board::Put> = tiles.iter().map(|p| p.put()).collect();
    if let Ok(s) = before.board.judge(&puts) {
        let out = before.bag == 0 && before.size() == tiles.len();
        m.insert("score".into(), json!(s.total + if out { 6 } else { 0 }));
    }
    if let Some(d) = draw {
        m.insert(
            "drawn".into(),
            json!(d.iter().map(|&t| code(t)).collect::<Vec<_>>()),
        );
    }
}

/// The JSON fields of a swap: the count, the tiles and the draw when written.
fn swap_extras(mv: &Move, m: &mut Map<String, Value>) {
    let Move::Swap { tiles, count, draw } = mv else {
        return;
    };
    m.insert("swapped".into(), json!(count));
    if let Some(ts) = tiles {
        m.insert(
            "swapped_tiles".into(),
            json!(ts.iter().map(|&t| code(t)).collect::<Vec<_>>()),
        );
    }
    if let Some(d) = draw {
        m.insert(
            "drawn".into(),
            json!(d.iter().map(|&t| code(t)).collect::<Vec<_>>()),
        );
    }
}

impl Extras for Qwirkle {
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

    fn move_extras(before: &State, mv: &Move) -> Map<String, Value> {
        let mut m = Map::new();
        place_extras(before, mv, &mut m);
        swap_extras(mv, &mut m);
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
}

impl Perft for Qwirkle {
    fn perft_divide(
        _variant: Option<&str>,
        _players: Option<u8>,
        _depth: u32,
        _done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, crate::game::PerftError> {
        Err("perft does not apply to Qwirkle: hands and the bag are hidden"
            .to_string()
            .into())
    }
}
