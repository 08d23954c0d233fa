//! `gamerec fix PATH... (-o DIR | --in-place | --dry-run)`: rewrites the
//! results a replay proves wrong, and nothing else.
//!
//! Every game is replayed as `validate` replays it. A game whose only
//! errors are `record::result_mismatch` (a legal game whose claimed result
//! is not the replay's final scores) gets each such claim rewritten to the
//! replay's scores, written in the claim's own syntax:
//!
//! - gamerec text: the `Result` tag's value (`[Result "43-21"]` becomes
//!   `[Result "21-43"]`) and the final result token (`43-21` becomes
//!   `21-43`), each as the spec writes a result (`-` between the scores, `, `
//!   when one is negative; one integer for a game of one seat);
//! - WTHOR: the record's stored score (byte 6 of the record, black's discs
//!   with the empty squares given to the winner);
//! - GGF: `RE`, black's disc difference with the empties given to the
//!   winner, with the sign and the number of decimals the claim had
//!   (`RE[+12.000]` becomes `RE[-4.000]`); with a komi, black's disc
//!   difference minus the komi, as GGS writes it (`RE[-22.867]` beside
//!   `KM[-3.133]` for 19-45), with at least the komi's decimals;
//! - Pentobi: a score list `RE` (`RE[5-3]`), as gamerec reads it, and
//!   Pentobi's own `RE` of a game of two seats in its form (`RE[B+3]`
//!   becomes `RE[B+15]`);
//! - with `--theoretical`, a finished 8x8 WTHOR game's theoretical score
//!   (byte 7 of its record), searched again exactly from the position with
//!   the header's depth of empty squares (the real score when the game
//!   never reached it), by the search `convert --to wthor` writes them with
//!   (`formats::wthor::searched_theory`). Off by default: no replay proves
//!   it wrong, and at FFO's depth of 24 the search takes a minute or more per
//!   game (14: milliseconds). An unfinished game's is left as it is.
//!
//! JSON, YAML, transcripts and CSV are read, and a result they claim wrong
//! is reported as not fixed (their games are written from a document
//! model, so their claims have no single place in the file to rewrite; fix
//! the source and convert again).
//!
//! The file is copied byte for byte up to each change, the claim's bytes are
//! replaced, and the copy goes on: nothing else of the file changes (the
//! game is never written again from its model). Before a change the bytes
//! in the file are compared with the claim the replay read; where they
//! differ (a text decoded from another charset), nothing is changed and
//! the game is reported as not fixed. Memory is bounded by one game: the
//! file is read twice side by side, once by the replay and once by the copy.
//!
//! A game with any other error (an illegal move, a bad tag, a winner claim
//! that the replay contradicts) is never touched: it is reported as not
//! fixed, with its first error. A game that is not over, a claim of `*`, and
//! a game with no claim at all are left as they are: nothing in them is
//! proved wrong (pgn-extract's `--fixresulttags` adds a missing tag; gamerec
//! adds nothing). A gamerec text claim that is the count under another
//! scoring (`0-64` for a Reversi game scored `standard` that gives `0-49`,
//! the empty squares to the winner) is not fixed either: the record lacks
//! its `Variant` tag, and the report says which one to add. (WTHOR and GGF
//! results are `wof` by their format: those are always rewritten.) A line of a Pentobi tree with branches is not fixed (its
//! `RE` is the tree's, shared by its lines).
//!
//! Where the fixed files go: `-o DIR` writes every file read into DIR (its
//! path below a directory argument kept, its name kept; a WTHOR file's
//! `WTHOR.JOU`/`WTHOR.TRN` are not copied), changed or not; `--in-place`
//! rewrites only the files with a change, each through a temporary file
//! renamed over it, the original kept as `FILE.orig` (a hard link to the
//! original, or a copy; a `FILE.orig` that exists already is not
//! overwritten: the file is then not fixed, exit 2; `--no-backup` keeps
//! none); `--dry-run` writes nothing. A compressed file (gzip, zstd,
//! bzip2, xz: by its magic bytes) is fixed in its decompressed text, the
//! change offsets and lines being the text's, and written compressed with
//! the same codec (one gzip member, one zstd frame, at the codec's usual
//! level: the bytes differ from the original's, the text does not).
//!
//! Output: each change on standard output as `FILE:LINE: Result "43-21" ->
//! "21-43"` (WTHOR: `FILE: byte N: stored score 43 -> 21`), the games not
//! fixed on standard error, then a summary line. Exit codes: 0 when every
//! game is valid once fixed (with `--dry-run`: and there is nothing to
//! change), 1 when an invalid game was left as it is (with `--dry-run`: or
//! there is something to change), 2 for a usage error or a file that could
//! not be read or written.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::inputs::{Event, ScanArgs};
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, diagnostics};
use crate::codec::{self, Encoder, Magic};
use crate::diag::plural;
use crate::formats::{Format, SourceGame, pentobi};
use crate::games::reversi::Komi;
use crate::replay::{GameReport, Options, Sink, TagsKept};
use crate::span::Span;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files or directories (searched recursively, as `validate` searches).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// Write every file read, fixed, into this directory (names kept).
    #[arg(
        short,
        long,
        value_name = "DIR",
        required_unless_present_any = ["in_place", "dry_run"],
        conflicts_with_all = ["in_place", "dry_run"]
    )]
    pub output: Option<String>,
    /// Rewrite each file with a change where it is, the original kept as FILE.orig.
    #[arg(long, conflicts_with = "dry_run")]
    pub in_place: bool,
    /// With --in-place: keep no FILE.orig.
    #[arg(long, requires = "in_place")]
    pub no_backup: bool,
    /// Only list the changes; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Also search each finished WTHOR game's theoretical score again, from
    /// the depth its file's header gives, and rewrite a wrong one (an exact
    /// search: about a minute per game at FFO's depth of 24 empty squares,
    /// milliseconds at 14).
    #[arg(long)]
    pub theoretical: bool,
    #[command(flatten)]
    pub scan: ScanArgs,
}

