//! Rendering [`Diag`]s: miette reports for terminals, objects for JSON.

use std::fmt;
use std::sync::Arc;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan,
};
use serde_json::{Value, json};

use crate::diag::{Diag, Severity};
use crate::span::LineIndex;

/// A diagnostic with its source and where it belongs, for miette.
struct Report<'a> {
    diag: &'a Diag,
    header: String,
    source: NamedSource<Arc<str>>,
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
    pub text: &'a Arc<str>,
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

/// The terminal form of a diagnostic.
pub fn render(diag: &Diag, place: &Place, color: bool) -> String {
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
        header: header(diag, place),
        source: NamedSource::new(place.name, Arc::clone(place.text)),
    };
    let mut out = String::new();
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("{}: {}\n", diag.code, report.header);
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
        let text: Arc<str> = Arc::from(input.text.as_str());
        for (index, r) in reports.iter().enumerate() {
            print_game(ctx, input, &text, index, r);
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
    text: &Arc<str>,
    index: usize,
    r: &crate::replay::GameReport,
) {
    if r.errors.is_empty() && r.warnings.is_empty() {
        return;
    }
    let about = crate::replay::describe(&r.tags);
    let name = input.source_name();
    let place = Place {
        name: &name,
        text,
        index,
        about: &about,
        bytes: input.byte_map.as_ref(),
    };
    for d in r.errors.iter().chain(&r.warnings) {
        let _ = write!(ctx.err, "{}", render(d, &place, ctx.color_err));
    }
}
