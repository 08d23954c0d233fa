//! Drawing a Deblockle position: terminal text, letter rows, SVG.
//!
//! Each block is drawn by the letter of its top face (`S` star, `P` stop,
//! `C` cross, `X` x, `L` slider, `H` hoops), upper case for gold, lower case
//! for blue; `*` is an empty star space, `.` an empty square. Row 7 (blue's
//! side, north) is at the top.

use super::cube::Orient;
use super::engine::{BLUE, GOLD, Position, SIDES, STARS};
use super::notation::square_name;

fn cell(pos: &Position, sq: u8) -> char {
    match pos.owner(sq) {
        Some(side) => {
            let ch = pos.orient_at(sq).top().letter();
            if side == GOLD {
                ch
            } else {
                ch.to_ascii_lowercase()
            }
        }
        None if STARS & (1u64 << sq) != 0 => '*',
        None => '.',
    }
}

/// Rows `7` to `1`, top to bottom, as letters.
pub fn rows(pos: &Position) -> Vec<String> {
    (0..7u8)
        .rev()
        .map(|r| (0..7u8).map(|c| cell(pos, r * 7 + c)).collect())
        .collect()
}

fn describe(o: Orient) -> String {
    format!(
        "{} up, {} north, {} east",
        o.top().name(),
        o.north().name(),
        o.east().name()
    )
}

/// The board with coordinates, each block's faces, the score and the side to move.
pub fn text(pos: &Position, color: bool, over: bool) -> String {
    let mut out = String::from("  a b c d e f g\n");
    for r in (0..7u8).rev() {
        out.push_str(&format!("{} ", r + 1));
        for c in 0..7u8 {
            let sq = r * 7 + c;
            let ch = cell(pos, sq);
            if color {
                match pos.owner(sq) {
                    Some(GOLD) => out.push_str(&format!("\x1b[1;30;43m{ch}\x1b[0m")),
                    Some(_) => out.push_str(&format!("\x1b[1;97;44m{ch}\x1b[0m")),
                    None if ch == '*' => out.push_str("\x1b[1;33m*\x1b[0m"),
                    None => out.push_str("\x1b[2m.\x1b[0m"),
                }
            } else {
                out.push(ch);
            }
            out.push(' ');
        }
        out.push_str(&format!("{}\n", r + 1));
    }
    out.push_str("  a b c d e f g\n");
    for side in [GOLD, BLUE] {
        for sq in 0..49u8 {
            if pos.owner(sq) == Some(side) {
                out.push_str(&format!(
                    "{} {} {}: {}\n",
                    SIDES[side],
                    square_name(sq),
                    cell(pos, sq),
                    describe(pos.orient_at(sq))
                ));
            }
        }
    }
    let turn = if over {
        "game over".to_string()
    } else {
        format!("{} to move", SIDES[pos.to_move & 1])
    };
    out.push_str(&format!(
        "removed: gold {} of {}, blue {} of {}; {turn}\n",
        pos.removed[GOLD], pos.total[GOLD], pos.removed[BLUE], pos.total[BLUE]
    ));
    out
}

/// An SVG picture of the board.
pub fn svg(pos: &Position) -> String {
    const CELL: u32 = 48;
    const MARGIN: u32 = 24;
    let size = MARGIN + 7 * CELL + 4;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">\n\
         <rect width=\"{size}\" height=\"{size}\" fill=\"white\"/>\n\
         <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{w}\" height=\"{w}\" fill=\"#deb887\" stroke=\"black\"/>\n",
        w = 7 * CELL
    );
    for i in 0..7u32 {
        let p = MARGIN + i * CELL;
        let mid = p + CELL / 2;
        out.push_str(&format!(
            "<text x=\"{mid}\" y=\"16\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n\
             <text x=\"10\" y=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14\">{}</text>\n",
            char::from(b'a' + i as u8),
            mid + 5,
            7 - i
        ));
        out.push_str(&format!(
            "<line x1=\"{p}\" y1=\"{MARGIN}\" x2=\"{p}\" y2=\"{e}\" stroke=\"black\"/>\n\
             <line x1=\"{MARGIN}\" y1=\"{p}\" x2=\"{e}\" y2=\"{p}\" stroke=\"black\"/>\n",
            e = MARGIN + 7 * CELL
        ));
    }
    for sq in 0..49u8 {
        let (c, r) = (u32::from(sq % 7), u32::from(sq / 7));
        let x = MARGIN + c * CELL;
        let y = MARGIN + (6 - r) * CELL;
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        if STARS & (1u64 << sq) != 0 {
            out.push_str(&format!(
                "<text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"32\" fill=\"#b8860b\">&#9733;</text>\n",
                cy + 11
            ));
        }
        let Some(side) = pos.owner(sq) else {
            continue;
        };
        let (fill, ink) = if side == GOLD {
            ("#ffd700", "black")
        } else {
            ("#1e5aa8", "white")
        };
        let o = pos.orient_at(sq);
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{fill}\" stroke=\"black\"/>\n\
             <text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"20\" font-weight=\"bold\" fill=\"{ink}\">{}</text>\n\
             <text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"8\" fill=\"{ink}\">{}</text>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"8\" fill=\"{ink}\">{}</text>\n",
            x + 4,
            y + 4,
            CELL - 8,
            CELL - 8,
            cy + 7,
            o.top().letter(),
            y + 13,
            o.north().letter(),
            x + CELL - 6,
            cy + 3,
            o.east().letter(),
        ));
    }
    out.push_str("</svg>\n");
    out
}
