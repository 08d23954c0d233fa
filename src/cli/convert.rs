//! `gamerec convert PATH... --to json|yaml|gamerec|ggf|blksgf|wthor [-o FILE|DIR]`.
//!
//! The paths are expanded as `validate` expands them (directories searched
//! recursively, the same `--hidden`/`--no-ignore`/`--glob` rules). Without
//! `-o` (or with `-o -`) every game of every input goes to one document on
//! standard output: for JSON and YAML one document whose `games` list holds
//! them all (the document model is a list of games, so this is still one
//! valid document), for the text formats the games one after another. With
//! `-o DIR` (a directory, or several inputs, or a directory input) each
//! input file becomes its own file in DIR, its path below the directory
//! searched kept and its extension the target's; a file that cannot be
//! converted is not written, and the others still are.
//!
//! Conversion streams: each game is replayed and written as soon as it is
//! read. Standard output gets each game as it converts, with no temporary
//! file; at the first game that does not convert (invalid: exit 1; not
//! expressible in the target: exit 2) nothing more is written and the
//! document is left unfinished (a JSON or YAML reader refuses it rather than
//! take it for whole; nothing at all when the first game fails). A file
//! (`-o FILE`, each file of `-o DIR`) goes to a temporary file beside it
//! first and becomes the output only when every game converted, so a
//! refused conversion leaves nothing written. `-o NAME.EXT` (the target's
//! extension, not an existing directory, no trailing `/`) with a directory
//! input or several inputs is a usage error rather than a directory of
//! that name.
//!
//! A conversion never writes what gamerec then refuses: an input without
//! games writes nothing (exit 2, `no games found`; in `-o DIR` a warning
//! for that file), a NUL in a tag or comment is refused by the text
//! targets, and of a repeated tag (a Pentobi file may repeat `PB`) the
//! first is kept with a warning (docs/formats.md, "Writing other formats").
//!
//! `--keep-going`: an invalid game does not stop the conversion: its
//! diagnostics are said, it is left out, and the other games are written
//! (a file too); the run then says how many were left out and exits 1. A
//! file all of whose games are invalid is not written.
//!
//! What the target cannot hold is named in a warning; with `--strict` the
//! game is refused instead (exit 2), as the spec says. A file is then not
//! written; on standard output the refused game's text may already be out
//! (the writer learns what it dropped while writing), and the document is
//! left unfinished.
//!
//! `--to wthor` writes binary files and their names: it needs `-o FILE` or
//! `-o DIR` (standard output is refused with a usage error, exit 2, whether
//! or not it is a terminal: the player and tournament names could not go
//! with it). The `.wtb` file's header is written last, once the games are
//! counted; `WTHOR.JOU` and `WTHOR.TRN` in the output's directory (any case
//! of the names) are read first and grow by the new names (numbers never
//! change; a file that gains no name is left untouched), or are created.
//! They are written, each through a temporary file, just before the `.wtb`
//! file, and only when every game converted.

use std::io::{self, Seek, Write};

use clap::ValueEnum;

use std::path::{Path, PathBuf};

use super::inputs::{Event, ScanArgs};
use super::progress::Progress;
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, diagnostics};
use crate::formats::{Losses, gamerec, pentobi, transcript, wthor};
use crate::model::{DocGame, ReportDoc};
use crate::replay::{GameReport, Options};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    Json,
    Yaml,
    Gamerec,
    /// GGF (Othello games only).
    Ggf,
    /// Pentobi's Blokus files (Blokus games Pentobi can hold only).
    Blksgf,
    /// A WTHOR `.wtb` file (8x8 Othello games only), its player and
    /// tournament names in `WTHOR.JOU`/`WTHOR.TRN` beside it; needs `-o`.
    Wthor,
    /// Othello transcripts, a line per game (`f5d6c3... 33-31`; standard
    /// 8x8 Othello only).
    Transcript,
    /// Othello games as CSV rows: `game_moves` then a column per tag
    /// (standard 8x8 Othello only).
    Csv,
}

