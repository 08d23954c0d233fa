//! Blokus 3D notation: `NAME:cube,cube,...` or `cube,cube,...` (a cube is
//! `file rank . level`, `d2.1`), and `pass`. It reads names, repeats and
//! the stone's shape, and knows nothing of the position.

use super::engine::{Cube, Move, Place, State};
use super::{Blokus3d, pieces};
use crate::diag::Diag;
use crate::game::{Notation, Parsed};
use crate::record::Token;
use crate::span::Span;

/// Where the cubes of a placement are written, in the order of
/// [`Place::cubes`] (what a refusal blames).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubeSpans(pub [Span; 4]);

impl Notation for Blokus3d {
    type Spans = CubeSpans;

    fn parse_moves_into(
        _start: &State,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move, CubeSpans>>,
    ) -> Option<Diag> {
        parse_into(tokens, src, moves)
    }

    fn write_move(mv: &Move) -> String {
        write(mv)
    }
}

/// The name of a cube (file, rank, level from 0): `d2.1`.
pub fn cube_name(x: u8, y: u8, z: u8) -> String {
    format!(
        "{}{}.{}",
        char::from(b'a' + x % 26),
        u32::from(y) + 1,
        u32::from(z) + 1
    )
}

/// The canonical spelling of a placement from its orientation and offset:
/// the stone's name and its cubes sorted by level, rank, file.
pub fn write_at(orient: u16, x: u8, y: u8, z: u8) -> String {
    let Some(o) = pieces::orientations().get(usize::from(orient)) else {
        return "?".into();
    };
    let cubes: Vec<String> = o
        .cubes
        .iter()
        .map(|&(dx, dy, dz)| cube_name(x + dx, y + dy, z + dz))
        .collect();
    format!("{}:{}", pieces::name(o.stone), cubes.join(","))
}

/// The canonical spelling of a move.
pub fn write(mv: &Move) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Place(p) => write_at(p.orient, p.x, p.y, p.z),
    }
}

/// Reads a cube name (`d2.1`): file `a`..`p`, rank 1..16 (no leading zero),
/// level 1..9, case-insensitive.
pub fn parse_cube(text: &str) -> Option<(u8, u8, u8)> {
    let b = text.as_bytes();
    let (&f, rest) = b.split_first()?;
    let f = f.to_ascii_lowercase();
    if !(b'a'..=b'p').contains(&f) {
        return None;
    }
    let dot = rest.iter().position(|&c| c == b'.')?;
    let (rank, level) = (rest.get(..dot)?, rest.get(dot + 1..)?);
    if rank.is_empty() || rank.len() > 2 || rank.first() == Some(&b'0') {
        return None;
    }
    if !rank.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let r = rank.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    if !(1..=16).contains(&r) {
        return None;
    }
    let &[l] = level else { return None };
    if !(b'1'..=b'9').contains(&l) {
        return None;
    }
    Some((f - b'a', r as u8 - 1, l - b'1'))
}

fn not_a_cell(text: &str, span: Span) -> Diag {
    Diag::error(
        "blokus3d::not_a_cell",
        format!("`{text}` is not a cube name"),
    )
    .at(span)
    .label("expected a cube like d2.1")
    .help("a cube is its file a..p, its rank 1..16, a dot and its level 1..9 (d2.1); cubes are separated by commas without spaces")
}

/// Face-connected groups among the cubes.
fn connected(cells: &[(u8, u8, u8)]) -> bool {
    let n = cells.len();
    if n == 0 {
        return false;
    }
    let mut seen = 1u32;
    let mut grew = true;
    while grew {
        grew = false;
        for (i, a) in cells.iter().enumerate() {
            if seen >> i & 1 == 0 {
                continue;
            }
            for (j, b) in cells.iter().enumerate() {
                let d = a.0.abs_diff(b.0) + a.1.abs_diff(b.1) + a.2.abs_diff(b.2);
                if d == 1 && seen >> j & 1 == 0 {
                    seen |= 1 << j;
                    grew = true;
                }
            }
        }
    }
    seen.count_ones() as usize == n
}