/// Where the fixed files go.
#[derive(Clone, Copy, Debug)]
enum Mode<'a> {
    Dir(&'a Path),
    InPlace { backup: bool },
    DryRun,
}

/// One claim to rewrite: the file bytes at `at` (`old`) become `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Change {
    at: usize,
    old: Vec<u8>,
    new: Vec<u8>,
    /// `FILE:LINE: Result "43-21" -> "21-43"`: how the change is listed.
    listed: String,
}

/// What the run did, over every file.
#[derive(Default)]
struct Totals {
    files: usize,
    changed_files: usize,
    games: usize,
    /// Games the filter left out: left as they are.
    skipped: usize,
    changes: usize,
    not_fixed: usize,
    /// A file that could not be read or written.
    failed: bool,
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    if ctx.settings.latin1 {
        return ctx.usage(
            "fix rewrites a file's bytes where the replay read its text: --encoding latin1 changes the offsets; fix a UTF-8 copy",
        );
    }
    if args.paths.iter().any(|p| p == "-") {
        return ctx.usage("fix rewrites files: standard input (`-`) cannot be fixed");
    }
    let mode = match (&args.output, args.in_place, args.dry_run) {
        (Some(dir), _, _) => {
            let dir = Path::new(dir);
            if dir.exists() && !dir.is_dir() {
                return ctx.usage(&format!(
                    "-o {}: fix writes the fixed files into a directory, and this is a file",
                    diagnostics::visible(&dir.display().to_string())
                ));
            }
            Mode::Dir(dir)
        }
        (None, true, _) => Mode::InPlace {
            backup: !args.no_backup,
        },
        (None, false, _) => Mode::DryRun,
    };
    let mut totals = Totals::default();
    let mut theory = Theory {
        enabled: args.theoretical,
        ..Theory::default()
    };
    for root in &args.paths {
        fix_root(ctx, root, &args.scan, mode, &mut totals, &mut theory);
    }
    summary(ctx, &totals, mode)
}

