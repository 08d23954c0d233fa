//! Input and output formats: one reader and one writer per format.
//!
//! Every reader turns a file's bytes into an [`Input`]: a text and the games
//! the container found in it, with spans into that text. For the gamerec
//! format the text is the file itself; for JSON and YAML it is the gamerec
//! text their games are written as (notation is authoritative on input), so
//! everything downstream has one shape. A new format is a module here and an
//! entry in [`Format`].
//!
//! Detection: `--from` wins; then JSON by a leading `{` followed by `"` (a
//! gamerec file may start with a `{ comment }`), YAML by a top-level `games:`
//! key; everything else is gamerec text.

pub mod gamerec;
pub mod json;
pub mod yaml;

use crate::model::Document;
use crate::record::RawGame;

/// The formats gamerec reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Gamerec,
    Json,
    Yaml,
}

impl Format {
    pub const ALL: &'static [Format] = &[Format::Gamerec, Format::Json, Format::Yaml];

    pub fn name(self) -> &'static str {
        match self {
            Format::Gamerec => "gamerec",
            Format::Json => "json",
            Format::Yaml => "yaml",
        }
    }

    pub fn by_name(name: &str) -> Option<Format> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// File extensions a directory scan picks up (never JSON or YAML).
    pub fn scanned_extensions() -> &'static [&'static str] {
        &["gamerec"]
    }
}

/// A file read into games.
#[derive(Clone, Debug)]
pub struct Input {
    /// The path as given, or `-` for standard input.
    pub name: String,
    /// The text the games' spans point into.
    pub text: String,
    pub games: Vec<RawGame>,
    /// The format the file was in.
    pub format: Format,
}

impl Input {
    /// The name diagnostics show: the file, or what its text was made from.
    pub fn source_name(&self) -> String {
        match self.format {
            Format::Gamerec => self.name.clone(),
            f => format!("{} (as gamerec text, from {})", self.name, f.name()),
        }
    }
}

fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The format of a file, from its content.
pub fn detect(text: &str) -> Format {
    let t = strip_bom(text).trim_start();
    if let Some(rest) = t.strip_prefix('{') {
        if rest.trim_start().starts_with('"') || rest.trim_start().starts_with('}') {
            return Format::Json;
        }
    }
    if t.lines().any(|l| l.starts_with("games:")) {
        return Format::Yaml;
    }
    Format::Gamerec
}

/// Reads a file's bytes. `Err` for a file that cannot be read as any format.
pub fn read(name: &str, bytes: Vec<u8>, forced: Option<Format>) -> Result<Input, String> {
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let format = forced.unwrap_or_else(|| detect(&text));
    let from_doc = |doc: Result<Document, String>| -> Result<String, String> {
        Ok(gamerec::write(&doc?.games))
    };
    let text = match format {
        Format::Gamerec => text,
        Format::Json => from_doc(json::read(strip_bom(&text)))?,
        Format::Yaml => from_doc(yaml::read(strip_bom(&text)))?,
    };
    let games = gamerec::read(&text);
    Ok(Input {
        name: name.to_string(),
        text,
        games,
        format,
    })
}
