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
    let fail = |d: Diag| failed(raw, opts, d);
    let mut warnings = Vec::new();
    let (name, tag_span) = match (raw.tags.get("Game"), opts.game.as_deref()) {
        (Some(t), cli) => {
            if let Some(c) = cli {
                warnings.extend(cli_disagrees(c, t));
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
            let mismatch = opts.variant.as_deref().and_then(|v| variant_disagrees(v, raw));
            return infer(raw, src)
                .map(|(g, mut w)| {
                    w.extend(mismatch);
                    (g, w)
                })
                .map_err(fail);
        }
    };
    if let Some(v) = opts.variant.as_deref() {
        warnings.extend(variant_disagrees(v, raw));
    }
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

/// The report of a game whose game could not be told: its tags, comment
/// and tag errors in file order (spec §5), `d` among them.
fn failed(raw: &RawGame, opts: &Options, d: Diag) -> Box<GameReport> {
    let mut report = GameReport {
        tags: tag_pairs(raw, None, opts),
        comment: raw.comment.clone(),
        ..GameReport::default()
    };
    let mut errors = raw.tag_errors.clone();
    errors.push(d);
    errors.sort_by_key(|e| e.span.map_or(0, |s| s.offset));
    for e in errors {
        report.push(e);
    }
    Box::new(report)
}

/// `record::game_mismatch`: `--game` names another game than the tag.
fn cli_disagrees(cli: &str, tag: &crate::record::Tag) -> Option<Diag> {
    let same = by_name(cli)
        .zip(by_name(&tag.value))
        .is_some_and(|(a, b)| a.name() == b.name());
    (!same).then(|| {
        Diag::warning(
            "record::game_mismatch",
            format!("--game {cli} disagrees with the Game tag; the tag wins"),
        )
        .at(tag.value_span)
        .label(format!("this record says {}", tag.value))
    })
}

/// `record::variant_mismatch`: `--variant` names another variant than the
/// record's `Variant` tag (as `--game` and the `Game` tag: the tag wins).
fn variant_disagrees(cli: &str, raw: &RawGame) -> Option<Diag> {
    let tag = raw.tags.get("Variant")?;
    (!tag.value.trim().eq_ignore_ascii_case(cli.trim())).then(|| {
        Diag::warning(
            "record::variant_mismatch",
            format!("--variant {cli} disagrees with the Variant tag; the tag wins"),
        )
        .at(tag.value_span)
        .label(format!("this record says {}", tag.value))
    })
}

/// A record with neither a `Game` tag nor `--game`: the one game whose
/// notation reads its first moves (with `record::game_inferred`), else
/// `record::missing_game` saying which games were tried.
fn infer(raw: &RawGame, src: Option<&str>) -> Result<(&'static dyn DynGame, Vec<Diag>), Diag> {
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
        let at = if raw.tags.0.is_empty() {
            raw.tokens.first().map_or(first, |t| t.span)
        } else {
            tag_section(raw)
        };
        let shown: Vec<&str> = opening.unwrap_or(&[]).iter().map(|t| t.text(src)).collect();
        return Ok((*game, vec![inferred(*game, at, &shown)]));
    }
    Err(missing_game(raw, src.is_some(), &read).at(first))
}

/// `record::game_inferred`: read as `game`, the only one whose notation
/// reads the first moves `shown`.
fn inferred(game: &dyn DynGame, at: crate::span::Span, shown: &[&str]) -> Diag {
    let name = game.name();
    Diag::warning(
        "record::game_inferred",
        format!(
            "no `Game` tag: read as {name}, the only game whose notation reads the first moves (as legal moves)"
        ),
    )
    .at(at)
    .label(format!("read as {name}"))
    .help(format!(
        "the first moves `{}` read as {name} only; add [Game \"{name}\"] or pass --game {name} to say so",
        shown.join(" "),
    ))
}

/// `record::missing_game`, its help saying which games were tried (when
/// the text was at hand) and which read the first moves alike.
fn missing_game(raw: &RawGame, tried_any: bool, read: &[&'static dyn DynGame]) -> Diag {
    let all: Vec<&str> = REGISTRY.iter().map(|g| g.name()).collect();
    let tried = match read {
        _ if !tried_any => String::new(),
        [] if raw.tokens.is_empty() => "; there are no moves to tell the game by".to_string(),
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
    Diag::error(
        "record::missing_game",
        "the record has no `Game` tag and no --game was given",
    )
    .label("this game does not say which game it is")
    .help(format!(
        "add a tag such as [Game \"reversi\"], or pass --game reversi{tried}"
    ))
}
