//! Blokus notation: a move is the comma-separated squares a piece covers, in
//! any order, optionally after a piece name and a colon (`V3:a20,a19,b19`);
//! `pass` (any case) is a pass. Squares are a column letter `a`..`z` and a row
//! `1`..`26` (no leading zero), case-insensitive.
//!
//! The notation knows the 21 shapes but not the board: it reports squares that
//! are no square of any board (`not_a_square`), squares listed twice
//! (`repeated_square`), squares forming no piece (`not_a_piece`) and names
//! that are not a piece's or do not match the shape (`wrong_piece_name`).
//! Squares past the edge of a smaller board are the engine's to report when
//! they form a piece; a movetext placement that is also malformed is
//! checked against its board's size before its shape (`not_a_square`, the
//! engine's message), so a move's first error is the first of the spec's
//! list: no square, a square listed twice, off the board, no piece, the
//! piece name.
//!
//! This file also holds what both boards' notations share: reading `pass`
//! and one placement per token into [`Parsed`] moves with the span of each
//! cell ([`CellSpans`]), the cell-list and shape checks Trigon's reader
//! ([`super::trigon::notation`]) uses too, and the writer, which names a
//! placement's cells with its board's [`Geometry`] (so it needs no Trigon
//! notation: the two notation files do not import each other).

use super::board::{Board, MAX, Place};
use super::geometry::Geometry;
use super::pieces;
use super::{Blokus, Position};
use crate::diag::Diag;
use crate::game::{Notation, Parsed, ParsedMoves};
use crate::record::Token;
use crate::span::Span;

pub use super::board::square_name;
pub use super::engine::{Move, PALETTE};
pub use super::geometry::Placement;

/// One cell of a move as read, with the span of its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
    pub span: Span,
}

/// Where a placement's cells are written, in the order written (the order
/// of [`Placement::cells`]), for the diagnostics that blame one cell: per
/// cell, its byte offset from the start of the move's text and its length
/// (a placement that reads is a few dozen bytes long). Twelve bytes beside
/// each move the driver keeps, where six [`Span`]s would be 96. A cell
/// without a place (a pass's, or one past the end of a text longer than
/// 255 bytes) is blamed as the whole move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellSpans {
    at: [u8; 6],
    len: [u8; 6],
}

impl CellSpans {
    /// The spans of `cells`, for a move whose text starts at `start`.
    fn of_cells(cells: &[Cell], start: usize) -> CellSpans {
        let mut spans = CellSpans::default();
        for (k, c) in cells.iter().enumerate() {
            let at = c.span.offset.checked_sub(start).map(u8::try_from);
            if let (Some(Ok(at)), Ok(len)) = (at, u8::try_from(c.span.length)) {
                spans.set(k, at, len);
            }
        }
        spans
    }

    /// Notes cell `k` at `at` bytes into the move's text, `len` long.
    #[inline]
    fn set(&mut self, k: usize, at: u8, len: u8) {
        if let (Some(a), Some(l)) = (self.at.get_mut(k), self.len.get_mut(k)) {
            *a = at;
            *l = len;
        }
    }

    /// The same spans for a move whose text starts `by` bytes earlier (a
    /// setup edit's placement after its `+blue:`); a cell that no longer
    /// fits is blamed as the whole move.
    fn shifted(mut self, by: usize) -> CellSpans {
        for (at, len) in self.at.iter_mut().zip(self.len.iter_mut()) {
            match u8::try_from(usize::from(*at) + by) {
                Ok(a) => *at = a,
                Err(_) => *len = 0,
            }
        }
        self
    }

    /// The span of the move's cell `index`, given the move's span (which
    /// it is when the cell has none).
    pub fn of(&self, index: u8, move_span: Span) -> Span {
        let k = usize::from(index);
        match (self.at.get(k), self.len.get(k)) {
            (Some(&at), Some(&len)) if len > 0 => {
                Span::new(move_span.offset + usize::from(at), usize::from(len))
            }
            _ => move_span,
        }
    }

    /// The cells of `p` (which these spans are of), each with its span,
    /// given the move's span.
    pub fn cells<'a>(&'a self, p: &'a Placement, move_span: Span) -> impl Iterator<Item = Cell> + 'a {
        p.cells().iter().zip(0u8..).map(move |(&(col, row), k)| Cell {
            col,
            row,
            span: self.of(k, move_span),
        })
    }
}