impl Target {
    /// The format's name in messages.
    fn name(self) -> &'static str {
        match self {
            Target::Json => "JSON",
            Target::Yaml => "YAML",
            Target::Gamerec => "gamerec text",
            Target::Ggf => "GGF",
            Target::Blksgf => "a Pentobi file",
            Target::Wthor => "WTHOR",
            Target::Transcript => "a transcript",
            Target::Csv => "CSV",
        }
    }

    /// The extension of the files written in `-o DIR`.
    fn extension(self) -> &'static str {
        match self {
            Target::Json => "json",
            Target::Yaml => "yaml",
            Target::Gamerec => "gamerec",
            Target::Ggf => "ggf",
            Target::Blksgf => "blksgf",
            Target::Wthor => "wtb",
            Target::Transcript => "txt",
            Target::Csv => "csv",
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Write here instead of standard output: a file, or a directory (one
    /// file per input, names kept, the target's extension); `-`: standard
    /// output.
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<String>,
    /// `--to wthor`: the theoretical score of each game is searched from the
    /// position with this many empty squares (the file's depth field).
    /// Default: 24 as in the FFO database when the first game has a
    /// `TheoreticalScore` tag (read from WTHOR; such tags are then written
    /// as they are), else 14 (24 is a search of a minute or more per game).
    #[arg(long, value_name = "EMPTIES", value_parser = clap::value_parser!(u8).range(0..=60))]
    pub wthor_depth: Option<u8>,
    /// Refuse (exit 2) a game the target cannot hold whole, instead of
    /// converting it with a warning naming what is not kept.
    #[arg(long)]
    pub strict: bool,
    /// Convert the valid games and leave the invalid ones out (each said
    /// with its diagnostics; exit 1), instead of writing nothing.
    #[arg(long)]
    pub keep_going: bool,
    /// Write the first of each group of games with the same moves and leave
    /// its copies out (each said in a warning, their count at the end), as
    /// `gamerec dedup` finds them; within each document written.
    #[arg(long)]
    pub dedup: bool,
    /// With `--dedup`: games the same up to the game's symmetries are copies.
    #[arg(long, requires = "dedup")]
    pub symmetric: bool,
    #[command(flatten)]
    pub scan: ScanArgs,
}

/// Writes a document a game at a time, the same bytes as its format's
/// writer gives for the whole document.
struct Writer {
    to: Target,
    games: usize,
    /// `--to wthor`: the records' writer and its names.
    wthor: Option<wthor::WtbWriter>,
    /// `--to csv`: the header's columns, fixed by the first game.
    csv: crate::formats::csv::CsvWriter,
    /// GGF matches held until whole.
    ggf: crate::formats::ggf::Matches,
    /// `--to json`: games written, not yet passed on (in pieces of at
    /// least [`FLUSH_AT`] bytes, written straight through the file's buffer).
    buf: Vec<u8>,
}

/// How much JSON [`Writer`] gathers before writing it.
const FLUSH_AT: usize = 256 * 1024;

impl Writer {
    fn new(to: Target, wthor: Option<wthor::WtbWriter>) -> Writer {
        Writer {
            to,
            games: 0,
            wthor,
            csv: Default::default(),
            ggf: Default::default(),
            buf: Vec::new(),
        }
    }

    fn start(&self, w: &mut dyn Write) -> io::Result<()> {
        match self.to {
            Target::Json => write!(w, "{{\n  \"games\": ["),
            // the header, written again once the games are counted
            Target::Wthor => w.write_all(&[0; wthor::HEADER_LEN]),
            _ => Ok(()),
        }
    }

    /// `Err(Ok(why))` when the target cannot hold the game.
    /// `losses` gets what the target cannot keep of the game.
    fn game(
        &mut self,
        w: &mut dyn Write,
        report: &GameReport,
        losses: &mut Losses,
    ) -> Result<(), Result<String, io::Error>> {
        let first = self.games == 0;
        self.games += 1;
        // JSON and YAML serialize the report itself; the other writers read
        // its document form
        let game = match self.to {
            Target::Json | Target::Yaml => None,
            _ => Some(DocGame::from_report(report)),
        };
        let game = game.as_ref();
        if let Some(why) = game.and_then(|g| nul_in(g, self.to)) {
            return Err(Ok(why));
        }
        let text = match (self.to, game) {
            (Target::Json, _) => {
                let sep = if first { "\n    " } else { ",\n    " };
                self.buf.extend_from_slice(sep.as_bytes());
                crate::formats::json::write_report(&mut self.buf, report, 4);
                if self.buf.len() >= FLUSH_AT {
                    w.write_all(&self.buf).map_err(Err)?;
                    self.buf.clear();
                }
                return Ok(());
            }
            (Target::Yaml, _) => {
                let item = serde_yaml::to_string(&[ReportDoc::of(report)])
                    .map_err(|e| Ok(e.to_string()))?;
                if first {
                    format!("games:\n{item}")
                } else {
                    item
                }
            }
            (_, None) => return Err(Ok("no document form of the game".into())),
            (Target::Gamerec, Some(game)) => {
                let text = gamerec::write_game(game, losses);
                if first { text } else { format!("\n{text}") }
            }
            (Target::Ggf, Some(game)) => self.ggf.game(game, losses).map_err(|e| Ok(e.message))?,
            (Target::Blksgf, Some(game)) => {
                pentobi::write_game(game, losses).map_err(|e| Ok(e.message))?
            }
            (Target::Transcript, Some(game)) => {
                transcript::write_game(game, losses).map_err(|e| Ok(e.message))?
            }
            (Target::Csv, Some(game)) => self.csv.game(game, losses).map_err(|e| Ok(e.message))?,
            (Target::Wthor, Some(game)) => {
                let Some(out) = self.wthor.as_mut() else {
                    return Err(Ok("no WTHOR output".into()));
                };
                let rec = out.record(game, losses).map_err(|e| Ok(e.message))?;
                return w.write_all(&rec).map_err(Err);
            }
        };
        w.write_all(text.as_bytes()).map_err(Err)
    }

    fn finish(&mut self, w: &mut dyn Write) -> io::Result<()> {
        w.write_all(&self.buf)?;
        self.buf.clear();
        // a match whose last games were left out (invalid, filtered)
        let held = self.ggf.finish();
        w.write_all(held.as_bytes())?;
        match self.to {
            Target::Json if self.games == 0 => writeln!(w, "]\n}}"),
            Target::Json => writeln!(w, "\n  ]\n}}"),
            Target::Yaml if self.games == 0 => writeln!(w, "games: []"),
            _ => Ok(()),
        }
    }
}

/// Where a game holds the NUL character, which a text target cannot hold
/// (a text file holding one is read as binary data, and the spec's tag and
/// comment syntax has no escape for it): the game is refused, as a game the
/// target cannot express (exit 2). JSON and YAML escape it; WTHOR's names
/// are fixed-length fields padded with NUL (a NUL ends the name).
fn nul_in(game: &DocGame, to: Target) -> Option<String> {
    if !matches!(
        to,
        Target::Gamerec | Target::Ggf | Target::Blksgf | Target::Transcript | Target::Csv
    ) {
        return None;
    }
    let at = match crate::formats::nul_in(game)? {
        crate::formats::NulAt::Tag(name) => format!("the {} tag", diagnostics::visible(&name)),
        crate::formats::NulAt::Comment => "the game's comment".to_string(),
        crate::formats::NulAt::Ply(ply) => format!("the move or comment of ply {ply}"),
    };
    Some(format!(
        "{} cannot hold the NUL character (U+0000) of {at}: a text file holding it is read as binary data; convert to JSON or YAML, which escape it",
        to.name()
    ))
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let mut progress = Progress::stderr(ctx.settings.progress);
    // everything said on stderr goes above the progress display
    let mut above = progress.above(&mut *ctx.err);
    let mut ctx = Ctx {
        out: &mut *ctx.out,
        err: &mut above,
        stdin: &mut *ctx.stdin,
        settings: ctx.settings.clone(),
    };
    let code = convert(&mut ctx, args, &mut progress);
    ctx.filter_warnings();
    let _ = ctx.err.flush();
    progress.finish();
    code
}

fn convert(ctx: &mut Ctx, args: Args, progress: &mut Progress) -> i32 {
    let output = args.output.as_deref().filter(|o| *o != "-");
    let depth = args.wthor_depth;
    let Some(output) = output else {
        if args.to == Target::Wthor {
            return ctx.usage(
                "--to wthor writes a .wtb file and WTHOR.JOU/WTHOR.TRN beside it: give -o FILE.wtb or -o DIR, not standard output",
            );
        }
        return convert_one(
            ctx,
            &args.paths,
            &args.scan,
            args.to,
            None,
            false,
            progress,
            (
                depth,
                args.strict,
                args.keep_going,
                args.dedup.then_some(args.symmetric),
            ),
        );
    };
    let several = args.paths.len() > 1 || args.paths.iter().any(|p| Path::new(p).is_dir());
    let to_dir = Path::new(output).is_dir() || output.ends_with('/') || several;
    if !to_dir {
        return convert_one(
            ctx,
            &args.paths,
            &args.scan,
            args.to,
            Some(Path::new(output)),
            false,
            progress,
            (
                depth,
                args.strict,
                args.keep_going,
                args.dedup.then_some(args.symmetric),
            ),
        );
    }
    let named_like_a_file = Path::new(crate::codec::inner_name(output))
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(args.to.extension()));
    if several && !Path::new(output).exists() && !output.ends_with('/') && named_like_a_file {
        return ctx.usage(&format!(
            "-o {}: a directory input or several inputs are written one file per input into a directory, and this name looks like a file; give a directory (-o DIR/), or write one document to standard output (> {})",
            diagnostics::visible(output),
            diagnostics::visible(output)
        ));
    }
    if Path::new(output).exists() && !Path::new(output).is_dir() {
        return ctx.usage(&format!(
            "-o {output}: several inputs are written to a directory, and this is a file"
        ));
    }
    if args.paths.iter().any(|p| p == "-") {
        return ctx.usage("-o DIR names each output after its input; standard input has no name");
    }
    convert_into_dir(ctx, &args, Path::new(output), progress)
}

