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
/// costs the size of the window, not of the file. A very long line is cut
/// to a stretch around the span. Control characters of the input are shown
/// as `?` (same length, so spans still fall right): a record cannot drive
/// the terminal.
struct Window<'a> {
    name: &'a str,
    /// The window's text.
    data: String,
    /// Byte offset of the window in the game's text.
    start: usize,
    end: usize,
    /// 0-based file line number of `start`.
    first_line: usize,
    /// Characters before `start` on its line (a cut line, or a game that
    /// starts mid-line).
    column: usize,
}

impl<'a> Window<'a> {
    const CONTEXT: usize = 2;
    /// Lines longer than this are cut around the span.
    const LONG_LINE: usize = 400;
    /// Bytes kept on each side of the span on a cut line.
    const AROUND: usize = 120;

    fn around(name: &'a str, text: &str, lines: &LineIndex, span: crate::span::Span) -> Self {
        let bytes = text.as_bytes();
        let line_start = |from: usize| {
            memchr::memrchr2(b'\n', b'\r', bytes.get(..from).unwrap_or(&[])).map_or(0, |i| i + 1)
        };
        let line_end = |from: usize| {
            memchr::memchr2(b'\n', b'\r', bytes.get(from..).unwrap_or(&[]))
                .map_or(text.len(), |i| from + i)
        };
        let offset = span.offset.min(text.len());
        let (ls, le) = (line_start(offset), line_end(span.end().min(text.len())));
        let (mut start, mut end);
        if le - ls > Self::LONG_LINE {
            // one long line: a stretch of it around the span
            start = offset.saturating_sub(Self::AROUND).max(ls);
            end = (span.end() + Self::AROUND).min(le).max(start);
            if end - start > 4 * Self::AROUND {
                end = start + 4 * Self::AROUND;
            }
        } else {
            start = ls;
            for _ in 0..Self::CONTEXT {
                if start == 0 {
                    break;
                }
                start = line_start(start - 1);
            }
            end = le;
            for _ in 0..Self::CONTEXT {
                if end >= text.len() {
                    break;
                }
                end = line_end(end + 1);
            }
        }
        while start > 0 && !text.is_char_boundary(start) {
            start -= 1;
        }
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        let (line, col) = lines.line_col(start);
        let data = text.get(start..end).unwrap_or("");
        // a lone CR ends a line: drawn as LF (same length)
        let mut data = same_length_visible(data);
        if data.contains('\r') {
            let lone: Vec<usize> = crate::span::line_starts(&data)
                .map(|i| i - 1)
                .filter(|&i| data.as_bytes().get(i) == Some(&b'\r'))
                .collect();
            let mut bytes = data.into_bytes();
            for i in lone {
                if let Some(b) = bytes.get_mut(i) {
                    *b = b'\n';
                }
            }
            data = String::from_utf8(bytes).unwrap_or_default();
        }
        Window {
            name,
            data,
            start,
            end,
            first_line: line.saturating_sub(1),
            column: col.saturating_sub(1),
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
        let window = self.data.as_bytes();
        let offset = span
            .offset()
            .checked_sub(self.start)
            .ok_or(miette::MietteError::OutOfBounds)?;
        let local = SourceSpan::new(offset.into(), span.len());
        let c = window.read_span(&local, before, after)?;
        let at = c.span().offset();
        let column = match memchr::memrchr2(b'\n', b'\r', window.get(..at).unwrap_or(&[])) {
            Some(nl) => crate::span::column(self.data.get(nl + 1..).unwrap_or(""), at - nl - 1),
            None => self.column + crate::span::column(&self.data, at),
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            visible_name(self.name).into_owned(),
            c.data(),
            SourceSpan::new((c.span().offset() + self.start).into(), c.span().len()),
            c.line() + self.first_line,
            // in characters after a BOM, as the JSON columns (miette counts bytes)
            column,
            c.line_count(),
        )))
    }
}

/// Text from the input made safe to print: control characters (C0 but line
/// ends and tabs, DEL, C1) and the bidirectional controls (U+061C,
/// U+200E/F, U+202A-202E, U+2066-2069) written as escapes (`\u{1b}`,
/// `\u{202e}`), as git and ripgrep do, so a record can neither drive the
/// terminal nor reorder what it shows.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, is_control)
}

/// [`visible`] for a name that must stay on one line (a file name): line
/// ends and tabs are escaped too.
pub fn visible_name(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, |c| is_control(c) || matches!(c, '\n' | '\t' | '\r'))
}

