//! Drawing a Deblockle position: terminal text, letter rows, SVG.
//!
//! Each block is drawn by the letter of its top face (`S` star, `P` stop,
//! `C` cross, `X` x, `L` slider, `H` hoops), upper case for gold, lower case
//! for blue; `*` is an empty star space, `.` an empty square. Row 7 (blue's
//! side, north) is at the top.

use super::Deblockle;
use super::cube::{Face, Orient};
use super::engine::{BLUE, GOLD, Move, Position, SIDES, STARS, State};
use super::notation::square_name;
use crate::game::Render;
use crate::svg::{Grid, Scene, palette};

impl Render for Deblockle {
    // The plot draws the score, as `score` prints it: blocks removed (the
    // `Result` tag's number, spec deblockle.md).
    const PLOT_UNIT: &'static str = "blocks removed";

    fn render(state: &State, color: bool) -> String {
        text(&state.pos, color, state.pos.is_over())
    }

    fn position_rows(state: &State) -> Vec<String> {
        rows(&state.pos)
    }

    /// The last turn's block marked where it started and where it ended.
    fn scene(state: &State, last: Option<&Move>) -> Scene {
        let (from, to) = match last {
            Some(Move::Turn(t)) => (t.from.index(), t.end().index()),
            _ => (None, None),
        };
        scene(&state.pos, from, to)
    }
}

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

