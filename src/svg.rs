//! Pictures: the one SVG helper every game's renderer uses.
//!
//! A game turns a position into a [`Scene`]: a board [`Grid`] (size, cell
//! size, coordinate labels, colours), a table of [`Glyph`]s (what can stand on
//! a cell: a disc, a coloured square, a tile, a block, an empty start corner)
//! and the glyph on every cell, plus marks over cells (the last move, where it
//! came from), one swatch per seat and a legend. This module draws every scene
//! the same way: a caption (game, players, ply, side to move, scores), the
//! board with coordinates on all four sides, even margins, the legend.
//!
//! Glyphs are SVG fragments in a cell's own coordinates (`0..cell`), defined
//! once and placed with `<use>`, so a picture stays small and the HTML viewer
//! (`cli/html/`) can draw any game with one generic script: it gets the
//! grid, the glyph table and the cells, never the rules.
//!
//! A board that is not a square grid (Blokus Trigon's triangles) adds a
//! [`Grid`] shape: everything else (glyphs, marks, caption, legend) is shared.
//!
//! A game built in levels (Blokus 3D) adds a [`Stack`]: cubes in columns on a
//! floor, each cube a glyph (its three visible faces, see [`cube`]) at its
//! file, rank and level, drawn in isometric projection back to front, left
//! of the grid, which is then its top view. The HTML viewer gets the stack
//! as it gets the grid: its shape, the glyph of every place, never rules.

use std::fmt::Write as _;

/// Colours readable by colour-blind readers (Okabe and Ito's palette); where
/// colour carries meaning a letter or a shape is drawn on top.
pub mod palette {
    pub const BLACK: &str = "#000000";
    pub const ORANGE: &str = "#E69F00";
    pub const SKY: &str = "#56B4E9";
    pub const GREEN: &str = "#009E73";
    pub const YELLOW: &str = "#F0E442";
    pub const BLUE: &str = "#0072B2";
    pub const VERMILION: &str = "#D55E00";
    pub const PURPLE: &str = "#CC79A7";
    /// The last-move mark.
    pub const MARK: &str = "#C2185B";
    /// Text.
    pub const INK: &str = "#1a1a1a";
    /// Distinct seat colours, in order, for seats with no colour of their own.
    pub const SEATS: [&str; 6] = [BLUE, VERMILION, GREEN, ORANGE, PURPLE, SKY];
}

/// Outer margin, the same on every side.
pub const MARGIN: u32 = 14;
/// The band holding the coordinates around the board, on every side.
pub const LABELS: u32 = 18;
/// The caption's height.
const CAPTION: u32 = 64;
/// A legend row's height and an item's width.
const LEGEND_ROW: u32 = 26;
/// The narrowest legend item.
const LEGEND_ITEM: u32 = 110;
/// The narrowest picture.
const MIN_WIDTH: u32 = 340;
const FONT: &str = "font-family=\"sans-serif\"";

/// The cells' shape.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// Square cells, `cell` pixels a side.
    #[default]
    Squares,
    /// Equilateral triangles of side `cell` (Blokus Trigon): columns half a
    /// side apart, rows a triangle's height apart; per cell (row-major from
    /// the top left) `0` off the board, `1` pointing up, `2` pointing down.
    /// A glyph's box is `cell` wide and [`Grid::row_step`] high.
    Triangles(Vec<u8>),
}

/// A board of cells in rows and columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub cols: usize,
    pub rows: usize,
    /// A cell's side in pixels.
    pub cell: u32,
    pub shape: Shape,
    /// Column labels left to right, row labels top to bottom.
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    /// The board's colour and its lines' colour.
    pub fill: &'static str,
    pub line: &'static str,
}

impl Grid {
    /// How far apart columns are.
    pub fn col_step(&self) -> u32 {
        match self.shape {
            Shape::Squares => self.cell,
            Shape::Triangles(_) => self.cell / 2,
        }
    }

    /// How far apart rows are.
    pub fn row_step(&self) -> u32 {
        match self.shape {
            Shape::Squares => self.cell,
            // a triangle's height, to the pixel
            Shape::Triangles(_) => (self.cell * 866).div_ceil(1000),
        }
    }

    /// The board with its coordinate bands: width and height.
    pub fn size(&self) -> (u32, u32) {
        let extra = match self.shape {
            Shape::Squares => 0,
            Shape::Triangles(_) => self.cell / 2,
        };
        (
            self.cols as u32 * self.col_step() + extra + 2 * LABELS,
            self.rows as u32 * self.row_step() + 2 * LABELS,
        )
    }

    /// The top-left corner of cell `i`'s box (row-major from the top left),
    /// in the board's coordinates.
    pub fn origin(&self, i: usize) -> (u32, u32) {
        let cols = self.cols.max(1);
        (
            LABELS + (i % cols) as u32 * self.col_step(),
            LABELS + (i / cols) as u32 * self.row_step(),
        )
    }

    /// The board without pieces: the surface, the lines, the coordinates on
    /// all four sides.
    pub fn background(&self) -> String {
        match &self.shape {
            Shape::Squares => self.square_background(),
            Shape::Triangles(cells) => self.triangle_background(cells),
        }
    }

    /// The outline of a triangle in a cell's box (`up`: pointing up).
    pub fn triangle(&self, up: bool) -> String {
        let (w, h) = (self.cell, self.row_step());
        let half = w / 2;
        if up {
            format!("{half},0 {w},{h} 0,{h}")
        } else {
            format!("0,0 {w},0 {half},{h}")
        }
    }

