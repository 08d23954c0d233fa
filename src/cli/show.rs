//! `gamerec show PATH [--index N] [--ply N] [--svg FILE|-]`: draw a position.

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
    let about = crate::replay::describe(&view.report);
    let mut head = format!("{}, {}", input.file.name, input.label());
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
        "{}: {} ({}), {when}",
        super::diagnostics::visible_name(&head),
        view.report.game,
        view.report.variant
    );
    let _ = write!(ctx.out, "{}", view.board);
    if let Some(file) = &args.svg {
        if let Err(e) = std::fs::write(file, &view.svg) {
            return ctx.usage(&format!("cannot write {file}: {e}"));
        }
    }
    code
}