/// `-o DIR`: each input file converted into a file of its own under
/// `output`, named after it (its place under a directory input kept).
fn convert_into_dir(ctx: &mut Ctx, args: &Args, output: &Path, progress: &mut Progress) -> i32 {
    let mut code = EXIT_OK;
    let mut written: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    for root in &args.paths {
        let expanded = super::inputs::expand(std::slice::from_ref(root), &args.scan);
        if !say_expanded(ctx, expanded.errors, expanded.skipped) {
            code = EXIT_USAGE;
        }
        let root_is_dir = Path::new(root).is_dir();
        for file in expanded.files {
            let Some(target) = dir_target(
                ctx,
                (root, root_is_dir),
                &file,
                output,
                args.to,
                &mut written,
            ) else {
                code = EXIT_USAGE;
                continue;
            };
            let c = convert_one(
                ctx,
                std::slice::from_ref(&file),
                &ScanArgs::default(),
                args.to,
                Some(&target),
                true,
                progress,
                (
                    args.wthor_depth,
                    args.strict,
                    args.keep_going,
                    args.dedup.then_some(args.symmetric),
                ),
            );
            code = code.max(c);
        }
    }
    code
}

/// Says a path argument's directories that could not be read (errors) and
/// its entries skipped (warnings, unless quiet); `false` when there were
/// errors.
fn say_expanded(
    ctx: &mut Ctx,
    errors: Vec<crate::pipeline::FileError>,
    skipped: Vec<crate::pipeline::FileError>,
) -> bool {
    let ok = errors.is_empty();
    for e in errors {
        let _ = writeln!(
            ctx.err,
            "error: {}: {}",
            diagnostics::visible(&e.file),
            diagnostics::visible(&e.message)
        );
    }
    for e in skipped {
        if !ctx.settings.quiet {
            let _ = writeln!(
                ctx.err,
                "warning: {}: {}",
                diagnostics::visible(&e.file),
                diagnostics::visible(&e.message)
            );
        }
    }
    ok
}