    fn triangle_background(&self, cells: &[u8]) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<g fill=\"{}\" stroke=\"{}\" stroke-linejoin=\"round\">",
            self.fill, self.line
        );
        for (i, &kind) in cells.iter().enumerate() {
            if kind == 0 {
                continue;
            }
            let (x, y) = self.origin(i);
            let _ = write!(
                out,
                "<polygon transform=\"translate({x} {y})\" points=\"{}\"/>",
                self.triangle(kind == 1)
            );
        }
        out.push_str("</g>");
        out.push_str(&self.labels(10));
        out
    }

    fn square_background(&self) -> String {
        let (w, h) = self.size();
        let (bw, bh) = (w - 2 * LABELS, h - 2 * LABELS);
        let mut out = format!(
            "<rect x=\"{LABELS}\" y=\"{LABELS}\" width=\"{bw}\" height=\"{bh}\" fill=\"{}\"/>",
            self.fill
        );
        let mut d = String::new();
        for c in 0..=self.cols as u32 {
            let _ = write!(d, "M{} {LABELS}v{bh}", LABELS + c * self.cell);
        }
        for r in 0..=self.rows as u32 {
            let _ = write!(d, "M{LABELS} {}h{bw}", LABELS + r * self.cell);
        }
        let _ = write!(
            out,
            "<path d=\"{d}\" stroke=\"{}\" fill=\"none\"/>",
            self.line
        );
        out.push_str(&self.labels(11));
        out
    }

    /// The coordinates on all four sides: each column's label over the
    /// middle of its cell's box, each row's beside its middle.
    fn labels(&self, size: u32) -> String {
        let (w, h) = self.size();
        let mut out = format!(
            "<g {FONT} font-size=\"{size}\" fill=\"{}\" text-anchor=\"middle\">",
            palette::INK
        );
        let (cs, rs) = (self.col_step(), self.row_step());
        for (c, l) in self.col_labels.iter().enumerate() {
            if l.is_empty() {
                continue;
            }
            let x = LABELS + c as u32 * cs + self.cell / 2;
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"13\">{l}</text><text x=\"{x}\" y=\"{}\">{l}</text>",
                h - 5,
                l = esc(l)
            );
        }
        for (r, l) in self.row_labels.iter().enumerate() {
            let y = LABELS + r as u32 * rs + rs / 2 + 4;
            let _ = write!(
                out,
                "<text x=\"9\" y=\"{y}\">{l}</text><text x=\"{}\" y=\"{y}\">{l}</text>",
                w - 9,
                l = esc(l)
            );
        }
        out.push_str("</g>");
        out
    }
}

/// What can stand on a cell: a name (the game's letter or code, unique within
/// a scene) and an SVG fragment in the cell's coordinates (`0..cell`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glyph {
    pub name: String,
    pub svg: String,
}

/// A position as a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub grid: Grid,
    /// Glyph 0 is the empty cell, drawn as nothing.
    pub glyphs: Vec<Glyph>,
    /// The glyph on each cell, row-major from the top left.
    pub cells: Vec<u16>,
    /// Glyphs drawn over cells: the last move, where it came from.
    pub marks: Vec<(usize, u16)>,
    /// One small picture per seat (in a 14x14 box) for the caption, and the
    /// seat's colour for lines on white (the score plot).
    pub seats: Vec<(String, &'static str)>,
    /// Legend items: a picture in a 22x22 box and its text.
    pub legend: Vec<(String, String)>,
    /// A stack of cubes drawn in 3D beside the grid (games built in
    /// levels); the grid is then its top view.
    pub stack: Option<Stack>,
}

/// The names of the standard marks.
pub const LAST: &str = "last";
pub const FROM: &str = "from";

impl Scene {
    /// An empty board.
    pub fn new(grid: Grid) -> Scene {
        let n = grid.cols * grid.rows;
        Scene {
            grid,
            glyphs: vec![Glyph {
                name: ".".into(),
                svg: String::new(),
            }],
            cells: vec![0; n],
            marks: Vec::new(),
            seats: Vec::new(),
            legend: Vec::new(),
            stack: None,
        }
    }

    /// The glyph named `name`, added with `make`'s picture the first time.
    pub fn glyph(&mut self, name: &str, make: impl FnOnce(u32) -> String) -> u16 {
        if let Some(i) = self.glyphs.iter().position(|g| g.name == name) {
            return i as u16;
        }
        self.glyphs.push(Glyph {
            name: name.to_string(),
            svg: make(self.grid.cell),
        });
        (self.glyphs.len() - 1) as u16
    }

    /// The cell index of column `col`, row `row` (from the top), when on the board.
    pub fn index(&self, col: usize, row: usize) -> Option<usize> {
        (col < self.grid.cols && row < self.grid.rows).then_some(row * self.grid.cols + col)
    }

    /// Puts glyph `g` on a cell (off-board cells are ignored).
    pub fn set(&mut self, col: usize, row: usize, g: u16) {
        if let Some(c) = self.index(col, row).and_then(|i| self.cells.get_mut(i)) {
            *c = g;
        }
    }

    /// Marks a cell of the last move.
    pub fn mark_last(&mut self, col: usize, row: usize) {
        let g = self.glyph(LAST, |cell| ring(cell, false));
        if let Some(i) = self.index(col, row) {
            self.marks.push((i, g));
        }
    }

    /// Marks the cell the last move left.
    pub fn mark_from(&mut self, col: usize, row: usize) {
        let g = self.glyph(FROM, |cell| ring(cell, true));
        if let Some(i) = self.index(col, row) {
            self.marks.push((i, g));
        }
    }
}

/// The gap between a stack and its top view.
pub const STACK_GAP: u32 = 24;

/// Unit cubes stacked in columns on a floor of `files` x `ranks` cells,
/// drawn in isometric projection as seen from the corner of the first file
/// and the first rank (that corner nearest, at the bottom; files run up to
/// the right, ranks up to the left). Each cube is a glyph of the scene (its
/// three visible faces, in a box `2 * unit` wide and `unit + rise` high),
/// placed at its position; cubes are drawn back to front ([`Stack::order`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    pub files: usize,
    pub ranks: usize,
    pub levels: usize,
    /// Half a cube's width on screen (even): one file or rank moves a cube
    /// `unit` across and `unit / 2` up.
    pub unit: u32,
    /// A cube's height on screen.
    pub rise: u32,
    /// Per column (`file + files * rank`, ranks from the front): how many
    /// cubes it may hold; 0: no column there.
    pub limits: Vec<u8>,
    /// File labels from the corner, rank labels from the corner.
    pub file_labels: Vec<String>,
    pub rank_labels: Vec<String>,
    /// The glyph of the cube at `file + files * (rank + ranks * level)`;
    /// 0: no cube.
    pub cubes: Vec<u16>,
}

impl Stack {
    /// An empty stack: floor cells without columns, no cubes.
    pub fn new(files: usize, ranks: usize, levels: usize, unit: u32) -> Stack {
        let unit = (unit & !1).max(2);
        Stack {
            files,
            ranks,
            levels,
            unit,
            rise: unit * 6 / 5,
            limits: vec![0; files * ranks],
            file_labels: Vec::new(),
            rank_labels: Vec::new(),
            cubes: vec![0; files * ranks * levels],
        }
    }

    /// The index of the cube at `file`, `rank`, `level`, when inside.
    pub fn index(&self, file: usize, rank: usize, level: usize) -> Option<usize> {
        (file < self.files && rank < self.ranks && level < self.levels)
            .then_some(file + self.files * (rank + self.ranks * level))
    }

