//! Deblockle, as `../shared/spec/deblockle.md` fixes it.
//!
//! - 7x7 board, columns `a`..`g`, rows `1` (gold's side) to `7` (blue's side);
//!   north is toward row 7. Star spaces `d2` (gold's home) and `d6` (blue's
//!   home); gold scores on `d6`, blue on `d2`.
//! - Each block is a cube (star/stop, x/cross, slider/hoops opposite; star up
//!   with x north puts hoops east, cross south, slider west), see [`cube`].
//! - A turn tips one block orthogonally onto an empty, non-star square (or
//!   onto the opponent's home star with star coming up: the block scores and
//!   leaves the board), then hops by the face now on top: stop none, cross one
//!   orthogonal step, x one diagonal step, slider to the end of its run in one
//!   of four directions, hoops exactly three orthogonal steps over empty
//!   squares (the square it left counts as empty). Star may come up only in a
//!   scoring tip; no turn ends on a star space.
//! - A side without a legal turn is skipped (a pass, written `pass` or left
//!   out). The first side to remove all its blocks wins; when neither side can
//!   move, fewer blocks left on the board wins. Scores: blocks removed.
//! - Variant `no-side-by-side`: no turn may end with a mover's block
//!   orthogonally next to an opponent's.
//!
//! Layout, one concern per file (the traits of [`crate::game`]):
//! - [`cube`]: the orientations and the tip table;
//! - [`engine`]: the bitboard rule engine and move generator, the typed,
//!   span-free [`Move`] (squares as columns and rows, possibly off the
//!   board), the judge (one function per rule, in the order below) and its
//!   typed reason [`Illegal`], and [`State`], the [`game::Position`]: it
//!   judges a move before it changes anything;
//! - [`notation`]: [`game::Notation`], tokens into [`Move`]s with the spans
//!   of their squares ([`TurnSpans`], the driver keeps them) and moves
//!   back into text; it knows no rules;
//! - [`explain`]: [`game::Explain`], an [`Illegal`] and the [`TurnSpans`]
//!   made the diagnostic: the only place that words a refused move;
//! - [`render`]: [`game::Render`], terminal text, letter rows, SVG;
//! - this file: the rules (above), [`game::Setup`] (the start from the
//!   `SetupGold`, `SetupBlue` and `First` tags), [`game::Extras`] and
//!   [`game::Perft`].
//!
//! Decisions where the spec is silent:
//! - **Draw**: when neither side can move and both have as many blocks left on
//!   the board, the game is a draw (both seats win). The winner is never the
//!   higher score as such: a side that removed all of its blocks wins even if
//!   the other, starting with more, removed as many.
//! - **Setup**: `SetupGold`/`SetupBlue` hold comma-separated entries
//!   `SQUARE TOP/NORTH` (spaces around `/` allowed, empty entries from a
//!   trailing comma ignored); a missing tag, no blocks, more than 4 blocks, a
//!   malformed or off-board square, a star space, two blocks on one square
//!   (same or different sides), an unknown face, a north face equal or
//!   opposite to the top, and a `First` other than `gold`/`blue` are all
//!   `deblockle::bad_setup` and stop the game at ply 0. An unknown `Variant`
//!   is `record::bad_tag`. A block may start with star on top.
//! - **Squares**: the notation reads any letter and a row `0`..`99`, so that
//!   `g1-h1` is `tip_off_board` rather than a notation error; a tip's `FROM`
//!   off the board is `bad_square`; text that is no square is `bad_square`.
//! - **Which code** where the spec lists none: a tip to a non-adjacent square
//!   (`c1-c3`) is `diagonal_tip` (the message says it is not adjacent); a tip
//!   onto one's own home star is `tip_onto_star` even with star up; a hop
//!   whose shape the symbol does not allow (a cross hop two squares away, a
//!   slider destination off its four lines or on the tip square itself, a
//!   three-square path after anything but hoops, a hop after a scoring tip)
//!   is `unexpected_hop`; a cross or x step off the board is `hop_blocked`; a slider direction whose run is empty
//!   (the next square is a block or the edge) is `hop_blocked`; a slider
//!   destination in the right direction but not the run's end (short of it or
//!   past it) is `short_slide`, and a direction whose run ends on a star space
//!   is `slide_onto_star` whatever square is written; a hoops or cross/x
//!   destination on a star space is `ends_on_star`; a hoops `/DEST` off the
//!   board is `hoops_unreachable`. A tip written without a hop, after which
//!   no hop is possible at all, is `hop_blocked` (`hoops_unreachable` for
//!   hoops): the tip is not a legal turn; with some hop possible it is
//!   `missing_hop`. A hop of two squares or of more than three is a notation
//!   error (`bad_square`).
//! - **Order of checks**: notation, move after end, ownership
//!   (`bad_square`, `not_your_block`), the tip's shape (`diagonal_tip`),
//!   `tip_off_board`, `tip_occupied`, star rules (`tip_onto_star`, `star_up`),
//!   the hop, and last `side_by_side`.
//! - In `no-side-by-side`, a turn is checked for every mover's block, not only
//!   the one that moved; a turn that would end side by side is not a legal
//!   turn, for passing and the end as well.
//! - `move_extras`: `block` (colour), `from`, `tip`, `face_up` (after the tip),
//!   `dest` (the final square; the star for a scoring tip), `removed`.
//! - Perft: a finished game (a side removed all its blocks, or neither side
//!   can move) is a leaf; a forced pass is a ply. The spec gives no numbers;
//!   from the standard start (every block stop up, x north, gold to move) the
//!   engine counts 55, 3,073, 141,593 and 6,678,991 leaves at depths 1-4
//!   (`no-side-by-side`: 51, 2,446, 104,839, 4,274,464), and an independent
//!   slow implementation in the tests (named faces rolled field by field,
//!   every hoops path tried) agrees.
//! - `render` lists, under the board, each block's top, north and east faces;
//!   `position_rows` uses the face letters, `*` for an empty star space.