/// The files one path argument names, each fixed.
fn fix_root(
    ctx: &mut Ctx,
    root: &str,
    scan: &ScanArgs,
    mode: Mode,
    totals: &mut Totals,
    theory: &mut Theory,
) {
    let expanded = super::inputs::expand(&[root.to_string()], scan);
    for e in expanded.errors {
        totals.failed = true;
        let _ = writeln!(
            ctx.err,
            "error: {}: {}",
            diagnostics::visible(&e.file),
            diagnostics::visible(&e.message)
        );
    }
    for e in expanded.skipped {
        if !ctx.settings.quiet {
            let _ = writeln!(
                ctx.err,
                "warning: {}: {}",
                diagnostics::visible(&e.file),
                diagnostics::visible(&e.message)
            );
        }
    }
    let root_is_dir = Path::new(root).is_dir();
    for file in expanded.files {
        let target = match mode {
            Mode::Dir(dir) => match dir_target(root, root_is_dir, &file, dir) {
                Ok(t) => Some(t),
                Err(why) => {
                    totals.failed = true;
                    let _ = writeln!(ctx.err, "error: not fixed: {}", diagnostics::visible(&why));
                    continue;
                }
            },
            _ => None,
        };
        totals.files += 1;
        if let Err(why) = fix_file(ctx, &file, target.as_deref(), mode, (totals, theory)) {
            totals.failed = true;
            let _ = writeln!(ctx.err, "error: {}", diagnostics::visible(&why));
        }
    }
}

/// Where `-o DIR` writes `file` of path argument `root`: its path below a
/// directory argument, or its name; its folder made.
fn dir_target(root: &str, root_is_dir: bool, file: &str, dir: &Path) -> Result<PathBuf, String> {
    let rel = if root_is_dir {
        Path::new(file)
            .strip_prefix(root)
            .ok()
            .map(Path::to_path_buf)
    } else {
        Path::new(file).file_name().map(PathBuf::from)
    };
    let rel = rel.ok_or_else(|| format!("{file}: no name to write it under"))?;
    let target = dir.join(rel);
    let same = std::fs::canonicalize(&target)
        .ok()
        .is_some_and(|t| std::fs::canonicalize(file).is_ok_and(|f| f == t));
    if same {
        return Err(format!(
            "{file}: {} is the input itself (use --in-place)",
            target.display()
        ));
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("{file}: cannot create {}: {e}", parent.display()))?;
    }
    Ok(target)
}

/// The output of one file: a temporary file beside where it goes (renamed
/// over it at the end), or nothing for `--dry-run`.
struct Output {
    tmp: Option<tempfile::NamedTempFile>,
    _removed_on_signal: Option<super::convert::on_signal::Guard>,
}

impl Output {
    fn beside(path: &Path) -> io::Result<Output> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut guard = None;
        let tmp = tempfile::Builder::new()
            .prefix(".gamerec-")
            .suffix(".tmp")
            .make_in(dir, |p| {
                guard = Some(super::convert::on_signal::remove_on_signal(p));
                std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create_new(true)
                    .open(p)
            })?;
        Ok(Output {
            tmp: Some(tmp),
            _removed_on_signal: guard,
        })
    }

    fn sink(&mut self) -> Box<dyn Write + '_> {
        match self.tmp.as_mut() {
            Some(t) => Box::new(BufWriter::with_capacity(64 * 1024, t.as_file_mut())),
            None => Box::new(io::sink()),
        }
    }
}

/// Fixes one file: replays its games, copies it with the changes into its
/// output, and makes that the file's new version. `Err`: why the file
/// could not be read or written (said by the caller); its changes are then
/// not counted as made.
fn fix_file(
    ctx: &mut Ctx,
    file: &str,
    target: Option<&Path>,
    mode: Mode,
    (totals, theory): (&mut Totals, &mut Theory),
) -> Result<(), String> {
    let before = totals.changes;
    match write_fixed(ctx, file, target, mode, (&mut *totals, theory)) {
        Ok(changes) => {
            totals.changed_files += usize::from(changes > 0);
            Ok(())
        }
        Err(why) => {
            totals.changes = before;
            Err(why)
        }
    }
}

