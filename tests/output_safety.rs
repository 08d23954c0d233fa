//! Output safe for its reader (issue 30, find 11): control characters and
//! bidi controls from tags, tokens and file names never reach a terminal or
//! a GitHub annotation raw.

mod common;

use common::gamerec;

/// Characters that must never be printed as they are.
const HOSTILE: [char; 8] = [
    '\u{1b}', '\u{7}', '\u{8}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200f}', '\u{61c}',
];

fn assert_clean(what: &str, text: &str) {
    for c in HOSTILE {
        assert!(!text.contains(c), "{what} holds {c:?} raw:\n{text:?}");
    }
}

fn record() -> String {
    "[Game \"reversi\"]\n[Black \"\u{1b}[31mred\u{7}\u{8}\u{9b}\"]\n[White \"\u{202e}evil\u{2066}\u{200f}\u{61c}\"]\n\n1. f5 d6 2. \u{1b}[2Jq9\u{202e}\n"
        .to_string()
}

#[test]
fn show_escapes_control_and_bidi_characters() {
    let dir = std::env::temp_dir().join(format!("gamerec-safe-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad\u{1b}]0;title\u{7}\u{202e}.gamerec");
    std::fs::write(
        &file,
        "[Game \"reversi\"]\n[Black \"\u{1b}[31mred\u{202e}\"]\n\n1. f5 d6\n",
    )
    .unwrap();
    let run = gamerec(&["show", &file.to_string_lossy()], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_clean("show", &run.stdout);
    assert!(run.stdout.contains("\\x1b"), "{}", run.stdout);
    assert!(run.stdout.contains("\\u{202e}"), "{}", run.stdout);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn diagnostics_escape_tokens_and_file_names() {
    let dir = std::env::temp_dir().join(format!("gamerec-safe-diag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two\nlines\u{202e}.gamerec");
    std::fs::write(&file, record()).unwrap();
    let path = file.to_string_lossy().into_owned();
    let human = gamerec(&["validate", &path], b"");
    assert_eq!(human.code, 1, "{}", human.stderr);
    assert_clean("validate", &human.stdout);
    assert_clean("validate", &human.stderr);
    assert!(
        !human.stderr.contains("two\nlines") && !human.stdout.contains("two\nlines"),
        "a newline in a file name printed raw:\n{}",
        human.stderr
    );
    let github = gamerec(&["validate", "--format", "github", &path], b"");
    assert_eq!(github.code, 1, "{}", github.stderr);
    assert_clean("github", &github.stdout);
    for line in github.stdout.lines().filter(|l| l.starts_with("::")) {
        let props = line.split("::").nth(1).unwrap_or_default();
        assert!(!props.contains('\n'), "{line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs gamerec with `stdin`, reads one line of its stdout and closes the
/// pipe; its exit code.
fn first_line_then_close(args: &[&str], stdin: Vec<u8>) -> i32 {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamerec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gamerec");
    let mut input = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("a first line");
    assert!(!line.is_empty());
    drop(out);
    let status = child.wait().expect("gamerec ends");
    feeder.join().ok();
    status.code().expect("an exit code, not a signal")
}

/// Find 7: a closed pipe keeps the exit code of what was checked: 1 once
/// an invalid game was seen, 2 when the run stopped before an invalid game
/// it never reached (never 0).
#[test]
fn closed_pipe_keeps_the_exit_code() {
    let valid = "[Game \"reversi\"]\n\n1. f5 d6 2. c3 d3\n\n";
    let invalid = "[Game \"reversi\"]\n\n1. a1\n\n";
    let many = valid.repeat(5000);
    for format in ["json", "jsonl", "human"] {
        let args = ["validate", "--format", format, "-"];
        let late = format!("{many}{invalid}").into_bytes();
        let early = format!("{invalid}{many}").into_bytes();
        if format != "human" {
            assert_eq!(
                first_line_then_close(&args, late),
                2,
                "{format}: invalid game never reached"
            );
        }
        assert_eq!(
            first_line_then_close(&args, early),
            1,
            "{format}: invalid game seen"
        );
    }
    let score = ["score", "-"];
    assert_eq!(
        first_line_then_close(&score, format!("{many}{invalid}").into_bytes()),
        2
    );
}
