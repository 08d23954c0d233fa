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
//! - `github`, `sarif`, `junit`: what CI systems read ([`github`],
//!   [`sarif`], [`junit`]).
//!
//! Field names are a contract: add fields, never rename. The JSON document's
//! shape is described by the JSON Schema `gamerec schema` prints
//! (`schemas/report.schema.json`).

mod github;
mod junit;
mod sarif;

use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::diagnostics::{self, to_json, visible};
use super::inputs::{Event, FileError};
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, OutputFormat};
use crate::formats::SourceGame;
use crate::model::scores_map;
use crate::replay::{GameReport, Options};

/// Counts for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub valid: usize,
    pub invalid: usize,
    pub unfinished: usize,
    /// Files that could not be read (or ended early).
    pub unreadable: usize,
}

impl Summary {
    pub fn add(&mut self, r: &GameReport) {
        self.games += 1;
        if r.valid {
            self.valid += 1;
            if !r.over {
                self.unfinished += 1;
            }
        } else {
            self.invalid += 1;
        }
    }

    pub fn line(&self) -> String {
        let mut line = format!(
            "{}, {} valid, {} invalid, {} unfinished",
            crate::diag::plural(self.games, "game", "games"),
            self.valid,
            self.invalid,
            self.unfinished
        );
        if self.unreadable > 0 {
            line.push_str(&format!(", {} unreadable", self.unreadable));
        }
        line
    }

    fn json(&self) -> Value {
        json!({ "games": self.games, "valid": self.valid, "invalid": self.invalid, "unfinished": self.unfinished })
    }
}

/// The version of the JSON document's shape (`schema_version`): raised
/// when a field changes meaning; adding fields keeps it.
pub const SCHEMA_VERSION: u32 = 1;

/// The JSON Schema of the `--format json` document and of `jsonl` lines.
pub const SCHEMA: &str = include_str!("../../../schemas/report.schema.json");

/// One game's JSON object.
pub fn game_json(g: &SourceGame, r: &GameReport) -> Value {
    // line starts only for a game with diagnostics (a book's lines share a long text)
    let lines = (!r.errors.is_empty() || !r.warnings.is_empty()).then(|| g.lines());
    let mut obj = Map::new();
    obj.insert("file".into(), json!(g.file.name));
    obj.insert("index".into(), json!(g.index));
    if let Some(v) = &g.variation {
        obj.insert("variation".into(), json!(v));
    }
    let tags: Map<String, Value> = r
        .tags
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    obj.insert("tags".into(), Value::Object(tags));
    let opt = |s: &str| if s.is_empty() { Value::Null } else { json!(s) };
    obj.insert("game".into(), opt(r.game));
    obj.insert("variant".into(), opt(r.variant));
    obj.insert("valid".into(), json!(r.valid));
    obj.insert("plies".into(), json!(r.plies));
    obj.insert("over".into(), json!(r.over));
    obj.insert("scores".into(), Value::Object(scores_map(r)));
    obj.insert("winners".into(), json!(r.winners));
    let diags = |list: &[crate::diag::Diag]| -> Value {
        list.iter()
            .map(|d| to_json(d, lines.as_ref(), g.byte_map.as_ref()))
            .collect()
    };
    obj.insert("warnings".into(), diags(&r.warnings));
    obj.insert("errors".into(), diags(&r.errors));
    obj.insert("result".into(), Value::Object(r.result_extras.clone()));
    obj.insert("unchecked".into(), json!(r.unchecked));
    obj.insert("source_format".into(), json!(g.file.format.name()));
    Value::Object(obj)
}

fn file_errors_json(errors: &[FileError]) -> Value {
    errors
        .iter()
        .map(|e| {
            let mut o = Map::new();
            o.insert("file".into(), json!(e.file));
            o.insert("message".into(), json!(e.message));
            if let Some(code) = e.code {
                o.insert("code".into(), json!(code));
            }
            Value::Object(o)
        })
        .collect()
}

/// `value` pretty-printed as it stands at `indent` spaces inside a
/// pretty-printed document (its first line is not indented).
fn pretty_at(value: &Value, indent: usize) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    if indent == 0 {
        return text;
    }
    text.replace('\n', &format!("\n{}", " ".repeat(indent)))
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
    #[command(flatten)]
    pub scan: super::inputs::ScanArgs,
}

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
    sarif: sarif::Writer,
    junit: junit::Writer,
}