/// [`fix_file`]'s work: the number of changes made.
fn write_fixed(
    ctx: &mut Ctx,
    file: &str,
    target: Option<&Path>,
    mode: Mode,
    (totals, theory): (&mut Totals, &mut Theory),
) -> Result<usize, String> {
    let cannot = |what: &str, e: &dyn std::fmt::Display| format!("{file}: cannot {what}: {e}");
    let backup = PathBuf::from(format!("{file}.orig"));
    let mut src = BufReader::with_capacity(
        64 * 1024,
        File::open(file).map_err(|e| cannot("read it", &e))?,
    );
    // a compressed file is fixed in its decompressed text and written
    // compressed again with the same codec
    let codec = match src.fill_buf().map(Magic::of) {
        Ok(Some(Magic::Codec(c))) => Some(c),
        _ => None,
    };
    let src: Box<dyn Read> = match codec {
        Some(c) => codec::decoder(c, Box::new(src)).map_err(|e| cannot("read it", &e))?,
        None => Box::new(src),
    };
    let mut out = match (mode, target) {
        (Mode::DryRun, _) => Output {
            tmp: None,
            _removed_on_signal: None,
        },
        (_, Some(t)) => Output::beside(t).map_err(|e| cannot("write the fixed file", &e))?,
        (_, None) => Output::beside(Path::new(file)).map_err(|e| cannot("write beside it", &e))?,
    };
    let (changes, read_failed) = {
        let codec = codec.filter(|_| !matches!(mode, Mode::DryRun));
        let sink = Encoder::new(codec, out.sink()).map_err(|e| cannot("write", &e))?;
        let mut patch = Patcher::new(BufReader::with_capacity(64 * 1024, src), sink);
        let result = replay_file(ctx, file, &mut patch, (totals, theory));
        let changes = patch.changes;
        let copied = patch
            .finish()
            .and_then(|()| patch.out.finish())
            .and_then(|mut w| w.flush());
        let read_failed = result.map_err(|e| cannot("write", &e))?;
        copied.map_err(|e| cannot("copy it", &e))?;
        (changes, read_failed)
    };
    if read_failed {
        return Err(format!("not fixed: {file}: it could not be read whole"));
    }
    let Some(tmp) = out.tmp.take() else {
        return Ok(changes);
    };
    match mode {
        Mode::InPlace { .. } if changes == 0 => Ok(()),
        Mode::InPlace { backup: true } if backup.exists() => Err(format!(
            "not fixed: {file}: its backup {} exists already (remove it, or pass --no-backup)",
            backup.display()
        )),
        Mode::InPlace { backup: keep } => replace(file, tmp, keep.then_some(backup.as_path()))
            .map_err(|e| cannot("replace it", &e)),
        _ => persist(tmp, target.unwrap_or(Path::new(file)), file)
            .map_err(|e| cannot("write the fixed file", &e)),
    }
    .map(|()| changes)
}

/// What `fix` keeps of each replay: the one-line description (a message
/// names a game by it); with the theoretical score's search, every tag and
/// move instead (the search replays the moves, and compares with the
/// stored score, a tag).
#[derive(Debug)]
struct Fixing {
    theory: bool,
}

impl Sink for Fixing {
    fn tags(&self) -> TagsKept {
        if self.theory {
            TagsKept::All
        } else {
            TagsKept::Described
        }
    }

    fn records_moves(&self) -> bool {
        self.theory
    }
}

/// Replays `file`'s games, each game's changes applied to the copy as it
/// comes; `Ok(true)` when the file could not be read whole (said).
fn replay_file(
    ctx: &mut Ctx,
    file: &str,
    patch: &mut Patcher<impl Read, impl Write>,
    (totals, theory): (&mut Totals, &mut Theory),
) -> io::Result<bool> {
    let opts = Options {
        game: ctx.settings.game.clone(),
        variant: ctx.settings.variant.clone(),
        sink: std::sync::Arc::new(Fixing {
            theory: theory.enabled,
        }),
        check_scores: None,
    };
    let read_opts = ctx.read_options();
    let quiet = ctx.settings.quiet;
    let mut failed = false;
    let (out, err): (&mut dyn Write, &mut dyn Write) = (&mut *ctx.out, &mut *ctx.err);
    let stdin: &mut dyn Read = &mut io::empty();
    let files = [file.to_string()];
    super::inputs::run(
        stdin,
        &files,
        &ScanArgs::default(),
        &read_opts,
        &opts,
        None,
        &mut |event| {
            match event {
                Event::Game(g, r, _) => {
                    totals.games += 1;
                    game(
                        g,
                        r,
                        patch,
                        (&mut *out, &mut *err),
                        (&mut *totals, &mut *theory),
                    )?;
                }
                Event::Filtered(_) => totals.skipped += 1,
                other => failed |= super::inputs::say_file_event(&mut *err, &other, quiet)?,
            }
            Ok(())
        },
    )?;
    Ok(failed)
}

