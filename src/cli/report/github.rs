//! `--format github`: GitHub Actions workflow commands, one line per
//! diagnostic (`::error file=F,line=L,col=C,title=CODE::message`), escaped as
//! GitHub's toolkit does: in the message `%`, CR and LF become `%25`, `%0D`,
//! `%0A`; in property values `:` and `,` too (`%3A`, `%2C`). Control and
//! bidi characters are escaped first, as in every human output. A WTHOR game
//! (binary) has no line: its byte offset goes in the message. The summary
//! line follows as plain log text.

use std::io::{self, Write};

use super::super::diagnostics::visible;
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
    writeln!(
        w,
        "::{kind} {}::{}",
        props.join(","),
        escape_data(&visible(message))
    )
}

fn diag(w: &mut dyn Write, g: &SourceGame, about: &str, d: &Diag) -> io::Result<()> {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut props = vec![("file", g.file.name.clone())];
    let mut message = format!("{} (game {}", d.message, g.index);
    if !about.is_empty() {
        message.push_str(&format!(", {about}"));
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
        message.push_str(&format!("\nhelp: {help}"));
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
    command(w, "error", &props, &e.message)
}

pub fn skipped(w: &mut dyn Write, e: &FileError) -> io::Result<()> {
    command(w, "warning", &[("file", e.file.clone())], &e.message)
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
