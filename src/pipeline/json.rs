//! The JSON report (spec §2) written a game at a time: [`JsonReport`]
//! writes one document (`json`: the `games` array, then `summary` and
//! `errors`, the same bytes as the document built whole would be) or one
//! object per game per line (`jsonl`, then one last line `{"summary": ...,
//! "errors": [...]}`), keeping only counts. Field names are a contract:
//! add fields, never rename. The document's shape is described by
//! [`SCHEMA`].

use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::FileError;
use super::summary::{Summary, Tally};
use crate::diag::Diag;
use crate::formats::SourceGame;
use crate::model::scores_map;
use crate::replay::GameReport;
use crate::span::LineIndex;

/// The version of the JSON document's shape (`schema_version`): raised
/// when a field changes meaning; adding fields keeps it.
pub const SCHEMA_VERSION: u32 = 1;

/// The JSON Schema of the `--format json` document and of `jsonl` lines.
pub const SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// One game's JSON object.
pub fn game_json(g: &SourceGame, r: &GameReport) -> Value {
    // line starts only for a game with diagnostics (a book's lines share a long text)
    let lines = (!r.errors.is_empty() || !r.warnings.is_empty()).then(|| g.lines());
    let mut obj = Map::new();
    obj.insert("file".into(), json!(g.file.name));
    obj.insert("index".into(), json!(g.index));
    // the same count from 1, as human output numbers games
    obj.insert("number".into(), json!(g.index + 1));
    if let Some(v) = &g.variation {
        obj.insert("variation".into(), json!(v));
    }
    let tags: Map<String, Value> = r
        .tags
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    obj.insert("tags".into(), Value::Object(tags));
    let opt = |s: &str| if s.is_empty() { Value::Null } else { json!(s) };
    obj.insert("game".into(), opt(r.game));
    obj.insert("variant".into(), opt(r.variant));
    obj.insert("valid".into(), json!(r.valid));
    obj.insert("plies".into(), json!(r.plies));
    obj.insert("over".into(), json!(r.over));
    obj.insert("scores".into(), Value::Object(scores_map(r)));
    obj.insert("winners".into(), json!(r.winners));
    let diags = |list: &[crate::diag::Diag]| -> Value {
        list.iter()
            .map(|d| to_json(d, lines.as_ref(), g.byte_map.as_ref()))
            .collect()
    };
    obj.insert("warnings".into(), diags(&r.warnings));
    obj.insert("errors".into(), diags(&r.errors));
    obj.insert("result".into(), Value::Object(r.result_extras.clone()));
    obj.insert("unchecked".into(), json!(r.unchecked));
    obj.insert("source_format".into(), json!(g.file.format.name()));
    Value::Object(obj)
}

/// The JSON list of file errors (or skipped entries).
pub fn file_errors_json(errors: &[FileError]) -> Value {
    errors
        .iter()
        .map(|e| {
            let mut o = Map::new();
            o.insert("file".into(), json!(e.file));
            o.insert("message".into(), json!(e.message));
            if let Some(code) = e.code {
                o.insert("code".into(), json!(code));
            }
            Value::Object(o)
        })
        .collect()
}

/// `value` pretty-printed as it stands at `indent` spaces inside a
/// pretty-printed document (its first line is not indented).
pub fn pretty_at(value: &Value, indent: usize) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    if indent == 0 {
        return text;
    }
    text.replace('\n', &format!("\n{}", " ".repeat(indent)))
}

/// The JSON form of a diagnostic (spec §2): spans and positions in the file
/// (`lines` knows where the game's text stands in it). With a byte map (a
/// binary file), `span` is the file's bytes and `line`/`column` are null.
pub fn to_json(
    diag: &Diag,
    lines: Option<&LineIndex>,
    bytes: Option<&crate::formats::ByteMap>,
) -> Value {
    let (line, column) = match (diag.span, lines, bytes) {
        (Some(s), Some(idx), None) => {
            let (l, c) = idx.line_col(s.offset);
            (Value::from(l), Value::from(c))
        }
        _ => (Value::Null, Value::Null),
    };
    let file_span = match (bytes, lines) {
        (Some(map), _) => diag.span.and_then(|s| map.map(s)),
        (None, Some(idx)) => diag.span.map(|s| idx.origin().to_file(s)),
        (None, None) => diag.span,
    };
    let span = file_span.map_or(
        Value::Null,
        |s| json!({ "offset": s.offset, "length": s.length }),
    );
    json!({
        "code": diag.code,
        "message": diag.message,
        "ply": diag.ply,
        "line": line,
        "column": column,
        "span": span,
        "label": diag.label,
        "help": diag.help,
    })
}