/// One game: its changes applied and listed, or why it is not fixed.
fn game(
    g: &SourceGame,
    r: &GameReport,
    patch: &mut Patcher<impl Read, impl Write>,
    (out, err): (&mut dyn Write, &mut dyn Write),
    (totals, theory): (&mut Totals, &mut Theory),
) -> io::Result<()> {
    let planned = plan(g, r).and_then(|mut changes| {
        if theory.enabled && g.file.format == Format::Wthor && r.over {
            changes.extend(theory.change(g, r).map_err(|why| (None, why))?);
        }
        Ok(changes)
    });
    let changes = match planned {
        Ok(c) => c,
        Err((span, why)) => {
            totals.not_fixed += 1;
            let place = place(g, span);
            return writeln!(
                err,
                "not fixed: {}: {}: {}",
                diagnostics::visible(&place),
                g.label(),
                diagnostics::visible(&why)
            );
        }
    };
    for c in &changes {
        if c.at < patch.at {
            totals.not_fixed += 1;
            writeln!(
                err,
                "not fixed: {}: {}: its claim is not after the claims fixed before it",
                diagnostics::visible(&c.listed),
                g.label()
            )?;
            continue;
        }
        if patch.replace(c)? {
            totals.changes += 1;
            writeln!(out, "{}", diagnostics::visible(&c.listed))?;
        } else {
            totals.not_fixed += 1;
            writeln!(
                err,
                "not fixed: {}: {}: the file's bytes there are not the claim the replay read",
                diagnostics::visible(&c.listed),
                g.label()
            )?;
        }
    }
    Ok(())
}

/// `--theoretical`: the search of WTHOR theoretical scores, and the depth
/// and board size of the file being fixed (from its header).
#[derive(Default)]
struct Theory {
    enabled: bool,
    solver: Option<Box<crate::games::reversi::solver::Solver>>,
    /// The file whose header was read, its depth and board size.
    header: Option<(String, u8, u8)>,
}

impl Theory {
    /// The depth and board size in `file`'s header.
    fn header_of(&mut self, file: &str) -> Result<(u8, u8), String> {
        if let Some((name, depth, size)) = &self.header
            && name == file
        {
            return Ok((*depth, *size));
        }
        // a compressed file's header is its decoded text's
        let head = crate::codec::head_of(Path::new(file), crate::formats::wthor::HEADER_LEN)
            .map_err(|e| format!("cannot read the file's header: {e}"))?;
        let head: [u8; crate::formats::wthor::HEADER_LEN] = head
            .try_into()
            .map_err(|_| "the file's header is cut short".to_string())?;
        // byte 12: the board size (0 or 8 for 8x8); byte 14: the depth
        let size = if head[12] == 10 { 10 } else { 8 };
        self.header = Some((file.to_string(), head[14], size));
        Ok((head[14], size))
    }

