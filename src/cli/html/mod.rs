//! `gamerec html PATH... -o report.html`: one self-contained page (no
//! network, no external scripts or fonts) with an index of every game and a
//! replay viewer; `-o DIR` writes a site of any size instead ([`site`]).
//!
//! Where the switch is: `-o` naming a file (one with an extension, or `-`
//! for standard output) gives one page, which holds at most [`PAGE_GAMES`]
//! games (a larger input is refused before anything is written, with the
//! advice to write a site: one page keeps every game in memory until it is
//! written, and a browser opens a page of 10,000 games in about a second);
//! `-o` naming a directory (one that exists, a path ending in `/`, or a name
//! without an extension) gives a site, written as the games are read.
//!
//! The page holds, once, every board background and glyph the games use (as
//! SVG `<defs>`), and per game a compact encoding: the glyph on every cell at
//! the start, then per ply the cells that changed and the marks (the last
//! move), the moves, the scores, the side to move and the diagnostics. A small
//! inline script (`view.js`, then `page.js` for the page's index) turns that into the board for any ply on demand:
//! it knows grids, glyphs and cells, never a game's rules; it also draws the
//! index rows as the index is scrolled and the score plot. Without
//! JavaScript the page shows (in `<noscript>`, which a browser running
//! scripts does not parse) the whole index and each game's final position,
//! drawn here.
//!
//! Encoding: numbers are written in base [`DIGITS`]`.len()` with a fixed
//! width per game (`cw` digits per cell index, `gw` per glyph); a ply's
//! changes are `cell glyph` pairs, plies are separated by a space; scores are
//! `[smallest, width, digits]`. A game with a stack of cubes (Blokus 3D)
//! encodes them the same way, as cells of their own (`bc` at the start, `bd`
//! per ply; a cube's index is file + files * (rank + ranks * level)), and
//! its kind says where each is drawn; the script draws them back to front
//! as `svg.rs` does. Games share the tables of grids (`kinds`),
//! seats and colours (`styles`) and glyphs (the page's `<defs>`, `g0`..).
//! `<body data-ready>` records when the script was done (ms from navigation
//! start), for measuring.
//!
//! Games are numbered across the page, from 0 in the order they were read
//! (the files in the order given, each file's games in order), and that one
//! number is used everywhere: `#game=N` opens game N, the no-script section
//! of game N is `id="game=N"`, and the index's first column (`#`) shows N as
//! the link to it, so that the number a row shows opens that row's game. The
//! file column gives the game's place in its own file in words (`sheet.gamerec,
//! game 3`, from 1, as the viewer's title does), not to be taken for it.

mod site;

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use super::Ctx;
use super::report::exit_code;
use crate::replay::{Frames, GameReport, Options, Sink, TagsKept};
use crate::svg::{self, Scene, esc};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// Where to write: a file (`-`: standard output) gets one page of at
    /// most 10,000 games; a directory (one that exists, a path ending in
    /// `/` or a name without an extension) gets a site of any size,
    /// `DIR/index.html`, its index and games in files it loads as needed.
    #[arg(short, long, value_name = "FILE|DIR", default_value = "-")]
    pub output: String,
    /// A site's games per data file (`DIR/games/K.js`; the index has ten
    /// times as many rows per file, `DIR/index/K.js`).
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..))]
    pub chunk_games: u32,
    #[command(flatten)]
    pub scan: super::inputs::ScanArgs,
}

/// The digits of the compact encoding: printable ASCII that needs no escape
/// in JSON or HTML.
pub const DIGITS: &[u8] =
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{|}~";

/// How many digits numbers below `n` need.
fn width(n: usize) -> usize {
    let base = DIGITS.len();
    let mut w = 1;
    let mut cap = base;
    while cap < n {
        w += 1;
        cap = cap.saturating_mul(base);
    }
    w
}

/// `v` in `w` digits.
fn encode(out: &mut String, v: usize, w: usize) {
    let base = DIGITS.len();
    for k in (0..w).rev() {
        let d = base.checked_pow(k as u32).map_or(0, |p| (v / p) % base);
        out.push(char::from(DIGITS.get(d).copied().unwrap_or(b'0')));
    }
}

/// The most games one page holds; a site holds any number.
pub const PAGE_GAMES: usize = 10_000;

/// Whether `-o` names a directory, for a site: one that exists, a path
/// ending in `/`, or a name without an extension (`-` is standard output).
fn is_site(output: &str) -> bool {
    let path = std::path::Path::new(output);
    output != "-"
        && (path.is_dir()
            || output.ends_with('/')
            || output.ends_with(std::path::MAIN_SEPARATOR)
            || path.extension().is_none())
}

