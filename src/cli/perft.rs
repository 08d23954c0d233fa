//! `gamerec perft GAME DEPTH [--variant V] [--players N] [--threads N]
//! [--tag NAME=VALUE]... [--area A] [--divide]`: leaf count of the move tree. `--players` is the number of
//! players, where it changes the start position (Blokus Trigon's
//! three-player board). `--tag NAME=VALUE` sets a rules tag of the start,
//! for games whose start depends on one (Blokus 3D's `Area`, `Stuck`);
//! `--area A` is `--tag Area=A`. `--divide` first prints each first move with the
//! leaves below it (`f5: 3`, sorted by the move's text), then a blank line;
//! the total is always the last line. On a terminal a run of over a second
//! shows the leaves counted so far and their rate on stderr.
//!
//! `gamerec perft FILE DEPTH [--index N]`: GAME may be a record file (one
//! that is no game's name), whose game N (from 1) starts the tree: its game,
//! its `Variant` and its rules tags (an `.obf` position's `Setup`), as the
//! record sets them up; `--tag` adds to them.

use super::{Ctx, EXIT_OK};
use crate::game::PerftError;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (reversi, blokus, deblockle, ...), or a record file
    /// whose game's start is counted (an `.obf` position; `--index N`).
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
    /// A rules tag of the start position, `NAME=VALUE` (repeatable), for
    /// games whose start depends on one (Blokus 3D: `--tag Stuck=skip`).
    #[arg(long = "tag", value_name = "NAME=VALUE")]
    pub tags: Vec<String>,
    /// The building area or board, as the `Area` tag names it (Blokus 3D:
    /// `tower`, `cube3`, `map:333/343/333`); the same as `--tag Area=A`.
    #[arg(long, value_name = "A")]
    pub area: Option<String>,
    /// With a record file for GAME: which of its games, counted from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub index: usize,
    /// Print the leaves under each first move before the total.
    #[arg(long)]
    pub divide: bool,
    /// No progress display.
    #[arg(short, long)]
    pub quiet: bool,
    /// Never draw the progress display (leaves counted so far, their rate
    /// and the time, on a terminal, for counts that take over a second).
    #[arg(long)]
    pub no_progress: bool,
}

/// What a record file's game starts from: the game, its rules tags, its
/// `Variant` tag's value.
type RecordStart = (
    &'static dyn crate::registry::DynGame,
    Vec<crate::record::Tag>,
    Option<String>,
);

/// The game, its rules tags and its variant from game N of a record file.
fn from_record(ctx: &mut Ctx, args: &Args) -> Result<RecordStart, i32> {
    let at = super::inputs::PositionArgs {
        path: args.game.clone(),
        index: args.index,
        ply: Some(0),
    };
    let (source, view) = super::inputs::view_one(ctx, &at)?;
    let game = ctx.game(view.report.game)?;
    let rules = game.rules_tags();
    let tags = source
        .raw
        .tags
        .iter()
        .filter(|t| rules.contains(&t.name.as_str()))
        .cloned()
        .collect();
    let variant = source.raw.tags.get("Variant").map(|t| t.value.clone());
    Ok((game, tags, variant))
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let is_file = crate::registry::by_name(&args.game).is_none()
        && (args.game == "-" || std::path::Path::new(&args.game).is_file());
    let (game, record_tags, record_variant) = if is_file {
        match from_record(ctx, &args) {
            Ok(found) => found,
            Err(code) => return code,
        }
    } else {
        match ctx.game(&args.game) {
            Ok(game) => (game, Vec::new(), None),
            Err(code) => return code,
        }
    };
    let players = match args.players.as_deref().map(|p| p.trim().parse::<u8>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            return ctx.usage("perft --players takes a number of players, e.g. --players 3");
        }
    };
    let mut tags = crate::record::Tags(record_tags);
    for t in &args.tags {
        let Some((name, value)) = t.split_once('=') else {
            return ctx.usage(&format!(
                "perft --tag takes NAME=VALUE, e.g. --tag Stuck=skip (not `{t}`)"
            ));
        };
        tags.0.push(crate::record::Tag {
            name: name.trim().to_string(),
            value: value.to_string(),
            ..Default::default()
        });
    }
    if let Some(a) = &args.area {
        tags.0.push(crate::record::Tag {
            name: "Area".into(),
            value: a.clone(),
            ..Default::default()
        });
    }
    let what = format!("perft {} {}", game.name(), args.depth);
    let variant = args.variant.as_deref().or(record_variant.as_deref());
    let count = |done: &std::sync::atomic::AtomicU64| {
        let add = |n: u64| {
            done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        };
        game.perft_divide_tags(variant, players, &tags, args.depth, &add)
    };
    let result =
        super::progress::counting(ctx.settings.progress, &what, |done| match args.threads {
            None => count(done),
            Some(n) => match rayon::ThreadPoolBuilder::new()
                .num_threads(usize::from(n))
                .build()
            {
                Ok(pool) => pool.install(|| count(done)),
                Err(e) => Err(PerftError(format!("cannot start {n} threads: {e}"))),
            },
        });
    match result {
        Ok(mut divide) => {
            let total = crate::game::perft_total(&divide);
            if args.divide && !divide.is_empty() {
                divide.sort();
                for (mv, n) in &divide {
                    let _ = writeln!(ctx.out, "{mv}: {n}");
                }
                let _ = writeln!(ctx.out);
            }
            let _ = writeln!(ctx.out, "{total}");
            EXIT_OK
        }
        Err(why) => ctx.usage(&why.to_string()),
    }
}
