//! gamerec as a CI gate: no silent passes, directory scans as ripgrep does
//! them, `--deny-warnings`, and the outputs CI systems read (`jsonl`,
//! `github`, `sarif`, `junit`, the JSON document and its schema), each
//! checked with a parser of its format.

mod common;

use std::path::Path;

use common::gamerec;
use serde_json::Value;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const GOOD: &str = "[Game \"reversi\"]\n1. f5 d6 2. c3 d3\n";
const BAD: &str = "[Game \"reversi\"]\n1. f5 f5\n";

#[test]
fn a_file_with_no_game_is_an_error_naming_the_format_tried() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            write(dir.path(), "club.ggf", GOOD),
            vec![],
            "read as ggf (by its extension)",
        ),
        (
            write(dir.path(), "hello.ggf", "hello world\n"),
            vec![],
            "read as ggf",
        ),
        (
            write(dir.path(), "club.gamerec", GOOD),
            vec!["--from", "ggf"],
            "read as ggf (as --from says)",
        ),
        (
            write(dir.path(), "club.blksgf", GOOD),
            vec![],
            "read as pentobi (by its extension)",
        ),
        (
            write(dir.path(), "other.gamerec", GOOD),
            vec!["--from", "pentobi"],
            "read as pentobi (as --from says)",
        ),
    ];
    for (file, extra, says) in cases {
        let mut args = vec!["validate"];
        args.extend(extra.iter().copied());
        args.push(&file);
        let r = gamerec(&args, b"");
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        assert!(r.stderr.contains("record::no_games"), "{}", r.stderr);
        assert!(r.stderr.contains(says), "{}", r.stderr);
        assert!(
            r.stdout.ends_with("0 unfinished, 1 unreadable\n"),
            "{}",
            r.stdout
        );
        // JSON says it in the top-level errors, with the code
        args.insert(1, "--format");
        args.insert(2, "json");
        let r = gamerec(&args, b"");
        let doc: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(doc["errors"][0]["code"], "record::no_games");
        assert!(r.stderr.is_empty());
    }
    // an empty file is no games and no unreadable file, but a run that
    // reads no game is exit 2 unless --allow-empty (spec §5)
    let empty = write(dir.path(), "empty.ggf", "\n");
    let r = gamerec(&["validate", &empty], b"");
    assert_eq!(r.code, 2);
    assert!(!r.stdout.contains("unreadable"), "{}", r.stdout);
    assert_eq!(gamerec(&["validate", "--allow-empty", &empty], b"").code, 0);
}

#[test]
fn quiet_still_names_unreadable_files() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.gamerec", GOOD);
    let missing = dir.path().join("missing.gamerec");
    let missing = missing.to_string_lossy();
    let r = gamerec(&["validate", "-q", &missing, &good], b"");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("missing.gamerec: cannot read"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stdout,
        "1 game, 1 valid, 0 invalid, 1 unfinished, 1 unreadable\n"
    );
}

#[test]
fn an_extension_that_names_a_format_is_never_overridden() {
    let dir = tempfile::tempdir().unwrap();
    for text in [
        "[Game \"reversi\"]\n{ notes\ngames: many\n}\n1. f5 d6\n",
        "{ a comment first }\n[Game \"reversi\"]\n1. f5 d6\n",
    ] {
        let f = write(dir.path(), "x.gamerec", text);
        let r = gamerec(&["validate", "--format", "json", &f], b"");
        assert_eq!(r.code, 0, "{text}: {}", r.stdout);
        let doc: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(doc["games"][0]["source_format"], "gamerec");
    }
}

