//! Drawing a Blokus position: terminal text, letter rows, SVG.
//! Letters: `B` blue, `Y` yellow, `R` red, `G` green, `P` purple, `O` orange,
//! `.` empty. Row `N` is drawn at the top, row `1` at the bottom.

use super::board::Board;
use super::{Blokus, Move, Position, unplaced};
use crate::game::Render;
use crate::svg::{Grid, Scene, palette};

type State = super::State<Board>;

impl Render for Blokus {
    const PLOT_UNIT: &'static str = "points";

    fn render(position: &Position, color: bool) -> String {
        each!(position, s => s.text(color))
    }

    fn position_rows(position: &Position) -> Vec<String> {
        each!(position, s => s.rows())
    }

    fn scene(position: &Position, last: Option<&Move>) -> Scene {
        each!(position, s => s.scene(last))
    }
}

/// The drawings of a position on one board.
pub trait Draw {
    /// The board with coordinates, each colour's cells, score and unplaced
    /// pieces, then whose turn it is.
    fn text(&self, color: bool) -> String;
    /// The rows as letters, top row first (`final_position`).
    fn rows(&self) -> Vec<String>;
    /// The board as a picture, `last`'s cells marked.
    fn scene(&self, last: Option<&Move>) -> Scene;
}

impl Draw for State {
    fn text(&self, color: bool) -> String {
        text(self, color)
    }

    fn rows(&self) -> Vec<String> {
        rows(self)
    }

    /// The last move's squares are marked from `a1` row by row.
    fn scene(&self, last: Option<&Move>) -> Scene {
        let cells = match last {
            Some(Move::Square(p)) => p.sorted(),
            _ => Default::default(),
        };
        scene(self, cells.as_slice())
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

fn cell(state: &State, x: u8, y: u8) -> char {
    state.board.at(x, y).map_or('.', |c| letter(state, c))
}

fn ansi(state: &State, c: u8) -> &'static str {
    match state.colour(c) {
        "blue" => "\x1b[1;34m",
        "yellow" => "\x1b[1;33m",
        "red" => "\x1b[1;31m",
        "green" => "\x1b[1;32m",
        "purple" => "\x1b[1;35m",
        _ => "\x1b[1;38;5;208m",
    }
}

/// A colour's fill and the ink of the letter drawn on it (colour-blind safe
/// fills; the letter says the colour anyway).
fn fill(state: &State, c: u8) -> (&'static str, &'static str) {
    match state.colour(c) {
        "blue" => (palette::BLUE, "#fff"),
        "yellow" => (palette::YELLOW, "#000"),
        "red" => (palette::VERMILION, "#fff"),
        "green" => (palette::GREEN, "#fff"),
        "purple" => (palette::PURPLE, "#000"),
        _ => (palette::ORANGE, "#000"),
    }
}

/// The rows as letters, top row (row N) first.
pub fn rows(state: &State) -> Vec<String> {
    let n = state.board.size;
    (0..n)
        .rev()
        .map(|y| (0..n).map(|x| cell(state, x, y)).collect())
        .collect()
}

/// The board with coordinates, then each colour's squares, score and
/// unplaced pieces, then whose turn it is.
pub fn text(state: &State, color: bool) -> String {
    let n = state.board.size;
    let letters: String = (0..n)
        .map(|x| format!(" {}", char::from(b'a' + x)))
        .collect();
    let mut out = format!("   {letters}\n");
    for y in (0..n).rev() {
        out.push_str(&format!("{:>2} ", u32::from(y) + 1));
        for x in 0..n {
            out.push(' ');
            match (color, state.board.at(x, y)) {
                (true, Some(c)) => {
                    out.push_str(ansi(state, c));
                    out.push(letter(state, c));
                    out.push_str("\x1b[0m");
                }
                (true, None) => out.push_str("\x1b[2m.\x1b[0m"),
                (false, c) => out.push(c.map_or('.', |c| letter(state, c))),
            }
        }
        out.push_str(&format!(" {}\n", u32::from(y) + 1));
    }
    out.push_str(&format!("   {letters}\n"));
    for c in state.colours() {
        let used = state.board.placed.used.get(usize::from(c)).copied().unwrap_or(0);
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
            "{name} ({}): {} squares, score {}; {left}\n",
            letter(state, c),
            state.board.squares(c),
            state.colour_score(c)
        ));
    }
    if state.board.is_over() {
        out.push_str("game over\n");
    } else {
        out.push_str(&format!("{} to move\n", state.colour(state.board.to_move)));
    }
    out
}

