//! `gamerec moves PATH [--index N] [--ply N]`: the legal moves, one per line.

use super::inputs::view_one;
use super::{Ctx, EXIT_INVALID, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A file or `-` for standard input.
    pub path: String,
    /// Which game of the file (from 0).
    #[arg(long, default_value_t = 0)]
    pub index: usize,
    /// List the moves after this many plies (default: the end).
    #[arg(long)]
    pub ply: Option<usize>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let (_, view) = match view_one(ctx, &args.path, args.index, args.ply) {
        Ok(v) => v,
        Err(code) => return code,
    };
    match &view.legal {
        Ok(moves) => {
            for m in moves {
                let _ = writeln!(ctx.out, "{m}");
            }
        }
        Err(why) => return ctx.usage(&format!("cannot list moves: {why}")),
    }
    if view.report.valid {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}
