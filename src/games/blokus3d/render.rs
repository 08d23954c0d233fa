//! Drawing a Blokus 3D position: the top view (each column's top colour
//! letter and height, rank 1 at the bottom), letter rows, SVG.
//! Letters: `B` blue, `Y` yellow, `R` red, `G` green; `..` an empty column,
//! blank where the area has no column.
//!
//! The picture (`show --svg`, the HTML viewer) draws the stack in 3D and the
//! top view beside it. Decisions:
//! - The stack is seen from the corner of file `a` and rank 1 (nearest, at
//!   the bottom): files run up to the right along the near right edge,
//!   ranks up to the left along the near left edge, labelled there, so the
//!   top view's bottom-left corner is the stack's front corner. Cubes are
//!   drawn back to front (`svg::Stack::order`).
//! - Each cube is in its colour's Okabe and Ito colour (the palette every
//!   picture uses; there is no other palette to choose): the top face as
//!   is, the left face at 78 % and the right face at 60 % of its lightness
//!   (every channel scaled: the hue stays). Red and green have about the
//!   same lightness, and protanopes and greyscale prints cannot tell them
//!   apart, so every face carries the colour's letter (the side faces'
//!   letters skewed onto the face).
//! - The last stone's cubes are outlined in magenta on a white halo (the
//!   mark every game uses), and its columns ringed in the top view.
//! - The floor shows every column of the area as a tile; where the limits
//!   differ (a `map:` area) each tile has its limit written on it (hidden
//!   once cubes stand there), else the legend says the one limit. The
//!   stack's frame is as high as the highest limit, so the picture keeps
//!   its size from ply to ply.

use super::Blokus3d;
use super::engine::{Area, Cube, Move, State};
use crate::game::Render;
use crate::svg::{Grid, Scene, Stack, palette};

impl Render for Blokus3d {
    const PLOT_UNIT: &'static str = "points";

    fn render(state: &State, color: bool) -> String {
        text(state, color)
    }

    fn render_levels(state: &State, color: bool) -> Vec<String> {
        levels(state, color)
    }

    fn position_rows(state: &State) -> Vec<String> {
        rows(state)
    }

    /// The cubes of the last stone marked.
    fn scene(state: &State, last: Option<&Move>) -> Scene {
        let last: &[Cube] = match last {
            Some(Move::Place(p)) => p.cubes(),
            _ => &[],
        };
        scene(state, last)
    }
}

/// The letter of colour `c`.
fn letter(state: &State, c: u8) -> char {
    state
        .colour(c)
        .chars()
        .next()
        .map_or('?', |ch| ch.to_ascii_uppercase())
}

fn ansi(c: u8) -> &'static str {
    match c {
        0 => "\x1b[1;34m",
        1 => "\x1b[1;33m",
        2 => "\x1b[1;31m",
        _ => "\x1b[1;32m",
    }
}

fn fill(c: u8) -> (&'static str, &'static str) {
    match c {
        0 => (palette::BLUE, "#fff"),
        1 => (palette::YELLOW, "#000"),
        2 => (palette::VERMILION, "#fff"),
        _ => (palette::GREEN, "#fff"),
    }
}

/// The top view's cell for file `x`, rank `y`: `B3`, `..` or blank.
fn top(state: &State, x: u8, y: u8) -> (String, Option<u8>) {
    let b = &state.board;
    if b.area.limit_at(x, y) == 0 {
        return ("  ".into(), None);
    }
    match b.top(x, y) {
        (Some(c), h) => (format!("{}{h}", letter(state, c)), Some(c)),
        _ => ("..".into(), None),
    }
}

/// The help line naming the area's columns.
pub fn columns_help(area: &Area) -> String {
    format!(
        "the area has {} columns in files a..{} and ranks 1..{}",
        area.columns(),
        char::from(b'a' + area.files.saturating_sub(1)),
        area.ranks
    )
}

