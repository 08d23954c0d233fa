//! The YAML form of the document model (`convert --to yaml`).
//!
//! Reading takes the whole document (YAML's anchors can point anywhere in
//! it), up to [`MAX_YAML_BYTES`]; flow collections nested deeper than
//! [`MAX_DEPTH`] are refused before parsing. JSON or gamerec text is read a
//! game at a time, for collections of any size.

use super::{DocText, FromDoc, SourceGame};
use crate::model::Document;
use crate::source::TextBuf;
use crate::span::Origin;

/// The largest YAML document read.
pub const MAX_YAML_BYTES: usize = 256 * 1024 * 1024;

/// How deep flow collections (`[...]`, `{...}`) may nest.
pub const MAX_DEPTH: usize = 64;

pub fn write(doc: &Document) -> String {
    serde_yaml::to_string(doc).unwrap_or_else(|e| format!("error: {e}\n"))
}

pub fn read(text: &str) -> Result<Document, String> {
    check_depth(text)?;
    serde_yaml::from_str(text).map_err(|e| format!("not a gamerec YAML document: {e}"))
}

/// Refuses flow collections nested too deep (the parser's time and stack
/// would grow with them). Quoted scalars and comments are skipped.
fn check_depth(text: &str) -> Result<(), String> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut comment = false;
    let mut prev = b'\n';
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if comment {
            comment = b != b'\n';
        } else if let Some(q) = quote {
            if b == q {
                quote = None;
            }
        } else {
            match b {
                b'"' | b'\'' if depth > 0 || prev.is_ascii_whitespace() || prev == b':' => {
                    quote = Some(b)
                }
                b'#' if prev.is_ascii_whitespace() => comment = true,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(format!(
                            "not a gamerec YAML document: collections nested more than {MAX_DEPTH} levels deep (at byte {i})"
                        ));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        prev = b;
    }
    Ok(())
}

/// Reads a YAML document's games (see [`super::open`]).
pub fn games(
    mut buf: TextBuf<'_>,
) -> Result<impl Iterator<Item = Result<SourceGame, String>>, String> {
    while buf.fill() {}
    if let Some(e) = buf.take_error() {
        return Err(e);
    }
    if !buf.at_end() {
        return Err(format!(
            "a YAML document larger than {MAX_YAML_BYTES} bytes: write it as JSON or gamerec text, which are read a game at a time"
        ));
    }
    let bom = if buf.text().starts_with('\u{feff}') {
        3
    } else {
        0
    };
    let text = buf.text().get(bom..).unwrap_or("");
    let doc = read(text)?;
    let mut from = FromDoc::new();
    // kept only when a game's field must be blamed in the document
    let whole = doc
        .games
        .iter()
        .any(|g| crate::model::check_moves(g).is_some())
        .then(|| text.to_string());
    let origin = Origin::default().after(buf.text().get(..bom).unwrap_or(""));
    Ok(doc.games.into_iter().flat_map(move |g| {
        let at = whole.as_deref().map(|text| DocText {
            text,
            origin,
            whole: true,
        });
        from.game(&g, at.as_ref()).into_iter().map(Ok)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_flow_collections_are_refused_quickly() {
        let deep = format!("games: {}", "[".repeat(100_000));
        assert!(read(&deep).is_err_and(|e| e.contains("nested more than")));
        assert!(check_depth("games: [ '[[[[' , \"{{{{\" ] # [[[[").is_ok());
    }
}