pub mod cube;
pub mod engine;
pub mod explain;
pub mod notation;
pub mod render;
mod symmetry;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{self, Extras, Perft, variant_in, variant_index};
use crate::record::{Tag, Tags};
use crate::span::Span;
use cube::{Face, Orient};
use engine::{BLUE, GOLD, Position, SIDES, STARS};
pub use engine::{Illegal, Move, State};
pub use notation::TurnSpans;

/// The Deblockle game.
pub struct Deblockle;

/// The span of part of a tag's value, when the value has no escapes (so its
/// bytes stand in the file as they are); otherwise the whole value.
fn value_part(tag: &Tag, start: usize, len: usize) -> Span {
    if tag.value.len() + 2 == tag.value_span.length {
        Span::new(tag.value_span.offset + 1 + start, len.max(1))
    } else {
        tag.value_span
    }
}

fn setup_err(tag: &Tag, start: usize, len: usize, message: String, label: &str) -> Diag {
    Diag::error("deblockle::bad_setup", message)
        .at(value_part(tag, start, len))
        .label(label.to_string())
        .help("one entry per block, comma-separated: SQUARE TOP/NORTH, e.g. \"c1 cross/slider, e1 x/star\"; at most 4 blocks, not on d2 or d6; the north face is a side face of the top")
}

/// Reads a setup square (`a1`..`g7`).
fn setup_square(text: &str) -> Option<u8> {
    match *text.as_bytes() {
        [c, r] => square_of_bytes(c, r),
        _ => None,
    }
}

/// The square of a column letter (either case) and a row digit, on the board.
#[inline]
fn square_of_bytes(c: u8, r: u8) -> Option<u8> {
    let c = c.to_ascii_lowercase();
    if (b'a'..=b'g').contains(&c) && (b'1'..=b'7').contains(&r) {
        Some((r - b'1') * 7 + (c - b'a'))
    } else {
        None
    }
}

/// One side's blocks: `(square, orientation)`, at most 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Setup {
    blocks: [(u8, Orient); 4],
    len: usize,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            blocks: [(0, Orient::wrapping(0)); 4],
            len: 0,
        }
    }
}

