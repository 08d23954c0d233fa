//! `gamerec show PATH [--index N] [--ply N] [--svg FILE]`: draw a position.

use super::inputs::view_one;
use super::{Ctx, EXIT_INVALID, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A file or `-` for standard input.
    pub path: String,
    /// Which game of the file (from 0).
    #[arg(long, default_value_t = 0)]
    pub index: usize,
    /// Show the position after this many plies (default: the end).
    #[arg(long)]
    pub ply: Option<usize>,
    /// Also write an SVG picture of the position to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let (input, view) = match view_one(ctx, &args.path, args.index, args.ply) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let about = crate::replay::describe(&view.report);
    let mut head = format!("{}, game {}", input.name, args.index);
    if !about.is_empty() {
        head.push_str(&format!(" ({about})"));
    }
    let when = if view.ply == 0 {
        "start position".to_string()
    } else {
        format!("after ply {}", view.ply)
    };
    let _ = writeln!(
        ctx.out,
        "{head}: {} ({}), {when}",
        view.report.game, view.report.variant
    );
    let _ = write!(ctx.out, "{}", view.board);
    if let Some(file) = &args.svg {
        if let Err(e) = std::fs::write(file, &view.svg) {
            return ctx.usage(&format!("cannot write {file}: {e}"));
        }
    }
    if view.report.valid {
        EXIT_OK
    } else {
        EXIT_INVALID
    }
}