/// The shared tables: backgrounds and glyphs defined once for the page.
#[derive(Default)]
struct Defs {
    backgrounds: HashMap<String, usize>,
    background_list: Vec<String>,
    glyphs: HashMap<(String, String), usize>,
    glyph_list: Vec<String>,
}

impl Defs {
    fn background(&mut self, markup: String) -> usize {
        if let Some(&i) = self.backgrounds.get(&markup) {
            return i;
        }
        let i = self.background_list.len();
        self.background_list
            .push(format!("<g id=\"b{i}\">{markup}</g>"));
        self.backgrounds.insert(markup, i);
        i
    }

    fn glyph(&mut self, g: &svg::Glyph) -> usize {
        let key = (g.name.clone(), g.svg.clone());
        if let Some(&i) = self.glyphs.get(&key) {
            return i;
        }
        let i = self.glyph_list.len();
        self.glyph_list.push(svg::glyph_def(&format!("g{i}"), g));
        self.glyphs.insert(key, i);
        i
    }
}

/// One game, ready for the page.
struct Entry {
    file: String,
    index: usize,
    report: GameReport,
    /// The game's encoding, when it could be set up.
    enc: Option<Encoded>,
    /// The diagnostics as JSON (with line and column).
    diags: Vec<Value>,
    /// The player tags in seat order (`A vs B`).
    players: String,
    /// The result the record claims (its `Result` tag, else its result
    /// token, else a winner column), `*` and empty claims left out.
    claim: Option<String>,
    /// The `Event` and `Date` tags (empty when absent), for a site's index.
    event: String,
    date: String,
}

/// What the page keeps of each replay: every move (the page plays them
/// back) and the one-line description of the game.
#[derive(Debug)]
struct Page;

impl Sink for Page {
    fn tags(&self) -> TagsKept {
        TagsKept::Described
    }

    fn records_moves(&self) -> bool {
        true
    }
}

/// Where the games go: one page, kept until it is written, or a site,
/// written as they come.
enum Out {
    Page(Vec<Entry>),
    Site(Box<site::Site>),
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let opts = Options {
        game: ctx.settings.game.clone(),
        variant: ctx.settings.variant.clone(),
        sink: std::sync::Arc::new(Page),
        check_scores: None,
    };
    let mut out = if is_site(&args.output) {
        match site::Site::create(&args.output, args.chunk_games as usize) {
            Ok(s) => Out::Site(Box::new(s)),
            Err(e) => return ctx.usage(&e),
        }
    } else {
        Out::Page(Vec::new())
    };
    let mut file_errors = Vec::new();
    let mut summary = super::report::Summary::default();
    let read_opts = ctx.read_options();
    let filter = read_opts.filter.clone();
    // games the filter's tests on reports leave out
    let mut left_out = 0;
    // games past what one page holds: not replayed (but for those of the
    // window in flight when the page was full), the page refused
    let mut past_page = 0usize;
    let page_full = std::sync::atomic::AtomicBool::new(false);
    let full = || page_full.load(std::sync::atomic::Ordering::Relaxed);
    // each game is replayed and encoded on the replay threads, a window at
    // a time: only the compact form is kept per game (a site writes it out
    // a chunk at a time)
    let encode = |g: crate::formats::SourceGame| (!full()).then(|| entry(g, &opts));
    let mut add = |g: Result<Option<Entry>, super::inputs::FileError>| {
        let e = match g {
            Ok(Some(e)) => e,
            Ok(None) => {
                past_page += 1;
                return;
            }
            Err(e) => {
                file_errors.push(e);
                return;
            }
        };
        if matches!(&out, Out::Page(entries) if entries.len() >= PAGE_GAMES) {
            page_full.store(true, std::sync::atomic::Ordering::Relaxed);
            past_page += 1;
            return;
        }
        if filter.as_ref().is_none_or(|f| f.keeps_report(&e.report)) {
            summary.add(&e.report);
            match &mut out {
                Out::Page(entries) => entries.push(e),
                Out::Site(site) => site.add(&e),
            }
        } else {
            left_out += 1;
        }
    };
    left_out += super::inputs::each_game_mapped(
        &mut *ctx.stdin,
        &args.paths,
        &args.scan,
        &read_opts,
        &encode,
        &mut add,
    );
    for e in &file_errors {
        let _ = writeln!(
            ctx.err,
            "error: {}: {}",
            super::diagnostics::visible(&e.file),
            super::diagnostics::visible(&e.message)
        );
    }
    summary.skipped = left_out;
    if let Err(code) = write_out(ctx, out, &args.output, past_page, &summary) {
        return code;
    }
    ctx.filter_warnings();
    if !ctx.settings.quiet || args.output != "-" {
        let _ = writeln!(ctx.err, "{}", summary.line());
    }
    exit_code(summary, !file_errors.is_empty())
}

