//! Issue 30, find 9: a conversion never writes what gamerec then refuses or
//! reads differently. Every fixture (valid and invalid: what `convert`
//! accepts) and every hostile input of issue 30 is converted to every
//! output format and read back with gamerec: the read-back must succeed and
//! give the same games as the original (the JSON of both compared: game,
//! variant, tags, comments, moves, verdict and scores). Where the target
//! said in a warning that it cannot keep something (GGF, Pentobi and WTHOR
//! drop tags; Pentobi files score Blokus their way), the read-back must
//! still succeed, with as many games.

mod common;

use std::path::{Path, PathBuf};

use common::games_of;
use serde_json::Value;

/// Every target of `convert` with the extension of its files.
const TARGETS: &[(&str, &str)] = &[
    ("json", "json"),
    ("yaml", "yaml"),
    ("gamerec", "gamerec"),
    ("ggf", "ggf"),
    ("blksgf", "blksgf"),
    ("wthor", "wtb"),
    ("transcript", "txt"),
    ("csv", "csv"),
];

fn fresh_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamerec-readback-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `convert --to json` of `input` with `args`: its games, or why not.
fn as_json(input: &Path, args: &[String]) -> Result<Vec<Value>, String> {
    let mut argv = vec!["convert", "--to", "json"];
    argv.extend(args.iter().map(String::as_str));
    let input = input.to_string_lossy();
    argv.push(&input);
    let run = common::gamerec(&argv, b"");
    if run.code != 0 {
        return Err(format!("exit {}: {}", run.code, run.stderr));
    }
    games_of(&run.stdout)
}

/// What a game is, for the comparison: everything but where it was read.
/// A GGF file always says its board (`TY[8]`), which reads back as a
/// `GGF_TY` tag: one the original `was` lacks is not counted as a change.
fn essence(game: &Value, was: &Value, keeps_passes: bool) -> Value {
    let mut g = game.clone();
    // the interchange formats write neither forced passes nor move numbers,
    // and order the tags their way
    if !keeps_passes {
        if let Some(Value::Array(moves)) = g.get_mut("moves") {
            for m in moves.iter_mut().filter_map(Value::as_object_mut) {
                m.remove("auto");
                m.remove("number");
            }
        }
    }
    let had_ty = was["tags"]
        .as_array()
        .is_some_and(|t| t.iter().any(|t| t[0] == "GGF_TY"));
    if let Some(o) = g.as_object_mut() {
        for key in ["index", "number", "source", "file"] {
            o.remove(key);
        }
        if let Some(Value::Array(tags)) = o.get_mut("tags") {
            tags.retain(|t| had_ty || t[0] != "GGF_TY");
            // an interchange format has its own order of properties
            if !keeps_passes {
                tags.sort_by_key(Value::to_string);
            }
        }
    }
    g
}

/// The first place where `a` and `b` differ, said with both values.
fn difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let null = Value::Null;
                let (p, q) = (x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null));
                difference(p, q, &format!("{at}.{k}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| difference(p, q, &format!("{at}[{i}]"))),
        _ if a == b => None,
        _ => {
            let short = |v: &Value| v.to_string().chars().take(300).collect::<String>();
            Some(format!("{at}: was {}, back {}", short(a), short(b)))
        }
    }
}

/// Converts `input` to every target and reads each output back; the
/// failures, each said in a sentence.
fn read_back(input: &Path, args: &[String], dir: &Path) -> Vec<String> {
    let Ok(original) = as_json(input, args) else {
        // convert refuses the input: nothing is written, nothing to read back
        return Vec::new();
    };
    let mut failures = Vec::new();
    for (target, ext) in TARGETS {
        let out_dir = dir.join(target);
        let _ = std::fs::remove_dir_all(&out_dir);
        std::fs::create_dir_all(&out_dir).unwrap();
        let out = out_dir.join(format!("out.{ext}"));
        let out_s = out.to_string_lossy().into_owned();
        let input_s = input.to_string_lossy().into_owned();
        let mut argv = vec!["convert", "--to", target, "-o", &out_s];
        argv.extend(args.iter().map(String::as_str));
        argv.push(&input_s);
        let run = common::gamerec(&argv, b"");
        let what = format!("{} --to {target}", input.display());
        if run.code != 0 {
            // refused (the target cannot hold the game): nothing written
            if out.exists() {
                failures.push(format!("{what}: refused (exit {}), yet written", run.code));
            }
            continue;
        }
        if !out.exists() {
            if !original.is_empty() {
                failures.push(format!("{what}: exit 0 and nothing written"));
            }
            continue;
        }
        let lossy = run.stderr.contains("not kept in");
        match as_json(&out, &[]) {
            Err(e) => failures.push(format!("{what}: the output is refused: {e}")),
            Ok(back) if back.len() != original.len() => failures.push(format!(
                "{what}: {} games read back, {} converted",
                back.len(),
                original.len()
            )),
            Ok(back) if !lossy => {
                let keeps_passes = matches!(*target, "json" | "yaml" | "gamerec");
                for (i, (a, b)) in original.iter().zip(&back).enumerate() {
                    let (a, b) = (essence(a, a, keeps_passes), essence(b, a, keeps_passes));
                    if let Some(d) = difference(&a, &b, "") {
                        failures.push(format!(
                            "{what}: game {} reads back differently: {d}",
                            i + 1
                        ));
                    }
                }
            }
            Ok(_) => {}
        }
    }
    failures
}

