//! Blokus's symmetries, on the square board (classic, its other sizes, Duo):
//! those of the eight of the square ([`square_image`]) that map every
//! colour's starting square to that same colour's starting square and the
//! start's pieces (`Setup…` tags) onto pieces of the same colour.
//!
//! Why a symmetry may not relabel the colours: the order of play is fixed
//! by colour (blue, yellow, red, green; purple, orange) and every colour's
//! first piece must cover its own starting square. A board symmetry `g`
//! with colours relabelled by `π` turns the first move, blue's piece on
//! blue's corner, into a piece on `g(blue's corner)` played first, that is
//! by blue again: it is legal only if `g` keeps blue's corner, and so for
//! every colour in turn, so `π` is the identity and `g` keeps every
//! starting square. Hence:
//!
//! - classic (any size, any `Corners` assignment): the four corners each
//!   kept, which only the identity does: no symmetry but the identity;
//! - Duo: `e10` and `j5` both lie on the diagonal from `a14` to `n1`, and
//!   the reflection in that diagonal keeps each of them: two symmetries
//!   (the half turn swaps the two starting points, so it would make orange
//!   move first: not one).
//!
//! Trigon: its six starting points belong to no colour (a first piece
//! covers any of them), so a symmetry needs no relabelling: it must keep
//! the set of starting points and the start's pieces. The hexagon has
//! twelve symmetries and keeps its starting points under all of them. The
//! four that map its rectangle of columns and rows onto itself are
//! numbered as on the square: 4 the mirror top to bottom (row `r` to
//! `2n + 1 - r`, which turns an up triangle into a down one, as the parity
//! of `x + r` says), 5 the mirror left to right (column `x` to `4n - 2 -
//! x`, parity kept), 2 the half turn (both). The other eight shear the
//! columns: 8 to 11 the turns by one, two, four and five sixths, 12 to 15
//! the mirror top to bottom followed by those turns (the mirrors through the
//! corners and the edges' midpoints). They are worked out on the triangles'
//! centres (a column is half a side, a row the triangles' height; an up
//! triangle's centre a third of the way up its row, a down one's two
//! thirds), turned about the hexagon's centre and read back as the
//! triangle whose centre is there.
//!
//! A mapped placement keeps its piece and its orientation number (only its
//! cells are used: the move is written from its piece and sorted cells); a
//! pass maps to a pass.

use super::engine::Move;
use super::trigon::board::Hexagon;
use super::{Blokus, Position};
use crate::game::{Symmetries, Symmetry, square_image, square_symmetries};

/// A map of a board's cells `(column, row)`.
type CellMap<'a> = dyn Fn((u8, u8)) -> Option<(u8, u8)> + 'a;

impl Symmetry for Blokus {
    fn symmetries(start: &Position) -> Symmetries {
        match start {
            Position::Squares(state) => square_board(&state.board),
            Position::Triangles(state) => triangle_board(&state.board),
        }
    }

    /// A placement's image, a setup edit's placement too.
    fn map_move(start: &Position, s: u8, mv: &Move) -> Move {
        let placed = match mv {
            Move::Square(p) => Some((false, p)),
            Move::Triangle(p) => Some((true, p)),
            _ => mv.edit_placement(),
        };
        let (image, p): (&CellMap, _) = match (start, placed) {
            (Position::Squares(state), Some((false, p))) => {
                (&|sq| square_image(s, sq, state.board.size), p)
            }
            (Position::Triangles(state), Some((true, p))) => {
                let geo = state.board.geo();
                (&|t| triangle_image(s, t, geo), p)
            }
            _ => return *mv,
        };
        let mut mapped = *p;
        for cell in mapped.cells.iter_mut().take(usize::from(p.n)) {
            if let Some(to) = image(*cell) {
                *cell = to;
            }
        }
        match *mv {
            Move::Triangle(_) => Move::Triangle(mapped),
            Move::Put { colour, trigon, .. } => Move::Put {
                colour,
                trigon,
                place: mapped,
            },
            Move::Take { trigon, .. } => Move::Take {
                trigon,
                place: mapped,
            },
            _ => Move::Square(mapped),
        }
    }
}

