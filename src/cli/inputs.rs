//! The pipeline every command runs: **read → games → replay → sink**.
//!
//! - read: the path arguments become files (directories searched
//!   recursively, in sorted order, for the extensions gamerec reads; `-` is
//!   standard input), and each file is opened by its format's reader
//!   ([`formats::open`]), which yields one game at a time;
//! - games: games are gathered into a bounded window ([`WINDOW_GAMES`]
//!   games or [`WINDOW_BYTES`] bytes of text, whichever comes first);
//! - replay: the window is replayed in parallel (rayon); with a single
//!   replay thread (`RAYON_NUM_THREADS=1`, a one-core machine) the reading
//!   thread replays small windows ([`WINDOW_GAMES_ONE_THREAD`]) itself: no
//!   hand-off to a worker, and a window's text, tokens and reports are still
//!   in its caches when they are replayed and written;
//! - sink: the reports go to the command's sink in input order; each window
//!   place keeps its report for the next window's game there (its room is
//!   reused, a large game's let go: `GameReport::reset`), and each game's
//!   box goes back to the reader's pool (`formats::recycle`).
//!
//! Memory is bounded by the window (and the largest single game), whatever
//! the number or size of the inputs; nothing is kept past its output but the
//! sink's counts and the reused room.

use std::io::{self, Read};
use std::path::Path;

use rayon::prelude::*;

use super::Ctx;
use crate::formats::{self, Format, ReadOptions, SourceGame};
use crate::replay::{GameReport, Options, ViewError};

/// Games replayed together at most.
pub const WINDOW_GAMES: usize = 512;
/// Games replayed together at most with a single replay thread: the
/// reading thread replays them itself, a few at a time, while their text,
/// tokens and reports are still in its caches.
pub const WINDOW_GAMES_ONE_THREAD: usize = 32;

/// Whether games are replayed on the reading thread: there is one replay
/// thread, so handing windows to it would only wait for it.
fn replays_on_reading_thread() -> bool {
    rayon::current_num_threads() <= 1
}

/// How many games a window holds: [`WINDOW_GAMES`], or
/// [`WINDOW_GAMES_ONE_THREAD`] when the reading thread replays them.
fn window_games() -> usize {
    if replays_on_reading_thread() {
        WINDOW_GAMES_ONE_THREAD
    } else {
        WINDOW_GAMES
    }
}

/// Bytes of game text replayed together at most (a larger game goes alone).
pub const WINDOW_BYTES: usize = 4 * 1024 * 1024;

/// A path that could not be read, or a problem that ended a file early.
#[derive(Clone, Debug)]
pub struct FileError {
    pub file: String,
    pub message: String,
    /// A code of the contract, when one applies (`record::no_games`).
    pub code: Option<&'static str>,
}

impl FileError {
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> FileError {
        FileError {
            file: file.into(),
            message: message.into(),
            code: None,
        }
    }
}

