//! `gamerec dedup PATH... [--symmetric] [--format human|json]`: the games
//! entered more than once, found by [`crate::pipeline::dedup`] as the games
//! stream past (a digest and a place kept per distinct game, never a game),
//! listed at the end as groups: the first game, then its copies, in input
//! order.
//!
//! Exit codes (as pgn-extract's `-D`, finding copies is not a failure): 0
//! when every file was read, copies or not; 2 on a usage error, a file that
//! cannot be read, or a run without games. Invalid games are not compared
//! (counted as such in the summary).

use std::io::Write;

use clap::ValueEnum;
use serde_json::{Value, json};

use super::diagnostics::visible;
use super::inputs::{Event, FileError, ScanArgs};
use super::{Ctx, EXIT_OK, EXIT_USAGE};
use crate::diag::plural;
use crate::pipeline::dedup::{Dedup, Place};

/// The version of the `--format json` document's shape (fields are added,
/// never renamed).
pub const DEDUP_VERSION: u32 = 1;

/// `--format` of `dedup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum DedupFormat {
    /// The groups, then a summary line.
    #[default]
    Human,
    /// One JSON document (docs/commands.md describes its fields).
    Json,
}

#[derive(clap::Args, Debug)]
#[group(id = "dedup_args")]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// Games that are the same up to the game's symmetries are copies too
    /// (Reversi: the board's symmetries that keep the start; Blokus Duo: the
    /// diagonal through both starting points; Trigon: its mirrors and half
    /// turn).
    #[arg(long)]
    pub symmetric: bool,
    /// `human`: the groups and a summary; `json`: one JSON document.
    #[arg(long, value_enum, default_value_t)]
    pub format: DedupFormat,
    #[command(flatten)]
    pub scan: ScanArgs,
}

/// What the run read besides its games.
#[derive(Default)]
struct Problems {
    file_errors: Vec<FileError>,
    skipped: Vec<FileError>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let (dedup, problems) = match find(ctx, &args) {
        Ok(found) => found,
        Err(e) => return super::write_failed(ctx, &e, EXIT_USAGE),
    };
    if dedup.counts.games == 0 && problems.file_errors.is_empty() {
        let message = super::inputs::explain_empty(&args.paths, &args.scan);
        let _ = writeln!(ctx.err, "error: {}", visible(&message));
        return EXIT_USAGE;
    }
    let code = if problems.file_errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_USAGE
    };
    let written = match args.format {
        DedupFormat::Human => {
            let mut out = std::io::BufWriter::new(&mut *ctx.out);
            human(&mut out, &dedup).and_then(|()| out.flush())
        }
        DedupFormat::Json => super::write_document(&mut *ctx.out, &document(&dedup, &problems)),
    };
    match written {
        Ok(()) => code,
        Err(e) => super::write_failed(ctx, &e, code),
    }
}

/// Reads and replays every game, its digest worked out in the replay step;
/// file errors on stderr as they come, skipped entries as warnings (not
/// with `-q`).
fn find(ctx: &mut Ctx, args: &Args) -> std::io::Result<(Dedup, Problems)> {
    let opts = Dedup::options(ctx.settings.game.clone(), ctx.settings.variant.clone());
    let read_opts = ctx.read_options();
    let symmetric = args.symmetric;
    let mut dedup = Dedup::new(symmetric);
    let mut problems = Problems::default();
    let quiet = ctx.settings.quiet;
    let mut progress = super::progress::Progress::stderr(ctx.settings.progress);
    let digest = move |_: &crate::formats::SourceGame, r: &mut crate::replay::GameReport| {
        Dedup::digest_text(r, symmetric)
    };
    let result = {
        let mut err = progress.above(&mut *ctx.err);
        let stdin: &mut dyn std::io::Read = &mut *ctx.stdin;
        super::inputs::run(
            stdin,
            &args.paths,
            &args.scan,
            &read_opts,
            &opts,
            Some(&digest),
            &mut |e| {
                progress.event(&e);
                match e {
                    Event::Game(g, _, digest) => _ = dedup.add_text(g, digest),
                    // dedup takes no filter options
                    Event::Filtered(_) => {}
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
    result.map(|()| (dedup, problems))
}

/// `FILE, game N`, as human output names a game.
fn name(dedup: &Dedup, place: Place) -> String {
    format!("{}, {}", visible(dedup.file(place)), dedup.label(place))
}

/// Each group (its first game, then `= ` and each copy), a blank line
/// between groups, then the summary line: written a group at a time.
fn human(out: &mut dyn Write, dedup: &Dedup) -> std::io::Result<()> {
    for g in dedup.groups() {
        writeln!(out, "{}", name(dedup, g.first))?;
        for &c in &g.copies {
            writeln!(out, "  = {}", name(dedup, c))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "{}", summary(dedup))
}

/// `12 games: 9 distinct, 2 groups of copies, 3 duplicates` (`up to
/// symmetries` with `--symmetric`; the games not compared when there are).
fn summary(dedup: &Dedup) -> String {
    let c = dedup.counts;
    let mut line = format!(
        "{}: {} distinct, {}, {}",
        plural(c.games as usize, "game", "games"),
        c.distinct,
        plural(c.groups as usize, "group of copies", "groups of copies"),
        plural(c.duplicates as usize, "duplicate", "duplicates"),
    );
    if dedup.symmetric {
        line.push_str(" up to symmetries");
    }
    if c.not_compared > 0 {
        line.push_str(&format!(" ({} invalid, not compared)", c.not_compared));
    }
    line
}

/// A place in JSON: `file`, `game` (from 1), `variation` when it has one.
fn place_json(dedup: &Dedup, place: Place) -> Value {
    let (index, variation) = dedup.game_of(place);
    let mut v = json!({ "file": dedup.file(place), "game": index + 1 });
    if let (Some(variation), Value::Object(m)) = (variation, &mut v) {
        m.insert("variation".into(), json!(variation));
    }
    v
}

/// The `--format json` document: `dedup_version`, `symmetric`, `summary`
/// (`games`, `compared`, `not_compared`, `distinct`, `groups`,
/// `duplicates`, `unreadable`), `groups` (each its `digest` in hexadecimal,
/// its `first` game and its `copies`), `errors`, and `skipped` when a scan
/// skipped entries.
fn document(dedup: &Dedup, problems: &Problems) -> Value {
    let c = dedup.counts;
    let groups: Vec<Value> = dedup
        .groups()
        .into_iter()
        .map(|g| {
            let copies: Vec<Value> = g.copies.iter().map(|&p| place_json(dedup, p)).collect();
            json!({
                "digest": format!("{:032x}", g.digest),
                "first": place_json(dedup, g.first),
                "copies": copies,
            })
        })
        .collect();
    let mut doc = json!({
        "dedup_version": DEDUP_VERSION,
        "symmetric": dedup.symmetric,
        "summary": {
            "games": c.games,
            "compared": c.games - c.not_compared,
            "not_compared": c.not_compared,
            "distinct": c.distinct,
            "groups": c.groups,
            "duplicates": c.duplicates,
            "unreadable": problems.file_errors.len(),
        },
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