/// The top view for a terminal, rank `N` at the top.
pub fn text(state: &State, color: bool) -> String {
    let b = &state.board;
    let a = &*b.area;
    let mut out = String::new();
    for y in (0..a.ranks).rev() {
        out.push_str(&format!("{:>2} ", u32::from(y) + 1));
        for x in 0..a.files {
            let (t, c) = top(state, x, y);
            out.push(' ');
            match c {
                Some(c) if color => out.push_str(&format!("{}{t}\x1b[0m", ansi(c))),
                _ => out.push_str(&t),
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for x in 0..a.files {
        out.push_str(&format!(" {} ", char::from(b'a' + x)));
    }
    out.push('\n');
    if b.is_over() {
        out.push_str("game over\n");
    } else {
        out.push_str(&format!("{} to move\n", state.colour(b.to_move)));
    }
    out
}

/// The top view as rows of two-character cells, top rank first, separated
/// by spaces.
pub fn rows(state: &State) -> Vec<String> {
    let a = &*state.board.area;
    (0..a.ranks)
        .rev()
        .map(|y| {
            (0..a.files)
                .map(|x| top(state, x, y).0)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The position as a picture: the stack in 3D (each cube in its colour with
/// its letter on top, the last stone's cubes outlined, the area's columns and
/// limits on the floor), and beside it the top view (each column in its top
/// colour with the letter and height, the last stone's columns marked).
pub fn scene(state: &State, last: &[Cube]) -> Scene {
    let mut scene = top_view(state, last);
    let stack = stack(state, last, &mut scene);
    scene.stack = Some(stack);
    let mark = crate::svg::cube(10, 12, "#ffffff", "#000", "", true);
    scene.legend.push((
        format!("<g transform=\"translate(1 0)\">{mark}</g>"),
        "last stone".to_string(),
    ));
    scene.legend.push(floor_legend(&state.board.area));
    scene
}

/// The floor's legend: a tile with a limit on it, and what it means (the
/// limit itself when every column has the same).
fn floor_legend(a: &Area) -> (String, String) {
    let mut limits = (0..a.ranks)
        .flat_map(|y| (0..a.files).map(move |x| a.limit_at(x, y)))
        .filter(|&l| l > 0);
    let first = limits.next().unwrap_or(0);
    let same = limits.all(|l| l == first);
    let shown = if same { first } else { 4 };
    let tile = format!(
        "<polygon points=\"1,11 11,6 21,11 11,16\" fill=\"#ececec\" stroke=\"#b4b4b4\"/><text x=\"11\" y=\"14\" font-family=\"sans-serif\" font-size=\"7\" text-anchor=\"middle\" fill=\"#8a8a8a\">{shown}</text>"
    );
    let text = if same {
        format!("floor: the area, {first} cubes high at most")
    } else {
        "floor: how many cubes each column may hold".to_string()
    };
    (tile, text)
}

/// The stack: every cube, in the colour of its stone's owner with the
/// colour's letter on top (the colour-blind palette, and the letter where
/// colours alone would not tell them apart); each face shaded by lightness.
fn stack(state: &State, last: &[Cube], scene: &mut Scene) -> Stack {
    let b = &state.board;
    let a = &*b.area;
    let levels = (0..a.ranks)
        .flat_map(|y| (0..a.files).map(move |x| a.limit_at(x, y)))
        .max()
        .unwrap_or(0)
        .max(1);
    let diag = u32::from(a.files) + u32::from(a.ranks);
    let unit = (280 / diag.max(1)).clamp(8, 24);
    let mut stack = Stack::new(
        usize::from(a.files),
        usize::from(a.ranks),
        usize::from(levels),
        unit,
    );
    stack.file_labels = (0..a.files).map(|x| char::from(b'a' + x).to_string()).collect();
    stack.rank_labels = (0..a.ranks).map(|y| (u32::from(y) + 1).to_string()).collect();
    let (unit, rise) = (stack.unit, stack.rise);
    // each colour's glyph, plain and marked, made the first time it is used
    let mut glyphs: [Option<u16>; 16] = [None; 16];
    for y in 0..a.ranks {
        for x in 0..a.files {
            let column = usize::from(x) + usize::from(a.files) * usize::from(y);
            if let Some(l) = stack.limits.get_mut(column) {
                *l = a.limit_at(x, y);
            }
            for z in 0..b.top(x, y).1 {
                let Some(c) = b.owner(super::engine::col(x, y), z) else {
                    continue;
                };
                let marked = last.contains(&Cube { x, y, z });
                let slot = usize::from(c) * 2 + usize::from(marked);
                let g = match glyphs.get(slot).copied().flatten() {
                    Some(g) => g,
                    None => {
                        let (f, ink) = fill(c);
                        let l = letter(state, c).to_string();
                        let name = format!("cube-{l}{}", if marked { "-last" } else { "" });
                        let g = scene.glyph(&name, |_| {
                            crate::svg::cube(unit, rise, f, ink, &l, marked)
                        });
                        if let Some(s) = glyphs.get_mut(slot) {
                            *s = Some(g);
                        }
                        g
                    }
                };
                stack.set(usize::from(x), usize::from(y), usize::from(z), g);
            }
        }
    }
    stack
}

/// The top view: each column in its top colour with the letter and height,
/// the last stone's columns marked, the seats' pictures.
fn top_view(state: &State, last: &[Cube]) -> Scene {
    let b = &state.board;
    let a = &*b.area;
    let (w, h) = (a.files.max(1), a.ranks.max(1));
    let cell = (300 / u32::from(w.max(h))).clamp(16, 40);
    let mut scene = Scene::new(Grid {
        cols: usize::from(w),
        rows: usize::from(h),
        cell,
        shape: crate::svg::Shape::Squares,
        col_labels: (0..w).map(|x| char::from(b'a' + x).to_string()).collect(),
        row_labels: (0..h)
            .rev()
            .map(|y| (u32::from(y) + 1).to_string())
            .collect(),
        fill: "#f3f3f3",
        line: "#c4c4c4",
    });
    let row = |y: u8| usize::from(h - 1 - y.min(h - 1));
    for y in 0..a.ranks {
        for x in 0..a.files {
            let (t, c) = top(state, x, y);
            let Some(c) = c else { continue };
            let (f, ink) = fill(c);
            let g = scene.glyph(&t, |s| {
                format!(
                    "<rect width=\"{s}\" height=\"{s}\" fill=\"{f}\" stroke=\"#333\" stroke-width=\"0.8\"/>{}",
                    crate::svg::letter(s, &t, ink, s as f32 * 0.38)
                )
            });
            scene.set(usize::from(x), row(y), g);
        }
    }
    let mut marked: Vec<(u8, u8)> = Vec::new();
    for c in last {
        if !marked.contains(&(c.x, c.y)) {
            marked.push((c.x, c.y));
            scene.mark_last(usize::from(c.x), row(c.y));
        }
    }
    // One picture per seat: its colour, or its two colours side by side.
    let seats: Vec<Vec<u8>> = if state.two_colours {
        vec![vec![0, 2], vec![1, 3]]
    } else {
        (0..b.colours).map(|c| vec![c]).collect()
    };
    for mine in seats {
        let w = 14 / mine.len().max(1) as u32;
        let mut pic = String::new();
        for (i, &c) in mine.iter().enumerate() {
            pic.push_str(&format!(
                "<rect x=\"{}\" width=\"{w}\" height=\"14\" fill=\"{}\" stroke=\"#333\"/>",
                i as u32 * w,
                fill(c).0
            ));
        }
        let c = mine.first().copied().unwrap_or(0);
        let line = if c == 1 { "#b8a800" } else { fill(c).0 };
        scene.seats.push((pic, line));
    }
    scene
}

/// Each level's slice for a terminal, bottom first: the colour letter of
/// each cube at that level, `.` for an empty place in a column that reaches
/// it, blank where no column goes that high.
pub fn levels(state: &State, color: bool) -> Vec<String> {
    let b = &state.board;
    let a = &*b.area;
    let top = (0..a.ranks)
        .flat_map(|y| (0..a.files).map(move |x| (x, y)))
        .map(|(x, y)| a.limit_at(x, y))
        .max()
        .unwrap_or(0);
    (0..top)
        .map(|z| {
            let mut out = String::new();
            for y in (0..a.ranks).rev() {
                out.push_str(&format!("{:>2} ", u32::from(y) + 1));
                for x in 0..a.files {
                    out.push(' ');
                    if a.limit_at(x, y) <= z {
                        out.push(' ');
                        continue;
                    }
                    match b.owner(super::engine::col(x, y), z) {
                        Some(c) if color => {
                            out.push_str(&format!("{}{}\x1b[0m", ansi(c), letter(state, c)))
                        }
                        Some(c) => out.push(letter(state, c)),
                        None => out.push('.'),
                    }
                }
                out.push('\n');
            }
            out.push_str("   ");
            for x in 0..a.files {
                out.push_str(&format!(" {}", char::from(b'a' + x)));
            }
            out.push('\n');
            out
        })
        .collect()
}
