//! Trigon notation: a move is the comma-separated triangles a piece covers,
//! in any order, optionally after a piece name and a colon
//! (`I3:r15,s15,t15`); `pass` is read by the Blokus notation. A triangle is
//! a column (`a`..`z`, then `aa`, `ab`, ...) and a row number from the
//! bottom (no leading zero), case-insensitive.
//!
//! The notation is told the board's edge length (it decides which way each
//! triangle points, so which triangles join), but not the position: it
//! reports text that names no triangle (`not_a_square`), triangles listed
//! twice (`repeated_square`), triangles forming no piece (`not_a_piece`)
//! and names that are not a Trigon piece's or do not match the shape
//! (`wrong_piece_name`). A placement read from a record's movetext is also
//! checked against the hexagon before its shape (`not_a_square`, the
//! engine's own message), so that a move's first error is the first of the
//! spec's list: text that names no triangle, a triangle listed twice, a
//! triangle off the board, triangles forming no piece, the piece name.

use super::board::{Board, Hexagon};
use super::pieces;
use crate::diag::Diag;
use crate::games::blokus::geometry::Placement;
use crate::games::blokus::notation::{
    CellSpans, CellWords, ReadPlacement, check_name, check_shape, named_piece, placement_of,
    check_on_board, read_cells, split_name,
};
use crate::span::Span;

pub use super::board::{column_name, triangle_name};
pub use crate::games::blokus::notation::Cell;

/// Most columns a triangle name can give (`a`..`az`).
pub const MAX_COLUMNS: u16 = 52;
/// Most rows.
pub const MAX_ROWS: u8 = 52;

/// Trigon's words for its cells.
const TRIANGLES: CellWords = CellWords {
    one: "triangle",
    how: "a triangle is a column (a..z, then aa, ab, ...) then a row number from the bottom; triangles are separated by commas without spaces, e.g. I3:r15,s15,t15",
    joined: "a piece's triangles join side to side (triangles touching only at a corner are not connected)",
    shape: "polyiamond",
    set: "Trigon",
    pieces: 22,
    most: pieces::MAX_SIZE,
};

impl ReadPlacement for Board {
    fn read(&self, text: &str, at: usize, whole: Span) -> Result<(Placement, CellSpans), Diag> {
        let g = self.geo();
        read_placement(g, text, at, whole, |cells| {
            check_on_board(cells, |c, r| g.at(i32::from(c), i32::from(r)).is_some(), |cell| {
                off_board(g, cell)
            })
        })
    }
}

/// The message and help for a triangle off the hexagon `g`.
pub fn off_board(g: &Hexagon, (col, row): (u8, u8)) -> (String, String) {
    (
        format!(
            "{} is off the edge-{} Trigon board",
            triangle_name(col, row),
            g.edge
        ),
        row_help(g, row),
    )
}

