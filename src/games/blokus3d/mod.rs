//! Blokus 3D (Rumis), as `../shared/spec/blokus3d.md` fixes it.
//!
//! - Cubes stand in columns of a building area (`[Area "tower"]`, the
//!   default: 5x4, every limit 2 x the number of colours; `cube3`..`cube5`;
//!   `map:ROWS`, top rank first, a digit per column, `.`/`0` for none).
//! - Each colour has the 11 stones of 2 to 4 cubes ([`pieces`]), turned any
//!   way in space but never mirrored (104 orientations).
//! - `[Players "1".."4"]` (default 4), colours blue, yellow, red, green;
//!   `[Variant "two-colours"]`: two players, four colours, a player scores
//!   the better of their two colours.
//! - A stone is lowered from above: in every column it uses its lowest cube
//!   rests on the column's top, and no cube is above the column's limit. The
//!   game's first stone goes anywhere; each other colour's first stone
//!   touches the base and any stone face to face; later stones touch their
//!   own colour face to face.
//! - A colour that cannot place is out (`[Stuck "out"]`, default) or only
//!   skipped (`[Stuck "skip"]`); its turn may be written `pass` or left out.
//!   The game ends when no colour can place.
//! - A colour scores its visible columns minus its unplaced stones.
//!
//! Layout: [`pieces`] holds the stones and orientations, [`notation`] reads
//! tokens into [`Move`]s, [`engine`] is the column engine with placements
//! precomputed per orientation and area, [`render`] draws positions.
//!
//! Decisions where the spec is silent:
//! - The notation reports malformed cube names, repeats, shapes and stone
//!   names; a cube in a file or rank past the area, or on a `.` of a map, is
//!   `not_a_cell` from the engine, checked right after `piece_used`.
//! - Order of place checks: outside the area, occupied, unsupported, too high;
//!   then the contact rules. An occupied cube names its owner; an
//!   unsupported cube names its column and that column's height.
//! - `Stuck` values are `out` and `skip`, trimmed and case-insensitive;
//!   `Variant` is `standard` (default) or `two-colours`, which needs
//!   `[Players "2"]` (or no `Players` tag, taken as 2).
//! - An empty `map:` row, a row of another length, a character other than a
//!   digit or `.`, more than 16 files or ranks, or a map without a column is
//!   `bad_area`, naming the row (from the top, as written) and the character.
//! - A solitaire's one colour plays until it cannot; its score is its own.
//! - Perft: `perft blokus3d N` runs the tower with four colours; `--players`,
//!   `--variant`, `--area A` and `--tag Stuck=skip` set up other starts
//!   through [`Rules::perft_divide_tags`], as the tags of a record would.
//!   Only placements are plies: a stuck colour going out or being skipped
//!   is not one.

pub mod engine;
pub mod notation;
pub mod pieces;
pub mod render;

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{Parsed, Rules, variant_in, variant_index};
use crate::record::{Tag, Tags, Token};
use engine::{Area, Board, Stuck, col};
pub use notation::Move;

/// The Blokus 3D game.
pub struct Blokus3d;

/// A game in progress.
#[derive(Clone, Debug)]
pub struct State {
    pub board: Board,
    /// Players: 1 to 4 (2 with two-colours).
    pub players: u8,
    pub two_colours: bool,
}

/// Colour names in turn order.
pub const COLOURS: [&str; 4] = ["blue", "yellow", "red", "green"];
const TWO: [&str; 2] = ["player1", "player2"];

