//! Diagnostics: what is wrong, where, and what would have been right.
//!
//! A [`Diag`] is plain data (code, message, span, label, help, ply); the CLI turns
//! it into a miette report or a JSON object. Codes are `game::kind` in snake case
//! and are part of the JSON contract.
//!
//! A `Diag` is also a [`std::error::Error`]: its [`Display`](std::fmt::Display)
//! is one line, `error[reversi::no_flip]: <message>` (the alternate form,
//! `{:#}`, adds the help on a line of its own). It does not know the text
//! its span points into: a caller that has the text renders it with a
//! window of lines (as the CLI does).

use std::borrow::Cow;

use crate::span::Span;

/// How grave a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The game is invalid.
    Error,
    /// Worth saying; the game stays valid (unless `--deny`).
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One diagnostic: what is wrong, where (a span of the game's text), and what would be right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// Error or warning.
    pub severity: Severity,
    /// `game::kind`, e.g. `reversi::no_flip`.
    pub code: Cow<'static, str>,
    /// One sentence saying what is wrong.
    pub message: String,
    /// What the diagnostic blames; `None` for problems with no place in the text.
    pub span: Option<Span>,
    /// The label drawn under the span (defaults to the message).
    pub label: Option<String>,
    /// What would have been legal, where that is cheap to say.
    pub help: Option<String>,
    /// 1-based ply of the offending move; 0 for the tags.
    pub ply: usize,
}

impl std::fmt::Display for Diag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}[{}]: {}", self.severity, self.code, self.message)?;
        if let (true, Some(help)) = (f.alternate(), &self.help) {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diag {}

impl Diag {
    /// An error of `code` saying `message`.
    pub fn error(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Diag {
            severity: Severity::Error,
            code: code.into(),
            message: message.into(),
            span: None,
            label: None,
            help: None,
            ply: 0,
        }
    }

    /// A warning of `code` saying `message`.
    pub fn warning(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Diag {
            severity: Severity::Warning,
            ..Diag::error(code, message)
        }
    }

    /// Blames `span`.
    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// The label under the span.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The help line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The ply of the move blamed (0: the tags).
    pub fn ply(mut self, ply: usize) -> Self {
        self.ply = ply;
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `help: legal moves here: a b c` (or the moves cut short when there are many).
pub fn legal_moves_help(moves: &[String]) -> String {
    const MAX: usize = 24;
    if moves.is_empty() {
        return "no legal move here".to_string();
    }
    let shown: Vec<&str> = moves.iter().take(MAX).map(String::as_str).collect();
    let more = moves.len().saturating_sub(MAX);
    if more > 0 {
        format!("legal moves here: {} (and {more} more)", shown.join(" "))
    } else {
        format!("legal moves here: {}", shown.join(" "))
    }
}

/// `n` with the singular or the plural noun: `1 ply`, `2 plies`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The edit distance (insertions, deletions, substitutions, and swaps of
/// two neighbours) between two short names, compared without regard to
/// ASCII case; `usize::MAX` for names over 64 characters (no suggestion
/// is made for those).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    if a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    // rows of the table: two back, one back, this one
    let mut two: Vec<usize> = vec![0; b.len() + 1];
    let mut one: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let mut d = (one[j] + cost).min(one[j + 1] + 1).min(row[j] + 1);
            if i > 0 && j > 0 && a.get(i - 1) == Some(&cb) && b.get(j - 1) == Some(&ca) {
                d = d.min(two[j - 1] + 1);
            }
            row[j + 1] = d;
        }
        std::mem::swap(&mut two, &mut one);
        std::mem::swap(&mut one, &mut row);
    }
    one[b.len()]
}

/// The known name closest to `name` within `max` edits (the first of the
/// closest), for a "did you mean" help.
pub fn closest<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|(d, _)| *d <= max)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod distance_tests {
    use super::*;

    #[test]
    fn edit_distance_counts_one_edit() {
        assert_eq!(edit_distance("othelo", "othello"), 1);
        assert_eq!(edit_distance("Reslut", "Result"), 1);
        assert_eq!(edit_distance("Whtie", "White"), 1);
        assert_eq!(edit_distance("result", "Result"), 0);
        assert!(edit_distance("Event", "Round") > 2);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(
            closest("othelo", ["reversi", "othello", "blokus"], 2),
            Some("othello")
        );
        assert_eq!(closest("chess", ["reversi", "othello"], 2), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diag_is_an_error_that_displays_on_one_line() {
        let d = Diag::error("reversi::no_flip", "g7 flips no disc")
            .at(Span::new(3, 2))
            .help("legal moves: c5, e3");
        assert_eq!(d.to_string(), "error[reversi::no_flip]: g7 flips no disc");
        assert_eq!(
            format!("{d:#}"),
            "error[reversi::no_flip]: g7 flips no disc\n  help: legal moves: c5, e3"
        );
        let w = Diag::warning("record::game_inferred", "read as reversi");
        assert_eq!(
            format!("{w:#}"),
            "warning[record::game_inferred]: read as reversi"
        );
        let boxed: Box<dyn std::error::Error> = Box::new(d);
        assert!(boxed.source().is_none());
    }
}
