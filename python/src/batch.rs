//! Record batches: many record texts replayed in parallel into one Arrow
//! batch of reports, and a file's games streamed as batches.

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::{
    Array, ArrayRef, BooleanArray, LargeStringArray, ListArray, RecordBatch, StringArray,
    StructArray, UInt32Array, UInt64Array, make_array,
};
use arrow_buffer::OffsetBuffer;
use arrow_data::ArrayData;
use arrow_pyarrow::{FromPyArrow, ToPyArrow};
use arrow_schema::{DataType, Field, Fields, Schema};
use pyo3::exceptions::{PyStopIteration, PyTypeError};
use pyo3::prelude::*;
use rayon::prelude::*;

use gamerec::{GameReport, LineIndex, Options};
use gamerec::{ReadOptions, SourceGame};

use crate::report::raise;

/// One diagnostic of a row.
struct ErrorRow {
    code: String,
    message: String,
    ply: u32,
    line: Option<u32>,
    column: Option<u32>,
}

/// One game's row of a batch.
#[derive(Default)]
struct Row {
    /// The input text (or file) it was read from, from 0.
    source: u64,
    /// Its number there, from 1.
    number: u32,
    valid: bool,
    game: Option<&'static str>,
    variant: Option<&'static str>,
    plies: u32,
    over: bool,
    seats: &'static [&'static str],
    scores: Vec<i64>,
    winners: Vec<&'static str>,
    errors: Vec<ErrorRow>,
    /// The codes of its warnings.
    warnings: Vec<String>,
    /// With `read_arrow`: the game's text and tags.
    text: Option<String>,
    tags: Vec<(String, String)>,
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Row {
    fn of(source: u64, g: &SourceGame, r: &GameReport, keep_text: bool) -> Row {
        let mut row = Row::report(source, g.index + 1, r, &g.lines(), g.byte_map.is_some());
        if keep_text {
            row.text = Some(g.text.clone());
            row.tags = r.tags.clone();
        }
        row
    }

    /// The row of game `number` of a text whose lines are `lines` (`binary`:
    /// a binary file's game, whose diagnostics have no lines).
    fn report(
        source: u64,
        number: usize,
        r: &GameReport,
        lines: &LineIndex<'_>,
        binary: bool,
    ) -> Row {
        let name = |s: &'static str| (!s.is_empty()).then_some(s);
        let errors = r
            .errors
            .iter()
            .map(|d| {
                // a binary file's games have byte offsets, no lines
                let (line, column) = match d.span.filter(|_| !binary) {
                    Some(s) => {
                        let (l, c) = lines.line_col(s.offset);
                        (Some(to_u32(l)), Some(to_u32(c)))
                    }
                    None => (None, None),
                };
                ErrorRow {
                    code: d.code.to_string(),
                    message: d.message.clone(),
                    ply: to_u32(d.ply),
                    line,
                    column,
                }
            })
            .collect();
        Row {
            source,
            number: to_u32(number),
            valid: r.valid,
            game: name(r.game),
            variant: name(r.variant),
            plies: to_u32(r.plies),
            over: r.over,
            seats: r.seats,
            scores: r.scores.clone(),
            winners: r.winners.clone(),
            errors,
            warnings: r.warnings.iter().map(|w| w.code.to_string()).collect(),
            text: None,
            tags: Vec::new(),
        }
    }

    /// The row of a text that could not be read as records at all.
    fn unreadable(source: u64, code: Option<&str>, message: String) -> Row {
        Row {
            source,
            number: 1,
            errors: vec![ErrorRow {
                code: code.unwrap_or("record::unreadable").to_string(),
                message,
                ply: 0,
                line: None,
                column: None,
            }],
            ..Row::default()
        }
    }
}

/// The replay options of a batch.
fn options(game: Option<String>, tags: bool) -> Options {
    Options {
        game,
        all_tags: tags,
        about: false,
        result_extras: false,
        ..Options::default()
    }
}

