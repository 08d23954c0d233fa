//! `gamerec perft GAME DEPTH [--variant V] [--players N]`: leaf count of the
//! move tree. `--players` is the number of players, where it changes the
//! start position (Blokus Trigon's three-player board).

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
    /// The number of players, in games where it changes the start position
    /// (Blokus Trigon: 3 plays the smaller board).
    #[arg(long, value_name = "N")]
    pub players: Option<String>,
    /// No progress display.
    #[arg(short, long)]
    pub quiet: bool,
    /// Never draw the progress display (a spinner with the time so far, on
    /// a terminal, for counts that take over a second).
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let Some(game) = crate::games::by_name(&args.game) else {
        return ctx.usage(&format!("unknown game `{}`", args.game));
    };
    let players = match args.players.as_deref().map(|p| p.trim().parse::<u8>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            return ctx.usage("perft --players takes a number of players, e.g. --players 3");
        }
    };
    let what = format!("perft {} {}", game.name(), args.depth);
    let variant = args.variant.as_deref();
    let count = super::progress::waiting(ctx.progress, &what, || match players {
        Some(n) => game.perft_players(variant, n, args.depth),
        None => game.perft(variant, args.depth),
    });
    match count {
        Ok(n) => {
            let _ = writeln!(ctx.out, "{n}");
            EXIT_OK
        }
        Err(why) => ctx.usage(&why),
    }
}
