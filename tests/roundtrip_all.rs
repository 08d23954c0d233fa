//! Round trips through every format that can hold each game: random legal
//! games of every game (Reversi standard and wof, Blokus classic, Duo,
//! Trigon, Deblockle, Qwirkle) are written as gamerec text, converted to
//! each target format (`convert --to gamerec|json|yaml|ggf|blksgf|wthor`)
//! and read back; the scores, winners, end, plies, moves and the tags the
//! format keeps must be those of the original.
//!
//! What each format keeps (the tags compared after the round trip):
//! - gamerec text, JSON, YAML: every tag, the comments and the move
//!   numbers (a per-move `number` in JSON);
//! - GGF (Reversi): `Black`, `White`, `Date`, `Site`, `Result`;
//! - Pentobi (Blokus games Pentobi can hold): `Date`, `Event`, `Site`,
//!   `Result`, `Round`;
//! - WTHOR (Reversi): `Event`, `Black`, `White`, the year of `Date`, and
//!   `Result` for `wof` games.
//!
//! What a conversion changes by design, each said in a warning, is what the
//! read-back game is compared with, never a check left out:
//! - GGF and WTHOR score Reversi `wof`: a `standard` game comes back with
//!   its winner and plies and the `wof` scores of its final position (its
//!   `Result`, given under `standard`, is not kept);
//! - Pentobi files score Blokus Pentobi's way: a game under another
//!   scoring comes back as the same game scored `pentobi` (the original is
//!   rescored for the comparison; its `Result` is not kept);
//! - Pentobi's corners: a classic game with other corners is written
//!   through the board symmetry onto Pentobi's, so its moves come back
//!   reflected (scores, winners, end and plies are still compared).

mod common;
#[path = "../benches/support/corpus.rs"]
mod corpus;

use common::config;

use common::{gamerec, wof};
use corpus::Rng;
use gamerec::game::{Position, Rules};
use gamerec::record::format_result;
use proptest::prelude::*;
use serde_json::Value;

/// One kind of random game.
struct Case {
    name: &'static str,
    tags: &'static [(&'static str, &'static str)],
    max_plies: usize,
    formats: &'static [&'static str],
}

const TEXT: &[&str] = &["gamerec", "json", "yaml"];
const REVERSI: &[&str] = &["gamerec", "json", "yaml", "ggf", "wthor"];
const PENTOBI: &[&str] = &["gamerec", "json", "yaml", "blksgf"];
const PENTOBI_CORNERS: &str = "blue a20, yellow t20, red t1, green a1";

const CASES: &[Case] = &[
    Case {
        name: "reversi-standard",
        tags: &[("Game", "reversi")],
        max_plies: 70,
        formats: REVERSI,
    },
    Case {
        name: "reversi-wof",
        tags: &[("Game", "reversi"), ("Variant", "wof")],
        max_plies: 70,
        formats: REVERSI,
    },
    Case {
        name: "blokus-classic",
        tags: &[("Game", "blokus"), ("Corners", PENTOBI_CORNERS)],
        max_plies: 40,
        formats: PENTOBI,
    },
    Case {
        name: "blokus-classic-rule-corners",
        tags: &[("Game", "blokus"), ("Players", "2")],
        max_plies: 24,
        formats: PENTOBI,
    },
    Case {
        name: "blokus-official",
        tags: &[
            ("Game", "blokus"),
            ("Players", "3"),
            ("Scoring", "official"),
            ("Corners", PENTOBI_CORNERS),
        ],
        max_plies: 30,
        formats: PENTOBI,
    },
    Case {
        name: "blokus-duo",
        tags: &[("Game", "blokus"), ("Variant", "duo")],
        max_plies: 40,
        formats: PENTOBI,
    },
    Case {
        name: "blokus-trigon",
        tags: &[("Game", "blokus"), ("Variant", "trigon")],
        max_plies: 24,
        formats: PENTOBI,
    },
    Case {
        name: "deblockle",
        tags: &[
            ("Game", "deblockle"),
            (
                "SetupGold",
                "c1 hoops/stop, e1 stop/slider, c3 stop/slider, e3 x/star",
            ),
            (
                "SetupBlue",
                "c5 hoops/star, e5 cross/stop, c7 stop/hoops, e7 slider/cross",
            ),
        ],
        max_plies: 60,
        formats: TEXT,
    },
];