/// Where `-o DIR` writes `file` of path argument `root` (whether it is a
/// directory): its folder made, and `None` (said) when it has no name, is
/// the input itself, is written from another input already, or its
/// folder cannot be made.
fn dir_target(
    ctx: &mut Ctx,
    (root, root_is_dir): (&str, bool),
    file: &str,
    output: &Path,
    to: Target,
    written: &mut std::collections::HashSet<PathBuf>,
) -> Option<PathBuf> {
    let rel = if root_is_dir {
        Path::new(file)
            .strip_prefix(root)
            .map(Path::to_path_buf)
            .ok()
    } else {
        Path::new(file).file_name().map(PathBuf::from)
    };
    let Some(rel) = rel else {
        let _ = writeln!(ctx.err, "error: {file}: no name to write it under");
        return None;
    };
    // a compressed input's output is written plain: `a.gamerec.gz` → `a.json`
    let rel = PathBuf::from(crate::codec::inner_name(&rel.to_string_lossy()));
    let target = output.join(rel).with_extension(to.extension());
    let same = std::fs::canonicalize(&target)
        .ok()
        .is_some_and(|t| std::fs::canonicalize(file).is_ok_and(|f| f == t));
    if same || !written.insert(target.clone()) {
        let _ = writeln!(
            ctx.err,
            "error: not converted: {}: {} is {}",
            diagnostics::visible(file),
            target.display(),
            if same {
                "the input itself"
            } else {
                "written from another input already"
            }
        );
        return None;
    }
    if let Some(dir) = target.parent() {
        if let Err(e) = std::fs::create_dir_all(dir) {
            let _ = writeln!(ctx.err, "error: cannot create {}: {e}", dir.display());
            return None;
        }
    }
    Some(target)
}

