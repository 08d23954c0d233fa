//! Input and output formats: one reader and one writer per format.
