//! The pipeline every command runs: **read → games → replay → sink**.
//!
//! - read: the path arguments become files (directories searched
//!   recursively, in sorted order, for the extensions gamerec reads; `-` is
//!   standard input), and each file is opened by its format's reader
//!   ([`formats::open`]), which yields one game at a time;
//! - games: games are gathered into a bounded window ([`WINDOW_GAMES`]
//!   games or [`WINDOW_BYTES`] bytes of text, whichever comes first);
//! - replay: the window is replayed in parallel (rayon, driven from a
//!   thread of its own) while the reading thread reads the next window and
//!   hands the one before to the sink: reading (decompression and parsing
//!   included) overlaps replay, and two windows are in memory at most. With
//!   a single replay thread (`RAYON_NUM_THREADS=1`, a one-core machine) the
//!   reading thread replays small windows ([`WINDOW_GAMES_ONE_THREAD`])
//!   itself: no hand-off to a worker, and a window's text, tokens and
//!   reports are still in its caches when they are replayed and written;
//! - sink: the reports go to the command's sink in input order; each window
//!   place keeps its report for the next window's game there (its room is
//!   reused, a large game's let go: `GameReport::reset`), and each game's
//!   box goes back to the reader's pool (`formats::recycle`).
//!
//! Memory is bounded by two windows (and the largest single game), whatever
//! the number or size of the inputs; nothing is kept past its output but the
//! sink's counts and the reused room.
//!
//! The path arguments' expansion (directory scans, ignore files, globs) is
//! the command line's (`cli/inputs.rs`); this module starts from the files
//! it found ([`Expanded`]): a library user names the files themselves.

pub mod dedup;
pub mod json;
mod open;
mod summary;
pub mod stats;

use std::io::{self, Read};

use rayon::prelude::*;

use crate::formats::{self, ReadOptions, SourceGame};
use crate::replay::{GameReport, Options};

pub use crate::filter::{Filter, FilterArgs, FilterError, Glob, Range, TagTest};
pub use open::open;
pub use summary::{Summary, Tally};

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
    /// A game the run's filter leaves out ([`ReadOptions::filter`]): counted
    /// (`N skipped`), never written.
    Filtered(&'g SourceGame),
}

/// The files the path arguments name, with the entries skipped and the
/// directories that could not be read.
#[derive(Clone, Debug, Default)]
pub struct Expanded {
    pub files: Vec<String>,
    pub errors: Vec<FileError>,
    pub skipped: Vec<FileError>,
}

/// A window entry waiting for its turn.
enum Pending {
    Game(Box<SourceGame>),
    /// Left out by the filter's tests on tags, not replayed.
    Filtered(Box<SourceGame>),
    FileError(FileError),
    Skipped(FileError),
}

/// Runs the pipeline over the files; `sink` sees every event in input order
/// (the scan's skipped entries and errors first).
/// Stops at the first error the sink returns (a write error) and returns it.
/// `prepare`, when given, turns each game's report into text in the replay
/// step, in parallel (rendering diagnostics costs more than replaying).
pub fn run(
    stdin: &mut dyn Read,
    expanded: &Expanded,
    read_opts: &ReadOptions,
    opts: &Options,
    prepare: Option<Prepare>,
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<()> {
    let filter = read_opts.filter.as_deref();
    let ctx = (opts, filter);
    if replays_on_reading_thread() {
        let mut hand = |window: &mut Vec<Pending>, reports: &mut Vec<Place>| {
            replay_window(window, reports, ctx, prepare);
            sink_window(window, reports, sink)
        };
        return gather(stdin, expanded, read_opts, &mut hand);
    }
    // Several replay threads: a window is replayed on the pool (driven
    // from a thread of its own) while the reading thread reads the next one
    // and hands the one before to the sink; two windows in memory at most.
    let (to_replay, windows) = std::sync::mpsc::sync_channel::<Window>(0);
    let (to_sink, replayed) = std::sync::mpsc::sync_channel::<Window>(1);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for (mut window, mut reports) in windows {
                replay_window(&mut window, &mut reports, ctx, prepare);
                if to_sink.send((window, reports)).is_err() {
                    break;
                }
            }
        });
        let mut in_flight = false;
        let mut hand = |window: &mut Vec<Pending>, reports: &mut Vec<Place>| {
            let full = (std::mem::take(window), std::mem::take(reports));
            let before = if in_flight { replayed.recv().ok() } else { None };
            in_flight = to_replay.send(full).is_ok();
            if let Some((mut w, r)) = before {
                sink_window(&mut w, &r, sink)?;
                // the emptied window and its reports' room are the next
                (*window, *reports) = (w, r);
            }
            Ok(())
        };
        let read = gather(stdin, expanded, read_opts, &mut hand);
        let last = if in_flight { replayed.recv().ok() } else { None };
        // the replay thread ends when it has nothing more to receive
        drop(to_replay);
        read?;
        match last {
            Some((mut w, r)) => sink_window(&mut w, &r, sink),
            None => Ok(()),
        }
    })
}

