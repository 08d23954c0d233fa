//! The command line: one file per subcommand, with the shared pieces here
//! (arguments, input loading, replaying in parallel, exit codes).
//!
//! `run` takes its arguments, standard input and output streams as
//! parameters so tests can drive it in-process.

mod convert;
mod dedup;
pub mod diagnostics;
mod fix;
mod html;
mod inputs;
mod moves;
mod perft;
mod progress;
pub mod report;
mod schema;
mod score;
mod show;
mod stats;
mod tags;
mod validate;

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use crate::formats::Format;

/// Exit codes (spec §2).
pub const EXIT_OK: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// `--version`: the package version, and the commit when built from a git
/// checkout (`build.rs`).
const VERSION: &str = env!("GAMEREC_VERSION");

/// The exit codes and a few examples, after the options of `--help`.
const AFTER_HELP: &str = "\
Examples:
  gamerec validate games/                  check every record under games/
  gamerec score game.gamerec               scores and winners
  gamerec show game.gamerec --ply 10       the board after ten plies
  gamerec convert games/ --to json         all games as one JSON document
  gamerec validate games/ --format sarif   for code scanning in CI

Exit codes:
  0  every game is valid
  1  a game is invalid (or has warnings, with --deny-warnings)
  2  usage error, unreadable file, or a game the target format cannot hold";

/// The exit codes of the commands that read records.
const EXIT_CODES: &str = "\
Exit codes:
  0  every game is valid
  1  a game is invalid
  2  usage error or unreadable file";

#[derive(Parser, Debug)]
#[command(
    name = "gamerec",
    version = VERSION,
    about = "Validate, score, draw and convert records of Reversi, Blokus, Qwirkle and Deblockle games",
    after_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How records are read: for the commands that read them.
#[derive(clap::Args, Debug, Clone)]
#[command(next_help_heading = "Reading")]
pub struct ReadArgs {
    /// The game of records without a `Game` tag (reversi, othello, blokus, qwirkle, deblockle).
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// The variant of records without a `Variant` tag (`--variant wof`:
    /// WTHOR's PGN exports; `gamerec tags GAME` lists a game's variants); a
    /// record's own tag wins, with a `record::variant_mismatch` warning.
    #[arg(long, value_name = "VARIANT")]
    variant: Option<String>,
    /// Read inputs as this format instead of detecting it (gamerec, json, yaml,
    /// wthor, transcript, csv, ggf, pentobi, obf).
    #[arg(long, value_name = "FORMAT")]
    from: Option<String>,
    /// WTHOR players file (default: `WTHOR.JOU` beside each `.wtb` file).
    #[arg(long, value_name = "FILE")]
    players: Option<String>,
    /// WTHOR tournaments file (default: `WTHOR.TRN` beside each `.wtb` file).
    #[arg(long, value_name = "FILE")]
    tournaments: Option<String>,
    /// The size limit of one game in bytes: a larger game is
    /// `record::too_large` (reading goes on after it where the format allows).
    #[arg(long, value_name = "BYTES", default_value_t = crate::source::MAX_GAME_BYTES)]
    max_game_bytes: usize,
    /// The text files' encoding: utf-8, or latin1 (ISO-8859-1) for old files.
    #[arg(long, value_enum, value_name = "ENCODING", default_value_t = Encoding::Utf8)]
    encoding: Encoding,
}

/// `--encoding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Encoding {
    #[value(name = "utf-8", alias = "utf8")]
    Utf8,
    #[value(name = "latin1", alias = "iso-8859-1")]
    Latin1,
}

impl Default for ReadArgs {
    fn default() -> ReadArgs {
        ReadArgs {
            game: None,
            variant: None,
            from: None,
            players: None,
            tournaments: None,
            max_game_bytes: crate::source::MAX_GAME_BYTES,
            encoding: Encoding::Utf8,
        }
    }
}