    /// The change of a finished 8x8 WTHOR game's theoretical score (byte 7
    /// of its record), searched from the header's depth, when the stored
    /// one differs; `Err`: why it cannot be searched.
    fn change(&mut self, g: &SourceGame, r: &GameReport) -> Result<Option<Change>, String> {
        use crate::formats::wthor::{GAME_LEN, HEADER_LEN};
        let (depth, size) = self.header_of(&g.file.name)?;
        if size != 8 {
            return Err("a 10x10 file: theoretical scores are searched on 8x8 boards only".into());
        }
        let stored = r
            .tags
            .iter()
            .find(|(k, _)| k == "TheoreticalScore")
            .and_then(|(_, v)| v.parse::<u8>().ok())
            .ok_or("the record's theoretical score was not read")?;
        let squares: Vec<u8> = r
            .moves
            .iter()
            .filter_map(|m| match m.notation.as_bytes() {
                [c @ b'a'..=b'h', row @ b'1'..=b'8'] => Some((row - b'1') * 8 + (c - b'a')),
                _ => None,
            })
            .collect();
        let real = *r.scores.first().ok_or("no score for black")?;
        let solver = self.solver.get_or_insert_with(Box::default);
        let searched = crate::formats::wthor::searched_theory(&squares, depth, real, solver)
            .and_then(|s| u8::try_from(s).ok())
            .ok_or("the moves do not replay for the search")?;
        if searched == stored {
            return Ok(None);
        }
        let at = HEADER_LEN + g.index * GAME_LEN + 7;
        Ok(Some(Change {
            at,
            old: vec![stored],
            new: vec![searched],
            listed: format!(
                "{}: byte {at}: theoretical score {stored} -> {searched} (searched from {depth} empty squares)",
                g.file.name
            ),
        }))
    }
}

/// Where a span of a game is in its file, as the change list says it:
/// `FILE:LINE`, or `FILE: byte N` for a binary file.
fn place(g: &SourceGame, span: Option<Span>) -> String {
    let name = &g.file.name;
    if matches!(g.file.format, Format::Json | Format::Yaml) {
        // the spans point into the gamerec text written from the document
        return name.clone();
    }
    match (span, &g.byte_map) {
        (Some(s), Some(map)) => match map.map(s) {
            Some(at) => format!("{name}: byte {}", at.offset),
            None => name.clone(),
        },
        (None, Some(_)) => name.clone(),
        (span, None) => {
            let offset = span.map_or(g.raw.span.offset, |s| s.offset);
            let (line, _) = g.lines().line_col(offset);
            format!("{name}:{line}")
        }
    }
}

/// The changes a game needs, or why it is not fixed (and where).
fn plan(g: &SourceGame, r: &GameReport) -> Result<Vec<Change>, (Option<Span>, String)> {
    if let Some(d) = r
        .errors
        .iter()
        .find(|d| d.code != "record::result_mismatch")
    {
        return Err((
            d.span,
            format!("invalid, left as it is: {}: {}", d.code, d.message),
        ));
    }
    if r.errors.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(v) = &g.variation {
        return Err((
            None,
            format!(
                "variation {v} of a game tree with branches: its RE is the tree's, shared by its lines"
            ),
        ));
    }
    let mut changes = Vec::with_capacity(r.errors.len());
    for d in &r.errors {
        // a text claim that is the count under another scoring: the
        // record lacks its Variant tag, and its result is not wrong
        let other_scoring = d.help.as_deref().filter(|h| h.contains("[Variant "));
        if let (Format::Gamerec, Some(help)) = (g.file.format, other_scoring) {
            return Err((d.span, format!("left as it is: {help}")));
        }
        let Some(span) = d.span else {
            return Err((None, format!("{}: the claim has no place", d.code)));
        };
        changes.push(change(g, r, span).map_err(|why| (Some(span), why))?);
    }
    changes.sort_by_key(|c| c.at);
    Ok(changes)
}