/// What [`gather`] hands each full window to (with its reports' room).
type Hand<'h> = dyn FnMut(&mut Vec<Pending>, &mut Vec<Place>) -> io::Result<()> + 'h;

/// The read and games steps: every file's games (and errors) gathered into
/// windows, each handed to `hand` when full and the last at the end; `hand`
/// leaves the window empty and `reports` as the room for the next one.
fn gather(
    stdin: &mut dyn Read,
    expanded: &Expanded,
    read_opts: &ReadOptions,
    hand: &mut Hand,
) -> io::Result<()> {
    let mut window: Vec<Pending> = Vec::new();
    // one report per window place, reused window after window
    let mut reports: Vec<Place> = Vec::new();
    let window_games = window_games();
    let mut bytes = 0;
    let mut last_shared = None;
    let filter = read_opts.filter.as_deref();
    window.extend(expanded.skipped.iter().cloned().map(Pending::Skipped));
    read(stdin, expanded, read_opts, &mut |item| {
        match item {
            Ok(g) => {
                // a text shared by consecutive games (the lines of a
                // Pentobi tree) is held once
                let (key, held) = g.text.held();
                if key.is_none() || key != last_shared {
                    bytes += held;
                }
                last_shared = key;
                bytes += 256;
                window.push(if keeps_tags(filter, &g) {
                    Pending::Game(g)
                } else {
                    Pending::Filtered(g)
                });
                if window.len() >= window_games || bytes >= WINDOW_BYTES {
                    hand(&mut window, &mut reports)?;
                    bytes = 0;
                    last_shared = None;
                }
            }
            Err(e) => window.push(Pending::FileError(e)),
        }
        Ok(())
    })?;
    hand(&mut window, &mut reports)
}

/// A window in flight between the reading thread and the replay thread.
type Window = (Vec<Pending>, Vec<Place>);

/// A window place's report, the sink's text of it, and whether the filter
/// keeps it.
type Place = (GameReport, String, bool);

/// The filter's tests on a game's tags (a WTHOR record's tags written for
/// them, the record kept for the packed replay); without a filter, every
/// game is kept.
fn keeps_tags(filter: Option<&Filter>, g: &SourceGame) -> bool {
    match (filter, &g.record) {
        (Some(f), Some(rec)) if f.tests_tags() => f.keeps_tags(&rec.write().1.tags),
        (Some(f), None) if f.tests_tags() => f.keeps_tags(&g.raw.tags),
        _ => true,
    }
}

/// Reads every game of the files in order, without replaying them, for
/// commands that replay in their own way (`score --plot`; `html` through
/// [`each_game_mapped`]): `f` sees each game (or a file's error) once. The
/// filter's tests on tags are applied ([`Filter::keeps_tags`]; those on
/// reports are the command's, [`Filter::keeps_report`]); returns how many
/// games they left out.
pub fn each_game(
    stdin: &mut dyn Read,
    expanded: &Expanded,
    read_opts: &ReadOptions,
    f: &mut dyn FnMut(Result<SourceGame, FileError>),
) -> usize {
    let filter = read_opts.filter.as_deref();
    let mut left_out = 0;
    let _ = read(stdin, expanded, read_opts, &mut |item| {
        match item {
            Ok(g) => {
                if keeps_tags(filter, &g) {
                    f(Ok(*g));
                } else {
                    left_out += 1;
                }
            }
            Err(e) => f(Err(e)),
        }
        Ok(())
    });
    left_out
}

/// Games mapped together at most by [`each_game_mapped`] (with at most
/// [`WINDOW_BYTES`] of their text).
pub const MAP_WINDOW_GAMES: usize = 64;