/// What the pipeline hands its sink, in input order.
pub enum Event<'g> {
    /// A game, its report, and what the sink's [`Prepare`] made of them.
    Game(&'g SourceGame, &'g GameReport, &'g str),
    /// A file that could not be read, or that ended early.
    FileError(&'g FileError),
    /// A directory entry that is not a regular file (a FIFO, a socket, a
    /// device): skipped, with a warning.
    Skipped(&'g FileError),
}

/// How directories are searched (as ripgrep does): hidden entries and what
/// `.gitignore` (in a git repository), `.ignore` and `.git/info/exclude`
/// exclude are skipped unless asked for; `--glob` patterns (relative to the
/// directory searched, `!` to exclude) narrow the files read.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ScanArgs {
    /// Search hidden files and directories too.
    #[arg(long)]
    pub hidden: bool,
    /// Read files that `.gitignore`/`.ignore` files exclude.
    #[arg(long)]
    pub no_ignore: bool,
    /// Only files matching this glob (repeatable; `!GLOB` excludes), in
    /// directory scans.
    #[arg(long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// As `--glob`, matched without regard to case (`--iglob '*.wtb'`
    /// reads `WTH_2001.WTB`).
    #[arg(long = "iglob", value_name = "GLOB")]
    pub iglobs: Vec<String>,
}

/// The files the path arguments name, with the entries skipped and the
/// directories that could not be read.
pub struct Expanded {
    pub files: Vec<String>,
    pub errors: Vec<FileError>,
    pub skipped: Vec<FileError>,
}

/// Expands the path arguments to the files they name. A file named on the
/// command line is always read; a directory scan reads the files whose
/// extension names a format gamerec reads, and the general extensions
/// (`.txt`, `.csv`, `.pgn`) only when their content is such a record.
pub fn expand(paths: &[String], scan: &ScanArgs) -> Expanded {
    let mut out = Expanded {
        files: Vec::new(),
        errors: Vec::new(),
        skipped: Vec::new(),
    };
    for p in paths {
        if p == "-" || !Path::new(p).is_dir() {
            out.files.push(p.clone());
            continue;
        }
        walk(p, scan, &mut out);
    }
    out
}

/// A directory walker with the filters asked for: hidden entries,
/// ignore files, the `--glob`/`--iglob` patterns.
fn walker(
    dir: &str,
    scan: &ScanArgs,
    skip_hidden: bool,
    use_ignore: bool,
    use_globs: bool,
) -> Result<ignore::Walk, FileError> {
    let mut overrides = ignore::overrides::OverrideBuilder::new(dir);
    if use_globs {
        let bad =
            |g: &String, e: ignore::Error| FileError::new(g.clone(), format!("bad --glob: {e}"));
        for g in &scan.globs {
            overrides.add(g).map_err(|e| bad(g, e))?;
        }
        // as in ripgrep: the patterns added after this match without case
        overrides
            .case_insensitive(true)
            .map_err(|e| FileError::new(dir, format!("bad --iglob: {e}")))?;
        for g in &scan.iglobs {
            overrides.add(g).map_err(|e| bad(g, e))?;
        }
    }
    let overrides = overrides
        .build()
        .map_err(|e| FileError::new(dir, format!("bad --glob: {e}")))?;
    Ok(ignore::WalkBuilder::new(dir)
        .hidden(skip_hidden)
        .ignore(use_ignore)
        .git_ignore(use_ignore)
        .git_exclude(use_ignore)
        .git_global(use_ignore)
        .parents(use_ignore)
        .overrides(overrides)
        .sort_by_file_path(|a, b| a.cmp(b))
        .build())
}

/// Whether a scan reads files with this name's extension.
fn scanned(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        Format::scanned_extensions()
            .iter()
            .any(|x| x.eq_ignore_ascii_case(e))
    })
}

fn walk(dir: &str, scan: &ScanArgs, out: &mut Expanded) {
    let walker = match walker(dir, scan, !scan.hidden, !scan.no_ignore, true) {
        Ok(w) => w,
        Err(e) => {
            out.errors.push(e);
            return;
        }
    };
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.errors
                    .push(FileError::new(dir, format!("cannot read: {e}")));
                continue;
            }
        };
        let path = entry.path();
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            continue;
        }
        let name = path.to_string_lossy().into_owned();
        if !scanned(path) {
            continue;
        }
        // what a link points to counts; only regular files are read
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => {
                if formats::detect::is_general(&name) && !holds_a_record(path) {
                    continue;
                }
                out.files.push(name);
            }
            Ok(m) if m.is_dir() => {}
            Ok(m) => out.skipped.push(FileError::new(
                name,
                format!("skipped: not a regular file ({})", kind_of(&m)),
            )),
            Err(e) => out
                .errors
                .push(FileError::new(name, format!("cannot read: {e}"))),
        }
    }
}

/// The files a walker yields.
fn files_of(w: Result<ignore::Walk, FileError>) -> std::collections::BTreeSet<std::path::PathBuf> {
    w.into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_type().is_some_and(|t| t.is_dir()))
        .map(|e| e.into_path())
        .collect()
}

