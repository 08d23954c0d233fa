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

/// A Reversi collection of `n` games in gamerec notation, for tests of
/// large inputs: game `i` (from 0) is the first `10 + i % 50` plies of a
/// real game (WTHOR 1980, game 1), `Black "Black {i % 7}"` against
/// `White "White {i % 11}"` at `Event "Cup {i % 3}"`; each game in
/// `invalid` instead plays `f5 a1` (`a1` flips nothing), and game `i` for
/// `(i, name)` in `named` has `name` as its black player.
pub fn reversi_collection(n: usize, invalid: &[usize], named: &[(usize, &str)]) -> String {
    const MOVES: &str = "f5 d6 c5 f4 e3 d3 e6 g5 c6 f3 d2 c4 c3 e7 f7 c7 f6 d7 c8 b5 g6 g4 e2 f2 b6 f8 h4 h3 h6 g3 h5 b4 h2 b3 f1 c1 a5 e1 d1 g1 a4 a3 a2 a7 b2 d8 e8 b8 a6 a1 b1 c2 h1 g2 b7 h7 h8 a8 g7 g8";
    let moves: Vec<&str> = MOVES.split(' ').collect();
    let mut out = String::new();
    for i in 0..n {
        let black = named
            .iter()
            .find(|(k, _)| *k == i)
            .map_or_else(|| format!("Black {}", i % 7), |(_, name)| name.to_string());
        out.push_str(&format!(
            "[Game \"reversi\"]\n[Event \"Cup {}\"]\n[Date \"2001\"]\n[Black \"{black}\"]\n[White \"White {}\"]\n\n",
            i % 3,
            i % 11
        ));
        if invalid.contains(&i) {
            out.push_str("f5 a1\n\n");
        } else {
            let k = (10 + i % 50).min(moves.len());
            out.push_str(&moves[..k].join(" "));
            out.push_str("\n\n");
        }
    }
    out
}

/// Black's and white's scores of a Reversi `scores` object with the empty
/// squares of a board of `squares` given to the winner (half each on a
/// draw): the `wof` scores of the same final position.
pub fn wof(scores: &serde_json::Value, squares: i64) -> serde_json::Value {
    let b = scores["black"].as_i64().unwrap_or(0);
    let w = scores["white"].as_i64().unwrap_or(0);
    let e = squares - b - w;
    let (b, w) = match b.cmp(&w) {
        std::cmp::Ordering::Greater => (b + e, w),
        std::cmp::Ordering::Less => (b, w + e),
        std::cmp::Ordering::Equal => (b + e / 2, w + e - e / 2),
    };
    serde_json::json!({ "black": b, "white": w })
}

/// The games of a `convert --to json` document.
pub fn games_of(json: &str) -> Result<Vec<serde_json::Value>, String> {
    let doc: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    doc["games"]
        .as_array()
        .cloned()
        .ok_or_else(|| "no games list".to_string())
}
