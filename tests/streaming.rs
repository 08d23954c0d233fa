//! The pipeline streams (issue "Stream every command"): games are read one
//! at a time whatever the block boundaries, damaged input recovers without
//! rescanning, limits replace exhaustion, and output problems are told.
//!
//! Memory and time are measured by `benches/memory.sh` and by the ignored
//! test `damaged_inputs_take_linear_time` (`cargo test --release --test
//! streaming -- --ignored`), not here.

mod common;

use std::io::Read;
use std::time::{Duration, Instant};

use common::gamerec;
use gamerec::record::{Reader, parse_file};
use gamerec::source::TextBuf;
use proptest::prelude::*;

/// A reader that hands out at most `step` bytes a call: block boundaries
/// fall anywhere.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    step: usize,
}

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The games of a text read a few bytes at a time, their spans moved back
/// to the file's offsets.
fn streamed(text: &str, step: usize) -> Vec<gamerec::record::RawGame> {
    let src = Trickle {
        data: text.as_bytes().to_vec(),
        at: 0,
        step,
    };
    let mut reader = Reader::new(TextBuf::new(Vec::new(), Box::new(src), usize::MAX));
    let mut games = Vec::new();
    while let Some(mut g) = reader.next_game() {
        let start = g.origin.offset;
        assert_eq!(
            text.get(start..start + g.text.len()),
            Some(g.text.as_str()),
            "a game's text is its part of the file"
        );
        g.raw.shift(start);
        games.push(g.raw);
    }
    games
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Reading a few bytes at a time gives the games of the whole text.
    #[test]
    fn block_boundaries_do_not_matter(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("[Game \"reversi\"]".to_string()),
                Just("[Event \"a b\"]\n".to_string()),
                Just("[Ev \"x\n".to_string()),
                Just("{ c\n d }".to_string()),
                Just("{".to_string()),
                Just("}".to_string()),
                Just("; line\n".to_string()),
                Just("1.".to_string()),
                Just("f5".to_string()),
                Just("ç".to_string()),
                Just("\u{feff}".to_string()),
                Just(" ".to_string()),
                Just("\n".to_string()),
                Just("\r\n".to_string()),
                Just("*".to_string()),
                Just("36-28".to_string()),
            ],
            0..40,
        ),
        step in 1usize..9,
    ) {
        let text: String = pieces.concat();
        prop_assert_eq!(streamed(&text, step), parse_file(&text));
    }
}

#[test]
fn a_game_over_the_limit_is_too_large_and_the_next_is_read() {
    let mut text = String::from("[Game \"reversi\"]\n");
    for _ in 0..200 {
        text.push_str("f5 d6 c3 d3 ");
    }
    text.push_str("\n[Game \"reversi\"]\nf5 d6\n");
    let r = gamerec(
        &[
            "validate",
            "--format",
            "json",
            "--max-game-bytes",
            "1000",
            "-",
        ],
        text.as_bytes(),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["errors"][0]["code"], "record::too_large");
    assert_eq!(games[0]["errors"][0]["line"], 1);
    assert_eq!(games[1]["valid"], true);
    assert_eq!(games[1]["plies"], 2);
}

#[test]
fn an_unterminated_comment_past_the_limit_resumes_at_the_next_tag_line() {
    let mut text = String::from("[Game \"reversi\"]\nf5 { never closed\n");
    for _ in 0..100 {
        text.push_str("more words inside the comment\n");
    }
    text.push_str("[Game \"reversi\"]\nf5 d6\n");
    let r = gamerec(&["validate", "--format", "json", "-"], text.as_bytes());
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        doc["games"][0]["errors"][0]["code"],
        "record::unterminated_comment"
    );
    assert_eq!(doc["games"][1]["valid"], true);
    assert!(doc["games"][1]["errors"][0].is_null());
}

