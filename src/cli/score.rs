//! `gamerec score PATH...`: each game's scores, winners, and whether it is over.

use super::Ctx;
use super::report;
use crate::replay::{GameReport, describe};

pub use report::Args;

/// The human form of one game's score.
pub fn describe_score(file: &str, index: usize, r: &GameReport) -> String {
    let about = describe(r);
    let mut out = if about.is_empty() {
        format!("{file}, game {index}\n")
    } else {
        format!("{file}, game {index} ({about})\n")
    };
    if r.game.is_empty() {
        out.push_str("  unknown game\n");
        return out;
    }
    let state = if !r.valid {
        format!("invalid, stopped after ply {}", r.plies)
    } else if r.over {
        "over".to_string()
    } else {
        "not over".to_string()
    };
    out.push_str(&format!(
        "  {} ({}), {}, {state}\n",
        r.game,
        r.variant,
        crate::diag::plural(r.plies, "ply", "plies")
    ));
    let scores: Vec<String> = r
        .seats
        .iter()
        .zip(&r.scores)
        .map(|(s, v)| format!("{s} {v}"))
        .collect();
    if !scores.is_empty() {
        out.push_str(&format!("  {}\n", scores.join(", ")));
    }
    match r.winners.len() {
        0 if r.over => out.push_str("  no winner\n"),
        0 => {}
        1 => out.push_str(&format!("  winner: {}\n", r.winners.join(""))),
        _ => out.push_str(&format!("  draw: {}\n", r.winners.join(", "))),
    }
    for note in &r.score_notes {
        out.push_str(&format!("  {note}\n"));
    }
    for u in &r.unchecked {
        out.push_str(&format!("  not checked: {u}\n"));
    }
    out
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    report::run(ctx, &args, Some(describe_score))
}