    /// Puts glyph `g` at `file`, `rank`, `level` (outside: ignored).
    pub fn set(&mut self, file: usize, rank: usize, level: usize, g: u16) {
        if let Some(c) = self
            .index(file, rank, level)
            .and_then(|i| self.cubes.get_mut(i))
        {
            *c = g;
        }
    }

    /// The drawing's width and height, with a band for the labels.
    pub fn size(&self) -> (u32, u32) {
        let diag = (self.files + self.ranks) as u32;
        (
            diag * self.unit + 2 * LABELS,
            diag * self.unit / 2 + self.levels as u32 * self.rise + 2 * LABELS,
        )
    }

    /// Where the floor's nearest corner is drawn.
    fn corner(&self) -> (i64, i64) {
        let (a, diag) = (i64::from(self.unit), (self.files + self.ranks) as i64);
        (
            i64::from(LABELS) + self.ranks as i64 * a,
            i64::from(LABELS) + diag * a / 2 + self.levels as i64 * i64::from(self.rise),
        )
    }

    /// The point of the floor's corner at `file`, `rank` (corner
    /// coordinates, 0..=files and 0..=ranks), raised `up` pixels.
    fn point(&self, file: usize, rank: usize, up: i64) -> (i64, i64) {
        let (ox, oy) = self.corner();
        let a = i64::from(self.unit);
        let (x, y) = (file as i64, rank as i64);
        (ox + (x - y) * a, oy - (x + y) * a / 2 - up)
    }

    /// The top-left corner of cube `i`'s box.
    pub fn origin(&self, i: usize) -> (u32, u32) {
        let (files, ranks) = (self.files.max(1), self.ranks.max(1));
        let (x, y, z) = (i % files, i / files % ranks, i / (files * ranks));
        let (px, _) = self.point(x, y + 1, 0);
        let (_, top) = self.point(x + 1, y + 1, (z as i64 + 1) * i64::from(self.rise));
        (px.max(0) as u32, top.max(0) as u32)
    }

    /// The cubes' indices back to front: the columns farthest from the
    /// corner first (by file plus rank, descending; then by file), each
    /// column bottom up. Every cube drawn later is nearer or beside.
    pub fn order(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.cubes.len());
        for s in (0..(self.files + self.ranks).saturating_sub(1)).rev() {
            for x in 0..self.files {
                let Some(y) = s.checked_sub(x).filter(|&y| y < self.ranks) else {
                    continue;
                };
                for z in 0..self.levels {
                    out.extend(self.index(x, y, z));
                }
            }
        }
        out
    }

    /// The floor: one tile per column, with its limit written on it when
    /// the columns' limits differ (one limit for all is for the legend to
    /// say), the file and rank labels along the two near edges.
    pub fn background(&self) -> String {
        let mut out = String::from("<g fill=\"#ececec\" stroke=\"#b4b4b4\" stroke-linejoin=\"round\">");
        let mut numbers = String::new();
        let mut columns = self.limits.iter().filter(|&&l| l > 0);
        let first = columns.next();
        let differ = columns.any(|l| Some(l) != first);
        for y in 0..self.ranks {
            for x in 0..self.files {
                let limit = self.limits.get(x + self.files * y).copied().unwrap_or(0);
                if limit == 0 {
                    continue;
                }
                let p = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)].map(|(x, y)| self.point(x, y, 0));
                let _ = write!(
                    out,
                    "<polygon points=\"{},{} {},{} {},{} {},{}\"/>",
                    p[0].0, p[0].1, p[1].0, p[1].1, p[2].0, p[2].1, p[3].0, p[3].1
                );
                if !differ {
                    continue;
                }
                let (cx, cy) = (p[0].0 + p[2].0, p[0].1 + p[2].1);
                let _ = write!(
                    numbers,
                    "<text x=\"{}\" y=\"{}\">{limit}</text>",
                    cx / 2,
                    cy / 2 + 3
                );
            }
        }
        let _ = write!(
            out,
            "</g><g {FONT} font-size=\"{}\" fill=\"#8a8a8a\" text-anchor=\"middle\">{numbers}</g>",
            (self.unit / 2).clamp(6, 10)
        );
        out.push_str(&self.labels());
        out
    }

    /// Files along the near right edge, ranks along the near left edge;
    /// every other one where cubes are too small for labels side by side.
    fn labels(&self) -> String {
        let mut out = format!(
            "<g {FONT} font-size=\"11\" fill=\"{}\" text-anchor=\"middle\">",
            palette::INK
        );
        let half = i64::from(self.unit / 2);
        let every = if self.unit < 14 { 2 } else { 1 };
        let files = self.file_labels.iter().enumerate().take(self.files);
        for (x, l) in files.step_by(every) {
            let ((x0, y0), (x1, y1)) = (self.point(x, 0, 0), self.point(x + 1, 0, 0));
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                (x0 + x1) / 2 + 7,
                (y0 + y1) / 2 + half.min(8) + 8,
                esc(l)
            );
        }
        let ranks = self.rank_labels.iter().enumerate().take(self.ranks);
        for (y, l) in ranks.step_by(every) {
            let ((x0, y0), (x1, y1)) = (self.point(0, y, 0), self.point(0, y + 1, 0));
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                (x0 + x1) / 2 - 7,
                (y0 + y1) / 2 + half.min(8) + 8,
                esc(l)
            );
        }
        out.push_str("</g>");
        out
    }
}

/// `colour` (`#RRGGBB`) with its lightness scaled by `f` (every channel
/// multiplied: the hue stays); any other colour as it is.
pub fn shade(colour: &str, f: f32) -> String {
    let hex = colour.trim_start_matches('#');
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return colour.to_string();
    }
    let channel = |k: usize| {
        let v = hex
            .get(k..k + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
        (f32::from(v) * f).round().clamp(0.0, 255.0) as u8
    };
    format!("#{:02X}{:02X}{:02X}", channel(0), channel(2), channel(4))
}