#[test]
fn jsonl_is_one_object_per_game_then_the_summary() {
    let r = gamerec(
        &["validate", "--format", "jsonl", "fixtures/reversi/valid"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty());
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let json = gamerec(
        &["validate", "--format", "json", "fixtures/reversi/valid"],
        b"",
    );
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let games = doc["games"].as_array().unwrap();
    assert_eq!(lines.len(), games.len() + 1);
    for (line, game) in lines.iter().zip(games) {
        assert_eq!(line, game);
    }
    let last = lines.last().unwrap();
    assert_eq!(last["summary"], doc["summary"]);
    assert_eq!(last["errors"], doc["errors"]);
}

#[test]
fn control_characters_from_input_are_escaped_in_human_output() {
    let text = "[Game \"reversi\"]\n[Event \"\u{1b}[31mred\u{1b}[0m\"]\nf5 \u{1b}]0;title\u{7}\n";
    for cmd in [&["validate", "-"][..], &["score", "-"][..]] {
        let r = gamerec(cmd, text.as_bytes());
        assert!(!r.stdout.contains('\u{1b}'), "{}", r.stdout);
        assert!(!r.stderr.contains('\u{1b}'), "{}", r.stderr);
        assert!(!r.stderr.contains('\u{7}'), "{}", r.stderr);
    }
    let r = gamerec(&["validate", "-"], text.as_bytes());
    assert!(r.stderr.contains("\\x1b[31mred"), "{}", r.stderr);
}

#[test]
fn a_diagnostic_on_a_very_long_line_shows_a_stretch_of_it() {
    let mut text = String::from("[Game \"reversi\"] f5 { ");
    for _ in 0..2000 {
        text.push_str("a long comment ");
    }
    text.push_str("} zz\n");
    let r = gamerec(&["validate", "-"], text.as_bytes());
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("zz"), "{}", r.stderr);
    assert!(r.stderr.len() < 4000, "{} bytes", r.stderr.len());
    // the column is the one in the file
    let col = text.len() - 2;
    assert!(r.stderr.contains(&format!("-:1:{col}]")), "{}", r.stderr);
}

#[test]
fn binary_and_endless_inputs_end_with_an_error() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let r = gamerec(&["validate", "/dev/zero"], b"");
    assert_eq!(r.code, 2);
    // the bytes are checked before parsing: one error, with the fix
    assert!(
        r.stderr.contains("binary data, not a text record"),
        "{}",
        r.stderr
    );
    let r = gamerec(
        &[
            "validate",
            "--players",
            "/dev/zero",
            "fixtures/wthor/valid/WTH_1978.wtb",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not a WTHOR names file"), "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn fifos_in_a_scanned_directory_are_skipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "fixtures/reversi/valid/full-game.gamerec",
        dir.path().join("a.gamerec"),
    )
    .unwrap();
    let fifo = dir.path().join("b.gamerec");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let path = dir.path().to_string_lossy().into_owned();
    let r = gamerec(&["validate", &path], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("not a regular file (a FIFO)"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains(", 1 valid, 0 invalid"), "{}", r.stdout);
    let r = gamerec(&["validate", "--format", "json", &path], b"");
    assert!(r.stderr.is_empty());
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        doc["skipped"][0]["message"],
        "skipped: not a regular file (a FIFO)"
    );
}

/// The built binary, for what only a real process shows (exit on a closed
/// pipe, a full disk).
fn binary() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_gamerec"))
}

#[test]
fn a_full_disk_is_an_error_and_a_closed_pipe_is_not() {
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = binary()
            .args(["validate", "--format", "json", "fixtures/"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot write the output"), "{err}");
    }
    // a reader that stops after the first bytes
    let mut child = binary()
        .args(["validate", "--format", "jsonl", "fixtures/"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "{err}");
}

/// Damaged inputs at two sizes: doubling the size at most triples the
/// time, and 2 MB of each finishes within 2 s with its diagnostics.
#[test]
#[ignore = "timing: run with --release"]
fn damaged_inputs_take_linear_time() {
    type Make = Box<dyn Fn(usize) -> String>;
    let inputs: Vec<(&str, &str, Make)> = vec![
        (
            "tag cut by a line break",
            "x.gamerec",
            Box::new(|n| "[A \"x\n".repeat(n / 6)),
        ),
        (
            "unterminated comments",
            "x.gamerec",
            Box::new(|n| "[A \"x\"] {\n".repeat(n / 10)),
        ),
        (
            "diagnostics on one line",
            "x.gamerec",
            Box::new(|n| "[Game \"reversi\"] zz ".repeat(n / 20)),
        ),
        (
            "repeated GGF property",
            "x.ggf",
            Box::new(|n| format!("(;GM[Othello]{};)", "BO[2]".repeat(n / 5))),
        ),
        (
            "nested YAML",
            "x.yaml",
            Box::new(|n| format!("games: {}", "[".repeat(n))),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (what, name, make) in inputs {
        let mut times = Vec::new();
        for size in [1 << 20, 2 << 20] {
            let path = dir.path().join(name);
            std::fs::write(&path, make(size)).unwrap();
            let start = Instant::now();
            let out = binary().args(["validate"]).arg(&path).output().unwrap();
            times.push(start.elapsed());
            assert_ne!(out.status.code(), Some(0), "{what}");
        }
        let (small, large) = (times[0], times[1]);
        eprintln!("{what}: 1 MB {small:?}, 2 MB {large:?}");
        assert!(large <= Duration::from_secs(2), "{what}: {large:?}");
        assert!(
            large <= small * 3 + Duration::from_millis(50),
            "{what}: {small:?} then {large:?}"
        );
    }
}