#[test]
fn directory_scans_skip_what_ripgrep_skips() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "good.gamerec", GOOD);
    write(root, "games.txt", "f5d6c3d3c4\n");
    write(
        root,
        "notes.txt",
        "Notes from the club night.\nBring boards.\n",
    );
    write(root, "people.csv", "name,age\nAnn,30\n");
    write(
        root,
        "export.pgn",
        "[Event \"x\"]\n[Game \"reversi\"]\n1. f5 d6\n",
    );
    write(
        root,
        ".git/description.txt",
        "Unnamed repository; edit this file.\n",
    );
    write(root, ".hidden/bad.gamerec", BAD);
    write(root, "ignored/bad.gamerec", BAD);
    write(root, ".gitignore", "ignored/\n");
    write(root, "skip/bad.gamerec", BAD);
    write(root, "skip/.ignore", "bad.gamerec\n");
    let path = root.to_string_lossy().into_owned();
    let files = |args: &[&str]| -> (i32, Vec<String>) {
        let mut a = vec!["validate", "--format", "json"];
        a.extend_from_slice(args);
        a.push(&path);
        let r = gamerec(&a, b"");
        let doc: Value = serde_json::from_str(&r.stdout).unwrap();
        let names = doc["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let f = g["file"].as_str().unwrap();
                f.strip_prefix(path.as_str())
                    .unwrap_or(f)
                    .trim_start_matches('/')
                    .to_string()
            })
            .collect();
        (r.code, names)
    };
    // .gitignore counts inside a git repository (as in ripgrep): there is a `.git`
    let (code, names) = files(&[]);
    assert_eq!(code, 0, "{names:?}");
    assert_eq!(names, ["export.pgn", "games.txt", "good.gamerec"]);
    let (code, names) = files(&["--no-ignore"]);
    assert_eq!(code, 1);
    assert_eq!(
        names,
        [
            "export.pgn",
            "games.txt",
            "good.gamerec",
            "ignored/bad.gamerec",
            "skip/bad.gamerec"
        ]
    );
    let (_, names) = files(&["--hidden"]);
    assert!(
        names.contains(&".hidden/bad.gamerec".to_string()),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.contains("description")),
        "{names:?}"
    );
    // as in ripgrep, a file a --glob matches is read whatever ignore files say
    let (_, names) = files(&["--glob", "*.gamerec"]);
    assert_eq!(names, ["good.gamerec", "skip/bad.gamerec"]);
    let (_, names) = files(&["--glob", "!good.*", "--glob", "!*.pgn"]);
    assert_eq!(names, ["games.txt"]);
    // named on the command line, a file is always read
    let notes = root.join("notes.txt");
    let r = gamerec(&["validate", &notes.to_string_lossy()], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
}

#[test]
fn deny_warnings_fails_the_run() {
    let f = "fixtures/reversi/valid/unfinished-claimed-result.gamerec";
    let r = gamerec(&["validate", f], b"");
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("record::result_unchecked"));
    let r = gamerec(&["validate", "--deny-warnings", f], b"");
    assert_eq!(r.code, 1);
    let r = gamerec(
        &[
            "validate",
            "--deny-warnings",
            "fixtures/reversi/valid/full-game.gamerec",
        ],
        b"",
    );
    assert_eq!(r.code, 0);
}

/// A JSON Schema validator for `schema`, or for its definition `def`.
fn validator(schema: &Value, def: Option<&str>) -> jsonschema::Validator {
    let schema = match def {
        None => schema.clone(),
        Some(d) => serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": schema["$defs"],
            "$ref": format!("#/$defs/{d}"),
        }),
    };
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid(v: &jsonschema::Validator, doc: &Value, what: &str) {
    if let Err(errors) = v.validate(doc) {
        let errors: Vec<String> = errors
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        panic!("{what}: {errors:#?}");
    }
}

#[test]
fn every_report_matches_the_shipped_schema() {
    let r = gamerec(&["schema"], b"");
    assert_eq!(r.code, 0);
    let schema: Value = serde_json::from_str(&r.stdout).unwrap();
    let doc_v = validator(&schema, None);
    for cmd in ["validate", "score"] {
        let r = gamerec(&[cmd, "--format", "json", "fixtures/"], b"");
        let doc: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(doc["schema_version"], 1);
        assert!(doc["games"].as_array().unwrap().len() > 100);
        assert_valid(&doc_v, &doc, cmd);
    }
    let game_v = validator(&schema, Some("game"));
    let closing_v = validator(&schema, Some("closing"));
    let r = gamerec(&["validate", "--format", "jsonl", "fixtures/"], b"");
    let lines: Vec<&str> = r.stdout.lines().collect();
    let (last, games) = lines.split_last().unwrap();
    for l in games {
        assert_valid(&game_v, &serde_json::from_str(l).unwrap(), l);
    }
    assert_valid(&closing_v, &serde_json::from_str(last).unwrap(), last);
    // a per-game tags object, in file order
    let r = gamerec(
        &[
            "validate",
            "--format",
            "json",
            "fixtures/reversi/invalid/no_flip.gamerec",
        ],
        b"",
    );
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let tags: Vec<&String> = doc["games"][0]["tags"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(tags, ["Game", "Event", "Black", "White"]);
}

#[test]
fn sarif_is_valid_sarif_2_1_0() {
    let schema: Value =
        serde_json::from_str(include_str!("schemas/sarif-schema-2.1.0.json")).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let r = gamerec(
        &[
            "validate",
            "--format",
            "sarif",
            "fixtures/",
            "missing.gamerec",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    let log: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_valid(&v, &log, "sarif");
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    let json = gamerec(&["validate", "--format", "json", "fixtures/"], b"");
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    let diags: usize = doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["errors"].as_array().unwrap().len() + g["warnings"].as_array().unwrap().len())
        .sum();
    assert_eq!(results.len(), diags);
    // every rule used is described
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for res in results {
        assert!(rules.contains(&res["ruleId"].as_str().unwrap()));
    }
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
}

#[test]
fn junit_parses_with_one_case_per_game() {
    let r = gamerec(&["validate", "--format", "junit", "fixtures/"], b"");
    let xml = roxmltree::Document::parse(&r.stdout).unwrap();
    let json = gamerec(&["validate", "--format", "json", "fixtures/"], b"");
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    let games = doc["games"].as_array().unwrap();
    let cases: Vec<roxmltree::Node> = xml
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), games.len());
    for (case, game) in cases.iter().zip(games) {
        assert_eq!(case.attribute("classname"), game["file"].as_str());
        let failure = case.children().find(|n| n.has_tag_name("failure"));
        assert_eq!(failure.is_some(), game["valid"] == false, "{game}");
        if let Some(f) = failure {
            assert_eq!(f.attribute("type"), game["errors"][0]["code"].as_str());
        }
    }
    let suites = xml
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .count();
    let files: std::collections::BTreeSet<&str> =
        games.iter().map(|g| g["file"].as_str().unwrap()).collect();
    assert_eq!(suites, files.len());
}