/// Converts the games of `paths` into one document: `output`, or standard
/// output. Returns the exit code; nothing is written unless every game
/// converted.
#[allow(clippy::too_many_arguments)]
fn convert_one(
    ctx: &mut Ctx,
    paths: &[String],
    scan: &ScanArgs,
    to: Target,
    output: Option<&Path>,
    named: bool,
    progress: &mut Progress,
    (depth, strict, keep_going, dedup): (Option<u8>, bool, bool, Option<bool>),
) -> i32 {
    let dir = match output_dir(ctx, output) {
        Ok(dir) => dir,
        Err(code) => return code,
    };
    let (mut tmp, removed_on_signal) = match output {
        None => (None, None),
        Some(file) => match temp_beside(ctx, file, &dir) {
            Ok((t, guard)) => (Some(t), guard),
            Err(code) => return code,
        },
    };
    let opts = Options {
        game: ctx.settings.game.clone(),
        variant: ctx.settings.variant.clone(),
        // all a document holds
        sink: std::sync::Arc::new(crate::replay::sink::Record),
        check_scores: None,
    };
    let read_opts = ctx.read_options();
    let wthor_out = match wthor_out(ctx, to, output, &dir, named, depth) {
        Ok(w) => w,
        Err(code) => return code,
    };
    let (jou, trn) = wthor_out
        .as_ref()
        .map_or_else(Default::default, |o| (o.jou.clone(), o.trn.clone()));
    let writer = Writer::new(to, wthor_out.map(|o| o.wtb));
    let mut conv = Conversion::new(ctx, writer, (strict, keep_going), dedup);
    let tmp_is_file = tmp.is_some();
    let _removed_on_signal = removed_on_signal;
    let result = {
        let err: &mut dyn Write = &mut *ctx.err;
        let sink: &mut dyn Write = match tmp.as_mut() {
            Some(t) => t.as_file_mut(),
            None => &mut *ctx.out,
        };
        let mut out = io::BufWriter::new(sink);
        let stdin: &mut dyn io::Read = &mut *ctx.stdin;
        let digest = move |_: &crate::formats::SourceGame, r: &mut GameReport| {
            dedup.map_or_else(String::new, |sym| {
                crate::pipeline::dedup::Dedup::digest_text(r, sym)
            })
        };
        let prepare: Option<crate::pipeline::Prepare> = dedup.map(|_| &digest as _);
        let r = super::inputs::run(
            stdin,
            paths,
            scan,
            &read_opts,
            &opts,
            prepare,
            &mut |event| {
                progress.event(&event);
                conv.event(&mut out, err, event)
            },
        );
        // standard output: a run that stops at a game not converted leaves
        // its document unfinished, so a reader cannot take it for whole
        // no game: nothing is written (an empty document reads as no game)
        let whole = conv.whole() && conv.to_write() > 0;
        r.and_then(|()| {
            if whole || (tmp_is_file && conv.to_write() > 0) {
                if !conv.started {
                    conv.writer.start(&mut out)?;
                }
                conv.writer.finish(&mut out)
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush())
    };
    if let Err(e) = result {
        return super::write_failed(ctx, &e, EXIT_USAGE);
    }
    if let Some(code) = conv.refusal(ctx, (paths, scan), named) {
        return code;
    }
    conv.say_left_out_by_options(ctx, paths, named);
    let left_out = conv.left_out(ctx, paths, named);
    let Some(tmp) = tmp else {
        // standard output: every game was written as it converted
        return left_out;
    };
    finish_file(ctx, tmp, conv.writer.wthor.as_ref(), (&jou, &trn), output).max(left_out)
}

/// A conversion that read no game writes nothing: an empty document would
/// be refused when read (`record::no_games`), so it is not written. As for
/// `validate`, a run without games is an error (exit 2); in `-o DIR` a file
/// without games is a warning, the others still converted.
fn no_games(ctx: &mut Ctx, paths: &[String], scan: &ScanArgs, named: bool) -> i32 {
    let why = super::inputs::explain_empty(paths, scan);
    if named {
        if !ctx.settings.quiet {
            let _ = writeln!(
                ctx.err,
                "warning: not converted: {} (nothing is written)",
                diagnostics::visible(&why)
            );
        }
        return EXIT_OK;
    }
    let _ = writeln!(
        ctx.err,
        "error: not converted: {} (nothing is written)",
        diagnostics::visible(&why)
    );
    EXIT_USAGE
}

/// The folder the output goes into (`.` for standard output), made when
/// missing: `-o nodir/file` makes the missing folders, as `-o newdir/`
/// does.
fn output_dir(ctx: &mut Ctx, output: Option<&Path>) -> Result<PathBuf, i32> {
    let dir = match output {
        Some(file) => file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        None => PathBuf::from("."),
    };
    if output.is_some() && !dir.is_dir() {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return Err(ctx.usage(&format!(
                "cannot create the folder {} for the output: {}",
                dir.display(),
                io::Error::from(e.kind())
            )));
        }
    }
    Ok(dir)
}

/// The temporary file in `dir` that `file` is written through (standard
/// output streams), and its removal on a signal. The path is marked for
/// removal before the file exists: a signal between its creation and the
/// marking would leave it behind.
fn temp_beside(
    ctx: &mut Ctx,
    file: &Path,
    dir: &Path,
) -> Result<(tempfile::NamedTempFile, Option<on_signal::Guard>), i32> {
    let mut removed_on_signal = None;
    // hidden and named for what made it: one a SIGKILL left behind is
    // skipped by a directory scan and never taken for output
    match tempfile::Builder::new()
        .prefix(".gamerec-")
        .suffix(".tmp")
        .make_in(dir, |path| {
            removed_on_signal = Some(on_signal::remove_on_signal(path));
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(path)
        }) {
        Ok(t) => Ok((t, removed_on_signal)),
        Err(e) => {
            // said without the temporary file's name, which means nothing to the user
            Err(ctx.usage(&format!(
                "cannot write {}: {}",
                file.display(),
                io::Error::from(e.kind())
            )))
        }
    }
}

/// `--to wthor` into a file: the records' writer and the names files in
/// `dir` it adds to (read now, so that a bad one stops the conversion
/// before it starts).
fn wthor_out(
    ctx: &mut Ctx,
    to: Target,
    output: Option<&Path>,
    dir: &Path,
    named: bool,
    depth: Option<u8>,
) -> Result<Option<WthorOut>, i32> {
    match (to, output) {
        (Target::Wthor, Some(file)) => match wthor_names(dir) {
            Ok((players, tournaments)) => Ok(Some(WthorOut {
                wtb: wthor::WtbWriter::new(players.1, tournaments.1, depth),
                jou: players.0,
                trn: tournaments.0,
            })),
            Err(e) => {
                let what = if named {
                    format!("{}: ", diagnostics::visible(&file.display().to_string()))
                } else {
                    String::new()
                };
                Err(ctx.usage(&format!("not converted: {what}{e}")))
            }
        },
        _ => Ok(None),
    }
}

/// A conversion as it goes, game by game: the document's writer and what
/// keeps the document from being written.
struct Conversion {
    writer: Writer,
    /// `--strict`: a game the target cannot hold whole is refused.
    strict: bool,
    /// `--keep-going`: an invalid game is left out, not a reason to write nothing.
    keep_going: bool,
    quiet: bool,
    /// Colour on standard error.
    color: bool,
    /// What the target cannot keep of the current game.
    losses: Losses,
    invalid: usize,
    /// Why a game was refused (the first one).
    refused: Option<String>,
    file_error: bool,
    /// Games read (converted or not).
    seen: usize,
    /// Games the filter left out (`--tag`, `--valid`, ...).
    skipped: usize,
    /// The document has begun: it begins with its first game, so that
    /// standard output stays empty when the first game does not convert.
    started: bool,
    /// `--dedup`: the digests of the games written.
    dedup: Option<crate::pipeline::dedup::Dedup>,
    /// `--dedup`: the copies left out.
    dropped: usize,
}

impl Conversion {
    /// A conversion to `writer` with the run's options: `--strict`,
    /// `--keep-going`, `--dedup` (`Some(symmetric)`).
    fn new(
        ctx: &Ctx,
        writer: Writer,
        (strict, keep_going): (bool, bool),
        dedup: Option<bool>,
    ) -> Conversion {
        Conversion {
            writer,
            strict,
            keep_going,
            quiet: ctx.settings.quiet,
            color: ctx.settings.color_err,
            losses: Losses::default(),
            invalid: 0,
            refused: None,
            file_error: false,
            seen: 0,
            started: false,
            skipped: 0,
            dedup: dedup.map(crate::pipeline::dedup::Dedup::new),
            dropped: 0,
        }
    }

    /// Nothing keeps the document from being written so far.
    fn whole(&self) -> bool {
        (self.keep_going || self.invalid == 0) && self.refused.is_none() && !self.file_error
    }

    /// Games to write: read, less those `--keep-going` leaves out.
    fn to_write(&self) -> usize {
        let written = self.seen - self.dropped;
        if self.keep_going {
            written - self.invalid
        } else {
            written
        }
    }

    fn event(&mut self, out: &mut dyn Write, err: &mut dyn Write, event: Event) -> io::Result<()> {
        match event {
            Event::Game(g, r, digest) => {
                if !self.copy_left_out(err, g, r, digest)? {
                    self.game(out, err, g, r)?;
                }
            }
            Event::Filtered(_) => self.skipped += 1,
            other => self.file_error |= super::inputs::say_file_event(err, &other, self.quiet)?,
        }
        Ok(())
    }

    /// A game: its diagnostics said, and written while every game before
    /// it was.
    fn game(
        &mut self,
        out: &mut dyn Write,
        err: &mut dyn Write,
        g: &crate::formats::SourceGame,
        r: &GameReport,
    ) -> io::Result<()> {
        self.seen += 1;
        if !self.quiet || !r.valid {
            diagnostics::write_game(err, self.color, g, r)?;
        }
        if !r.valid {
            self.invalid += 1;
            return Ok(());
        }
        if !self.whole() {
            return Ok(());
        }
        let to = self.writer.to;
        self.losses.clear();
        if let Some(v) = &g.variation {
            self.losses.note(format!(
                "the game tree's branches: this is its line {v}, written as a game of its own"
            ));
        }
        let deduped = crate::formats::first_of_each_tag(r, &mut self.losses);
        let r = deduped.as_ref().unwrap_or(r);
        if !self.started {
            self.writer.start(out)?;
            self.started = true;
        }
        match self.writer.game(out, r, &mut self.losses) {
            Ok(()) if self.strict && !self.losses.is_empty() => {
                let what: Vec<&str> = self.losses.iter().collect();
                self.refused = Some(format!(
                    "{} game {}: --strict, and {} cannot hold {}",
                    diagnostics::visible(&g.file.name),
                    g.index,
                    to.name(),
                    diagnostics::visible(&what.join("; "))
                ));
            }
            Ok(()) if self.quiet => {}
            Ok(()) => {
                for what in self.losses.iter() {
                    writeln!(
                        err,
                        "warning: {} game {}: not kept in {}: {}",
                        diagnostics::visible(&g.file.name),
                        g.index + 1,
                        to.name(),
                        diagnostics::visible(what)
                    )?;
                }
            }
            Err(Ok(why)) => {
                self.refused = Some(format!(
                    "{} game {}: {why}",
                    diagnostics::visible(&g.file.name),
                    g.index + 1
                ));
            }
            Err(Err(e)) => return Err(e),
        }
        Ok(())
    }

    /// The exit code when the document is not written (said), `None` when
    /// every game converted.
    fn refusal(
        &self,
        ctx: &mut Ctx,
        (paths, scan): (&[String], &ScanArgs),
        named: bool,
    ) -> Option<i32> {
        if self.file_error {
            return Some(EXIT_USAGE);
        }
        if self.seen == 0 && self.skipped == 0 {
            return Some(no_games(ctx, paths, scan, named));
        }
        if self.seen == 0 {
            self.said_skipped(ctx, paths, named);
            return Some(EXIT_OK);
        }
        // in `-o DIR`, the file that is not written is named
        let what = input_prefix(paths, named);
        if self.invalid > 0 && (!self.keep_going || self.to_write() == 0) {
            let _ = writeln!(
                ctx.err,
                "error: not converted: {what}{}",
                crate::diag::plural(self.invalid, "invalid game", "invalid games")
            );
            return Some(EXIT_INVALID);
        }
        if let Some(why) = &self.refused {
            // the refusal names its file and game itself
            let _ = writeln!(ctx.err, "error: not converted: {why}");
            return Some(EXIT_USAGE);
        }
        None
    }
}

impl Conversion {
    /// What a GGF match written short at the end of the output lost (the
    /// games of it left out), said once the output is written.
    fn say_cut_matches(&mut self, ctx: &mut Ctx) {
        for lost in self.writer.ggf.take_lost() {
            if !self.quiet {
                let _ = writeln!(
                    ctx.err,
                    "warning: not kept in GGF: {}",
                    diagnostics::visible(&lost)
                );
            }
        }
    }

    /// The games the filter and `--dedup` left out, said on stderr.
    fn say_left_out_by_options(&mut self, ctx: &mut Ctx, paths: &[String], named: bool) {
        // a GGF match whose last games were left out
        self.say_cut_matches(ctx);
        self.said_skipped(ctx, paths, named);
        self.say_dropped(ctx, paths, named);
    }

    /// The games the filter left out, said on stderr (not with `-q`):
    /// `note: 30 games skipped by the filters, 12 converted`.
    fn said_skipped(&self, ctx: &mut Ctx, paths: &[String], named: bool) {
        if self.skipped == 0 || self.quiet {
            return;
        }
        let what = input_prefix(paths, named);
        let _ = writeln!(
            ctx.err,
            "note: {what}{} skipped by the filters, {} converted",
            crate::diag::plural(self.skipped, "game", "games"),
            if self.whole() { self.to_write() } else { 0 }
        );
    }

    /// `--dedup`: whether the game is a copy of one before it, left out
    /// (said in a warning, unless quiet). Invalid games are not compared.
    fn copy_left_out(
        &mut self,
        err: &mut dyn Write,
        g: &crate::formats::SourceGame,
        r: &GameReport,
        digest: &str,
    ) -> io::Result<bool> {
        let Some(dedup) = self.dedup.as_mut() else {
            return Ok(false);
        };
        let crate::pipeline::dedup::Seen::Copy(first) = dedup.add_text(g, digest) else {
            return Ok(false);
        };
        self.seen += 1;
        self.dropped += 1;
        debug_assert!(r.valid);
        if !self.quiet {
            writeln!(
                err,
                "warning: {}, {}: a copy of {}, {}: left out (--dedup)",
                diagnostics::visible(&g.file.name),
                g.label(),
                diagnostics::visible(dedup.file(first)),
                dedup.label(first)
            )?;
        }
        Ok(true)
    }

    /// `--dedup`: how many copies were left out, said even when quiet.
    fn say_dropped(&self, ctx: &mut Ctx, paths: &[String], named: bool) {
        if self.dedup.is_none() {
            return;
        }
        let what = input_prefix(paths, named);
        let _ = writeln!(
            ctx.err,
            "{what}{} left out (--dedup), {} written",
            crate::diag::plural(self.dropped, "copy", "copies"),
            crate::diag::plural(self.to_write(), "game", "games")
        );
    }

    /// `--keep-going`: the invalid games left out of a document written,
    /// said on stderr (exit 1); `EXIT_OK` when there were none.
    fn left_out(&self, ctx: &mut Ctx, paths: &[String], named: bool) -> i32 {
        if self.invalid == 0 {
            return EXIT_OK;
        }
        let what = input_prefix(paths, named);
        let _ = writeln!(
            ctx.err,
            "error: {what}{} left out, {} converted",
            crate::diag::plural(self.invalid, "invalid game", "invalid games"),
            crate::diag::plural(self.to_write(), "game", "games")
        );
        EXIT_INVALID
    }
}

/// The temporary file, every game written, made the output: `--to
/// wthor`'s header written again with the games counted and its names
/// files (`jou`, `trn`) written first.
fn finish_file(
    ctx: &mut Ctx,
    mut tmp: tempfile::NamedTempFile,
    wthor: Option<&wthor::WtbWriter>,
    (jou, trn): (&Path, &Path),
    output: Option<&Path>,
) -> i32 {
    if let Some(wtb) = wthor {
        let date = wthor::today();
        let header = wtb.header(date);
        let written = tmp
            .as_file_mut()
            .seek(io::SeekFrom::Start(0))
            .and_then(|_| tmp.as_file_mut().write_all(&header))
            .and_then(|()| tmp.as_file_mut().flush());
        if let Err(e) = written {
            return super::write_failed(ctx, &e, EXIT_USAGE);
        }
        // the names first: a names file only grows, so the files already
        // beside it stay right whatever happens next
        for (path, list) in [(jou, &wtb.players), (trn, &wtb.tournaments)] {
            // an existing file that gains no name is left as it is
            if list.added().is_empty() && path.exists() {
                continue;
            }
            if let Err(e) = write_atomic(path, &list.to_bytes(date)) {
                return ctx.usage(&format!("cannot write {}: {e}", path.display()));
            }
        }
    }
    if let Some(file) = output {
        // `-o FILE.gz` (.zst, .bz2, .xz): the text written, compressed
        let (tmp, _removed_on_signal) = match compress_temp(ctx, tmp, file) {
            Ok(t) => t,
            Err(code) => return code,
        };
        // a temporary file is private; the output is an ordinary file
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
        }
        if let Err(e) = tmp.persist(file) {
            return ctx.usage(&format!("cannot write {}: {}", file.display(), e.error));
        }
    }
    EXIT_OK
}