/// A placement of `piece` (`orient` on the board's piece table) from the
/// cells read from a move whose text starts at `start`, and where each is
/// written.
pub(crate) fn placement_of(
    piece: u8,
    orient: u8,
    cells: &[Cell],
    start: usize,
) -> (Placement, CellSpans) {
    let mut p = Placement {
        piece,
        orient,
        n: 0,
        cells: [(0, 0); 6],
    };
    for (slot, c) in p.cells.iter_mut().zip(cells) {
        *slot = (c.col, c.row);
        p.n += 1;
    }
    (p, CellSpans::of_cells(cells, start))
}

/// Reading a placement's text for a board of one geometry.
pub trait ReadPlacement: Geometry
where
    Self::Place: Send + Sync,
{
    /// A well-formed placement read the short way, `None` for anything
    /// else (then [`ReadPlacement::read`] reads it).
    fn quick(&self, _text: &str, _at: usize) -> Option<(Placement, CellSpans)> {
        None
    }

    /// One placement token (not `pass`) at `at` in the file, `whole` its
    /// span: the placement, or the notation's diagnostic.
    fn read(&self, text: &str, at: usize, whole: Span) -> Result<(Placement, CellSpans), Diag>;
}

impl ReadPlacement for Board {
    #[inline]
    fn quick(&self, text: &str, _at: usize) -> Option<(Placement, CellSpans)> {
        quick(text)
    }

    fn read(&self, text: &str, at: usize, whole: Span) -> Result<(Placement, CellSpans), Diag> {
        read_placement(text, at, whole, |cells| {
            check_on_board(cells, |c, r| c < self.size && r < self.size, |cell| {
                off_board(self.size, cell)
            })
        })
    }
}

/// The message and help for a square off a board of `size` squares a side.
pub fn off_board(size: u8, (col, row): (u8, u8)) -> (String, String) {
    (
        format!("{} is off the {size}x{size} board", square_name(col, row)),
        format!(
            "squares run from a1 to {}",
            square_name(size.saturating_sub(1), size.saturating_sub(1))
        ),
    )
}

/// `blokus::not_a_square` for the first of `cells` that is not on the
/// board (`on`), with the board's message and help for it (`words`).
pub(crate) fn check_on_board(
    cells: &[Cell],
    on: impl Fn(u8, u8) -> bool,
    words: impl Fn((u8, u8)) -> (String, String),
) -> Result<(), Diag> {
    let Some(cell) = cells.iter().find(|c| !on(c.col, c.row)) else {
        return Ok(());
    };
    let (message, help) = words((cell.col, cell.row));
    Err(Diag::error("blokus::not_a_square", message)
        .at(cell.span)
        .label("not on the board")
        .help(help))
}

impl Notation for Blokus {
    type Spans = CellSpans;

    /// The start's board says how to read a placement (squares or
    /// triangles, and which way a triangle points).
    fn parse_moves_into(
        start: &Position,
        tokens: &[Token],
        src: &str,
        moves: &mut Vec<Parsed<Move, CellSpans>>,
    ) -> Option<Diag> {
        each!(start, s => read_moves(&s.board, tokens, src, moves))
    }

    fn write_move(mv: &Move) -> String {
        write(mv)
    }
}

/// The canonical spelling of a placement: `NAME:` and the cells sorted by
/// row, then column (from `a1` row by row).
pub fn write_placement<G: Geometry>(p: &Placement) -> String
where
    G::Place: Send + Sync,
{
    let names: Vec<String> = p
        .sorted()
        .as_slice()
        .iter()
        .map(|&(c, r)| G::cell_name(c, r))
        .collect();
    format!("{}:{}", G::piece_name(p.piece), names.join(","))
}

/// The canonical spelling of a move.
pub fn write(mv: &Move) -> String {
    let cells = |trigon: bool, p: &Placement| {
        if trigon {
            write_placement::<super::trigon::board::Board>(p)
        } else {
            write_placement::<Board>(p)
        }
    };
    let colour = |c: u8| PALETTE.get(usize::from(c)).copied().unwrap_or("?");
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Square(p) => cells(false, p),
        Move::Triangle(p) => cells(true, p),
        Move::Put {
            colour: c,
            trigon,
            place,
        } => format!("+{}:{}", colour(*c), cells(*trigon, place)),
        Move::Take { trigon, place } => format!("-{}", cells(*trigon, place)),
        Move::ToMove(c) => format!(">{}", colour(*c)),
    }
}