/// A cube of a [`Stack`] as a glyph (in its box, `2 * unit` by `unit +
/// rise`): the top face in `fill` with `text` on it in `ink`, the left
/// face darker, the right face darker still, thin dark outlines; `marked`
/// (the last move): magenta outlines on a white halo.
pub fn cube(unit: u32, rise: u32, fill: &str, ink: &str, text: &str, marked: bool) -> String {
    let (a, w, h) = (unit / 2, unit, rise);
    let (top, left, right) = (
        format!("{w},0 {},{a} {w},{w} 0,{a}", 2 * w),
        format!("0,{a} {w},{w} {w},{} 0,{}", w + h, a + h),
        format!("{w},{w} {},{a} {},{} {w},{}", 2 * w, 2 * w, a + h, w + h),
    );
    let stroke = if marked {
        format!(
            "<path d=\"M{w},0L{},{a}V{}L{w},{}L0,{}V{a}ZM0,{a}L{w},{w}L{},{a}M{w},{w}V{}\" fill=\"none\" stroke=\"#fff\" stroke-width=\"4\" stroke-linejoin=\"round\"/>\
             <g fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-linejoin=\"round\"><polygon points=\"{top}\"/><polygon points=\"{left}\"/><polygon points=\"{right}\"/></g>",
            2 * w,
            a + h,
            w + h,
            a + h,
            2 * w,
            w + h,
            palette::MARK
        )
    } else {
        String::new()
    };
    let thin = if marked {
        "stroke=\"none\""
    } else {
        "stroke=\"#222\" stroke-width=\"0.6\" stroke-linejoin=\"round\""
    };
    let (size, side) = ((w as f32 * 0.62).max(6.0), (w as f32 * 0.5).max(5.0));
    let (wf, hf) = (w as f32, h as f32);
    // the letter on each face, the side ones skewed to lie on their face
    format!(
        "<g {thin}><polygon points=\"{top}\" fill=\"{fill}\"/><polygon points=\"{left}\" fill=\"{}\"/><polygon points=\"{right}\" fill=\"{}\"/></g>{stroke}\
         <g {FONT} font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\"><text x=\"{w}\" y=\"{:.1}\" font-size=\"{size:.1}\">{t}</text>\
         <text transform=\"matrix(1 0.5 0 1 0 0)\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{side:.1}\" fill-opacity=\"0.8\">{t}</text>\
         <text transform=\"matrix(1 -0.5 0 1 0 0)\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{side:.1}\" fill-opacity=\"0.8\">{t}</text></g>",
        shade(fill, 0.78),
        shade(fill, 0.6),
        a as f32 + size * 0.36,
        wf / 2.0,
        a as f32 + hf / 2.0 + side * 0.36,
        wf * 1.5,
        wf * 1.5 + hf / 2.0 + side * 0.36,
        t = esc(text)
    )
}

/// The last-move mark: a ring inset in the cell, magenta on a white halo so it
/// shows on every colour; dashed for the square a piece left.
fn ring(cell: u32, dashed: bool) -> String {
    made_once(("ring", if dashed { "dashed" } else { "solid" }, cell), || {
        ring_markup(cell, dashed)
    })
}

/// A glyph's markup, made once per thread for each `key` (what it draws,
/// how, and the cell size): a scene is drawn anew for every position
/// (`html` draws every ply of every game), and formatting the markup's
/// numbers costs more than the rest of the scene.
pub fn made_once(key: (&'static str, &'static str, u32), make: impl FnOnce() -> String) -> String {
    thread_local! {
        static MADE: std::cell::RefCell<std::collections::HashMap<(&'static str, &'static str, u32), String>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    MADE.with(|made| {
        if let Some(markup) = made.borrow().get(&key) {
            return markup.clone();
        }
        let markup = make();
        made.borrow_mut().insert(key, markup.clone());
        markup
    })
}

fn ring_markup(cell: u32, dashed: bool) -> String {
    let s = cell as f32;
    let (x, w) = (s * 0.1, s * 0.8);
    let dash = if dashed {
        format!(" stroke-dasharray=\"{:.1} {:.1}\"", s * 0.12, s * 0.08)
    } else {
        String::new()
    };
    format!(
        "<rect x=\"{x:.1}\" y=\"{x:.1}\" width=\"{w:.1}\" height=\"{w:.1}\" rx=\"{r:.1}\" fill=\"none\" stroke=\"#fff\" stroke-width=\"5\"{dash}/>\
         <rect x=\"{x:.1}\" y=\"{x:.1}\" width=\"{w:.1}\" height=\"{w:.1}\" rx=\"{r:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"{dash}/>",
        palette::MARK,
        r = s * 0.15
    )
}

/// What the caption says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Caption {
    /// Game, variant and players.
    pub title: String,
    /// Ply and side to move (or that the game is over).
    pub status: String,
    /// Each seat's name and score, in seat order.
    pub scores: Vec<(String, i64)>,
}

/// Escapes text for SVG and HTML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

/// `text` cut to about `width` pixels at `size` (a sans-serif estimate), with
/// an ellipsis when cut.
pub fn fit(text: &str, width: u32, size: u32) -> String {
    let max = ((width as f32) / (size as f32 * 0.56)) as usize;
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('\u{2026}');
    out
}

/// The whole picture's size, and where the board goes.
struct Layout {
    width: u32,
    height: u32,
    board_x: u32,
    board_y: u32,
    legend_y: u32,
    per_row: usize,
    item: u32,
}

/// Where the stack and the grid go in the board's area, and its size: the
/// stack (if any) on the left, its top view beside it, centred.
pub struct Placement {
    pub width: u32,
    pub height: u32,
    pub stack: (u32, u32),
    pub grid: (u32, u32),
}

/// The board's area: the grid, or the stack with the grid beside it.
pub fn placement(scene: &Scene) -> Placement {
    let (gw, gh) = scene.grid.size();
    let Some(stack) = &scene.stack else {
        return Placement {
            width: gw,
            height: gh,
            stack: (0, 0),
            grid: (0, 0),
        };
    };
    let (sw, sh) = stack.size();
    let height = sh.max(gh);
    Placement {
        width: sw + STACK_GAP + gw,
        height,
        stack: (0, (height - sh) / 2),
        grid: (sw + STACK_GAP, (height - gh) / 2),
    }
}

fn layout(scene: &Scene, caption: bool) -> Layout {
    let place = placement(scene);
    let (bw, bh) = (place.width, place.height);
    let width = bw.max(MIN_WIDTH) + 2 * MARGIN;
    let inner = width - 2 * MARGIN;
    let longest = scene
        .legend
        .iter()
        .map(|(_, t)| t.chars().count() as u32)
        .max()
        .unwrap_or(0);
    let item = (longest * 7 + 40).max(LEGEND_ITEM);
    let per_row = ((inner / item) as usize).max(1);
    let legend_rows = scene.legend.len().div_ceil(per_row) as u32;
    let board_y = MARGIN + if caption { CAPTION } else { 0 };
    let legend_y = board_y + bh + 6;
    let height = legend_y + legend_rows * LEGEND_ROW + MARGIN - 6;
    Layout {
        width,
        height,
        board_x: (width - bw) / 2,
        board_y,
        legend_y,
        per_row,
        item,
    }
}