/// The temporary file to make `file`: `tmp` itself, or, when `file`'s
/// extension names a codec (`crate::codec`), a second temporary file beside
/// it holding `tmp` compressed (the first is then removed). Compressed
/// once every game is written, because `--to wthor` writes its header last.
fn compress_temp(
    ctx: &mut Ctx,
    mut tmp: tempfile::NamedTempFile,
    file: &Path,
) -> Result<(tempfile::NamedTempFile, Option<on_signal::Guard>), i32> {
    let Some(codec) = crate::codec::Codec::of_name(&file.to_string_lossy()) else {
        return Ok((tmp, None));
    };
    let dir = tmp
        .path()
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let (packed, guard) = temp_beside(ctx, file, &dir)?;
    let written = tmp
        .as_file_mut()
        .seek(io::SeekFrom::Start(0))
        .and_then(|_| {
            let mut input = io::BufReader::new(tmp.as_file_mut());
            let out = io::BufWriter::new(packed.as_file());
            crate::codec::compress_into(codec, &mut input, out)?
                .into_inner()
                .map_err(io::IntoInnerError::into_error)
                .map(|_| ())
        });
    match written {
        Ok(()) => Ok((packed, guard)),
        Err(e) => Err(super::write_failed(ctx, &e, EXIT_USAGE)),
    }
}

