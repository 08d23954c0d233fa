//! `--format github`: GitHub Actions workflow commands, one line per
//! diagnostic (`::error file=F,line=L,col=C,title=CODE::message`), escaped as
//! GitHub's toolkit does: in the message `%`, CR and LF become `%25`, `%0D`,
//! `%0A`; in property values `:` and `,` too (`%3A`, `%2C`). A WTHOR game
//! (binary) has no line: its byte offset goes in the message. The summary
//! line follows as plain log text. Before GitHub's escaping, text from the
//! input (file names, tags, tokens) is made [`visible`] as in every human
//! output: the log viewer draws ANSI escapes, and a line break from the input
//! must not start a second annotation line; so a control character in a file
//! name shows as `\x1b` and such a `file=` names no file of the checkout.

use std::io::{self, Write};

use super::super::diagnostics::{visible, visible_lines};
use super::super::inputs::FileError;
use crate::diag::{Diag, Severity};
use crate::formats::SourceGame;
use crate::replay::{GameReport, describe};

/// Escapes a message (a command's data).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command.
fn command(
    w: &mut dyn Write,
    kind: &str,
    props: &[(&str, String)],
    message: &str,
) -> io::Result<()> {
    let props: Vec<String> = props
        .iter()
        .map(|(k, v)| format!("{k}={}", escape_property(&visible(v))))
        .collect();
    // the message's line breaks are this module's own (`help:`)
    writeln!(
        w,
        "::{kind} {}::{}",
        props.join(","),
        escape_data(&visible_lines(message))
    )
}

fn diag(w: &mut dyn Write, g: &SourceGame, about: &str, d: &Diag) -> io::Result<()> {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut props = vec![("file", g.file.name.clone())];
    let mut message = format!("{} (game {}", visible(&d.message), g.index + 1);
    if !about.is_empty() {
        message.push_str(&format!(", {}", visible(about)));
    }
    if d.ply > 0 {
        message.push_str(&format!(", ply {}", d.ply));
    }
    message.push(')');
    match (&g.byte_map, d.span) {
        (Some(map), Some(span)) => {
            if let Some(at) = map.map(span) {
                message.push_str(&format!(" at byte {}", at.offset));
            }
        }
        (None, Some(span)) => {
            let (line, col) = g.lines().line_col(span.offset);
            props.push(("line", line.to_string()));
            props.push(("col", col.to_string()));
        }
        _ => {}
    }
    props.push(("title", d.code.to_string()));
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {}", visible(help)));
    }
    command(w, kind, &props, &message)
}

pub fn game(w: &mut dyn Write, g: &SourceGame, r: &GameReport) -> io::Result<()> {
    if r.errors.is_empty() && r.warnings.is_empty() {
        return Ok(());
    }
    let about = describe(r);
    for d in r.errors.iter().chain(&r.warnings) {
        diag(w, g, &about, d)?;
    }
    Ok(())
}

pub fn file_error(w: &mut dyn Write, e: &FileError) -> io::Result<()> {
    let mut props = vec![("file", e.file.clone())];
    props.push(("title", e.code.unwrap_or("unreadable file").to_string()));
    command(w, "error", &props, &visible(&e.message))
}

pub fn skipped(w: &mut dyn Write, e: &FileError) -> io::Result<()> {
    command(
        w,
        "warning",
        &[("file", e.file.clone())],
        &visible(&e.message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_as_the_toolkit_does() {
        assert_eq!(escape_data("a%b\r\nc:d,e"), "a%25b%0D%0Ac:d,e");
        assert_eq!(escape_property("a%b\r\nc:d,e"), "a%25b%0D%0Ac%3Ad%2Ce");
    }
}
