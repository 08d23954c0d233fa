//! `gamerec convert PATH --to json|yaml|gamerec|ggf|blksgf [-o FILE]`.
//!
//! Conversion streams: each game is replayed and written as soon as it is
//! read. The output goes to a temporary file first (beside `-o FILE`, or in
//! the system's temporary folder for standard output); it becomes the
//! output only when every game converted, so a file holding an invalid game
//! is refused (exit 1, with its diagnostics) and a game the target format
//! cannot express (exit 2) leaves nothing written.

use std::io::{self, Write};

use clap::ValueEnum;

use super::inputs::Event;
use super::{Ctx, EXIT_INVALID, EXIT_OK, EXIT_USAGE, diagnostics};
use crate::formats::{gamerec, ggf, pentobi};
use crate::model::DocGame;
use crate::replay::Options;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    Json,
    Yaml,
    Gamerec,
    /// GGF (Othello games only).
    Ggf,
    /// Pentobi's Blokus files (Blokus games Pentobi can hold only).
    Blksgf,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A file or `-` for standard input.
    pub path: String,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Write here instead of standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
}

/// Writes a document a game at a time, the same bytes as its format's
/// writer gives for the whole document.
struct Writer {
    to: Target,
    games: usize,
}

impl Writer {
    fn start(&self, w: &mut dyn Write) -> io::Result<()> {
        match self.to {
            Target::Json => write!(w, "{{\n  \"games\": ["),
            _ => Ok(()),
        }
    }

    /// `Err(Ok(why))` when the target cannot hold the game.
    fn game(&mut self, w: &mut dyn Write, game: &DocGame) -> Result<(), Result<String, io::Error>> {
        let first = self.games == 0;
        self.games += 1;
        let text = match self.to {
            Target::Json => {
                let sep = if first { "\n    " } else { ",\n    " };
                w.write_all(sep.as_bytes()).map_err(Err)?;
                return crate::formats::json::write_pretty_at(w, game, 4).map_err(Err);
            }
            Target::Yaml => {
                let item = serde_yaml::to_string(&[game]).map_err(|e| Ok(e.to_string()))?;
                if first {
                    format!("games:\n{item}")
                } else {
                    item
                }
            }
            Target::Gamerec => {
                let text = gamerec::write_game(game);
                if first { text } else { format!("\n{text}") }
            }
            Target::Ggf => ggf::write(std::slice::from_ref(game)).map_err(Ok)?,
            Target::Blksgf => pentobi::write(std::slice::from_ref(game)).map_err(Ok)?,
        };
        w.write_all(text.as_bytes()).map_err(Err)
    }

    fn finish(&self, w: &mut dyn Write) -> io::Result<()> {
        match self.to {
            Target::Json if self.games == 0 => writeln!(w, "]\n}}"),
            Target::Json => writeln!(w, "\n  ]\n}}"),
            Target::Yaml if self.games == 0 => writeln!(w, "games: []"),
            _ => Ok(()),
        }
    }
}

pub fn run(ctx: &mut Ctx, args: Args) -> i32 {
    let output = args.output.as_deref().filter(|o| *o != "-");
    let dir = match output {
        Some(file) => std::path::Path::new(file)
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| std::path::PathBuf::from("."), |p| p.to_path_buf()),
        None => std::env::temp_dir(),
    };
    let mut tmp = match tempfile::NamedTempFile::new_in(&dir) {
        Ok(t) => t,
        Err(e) => {
            return ctx.usage(&format!(
                "cannot write a temporary file in {}: {e}",
                dir.display()
            ));
        }
    };
    let opts = Options {
        game: ctx.game.clone(),
        record_moves: true,
        ..Options::default()
    };
    let read_opts = ctx.read_options();
    let mut writer = Writer {
        to: args.to,
        games: 0,
    };
    let mut invalid = 0usize;
    let mut refused: Option<String> = None;
    let mut file_error = false;
    let (quiet, color) = (ctx.quiet, ctx.color_err);
    let result = {
        let err: &mut dyn Write = &mut *ctx.err;
        let mut out = io::BufWriter::new(tmp.as_file_mut());
        let stdin: &mut dyn io::Read = &mut *ctx.stdin;
        let r = writer.start(&mut out).and_then(|()| {
            super::inputs::run(
                stdin,
                std::slice::from_ref(&args.path),
                &super::inputs::ScanArgs::default(),
                &read_opts,
                &opts,
                None,
                &mut |event| {
                    match event {
                        Event::Game(g, r, _) => {
                            if !quiet || !r.valid {
                                diagnostics::write_game(err, color, g, r)?;
                            }
                            if !r.valid {
                                invalid += 1;
                            } else if invalid == 0 && refused.is_none() && !file_error {
                                match writer.game(&mut out, &DocGame::from_report(r)) {
                                    Ok(()) => {}
                                    Err(Ok(why)) => refused = Some(why),
                                    Err(Err(e)) => return Err(e),
                                }
                            }
                        }
                        Event::FileError(e) => {
                            file_error = true;
                            writeln!(
                                err,
                                "error: {}: {}",
                                diagnostics::visible(&e.file),
                                diagnostics::visible(&e.message)
                            )?;
                        }
                        Event::Skipped(e) => writeln!(
                            err,
                            "warning: {}: {}",
                            diagnostics::visible(&e.file),
                            diagnostics::visible(&e.message)
                        )?,
                    }
                    Ok(())
                },
            )
        });
        r.and_then(|()| writer.finish(&mut out))
            .and_then(|()| out.flush())
    };
    if let Err(e) = result {
        return super::write_failed(ctx, &e, EXIT_USAGE);
    }
    if file_error {
        return EXIT_USAGE;
    }
    if invalid > 0 {
        let _ = writeln!(
            ctx.err,
            "error: not converted: {invalid} invalid game{}",
            if invalid == 1 { "" } else { "s" }
        );
        return EXIT_INVALID;
    }
    if let Some(why) = refused {
        let _ = writeln!(ctx.err, "error: not converted: {why}");
        return EXIT_USAGE;
    }
    match output {
        Some(file) => {
            // a temporary file is private; the output is an ordinary file
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ =
                    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
            }
            if let Err(e) = tmp.persist(file) {
                return ctx.usage(&format!("cannot write {file}: {}", e.error));
            }
        }
        None => {
            let copied = tmp
                .reopen()
                .and_then(|mut f| io::copy(&mut f, &mut *ctx.out));
            if let Err(e) = copied {
                return super::write_failed(ctx, &e, EXIT_USAGE);
            }
        }
    }
    EXIT_OK
}
