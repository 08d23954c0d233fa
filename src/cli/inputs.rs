//! The command line's end of the pipeline ([`crate::pipeline`]): the path
//! arguments expanded to files (directory scans with the `ignore` crate, as
//! ripgrep does), what a run without games scanned and skipped, and the one
//! game `show` and `moves` look at.

use std::io::{self, Read, Write};
use std::path::Path;

use super::Ctx;
use crate::formats::{self, Format, ReadOptions, SourceGame};
pub use crate::pipeline::{Event, Expanded, FileError, Prepare, open};
use crate::replay::{Options, ViewError};

/// [`crate::pipeline::run`] over the files the path arguments name.
pub fn run(
    stdin: &mut dyn Read,
    paths: &[String],
    scan: &ScanArgs,
    read_opts: &ReadOptions,
    opts: &Options,
    prepare: Option<Prepare>,
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<()> {
    let expanded = expand(paths, scan);
    crate::pipeline::run(stdin, &expanded, read_opts, opts, prepare, sink)
}

/// [`crate::pipeline::each_game`] over the files the path arguments name:
/// how many games the filter's tests on tags left out.
pub fn each_game(
    stdin: &mut dyn Read,
    paths: &[String],
    scan: &ScanArgs,
    read_opts: &ReadOptions,
    f: &mut dyn FnMut(Result<SourceGame, FileError>),
) -> usize {
    let expanded = expand(paths, scan);
    crate::pipeline::each_game(stdin, &expanded, read_opts, f)
}

/// As [`each_game`], `map` run on the games in parallel, the results in
/// order ([`crate::pipeline::each_game_mapped`]).
pub fn each_game_mapped<T: Send>(
    stdin: &mut dyn Read,
    paths: &[String],
    scan: &ScanArgs,
    read_opts: &ReadOptions,
    map: &(dyn Fn(SourceGame) -> T + Sync),
    f: &mut dyn FnMut(Result<T, FileError>),
) -> usize {
    let expanded = expand(paths, scan);
    crate::pipeline::each_game_mapped(stdin, &expanded, read_opts, map, f)
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

/// Whether a scan reads files with this name's extension, looking through
/// a compression extension (`WTH_1990.wtb.gz` is a `.wtb` file).
fn scanned(path: &Path) -> bool {
    let name = path.to_string_lossy();
    let inner = Path::new(crate::codec::inner_name(&name));
    inner.extension().and_then(|e| e.to_str()).is_some_and(|e| {
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
        } else if !Path::new(p).is_dir() {
            parts.push(format!("{p} holds no game"));
        } else {
            parts.push(explain_dir(p, scan));
        }
    }
    format!("no games found: {}", parts.join("; "))
}

/// What a scan of the directory `p` found: its files, and why those not
/// read were skipped.
fn explain_dir(p: &str, scan: &ScanArgs) -> String {
    let (all, counts) = Skips::count(p, scan);
    let read = counts.read;
    let skipped = counts.reasons(scan);
    let mut files = crate::diag::plural(all, "file", "files");
    if read > 0 {
        files.push_str(&format!(" ({read} read, without games)"));
    }
    if skipped.is_empty() {
        format!("scanned {p}: {files}")
    } else {
        format!("scanned {p}: {files}, skipped {}", skipped.join(", "))
    }
}

/// A directory's files, counted by why a scan skipped them.
#[derive(Default)]
struct Skips {
    hidden: usize,
    ignored: usize,
    unmatched: usize,
    /// Files with a general extension and no record in them.
    general: usize,
    read: usize,
    /// Files with an extension gamerec does not read, and those extensions.
    unknown_count: usize,
    unknown: Vec<String>,
}

impl Skips {
    /// Walks `p` with each of the scan's filters in turn: the number of
    /// files, and the counts.
    fn count(p: &str, scan: &ScanArgs) -> (usize, Skips) {
        let all = files_of(walker(p, scan, false, false, false));
        let shown = files_of(walker(p, scan, !scan.hidden, false, false));
        let kept = files_of(walker(p, scan, !scan.hidden, !scan.no_ignore, false));
        let matched = files_of(walker(p, scan, !scan.hidden, !scan.no_ignore, true));
        let globs = !scan.globs.is_empty() || !scan.iglobs.is_empty();
        let mut n = Skips::default();
        for f in &all {
            if !shown.contains(f) {
                n.hidden += 1;
            } else if !matched.contains(f) {
                if kept.contains(f) && globs {
                    n.unmatched += 1;
                } else {
                    n.ignored += 1;
                }
            } else if !scanned(f) {
                n.unknown_count += 1;
                // a compressed file's inner extension with its own: `.png.gz`
                let name = f.to_string_lossy();
                let inner = Path::new(crate::codec::inner_name(&name));
                let outer = crate::codec::Codec::of_name(&name)
                    .map_or(String::new(), |c| format!(".{}", c.extension()));
                let ext = inner
                    .extension()
                    .map(|e| format!(".{}{outer}", e.to_string_lossy()))
                    .unwrap_or_else(|| {
                        if outer.is_empty() {
                            "no extension".into()
                        } else {
                            outer.clone()
                        }
                    });
                if !n.unknown.contains(&ext) {
                    n.unknown.push(ext);
                }
            } else if formats::detect::is_general(&f.to_string_lossy()) && !holds_a_record(f) {
                n.general += 1;
            } else {
                n.read += 1;
            }
        }
        (all.len(), n)
    }

    /// Why files were skipped, with the option that reads them.
    fn reasons(mut self, scan: &ScanArgs) -> Vec<String> {
        let mut skipped = Vec::new();
        if self.hidden > 0 {
            skipped.push(format!("{} hidden (--hidden reads them)", self.hidden));
        }
        if self.ignored > 0 {
            skipped.push(format!(
                "{} excluded by .gitignore/.ignore (--no-ignore reads them)",
                self.ignored
            ));
        }
        if self.unmatched > 0 {
            let mut globs: Vec<String> =
                scan.globs.iter().map(|g| format!("--glob '{g}'")).collect();
            globs.extend(scan.iglobs.iter().map(|g| format!("--iglob '{g}'")));
            let hint = if scan.iglobs.is_empty() {
                " (--iglob matches without regard to case)"
            } else {
                ""
            };
            skipped.push(format!(
                "{} not matching {}{hint}",
                self.unmatched,
                globs.join(" ")
            ));
        }
        if self.unknown_count > 0 {
            self.unknown.truncate(8);
            skipped.push(format!(
                "{} with an extension gamerec does not read ({})",
                self.unknown_count,
                self.unknown.join(", ")
            ));
        }
        if self.general > 0 {
            skipped.push(format!(
                "{} .txt/.csv/.pgn without a record in them",
                self.general
            ));
        }
        skipped
    }
}

/// Whether a file's first bytes are a record of a format gamerec reads
/// (for the general extensions in a scan). A compressed file's decompressed bytes are looked at.
fn holds_a_record(path: &Path) -> bool {
    crate::codec::head_of(path, crate::source::BLOCK)
        .is_ok_and(|head| formats::detect::sniff(&String::from_utf8_lossy(&head)).is_some())
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
        variant: ctx.settings.variant.clone(),
        ..Options::default()
    };
    source.default_variant(opts.variant.as_deref());
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

/// Says a file event on `err`: a file that could not be read
/// (`error: FILE: MESSAGE`), or, unless `quiet`, an entry skipped
/// (`warning: FILE: MESSAGE`); a game is not said. Whether it was a file
/// error.
pub fn say_file_event(err: &mut dyn Write, event: &Event, quiet: bool) -> io::Result<bool> {
    let (level, e) = match event {
        Event::FileError(e) => ("error", e),
        Event::Skipped(e) if !quiet => ("warning", e),
        _ => return Ok(false),
    };
    writeln!(
        err,
        "{level}: {}: {}",
        super::diagnostics::visible(&e.file),
        super::diagnostics::visible(&e.message)
    )?;
    Ok(matches!(event, Event::FileError(_)))
}

/// A file's error or a skipped entry, said on `err` as the commands that
/// gather them say them (`error: FILE: CODE: message`; a skipped entry a
/// warning, not when quiet) and kept in `file_errors` or `skipped` for the
/// run's summary; other events are left to the caller.
pub fn say_and_keep(
    err: &mut dyn Write,
    event: &Event,
    quiet: bool,
    (file_errors, skipped): (&mut Vec<FileError>, &mut Vec<FileError>),
) -> io::Result<()> {
    use super::diagnostics::visible;
    match event {
        Event::FileError(e) => {
            let code = e.code.map(|c| format!("{c}: ")).unwrap_or_default();
            writeln!(
                err,
                "error: {}: {code}{}",
                visible(&e.file),
                visible(&e.message)
            )?;
            file_errors.push((*e).clone());
        }
        Event::Skipped(e) => {
            if !quiet {
                writeln!(
                    err,
                    "warning: {}: {}",
                    visible(&e.file),
                    visible(&e.message)
                )?;
            }
            skipped.push((*e).clone());
        }
        _ => {}
    }
    Ok(())
}