/// Which games a command keeps: for the commands that read many
/// (`pipeline::Filter`). The games left out are counted in the
/// summary (`N skipped`), never written.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Filters")]
pub struct FilterOpts {
    /// Only games whose tag NAME matches GLOB (`*`, `?`, `[a-z]`; whole
    /// value, case-sensitive); `NAME!=GLOB`: the games whose tag matches
    /// left out. Repeatable: every test must hold.
    #[arg(long = "tag", value_name = "NAME=GLOB")]
    tag_filters: Vec<String>,
    /// Only games where a seat's player tag (`Black`, `White`, `Blue`, ...)
    /// matches GLOB. Repeatable: each glob some seat's player.
    #[arg(long = "player", value_name = "GLOB")]
    player_filters: Vec<String>,
    /// Only games whose `Date` lies within FROM..TO (`1990..1995`,
    /// `1990.05..1990.08`, `..1990.06`, `2001`); a partial date (`1990`,
    /// `1990.??.??`) must lie within it whole.
    #[arg(long, value_name = "FROM..TO")]
    date: Option<String>,
    /// Only games of MIN..MAX plies, as replayed (`20..60`, `..30`, `60..`, `60`).
    #[arg(long, value_name = "MIN..MAX")]
    plies: Option<String>,
    /// Only the valid games.
    #[arg(long, conflicts_with = "invalid")]
    valid: bool,
    /// Only the invalid games.
    #[arg(long)]
    invalid: bool,
}

impl FilterOpts {
    /// The filter asked for (`None`: none), or why an option's value is not one.
    fn filter(&self) -> Result<Option<crate::pipeline::Filter>, crate::pipeline::FilterError> {
        crate::pipeline::Filter::parse(&crate::pipeline::FilterArgs {
            tags: &self.tag_filters,
            players: &self.player_filters,
            date: self.date.as_deref(),
            plies: self.plies.as_deref(),
            valid: match (self.valid, self.invalid) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
        })
    }
}

/// Colour, for the commands that print diagnostics or boards.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ColorArgs {
    /// Colour in terminal output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

/// `-q`/`-qq` for the commands that report games.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct QuietSummary {
    /// Leave out warnings, per-game text and progress; errors and files that
    /// cannot be read are still printed. `-qq`: nothing but the summary line
    /// and files that cannot be read.
    #[arg(short, long, action = clap::ArgAction::Count)]
    quiet: u8,
    /// As `-qq`: nothing but the summary line and files that cannot be read.
    #[arg(long)]
    quiet_all: bool,
}

/// `-q` for the commands whose output is their result.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct QuietWarnings {
    /// No warnings on stderr (errors still are).
    #[arg(short, long)]
    quiet: bool,
}

/// `-q` for `html`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct QuietHtml {
    /// No summary line on stderr when the page goes to standard output.
    #[arg(short, long)]
    quiet: bool,
}

/// `-q` for `schema`, `completions` and `man`: accepted so that scripts
/// may pass `-q` to every command, but hidden from `--help`, since these
/// commands write nothing on stderr but errors and it changes nothing.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct QuietAccepted {
    #[arg(short, long, hide = true)]
    quiet: bool,
}

/// `--no-progress` for the commands that can run long.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ProgressArgs {
    /// Never draw the progress display (it is drawn only on a terminal,
    /// for runs longer than a second).
    #[arg(long)]
    no_progress: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and replay every game; report illegal or malformed games.
    #[command(after_help = "\
Examples:
  gamerec validate games/
  gamerec validate -q games/ --glob '*.wtb'
  gamerec validate games/ --format json > report.json

Exit codes:
  0  every game is valid
  1  a game is invalid (or has warnings, with --deny-warnings)
  2  usage error or unreadable file")]
    Validate {
        #[command(flatten)]
        args: validate::Args,
        #[command(flatten)]
        quiet: QuietSummary,
        #[command(flatten)]
        color: ColorArgs,
        #[command(flatten)]
        progress: ProgressArgs,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        filter: FilterOpts,
    },
    /// Replay and print each game's final scores, winners, and whether it is over.
    #[command(after_help = "\
Examples:
  gamerec score game.gamerec
  gamerec score games/ --format json
  gamerec score game.gamerec --plot scores.svg

