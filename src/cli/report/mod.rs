//! The reports of `validate` and `score`: the sinks at the end of the
//! pipeline (`inputs::run`), one per output format, each writing a game as
//! soon as its report is ready, in input order, and keeping only counts.
//!
//! - `human`: diagnostics on stderr, `score`'s text per game and the summary
//!   line on stdout;
//! - `json`: one document (spec §2), written a game at a time: the `games`
//!   array, then `summary` and `errors` (the same bytes as the document built
//!   whole would be);
//! - `jsonl`: one object per game per line, then one last line
//!   `{"summary": {...}, "errors": [...]}`;
//! - `github`, `sarif`, `junit`: what CI systems read (`github`,
//!   `sarif`, `junit`).
//!
//! Field names are a contract: add fields, never rename. The JSON document's
//! shape is described by the JSON Schema `gamerec schema` prints
//! (`schemas/report.schema.json`).

mod github;
mod junit;
mod sarif;

use std::io::{self, Write};

use super::diagnostics::{self, visible, visible_lines};
use super::inputs::{Event, FileError};
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, OutputFormat};
use crate::formats::SourceGame;
use crate::pipeline::Glob;
use crate::pipeline::json::{JsonReport, Shape};
pub use crate::pipeline::json::{SCHEMA, SCHEMA_VERSION, game_json};
pub use crate::pipeline::{Summary, Tally};
use crate::replay::sink::End;
use crate::replay::{GameReport, Options, TagsKept};

/// A `--allow`/`--deny` pattern: `*` any run of characters (`reversi::*`),
/// `?` one; otherwise the code itself.
fn wildcards(pattern: &str) -> Result<Glob, std::convert::Infallible> {
    Ok(Glob::wildcards(pattern))
}

/// `--allow` and `--deny` on one game's report, and help lines that fit the
/// input: an allowed warning is dropped, a denied one becomes an error
/// (the game invalid). A binary record's `result_unchecked` cannot be
/// edited to `*`: its help says how to silence it instead.
fn adjust(g: &SourceGame, r: &mut GameReport, allow: &[Glob], deny: &[Glob]) {
    if r.warnings.is_empty() {
        return;
    }
    if !allow.is_empty() {
        r.warnings
            .retain(|d| !allow.iter().any(|p| p.matches(&d.code)));
    }
    if !deny.is_empty() {
        let (denied, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut r.warnings)
            .into_iter()
            .partition(|d| deny.iter().any(|p| p.matches(&d.code)));
        r.warnings = kept;
        if !denied.is_empty() {
            r.valid = false;
        }
        for mut d in denied {
            d.severity = crate::diag::Severity::Error;
            r.errors.push(d);
        }
    }
    if g.byte_map.is_some() {
        for d in &mut r.warnings {
            if d.code == "record::result_unchecked" {
                d.help = Some(
                    "this binary record keeps a score for every game, over or not; \
                     --allow record::result_unchecked silences this warning"
                        .into(),
                );
            }
        }
    }
}

/// The arguments of `validate` and `score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// `json`: one JSON document on stdout, diagnostics included; `jsonl`:
    /// one JSON object per game per line, then the summary; `github`:
    /// GitHub Actions workflow commands; `sarif`: a SARIF 2.1.0 log;
    /// `junit`: JUnit XML, one test case per game.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Warnings make a game count as invalid for the exit code.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Silence the warnings of this code (repeatable; globs such as
    /// `reversi::*`). Errors cannot be allowed.
    #[arg(long, value_name = "CODE", value_parser = wildcards)]
    pub allow: Vec<Glob>,
    /// Make the warnings of this code errors: their games are invalid
    /// (repeatable; globs such as `record::*`).
    #[arg(long, value_name = "CODE", value_parser = wildcards)]
    pub deny: Vec<Glob>,
    /// Exit 0 when the run reads no game (by default `no games found`, exit 2).
    #[arg(long)]
    pub allow_empty: bool,
    /// Check the scores a record lists for its start's moves (an `.obf`
    /// position's `G8:+18`, the `MoveScores` tag) by the exact endgame
    /// search: `reversi::score_mismatch` when one differs.
    #[arg(long)]
    pub check_scores: bool,
    /// With --check-scores: positions with more empty squares than this are
    /// left unchecked, with a `reversi::scores_unchecked` warning (the
    /// search's time grows about threefold per empty square).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_EMPTIES, requires = "check_scores")]
    pub max_empties: u32,
    #[command(flatten)]
    pub scan: super::inputs::ScanArgs,
}

/// `--max-empties`' default: a position of 20 empty squares takes about 3 s
/// in a release build (every listed move searched), 22 from 10 to 30 s, 24
/// minutes; FFO positions 1 to 19 (14 to 16 empty squares) under a second.
pub const DEFAULT_MAX_EMPTIES: u32 = 20;

