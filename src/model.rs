//! The document model of `convert --to json|yaml` (spec §3), shared by the JSON
//! and YAML readers and writers and by the gamerec text writer.
//!
//! Field names are a contract. On input, each move's `notation` and the tags
//! are authoritative; everything else is recomputed by replaying.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::replay::GameReport;

/// One converted file: a list of games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub games: Vec<DocGame>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocGame {
    pub game: String,
    pub variant: String,
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
        .map(|(seat, score)| (seat.clone(), Value::from(*score)))
        .collect()
}

impl DocGame {
    /// The document form of a replayed game (replayed with `record_moves`).
    pub fn from_report(report: &GameReport) -> DocGame {
        DocGame {
            game: report.game.clone(),
            variant: report.variant.clone(),
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
                    extras: m.extras.clone(),
                })
                .collect(),
            result: Some(DocResult {
                over: report.over,
                scores: scores_map(report),
                winners: report.winners.clone(),
                extras: report.result_extras.clone(),
            }),
            final_position: report.position.clone(),
        }
    }
}
