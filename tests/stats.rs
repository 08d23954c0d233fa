//! `gamerec stats`: the table and the JSON document on a few fixtures of
//! every game (snapshots), openings counted up to Reversi's symmetries, the
//! histograms as XML, usage errors, the bound on the opening table, and the
//! WTHOR database counted against its records read here byte by byte (one
//! year in `cargo test`, every year as an `#[ignore]` test).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::gamerec;
use serde_json::Value;

/// Reversi games of a club (two of them the same game mirrored, one
/// unfinished, one illegal), a game of each other game, a WTHOR year.
const INPUTS: &[&str] = &[
    "tests/stats/club.gamerec",
    "fixtures/blokus/valid/classic_4p.gamerec",
    "fixtures/blokus/valid/duo.gamerec",
    "fixtures/qwirkle/valid/spec_example.gamerec",
    "fixtures/deblockle/valid/stalemate_draw.gamerec",
    "fixtures/wthor/valid/WTH_1978.wtb",
];

fn with(args: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = vec!["stats".into()];
    v.extend(INPUTS.iter().map(|s| s.to_string()));
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

fn run(args: &[String]) -> common::Run {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    gamerec(&refs, b"")
}

/// `stats ARGS --format json`, parsed.
fn json(args: &[&str]) -> (i32, Value) {
    let mut a: Vec<&str> = vec!["stats", "--format", "json"];
    a.extend_from_slice(args);
    let r = gamerec(&a, b"");
    let doc = serde_json::from_str(&r.stdout).unwrap_or(Value::Null);
    (r.code, doc)
}

#[test]
fn table_of_several_games() {
    let args = with(&["--top", "3"]);
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(
        "stats_table",
        r.transcript(&format!("gamerec {}", args.join(" ")))
    );
}

#[test]
fn json_of_several_games() {
    let args = with(&["--top", "3", "--format", "json"]);
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("stats_json", r.stdout);
    // the counts are validate's
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or(Value::Null);
    let mut v: Vec<&str> = vec!["validate", "--format", "json"];
    v.extend_from_slice(INPUTS);
    let validate: Value = serde_json::from_str(&gamerec(&v, b"").stdout).unwrap_or(Value::Null);
    for k in ["games", "valid", "invalid", "unfinished"] {
        assert_eq!(doc["summary"][k], validate["summary"][k], "{k}");
    }
}

/// The club's first two games are one game, the second turned by a half
/// turn (it opens c4): counted as one opening, written from f5.
#[test]
fn reversi_openings_are_counted_up_to_symmetry() {
    let (code, doc) = json(&["tests/stats/club.gamerec", "--opening", "4"]);
    assert_eq!(code, 0);
    let g = &doc["groups"][0];
    assert_eq!(g["game"], "reversi");
    let top = &g["openings"]["top"];
    assert_eq!(top[0]["moves"], "f5 f6 e6 f4");
    // the club's four finished games, and the adjourned one (20 plies)
    let games: u64 = (0..4).filter_map(|k| top[k]["games"].as_u64()).sum();
    assert_eq!(games, 5);
    assert_eq!(top[0]["games"], 3, "{top}");
    // no opening begins elsewhere than f5
    for k in 0..4 {
        if let Some(m) = top[k]["moves"].as_str() {
            assert!(m.starts_with("f5 "), "{m}");
        }
    }
    // Ben played in five of the six games (black in one of the mirrored
    // games, white in the other)
    let players = &g["players"]["top"];
    assert_eq!(players[0]["name"], "Ben");
    assert_eq!(players[0]["games"], 5);
}

#[test]
fn the_plot_is_valid_xml_with_a_histogram_per_seat_and_lengths() {
    let dir = std::env::temp_dir().join(format!("gamerec-stats-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("stats.svg");
    let file_arg = file.to_string_lossy().into_owned();
    let r = run(&with(&["--plot", &file_arg]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(&file).unwrap_or_default();
    let doc = match roxmltree::Document::parse(&svg) {
        Ok(doc) => doc,
        Err(e) => panic!("not XML: {e}\n{svg}"),
    };
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("font-weight") == Some("bold"))
        .filter_map(|n| n.text())
        .collect();
    // per group (blokus classic, duo, deblockle, qwirkle with three players,
    // reversi standard, reversi wof): one panel per seat and one of lengths
    let panels = [4 + 1, 2 + 1, 2 + 1, 3 + 1, 2 + 1, 2 + 1];
    assert_eq!(titles.len(), panels.iter().sum::<usize>(), "{titles:?}");
    assert!(titles.contains(&"reversi (standard): black's final score, 4 finished games"));
    assert!(titles.contains(&"reversi (standard): length, 5 valid games"));
    // each bar names its values and count
    let bars = doc.descendants().filter(|n| n.has_tag_name("rect")).count();
    assert!(bars > 20, "{bars}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plot_to_standard_output_is_the_svg_alone() {
    let r = gamerec(&["stats", "tests/stats/club.gamerec", "--plot", "-"], b"");
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("<svg"), "{}", r.stdout);
    assert!(roxmltree::Document::parse(&r.stdout).is_ok());
    let both = gamerec(
        &[
            "stats",
            "tests/stats/club.gamerec",
            "--plot",
            "-",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("--plot -"), "{}", both.stderr);
}

#[test]
fn no_games_and_unreadable_files_are_exit_2() {
    let dir = std::env::temp_dir().join(format!("gamerec-stats-empty-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let empty = dir.to_string_lossy().into_owned();
    let r = gamerec(&["stats", &empty], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no games found"), "{}", r.stderr);
    let missing = dir.join("missing.gamerec").to_string_lossy().into_owned();
    let r = gamerec(&["stats", "tests/stats/club.gamerec", &missing], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("missing.gamerec"), "{}", r.stderr);
    // the games that could be read are counted all the same
    assert!(
        r.stdout
            .contains("6 games, 5 valid, 1 invalid, 1 unfinished, 1 unreadable")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// With a table of two openings, the third game's opening is counted as
/// untracked, the others keep their counts.
#[test]
fn a_full_opening_table_counts_the_rest_as_untracked() {
    use gamerec::pipeline::stats::{Stats, StatsOptions};
    let text = std::fs::read_to_string("tests/stats/club.gamerec").unwrap_or_default();
    let games = gamerec::parse_file(&text);
    let mut stats = Stats::new(StatsOptions {
        opening_plies: 2,
        max_keys: 1,
    });
    let opts = Stats::options(None);
    for raw in &games {
        let r = gamerec::replay(raw, &text, &opts);
        stats.add(&r);
    }
    let Some(g) = stats.groups().next() else {
        panic!("no group");
    };
    assert_eq!(g.openings.entries.len(), 1);
    let counted: u64 = g.openings.entries.values().map(|o| o.games).sum();
    assert_eq!(counted + g.openings.untracked, 5);
    assert_eq!(g.players.entries.len(), 1);
}

/// A WTHOR file's counts read from its bytes: the 16-byte header's number
/// of games, then 68-byte records (black's stored score at byte 6, the
/// moves from byte 8, `10 * row + column`).
#[derive(Default)]
struct Direct {
    games: u64,
    stored_black: BTreeMap<i64, u64>,
    /// The first two moves as squares, turned to start with f5.
    openings: BTreeMap<String, u64>,
}

fn square(b: u8) -> (u8, u8) {
    (b % 10 - 1, b / 10 - 1)
}

/// `(file, rank)` turned by the symmetry of the start that takes `first` to f5.
fn turned(first: (u8, u8), sq: (u8, u8)) -> String {
    let (f, r) = sq;
    let (f, r) = match first {
        (2, 3) => (7 - f, 7 - r),
        (4, 5) => (r, f),
        (3, 2) => (7 - r, 7 - f),
        _ => (f, r),
    };
    format!("{}{}", char::from(b'a' + f), r + 1)
}

fn read_direct(path: &Path, d: &mut Direct) -> u64 {
    let bytes = std::fs::read(path).unwrap_or_default();
    let header: [u8; 4] = bytes
        .get(4..8)
        .and_then(|b| b.try_into().ok())
        .unwrap_or_default();
    let n = u32::from_le_bytes(header) as usize;
    assert_eq!(bytes.len(), 16 + 68 * n, "{}", path.display());
    for rec in bytes.get(16..).unwrap_or_default().chunks_exact(68) {
        d.games += 1;
        *d.stored_black.entry(i64::from(rec[6])).or_default() += 1;
        let (a, b) = (square(rec[8]), square(rec[9]));
        let key = format!("{} {}", turned(a, a), turned(a, b));
        *d.openings.entry(key).or_default() += 1;
    }
    n as u64
}

/// A distribution's `values` as a map.
fn values(v: &Value) -> BTreeMap<i64, u64> {
    v["values"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, c)| Some((k.parse().ok()?, c.as_u64()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// `stats` of the files agrees with the records read directly: games,
/// black's stored score (the `Result` tag's), each finished game's replayed
/// score among them, and the first two moves.
fn check_wthor(files: &[std::path::PathBuf]) {
    let mut direct = Direct::default();
    for f in files {
        let n = read_direct(f, &mut direct);
        let name = f.to_string_lossy().into_owned();
        let (code, doc) = json(&[&name, "--opening", "0"]);
        assert_eq!(code, 0);
        assert_eq!(doc["summary"]["games"], n, "{name}");
    }
    let names: Vec<String> = files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
    args.extend(["--opening", "2", "--top", "10000"]);
    let (code, doc) = json(&args);
    assert_eq!(code, 0);
    let g = &doc["groups"][0];
    assert_eq!(doc["groups"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        (g["game"].as_str(), g["variant"].as_str()),
        (Some("reversi"), Some("wof"))
    );
    assert_eq!(g["games"], direct.games);
    assert_eq!(values(&g["recorded_scores"]["black"]), direct.stored_black);
    // a finished game's replayed score is its stored score
    let replayed = values(&g["scores"]["black"]);
    for (v, n) in &replayed {
        assert!(direct.stored_black.get(v).is_some_and(|s| s >= n), "{v}");
    }
    let finished: u64 = replayed.values().sum();
    assert_eq!(finished, g["finished"].as_u64().unwrap_or(0));
    assert_eq!(
        direct.games - finished,
        g["unfinished"].as_u64().unwrap_or(0)
    );
    let openings: BTreeMap<String, u64> = g["openings"]["top"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|o| Some((o["moves"].as_str()?.to_string(), o["games"].as_u64()?)))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(openings, direct.openings);
    let first: u64 = openings
        .iter()
        .filter(|(k, _)| k.starts_with("f5 "))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(first, direct.games);
}

#[test]
fn stats_of_a_wthor_year_agree_with_its_records() {
    let Some(files) = common::wthor_years(Some("1985")) else {
        return;
    };
    assert_eq!(files.len(), 1);
    check_wthor(&files);
}

#[test]
#[ignore = "needs ../shared/data/wthor (run with --ignored)"]
fn stats_of_the_wthor_database_agree_with_its_records() {
    let Some(files) = common::wthor_years(None) else {
        return;
    };
    assert_eq!(files.len(), 45);
    check_wthor(&files);
}
