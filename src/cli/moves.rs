//! `gamerec moves PATH [--index N] [--ply N]`: the legal moves, one per line.

use super::inputs::view_one;
use super::{Ctx, EXIT_INVALID, EXIT_OK};

pub use super::inputs::PositionArgs as Args;

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let (_, view) = match view_one(ctx, &args) {
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
