//! `gamerec score PATH...`: each game's scores, winners, and whether it is over.

use super::inputs::replay_paths;
use super::report::{Summary, document};
use super::validate::exit_code;
use super::{Ctx, OutputFormat, diagnostics};
use crate::replay::{GameReport, Options, describe};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// `json`: one JSON document on stdout, diagnostics included.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

/// The human form of one game's score.
pub fn describe_score(file: &str, index: usize, r: &GameReport) -> String {
    let about = describe(r);
    let mut out = if about.is_empty() {
        format!("{file}, game {index}\n")
    } else {
        format!("{file}, game {index} ({about})\n")
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
        "  {} ({}), {} plies, {state}\n",
        r.game, r.variant, r.plies
    ));
    let scores: Vec<String> = r
        .seats
        .iter()
        .zip(&r.scores)
        .map(|(s, v)| format!("{s} {v}"))
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
    for u in &r.unchecked {
        out.push_str(&format!("  not checked: {u}\n"));
    }
    out
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let opts = Options {
        game: ctx.game.clone(),
        record_moves: false,
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
                for (input, reports) in &results {
                    for (i, r) in reports.iter().enumerate() {
                        let _ = write!(ctx.out, "{}", describe_score(&input.name, i, r));
                    }
                }
            }
            let _ = writeln!(ctx.out, "{}", summary.line());
        }
    }
    exit_code(summary, !file_errors.is_empty())
}