/// The page or the site written (a page refused when games were past what
/// it holds); the exit code of a usage error otherwise.
fn write_out(
    ctx: &mut Ctx,
    out: Out,
    output: &str,
    past_page: usize,
    summary: &super::report::Summary,
) -> Result<(), i32> {
    let written = match out {
        Out::Page(_) if past_page > 0 => {
            return Err(ctx.usage(&format!(
                "at least {} games, more than one page holds ({PAGE_GAMES}); nothing was written: write a site instead, `-o DIR` (a directory)",
                PAGE_GAMES + past_page
            )));
        }
        Out::Page(entries) => {
            let page = page(&entries);
            if output == "-" {
                write!(ctx.out, "{page}").map_err(|e| e.to_string())
            } else {
                std::fs::write(output, page).map_err(|e| e.to_string())
            }
        }
        Out::Site(site) => site.finish(summary),
    };
    written.map_err(|e| ctx.usage(&format!("cannot write {output}: {e}")))
}

/// One game replayed with every position, encoded for the page: only the
/// compact form is kept.
fn entry(mut g: crate::formats::SourceGame, opts: &Options) -> Entry {
    g.materialize();
    g.default_variant(opts.variant.as_deref());
    let raw = &g.raw;
    let (mut report, mut frames) = match crate::registry::resolve_in(raw, &g.text, opts) {
        Ok((game, warnings)) => {
            let mut frames = game.frames(raw, &g.text, opts);
            frames.report.warnings.splice(0..0, warnings);
            (frames.report.clone(), Some(frames))
        }
        Err(report) => (*report, None),
    };
    let tags = raw
        .tags
        .0
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()));
    let about = crate::replay::describe_tags(tags.clone(), report.seats);
    let players = crate::replay::describe_tags(tags.filter(|(k, _)| *k != "Event"), report.seats);
    report.about = Some(about.clone());
    let enc = frames.as_mut().and_then(|f| {
        f.report.about = Some(about);
        encode_game(f)
    });
    report.moves = Vec::new();
    let claim = claimed(raw, &g.text);
    let lines = g.lines();
    let plies = report.plies;
    let diags = report
        .errors
        .iter()
        .map(|d| (d, "error"))
        .chain(report.warnings.iter().map(|d| (d, "warning")))
        .map(|(d, severity)| {
            let mut v = super::diagnostics::to_json(d, Some(&lines), g.byte_map.as_ref());
            if let Value::Object(m) = &mut v {
                m.insert("severity".into(), json!(severity));
                // a move the replay did not play: its notation, for the list
                if let Some(mv) = (d.ply > plies)
                    .then(|| move_text(raw, &g.text, d))
                    .flatten()
                {
                    m.insert("move".into(), json!(mv));
                }
            }
            v
        })
        .collect();
    let tag = |name: &str| raw.tags.value(name).unwrap_or_default().to_string();
    Entry {
        file: g.file.name.clone(),
        index: g.index,
        report,
        enc,
        diags,
        players,
        claim,
        event: tag("Event"),
        date: tag("Date"),
    }
}

/// What the record claims as its result: the `Result` tag, else the final
/// result token, else a winner column; none when it claims nothing (`*`).
fn claimed(raw: &crate::record::RawGame, src: &str) -> Option<String> {
    let wanted = |s: &str| {
        let s = s.trim();
        (!s.is_empty() && s != "*").then(|| s.to_string())
    };
    match raw.tags.value("Result") {
        Some(tag) => wanted(tag),
        None => raw
            .result_token
            .as_ref()
            .and_then(|t| wanted(t.text(src)))
            .or_else(|| raw.winner_claim.as_ref().and_then(|w| wanted(&w.text))),
    }
}

/// The written move a diagnostic blames: the text of the movetext token
/// its span starts in (none, or one too long to list: `None`).
fn move_text(raw: &crate::record::RawGame, src: &str, d: &crate::diag::Diag) -> Option<String> {
    let at = d.span?.offset;
    let token = raw
        .tokens
        .iter()
        .find(|t| t.span.offset <= at && at < t.span.end())?;
    let text = token.text(src).trim();
    (!text.is_empty() && text.chars().count() <= 80).then(|| text.to_string())
}

