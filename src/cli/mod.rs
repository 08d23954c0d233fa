//! The command line: one file per subcommand, with the shared pieces here
//! (arguments, input loading, replaying in parallel, exit codes).
//!
//! [`run`] takes its arguments, standard input and output streams as
//! parameters so tests can drive it in-process.

mod convert;
pub mod diagnostics;
mod html;
mod inputs;
mod moves;
mod perft;
pub mod report;
mod schema;
mod score;
mod show;
mod validate;

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};

use clap::{Parser, Subcommand, ValueEnum};

use crate::formats::Format;

/// Exit codes (spec §2).
pub const EXIT_OK: i32 = 0;
pub const EXIT_INVALID: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "gamerec",
    version,
    about = "Validate, score, draw and convert records of Reversi, Blokus, Qwirkle and Deblockle games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour in terminal output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Print only the summary line.
    #[arg(short, long, global = true)]
    quiet: bool,
    /// The game of records without a `Game` tag (reversi, othello, blokus, qwirkle, deblockle).
    #[arg(long, global = true, value_name = "GAME")]
    game: Option<String>,
    /// Read inputs as this format instead of detecting it (gamerec, json, yaml,
    /// wthor, transcript, csv, ggf, pentobi).
    #[arg(long, global = true, value_name = "FORMAT")]
    from: Option<String>,
    /// WTHOR players file (default: `WTHOR.JOU` beside each `.wtb` file); for
    /// `perft`, the number of players (Blokus Trigon: 3 plays the smaller board).
    #[arg(long, global = true, value_name = "FILE")]
    players: Option<String>,
    /// WTHOR tournaments file (default: `WTHOR.TRN` beside each `.wtb` file).
    #[arg(long, global = true, value_name = "FILE")]
    tournaments: Option<String>,
    /// The size limit of one game in bytes: a larger game is
    /// `record::too_large` (reading goes on after it where the format allows).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crate::source::MAX_GAME_BYTES)]
    max_game_bytes: usize,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and replay every game; report illegal or malformed games.
    Validate(validate::Args),
    /// Replay and print each game's final scores, winners, and whether it is over.
    Score(score::Args),
    /// Draw the position after a ply (default: the end).
    Show(show::Args),
    /// Convert records to JSON, YAML or gamerec text.
    Convert(convert::Args),
    /// List the legal moves after a ply (default: the end).
    Moves(moves::Args),
    /// Count the leaf nodes of the legal-move tree from the start position.
    Perft(perft::Args),
    /// Write one self-contained HTML page: an index of every game and a replay viewer.
    Html(html::Args),
    /// Print the JSON Schema of the `--format json` report.
    Schema(schema::Args),
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
    /// Colour on stdout (boards).
    pub color_out: bool,
    /// Colour on stderr (diagnostics).
    pub color_err: bool,
    pub quiet: bool,
    pub game: Option<String>,
    pub from: Option<Format>,
    /// `--players`, `--tournaments`.
    pub players: Option<String>,
    pub tournaments: Option<String>,
    /// `--max-game-bytes`.
    pub max_game_bytes: usize,
}

impl Ctx<'_> {
    /// How to read input files.
    pub fn read_options(&self) -> crate::formats::ReadOptions {
        crate::formats::ReadOptions {
            forced: self.from,
            players: self.players.as_ref().map(Into::into),
            tournaments: self.tournaments.as_ref().map(Into::into),
            max_game_bytes: self.max_game_bytes,
        }
    }

    /// A usage problem: message on stderr, exit 2.
    pub fn usage(&mut self, message: &str) -> i32 {
        let _ = writeln!(self.err, "error: {message}");
        EXIT_USAGE
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
    let (color_out, color_err) = match cli.color {
        ColorChoice::Always => (true, true),
        ColorChoice::Never => (false, false),
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            (terminals.out && !no_color, terminals.err && !no_color)
        }
    };
    let from = match cli.from.as_deref() {
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
                return EXIT_USAGE;
            }
        },
    };
    if let Some(g) = cli.game.as_deref() {
        if crate::games::by_name(g).is_none() {
            let known: Vec<&str> = crate::games::REGISTRY.iter().map(|g| g.name()).collect();
            let _ = writeln!(
                err,
                "error: unknown game `{g}` (known: {})",
                known.join(", ")
            );
            return EXIT_USAGE;
        }
    }
    let mut ctx = Ctx {
        out,
        err,
        stdin,
        color_out,
        color_err,
        quiet: cli.quiet,
        game: cli.game,
        from,
        players: cli.players,
        tournaments: cli.tournaments,
        max_game_bytes: cli.max_game_bytes,
    };
    let code = match cli.command {
        Command::Validate(a) => validate::run(&mut ctx, a),
        Command::Score(a) => score::run(&mut ctx, a),
        Command::Show(a) => show::run(&mut ctx, a),
        Command::Convert(a) => convert::run(&mut ctx, a),
        Command::Moves(a) => moves::run(&mut ctx, a),
        Command::Perft(a) => perft::run(&mut ctx, a),
        Command::Html(a) => html::run(&mut ctx, a),
        Command::Schema(a) => schema::run(&mut ctx, a),
    };
    let flushed = ctx.out.flush();
    let _ = ctx.err.flush();
    match flushed {
        Ok(()) => code,
        Err(e) => write_failed(&mut ctx, &e, code),
    }
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
