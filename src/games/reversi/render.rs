//! Drawing a Reversi position: terminal text, letter rows, SVG.
//! Letters: `X` black, `O` white, `.` empty.

use super::engine::Position;

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

/// An SVG picture of the board.
pub fn svg(pos: &Position) -> String {
    const CELL: u32 = 40;
    const MARGIN: u32 = 24;
    let size = MARGIN + 8 * CELL + 4;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">\n\
         <rect width=\"{size}\" height=\"{size}\" fill=\"white\"/>\n\
         <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{w}\" height=\"{w}\" fill=\"#2e8b57\" stroke=\"black\"/>\n",
        w = 8 * CELL
    );
    for i in 0..8u32 {
        let p = MARGIN + i * CELL;
        let mid = p + CELL / 2;
        out.push_str(&format!(
            "<text x=\"{mid}\" y=\"16\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n\
             <text x=\"10\" y=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n",
            (b'a' + i as u8) as char,
            mid + 5,
            i + 1
        ));
        out.push_str(&format!(
            "<line x1=\"{p}\" y1=\"{MARGIN}\" x2=\"{p}\" y2=\"{e}\" stroke=\"black\"/>\n\
             <line x1=\"{MARGIN}\" y1=\"{p}\" x2=\"{e}\" y2=\"{p}\" stroke=\"black\"/>\n",
            e = MARGIN + 8 * CELL
        ));
    }
    for sq in 0..64u32 {
        let fill = match cell(pos, sq) {
            'X' => "black",
            'O' => "white",
            _ => continue,
        };
        let cx = MARGIN + (sq % 8) * CELL + CELL / 2;
        let cy = MARGIN + (sq / 8) * CELL + CELL / 2;
        out.push_str(&format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{fill}\" stroke=\"black\"/>\n",
            CELL / 2 - 4
        ));
    }
    out.push_str("</svg>\n");
    out
}
