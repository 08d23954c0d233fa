//! The document model shared by JSON and YAML.