impl State {
    /// The name of colour `c`.
    pub fn colour(&self, c: u8) -> &'static str {
        COLOURS.get(usize::from(c)).copied().unwrap_or("?")
    }

    /// The score of colour `c`: visible columns minus unplaced stones.
    pub fn colour_score(&self, c: u8) -> i64 {
        i64::from(self.board.visible(c)) - i64::from(self.board.unplaced(c))
    }

    /// One legal placement of the colour to move, for help lines.
    pub fn hint(&self) -> String {
        let b = &self.board;
        let c = b.to_move;
        let mut first = None;
        let mut n = 0u64;
        b.each_move(c, |i, z| {
            if first.is_none() {
                first = Some((i, z));
            }
            n += 1;
            true
        });
        match first.and_then(|(i, z)| b.area.fps.get(usize::from(i)).map(|f| (f, z))) {
            Some((fp, z)) => {
                let m = notation::write_at(fp.orient, fp.x, fp.y, z);
                if n == 1 {
                    format!("the only legal placement here: {m}")
                } else {
                    format!("a legal placement here: {m} (one of {n})")
                }
            }
            None => format!("{} has no legal placement", self.colour(c)),
        }
    }

    /// Every legal placement of the colour to move, in canonical notation.
    pub fn legal_names(&self) -> Vec<String> {
        let b = &self.board;
        let mut out = Vec::new();
        b.each_move(b.to_move, |i, z| {
            if let Some(fp) = b.area.fps.get(usize::from(i)) {
                out.push(notation::write_at(fp.orient, fp.x, fp.y, z));
            }
            true
        });
        out
    }
}

fn bad(code: &'static str, tag: &Tag, message: String, label: &str, help: &str) -> Diag {
    Diag::error(code, message)
        .at(tag.value_span)
        .label(label.to_string())
        .help(help.to_string())
}

/// A named area for `colours` colours, built once.
fn named_area(name: &str, colours: u8) -> Option<Arc<Area>> {
    static TOWERS: [OnceLock<Arc<Area>>; 4] = [const { OnceLock::new() }; 4];
    static CUBES: [OnceLock<Arc<Area>>; 3] = [const { OnceLock::new() }; 3];
    match name {
        "tower" => {
            let i = usize::from(colours.clamp(1, 4) - 1);
            let l = 2 * colours.clamp(1, 4);
            TOWERS.get(i).map(|cell| {
                cell.get_or_init(|| Arc::new(Area::new("tower".into(), 5, 4, &[l; 20])))
                    .clone()
            })
        }
        "cube3" | "cube4" | "cube5" => {
            let n: u8 = if name == "cube3" {
                3
            } else if name == "cube4" {
                4
            } else {
                5
            };
            CUBES.get(usize::from(n - 3)).map(|cell| {
                cell.get_or_init(|| {
                    Arc::new(Area::new(
                        name.into(),
                        n,
                        n,
                        &vec![n; usize::from(n) * usize::from(n)],
                    ))
                })
                .clone()
            })
        }
        _ => None,
    }
}

/// Reads a `map:ROWS` value (after `map:`): rows top rank first.
pub fn parse_map(rows: &str) -> Result<(u8, u8, Vec<u8>), String> {
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() > 16 {
        return Err(format!("the map has {} ranks; at most 16", rows.len()));
    }
    let mut width = None;
    let mut limits = vec![0u8; 0];
    let ranks = rows.len();
    let mut grid: Vec<Vec<u8>> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let n = i + 1;
        if row.is_empty() {
            return Err(format!("row {n} of the map (from the top) is empty"));
        }
        let mut line = Vec::new();
        for (j, ch) in row.chars().enumerate() {
            match ch {
                '.' | '0' => line.push(0),
                '1'..='9' => line.push(ch as u8 - b'0'),
                _ => {
                    return Err(format!(
                        "row {n} of the map (from the top), character {}: `{ch}` is not a limit (1 to 9) or `.`",
                        j + 1
                    ));
                }
            }
        }
        if line.len() > 16 {
            return Err(format!(
                "row {n} of the map (from the top) has {} files; at most 16",
                line.len()
            ));
        }
        match width {
            None => width = Some(line.len()),
            Some(w) if w != line.len() => {
                return Err(format!(
                    "row {n} of the map (from the top) has {} files, row 1 has {w}; every row has the same length",
                    line.len()
                ));
            }
            _ => {}
        }
        grid.push(line);
    }
    for line in grid.iter().rev() {
        limits.extend_from_slice(line);
    }
    if limits.iter().all(|&l| l == 0) {
        return Err("the map has no column".into());
    }
    Ok((width.unwrap_or(0) as u8, ranks as u8, limits))
}

