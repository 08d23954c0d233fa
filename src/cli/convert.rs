//! `gamerec convert PATH --to json|yaml|gamerec|ggf|blksgf [-o FILE]`.
//!
//! Conversion replays every game, so a file holding an invalid game is
//! refused (exit 1, with its diagnostics) and nothing is written.

use clap::ValueEnum;

use super::{Ctx, EXIT_INVALID, EXIT_OK, diagnostics};
use crate::formats::{gamerec, ggf, json, pentobi, yaml};
use crate::model::{DocGame, Document};
use crate::replay::{Options, replay};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    Json,
    Yaml,
    Gamerec,
    /// GGF (Othello games only).
    Ggf,
    /// Pentobi's Blokus files (Blokus games Pentobi can hold only).
    Blksgf,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A file or `-` for standard input.
    pub path: String,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let input = match super::inputs::load(ctx, &args.path) {
        Ok(i) => i,
        Err(e) => return ctx.usage(&format!("{}: {}", e.file, e.message)),
    };
    let opts = Options {
        game: ctx.game.clone(),
        record_moves: true,
        ..Options::default()
    };
    let reports: Vec<_> = input
        .games
        .iter()
        .map(|g| replay(g, &input.text, &opts))
        .collect();
    let results = vec![(input, reports)];
    diagnostics::print_all(ctx, &results, &[]);
    let Some((_, reports)) = results.first() else {
        return EXIT_OK;
    };
    if reports.iter().any(|r| !r.valid) {
        let n = reports.iter().filter(|r| !r.valid).count();
        let _ = writeln!(
            ctx.err,
            "error: not converted: {n} invalid game{}",
            if n == 1 { "" } else { "s" }
        );
        return EXIT_INVALID;
    }
    let doc = Document {
        games: reports.iter().map(DocGame::from_report).collect(),
    };
    let text = match args.to {
        Target::Json => json::write(&doc),
        Target::Yaml => yaml::write(&doc),
        Target::Gamerec => gamerec::write(&doc.games),
        Target::Ggf | Target::Blksgf => match if args.to == Target::Ggf {
            ggf::write(&doc.games)
        } else {
            pentobi::write(&doc.games)
        } {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(ctx.err, "error: not converted: {e}");
                return super::EXIT_INVALID;
            }
        },
    };
    match &args.output {
        Some(file) => {
            if let Err(e) = std::fs::write(file, text) {
                return ctx.usage(&format!("cannot write {file}: {e}"));
            }
        }
        None => {
            let _ = write!(ctx.out, "{text}");
        }
    }
    EXIT_OK
}