/// The change of one wrong claim, at `span` in the game's text.
fn change(g: &SourceGame, r: &GameReport, span: Span) -> Result<Change, String> {
    let old = g
        .text
        .get(span.offset..span.offset + span.length)
        .ok_or("the claim is not in the game's text")?;
    let scores = &r.scores;
    let result = crate::record::format_result(scores);
    let line = |what: &str, old: &str, new: &str| {
        format!("{}: {what}{old} -> {new}", place(g, Some(span)))
    };
    let text_change = |new: String, listed: String| Change {
        at: g.origin.offset + span.offset,
        old: old.as_bytes().to_vec(),
        new: new.into_bytes(),
        listed,
    };
    match g.file.format {
        Format::Gamerec if old.starts_with('"') => {
            let new = format!("\"{result}\"");
            Ok(text_change(new.clone(), line("Result ", old, &new)))
        }
        Format::Gamerec => Ok(text_change(
            result.clone(),
            line("result token ", old, &result),
        )),
        Format::Ggf => {
            let komi = match g.raw.tags.get("Komi") {
                Some(k) => {
                    crate::games::reversi::parse_komi(&k.value).map_err(|e| e.to_string())?
                }
                None => Komi(0),
            };
            let [b, w] = scores.as_slice() else {
                return Err("not two scores".into());
            };
            let new = ggf_re(old, Komi::UNIT * (b - w) - komi.0, komi.decimals());
            Ok(text_change(
                new.clone(),
                line("", &format!("RE[{old}]"), &format!("RE[{new}]")),
            ))
        }
        Format::Pentobi => {
            // Pentobi's own form (`B+5`) stays in its form
            let new = match (pentobi::margin_of(old), scores.as_slice()) {
                (Some(_), [a, b]) => pentobi::re_of_margin(a - b),
                _ => result.clone(),
            };
            Ok(text_change(
                new.clone(),
                line("", &format!("RE[{old}]"), &format!("RE[{new}]")),
            ))
        }
        Format::Wthor => wthor_change(g, span, old, scores),
        other => Err(format!(
            "the replay gives {result}, but a {} result is not rewritten: its games are read through the document model, with no place in the file for the claim; fix it by hand",
            other.name().to_uppercase()
        )),
    }
}

/// A WTHOR record's stored score (black's), from the synthesized `Result`
/// tag's value `"b-w"` at `span`.
fn wthor_change(g: &SourceGame, span: Span, old: &str, scores: &[i64]) -> Result<Change, String> {
    let at = g
        .byte_map
        .as_ref()
        .and_then(|m| m.map(span))
        .filter(|s| s.length == 1)
        .ok_or("the claim is not the record's stored score")?;
    let claimed = old
        .trim_matches('"')
        .split(['-', ','])
        .next()
        .and_then(|b| b.trim().parse::<u8>().ok())
        .ok_or("the stored score is not a byte")?;
    let new = scores
        .first()
        .and_then(|&b| u8::try_from(b).ok())
        .ok_or("black's score is not a byte")?;
    let result = crate::record::format_result(scores);
    Ok(Change {
        at: at.offset,
        old: vec![claimed],
        new: vec![new],
        listed: format!(
            "{}: byte {}: stored score {claimed} -> {new} (Result {old} -> \"{result}\")",
            g.file.name, at.offset
        ),
    })
}

/// GGF's `RE` for black's result `units` (billionths of a disc: the disc
/// difference minus the komi, as GGS writes it), written as `old` was: its
/// decimals kept (`+12.000`), or the komi's when it has more (`-22.867`),
/// `+` before a positive one (and before 0 when `old` had a sign).
fn ggf_re(old: &str, units: i64, komi_decimals: usize) -> String {
    let old = old.trim();
    let decimals = old
        .split_once('.')
        .map_or(0, |(_, f)| f.len())
        .max(komi_decimals);
    let v = Komi(units).with_decimals(decimals);
    match units {
        0 if !old.starts_with(['+', '-']) => v,
        u if u >= 0 => format!("+{v}"),
        _ => v,
    }
}

/// The copy of a file with its changes: bytes up to each change copied,
/// the change's bytes replaced.
struct Patcher<R, W> {
    src: R,
    out: W,
    /// The bytes of `src` read so far.
    at: usize,
    changes: usize,
}

impl<R: Read, W: Write> Patcher<R, W> {
    fn new(src: R, out: W) -> Self {
        Patcher {
            src,
            out,
            at: 0,
            changes: 0,
        }
    }

    /// Copies up to `c.at`, then writes `c.new` where the file holds
    /// `c.old`: `false` (the old bytes copied) when it holds something else.
    fn replace(&mut self, c: &Change) -> io::Result<bool> {
        let ahead = (c.at - self.at) as u64;
        let copied = io::copy(&mut (&mut self.src).take(ahead), &mut self.out)?;
        self.at += copied as usize;
        let mut old = Vec::with_capacity(c.old.len());
        (&mut self.src)
            .take(c.old.len() as u64)
            .read_to_end(&mut old)?;
        self.at += old.len();
        if copied != ahead || old != c.old {
            self.out.write_all(&old)?;
            return Ok(false);
        }
        self.out.write_all(&c.new)?;
        self.changes += 1;
        Ok(true)
    }

