//! Output safe for its reader (issue 30, finds 11 and 12): hostile tags,
//! tokens, comments and file names reach no terminal, annotation or page raw.

mod common;

use common::gamerec;

/// The page's data element: the text between its tags.
fn page_data(page: &str) -> &str {
    let start = "<script type=\"application/json\" id=\"data\">";
    let at = page.find(start).map_or(0, |i| i + start.len());
    let rest = page.get(at..).unwrap_or_default();
    rest.get(..rest.find("</script>").unwrap_or(rest.len()))
        .unwrap_or_default()
}

#[test]
fn html_data_holds_no_markup_the_parser_acts_on() {
    let record = "[Game \"reversi\"]\n[Event \"<!--<script>\"]\n[Black \"</script><b>B</b>\"]\n[White \"--> & \u{2028}\u{2029}\"]\n\n1. f5 d6\n";
    let run = gamerec(&["html", "-"], record.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = page_data(&run.stdout);
    assert!(data.contains("\\u003c!--\\u003cscript\\u003e"), "{data}");
    for raw in [
        "</script", "<!--", "-->", "<", ">", "&", "\u{2028}", "\u{2029}",
    ] {
        assert!(!data.contains(raw), "raw {raw:?} in the page's data");
    }
    // the data element is the only one: nothing after it opened another
    assert_eq!(run.stdout.matches("<script").count(), 2);
    let back: serde_json::Value = serde_json::from_str(data).expect("the data is JSON");
    let text = back.to_string();
    assert!(text.contains("<!--<script>"), "the tag comes back whole");
    assert!(text.contains("</script><b>B</b>"));
}

/// Bytes a terminal acts on: C0 controls but tab and line feed, DEL, C1
/// controls, and the bidirectional controls.
fn unsafe_chars(s: &str) -> Vec<char> {
    s.chars()
        .filter(|&c| {
            (c.is_control() && !matches!(c, '\t' | '\n'))
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
        })
        .collect()
}

/// A record whose tags, tokens and comments carry terminal controls: an
/// invalid game (its second move is not a move).
const HOSTILE: &str = "[Game \"reversi\"]\n[Event \"\u{1b}[31mred\u{7}\u{8}\u{9b}2J\u{202e}evil\u{2066}\"]\n[Black \"B\u{200f}\u{61c}\u{200e}\"]\n[White \"W\u{7f}\u{85}\"]\n\n1. f5 {c\u{1b}]0;t\u{7}} q\u{202e}x\u{9b}\n";

/// A name for a file with an escape, a bidi override, a line break and the
/// characters GitHub's properties escape.
const NAME: &str = "a\u{1b}[1m\u{202e}b\nc,d:e%f.gamerec";

/// A directory holding the hostile record under the hostile name.
fn hostile_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamerec-escaping-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(NAME), HOSTILE).unwrap();
    dir
}

/// Runs the binary: exit code, stdout, stderr.
fn bin(args: &[&str]) -> (Option<i32>, String, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamerec"))
        .args(args)
        .output()
        .expect("run gamerec");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn human_output_escapes_controls_and_bidi() {
    let dir = hostile_dir("human");
    let d = dir.to_string_lossy().into_owned();
    let file = dir.join(NAME).to_string_lossy().into_owned();
    let escaped_name = "a\\x1b[1m\\u{202e}b\\nc,d:e%f.gamerec";
    for args in [
        vec!["validate", &d],
        vec!["score", &d],
        vec!["show", &file],
        vec!["show", &file, "--ply", "1"],
        vec!["show", &file, "--ply", "9"],
        vec!["moves", &file],
    ] {
        let (code, out, err) = bin(&args);
        assert!(code.is_some_and(|c| c != 0), "{args:?}: {code:?}");
        for (what, text) in [("stdout", &out), ("stderr", &err)] {
            let bad = unsafe_chars(text);
            assert!(bad.is_empty(), "{args:?} {what}: raw {bad:?} in\n{text}");
            assert!(
                !text.contains("b\nc,d"),
                "{args:?} {what}: raw line break in a file name:\n{text}"
            );
        }
        let all = format!("{out}{err}");
        assert!(
            all.contains(escaped_name),
            "{args:?}: no escaped name in\n{all}"
        );
    }
    // the tags and the token as escapes
    let (_, _, err) = bin(&["validate", &d]);
    assert!(
        err.contains("\\x1b[31mred\\x07\\x08\\u{9b}2J\\u{202e}evil\\u{2066}"),
        "{err}"
    );
    assert!(err.contains("B\\u{200f}\\u{61c}\\u{200e}"), "{err}");
    assert!(err.contains("W\\x7f\\u{85}"), "{err}");
    assert!(err.contains("`q\\u{202e}x\\u{9b}`"), "the token: {err}");
    let (_, out, _) = bin(&["show", &file]);
    assert!(out.contains("\\x1b[31mred"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn github_annotations_escape_controls_and_what_github_parses() {
    let dir = hostile_dir("github");
    let d = dir.to_string_lossy().into_owned();
    let (code, out, err) = bin(&["validate", "--format", "github", &d]);
    assert_eq!(code, Some(1), "{err}");
    for (what, text) in [("stdout", &out), ("stderr", &err)] {
        let bad = unsafe_chars(text);
        assert!(bad.is_empty(), "{what}: raw {bad:?} in\n{text}");
    }
    let lines: Vec<&str> = out.lines().collect();
    let (summary, commands) = lines.split_last().expect("output");
    assert!(summary.starts_with("1 game,"), "{summary}");
    assert!(!commands.is_empty());
    for line in commands {
        assert!(
            line.starts_with("::error ") || line.starts_with("::warning "),
            "{line}"
        );
        // the file property: escaped, then `,`, `:` and `%` as GitHub's toolkit does
        let file = line
            .split("file=")
            .nth(1)
            .and_then(|p| p.split(',').next())
            .unwrap_or_default();
        assert!(
            file.ends_with("a\\x1b[1m\\u{202e}b\\nc%2Cd%3Ae%25f.gamerec"),
            "{line}"
        );
    }
    assert!(
        out.contains("\\x1b[31mred\\x07\\x08\\u{9b}2J\\u{202e}evil"),
        "{out}"
    );
    assert!(
        out.contains("%0Ahelp: "),
        "the message's own line break: {out}"
    );
}

#[test]
fn html_file_errors_are_escaped() {
    let dir = std::env::temp_dir().join(format!("gamerec-escaping-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = "x\u{1b}[2J\u{202e}.gamerec";
    std::fs::write(dir.join(name), b"[Game \"reversi\"]\n\xff\n").unwrap();
    let d = dir.to_string_lossy().into_owned();
    let page = dir.join("page.html").to_string_lossy().into_owned();
    let (_, _, err) = bin(&["html", "-o", &page, &d]);
    assert!(err.contains("x\\x1b[2J\\u{202e}.gamerec"), "{err}");
    let bad = unsafe_chars(&err);
    assert!(bad.is_empty(), "raw {bad:?} in\n{err}");
    std::fs::remove_dir_all(&dir).ok();
}
