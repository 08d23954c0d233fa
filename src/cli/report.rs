//! The `--format json` document of `validate` and `score` (spec §2), and the
//! summary line. Field names are a contract: add fields, never rename.

use serde_json::{Map, Value, json};

use super::diagnostics::to_json;
use super::inputs::{FileError, replay_paths};
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, OutputFormat, diagnostics};
use crate::formats::Input;
use crate::model::scores_map;
use crate::replay::{GameReport, Options};
use crate::span::LineIndex;

/// Counts for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub valid: usize,
    pub invalid: usize,
    pub unfinished: usize,
}

impl Summary {
    pub fn of(results: &[(Input, Vec<GameReport>)]) -> Summary {
        let mut s = Summary::default();
        for r in results.iter().flat_map(|(_, reports)| reports) {
            s.games += 1;
            if r.valid {
                s.valid += 1;
                if !r.over {
                    s.unfinished += 1;
                }
            } else {
                s.invalid += 1;
            }
        }
        s
    }

    pub fn line(&self) -> String {
        format!(
            "{}, {} valid, {} invalid, {} unfinished",
            crate::diag::plural(self.games, "game", "games"),
            self.valid,
            self.invalid,
            self.unfinished
        )
    }
}

/// One game's JSON object.
pub fn game_json(input: &Input, index: usize, r: &GameReport, lines: &LineIndex) -> Value {
    let mut obj = Map::new();
    obj.insert("file".into(), json!(input.name));
    obj.insert("index".into(), json!(index));
    let opt = |s: &str| if s.is_empty() { Value::Null } else { json!(s) };
    obj.insert("game".into(), opt(&r.game));
    obj.insert("variant".into(), opt(&r.variant));
    obj.insert("valid".into(), json!(r.valid));
    obj.insert("plies".into(), json!(r.plies));
    obj.insert("over".into(), json!(r.over));
    obj.insert("scores".into(), Value::Object(scores_map(r)));
    obj.insert("winners".into(), json!(r.winners));
    obj.insert(
        "warnings".into(),
        r.warnings
            .iter()
            .map(|d| to_json(d, Some(lines), input.byte_map.as_ref()))
            .collect(),
    );
    obj.insert(
        "errors".into(),
        r.errors
            .iter()
            .map(|d| to_json(d, Some(lines), input.byte_map.as_ref()))
            .collect(),
    );
    obj.insert("result".into(), Value::Object(r.result_extras.clone()));
    obj.insert("unchecked".into(), json!(r.unchecked));
    obj.insert("source_format".into(), json!(input.format.name()));
    Value::Object(obj)
}

/// The whole document.
pub fn document(results: &[(Input, Vec<GameReport>)], file_errors: &[FileError]) -> Value {
    let mut games = Vec::new();
    for (input, reports) in results {
        let lines = LineIndex::new(&input.text);
        for (i, r) in reports.iter().enumerate() {
            games.push(game_json(input, i, r, &lines));
        }
    }
    let s = Summary::of(results);
    json!({
        "games": games,
        "summary": { "games": s.games, "valid": s.valid, "invalid": s.invalid, "unfinished": s.unfinished },
        "errors": file_errors
            .iter()
            .map(|e| json!({ "file": e.file, "message": e.message }))
            .collect::<Vec<_>>(),
    })
}

/// The arguments of `validate` and `score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// `json`: one JSON document on stdout, diagnostics included.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

/// Replays every game of the paths and reports: the JSON document, or the
/// diagnostics on stderr, `per_game`'s text for each game and the summary
/// line on stdout. Returns the exit code.
pub fn run(
    ctx: &mut Ctx,
    args: &Args,
    per_game: Option<fn(&str, usize, &GameReport) -> String>,
) -> i32 {
    let opts = Options {
        game: ctx.game.clone(),
        result_extras: args.format == OutputFormat::Json,
        // neither output shows tags, only `describe`'s text
        all_tags: false,
        // the human `score` text shows them
        score_notes: per_game.is_some() && args.format != OutputFormat::Json,
        ..Options::default()
    };
    let (results, file_errors) = replay_paths(ctx, &args.paths, &opts);
    let summary = Summary::of(&results);
    match args.format {
        OutputFormat::Json => {
            let doc = document(&results, &file_errors);
            let _ = writeln!(
                ctx.out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
        OutputFormat::Human => {
            if !ctx.quiet {
                diagnostics::print_all(ctx, &results, &file_errors);
                if let Some(describe) = per_game {
                    for (input, reports) in &results {
                        for (i, r) in reports.iter().enumerate() {
                            let _ = write!(ctx.out, "{}", describe(&input.name, i, r));
                        }
                    }
                }
            }
            let _ = writeln!(ctx.out, "{}", summary.line());
        }
    }
    exit_code(summary, !file_errors.is_empty())
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