impl Sink<'_> {
    fn start(&mut self) -> io::Result<()> {
        match self.format {
            OutputFormat::Json => write!(
                self.out,
                "{{\n  \"schema_version\": {SCHEMA_VERSION},\n  \"games\": ["
            ),
            OutputFormat::Sarif => self.sarif.start(self.out),
            OutputFormat::Junit => self.junit.start(self.out),
            _ => Ok(()),
        }
    }

    fn event(&mut self, event: Event) -> io::Result<()> {
        match event {
            Event::Game(g, r, rendered) => {
                let first = self.summary.games == 0;
                self.summary.add(r);
                if !r.warnings.is_empty() {
                    self.warned += 1;
                }
                match self.format {
                    OutputFormat::Github => github::game(self.out, g, r)?,
                    OutputFormat::Sarif => self.sarif.game(self.out, g, r)?,
                    OutputFormat::Junit => self.junit.game(self.out, g, r)?,
                    OutputFormat::Json => {
                        let sep = if first { "\n    " } else { ",\n    " };
                        write!(self.out, "{sep}")?;
                        crate::formats::json::write_pretty_at(self.out, &game_json(g, r), 4)?;
                    }
                    OutputFormat::Jsonl => {
                        serde_json::to_writer(&mut *self.out, &game_json(g, r))?;
                        writeln!(self.out)?;
                    }
                    OutputFormat::Human => {
                        if !self.quiet {
                            // rendered in the replay step
                            self.err.write_all(rendered.as_bytes())?;
                            if let Some(describe) = self.per_game {
                                let text = describe(&g.file.name, &g.label(), r);
                                write!(self.out, "{}", visible(&text))?;
                            }
                        }
                    }
                }
            }
            Event::FileError(e) => {
                self.summary.unreadable += 1;
                match self.format {
                    OutputFormat::Human => {
                        let code = e.code.map(|c| format!("{c}: ")).unwrap_or_default();
                        writeln!(
                            self.err,
                            "error: {}: {code}{}",
                            super::diagnostics::visible_name(&e.file),
                            visible(&e.message)
                        )?;
                    }
                    OutputFormat::Github => github::file_error(self.out, e)?,
                    OutputFormat::Junit => self.junit.file_error(self.out, e)?,
                    _ => {}
                }
                self.file_errors.push(e.clone());
            }
            Event::Skipped(e) => {
                match self.format {
                    OutputFormat::Human if !self.quiet => writeln!(
                        self.err,
                        "warning: {}: {}",
                        super::diagnostics::visible_name(&e.file),
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

    fn finish(&mut self) -> io::Result<()> {
        let s = self.summary;
        match self.format {
            OutputFormat::Json => {
                let close = if s.games == 0 { "]" } else { "\n  ]" };
                write!(
                    self.out,
                    "{close},\n  \"summary\": {},\n  \"errors\": {}",
                    pretty_at(&s.json(), 2),
                    pretty_at(&file_errors_json(&self.file_errors), 2)
                )?;
                if !self.skipped.is_empty() {
                    write!(
                        self.out,
                        ",\n  \"skipped\": {}",
                        pretty_at(&file_errors_json(&self.skipped), 2)
                    )?;
                }
                writeln!(self.out, "\n}}")?;
            }
            OutputFormat::Jsonl => {
                let mut last = Map::new();
                last.insert("schema_version".into(), json!(SCHEMA_VERSION));
                last.insert("summary".into(), s.json());
                last.insert("errors".into(), file_errors_json(&self.file_errors));
                if !self.skipped.is_empty() {
                    last.insert("skipped".into(), file_errors_json(&self.skipped));
                }
                serde_json::to_writer(&mut *self.out, &Value::Object(last))?;
                writeln!(self.out)?;
            }
            OutputFormat::Human | OutputFormat::Github => writeln!(self.out, "{}", s.line())?,
            OutputFormat::Sarif => self
                .sarif
                .finish(self.out, &self.file_errors, &self.skipped)?,
            OutputFormat::Junit => self.junit.finish(self.out)?,
        }
        Ok(())
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
    let machine = args.format != OutputFormat::Human;
    let opts = Options {
        game: ctx.settings.game.clone(),
        result_extras: machine,
        // the machine formats show the tags; the human one only `describe`'s text
        all_tags: machine,
        // the human `score` text shows them
        score_notes: per_game.is_some() && !machine,
        // `-q` shows nothing per game
        about: machine || !ctx.settings.quiet,
        ..Options::default()
    };
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
            summary: Summary::default(),
            file_errors: Vec::new(),
            skipped: Vec::new(),
            warned: 0,
            sarif: sarif::Writer::default(),
            junit: junit::Writer::default(),
        };
        let stdin: &mut dyn std::io::Read = &mut *ctx.stdin;
        // human diagnostics are drawn in the replay step, in parallel
        let color = ctx.settings.color_err;
        let render = move |g: &SourceGame, r: &GameReport| {
            let mut text = Vec::new();
            let _ = diagnostics::write_game(&mut text, color, g, r);
            String::from_utf8(text).unwrap_or_default()
        };
        let prepare: Option<super::inputs::Prepare> =
            (args.format == OutputFormat::Human && !ctx.settings.quiet).then_some(&render);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The document written a game at a time is the one built whole.
    #[test]
    fn streamed_document_matches_the_whole_one() {
        for games in [0usize, 1, 3] {
            for errors in [0usize, 2] {
                let game = json!({"file": "a", "index": 0, "scores": {"black": 1}, "winners": [], "errors": [{"code": "x", "span": {"offset": 1}}], "result": {}});
                let s = Summary {
                    games,
                    ..Summary::default()
                };
                let errs: Vec<FileError> = (0..errors)
                    .map(|i| FileError::new(format!("f{i}"), "m"))
                    .collect();
                let whole = json!({
                    "schema_version": SCHEMA_VERSION,
                    "games": vec![game.clone(); games],
                    "summary": s.json(),
                    "errors": file_errors_json(&errs),
                });
                let mut streamed =
                    format!("{{\n  \"schema_version\": {SCHEMA_VERSION},\n  \"games\": [");
                for i in 0..games {
                    let sep = if i == 0 { "\n    " } else { ",\n    " };
                    streamed.push_str(sep);
                    streamed.push_str(&pretty_at(&game, 4));
                }
                streamed.push_str(if games == 0 { "]" } else { "\n  ]" });
                streamed.push_str(&format!(
                    ",\n  \"summary\": {},\n  \"errors\": {}\n}}",
                    pretty_at(&s.json(), 2),
                    pretty_at(&file_errors_json(&errs), 2)
                ));
                assert_eq!(
                    streamed,
                    serde_json::to_string_pretty(&whole).unwrap_or_default()
                );
            }
        }
    }
}