/// The pieces and marks on the board: `<use>` of each glyph, by `id(glyph)`.
pub fn cells(scene: &Scene, id: &dyn Fn(u16) -> String) -> String {
    let mut out = String::new();
    for (i, &g) in scene.cells.iter().enumerate() {
        if g == 0 {
            continue;
        }
        let (x, y) = scene.grid.origin(i);
        let _ = write!(out, "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>", id(g));
    }
    for &(i, g) in &scene.marks {
        let (x, y) = scene.grid.origin(i);
        let _ = write!(out, "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>", id(g));
    }
    out
}

/// The stack's cubes back to front: `<use>` of each cube's glyph.
pub fn cubes(stack: &Stack, id: &dyn Fn(u16) -> String) -> String {
    let mut out = String::new();
    for i in stack.order() {
        let g = stack.cubes.get(i).copied().unwrap_or(0);
        if g == 0 {
            continue;
        }
        let (x, y) = stack.origin(i);
        let _ = write!(out, "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>", id(g));
    }
    out
}

/// A glyph's definition, with its name for readers and tests (`data-g`).
pub fn glyph_def(id: &str, g: &Glyph) -> String {
    format!("<g id=\"{id}\" data-g=\"{}\">{}</g>", esc(&g.name), g.svg)
}

/// A complete SVG document: caption, board, legend; glyphs defined in it.
pub fn document(scene: &Scene, caption: &Caption) -> String {
    let used = used_glyphs(scene);
    let mut defs = String::new();
    for (i, g) in scene.glyphs.iter().enumerate() {
        if i > 0 && used.get(i).copied().unwrap_or(false) {
            defs.push_str(&glyph_def(&format!("g{i}"), g));
            defs.push('\n');
        }
    }
    let stack = scene.stack.as_ref().map(Stack::background);
    picture(
        scene,
        Some(caption),
        &defs,
        &Backgrounds {
            grid: &scene.grid.background(),
            stack: stack.as_deref().unwrap_or_default(),
        },
        &|g| format!("g{g}"),
    )
}

/// The markup under the pieces: the grid's, and the stack's floor.
pub struct Backgrounds<'a> {
    pub grid: &'a str,
    pub stack: &'a str,
}

/// Which glyphs the cells and marks use.
pub fn used_glyphs(scene: &Scene) -> Vec<bool> {
    let mut used = vec![false; scene.glyphs.len()];
    let stacked = scene.stack.iter().flat_map(|s| s.cubes.iter());
    for &g in scene
        .cells
        .iter()
        .chain(scene.marks.iter().map(|(_, g)| g))
        .chain(stacked)
    {
        if let Some(u) = used.get_mut(usize::from(g)) {
            *u = true;
        }
    }
    used
}

/// The caption: title, status, each seat's swatch and score.
fn write_caption(out: &mut String, scene: &Scene, caption: &Caption, inner: u32) {
    let _ = writeln!(
        out,
        "<g class=\"caption\" {FONT} fill=\"{}\">\n\
         <text x=\"{MARGIN}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{MARGIN}\" y=\"{}\" font-size=\"13\">{}</text>",
        palette::INK,
        MARGIN + 14,
        esc(&fit(&caption.title, inner, 15)),
        MARGIN + 33,
        esc(&fit(&caption.status, inner, 13)),
    );
    let mut x = MARGIN;
    let y = MARGIN + 41;
    for (i, (seat, score)) in caption.scores.iter().enumerate() {
        if let Some((swatch, _)) = scene.seats.get(i) {
            let _ = write!(out, "<g transform=\"translate({x} {y})\">{swatch}</g>");
            x += 18;
        }
        let text = format!("{seat} {score}");
        let _ = writeln!(
            out,
            "<text x=\"{x}\" y=\"{}\" font-size=\"13\">{}</text>",
            y + 12,
            esc(&text)
        );
        x += (text.chars().count() as f32 * 13.0 * 0.6) as u32 + 14;
    }
    out.push_str("</g>\n");
}

