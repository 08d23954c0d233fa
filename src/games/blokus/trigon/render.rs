//! Drawing a Trigon position: terminal text, letter rows, SVG.
//!
//! The terminal drawing has one character per triangle column, `△`/`▽` for
//! an empty triangle pointing up/down (`*` an empty starting point), and the
//! colour's letter (`B` `Y` `R` `G`) for a covered one; with colours, covered
//! triangles are `▲`/`▼` in the colour. Row numbers stand on both sides,
//! column names above and below (two lines: `aa`..`ai` are written
//! downwards). Letter rows (`final_position`) are the same grid without the
//! frame: a space off the hexagon, `.` empty, a colour letter.

use super::board::{Board, Hexagon};
use crate::games::blokus::render::Draw;
use crate::games::blokus::{Move, unplaced};
use crate::svg::{Grid, Scene, Shape};

type State = crate::games::blokus::State<Board>;
use super::notation;

fn letter(state: &State, c: u8) -> char {
    state
        .colour(c)
        .chars()
        .next()
        .map_or('?', |ch| ch.to_ascii_uppercase())
}

fn ansi(state: &State, c: u8) -> &'static str {
    match state.colour(c) {
        "blue" => "\x1b[1;34m",
        "yellow" => "\x1b[1;33m",
        "red" => "\x1b[1;31m",
        _ => "\x1b[1;32m",
    }
}

fn fill(state: &State, c: u8) -> &'static str {
    match state.colour(c) {
        "blue" => "#2060d0",
        "yellow" => "#e8c020",
        "red" => "#d03030",
        _ => "#30a040",
    }
}

/// The position as a picture for [`crate::svg`]: real triangles, each
/// colour's letter on its triangles (colour-blind readers), the empty
/// starting points as rings, the last move's triangles marked. `last`: the
/// last placement's triangles as (column, row from the bottom).
pub fn scene(state: &State, last: &[(u8, u8)]) -> Scene {
    let g = state.board.geo();
    let grid = grid(g);
    let outlines = (grid.triangle(true), grid.triangle(false));
    let size = (grid.cell, grid.row_step());
    let mut scene = Scene::new(grid);
    draw_triangles(state, &mut scene, &outlines, size);
    mark_last(g, &mut scene, last, size);
    seat_pictures(state, &mut scene);
    scene.legend.push((
        "<circle cx=\"11\" cy=\"11\" r=\"6\" fill=\"#fff\" stroke=\"#777\" stroke-width=\"2\"/>"
            .into(),
        "starting point".into(),
    ));
    scene
}

/// The row of the picture (top first) of board row `r`.
fn top(g: &Hexagon, r: u8) -> usize {
    usize::from(g.height - 1 - r.min(g.height - 1))
}

/// Where a triangle's letter sits: its centroid, in a cell `w` wide and
/// `h` high.
fn centre(up: bool, (w, h): (u32, u32)) -> (u32, u32) {
    let y = if up { h * 2 / 3 } else { h / 3 };
    (w / 2, y)
}

/// The hexagon's grid: each cell a triangle pointing up or down, or none.
fn grid(g: &Hexagon) -> Grid {
    let (cols, rows) = (usize::from(g.width), usize::from(g.height));
    let mut shape = vec![0u8; cols * rows];
    for x in 0..g.width {
        for r in 0..g.height {
            let (xi, ri) = (i32::from(x), i32::from(r));
            if g.at(xi, ri).is_some() {
                if let Some(k) = shape.get_mut(top(g, r) * cols + usize::from(x)) {
                    *k = if g.up(xi, ri) { 1 } else { 2 };
                }
            }
        }
    }
    Grid {
        cols,
        rows,
        cell: 28,
        shape: Shape::Triangles(shape),
        col_labels: (0..g.width).map(notation::column_name).collect(),
        row_labels: (0..g.height)
            .rev()
            .map(|r| (u32::from(r) + 1).to_string())
            .collect(),
        fill: "#f3f3f3",
        line: "#c4c4c4",
    }
}

/// Each covered triangle in its colour with the colour's letter, the empty
/// starting points as rings (`outlines`: the up and down triangles).
fn draw_triangles(state: &State, scene: &mut Scene, outlines: &(String, String), size: (u32, u32)) {
    let b = &state.board;
    let g = b.geo();
    for x in 0..g.width {
        for r in 0..g.height {
            let (xi, ri) = (i32::from(x), i32::from(r));
            let Some(i) = g.at(xi, ri) else { continue };
            let up = g.up(xi, ri);
            let points = if up { &outlines.0 } else { &outlines.1 };
            let (cx, cy) = centre(up, size);
            let arrow = if up { '^' } else { 'v' };
            let glyph = match b.at(i) {
                Some(c) => {
                    let l = letter(state, c);
                    let f = fill(state, c);
                    let ink = if state.colour(c) == "yellow" { "#222" } else { "#fff" };
                    scene.glyph(&format!("{l}{arrow}"), |_| {
                        format!(
                            "<polygon points=\"{points}\" fill=\"{f}\" stroke=\"#333\" stroke-width=\"0.8\"/>\
                             <text x=\"{cx}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"9\" text-anchor=\"middle\" fill=\"{ink}\" opacity=\"0.7\">{l}</text>",
                            cy + 3
                        )
                    })
                }
                None if g.start_bits.has(i) => scene.glyph(&format!("start{arrow}"), |_| {
                    format!(
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{:.1}\" fill=\"#fff\" stroke=\"#777\" stroke-width=\"2\"/>",
                        f64::from(size.0) * 0.16
                    )
                }),
                None => continue,
            };
            scene.set(usize::from(x), top(g, r), glyph);
        }
    }
}