/// `--to wthor` into one file: the records' writer and where its names go.
struct WthorOut {
    wtb: wthor::WtbWriter,
    jou: PathBuf,
    trn: PathBuf,
}

/// The `WTHOR.JOU` and `WTHOR.TRN` of directory `dir` (any case of the
/// names; created there when absent), each with the names already in it.
#[allow(clippy::type_complexity)]
fn wthor_names(
    dir: &Path,
) -> Result<((PathBuf, wthor::NameList), (PathBuf, wthor::NameList)), String> {
    let load = |want: &str, len: usize| -> Result<(PathBuf, wthor::NameList), String> {
        let found = std::fs::read_dir(dir).ok().and_then(|entries| {
            entries.flatten().map(|e| e.path()).find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(want))
            })
        });
        match found {
            Some(path) => {
                // at most 65,535 names: a longer file is not read on
                let most = wthor::HEADER_LEN + usize::from(u16::MAX) * len;
                let mut bytes = Vec::new();
                std::fs::File::open(&path)
                    .and_then(|f| {
                        io::Read::read_to_end(&mut io::Read::take(f, most as u64 + 1), &mut bytes)
                    })
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                if bytes.len() > most {
                    return Err(format!(
                        "cannot add names to {}: not a WTHOR names file, longer than {most} bytes",
                        path.display()
                    ));
                }
                let list = wthor::NameList::from_bytes(&bytes, len)
                    .map_err(|e| format!("cannot add names to {}: {e}", path.display()))?;
                Ok((path, list))
            }
            None => Ok((dir.join(want), wthor::NameList::new(len))),
        }
    };
    Ok((
        load("WTHOR.JOU", wthor::PLAYER_LEN)?,
        load("WTHOR.TRN", wthor::TOURNAMENT_LEN)?,
    ))
}

