//! The YAML form of the document model (`convert --to yaml`).

use crate::model::Document;

pub fn write(doc: &Document) -> String {
    serde_yaml::to_string(doc).unwrap_or_else(|e| format!("error: {e}\n"))
}

pub fn read(text: &str) -> Result<Document, String> {
    serde_yaml::from_str(text).map_err(|e| format!("not a gamerec YAML document: {e}"))
}