/// A game's compact form, before the page's shared tables are known.
struct Encoded {
    /// The script's fields, but for the shared tables' indices.
    obj: Map<String, Value>,
    /// This game's glyphs (0: the empty cell), numbered as in its cells.
    glyphs: Vec<svg::Glyph>,
    /// Seats, sides to move, colours, plot unit.
    style: Value,
    /// The last position, for the no-script view.
    last: crate::replay::Frame,
    /// The markup of its grid's background and of its stack's, made with
    /// the game (on a replay thread), looked up in the shared defs later.
    background: String,
    stack_background: Option<String>,
}

/// A game's compact data for the script: the cells at the start, then per
/// ply the cells that changed and the marks, the moves, scores and sides to
/// move. Every ply is drawn on the last position's grid (a Qwirkle board
/// grows); a cell is found by its coordinates.
fn encode_game(frames: &mut Frames) -> Option<Encoded> {
    let last = frames.frames.last()?.clone();
    let r = &frames.report;
    let mut obj = Map::new();
    let grid = &last.scene.grid;
    let (states, stacks, local) = cell_states(&frames.frames, grid, last.scene.stack.as_ref());
    let cw = width(grid.cols * grid.rows);
    let gw = width(local.len());
    let (start, diffs, marks) = encode_states(&states, cw, gw);
    obj.insert("cw".into(), json!(cw));
    obj.insert("gw".into(), json!(gw));
    obj.insert("c".into(), json!(start));
    obj.insert("d".into(), json!(diffs));
    obj.insert("m".into(), json!(marks));
    if let Some(stack) = &last.scene.stack {
        // the cubes as cells of their own: at the start, then the changes
        let (start, diffs, _) = encode_states(&stacks, width(stack.cubes.len()), gw);
        obj.insert("bc".into(), json!(start));
        obj.insert("bd".into(), json!(diffs));
    }
    insert_moves(&mut obj, r);
    insert_scores(&mut obj, &frames.frames);
    let (movers, turn) = turns(&frames.frames);
    obj.insert("t".into(), json!(turn));
    let colours: Vec<&str> = last.scene.seats.iter().map(|(_, c)| *c).collect();
    // what many games share
    let style = json!({ "seats": r.seats, "tm": movers, "sc": colours, "unit": frames.unit });
    drop(states);
    frames.frames = Vec::new();
    Some(Encoded {
        obj,
        glyphs: local,
        style,
        background: last.scene.grid.background(),
        stack_background: last.scene.stack.as_ref().map(svg::Stack::background),
        last,
    })
}

/// Per ply: the glyph on every cell, and the marks (cell, glyph).
type Cells = (Vec<usize>, Vec<(usize, usize)>);

/// Every frame's cells and marks on the last position's `grid`, the cubes
/// of every frame's stack (when the last position has one, in its shape),
/// in this game's own glyph numbering (0: the empty cell), and those glyphs.
fn cell_states(
    frames: &[crate::replay::Frame],
    grid: &svg::Grid,
    stack: Option<&svg::Stack>,
) -> (Vec<Cells>, Vec<Cells>, Vec<svg::Glyph>) {
    // this game's glyphs, by name
    let mut local: Vec<svg::Glyph> = vec![svg::Glyph {
        name: String::new(),
        svg: String::new(),
    }];
    let mut by_name: HashMap<String, usize> = HashMap::new();
    let mut names = |scene: &Scene| -> Vec<usize> {
        scene
            .glyphs
            .iter()
            .enumerate()
            .map(|(i, g)| {
                if i == 0 {
                    return 0;
                }
                if let Some(&l) = by_name.get(&g.name) {
                    return l;
                }
                *by_name.entry(g.name.clone()).or_insert_with(|| {
                    local.push(g.clone());
                    local.len() - 1
                })
            })
            .collect()
    };
    let same_grid = |s: &Scene| s.grid == *grid;
    let col_of: HashMap<&str, usize> = grid
        .col_labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    let row_of: HashMap<&str, usize> = grid
        .row_labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.as_str(), i))
        .collect();
    // a cell of `s` (`same`: drawn on the last grid) on the last grid
    let place = |s: &Scene, same: bool, i: usize| -> Option<usize> {
        if same {
            return Some(i);
        }
        let cols = s.grid.cols.max(1);
        let c = col_of.get(s.grid.col_labels.get(i % cols)?.as_str())?;
        let r = row_of.get(s.grid.row_labels.get(i / cols)?.as_str())?;
        Some(r * grid.cols + c)
    };
    let cells = grid.cols * grid.rows;
    let mut states: Vec<Cells> = Vec::with_capacity(frames.len());
    let mut stacks: Vec<Cells> = Vec::new();
    for f in frames {
        let map = names(&f.scene);
        // the grids compared once a frame, not once a cell
        let same = same_grid(&f.scene);
        let mut board = vec![0usize; cells];
        for (i, &g) in f.scene.cells.iter().enumerate() {
            if let (Some(j), Some(&lg)) = (place(&f.scene, same, i), map.get(usize::from(g))) {
                if let Some(b) = board.get_mut(j) {
                    *b = lg;
                }
            }
        }
        let marks = f
            .scene
            .marks
            .iter()
            .filter_map(|&(i, g)| Some((place(&f.scene, same, i)?, *map.get(usize::from(g))?)))
            .collect();
        states.push((board, marks));
        if let Some(last) = stack {
            stacks.push((stack_cells(f.scene.stack.as_ref(), last, &map), Vec::new()));
        }
    }
    (states, stacks, local)
}