/// The two shapes of the JSON report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One document, written a game at a time.
    Document,
    /// One object per game per line, then the summary's line.
    Lines,
}

/// The streaming JSON report: [`JsonReport::start`], a
/// [`JsonReport::game`] per game in input order, [`JsonReport::finish`].
#[derive(Debug)]
pub struct JsonReport {
    shape: Shape,
    games: usize,
}

impl JsonReport {
    pub fn new(shape: Shape) -> JsonReport {
        JsonReport { shape, games: 0 }
    }

    /// The document's opening (nothing for lines).
    pub fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.shape {
            Shape::Document => write!(
                out,
                "{{\n  \"schema_version\": {SCHEMA_VERSION},\n  \"games\": ["
            ),
            Shape::Lines => Ok(()),
        }
    }

    /// One game's object.
    pub fn game(&mut self, out: &mut dyn Write, g: &SourceGame, r: &GameReport) -> io::Result<()> {
        let first = self.games == 0;
        self.games += 1;
        match self.shape {
            Shape::Document => {
                let sep = if first { "\n    " } else { ",\n    " };
                write!(out, "{sep}")?;
                crate::formats::json::write_pretty_at(out, &game_json(g, r), 4)
            }
            Shape::Lines => {
                serde_json::to_writer(&mut *out, &game_json(g, r))?;
                writeln!(out)
            }
        }
    }

    /// The summary (with the warnings' tally), the files that could not be
    /// read and the entries skipped (when there are any).
    pub fn finish(
        &mut self,
        out: &mut dyn Write,
        summary: &Summary,
        tally: &Tally,
        file_errors: &[FileError],
        skipped: &[FileError],
    ) -> io::Result<()> {
        match self.shape {
            Shape::Document => {
                let close = if self.games == 0 { "]" } else { "\n  ]" };
                write!(
                    out,
                    "{close},\n  \"summary\": {},\n  \"errors\": {}",
                    pretty_at(&tally.json(summary.json()), 2),
                    pretty_at(&file_errors_json(file_errors), 2)
                )?;
                if !skipped.is_empty() {
                    write!(
                        out,
                        ",\n  \"skipped\": {}",
                        pretty_at(&file_errors_json(skipped), 2)
                    )?;
                }
                writeln!(out, "\n}}")
            }
            Shape::Lines => {
                let mut last = Map::new();
                last.insert("schema_version".into(), json!(SCHEMA_VERSION));
                last.insert("summary".into(), tally.json(summary.json()));
                last.insert("errors".into(), file_errors_json(file_errors));
                if !skipped.is_empty() {
                    last.insert("skipped".into(), file_errors_json(skipped));
                }
                serde_json::to_writer(&mut *out, &Value::Object(last))?;
                writeln!(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::FileError;

    /// The document written a game at a time is the one built whole.
    #[test]
    fn streamed_document_matches_the_whole_one() {
        for games in [0usize, 1, 3] {
            for errors in [0usize, 2] {
                let game = json!({"file": "a", "index": 0, "scores": {"black": 1}, "winners": [], "errors": [{"code": "x", "span": {"offset": 1}}], "result": {}});
                let s = Summary {
                    games,
                    ..Summary::default()
                };
                let errs: Vec<FileError> = (0..errors)
                    .map(|i| FileError::new(format!("f{i}"), "m"))
                    .collect();
                let whole = json!({
                    "schema_version": SCHEMA_VERSION,
                    "games": vec![game.clone(); games],
                    "summary": s.json(),
                    "errors": file_errors_json(&errs),
                });
                let mut streamed =
                    format!("{{\n  \"schema_version\": {SCHEMA_VERSION},\n  \"games\": [");
                for i in 0..games {
                    let sep = if i == 0 { "\n    " } else { ",\n    " };
                    streamed.push_str(sep);
                    streamed.push_str(&pretty_at(&game, 4));
                }
                streamed.push_str(if games == 0 { "]" } else { "\n  ]" });
                streamed.push_str(&format!(
                    ",\n  \"summary\": {},\n  \"errors\": {}\n}}",
                    pretty_at(&s.json(), 2),
                    pretty_at(&file_errors_json(&errs), 2)
                ));
                assert_eq!(
                    streamed,
                    serde_json::to_string_pretty(&whole).unwrap_or_default()
                );
            }
        }
    }
}