/// The square board's symmetries that keep every colour's starting square
/// and the start's pieces.
fn square_board(board: &super::board::Board) -> Symmetries {
    let n = board.size;
    let colours = usize::from(board.placed.colours);
    let starts_kept = (1..8u8).filter(|&s| {
        board
            .start
            .iter()
            .take(colours)
            .all(|&sq| square_image(s, sq, n) == Some(sq))
    });
    let mask = starts_kept.fold(0, |m, s| m | 1 << s);
    let pieces = square_symmetries(n, |(c, r), (tc, tr)| board.at(c, r) == board.at(tc, tr));
    Symmetries::of(mask & pieces.iter().fold(0, |m, s| m | 1 << s))
}

/// A triangle `(column, row)` of Trigon's board under the symmetry `s`
/// (2 the half turn, 4 top to bottom, 5 left to right, 8 to 15 the ones that
/// shear the columns; the identity for any other number); `None` off the
/// board.
fn triangle_image(s: u8, (x, r): (u8, u8), geo: &Hexagon) -> Option<(u8, u8)> {
    let (width, height) = (geo.width, geo.height);
    if x >= width || r >= height {
        return None;
    }
    let (fx, fr) = (width - 1 - x, height - 1 - r);
    Some(match s {
        2 => (fx, fr),
        4 => (x, fr),
        5 => (fx, r),
        8..=15 => return turned(geo, (x, r), s >= 12, [1, 2, 4, 5][usize::from((s - 8) % 4)]),
        _ => (x, r),
    })
}

/// The triangle whose centre is that of `(x, r)` mirrored top to bottom
/// (when `mirror`) and then turned by `sixths` sixths about the hexagon's
/// centre.
fn turned(geo: &Hexagon, (x, r): (u8, u8), mirror: bool, sixths: u8) -> Option<(u8, u8)> {
    let (x, r) = (i32::from(x), i32::from(r));
    // units: a column is 1 across, a row is 3 up (the centres lie on
    // thirds of a row); a row's height is sqrt(3) columns
    let third = if geo.up(x, r) { 1 } else { 2 };
    let (cx, cy) = (f64::from(geo.width - 1) / 2.0, f64::from(geo.height) * 1.5);
    let px = f64::from(x) - cx;
    let mut py = f64::from(3 * r + third) - cy;
    if mirror {
        py = -py;
    }
    // to lengths in columns, turned, back
    let h = 3f64.sqrt() / 3.0;
    let (a, b) = (px, py * h);
    let angle = f64::from(sixths) * std::f64::consts::FRAC_PI_3;
    let (sin, cos) = angle.sin_cos();
    let (ta, tb) = (a * cos - b * sin, a * sin + b * cos);
    let tx = (ta + cx).round() as i32;
    let t3 = (tb / h + cy).round() as i32;
    let (tr, tthird) = (t3.div_euclid(3), t3.rem_euclid(3));
    let up = match tthird {
        1 => true,
        2 => false,
        _ => return None,
    };
    geo.at(tx, tr)?;
    if geo.up(tx, tr) != up {
        return None;
    }
    Some((u8::try_from(tx).ok()?, u8::try_from(tr).ok()?))
}