/// A frame's cubes in the game's glyph numbering (`map`), on the last
/// frame's stack `last` (a stack of another shape: none).
fn stack_cells(stack: Option<&svg::Stack>, last: &svg::Stack, map: &[usize]) -> Vec<usize> {
    let mut out = vec![0; last.cubes.len()];
    let same =
        |s: &&svg::Stack| (s.files, s.ranks, s.levels) == (last.files, last.ranks, last.levels);
    if let Some(s) = stack.filter(same) {
        for (o, &g) in out.iter_mut().zip(&s.cubes) {
            *o = map.get(usize::from(g)).copied().unwrap_or(0);
        }
    }
    out
}

/// The cells at the start, the cells that changed per ply (space
/// separated) and the marks per ply, each number `cw` (cell) or `gw`
/// (glyph) digits wide.
fn encode_states(states: &[Cells], cw: usize, gw: usize) -> (String, String, String) {
    let mut start = String::new();
    let mut diffs = String::new();
    let mut marks = String::new();
    let mut prev: Option<&Vec<usize>> = None;
    for (k, (board, mk)) in states.iter().enumerate() {
        match prev {
            None => {
                for &g in board {
                    encode(&mut start, g, gw);
                }
            }
            Some(p) => {
                if k > 1 {
                    diffs.push(' ');
                }
                for (i, (&a, &b)) in p.iter().zip(board).enumerate() {
                    if a != b {
                        encode(&mut diffs, i, cw);
                        encode(&mut diffs, b, gw);
                    }
                }
            }
        }
        if k > 0 {
            marks.push(' ');
        }
        for &(i, g) in mk {
            encode(&mut marks, i, cw);
            encode(&mut marks, g, gw);
        }
        prev = Some(board);
    }
    (start, diffs, marks)
}

/// The moves (`mv`, one per ply: a setup edit is no ply, and the viewer
/// shows it in the position after the ply before it) and the plies the
/// program played itself (`auto`).
fn insert_moves(obj: &mut Map<String, Value>, r: &GameReport) {
    let moves: Vec<&str> = r
        .moves
        .iter()
        .filter(|m| !m.setup)
        .map(|m| &*m.notation)
        .collect();
    // one string when no move has a space (most games), else a list
    if moves.iter().any(|m| m.contains(' ') || m.is_empty()) {
        obj.insert("mv".into(), json!(moves));
    } else {
        obj.insert("mv".into(), json!(moves.join(" ")));
    }
    let auto: Vec<usize> = r.moves.iter().filter(|m| m.auto).map(|m| m.ply).collect();
    if !auto.is_empty() {
        obj.insert("auto".into(), json!(auto));
    }
}

/// The scores per ply (`s`), and the plotted values (`p`) where they differ.
fn insert_scores(obj: &mut Map<String, Value>, frames: &[crate::replay::Frame]) {
    let scores: Vec<i64> = frames
        .iter()
        .flat_map(|f| f.scores.iter().copied())
        .collect();
    let plot: Vec<i64> = frames.iter().flat_map(|f| f.plot.iter().copied()).collect();
    if plot != scores {
        obj.insert("p".into(), numbers(&plot));
    }
    obj.insert("s".into(), numbers(&scores));
}

/// The sides to move, in order of first turn, and per ply the index of
/// the side to move (`-`: the game is over).
fn turns(frames: &[crate::replay::Frame]) -> (Vec<String>, String) {
    let mut movers: Vec<String> = Vec::new();
    let mut turn = String::new();
    for f in frames {
        match &f.to_move {
            None => turn.push('-'),
            Some(side) => {
                let i = match movers.iter().position(|m| m == side) {
                    Some(i) => i,
                    None => {
                        movers.push(side.clone());
                        movers.len() - 1
                    }
                };
                encode(&mut turn, i, 1);
            }
        }
    }
    (movers, turn)
}