/// What a run that read no game looked at, for its `no games found` error:
/// each path, and for a directory how many files it holds and why each was
/// skipped (hidden, ignored by an ignore file, unmatched by the globs, an
/// extension gamerec does not read, a general extension without a record).
/// Walks the directories again: only for a run without games.
pub fn explain_empty(paths: &[String], scan: &ScanArgs) -> String {
    let mut parts = Vec::new();
    for p in paths {
        if p == "-" {
            parts.push("standard input holds no game".to_string());
            continue;
        }
        if !Path::new(p).is_dir() {
            parts.push(format!("{p} holds no game"));
            continue;
        }
        let all = files_of(walker(p, scan, false, false, false));
        let shown = files_of(walker(p, scan, !scan.hidden, false, false));
        let kept = files_of(walker(p, scan, !scan.hidden, !scan.no_ignore, false));
        let matched = files_of(walker(p, scan, !scan.hidden, !scan.no_ignore, true));
        let globs = !scan.globs.is_empty() || !scan.iglobs.is_empty();
        let (mut hidden, mut ignored, mut unmatched, mut general, mut read) = (0, 0, 0, 0, 0);
        let mut unknown: Vec<String> = Vec::new();
        let mut unknown_count = 0;
        for f in &all {
            if !shown.contains(f) {
                hidden += 1;
            } else if !matched.contains(f) {
                if kept.contains(f) && globs {
                    unmatched += 1;
                } else {
                    ignored += 1;
                }
            } else if !scanned(f) {
                unknown_count += 1;
                let ext = f
                    .extension()
                    .map(|e| format!(".{}", e.to_string_lossy()))
                    .unwrap_or_else(|| "no extension".into());
                if !unknown.contains(&ext) {
                    unknown.push(ext);
                }
            } else if formats::detect::is_general(&f.to_string_lossy()) && !holds_a_record(f) {
                general += 1;
            } else {
                read += 1;
            }
        }
        let mut skipped = Vec::new();
        if hidden > 0 {
            skipped.push(format!("{hidden} hidden (--hidden reads them)"));
        }
        if ignored > 0 {
            skipped.push(format!(
                "{ignored} excluded by .gitignore/.ignore (--no-ignore reads them)"
            ));
        }
        if unmatched > 0 {
            let mut globs: Vec<String> =
                scan.globs.iter().map(|g| format!("--glob '{g}'")).collect();
            globs.extend(scan.iglobs.iter().map(|g| format!("--iglob '{g}'")));
            let hint = if scan.iglobs.is_empty() {
                " (--iglob matches without regard to case)"
            } else {
                ""
            };
            skipped.push(format!(
                "{unmatched} not matching {}{hint}",
                globs.join(" ")
            ));
        }
        if unknown_count > 0 {
            unknown.truncate(8);
            skipped.push(format!(
                "{unknown_count} with an extension gamerec does not read ({})",
                unknown.join(", ")
            ));
        }
        if general > 0 {
            skipped.push(format!("{general} .txt/.csv/.pgn without a record in them"));
        }
        let mut files = crate::diag::plural(all.len(), "file", "files");
        if read > 0 {
            files.push_str(&format!(" ({read} read, without games)"));
        }
        if skipped.is_empty() {
            parts.push(format!("scanned {p}: {files}"));
        } else {
            parts.push(format!(
                "scanned {p}: {files}, skipped {}",
                skipped.join(", ")
            ));
        }
    }
    format!("no games found: {}", parts.join("; "))
}

/// Whether a file's first bytes are a record of a format gamerec reads
/// (for the general extensions in a scan).
fn holds_a_record(path: &Path) -> bool {
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| f.take(crate::source::BLOCK as u64).read_to_end(&mut head));
    read.is_ok() && formats::detect::sniff(&String::from_utf8_lossy(&head)).is_some()
}

/// What a file that is not a regular file is.
fn kind_of(m: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    let _ = m;
    "not a file"
}

