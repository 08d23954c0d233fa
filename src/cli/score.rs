//! `gamerec score PATH... [--plot FILE.svg]`: each game's scores, winners,
//! and whether it is over; `--plot` draws every seat's score after every ply.
//!
//! `--plot` draws a panel per game for up to [`PLOT_GAMES`] games. Past
//! that, one panel per kind of game (game, variant and seats) draws the
//! collection: after each ply, each seat's median score and the band from
//! the 10th to the 90th percentile, a finished game counting with its final
//! score at every later ply. Memory is then bounded by the distinct scores
//! at each ply ([`SUMMARY_PLIES`] plies, [`SUMMARY_KINDS`] kinds at most; a
//! game of another kind is counted as not drawn), not by the games.

use std::collections::BTreeMap;
use std::io::Write;

use super::Ctx;
use super::report;
use crate::replay::{Frames, GameReport, Options, describe};
use crate::svg::{PlotMark, Series};

#[derive(clap::Args, Debug)]
#[group(id = "score_args")]
pub struct Args {
    #[command(flatten)]
    pub report: report::Args,
    /// Also draw every seat's score after every ply (discs, points, blocks
    /// left), errors marked at their ply: one SVG with a plot per game; past
    /// 50 games, a plot per kind of game of each seat's median and 10th-90th
    /// percentile band after each ply.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
}

/// The human form of one game's score.
pub fn describe_score(file: &str, game: &str, r: &GameReport) -> String {
    let about = super::diagnostics::visible(&describe(r)).into_owned();
    let mut out = if about.is_empty() {
        format!("{file}, {game}\n")
    } else {
        format!("{file}, {game} ({about})\n")
    };
    if r.game.is_empty() {
        out.push_str("  unknown game\n");
        return out;
    }
    let state = if !r.valid {
        format!("invalid, stopped after ply {}", r.plies)
    } else if r.over {
        "over".to_string()
    } else {
        "not over".to_string()
    };
    out.push_str(&format!(
        "  {} ({}), {}, {state}\n",
        r.game,
        r.variant,
        crate::diag::plural(r.plies, "ply", "plies")
    ));
    // each seat with its player's name, from the tag named after the seat
    // (`Black`, `Player1`), when the record gives one
    let scores: Vec<String> = r
        .seats
        .iter()
        .zip(&r.scores)
        .map(|(s, v)| match crate::pipeline::stats::player_tag(r, s) {
            Some(name) => format!("{s} {v} ({})", super::diagnostics::visible(name)),
            None => format!("{s} {v}"),
        })
        .collect();
    if !scores.is_empty() {
        out.push_str(&format!("  {}\n", scores.join(", ")));
    }
    match r.winners.len() {
        0 if r.over => out.push_str("  no winner\n"),
        0 => {}
        1 => out.push_str(&format!("  winner: {}\n", r.winners.join(""))),
        _ => out.push_str(&format!("  draw: {}\n", r.winners.join(", "))),
    }
    for note in &r.score_notes {
        out.push_str(&format!("  {note}\n"));
    }
    for u in &r.unchecked {
        out.push_str(&format!("  not checked: {u}\n"));
    }
    out
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let Some(file) = &args.plot else {
        return report::run(ctx, &args.report, Some(describe_score));
    };
    if file == "-" && args.report.format == super::OutputFormat::Json {
        return ctx.usage("--plot - and --format json would both write to standard output");
    }
    // Standard input is read twice (scores, then the plot): keep it.
    let mut stdin = Vec::new();
    if args.report.paths.iter().any(|p| p == "-") {
        let _ = ctx.stdin.read_to_end(&mut stdin);
    }
    let code = if file == "-" {
        report_to_stderr(ctx, &stdin, &args.report)
    } else {
        report::run(
            &mut with_stdin(ctx, &mut stdin.as_slice()),
            &args.report,
            Some(describe_score),
        )
    };
    let opts = Options {
        game: ctx.settings.game.clone(),
        variant: ctx.settings.variant.clone(),
        // a plot's title describes its game
        sink: std::sync::Arc::new(crate::replay::sink::Brief),
        check_scores: None,
    };
    let (_, height) = crate::svg::PLOT_SIZE;
    let read_opts = ctx.read_options();
    let mut plotter = Plotter {
        opts: &opts,
        filter: read_opts.filter.clone(),
        panels: Vec::new(),
        summary: Summary::default(),
        height,
    };
    let mut add = |g: Result<crate::formats::SourceGame, super::inputs::FileError>| {
        // unreadable files were reported above
        if let Ok(g) = g {
            plotter.add(g);
        }
    };
    super::inputs::each_game(
        &mut stdin.as_slice(),
        &args.report.paths,
        &args.report.scan,
        &read_opts,
        &mut add,
    );
    let Plotter {
        mut panels,
        summary,
        ..
    } = plotter;
    if summary.games > PLOT_GAMES {
        panels = summary.panels(height);
        if summary.left_out > 0 {
            let _ = writeln!(
                ctx.err,
                "warning: --plot draws {SUMMARY_KINDS} kinds of game at most; {} of other kinds not drawn",
                crate::diag::plural(summary.left_out, "game", "games")
            );
        }
    }
    let svg = crate::svg::plots(&panels);
    let written = if file == "-" {
        write!(ctx.out, "{svg}").map_err(|e| e.to_string())
    } else {
        std::fs::write(file, svg).map_err(|e| e.to_string())
    };
    match written {
        Ok(()) => code,
        Err(e) => ctx.usage(&format!("cannot write {file}: {e}")),
    }
}