/// The index of `v` in `table`, added when new.
fn intern(table: &mut Vec<Value>, v: Value) -> usize {
    match table.iter().position(|x| *x == v) {
        Some(i) => i,
        None => {
            table.push(v);
            table.len() - 1
        }
    }
}

/// A game's data for the script, with the page's shared tables; with its
/// index row when `row` (a page's: a site's rows are in its index files).
fn finish(
    n: usize,
    e: &Entry,
    row: bool,
    defs: &mut Defs,
    kinds: &mut Vec<Value>,
    styles: &mut Vec<Value>,
) -> Value {
    let r = &e.report;
    let mut obj = Map::new();
    obj.insert("n".into(), json!(n));
    obj.insert("title".into(), json!(title(e)));
    obj.insert("plies".into(), json!(r.plies));
    obj.insert("valid".into(), json!(r.valid));
    obj.insert("e".into(), Value::Array(e.diags.clone()));
    if row {
        // the index row: file and game, game, players, result
        obj.insert(
            "row".into(),
            json!([place(e), r.game, e.players, result(e)]),
        );
    }
    let Some(enc) = &e.enc else {
        return Value::Object(obj);
    };
    let grid = &enc.last.scene.grid;
    let bg = defs.background(enc.background.clone());
    let mut kind = json!({
        "cols": grid.cols, "rows": grid.rows, "cell": grid.cell,
        "cw": grid.col_step(), "rh": grid.row_step(),
        "w": grid.size().0, "h": grid.size().1, "bg": bg, "lb": svg::LABELS,
    });
    if let (Some(stack), Value::Object(k)) = (&enc.last.scene.stack, &mut kind) {
        let background = enc.stack_background.clone().unwrap_or_default();
        stack_kind(k, &enc.last.scene, stack, defs.background(background));
    }
    obj.insert("k".into(), json!(intern(kinds, kind)));
    let gl: Vec<usize> = enc
        .glyphs
        .iter()
        .enumerate()
        .map(|(i, g)| if i == 0 { 0 } else { defs.glyph(g) })
        .collect();
    obj.insert("gl".into(), json!(gl));
    obj.insert("st".into(), json!(intern(styles, enc.style.clone())));
    obj.extend(enc.obj.clone());
    Value::Object(obj)
}

/// A kind's stack: its shape and where each cube goes (`s`: files, ranks,
/// levels, the box of cube 0 and the steps of a file, a rank and a level:
/// the projection is linear), its floor, where it and the grid are drawn
/// (`sx`/`sy`, `gx`/`gy`), the size of both.
fn stack_kind(k: &mut Map<String, Value>, scene: &Scene, stack: &svg::Stack, background: usize) {
    let place = svg::placement(scene);
    let at = |i: usize| {
        let (x, y) = stack.origin(i);
        (i64::from(x), i64::from(y))
    };
    let (x0, y0) = at(0);
    let step = |i: Option<usize>| i.map_or((0, 0), |i| (at(i).0 - x0, at(i).1 - y0));
    let (fx, fy) = step(stack.index(1, 0, 0));
    let (rx, ry) = step(stack.index(0, 1, 0));
    let (lx, ly) = step(stack.index(0, 0, 1));
    k.insert(
        "s".into(),
        json!({
            "f": stack.files, "r": stack.ranks, "l": stack.levels,
            "x0": x0, "y0": y0, "fx": fx, "fy": fy, "rx": rx, "ry": ry, "lx": lx, "ly": ly,
            "bg": background,
        }),
    );
    k.insert("sx".into(), json!(place.stack.0));
    k.insert("sy".into(), json!(place.stack.1));
    k.insert("gx".into(), json!(place.grid.0));
    k.insert("gy".into(), json!(place.grid.1));
    k.insert("w".into(), json!(place.width));
    k.insert("h".into(), json!(place.height));
}

/// Numbers as `[offset, width, digits]`: each value minus the smallest, in a
/// fixed number of digits.
fn numbers(values: &[i64]) -> Value {
    let low = values.iter().copied().min().unwrap_or(0);
    let high = values.iter().copied().max().unwrap_or(0);
    let span = usize::try_from(high.saturating_sub(low)).unwrap_or(usize::MAX);
    let w = width(span.saturating_add(1));
    let mut out = String::with_capacity(values.len() * w);
    for &v in values {
        encode(
            &mut out,
            usize::try_from(v.saturating_sub(low)).unwrap_or(0),
            w,
        );
    }
    json!([low, w, out])
}

/// The game's heading: file, index, description.
fn title(e: &Entry) -> String {
    let about = crate::replay::describe(&e.report);
    if about.is_empty() {
        format!("{}, game {}", e.file, e.index + 1)
    } else {
        format!("{}, game {} ({about})", e.file, e.index + 1)
    }
}