/// The colours a setup edit may name on `board`, as [`PALETTE`] entries:
/// Duo's two (a board of two colours), else classic's, as many as the
/// board has.
fn palette_range<G: Geometry>(board: &G) -> std::ops::Range<u8>
where
    G::Place: Send + Sync,
{
    match board.colours() {
        2 if !G::TRIGON => 4..6,
        n => 0..n,
    }
}

/// A setup edit's colour (`blue`, any case) at `at`: its [`PALETTE`]
/// entry, or `blokus::bad_setup`.
fn setup_colour<G: Geometry>(board: &G, name: &str, at: Span) -> Result<u8, Diag>
where
    G::Place: Send + Sync,
{
    let range = palette_range(board);
    let found = range.clone().find(|&c| {
        PALETTE
            .get(usize::from(c))
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    });
    found.ok_or_else(|| {
        let names: Vec<&str> = range.filter_map(|c| PALETTE.get(usize::from(c)).copied()).collect();
        Diag::error(
            "blokus::bad_setup",
            if name.is_empty() {
                "a setup edit names no colour".to_string()
            } else {
                format!("`{name}` is not a colour of this game")
            },
        )
        .at(at)
        .label("not a colour")
        .help(format!(
            "the colours: {}; a setup edit is +colour:piece, -piece or >colour",
            names.join(", ")
        ))
    })
}

/// A setup edit token (`+blue:V3:a20,a19,b19`, `-V3:a20,a19,b19`,
/// `>red`) on `board`, or `None` when the token is none.
fn read_setup<G: ReadPlacement>(board: &G, text: &str, span: Span) -> Option<Result<(Move, CellSpans), Diag>>
where
    G::Place: Send + Sync,
{
    let at = span.offset;
    let trigon = G::TRIGON;
    let placed = |rest: &str, skip: usize| {
        let start = at + skip;
        let read = match board.quick(rest, start) {
            Some(p) => Ok(p),
            None => board.read(rest, start, Span::new(start, rest.len())),
        };
        read.map(|(p, spans)| (p, spans.shifted(skip)))
    };
    let edit = match text.as_bytes().first()? {
        b'+' => {
            let body = text.get(1..).unwrap_or("");
            let Some(k) = body.find(':') else {
                return Some(Err(Diag::error(
                    "blokus::bad_setup",
                    format!("`{text}` puts a piece for no colour"),
                )
                .at(span)
                .label("no colour")
                .help("a piece put on the board is written +colour:piece, e.g. +blue:V3:a20,a19,b19")));
            };
            let name = body.get(..k).unwrap_or("");
            let colour = match setup_colour(board, name, Span::new(at + 1, k)) {
                Ok(c) => c,
                Err(d) => return Some(Err(d)),
            };
            placed(body.get(k + 1..).unwrap_or(""), k + 2).map(|(place, spans)| {
                (
                    Move::Put {
                        colour,
                        trigon,
                        place,
                    },
                    spans,
                )
            })
        }
        b'-' => placed(text.get(1..).unwrap_or(""), 1)
            .map(|(place, spans)| (Move::Take { trigon, place }, spans)),
        b'>' => {
            let name = text.get(1..).unwrap_or("");
            setup_colour(board, name, Span::new(at + 1, name.len()))
                .map(|c| (Move::ToMove(c), CellSpans::default()))
        }
        _ => return None,
    };
    Some(edit)
}

/// A square from its text, `None` when it is not one.
pub fn parse_square(text: &str) -> Option<(u8, u8)> {
    let bytes = text.as_bytes();
    let (&letter, digits) = bytes.split_first()?;
    if !letter.is_ascii_alphabetic() || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    if !digits.iter().all(u8::is_ascii_digit) || digits.first() == Some(&b'0') {
        return None;
    }
    let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    if !(1..=MAX).contains(&row) {
        return None;
    }
    Some((letter.to_ascii_lowercase() - b'a', (row - 1) as u8))
}

fn list(cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().map(|c| square_name(c.col, c.row)).collect();
    names.join(",")
}

