//! The run's counts: games valid, invalid, unfinished, skipped by the
//! filter, files unreadable, warnings per code.

use serde_json::{Map, Value, json};

use crate::replay::GameReport;

/// Counts for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read.
    pub games: usize,
    /// Games without errors.
    pub valid: usize,
    /// Games with errors.
    pub invalid: usize,
    /// Valid games that did not reach their end.
    pub unfinished: usize,
    /// Files that could not be read (or ended early).
    pub unreadable: usize,
    /// Games of a variant gamerec does not play (`pentobi::unsupported`):
    /// read past, neither valid nor invalid.
    pub unsupported: usize,
    /// Games the run's filter left out (not counted in `games`).
    pub skipped: usize,
    /// Whether the run has a filter: the JSON summary then says `skipped`.
    pub filtered: bool,
}

impl Summary {
    /// Counts one game's report.
    pub fn add(&mut self, r: &GameReport) {
        self.games += 1;
        if r.valid {
            self.valid += 1;
            if !r.over {
                self.unfinished += 1;
            }
        } else {
            self.invalid += 1;
        }
    }

    /// The summary line (`N games, V valid, I invalid, U unfinished`).
    pub fn line(&self) -> String {
        let mut line = format!(
            "{}, {} valid, {} invalid, {} unfinished",
            crate::diag::plural(self.games, "game", "games"),
            self.valid,
            self.invalid,
            self.unfinished
        );
        if self.unsupported > 0 {
            line.push_str(&format!(", {} unsupported", self.unsupported));
        }
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        if self.unreadable > 0 {
            line.push_str(&format!(", {} unreadable", self.unreadable));
        }
        line
    }

    /// Counts a file's error: a game of a variant gamerec does not play
    /// (its code ends in `::unsupported`), or a file that could not be read.
    pub fn add_error(&mut self, code: Option<&str>) {
        if code.is_some_and(is_unsupported) {
            self.unsupported += 1;
        } else {
            self.unreadable += 1;
        }
    }

    /// The JSON summary's counts: `unsupported` when there are such games,
    /// `skipped` in a run with a filter.
    pub fn json(&self) -> Value {
        let mut v = json!({ "games": self.games, "valid": self.valid, "invalid": self.invalid, "unfinished": self.unfinished });
        if let Value::Object(m) = &mut v {
            if self.unsupported > 0 {
                m.insert("unsupported".into(), json!(self.unsupported));
            }
            if self.filtered {
                m.insert("skipped".into(), json!(self.skipped));
            }
        }
        v
    }
}

/// Whether a file error's code is a game of a variant gamerec does not
/// play (`pentobi::unsupported`).
pub fn is_unsupported(code: &str) -> bool {
    code.ends_with("::unsupported")
}

/// Warnings counted per code, for the summary: `; 413 warnings: 413
/// record::result_unchecked` in the summary line, `warnings` and
/// `warning_codes` added to the JSON summary.
#[derive(Debug, Default)]
pub struct Tally {
    codes: std::collections::BTreeMap<String, usize>,
    total: usize,
}

impl Tally {
    /// Counts one warning of `code`.
    pub fn add(&mut self, code: &str) {
        self.total += 1;
        match self.codes.get_mut(code) {
            Some(n) => *n += 1,
            None => {
                self.codes.insert(code.to_string(), 1);
            }
        }
    }

    /// The codes, most frequent first (then by name).
    fn sorted(&self) -> Vec<(&str, usize)> {
        let mut v: Vec<(&str, usize)> = self.codes.iter().map(|(c, n)| (c.as_str(), *n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// What the summary line adds: nothing without warnings.
    pub fn line(&self) -> String {
        if self.total == 0 {
            return String::new();
        }
        let codes: Vec<String> = self
            .sorted()
            .iter()
            .map(|(c, n)| format!("{n} {c}"))
            .collect();
        format!(
            "; {}: {}",
            crate::diag::plural(self.total, "warning", "warnings"),
            codes.join(", ")
        )
    }

    /// The JSON summary with the warnings' counts added.
    pub fn json(&self, mut summary: Value) -> Value {
        if let Value::Object(m) = &mut summary {
            m.insert("warnings".into(), json!(self.total));
            let codes: Map<String, Value> = self
                .codes
                .iter()
                .map(|(c, n)| (c.clone(), json!(n)))
                .collect();
            m.insert("warning_codes".into(), Value::Object(codes));
        }
        summary
    }
}
