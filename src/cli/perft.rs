//! `gamerec perft GAME DEPTH [--variant V] [--players N]`: leaf count of the
//! move tree.

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
    /// The number of players, where it changes the start position (e.g. 3
    /// for Blokus Trigon's smaller board).
    #[arg(long)]
    pub players: Option<u8>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let Some(game) = crate::games::by_name(&args.game) else {
        return ctx.usage(&format!("unknown game `{}`", args.game));
    };
    let count = match args.players {
        Some(n) => game.perft_players(args.variant.as_deref(), n, args.depth),
        None => game.perft(args.variant.as_deref(), args.depth),
    };
    match count {
        Ok(n) => {
            let _ = writeln!(ctx.out, "{n}");
            EXIT_OK
        }
        Err(why) => ctx.usage(&why),
    }
}