Exit codes:
  0  every game is valid
  1  a game is invalid (or has warnings, with --deny-warnings)
  2  usage error or unreadable file")]
    Score {
        #[command(flatten)]
        args: score::Args,
        #[command(flatten)]
        quiet: QuietSummary,
        #[command(flatten)]
        color: ColorArgs,
        #[command(flatten)]
        progress: ProgressArgs,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        filter: FilterOpts,
    },
    /// Draw the position after a ply (default: the end).
    #[command(after_help = format!("\
Examples:
  gamerec show game.gamerec --ply 10
  gamerec show game.gamerec --svg - > board.svg

{EXIT_CODES}"))]
    Show {
        #[command(flatten)]
        args: show::Args,
        #[command(flatten)]
        quiet: QuietWarnings,
        #[command(flatten)]
        color: ColorArgs,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Convert records to JSON, YAML, gamerec text, GGF or Pentobi's files.
    #[command(after_help = "\
Examples:
  gamerec convert game.gamerec --to json
  gamerec convert games/ --to json > all.json     one document, every game
  gamerec convert WTHOR/ --to gamerec -o out/     one file per input

Exit codes:
  0  every game converted
  1  a game is invalid: its file is not written (--keep-going: written without it)
  2  usage error, unreadable file, or a game the target format cannot hold")]
    Convert {
        #[command(flatten)]
        args: convert::Args,
        #[command(flatten)]
        quiet: QuietWarnings,
        #[command(flatten)]
        color: ColorArgs,
        #[command(flatten)]
        progress: ProgressArgs,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        filter: FilterOpts,
    },
    /// Rewrite the results a replay proves wrong (Result tags, WTHOR scores, GGF and Pentobi RE).
    #[command(after_help = "\
Examples:
  gamerec fix games/ --dry-run                list what would change
  gamerec fix games/ -o fixed/                the fixed files into fixed/
  gamerec fix club.gamerec --in-place         rewritten, the original kept as club.gamerec.orig

Exit codes:
  0  every game is valid once fixed (--dry-run: and nothing is to change)
  1  an invalid game is left as it is (--dry-run: or something is to change)
  2  usage error, or a file that cannot be read or written")]
    Fix {
        #[command(flatten)]
        args: fix::Args,
        #[command(flatten)]
        quiet: QuietWarnings,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        filter: FilterOpts,
    },
    /// List the legal moves after a ply (default: the end).
    #[command(after_help = format!("\
Examples:
  gamerec moves game.gamerec --ply 10
  gamerec moves blokus.gamerec --by-score

{EXIT_CODES}"))]
    Moves {
        #[command(flatten)]
        args: moves::Args,
        #[command(flatten)]
        quiet: QuietWarnings,
        #[command(flatten)]
        color: ColorArgs,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Count the leaf nodes of the legal-move tree from the start position.
    #[command(after_help = "\
Examples:
  gamerec perft reversi 8
  gamerec perft blokus 3 --variant duo
  gamerec perft blokus 2 --variant trigon --players 3

Exit codes:
  0  the count is printed
  2  usage error (unknown game or variant)")]
    Perft(perft::Args),
    /// Write one self-contained HTML page (an index of every game and a replay viewer), or a site of any size.
    #[command(after_help = format!("\
Examples:
  gamerec html games/ -o games.html     one page (at most 10,000 games)
  gamerec html WTHOR/ -o wthor-site/    a site: wthor-site/index.html

{EXIT_CODES}"))]
    Html {
        #[command(flatten)]
        args: html::Args,
        #[command(flatten)]
        quiet: QuietHtml,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        filter: FilterOpts,
    },
    /// Count what the games hold, per game and variant: results, scores,
    /// lengths, openings, players.
    #[command(after_help = "\
Examples:
  gamerec stats games/
  gamerec stats WTHOR/ --opening 8 --top 20
  gamerec stats games/ --format json > stats.json
  gamerec stats games/ --plot stats.svg

Exit codes:
  0  the statistics are written (invalid games are counted in them)
  2  usage error, unreadable file, or no games")]
    Stats {
        #[command(flatten)]
        args: stats::Args,
        #[command(flatten)]
        quiet: QuietWarnings,
        #[command(flatten)]
        progress: ProgressArgs,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        filter: FilterOpts,
    },
    /// List the games entered more than once (the same moves; with
    /// --symmetric, up to the game's symmetries).
    #[command(after_help = "\
Examples:
  gamerec dedup games/
  gamerec dedup WTHOR/ --symmetric
  gamerec dedup games/ --format json > copies.json
  gamerec convert games/ --dedup -o unique.gamerec

Exit codes:
  0  every file was read (copies found or not; invalid games are not compared)
  2  usage error, unreadable file, or no games")]
    Dedup {
        #[command(flatten)]
        args: dedup::Args,
        #[command(flatten)]
        quiet: QuietWarnings,
        #[command(flatten)]
        progress: ProgressArgs,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// List every tag a game knows (a name one edit away from one is a warning).
    #[command(after_help = "\
Examples:
  gamerec tags reversi
  gamerec tags blokus")]
    Tags {
        #[command(flatten)]
        args: tags::Args,
        #[command(flatten)]
        quiet: QuietAccepted,
    },
    /// Print the JSON Schema of the `--format json` report.
    Schema {
        #[command(flatten)]
        args: schema::Args,
        #[command(flatten)]
        quiet: QuietAccepted,
    },
    /// Print a shell's completion script (e.g. `gamerec completions bash`).
    #[command(after_help = "\
Install:
  bash:  gamerec completions bash > ~/.local/share/bash-completion/completions/gamerec
  zsh:   gamerec completions zsh > ~/.zfunc/_gamerec   (with fpath+=~/.zfunc)
  fish:  gamerec completions fish > ~/.config/fish/completions/gamerec.fish")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
        #[command(flatten)]
        quiet: QuietAccepted,
    },
    /// Print a man page (roff): gamerec(1), or a command's own page with every option.
    #[command(after_help = "\
Examples:
  gamerec man                  gamerec(1), the commands
  gamerec man validate         gamerec-validate(1), every option of validate
  gamerec man --dir ~/.local/share/man/man1 && man gamerec-validate")]
    Man {
        /// The command whose page to print (validate, score, ...); none: gamerec(1).
        #[arg(value_name = "COMMAND")]
        page: Option<String>,
        /// Write every page (gamerec.1 and one per command) into this folder,
        /// created if missing, instead of printing one.
        #[arg(long, value_name = "DIR", conflicts_with = "page")]
        dir: Option<String>,
        #[command(flatten)]
        quiet: QuietAccepted,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum OutputFormat {
    #[default]
    Human,
    Json,
    Jsonl,
    Github,
    Sarif,
    Junit,
}

/// Where a command reads and writes, and the global options.
pub struct Ctx<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub stdin: &'a mut dyn Read,
    /// What the command line asked for; `ctx.settings.quiet` reads it (`Deref`).
    pub settings: Settings,
}

/// The command line's choices a command reads, apart from its streams.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Colour on stdout (boards).
    pub color_out: bool,
    /// Colour on stderr (diagnostics).
    pub color_err: bool,
    pub quiet: bool,
    /// `-qq`/`--quiet-all` (`validate`, `score`): not even errors, only the
    /// summary line and files that cannot be read.
    pub quiet_all: bool,
    /// Draw progress on stderr (a terminal, no `-q`, no `--no-progress`).
    pub progress: bool,
    pub game: Option<String>,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--tag`, `--player`, `--date`, `--plies`, `--valid`, `--invalid`.
    pub filter: Option<std::sync::Arc<crate::pipeline::Filter>>,
    pub from: Option<Format>,
    /// `--players`, `--tournaments`.
    pub players: Option<String>,
    pub tournaments: Option<String>,
    /// `--max-game-bytes`.
    pub max_game_bytes: usize,
    /// `--encoding latin1`.
    pub latin1: bool,
}

impl Ctx<'_> {
    /// How to read input files.
    pub fn read_options(&self) -> crate::formats::ReadOptions {
        crate::formats::ReadOptions {
            forced: self.settings.from,
            players: self.settings.players.as_ref().map(Into::into),
            tournaments: self.settings.tournaments.as_ref().map(Into::into),
            max_game_bytes: self.settings.max_game_bytes,
            latin1: self.settings.latin1,
            filter: self.settings.filter.clone(),
        }
    }

    /// The run's filter warnings (a `--tag` no game had), once at its end.
    pub fn filter_warnings(&mut self) {
        let Some(f) = self.settings.filter.clone() else {
            return;
        };
        if self.settings.quiet {
            return;
        }
        for w in f.warnings() {
            let _ = writeln!(self.err, "warning: {}", diagnostics::visible(&w));
        }
    }

    /// A usage problem: message on stderr, exit 2.
    pub fn usage(&mut self, message: &str) -> i32 {
        let _ = writeln!(self.err, "error: {}", diagnostics::visible(message));
        EXIT_USAGE
    }

    /// The game a command names, or the usage error (with "did you mean"
    /// and the known names) as the exit code.
    pub fn game(&mut self, name: &str) -> Result<&'static dyn crate::registry::DynGame, i32> {
        crate::registry::by_name(name).ok_or_else(|| {
            self.usage(&format!(
                "unknown game `{name}` ({})",
                crate::registry::unknown_help(name)
            ))
        })
    }
}

/// Whether the process's stdout and stderr are terminals.
pub struct Terminals {
    pub out: bool,
    pub err: bool,
}

/// Runs the command line; returns the exit code.
pub fn run(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
    terminals: Terminals,
) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                write!(err, "{text}")
            } else {
                write!(out, "{text}")
            };
            return code;
        }
    };
    // what each command takes; the rest keep their defaults
    let none = ReadArgs::default();
    let no_filter = FilterOpts::default();
    let CommonArgs {
        read,
        quiet,
        quiet_all,
        color,
        no_progress,
    } = common_args(&cli.command, &none);
    let (color_out, color_err) = colors(color, &terminals);
    let from = match checked_read(read, err) {
        Ok(from) => from,
        Err(code) => return code,
    };
    let filter = match filter_of(&cli.command, &no_filter).filter() {
        Ok(f) => f.map(std::sync::Arc::new),
        Err(e) => {
            let _ = writeln!(err, "error: {}", diagnostics::visible(&e.to_string()));
            return EXIT_USAGE;
        }
    };
    let mut ctx = Ctx {
        out,
        err,
        stdin,
        settings: Settings {
            color_out,
            color_err,
            quiet,
            quiet_all,
            progress: terminals.err && !no_progress && !quiet,
            game: read.game.clone(),
            variant: read.variant.clone(),
            filter,
            from,
            players: read.players.clone(),
            tournaments: read.tournaments.clone(),
            max_game_bytes: read.max_game_bytes,
            latin1: read.encoding == Encoding::Latin1,
        },
    };
    let code = dispatch(&mut ctx, cli.command);
    let flushed = ctx.out.flush();
    let _ = ctx.err.flush();
    match flushed {
        Ok(()) => code,
        Err(e) => write_failed(&mut ctx, &e, code),
    }
}

/// The options every reading command shares, as this command gives them.
struct CommonArgs<'a> {
    read: &'a ReadArgs,
    quiet: bool,
    quiet_all: bool,
    color: ColorChoice,
    no_progress: bool,
}

/// What `command` takes of the shared options; the rest keep their
/// defaults (`none` for the reading ones).
fn common_args<'a>(command: &'a Command, none: &'a ReadArgs) -> CommonArgs<'a> {
    let quiet_all = match command {
        Command::Validate { quiet, .. } | Command::Score { quiet, .. } => {
            quiet.quiet >= 2 || quiet.quiet_all
        }
        _ => false,
    };
    let (read, quiet, color, no_progress) = match command {
        Command::Validate {
            read,
            quiet,
            color,
            progress,
            ..
        }
        | Command::Score {
            read,
            quiet,
            color,
            progress,
            ..
        } => (
            read,
            quiet.quiet > 0 || quiet.quiet_all,
            color.color,
            progress.no_progress,
        ),
        Command::Convert {
            read,
            quiet,
            color,
            progress,
            ..
        } => (read, quiet.quiet, color.color, progress.no_progress),
        Command::Show {
            read, quiet, color, ..
        }
        | Command::Moves {
            read, quiet, color, ..
        } => (read, quiet.quiet, color.color, true),
        Command::Html { read, quiet, .. } => (read, quiet.quiet, ColorChoice::Never, true),
        Command::Fix { read, quiet, .. } => (read, quiet.quiet, ColorChoice::Never, true),
        Command::Stats {
            read,
            quiet,
            progress,
            ..
        }
        | Command::Dedup {
            read,
            quiet,
            progress,
            ..
        } => (read, quiet.quiet, ColorChoice::Never, progress.no_progress),
        Command::Perft(a) => (none, a.quiet, ColorChoice::Never, a.no_progress),
        Command::Schema { .. }
        | Command::Tags { .. }
        | Command::Completions { .. }
        | Command::Man { .. } => (none, false, ColorChoice::Never, true),
    };
    CommonArgs {
        read,
        quiet,
        quiet_all,
        color,
        no_progress,
    }
}

/// The filter options `command` takes (`none` for the commands without).
fn filter_of<'a>(command: &'a Command, none: &'a FilterOpts) -> &'a FilterOpts {
    match command {
        Command::Validate { filter, .. }
        | Command::Score { filter, .. }
        | Command::Convert { filter, .. }
        | Command::Html { filter, .. }
        | Command::Stats { filter, .. }
        | Command::Fix { filter, .. } => filter,
        _ => none,
    }
}

/// Whether to colour stdout and stderr.
fn colors(color: ColorChoice, terminals: &Terminals) -> (bool, bool) {
    match color {
        ColorChoice::Always => (true, true),
        ColorChoice::Never => (false, false),
        ColorChoice::Auto => {
            let plain = plain_terminal(
                std::env::var_os("NO_COLOR").as_deref(),
                std::env::var_os("TERM").as_deref(),
            );
            (terminals.out && !plain, terminals.err && !plain)
        }
    }
}

/// The `--from` format, after checking it and `--game` by name; on an
/// unknown name, the usage exit code after saying so.
fn checked_read(read: &ReadArgs, err: &mut dyn Write) -> Result<Option<Format>, i32> {
    let from = match read.from.as_deref() {
        None => None,
        Some(name) => match Format::by_name(name) {
            Some(f) => Some(f),
            None => {
                let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                let _ = writeln!(
                    err,
                    "error: unknown format `{name}` (known: {})",
                    known.join(", ")
                );
                return Err(EXIT_USAGE);
            }
        },
    };
    if let Some(g) = read.game.as_deref() {
        if crate::registry::by_name(g).is_none() {
            let _ = writeln!(
                err,
                "error: unknown game `{g}` ({})",
                crate::registry::unknown_help(g)
            );
            return Err(EXIT_USAGE);
        }
    }
    if let Some(v) = read.variant.as_deref() {
        if let Some(message) = unknown_variant(v, read.game.as_deref()) {
            let _ = writeln!(err, "error: {}", diagnostics::visible(&message));
            return Err(EXIT_USAGE);
        }
    }
    Ok(from)
}

/// Why `--variant` names no variant: of `--game`'s game, or of any game
/// without `--game`.
fn unknown_variant(variant: &str, game: Option<&str>) -> Option<String> {
    let games: Vec<&dyn crate::registry::DynGame> = match game.and_then(crate::registry::by_name) {
        Some(g) => vec![g],
        None => crate::registry::REGISTRY.to_vec(),
    };
    let v = variant.trim();
    if games
        .iter()
        .any(|g| g.variants().iter().any(|k| k.eq_ignore_ascii_case(v)))
    {
        return None;
    }
    let known: Vec<String> = games
        .iter()
        .map(|g| format!("{}: {}", g.name(), g.variants().join(", ")))
        .collect();
    Some(format!(
        "invalid value `{variant}` for --variant: no {} variant has this name (known: {})",
        game.unwrap_or("game's"),
        known.join("; ")
    ))
}

/// Runs the parsed command; returns its exit code.
fn dispatch(ctx: &mut Ctx, command: Command) -> i32 {
    match command {
        Command::Validate { args, .. } => validate::run(ctx, args),
        Command::Score { args, .. } => score::run(ctx, args),
        Command::Show { args, .. } => show::run(ctx, args),
        Command::Convert { args, .. } => convert::run(ctx, args),
        Command::Moves { args, .. } => moves::run(ctx, args),
        Command::Fix { args, .. } => fix::run(ctx, args),
        Command::Perft(a) => perft::run(ctx, a),
        Command::Html { args, .. } => html::run(ctx, args),
        Command::Stats { args, .. } => stats::run(ctx, args),
        Command::Dedup { args, .. } => dedup::run(ctx, args),
        Command::Schema { args, .. } => schema::run(ctx, args),
        Command::Tags { args, .. } => tags::run(ctx, args),
        Command::Completions { shell, .. } => {
            // written whole: the generator panics on a closed pipe
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "gamerec", &mut script);
            match ctx.out.write_all(&script) {
                Ok(()) => EXIT_OK,
                Err(e) => write_failed(ctx, &e, EXIT_OK),
            }
        }
        Command::Man { page, dir, .. } => man(ctx, page.as_deref(), dir.as_deref()),
    }
}

/// `gamerec man [COMMAND] [--dir DIR]`: one page, or every page into a folder.
/// A command's page is `gamerec-COMMAND(1)`, the name gamerec(1) refers to.
fn man(ctx: &mut Ctx, page: Option<&str>, dir: Option<&str>) -> i32 {
    let mut cli = Cli::command().disable_help_subcommand(true);
    // names the subcommands `gamerec-validate` and so on
    cli.build();
    if let Some(dir) = dir {
        let made = std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(cli, dir));
        return match made {
            Ok(()) => EXIT_OK,
            Err(e) => ctx.usage(&format!("cannot write the man pages in {dir}: {e}")),
        };
    }
    let cmd = match page {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(sub) => sub.clone().version(VERSION),
            None => {
                let known: Vec<&str> = cli.get_subcommands().map(|s| s.get_name()).collect();
                return ctx.usage(&format!(
                    "no man page for `{name}` (pages: {})",
                    known.join(", ")
                ));
            }
        },
    };
    // written whole, as completions: a closed pipe ends quietly
    let mut text = Vec::new();
    let rendered = clap_mangen::Man::new(cmd)
        .render(&mut text)
        .and_then(|()| ctx.out.write_all(&text));
    match rendered {
        Ok(()) => EXIT_OK,
        Err(e) => write_failed(ctx, &e, EXIT_OK),
    }
}

/// Whether `--color auto` leaves colour off on a terminal: `NO_COLOR` set
/// and not empty (no-color.org), or `TERM=dumb` (a terminal that draws no
/// escapes, as in Emacs shells).
fn plain_terminal(no_color: Option<&std::ffi::OsStr>, term: Option<&std::ffi::OsStr>) -> bool {
    no_color.is_some_and(|v| !v.is_empty()) || term.is_some_and(|t| t == "dumb")
}

/// A JSON document on `out`, pretty-printed, then a line break (the
/// `--format json` output of `stats` and `dedup`).
pub fn write_document(
    out: &mut dyn std::io::Write,
    doc: &serde_json::Value,
) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, doc).map_err(std::io::Error::from)?;
    writeln!(out)
}

/// Output could not be written: a closed pipe (`| head`) ends quietly with
/// the code so far; anything else (`> /dev/full`) is said on stderr, exit 2.
pub fn write_failed(ctx: &mut Ctx, e: &std::io::Error, code: i32) -> i32 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return code;
    }
    let _ = writeln!(ctx.err, "error: cannot write the output: {e}");
    EXIT_USAGE
}

/// The binary's entry point.
pub fn main() -> i32 {
    let terminals = Terminals {
        out: std::io::stdout().is_terminal(),
        err: std::io::stderr().is_terminal(),
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let mut stdin = std::io::stdin().lock();
    run(
        std::env::args_os(),
        &mut stdin,
        &mut out,
        &mut err,
        terminals,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_colour_under_term_dumb_or_no_color() {
        fn s(v: &str) -> Option<&OsStr> {
            Some(OsStr::new(v))
        }
        assert!(!plain_terminal(None, s("xterm-256color")));
        assert!(!plain_terminal(None, None));
        assert!(plain_terminal(None, s("dumb")));
        assert!(plain_terminal(s("1"), s("xterm")));
        assert!(!plain_terminal(s(""), s("xterm")));
    }
}