/// The picture with `defs` (possibly empty, when the glyphs are defined
/// elsewhere in an HTML page), the board's (and the stack's) background
/// markup and glyph ids; no caption when the page says it in text.
pub fn picture(
    scene: &Scene,
    caption: Option<&Caption>,
    defs: &str,
    background: &Backgrounds,
    id: &dyn Fn(u16) -> String,
) -> String {
    let l = layout(scene, caption.is_some());
    let (w, h) = (l.width, l.height);
    let inner = w - 2 * MARGIN;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n"
    );
    if let Some(c) = caption {
        let _ = writeln!(out, "<title>{}</title>", esc(&c.title));
    }
    if !defs.is_empty() {
        let _ = write!(out, "<defs>\n{defs}</defs>\n");
    }
    let _ = writeln!(out, "<rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>");
    if let Some(caption) = caption {
        write_caption(&mut out, scene, caption, inner);
    }
    // board, and the stack beside it
    let place = placement(scene);
    if let Some(stack) = &scene.stack {
        let _ = writeln!(
            out,
            "<g class=\"stack\" transform=\"translate({} {})\">\n{}\n<g class=\"cubes\">{}</g>\n</g>",
            l.board_x + place.stack.0,
            l.board_y + place.stack.1,
            background.stack,
            cubes(stack, id)
        );
    }
    let _ = writeln!(
        out,
        "<g class=\"board\" transform=\"translate({} {})\">\n{}\n<g class=\"cells\">{}</g>\n</g>",
        l.board_x + place.grid.0,
        l.board_y + place.grid.1,
        background.grid,
        cells(scene, id)
    );
    // legend
    if !scene.legend.is_empty() {
        let _ = write!(
            out,
            "<g class=\"legend\" {FONT} font-size=\"12\" fill=\"{}\">",
            palette::INK
        );
        for (k, (pic, text)) in scene.legend.iter().enumerate() {
            let col = (k % l.per_row) as u32;
            let row = (k / l.per_row) as u32;
            let lx = MARGIN + col * l.item;
            let ly = l.legend_y + row * LEGEND_ROW;
            let _ = write!(
                out,
                "<g transform=\"translate({lx} {ly})\">{pic}</g><text x=\"{}\" y=\"{}\">{}</text>",
                lx + 26,
                ly + 15,
                esc(text)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// A text label centred in a box of side `s`, for letters on coloured cells.
pub fn letter(s: u32, text: &str, ink: &str, size: f32) -> String {
    let s = s as f32;
    format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} font-size=\"{size:.1}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
        s / 2.0,
        s / 2.0 + size * 0.36,
        esc(text)
    )
}

/// Dash patterns for lines told apart without colour (the score plot).
pub const DASHES: [&str; 6] = ["", "7 3", "2 2", "9 3 2 3", "4 4", "1 3"];

/// One series of a score plot: a seat's name, colour and values (one per
/// ply, from ply 0).
pub struct Series {
    pub name: String,
    pub colour: &'static str,
    pub values: Vec<i64>,
}

/// A diagnostic shown on a score plot at its ply.
pub struct PlotMark {
    pub ply: usize,
    pub code: String,
    pub error: bool,
}

/// A score plot's scales: where a ply and a value are drawn.
struct PlotScale {
    /// The plot's top-left corner in the larger picture.
    ox: u32,
    oy: u32,
    /// The last ply shown (at least 1).
    plies: usize,
    /// The highest and lowest values shown (`top` > `bottom`).
    top: i64,
    bottom: i64,
}

impl PlotScale {
    const W: u32 = 640;
    const H: u32 = 220;
    const LEFT: u32 = 44;
    const RIGHT: u32 = 90;
    const TOP: u32 = 40;
    const BOTTOM: u32 = 30;

    fn new(series: &[Series], marks: &[PlotMark], (ox, oy): (u32, u32)) -> Self {
        let plies = series
            .iter()
            .map(|s| s.values.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
            .max(marks.iter().map(|m| m.ply).max().unwrap_or(0))
            .max(1);
        let top = series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .max()
            .unwrap_or(0)
            .max(1);
        let bottom = series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .min()
            .unwrap_or(0)
            .min(0);
        PlotScale {
            ox,
            oy,
            plies,
            top,
            bottom,
        }
    }

    /// The x of ply `p`.
    fn sx(&self, p: usize) -> f64 {
        let pw = (Self::W - Self::LEFT - Self::RIGHT) as f64;
        self.ox as f64 + Self::LEFT as f64 + pw * p as f64 / self.plies as f64
    }

    /// The y of value `v`.
    fn sy(&self, v: i64) -> f64 {
        let ph = (Self::H - Self::TOP - Self::BOTTOM) as f64;
        self.oy as f64
            + Self::TOP as f64
            + ph * (self.top - v) as f64 / (self.top - self.bottom) as f64
    }
}

/// A score plot: every seat's score after every ply, errors marked at their
/// ply. `at` places it in a larger picture (its top-left corner).
pub fn plot(
    title: &str,
    unit: &str,
    series: &[Series],
    marks: &[PlotMark],
    at: (u32, u32),
) -> String {
    let scale = PlotScale::new(series, marks, at);
    let mut out = plot_head(&scale, title);
    plot_axes(&mut out, &scale, unit);
    plot_marks(&mut out, &scale, marks);
    plot_lines(&mut out, &scale, series);
    out.push_str("</g>\n");
    out
}

/// One seat's scores over many games: after each ply, the median and the
/// band between two quantiles (the score plot of a collection).
pub struct Band {
    pub name: String,
    pub colour: &'static str,
    pub low: Vec<i64>,
    pub median: Vec<i64>,
    pub high: Vec<i64>,
}

/// A score plot of many games: each seat's band (shaded in its colour)
/// and its median line, its name and last median at its end.
pub fn band_plot(title: &str, unit: &str, bands: &[Band], at: (u32, u32)) -> String {
    let edge = |b: &Band, values: &[i64]| Series {
        name: b.name.clone(),
        colour: b.colour,
        values: values.to_vec(),
    };
    let edges: Vec<Series> = bands
        .iter()
        .flat_map(|b| [edge(b, &b.low), edge(b, &b.high)])
        .collect();
    let scale = PlotScale::new(&edges, &[], at);
    let mut out = plot_head(&scale, title);
    plot_axes(&mut out, &scale, unit);
    for b in bands {
        let mut d = String::new();
        let forth = b.low.iter().enumerate();
        let back = b.high.iter().enumerate().rev();
        for (k, (p, &v)) in forth.chain(back).enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if k == 0 { "M" } else { "L" },
                scale.sx(p),
                scale.sy(v)
            );
        }
        let _ = writeln!(
            out,
            "<path d=\"{d}Z\" fill=\"{}\" fill-opacity=\"0.2\" stroke=\"none\"/>",
            b.colour
        );
    }
    let medians: Vec<Series> = bands.iter().map(|b| edge(b, &b.median)).collect();
    plot_lines(&mut out, &scale, &medians);
    out.push_str("</g>\n");
    out
}

/// A plot's group and title.
fn plot_head(scale: &PlotScale, title: &str) -> String {
    format!(
        "<g class=\"plot\" {FONT} font-size=\"11\" fill=\"{}\">\n<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>\n",
        palette::INK,
        scale.ox + 4,
        scale.oy + 16,
        esc(&fit(title, PlotScale::W - 8, 13))
    )
}

/// The axes, their ticks and their names.
fn plot_axes(out: &mut String, scale: &PlotScale, unit: &str) {
    const H: u32 = PlotScale::H;
    const TOP: u32 = PlotScale::TOP;
    const BOTTOM: u32 = PlotScale::BOTTOM;
    let PlotScale {
        ox,
        oy,
        plies,
        top,
        bottom,
    } = *scale;
    let sx = |p: usize| scale.sx(p);
    let sy = |v: i64| scale.sy(v);
    // axes and ticks
    let _ = writeln!(
        out,
        "<path d=\"M{x0:.1} {y0:.1}V{y1:.1}H{x1:.1}\" stroke=\"#555\" fill=\"none\"/>",
        x0 = sx(0),
        y0 = oy as f64 + TOP as f64,
        y1 = oy as f64 + (H - BOTTOM) as f64,
        x1 = sx(plies)
    );
    let step = nice_step(plies as i64, 10);
    let mut p = 0;
    while p <= plies as i64 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{p}</text>",
            sx(p as usize),
            oy + H - BOTTOM + 14
        );
        p += step;
    }
    let vstep = nice_step(top - bottom, 5);
    let mut v = bottom - bottom.rem_euclid(vstep);
    while v <= top {
        if v >= bottom {
            let _ = write!(
                out,
                "<path d=\"M{:.1} {y:.1}H{:.1}\" stroke=\"#e4e4e4\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v}</text>",
                sx(0),
                sx(plies),
                sx(0) - 4.0,
                sy(v) + 4.0,
                y = sy(v)
            );
        }
        v += vstep;
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"end\">ply</text><text x=\"{}\" y=\"{}\">{}</text>",
        sx(plies),
        oy + H - 2,
        ox + 4,
        oy + TOP - 4,
        esc(unit)
    );
}

