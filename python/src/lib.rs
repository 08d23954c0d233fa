//! The `gamerec._gamerec` extension: gamerec's readers, replay and
//! positions for Python, and record batches as Arrow arrays (through the
//! Arrow C data interface: no Python object per game).

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

mod batch;
mod report;

use report::{Diagnostic, Report, diagnostic, raise};

/// The options of a read: the forced format and game.
fn read_options(format: Option<&str>) -> PyResult<gamerec::ReadOptions> {
    let mut opts = gamerec::ReadOptions::default();
    if let Some(name) = format {
        let Some(f) = gamerec::Format::by_name(name) else {
            return Err(PyErr::new::<pyo3::exceptions::PyValueError, _>(format!(
                "unknown format `{name}`"
            )));
        };
        opts.forced = Some(f);
    }
    Ok(opts)
}

/// Where a read's bytes come from.
enum Source {
    /// A file, or every file a directory scan finds.
    Path(PathBuf),
    Bytes(Vec<u8>),
}

impl Source {
    fn of(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Source::Bytes(b.as_bytes().to_vec()));
        }
        Ok(Source::Path(obj.extract::<PathBuf>()?))
    }
}

/// Extensions that many files share (a `.txt` need not be a record): a
/// scan reads such a file only when its first bytes hold a record, as the
/// command line's scan does.
const GENERAL: &[&str] = &["txt", "csv", "pgn"];

