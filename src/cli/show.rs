//! `gamerec show PATH [--index N] [--ply N] [--level K] [--svg FILE|-]`:
//! draw a position; `--level K` draws one level's slice instead, in games
//! built in levels (`Render::render_levels`).

use super::diagnostics::visible;
use super::inputs::{PositionArgs, view_one};
use super::{Ctx, EXIT_INVALID, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub at: PositionArgs,
    /// Also write an SVG picture of the position to this file; `-` prints
    /// the picture alone on standard output instead of the board.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// Draw one level's slice (from 1, the base) instead of the top view, in
    /// games built in levels (Blokus 3D).
    #[arg(long, value_name = "K")]
    pub level: Option<usize>,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let (input, view) = match view_one(ctx, &args.at) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let code = if view.report.valid {
        EXIT_OK
    } else {
        EXIT_INVALID
    };
    if args.svg.as_deref() == Some("-") {
        let _ = write!(ctx.out, "{}", view.svg);
        return code;
    }
    let body = match args.level {
        None => view.board.clone(),
        Some(k) => match k.checked_sub(1).and_then(|i| view.levels.get(i)) {
            Some(slice) => format!("level {k}\n{slice}"),
            None if view.levels.is_empty() => {
                return ctx.usage(&format!(
                    "{} has no levels: show --level does not apply",
                    view.report.game
                ));
            }
            None => {
                return ctx.usage(&format!(
                    "show --level takes a level from 1 to {}, not {k}",
                    view.levels.len()
                ));
            }
        },
    };
    let about = crate::replay::describe(&view.report);
    let mut head = format!("{}, {}", visible(&input.file.name), input.label());
    if !about.is_empty() {
        head.push_str(&format!(" ({})", visible(&about)));
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
    let _ = write!(ctx.out, "{body}");
    if let Some(file) = &args.svg {
        if let Err(e) = std::fs::write(file, &view.svg) {
            return ctx.usage(&format!("cannot write {file}: {e}"));
        }
    }
    code
}