/// Whether a text is gamerec text (its first character, after a byte-order
/// mark and white space, opens a tag), read without a reader's buffers.
fn gamerec_text(text: &[u8]) -> Option<&str> {
    let s = std::str::from_utf8(text).ok()?;
    s.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[')
        .then_some(s)
}

/// The rows of one record text (a game or a whole file's text): gamerec
/// text parsed in place by the container, other formats through their
/// reader.
fn rows_of(source: u64, text: &[u8], read: &ReadOptions, opts: &Options) -> Vec<Row> {
    if let (None, Some(text)) = (read.forced, gamerec_text(text)) {
        let lines = LineIndex::new(text);
        let mut report = GameReport::default();
        return gamerec::parse_file(text)
            .iter()
            .enumerate()
            .map(|(i, raw)| {
                gamerec::replay_into(raw, text, opts, &mut report);
                Row::report(source, i + 1, &report, &lines, false)
            })
            .collect();
    }
    let mut rows = Vec::new();
    let reader: Box<dyn std::io::Read + '_> = Box::new(Cursor::new(text));
    let games = match gamerec::open("", reader, read) {
        Ok((_, games)) => games,
        Err(e) => return vec![Row::unreadable(source, None, e)],
    };
    for g in games {
        match g {
            Ok(mut g) => {
                let r = g.replay(opts);
                rows.push(Row::of(source, &g, &r, false));
            }
            Err(e) => {
                rows.push(Row::unreadable(source, e.code, e.message));
                break;
            }
        }
    }
    rows
}

/// The texts of an Arrow array of strings (or large strings).
fn texts_of(array: &ArrayRef) -> PyResult<Vec<Option<&[u8]>>> {
    if let Some(a) = array.as_any().downcast_ref::<StringArray>() {
        return Ok(a.iter().map(|t| t.map(str::as_bytes)).collect());
    }
    if let Some(a) = array.as_any().downcast_ref::<LargeStringArray>() {
        return Ok(a.iter().map(|t| t.map(str::as_bytes)).collect());
    }
    Err(PyTypeError::new_err(format!(
        "expected an array of strings, got {}",
        array.data_type()
    )))
}

/// The batch's schema; `read` adds the text and tags columns.
fn schema(read: bool) -> Arc<Schema> {
    let error = Fields::from(vec![
        Field::new("code", DataType::Utf8, false),
        Field::new("message", DataType::Utf8, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("line", DataType::UInt32, true),
        Field::new("column", DataType::UInt32, true),
    ]);
    let mut fields = vec![
        Field::new("source", DataType::UInt64, false),
        Field::new("number", DataType::UInt32, false),
        Field::new("valid", DataType::Boolean, false),
        Field::new("game", DataType::Utf8, true),
        Field::new("variant", DataType::Utf8, true),
        Field::new("plies", DataType::UInt32, false),
        Field::new("over", DataType::Boolean, false),
        Field::new("scores", scores_type(), false),
        Field::new(
            "winners",
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
            false,
        ),
        Field::new("first_error_code", DataType::Utf8, true),
        Field::new("first_error_ply", DataType::UInt32, true),
        Field::new("first_error_message", DataType::Utf8, true),
        Field::new(
            "errors",
            DataType::List(Arc::new(Field::new("item", DataType::Struct(error), true))),
            false,
        ),
        Field::new("warnings", DataType::UInt32, false),
        Field::new(
            "warning_codes",
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
            false,
        ),
    ];
    if read {
        fields.push(Field::new("text", DataType::Utf8, false));
        fields.push(Field::new("tags", tags_type(), false));
    }
    Arc::new(Schema::new(fields))
}

fn map_type(value: DataType) -> DataType {
    DataType::Map(
        Arc::new(Field::new(
            "entries",
            DataType::Struct(Fields::from(vec![
                Field::new("key", DataType::Utf8, false),
                Field::new("value", value, true),
            ])),
            false,
        )),
        false,
    )
}

fn scores_type() -> DataType {
    map_type(DataType::Int64)
}

fn tags_type() -> DataType {
    map_type(DataType::Utf8)
}

/// The `errors` column: a list of structs per row.
fn errors_column(rows: &[Row]) -> Result<ArrayRef, arrow_schema::ArrowError> {
    let all = || rows.iter().flat_map(|r| r.errors.iter());
    let code: StringArray = all().map(|e| Some(e.code.as_str())).collect();
    let message: StringArray = all().map(|e| Some(e.message.as_str())).collect();
    let ply: UInt32Array = all().map(|e| Some(e.ply)).collect();
    let line: UInt32Array = all().map(|e| e.line).collect();
    let column: UInt32Array = all().map(|e| e.column).collect();
    let DataType::List(item) = schema(false).field_with_name("errors")?.data_type().clone() else {
        return Err(arrow_schema::ArrowError::SchemaError("errors".into()));
    };
    let DataType::Struct(fields) = item.data_type().clone() else {
        return Err(arrow_schema::ArrowError::SchemaError("errors".into()));
    };
    let values = StructArray::try_new(
        fields,
        vec![
            Arc::new(code),
            Arc::new(message),
            Arc::new(ply),
            Arc::new(line),
            Arc::new(column),
        ],
        None,
    )?;
    let offsets = OffsetBuffer::<i32>::from_lengths(rows.iter().map(|r| r.errors.len()));
    Ok(Arc::new(ListArray::try_new(
        item,
        offsets,
        Arc::new(values),
        None,
    )?))
}

/// The batch of `rows`.
fn batch(rows: &[Row], read: bool) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let mut scores = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
    let mut winners = ListBuilder::new(StringBuilder::new());
    let mut warning_codes = ListBuilder::new(StringBuilder::new());
    for r in rows {
        for code in &r.warnings {
            warning_codes.values().append_value(code);
        }
        warning_codes.append(true);
        for (seat, score) in r.seats.iter().zip(&r.scores) {
            scores.keys().append_value(seat);
            scores.values().append_value(*score);
        }
        scores.append(true)?;
        for w in &r.winners {
            winners.values().append_value(w);
        }
        winners.append(true);
    }
    fn first(r: &Row) -> Option<&ErrorRow> {
        r.errors.first()
    }
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(rows.iter().map(|r| Some(r.source)).collect::<UInt64Array>()),
        Arc::new(rows.iter().map(|r| Some(r.number)).collect::<UInt32Array>()),
        Arc::new(rows.iter().map(|r| Some(r.valid)).collect::<BooleanArray>()),
        Arc::new(rows.iter().map(|r| r.game).collect::<StringArray>()),
        Arc::new(rows.iter().map(|r| r.variant).collect::<StringArray>()),
        Arc::new(rows.iter().map(|r| Some(r.plies)).collect::<UInt32Array>()),
        Arc::new(rows.iter().map(|r| Some(r.over)).collect::<BooleanArray>()),
        Arc::new(scores.finish()),
        Arc::new(winners.finish()),
        Arc::new(
            rows.iter()
                .map(|r| first(r).map(|e| e.code.as_str()))
                .collect::<StringArray>(),
        ),
        Arc::new(
            rows.iter()
                .map(|r| first(r).map(|e| e.ply))
                .collect::<UInt32Array>(),
        ),
        Arc::new(
            rows.iter()
                .map(|r| first(r).map(|e| e.message.as_str()))
                .collect::<StringArray>(),
        ),
        errors_column(rows)?,
        Arc::new(
            rows.iter()
                .map(|r| Some(to_u32(r.warnings.len())))
                .collect::<UInt32Array>(),
        ),
        Arc::new(warning_codes.finish()),
    ];
    if read {
        columns.push(Arc::new(
            rows.iter()
                .map(|r| Some(r.text.as_deref().unwrap_or("")))
                .collect::<StringArray>(),
        ));
        let mut tags = MapBuilder::new(None, StringBuilder::new(), StringBuilder::new());
        for r in rows {
            for (k, v) in &r.tags {
                tags.keys().append_value(k);
                tags.values().append_value(v);
            }
            tags.append(true)?;
        }
        columns.push(Arc::new(tags.finish()));
    }
    RecordBatch::try_new(schema(read), columns)
}

