//! Record batches: many record texts replayed in parallel into one Arrow
//! batch of reports, and a file's games streamed as batches.

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Int64Builder, ListBuilder, MapBuilder, StringBuilder, UInt32Builder,
    UInt64Builder,
};
use arrow_array::{
    Array, ArrayRef, LargeStringArray, ListArray, RecordBatch, StringArray, StructArray, make_array,
};
use arrow_buffer::OffsetBuffer;
use arrow_data::ArrayData;
use arrow_pyarrow::{FromPyArrow, ToPyArrow};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema};
use arrow_select::concat::concat_batches;
use pyo3::exceptions::{PyStopIteration, PyTypeError};
use pyo3::prelude::*;
use rayon::prelude::*;

use gamerec::{GameReport, LineIndex, Options};
use gamerec::{ReadOptions, SourceGame};

use crate::report::raise;

/// The columns of a batch being built, a game at a time, straight from
/// each game's report (no row object per game in between); `text` and
/// `tags` with `read_arrow`.
struct Columns {
    source: UInt64Builder,
    number: UInt32Builder,
    valid: BooleanBuilder,
    game: StringBuilder,
    variant: StringBuilder,
    plies: UInt32Builder,
    over: BooleanBuilder,
    scores: MapBuilder<StringBuilder, Int64Builder>,
    winners: ListBuilder<StringBuilder>,
    first_code: StringBuilder,
    first_ply: UInt32Builder,
    first_message: StringBuilder,
    errors: ErrorColumns,
    warnings: UInt32Builder,
    warning_codes: ListBuilder<StringBuilder>,
    read: Option<ReadColumns>,
}

/// The `errors` column's parts: every row's diagnostics in a row, and how
/// many each row has.
#[derive(Default)]
struct ErrorColumns {
    code: StringBuilder,
    message: StringBuilder,
    ply: UInt32Builder,
    line: UInt32Builder,
    column: UInt32Builder,
    per_row: Vec<usize>,
}

/// The columns `read_arrow` adds: the game's text and tags.
struct ReadColumns {
    text: StringBuilder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The line index a report's diagnostics need: `None` when none has a
/// span (most games: nothing to index) or the game is binary (a binary
/// file's games have byte offsets, no lines).
fn lines_for<'t>(
    r: &GameReport,
    binary: bool,
    index: impl FnOnce() -> LineIndex<'t>,
) -> Option<LineIndex<'t>> {
    (!binary && r.errors.iter().any(|d| d.span.is_some())).then(index)
}

impl Columns {
    fn new(read: bool, rows: usize) -> Columns {
        let strings = || StringBuilder::with_capacity(rows, 0);
        let map = |v| MapBuilder::new(None, StringBuilder::new(), v);
        Columns {
            source: UInt64Builder::with_capacity(rows),
            number: UInt32Builder::with_capacity(rows),
            valid: BooleanBuilder::with_capacity(rows),
            game: strings(),
            variant: strings(),
            plies: UInt32Builder::with_capacity(rows),
            over: BooleanBuilder::with_capacity(rows),
            scores: map(Int64Builder::new()),
            winners: ListBuilder::new(StringBuilder::new()),
            first_code: strings(),
            first_ply: UInt32Builder::with_capacity(rows),
            first_message: strings(),
            errors: ErrorColumns::default(),
            warnings: UInt32Builder::with_capacity(rows),
            warning_codes: ListBuilder::new(StringBuilder::new()),
            read: read.then(|| ReadColumns {
                text: strings(),
                tags: MapBuilder::new(None, StringBuilder::new(), StringBuilder::new()),
            }),
        }
    }