/// Converts `bytes` (a file `NAME.EXT`) to every target and reads each
/// back (as [`read_back`]); the conversion's stderr to each target.
fn assert_reads_back(name: &str, ext: &str, bytes: &[u8]) -> Vec<(&'static str, String)> {
    let dir = fresh_dir(name);
    let input = dir.join(format!("{name}.{ext}"));
    std::fs::write(&input, bytes).unwrap();
    let failures = read_back(&input, &[], &dir);
    let input_s = input.to_string_lossy().into_owned();
    let said = TARGETS
        .iter()
        .filter(|(t, _)| *t != "wthor")
        .map(|(t, _)| {
            let run = common::gamerec(&["convert", "--to", t, &input_s], b"");
            (*t, format!("exit {}: {}", run.code, run.stderr))
        })
        // a target that holds other games only
        .filter(|(_, said)| !said.contains("games only, not"))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    said
}

/// 9a: a valid record with a multi-line comment of 64 and more `{` is
/// written to YAML as a block scalar, which the reader's nesting check
/// took for nested collections.
#[test]
fn a_comment_of_braces_reads_back_from_yaml() {
    let record = format!(
        "[Game \"reversi\"]\n\n1. f5 {{ first line\n{} }} d6 {{ [[[[ {} }}\n",
        "{".repeat(70),
        "[".repeat(70)
    );
    assert_reads_back("braces", "gamerec", record.as_bytes());
}

/// 9b: a NUL (JSON `\u0000`) in a tag or comment: a text target refuses
/// the game (exit 2, nothing written), naming where it is; JSON and YAML
/// keep it.
#[test]
fn a_nul_is_refused_by_text_targets() {
    for (at, doc) in [
        (
            "the Event tag",
            r#"{"games": [{"game": "reversi", "tags": [["Event", "a\u0000b"]], "moves": [{"notation": "f5"}]}]}"#,
        ),
        (
            "the move or comment of ply 1",
            r#"{"games": [{"game": "reversi", "tags": [], "moves": [{"notation": "f5", "comment": "x\u0000y"}]}]}"#,
        ),
    ] {
        let said = assert_reads_back("nul", "json", doc.as_bytes());
        for (target, said) in said {
            if matches!(target, "json" | "yaml") {
                assert!(said.starts_with("exit 0"), "{target}: {said}");
            } else {
                assert!(said.starts_with("exit 2"), "{target}: {said}");
                assert!(
                    said.contains(&format!("cannot hold the NUL character (U+0000) of {at}")),
                    "{target}: {said}"
                );
            }
        }
    }
}

