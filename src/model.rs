//! The document model of `convert --to json|yaml` (spec §3), shared by the JSON
//! and YAML readers and writers and by the gamerec text writer.
//!
//! Field names are a contract. On input, each move's `notation` and the tags
//! are authoritative; everything else is recomputed by replaying. `variant`
//! may be left out on input; when given it must name the variant the tags
//! give (the default without a `Variant` tag), else `record::bad_tag`
//! ([`check_variants`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::diag::Diag;
use crate::record::RawGame;
use crate::replay::GameReport;

/// One converted file: a list of games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub games: Vec<DocGame>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocGame {
    pub game: String,
    /// The effective variant; optional on input, checked against the tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Every tag in file order, values always strings.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    #[serde(default)]
    pub comment: Option<String>,
    pub moves: Vec<DocMove>,
    #[serde(default)]
    pub result: Option<DocResult>,
    #[serde(default)]
    pub final_position: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocMove {
    #[serde(default)]
    pub ply: usize,
    #[serde(default)]
    pub player: String,
    pub notation: String,
    #[serde(default)]
    pub comment: Option<String>,
    /// An automatic pass: taken by the engine, not written in the record.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
    /// The move number written before the move in the record, as written
    /// (`12.`, `12...`); absent when none was. The text writer writes it back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// The game's structured fields for this move.
    #[serde(flatten)]
    pub extras: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocResult {
    pub over: bool,
    pub scores: Map<String, Value>,
    pub winners: Vec<String>,
    #[serde(flatten)]
    pub extras: Map<String, Value>,
}

/// The scores of a report keyed by seat, in seat order.
pub fn scores_map(report: &GameReport) -> Map<String, Value> {
    report
        .seats
        .iter()
        .zip(&report.scores)
        .map(|(seat, score)| (seat.to_string(), Value::from(*score)))
        .collect()
}

impl DocGame {
    /// The document form of a replayed game (replayed with `record_moves`).
    pub fn from_report(report: &GameReport) -> DocGame {
        DocGame {
            game: report.game.to_string(),
            variant: Some(report.variant.to_string()),
            tags: report.tags.clone(),
            comment: report.comment.clone(),
            moves: report
                .moves
                .iter()
                .map(|m| DocMove {
                    ply: m.ply,
                    player: m.player.clone(),
                    notation: m.notation.clone(),
                    comment: m.comment.clone(),
                    auto: m.auto,
                    number: m.number.clone(),
                    extras: m.extras.clone(),
                })
                .collect(),
            result: Some(DocResult {
                over: report.over,
                scores: scores_map(report),
                winners: report.winners.iter().map(|w| w.to_string()).collect(),
                extras: report.result_extras.clone(),
            }),
            final_position: report.position.clone(),
        }
    }
}

/// Checks each document game's `variant` against the variant its tags give,
/// once the document is read back as text (`games`, one per document game).
/// A disagreement is a `record::bad_tag` on the `Variant` tag (or the `Game`
/// tag when there is none): an error in a rules tag, so the game stops.
pub fn check_variants(doc: &Document, games: &mut [RawGame]) {
    if doc.games.len() != games.len() {
        return;
    }
    for (d, raw) in doc.games.iter().zip(games) {
        check_variant(d, raw);
    }
}

/// [`check_variants`] for one game.
pub fn check_variant(d: &DocGame, raw: &mut RawGame) {
    let Some(given) = d.variant.as_deref() else {
        return;
    };
    let game_tag = raw.tags.get("Game");
    let name = game_tag.map_or(d.game.as_str(), |t| t.value.as_str());
    let Some(game) = crate::games::by_name(name) else {
        return;
    };
    let variants = game.variants();
    let index = |v: &str| {
        variants
            .iter()
            .position(|known| known.eq_ignore_ascii_case(v.trim()))
    };
    let tag = raw.tags.get("Variant");
    // An unknown Variant tag is the game's own error.
    let Some(from_tags) = tag.map_or(Some(0), |t| index(&t.value)) else {
        return;
    };
    if index(given) == Some(from_tags) {
        return;
    }
    let effective = variants.get(from_tags).copied().unwrap_or_default();
    let Some(at) = tag.or(game_tag) else {
        return;
    };
    let said = if tag.is_some() {
        format!("the Variant tag says {effective}")
    } else {
        format!("no Variant tag: the {} default, {effective}", game.name())
    };
    raw.tag_errors.push(
        Diag::error(
            "record::bad_tag",
            format!("the document's variant `{given}` disagrees with the tags ({said})"),
        )
        .at(at.span)
        .label(format!("the tags give {effective}"))
        .help(format!(
            "leave `variant` out, or make it and the Variant tag agree ({} variants: {})",
            game.name(),
            variants.join(", ")
        )),
    );
}