/// Opens one path: standard input for `-`.
pub fn open<'a>(
    file: &str,
    stdin: Option<&'a mut dyn Read>,
    opts: &ReadOptions,
) -> Result<(Format, formats::Games<'a>), FileError> {
    let reader: Box<dyn Read + 'a> = if file == "-" {
        match stdin {
            Some(s) => Box::new(s),
            None => {
                return Err(FileError::new("-", "standard input given twice"));
            }
        }
    } else {
        match std::fs::File::open(file) {
            Ok(f) if f.metadata().is_ok_and(|m| m.is_dir()) => {
                return Err(FileError::new(file, "cannot read: Is a directory"));
            }
            Ok(f) => Box::new(f),
            Err(e) => {
                return Err(FileError::new(file, format!("cannot read: {e}")));
            }
        }
    };
    let reader =
        check_bytes(file, reader, opts).map_err(|message| FileError::new(file, message))?;
    formats::open(file, reader, opts).map_err(|message| FileError::new(file, message))
}

/// Compressed data, by its magic bytes.
fn compressed(head: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 5] = [
        (b"\x1f\x8b", "gzip"),
        (b"BZh", "bzip2"),
        (b"\xfd7zXZ\x00", "xz"),
        (b"\x28\xb5\x2f\xfd", "zstd"),
        (b"PK\x03\x04", "zip"),
    ];
    MAGIC
        .iter()
        .find(|(m, _)| head.starts_with(m))
        .map(|&(_, name)| name)
}

/// The bytes checked before any reader parses them (spec §1: input is
/// UTF-8), so that wrong bytes get one clear error with the fix instead of
/// a parse error: compressed data; binary data on standard input (a WTHOR
/// file wants `--from wthor`); a text file's first block that is not UTF-8
/// (line and column of the first bad byte; `--encoding latin1`). With
/// `--encoding latin1` a text file is decoded from ISO-8859-1 here. Binary
/// WTHOR files and Pentobi files (which name their own charset) are left
/// to their readers. Only the first block (64 KiB) is checked here; a bad
/// byte further on is still the reader's error.
fn check_bytes<'a>(
    file: &str,
    mut reader: Box<dyn Read + 'a>,
    opts: &ReadOptions,
) -> Result<Box<dyn Read + 'a>, String> {
    let mut head = Vec::new();
    (&mut reader)
        .take(crate::source::BLOCK as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read: {e}"))?;
    if let Some(kind) = compressed(&head) {
        return Err(format!(
            "{kind}-compressed data: compressed input is not supported yet; decompress it first"
        ));
    }
    let whole: Box<dyn Read + 'a> = Box::new(std::io::Cursor::new(head.clone()).chain(reader));
    if formats::is_wthor(file, opts) {
        return Ok(whole);
    }
    let (format, _) = formats::detect::choose(file, &String::from_utf8_lossy(&head), opts.forced);
    if format == Format::Pentobi {
        return Ok(whole);
    }
    if opts.forced.is_none() && head.iter().take(1024).any(|&b| b == 0) {
        let what = if file == "-" {
            "standard input"
        } else {
            "the file"
        };
        return Err(format!(
            "binary data, not a text record, in {what}: for a WTHOR database file pass --from wthor"
        ));
    }
    if opts.latin1 {
        return Ok(Box::new(Latin1(whole, Vec::new())));
    }
    if let Err(e) = std::str::from_utf8(&head) {
        // a character cut at the end of the block is not an error
        if e.error_len().is_some() {
            let good = head.get(..e.valid_up_to()).unwrap_or_default();
            let text = String::from_utf8_lossy(good);
            let line = text.matches('\n').count() + 1;
            let start = text.rfind('\n').map_or(0, |i| i + 1);
            let column = text
                .get(start..)
                .unwrap_or_default()
                .trim_start_matches('\u{feff}')
                .chars()
                .count()
                + 1;
            let byte = head.get(e.valid_up_to()).copied().unwrap_or_default();
            return Err(format!(
                "not UTF-8 text: byte 0x{byte:02X} at line {line}, column {column} is not UTF-8; \
                 for a Latin-1 (ISO-8859-1) file pass --encoding latin1"
            ));
        }
    }
    Ok(whole)
}

/// A reader of ISO-8859-1 bytes giving UTF-8: each byte is the character
/// of its code (spans then count the decoded bytes).
struct Latin1<R>(R, Vec<u8>);