/// The index's file column: the file and the game's place in it, from 1.
fn place(e: &Entry) -> String {
    format!("{}, game {}", e.file, e.index + 1)
}

/// The index's result column: for a valid game the result reached, for an
/// invalid one what its record claims (`claimed 33-31`; `?`: no claim), as
/// its replay stopped short of a result of its own.
fn result(e: &Entry) -> String {
    let r = &e.report;
    if !r.valid {
        return e
            .claim
            .as_ref()
            .map_or_else(|| "?".to_string(), |c| format!("claimed {c}"));
    }
    if r.scores.is_empty() {
        return String::new();
    }
    let mut s = crate::record::format_result(&r.scores);
    if !r.over {
        s.push_str(" (not over)");
    } else if r.winners.len() == 1 {
        s.push_str(&format!(" ({})", r.winners.join("")));
    } else if r.winners.len() > 1 {
        s.push_str(" (draw)");
    }
    s
}

/// The no-script index: one table row per game, in `order`.
fn index_rows(entries: &[Entry], order: &[usize]) -> String {
    let mut rows = String::new();
    for &n in order {
        let Some(e) = entries.get(n) else { continue };
        let r = &e.report;
        let valid = if r.valid { "yes" } else { "no" };
        let _ = writeln!(
            rows,
            "<tr class=\"{}\" data-n=\"{n}\"><td><a href=\"#game={n}\">{n}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{valid}</td><td>{}</td></tr>",
            if r.valid { "ok" } else { "bad" },
            esc(&place(e)),
            esc(r.game),
            esc(&e.players),
            esc(&result(e)),
            r.plies
        );
    }
    rows
}

/// The no-script view of one game: its final position, drawn here, the
/// caption as text and its diagnostics.
fn final_section(finals: &mut String, n: usize, e: &Entry, defs: &mut Defs) {
    let _ = write!(
        finals,
        "<section id=\"game={n}\"><h2>{}</h2>",
        esc(&title(e))
    );
    match &e.enc {
        Some(enc) => {
            let last = &enc.last;
            let bg = defs.background(enc.background.clone());
            let ids: Vec<usize> = last
                .scene
                .glyphs
                .iter()
                .enumerate()
                .map(|(i, g)| if i == 0 { 0 } else { defs.glyph(g) })
                .collect();
            // the caption as text, the picture without it
            let caption = crate::replay::caption(&e.report, e.report.plies, last);
            let scores: Vec<String> = caption
                .scores
                .iter()
                .map(|(seat, v)| format!("{seat} {v}"))
                .collect();
            let _ = write!(
                finals,
                "<p>{}; {}</p>",
                esc(&caption.status),
                esc(&scores.join(", "))
            );
            let stack = last.scene.stack.as_ref().map(|_| {
                let background = enc.stack_background.clone().unwrap_or_default();
                format!("<use href=\"#b{}\"/>", defs.background(background))
            });
            finals.push_str(&svg::picture(
                &last.scene,
                None,
                "",
                &svg::Backgrounds {
                    grid: &format!("<use href=\"#b{bg}\"/>"),
                    stack: stack.as_deref().unwrap_or_default(),
                },
                &|g| format!("g{}", ids.get(usize::from(g)).copied().unwrap_or(0)),
            ));
        }
        None => finals.push_str("<p>This game could not be set up.</p>"),
    }
    for d in e.report.errors.iter().chain(&e.report.warnings) {
        let _ = write!(
            finals,
            "<p class=\"diag\">ply {}: <b>{}</b> {}</p>",
            d.ply,
            esc(&d.code),
            esc(&d.message)
        );
    }
    finals.push_str("</section>\n");
}

/// The whole page.
fn page(entries: &[Entry]) -> String {
    let mut defs = Defs::default();
    let mut kinds = Vec::new();
    let mut styles = Vec::new();
    // invalid games first, then in file order
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| entries.get(i).is_none_or(|e| e.report.valid));
    let games: Vec<Value> = entries
        .iter()
        .enumerate()
        .map(|(n, e)| finish(n, e, true, &mut defs, &mut kinds, &mut styles))
        .collect();
    let rows = index_rows(entries, &order);
    let mut finals = String::new();
    for (n, e) in entries.iter().enumerate() {
        final_section(&mut finals, n, e, &mut defs);
    }
    let data = json!({ "kinds": kinds, "styles": styles, "games": games, "digits": String::from_utf8_lossy(DIGITS) });
    let data = script_json(&serde_json::to_string(&data).unwrap_or_default());
    let mut summary = super::report::Summary::default();
    for e in entries {
        summary.add(&e.report);
    }
    let summary = summary.line();
    let mut out = String::new();
    head(&mut out, &summary, PAGE_CSS, &defs);
    out.push_str("<div id=\"index-box\"></div>\n");
    out.push_str(VIEWER);
    // Without scripts: the whole index and every final position. With
    // them, this is not parsed: the script draws the index rows as they
    // are scrolled to (a large collection opens fast).
    let _ = write!(
        out,
        "<noscript>\n<table id=\"index\">\n<thead><tr><th>#</th><th>file</th><th>game</th><th>players</th><th>result</th><th>valid</th><th>plies</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n{finals}</noscript>\n</main>\n<script type=\"application/json\" id=\"data\">{data}</script>\n<script>\n{PAGE_JS}</script>\n</body>\n</html>\n"
    );
    out
}