/// Where reports go: one sink per output format.
struct Sink<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    quiet: bool,
    format: OutputFormat,
    per_game: Option<fn(&str, &str, &GameReport) -> String>,
    summary: Summary,
    file_errors: Vec<FileError>,
    skipped: Vec<FileError>,
    /// Games with warnings (for `--deny-warnings`).
    warned: usize,
    /// Warnings per code, for the summary (after `--allow`/`--deny`).
    tally: Tally,
    /// `-qq`: not even errors.
    quiet_all: bool,
    json: JsonReport,
    sarif: sarif::Writer,
    junit: junit::Writer,
}

impl Sink<'_> {
    fn start(&mut self) -> io::Result<()> {
        match self.format {
            OutputFormat::Json | OutputFormat::Jsonl => self.json.start(self.out),
            OutputFormat::Sarif => self.sarif.start(self.out),
            OutputFormat::Junit => self.junit.start(self.out),
            _ => Ok(()),
        }
    }

    fn event(&mut self, event: Event) -> io::Result<()> {
        match event {
            Event::Game(g, r, rendered) => {
                self.summary.add(r);
                if !r.warnings.is_empty() {
                    self.warned += 1;
                }
                for d in &r.warnings {
                    self.tally.add(&d.code);
                }
                match self.format {
                    OutputFormat::Github => github::game(self.out, g, r)?,
                    OutputFormat::Sarif => self.sarif.game(self.out, g, r)?,
                    OutputFormat::Junit => self.junit.game(self.out, g, r)?,
                    OutputFormat::Json | OutputFormat::Jsonl => self.json.game(self.out, g, r)?,
                    OutputFormat::Human => {
                        // rendered in the replay step (errors only with `-q`)
                        if !self.quiet_all {
                            self.err.write_all(rendered.as_bytes())?;
                        }
                        if !self.quiet {
                            if let Some(describe) = self.per_game {
                                let text = describe(&visible(&g.file.name), &g.label(), r);
                                write!(self.out, "{}", visible_lines(&text))?;
                            }
                        }
                    }
                }
            }
            Event::FileError(e) => {
                self.summary.add_error(e.code);
                match self.format {
                    OutputFormat::Human => {
                        let code = e.code.map(|c| format!("{c}: ")).unwrap_or_default();
                        writeln!(
                            self.err,
                            "error: {}: {code}{}",
                            visible(&e.file),
                            visible(&e.message)
                        )?;
                    }
                    OutputFormat::Github => github::file_error(self.out, e)?,
                    OutputFormat::Junit => self.junit.file_error(self.out, e)?,
                    _ => {}
                }
                self.file_errors.push(e.clone());
            }
            Event::Filtered(_) => self.summary.skipped += 1,
            Event::Skipped(e) => {
                match self.format {
                    OutputFormat::Human if !self.quiet => writeln!(
                        self.err,
                        "warning: {}: {}",
                        visible(&e.file),
                        visible(&e.message)
                    )?,
                    OutputFormat::Github => github::skipped(self.out, e)?,
                    _ => {}
                }
                self.skipped.push(e.clone());
            }
        }
        Ok(())
    }

    /// A run that read no game: `record::no_games`, an error of no game
    /// (it makes the exit code 2).
    fn no_games(&mut self, e: FileError) -> io::Result<()> {
        match self.format {
            OutputFormat::Human => writeln!(
                self.err,
                "error: {}\n  help: --allow-empty accepts a run without games",
                visible(&e.message)
            )?,
            OutputFormat::Github => github::file_error(self.out, &e)?,
            OutputFormat::Junit => self.junit.file_error(self.out, &e)?,
            _ => {}
        }
        self.file_errors.push(e);
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let s = self.summary;
        match self.format {
            OutputFormat::Json | OutputFormat::Jsonl => {
                self.json
                    .finish(self.out, &s, &self.tally, &self.file_errors, &self.skipped)?
            }
            OutputFormat::Human | OutputFormat::Github => {
                writeln!(self.out, "{}{}", s.line(), self.tally.line())?
            }
            OutputFormat::Sarif => self.sarif.finish(
                self.out,
                &self.file_errors,
                &self.skipped,
                self.tally.json(s.json()),
            )?,
            OutputFormat::Junit => self
                .junit
                .finish(self.out, &format!("{}{}", s.line(), self.tally.line()))?,
        }
        Ok(())
    }
}

/// The replay step's share of a report (in parallel): `--allow`/`--deny`
/// applied, then, with `draw` (colour, `-q`), the human diagnostics drawn
/// (`-q`: the errors alone).
fn prepare_game(
    g: &SourceGame,
    r: &mut GameReport,
    args: &Args,
    draw: Option<(bool, bool)>,
) -> String {
    adjust(g, r, &args.allow, &args.deny);
    let Some((color, quiet)) = draw else {
        return String::new();
    };
    let mut text = Vec::new();
    if quiet {
        let warnings = std::mem::take(&mut r.warnings);
        let _ = diagnostics::write_game(&mut text, color, g, r);
        r.warnings = warnings;
    } else {
        let _ = diagnostics::write_game(&mut text, color, g, r);
    }
    String::from_utf8(text).unwrap_or_default()
}

/// What the reports keep: the machine formats show the tags and result
/// extras, the human one `describe`'s text (and `score` the players' names
/// and notes).
#[derive(Debug)]
struct Shown {
    tags: TagsKept,
    result_extras: bool,
    score_notes: bool,
}

