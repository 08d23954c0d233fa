//! `--format sarif`: one SARIF 2.1.0 log with one run, written a result at a
//! time. Each diagnostic is a result (`ruleId` its code, `level` error or
//! warning, the file and region: line and column in Unicode code points,
//! `columnKind` says so, plus byte offset and length; WTHOR games give the
//! byte range alone); the run's `tool.driver.rules` lists the codes that
//! occurred with a description, written at the end (SARIF objects have no
//! key order). Files that could not be read are `toolExecutionNotifications`
//! of the run's invocation, which then is not `executionSuccessful`.
//!
//! File locations are URIs relative to `%SRCROOT%` (`uriBaseId`), the
//! folder gamerec runs in, which `originalUriBaseIds` gives as a `file:`
//! URI: code-scanning uploads map them to the repository when gamerec runs
//! at its root. An absolute path inside that folder is made relative; one
//! outside it stays an absolute `file:` URI without a base.

use std::collections::BTreeSet;
use std::io::{self, Write};

use serde_json::{Map, Value, json};

use super::super::inputs::FileError;
use crate::diag::{Diag, Severity};
use crate::formats::SourceGame;
use crate::replay::{GameReport, describe};

#[derive(Default)]
pub struct Writer {
    results: usize,
    codes: BTreeSet<String>,
}

/// A path as a URI reference: `/` separators, reserved characters escaped.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            b'\\' => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The base relative URIs are resolved against.
const SRCROOT: &str = "%SRCROOT%";

/// A file's `artifactLocation`: a URI relative to `%SRCROOT%` (the
/// current folder) where it can be, else an absolute `file:` URI.
fn artifact(path: &str) -> Value {
    let p = std::path::Path::new(path);
    if p.is_absolute() {
        let inside = std::env::current_dir().ok().and_then(|cwd| {
            p.strip_prefix(cwd)
                .ok()
                .map(|r| r.to_string_lossy().into_owned())
        });
        return match inside {
            Some(rel) => json!({ "uri": uri(&rel), "uriBaseId": SRCROOT }),
            None => {
                let u = uri(path);
                let sep = if u.starts_with('/') { "" } else { "/" };
                json!({ "uri": format!("file://{sep}{u}") })
            }
        };
    }
    let rel = path.strip_prefix("./").unwrap_or(path);
    json!({ "uri": uri(rel), "uriBaseId": SRCROOT })
}

/// `originalUriBaseIds`: `%SRCROOT%` as the current folder's `file:` URI
/// (with its closing `/`, as SARIF asks).
fn base_ids() -> Value {
    match std::env::current_dir() {
        Ok(cwd) => {
            let mut u = uri(&cwd.to_string_lossy());
            if !u.ends_with('/') {
                u.push('/');
            }
            let sep = if u.starts_with('/') { "" } else { "/" };
            json!({ SRCROOT: { "uri": format!("file://{sep}{u}") } })
        }
        Err(_) => json!({}),
    }
}

/// What a code is about, for the rule's description.
fn description(code: &str) -> String {
    let (game, kind) = code.split_once("::").unwrap_or(("gamerec", code));
    let known = match code {
        "record::bad_tag" => Some("A tag is malformed, or its value is not allowed"),
        "record::unescaped_quote" => {
            Some("A quote inside a tag value is not escaped; the value is read to its line's end")
        }
        "record::duplicate_tag" => Some("A tag is given twice in one game"),
        "record::unterminated_comment" => Some("A { comment is never closed"),
        "record::stray_brace" => Some("A } closes no comment"),
        "record::move_number_decreases" => Some("A move number is smaller than the one before"),
        "record::missing_game" => {
            Some("A record says neither in a Game tag nor by --game which game it is")
        }
        "record::unknown_game" => Some("The Game tag names a game gamerec does not know"),
        "record::bad_result" => Some("A Result is neither scores nor *"),
        "record::result_mismatch" => Some("The claimed result differs from the replayed scores"),
        "record::wrong_player" => Some("An interchange move is by a colour that is not to move"),
        "record::game_mismatch" => Some("--game disagrees with the Game tag"),
        "record::result_unchecked" => {
            Some("A numeric Result on a game that is not over is not checked")
        }
        "record::no_games" => Some("A file holds no game of the format it is read as"),
        "record::too_large" => Some("A game is larger than the size limit"),
        "record::unknown_tag" => Some("A tag name is a known tag misspelled or mis-cased"),
        "record::too_many_diagnostics" => Some("A game has more diagnostics than are kept"),
        _ => None,
    };
    match known {
        Some(text) => text.to_string(),
        None => format!("{game}: {}", kind.replace('_', " ")),
    }
}

