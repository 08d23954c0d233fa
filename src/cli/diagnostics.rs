//! Rendering [`Diag`]s: miette reports for terminals, objects for JSON.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

pub use crate::pipeline::json::to_json;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};

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
#[derive(Clone)]
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
            self.name.to_string(),
            c.data(),
            SourceSpan::new((c.span().offset() + self.start).into(), c.span().len()),
            c.line() + self.first_line,
            // in characters after a BOM, as the JSON columns (miette counts bytes)
            column,
            c.line_count(),
        )))
    }
}

/// Text from the input (tags, tokens, comments, file names) made safe to
/// print on a terminal, as git and ripgrep do: C0 controls but tab, DEL and
/// C1 controls are written as escapes (`\n`, `\r`, `\x1b`, `\x7f`,
/// `\u{9b}`), and so are the bidirectional controls (U+202A-U+202E,
/// U+2066-U+2069, U+200E, U+200F, U+061C: `\u{202e}`), which would reorder
/// what follows them on the line. A backslash is kept as it is, so escaping
/// twice changes nothing. Every human output goes through this one function
/// ([`visible_lines`] for text whose line breaks are the program's own).
pub fn visible(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// [`visible`] for text the program composed of lines (a game's summary):
/// its line feeds are kept, every other control is escaped.
pub fn visible_lines(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

fn escape(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| is_unsafe(c) && !(keep_lines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\n' => write!(out, "\\n"),
            '\r' => write!(out, "\\r"),
            '\0'..='\x7f' => write!(out, "\\x{:02x}", u32::from(c)),
            _ => write!(out, "\\u{{{:x}}}", u32::from(c)),
        };
    }
    Cow::Owned(out)
}

/// Whether [`visible`] escapes `c`: a control character (but tab) or a
/// bidirectional control.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// The source text's controls that [`same_length_visible`] hides: as
/// [`is_unsafe`], but line ends, which the window draws as lines.
fn is_control(c: char) -> bool {
    is_unsafe(c) && !matches!(c, '\n' | '\r')
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
        format!("{game} ({})", visible(place.about))
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
    // each piece escaped, the line break between them kept
    format!(
        "{}\nin {}, {game}, {at}{byte}",
        visible(&diag.message),
        visible(place.name)
    )
}

/// The longest window drawn with its source; longer ones are told plainly.
const MAX_WINDOW: usize = 4000;

/// The width reports are drawn to.
const WIDTH: usize = 100;

/// The report handler, made once per colour choice and wrapping: one that
/// wraps the message and help at [`WIDTH`], and one that does not, for a
/// report where wrapping changes nothing ([`fits`]) — wrapping is most of
/// the cost of drawing a short report (issue 30, find 14).
fn handler(color: bool, wrap: bool) -> &'static GraphicalReportHandler {
    type Cell = std::sync::OnceLock<GraphicalReportHandler>;
    static HANDLERS: [Cell; 4] = [const { Cell::new() }; 4];
    let theme: fn() -> GraphicalTheme = if color {
        GraphicalTheme::unicode
    } else {
        GraphicalTheme::unicode_nocolor
    };
    let cell = &HANDLERS[usize::from(color) * 2 + usize::from(wrap)];
    cell.get_or_init(|| {
        GraphicalReportHandler::new_themed(theme())
            .with_width(WIDTH)
            .with_links(false)
            .with_wrap_lines(wrap)
    })
}