/// Rings on the last placement's triangles.
fn mark_last(g: &Hexagon, scene: &mut Scene, last: &[(u8, u8)], size: (u32, u32)) {
    for &(x, r) in last {
        let up = g.up(i32::from(x), i32::from(r));
        let (cx, cy) = centre(up, size);
        let arrow = if up { '^' } else { 'v' };
        let mark = scene.glyph(&format!("{}{arrow}", crate::svg::LAST), |_| {
            format!(
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r:.1}\" fill=\"none\" stroke=\"#fff\" stroke-width=\"4\"/>\
                 <circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                crate::svg::palette::MARK,
                r = f64::from(size.0) * 0.2
            )
        });
        if let Some(i) = scene.index(usize::from(x), top(g, r)) {
            scene.marks.push((i, mark));
        }
    }
}

/// Each seat's colours, as the picture and line colour of its plot.
fn seat_pictures(state: &State, scene: &mut Scene) {
    let seats = state.seats().len().max(1);
    for k in 0..seats {
        let mine: Vec<u8> = state
            .colours()
            .filter(|&c| usize::from(c) % seats == k)
            .collect();
        let part = 14 / mine.len().max(1) as u32;
        let pic: String = mine
            .iter()
            .enumerate()
            .map(|(n, &c)| {
                format!(
                    "<rect x=\"{}\" y=\"0\" width=\"{part}\" height=\"14\" fill=\"{}\" stroke=\"#333\"/>",
                    n as u32 * part,
                    fill(state, c)
                )
            })
            .collect();
        let line = mine.first().map_or("#000", |&c| match fill(state, c) {
            "#e8c020" => "#b8a000",
            f => f,
        });
        scene.seats.push((pic, line));
    }
}

/// The rows as letters, top row first.
pub fn rows(state: &State) -> Vec<String> {
    let b = &state.board;
    let g = b.geo();
    (0..g.height)
        .rev()
        .map(|r| {
            (0..g.width)
                .map(|x| match g.at(i32::from(x), i32::from(r)) {
                    None => ' ',
                    Some(i) => b.at(i).map_or('.', |c| letter(state, c)),
                })
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

fn column_lines(g: &Hexagon) -> (String, String) {
    let mut first = String::from("   ");
    let mut second = String::from("   ");
    for x in 0..g.width {
        let name = notation::column_name(x);
        let mut ch = name.chars();
        match (ch.next(), ch.next()) {
            (Some(a), Some(b)) => {
                first.push(a);
                second.push(b);
            }
            (Some(a), None) => {
                first.push(' ');
                second.push(a);
            }
            _ => {}
        }
    }
    (first.trim_end().to_string(), second)
}

/// The board with coordinates, then each colour's triangles, score and
/// unplaced pieces, then whose turn it is.
pub fn text(state: &State, color: bool) -> String {
    let b = &state.board;
    let g = b.geo();
    let (first, second) = column_lines(g);
    let mut out = String::new();
    for line in [&first, &second] {
        if !line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    for r in (0..g.height).rev() {
        out.push_str(&format!("{:>2} ", u32::from(r) + 1));
        for x in 0..g.width {
            let (xi, ri) = (i32::from(x), i32::from(r));
            let Some(i) = g.at(xi, ri) else {
                out.push(' ');
                continue;
            };
            let up = g.up(xi, ri);
            match (b.at(i), color) {
                (Some(c), true) => {
                    out.push_str(ansi(state, c));
                    out.push(if up { '▲' } else { '▼' });
                    out.push_str("\x1b[0m");
                }
                (Some(c), false) => out.push(letter(state, c)),
                (None, _) if g.start_bits.has(i) => out.push('*'),
                (None, true) => {
                    out.push_str("\x1b[2m");
                    out.push(if up { '△' } else { '▽' });
                    out.push_str("\x1b[0m");
                }
                (None, false) => out.push(if up { '△' } else { '▽' }),
            }
        }
        out.push_str(&format!(" {}\n", u32::from(r) + 1));
    }
    for line in [&second, &first] {
        if !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    for c in 0..b.placed.colours {
        let used = b.placed.used.get(usize::from(c)).copied().unwrap_or(0);
        let left = unplaced::<Board>(used);
        let left = if left.is_empty() {
            "all pieces placed".to_string()
        } else {
            format!("left: {}", left.join(" "))
        };
        let name = if color {
            format!("{}{}\x1b[0m", ansi(state, c), state.colour(c))
        } else {
            state.colour(c).to_string()
        };
        out.push_str(&format!(
            "{name} ({}): {} triangles, score {}; {left}\n",
            letter(state, c),
            b.triangles(c),
            state.colour_score(c)
        ));
    }
    if b.is_over() {
        out.push_str("game over\n");
    } else {
        out.push_str(&format!("{} to move\n", state.colour(b.to_move)));
    }
    out
}

impl Draw for State {
    fn text(&self, color: bool) -> String {
        text(self, color)
    }

    fn rows(&self) -> Vec<String> {
        rows(self)
    }

    /// The last move's triangles are marked in the order written.
    fn scene(&self, last: Option<&Move>) -> crate::svg::Scene {
        let last: &[(u8, u8)] = match last {
            Some(Move::Triangle(p)) => p.cells(),
            _ => &[],
        };
        scene(self, last)
    }
}
