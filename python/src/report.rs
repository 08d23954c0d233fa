//! A game's report and its diagnostics as Python objects.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyType};

use gamerec::GameReport;
use gamerec::LineIndex;
use gamerec::{ByteMap, SourceGame};
use gamerec::{Diag, Severity};

/// The exception `kind` of `gamerec.errors` (`ReadError`, `IllegalMove`,
/// ...) with `message` and the diagnostic's `code`.
pub fn raise(kind: &str, message: String, code: Option<String>) -> PyErr {
    Python::attach(|py| {
        let ty = py
            .import("gamerec.errors")
            .and_then(|m| m.getattr(kind))
            .and_then(|t| t.cast_into::<PyType>().map_err(PyErr::from));
        match ty {
            Ok(ty) => PyErr::from_type(ty, (message, code)),
            Err(e) => e,
        }
    })
}

/// One diagnostic: what is wrong, where, and what would be right.
#[pyclass(frozen, get_all, skip_from_py_object, module = "gamerec")]
#[derive(Clone)]
pub struct Diagnostic {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// `game::kind`, e.g. `reversi::no_flip`.
    pub code: String,
    pub message: String,
    /// 1-based ply of the move blamed; 0 for the tags.
    pub ply: usize,
    /// 1-based line and column in the file; `None` without a place.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// Byte offset and length in the file.
    pub offset: Option<usize>,
    pub length: Option<usize>,
    pub label: Option<String>,
    pub help: Option<String>,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!(
                "<gamerec.Diagnostic {} at {l}:{c}: {}>",
                self.code, self.message
            ),
            _ => format!("<gamerec.Diagnostic {}: {}>", self.code, self.message),
        }
    }

    fn __str__(&self) -> String {
        format!("{}: {}", self.code, self.message)
    }

    /// The diagnostic as a dict (the fields of the CLI's JSON report).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("severity", self.severity)?;
        d.set_item("code", &self.code)?;
        d.set_item("message", &self.message)?;
        d.set_item("ply", self.ply)?;
        d.set_item("line", self.line)?;
        d.set_item("column", self.column)?;
        d.set_item("offset", self.offset)?;
        d.set_item("length", self.length)?;
        d.set_item("label", &self.label)?;
        d.set_item("help", &self.help)?;
        Ok(d)
    }
}

/// A diagnostic with its place in the file: `lines` maps the game's spans
/// to lines and columns; for a game of a binary file, `bytes` maps them to
/// the file's bytes instead (no line or column, as in the CLI's JSON).
pub fn diagnostic(d: &Diag, lines: &LineIndex<'_>, bytes: Option<&ByteMap>) -> Diagnostic {
    let (line, column) = match (d.span, bytes) {
        (Some(s), None) => {
            let (l, c) = lines.line_col(s.offset);
            (Some(l), Some(c))
        }
        _ => (None, None),
    };
    let file_span = match bytes {
        Some(map) => d.span.and_then(|s| map.map(s)),
        None => d.span.map(|s| lines.origin().to_file(s)),
    };
    Diagnostic {
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        code: d.code.to_string(),
        message: d.message.clone(),
        ply: d.ply,
        line,
        column,
        offset: file_span.map(|s| s.offset),
        length: file_span.map(|s| s.length),
        label: d.label.clone(),
        help: d.help.clone(),
    }
}

/// What a replay found out about one game.
#[pyclass(frozen, get_all, module = "gamerec")]
pub struct Report {
    /// The file the game was read from.
    pub file: String,
    /// Its number in the file, from 1.
    pub number: usize,
    pub valid: bool,
    /// The game's name (`None` when it could not be told).
    pub game: Option<&'static str>,
    pub variant: Option<&'static str>,
    pub plies: usize,
    pub over: bool,
    pub seats: Vec<&'static str>,
    /// Scores in seat order (`scores` gives them by seat).
    pub score_list: Vec<i64>,
    pub winners: Vec<&'static str>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    /// Tags in file order, as (name, value).
    pub tag_list: Vec<(String, String)>,
    /// The moves in notation (passes the replay took included).
    pub moves: Vec<String>,
    pub comment: Option<String>,
}

impl Report {
    pub fn of(g: &SourceGame, r: &GameReport, file: &str) -> Report {
        let lines = g.lines();
        let bytes = g.byte_map.as_ref();
        let name = |s: &'static str| (!s.is_empty()).then_some(s);
        Report {
            file: file.to_string(),
            number: g.index + 1,
            valid: r.valid,
            game: name(r.game),
            variant: name(r.variant),
            plies: r.plies,
            over: r.over,
            seats: r.seats.to_vec(),
            score_list: r.scores.clone(),
            winners: r.winners.clone(),
            errors: r
                .errors
                .iter()
                .map(|d| diagnostic(d, &lines, bytes))
                .collect(),
            warnings: r
                .warnings
                .iter()
                .map(|d| diagnostic(d, &lines, bytes))
                .collect(),
            tag_list: record_tags(g, r),
            moves: r.moves.iter().map(|m| m.notation.to_string()).collect(),
            comment: r.comment.clone(),
        }
    }
}

/// The record's tags as the replay kept them, without the `Result` a
/// replay for conversion makes of a final result token.
fn record_tags(g: &SourceGame, r: &GameReport) -> Vec<(String, String)> {
    let mut tags = r.tags.clone();
    let added = g.raw.result_token.is_some()
        && g.raw.tags.get("Result").is_none()
        && tags.last().is_some_and(|(k, _)| k == "Result");
    if added {
        tags.pop();
    }
    tags
}

#[pymethods]
impl Report {
    /// Scores by seat.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (seat, score) in self.seats.iter().zip(&self.score_list) {
            d.set_item(seat, score)?;
        }
        Ok(d)
    }

    /// The tags by name (a repeated name keeps its first value).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.tag_list {
            if !d.contains(k)? {
                d.set_item(k, v)?;
            }
        }
        Ok(d)
    }

    /// The report as plain data (dicts and lists).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("file", &self.file)?;
        d.set_item("number", self.number)?;
        d.set_item("valid", self.valid)?;
        d.set_item("game", self.game)?;
        d.set_item("variant", self.variant)?;
        d.set_item("plies", self.plies)?;
        d.set_item("over", self.over)?;
        d.set_item("scores", self.scores(py)?)?;
        d.set_item("winners", self.winners.clone())?;
        let list = |ds: &[Diagnostic]| -> PyResult<Bound<'py, PyList>> {
            let out = PyList::empty(py);
            for x in ds {
                out.append(x.to_dict(py)?)?;
            }
            Ok(out)
        };
        d.set_item("errors", list(&self.errors)?)?;
        d.set_item("warnings", list(&self.warnings)?)?;
        d.set_item("tags", self.tags(py)?)?;
        d.set_item("moves", self.moves.clone())?;
        d.set_item("comment", &self.comment)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let verdict = if self.valid {
            "valid".to_string()
        } else {
            match self.errors.first() {
                Some(e) => format!("invalid: {}", e.code),
                None => "invalid".to_string(),
            }
        };
        format!(
            "<gamerec.Report {} #{} {} {} plies, {verdict}>",
            self.file,
            self.number,
            self.game.unwrap_or("?"),
            self.plies
        )
    }
}