/// The board as a picture: each square in its colour with the colour's
/// letter, the starting squares still empty marked, the last piece marked.
pub fn scene(state: &State, last: &[(u8, u8)]) -> Scene {
    let n = state.board.size;
    let cell = (440 / u32::from(n).max(1)).clamp(16, 34);
    let mut scene = Scene::new(Grid {
        cols: usize::from(n),
        rows: usize::from(n),
        cell,
        shape: crate::svg::Shape::Squares,
        col_labels: (0..n).map(|x| char::from(b'a' + x).to_string()).collect(),
        row_labels: (0..n)
            .rev()
            .map(|y| (u32::from(y) + 1).to_string())
            .collect(),
        fill: "#f3f3f3",
        line: "#c4c4c4",
    });
    let row = |y: u8| usize::from(n - 1 - y.min(n - 1));
    for c in state.colours() {
        let (f, ink) = fill(state, c);
        let l = letter(state, c).to_string();
        let g = scene.glyph(&l, |s| square(s, f, ink, &l));
        for y in 0..n {
            for x in 0..n {
                if state.board.at(x, y) == Some(c) {
                    scene.set(usize::from(x), row(y), g);
                }
            }
        }
    }
    let starts = mark_starts(state, &mut scene);
    for &(x, y) in last {
        scene.mark_last(usize::from(x), row(y));
    }
    seat_pictures(state, &mut scene);
    if starts {
        scene
            .legend
            .push((start(22, "#777", ""), "starting square".to_string()));
    }
    scene
}

/// Rings on the starting squares still empty; whether there was one.
fn mark_starts(state: &State, scene: &mut Scene) -> bool {
    let n = state.board.size;
    let mut starts = false;
    for c in state.colours() {
        let Some(&(x, y)) = state.board.start.get(usize::from(c)) else {
            continue;
        };
        if x >= n || y >= n || state.board.at(x, y).is_some() {
            continue;
        }
        let (f, _) = fill(state, c);
        let name = format!("start-{}", letter(state, c));
        let l = letter(state, c).to_string();
        let g = scene.glyph(&name, |s| start(s, f, &l));
        scene.set(usize::from(x), usize::from(n - 1 - y.min(n - 1)), g);
        starts = true;
    }
    starts
}

/// Each seat's colours, as the picture and line colour of its plot.
fn seat_pictures(state: &State, scene: &mut Scene) {
    let seats = state.seats().len().max(1);
    for k in 0..seats {
        let mine: Vec<u8> = state
            .colours()
            .filter(|&c| {
                if state.players == 3 && !state.duo {
                    usize::from(c) == k
                } else {
                    usize::from(c) % seats == k
                }
            })
            .collect();
        let mut pic = String::new();
        let w = 14 / mine.len().max(1) as u32;
        for (i, &c) in mine.iter().enumerate() {
            let (f, _) = fill(state, c);
            pic.push_str(&format!(
                "<rect x=\"{}\" y=\"0\" width=\"{w}\" height=\"14\" fill=\"{f}\" stroke=\"#333\"/>",
                i as u32 * w
            ));
        }
        let line = mine
            .first()
            .map_or(palette::BLACK, |&c| match fill(state, c).0 {
                palette::YELLOW => "#b8a800",
                f => f,
            });
        scene.seats.push((pic, line));
    }
}

/// A square of colour `f` with its letter.
fn square(s: u32, f: &str, ink: &str, l: &str) -> String {
    format!(
        "<rect width=\"{s}\" height=\"{s}\" fill=\"{f}\" stroke=\"#333\" stroke-width=\"0.8\"/>{}",
        crate::svg::letter(s, l, ink, s as f32 * 0.42)
            .replace("font-weight=\"bold\" ", "opacity=\"0.6\" ")
    )
}

/// An empty starting square: a ring in the colour that starts there, with its letter.
fn start(s: u32, f: &str, l: &str) -> String {
    let h = s as f32 / 2.0;
    format!(
        "<circle cx=\"{h:.1}\" cy=\"{h:.1}\" r=\"{:.1}\" fill=\"#fff\" stroke=\"{f}\" stroke-width=\"{:.1}\"/>{}",
        h * 0.72,
        (s as f32 * 0.12).max(2.0),
        crate::svg::letter(s, l, "#333", s as f32 * 0.4)
    )
}