/// The panels of `--plot` as the games come: one per game up to
/// [`PLOT_GAMES`], the summary counting every game.
struct Plotter<'o> {
    opts: &'o Options,
    filter: Option<std::sync::Arc<crate::pipeline::Filter>>,
    panels: Vec<String>,
    summary: Summary,
    height: u32,
}

impl Plotter<'_> {
    fn add(&mut self, mut g: crate::formats::SourceGame) {
        let opts = self.opts;
        g.materialize();
        g.default_variant(opts.variant.as_deref());
        let raw = &g.raw;
        let Ok((game, _)) = crate::registry::resolve_in(raw, &g.text, opts) else {
            return;
        };
        let kept = |r: &GameReport| self.filter.as_ref().is_none_or(|f| f.keeps_report(r));
        if self.summary.games >= PLOT_GAMES {
            // past a panel per game: only what the summary counts
            let plots = game.plots(raw, &g.text, opts);
            if kept(&plots.report) {
                self.summary
                    .add(&plots.report, &plots.values, &plots.colours, plots.unit);
                self.panels = Vec::new();
            }
            return;
        }
        let mut frames = game.frames(raw, &g.text, opts);
        if !kept(&frames.report) {
            return;
        }
        let values: Vec<Vec<i64>> = frames.frames.iter().map(|f| f.plot.clone()).collect();
        let colours = frames
            .frames
            .first()
            .map(|f| f.scene.seats.iter().map(|(_, c)| *c).collect::<Vec<_>>())
            .unwrap_or_default();
        self.summary
            .add(&frames.report, &values, &colours, frames.unit);
        let tags = raw
            .tags
            .0
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()));
        frames.report.about = Some(crate::replay::describe_tags(tags, frames.report.seats));
        let title = title(&g.file.name, g.index, &frames.report);
        let at = (
            crate::svg::MARGIN,
            crate::svg::MARGIN + self.height * self.panels.len() as u32,
        );
        self.panels.push(plot(&title, &frames, at));
    }
}

/// `ctx` reading standard input from `stdin`.
fn with_stdin<'a>(ctx: &'a mut Ctx, stdin: &'a mut &[u8]) -> Ctx<'a> {
    Ctx {
        out: &mut *ctx.out,
        err: &mut *ctx.err,
        stdin,
        settings: ctx.settings.clone(),
    }
}

