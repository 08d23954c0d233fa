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
//! Layout, one file per concern:
//! - [`pieces`]: the stones and their orientations;
//! - [`engine`]: the rules. The column engine with placements precomputed
//!   per orientation and area, and the game position, [`State`]
//!   ([`Position`](crate::game::Position)): typed span-free [`Move`]s,
//!   `play` refusing a move with a typed [`Illegal`] (naming the cube at
//!   fault by its index) and changing nothing then, the legal moves, the
//!   scores;
//! - [`notation`]: tokens into [`Move`]s and the spans of their cubes
//!   ([`CubeSpans`](notation::CubeSpans)), moves back into text
//!   ([`Notation`](crate::game::Notation)); names, repeats and shapes, no
//!   rules;
//! - `explain`: an [`Illegal`] and the spans made the diagnostic
//!   ([`Explain`](crate::game::Explain)), the only place that writes the
//!   message of a refused move;
//! - [`render`]: the top view, levels, letter rows and SVG
//!   ([`Render`](crate::game::Render));
//! - this module: the start from the tags ([`Setup`](crate::game::Setup)),
//!   the report's extras ([`Extras`](crate::game::Extras)) and perft
//!   ([`Perft`](crate::game::Perft)).
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
//! - `moves --by-score`: a placement scores the change in its colour's
//!   score: the columns it brings on top that showed another colour or
//!   none (covering the colour's own tops gains nothing), plus 1 for the
//!   stone no longer unplaced; under two-colours too it is the colour's
//!   gain, not the seat's best colour.
//! - Perft: `perft blokus3d N` runs the tower with four colours; `--players`,
//!   `--variant`, `--area A` and `--tag Stuck=skip` set up other starts
//!   through [`Perft::perft_divide_tags`], as the tags of a record would.
//!   Only placements are plies: a stuck colour going out or being skipped
//!   is not one.

pub mod engine;
mod explain;
pub mod notation;
pub mod pieces;
pub mod render;
mod symmetry;

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value, json};

use crate::diag::Diag;
use crate::game::{Extras, Perft, Setup, variant_index};
use crate::record::{Tag, Tags};
use engine::{Area, Board, Stuck};
pub use engine::{COLOURS, Illegal, Move, State, TWO};

/// The Blokus 3D game.
pub struct Blokus3d;

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

/// Why a `map:ROWS` value is refused. Rows count from the top, from 1;
/// characters within a row from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// More than 16 ranks: how many.
    TooManyRanks(usize),
    /// An empty row.
    EmptyRow {
        /// The row.
        row: usize,
    },
    /// A character that is not a limit or `.`.
    BadCharacter {
        /// The row.
        row: usize,
        /// The character's place in the row.
        character: usize,
        /// The character.
        found: char,
    },
    /// A row of more than 16 files.
    TooWide {
        /// The row.
        row: usize,
        /// Its files.
        files: usize,
    },
    /// A row of another length than row 1.
    Ragged {
        /// The row.
        row: usize,
        /// Its files.
        files: usize,
        /// Row 1's files.
        first: usize,
    },
    /// Every limit is 0.
    NoColumn,
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::TooManyRanks(n) => write!(f, "the map has {n} ranks; at most 16"),
            MapError::EmptyRow { row } => {
                write!(f, "row {row} of the map (from the top) is empty")
            }
            MapError::BadCharacter {
                row,
                character,
                found,
            } => write!(
                f,
                "row {row} of the map (from the top), character {character}: `{found}` is not a limit (1 to 9) or `.`"
            ),
            MapError::TooWide { row, files } => write!(
                f,
                "row {row} of the map (from the top) has {files} files; at most 16"
            ),
            MapError::Ragged { row, files, first } => write!(
                f,
                "row {row} of the map (from the top) has {files} files, row 1 has {first}; every row has the same length"
            ),
            MapError::NoColumn => f.write_str("the map has no column"),
        }
    }
}

impl std::error::Error for MapError {}

/// Reads a `map:ROWS` value (after `map:`): rows top rank first.
pub fn parse_map(rows: &str) -> Result<(u8, u8, Vec<u8>), MapError> {
    let rows: Vec<&str> = rows.split('/').collect();
    if rows.len() > 16 {
        return Err(MapError::TooManyRanks(rows.len()));
    }
    let mut width = None;
    let mut limits = vec![0u8; 0];
    let ranks = rows.len();
    let mut grid: Vec<Vec<u8>> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let n = i + 1;
        if row.is_empty() {
            return Err(MapError::EmptyRow { row: n });
        }
        let mut line = Vec::new();
        for (j, ch) in row.chars().enumerate() {
            match ch {
                '.' | '0' => line.push(0),
                '1'..='9' => line.push(ch as u8 - b'0'),
                _ => {
                    return Err(MapError::BadCharacter {
                        row: n,
                        character: j + 1,
                        found: ch,
                    });
                }
            }
        }
        if line.len() > 16 {
            return Err(MapError::TooWide {
                row: n,
                files: line.len(),
            });
        }
        match width {
            None => width = Some(line.len()),
            Some(w) if w != line.len() => {
                return Err(MapError::Ragged {
                    row: n,
                    files: line.len(),
                    first: w,
                });
            }
            _ => {}
        }
        grid.push(line);
    }
    for line in grid.iter().rev() {
        limits.extend_from_slice(line);
    }
    if limits.iter().all(|&l| l == 0) {
        return Err(MapError::NoColumn);
    }
    Ok((width.unwrap_or(0) as u8, ranks as u8, limits))
}

