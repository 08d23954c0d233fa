//! Drawing a Qwirkle position: terminal text, rows of tile codes, SVG.
//!
//! Only the occupied rectangle of the unbounded board is drawn, north at the
//! top: `x` across the top, `y` down the side. A cell is a tile's two-character
//! code (`Rc`) or `..` when empty.

use super::State;
use super::engine::{Board, COLOURS, SHAPES, Tile, code, colour, shape, tiles_of};

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

const FILL: [&str; 6] = [
    "#d62728", "#ff7f0e", "#e6c700", "#2ca02c", "#1f77b4", "#8e44ad",
];
const GLYPH: [&str; 6] = [
    "\u{25cf}", "\u{25a0}", "\u{25c6}", "\u{2663}", "\u{2716}", "\u{2738}",
];

/// An SVG picture of the occupied rectangle: black tiles with coloured shapes.
pub fn svg(board: &Board) -> String {
    const CELL: i64 = 36;
    const MARGIN: i64 = 30;
    let (x0, x1, y0, y1) = board.bounds.unwrap_or((0, 0, 0, 0));
    let w = MARGIN + (x1 - x0 + 1) * CELL + 4;
    let h = MARGIN + (y1 - y0 + 1) * CELL + 4;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#f4f1e8\"/>\n"
    );
    for x in x0..=x1 {
        let cx = MARGIN + (x - x0) * CELL + CELL / 2;
        out.push_str(&format!(
            "<text x=\"{cx}\" y=\"18\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\">{x}</text>\n"
        ));
    }
    for y in (y0..=y1).rev() {
        let cy = MARGIN + (y1 - y) * CELL + CELL / 2 + 4;
        out.push_str(&format!(
            "<text x=\"14\" y=\"{cy}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\">{y}</text>\n"
        ));
    }
    if board.bounds.is_some() {
        for y in y0..=y1 {
            for x in x0..=x1 {
                let Some(t) = board.get(x, y) else {
                    continue;
                };
                let px = MARGIN + (x - x0) * CELL;
                let py = MARGIN + (y1 - y) * CELL;
                let fill = FILL.get(usize::from(colour(t))).copied().unwrap_or("gray");
                let glyph = GLYPH.get(usize::from(shape(t))).copied().unwrap_or("?");
                let title = format!(
                    "{}{}",
                    COLOURS
                        .get(usize::from(colour(t)))
                        .map_or('?', |&c| c as char),
                    SHAPES
                        .get(usize::from(shape(t)))
                        .map_or('?', |&c| c as char)
                );
                out.push_str(&format!(
                    "<g><title>{title}@{x},{y}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"#222\"/>\
                     <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"22\" fill=\"{fill}\">{glyph}</text></g>\n",
                    px + 1,
                    py + 1,
                    CELL - 2,
                    CELL - 2,
                    px + CELL / 2,
                    py + CELL / 2 + 8
                ));
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