fn escaped(text: &str, bad: impl Fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(&bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn is_control(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// [`visible`] for source text whose spans must stay where they are: each
/// byte of a control character becomes `?`.
fn same_length_visible(text: &str) -> String {
    if !text.chars().any(is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if is_control(c) {
                "?".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
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

/// Where a diagnostic belongs: the file's display name, the game's text.
pub struct Place<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub lines: &'a LineIndex<'a>,
    pub index: usize,
    /// The line of a game tree the game is (`1.3.2`), if it branches.
    pub variation: Option<&'a str>,
    /// `Event` and players, if known.
    pub about: &'a str,
    /// For a text made from a binary file: where its spans are in the file.
    pub bytes: Option<&'a crate::formats::ByteMap>,
}

/// The first line of a report: game, ply, message.
fn header(diag: &Diag, place: &Place) -> String {
    let game = crate::formats::game_label(place.index, place.variation);
    let game = if place.about.is_empty() {
        game
    } else {
        format!("{game} ({})", place.about)
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
    format!(
        "{}\nin {}, {}, {at}{byte}",
        visible(&diag.message),
        visible_name(place.name),
        visible(&game)
    )
}

/// The longest window drawn with its source; longer ones are told plainly.
const MAX_WINDOW: usize = 4000;

/// The report handler, made once per colour choice.
fn handler(color: bool) -> &'static GraphicalReportHandler {
    static PLAIN: std::sync::OnceLock<GraphicalReportHandler> = std::sync::OnceLock::new();
    static COLOR: std::sync::OnceLock<GraphicalReportHandler> = std::sync::OnceLock::new();
    let (cell, theme): (_, fn() -> GraphicalTheme) = if color {
        (&COLOR, GraphicalTheme::unicode)
    } else {
        (&PLAIN, GraphicalTheme::unicode_nocolor)
    };
    cell.get_or_init(|| {
        GraphicalReportHandler::new_themed(theme())
            .with_width(100)
            .with_links(false)
    })
}

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
    let handler = handler(color);
    let label = diag.label.as_deref().map(|l| visible(l).into_owned());
    let help = diag.help.as_deref().map(|h| visible(h).into_owned());
    let shown = Diag {
        message: visible(&diag.message).into_owned(),
        label,
        help,
        ..diag.clone()
    };
    let report = Report {
        diag: &shown,
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
        out.push_str(&format!(
            "  at line {line}, column {col}: {}\n",
            visible(label)
        ));
    }
    if let Some(h) = &diag.help {
        out.push_str(&format!("  help: {}\n", visible(h)));
    }
    out
}

/// The JSON form of a diagnostic (spec §2): spans and positions in the file
/// (`lines` knows where the game's text stands in it). With a byte map (a
/// binary file), `span` is the file's bytes and `line`/`column` are null.
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
    let file_span = match (bytes, lines) {
        (Some(map), _) => diag.span.and_then(|s| map.map(s)),
        (None, Some(idx)) => diag.span.map(|s| idx.origin().to_file(s)),
        (None, None) => diag.span,
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

/// Writes one game's errors and warnings (for stderr).
pub fn write_game(
    w: &mut dyn std::io::Write,
    color: bool,
    game: &crate::formats::SourceGame,
    r: &crate::replay::GameReport,
) -> std::io::Result<()> {
    if r.errors.is_empty() && r.warnings.is_empty() {
        return Ok(());
    }
    let about = crate::replay::describe(r);
    let name = visible_name(&game.file.source_name()).into_owned();
    let lines = game.lines();
    let place = Place {
        name: &name,
        text: &game.text,
        lines: &lines,
        index: game.index,
        variation: game.variation.as_deref(),
        about: &about,
        bytes: game.byte_map.as_ref(),
    };
    for d in r.errors.iter().chain(&r.warnings) {
        write!(w, "{}", render(d, &place, color))?;
    }
    Ok(())
}

/// Prints one game's errors and warnings on stderr (with `-q`, nothing for
/// a valid game).
pub fn print_game(
    ctx: &mut super::Ctx,
    game: &crate::formats::SourceGame,
    r: &crate::replay::GameReport,
) {
    if ctx.settings.quiet && r.valid {
        return;
    }
    let _ = write_game(ctx.err, ctx.settings.color_err, game, r);
}