fn arrow_error(e: arrow_schema::ArrowError) -> PyErr {
    raise("GamerecError", format!("arrow: {e}"), None)
}

/// Replays the record texts of an Arrow string array (one game or one
/// file's text each), in parallel without the GIL, into one batch with a
/// row per game (`source`: the index of its text).
#[pyfunction]
#[pyo3(signature = (texts, game=None, format=None))]
pub fn validate_arrow<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    game: Option<String>,
    format: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let array = make_array(ArrayData::from_pyarrow_bound(texts)?);
    let texts = texts_of(&array)?;
    let read = crate::read_options(format)?;
    let opts = options(game, false);
    let batch = py.detach(|| {
        let rows: Vec<Row> = texts
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .flat_map_iter(|(i, t)| match t {
                Some(t) => rows_of(i as u64, t, &read, &opts),
                None => vec![Row::unreadable(
                    i as u64,
                    Some("record::no_games"),
                    "a null text".into(),
                )],
            })
            .collect();
        batch(&rows, false)
    });
    batch.map_err(arrow_error)?.to_pyarrow(py)
}

/// A file's games as batches of `batch_size` rows, with their text and tags.
#[pyclass(unsendable, module = "gamerec")]
pub struct BatchReader {
    games: gamerec::Games<'static>,
    file: String,
    opts: Options,
    batch_size: usize,
    done: bool,
}