    /// Appends the row of game `number` of text `source`, whose report is
    /// `r` and whose diagnostics' lines `lines` gives.
    fn push(
        &mut self,
        source: u64,
        number: usize,
        r: &GameReport,
        lines: Option<&LineIndex<'_>>,
    ) -> Result<(), ArrowError> {
        let name = |s: &'static str| (!s.is_empty()).then_some(s);
        self.source.append_value(source);
        self.number.append_value(to_u32(number));
        self.valid.append_value(r.valid);
        self.game.append_option(name(r.game));
        self.variant.append_option(name(r.variant));
        self.plies.append_value(to_u32(r.plies));
        self.over.append_value(r.over);
        for (seat, score) in r.seats.iter().zip(&r.scores) {
            self.scores.keys().append_value(seat);
            self.scores.values().append_value(*score);
        }
        self.scores.append(true)?;
        for w in &r.winners {
            self.winners.values().append_value(w);
        }
        self.winners.append(true);
        let first = r.errors.first();
        self.first_code
            .append_option(first.map(|d| d.code.as_ref()));
        self.first_ply.append_option(first.map(|d| to_u32(d.ply)));
        self.first_message
            .append_option(first.map(|d| d.message.as_str()));
        for d in &r.errors {
            let place = d.span.zip(lines).map(|(s, l)| l.line_col(s.offset));
            self.errors.push(
                &d.code,
                &d.message,
                d.ply,
                place.map(|(l, c)| (to_u32(l), to_u32(c))),
            );
        }
        self.errors.per_row.push(r.errors.len());
        self.warnings.append_value(to_u32(r.warnings.len()));
        for w in &r.warnings {
            self.warning_codes.values().append_value(&w.code);
        }
        self.warning_codes.append(true);
        Ok(())
    }

    /// Appends the text and tags of the row just pushed (`read_arrow`).
    fn push_text(&mut self, text: &str, tags: &[(String, String)]) -> Result<(), ArrowError> {
        if let Some(read) = &mut self.read {
            read.text.append_value(text);
            for (k, v) in tags {
                read.tags.keys().append_value(k);
                read.tags.values().append_value(v);
            }
            read.tags.append(true)?;
        }
        Ok(())
    }

    /// Appends the row of a text that could not be read as records at all.
    fn push_unreadable(
        &mut self,
        source: u64,
        code: Option<&str>,
        message: &str,
    ) -> Result<(), ArrowError> {
        let mut report = GameReport::default();
        let code = code.unwrap_or("record::unreadable").to_string();
        report.errors.push(gamerec::Diag::error(code, message));
        self.push(source, 1, &report, None)
    }

    /// The batch of the rows pushed.
    fn finish(mut self) -> Result<RecordBatch, ArrowError> {
        let read = self.read.is_some();
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.source.finish()),
            Arc::new(self.number.finish()),
            Arc::new(self.valid.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.variant.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.over.finish()),
            Arc::new(self.scores.finish()),
            Arc::new(self.winners.finish()),
            Arc::new(self.first_code.finish()),
            Arc::new(self.first_ply.finish()),
            Arc::new(self.first_message.finish()),
            self.errors.finish()?,
            Arc::new(self.warnings.finish()),
            Arc::new(self.warning_codes.finish()),
        ];
        if let Some(mut r) = self.read {
            columns.push(Arc::new(r.text.finish()));
            columns.push(Arc::new(r.tags.finish()));
        }
        RecordBatch::try_new(schema(read), columns)
    }
}

impl ErrorColumns {
    fn push(&mut self, code: &str, message: &str, ply: usize, place: Option<(u32, u32)>) {
        self.code.append_value(code);
        self.message.append_value(message);
        self.ply.append_value(to_u32(ply));
        self.line.append_option(place.map(|p| p.0));
        self.column.append_option(place.map(|p| p.1));
    }

    /// The `errors` column: a list of structs per row.
    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        let DataType::List(item) = error_list_type() else {
            return Err(ArrowError::SchemaError("errors".into()));
        };
        let DataType::Struct(fields) = item.data_type().clone() else {
            return Err(ArrowError::SchemaError("errors".into()));
        };
        let values = StructArray::try_new(
            fields,
            vec![
                Arc::new(self.code.finish()),
                Arc::new(self.message.finish()),
                Arc::new(self.ply.finish()),
                Arc::new(self.line.finish()),
                Arc::new(self.column.finish()),
            ],
            None,
        )?;
        let offsets = OffsetBuffer::<i32>::from_lengths(self.per_row.iter().copied());
        Ok(Arc::new(ListArray::try_new(
            item,
            offsets,
            Arc::new(values),
            None,
        )?))
    }
}

/// What a batch keeps of each replay: the verdict, and every tag when its
/// columns are asked for.
#[derive(Debug)]
struct Kept {
    tags: bool,
}

impl gamerec::Sink for Kept {
    fn tags(&self) -> gamerec::sink::TagsKept {
        if self.tags {
            gamerec::sink::TagsKept::All
        } else {
            gamerec::sink::TagsKept::Nothing
        }
    }
}

/// The replay options of a batch.
fn options(game: Option<String>, tags: bool) -> Options {
    Options {
        game,
        variant: None,
        sink: std::sync::Arc::new(Kept { tags }),
        check_scores: None,
    }
}

