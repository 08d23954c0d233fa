//! Drawing a Trigon position: terminal text, letter rows, SVG.
//!
//! The terminal drawing has one character per triangle column, `△`/`▽` for
//! an empty triangle pointing up/down (`*` an empty starting point), and the
//! colour's letter (`B` `Y` `R` `G`) for a covered one; with colours, covered
//! triangles are `▲`/`▼` in the colour. Row numbers stand on both sides,
//! column names above and below (two lines: `aa`..`ai` are written
//! downwards). Letter rows (`final_position`) are the same grid without the
//! frame: a space off the hexagon, `.` empty, a colour letter.

use super::super::State;
use super::board::{Board, Geometry};
use super::notation;
use super::pieces;

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

/// The rows as letters, top row first.
pub fn rows(state: &State, b: &Board) -> Vec<String> {
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

fn column_lines(g: &Geometry) -> (String, String) {
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
pub fn text(state: &State, b: &Board, color: bool) -> String {
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
    for c in 0..b.colours {
        let used = b.used.get(usize::from(c)).copied().unwrap_or(0);
        let left: Vec<&str> = (0..pieces::PIECES as u8)
            .filter(|p| used & (1 << p) == 0)
            .map(pieces::name)
            .collect();
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

/// An SVG picture of the board: one triangle per cell, side 24.
pub fn svg(state: &State, b: &Board) -> String {
    const SIDE: f64 = 24.0;
    const MARGIN: f64 = 28.0;
    let g = b.geo();
    let h = SIDE * 3f64.sqrt() / 2.0;
    let width = MARGIN * 2.0 + (f64::from(g.width) + 1.0) * SIDE / 2.0;
    let height = MARGIN * 2.0 + f64::from(g.height) * h;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\">\n\
         <rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"white\"/>\n"
    );
    for x in 0..g.width {
        let cx = MARGIN + (f64::from(x) + 1.0) * SIDE / 2.0;
        out.push_str(&format!(
            "<text x=\"{cx:.1}\" y=\"18\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"9\">{}</text>\n",
            notation::column_name(x)
        ));
    }
    for r in 0..g.height {
        let top = MARGIN + f64::from(g.height - 1 - r) * h;
        out.push_str(&format!(
            "<text x=\"12\" y=\"{:.1}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"10\">{}</text>\n",
            top + h / 2.0 + 4.0,
            u32::from(r) + 1
        ));
        for x in 0..g.width {
            let (xi, ri) = (i32::from(x), i32::from(r));
            let Some(i) = g.at(xi, ri) else { continue };
            let cx = MARGIN + (f64::from(x) + 1.0) * SIDE / 2.0;
            let (l, rr, bottom) = (cx - SIDE / 2.0, cx + SIDE / 2.0, top + h);
            let points = if g.up(xi, ri) {
                format!("{l:.1},{bottom:.1} {rr:.1},{bottom:.1} {cx:.1},{top:.1}")
            } else {
                format!("{l:.1},{top:.1} {rr:.1},{top:.1} {cx:.1},{bottom:.1}")
            };
            let f = match b.at(i) {
                Some(c) => fill(state, c),
                None if g.start_bits.has(i) => "#c8c8c8",
                None => "#eeeeee",
            };
            out.push_str(&format!(
                "<polygon points=\"{points}\" fill=\"{f}\" stroke=\"#999999\" stroke-width=\"0.8\"/>\n"
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}
