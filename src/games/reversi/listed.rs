//! The `MoveScores` tag: moves of the start position listed with their
//! scores, as an `.obf` position lists them (`G8:+18; H1:+12; B1:-4;`),
//! and their checks ([`Extras::start_claims`](crate::game::Extras::start_claims)).
//!
//! The value is a list of entries, each ended by `;` (the last one's `;`
//! may be left out): a move, `:`, and its score, an integer with an
//! optional sign; or a score alone, the position's own score (Edax writes
//! one for a position without moves). Blanks around the parts are free.
//!
//! A move's score is Edax's: the final disc difference for the side to
//! move after that move when both sides then play perfectly, the empty
//! squares going to the winner, whatever the record's `Variant` (the
//! convention of every `.obf` file).
//!
//! Checks, at ply 0, each at the span of what it blames:
//! - an entry that is not a move and a score is `reversi::bad_move_scores`;
//! - each listed move must be legal in the start position: a refused one is
//!   the engine's own diagnostic (`reversi::no_flip`, `reversi::occupied`,
//!   `reversi::bad_square`, `reversi::illegal_pass`), with the legal moves
//!   as its help;
//! - with `validate --check-scores`, each listed score must be the exact
//!   search's (the endgame solver, [`super::solver`]): a difference is
//!   `reversi::score_mismatch` at the score, saying the searched score. A
//!   position with more empty squares than `--max-empties` (default 20) is
//!   not searched: one `reversi::scores_unchecked` warning at the tag names
//!   the limit; so is a board of another size than 8x8 (the solver's) and
//!   the `anti` variant (Edax's scores count the other way).

use std::cell::RefCell;

use super::Reversi;
use super::engine::{Scoring, State};
use super::solver::Solver;
use crate::diag::Diag;
use crate::game::{Explain, Notation, Parsed};
use crate::record::{Tag, Tags, Token};
use crate::span::Span;

/// The tag's name.
pub const TAG: &str = "MoveScores";

thread_local! {
    /// One solver per thread, its table kept from position to position (an
    /// entry is a whole position, so any earlier search's entries hold).
    static SOLVER: RefCell<Option<Box<Solver>>> = const { RefCell::new(None) };
}

/// One entry of the list: the move's span (none for the position's own
/// score) and the score with its span.
struct Entry {
    mv: Option<Span>,
    score: i32,
    score_span: Span,
}

/// Where the tag's value stands in `src`: its offset, when the text at the
/// value's span holds the value as it is (no escapes): then each entry's
/// span is its own.
fn value_offset(tag: &Tag, src: &str) -> Option<usize> {
    let text = tag.value_span.text(src);
    text.find(tag.value.as_str())
        .filter(|_| !tag.value.is_empty() || text.is_empty())
        .map(|i| tag.value_span.offset + i)
}

/// Reads the entries; the malformed ones are diagnostics. Spans are into
/// the value itself (offset 0 its first byte).
fn entries(value: &str, errors: &mut Vec<Diag>) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut from = 0;
    for piece in value.split(';') {
        let at = from;
        from += piece.len() + 1;
        let lead = piece.len() - piece.trim_start().len();
        let body = piece.trim();
        if body.is_empty() {
            continue;
        }
        let body_span = Span::new(at + lead, body.len());
        let (mv, score_text, score_at) = match body.split_once(':') {
            Some((m, s)) => {
                let m_lead = m.len() - m.trim_start().len();
                let mv = Span::new(at + lead + m_lead, m.trim().len());
                let s_lead = s.len() - s.trim_start().len();
                (Some(mv), s.trim(), at + lead + m.len() + 1 + s_lead)
            }
            None => (None, body, at + lead),
        };
        let score_span = Span::new(score_at, score_text.len());
        let score = parse_score(score_text);
        match (mv, score) {
            (Some(m), _) if m.length == 0 => errors.push(bad(body_span, "no move before the `:`")),
            // a move and a score without the `:` between them (`H1+12`)
            (None, None) if body.starts_with(|c: char| c.is_ascii_alphabetic()) => errors.push(
                bad(body_span, &format!("`{body}` has no `:` between the move and its score")),
            ),
            (_, None) => errors.push(bad(
                if score_text.is_empty() { body_span } else { score_span },
                &format!("`{score_text}` is not a score (an integer such as +18, -4 or 0)"),
            )),
            (mv, Some(score)) => out.push(Entry {
                mv,
                score,
                score_span,
            }),
        }
    }
    out
}

/// A score: an optional sign and digits, from -64 to 64.
fn parse_score(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return None;
    }
    s.strip_prefix('+').unwrap_or(s).parse().ok().filter(|n: &i32| n.abs() <= 64)
}

fn bad(span: Span, why: &str) -> Diag {
    Diag::error("reversi::bad_move_scores", format!("bad MoveScores entry: {why}"))
        .at(span)
        .label(why.to_string())
        .help("each entry a move, `:` and its score (`G8:+18;`), or a score alone for the position, each ended by `;`")
}