fn extension_in(path: &Path, list: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| list.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// The files a scan of `dir` reads, as the command line's scan (without
/// its ignore files and globs): every file below it with an extension
/// gamerec reads, hidden entries skipped, depth first in path order.
fn scan(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let name = dir.display();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{name}: cannot read: {e}"))?;
        if !entry.file_name().to_string_lossy().starts_with('.') {
            // a link to a directory is not followed (no loops)
            let dir = entry.file_type().is_ok_and(|t| t.is_dir());
            paths.push((entry.path(), dir));
        }
    }
    paths.sort();
    for (path, dir) in paths {
        if dir {
            scan(&path, out)?;
            continue;
        }
        // what a link to a file points to counts; only regular files are read
        let file = std::fs::metadata(&path).is_ok_and(|m| m.is_file());
        if file && extension_in(&path, gamerec::Format::scanned_extensions()) {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether a file with a general extension holds a record, as the command
/// line's scan decides: its first block looks like a format gamerec reads.
/// Opened as standard input (`-`), a text is read as gamerec text only when
/// nothing else fits it, so the format `open` chooses tells.
fn holds_a_record(path: &Path) -> bool {
    const BLOCK: u64 = 64 * 1024;
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(BLOCK).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    let opens_a_tag = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('[');
    let probe = gamerec::open("-", Box::new(Cursor::new(&head)), &Default::default());
    opens_a_tag || matches!(probe, Ok((format, _)) if format != gamerec::Format::Gamerec)
}

/// One file's games.
struct Opened {
    name: String,
    games: gamerec::Games<'static>,
}

/// Opens one source; `scanned`: found by a directory scan, skipped (`None`)
/// when it has a general extension and holds no record.
fn open(
    source: Source,
    opts: &gamerec::ReadOptions,
    scanned: bool,
) -> Result<Option<Opened>, PyErr> {
    let (name, reader): (String, Box<dyn std::io::Read>) = match source {
        Source::Path(path) => {
            let general = scanned && extension_in(&path, GENERAL);
            if general && !holds_a_record(&path) {
                return Ok(None);
            }
            let name = path.to_string_lossy().into_owned();
            let file = std::fs::File::open(&path)
                .map_err(|e| raise("ReadError", format!("{name}: cannot open: {e}"), None))?;
            (name, Box::new(std::io::BufReader::new(file)))
        }
        Source::Bytes(bytes) => ("<bytes>".to_string(), Box::new(Cursor::new(bytes))),
    };
    let (_, games) = gamerec::open(&name, reader, opts)
        .map_err(|e| raise("ReadError", format!("{name}: {e}"), None))?;
    Ok(Some(Opened { name, games }))
}

/// The games of one file, of bytes, or of every file a directory scan
/// finds, one at a time.
#[pyclass(unsendable, module = "gamerec")]
pub struct Reader {
    current: Option<Opened>,
    /// The files of a directory scan still to open, in reverse order.
    queue: Vec<PathBuf>,
    opts: gamerec::ReadOptions,
    game: Option<String>,
    replay: bool,
}

impl Reader {
    fn open(
        source: Source,
        format: Option<&str>,
        game: Option<String>,
        replay: bool,
    ) -> PyResult<Self> {
        let opts = read_options(format)?;
        let mut queue = Vec::new();
        let current = match source {
            Source::Path(dir) if dir.is_dir() => {
                scan(&dir, &mut queue).map_err(|e| raise("ReadError", e, None))?;
                queue.reverse();
                None
            }
            source => open(source, &opts, false)?,
        };
        Ok(Reader {
            current,
            queue,
            opts,
            game,
            replay,
        })
    }

    /// The next game read, from the file open or the next one; `None` once
    /// every file is read. A file that cannot be read is an error naming
    /// it; reading on goes to the next file.
    fn next_game(&mut self) -> PyResult<Option<(Box<gamerec::SourceGame>, String)>> {
        loop {
            let Some(cur) = &mut self.current else {
                let Some(path) = self.queue.pop() else {
                    return Ok(None);
                };
                self.current = open(Source::Path(path), &self.opts, true)?;
                continue;
            };
            match cur.games.next() {
                None => self.current = None,
                Some(Ok(g)) => return Ok(Some((g, cur.name.clone()))),
                Some(Err(e)) => {
                    let message = format!("{}: {}", cur.name, e.message);
                    self.current = None;
                    return Err(raise("ReadError", message, e.code.map(str::to_string)));
                }
            }
        }
    }
}

#[pymethods]
impl Reader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Some((mut g, file)) = self.next_game()? else {
            return Err(PyStopIteration::new_err(()));
        };
        let opts = gamerec::Options {
            game: self.game.clone(),
            ..gamerec::Options::keeping(gamerec::sink::Record)
        };
        if self.replay {
            let r = g.replay(&opts);
            Ok(Py::new(py, Report::of(&g, &r, &file))?.into_any())
        } else {
            g.materialize();
            Ok(Py::new(py, Game::of(*g, &file, opts))?.into_any())
        }
    }
}

/// One game as read: its record text, tags and place; `replay()` judges it.
#[pyclass(module = "gamerec")]
pub struct Game {
    inner: gamerec::SourceGame,
    opts: gamerec::Options,
    /// The file it was read from.
    #[pyo3(get)]
    file: String,
    /// Its number in the file, from 1.
    #[pyo3(get)]
    number: usize,
}

impl Game {
    fn of(inner: gamerec::SourceGame, file: &str, opts: gamerec::Options) -> Self {
        let number = inner.index + 1;
        Game {
            inner,
            opts,
            file: file.to_string(),
            number,
        }
    }
}

#[pymethods]
impl Game {
    /// The game's record text (for binary formats: as gamerec text).
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }

    /// The tags in file order (a repeated name keeps its first value).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for t in self.inner.raw.tags.iter() {
            if !d.contains(&t.name)? {
                d.set_item(&t.name, &t.value)?;
            }
        }
        Ok(d)
    }

    /// Replays the game through its rules: the report.
    #[pyo3(signature = (game=None))]
    fn replay(&mut self, game: Option<String>) -> Report {
        let mut opts = self.opts.clone();
        if game.is_some() {
            opts.game = game;
        }
        let r = self.inner.replay(&opts);
        Report::of(&self.inner, &r, &self.file)
    }

    fn __repr__(&self) -> String {
        format!("<gamerec.Game {} #{}>", self.file, self.number)
    }
}

/// The games of a file (a path), of every file a directory holds (its
/// scan: files with an extension gamerec reads, in path order, hidden ones
/// skipped) or of bytes, lazily, in file order, in any format gamerec reads
/// (`format` forces one).
#[pyfunction]
#[pyo3(signature = (source, format=None, game=None))]
fn read(source: &Bound<'_, PyAny>, format: Option<&str>, game: Option<String>) -> PyResult<Reader> {
    Reader::open(Source::of(source)?, format, game, false)
}

/// The reports of the games of a file, a directory's files or bytes, lazily,
/// in file order.
#[pyfunction]
#[pyo3(signature = (source, format=None, game=None))]
fn validate(
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    game: Option<String>,
) -> PyResult<Reader> {
    Reader::open(Source::of(source)?, format, game, true)
}

/// A position of any game, played in notation.
#[pyclass(module = "gamerec")]
pub struct Position {
    inner: Box<dyn gamerec::play::AnyPosition>,
}