/// The cubes of a move as written, with their spans: the first 5 kept (a
/// stone has at most 4; the message for too many lists 5), all counted.
#[derive(Default)]
struct Written {
    cubes: [(u8, u8, u8); 5],
    spans: [Span; 5],
    kept: usize,
    count: usize,
}

impl Written {
    /// The cubes kept.
    fn cubes(&self) -> &[(u8, u8, u8)] {
        self.cubes.get(..self.kept).unwrap_or(&[])
    }
}

/// Reads one move token: the move, and where its cubes are.
pub fn read(text: &str, whole: Span) -> Result<(Move, CubeSpans), Diag> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok((Move::Pass, CubeSpans::default()));
    }
    if let Some(read) = read_plain(text, whole) {
        return Ok(read);
    }
    read_checked(text, whole)
}

/// [`read`] step by step: what [`read_plain`] does not take, with the
/// diagnostic of what is wrong.
pub(super) fn read_checked(text: &str, whole: Span) -> Result<(Move, CubeSpans), Diag> {
    let Named {
        stone: named,
        body,
        body_at,
    } = stone_name(text, whole)?;
    let written = read_cubes(body, body_at)?;
    let orient = shape(&written, Span::new(body_at, body.len().max(1)))?;
    let stone = pieces::orientations()
        .get(usize::from(orient))
        .map_or(0, |o| o.stone);
    if let Some((s, span)) = named
        && s != stone
    {
        return Err(misnamed(s, stone, span));
    }
    let xyz = written.cubes();
    let mut place = Place {
        orient,
        stone,
        x: xyz.iter().map(|c| c.0).min().unwrap_or(0),
        y: xyz.iter().map(|c| c.1).min().unwrap_or(0),
        z: xyz.iter().map(|c| c.2).min().unwrap_or(0),
        cubes: [Cube::default(); 4],
        n: xyz.len().min(4) as u8,
    };
    for (slot, &(x, y, z)) in place.cubes.iter_mut().zip(xyz) {
        *slot = Cube { x, y, z };
    }
    let mut spans = CubeSpans::default();
    for (slot, &span) in spans.0.iter_mut().zip(&written.spans) {
        *slot = span;
    }
    Ok((Move::Place(place), spans))
}

/// The common case of [`read`], a placement written well, read in one
/// byte scan; `None` for anything else, which [`read`] then reads step by
/// step to say what is wrong.
#[inline]
pub(super) fn read_plain(text: &str, whole: Span) -> Option<(Move, CubeSpans)> {
    let b = text.as_bytes();
    // a name is two bytes; a `:` anywhere else is no cube either, and the
    // scan below refuses it
    let (named, mut i) = match b.get(2) {
        Some(b':') => (Some(pieces::by_name(text.get(..2)?)?), 3),
        _ => (None, 0),
    };
    let mut cubes = [Cube::default(); 4];
    let mut spans = CubeSpans::default();
    let mut n = 0;
    let (mut x, mut y, mut z) = (u8::MAX, u8::MAX, u8::MAX);
    loop {
        let start = i;
        let cube = plain_cube(b, &mut i)?;
        if n >= 4 || cubes.get(..n)?.contains(&cube) {
            return None;
        }
        *cubes.get_mut(n)? = cube;
        *spans.0.get_mut(n)? = Span::new(whole.offset + start, i - start);
        (x, y, z) = (x.min(cube.x), y.min(cube.y), z.min(cube.z));
        n += 1;
        match b.get(i) {
            None => break,
            Some(b',') => i += 1,
            _ => return None,
        }
    }
    if n < 2 {
        return None;
    }
    let mut key = 0u64;
    for c in cubes.get(..n)? {
        let (dx, dy, dz) = (c.x - x, c.y - y, c.z - z);
        if dx > 3 || dy > 3 || dz > 3 {
            return None;
        }
        key |= 1 << ((u32::from(dz) * 4 + u32::from(dy)) * 4 + u32::from(dx));
    }
    let (orient, stone) = pieces::find_key_stone(key)?;
    if named.is_some_and(|s| s != stone) {
        return None;
    }
    let place = Place {
        orient,
        stone,
        x,
        y,
        z,
        cubes,
        n: n as u8,
    };
    Some((Move::Place(place), spans))
}