/// The start's claims of a record's `MoveScores` tag (see the module docs).
pub fn check(tags: &Tags, src: &str, start: &State, search: Option<u32>) -> Vec<Diag> {
    let Some(tag) = tags.get(TAG) else {
        return Vec::new();
    };
    // spans into the value, made spans into `src` (or the whole value when
    // the text does not hold it as it is)
    let base = value_offset(tag, src);
    let (text, shift): (&str, Box<dyn Fn(Span) -> Span>) = match base {
        Some(b) => (src, Box::new(move |s: Span| Span::new(s.offset + b, s.length))),
        None => (tag.value.as_str(), Box::new(|_| tag.value_span)),
    };
    let mut errors = Vec::new();
    let listed = entries(&tag.value, &mut errors);
    for d in &mut errors {
        d.span = d.span.map(&shift);
    }
    // each move judged on its own copy of the start
    let mut searched: Vec<(i32, Span, Option<State>)> = Vec::new();
    let mut parsed = Vec::new();
    for e in &listed {
        let Some(mv_span) = e.mv else {
            searched.push((e.score, e.score_span, None));
            continue;
        };
        let at = match base {
            Some(_) => shift(mv_span),
            None => mv_span,
        };
        let error = Reversi::parse_moves_into(start, &[Token::new(at)], text, &mut parsed);
        let blame = shift(mv_span);
        let one = match (error, parsed.as_slice()) {
            (Some(d), _) => {
                errors.push(d.at(blame));
                continue;
            }
            (None, [one]) => one.clone(),
            _ => {
                errors.push(bad(blame, "one move before each `:`"));
                continue;
            }
        };
        let mut after = start.clone();
        let pm = Parsed {
            mv: one.mv,
            span: blame,
            token: 0,
            parts: (),
        };
        match Reversi::judge(&mut after, &pm) {
            Ok(()) => searched.push((e.score, e.score_span, Some(after))),
            Err(d) => errors.push(if d.span.is_none() { d.at(blame) } else { d }),
        }
    }
    if let Some(limit) = search {
        check_scores(tag, start, limit, &searched, &*shift, &mut errors);
    }
    errors
}

/// `--check-scores`: each listed score against the exact search.
fn check_scores(
    tag: &Tag,
    start: &State,
    limit: u32,
    listed: &[(i32, Span, Option<State>)],
    shift: &dyn Fn(Span) -> Span,
    errors: &mut Vec<Diag>,
) {
    if listed.is_empty() {
        return;
    }
    let (b, w) = start.counts();
    let empties = u32::from(start.size()).pow(2).saturating_sub(b + w);
    let (why, help) = if start.size() != 8 {
        (
            format!("the exact search plays 8x8 boards, not {0}x{0}", start.size()),
            "the listed scores are checked on 8x8 boards only".to_string(),
        )
    } else if start.scoring == Scoring::Anti {
        (
            "the listed scores count discs, which the `anti` variant does not".to_string(),
            "the listed scores are checked in the standard and `wof` variants".to_string(),
        )
    } else if empties > limit {
        (
            format!(
                "the position has {empties} empty squares, more than the limit of {limit} (--max-empties)"
            ),
            format!(
                "raise --max-empties to {empties} to search this position (the time grows about threefold per empty square)"
            ),
        )
    } else {
        (String::new(), String::new())
    };
    if !why.is_empty() {
        errors.push(
            Diag::warning(
                "reversi::scores_unchecked",
                format!("the listed scores are not checked: {why}"),
            )
            .at(tag.value_span)
            .label("scores not searched")
            .help(help),
        );
        return;
    }
    SOLVER.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return;
        };
        let solver = slot.get_or_insert_with(|| Box::new(Solver::new()));
        for (claimed, span, after) in listed {
            let (exact, what) = match after {
                // the opponent's score after the move, negated
                Some(s) => (-solver.exact(s.mover, s.other, -claimed), "this move"),
                None => (solver.exact(start.mover, start.other, *claimed), "the position"),
            };
            if exact != *claimed {
                errors.push(
                    Diag::error(
                        "reversi::score_mismatch",
                        format!("the listed score {claimed:+} is not the exact score of {what}, {exact:+}"),
                    )
                    .at(shift(*span))
                    .label(format!("the exact search gives {exact:+}"))
                    .help("a score is the final disc difference for the side to move after perfect play by both sides, the empty squares going to the winner"),
                );
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_with_spans_and_errors() {
        let v = "G8:+18; H1 : -4 ;+2; B1:x; :3;";
        let mut errors = Vec::new();
        let e = entries(v, &mut errors);
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].mv.unwrap().text(v), "G8");
        assert_eq!(e[0].score, 18);
        assert_eq!(e[1].mv.unwrap().text(v), "H1");
        assert_eq!(e[1].score_span.text(v), "-4");
        assert!(e[2].mv.is_none());
        assert_eq!(e[2].score, 2);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].span.unwrap().text(v), "x");
        assert_eq!(errors[1].span.unwrap().text(v), ":3");
        assert_eq!(parse_score("+0"), Some(0));
        assert_eq!(parse_score("65"), None);
        assert_eq!(parse_score("--3"), None);
    }
}