/// Trigon's symmetries (of [`triangle_image`]'s) that keep the board's
/// triangles, its starting points and the start's pieces.
fn triangle_board(board: &super::trigon::board::Board) -> Symmetries {
    let geo = board.geo();
    let at = |(x, r): (u8, u8)| geo.at(i32::from(x), i32::from(r));
    let kept = |s: u8| {
        geo.cells.iter().enumerate().all(|(i, &cell)| {
            let Some(to) = triangle_image(s, cell, geo).and_then(at) else {
                return false;
            };
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            geo.start_bits.has(i) == geo.start_bits.has(to) && board.at(i) == board.at(to)
        })
    };
    let all = [2u8, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15];
    Symmetries::of(all.into_iter().filter(|&s| kept(s)).fold(0, |m, s| m | 1 << s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Setup};
    use crate::record::parse_file;

    fn start(tags: &str) -> Position {
        let games = parse_file(tags);
        let tags = games.first().map(|g| g.tags.clone()).unwrap_or_default();
        Blokus::start(&tags).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn classic_has_none_duo_its_diagonal_trigon_its_mirrors() {
        let ids = |tags: &str| Blokus::symmetries(&start(tags)).iter().collect::<Vec<_>>();
        assert_eq!(ids(""), [0]);
        assert_eq!(ids("[Size \"14\"]\n"), [0]);
        assert_eq!(ids("[Corners \"blue a20, yellow t20, red t1, green a1\"]\n"), [0]);
        assert_eq!(ids("[Variant \"duo\"]\n"), [0, 7]);
        let all12 = [0, 2, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15];
        assert_eq!(ids("[Variant \"trigon\"]\n"), all12);
        assert_eq!(ids("[Variant \"trigon\"]\n[Players \"3\"]\n"), all12);
    }

    #[test]
    fn duo_reflection_keeps_the_starting_points() {
        let s = start("[Variant \"duo\"]\n");
        let games = parse_file("[Variant \"duo\"]\n\nV3:e10,f10,f11\n");
        let raw = games.first().unwrap_or_else(|| panic!("a game"));
        let parsed = Blokus::parse_moves_in(&s, &raw.tokens, "[Variant \"duo\"]\n\nV3:e10,f10,f11\n");
        let first = parsed.moves.first().unwrap_or_else(|| panic!("a move"));
        let image = Blokus::map_move(&s, 7, &first.mv);
        assert_eq!(Blokus::write_move(&image), "V3:d9,e9,e10");
    }
}

#[cfg(test)]
mod trigon_tests {
    use super::*;
    use crate::game::{Notation, Position as _, Setup};
    use crate::record::parse_file;

    /// The symmetry that undoes `s`: the turns by a sixth and by five
    /// sixths undo each other, as do two and four sixths; the others are
    /// mirrors or the half turn, each its own inverse.
    fn inverse(s: u8) -> u8 {
        match s {
            8 => 11,
            11 => 8,
            9 => 10,
            10 => 9,
            s => s,
        }
    }

    /// Every first placement's image under each symmetry is a legal first
    /// placement (the starting points are kept), the inverse symmetry gives
    /// the placement back, the twelve images are twelve different
    /// placements for a placement no symmetry keeps, and six turns by a
    /// sixth are the identity.
    #[test]
    fn trigon_images_of_first_moves_are_first_moves() {
        for tags in ["[Variant \"trigon\"]\n", "[Variant \"trigon\"]\n[Players \"3\"]\n"] {
            let games = parse_file(tags);
            let start = Blokus::start(&games[0].tags).unwrap_or_else(|e| panic!("{e:?}"));
            let legal: Vec<String> = start
                .legal_moves()
                .unwrap_or_else(|e| panic!("{e:?}"))
                .map(|m| Blokus::write_move(&m))
                .collect();
            let mut moves = start.legal_moves().unwrap_or_else(|e| panic!("{e:?}"));
            let (mut seen, mut twelve) = (0, 0);
            for mv in moves.by_ref().step_by(97) {
                for s in Blokus::symmetries(&start).iter() {
                    let image = Blokus::map_move(&start, s, &mv);
                    assert!(legal.contains(&Blokus::write_move(&image)), "{tags} {s}");
                    let back = Blokus::map_move(&start, inverse(s), &image);
                    assert_eq!(Blokus::write_move(&back), Blokus::write_move(&mv));
                }
                let images: std::collections::BTreeSet<String> = Blokus::symmetries(&start)
                    .iter()
                    .map(|s| Blokus::write_move(&Blokus::map_move(&start, s, &mv)))
                    .collect();
                twelve += usize::from(images.len() == 12);
                let mut turned = mv;
                for _ in 0..6 {
                    turned = Blokus::map_move(&start, 8, &turned);
                }
                assert_eq!(Blokus::write_move(&turned), Blokus::write_move(&mv));
                seen += 1;
            }
            assert!(seen > 10);
            assert!(twelve > seen / 2, "{twelve} of {seen} placements with twelve images");
        }
    }
}