/// The scores of `--plot -` (the plot is standard output): what the report
/// writes to standard output goes to stderr, coloured as stderr is.
fn report_to_stderr(ctx: &mut Ctx, stdin: &[u8], args: &report::Args) -> i32 {
    let err = std::cell::RefCell::new(&mut *ctx.err);
    let mut settings = ctx.settings.clone();
    settings.color_out = settings.color_err;
    let mut stdin = stdin;
    let mut ctx = Ctx {
        out: &mut Shared(&err),
        err: &mut Shared(&err),
        stdin: &mut stdin,
        settings,
    };
    report::run(&mut ctx, args, Some(describe_score))
}

/// One writer written through two handles, in the order they write.
struct Shared<'a, W>(&'a std::cell::RefCell<W>);

impl<W: Write> Write for Shared<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// A plot's title: file, game, description.
pub fn title(file: &str, index: usize, r: &GameReport) -> String {
    let about = describe(r);
    if about.is_empty() {
        format!("{file}, game {}: {}", index + 1, r.game)
    } else {
        format!("{file}, game {}: {} ({about})", index + 1, r.game)
    }
}

/// One game's score plot, placed at `at`.
pub fn plot(title: &str, frames: &Frames, at: (u32, u32)) -> String {
    let r = &frames.report;
    let colours: Vec<&'static str> = frames
        .frames
        .last()
        .map(|f| f.scene.seats.iter().map(|(_, c)| *c).collect())
        .unwrap_or_default();
    let series: Vec<Series> = r
        .seats
        .iter()
        .enumerate()
        .map(|(k, seat)| Series {
            name: seat.to_string(),
            colour: colours
                .get(k)
                .copied()
                .unwrap_or(crate::svg::palette::BLACK),
            values: frames
                .frames
                .iter()
                .map(|f| f.plot.get(k).copied().unwrap_or(0))
                .collect(),
        })
        .collect();
    let marks: Vec<PlotMark> = r
        .errors
        .iter()
        .map(|d| (d, true))
        .chain(r.warnings.iter().map(|d| (d, false)))
        .map(|(d, error)| PlotMark {
            ply: d.ply,
            code: d.code.to_string(),
            error,
        })
        .collect();
    crate::svg::plot(title, frames.unit, &series, &marks, at)
}

/// Games drawn a panel each by `score --plot`; past this many, a summary.
pub const PLOT_GAMES: usize = 50;
/// Plies a summary counts per game (the rest of a longer game is left out).
pub const SUMMARY_PLIES: usize = 400;
/// Kinds of game (game, variant, seats) a summary draws at most.
pub const SUMMARY_KINDS: usize = 16;

/// The distribution of every seat's score after each ply, per kind of game.
#[derive(Default)]
struct Summary {
    kinds: Vec<Kind>,
    /// Games counted, and those of a kind past [`SUMMARY_KINDS`].
    games: usize,
    left_out: usize,
}

/// One kind of game's distributions: `at[ply][seat]` counts each value
/// after that ply among the games still going, `ended[ply][seat]` the final
/// values of the games whose last ply it is.
struct Kind {
    game: &'static str,
    variant: &'static str,
    seats: &'static [&'static str],
    colours: Vec<&'static str>,
    unit: &'static str,
    games: usize,
    at: Vec<Vec<BTreeMap<i64, u64>>>,
    ended: Vec<Vec<BTreeMap<i64, u64>>>,
}