/// Writes `bytes` to `path` through a temporary file beside it.
fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The temporary files being written, removed when a signal that can be
/// caught (SIGINT, SIGTERM, SIGHUP) ends the run: the handler unlinks them
/// and then dies of the signal as it would have. (SIGKILL cannot be
/// caught: what it leaves is a hidden `.tmp*` file beside the target, never
/// the target itself.)
#[cfg(unix)]
pub(super) mod on_signal {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    const SLOTS: usize = 4;
    static PATHS: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// While alive, `path` is removed if a signal ends the run.
    pub struct Guard(Option<usize>);

    pub fn remove_on_signal(path: &Path) -> Guard {
        install();
        let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
            return Guard(None);
        };
        let raw = c.into_raw();
        for (i, slot) in PATHS.iter().enumerate() {
            if slot
                .compare_exchange(
                    std::ptr::null_mut(),
                    raw,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                )
                .is_ok()
            {
                return Guard(Some(i));
            }
        }
        // SAFETY: `raw` came from `CString::into_raw` just above and was not shared
        drop(unsafe { CString::from_raw(raw) });
        Guard(None)
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            let Some(slot) = self.0.and_then(|i| PATHS.get(i)) else {
                return;
            };
            let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: every pointer stored in PATHS came from `CString::into_raw`,
                // and the swap took it out, so it is freed once
                drop(unsafe { CString::from_raw(p) });
            }
        }
    }

    extern "C" fn handler(sig: libc::c_int) {
        for slot in &PATHS {
            let p = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: a NUL-terminated path; unlink is async-signal-safe
                unsafe { libc::unlink(p) };
            }
        }
        // SAFETY: signal and raise are async-signal-safe; the default
        // action ends the process with this signal
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    fn install() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: installs a handler that only makes async-signal-safe calls
                unsafe {
                    libc::signal(
                        sig,
                        handler as extern "C" fn(libc::c_int) as libc::sighandler_t,
                    )
                };
            }
        });
    }
}

#[cfg(not(unix))]
pub(super) mod on_signal {
    pub struct Guard;
    pub fn remove_on_signal(_: &std::path::Path) -> Guard {
        Guard
    }
}

/// `FILE: ` before a count said about the one input named on the command
/// line; nothing for several inputs or a directory.
fn input_prefix(paths: &[String], named: bool) -> String {
    match paths {
        [input] if named => format!("{}: ", diagnostics::visible(input)),
        _ => String::new(),
    }
}
