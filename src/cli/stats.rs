//! `gamerec stats PATH... [--opening N] [--top K] [--format json] [--plot
//! FILE.svg]`: what a collection holds, per game and variant, counted by
//! [`crate::pipeline::stats`] as the games stream past (nothing kept of a
//! game once counted): a table for the terminal, one JSON document, and
//! histograms of the scores and lengths in one SVG.
//!
//! Exit codes: 0 when the statistics are written (invalid games are
//! counted, not a failure: `validate` is the check), 2 on a usage error,
//! a file that cannot be read, or a run without games.

use clap::ValueEnum;
use serde_json::{Value, json};

use super::diagnostics::visible;
use super::inputs::{Event, FileError, ScanArgs};
use super::{Ctx, EXIT_OK, EXIT_USAGE};
use crate::pipeline::stats::{
    DEFAULT_OPENING_PLIES, Distribution, Group, Results, Stats, StatsOptions, mean, median,
};

/// The version of the `--format json` document's shape (fields are added,
/// never renamed).
pub const STATS_VERSION: u32 = 1;

/// `--format` of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum StatsFormat {
    /// Aligned tables.
    #[default]
    Human,
    /// One JSON document (docs/commands.md describes its fields).
    Json,
}

#[derive(clap::Args, Debug)]
#[group(id = "stats_args")]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// `human`: aligned tables; `json`: one JSON document.
    #[arg(long, value_enum, default_value_t)]
    pub format: StatsFormat,
    /// The plies of an opening (passes included; 0: no openings). Reversi
    /// openings are counted up to the board's symmetries, turned to begin
    /// with f5.
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_OPENING_PLIES)]
    pub opening: usize,
    /// How many openings and players to list, most games first.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub top: usize,
    /// Also draw histograms of the scores (per seat) and game lengths of
    /// each game and variant into this SVG file (`-`: the SVG alone on
    /// standard output, instead of the tables).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
    #[command(flatten)]
    pub scan: ScanArgs,
}

/// What the run read besides its games.
#[derive(Default)]
struct Problems {
    file_errors: Vec<FileError>,
    skipped: Vec<FileError>,
    /// Games the filter left out; whether there is a filter.
    left_out: usize,
    filtered: bool,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let plot_to_stdout = args.plot.as_deref() == Some("-");
    if plot_to_stdout && args.format == StatsFormat::Json {
        return ctx.usage("--plot - and --format json would both write to standard output");
    }
    let (stats, problems) = match count(ctx, &args) {
        Ok(counted) => counted,
        Err(e) => return super::write_failed(ctx, &e, EXIT_USAGE),
    };
    let mut code = if problems.file_errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_USAGE
    };
    ctx.filter_warnings();
    if stats.groups.is_empty() && problems.file_errors.is_empty() && problems.left_out == 0 {
        let message = super::inputs::explain_empty(&args.paths, &args.scan);
        let _ = writeln!(ctx.err, "error: {}", visible(&message));
        return EXIT_USAGE;
    }
    if let Some(file) = &args.plot {
        let svg = plot(&stats);
        let written = if plot_to_stdout {
            ctx.out.write_all(svg.as_bytes()).map_err(|e| e.to_string())
        } else {
            std::fs::write(file, svg).map_err(|e| e.to_string())
        };
        if let Err(e) = written {
            code = ctx.usage(&format!("cannot write {file}: {e}"));
        }
    }
    if plot_to_stdout {
        return code;
    }
    let written = match args.format {
        StatsFormat::Human => write!(ctx.out, "{}", table(&stats, &problems, args.top)),
        StatsFormat::Json => {
            super::write_document(&mut *ctx.out, &document(&stats, &problems, args.top))
        }
    };
    match written {
        Ok(()) => code,
        Err(e) => super::write_failed(ctx, &e, code),
    }
}

/// Reads and replays every game, counting it; file errors on stderr as they
/// come, skipped entries as warnings (not with `-q`).
fn count(ctx: &mut Ctx, args: &Args) -> std::io::Result<(Stats, Problems)> {
    let mut opts = Stats::options(ctx.settings.game.clone());
    opts.variant.clone_from(&ctx.settings.variant);
    let read_opts = ctx.read_options();
    let mut stats = Stats::new(StatsOptions {
        opening_plies: args.opening,
        ..StatsOptions::default()
    });
    let mut problems = Problems {
        filtered: read_opts.filter.is_some(),
        ..Problems::default()
    };
    let quiet = ctx.settings.quiet;
    let mut progress = super::progress::Progress::stderr(ctx.settings.progress);
    let result = {
        let mut err = progress.above(&mut *ctx.err);
        let stdin: &mut dyn std::io::Read = &mut *ctx.stdin;
        super::inputs::run(
            stdin,
            &args.paths,
            &args.scan,
            &read_opts,
            &opts,
            None,
            &mut |e| {
                progress.event(&e);
                match e {
                    Event::Game(_, r, _) => stats.add(r),
                    Event::Filtered(_) => problems.left_out += 1,
                    other => super::inputs::say_and_keep(
                        &mut err,
                        &other,
                        quiet,
                        (&mut problems.file_errors, &mut problems.skipped),
                    )?,
                }
                Ok(())
            },
        )
    };
    progress.finish();
    result.map(|()| (stats, problems))
}

