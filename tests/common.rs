//! Helpers shared by the integration tests: run the CLI in-process.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use gamerec::cli::{Terminals, run};

/// What one run of the command line printed.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `gamerec ARGS` with `stdin`, no colour.
pub fn gamerec(args: &[&str], stdin: &[u8]) -> Run {
    let mut argv = vec!["gamerec"];
    argv.extend_from_slice(args);
    let mut input = stdin;
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = run(
        argv,
        &mut input,
        &mut out,
        &mut err,
        Terminals {
            out: false,
            err: false,
        },
    );
    Run {
        code,
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    }
}

impl Run {
    /// A readable transcript for snapshots.
    pub fn transcript(&self, command: &str) -> String {
        format!(
            "$ {command}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// The fixture extensions: gamerec text and every interchange format read.
pub const FIXTURE_EXTENSIONS: &[&str] = &[
    "gamerec", "wtb", "txt", "csv", "ggf", "blksgf", "pgn", "json", "yaml", "obf",
];

/// Every fixture file (`*.gamerec` and the interchange formats) below `dir`, sorted.
pub fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| FIXTURE_EXTENSIONS.contains(&x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Extra arguments a fixture asks for on a first line `; gamerec-args: ...`.
pub fn fixture_args(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("; gamerec-args:"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// A proptest configuration of `cases` cases that writes no regression files.
pub fn config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Where the WTHOR database stands beside the checkout (`shared/`).
pub const WTHOR_DIR: &str = "../shared/data/wthor";

/// A year of the WTHOR database (the repository's 1978 when the database
/// is not beside the checkout).
pub fn one_wthor_year() -> PathBuf {
    let year = Path::new(WTHOR_DIR).join("WTH_1990.wtb");
    if year.is_file() {
        year
    } else {
        PathBuf::from("fixtures/wthor/valid/WTH_1978.wtb")
    }
}

/// The database's `.wtb` files in name order, those whose name holds
/// `year` when given; `None` (and a line saying so) when the database is
/// not beside the checkout.
pub fn wthor_years(year: Option<&str>) -> Option<Vec<PathBuf>> {
    let Ok(dir) = std::fs::read_dir(WTHOR_DIR) else {
        eprintln!("skipped: {WTHOR_DIR} is absent");
        return None;
    };
    let mut files: Vec<PathBuf> = dir
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".wtb") && year.is_none_or(|y| name.contains(y))
        })
        .collect();
    files.sort();
    Some(files)
}
