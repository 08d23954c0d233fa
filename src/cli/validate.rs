//! `gamerec validate PATH...`: replay every game, report the invalid ones.

use super::inputs::replay_paths;
use super::report::{Summary, document};
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, OutputFormat, diagnostics};
use crate::replay::Options;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// `json`: one JSON document on stdout, diagnostics included.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
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
