//! The JSON form of the document model (`convert --to json`).

use crate::model::Document;

pub fn write(doc: &Document) -> String {
    let mut s =
        serde_json::to_string_pretty(doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

pub fn read(text: &str) -> Result<Document, String> {
    serde_json::from_str(text).map_err(|e| format!("not a gamerec JSON document: {e}"))
}
