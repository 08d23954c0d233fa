//! Rendering [`Diag`]s: miette reports for terminals, objects for JSON.

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};
use serde_json::{Value, json};

use crate::diag::{Diag, Severity};
use crate::span::LineIndex;

/// A diagnostic with its source and where it belongs, for miette.
struct Report<'a> {
    diag: &'a Diag,
    header: String,
    source: Window<'a>,
}

/// The few lines around a span, with their true line numbers, so rendering
/// costs the size of the window, not of the file.
struct Window<'a> {
    name: &'a str,
    text: &'a str,
    /// Byte range of the window: whole lines.
    start: usize,
    end: usize,
    /// 0-based line number of `start`.
    first_line: usize,
}

impl<'a> Window<'a> {
    const CONTEXT: usize = 2;

    fn around(name: &'a str, text: &'a str, lines: &LineIndex, span: crate::span::Span) -> Self {
        let bytes = text.as_bytes();
        let mut start = span.offset.min(text.len());
        let mut seen = 0;
        while start > 0 {
            if bytes.get(start - 1) == Some(&b'\n') {
                seen += 1;
                if seen > Self::CONTEXT {
                    break;
                }
            }
            start -= 1;
        }
        let mut end = span.end().min(text.len());
        let mut seen = 0;
        while end < text.len() {
            if bytes.get(end) == Some(&b'\n') {
                seen += 1;
                if seen > Self::CONTEXT {
                    break;
                }
            }
            end += 1;
        }
        while start > 0 && !text.is_char_boundary(start) {
            start -= 1;
        }
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        let first_line = lines.line_col(start).0.saturating_sub(1);
        Window {
            name,
            text,
            start,
            end,
            first_line,
        }
    }
}

impl miette::SourceCode for Window<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let window = self
            .text
            .as_bytes()
            .get(self.start..self.end)
            .ok_or(miette::MietteError::OutOfBounds)?;
        let offset = span
            .offset()
            .checked_sub(self.start)
            .ok_or(miette::MietteError::OutOfBounds)?;
        let local = SourceSpan::new(offset.into(), span.len());
        let c = window.read_span(&local, before, after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.to_string(),
            c.data(),
            SourceSpan::new((c.span().offset() + self.start).into(), c.span().len()),
            c.line() + self.first_line,
            // in characters after a BOM, as the JSON columns (miette counts bytes)
            crate::span::column(self.text, c.span().offset() + self.start),
            c.line_count(),
        )))
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header)
    }
}

impl std::error::Error for Report<'_> {}

impl Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diag.code.as_ref()))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.diag
            .span
            .map(|_| &self.source as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.diag.span?;
        let label = self
            .diag
            .label
            .clone()
            .unwrap_or_else(|| self.diag.message.clone());
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(label),
            SourceSpan::new(span.offset.into(), span.length),
        ))))
    }
}

/// Where a diagnostic belongs: the file's display name and text, the game.
pub struct Place<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub lines: &'a LineIndex<'a>,
    pub index: usize,
    /// `Event` and players, if known.
    pub about: &'a str,
    /// For a text made from a binary file: where its spans are in the file.
    pub bytes: Option<&'a crate::formats::ByteMap>,
}

/// The first line of a report: game, ply, message.
fn header(diag: &Diag, place: &Place) -> String {
    let game = if place.about.is_empty() {
        format!("game {}", place.index)
    } else {
        format!("game {} ({})", place.index, place.about)
    };
    let at = if diag.ply == 0 {
        "tags".to_string()
    } else {
        format!("ply {}", diag.ply)
    };
    let byte = match (place.bytes, diag.span) {
        (Some(map), Some(span)) => map
            .map(span)
            .map(|s| format!(", byte {}", s.offset))
            .unwrap_or_default(),
        _ => String::new(),
    };
    format!("{}\nin {}, {game}, {at}{byte}", diag.message, place.name)
}

/// The longest window drawn with its source; longer ones are told plainly.
const MAX_WINDOW: usize = 4000;