/// Whether wrapping `text` at [`WIDTH`] after its indent (at most 8
/// columns: `  help: `) changes nothing: every line is printable ASCII
/// (its width its length), not blank, without spaces at either end, and
/// short enough to fit.
fn fits(text: &str) -> bool {
    const INDENT: usize = 8;
    text.split('\n').all(|line| {
        line.len() + INDENT < WIDTH - 2
            && !line.starts_with(' ')
            && !line.ends_with(' ')
            && line.bytes().all(|b| (b' '..=b'~').contains(&b))
            && line.bytes().any(|b| b != b' ')
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
    let label = diag.label.as_deref().map(|l| visible(l).into_owned());
    let help = diag.help.as_deref().map(|h| visible(h).into_owned());
    let wrap = !(fits(&header) && help.as_deref().is_none_or(fits));
    let handler = handler(color, wrap);
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
    let name = visible(&game.file.source_name()).into_owned();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_escapes_controls_and_bidi_as_git_and_ripgrep_do() {
        assert_eq!(visible("plain\ttext é"), "plain\ttext é");
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
        assert_eq!(
            visible("\u{1b}[31m\u{7}\u{8}\0\u{7f}\u{9b}\u{85}\r\n"),
            "\\x1b[31m\\x07\\x08\\x00\\x7f\\u{9b}\\u{85}\\r\\n"
        );
        assert_eq!(
            visible("\u{202a}\u{202e}\u{2066}\u{2069}\u{200e}\u{200f}\u{61c}"),
            "\\u{202a}\\u{202e}\\u{2066}\\u{2069}\\u{200e}\\u{200f}\\u{61c}"
        );
        assert_eq!(visible_lines("a\nb\u{1b}\r\n"), "a\nb\\x1b\\r\n");
        let once = visible("a\\x1b\u{1b}\n");
        assert_eq!(visible(&once), once, "escaping twice changes nothing");
    }

    /// Find 14: a report drawn without wrapping, where [`fits`] says
    /// wrapping changes nothing, is the report drawn with it, byte for byte.
    #[test]
    fn reports_that_fit_are_the_same_unwrapped() {
        let text = "[Game \"reversi\"]\n[Event \"x\"]\n\n1. f5 d6 2. c3 {\n  a comment } zz\n";
        let lines = LineIndex::new(text);
        let long = "word ".repeat(17);
        let messages = [
            "this `{` comment is never closed".to_string(),
            format!("{} end", long.trim_end()),
            format!("{}{}", long, "x".repeat(5)),
            "two lines\nof a message".to_string(),
            "a  double space and (brackets) [x] `code` --flag".to_string(),
            "x".repeat(89),
            "x".repeat(90),
            "x".repeat(91),
        ];
        let spans = [(0, 1), (38, 2), (47, 2), (51, 16), (69, 2)];
        let mut compared = 0;
        for (i, message) in messages.iter().enumerate() {
            for &(offset, length) in &spans {
                for color in [false, true] {
                    let d = Diag::error("record::x", message.clone())
                        .at(crate::span::Span { offset, length })
                        .label(message.clone())
                        .help(messages[(i + 1) % messages.len()].clone())
                        .ply(3);
                    let place = Place {
                        name: "f.gamerec",
                        text,
                        lines: &lines,
                        index: i,
                        variation: None,
                        about: "Ann vs Ben",
                        bytes: None,
                    };
                    let header = header(&d, &place);
                    let Some(help) = d.help.as_deref() else {
                        continue;
                    };
                    if !(fits(&header) && fits(help)) {
                        continue;
                    }
                    let window = Window::around(place.name, text, &lines, d.span.unwrap());
                    let draw = |wrap| {
                        let report = Report {
                            diag: &d,
                            header: header.clone(),
                            source: Window { ..window.clone() },
                        };
                        let mut out = String::new();
                        handler(color, wrap)
                            .render_report(&mut out, &report)
                            .unwrap();
                        out
                    };
                    assert_eq!(draw(true), draw(false), "{message:?} at {offset}");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 30, "{compared}");
        assert!(!fits(&"x".repeat(95)) && !fits(" a") && !fits("a\n") && !fits("é"));
    }

    #[test]
    fn source_windows_keep_their_length() {
        let s = "a\u{1b}\u{202e}b\n";
        let v = same_length_visible(s);
        assert_eq!(v, "a????b\n");
        assert_eq!(v.len(), s.len());
    }
}