/// A random game of `R` as gamerec text with the case's tags, some
/// descriptive tags, a `Result` when over; `None` when the generator found
/// none.
fn random_record<R: Rules>(case: &Case, seed: u64) -> Option<String> {
    let mut rng = Rng(seed | 1);
    let plies = 1 + rng.below(case.max_plies);
    let (moves, state) = corpus::random_game::<R>(case.tags, &mut rng, plies)?;
    let mut text = String::new();
    for (name, value) in case.tags {
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push_str(&format!(
        "[Event \"Cup {}\"]\n[Round \"{}\"]\n[Date \"2003\"]\n",
        seed % 7,
        seed % 5 + 1
    ));
    if case.name.starts_with("reversi") {
        text.push_str(&format!(
            "[Black \"Player {}\"]\n[White \"Player {}\"]\n[Site \"Paris\"]\n",
            seed % 11,
            seed % 13
        ));
    }
    if Position::is_over(&state) {
        text.push_str(&format!(
            "[Result \"{}\"]\n",
            format_result(&Position::scores(&state))
        ));
    }
    text.push('\n');
    text.push_str(&moves);
    text.push('\n');
    Some(text)
}

/// `convert --to json` of `input` (a file, or `-` with `stdin`): the games
/// of the document.
fn to_json(input: &str, stdin: &[u8]) -> Result<Vec<Value>, String> {
    let r = gamerec(&["convert", "--to", "json", input], stdin);
    if r.code != 0 {
        return Err(format!("reading back failed ({}): {}", r.code, r.stderr));
    }
    let doc: Value = serde_json::from_str(&r.stdout).map_err(|e| e.to_string())?;
    match doc["games"].as_array() {
        Some(games) if !games.is_empty() => Ok(games.clone()),
        _ => Err("no game read back".to_string()),
    }
}

/// Converts `text` to `format` and reads it back as JSON.
fn through(format: &str, text: &str) -> Result<Vec<Value>, String> {
    if format == "wthor" {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = dir.path().join("games.wtb");
        let out = out.to_string_lossy();
        let r = gamerec(
            &[
                "convert",
                "--to",
                "wthor",
                "--wthor-depth",
                "6",
                "-o",
                &out,
                "-",
            ],
            text.as_bytes(),
        );
        if r.code != 0 {
            return Err(format!(
                "convert --to wthor failed ({}): {}",
                r.code, r.stderr
            ));
        }
        return to_json(&out, b"");
    }
    let r = gamerec(&["convert", "--to", format, "-"], text.as_bytes());
    if r.code != 0 {
        return Err(format!(
            "convert --to {format} failed ({}): {}",
            r.code, r.stderr
        ));
    }
    to_json("-", r.stdout.as_bytes())
}

fn tags_of(g: &Value) -> Vec<(String, String)> {
    g["tags"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The written moves (automatic passes and passes left out).
fn moves_of(g: &Value) -> Vec<String> {
    g["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|m| m["auto"] != Value::Bool(true))
                .filter_map(|m| m["notation"].as_str())
                .filter(|n| *n != "pass")
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A name as a WTHOR field of `most` characters keeps it.
fn fit(name: &str, most: usize) -> String {
    let latin1: String = name
        .trim()
        .chars()
        .map(|c| if u32::from(c) > 0xff { '?' } else { c })
        .collect();
    latin1
        .chars()
        .take(most)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// The differences between the original `a` and `b` read back from
/// `format`, as (check, message); an empty list when the round trip holds.
fn compare(format: &str, a: &Value, b: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut check = |name: &str, same: bool, what: String| {
        if !same {
            out.push((name.to_string(), what));
        }
    };
    compare_play(format, a, b, &mut check);
    compare_kept_tags(format, a, b, &mut check);
    if TEXT.contains(&format) {
        compare_text(a, b, &mut check);
    }
    out
}

/// Whether `format` keeps only `wof` scores (WTHOR, GGF) of a `standard` game.
fn standard_to_wof(format: &str, a: &Value) -> bool {
    matches!(format, "wthor" | "ggf") && a["variant"] == "standard"
}

/// The round trip of the play: scores, winners, the end, plies and moves.
fn compare_play(format: &str, a: &Value, b: &Value, check: &mut impl FnMut(&str, bool, String)) {
    let (ra, rb) = (&a["result"], &b["result"]);
    let standard_to_wof = standard_to_wof(format, a);
    let side: i64 = tag(&tags_of(a), "Size")
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(8);
    let want_scores = if standard_to_wof && ra["over"] == Value::Bool(true) {
        wof(&ra["scores"], side * side)
    } else {
        ra["scores"].clone()
    };
    check(
        "scores",
        want_scores == rb["scores"],
        format!("scores {} became {}", want_scores, rb["scores"]),
    );
    check(
        "winners",
        ra["winners"] == rb["winners"],
        format!("winners {} became {}", ra["winners"], rb["winners"]),
    );
    check(
        "over",
        ra["over"] == rb["over"],
        format!("over {} became {}", ra["over"], rb["over"]),
    );
    let plies = |g: &Value| g["moves"].as_array().map_or(0, Vec::len);
    check(
        "plies",
        plies(a) == plies(b),
        format!("{} plies became {}", plies(a), plies(b)),
    );
    // Pentobi's corners: the moves come back reflected (see the header)
    let reflected = format == "blksgf" && a["variant"] == "classic" && !pentobi_corners(a);
    check(
        "moves",
        reflected || moves_of(a) == moves_of(b),
        format!("moves {:?} became {:?}", moves_of(a), moves_of(b)),
    );
}

/// The round trip of the tags `format` keeps.
fn compare_kept_tags(
    format: &str,
    a: &Value,
    b: &Value,
    check: &mut impl FnMut(&str, bool, String),
) {
    let standard_to_wof = standard_to_wof(format, a);
    let (ta, tb) = (tags_of(a), tags_of(b));
    let kept: Vec<&str> = match format {
        "gamerec" | "json" | "yaml" => ta.iter().map(|(k, _)| k.as_str()).collect(),
        // GGF results count the empty squares (for the winner, or in anti
        // games for the loser): a `standard` or `anti` game's Result is not
        // kept (a warning says so)
        "ggf" if standard_to_wof || a["variant"] == "anti" => {
            vec!["Black", "White", "Date", "Site"]
        }
        "ggf" => vec!["Black", "White", "Date", "Site", "Result"],
        "blksgf" => vec!["Date", "Event", "Site", "Result", "Round"],
        "wthor" if standard_to_wof => vec!["Event", "Black", "White", "Date"],
        "wthor" => vec!["Event", "Black", "White", "Date", "Result"],
        _ => Vec::new(),
    };
    for name in kept {
        let (va, vb) = (tag(&ta, name), tag(&tb, name));
        // WTHOR's name fields hold 19 (players) and 25 (tournament)
        // ISO-8859-1 characters: longer names are cut, with a warning
        let fitted = match (format, name) {
            ("wthor", "Event") => va.map(|v| fit(v, 25)),
            ("wthor", "Black" | "White") => va.map(|v| fit(v, 19)),
            _ => va.map(str::to_string),
        };
        let va = fitted.as_deref();
        // GGF keeps a Result that is a score (`RE`), not `*`
        if format == "ggf" && name == "Result" && va.is_some_and(|v| !v.contains('-')) {
            continue;
        }
        if va.is_some() {
            check(
                &format!("tag:{name}"),
                va == vb,
                format!("tag {name} {va:?} became {vb:?}"),
            );
        }
    }
}

/// The round trip of what only text formats keep: every tag, the comments,
/// the move numbers.
fn compare_text(a: &Value, b: &Value, check: &mut impl FnMut(&str, bool, String)) {
    let (ta, tb) = (tags_of(a), tags_of(b));
    check("tags", ta == tb, format!("tags {ta:?} became {tb:?}"));
    let comments = |g: &Value| -> Vec<Value> {
        let mut c = vec![g["comment"].clone()];
        if let Some(m) = g["moves"].as_array() {
            c.extend(m.iter().map(|m| m["comment"].clone()));
        }
        c
    };
    check(
        "comments",
        comments(a) == comments(b),
        "comments changed".to_string(),
    );
    // the move numbers written in the record (a per-move `number`)
    let numbers = |g: &Value| -> Vec<Value> {
        g["moves"]
            .as_array()
            .map(|m| m.iter().map(|m| m["number"].clone()).collect())
            .unwrap_or_default()
    };
    check(
        "numbers",
        numbers(a) == numbers(b),
        format!("move numbers {:?} became {:?}", numbers(a), numbers(b)),
    );
}

/// The original as a Pentobi file holds it, for a Blokus game scored other
/// than Pentobi's way: the same records with `Scoring "pentobi"` and no
/// `Result` (the writer says both); `None` when nothing changes.
fn rescored_for_pentobi(text: &str) -> Option<String> {
    let scoring = |l: &str| l.trim_start().starts_with("[Scoring ");
    let pentobi = text
        .lines()
        .filter(|l| scoring(l))
        .all(|l| l.to_ascii_lowercase().contains("\"pentobi\""));
    if pentobi && text.lines().any(scoring) {
        return None;
    }
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if scoring(line) || t.starts_with("[Result ") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if t.starts_with("[Game ") {
            out.push_str("[Scoring \"pentobi\"]\n");
        }
    }
    Some(out)
}

/// Whether `format` refuses the game `g` by design (not a loss: the
/// conversion fails with exit 2 and says why).
fn refused_by_design(format: &str, g: &Value) -> bool {
    let tags = tags_of(g);
    // Pentobi has no classic Blokus on boards other than 20x20
    if format == "blksgf" {
        return tag(&tags, "Size").is_some_and(|s| s.trim() != "20");
    }
    format == "wthor"
        && (tag(&tags, "Setup").is_some()
            || tag(&tags, "Size").is_some_and(|s| s != "8")
            || tag(&tags, "Komi").is_some_and(|k| k.parse::<f64>() != Ok(0.0))
            || g["variant"] == "anti")
}

/// Converts the games of `text` through each of `formats` and compares
/// what comes back with the original, game by game. `case`: the case name
/// the failures name.
fn round_trip_text(case: &str, formats: &[&str], text: &str) -> Result<(), String> {
    let original =
        to_json("-", text.as_bytes()).map_err(|e| format!("{case}: the original: {e}\n{text}"))?;
    for &format in formats {
        if original.iter().any(|g| refused_by_design(format, g)) {
            continue;
        }
        let back = match through(format, text) {
            Ok(b) => b,
            Err(e) => return Err(format!("{case} --to {format}: {e}\n{text}")),
        };
        let rescored = match (format, rescored_for_pentobi(text)) {
            ("blksgf", Some(t)) => Some(
                to_json("-", t.as_bytes())
                    .map_err(|e| format!("{case}: rescored for Pentobi: {e}\n{t}"))?,
            ),
            _ => None,
        };
        let original = rescored.as_ref().unwrap_or(&original);
        if back.len() != original.len() {
            return Err(format!(
                "{case} --to {format}: {} games became {}\n{text}",
                original.len(),
                back.len()
            ));
        }
        for (a, b) in original.iter().zip(&back) {
            let diffs = compare(format, a, b);
            if !diffs.is_empty() {
                return Err(format!("{case} --to {format}: {diffs:?}\n{text}"));
            }
        }
    }
    Ok(())
}

/// Converts one random game of `R` through every format of its case.
fn round_trip<R: Rules>(case: &Case, seed: u64) -> Result<(), TestCaseError> {
    let Some(text) = random_record::<R>(case, seed) else {
        return Err(TestCaseError::fail(format!(
            "{}: no random game from seed {seed}",
            case.name
        )));
    };
    round_trip_text(case.name, case.formats, &text).map_err(TestCaseError::fail)
}

fn case(name: &str) -> &'static Case {
    CASES.iter().find(|c| c.name == name).unwrap_or(&CASES[0])
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn reversi_standard(seed in any::<u64>()) {
        round_trip::<gamerec::games::reversi::Reversi>(case("reversi-standard"), seed)?;
    }

    #[test]
    fn reversi_wof(seed in any::<u64>()) {
        round_trip::<gamerec::games::reversi::Reversi>(case("reversi-wof"), seed)?;
    }

    #[test]
    fn deblockle(seed in any::<u64>()) {
        round_trip::<gamerec::games::deblockle::Deblockle>(case("deblockle"), seed)?;
    }
}

proptest! {
    #![proptest_config(config(4))]

    #[test]
    fn blokus_classic(seed in any::<u64>()) {
        round_trip::<gamerec::games::blokus::Blokus>(case("blokus-classic"), seed)?;
    }

    #[test]
    fn blokus_classic_rule_corners(seed in any::<u64>()) {
        round_trip::<gamerec::games::blokus::Blokus>(case("blokus-classic-rule-corners"), seed)?;
    }

    #[test]
    fn blokus_official(seed in any::<u64>()) {
        round_trip::<gamerec::games::blokus::Blokus>(case("blokus-official"), seed)?;
    }

    #[test]
    fn blokus_duo(seed in any::<u64>()) {
        round_trip::<gamerec::games::blokus::Blokus>(case("blokus-duo"), seed)?;
    }

    #[test]
    fn blokus_trigon(seed in any::<u64>()) {
        round_trip::<gamerec::games::blokus::Blokus>(case("blokus-trigon"), seed)?;
    }
}

/// Whether a Blokus game has Pentobi's corners (a `Corners` tag naming them).
fn pentobi_corners(g: &Value) -> bool {
    tag(&tags_of(g), "Corners").is_some_and(|c| {
        c.replace(' ', "")
            .eq_ignore_ascii_case(&PENTOBI_CORNERS.replace(' ', ""))
    })
}

/// The [`Case`] name of a game read from a fixture.
fn case_of(g: &Value) -> String {
    let game = g["game"].as_str().unwrap_or("");
    let variant = g["variant"].as_str().unwrap_or("");
    let tags = tags_of(g);
    if game != "blokus" {
        return format!("{game}-{variant}");
    }
    if tag(&tags, "Scoring").is_some_and(|s| s.trim().eq_ignore_ascii_case("official")) {
        return "blokus-official".into();
    }
    match variant {
        "classic" if !pentobi_corners(g) => "blokus-classic-rule-corners".into(),
        v => format!("blokus-{v}"),
    }
}

/// The valid fixtures of `dir`, each through `formats`; the case is named
/// after its first game ([`case_of`]).
fn fixtures_round_trip(dir: &str, formats: &[&str]) {
    let dir = format!("{}/fixtures/{dir}/valid", env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "gamerec") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let Ok(games) = to_json("-", text.as_bytes()) else {
            continue;
        };
        let case = case_of(&games[0]);
        if let Err(e) = round_trip_text(&case, formats, &text) {
            failures.push(format!("{}: {e}", path.display()));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked > 0);
}

/// Qwirkle: a random game needs the hidden bag's draws, which the valid
/// fixtures record; each goes through every format that can hold it.
#[test]
fn qwirkle_fixtures() {
    fixtures_round_trip("qwirkle", TEXT);
}

/// The Blokus fixtures: games to the end, with their results, every
/// scoring, Duo and Trigon, set-up starts.
#[test]
fn blokus_fixtures() {
    fixtures_round_trip("blokus", PENTOBI);
}

/// The Reversi fixtures: games ending with empty squares, passes written
/// and left out, several games in a file, a set-up start.
#[test]
fn reversi_fixtures() {
    fixtures_round_trip("reversi", REVERSI);
}

// ---------------------------------------------------------------------------
// `convert --to wthor`: the names files, standard output, refusals
// ---------------------------------------------------------------------------

const ONE_GAME: &str = "[Game \"reversi\"]\n[Variant \"wof\"]\n[Event \"Open\"]\n[Black \"Ann\"]\n[White \"Ben\"]\n[Date \"2003\"]\n\nf5 d6 c3 d3 c4\n";

fn names_in(path: &std::path::Path, record_len: usize) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_default();
    gamerec::formats::wthor::read_names(&bytes, record_len).unwrap_or_default()
}

#[test]
fn wthor_needs_an_output_file() {
    for args in [
        &["convert", "--to", "wthor", "-"][..],
        &["convert", "--to", "wthor", "-o", "-", "-"],
    ] {
        let r = gamerec(args, ONE_GAME.as_bytes());
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            r.stderr.contains("give -o FILE.wtb or -o DIR"),
            "{}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
    }
}

#[test]
fn wthor_names_are_merged_never_renumbered() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.wtb");
    let r = gamerec(
        &["convert", "--to", "wthor", "-o", &a.to_string_lossy(), "-"],
        ONE_GAME.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let jou = dir.path().join("WTHOR.JOU");
    let trn = dir.path().join("WTHOR.TRN");
    assert_eq!(names_in(&jou, 20), ["Ann", "Ben"]);
    assert_eq!(names_in(&trn, 26), ["Open"]);
    // a second file in the same directory: Ben and Open keep their numbers
    let second = ONE_GAME
        .replace("\"Ann\"", "\"Cid\"")
        .replace("\"Ben\"", "\"Ben\"]\n[Site \"Paris\"");
    let b = dir.path().join("b.wtb");
    let r = gamerec(
        &["convert", "--to", "wthor", "-o", &b.to_string_lossy(), "-"],
        second.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("game 1: not kept in WTHOR: the Site tag: WTHOR has no place for it"),
        "{}",
        r.stderr
    );
    assert_eq!(names_in(&jou, 20), ["Ann", "Ben", "Cid"]);
    assert_eq!(names_in(&trn, 26), ["Open"]);
    let bytes = std::fs::read(&b).unwrap();
    assert_eq!(bytes.len(), 16 + 68);
    assert_eq!(&bytes[4..8], &[1, 0, 0, 0], "one game");
    assert_eq!(&bytes[10..14], &[0xd3, 0x07, 8, 0], "2003, 8x8");
    assert_eq!(bytes[14], gamerec::formats::wthor::DEFAULT_DEPTH);
    assert_eq!(&bytes[16..22], &[0, 0, 2, 0, 1, 0], "Open, Cid, Ben");
    // both files read back with their names
    for (file, black) in [(&a, "Ann"), (&b, "Cid")] {
        let g = &to_json(&file.to_string_lossy(), b"").unwrap()[0];
        let tags = tags_of(g);
        assert_eq!(tag(&tags, "Black"), Some(black));
        assert_eq!(tag(&tags, "White"), Some("Ben"));
        assert_eq!(tag(&tags, "Event"), Some("Open"));
        assert_eq!(moves_of(g), ["f5", "d6", "c3", "d3", "c4"]);
    }
}

/// A WTHOR file with its names files, converted to WTHOR again beside
/// copies of those names files, gives the same records byte for byte (the
/// theoretical scores are the file's own), and leaves the names files as
/// they were.
#[test]
fn wthor_to_wthor_keeps_the_records() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/wthor/valid");
    let dir = tempfile::tempdir().unwrap();
    for name in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(format!("{fixtures}/{name}"), dir.path().join(name)).unwrap();
    }
    let out = dir.path().join("WTH_1978.wtb");
    let input = format!("{fixtures}/WTH_1978.wtb");
    let r = gamerec(
        &[
            "convert",
            "-q",
            "--to",
            "wthor",
            &input,
            "-o",
            &out.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (old, new) = (std::fs::read(&input).unwrap(), std::fs::read(&out).unwrap());
    assert_eq!(old.len(), new.len());
    // the creation date differs; the rest of the header and every record not
    assert_eq!(&old[4..16], &new[4..16]);
    assert_eq!(&old[16..], &new[16..]);
    for name in ["WTHOR.JOU", "WTHOR.TRN"] {
        assert_eq!(
            std::fs::read(format!("{fixtures}/{name}")).unwrap(),
            std::fs::read(dir.path().join(name)).unwrap(),
            "{name}"
        );
    }
}

/// What WTHOR cannot hold is refused (exit 2) and nothing is written.
/// A game without a stored theoretical score after a game with one (the
/// FFO depth, 24, chosen from the first game) is refused, naming the file
/// and the game, rather than searched for minutes; `--wthor-depth` lets it
/// through.
#[test]
fn wthor_refuses_a_deep_search_nobody_asked_for() {
    let wtb = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/wthor/valid/");
    let first = std::fs::read_dir(wtb)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_some_and(|x| x == "wtb") && !p.to_string_lossy().contains("10x10")
        })
        .unwrap();
    let text = gamerec(
        &["convert", "--to", "gamerec", &first.to_string_lossy()],
        b"",
    )
    .stdout;
    let stored = text.split("\n\n[").next().unwrap_or_default().to_string();
    assert!(stored.contains("[TheoreticalScore "), "{stored}");
    // the same game again, without its stored score
    let bare: String = stored
        .lines()
        .filter(|l| !l.starts_with("[TheoreticalScore "))
        .map(|l| format!("{l}\n"))
        .collect();
    let both = format!("{stored}\n\n{bare}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.wtb");
    let args = [
        "convert",
        "--to",
        "wthor",
        "-o",
        &out.to_string_lossy(),
        "-",
    ];
    let r = gamerec(&args, both.as_bytes());
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("error: not converted: - game 2: this game has no TheoreticalScore"),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
    let r = gamerec(
        &[&args[..], &["--wthor-depth", "12", "-q"]].concat(),
        both.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(out.exists());
}

#[test]
fn wthor_refusals_write_nothing() {
    let cases = [
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/blokus/valid/duo.gamerec"
        ))
        .unwrap(),
        ONE_GAME.replace(
            "[Variant \"wof\"]",
            "[Setup \"---------------------------OX------XO--------------------------- b\"]",
        ),
        ONE_GAME.replace("[Variant \"wof\"]", "[Komi \"2\"]"),
    ];
    for text in &cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x.wtb");
        let r = gamerec(
            &[
                "convert",
                "--to",
                "wthor",
                "-o",
                &out.to_string_lossy(),
                "-",
            ],
            text.as_bytes(),
        );
        assert_eq!(r.code, 2, "{text}\n{}", r.stderr);
        assert!(r.stderr.contains("error: not converted:"), "{}", r.stderr);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert!(left.is_empty(), "{text}: {left:?}");
    }
    // a names file that is not one: refused, nothing written
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("WTHOR.JOU"), b"abc").unwrap();
    let out = dir.path().join("x.wtb");
    let r = gamerec(
        &[
            "convert",
            "--to",
            "wthor",
            "-o",
            &out.to_string_lossy(),
            "-",
        ],
        ONE_GAME.as_bytes(),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("WTHOR.JOU"), "{}", r.stderr);
    assert!(!out.exists());
}

/// The theoretical score: at depth 0 (searched from the end) it is the
/// real score; a standard-scored game that ends with empty squares is
/// written with the empty squares to the winner, and says so.
#[test]
fn wthor_scores() {
    // white wipes black out, 15 squares empty: 0-49, 0-64 with them
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/reversi/valid/early-end.gamerec"
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.wtb");
    let r = gamerec(
        &[
            "convert",
            "--to",
            "wthor",
            "--wthor-depth",
            "0",
            "-o",
            &out.to_string_lossy(),
            "-",
        ],
        text.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "the standard scoring: WTHOR gives the empty squares to the winner (0-49 becomes 0-64)"
        ),
        "{}",
        r.stderr
    );
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes[14], 0);
    let g = &to_json(&out.to_string_lossy(), b"").unwrap()[0];
    assert_eq!(g["result"]["winners"], serde_json::json!(["white"]));
    assert_eq!(
        g["result"]["scores"],
        serde_json::json!({"black": 0, "white": 64})
    );
    assert_eq!(bytes[16 + 6], 0);
    assert_eq!(bytes[16 + 7], 0);
}
