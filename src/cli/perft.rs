//! `gamerec perft GAME DEPTH [--variant V] [--players N] [--threads N]`:
//! leaf count of the move tree. `--players` is the number of players, where
//! it changes the start position (Blokus Trigon's three-player board).

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
    /// Worker threads splitting the tree near the root (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
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
    let count = || match players {
        Some(n) => game.perft_players(variant, n, args.depth),
        None => game.perft(variant, args.depth),
    };
    let result = super::progress::waiting(ctx.progress, &what, || match args.threads {
        None => count(),
        Some(n) => match rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build()
        {
            Ok(pool) => pool.install(count),
            Err(e) => Err(format!("cannot start {n} threads: {e}")),
        },
    });
    match result {
        Ok(n) => {
            let _ = writeln!(ctx.out, "{n}");
            EXIT_OK
        }
        Err(why) => ctx.usage(&why),
    }
}
