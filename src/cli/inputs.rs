//! Turning path arguments into inputs: files, directories (searched
//! recursively, in sorted order, for the extensions gamerec reads) and `-`.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::Ctx;
use crate::formats::{self, Format, Input};
use crate::replay::{GameReport, Options, ViewError};

/// A path that could not be read.
#[derive(Clone, Debug)]
pub struct FileError {
    pub file: String,
    pub message: String,
}

/// Expands the path arguments to the files they name.
pub fn expand(paths: &[String]) -> (Vec<String>, Vec<FileError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p == "-" {
            files.push(p.clone());
            continue;
        }
        let path = Path::new(p);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found, &mut errors);
            found.sort();
            files.extend(found.into_iter().map(|f| f.to_string_lossy().into_owned()));
        } else {
            files.push(p.clone());
        }
    }
    (files, errors)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, errors: &mut Vec<FileError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(FileError {
                file: dir.to_string_lossy().into_owned(),
                message: format!("cannot read directory: {e}"),
            });
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&path, found, errors);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            Format::scanned_extensions()
                .iter()
                .any(|x| x.eq_ignore_ascii_case(e))
        }) {
            found.push(path);
        }
    }
}

/// Reads one file (or standard input for `-`).
pub fn load(ctx: &mut Ctx, file: &str) -> Result<Input, FileError> {
    let bytes = if file == "-" {
        let mut buf = Vec::new();
        ctx.stdin.read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(file)
    };
    let bytes = bytes.map_err(|e| FileError {
        file: file.to_string(),
        message: format!("cannot read: {e}"),
    })?;
    formats::read_with(file, bytes, &ctx.read_options()).map_err(|message| FileError {
        file: file.to_string(),
        message,
    })
}

/// Loads and replays every game of every path, files in parallel.
pub fn replay_paths(
    ctx: &mut Ctx,
    paths: &[String],
    opts: &Options,
) -> (Vec<(Input, Vec<GameReport>)>, Vec<FileError>) {
    let (files, mut errors) = expand(paths);
    let read_opts = ctx.read_options();
    // Standard input is read here, on this thread; files are read in parallel.
    let mut stdin_input = None;
    if files.iter().any(|f| f == "-") {
        stdin_input = Some(load(ctx, "-"));
    }
    // Each file is read and replayed in one go, and its container games are
    // dropped once replayed (the reports keep what the output needs), so a
    // large database is never held twice in memory.
    // WTHOR files are read and replayed in one pass from their bytes
    let fast_wthor = opts.game.is_none() && !opts.record_moves;
    let replay_input = |mut input: Input| -> (Input, Vec<GameReport>) {
        let fast = input.format == Format::Wthor && opts.game.is_none() && !opts.record_moves;
        let reports = input
            .games
            .par_iter()
            .map(|g| {
                // WTHOR's common case without the generic driver (same report)
                fast.then(|| formats::wthor::fast_report(g, &input.text, opts))
                    .flatten()
                    .unwrap_or_else(|| crate::replay::replay(g, &input.text, opts))
            })
            .collect();
        input.games = Vec::new();
        (input, reports)
    };
    let done: Vec<Result<(Input, Vec<GameReport>), FileError>> = files
        .par_iter()
        .map(|f| {
            if f == "-" {
                return Err(FileError {
                    file: "-".into(),
                    message: String::new(),
                });
            }
            let bytes = std::fs::read(f).map_err(|e| FileError {
                file: f.clone(),
                message: format!("cannot read: {e}"),
            })?;
            let read = if fast_wthor && formats::is_wthor(f, &read_opts) {
                formats::read_and_replay_wthor(f, &bytes, &read_opts, opts)
            } else {
                formats::read_with(f, bytes, &read_opts).map(replay_input)
            };
            read.map_err(|message| FileError {
                file: f.clone(),
                message,
            })
        })
        .collect();
    let mut results = Vec::new();
    for (f, r) in files.iter().zip(done) {
        let r = if f == "-" {
            match stdin_input.clone() {
                Some(Ok(input)) => Ok(replay_input(input)),
                Some(Err(e)) => Err(e),
                None => Err(FileError {
                    file: "-".into(),
                    message: "standard input given twice".into(),
                }),
            }
        } else {
            r
        };
        match r {
            Ok(x) => results.push(x),
            Err(e) => errors.push(e),
        }
    }
    (results, errors)
}

/// Which position `show` and `moves` look at.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// A file or `-` for standard input.
    pub path: String,
    /// Which game of the file (from 0).
    #[arg(long, default_value_t = 0)]
    pub index: usize,
    /// The position after this many plies (default: the end).
    #[arg(long)]
    pub ply: Option<usize>,
}

/// One game of one path, looked at after a ply: for `show` and `moves`.
/// `Err(exit code)` when it cannot be (the message is already printed).
pub fn view_one(ctx: &mut Ctx, at: &PositionArgs) -> Result<(Input, crate::replay::View), i32> {
    let (path, index, ply) = (at.path.as_str(), at.index, at.ply);
    let input = match load(ctx, path) {
        Ok(i) => i,
        Err(e) => return Err(ctx.usage(&format!("{}: {}", e.file, e.message))),
    };
    let Some(raw) = input.games.get(index) else {
        let n = input.games.len();
        return Err(ctx.usage(&format!(
            "{path} holds {n} game{}; --index {index} is out of range",
            if n == 1 { "" } else { "s" }
        )));
    };
    let opts = Options {
        game: ctx.game.clone(),
        ..Options::default()
    };
    let game = match crate::replay::resolve(raw, &opts) {
        Ok((g, _)) => g,
        Err(report) => {
            let lines = crate::span::LineIndex::new(&input.text);
            super::diagnostics::print_game(ctx, &input, &lines, index, &report);
            return Err(super::EXIT_INVALID);
        }
    };
    match game.view(raw, &input.text, &opts, ply, ctx.color_out) {
        Ok(view) => {
            let lines = crate::span::LineIndex::new(&input.text);
            super::diagnostics::print_game(ctx, &input, &lines, index, &view.report);
            Ok((input, view))
        }
        // No start position (a rules tag failed): an invalid game, exit 1.
        Err(ViewError::NotSetUp(report)) => {
            let lines = crate::span::LineIndex::new(&input.text);
            super::diagnostics::print_game(ctx, &input, &lines, index, &report);
            Err(super::EXIT_INVALID)
        }
        Err(ViewError::PastEnd(plies)) => Err(ctx.usage(&format!(
            "--ply {} is past the end of the game ({})",
            ply.unwrap_or_default(),
            crate::diag::plural(plies, "ply", "plies")
        ))),
    }
}