/// Why an `Area` value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AreaError {
    /// A `map:` value whose rows are refused.
    Map(MapError),
    /// Neither a named area nor a map (the value, trimmed).
    Unknown(String),
}

impl std::fmt::Display for AreaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AreaError::Map(e) => e.fmt(f),
            AreaError::Unknown(v) => write!(
                f,
                "`{v}` is not a building area (tower, cube3, cube4, cube5 or map:ROWS)"
            ),
        }
    }
}

impl std::error::Error for AreaError {}

/// The area an `Area` value names, for `colours` colours.
pub fn area_of(value: &str, colours: u8) -> Result<Arc<Area>, AreaError> {
    let v = value.trim();
    let lower = v.to_ascii_lowercase();
    if let Some(a) = named_area(&lower, colours) {
        return Ok(a);
    }
    if lower.starts_with("map:") {
        let rows = v.get(4..).unwrap_or("");
        let (w, h, limits) = parse_map(rows).map_err(AreaError::Map)?;
        return Ok(Arc::new(Area::new(v.to_string(), w, h, &limits)));
    }
    Err(AreaError::Unknown(v.to_string()))
}

/// Whether the `Variant` tag asks for two-colours (an unknown variant is
/// an error, and the standard game).
fn two_colours_of(tags: &Tags, errors: &mut Vec<Diag>) -> bool {
    match variant_index::<Blokus3d>(tags.value("Variant")) {
        Ok(v) => v == 1,
        Err(message) => {
            let mut d = Diag::error("blokus3d::bad_variant", message)
                .label("not a Blokus 3D variant")
                .help("Blokus 3D variants: standard, two-colours");
            if let Some(t) = tags.get("Variant") {
                d = d.at(t.value_span);
            }
            errors.push(d);
            false
        }
    }
}

/// The number of players from the `Players` tag (4 without one, 2 under
/// two-colours, which no other number plays).
fn players_of(tags: &Tags, two: bool, errors: &mut Vec<Diag>) -> u8 {
    let mut players = if two { 2 } else { 4 };
    let Some(t) = tags.get("Players") else {
        return players;
    };
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
        errors.push(bad(
            "blokus3d::bad_variant",
            t,
            format!("two-colours is played by 2 players, not {players}"),
            "two-colours needs 2 players",
            "write [Players \"2\"] or leave the variant out",
        ));
    }
    players
}

/// The `Stuck` rule (`out` without the tag).
fn stuck_of(tags: &Tags, errors: &mut Vec<Diag>) -> Stuck {
    let Some(t) = tags.get("Stuck") else {
        return Stuck::Out;
    };
    match t.value.trim().to_ascii_lowercase().as_str() {
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
    }
}

/// The building area of the `Area` tag (the tower without one) for
/// `colours` colours; `None` when it is bad.
fn area_tag(tags: &Tags, colours: u8, errors: &mut Vec<Diag>) -> Option<Arc<Area>> {
    let Some(t) = tags.get("Area") else {
        return named_area("tower", colours);
    };
    area_of(&t.value, colours)
        .map_err(|m| {
            errors.push(bad(
                "blokus3d::bad_area",
                t,
                m.to_string(),
                "not a building area",
                "areas: tower, cube3, cube4, cube5, or map:ROWS (top rank first, a limit 1-9 per column, `.` for none: map:333/343/333)",
            ));
        })
        .ok()
}

impl Setup for Blokus3d {
    type Position = State;

    const NAME: &'static str = "blokus3d";
    const ALIASES: &'static [&'static str] = &["rumis"];
    const RULES_TAGS: &'static [&'static str] = &["Area", "Players", "Stuck"];
    const VARIANTS: &'static [&'static str] = &["standard", "two-colours"];

    fn start(tags: &Tags) -> Result<State, Vec<Diag>> {
        let mut errors = Vec::new();
        let two = two_colours_of(tags, &mut errors);
        let players = players_of(tags, two, &mut errors);
        let colours = if two { 4 } else { players };
        let stuck = stuck_of(tags, &mut errors);
        match area_tag(tags, colours, &mut errors) {
            Some(area) if errors.is_empty() => Ok(State {
                board: Board::new(area, colours, stuck),
                players,
                two_colours: two,
            }),
            _ => Err(errors),
        }
    }
}

impl Extras for Blokus3d {
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

    /// The colour (and seat under two-colours), the stone and its cubes in
    /// the orientation's order.
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
}

impl Perft for Blokus3d {
    /// The tower with four colours, or the start the variant and the
    /// number of players set up.
    fn perft_divide(
        variant: Option<&str>,
        players: Option<u8>,
        depth: u32,
        done: &(dyn Fn(u64) + Sync),
    ) -> Result<Vec<(String, u64)>, crate::game::PerftError> {
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
    ) -> Result<Vec<(String, u64)>, crate::game::PerftError> {
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
        if let Some(t) = all
            .iter()
            .find(|t| !["Area", "Stuck", "Variant", "Players"].contains(&t.name.as_str()))
        {
            return Err(format!(
                "blokus3d perft takes the tags Area and Stuck, not {}",
                t.name
            )
            .into());
        }
        let state = <Self as Setup>::start(&all).map_err(|e| {
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
    if depth == 0 || board.is_over() {
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

#[cfg(test)]
mod tests;
