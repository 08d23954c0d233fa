//! `gamerec schema`: prints the JSON Schema of the `--format json` document
//! (and of `--format jsonl` lines), for checking reports in CI.

use super::{Ctx, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(ctx: &mut Ctx, _args: Args) -> i32 {
    match ctx.out.write_all(super::report::SCHEMA.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(e) => super::write_failed(ctx, &e, EXIT_OK),
    }
}