fn level(d: &Diag) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn result(g: &SourceGame, about: &str, d: &Diag) -> Value {
    let mut region = Map::new();
    match (&g.byte_map, d.span) {
        (Some(map), Some(span)) => {
            if let Some(at) = map.map(span) {
                region.insert("byteOffset".into(), json!(at.offset));
                region.insert("byteLength".into(), json!(at.length));
            }
        }
        (None, Some(span)) => {
            let lines = g.lines();
            let (line, col) = lines.line_col(span.offset);
            let (end_line, end_col) = lines.line_col(span.end());
            region.insert("startLine".into(), json!(line));
            region.insert("startColumn".into(), json!(col));
            region.insert("endLine".into(), json!(end_line));
            region.insert("endColumn".into(), json!(end_col));
            let at = g.origin.to_file(span);
            region.insert("byteOffset".into(), json!(at.offset));
            region.insert("byteLength".into(), json!(at.length));
        }
        _ => {}
    }
    let mut location = json!({ "artifactLocation": artifact(&g.file.name) });
    if !region.is_empty() {
        location["region"] = Value::Object(region);
    }
    let mut props = Map::new();
    props.insert("game".into(), json!(g.index));
    props.insert("number".into(), json!(g.index + 1));
    if !about.is_empty() {
        props.insert("about".into(), json!(about));
    }
    props.insert("ply".into(), json!(d.ply));
    if let Some(label) = &d.label {
        props.insert("label".into(), json!(label));
    }
    if let Some(help) = &d.help {
        props.insert("help".into(), json!(help));
    }
    let text = match &d.help {
        Some(help) => format!("{} (help: {help})", d.message),
        None => d.message.clone(),
    };
    json!({
        "ruleId": d.code,
        "level": level(d),
        "message": { "text": text },
        "locations": [ { "physicalLocation": location } ],
        "properties": props,
    })
}

impl Writer {
    pub fn start(&mut self, w: &mut dyn Write) -> io::Result<()> {
        write!(
            w,
            "{{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {{\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ["
        )
    }

    pub fn game(&mut self, w: &mut dyn Write, g: &SourceGame, r: &GameReport) -> io::Result<()> {
        if r.errors.is_empty() && r.warnings.is_empty() {
            return Ok(());
        }
        let about = describe(r);
        for d in r.errors.iter().chain(&r.warnings) {
            self.codes.insert(d.code.to_string());
            let sep = if self.results == 0 {
                "\n        "
            } else {
                ",\n        "
            };
            self.results += 1;
            write!(w, "{sep}")?;
            crate::formats::json::write_pretty_at(w, &result(g, &about, d), 8)?;
        }
        Ok(())
    }

    pub fn finish(
        &mut self,
        w: &mut dyn Write,
        file_errors: &[FileError],
        skipped: &[FileError],
        summary: Value,
    ) -> io::Result<()> {
        let close = if self.results == 0 { "]" } else { "\n      ]" };
        for e in file_errors {
            if let Some(code) = e.code {
                self.codes.insert(code.to_string());
            }
        }
        let notification = |e: &FileError, level: &str| {
            let mut n = json!({
                "level": level,
                "message": { "text": format!("{}: {}", e.file, e.message) },
                "locations": [ { "physicalLocation": { "artifactLocation": artifact(&e.file) } } ],
            });
            if let Some(code) = e.code {
                n["descriptor"] = json!({ "id": code });
            }
            n
        };
        let notes: Vec<Value> = file_errors
            .iter()
            .map(|e| notification(e, "error"))
            .chain(skipped.iter().map(|e| notification(e, "warning")))
            .collect();
        let invocation = json!([{
            "executionSuccessful": file_errors.is_empty(),
            "toolExecutionNotifications": notes,
            // the counts of the summary, warnings per code included
            "properties": { "summary": summary },
        }]);
        let rules: Vec<Value> = self
            .codes
            .iter()
            .map(|c| json!({ "id": c, "shortDescription": { "text": description(c) } }))
            .collect();
        let tool = json!({
            "driver": {
                "name": "gamerec",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }
        });
        write!(w, "{close},\n      \"originalUriBaseIds\": ")?;
        crate::formats::json::write_pretty_at(w, &base_ids(), 6)?;
        write!(w, ",\n      \"invocations\": ")?;
        crate::formats::json::write_pretty_at(w, &invocation, 6)?;
        write!(w, ",\n      \"tool\": ")?;
        crate::formats::json::write_pretty_at(w, &tool, 6)?;
        writeln!(w, "\n    }}\n  ]\n}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(
            uri("fixtures/a b/x#1.gamerec"),
            "fixtures/a%20b/x%231.gamerec"
        );
        assert_eq!(uri("C:\\games\\é.ggf"), "C%3A/games/%C3%A9.ggf");
    }
}
