//! Round trips (spec §3): for every valid fixture, `text -> json -> text ->
//! json` gives identical JSON and the same text, and YAML likewise.

mod common;

use std::path::Path;

use common::{fixture_args, fixture_files, gamerec};

fn convert(args: &[String], file: &str, stdin: &[u8], to: &str) -> String {
    let mut a: Vec<&str> = vec!["convert", "--to", to];
    a.extend(args.iter().map(String::as_str));
    a.push(file);
    let r = gamerec(&a, stdin);
    assert_eq!(r.code, 0, "convert {file} --to {to} failed:\n{}", r.stderr);
    r.stdout
}

/// A JSON document written again without its moves' `props`.
fn without_props(json: &str) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(json).expect("JSON");
    for game in doc["games"].as_array_mut().into_iter().flatten() {
        for m in game["moves"].as_array_mut().into_iter().flatten() {
            if let Some(m) = m.as_object_mut() {
                // the other keys in their order (`remove` would move the last into its place)
                m.shift_remove("props");
            }
        }
    }
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON");
    out.push('\n');
    out
}

#[test]
fn every_valid_fixture_round_trips() {
    let mut checked = 0;
    for path in fixture_files(Path::new("fixtures")) {
        if !path.parent().is_some_and(|p| p.ends_with("valid")) {
            continue;
        }
        let file = path.to_string_lossy().into_owned();
        let args = fixture_args(&path);
        let json1 = convert(&args, &file, b"", "json");
        let text1 = convert(&[], "-", json1.as_bytes(), "gamerec");
        let json2 = convert(&[], "-", text1.as_bytes(), "json");
        // a move's kept GGF evaluation and time (`props`) has no place in
        // text: its loss is a warning (tests/interchange.rs); the rest is the same
        assert_eq!(
            without_props(&json1),
            json2,
            "{file}: json -> text -> json differs"
        );
        let text2 = convert(&args, &file, b"", "gamerec");
        assert_eq!(
            text1, text2,
            "{file}: text -> json -> text differs from text -> text"
        );
        let yaml1 = convert(&args, &file, b"", "yaml");
        let text3 = convert(&[], "-", yaml1.as_bytes(), "gamerec");
        let yaml2 = convert(&[], "-", text3.as_bytes(), "yaml");
        let yaml_json2 = convert(&[], "-", yaml2.as_bytes(), "json");
        assert_eq!(
            without_props(&json1),
            yaml_json2,
            "{file}: yaml -> text -> yaml differs"
        );
        if !json1.contains("\"props\"") {
            assert_eq!(yaml1, yaml2, "{file}: yaml -> text -> yaml differs");
        }
        let json3 = convert(&[], "-", yaml1.as_bytes(), "json");
        assert_eq!(json1, json3, "{file}: yaml and json disagree");
        checked += 1;
    }
    assert!(checked > 0);
}