/// The area an `Area` value names, for `colours` colours.
pub fn area_of(value: &str, colours: u8) -> Result<Arc<Area>, String> {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    if let Some(a) = named_area(&lower, colours) {
        return Ok(a);
    }
    if lower.starts_with("map:") {
        let rows = v.get(4..).unwrap_or("");
        let (w, h, limits) = parse_map(rows)?;
        return Ok(Arc::new(Area::new(v.to_string(), w, h, &limits)));
    }
    Err(format!(
        "`{v}` is not a building area (tower, cube3, cube4, cube5 or map:ROWS)"
    ))
}

impl Rules for Blokus3d {
    type Move = Move;
    type State = State;
    type Spans = ();

    const NAME: &'static str = "blokus3d";
    const ALIASES: &'static [&'static str] = &["rumis"];
    const RULES_TAGS: &'static [&'static str] = &["Area", "Players", "Stuck"];
    const VARIANTS: &'static [&'static str] = &["standard", "two-colours"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        let variant = match variant_index::<Self>(tags.value("Variant")) {
            Ok(v) => v,
            Err(message) => {
                let mut d = Diag::error("blokus3d::bad_variant", message)
                    .label("not a Blokus 3D variant")
                    .help("Blokus 3D variants: standard, two-colours");
                if let Some(t) = tags.get("Variant") {
                    d = d.at(t.value_span);
                }
                errors.push(d);
                0
            }
        };
        let _ = variant_in::<Self>;
        let two = variant == 1;
        let mut players = if two { 2 } else { 4 };
        if let Some(t) = tags.get("Players") {
            match t.value.trim() {
                "1" => players = 1,
                "2" => players = 2,
                "3" => players = 3,
                "4" => players = 4,
                _ => errors.push(bad(
                    "blokus3d::bad_players",
                    t,
                    format!("`{}` is not a number of players (1 to 4)", t.value),
                    "bad number of players",
                    "Blokus 3D is played by 1 to 4 players: [Players \"2\"]",
                )),
            }
            if two && players != 2 && errors.is_empty() {
                let d = bad(
                    "blokus3d::bad_variant",
                    t,
                    format!("two-colours is played by 2 players, not {players}"),
                    "two-colours needs 2 players",
                    "write [Players \"2\"] or leave the variant out",
                );
                errors.push(d);
            }
        }
        let colours = if two { 4 } else { players };
        let stuck = match tags.get("Stuck") {
            None => Stuck::Out,
            Some(t) => match t.value.trim().to_ascii_lowercase().as_str() {
                "out" => Stuck::Out,
                "skip" => Stuck::Skip,
                _ => {
                    errors.push(bad(
                        "blokus3d::bad_stuck",
                        t,
                        format!("`{}` is not a stuck rule", t.value),
                        "not out or skip",
                        "[Stuck \"out\"] (a colour that cannot place is out) or [Stuck \"skip\"] (it is skipped)",
                    ));
                    Stuck::Out
                }
            },
        };
        let area = match tags.get("Area") {
            None => named_area("tower", colours),
            Some(t) => match area_of(&t.value, colours) {
                Ok(a) => Some(a),
                Err(m) => {
                    errors.push(bad(
                        "blokus3d::bad_area",
                        t,
                        m,
                        "not a building area",
                        "areas: tower, cube3, cube4, cube5, or map:ROWS (top rank first, a limit 1-9 per column, `.` for none: map:333/343/333)",
                    ));
                    None
                }
            },
        };
        match area {
            Some(area) if errors.is_empty() => Ok(State {
                board: Board::new(area, colours, stuck),
                players,
                two_colours: two,
            }),
            _ => Err(errors),
        }
    }

    fn variant(state: &State) -> &'static str {
        if state.two_colours {
            "two-colours"
        } else {
            "standard"
        }
    }

    fn seats(state: &State) -> &'static [&'static str] {
        if state.two_colours {
            &TWO
        } else {
            COLOURS
                .get(..usize::from(state.players))
                .unwrap_or(&COLOURS)
        }
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
        state.colour(state.board.to_move)
    }

    fn is_over(state: &State) -> bool {
        state.board.over
    }

    fn must_pass(state: &State) -> bool {
        !state.board.has_move(state.board.to_move)
    }

    fn is_pass(mv: &Move) -> bool {
        *mv == Move::Pass
    }

    fn pass() -> Move {
        Move::Pass
    }

    fn play(state: &mut State, mv: &Parsed<Move>) -> Result<(), Diag> {
        let c = state.board.to_move;
        let me = state.colour(c);
        let p = match &mv.mv {
            Move::Pass => {
                if state.board.has_move(c) {
                    return Err(Diag::error(
                        "blokus3d::illegal_pass",
                        format!("{me} can place a stone and may not pass"),
                    )
                    .at(mv.span)
                    .label("pass while a stone fits")
                    .help(state.hint()));
                }
                state.board.pass();
                return Ok(());
            }
            Move::Place(p) => p,
        };
        let b = &state.board;
        let area = &*b.area;
        if p.x < 16 && p.y < 16 {
            let i = usize::from(p.orient) * engine::COLUMNS + col(p.x, p.y);
            if let Some(&f) = area.at.get(i)
                && let Some(fp) = area.fps.get(usize::from(f))
                && b.legal(fp, c) == Some(p.z)
            {
                state.board.place(f, p.z);
                return Ok(());
            }
        }
        Err(explain(state, p, mv.span))
    }

    fn scores_into(state: &State, out: &mut Vec<i64>) {
        out.clear();
        let s = |c: u8| state.colour_score(c);
        if state.two_colours {
            out.extend([s(0).max(s(2)), s(1).max(s(3))]);
        } else {
            out.extend((0..state.board.colours).map(s));
        }
    }

    fn result_extras(state: &State) -> Map<String, Value> {
        let b = &state.board;
        let mut colours = Map::new();
        let mut visible = Map::new();
        let mut unplaced = Map::new();
        for c in 0..b.colours {
            let n = state.colour(c);
            colours.insert(n.into(), json!(state.colour_score(c)));
            visible.insert(n.into(), json!(b.visible(c)));
            unplaced.insert(n.into(), json!(b.unplaced(c)));
        }
        let mut m = Map::new();
        m.insert("colours".into(), Value::Object(colours));
        m.insert("visible".into(), Value::Object(visible));
        m.insert("unplaced".into(), Value::Object(unplaced));
        m.insert("filled".into(), json!(b.filled()));
        m
    }

    fn score_notes(state: &State) -> Vec<String> {
        let b = &state.board;
        let mut out: Vec<String> = (0..b.colours)
            .map(|c| {
                format!(
                    "{}: {} visible columns, {} unplaced stones",
                    state.colour(c),
                    b.visible(c),
                    b.unplaced(c)
                )
            })
            .collect();
        if b.filled() {
            out.push("the area is filled".into());
        }
        out
    }

    fn write_move(mv: &Move) -> String {
        notation::write(mv)
    }

    fn move_extras(before: &State, mv: &Move) -> Map<String, Value> {
        let c = before.board.to_move;
        let mut m = Map::new();
        m.insert("colour".into(), json!(before.colour(c)));
        if before.two_colours {
            m.insert("seat".into(), json!(TWO.get(usize::from(c % 2))));
        }
        if let Move::Place(p) = mv {
            m.insert("stone".into(), json!(pieces::name(p.stone)));
            if let Some(o) = pieces::orientations().get(usize::from(p.orient)) {
                let cubes: Vec<String> = o
                    .cubes
                    .iter()
                    .map(|&(dx, dy, dz)| notation::cube_name(p.x + dx, p.y + dy, p.z + dz))
                    .collect();
                m.insert("cubes".into(), json!(cubes));
            }
        }
        m
    }

    fn legal_moves(state: &State) -> Result<Vec<String>, String> {
        Ok(state.legal_names())
    }

    fn render(state: &State, color: bool) -> String {
        render::text(state, color)
    }

    fn render_levels(state: &State, color: bool) -> Vec<String> {
        render::levels(state, color)
    }

    fn position_rows(state: &State) -> Vec<String> {
        render::rows(state)
    }

    fn scene(state: &State, last: Option<&Move>) -> crate::svg::Scene {
        let last: Vec<(u8, u8)> = match last {
            Some(Move::Place(p)) => p.cells().iter().map(|c| (c.x, c.y)).collect(),
            _ => Vec::new(),
        };
        render::scene(state, &last)
    }

    const PLOT_UNIT: &'static str = "points";

    /// The tower with four colours, or the start the tags set up.
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        Self::perft_divide_tags(variant, players, &Tags::default(), depth, done)
    }

    /// The start the record's tags would set up: `Area`, `Stuck` (and the
    /// variant and players given apart); tag errors are refused.
    fn perft_divide_tags(
        variant: Option<&str>,
        players: Option<u8>,
        tags: &Tags,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, String> {
        let mut all = tags.clone();
        let mut set = |name: &str, value: String| {
            all.0.retain(|t| t.name != name);
            all.0.push(Tag {
                name: name.into(),
                value,
                ..Default::default()
            });
        };
        if let Some(v) = variant {
            set("Variant", v.to_string());
        }
        if let Some(n) = players {
            set("Players", n.to_string());
        }
        for t in all.iter() {
            if !["Area", "Stuck", "Variant", "Players"].contains(&t.name.as_str()) {
                return Err(format!(
                    "blokus3d perft takes the tags Area and Stuck, not {}",
                    t.name
                ));
            }
        }
        let state = Self::start(&all).map_err(|e| {
            e.iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        Ok(divide(&state.board, depth, done))
    }
}

/// Perft counts under each first placement (`pass` when the colour to move
/// is stuck).
pub fn divide(board: &Board, depth: u32, done: &(dyn Fn(u64) + Sync)) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    if depth == 0 || board.over {
        return out;
    }
    use rayon::prelude::*;
    let c = board.to_move;
    let mut first = Vec::new();
    board.each_move(c, |i, z| {
        first.push((i, z));
        true
    });
    out = first
        .par_iter()
        .map(|&(i, z)| {
            let mut next = board.clone();
            next.place(i, z);
            let n = engine::perft(&next, depth - 1);
            done(n);
            let name = board.area.fps.get(usize::from(i)).map_or_else(
                || "?".into(),
                |fp| notation::write_at(fp.orient, fp.x, fp.y, z),
            );
            (name, n)
        })
        .collect();
    if first.is_empty() {
        let mut next = board.clone();
        next.pass();
        let n = engine::perft(&next, depth);
        done(n);
        out.push(("pass".into(), n));
    }
    out
}

/// Why a placement that the fast check refused is illegal.
fn explain(state: &State, p: &notation::Place, span: crate::span::Span) -> Diag {
    let b = &state.board;
    let area = &*b.area;
    let c = b.to_move;
    let me = state.colour(c);
    let pname = pieces::name(p.stone);
    let used = b.used.get(usize::from(c)).copied().unwrap_or(0);
    if used >> p.stone & 1 == 1 {
        let left: Vec<&str> = (0..pieces::STONES as u8)
            .filter(|s| used >> s & 1 == 0)
            .map(pieces::name)
            .collect();
        return Diag::error(
            "blokus3d::piece_used",
            format!("{me} has already placed the {pname}"),
        )
        .at(span)
        .label(format!("{me}'s {pname} is placed"))
        .help(format!("{me}'s unplaced stones: {}", left.join(" ")));
    }
    let cells = p.cells();
    if let Some(x) = cells.iter().find(|x| area.limit_at(x.x, x.y) == 0) {
        let name = notation::cube_name(x.x, x.y, x.z);
        return Diag::error(
            "blokus3d::not_a_cell",
            format!("{name} is not in the building area ({})", area.name),
        )
        .at(x.span)
        .label("no column here")
        .help(render::columns_help(area));
    }
    let height = |x: &notation::Cell| b.heights.get(col(x.x, x.y)).copied().unwrap_or(0);
    if let Some(x) = cells.iter().find(|x| x.z < height(x)) {
        let owner = b.owner(col(x.x, x.y), x.z).map_or("?", |o| state.colour(o));
        let name = notation::cube_name(x.x, x.y, x.z);
        return Diag::error(
            "blokus3d::occupied",
            format!("{name} is occupied by {owner}"),
        )
        .at(x.span)
        .label(format!("{owner} is here"))
        .help(state.hint());
    }
    if let Some(x) = cells
        .iter()
        .find(|x| x.z > height(x) && !cells.iter().any(|o| (o.x, o.y, o.z + 1) == (x.x, x.y, x.z)))
    {
        let name = notation::cube_name(x.x, x.y, x.z);
        let h = height(x);
        let column = format!("{}{}", char::from(b'a' + x.x), u32::from(x.y) + 1);
        return Diag::error(
            "blokus3d::unsupported",
            format!("{name} has empty space under it: column {column} is {h} high",),
        )
        .at(x.span)
        .label(format!("column {column} holds {h}"))
        .help(format!(
            "a stone is lowered from above: its lowest cube in column {column} goes at level {}",
            h + 1
        ));
    }
    if let Some(x) = cells.iter().find(|x| x.z >= area.limit_at(x.x, x.y)) {
        let name = notation::cube_name(x.x, x.y, x.z);
        let l = area.limit_at(x.x, x.y);
        return Diag::error(
            "blokus3d::too_high",
            format!("{name} is above its column's limit of {l}"),
        )
        .at(x.span)
        .label(format!("at most {l} high here"))
        .help(state.hint());
    }
    if b.first_own(c) {
        if p.z != 0 {
            return Diag::error(
                "blokus3d::first_off_base",
                format!("{me}'s first stone must touch the base (a cube at level 1)"),
            )
            .at(span)
            .label("no cube at level 1")
            .help(state.hint());
        }
        return Diag::error(
            "blokus3d::first_no_contact",
            format!("{me}'s first stone must touch a face of a stone already placed"),
        )
        .at(span)
        .label("touches no stone")
        .help(state.hint());
    }
    // Nearest own stones, by the distance between cubes.
    let mut best: Option<(u32, Vec<String>)> = None;
    for y in 0..area.ranks {
        for x in 0..area.files {
            let k = col(x, y);
            for z in 0..b.heights.get(k).copied().unwrap_or(0) {
                if b.owner(k, z) != Some(c) {
                    continue;
                }
                let d = cells
                    .iter()
                    .map(|m| {
                        u32::from(m.x.abs_diff(x))
                            + u32::from(m.y.abs_diff(y))
                            + u32::from(m.z.abs_diff(z))
                    })
                    .min()
                    .unwrap_or(u32::MAX);
                let s = pieces::name(b.stone_at(k, z)).to_string();
                match &mut best {
                    Some((bd, list)) if *bd == d => {
                        if !list.contains(&s) {
                            list.push(s);
                        }
                    }
                    Some((bd, _)) if *bd < d => {}
                    _ => best = Some((d, vec![s])),
                }
            }
        }
    }
    let near = best.map_or_else(String::new, |(_, l)| {
        format!("; nearest of {me}'s stones: {}", l.join(", "))
    });
    Diag::error(
        "blokus3d::no_contact",
        format!("the {pname} touches no face of a {me} stone{near}"),
    )
    .at(span)
    .label(format!("no face contact with {me}"))
    .help(state.hint())
}

#[cfg(test)]
mod tests;
