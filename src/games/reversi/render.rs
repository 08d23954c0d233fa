//! Drawing a Reversi position: terminal text, letter rows, SVG.
//! Letters: `X` black, `O` white, `.` empty.

use super::engine::Position;
use crate::svg::{Grid, Scene};

fn cell(pos: &Position, sq: u32) -> char {
    let bit = 1u64 << sq;
    if pos.black & bit != 0 {
        'X'
    } else if pos.white & bit != 0 {
        'O'
    } else {
        '.'
    }
}

/// Rows `1` to `8`, top to bottom, as letters.
pub fn rows(pos: &Position) -> Vec<String> {
    (0..8)
        .map(|r| (0..8).map(|c| cell(pos, r * 8 + c)).collect())
        .collect()
}

/// The board with coordinates, the disc counts and the side to move.
pub fn text(pos: &Position, color: bool, over: bool) -> String {
    let mut out = String::from("  a b c d e f g h\n");
    for r in 0..8u32 {
        out.push_str(&format!("{} ", r + 1));
        for c in 0..8u32 {
            let ch = cell(pos, r * 8 + c);
            match (color, ch) {
                (true, 'X') => out.push_str("\x1b[1;30;42mX\x1b[0m"),
                (true, 'O') => out.push_str("\x1b[1;97;42mO\x1b[0m"),
                (true, _) => out.push_str("\x1b[32m.\x1b[0m"),
                (false, ch) => out.push(ch),
            }
            out.push(if c < 7 { ' ' } else { '\n' });
        }
    }
    let (b, w) = (pos.black.count_ones(), pos.white.count_ones());
    let turn = if over {
        "game over".to_string()
    } else if pos.black_to_move {
        "black (X) to move".to_string()
    } else {
        "white (O) to move".to_string()
    };
    out.push_str(&format!("black X {b}, white O {w}; {turn}\n"));
    out
}

/// The board as a picture: black and white discs on green, the last disc
/// placed marked.
pub fn scene(pos: &Position, last: Option<u8>) -> Scene {
    let mut scene = Scene::new(Grid {
        cols: 8,
        rows: 8,
        cell: 40,
        shape: crate::svg::Shape::Squares,
        col_labels: (b'a'..=b'h').map(|c| char::from(c).to_string()).collect(),
        row_labels: (1..=8).map(|r: u8| r.to_string()).collect(),
        fill: "#2e8b57",
        line: "#14452a",
    });
    let black = scene.glyph("X", |s| disc(s, "#111", "#000"));
    let white = scene.glyph("O", |s| disc(s, "#f6f6f6", "#000"));
    for sq in 0..64u8 {
        let g = match cell(pos, u32::from(sq)) {
            'X' => black,
            'O' => white,
            _ => continue,
        };
        scene.set(usize::from(sq % 8), usize::from(sq / 8), g);
    }
    if let Some(sq) = last {
        scene.mark_last(usize::from(sq % 8), usize::from(sq / 8));
    }
    scene.seats = vec![
        (disc(14, "#111", "#000"), "#000000"),
        (disc(14, "#f6f6f6", "#000"), "#7a7a7a"),
    ];
    scene
}

/// A disc filling most of a cell of side `s`.
fn disc(s: u32, fill: &str, stroke: &str) -> String {
    let h = s as f32 / 2.0;
    format!(
        "<circle cx=\"{h:.1}\" cy=\"{h:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
        h * 0.82
    )
}
