//! `gamerec validate PATH...`: replay every game, report the invalid ones.

use super::Ctx;
use super::report;

pub use report::Args;

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    report::run(ctx, &args, None)
}