    /// Copies the rest of the file.
    fn finish(&mut self) -> io::Result<()> {
        io::copy(&mut self.src, &mut self.out)?;
        self.out.flush()
    }
}

/// The fixed copy made `target` (`-o DIR`), with the permissions of `file`.
fn persist(tmp: tempfile::NamedTempFile, target: &Path, file: &str) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(file) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// `--in-place`: the original kept as `backup` (a hard link, else a copy),
/// then the fixed copy renamed over it.
fn replace(file: &str, tmp: tempfile::NamedTempFile, backup: Option<&Path>) -> io::Result<()> {
    if let Some(b) = backup {
        if std::fs::hard_link(file, b).is_err() {
            copy_new(Path::new(file), b)?;
        }
    }
    persist(tmp, Path::new(file), file)
}

/// Copies `from` to `to`, a file that must not exist yet.
fn copy_new(from: &Path, to: &Path) -> io::Result<()> {
    let mut dst = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)?;
    io::copy(&mut File::open(from)?, &mut dst)?;
    dst.flush()
}

/// The summary line on standard error, and the exit code.
fn summary(ctx: &mut Ctx, t: &Totals, mode: Mode) -> i32 {
    let changes = plural(t.changes, "change", "changes");
    let done = match mode {
        Mode::DryRun => format!("{changes} to make (dry run: nothing written)"),
        Mode::InPlace { .. } => format!(
            "{changes} made, {} rewritten",
            plural(t.changed_files, "file", "files")
        ),
        Mode::Dir(dir) => format!(
            "{changes} made, {} written into {}",
            plural(t.files, "file", "files"),
            dir.display()
        ),
    };
    let skipped = if t.skipped > 0 {
        format!(", {} skipped (left as they are)", t.skipped)
    } else {
        String::new()
    };
    let _ = writeln!(
        ctx.err,
        "{}, {}{skipped}: {done}; {} not fixed",
        plural(t.files, "file", "files"),
        plural(t.games, "game", "games"),
        plural(t.not_fixed, "game", "games"),
    );
    ctx.filter_warnings();
    if t.failed {
        EXIT_USAGE
    } else if t.not_fixed > 0 || (matches!(mode, Mode::DryRun) && t.changes > 0) {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ggf_re_keeps_the_claims_syntax() {
        let d = |d: i64| d * Komi::UNIT;
        assert_eq!(ggf_re("+12.000", d(-4), 0), "-4.000");
        assert_eq!(ggf_re("-4", d(12), 0), "+12");
        assert_eq!(ggf_re("0", d(2), 0), "+2");
        assert_eq!(ggf_re("+2", 0, 0), "+0");
        assert_eq!(ggf_re("-2.00", 0, 0), "+0.00");
        assert_eq!(ggf_re("12", 0, 0), "0");
        // with a komi: the difference minus the komi, its decimals at least
        assert_eq!(ggf_re("-26", d(-26) + 3_133_000_000, 3), "-22.867");
        assert_eq!(ggf_re("+8", d(8) + 500_000_000, 1), "+8.5");
    }

    #[test]
    fn the_patcher_copies_all_but_the_changes() {
        let src = b"[Result \"1-2\"]\n1-2\n";
        let mut out = Vec::new();
        let mut p = Patcher::new(&src[..], &mut out);
        let c = |at, old: &[u8], new: &[u8]| Change {
            at,
            old: old.to_vec(),
            new: new.to_vec(),
            listed: String::new(),
        };
        assert!(p.replace(&c(8, b"\"1-2\"", b"\"20-10\"")).unwrap());
        // the bytes are not the claim: copied as they are
        assert!(!p.replace(&c(15, b"9-9", b"20-10")).unwrap());
        p.finish().unwrap();
        assert_eq!(p.changes, 1);
        assert_eq!(out, b"[Result \"20-10\"]\n1-2\n");
    }
}
