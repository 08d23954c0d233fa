//! Drawing a Reversi position of any size: terminal text, letter rows, SVG.
//! Letters: `X` black, `O` white, `.` empty.

use super::Reversi;
use super::engine::{Move, State};
use crate::game::Render;
use crate::svg::{Grid, Scene};

impl Render for Reversi {
    const PLOT_UNIT: &'static str = "discs";

    fn render(state: &State, color: bool) -> String {
        let to_move = (!state.over).then_some(state.black_to_move());
        text(state, color, state.counts(), to_move)
    }

    fn position_rows(state: &State) -> Vec<String> {
        rows(state)
    }

    fn scene(state: &State, last: Option<&Move>) -> Scene {
        let last = match last {
            Some(Move::Place(sq)) => Some((sq / 8, sq % 8)),
            Some(Move::At(sq)) => Some((sq / 16, sq % 16)),
            _ => None,
        };
        scene(state, last)
    }
}

/// What the pictures need of a position: its side and each cell's letter.
pub trait Cells {
    /// The board's side (4 to 16).
    fn size(&self) -> u8;
    /// `X`, `O` or `.` at (row, column), both from 0.
    fn cell(&self, row: u8, col: u8) -> char;
}

impl Cells for State {
    fn size(&self) -> u8 {
        State::size(self)
    }

    fn cell(&self, row: u8, col: u8) -> char {
        match self.disc(row, col) {
            Some(true) => 'X',
            Some(false) => 'O',
            None => '.',
        }
    }
}

/// Rows `1` to `N`, top to bottom, as letters.
pub fn rows(pos: &impl Cells) -> Vec<String> {
    let n = pos.size();
    (0..n)
        .map(|r| (0..n).map(|c| pos.cell(r, c)).collect())
        .collect()
}

fn col_name(c: u8) -> char {
    char::from(b'a' + c)
}

/// The board with coordinates, the disc counts and the side to move
/// (`None` once the game is over).
pub fn text(pos: &impl Cells, color: bool, counts: (u32, u32), to_move: Option<bool>) -> String {
    let n = pos.size();
    // row numbers right-aligned to the widest one
    let width = if n >= 10 { 2 } else { 1 };
    let mut out = " ".repeat(width + 1);
    for c in 0..n {
        out.push(col_name(c));
        out.push(if c + 1 < n { ' ' } else { '\n' });
    }
    for r in 0..n {
        out.push_str(&format!("{:>width$} ", r + 1));
        for c in 0..n {
            let ch = pos.cell(r, c);
            match (color, ch) {
                (true, 'X') => out.push_str("\x1b[1;30;42mX\x1b[0m"),
                (true, 'O') => out.push_str("\x1b[1;97;42mO\x1b[0m"),
                (true, _) => out.push_str("\x1b[32m.\x1b[0m"),
                (false, ch) => out.push(ch),
            }
            out.push(if c + 1 < n { ' ' } else { '\n' });
        }
    }
    let (b, w) = counts;
    let turn = match to_move {
        None => "game over",
        Some(true) => "black (X) to move",
        Some(false) => "white (O) to move",
    };
    out.push_str(&format!("black X {b}, white O {w}; {turn}\n"));
    out
}

/// The board as a picture: black and white discs on green, the last disc
/// placed (row, column) marked.
pub fn scene(pos: &impl Cells, last: Option<(u8, u8)>) -> Scene {
    let n = pos.size();
    let mut scene = Scene::new(Grid {
        cols: usize::from(n),
        rows: usize::from(n),
        cell: 40,
        shape: crate::svg::Shape::Squares,
        col_labels: (0..n).map(|c| col_name(c).to_string()).collect(),
        row_labels: (1..=n).map(|r: u8| r.to_string()).collect(),
        fill: "#2e8b57",
        line: "#14452a",
    });
    let black = scene.glyph("X", |s| disc(s, "#111"));
    let white = scene.glyph("O", |s| disc(s, "#f6f6f6"));
    for r in 0..n {
        for c in 0..n {
            let g = match pos.cell(r, c) {
                'X' => black,
                'O' => white,
                _ => continue,
            };
            scene.set(usize::from(c), usize::from(r), g);
        }
    }
    if let Some((r, c)) = last {
        scene.mark_last(usize::from(c), usize::from(r));
    }
    scene.seats = vec![
        (disc(14, "#111"), "#000000"),
        (disc(14, "#f6f6f6"), "#7a7a7a"),
    ];
    scene
}

/// A disc filling most of a cell of side `s`.
fn disc(s: u32, fill: &'static str) -> String {
    crate::svg::made_once(("disc", fill, s), || {
        let h = s as f32 / 2.0;
        format!(
            "<circle cx=\"{h:.1}\" cy=\"{h:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"#000\"/>",
            h * 0.82
        )
    })
}