#[pymethods]
impl BatchReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.done {
            return Err(PyStopIteration::new_err(()));
        }
        let mut games: Vec<Box<SourceGame>> = Vec::with_capacity(self.batch_size);
        let mut failure = None;
        while games.len() < self.batch_size {
            match self.games.next() {
                None => {
                    self.done = true;
                    break;
                }
                Some(Ok(g)) => games.push(g),
                Some(Err(e)) => {
                    self.done = true;
                    failure = Some(e);
                    break;
                }
            }
        }
        if games.is_empty() {
            if let Some(e) = failure {
                let message = format!("{}: {}", self.file, e.message);
                return Err(raise("ReadError", message, e.code.map(str::to_string)));
            }
            return Err(PyStopIteration::new_err(()));
        }
        let opts = &self.opts;
        let batch = py.detach(|| {
            let rows: Vec<Row> = games
                .par_iter_mut()
                .map(|g| {
                    let r = g.replay(opts);
                    // a binary record's text is written only when asked for
                    g.materialize();
                    Row::of(0, g, &r, true)
                })
                .collect();
            batch(&rows, true)
        });
        batch.map_err(arrow_error)?.to_pyarrow(py)
    }
}

/// The games of a file as Arrow batches (report columns, text, tags),
/// `batch_size` games at a time: memory bounded by a batch.
#[pyfunction]
#[pyo3(signature = (path, batch_size=65536, format=None, game=None))]
pub fn read_arrow(
    path: std::path::PathBuf,
    batch_size: usize,
    format: Option<&str>,
    game: Option<String>,
) -> PyResult<BatchReader> {
    let read = crate::read_options(format)?;
    let name = path.to_string_lossy().into_owned();
    let file = std::fs::File::open(&path)
        .map_err(|e| raise("ReadError", format!("{name}: cannot open: {e}"), None))?;
    let (_, games) = gamerec::open(&name, Box::new(std::io::BufReader::new(file)), &read)
        .map_err(|e| raise("ReadError", format!("{name}: {e}"), None))?;
    Ok(BatchReader {
        games,
        file: name,
        opts: options(game, true),
        batch_size: batch_size.max(1),
        done: false,
    })
}
