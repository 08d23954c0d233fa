//! Drawing a Qwirkle position: terminal text, rows of tile codes, SVG.
//!
//! Only the occupied rectangle of the unbounded board is drawn, north at the
//! top: `x` across the top, `y` down the side. A cell is a tile's two-character
//! code (`Rc`) or `..` when empty.

use super::Qwirkle;
use super::board::{Board, COLOUR_NAMES, COLOURS, Tile, code, colour, shape, tiles_of};
use super::engine::{Move, State};
use crate::game::Render;
use crate::svg::{Grid, Scene, palette};

fn cell(board: &Board, x: i64, y: i64) -> String {
    match board.get(x, y) {
        Some(t) => code(t),
        None => "..".to_string(),
    }
}

/// The rows of the occupied rectangle, north first, each the concatenation of
/// its cells (`Rc..Gs`). Empty when the board is.
pub fn rows(board: &Board) -> Vec<String> {
    let Some((x0, x1, y0, y1)) = board.bounds else {
        return Vec::new();
    };
    (y0..=y1)
        .rev()
        .map(|y| (x0..=x1).map(|x| cell(board, x, y)).collect())
        .collect()
}

const ANSI: [&str; 6] = [
    "\x1b[1;31m",       // red
    "\x1b[1;38;5;208m", // orange
    "\x1b[1;33m",       // yellow
    "\x1b[1;32m",       // green
    "\x1b[1;34m",       // blue
    "\x1b[1;35m",       // purple
];

fn paint(t: Tile, color: bool) -> String {
    if color {
        let c = ANSI.get(usize::from(colour(t))).copied().unwrap_or("");
        format!("{c}{}\x1b[0m", code(t))
    } else {
        code(t)
    }
}

/// The board with coordinates, then the scores, the hands when known, the bag.
pub fn text(state: &State, color: bool) -> String {
    let mut out = String::new();
    let board = &state.board;
    if let Some((x0, x1, y0, y1)) = board.bounds {
        let w = (x0..=x1)
            .map(|x| x.to_string().len())
            .max()
            .unwrap_or(2)
            .max(2);
        let lw = [y0.to_string().len(), y1.to_string().len()]
            .into_iter()
            .max()
            .unwrap_or(1);
        let header: Vec<String> = (x0..=x1).map(|x| format!("{x:>w$}")).collect();
        out.push_str(&format!("{} {}\n", " ".repeat(lw), header.join(" ")));
        for y in (y0..=y1).rev() {
            let cells: Vec<String> = (x0..=x1)
                .map(|x| {
                    let pad = " ".repeat(w - 2);
                    match board.get(x, y) {
                        Some(t) => format!("{pad}{}", paint(t, color)),
                        None => format!("{pad}.."),
                    }
                })
                .collect();
            out.push_str(&format!("{y:>lw$} {}\n", cells.join(" ")));
        }
    } else {
        out.push_str("(empty board)\n");
    }
    for p in 0..state.players {
        let score = state.scores.get(p).copied().unwrap_or(0);
        let size = state.hand_size.get(p).copied().unwrap_or(0);
        let hand = match state.hands.get(p).and_then(|h| h.as_ref()) {
            Some(h) if size == 0 || h.iter().all(|&n| n == 0) => "no tiles".to_string(),
            Some(h) => tiles_of(h)
                .into_iter()
                .map(|t| paint(t, color))
                .collect::<Vec<_>>()
                .join(" "),
            None if size == 0 => "no tiles".to_string(),
            None => format!("{size} tiles, not known"),
        };
        let mark = if !state.over && state.to_move == p {
            " (to move)"
        } else {
            ""
        };
        out.push_str(&format!("player{} {score}: {hand}{mark}\n", p + 1));
    }
    let end = if state.over { "; game over" } else { "" };
    out.push_str(&format!("bag: {} tiles{end}\n", state.bag));
    out
}

/// The six colours on black tiles (colour-blind safe; the colour's letter is
/// drawn in a corner too).
const FILL: [&str; 6] = [
    palette::VERMILION,
    palette::ORANGE,
    palette::YELLOW,
    palette::GREEN,
    palette::SKY,
    palette::PURPLE,
];