/// The diagnostics, each at its ply.
fn plot_marks(out: &mut String, scale: &PlotScale, marks: &[PlotMark]) {
    const H: u32 = PlotScale::H;
    const TOP: u32 = PlotScale::TOP;
    const BOTTOM: u32 = PlotScale::BOTTOM;
    let (oy, plies) = (scale.oy, scale.plies);
    let sx = |p: usize| scale.sx(p);
    for m in marks {
        let x = sx(m.ply.min(plies));
        let colour = if m.error {
            palette::VERMILION
        } else {
            palette::ORANGE
        };
        let sign = if m.error { "\u{2717}" } else { "!" };
        let anchor = if x > sx(plies) - 60.0 {
            "end"
        } else {
            "middle"
        };
        let _ = writeln!(
            out,
            "<path d=\"M{x:.1} {}V{}\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/><text x=\"{x:.1}\" y=\"{}\" text-anchor=\"{anchor}\" fill=\"{colour}\" font-weight=\"bold\">{sign} {}</text>",
            oy + TOP,
            oy + H - BOTTOM,
            oy + TOP - 6,
            esc(&m.code)
        );
    }
}

/// One line per seat, its name at its end.
fn plot_lines(out: &mut String, scale: &PlotScale, series: &[Series]) {
    let sx = |p: usize| scale.sx(p);
    let sy = |v: i64| scale.sy(v);
    // the names at the lines' ends, pushed apart to stay readable
    let mut ends: Vec<(f64, usize)> = series
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.values.last().map(|&v| (sy(v) + 4.0, k)))
        .collect();
    ends.sort_by(|a, b| a.0.total_cmp(&b.0));
    for i in 1..ends.len() {
        let prev = ends.get(i - 1).map_or(0.0, |e| e.0);
        if let Some(e) = ends.get_mut(i) {
            e.0 = e.0.max(prev + 12.0);
        }
    }
    let label_y = |k: usize| ends.iter().find(|e| e.1 == k).map_or(0.0, |e| e.0);
    // one line per seat, told apart by colour, dashes and the name at its end
    for (k, s) in series.iter().enumerate() {
        let mut d = String::new();
        for (p, &v) in s.values.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.1} {:.1}",
                if p == 0 { "M" } else { "L" },
                sx(p),
                sy(v)
            );
        }
        let dash = DASHES.get(k % DASHES.len()).copied().unwrap_or("");
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = writeln!(
            out,
            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{dash}/>",
            s.colour
        );
        if let Some(&last) = s.values.last() {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{}\">{} {last}</text>",
                sx(s.values.len().saturating_sub(1)) + 6.0,
                label_y(k),
                s.colour,
                esc(&s.name)
            );
        }
    }
}

/// The size of one score plot.
pub const PLOT_SIZE: (u32, u32) = (640, 220);