/// As [`each_game`], with `map` run on each game on the replay threads, a
/// window of games at a time ([`MAP_WINDOW_GAMES`] or [`WINDOW_BYTES`] of
/// text, whichever comes first), and `f` seeing the results, and the files'
/// errors, in input order. As in [`run`], a window is mapped on the pool
/// (driven from a thread of its own) while the reading thread reads the
/// next one and hands the one before to `f`, so `f`'s own work (writing)
/// overlaps the mapping; with one replay thread each game is mapped on the
/// reading thread as it is read. For commands whose work per game is their
/// own (`html` encodes every position): memory is two windows of games and
/// of their results.
pub fn each_game_mapped<T: Send>(
    stdin: &mut dyn Read,
    expanded: &Expanded,
    read_opts: &ReadOptions,
    map: &(dyn Fn(SourceGame) -> T + Sync),
    f: &mut dyn FnMut(Result<T, FileError>),
) -> usize {
    if replays_on_reading_thread() {
        return each_game(stdin, expanded, read_opts, &mut |g| f(g.map(map)));
    }
    type Games = Vec<Result<SourceGame, FileError>>;
    let (to_map, windows) = std::sync::mpsc::sync_channel::<Games>(0);
    let (to_f, mapped) = std::sync::mpsc::sync_channel::<Vec<Result<_, FileError>>>(1);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for window in windows {
                let done: Vec<Result<T, FileError>> =
                    window.into_par_iter().map(|g| g.map(map)).collect();
                if to_f.send(done).is_err() {
                    break;
                }
            }
        });
        let mut in_flight = false;
        // the full window sent to be mapped, the one before given to `f`
        let mut hand = |window: Games, f: &mut dyn FnMut(Result<T, FileError>)| {
            let before = if in_flight { mapped.recv().ok() } else { None };
            in_flight = to_map.send(window).is_ok();
            before.into_iter().flatten().for_each(f);
        };
        let mut window: Games = Vec::new();
        let mut bytes = 0;
        let left_out = each_game(stdin, expanded, read_opts, &mut |g| {
            if let Ok(g) = &g {
                bytes += g.text.held().1 + 256;
            }
            window.push(g);
            if window.len() >= MAP_WINDOW_GAMES || bytes >= WINDOW_BYTES {
                hand(std::mem::take(&mut window), f);
                bytes = 0;
            }
        });
        hand(window, f);
        if in_flight {
            mapped.recv().into_iter().flatten().for_each(&mut *f);
        }
        // the mapping thread ends when it has nothing more to receive
        drop(to_map);
        left_out
    })
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

/// Replays the window (in parallel, unless the reading thread replays).
/// Each game's report goes into `reports` at its place in the window: the
/// reports of the window before, whose room is reused.
/// The filter's tests on reports come after `prepare` (`--deny` may make
/// a game invalid).
fn replay_window(
    window: &mut [Pending],
    reports: &mut Vec<Place>,
    (opts, filter): (&Options, Option<&Filter>),
    prepare: Option<Prepare>,
) {
    if reports.len() < window.len() {
        reports.resize_with(window.len(), Default::default);
    }
    let replay = |(p, (report, text, kept)): (&mut Pending, &mut Place)| {
        if let Pending::Game(g) = p {
            g.replay_into(opts, report);
            *text = prepare.map(|f| f(g, report)).unwrap_or_default();
            *kept = filter.is_none_or(|f| f.keeps_report(report));
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
}

/// Hands a replayed window to the sink in order, emptying it; each game's
/// box goes back to the reader's pool.
fn sink_window(
    window: &mut Vec<Pending>,
    reports: &[Place],
    sink: &mut dyn FnMut(Event) -> io::Result<()>,
) -> io::Result<()> {
    // the reports are read in place, not moved out
    for (p, (r, text, kept)) in window.drain(..).zip(reports.iter()) {
        match p {
            Pending::Game(g) => {
                if *kept {
                    sink(Event::Game(&g, r, text))?;
                } else {
                    sink(Event::Filtered(&g))?;
                }
                // the next games read reuse its room
                formats::recycle(g);
            }
            Pending::Filtered(g) => {
                sink(Event::Filtered(&g))?;
                formats::recycle(g);
            }
            Pending::FileError(e) => sink(Event::FileError(&e))?,
            Pending::Skipped(e) => sink(Event::Skipped(&e))?,
        }
    }
    Ok(())
}