impl Setup {
    fn blocks(&self) -> &[(u8, Orient)] {
        self.blocks.get(..self.len).unwrap_or(&[])
    }

    /// Adds a block; `false` when there are 4 already.
    fn push(&mut self, block: (u8, Orient)) -> bool {
        let Some(slot) = self.blocks.get_mut(self.len) else {
            return false;
        };
        *slot = block;
        self.len += 1;
        true
    }
}

/// A face name at the start of `b`: the name and its length. Lower-case
/// names are matched whole; anything else (capitals) through
/// [`Face::parse`] on the run of letters.
#[inline]
fn quick_face(b: &[u8]) -> Option<(Face, usize)> {
    let (face, len) = match b {
        [b's', b't', b'o', b'p', ..] => (Face::Stop, 4),
        [b's', b't', b'a', b'r', ..] => (Face::Star, 4),
        [b'c', b'r', b'o', b's', b's', ..] => (Face::Cross, 5),
        [b'h', b'o', b'o', b'p', b's', ..] => (Face::Hoops, 5),
        [b's', b'l', b'i', b'd', b'e', b'r', ..] => (Face::Slider, 6),
        [b'x', ..] => (Face::X, 1),
        _ => {
            let len = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
            let word = std::str::from_utf8(b.get(..len)?).ok()?;
            return Some((Face::parse(word)?, len));
        }
    };
    // the name must end there
    if b.get(len).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    Some((face, len))
}

/// A setup value in its usual shape, read in one pass over its bytes:
/// comma-separated entries `SQUARE TOP/NORTH` with spaces (only spaces)
/// around them and around `/`, and every rule of a setup kept; `None` for
/// anything else (then [`parse_setup_long`] reads it and says what is
/// wrong).
fn quick_setup(value: &str) -> Option<Setup> {
    let b = value.as_bytes();
    let mut i = 0;
    let skip = |i: &mut usize| {
        while b.get(*i) == Some(&b' ') {
            *i += 1;
        }
    };
    let face = |i: &mut usize| {
        let (f, len) = quick_face(b.get(*i..)?)?;
        *i += len;
        Some(f)
    };
    let mut setup = Setup::default();
    // the squares taken so far, star spaces counted as taken
    let mut taken = STARS;
    loop {
        skip(&mut i);
        let Some(&c) = b.get(i) else { break };
        if c == b',' {
            i += 1;
            continue;
        }
        let sq = square_of_bytes(c, *b.get(i + 1)?)?;
        i += 2;
        if b.get(i) != Some(&b' ') {
            return None;
        }
        skip(&mut i);
        let top = face(&mut i)?;
        skip(&mut i);
        if b.get(i) != Some(&b'/') {
            return None;
        }
        i += 1;
        skip(&mut i);
        let north = face(&mut i)?;
        skip(&mut i);
        match b.get(i) {
            None => {}
            Some(b',') => i += 1,
            Some(_) => return None,
        }
        if taken & (1u64 << sq) != 0 {
            return None;
        }
        taken |= 1u64 << sq;
        if !setup.push((sq, Orient::new(top, north)?)) {
            return None;
        }
    }
    (setup.len > 0).then_some(setup)
}

/// One side's setup: `(square, orientation)` per block.
fn parse_setup(tag: &Tag, side: &str) -> Result<Setup, Diag> {
    match quick_setup(&tag.value) {
        Some(setup) => Ok(setup),
        None => parse_setup_long(tag, side),
    }
}