/// A face's symbol centred on `(cx, cy)`, of radius `r`, in `ink`.
pub fn face_svg(face: Face, cx: f32, cy: f32, r: f32, ink: &str) -> String {
    let sw = (r * 0.32).max(1.0);
    let poly = |n: usize, inner: f32, turn: f32| -> String {
        (0..n)
            .map(|k| {
                let a = turn + k as f32 * std::f32::consts::TAU / n as f32;
                let m = if inner > 0.0 && k % 2 == 1 {
                    inner
                } else {
                    1.0
                };
                format!("{:.1},{:.1}", cx + a.cos() * r * m, cy + a.sin() * r * m)
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    match face {
        Face::Star => format!(
            "<polygon points=\"{}\" fill=\"{ink}\"/>",
            poly(10, 0.45, -std::f32::consts::FRAC_PI_2)
        ),
        Face::Stop => format!(
            "<polygon points=\"{}\" fill=\"{ink}\"/>",
            poly(8, 0.0, std::f32::consts::PI / 8.0)
        ),
        Face::Cross => format!(
            "<path d=\"M{:.1} {cy:.1}H{:.1}M{cx:.1} {:.1}V{:.1}\" stroke=\"{ink}\" stroke-width=\"{:.1}\"/>",
            cx - r,
            cx + r,
            cy - r,
            cy + r,
            sw * 1.3
        ),
        Face::X => {
            let d = r * 0.8;
            format!(
                "<path d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\" stroke=\"{ink}\" stroke-width=\"{:.1}\"/>",
                cx - d,
                cy - d,
                cx + d,
                cy + d,
                cx - d,
                cy + d,
                cx + d,
                cy - d,
                sw * 1.3
            )
        }
        Face::Slider => {
            // arrows to the four sides
            let h = r * 0.42;
            let a = r - h;
            format!(
                "<path d=\"M{:.1} {cy:.1}H{:.1}M{cx:.1} {:.1}V{:.1}\" stroke=\"{ink}\" stroke-width=\"{:.1}\"/>\
                 <path d=\"M{cx:.1} {:.1}l{h:.1} {h:.1}h{:.1}zM{cx:.1} {:.1}l{h:.1} {:.1}h{:.1}zM{:.1} {cy:.1}l{:.1} {h:.1}v{:.1}zM{:.1} {cy:.1}l{h:.1} {h:.1}v{:.1}z\" fill=\"{ink}\"/>",
                cx - a,
                cx + a,
                cy - a,
                cy + a,
                sw * 0.7,
                cy - r,
                -2.0 * h,
                cy + r,
                -h,
                -2.0 * h,
                cx + r,
                -h,
                -2.0 * h,
                cx - r,
                -2.0 * h,
            )
        }
        Face::Hoops => format!(
            "<g fill=\"none\" stroke=\"{ink}\" stroke-width=\"{:.1}\"><circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\"/><circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\"/></g>",
            sw * 0.8,
            cx - r * 0.38,
            r * 0.55,
            cx + r * 0.38,
            r * 0.55
        ),
    }
}

/// A block: the top face large in the middle, the four side faces small
/// toward their sides (north up), on the side's colour.
fn block_svg(side: usize, o: Orient, s: u32) -> String {
    let (fill, ink) = if side == GOLD {
        (palette::ORANGE, "#000")
    } else {
        (palette::BLUE, "#fff")
    };
    let f = s as f32;
    let c = f / 2.0;
    let small = f * 0.085;
    let near = f * 0.2;
    let mut out = format!(
        "<rect x=\"3\" y=\"3\" width=\"{w:.1}\" height=\"{w:.1}\" rx=\"{:.1}\" fill=\"{fill}\" stroke=\"#000\"/>",
        f * 0.12,
        w = f - 6.0
    );
    out.push_str(&face_svg(o.top(), c, c, f * 0.2, ink));
    out.push_str(&face_svg(o.north(), c, near, small, ink));
    out.push_str(&face_svg(o.north().opposite(), c, f - near, small, ink));
    out.push_str(&face_svg(o.east(), f - near, c, small, ink));
    out.push_str(&face_svg(o.east().opposite(), near, c, small, ink));
    out
}

/// An empty star space, outlined in the colour of the side whose home it is.
fn star_space(side: usize, s: u32) -> String {
    let colour = if side == GOLD {
        palette::ORANGE
    } else {
        palette::BLUE
    };
    let f = s as f32;
    let star = face_svg(Face::Star, f / 2.0, f / 2.0 + 1.0, f * 0.36, "#fff8d8");
    star.replace(
        "/>",
        &format!(" stroke=\"{colour}\" stroke-width=\"2.5\"/>"),
    )
}

/// The board as a picture: blocks drawn with their faces as symbols, the
/// empty star spaces marked, the last turn's start and end marked.
pub fn scene(pos: &Position, from: Option<u8>, to: Option<u8>) -> Scene {
    let mut scene = Scene::new(Grid {
        cols: 7,
        rows: 7,
        cell: 56,
        shape: crate::svg::Shape::Squares,
        col_labels: (b'a'..=b'g').map(|c| char::from(c).to_string()).collect(),
        row_labels: (1..=7u8).rev().map(|r| r.to_string()).collect(),
        fill: "#eedcb3",
        line: "#9c7c45",
    });
    let place = |sq: u8| (usize::from(sq % 7), usize::from(6 - (sq / 7).min(6)));
    for sq in 0..49u8 {
        let (c, r) = place(sq);
        match pos.owner(sq) {
            Some(side) => {
                let o = pos.orient_at(sq);
                let name = format!(
                    "{}{}{}",
                    cell(pos, sq),
                    o.north().letter(),
                    o.east().letter()
                );
                let g = scene.glyph(&name, |s| block_svg(side, o, s));
                scene.set(c, r, g);
            }
            None if STARS & (1u64 << sq) != 0 => {
                // d2 is gold's home star, d6 blue's
                let side = if sq < 21 { GOLD } else { BLUE };
                let g = scene.glyph(&format!("*{}", SIDES[side]), |s| star_space(side, s));
                scene.set(c, r, g);
            }
            None => {}
        }
    }
    if let Some(sq) = from {
        let (c, r) = place(sq);
        scene.mark_from(c, r);
    }
    if let Some(sq) = to {
        let (c, r) = place(sq);
        scene.mark_last(c, r);
    }
    for side in [GOLD, BLUE] {
        let (fill, colour) = if side == GOLD {
            (palette::ORANGE, "#b07800")
        } else {
            (palette::BLUE, palette::BLUE)
        };
        scene.seats.push((
            format!("<rect width=\"14\" height=\"14\" rx=\"3\" fill=\"{fill}\" stroke=\"#000\"/>"),
            colour,
        ));
    }
    for face in [
        Face::Star,
        Face::Stop,
        Face::Cross,
        Face::X,
        Face::Slider,
        Face::Hoops,
    ] {
        let pic = format!(
            "<rect x=\"1\" y=\"1\" width=\"20\" height=\"20\" rx=\"3\" fill=\"#fff\" stroke=\"#888\"/>{}",
            face_svg(face, 11.0, 11.0, 7.0, "#000")
        );
        scene.legend.push((pic, face.name().to_string()));
    }
    scene
        .legend
        .push((star_space(GOLD, 22), "d2 gold's home star".to_string()));
    scene
        .legend
        .push((star_space(BLUE, 22), "d6 blue's home star".to_string()));
    scene
}