/// The page's style.
const PAGE_CSS: &str = include_str!("page.css");

/// The page's script: the viewer, then the page's index (every game in
/// the page's data).
const PAGE_JS: &str = concat!(include_str!("view.js"), include_str!("page.js"));

/// The document up to the index: its head with `css`, the shared
/// backgrounds and glyphs (`defs`), the header with the run's `summary`,
/// the opening of `<main>`.
fn head(out: &mut String, summary: &str, css: &str, defs: &Defs) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>gamerec: {}</title>\n<style>\n{css}</style>\n</head>\n<body>\n",
        esc(summary),
    );
    let _ = writeln!(
        out,
        "<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>\n{}\n{}\n</defs></svg>",
        defs.background_list.join("\n"),
        defs.glyph_list.join("\n")
    );
    let _ = write!(
        out,
        "<header><h1>gamerec</h1><p>{}</p></header>\n<main>\n",
        esc(summary)
    );
}

/// JSON made safe to sit in a `<script type="application/json">` element:
/// `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026` (no `</script`, `<!--`
/// or `-->` can reach the HTML parser, whose script-data states would end the
/// element early or swallow the rest of the page), and U+2028/U+2029 as
/// `\u2028`/`\u2029` (line terminators to older JavaScript). These
/// characters only occur inside JSON strings, where the escapes mean the
/// same characters, so `JSON.parse` gives back the same data.
fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// The viewer's frame, filled in by the script.
const VIEWER: &str = "<section id=\"viewer\" hidden>
<h2 id=\"v-title\"></h2>
<p id=\"v-status\"></p>
<div class=\"v-main\">
<div class=\"v-board\"><div id=\"board\"></div>
<p class=\"v-buttons\"><button id=\"v-first\" title=\"start (Home)\">&#xAB;</button> <button id=\"v-prev\" title=\"previous ply (&#x2190;)\">&#x25C0;</button> <button id=\"v-next\" title=\"next ply (&#x2192;)\">&#x25B6;</button> <button id=\"v-last\" title=\"end (End)\">&#xBB;</button></p>
<div id=\"v-diags\"></div>
</div>
<ol id=\"v-moves\" start=\"0\"></ol>
</div>
<div id=\"v-plot\"></div>
</section>
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_need_no_escape() {
        for &d in DIGITS {
            assert!(d.is_ascii_graphic(), "{d}");
            assert!(!b"\"\\<>&' `".contains(&d), "{}", char::from(d));
        }
        let mut seen = DIGITS.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), DIGITS.len());
    }

    #[test]
    fn script_json_escapes_what_the_html_parser_acts_on() {
        let hostile = "<!--<script></script>-->&\u{2028}\u{2029}";
        let v = json!({ "t": hostile });
        let s = script_json(&serde_json::to_string(&v).unwrap_or_default());
        for raw in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
            assert!(!s.contains(raw), "{raw:?} in {s}");
        }
        assert_eq!(
            s,
            r#"{"t":"\u003c!--\u003cscript\u003e\u003c/script\u003e--\u003e\u0026\u2028\u2029"}"#
        );
        let back: Value = serde_json::from_str(&s).unwrap_or_default();
        assert_eq!(back, v, "the same data once parsed");
    }

    #[test]
    fn widths_and_encoding() {
        let base = DIGITS.len();
        assert_eq!(width(0), 1);
        assert_eq!(width(base), 1);
        assert_eq!(width(base + 1), 2);
        assert_eq!(width(base * base), 2);
        assert_eq!(width(base * base + 1), 3);
        let mut s = String::new();
        encode(&mut s, base + 3, 2);
        assert_eq!(s, "13");
        assert_eq!(
            numbers(&[-5, 0, 7]),
            json!([-5, 1, "05C"]),
            "offset by the smallest value"
        );
    }
}
