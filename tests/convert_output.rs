//! `convert`'s output (issue 30, finds 5 and 10): standard output streams
//! (no temporary file), and `-o NAME.json` with a directory input is a plain
//! usage error, not a directory of that name.

mod common;

use std::process::{Command, Stdio};

fn fresh_dir(what: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamerec-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Find 5: standard output is written as the games convert, with no
/// temporary file: it works where no temporary file can be made.
#[test]
fn convert_to_stdout_needs_no_temporary_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_gamerec"))
        .args([
            "convert",
            "--to",
            "json",
            "fixtures/reversi/valid/full-game.gamerec",
        ])
        .env("TMPDIR", "/nonexistent/gamerec-no-such-dir")
        .stdin(Stdio::null())
        .output()
        .expect("run gamerec");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON document");
    assert_eq!(doc["games"].as_array().map(Vec::len), Some(1));
}

/// A game that does not convert stops standard output where it is: the
/// games before it were written, the document is left unfinished (no
/// reader takes it for whole) and the exit code says why.
#[test]
fn convert_to_stdout_stops_at_an_invalid_game() {
    let valid = std::fs::read_to_string("fixtures/reversi/valid/full-game.gamerec").unwrap();
    let input = format!("{valid}\n\n[Game \"reversi\"]\n\n1. a1\n");
    let run = common::gamerec(&["convert", "--to", "json", "-"], input.as_bytes());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("\"games\""), "{}", run.stdout);
    assert!(
        serde_json::from_str::<serde_json::Value>(&run.stdout).is_err(),
        "an unfinished document must not read as whole"
    );
    assert!(run.stderr.contains("not converted"), "{}", run.stderr);
}

/// Find 10: `-o all.json` with a directory input is refused with a plain
/// sentence, and no directory `all.json` is made.
#[test]
fn convert_dir_input_to_a_file_name_is_refused() {
    let dir = fresh_dir("convert-all");
    let target = dir.join("all.json");
    let run = common::gamerec(
        &[
            "convert",
            "--to",
            "json",
            "-o",
            &target.to_string_lossy(),
            "fixtures/reversi/valid",
        ],
        b"",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!target.exists(), "a directory all.json was made");
    assert!(run.stderr.contains("looks like a file"), "{}", run.stderr);
    // a name ending in `/` is a directory, as before
    let out = format!("{}/", dir.join("out").display());
    let run = common::gamerec(
        &[
            "convert",
            "--to",
            "json",
            "-o",
            &out,
            "fixtures/reversi/valid",
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("out").is_dir());
    std::fs::remove_dir_all(&dir).ok();
}

/// Find 5: a conversion to a file ended by SIGINT, SIGTERM or SIGHUP leaves
/// no temporary file behind (and no target).
#[cfg(unix)]
#[test]
fn a_signal_leaves_no_temporary_file() {
    use std::io::Write;
    let valid = std::fs::read_to_string("fixtures/reversi/valid/full-game.gamerec").unwrap();
    for sig in ["INT", "TERM", "HUP"] {
        let dir = fresh_dir(&format!("convert-signal-{sig}"));
        let target = dir.join("out.json");
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamerec"))
            .args([
                "convert",
                "--to",
                "json",
                "-o",
                &target.to_string_lossy(),
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gamerec");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(valid.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // wait for the temporary file, then signal the run still reading
        let start = std::time::Instant::now();
        while std::fs::read_dir(&dir).unwrap().count() == 0 {
            assert!(start.elapsed().as_secs() < 30, "no temporary file appeared");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let killed = Command::new("kill")
            .args([&format!("-{sig}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        drop(stdin);
        assert!(status.code().is_none(), "{sig}: ended by the signal");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(left.is_empty(), "SIG{sig} left {left:?}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Find 10: `convert --strict` refuses what the target cannot hold (exit
/// 2, nothing written) where a plain conversion warns.
#[test]
fn strict_refuses_what_the_target_cannot_hold() {
    let input = "fixtures/reversi/valid/full-game.gamerec";
    let run = common::gamerec(&["convert", "--to", "ggf", input], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("not kept in GGF"), "{}", run.stderr);
    let dir = fresh_dir("convert-strict");
    let target = dir.join("out.ggf");
    let run = common::gamerec(
        &[
            "convert",
            "--to",
            "ggf",
            "--strict",
            "-o",
            &target.to_string_lossy(),
            input,
        ],
        b"",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--strict, and GGF cannot hold"),
        "{}",
        run.stderr
    );
    assert!(!target.exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "a temporary file left"
    );
    std::fs::remove_dir_all(&dir).ok();
}