/// A cube name at byte `*i` of `b` ([`parse_cube`]'s syntax), `*i` moved
/// past it.
#[inline]
fn plain_cube(b: &[u8], i: &mut usize) -> Option<Cube> {
    let f = b.get(*i)?.to_ascii_lowercase();
    let d1 = *b.get(*i + 1)?;
    if !(b'a'..=b'p').contains(&f) || !(b'1'..=b'9').contains(&d1) {
        return None;
    }
    let mut rank = d1 - b'0';
    *i += 2;
    if let Some(&d2) = b.get(*i)
        && d2.is_ascii_digit()
    {
        rank = rank * 10 + (d2 - b'0');
        *i += 1;
    }
    let (&dot, &level) = (b.get(*i)?, b.get(*i + 1)?);
    if rank > 16 || dot != b'.' || !(b'1'..=b'9').contains(&level) {
        return None;
    }
    *i += 2;
    Some(Cube {
        x: f - b'a',
        y: rank - 1,
        z: level - b'1',
    })
}

/// A move token split at its `:`.
struct Named<'a> {
    /// The stone named before the `:`, with the name's span.
    stone: Option<(u8, Span)>,
    /// The text of the cubes, and its offset.
    body: &'a str,
    body_at: usize,
}

/// The stone's name before a `:`, if any, and the text of the cubes.
fn stone_name(text: &str, whole: Span) -> Result<Named<'_>, Diag> {
    let at = whole.offset;
    let Some(i) = text.bytes().position(|b| b == b':') else {
        return Ok(Named {
            stone: None,
            body: text,
            body_at: at,
        });
    };
    let (name, span) = (text.get(..i).unwrap_or(""), Span::new(at, i));
    let body = text.get(i + 1..).unwrap_or("");
    match pieces::by_name(name) {
        Some(s) => Ok(Named {
            stone: Some((s, span)),
            body,
            body_at: at + i + 1,
        }),
        None => {
            let span = if name.is_empty() { whole } else { span };
            Err(Diag::error(
                "blokus3d::wrong_piece_name",
                format!("`{name}` is not a stone name"),
            )
            .at(span)
            .label("not a stone")
            .help(format!("the stones are {}", pieces::NAMES.join(", "))))
        }
    }
}

/// The comma-separated parts of `text` with their offsets (a byte scan:
/// parts are a few bytes long).
fn comma_parts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut start = Some(0usize);
    std::iter::from_fn(move || {
        let from = start?;
        let rest = bytes.get(from..).unwrap_or(&[]);
        let end = match rest.iter().position(|&b| b == b',') {
            Some(i) => {
                start = Some(from + i + 1);
                from + i
            }
            None => {
                start = None;
                bytes.len()
            }
        };
        Some((from, text.get(from..end).unwrap_or("")))
    })
}

