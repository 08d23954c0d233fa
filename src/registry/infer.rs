//! Which game a record is: its `Game` tag, `--game`, or, without either,
//! the one game whose notation reads its first moves.

use super::{DynGame, REGISTRY, by_name, unknown_help};
use crate::diag::Diag;
use crate::record::RawGame;
use crate::replay::{GameReport, Options, tag_pairs, tag_section};

/// How many of the first tokens a record without a `Game` tag must read as
/// moves of a game for the game to be inferred.
pub const INFER_TOKENS: usize = 4;

/// Which game a record is, from its `Game` tag or `--game`; the warnings to add
/// (`--game` disagreeing with the tag), or the failed report. Without either,
/// `record::missing_game` ([`resolve_in`] infers the game from the moves).
pub fn resolve(
    raw: &RawGame,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    resolve_with(raw, None, opts)
}

/// [`resolve`], and without a `Game` tag or `--game`: when exactly one
/// game's notation reads the first moves (up to [`INFER_TOKENS`] tokens of
/// `src`, the text the spans point into), that game, with a
/// `record::game_inferred` warning (PGN exports of Othello databases carry
/// no `Game` tag); otherwise `record::missing_game`, its help saying which
/// games were tried.
pub fn resolve_in(
    raw: &RawGame,
    src: &str,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    resolve_with(raw, Some(src), opts)
}

fn resolve_with(
    raw: &RawGame,
    src: Option<&str>,
    opts: &Options,
) -> Result<(&'static dyn DynGame, Vec<Diag>), Box<GameReport>> {
    let fail = |d: Diag| {
        let mut report = GameReport {
            tags: tag_pairs(raw, None, opts),
            comment: raw.comment.clone(),
            ..GameReport::default()
        };
        // tag errors in file order (spec §5), this one among them
        let mut errors = raw.tag_errors.clone();
        errors.push(d);
        errors.sort_by_key(|e| e.span.map_or(0, |s| s.offset));
        for e in errors {
            report.push(e);
        }
        Box::new(report)
    };
    let mut warnings = Vec::new();
    let tag = raw.tags.get("Game");
    let cli = opts.game.as_deref();
    let (name, tag_span) = match (tag, cli) {
        (Some(t), cli) => {
            if let Some(c) = cli {
                let same = by_name(c)
                    .zip(by_name(&t.value))
                    .is_some_and(|(a, b)| a.name() == b.name());
                if !same {
                    warnings.push(
                        Diag::warning(
                            "record::game_mismatch",
                            format!("--game {c} disagrees with the Game tag; the tag wins"),
                        )
                        .at(t.value_span)
                        .label(format!("this record says {}", t.value)),
                    );
                }
            }
            (t.value.as_str(), Some(t.value_span))
        }
        (None, Some(c)) => (c, None),
        (None, None) => {
            // A game over the size limit was dropped before its tags were
            // read: that is what is wrong with it, not a missing tag.
            if let Some(stop) = raw.stop.as_ref().filter(|d| d.code == "record::too_large") {
                return Err(fail(stop.clone()));
            }
            // Point at the game's first tag, or its first move.
            let first = raw
                .tags
                .0
                .first()
                .map(|t| t.span)
                .or_else(|| raw.tokens.first().map(|t| t.span))
                .unwrap_or(crate::span::Span::new(raw.span.offset, 0));
            let opening = raw.tokens.get(..raw.tokens.len().min(INFER_TOKENS));
            let read: Vec<&'static dyn DynGame> = match (src, opening) {
                (Some(src), Some(opening)) if !opening.is_empty() => REGISTRY
                    .iter()
                    .copied()
                    .filter(|g| g.reads_opening(raw, opening, src))
                    .collect(),
                _ => Vec::new(),
            };
            if let (Some(src), [game]) = (src, &read[..]) {
                let moves = raw.tokens.first().map_or(first, |t| t.span);
                let at = if raw.tags.0.is_empty() {
                    moves
                } else {
                    tag_section(raw)
                };
                let shown: Vec<&str> = opening.unwrap_or(&[]).iter().map(|t| t.text(src)).collect();
                warnings.push(
                    Diag::warning(
                        "record::game_inferred",
                        format!(
                            "no `Game` tag: read as {}, the only game whose notation reads the first moves (as legal moves)",
                            game.name()
                        ),
                    )
                    .at(at)
                    .label(format!("read as {}", game.name()))
                    .help(format!(
                        "the first moves `{}` read as {} only; add [Game \"{}\"] or pass --game {} to say so",
                        shown.join(" "),
                        game.name(),
                        game.name(),
                        game.name()
                    )),
                );
                return Ok((*game, warnings));
            }
            let all: Vec<&str> = REGISTRY.iter().map(|g| g.name()).collect();
            let tried = match &read[..] {
                _ if src.is_none() => String::new(),
                [] if raw.tokens.is_empty() => {
                    "; there are no moves to tell the game by".to_string()
                }
                [] => format!(
                    "; the first moves read as no game's notation (tried {})",
                    all.join(", ")
                ),
                several => format!(
                    "; the first moves read as {} alike (tried {})",
                    several
                        .iter()
                        .map(|g| g.name())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    all.join(", ")
                ),
            };
            let d = Diag::error(
                "record::missing_game",
                "the record has no `Game` tag and no --game was given",
            )
            .at(first)
            .label("this game does not say which game it is")
            .help(format!(
                "add a tag such as [Game \"reversi\"], or pass --game reversi{tried}"
            ));
            return Err(fail(d));
        }
    };
    match by_name(name) {
        Some(g) => Ok((g, warnings)),
        None => {
            let mut d = Diag::error("record::unknown_game", format!("unknown game `{name}`"))
                .label("not a game gamerec knows")
                .help(unknown_help(name));
            if let Some(s) = tag_span {
                d = d.at(s);
            }
            Err(fail(d))
        }
    }
}