/// Number of edge-connected groups among the cells.
fn groups(cells: &[Cell]) -> usize {
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
                let adjacent = a.col.abs_diff(b.col) + a.row.abs_diff(b.row) == 1;
                if adjacent && seen.get(j) == Some(&false) {
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

/// A placement token cut at its optional `NAME:` prefix: the name and its
/// span, the cells' text and where it starts.
pub(crate) fn split_name(text: &str, at: usize) -> (Option<(&str, Span)>, &str, usize) {
    match text.find(':') {
        Some(i) => (
            Some((text.get(..i).unwrap_or(""), Span::new(at, i))),
            text.get(i + 1..).unwrap_or(""),
            at + i + 1,
        ),
        None => (None, text, at),
    }
}

/// The piece a `NAME:` prefix names (`by_name`), or `wrong_piece_name` at it
/// (`set`: "Blokus" or "Trigon", `cells`: what the cells are called).
pub(crate) fn named_piece<'t>(
    name: Option<(&'t str, Span)>,
    whole: Span,
    by_name: fn(&str) -> Option<u8>,
    names: &[&str],
    set: &str,
    cells: &str,
) -> Result<Option<(u8, &'t str, Span)>, Diag> {
    let Some((n, span)) = name else {
        return Ok(None);
    };
    if let Some(p) = by_name(n) {
        return Ok(Some((p, n, span)));
    }
    let span = if span.length == 0 { whole } else { span };
    Err(Diag::error(
        "blokus::wrong_piece_name",
        format!("`{n}` is not the name of a {set} piece"),
    )
    .at(span)
    .label("not a piece name")
    .help(format!(
        "{}piece names: {}; or leave the name out and write only the {cells}",
        if set == "Blokus" {
            String::new()
        } else {
            format!("{set} ")
        },
        names.join(" ")
    )))
}

/// What a board's cells are called in messages, and its pieces' sizes:
/// classic's squares or Trigon's triangles.
pub(crate) struct CellWords {
    /// `square`, `triangle`.
    pub one: &'static str,
    /// How a cell is written (a cell that is not one).
    pub how: &'static str,
    /// How cells join into a piece (a set that is not connected).
    pub joined: &'static str,
    /// The shape word (`polyomino`) and the set (`Blokus`, `Trigon`), with
    /// its number of pieces and most cells a piece has.
    pub shape: &'static str,
    pub set: &'static str,
    pub pieces: usize,
    pub most: usize,
}

/// Classic Blokus's words.
const SQUARES: CellWords = CellWords {
    one: "square",
    how: "a square is a column letter then a row number (a1 is the lower-left corner); squares are separated by commas without spaces, e.g. V3:a20,a19,b19",
    joined: "a piece's squares join edge to edge (squares touching only at a corner are not connected)",
    shape: "polyomino",
    set: "Blokus",
    pieces: 21,
    most: 5,
};

/// Reads the comma-separated cells of a move (`text` at `at` in the file,
/// `whole` the move): each with `parse` (column, row), named by `name` in
/// messages; `seen` says whether a cell was listed before and remembers
/// it. `blokus::not_a_square` for a cell that is not one,
/// `blokus::repeated_square` for one listed twice. Reading stops after
/// `limit` cells (a longer list is no piece, and says so).
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_cells(
    text: &str,
    at: usize,
    whole: Span,
    words: &CellWords,
    parse: impl Fn(&str) -> Option<(u8, u8)>,
    name: impl Fn(u8, u8) -> String,
    mut seen: impl FnMut(u8, u8) -> bool,
    limit: usize,
) -> Result<Vec<Cell>, Diag> {
    let mut cells: Vec<Cell> = Vec::new();
    let mut off = 0usize;
    for part in text.split(',') {
        let span = Span::new(at + off, part.len());
        off += part.len() + 1;
        let Some((col, row)) = parse(part) else {
            let (span, what) = if part.is_empty() {
                (
                    if text.is_empty() {
                        whole
                    } else {
                        Span::new(span.offset.saturating_sub(1), 1)
                    },
                    format!("an empty {}", words.one),
                )
            } else {
                (span, format!("`{part}`"))
            };
            return Err(Diag::error(
                "blokus::not_a_square",
                format!("{what} is not a {}", words.one),
            )
            .at(span)
            .label(format!("not a {}", words.one))
            .help(words.how));
        };
        if seen(col, row) {
            let name = name(col, row);
            return Err(Diag::error(
                "blokus::repeated_square",
                format!("{name} is listed twice in this move"),
            )
            .at(span)
            .label(format!("{name} again"))
            .help(format!("list each {} the piece covers once", words.one)));
        }
        cells.push(Cell { col, row, span });
        if cells.len() > limit {
            break;
        }
    }
    Ok(cells)
}

/// The cells of a move as written, named by `name`.
fn written(cells: &[Cell], name: impl Fn(u8, u8) -> String) -> String {
    let names: Vec<String> = cells.iter().map(|c| name(c.col, c.row)).collect();
    names.join(",")
}

/// `blokus::not_a_piece` for cells (at `span`) in `groups` separate groups,
/// or more than a piece has.
pub(crate) fn check_shape(
    cells: &[Cell],
    groups: usize,
    span: Span,
    words: &CellWords,
    name: impl Fn(u8, u8) -> String,
) -> Result<(), Diag> {
    if groups > 1 {
        return Err(Diag::error(
            "blokus::not_a_piece",
            format!(
                "the {}s {} are not connected: they fall into {groups} separate groups",
                words.one,
                written(cells, &name)
            ),
        )
        .at(span)
        .label("not one piece")
        .help(words.joined));
    }
    if cells.len() > words.most {
        return Err(Diag::error(
            "blokus::not_a_piece",
            format!(
                "the {}s {} form a {}-{} {}, not one of the {} pieces",
                words.one,
                written(cells, &name),
                cells.len(),
                words.one,
                words.shape,
                words.pieces
            ),
        )
        .at(span)
        .label(format!("{} {}s", cells.len(), words.one))
        .help(format!(
            "{} pieces have 1 to {} {}s",
            words.set, words.most, words.one
        )));
    }
    Ok(())
}

/// `blokus::wrong_piece_name` when the move's `NAME:` (`named`: its piece,
/// text and span) is not the piece its cells form (`shape`, named by
/// `piece_name`).
pub(crate) fn check_name(
    named: Option<(u8, &str, Span)>,
    shape: &str,
    piece_name: impl Fn(u8) -> &'static str,
    cells: &[Cell],
    words: &CellWords,
    name: impl Fn(u8, u8) -> String,
) -> Result<(), Diag> {
    let Some((p, written_name, span)) = named else {
        return Ok(());
    };
    if piece_name(p) == shape {
        return Ok(());
    }
    Err(Diag::error(
        "blokus::wrong_piece_name",
        format!(
            "the {}s form the {shape} piece, not the {}",
            words.one,
            piece_name(p)
        ),
    )
    .at(span)
    .label(format!(
        "`{written_name}` does not match the {}s",
        words.one
    ))
    .help(format!(
        "write {shape}:{} or leave the name out",
        written(cells, &name)
    )))
}

/// A well-formed placement read straight from the bytes, without
/// allocating: `None` for anything else (then [`placement`] reads it the
/// long way, which finds and explains the fault).
fn quick(text: &str) -> Option<(Placement, CellSpans)> {
    let bytes = text.as_bytes();
    let (name, mut i) = match memchr::memchr(b':', bytes) {
        Some(k) => (Some(text.get(..k)?), k + 1),
        None => (None, 0),
    };
    let mut cells = [(0u8, 0u8); 6];
    let mut spans = CellSpans::default();
    let mut n = 0;
    loop {
        let letter = *bytes.get(i)?;
        let d1 = *bytes.get(i + 1)?;
        if !letter.is_ascii_alphabetic() || !(b'1'..=b'9').contains(&d1) {
            return None;
        }
        let (row, len) = match bytes.get(i + 2) {
            Some(&d2) if d2.is_ascii_digit() => ((d1 - b'0') * 10 + (d2 - b'0'), 3),
            _ => (d1 - b'0', 2),
        };
        if usize::from(row) > MAX || n == 5 {
            return None;
        }
        *cells.get_mut(n)? = (letter.to_ascii_lowercase() - b'a', row - 1);
        spans.set(n, u8::try_from(i).ok()?, len);
        n += 1;
        i += usize::from(len);
        match bytes.get(i) {
            None => break,
            Some(b',') => i += 1,
            Some(_) => return None,
        }
    }
    let cells_used = cells.get(..n)?;
    let min_c = cells_used.iter().map(|c| c.0).min()?;
    let min_r = cells_used.iter().map(|c| c.1).min()?;
    let mut key = 0u32;
    for &(col, row) in cells_used {
        let (x, y) = (col - min_c, row - min_r);
        if x >= 5 || y >= 5 {
            return None;
        }
        key |= 1 << (5 * y + x);
    }
    // A repeated square shows as fewer bits than cells.
    if key.count_ones() as usize != n {
        return None;
    }
    let place = Place {
        orient: pieces::find(key)? as u8,
        x: min_c,
        y: min_r,
    };
    let piece = place.piece();
    // the name, when written, is the shape's (names differ in any case)
    if name.is_some_and(|n| !pieces::name(piece).eq_ignore_ascii_case(n)) {
        return None;
    }
    let placement = Placement {
        piece,
        orient: place.orient,
        n: n as u8,
        cells,
    };
    Some((placement, spans))
}

/// Reads one placement token (not `pass`), its squares not checked against
/// a board (a setup value's are, with its own message).
pub fn placement(text: &str, at: usize, whole: Span) -> Result<(Placement, CellSpans), Diag> {
    read_placement(text, at, whole, |_| Ok(()))
}

/// Reads one placement token in the order of the spec's errors: text that
/// is no square and squares listed twice, then (`on_board`) a square off
/// the board, then squares that form no piece, then the piece name.
fn read_placement(
    text: &str,
    at: usize,
    whole: Span,
    on_board: impl FnOnce(&[Cell]) -> Result<(), Diag>,
) -> Result<(Placement, CellSpans), Diag> {
    if let Some(p) = quick(text) {
        return Ok(p);
    }
    let (name, squares_text, squares_at) = split_name(text, at);
    let mut seen = [0u32; MAX];
    let cells = read_cells(
        squares_text,
        squares_at,
        whole,
        &SQUARES,
        parse_square,
        square_name,
        |col, row| match seen.get_mut(usize::from(row)) {
            Some(m) => {
                let bit = 1u32 << col;
                let again = *m & bit != 0;
                *m |= bit;
                again
            }
            None => false,
        },
        usize::MAX,
    )?;
    on_board(&cells)?;
    let squares_span = Span::new(squares_at, squares_text.len());
    check_shape(&cells, groups(&cells), squares_span, &SQUARES, square_name)?;
    let min_c = cells.iter().map(|c| c.col).min().unwrap_or(0);
    let min_r = cells.iter().map(|c| c.row).min().unwrap_or(0);
    let norm: Vec<(u8, u8)> = cells
        .iter()
        .map(|c| (c.col - min_c, c.row - min_r))
        .collect();
    let Some(orient) = pieces::find(pieces::key_of(&norm)) else {
        // Unreachable for connected sets of 1 to 5 squares; reported all the same.
        return Err(Diag::error(
            "blokus::not_a_piece",
            format!("the squares {} form none of the 21 pieces", list(&cells)),
        )
        .at(squares_span)
        .label("not a piece"));
    };
    let place = Place {
        orient: orient as u8,
        x: min_c,
        y: min_r,
    };
    let shape = place.piece();
    let named = named_piece(
        name,
        whole,
        pieces::by_name,
        &pieces::NAMES,
        "Blokus",
        "squares",
    )?;
    check_name(
        named,
        pieces::name(shape),
        pieces::name,
        &cells,
        &SQUARES,
        square_name,
    )?;
    Ok(placement_of(shape, place.orient, &cells, at))
}

/// Reads classic's movetext tokens into moves, up to the first malformed one.
pub fn parse(tokens: &[Token], src: &str) -> ParsedMoves<Move, CellSpans> {
    ParsedMoves::read(|moves| read_moves(&Board::classic(), tokens, src, moves))
}

/// Reads the movetext tokens into `moves` (emptied first, its room reused),
/// up to the first malformed one: `pass`, or a placement on `board`'s
/// geometry. Returns the notation error after the moves read, if any.
pub(crate) fn read_moves<G: ReadPlacement>(
    board: &G,
    tokens: &[Token],
    src: &str,
    moves: &mut Vec<Parsed<Move, CellSpans>>,
) -> Option<Diag>
where
    G::Place: Send + Sync,
{
    crate::game::one_move_per_token(
        tokens,
        moves,
        |tok| {
            let (p, parts) = board.quick(tok.text(src), tok.span.offset)?;
            Some((Move::on::<G>(p), parts))
        },
        |tok| {
            let text = tok.text(src);
            if text.eq_ignore_ascii_case("pass") {
                return Ok((Move::Pass, CellSpans::default()));
            }
            if let Some(edit) = read_setup(board, text, tok.span) {
                return edit;
            }
            let (p, parts) = board.read(text, tok.span.offset, tok.span)?;
            Ok((Move::on::<G>(p), parts))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_file;

    fn read(src: &str) -> (Vec<String>, Option<(String, String)>) {
        let games = parse_file(src);
        let g = &games[0];
        let p = parse(&g.tokens, src);
        (
            p.moves.iter().map(|m| write(&m.mv)).collect(),
            p.error.map(|d| {
                (
                    d.code.to_string(),
                    d.span.unwrap_or_default().text(src).to_string(),
                )
            }),
        )
    }

    /// Each cell's span, kept in twelve bytes beside the move, is the
    /// cell's text; a cell without one is blamed as the whole move.
    #[test]
    fn cell_spans_point_at_each_cell() {
        let src = "pass Y:d10,a10,b9,b10,c10";
        let games = parse_file(src);
        let p = parse(&games[0].tokens, src);
        let m = &p.moves[1];
        let texts: Vec<&str> = (0..5).map(|k| m.parts.of(k, m.span).text(src)).collect();
        assert_eq!(texts, ["d10", "a10", "b9", "b10", "c10"]);
        assert_eq!(m.parts.of(5, m.span), m.span);
        assert_eq!(p.moves[0].parts.of(0, p.moves[0].span), p.moves[0].span);
        assert!(std::mem::size_of::<Parsed<Move, CellSpans>>() <= 56);
        let far = Cell {
            col: 0,
            row: 0,
            span: Span::new(300, 2),
        };
        let (_, spans) = placement_of(0, 0, &[far], 0);
        assert_eq!(spans.of(0, Span::new(0, 302)), Span::new(0, 302));
    }

    #[test]
    fn placements_and_passes() {
        assert_eq!(
            read("a20,A19,b19 PASS v3:B1,a1,a2 1:g3 2:C3,b3").0,
            ["V3:a19,b19,a20", "pass", "V3:a1,b1,a2", "1:g3", "2:b3,c3"]
        );
        assert_eq!(read("d7,a7,b6,b7,c7").0, ["Y:b6,a7,b7,c7,d7"]);
        assert_eq!(read("z26").0, ["1:z26"]);
    }

    #[test]
    fn errors_blame_their_text() {
        let e = |s: &str| read(s).1.unwrap();
        assert_eq!(e("a1 b0"), ("blokus::not_a_square".into(), "b0".into()));
        assert_eq!(e("a1,a27"), ("blokus::not_a_square".into(), "a27".into()));
        assert_eq!(e("a1,a01"), ("blokus::not_a_square".into(), "a01".into()));
        assert_eq!(e("a1,"), ("blokus::not_a_square".into(), ",".into()));
        assert_eq!(e("V3:"), ("blokus::not_a_square".into(), "V3:".into()));
        assert_eq!(e("é1"), ("blokus::not_a_square".into(), "é1".into()));
        assert_eq!(
            e("a1,b1,A1"),
            ("blokus::repeated_square".into(), "A1".into())
        );
        assert_eq!(e("a1,b2"), ("blokus::not_a_piece".into(), "a1,b2".into()));
        assert_eq!(
            e("I5:a1,b1,c1,d1,e1,f1"),
            ("blokus::not_a_piece".into(), "a1,b1,c1,d1,e1,f1".into())
        );
        assert_eq!(
            e("L4:a1,b1,c1"),
            ("blokus::wrong_piece_name".into(), "L4".into())
        );
        assert_eq!(e("Q:a1"), ("blokus::wrong_piece_name".into(), "Q".into()));
        assert_eq!(e(":a1"), ("blokus::wrong_piece_name".into(), ":a1".into()));
    }

    #[test]
    fn messages_say_what_the_squares_form() {
        let src = "a1,b1,c1,d1,e1,f1";
        let g = &parse_file(src)[0];
        let d = parse(&g.tokens, src).error.unwrap();
        assert!(d.message.contains("6-square polyomino"), "{}", d.message);
        let src = "a1,c1";
        let g = &parse_file(src)[0];
        let d = parse(&g.tokens, src).error.unwrap();
        assert!(d.message.contains("not connected"), "{}", d.message);
    }
}