/// A triangle from its text, `None` when it is not one.
pub fn parse_triangle(text: &str) -> Option<(u8, u8)> {
    let b = text.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let (cols, digits) = b.split_at(letters);
    let col: u16 = match cols {
        [l] => u16::from(l.to_ascii_lowercase() - b'a'),
        [h, l] => {
            (u16::from(h.to_ascii_lowercase() - b'a') + 1) * 26
                + u16::from(l.to_ascii_lowercase() - b'a')
        }
        _ => return None,
    };
    if digits.is_empty() || digits.len() > 2 || digits.first() == Some(&b'0') {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: u8 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    if col >= MAX_COLUMNS || !(1..=MAX_ROWS).contains(&row) {
        return None;
    }
    Some((col as u8, row - 1))
}

/// The triangles written in a placement, names sorted by row then column.
pub fn list(cells: &[(u8, u8)]) -> String {
    let mut sorted: Vec<(u8, u8)> = cells.to_vec();
    sorted.sort_by_key(|&(c, r)| (r, c));
    let names: Vec<String> = sorted.iter().map(|&(c, r)| triangle_name(c, r)).collect();
    names.join(",")
}

fn written(cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().map(|c| triangle_name(c.col, c.row)).collect();
    names.join(",")
}

/// Whether triangles `a` and `b` share a side on the geometry's lattice.
fn joined(g: &Hexagon, a: &Cell, b: &Cell) -> bool {
    let (ax, ar) = (i32::from(a.col), i32::from(a.row));
    let (bx, br) = (i32::from(b.col), i32::from(b.row));
    if ar == br {
        return ax.abs_diff(bx) == 1;
    }
    ax == bx
        && if g.up(ax, ar) {
            br == ar - 1
        } else {
            br == ar + 1
        }
}

/// Number of side-connected groups among the triangles.
fn groups(g: &Hexagon, cells: &[Cell]) -> usize {
    let mut seen = vec![false; cells.len()];
    let mut count = 0;
    for start in 0..cells.len() {
        if seen.get(start) != Some(&false) {
            continue;
        }
        count += 1;
        let mut stack = vec![start];
        if let Some(s) = seen.get_mut(start) {
            *s = true;
        }
        while let Some(i) = stack.pop() {
            let Some(a) = cells.get(i) else { continue };
            for (j, b) in cells.iter().enumerate() {
                if seen.get(j) == Some(&false) && joined(g, a, b) {
                    if let Some(s) = seen.get_mut(j) {
                        *s = true;
                    }
                    stack.push(j);
                }
            }
        }
    }
    count
}

/// Reads one placement token (not `pass`) for the board `g`, its triangles
/// not checked against the hexagon (a setup value's are, with its own
/// message).
pub fn placement(
    g: &Hexagon,
    text: &str,
    at: usize,
    whole: Span,
) -> Result<(Placement, CellSpans), Diag> {
    read_placement(g, text, at, whole, |_| Ok(()))
}

/// Reads one placement token in the order of the spec's errors: text that
/// names no triangle and triangles listed twice, then (`on_board`) a
/// triangle off the hexagon, then triangles that form no piece, then the
/// piece name.
fn read_placement(
    g: &Hexagon,
    text: &str,
    at: usize,
    whole: Span,
    on_board: impl FnOnce(&[Cell]) -> Result<(), Diag>,
) -> Result<(Placement, CellSpans), Diag> {
    let (name, tri_text, tri_at) = split_name(text, at);
    let mut listed: Vec<(u8, u8)> = Vec::new();
    let cells = read_cells(
        tri_text,
        tri_at,
        whole,
        &TRIANGLES,
        parse_triangle,
        triangle_name,
        |col, row| {
            let again = listed.contains(&(col, row));
            listed.push((col, row));
            again
        },
        64,
    )?;
    on_board(&cells)?;
    let tri_span = Span::new(tri_at, tri_text.len());
    check_shape(
        &cells,
        groups(g, &cells),
        tri_span,
        &TRIANGLES,
        triangle_name,
    )?;
    let shift = g.lattice_shift();
    let mut lattice: Vec<(i32, i32)> = cells
        .iter()
        .map(|c| (i32::from(c.col) + shift, i32::from(c.row)))
        .collect();
    pieces::normalise(&mut lattice);
    let norm: Vec<(u8, u8)> = lattice
        .iter()
        .map(|&(x, r)| (x.clamp(0, 255) as u8, r.clamp(0, 255) as u8))
        .collect();
    let Some(orient) = pieces::find(&norm) else {
        // Unreachable for connected sets of 1 to 6 triangles; reported all the same.
        return Err(Diag::error(
            "blokus::not_a_piece",
            format!(
                "the triangles {} form none of the 22 pieces",
                written(&cells)
            ),
        )
        .at(tri_span)
        .label("not a piece"));
    };
    let shape = orient.piece;
    let named = named_piece(
        name,
        whole,
        pieces::by_name,
        &pieces::NAMES,
        "Trigon",
        "triangles",
    )?;
    check_name(
        named,
        pieces::name(shape),
        pieces::name,
        &cells,
        &TRIANGLES,
        triangle_name,
    )?;
    Ok(placement_of(shape, 0, &cells, at))
}

/// The canonical spelling of a placement on `g`: `NAME:` and the triangles
/// sorted by row, then column.
pub fn write_place(g: &Hexagon, id: u16) -> String {
    let Some(pl) = g.place(id) else {
        return String::new();
    };
    let cells: Vec<(u8, u8)> = pl
        .cells()
        .iter()
        .filter_map(|&i| g.cells.get(usize::from(i)).copied())
        .collect();
    format!("{}:{}", pieces::name(pl.piece), list(&cells))
}

/// Which triangles a row has, for a triangle off the hexagon.
pub fn row_help(g: &Hexagon, row: u8) -> String {
    let span = (0..g.width).filter(|&x| g.at(i32::from(x), i32::from(row)).is_some());
    let (first, last) = (span.clone().min(), span.max());
    match (first, last) {
        (Some(a), Some(z)) => format!(
            "row {} runs from {} to {}",
            u32::from(row) + 1,
            triangle_name(a, row),
            triangle_name(z, row)
        ),
        _ => format!("rows run from 1 to {}", g.height),
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{EDGE8, EDGE9};
    use super::*;

    fn read(g: &Hexagon, s: &str) -> Result<String, (String, String)> {
        placement(g, s, 0, Span::new(0, s.len()))
            .map(|(p, _)| {
                crate::games::blokus::notation::write(&crate::games::blokus::Move::Triangle(p))
            })
            .map_err(|d| {
                (
                    d.code.to_string(),
                    d.span.unwrap_or_default().text(s).to_string(),
                )
            })
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(34), "ai");
        assert_eq!(parse_triangle("AI18"), Some((34, 17)));
        assert_eq!(parse_triangle("r15"), Some((17, 14)));
        assert_eq!(parse_triangle("a0"), None);
        assert_eq!(parse_triangle("a01"), None);
        assert_eq!(parse_triangle("abc1"), None);
        assert_eq!(parse_triangle("ba1"), None);
        assert_eq!(parse_triangle("é1"), None);
    }

    #[test]
    fn shapes_depend_on_the_board() {
        // a10 points up on edge 9, so a10 and a9 (below it) join; on edge 8
        // a10 points down and joins a11 instead.
        assert_eq!(read(&EDGE9, "a9,A10").unwrap(), "2:a9,a10");
        assert_eq!(
            read(&EDGE9, "a10,a11").unwrap_err().0,
            "blokus::not_a_piece"
        );
        assert_eq!(read(&EDGE8, "a10,a11").unwrap(), "2:a10,a11");
        assert_eq!(read(&EDGE9, "I3:t15,r15,s15").unwrap(), "I3:r15,s15,t15");
        assert_eq!(read(&EDGE9, "r15").unwrap(), "1:r15");
    }

    #[test]
    fn errors_blame_their_text() {
        let e = |s: &str| read(&EDGE9, s).unwrap_err();
        assert_eq!(e("r15,r0"), ("blokus::not_a_square".into(), "r0".into()));
        assert_eq!(e("r15,"), ("blokus::not_a_square".into(), ",".into()));
        assert_eq!(
            e("r15,s15,R15"),
            ("blokus::repeated_square".into(), "R15".into())
        );
        assert_eq!(
            e("r15,t15"),
            ("blokus::not_a_piece".into(), "r15,t15".into())
        );
        assert_eq!(
            e("a9,b9,c9,d9,e9,f9,g9"),
            ("blokus::not_a_piece".into(), "a9,b9,c9,d9,e9,f9,g9".into())
        );
        assert_eq!(
            e("V3:r15,s15,t15"),
            ("blokus::wrong_piece_name".into(), "V3".into())
        );
        assert_eq!(
            e("A4:r15,s15,t15"),
            ("blokus::wrong_piece_name".into(), "A4".into())
        );
    }
}