/// The comma-separated cubes of `body` (at byte `body_at`), each a cube
/// name listed once.
fn read_cubes(body: &str, body_at: usize) -> Result<Written, Diag> {
    let mut written = Written::default();
    for (off, part) in comma_parts(body) {
        let span = Span::new(body_at + off, part.len().max(usize::from(part.is_empty())));
        written.count += 1;
        let Some(xyz) = parse_cube(part) else {
            return Err(not_a_cell(part, span));
        };
        if let Some(i) = written.cubes().iter().position(|&c| c == xyz) {
            let (x, y, z) = xyz;
            let first = written.spans.get(i).map_or(0, |s| s.offset);
            return Err(Diag::error(
                "blokus3d::repeated_cell",
                format!("the cube {} is listed twice", cube_name(x, y, z)),
            )
            .at(span)
            .label("listed before")
            .help(format!(
                "remove one of the two; the first is at byte {first}"
            )));
        }
        if let (Some(c), Some(s)) = (
            written.cubes.get_mut(written.kept),
            written.spans.get_mut(written.kept),
        ) {
            (*c, *s) = (xyz, span);
            written.kept += 1;
        }
    }
    Ok(written)
}

/// The orientation the cubes form: 2 to 4 cubes joined face to face in
/// the shape of a stone; `body` the span of the cubes' text.
fn shape(written: &Written, body: Span) -> Result<u16, Diag> {
    let xyz = written.cubes();
    let shape_err = |what: String| {
        let list: Vec<String> = xyz.iter().map(|&(x, y, z)| cube_name(x, y, z)).collect();
        Diag::error(
            "blokus3d::not_a_piece",
            format!("the cubes {} form no stone: {what}", list.join(",")),
        )
        .at(body)
        .label("not a stone")
        .help("a stone is 2, 3 or 4 cubes joined face to face, one of I2 I3 V3 I4 O4 T4 L4 Z4 B4 SR SL")
    };
    let count = written.count;
    if count > 4 {
        return Err(shape_err(format!(
            "{count} cubes, too many (a stone has 2 to 4)"
        )));
    }
    if count < 2 {
        return Err(shape_err("a single cube (a stone has 2 to 4)".into()));
    }
    // the shape's box bits name its orientation; cubes that name none are
    // then told apart (not connected, or connected in no stone's shape)
    let min = |f: fn(&(u8, u8, u8)) -> u8| xyz.iter().map(f).min().unwrap_or(0);
    let (mx, my, mz) = (min(|c| c.0), min(|c| c.1), min(|c| c.2));
    let mut moved = xyz.iter().map(|&(x, y, z)| (x - mx, y - my, z - mz));
    let key = moved.try_fold(0u64, |k, c| {
        let b = pieces::key(&[c]);
        (b != 0).then_some(k | b)
    });
    if let Some(orient) = key.and_then(pieces::find_key) {
        return Ok(orient);
    }
    if !connected(xyz) {
        return Err(shape_err("they are not connected face to face".into()));
    }
    Err(shape_err("no stone has this shape".into()))
}

/// `blokus3d::wrong_piece_name`: the stone is named `named` (at `span`)
/// but the cubes form `stone`.
fn misnamed(named: u8, stone: u8, span: Span) -> Diag {
    let mirror = matches!(
        (named, stone),
        (pieces::SR, pieces::SL) | (pieces::SL, pieces::SR)
    );
    let what = if mirror {
        format!(
            "the cubes form the {}, the mirror image of the {} (a stone cannot be mirrored)",
            pieces::name(stone),
            pieces::name(named)
        )
    } else {
        format!("the cubes form the {}", pieces::name(stone))
    };
    Diag::error(
        "blokus3d::wrong_piece_name",
        format!("the stone is named {} but {what}", pieces::name(named)),
    )
    .at(span)
    .label(format!("the cubes form the {}", pieces::name(stone)))
    .help(format!(
        "write {}: or leave the name out",
        pieces::name(stone)
    ))
}

/// Reads the movetext: one move per token, up to the first it refuses.
pub fn parse_into(
    tokens: &[Token],
    src: &str,
    moves: &mut Vec<Parsed<Move, CubeSpans>>,
) -> Option<Diag> {
    // `read` takes the usual shape in one scan itself: no quick reader
    crate::game::one_move_per_token(tokens, moves, |_| None, |tok| {
        read(tok.text(src), tok.span)
    })
}