/// The terminal form of a diagnostic.
pub fn render(diag: &Diag, place: &Place, color: bool) -> String {
    let header = header(diag, place);
    let Some(span) = diag.span else {
        return plain(diag, &header, None);
    };
    let window = Window::around(place.name, place.text, place.lines, span);
    if window.end - window.start > MAX_WINDOW || span.end() > place.text.len() {
        return plain(diag, &header, Some(place.lines.line_col(span.offset)));
    }
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false);
    let report = Report {
        diag,
        header: header.clone(),
        source: window,
    };
    let mut out = String::new();
    let rendered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        handler.render_report(&mut out, &report)
    }));
    match rendered {
        Ok(Ok(())) => out,
        _ => plain(diag, &header, Some(place.lines.line_col(span.offset))),
    }
}

/// A diagnostic without its source drawn (no span, or a huge line).
fn plain(diag: &Diag, header: &str, at: Option<(usize, usize)>) -> String {
    let mut out = format!(
        "{}\n\n  {} ",
        diag.code,
        if diag.is_error() { "×" } else { "⚠" }
    );
    out.push_str(&header.replace('\n', "\n  │ "));
    out.push('\n');
    if let (Some((line, col)), Some(label)) = (at, diag.label.as_ref().or(Some(&diag.message))) {
        out.push_str(&format!("  at line {line}, column {col}: {label}\n"));
    }
    if let Some(h) = &diag.help {
        out.push_str(&format!("  help: {h}\n"));
    }
    out
}

/// The JSON form of a diagnostic (spec §2). With a byte map (a binary
/// file), `span` is the file's bytes and `line`/`column` are null.
pub fn to_json(
    diag: &Diag,
    lines: Option<&LineIndex>,
    bytes: Option<&crate::formats::ByteMap>,
) -> Value {
    let (line, column) = match (diag.span, lines, bytes) {
        (Some(s), Some(idx), None) => {
            let (l, c) = idx.line_col(s.offset);
            (Value::from(l), Value::from(c))
        }
        _ => (Value::Null, Value::Null),
    };
    let file_span = match bytes {
        Some(map) => diag.span.and_then(|s| map.map(s)),
        None => diag.span,
    };
    let span = file_span.map_or(
        Value::Null,
        |s| json!({ "offset": s.offset, "length": s.length }),
    );
    json!({
        "code": diag.code,
        "message": diag.message,
        "ply": diag.ply,
        "line": line,
        "column": column,
        "span": span,
        "label": diag.label,
        "help": diag.help,
    })
}

/// Prints every game's errors and warnings, and the unreadable files, on stderr.
pub fn print_all(
    ctx: &mut super::Ctx,
    results: &[(crate::formats::Input, Vec<crate::replay::GameReport>)],
    file_errors: &[super::inputs::FileError],
) {
    for (input, reports) in results {
        if reports
            .iter()
            .all(|r| r.errors.is_empty() && r.warnings.is_empty())
        {
            continue;
        }
        let lines = LineIndex::new(&input.text);
        for (index, r) in reports.iter().enumerate() {
            print_game(ctx, input, &lines, index, r);
        }
    }
    for e in file_errors {
        let _ = writeln!(ctx.err, "error: {}: {}", e.file, e.message);
    }
}

/// Prints one game's errors and warnings on stderr.
pub fn print_game(
    ctx: &mut super::Ctx,
    input: &crate::formats::Input,
    lines: &LineIndex,
    index: usize,
    r: &crate::replay::GameReport,
) {
    if r.errors.is_empty() && r.warnings.is_empty() {
        return;
    }
    let about = crate::replay::describe(r);
    let name = input.source_name();
    let place = Place {
        name: &name,
        text: &input.text,
        lines,
        index,
        about: &about,
        bytes: input.byte_map.as_ref(),
    };
    for d in r.errors.iter().chain(&r.warnings) {
        let _ = write!(ctx.err, "{}", render(d, &place, ctx.color_err));
    }
}