/// 9c: an input without games is not converted to an empty document the
/// reader refuses (`record::no_games`): nothing is written, and the run is
/// exit 2 with `no games found`, as `validate` says it.
#[test]
fn an_input_without_games_writes_nothing() {
    let dir = fresh_dir("empty");
    let input = dir.join("empty.gamerec");
    std::fs::write(&input, "").unwrap();
    let input_s = input.to_string_lossy().into_owned();
    for (target, ext) in TARGETS {
        let out = dir.join(format!("out.{ext}"));
        let out_s = out.to_string_lossy().into_owned();
        let run = common::gamerec(&["convert", "--to", target, "-o", &out_s, &input_s], b"");
        assert_eq!(run.code, 2, "{target}: {}", run.stderr);
        assert!(run.stderr.contains("no games found"), "{}", run.stderr);
        assert!(!out.exists(), "{target}: written");
        if *target != "wthor" {
            let run = common::gamerec(&["convert", "--to", target, "-"], b"\n");
            assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{target}");
        }
    }
    // in `-o DIR`, a file without games is a warning, and the others are written
    std::fs::write(dir.join("one.gamerec"), "[Game \"reversi\"]\n\nf5\n").unwrap();
    let out = dir.join("out");
    let out_s = format!("{}/", out.display());
    let dir_s = dir.to_string_lossy().into_owned();
    let run = common::gamerec(&["convert", "--to", "json", "-o", &out_s, &dir_s], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("warning: not converted:"),
        "{}",
        run.stderr
    );
    assert!(out.join("one.json").exists() && !out.join("empty.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// 9d: a tag value with a line break (from JSON, YAML, GGF or Pentobi) is
/// kept by JSON and YAML, and gamerec text, whose tag values hold none,
/// writes a space with a warning instead of silently.
#[test]
fn a_line_break_in_a_tag_is_said() {
    let doc = r#"{"games": [{"game": "reversi", "tags": [["Event", "two\nlines"]], "moves": [{"notation": "f5"}]}]}"#;
    let said = assert_reads_back("linebreak", "json", doc.as_bytes());
    for (target, said) in said {
        assert!(said.starts_with("exit 0"), "{target}: {said}");
        let warned = said.contains("the line break in the Event tag's value");
        assert_eq!(warned, target == "gamerec", "{target}: {said}");
    }
    let run = common::gamerec(
        &["convert", "--to", "json", "--from", "json", "-"],
        doc.as_bytes(),
    );
    assert!(run.stdout.contains(r#""two\nlines""#), "{}", run.stdout);
    let run = common::gamerec(
        &[
            "convert", "--to", "gamerec", "--strict", "--from", "json", "-",
        ],
        doc.as_bytes(),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// 9e: a Pentobi file with repeated `PB` and `EV` is valid, and converts to
/// records that read back valid: the first of each tag kept, each dropped
/// value named in a warning.
#[test]
fn repeated_pentobi_properties_convert_to_valid_records() {
    let file = "(;GM[Blokus Duo]PB[Ann]PB[Bob]EV[One]EV[Two];1[e10])\n";
    let said = assert_reads_back("repeated", "blksgf", file.as_bytes());
    for (target, said) in said {
        assert!(said.starts_with("exit 0"), "{target}: {said}");
        assert!(
            said.contains("the repeated Purple tag `Bob` (a game has one Purple tag: the first, `Ann`, is kept)")
                && said.contains("the repeated Event tag `Two`"),
            "{target}: {said}"
        );
    }
}

/// Every fixture to every format and back.
#[test]
fn every_fixture_reads_back_from_every_format() {
    let dir = fresh_dir("fixtures");
    let mut failures = Vec::new();
    let mut converted = 0;
    for file in common::fixture_files(Path::new("fixtures")) {
        let args = common::fixture_args(&file);
        if as_json(&file, &args).is_ok() {
            converted += 1;
        }
        failures.extend(read_back(&file, &args, &dir));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(converted > 80, "only {converted} fixtures convert");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Issue 30's hostile inputs that `convert` accepts, each to every format
/// and back.
#[test]
fn hostile_inputs_read_back_from_every_format() {
    let cases: Vec<(&str, &str, Vec<u8>)> = vec![
        (
            "controls",
            "gamerec",
            "[Game \"reversi\"]\n[Event \"\u{1b}[31mred\u{7}\u{8}\u{9b}2J\u{202e}evil\u{2066}\"]\n[Black \"B\u{200f}\u{61c}\u{200e}\"]\n[White \"W\u{7f}\u{85}\"]\n\n1. f5 {c\u{1b}]0;t\u{7}}\n"
                .into(),
        ),
        (
            "script",
            "gamerec",
            "[Game \"reversi\"]\n[Event \"<!--<script>\"]\n[Site \"</script>\"]\n\n1. f5 { \u{2028}\u{2029} }\n".into(),
        ),
        (
            "quotes",
            "gamerec",
            "[Game \"reversi\"]\n[Event \"a \\\"b\\\" c\\\\\"]\n[Site \"back\\slash\"]\n\n1. f5 { } d6 {x} c3 ; a line comment\n".into(),
        ),
        (
            "ggf-junk",
            "ggf",
            "x(;GM[Othello]PB[a]PW[b]B[f5];)\nx(;GM[Othello]B[f5];)\n".into(),
        ),
        ("ggf-unclosed", "ggf", "(;GM[Othello](;GM[Othello]B[f5];)".into()),
        (
            "json-nested-comment",
            "json",
            "{\"games\": [{\"game\": \"reversi\", \"tags\": [], \"comment\": \"{{{ } } }\", \"moves\": [{\"notation\": \"f5\", \"comment\": \"}{\"}]}]}".into(),
        ),
    ];
    // find 6: a WTHOR header that announces fewer games than it holds
    let mut wtb = vec![20, 21, 1, 1];
    wtb.extend_from_slice(&2u32.to_le_bytes());
    wtb.extend_from_slice(&[0, 0]);
    wtb.extend_from_slice(&1999u16.to_le_bytes());
    wtb.extend_from_slice(&[8, 0, 22, 0]);
    for _ in 0..8 {
        let mut g = vec![1, 0, 2, 0, 3, 0, 32, 32, 56, 46, 35];
        g.resize(68, 0);
        wtb.extend(g);
    }
    let mut cases = cases;
    cases.push(("wthor-count", "wtb", wtb));
    let mut failures = Vec::new();
    for (name, ext, bytes) in cases {
        let dir = fresh_dir(name);
        let input = dir.join(format!("{name}.{ext}"));
        std::fs::write(&input, &bytes).unwrap();
        failures.extend(read_back(&input, &[], &dir));
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
