//! `gamerec moves PATH [--index N] [--ply N] [--by-score]`: the legal moves,
//! one per line, sorted by their text (spec §5).

use super::inputs::{PositionArgs, view_one};
use super::{Ctx, EXIT_INVALID, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub at: PositionArgs,
    /// Best-scoring moves first, each followed by its score (`=N`); for the
    /// games that score moves (Blokus, Qwirkle).
    #[arg(long)]
    pub by_score: bool,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let (_, view) = match view_one(ctx, &args.at) {
        Ok(v) => v,
        Err(code) => return code,
    };
    if args.by_score {
        match &view.scored {
            None => {
                return ctx.usage(&format!(
                    "--by-score: {} does not score moves",
                    view.report.game
                ));
            }
            Some(Err(why)) => return ctx.usage(&format!("cannot list moves: {why}")),
            Some(Ok(moves)) => {
                for (m, score) in moves {
                    if m == "pass" {
                        let _ = writeln!(ctx.out, "{m}");
                    } else {
                        let _ = writeln!(ctx.out, "{m} ={score}");
                    }
                }
            }
        }
    } else {
        match &view.legal {
            Ok(moves) => {
                for m in moves {
                    let _ = writeln!(ctx.out, "{m}");
                }
            }
            Err(why) => return ctx.usage(&format!("cannot list moves: {why}")),
        }
    }
    if view.report.valid {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}