/// A round tick step giving at most about `ticks` ticks over `range`.
fn nice_step(range: i64, ticks: i64) -> i64 {
    let raw = (range.max(1) + ticks - 1) / ticks;
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if step * m >= raw {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// Score plots stacked in one SVG document.
pub fn plots(panels: &[String]) -> String {
    let (w, h) = PLOT_SIZE;
    let total = (h * panels.len().max(1) as u32) + 2 * MARGIN;
    let width = w + 2 * MARGIN;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{total}\" viewBox=\"0 0 {width} {total}\">\n<rect width=\"{width}\" height=\"{total}\" fill=\"#fff\"/>\n"
    );
    for p in panels {
        out.push_str(p);
    }
    out.push_str("</svg>\n");
    out
}

/// A histogram's bins: `start`, `width` (at least 1) and each bin's count.
struct Bins {
    start: i64,
    width: i64,
    counts: Vec<u64>,
}

impl Bins {
    /// At most about 64 bins of a round width over the values' range.
    fn of(values: &[(i64, u64)]) -> Bins {
        let lo = values.iter().map(|v| v.0).min().unwrap_or(0);
        let hi = values.iter().map(|v| v.0).max().unwrap_or(0);
        let span = (i128::from(hi) - i128::from(lo) + 1).min(i128::from(i64::MAX / 100));
        let width = nice_step(i64::try_from(span).unwrap_or(i64::MAX / 100), 64);
        let start = lo - lo.rem_euclid(width);
        let bin = |v: i64| usize::try_from((i128::from(v) - i128::from(start)) / i128::from(width));
        let mut counts = vec![0; bin(hi).map_or(1, |b| b + 1)];
        for &(v, c) in values {
            if let Some(n) = bin(v).ok().and_then(|b| counts.get_mut(b)) {
                *n += c;
            }
        }
        Bins {
            start,
            width,
            counts,
        }
    }

    /// The values bin `k` holds, as its label: `34`, or `30-39`.
    fn label(&self, k: usize) -> String {
        let from = self.start.saturating_add(self.width.saturating_mul(k as i64));
        if self.width == 1 {
            from.to_string()
        } else {
            format!("{from}\u{2013}{}", from.saturating_add(self.width - 1))
        }
    }
}

/// A histogram of `values` (`(value, count)` pairs, each value once) in
/// `colour`, the x axis named `unit`, at `at` in a larger picture (one
/// [`PLOT_SIZE`] panel, for [`plots`]); each bar's tooltip gives its values
/// and count.
pub fn histogram(
    title: &str,
    unit: &str,
    colour: &str,
    values: &[(i64, u64)],
    at: (u32, u32),
) -> String {
    const LEFT: f64 = 54.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 30.0;
    let (w, h) = (f64::from(PLOT_SIZE.0), f64::from(PLOT_SIZE.1));
    let (ox, oy) = (f64::from(at.0), f64::from(at.1));
    let bins = Bins::of(values);
    let peak = bins.counts.iter().copied().max().unwrap_or(0).max(1);
    let n = bins.counts.len().max(1);
    let bar = (w - LEFT - RIGHT) / n as f64;
    let sx = |k: usize| ox + LEFT + bar * k as f64;
    let sy = |c: u64| oy + h - BOTTOM - (h - TOP - BOTTOM) * c as f64 / peak as f64;
    let mut out = format!(
        "<g class=\"histogram\" {FONT} font-size=\"11\" fill=\"{}\">\n<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>\n",
        palette::INK,
        ox + 4.0,
        oy + 16.0,
        esc(&fit(title, PLOT_SIZE.0 - 8, 13))
    );
    let _ = writeln!(
        out,
        "<path d=\"M{:.1} {:.1}V{:.1}H{:.1}\" stroke=\"#555\" fill=\"none\"/>",
        sx(0),
        oy + TOP,
        sy(0),
        sx(n)
    );
    let vstep = nice_step(i64::try_from(peak).unwrap_or(i64::MAX / 100), 5);
    let mut v = vstep;
    while v <= i64::try_from(peak).unwrap_or(0) {
        let y = sy(v as u64);
        let _ = write!(
            out,
            "<path d=\"M{:.1} {y:.1}H{:.1}\" stroke=\"#e4e4e4\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v}</text>",
            sx(0),
            sx(n),
            sx(0) - 4.0,
            y + 4.0
        );
        v += vstep;
    }
    histogram_bars(&mut out, &bins, colour, &sx, &sy);
    let step = nice_step(n as i64, 10) as usize;
    for k in (0..n).step_by(step.max(1)) {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            sx(k) + bar / 2.0,
            oy + h - BOTTOM + 14.0,
            esc(&bins.label(k))
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><text x=\"{:.1}\" y=\"{:.1}\">games</text>\n</g>",
        sx(n),
        oy + h - 2.0,
        esc(unit),
        ox + 4.0,
        oy + TOP - 4.0
    );
    out
}

/// A histogram's bars, each with its values and count as a tooltip.
fn histogram_bars(
    out: &mut String,
    bins: &Bins,
    colour: &str,
    sx: &dyn Fn(usize) -> f64,
    sy: &dyn Fn(u64) -> f64,
) {
    for (k, &c) in bins.counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let (x, y) = (sx(k), sy(c));
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}: {c}</title></rect>",
            (sx(k + 1) - x - 1.0).max(0.5),
            sy(0) - y,
            esc(colour),
            esc(&bins.label(k))
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_fits() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(fit("short", 300, 13), "short");
        let long = "x".repeat(200);
        let cut = fit(&long, 100, 10);
        assert!(cut.ends_with('\u{2026}') && cut.chars().count() < 20);
    }

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(60, 10), 10);
        assert_eq!(nice_step(7, 10), 1);
        assert_eq!(nice_step(0, 5), 1);
        assert_eq!(nice_step(130, 5), 50);
    }

    #[test]
    fn triangle_grids_place_cells_half_a_side_apart() {
        let grid = Grid {
            cols: 4,
            rows: 2,
            cell: 20,
            shape: Shape::Triangles(vec![0, 1, 2, 1, 1, 2, 1, 0]),
            col_labels: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            row_labels: vec!["2".into(), "1".into()],
            fill: "#eee",
            line: "#999",
        };
        assert_eq!((grid.col_step(), grid.row_step()), (10, 18));
        assert_eq!(grid.origin(5), (LABELS + 10, LABELS + 18));
        assert_eq!(grid.size(), (4 * 10 + 10 + 2 * LABELS, 2 * 18 + 2 * LABELS));
        // one outline per triangle on the board
        assert_eq!(grid.background().matches("<polygon").count(), 6);
        assert_eq!(grid.triangle(true), "10,0 20,18 0,18");
    }

    #[test]
    fn a_stack_is_drawn_back_to_front() {
        let stack = Stack::new(3, 2, 3, 20);
        let order = stack.order();
        assert_eq!(order.len(), 3 * 2 * 3);
        let at = |i: usize| (i % 3, i / 3 % 2, i / 6);
        // no cube drawn after another is behind it (at least as far in
        // file and rank, no higher), or it would hide what is in front
        for (k, &p) in order.iter().enumerate() {
            let (px, py, pz) = at(p);
            for &q in &order[k + 1..] {
                let (qx, qy, qz) = at(q);
                assert!(!(qx >= px && qy >= py && qz <= pz), "{:?} after {:?}", at(q), at(p));
            }
        }
        // the farthest column first, bottom up; the nearest corner last
        assert_eq!(order[..3], [5, 11, 17]);
        assert_eq!(order[order.len() - 1], 12);
    }

    #[test]
    fn a_stack_places_cubes_on_its_floor() {
        let stack = Stack::new(3, 2, 3, 20);
        assert_eq!((stack.unit, stack.rise), (20, 24));
        assert_eq!(stack.size(), (5 * 20 + 2 * LABELS, 5 * 10 + 3 * 24 + 2 * LABELS));
        let (x0, y0) = stack.origin(0);
        // a file to the right and up, a rank to the left and up, a level up
        assert_eq!(stack.origin(1), (x0 + 20, y0 - 10));
        assert_eq!(stack.origin(3), (x0 - 20, y0 - 10));
        assert_eq!(stack.origin(6), (x0, y0 - 24));
        // the nearest cube's box ends at the floor's nearest corner, the
        // highest farthest one at the top band
        assert_eq!((x0 + 20, y0 + 20 + 24), (LABELS + 2 * 20, stack.size().1 - LABELS));
        assert_eq!(stack.origin(17).1, LABELS);
        assert_eq!(Stack::new(1, 1, 1, 13).unit, 12, "even");
    }

    #[test]
    fn shading_keeps_the_hue() {
        assert_eq!(shade("#0072B2", 0.5), "#003959");
        assert_eq!(shade("#F0E442", 1.0), "#F0E442");
        assert_eq!(shade("#FFFFFF", 2.0), "#FFFFFF");
        assert_eq!(shade("bad", 0.5), "bad");
    }

    #[test]
    fn a_scene_uses_its_glyphs_once() {
        let grid = Grid {
            cols: 3,
            rows: 2,
            cell: 20,
            shape: Shape::Squares,
            col_labels: vec!["a".into(), "b".into(), "c".into()],
            row_labels: vec!["2".into(), "1".into()],
            fill: "#eee",
            line: "#999",
        };
        let mut s = Scene::new(grid);
        let a = s.glyph("A", |c| format!("<rect width=\"{c}\" height=\"{c}\"/>"));
        assert_eq!(s.glyph("A", |_| unreachable!()), a);
        s.set(2, 1, a);
        s.set(9, 9, a);
        s.mark_last(2, 1);
        let svg = document(&s, &Caption::default());
        assert_eq!(svg.matches("data-g=\"A\"").count(), 1);
        assert!(svg.contains("<use href=\"#g1\" x=\"58\" y=\"38\"/>"));
        assert!(svg.contains("data-g=\"last\""));
    }
}