/// Undoes GitHub's escaping of workflow command data and properties.
fn unescape(s: &str) -> String {
    s.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

#[test]
fn github_commands_round_trip_their_escaping() {
    let dir = tempfile::tempdir().unwrap();
    // a file name and a tag value with the characters GitHub escapes
    let f = write(
        dir.path(),
        "a,b:c%d.gamerec",
        "[Game \"reversi\"]\n[Event \"50%, a: b\"]\n1. f5 f5\n",
    );
    let r = gamerec(&["validate", "--format", "github", "fixtures/", &f], b"");
    let json = gamerec(&["validate", "--format", "json", "fixtures/", &f], b"");
    let doc: Value = serde_json::from_str(&json.stdout).unwrap();
    let mut expected = Vec::new();
    for g in doc["games"].as_array().unwrap() {
        for kind in ["errors", "warnings"] {
            for d in g[kind].as_array().unwrap() {
                expected.push((g["file"].as_str().unwrap().to_string(), d.clone(), kind));
            }
        }
    }
    let commands: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(commands.len(), expected.len());
    for (line, (file, d, kind)) in commands.iter().zip(&expected) {
        let rest = line.strip_prefix("::").unwrap();
        let (head, data) = rest.split_once("::").unwrap();
        let (cmd, props) = head.split_once(' ').unwrap();
        assert_eq!(
            cmd,
            if *kind == "errors" {
                "error"
            } else {
                "warning"
            }
        );
        let props: std::collections::HashMap<&str, String> = props
            .split(',')
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap();
                (k, unescape(v))
            })
            .collect();
        assert_eq!(&props["file"], file);
        assert_eq!(props["title"], d["code"].as_str().unwrap());
        if let Some(l) = d["line"].as_u64() {
            assert_eq!(props["line"], l.to_string());
            assert_eq!(props["col"], d["column"].as_u64().unwrap().to_string());
        }
        let message = unescape(data);
        assert!(
            message.starts_with(d["message"].as_str().unwrap()),
            "{message}"
        );
        assert!(!data.contains('\n'));
    }
    assert!(r.stdout.contains("file=") && r.stdout.contains("a%2Cb%3Ac%25d.gamerec"));
}

/// Every output format on every fixture, in input order.
#[test]
fn every_format_on_every_fixture() {
    for format in ["jsonl", "github", "sarif", "junit"] {
        let r = gamerec(&["validate", "--format", format, "fixtures/"], b"");
        assert_eq!(r.code, 1);
        assert!(r.stderr.is_empty(), "{format}: {}", r.stderr);
        // SARIF's %SRCROOT% is the folder the tests run in: not the snapshot's
        let root = std::env::current_dir().unwrap();
        let root = format!("file://{}/", root.to_string_lossy());
        let stdout = r.stdout.replace(&root, "file:///[the current folder]/");
        insta::assert_snapshot!(format!("every_fixture_{format}"), stdout);
    }
}