impl crate::replay::Sink for Shown {
    fn tags(&self) -> TagsKept {
        self.tags
    }

    fn end(&self, report: &mut GameReport, end: &dyn End) {
        if self.result_extras {
            report.result_extras = end.result_extras();
        }
        if self.score_notes {
            report.score_notes = end.score_notes();
        }
    }
}

fn options(ctx: &Ctx, args: &Args, per_game: bool) -> Options {
    let machine = args.format != OutputFormat::Human;
    let quiet = ctx.settings.quiet;
    let quiet_all = ctx.settings.quiet_all;
    let tags = if machine || per_game {
        // the machine formats show the tags; the human one only
        // `describe`'s text, and `score`'s the players' names
        TagsKept::All
    } else if !quiet || (!args.deny.is_empty() && !quiet_all) {
        // every game is shown (or a denied warning may be an error on the
        // WTHOR fast path, which keeps no tags unless asked)
        TagsKept::Described
    } else if !quiet_all {
        // `-q` shows only the games with errors, so only theirs are
        // described
        TagsKept::DescribedIfDiagnostics
    } else {
        // `-qq` shows nothing per game
        TagsKept::Nothing
    };
    Options {
        game: ctx.settings.game.clone(),
        variant: ctx.settings.variant.clone(),
        sink: std::sync::Arc::new(Shown {
            tags,
            result_extras: machine,
            // the human `score` text shows them
            score_notes: per_game && !machine,
        }),
        check_scores: args.check_scores.then_some(args.max_empties),
    }
}

/// Replays every game of the paths and reports in the chosen format: for
/// humans, the diagnostics on stderr, `per_game`'s text for each game and
/// the summary line on stdout. Returns the exit code.
pub fn run(
    ctx: &mut Ctx,
    args: &Args,
    per_game: Option<fn(&str, &str, &GameReport) -> String>,
) -> i32 {
    let opts = options(ctx, args, per_game.is_some());
    let read_opts = ctx.read_options();
    let mut progress = super::progress::Progress::stderr(ctx.settings.progress);
    // whether every game was read (a closed pipe can stop the run early)
    let mut reached_end = false;
    let (result, summary, file_errors) = {
        let mut err = progress.above(&mut *ctx.err);
        let mut sink = Sink {
            out: &mut *ctx.out,
            err: &mut err,
            quiet: ctx.settings.quiet,
            format: args.format,
            per_game,
            summary: Summary {
                filtered: ctx.settings.filter.is_some(),
                ..Summary::default()
            },
            file_errors: Vec::new(),
            skipped: Vec::new(),
            warned: 0,
            tally: Tally::default(),
            quiet_all: ctx.settings.quiet_all,
            json: JsonReport::new(if args.format == OutputFormat::Jsonl {
                Shape::Lines
            } else {
                Shape::Document
            }),
            sarif: sarif::Writer::default(),
            junit: junit::Writer::default(),
        };
        let stdin: &mut dyn std::io::Read = &mut *ctx.stdin;
        // human diagnostics are drawn in the replay step, in parallel
        let draw = args.format == OutputFormat::Human && !ctx.settings.quiet_all;
        let (color, quiet) = (ctx.settings.color_err, ctx.settings.quiet);
        let render = |g: &SourceGame, r: &mut GameReport| {
            prepare_game(g, r, args, draw.then_some((color, quiet)))
        };
        let prepare: Option<super::inputs::Prepare> = Some(&render);
        let result = sink.start().and_then(|()| {
            super::inputs::run(
                stdin,
                &args.paths,
                &args.scan,
                &read_opts,
                &opts,
                prepare,
                &mut |e| {
                    progress.event(&e);
                    sink.event(e)
                },
            )
        });
        progress.finish();
        let result = result.and_then(|()| {
            // a run whose games the filter all left out read games: no error
            let read_none = sink.summary.games == 0 && sink.summary.skipped == 0;
            if read_none && sink.file_errors.is_empty() && !args.allow_empty {
                let message = super::inputs::explain_empty(&args.paths, &args.scan);
                sink.no_games(FileError {
                    file: args.paths.join(" "),
                    message,
                    code: Some("record::no_games"),
                })?;
            }
            reached_end = true;
            sink.finish()
        });
        let mut summary = sink.summary;
        if args.deny_warnings {
            // games with warnings fail the run: counted with the invalid ones
            // for the exit code only
            summary.invalid += sink.warned;
        }
        (result, summary, !sink.file_errors.is_empty())
    };
    let code = exit_code(summary, file_errors);
    ctx.filter_warnings();
    match result {
        Ok(()) => code,
        // a closed pipe before the end: the games not read were not
        // checked, so a run that saw no invalid game is not a pass
        Err(e) if !reached_end && code == EXIT_OK => super::write_failed(ctx, &e, EXIT_USAGE),
        Err(e) => super::write_failed(ctx, &e, code),
    }
}

/// 2 over 1 over 0.
pub fn exit_code(summary: Summary, file_errors: bool) -> i32 {
    if file_errors {
        EXIT_USAGE
    } else if summary.invalid > 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}
