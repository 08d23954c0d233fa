//! `gamerec perft GAME DEPTH [--variant V]`: leaf count of the move tree.

use super::{Ctx, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (reversi, blokus, deblockle, ...).
    pub game: String,
    /// How many plies deep.
    pub depth: u32,
    /// The variant's start position (e.g. `duo` for Blokus).
    #[arg(long)]
    pub variant: Option<String>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let Some(game) = crate::games::by_name(&args.game) else {
        return ctx.usage(&format!("unknown game `{}`", args.game));
    };
    match game.perft(args.variant.as_deref(), args.depth) {
        Ok(n) => {
            let _ = writeln!(ctx.out, "{n}");
            EXIT_OK
        }
        Err(why) => ctx.usage(&why),
    }
}