/// [`parse_setup`] an entry at a time, for any text: the setup, or the
/// diagnostic for its first wrong entry.
fn parse_setup_long(tag: &Tag, side: &str) -> Result<Setup, Diag> {
    let value = tag.value.as_str();
    let mut blocks = Setup::default();
    let mut offset = 0usize;
    for entry in value.split(',') {
        let entry_start = offset;
        offset += entry.len() + 1;
        let lead = entry.len() - entry.trim_start().len();
        let e = entry.trim();
        if e.is_empty() {
            continue;
        }
        let at = entry_start + lead;
        let sq_len = e.find(char::is_whitespace).unwrap_or(e.len());
        let sq_text = e.get(..sq_len).unwrap_or("");
        let sq = setup_entry_square(tag, side, at, sq_text, &blocks)?;
        let o = setup_entry_faces(tag, side, at, e, sq_len)?;
        if !blocks.push((sq, o)) {
            return Err(setup_err(
                tag,
                at,
                e.len(),
                format!("{side} setup: more than 4 blocks"),
                "a fifth block",
            ));
        }
    }
    if blocks.len == 0 {
        return Err(setup_err(
            tag,
            0,
            value.len(),
            format!("{side} setup places no block; each side has 1 to 4"),
            "no blocks",
        ));
    }
    Ok(blocks)
}

/// The square of a setup entry (`sq_text`, at `at` in the value): on the
/// board, off the stars, not taken by an earlier block of `blocks`.
fn setup_entry_square(
    tag: &Tag,
    side: &str,
    at: usize,
    sq_text: &str,
    blocks: &Setup,
) -> Result<u8, Diag> {
    let sq_len = sq_text.len();
    let Some(sq) = setup_square(sq_text) else {
        return Err(setup_err(
            tag,
            at,
            sq_len,
            format!("{side} setup: `{sq_text}` is not a square of the 7x7 board"),
            "not a square a1-g7",
        ));
    };
    if STARS & (1u64 << sq) != 0 {
        return Err(setup_err(
            tag,
            at,
            sq_len,
            format!("{side} setup: {sq_text} is a star space; no block may stand on one"),
            "a star space",
        ));
    }
    if blocks.blocks().iter().any(|&(s, _)| s == sq) {
        return Err(setup_err(
            tag,
            at,
            sq_len,
            format!("{side} setup: two blocks on {sq_text}"),
            "square used twice",
        ));
    }
    Ok(sq)
}

/// The orientation of a setup entry `e` (at `at` in the value, its square
/// `sq_len` bytes long): `TOP/NORTH`, two faces, north a side face of top.
fn setup_entry_faces(
    tag: &Tag,
    side: &str,
    at: usize,
    e: &str,
    sq_len: usize,
) -> Result<Orient, Diag> {
    let sq_text = e.get(..sq_len).unwrap_or("");
    let faces = e.get(sq_len..).unwrap_or("");
    let faces_at = at + sq_len + (faces.len() - faces.trim_start().len());
    let faces = faces.trim();
    let Some((top_text, north_text)) = faces.split_once('/') else {
        return Err(setup_err(
            tag,
            at,
            e.len(),
            format!("{side} setup: `{e}` does not give TOP/NORTH faces"),
            "expected SQUARE TOP/NORTH",
        ));
    };
    let face = |text: &str, start: usize| {
        let t = text.trim();
        let lead = text.len() - text.trim_start().len();
        Face::parse(t).ok_or_else(|| {
            setup_err(
                tag,
                start + lead,
                t.len(),
                format!("{side} setup: `{t}` is not a face (star, stop, cross, x, slider, hoops)"),
                "unknown face",
            )
        })
    };
    let top = face(top_text, faces_at)?;
    let north = face(north_text, faces_at + top_text.len() + 1)?;
    Orient::new(top, north).ok_or_else(|| {
        let why = if top == north {
            "the same face as"
        } else {
            "opposite"
        };
        setup_err(
            tag,
            faces_at,
            faces.len(),
            format!(
                "{side} setup on {sq_text}: the north face {} is {why} the top face {}",
                north.name(),
                top.name()
            ),
            "north must be a side face of the top",
        )
    })
}

