//! Blokus 3D notation: `NAME:cube,cube,...` or `cube,cube,...` (a cube is
//! `file rank . level`, `d2.1`), and `pass`. It reads names, repeats and
//! the stone's shape, and knows nothing of the position.

use super::pieces;
use crate::diag::Diag;
use crate::game::{Parsed, one_move_per_token};
use crate::record::Token;
use crate::span::Span;

/// One cube of a move: file, rank and level from 0, and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cell {
    pub x: u8,
    pub y: u8,
    pub z: u8,
    pub span: Span,
}

/// A stone placed: its orientation, the offset of the orientation's origin
/// (smallest file, rank and level), and the cubes as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub orient: u16,
    pub stone: u8,
    pub x: u8,
    pub y: u8,
    pub z: u8,
    pub cells: [Cell; 4],
    pub n: u8,
    /// The whole move's text.
    pub span: Span,
}

impl Place {
    /// The cubes as written.
    pub fn cells(&self) -> &[Cell] {
        self.cells.get(..usize::from(self.n)).unwrap_or(&[])
    }
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Pass,
    Place(Place),
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

/// Reads one move token.
pub fn read(text: &str, whole: Span) -> Result<Move, Diag> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let at = whole.offset;
    let (name, body, body_at) = match text.find(':') {
        Some(i) => (
            Some((text.get(..i).unwrap_or(""), Span::new(at, i))),
            text.get(i + 1..).unwrap_or(""),
            at + i + 1,
        ),
        None => (None, text, at),
    };
    let named = match name {
        None => None,
        Some((n, span)) => match pieces::by_name(n) {
            Some(s) => Some((s, span)),
            None => {
                let span = if n.is_empty() { whole } else { span };
                return Err(Diag::error(
                    "blokus3d::wrong_piece_name",
                    format!("`{n}` is not a stone name"),
                )
                .at(span)
                .label("not a stone")
                .help(format!("the stones are {}", pieces::NAMES.join(", "))));
            }
        },
    };
    let mut cells: Vec<Cell> = Vec::with_capacity(4);
    let mut off = 0usize;
    let mut count = 0usize;
    for part in body.split(',') {
        let span = Span::new(body_at + off, part.len().max(usize::from(part.is_empty())));
        off += part.len() + 1;
        count += 1;
        let Some((x, y, z)) = parse_cube(part) else {
            let shown = if part.is_empty() { "" } else { part };
            return Err(not_a_cell(shown, span));
        };
        if let Some(prev) = cells.iter().find(|c| (c.x, c.y, c.z) == (x, y, z)) {
            return Err(Diag::error(
                "blokus3d::repeated_cell",
                format!("the cube {} is listed twice", cube_name(x, y, z)),
            )
            .at(span)
            .label("listed before")
            .help(format!(
                "remove one of the two; the first is at byte {}",
                prev.span.offset
            )));
        }
        if cells.len() < 5 {
            cells.push(Cell { x, y, z, span });
        }
    }
    let body_span = Span::new(body_at, body.len().max(1));
    let xyz: Vec<(u8, u8, u8)> = cells.iter().map(|c| (c.x, c.y, c.z)).collect();
    let shape_err = |what: String| {
        let list: Vec<String> = xyz.iter().map(|&(x, y, z)| cube_name(x, y, z)).collect();
        Diag::error(
            "blokus3d::not_a_piece",
            format!("the cubes {} form no stone: {what}", list.join(",")),
        )
        .at(body_span)
        .label("not a stone")
        .help("a stone is 2, 3 or 4 cubes joined face to face, one of I2 I3 V3 I4 O4 T4 L4 Z4 B4 SR SL")
    };
    if count > 4 {
        return Err(shape_err(format!(
            "{count} cubes, too many (a stone has 2 to 4)"
        )));
    }
    if count < 2 {
        return Err(shape_err("a single cube (a stone has 2 to 4)".into()));
    }
    if !connected(&xyz) {
        return Err(shape_err("they are not connected face to face".into()));
    }
    let signed: Vec<(i32, i32, i32)> = xyz
        .iter()
        .map(|&(x, y, z)| (i32::from(x), i32::from(y), i32::from(z)))
        .collect();
    let norm = pieces::normalise(&signed);
    let Some(orient) = pieces::find(&norm) else {
        return Err(shape_err("no stone has this shape".into()));
    };
    let stone = pieces::orientations()
        .get(usize::from(orient))
        .map_or(0, |o| o.stone);
    if let Some((s, span)) = named
        && s != stone
    {
        let mirror = matches!(
            (s, stone),
            (pieces::SR, pieces::SL) | (pieces::SL, pieces::SR)
        );
        let what = if mirror {
            format!(
                "the cubes form the {}, the mirror image of the {} (a stone cannot be mirrored)",
                pieces::name(stone),
                pieces::name(s)
            )
        } else {
            format!("the cubes form the {}", pieces::name(stone))
        };
        return Err(Diag::error(
            "blokus3d::wrong_piece_name",
            format!("the stone is named {} but {what}", pieces::name(s)),
        )
        .at(span)
        .label(format!("the cubes form the {}", pieces::name(stone)))
        .help(format!(
            "write {}: or leave the name out",
            pieces::name(stone)
        )));
    }
    let mut arr = [Cell::default(); 4];
    for (slot, c) in arr.iter_mut().zip(cells.iter()) {
        *slot = *c;
    }
    Ok(Move::Place(Place {
        orient,
        stone,
        x: xyz.iter().map(|c| c.0).min().unwrap_or(0),
        y: xyz.iter().map(|c| c.1).min().unwrap_or(0),
        z: xyz.iter().map(|c| c.2).min().unwrap_or(0),
        cells: arr,
        n: cells.len() as u8,
        span: whole,
    }))
}

/// Reads the movetext: one move per token.
pub fn parse_into(tokens: &[Token], src: &str, moves: &mut Vec<Parsed<Move>>) -> Option<Diag> {
    one_move_per_token(tokens, moves, |_| None, |tok| read(tok.text(src), tok.span))
}