#[pymethods]
impl Position {
    /// The start position of `game` (`reversi`, `othello`, `blokus`, ...),
    /// its `variant` and any other rules tags by name (`Size="10"`).
    #[new]
    #[pyo3(signature = (game, variant=None, **tags))]
    fn new(game: &str, variant: Option<&str>, tags: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let Some(v) = variant {
            pairs.push(("Variant".into(), v.into()));
        }
        if let Some(tags) = tags {
            for (k, v) in tags.iter() {
                let value = match v.extract::<String>() {
                    Ok(s) => s,
                    Err(_) => v.str()?.to_string(),
                };
                pairs.push((k.extract::<String>()?, value));
            }
        }
        let refs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        match gamerec::start(game, &refs) {
            Ok(inner) => Ok(Position { inner }),
            Err(diags) => {
                let first = diags.first();
                let code = first.map(|d| d.code.to_string());
                let message =
                    first.map_or_else(|| "cannot start".to_string(), |d| d.message.clone());
                let kind = if code.as_deref() == Some("record::unknown_game") {
                    "UnknownGame"
                } else {
                    "BadSetup"
                };
                Err(raise(kind, message, code))
            }
        }
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.game()
    }

    /// The variant in play.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant()
    }

    /// The seats in seat order.
    #[getter]
    fn seats(&self) -> Vec<&'static str> {
        self.inner.seats().to_vec()
    }

    /// Who moves next; `None` once the game is over.
    #[getter]
    fn turn(&self) -> Option<&'static str> {
        self.inner.turn()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// Plies played from the start.
    #[getter]
    fn plies(&self) -> usize {
        self.inner.plies()
    }

    /// Scores by seat.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (seat, score) in self.inner.seats().iter().zip(self.inner.scores()) {
            d.set_item(seat, score)?;
        }
        Ok(d)
    }

    /// The winning seats once over (several on a draw).
    #[getter]
    fn winners(&self) -> Vec<&'static str> {
        self.inner.winners()
    }

    /// Every legal move in notation, sorted; empty when the side to move
    /// must pass (play `"pass"`) or the game is over.
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        self.inner
            .legal_moves()
            .map_err(|why| raise("GamerecError", why.to_string(), None))
    }

    /// Plays one move in notation; an illegal or unreadable move raises
    /// `IllegalMove` (with its `diagnostic`) and changes nothing.
    fn play(&mut self, py: Python<'_>, notation: &str) -> PyResult<()> {
        match self.inner.play(notation) {
            Ok(()) => Ok(()),
            Err(d) => {
                let index = gamerec::LineIndex::new(notation);
                let diag = diagnostic(&d, &index, None);
                let message = format!("{}: {}", d.code, d.message);
                let err = raise("IllegalMove", message, Some(d.code.to_string()));
                err.value(py).setattr("diagnostic", Py::new(py, diag)?)?;
                Err(err)
            }
        }
    }

    /// A copy to explore from.
    fn copy(&self) -> Position {
        Position {
            inner: self.inner.boxed_clone(),
        }
    }

    fn __copy__(&self) -> Position {
        self.copy()
    }

    /// The position as an SVG picture.
    fn svg(&self) -> String {
        self.inner.svg()
    }

    /// The position as terminal text (`color` for ANSI colours).
    #[pyo3(signature = (color=false))]
    fn text(&self, color: bool) -> String {
        self.inner.text(color)
    }

    fn __str__(&self) -> String {
        self.inner.text(false)
    }

    fn __repr__(&self) -> String {
        let turn = self.inner.turn().unwrap_or("game over");
        format!(
            "<gamerec.Position {} ({}) ply {}, {}>",
            self.inner.game(),
            self.inner.variant(),
            self.inner.plies(),
            turn
        )
    }

    fn _repr_svg_(&self) -> String {
        self.inner.svg()
    }
}

/// The games gamerec knows: names, aliases and variants.
#[pyfunction]
fn games<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for g in gamerec::REGISTRY {
        let d = PyDict::new(py);
        d.set_item("name", g.name())?;
        d.set_item("aliases", g.aliases().to_vec())?;
        d.set_item("variants", g.variants().to_vec())?;
        out.append(d)?;
    }
    Ok(out)
}

#[pymodule]
fn _gamerec(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Reader>()?;
    m.add_class::<Game>()?;
    m.add_class::<Report>()?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<Position>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(batch::validate_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(batch::read_arrow, m)?)?;
    m.add_class::<batch::BatchReader>()?;
    Ok(())
}
