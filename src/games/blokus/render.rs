//! Drawing a Blokus position: terminal text, letter rows, SVG.
//! Letters: `B` blue, `Y` yellow, `R` red, `G` green, `P` purple, `O` orange,
//! `.` empty. Row `N` is drawn at the top, row `1` at the bottom.

use super::State;
use super::pieces;

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

fn fill(state: &State, c: u8) -> &'static str {
    match state.colour(c) {
        "blue" => "#2060d0",
        "yellow" => "#e8c020",
        "red" => "#d03030",
        "green" => "#30a040",
        "purple" => "#8040b0",
        _ => "#f08020",
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
        let used = state.board.used.get(usize::from(c)).copied().unwrap_or(0);
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

/// An SVG picture of the board.
pub fn svg(state: &State) -> String {
    const CELL: u32 = 24;
    const MARGIN: u32 = 24;
    let n = u32::from(state.board.size);
    let side = n * CELL;
    let size = MARGIN + side + 4;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">\n\
         <rect width=\"{size}\" height=\"{size}\" fill=\"white\"/>\n\
         <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{side}\" height=\"{side}\" fill=\"#eeeeee\" stroke=\"black\"/>\n"
    );
    for i in 0..n {
        let mid = MARGIN + i * CELL + CELL / 2;
        out.push_str(&format!(
            "<text x=\"{mid}\" y=\"16\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\">{}</text>\n\
             <text x=\"11\" y=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"12\">{}</text>\n",
            char::from(b'a' + i as u8),
            mid + 4,
            n - i
        ));
    }
    for y in 0..state.board.size {
        for x in 0..state.board.size {
            let px = MARGIN + u32::from(x) * CELL;
            let py = MARGIN + (n - 1 - u32::from(y)) * CELL;
            let f = state.board.at(x, y).map_or("#eeeeee", |c| fill(state, c));
            out.push_str(&format!(
                "<rect x=\"{px}\" y=\"{py}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{f}\" stroke=\"#999999\"/>\n"
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}