/// Whether a text is gamerec text (its first character, after a byte-order
/// mark and white space, opens a tag): parsed in place, without a reader's
/// buffers.
fn gamerec_text(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[')
}

/// Appends the rows of one record text (a game or a whole file's text):
/// gamerec text parsed in place by the container, other formats through
/// their reader. `report` is an earlier game's, whose room is reused.
fn rows_into(
    cols: &mut Columns,
    source: u64,
    text: &str,
    (read, opts): (&ReadOptions, &Options),
    report: &mut GameReport,
) -> Result<(), ArrowError> {
    if read.forced.is_none() && gamerec_text(text) {
        for (i, raw) in gamerec::parse_file(text).iter().enumerate() {
            gamerec::replay_into(raw, text, opts, report);
            let lines = lines_for(report, false, || LineIndex::new(text));
            cols.push(source, i + 1, report, lines.as_ref())?;
        }
        return Ok(());
    }
    let reader: Box<dyn std::io::Read + '_> = Box::new(Cursor::new(text.as_bytes()));
    let games = match gamerec::open("", reader, read) {
        Ok((_, games)) => games,
        Err(e) => return cols.push_unreadable(source, None, &e.message),
    };
    for g in games {
        match g {
            Ok(mut g) => {
                g.replay_into(opts, report);
                let lines = lines_for(report, g.byte_map.is_some(), || g.lines());
                cols.push(source, g.index + 1, report, lines.as_ref())?;
            }
            Err(e) => return cols.push_unreadable(source, e.code, &e.message),
        }
    }
    Ok(())
}

/// The texts of an Arrow array of strings (or large strings).
enum Texts<'a> {
    Utf8(&'a StringArray),
    LargeUtf8(&'a LargeStringArray),
}

impl<'a> Texts<'a> {
    fn of(array: &'a ArrayRef) -> PyResult<Texts<'a>> {
        if let Some(a) = array.as_any().downcast_ref::<StringArray>() {
            return Ok(Texts::Utf8(a));
        }
        if let Some(a) = array.as_any().downcast_ref::<LargeStringArray>() {
            return Ok(Texts::LargeUtf8(a));
        }
        Err(PyTypeError::new_err(format!(
            "expected an array of strings, got {}",
            array.data_type()
        )))
    }

    fn len(&self) -> usize {
        match self {
            Texts::Utf8(a) => a.len(),
            Texts::LargeUtf8(a) => a.len(),
        }
    }

    /// Text `i` (`None`: a null); Arrow strings are UTF-8 already.
    fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            Texts::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Texts::LargeUtf8(a) => a.is_valid(i).then(|| a.value(i)),
        }
    }
}

/// The batch of texts `range` of `texts`, replayed in order on one thread
/// (one replay report reused for all).
fn chunk_batch(
    texts: &Texts<'_>,
    range: std::ops::Range<usize>,
    how: (&ReadOptions, &Options),
) -> Result<RecordBatch, ArrowError> {
    let mut cols = Columns::new(false, range.len());
    let mut report = GameReport::default();
    for i in range {
        let source = i as u64;
        match texts.get(i) {
            Some(t) => rows_into(&mut cols, source, t, how, &mut report)?,
            None => cols.push_unreadable(source, Some("record::no_games"), "a null text")?,
        }
    }
    cols.finish()
}

/// The batch's schema; `read` adds the text and tags columns.
fn schema(read: bool) -> Arc<Schema> {
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
        Field::new("errors", error_list_type(), false),
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

/// The `errors` column's type: a list of structs.
fn error_list_type() -> DataType {
    let error = Fields::from(vec![
        Field::new("code", DataType::Utf8, false),
        Field::new("message", DataType::Utf8, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("line", DataType::UInt32, true),
        Field::new("column", DataType::UInt32, true),
    ]);
    DataType::List(Arc::new(Field::new("item", DataType::Struct(error), true)))
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

fn arrow_error(e: ArrowError) -> PyErr {
    raise("GamerecError", format!("arrow: {e}"), None)
}

/// How many texts one replay task takes: enough tasks for every thread
/// to take several (the texts differ in length), few enough that a
/// task's columns are worth building.
fn chunk_len(texts: usize) -> usize {
    (texts / (rayon::current_num_threads() * 8)).clamp(64, 4096)
}

/// Replays the record texts of an Arrow string array (one game or one
/// file's text each), in parallel without the GIL, into one batch with a
/// row per game (`source`: the index of its text). Each task builds the
/// columns of a run of texts; the runs' batches are joined in order.
#[pyfunction]
#[pyo3(signature = (texts, game=None, format=None))]
pub fn validate_arrow<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    game: Option<String>,
    format: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let array = make_array(ArrayData::from_pyarrow_bound(texts)?);
    let texts = Texts::of(&array)?;
    let read = crate::read_options(format)?;
    let opts = options(game, false);
    let batch = py.detach(|| {
        let n = texts.len();
        let step = chunk_len(n);
        let batches = (0..n.div_ceil(step))
            .into_par_iter()
            .map(|c| chunk_batch(&texts, c * step..((c + 1) * step).min(n), (&read, &opts)))
            .collect::<Result<Vec<_>, _>>()?;
        concat_batches(&schema(false), &batches)
    });
    batch.map_err(arrow_error)?.to_pyarrow(py)
}

/// How many games `read_arrow` reads before replaying them in parallel
/// (as the CLI's window): the games held at once, whatever the batch size.
const WINDOW: usize = 512;

/// A file's games as batches of `batch_size` rows, with their text and tags.
#[pyclass(unsendable, module = "gamerec")]
pub struct BatchReader {
    games: gamerec::Games<'static>,
    file: String,
    opts: Options,
    batch_size: usize,
    /// The games read and not yet replayed (boxed as the reader hands them
    /// out); the reports of the last window (their room reused).
    #[allow(clippy::vec_box)]
    window: Vec<Box<SourceGame>>,
    reports: Vec<GameReport>,
    /// A read error after the games of the last batch, raised next.
    failure: Option<gamerec::ReadError>,
    done: bool,
}

impl BatchReader {
    /// Reads up to `n` games into the window; `false` once the file ends
    /// or fails (the failure kept for the next call).
    fn fill(&mut self, n: usize) -> bool {
        self.window.clear();
        while self.window.len() < n {
            match self.games.next() {
                Some(Ok(g)) => self.window.push(g),
                None => return false,
                Some(Err(e)) => {
                    self.failure = Some(e);
                    return false;
                }
            }
        }
        true
    }
}

/// Replays a window's games in parallel (into `reports`, whose room is
/// reused) and appends their rows; the window is emptied.
#[allow(clippy::vec_box)]
fn replay_window(
    window: &mut Vec<Box<SourceGame>>,
    reports: &mut Vec<GameReport>,
    opts: &Options,
    cols: &mut Columns,
) -> Result<(), ArrowError> {
    if reports.len() < window.len() {
        reports.resize_with(window.len(), GameReport::default);
    }
    window
        .par_iter_mut()
        .zip(reports.par_iter_mut())
        .for_each(|(g, r)| {
            g.replay_into(opts, r);
            // a binary record's text is written only when asked for
            g.materialize();
        });
    for (g, r) in window.iter().zip(reports.iter()) {
        let lines = lines_for(r, g.byte_map.is_some(), || g.lines());
        cols.push(0, g.index + 1, r, lines.as_ref())?;
        cols.push_text(&g.text, &r.tags)?;
    }
    window.clear();
    Ok(())
}

#[pymethods]
impl BatchReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(e) = self.failure.take() {
            self.done = true;
            let message = format!("{}: {}", self.file, e.message);
            return Err(raise("ReadError", message, e.code.map(str::to_string)));
        }
        if self.done {
            return Err(PyStopIteration::new_err(()));
        }
        let mut cols = Columns::new(true, self.batch_size);
        let mut rows = 0;
        while rows < self.batch_size && !self.done {
            self.done = !self.fill(WINDOW.min(self.batch_size - rows));
            rows += self.window.len();
            let (window, reports, opts) = (&mut self.window, &mut self.reports, &self.opts);
            py.detach(|| replay_window(window, reports, opts, &mut cols))
                .map_err(arrow_error)?;
        }
        if rows == 0 {
            return self.__next__(py);
        }
        cols.finish().map_err(arrow_error)?.to_pyarrow(py)
    }
}

/// The games of a file as Arrow batches (report columns, text, tags),
/// `batch_size` games at a time: memory bounded by a batch.
#[pyfunction]
#[pyo3(signature = (path, batch_size=16384, format=None, game=None))]
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
        window: Vec::with_capacity(WINDOW),
        reports: Vec::new(),
        failure: None,
        done: false,
    })
}
