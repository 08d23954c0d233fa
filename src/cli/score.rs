//! `gamerec score PATH... [--plot FILE.svg]`: each game's scores, winners,
//! and whether it is over; `--plot` draws every seat's score after every ply.

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
    /// left), errors marked at their ply: one SVG with a plot per game.
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
    let code = report::run(
        &mut with_stdin(ctx, &mut stdin.as_slice()),
        &args.report,
        Some(describe_score),
    );
    let opts = Options {
        game: ctx.settings.game.clone(),
        variant: ctx.settings.variant.clone(),
        result_extras: false,
        all_tags: false,
        ..Options::default()
    };
    let mut panels = Vec::new();
    let (_, height) = crate::svg::PLOT_SIZE;
    let read_opts = ctx.read_options();
    let filter = read_opts.filter.clone();
    let mut add = |g: Result<crate::formats::SourceGame, super::inputs::FileError>| {
        // unreadable files were reported above
        let Ok(mut g) = g else {
            return;
        };
        g.materialize();
        g.default_variant(opts.variant.as_deref());
        let raw = &g.raw;
        let Ok((game, _)) = crate::registry::resolve_in(raw, &g.text, &opts) else {
            return;
        };
        let mut frames = game.frames(raw, &g.text, &opts);
        if filter
            .as_ref()
            .is_some_and(|f| !f.keeps_report(&frames.report))
        {
            return;
        }
        let tags = raw
            .tags
            .0
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()));
        frames.report.about = Some(crate::replay::describe_tags(tags, frames.report.seats));
        let title = title(&g.file.name, g.index, &frames.report);
        let at = (
            crate::svg::MARGIN,
            crate::svg::MARGIN + height * panels.len() as u32,
        );
        panels.push(plot(&title, &frames, at));
    };
    super::inputs::each_game(
        &mut stdin.as_slice(),
        &args.report.paths,
        &args.report.scan,
        &read_opts,
        &mut add,
    );
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

/// `ctx` reading standard input from `stdin`.
fn with_stdin<'a>(ctx: &'a mut Ctx, stdin: &'a mut &[u8]) -> Ctx<'a> {
    Ctx {
        out: &mut *ctx.out,
        err: &mut *ctx.err,
        stdin,
        settings: ctx.settings.clone(),
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