impl Summary {
    /// Counts one game's plotted values (after each ply).
    fn add(
        &mut self,
        r: &GameReport,
        values: &[Vec<i64>],
        colours: &[&'static str],
        unit: &'static str,
    ) {
        self.games += 1;
        let same = |k: &Kind| k.game == r.game && k.variant == r.variant && k.seats == r.seats;
        if !self.kinds.iter().any(same) {
            if self.kinds.len() >= SUMMARY_KINDS {
                self.left_out += 1;
                return;
            }
            self.kinds.push(Kind {
                game: r.game,
                variant: r.variant,
                seats: r.seats,
                colours: colours.to_vec(),
                unit,
                games: 0,
                at: Vec::new(),
                ended: Vec::new(),
            });
        }
        let Some(kind) = self.kinds.iter_mut().find(|k| same(k)) else {
            return;
        };
        kind.games += 1;
        let seats = kind.seats.len();
        let values = values
            .get(..values.len().min(SUMMARY_PLIES))
            .unwrap_or_default();
        for (ply, v) in values.iter().enumerate() {
            if kind.at.len() <= ply {
                kind.at.push(vec![BTreeMap::new(); seats]);
                kind.ended.push(vec![BTreeMap::new(); seats]);
            }
            let last = ply + 1 == values.len();
            for (s, &x) in v.iter().enumerate().take(seats) {
                if let Some(m) = kind.at.get_mut(ply).and_then(|a| a.get_mut(s)) {
                    *m.entry(x).or_default() += 1;
                }
                if last && let Some(m) = kind.ended.get_mut(ply).and_then(|a| a.get_mut(s)) {
                    *m.entry(x).or_default() += 1;
                }
            }
        }
    }

    /// A panel per kind of game, stacked from the top.
    fn panels(&self, height: u32) -> Vec<String> {
        self.kinds
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let at = (crate::svg::MARGIN, crate::svg::MARGIN + height * i as u32);
                k.panel(at)
            })
            .collect()
    }
}

impl Kind {
    /// Its panel: per seat, the median and the 10th-90th percentile band
    /// after each ply, a finished game counting with its final score.
    fn panel(&self, at: (u32, u32)) -> String {
        let seats = self.seats.len();
        let mut bands: Vec<crate::svg::Band> = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, name)| crate::svg::Band {
                name: name.to_string(),
                colour: self
                    .colours
                    .get(s)
                    .copied()
                    .unwrap_or(crate::svg::palette::BLACK),
                low: Vec::new(),
                median: Vec::new(),
                high: Vec::new(),
            })
            .collect();
        // the final values of the games ended before the ply looked at
        let mut finished: Vec<BTreeMap<i64, u64>> = vec![BTreeMap::new(); seats];
        for (going, ended) in self.at.iter().zip(&self.ended) {
            for (s, b) in bands.iter_mut().enumerate() {
                let (Some(g), Some(f)) = (going.get(s), finished.get(s)) else {
                    continue;
                };
                let [low, median, high] = quantiles(g, f, [(1, 10), (1, 2), (9, 10)]);
                b.low.push(low);
                b.median.push(median);
                b.high.push(high);
            }
            for (f, e) in finished.iter_mut().zip(ended) {
                for (&v, &n) in e {
                    *f.entry(v).or_default() += n;
                }
            }
        }
        let title = format!(
            "{} ({}), {}: median and 10th-90th percentile after each ply",
            self.game,
            self.variant,
            crate::diag::plural(self.games, "game", "games")
        );
        crate::svg::band_plot(&title, self.unit, &bands, at)
    }
}

/// The values at quantiles `num`/`den` (in increasing order) of two
/// counted sets together, merged once (each the lower of the two middle
/// values when it falls between them).
fn quantiles<const N: usize>(
    a: &BTreeMap<i64, u64>,
    b: &BTreeMap<i64, u64>,
    fractions: [(u64, u64); N],
) -> [i64; N] {
    let total: u64 = a.values().chain(b.values()).sum();
    let mut out = [0; N];
    if total == 0 {
        return out;
    }
    let mut values: Vec<(i64, u64)> = a.iter().chain(b.iter()).map(|(&v, &n)| (v, n)).collect();
    values.sort_unstable();
    let mut values = values.into_iter();
    let mut seen = 0;
    let mut current = 0;
    for (slot, (num, den)) in out.iter_mut().zip(fractions) {
        let rank = (total - 1) * num / den;
        while seen <= rank {
            let Some((v, n)) = values.next() else {
                break;
            };
            seen += n;
            current = v;
        }
        *slot = current;
    }
    out
}