impl<R: Read> Read for Latin1<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.1.is_empty() {
            let mut raw = vec![0u8; out.len().clamp(1, 32 * 1024)];
            let n = self.0.read(&mut raw)?;
            if n == 0 {
                return Ok(0);
            }
            let text: String = raw.iter().take(n).map(|&b| char::from(b)).collect();
            self.1 = text.into_bytes();
            self.1.reverse();
        }
        let mut n = 0;
        while n < out.len() {
            match self.1.pop() {
                Some(b) => {
                    if let Some(slot) = out.get_mut(n) {
                        *slot = b;
                    }
                    n += 1;
                }
                None => break,
            }
        }
        Ok(n)
    }
}

/// A window entry waiting for its turn.
enum Pending {
    Game(Box<SourceGame>),
    FileError(FileError),
    Skipped(FileError),
}

/// Runs the pipeline over the paths; `sink` sees every event in input order.
/// Stops at the first error the sink returns (a write error) and returns it.
/// `prepare`, when given, turns each game's report into text in the replay
/// step, in parallel (rendering diagnostics costs more than replaying).
pub fn run(
    stdin: &mut dyn Read,
    paths: &[String],
    scan: &ScanArgs,
    read_opts: &ReadOptions,
    opts: &Options,
    prepare: Option<Prepare>,
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<()> {
    let mut window: Vec<Pending> = Vec::new();
    // one report per window place, reused window after window
    let mut reports: Vec<(GameReport, String)> = Vec::new();
    let window_games = window_games();
    let mut bytes = 0;
    let expanded = expand(paths, scan);
    window.extend(expanded.skipped.iter().cloned().map(Pending::Skipped));
    read(stdin, &expanded, read_opts, &mut |item| {
        match item {
            Ok(g) => {
                bytes += g.text.len() + 256;
                window.push(Pending::Game(g));
                if window.len() >= window_games || bytes >= WINDOW_BYTES {
                    flush(&mut window, &mut reports, opts, prepare, sink)?;
                    bytes = 0;
                }
            }
            Err(e) => window.push(Pending::FileError(e)),
        }
        Ok(())
    })?;
    flush(&mut window, &mut reports, opts, prepare, sink)
}

/// Reads every game of the paths in order, without replaying them, for
/// commands that replay in their own way (`html`, `score --plot`): `f` sees
/// each game (or a file's error) once.
pub fn each_game(
    stdin: &mut dyn Read,
    paths: &[String],
    scan: &ScanArgs,
    read_opts: &ReadOptions,
    f: &mut dyn FnMut(Result<SourceGame, FileError>),
) {
    let expanded = expand(paths, scan);
    let _ = read(stdin, &expanded, read_opts, &mut |item| {
        f(item.map(|g| *g));
        Ok(())
    });
}

/// The read step: the scan's errors, then every file's games (or its
/// error) in order; stops at the first error `f` returns.
fn read(
    stdin: &mut dyn Read,
    expanded: &Expanded,
    read_opts: &ReadOptions,
    f: &mut dyn FnMut(Result<Box<SourceGame>, FileError>) -> io::Result<()>,
) -> io::Result<()> {
    for e in &expanded.errors {
        f(Err(e.clone()))?;
    }
    let mut stdin = Some(stdin);
    for file in &expanded.files {
        let input = if file == "-" {
            open(file, stdin.take(), read_opts)
        } else {
            open(file, None, read_opts)
        };
        let games = match input {
            Ok((_, games)) => games,
            Err(e) => {
                f(Err(e))?;
                continue;
            }
        };
        for g in games {
            f(g.map_err(|e| FileError {
                file: file.clone(),
                message: e.message,
                code: e.code,
            }))?;
        }
    }
    Ok(())
}

/// What a sink makes of a game in the replay step (in parallel).
/// It may change the report first (`--allow`, `--deny`).
pub type Prepare<'a> = &'a (dyn Fn(&SourceGame, &mut GameReport) -> String + Sync);

/// Replays the window in parallel and hands it to the sink in order. Each
/// game's report goes into `reports` at its place in the window: the
/// reports of the window before, whose room is reused.
fn flush(
    window: &mut Vec<Pending>,
    reports: &mut Vec<(GameReport, String)>,
    opts: &Options,
    prepare: Option<Prepare>,
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<()> {
    if reports.len() < window.len() {
        reports.resize_with(window.len(), Default::default);
    }
    let replay = |(p, (report, text)): (&mut Pending, &mut (GameReport, String))| {
        if let Pending::Game(g) = p {
            g.replay_into(opts, report);
            *text = prepare.map(|f| f(g, report)).unwrap_or_default();
        }
    };
    if replays_on_reading_thread() {
        window.iter_mut().zip(reports.iter_mut()).for_each(replay);
    } else {
        window
            .par_iter_mut()
            .zip(reports.par_iter_mut())
            .for_each(replay);
    }
    // the reports are read in place, not moved out
    for (p, (r, text)) in window.drain(..).zip(reports.iter()) {
        match p {
            Pending::Game(g) => {
                sink(Event::Game(&g, r, text))?;
                // the next games read reuse its room
                formats::recycle(g);
            }
            Pending::FileError(e) => sink(Event::FileError(&e))?,
            Pending::Skipped(e) => sink(Event::Skipped(&e))?,
        }
    }
    Ok(())
}

/// Which position `show` and `moves` look at.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// A file or `-` for standard input.
    pub path: String,
    /// Which game of the file, counted from 1 (as human output numbers them).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub index: usize,
    /// The position after this many plies (default: the end).
    #[arg(long)]
    pub ply: Option<usize>,
}

/// One game of one path, looked at after a ply: for `show` and `moves`.
/// The file is read up to that game only. `Err(exit code)` when it cannot be
/// (the message is already printed).
pub fn view_one(
    ctx: &mut Ctx,
    at: &PositionArgs,
) -> Result<(SourceGame, crate::replay::View), i32> {
    let (path, number, ply) = (at.path.as_str(), at.index, at.ply);
    let Some(index) = number.checked_sub(1) else {
        return Err(ctx.usage("--index counts games from 1 (the first game is --index 1)"));
    };
    let read_opts = ctx.read_options();
    // the file is read up to the game asked for, no further
    let found: Result<SourceGame, String> = match open(path, Some(&mut *ctx.stdin), &read_opts) {
        Err(e) => Err(format!("{}: {}", e.file, e.message)),
        Ok((_, games)) => {
            let mut n = 0;
            let mut found = None;
            for g in games {
                match g {
                    Ok(g) if n == index => {
                        found = Some(Ok(*g));
                        break;
                    }
                    Ok(_) => n += 1,
                    Err(e) => {
                        found = Some(Err(format!("{path}: {e}")));
                        break;
                    }
                }
            }
            found.unwrap_or_else(|| {
                Err(format!(
                    "{path} holds {}; --index {number} is out of range",
                    crate::diag::plural(n, "game", "games")
                ))
            })
        }
    };
    let mut source = match found {
        Ok(g) => g,
        Err(message) => return Err(ctx.usage(&message)),
    };
    source.materialize();
    let opts = Options {
        game: ctx.settings.game.clone(),
        ..Options::default()
    };
    let game = match crate::registry::resolve_in(&source.raw, &source.text, &opts) {
        Ok((g, _)) => g,
        Err(report) => {
            super::diagnostics::print_game(ctx, &source, &report);
            return Err(super::EXIT_INVALID);
        }
    };
    match game.view(
        &source.raw,
        &source.text,
        &opts,
        ply,
        ctx.settings.color_out,
    ) {
        Ok(view) => {
            super::diagnostics::print_game(ctx, &source, &view.report);
            Ok((source, view))
        }
        // No start position (a rules tag failed): an invalid game, exit 1.
        Err(ViewError::NotSetUp(report)) => {
            super::diagnostics::print_game(ctx, &source, &report);
            Err(super::EXIT_INVALID)
        }
        Err(ViewError::PastEnd(plies)) => Err(ctx.usage(&format!(
            "--ply {} is past the end of the game ({})",
            ply.unwrap_or_default(),
            crate::diag::plural(plies, "ply", "plies")
        ))),
    }
}
