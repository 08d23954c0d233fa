//! `--format junit`: JUnit XML as CI test-report tools read it: one
//! `testsuite` per file (named after it), one `testcase` per game (named
//! `game N`, with its event and players), a `failure` per invalid game (its
//! first error's code as `type`, every error in the text), warnings in the
//! test case's `system-out`; a file that could not be read is a test case
//! with an `error`. Each suite is written when its file ends, with its
//! `tests`, `failures` and `errors` counts (its test cases are held until
//! then: memory bounded by one file's games' verdicts, not their records);
//! the run's summary line closes the document as a comment.

use std::io::{self, Write};

use super::super::inputs::FileError;
use crate::diag::Diag;
use crate::formats::SourceGame;
use crate::replay::{GameReport, describe};

#[derive(Default)]
pub struct Writer {
    /// The file of the open test suite.
    suite: Option<String>,
    /// Its test cases so far, written when the file ends.
    body: Vec<u8>,
    tests: usize,
    failures: usize,
    errors: usize,
}

/// Text made safe for XML 1.0 (markup characters as entities; control
/// characters XML cannot hold written as `\u{..}`).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

fn line(g: &SourceGame, d: &Diag) -> String {
    let at = match (&g.byte_map, d.span) {
        (Some(map), Some(span)) => map
            .map(span)
            .map(|s| format!("byte {}", s.offset))
            .unwrap_or_default(),
        (None, Some(span)) => {
            let (l, c) = g.lines().line_col(span.offset);
            format!("line {l}, column {c}")
        }
        _ => String::new(),
    };
    let ply = if d.ply == 0 {
        "tags".to_string()
    } else {
        format!("ply {}", d.ply)
    };
    let mut text = format!("{}: {} ({ply}", d.code, d.message);
    if !at.is_empty() {
        text.push_str(&format!(", {at}"));
    }
    text.push(')');
    if let Some(help) = &d.help {
        text.push_str(&format!("\n  help: {help}"));
    }
    text
}

impl Writer {
    pub fn start(&mut self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(w, "<testsuites name=\"gamerec\">")
    }

    /// Starts the suite of `file` unless it is the open one (the open one
    /// ends: it is written).
    fn suite(&mut self, w: &mut dyn Write, file: &str) -> io::Result<()> {
        if self.suite.as_deref() == Some(file) {
            return Ok(());
        }
        self.end_suite(w)?;
        self.suite = Some(file.to_string());
        Ok(())
    }

    /// Writes the open suite, with its counts.
    fn end_suite(&mut self, w: &mut dyn Write) -> io::Result<()> {
        let Some(file) = self.suite.take() else {
            return Ok(());
        };
        writeln!(
            w,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
            escape(&file),
            self.tests,
            self.failures,
            self.errors
        )?;
        w.write_all(&self.body)?;
        writeln!(w, "  </testsuite>")?;
        self.body.clear();
        (self.tests, self.failures, self.errors) = (0, 0, 0);
        Ok(())
    }

    pub fn game(&mut self, out: &mut dyn Write, g: &SourceGame, r: &GameReport) -> io::Result<()> {
        self.suite(out, &g.file.name)?;
        self.tests += 1;
        if !r.valid {
            self.failures += 1;
        }
        let w = &mut self.body;
        let about = describe(r);
        let name = if about.is_empty() {
            format!("game {}", g.index + 1)
        } else {
            format!("game {} ({about})", g.index + 1)
        };
        write!(
            w,
            "    <testcase name=\"{}\" classname=\"{}\"",
            escape(&name),
            escape(&g.file.name)
        )?;
        if r.valid && r.warnings.is_empty() {
            return writeln!(w, "/>");
        }
        writeln!(w, ">")?;
        if let Some(first) = r.errors.first() {
            let text: Vec<String> = r.errors.iter().map(|d| line(g, d)).collect();
            writeln!(
                w,
                "      <failure message=\"{}\" type=\"{}\">{}</failure>",
                escape(&first.message),
                escape(&first.code),
                escape(&text.join("\n"))
            )?;
        }
        if !r.warnings.is_empty() {
            let text: Vec<String> = r.warnings.iter().map(|d| line(g, d)).collect();
            writeln!(
                w,
                "      <system-out>{}</system-out>",
                escape(&text.join("\n"))
            )?;
        }
        writeln!(w, "    </testcase>")
    }

    pub fn file_error(&mut self, out: &mut dyn Write, e: &FileError) -> io::Result<()> {
        self.suite(out, &e.file)?;
        self.tests += 1;
        self.errors += 1;
        writeln!(
            self.body,
            "    <testcase name=\"file\" classname=\"{}\">\n      <error message=\"{}\" type=\"{}\"/>\n    </testcase>",
            escape(&e.file),
            escape(&e.message),
            escape(e.code.unwrap_or("unreadable file"))
        )
    }

    /// Closes the document; `summary` (the summary line) goes in a comment.
    pub fn finish(&mut self, w: &mut dyn Write, summary: &str) -> io::Result<()> {
        self.end_suite(w)?;
        // a comment may not hold `--`
        writeln!(w, "  <!-- {} -->", escape(summary).replace("--", "- -"))?;
        writeln!(w, "</testsuites>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1b}"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\\u{1b}"
        );
    }
}
