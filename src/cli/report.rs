//! The `--format json` document of `validate` and `score` (spec §2), and the
//! summary line. Field names are a contract: add fields, never rename.

use serde_json::{Map, Value, json};

use super::diagnostics::to_json;
use super::inputs::FileError;
use crate::formats::Input;
use crate::model::scores_map;
use crate::replay::GameReport;
use crate::span::LineIndex;

/// Counts for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub valid: usize,
    pub invalid: usize,
    pub unfinished: usize,
}

impl Summary {
    pub fn of(results: &[(Input, Vec<GameReport>)]) -> Summary {
        let mut s = Summary::default();
        for r in results.iter().flat_map(|(_, reports)| reports) {
            s.games += 1;
            if r.valid {
                s.valid += 1;
                if !r.over {
                    s.unfinished += 1;
                }
            } else {
                s.invalid += 1;
            }
        }
        s
    }

    pub fn line(&self) -> String {
        format!(
            "{} games, {} valid, {} invalid, {} unfinished",
            self.games, self.valid, self.invalid, self.unfinished
        )
    }
}

/// One game's JSON object.
pub fn game_json(input: &Input, index: usize, r: &GameReport, lines: &LineIndex) -> Value {
    let mut obj = Map::new();
    obj.insert("file".into(), json!(input.name));
    obj.insert("index".into(), json!(index));
    let opt = |s: &str| if s.is_empty() { Value::Null } else { json!(s) };
    obj.insert("game".into(), opt(&r.game));
    obj.insert("variant".into(), opt(&r.variant));
    obj.insert("valid".into(), json!(r.valid));
    obj.insert("plies".into(), json!(r.plies));
    obj.insert("over".into(), json!(r.over));
    obj.insert("scores".into(), Value::Object(scores_map(r)));
    obj.insert("winners".into(), json!(r.winners));
    obj.insert(
        "warnings".into(),
        r.warnings.iter().map(|d| to_json(d, Some(lines))).collect(),
    );
    obj.insert(
        "errors".into(),
        r.errors.iter().map(|d| to_json(d, Some(lines))).collect(),
    );
    obj.insert("result".into(), Value::Object(r.result_extras.clone()));
    obj.insert("unchecked".into(), json!(r.unchecked));
    obj.insert("source_format".into(), json!(input.format.name()));
    Value::Object(obj)
}

/// The whole document.
pub fn document(results: &[(Input, Vec<GameReport>)], file_errors: &[FileError]) -> Value {
    let mut games = Vec::new();
    for (input, reports) in results {
        let lines = LineIndex::new(&input.text);
        for (i, r) in reports.iter().enumerate() {
            games.push(game_json(input, i, r, &lines));
        }
    }
    let s = Summary::of(results);
    json!({
        "games": games,
        "summary": { "games": s.games, "valid": s.valid, "invalid": s.invalid, "unfinished": s.unfinished },
        "errors": file_errors
            .iter()
            .map(|e| json!({ "file": e.file, "message": e.message }))
            .collect::<Vec<_>>(),
    })
}