fn start_state(tags: &Tags) -> Result<State, Vec<Diag>> {
    let mut errors = Vec::new();
    let no_side_by_side = variant_in::<Deblockle>(tags, &mut errors) == 1;
    let mut pos = Position::empty(no_side_by_side);
    let mut setups: [Option<Setup>; 2] = [None, None];
    for (side, name) in [(GOLD, "SetupGold"), (BLUE, "SetupBlue")] {
        match tags.get(name) {
            None => errors.push(
                Diag::error(
                    "deblockle::bad_setup",
                    format!("the record has no `{name}` tag; a Deblockle record gives each side's blocks"),
                )
                .label(format!("{name} missing"))
                .help(format!(
                    "add e.g. [{name} \"{}\"]",
                    if side == GOLD {
                        "c1 stop/x, e1 stop/x, c3 stop/x, e3 stop/x"
                    } else {
                        "c5 stop/x, e5 stop/x, c7 stop/x, e7 stop/x"
                    }
                )),
            ),
            Some(t) => match parse_setup(t, SIDES[side]) {
                Ok(b) => {
                    if let Some(slot) = setups.get_mut(side) {
                        *slot = Some(b);
                    }
                }
                Err(d) => errors.push(d),
            },
        }
    }
    if let ([Some(gold), Some(blue)], Some(t)) = (&setups, tags.get("SetupBlue")) {
        for &(sq, o) in gold.blocks() {
            pos.put(GOLD, sq, o.index());
        }
        for &(sq, o) in blue.blocks() {
            if pos.all() & (1u64 << sq) != 0 {
                let name = notation::square_name(sq);
                let at = t.value.to_ascii_lowercase().find(&name).unwrap_or(0);
                errors.push(setup_err(
                    t,
                    at,
                    2,
                    format!("blue setup: {name} already holds a gold block"),
                    "square used twice",
                ));
                break;
            }
            pos.put(BLUE, sq, o.index());
        }
    }
    if let Some(t) = tags.get("First") {
        let first = t.value.trim();
        if first.eq_ignore_ascii_case("gold") {
            pos.to_move = GOLD;
        } else if first.eq_ignore_ascii_case("blue") {
            pos.to_move = BLUE;
        } else {
            errors.push(
                Diag::error(
                    "deblockle::bad_setup",
                    format!("First is `{}`, not `gold` or `blue`", t.value),
                )
                .at(t.value_span)
                .label("not a side")
                .help("[First \"gold\"] or [First \"blue\"]"),
            );
        }
    }
    if errors.is_empty() {
        Ok(State::new(pos))
    } else {
        Err(errors)
    }
}

impl game::Setup for Deblockle {
    type Position = State;

    const NAME: &'static str = "deblockle";
    const RULES_TAGS: &'static [&'static str] = &["SetupGold", "SetupBlue", "First"];
    const VARIANTS: &'static [&'static str] = &["standard", "no-side-by-side"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        start_state(tags)
    }
}

impl Extras for Deblockle {
    fn result_extras(state: &State) -> Map<String, Value> {
        let p = &state.pos;
        let mut m = Map::new();
        m.insert(
            "blocks_on_board".into(),
            json!({ "gold": p.on_board(GOLD), "blue": p.on_board(BLUE) }),
        );
        m.insert(
            "blocks_at_start".into(),
            json!({ "gold": p.total[GOLD], "blue": p.total[BLUE] }),
        );
        m
    }

    fn move_extras(before: &State, mv: &Move) -> Map<String, Value> {
        let mut m = Map::new();
        let Move::Turn(t) = mv else {
            return m;
        };
        if let Ok(g) = engine::judge(&before.pos, t) {
            m.insert("block".into(), json!(SIDES[before.pos.to_move & 1]));
            m.insert("from".into(), json!(notation::square_name(g.from)));
            m.insert("tip".into(), json!(notation::square_name(g.tip)));
            m.insert("face_up".into(), json!(g.top().name()));
            m.insert("dest".into(), json!(notation::square_name(g.dest)));
            m.insert("removed".into(), json!(g.scored));
        }
        m
    }
}

impl Perft for Deblockle {
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, crate::game::PerftError> {
        let nsbs = variant_index::<Self>(variant)? == 1;
        crate::game::no_players::<Self>(players)?;
        let divide = engine::perft_divide(&Position::standard(nsbs), depth, done);
        Ok(divide
            .into_iter()
            .map(|(mv, n)| (notation::write(&mv), n))
            .collect())
    }
}