/// The `--format json` document: `stats_version`, `opening_plies`, `top`,
/// `summary` (the games of every group added up, and `unreadable` files),
/// `groups` (one per game and variant, [`Group::json`]), `errors` (the
/// files that could not be read), and `skipped` when a scan skipped entries.
fn document(stats: &Stats, problems: &Problems, top: usize) -> Value {
    let mut total = stats.total();
    total.skipped = problems.left_out;
    total.filtered = problems.filtered;
    let mut summary = total.json();
    if let Value::Object(m) = &mut summary {
        m.insert("unreadable".into(), json!(problems.file_errors.len()));
    }
    let groups: Vec<Value> = stats
        .groups()
        .map(|g| g.json(top, stats.options.opening_plies))
        .collect();
    let mut doc = json!({
        "stats_version": STATS_VERSION,
        "opening_plies": stats.options.opening_plies,
        "top": top,
        "summary": summary,
        "groups": groups,
        "errors": crate::pipeline::json::file_errors_json(&problems.file_errors),
    });
    if !problems.skipped.is_empty() {
        if let Value::Object(m) = &mut doc {
            m.insert(
                "skipped".into(),
                crate::pipeline::json::file_errors_json(&problems.skipped),
            );
        }
    }
    doc
}

/// Cells aligned in columns: numbers to the right, text to the left (a
/// last text column is not padded).
struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(head: &[&str]) -> Table {
        Table {
            rows: vec![head.iter().map(|h| h.to_string()).collect()],
        }
    }

    fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table, each line indented by `indent`.
    fn write(&self, out: &mut String, indent: &str) {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let width = |c: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        // a column is numeric when every cell below the head starts with a digit or `-`
        let numeric: Vec<bool> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .skip(1)
                    .filter_map(|r| r.get(c))
                    .all(|s| s.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-'))
            })
            .collect();
        for r in &self.rows {
            let mut line = indent.to_string();
            for (c, cell) in r.iter().enumerate() {
                let w = widths.get(c).copied().unwrap_or(0);
                let last = c + 1 == r.len();
                if c > 0 {
                    line.push_str("  ");
                }
                if numeric.get(c).copied().unwrap_or(false) {
                    line.push_str(&format!("{cell:>w$}"));
                } else if last {
                    line.push_str(cell);
                } else {
                    line.push_str(&format!("{cell:<w$}"));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

/// The min, median, max and mean cells of a distribution (`-` when empty).
fn spread(d: &Distribution) -> Vec<String> {
    let show = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
    vec![
        show(d.keys().next().copied()),
        show(median(d)),
        show(d.keys().next_back().copied()),
        mean(d).map_or("-".to_string(), |m| format!("{m:.1}")),
    ]
}

/// `W/D/L`.
fn wdl(r: Option<&Results>) -> String {
    let r = r.copied().unwrap_or_default();
    format!("{}/{}/{}", r.wins, r.draws, r.losses)
}

/// The terminal tables, one block per game and variant, then the summary line.
fn table(stats: &Stats, problems: &Problems, top: usize) -> String {
    let mut out = String::new();
    for g in stats.groups() {
        group_heading(&mut out, g);
        if g.valid > 0 {
            results_table(&mut out, g);
            lengths_line(&mut out, g);
        }
        recorded_table(&mut out, g);
        openings_table(&mut out, g, top, stats.options.opening_plies);
        players_table(&mut out, g, top);
        out.push('\n');
    }
    let mut total = stats.total();
    total.unreadable = problems.file_errors.len();
    total.skipped = problems.left_out;
    out.push_str(&total.line());
    out.push('\n');
    out
}

/// `reversi (wof): 12 games, 12 valid, 0 invalid, 0 unfinished`.
fn group_heading(out: &mut String, g: &Group) {
    let name = match (g.game, g.variant) {
        ("", _) => "unknown game".to_string(),
        (game, "") => game.to_string(),
        (game, variant) => format!("{game} ({variant})"),
    };
    out.push_str(&format!(
        "{name}: {}, {} valid, {} invalid, {} unfinished\n",
        crate::diag::plural(g.games as usize, "game", "games"),
        g.valid,
        g.invalid,
        g.unfinished
    ));
}

/// Results and final scores by seat, over the finished games.
fn results_table(out: &mut String, g: &Group) {
    let finished = g.finished();
    out.push_str(&format!(
        "\n  results and final scores ({}{}):\n",
        crate::diag::plural(finished as usize, "finished game", "finished games"),
        if g.no_winner > 0 {
            format!(", {} without a winner", g.no_winner)
        } else {
            String::new()
        }
    ));
    if finished == 0 {
        return;
    }
    let mut t = Table::new(&[
        "seat", "wins", "draws", "losses", "min", "median", "max", "mean",
    ]);
    let empty = Distribution::new();
    for (k, seat) in g.seats.iter().enumerate() {
        let r = g.results.get(k).copied().unwrap_or_default();
        let mut cells = vec![
            seat.to_string(),
            r.wins.to_string(),
            r.draws.to_string(),
            r.losses.to_string(),
        ];
        cells.extend(spread(g.scores.get(k).unwrap_or(&empty)));
        t.row(cells);
    }
    t.write(out, "    ");
}

/// The `Result` tags' scores by seat, when some game gives them.
fn recorded_table(out: &mut String, g: &Group) {
    let count: u64 = g.recorded.first().map_or(0, |d| d.values().sum());
    if count == 0 {
        return;
    }
    out.push_str(&format!(
        "\n  scores in Result tags ({}):\n",
        crate::diag::plural(count as usize, "game", "games")
    ));
    let mut t = Table::new(&["seat", "min", "median", "max", "mean"]);
    for (seat, d) in g.seats.iter().zip(&g.recorded) {
        let mut cells = vec![seat.to_string()];
        cells.extend(spread(d));
        t.row(cells);
    }
    t.write(out, "    ");
}

/// `length: min 9, median 60, max 62, mean 59.8 plies (12 valid games)`.
fn lengths_line(out: &mut String, g: &Group) {
    let s = spread(&g.lengths);
    let [min, med, max, avg] = [0, 1, 2, 3].map(|k| s.get(k).cloned().unwrap_or_default());
    out.push_str(&format!(
        "\n  length in plies ({}): min {min}, median {med}, max {max}, mean {avg}\n",
        crate::diag::plural(g.valid as usize, "valid game", "valid games")
    ));
}

/// The most frequent openings with their results by seat (`W/D/L`).
fn openings_table(out: &mut String, g: &Group, top: usize, plies: usize) {
    if g.openings.entries.is_empty() || top == 0 {
        return;
    }
    out.push_str(&format!(
        "\n  openings ({}{}, {} distinct{}):\n",
        crate::diag::plural(plies, "ply", "plies"),
        if g.game == "reversi" {
            ", up to symmetry"
        } else {
            ""
        },
        g.openings.entries.len(),
        if g.openings.untracked > 0 {
            format!(", {} games with openings not counted", g.openings.untracked)
        } else {
            String::new()
        }
    ));
    let heads: Vec<String> = g.seats.iter().map(|s| format!("{s} W/D/L")).collect();
    let mut head = vec!["games", "finished"];
    head.extend(heads.iter().map(String::as_str));
    head.push("moves");
    let mut t = Table::new(&head);
    for (moves, o) in g.openings.top(top, |o| o.games) {
        let mut cells = vec![o.games.to_string(), o.finished.to_string()];
        cells.extend((0..g.seats.len()).map(|k| wdl(o.results.get(k))));
        cells.push(visible(moves).into_owned());
        t.row(cells);
    }
    t.write(out, "    ");
}

/// The players with the most games.
fn players_table(out: &mut String, g: &Group, top: usize) {
    if g.players.entries.is_empty() || top == 0 {
        return;
    }
    out.push_str(&format!(
        "\n  players ({} distinct{}):\n",
        g.players.entries.len(),
        if g.players.untracked > 0 {
            format!(", {} seats with players not counted", g.players.untracked)
        } else {
            String::new()
        }
    ));
    let mut t = Table::new(&["games", "wins", "draws", "losses", "name"]);
    for (name, p) in g.players.top(top, |p| p.games) {
        t.row(vec![
            p.games.to_string(),
            p.results.wins.to_string(),
            p.results.draws.to_string(),
            p.results.losses.to_string(),
            visible(name).into_owned(),
        ]);
    }
    t.write(out, "    ");
}

/// Each group's histograms, one panel each: every seat's final scores, then
/// the lengths.
fn plot(stats: &Stats) -> String {
    let mut panels = Vec::new();
    let (_, height) = crate::svg::PLOT_SIZE;
    for g in stats.groups().filter(|g| g.valid > 0) {
        let name = match g.variant {
            "" => g.game.to_string(),
            v => format!("{} ({v})", g.game),
        };
        for (k, (seat, d)) in g.seats.iter().zip(&g.scores).enumerate() {
            let colour = crate::svg::palette::SEATS
                .get(k % crate::svg::palette::SEATS.len())
                .copied()
                .unwrap_or(crate::svg::palette::BLUE);
            let title = format!(
                "{name}: {seat}'s final score, {} finished games",
                g.finished()
            );
            let y = crate::svg::MARGIN + height * panels.len() as u32;
            panels.push(crate::svg::histogram(
                &title,
                "score",
                colour,
                &pairs(d),
                (crate::svg::MARGIN, y),
            ));
        }
        let title = format!("{name}: length, {} valid games", g.valid);
        let y = crate::svg::MARGIN + height * panels.len() as u32;
        panels.push(crate::svg::histogram(
            &title,
            "plies",
            crate::svg::palette::INK,
            &pairs(&g.lengths),
            (crate::svg::MARGIN, y),
        ));
    }
    crate::svg::plots(&panels)
}

/// A distribution as `(value, count)` pairs.
fn pairs(d: &Distribution) -> Vec<(i64, u64)> {
    d.iter().map(|(&v, &c)| (v, c)).collect()
}
