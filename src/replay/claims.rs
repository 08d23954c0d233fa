//! A claimed result (the `Result` tag, the result token) and a claimed
//! winner: read, then checked against the replay once the game is over.

use super::GameReport;
use super::driver::Replay;
use crate::diag::{Diag, plural};
use crate::game::Rules;
use crate::record::each_result_score;
use crate::span::Span;

/// A claimed result: from the `Result` tag or the final result token.
pub(super) struct Claim<'a> {
    /// The scores' text (well formed, one score per seat when the seats are
    /// known), read again when checked: no vector per game; `None` for `*`.
    scores: Option<&'a str>,
    span: Span,
    what: &'static str,
}

/// The scores of a claimed result, as `record::each_result_score` reads
/// them, or a single integer (`"16"`, `"-3"`): the result of a game of one
/// seat (a solitaire), which has nothing to join. A single integer is a
/// result only in a claim: as a movetext token it stays a token of the
/// game's notation.
fn each_claimed_score(text: &str, mut each: impl FnMut(i64)) -> Option<usize> {
    if let Some(count) = each_result_score(text, &mut each) {
        return Some(count);
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    each(text.parse().ok()?);
    Some(1)
}

/// Reads a claimed result. The number of scores is checked against `seats`
/// when they are known (the game could be set up).
pub(super) fn read_claim<'a>(
    text: &'a str,
    span: Span,
    what: &'static str,
    seats: Option<&[&str]>,
) -> Result<Claim<'a>, Diag> {
    let text = text.trim();
    if text == "*" {
        return Ok(Claim {
            scores: None,
            span,
            what,
        });
    }
    let in_order = |seats: &[&str]| seats.join(", ");
    match (each_claimed_score(text, |_| {}), seats) {
        (Some(count), Some(seats)) if count != seats.len() => Err(Diag::error(
            "record::bad_result",
            format!(
                "the result gives {}, but this game has {}",
                plural(count, "score", "scores"),
                plural(seats.len(), "seat", "seats"),
            ),
        )
        .at(span)
        .label("wrong number of scores")
        .help(format!("one score per seat, in order: {}", in_order(seats)))),
        (Some(_), _) => Ok(Claim {
            scores: Some(text),
            span,
            what,
        }),
        (None, seats) => {
            let per_seat = match seats {
                Some(seats) => format!("one integer per seat ({})", in_order(seats)),
                None => "one integer per seat".to_string(),
            };
            Err(
                Diag::error("record::bad_result", format!("`{text}` is not a result"))
                    .at(span)
                    .label("not a result")
                    .help(format!(
                        "write {per_seat} joined by `-`, or by `, ` when one is negative, or `*`"
                    )),
            )
        }
    }
}

impl<R: Rules, V> Replay<'_, R, V> {
    /// The result check: claimed scores against the replay's once the game
    /// is over; a warning, unchecked, while it is not.
    /// `claims`: the `Result` tag's, then the result token's.
    pub(super) fn check_claims(&mut self, claims: [Option<Claim>; 2]) {
        let report = &mut self.report;
        for claim in claims.into_iter().flatten() {
            let Some(text) = claim.scores else {
                continue;
            };
            // the claim against the replay's scores, a score at a time
            let (mut at, mut same) = (0, true);
            let count = each_claimed_score(text, |s| {
                same &= report.scores.get(at) == Some(&s);
                at += 1;
            });
            let same = same && count == Some(report.scores.len());
            if !report.over {
                report.push(
                    Diag::warning(
                        "record::result_unchecked",
                        format!(
                            "the {} gives scores, but the game is not over; not checked",
                            claim.what
                        ),
                    )
                    .at(claim.span)
                    .label("game not over")
                    .help("write `*` for an unfinished game"),
                );
            } else if !same {
                let mut claimed = Vec::new();
                each_claimed_score(text, |s| claimed.push(s));
                let actual = crate::record::format_result(&report.scores);
                let d = Diag::error(
                    "record::result_mismatch",
                    format!(
                        "the {} claims {}, but the replay gives {actual}",
                        claim.what,
                        crate::record::format_result(&claimed)
                    ),
                )
                .at(claim.span)
                .label(format!("the final scores are {actual}"))
                .help(R::result_help(&self.state, &claimed).unwrap_or_else(|| {
                    format!(
                        "scores in seat order ({}): {actual}",
                        report.seats.join(", ")
                    )
                }));
                report.push(d);
            }
        }
    }

    /// A claimed winner (a CSV winner column) against the replay's.
    pub(super) fn check_winner_claim(&mut self) {
        let Some(claim) = &self.raw.winner_claim else {
            return;
        };
        let report = &mut self.report;
        let claimed: Vec<&str> = claim
            .seats
            .iter()
            .filter_map(|&i| report.seats.get(i).cloned())
            .collect();
        let say = |w: &[&str]| match w {
            [] => "no winner".to_string(),
            [one] => one.to_string(),
            _ => format!("a draw ({})", w.join(", ")),
        };
        if !report.over {
            report.push(
                Diag::warning(
                    "record::result_unchecked",
                    "the record names a winner, but the game is not over; not checked",
                )
                .at(claim.span)
                .label("game not over"),
            );
        } else if let Some(d) = claim.margin.and_then(|m| margin_mismatch(m, claim, report)) {
            report.push(d);
        } else if claimed != report.winners {
            let actual = say(&report.winners);
            let d = Diag::error(
                format!("{}::winner_mismatch", R::NAME),
                format!(
                    "the record says the winner is {} (`{}`), but the replay gives {actual}",
                    say(&claimed),
                    claim.text
                ),
            )
            .at(claim.span)
            .label(format!("the replay gives {actual}"))
            .help(format!(
                "final scores ({}): {}",
                report.seats.join(", "),
                crate::record::format_result(&report.scores)
            ));
            report.push(d);
        }
    }
}

/// The error of a claimed lead of the first seat (`RE[B+5]`) that the
/// replay's final scores contradict; `None` when they agree.
fn margin_mismatch(m: i64, claim: &crate::record::WinnerClaim, report: &GameReport) -> Option<Diag> {
    let seat = |i: usize, fallback| report.seats.get(i).copied().unwrap_or(fallback);
    let lead = |m: i64| match m.cmp(&0) {
        std::cmp::Ordering::Equal => "a draw".to_string(),
        std::cmp::Ordering::Greater => format!("{} ahead by {m}", seat(0, "the first seat")),
        std::cmp::Ordering::Less => format!("{} ahead by {}", seat(1, "the second seat"), -m),
    };
    let actual = match report.scores.as_slice() {
        [a, b] if a - b == m => return None,
        [a, b] => lead(a - b),
        _ => "scores of another number of seats".to_string(),
    };
    Some(
        Diag::error(
            "record::result_mismatch",
            format!("`{}` claims {}, but the replay gives {actual}", claim.text, lead(m)),
        )
        .at(claim.span)
        .label(format!("the replay gives {actual}"))
        .help(format!(
            "final scores ({}): {}",
            report.seats.join(", "),
            crate::record::format_result(&report.scores)
        )),
    )
}