/// A shape of the given colour centred in a box of side `s`.
fn shape_svg(shape: u8, s: f32, fill: &str) -> String {
    let c = s / 2.0;
    let r = s * 0.3;
    let pts = |p: &[(f32, f32)]| -> String {
        p.iter()
            .map(|(x, y)| format!("{:.1},{:.1}", c + x * r, c + y * r))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match shape {
        0 => format!("<circle cx=\"{c:.1}\" cy=\"{c:.1}\" r=\"{r:.1}\" fill=\"{fill}\"/>"),
        1 => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"/>",
            c - r * 0.85,
            c - r * 0.85,
            r * 1.7,
            r * 1.7
        ),
        2 => format!(
            "<polygon points=\"{}\" fill=\"{fill}\"/>",
            pts(&[(0.0, -1.1), (0.8, 0.0), (0.0, 1.1), (-0.8, 0.0)])
        ),
        3 => {
            let q = r * 0.5;
            let k = r * 0.48;
            format!(
                "<g fill=\"{fill}\"><circle cx=\"{c:.1}\" cy=\"{:.1}\" r=\"{k:.1}\"/><circle cx=\"{c:.1}\" cy=\"{:.1}\" r=\"{k:.1}\"/><circle cx=\"{:.1}\" cy=\"{c:.1}\" r=\"{k:.1}\"/><circle cx=\"{:.1}\" cy=\"{c:.1}\" r=\"{k:.1}\"/><circle cx=\"{c:.1}\" cy=\"{c:.1}\" r=\"{k:.1}\"/></g>",
                c - q,
                c + q,
                c - q,
                c + q
            )
        }
        4 => {
            // criss-cross: an X of four pointed arms
            let mut p = Vec::new();
            for k in 0..4 {
                let a = std::f32::consts::FRAC_PI_4 + k as f32 * std::f32::consts::FRAC_PI_2;
                let b = a + std::f32::consts::FRAC_PI_4;
                p.push((a.cos() * 1.1, a.sin() * 1.1));
                p.push((b.cos() * 0.32, b.sin() * 0.32));
            }
            format!("<polygon points=\"{}\" fill=\"{fill}\"/>", pts(&p))
        }
        _ => {
            // starburst: eight points
            let mut p = Vec::new();
            for k in 0..16 {
                let a = k as f32 * std::f32::consts::PI / 8.0 - std::f32::consts::FRAC_PI_2;
                let m = if k % 2 == 0 { 1.1 } else { 0.5 };
                p.push((a.cos() * m, a.sin() * m));
            }
            format!("<polygon points=\"{}\" fill=\"{fill}\"/>", pts(&p))
        }
    }
}

/// A tile: black, its shape in its colour, its colour's letter in a corner.
fn tile_svg(t: Tile, s: u32) -> String {
    let fill = FILL.get(usize::from(colour(t))).copied().unwrap_or("gray");
    let letter = COLOURS
        .get(usize::from(colour(t)))
        .map_or('?', |&c| c as char);
    let f = s as f32;
    format!(
        "<rect x=\"1\" y=\"1\" width=\"{w}\" height=\"{w}\" rx=\"4\" fill=\"#222\"/>{}<text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"{:.1}\" fill=\"#ddd\" text-anchor=\"end\">{letter}</text>",
        shape_svg(shape(t), f, fill),
        f - 3.0,
        f - 3.0,
        f * 0.24,
        w = s.saturating_sub(2)
    )
}

/// The occupied rectangle as a picture (one empty cell at `0,0` while the
/// board is empty), the tiles of the last turn marked.
pub fn scene(board: &Board, last: &[(i64, i64)], players: usize) -> Scene {
    let (x0, x1, y0, y1) = board.bounds.unwrap_or((0, 0, 0, 0));
    let mut scene = Scene::new(Grid {
        cols: usize::try_from(x1 - x0 + 1).unwrap_or(1),
        rows: usize::try_from(y1 - y0 + 1).unwrap_or(1),
        cell: 36,
        shape: crate::svg::Shape::Squares,
        col_labels: (x0..=x1).map(|x| x.to_string()).collect(),
        row_labels: (y0..=y1).rev().map(|y| y.to_string()).collect(),
        fill: "#f4f1e8",
        line: "#e0dccf",
    });
    let at = |x: i64, y: i64| -> Option<(usize, usize)> {
        Some((
            usize::try_from(x.checked_sub(x0)?).ok()?,
            usize::try_from(y1.checked_sub(y)?).ok()?,
        ))
    };
    if board.bounds.is_some() {
        for y in y0..=y1 {
            for x in x0..=x1 {
                let Some(t) = board.get(x, y) else {
                    continue;
                };
                let g = scene.glyph(&code(t), |s| tile_svg(t, s));
                if let Some((c, r)) = at(x, y) {
                    scene.set(c, r, g);
                }
            }
        }
    }
    for &(x, y) in last {
        if let Some((c, r)) = at(x, y) {
            scene.mark_last(c, r);
        }
    }
    for p in 0..players {
        let colour = palette::SEATS.get(p % 6).copied().unwrap_or(palette::BLACK);
        let pic = format!(
            "<rect width=\"14\" height=\"14\" rx=\"3\" fill=\"{colour}\"/>{}",
            crate::svg::letter(14, &(p + 1).to_string(), "#fff", 10.0)
        );
        scene.seats.push((pic, colour));
    }
    for (k, name) in COLOUR_NAMES.iter().enumerate() {
        let t = (k * 6) as Tile;
        let pic = format!(
            "<rect width=\"22\" height=\"22\" rx=\"3\" fill=\"#222\"/>{}",
            shape_svg(0, 22.0, FILL.get(k).copied().unwrap_or("gray"))
        );
        let l = COLOURS
            .get(usize::from(colour(t)))
            .map_or('?', |&c| c as char);
        scene.legend.push((pic, format!("{l} {name}")));
    }
    scene
}

impl Render for Qwirkle {
    const PLOT_UNIT: &'static str = "points";

    fn render(state: &State, color: bool) -> String {
        text(state, color)
    }

    fn position_rows(state: &State) -> Vec<String> {
        rows(&state.board)
    }

    fn scene(state: &State, last: Option<&Move>) -> Scene {
        let last: Vec<(i64, i64)> = match last {
            Some(Move::Place { tiles, .. }) => tiles
                .iter()
                .map(|t| (i64::from(t.x), i64::from(t.y)))
                .collect(),
            _ => Vec::new(),
        };
        scene(&state.board, &last, state.players)
    }
}
