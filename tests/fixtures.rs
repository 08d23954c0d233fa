//! Snapshots of every fixture under `fixtures/`: for valid games the verdict,
//! `score`, `show` and the JSON conversion; for invalid ones the diagnostic
//! (terminal and JSON). Each invalid fixture is named after the error code it
//! must produce first (`no_flip.gamerec`, `no_flip_compact.gamerec`), and each
//! valid one must validate. Adding a fixture file adds its snapshot.

mod common;

use std::path::Path;

use common::{fixture_args, fixture_files, gamerec};

fn snapshot_name(path: &Path) -> String {
    path.strip_prefix("fixtures")
        .unwrap_or(path)
        .with_extension("")
        .to_string_lossy()
        .replace(['/', '\\'], "__")
}

fn run_fixture(path: &Path) -> (String, bool) {
    let file = path.to_string_lossy().into_owned();
    let extra = fixture_args(path);
    let args = |cmd: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        v.extend(extra.iter().cloned());
        v.push(file.clone());
        v
    };
    let exec = |cmd: &[&str]| {
        let a = args(cmd);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = gamerec(&refs, b"");
        (r.transcript(&format!("gamerec {}", a.join(" "))), r)
    };
    let mut out = String::new();
    let (t, validate) = exec(&["validate"]);
    out.push_str(&t);
    let valid = validate.code == 0;
    if valid {
        for cmd in [
            &["score"][..],
            &["show"][..],
            &["convert", "--to", "json"][..],
        ] {
            out.push_str(&exec(cmd).0);
        }
    } else {
        out.push_str(&exec(&["validate", "--format", "json"]).0);
    }
    (out, valid)
}

fn check_dir(dir: &str, want_valid: bool) {
    let files = fixture_files(Path::new(dir));
    let mut failures = Vec::new();
    for path in files {
        let (transcript, valid) = run_fixture(&path);
        let expected_dir = path
            .parent()
            .and_then(|p| p.file_name())
            .is_some_and(|n| n == if want_valid { "valid" } else { "invalid" });
        if !expected_dir {
            continue;
        }
        if valid != want_valid {
            failures.push(format!(
                "{}: expected {}\n{transcript}",
                path.display(),
                if want_valid { "valid" } else { "invalid" }
            ));
            continue;
        }
        if !want_valid {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let r = gamerec(
                &["validate", "--format", "json", &path.to_string_lossy()],
                b"",
            );
            let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_default();
            let first = doc["games"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|g| g["errors"].as_array().into_iter().flatten())
                .next()
                .and_then(|e| e["code"].as_str())
                .unwrap_or("")
                .to_string();
            let kind = first.split("::").nth(1).unwrap_or("");
            let named = !kind.is_empty()
                && (stem == kind
                    || stem.starts_with(&format!("{kind}_"))
                    || stem.starts_with(&format!("{kind}-")));
            if !named {
                failures.push(format!(
                    "{}: its first error is `{first}`, not the one its name says",
                    path.display()
                ));
            }
        }
        insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(snapshot_name(&path), transcript);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn valid_fixtures() {
    check_dir("fixtures", true);
}

#[test]
fn invalid_fixtures() {
    check_dir("fixtures", false);
}
