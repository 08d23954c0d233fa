//! The interchange formats end to end: WTHOR (a small year copied into the
//! fixtures, and the whole database beside the repository when present),
//! WTHOR to gamerec text, GGF round trips.

mod common;

use std::path::Path;

use common::gamerec;
use gamerec::formats::{self, Format};
use gamerec::model::{DocGame, Document};
use gamerec::registry::replay;
use gamerec::replay::Options;

fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let r = gamerec(args, b"");
    (r.code, serde_json::from_str(&r.stdout).unwrap_or_default())
}

#[test]
fn wthor_small_year_validates_with_names() {
    let (code, doc) = json(&[
        "validate",
        "--format",
        "json",
        "fixtures/wthor/valid/WTH_1978.wtb",
    ]);
    assert_eq!(code, 0);
    assert_eq!(doc["summary"]["games"], 8);
    assert_eq!(doc["summary"]["valid"], 8);
    assert_eq!(doc["summary"]["unfinished"], 0);
    let g = &doc["games"][0];
    assert_eq!(g["variant"], "wof");
    assert_eq!(g["over"], true);
    assert_eq!(g["scores"]["black"], 41);
    assert_eq!(g["source_format"], "wthor");
}

#[test]
fn wthor_diagnostics_give_file_byte_offsets() {
    let (code, doc) = json(&[
        "validate",
        "--format",
        "json",
        "fixtures/wthor/invalid/bad_square.wtb",
    ]);
    assert_eq!(code, 1);
    let e = &doc["games"][1]["errors"][0];
    assert_eq!(e["code"], "reversi::bad_square");
    // game 1 starts at 16 + 68; its 50th move byte is 8 + 49 further
    assert_eq!(e["span"]["offset"], 16 + 68 + 8 + 49);
    assert_eq!(e["span"]["length"], 1);
    assert!(e["line"].is_null() && e["column"].is_null());
    assert_eq!(e["ply"], 50);
    let (_, doc) = json(&[
        "validate",
        "--format",
        "json",
        "fixtures/wthor/invalid/truncated.wtb",
    ]);
    assert_eq!(doc["summary"]["games"], 3);
    assert_eq!(doc["games"][2]["errors"][0]["code"], "wthor::truncated");
    assert_eq!(doc["games"][2]["errors"][0]["span"]["offset"], 16 + 2 * 68);
}

#[test]
fn wthor_converted_to_gamerec_validates_the_same() {
    let file = "fixtures/wthor/valid/WTH_1978.wtb";
    let text = gamerec(&["convert", "--to", "gamerec", file], b"");
    assert_eq!(text.code, 0);
    let (_, a) = json(&["score", "--format", "json", file]);
    let r = gamerec(&["score", "--format", "json", "-"], text.stdout.as_bytes());
    let b: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    for (x, y) in a["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(b["games"].as_array().unwrap())
    {
        for k in ["valid", "plies", "over", "scores", "winners", "result"] {
            assert_eq!(x[k], y[k], "{k}");
        }
    }
    assert_eq!(a["summary"], b["summary"]);
}

fn docs(name: &str, bytes: Vec<u8>) -> Vec<DocGame> {
    let input = formats::read(name, bytes, None).unwrap();
    let opts = Options::keeping(gamerec::sink::Record);
    input
        .games
        .iter()
        .map(|g| {
            let r = replay(g, &input.text, &opts);
            assert!(r.valid, "{:?}", r.errors);
            DocGame::from_report(&r)
        })
        .collect()
}

#[test]
fn ggf_round_trips() {
    for file in [
        "fixtures/ggf/valid/games.ggf",
        "fixtures/ggf/valid/komi.ggf",
        "fixtures/ggf/valid/lone_cr.ggf",
        "fixtures/ggf/valid/random_start.ggf",
        "fixtures/ggf/valid/synchro.ggf",
        "fixtures/wthor/valid/WTH_1978.wtb",
    ] {
        let first = docs(file, std::fs::read(file).unwrap());
        let written = formats::ggf::write(&first).unwrap();
        let second = docs("x.ggf", written.clone().into_bytes());
        if file.ends_with(".ggf") {
            assert!(first == second, "{file}: read-write-read differs");
        } else {
            // WTHOR's Event, Game, Variant and TheoreticalScore have no GGF property
            for (a, b) in first.iter().zip(&second) {
                assert_eq!(a.moves, b.moves);
                assert_eq!(a.result, b.result);
            }
        }
        let third = formats::ggf::write(&second).unwrap();
        assert_eq!(
            formats::ggf::write(&docs("y.ggf", third.into_bytes())).unwrap(),
            formats::ggf::write(&second).unwrap()
        );
        let _ = Document { games: second };
    }
}

/// The tags GGF keeps (`Variant` aside: GGF results are `wof` or `anti`).
const GGF_KEPT: &[&str] = &["Black", "White", "Site", "Date", "Setup", "Size", "Komi"];

/// gamerec → GGF → gamerec: the same plies and winner, the same scores when
/// the scoring is GGF's (`wof`, or no empty square left), the kept tags, and
/// every other tag named in the losses.
#[test]
fn gamerec_to_ggf_keeps_scores_winner_plies_and_tags() {
    let mut files: Vec<_> = std::fs::read_dir("fixtures/reversi/valid")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "gamerec"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    let mut standard_with_empties = 0;
    for file in files {
        let name = file.display().to_string();
        for g in docs(&name, std::fs::read(&file).unwrap()) {
            let mut losses = formats::Losses::default();
            let written = formats::ggf::write_game(&g, &mut losses).unwrap();
            let back = docs("x.ggf", written.clone().into_bytes());
            assert_eq!(back.len(), 1, "{name}: {written}");
            let b = &back[0];
            let (ra, rb) = (g.result.as_ref().unwrap(), b.result.as_ref().unwrap());
            let plies = |d: &DocGame| -> Vec<(usize, String, String, bool)> {
                d.moves
                    .iter()
                    .map(|m| (m.ply, m.player.clone(), m.notation.clone(), m.auto))
                    .collect()
            };
            assert_eq!(plies(&g), plies(b), "{name}");
            assert_eq!(ra.over, rb.over, "{name}");
            if ra.over {
                assert_eq!(ra.winners, rb.winners, "{name}");
            }
            let empties = 64 - ra.scores.values().map(|v| v.as_i64().unwrap()).sum::<i64>();
            if g.variant.as_deref() == Some("wof") || empties == 0 {
                assert_eq!(ra.scores, rb.scores, "{name}");
            } else {
                standard_with_empties += 1;
            }
            let notes: Vec<&str> = losses.iter().collect();
            if g.variant.as_deref() == Some("standard") {
                assert!(notes.iter().any(|n| n.contains("`standard`")), "{name}");
            }
            for (k, v) in &g.tags {
                let kept = b.tags.iter().find(|(bk, _)| bk == k).map(|(_, bv)| bv);
                if k == "Setup" {
                    // the same position, spelt with GGF's cells
                    let cells = |v: &str| -> String {
                        v.chars()
                            .map(|c| match c {
                                'X' | 'x' | '*' => '*',
                                'O' | 'o' => 'O',
                                '.' | '-' => '-',
                                c => c,
                            })
                            .collect()
                    };
                    assert_eq!(kept.map(|k| cells(k)), Some(cells(v)), "{name}");
                } else if GGF_KEPT.contains(&k.as_str()) {
                    assert_eq!(kept, Some(v), "{name}: {k}");
                } else if !["Game", "Variant", "Result"].contains(&k.as_str()) {
                    assert!(
                        notes.iter().any(|n| n.contains(&format!("the {k} tag"))),
                        "{name}: {k} not named in {notes:?}"
                    );
                }
            }
            if g.comment.is_some() || g.moves.iter().any(|m| m.comment.is_some()) {
                assert!(notes.iter().any(|n| n.contains("comment")), "{name}");
            }
        }
    }
    // the case of the issue: a standard game ending with empty squares
    assert!(standard_with_empties > 0);
}

/// GGF anti and 10x10 games: their
/// tags as read, and back through the writer.
#[test]
fn ggf_anti_and_sizes_read_as_tags() {
    let read = |f: &str| formats::read(f, std::fs::read(f).unwrap(), None).unwrap();
    let input = read("fixtures/ggf/valid/anti.ggf");
    let g = &input.games[0];
    assert_eq!(g.tags.value("Variant"), Some("anti"));
    assert_eq!(g.tags.value("GGF_RE"), Some("+34.000"));
    assert_eq!(g.tags.value("Result"), None);
    assert_eq!(g.winner_claim.as_ref().unwrap().seats, [0]);
    assert!(g.tag_errors.is_empty());
    assert_eq!(g.tokens.len(), 60);
    let input = read("fixtures/ggf/valid/size10.ggf");
    let g = &input.games[0];
    assert_eq!(g.tags.value("Size"), Some("10"));
    assert_eq!(g.tags.value("Variant"), Some("wof"));
    assert_eq!(g.tags.value("Result"), Some("47-53"));
    assert_eq!(g.tags.value("Setup"), None);
    assert!(g.tag_errors.is_empty());
    assert_eq!(g.tokens.len(), 96);
    assert_eq!(g.tokens[0].text(&input.text), "g6");
}

/// `TY` that says no more than the other tags (`8`, `10` with `Size`, `8k`
/// with a komi, `8a` anti) round-trips to no `GGF_TY` tag (issue 26): a
/// conversion to text then names no loss, and the GGF writer makes the same
/// `TY` again; one with flags of its own (`s` synchro, `r` random) is kept.
#[test]
fn ggf_default_types_round_trip_to_no_tag() {
    let read = |text: &str| formats::read("t.ggf", text.as_bytes().to_vec(), None).unwrap();
    let board = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";
    for (ty, extra, kept) in [
        ("8", "", false),
        ("8k", "KM[2]", false),
        ("8a", "", false),
        ("8k", "KM[0]", true),
        ("s8", "", true),
        ("8r20", "", true),
    ] {
        let text = format!("(;GM[Othello]PB[a]PW[b]TY[{ty}]{extra}{board}B[f5];)\n");
        let input = read(&text);
        let g = &input.games[0];
        assert_eq!(g.tags.value("GGF_TY").is_some(), kept, "TY[{ty}]{extra}");
        if !kept {
            let dir = std::env::temp_dir().join(format!("gamerec-ty-{}-{ty}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join("t.ggf");
            std::fs::write(&file, &text).unwrap();
            let file = file.to_string_lossy().into_owned();
            let to_text = gamerec(&["convert", "--to", "gamerec", &file], b"");
            assert_eq!(to_text.code, 0, "{}", to_text.stderr);
            assert!(!to_text.stdout.contains("GGF_TY"), "{}", to_text.stdout);
            assert!(!to_text.stderr.contains("GGF_TY"), "{}", to_text.stderr);
            let back = gamerec(&["convert", "--to", "ggf", &file], b"");
            assert!(
                back.stdout.contains(&format!("TY[{ty}]")),
                "{}",
                back.stdout
            );
            std::fs::remove_dir_all(&dir).ok();
        }
    }
}

/// The evaluation and time after each suffix-bearing GGF move value:
/// `(colour, eval/time)` in order, the square left out.
fn ggf_move_suffixes(text: &str) -> Vec<(char, String)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices('[') {
        let colour = text[..i].chars().last().unwrap_or(' ');
        let before = text[..i].chars().rev().nth(1).unwrap_or(' ');
        if !matches!(colour, 'B' | 'W') || before.is_ascii_uppercase() {
            continue;
        }
        let value = &text[i + 1..i + 1 + text[i + 1..].find(']').unwrap()];
        if let Some((_, rest)) = value.split_once('/') {
            out.push((colour, rest.to_string()));
        }
    }
    out
}

/// GGF's per-move evaluations and times (`B[F5/-3.5/0.0]`) are kept, as
/// written, in JSON and YAML (each move's `props`: `GGF_eval`, `GGF_time`)
/// and written back by the GGF writer, directly and through JSON and YAML;
/// gamerec text names them as a loss (issue 26: they were dropped without
/// a word).
#[test]
fn ggf_move_evaluations_and_times_are_kept() {
    let file = "fixtures/ggf/valid/games.ggf";
    let input = std::fs::read_to_string(file).unwrap();
    let want = ggf_move_suffixes(&input);
    assert_eq!(want.len(), 60, "{want:?}");
    let json = gamerec(&["convert", "--to", "json", file], b"");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: Document = serde_json::from_str(&json.stdout).unwrap();
    let first = &doc.games[0].moves[0];
    assert_eq!(
        first.props.get("GGF_eval").and_then(|v| v.as_str()),
        Some("-3.5")
    );
    assert_eq!(
        first.props.get("GGF_time").and_then(|v| v.as_str()),
        Some("0.0")
    );
    // a game without them has none
    assert!(doc.games[1].moves.iter().all(|m| m.props.is_empty()));
    let direct = gamerec(&["convert", "--to", "ggf", file], b"");
    assert_eq!(direct.code, 0, "{}", direct.stderr);
    assert_eq!(ggf_move_suffixes(&direct.stdout), want);
    for format in ["json", "yaml"] {
        let doc = gamerec(&["convert", "--to", format, file], b"");
        let back = gamerec(
            &["convert", "--from", format, "--to", "ggf", "-"],
            doc.stdout.as_bytes(),
        );
        assert_eq!(back.code, 0, "{format}: {}", back.stderr);
        assert_eq!(back.stdout, direct.stdout, "through {format}");
    }
    // written by gamerec, read back and written again: byte for byte
    let again = gamerec(
        &["convert", "--from", "ggf", "--to", "ggf", "-"],
        direct.stdout.as_bytes(),
    );
    assert_eq!(again.stdout, direct.stdout);
    let text = gamerec(&["convert", "--to", "gamerec", file], b"");
    assert!(
        text.stderr.contains(
            "not kept in gamerec text: the GGF_eval of 60 moves: gamerec text has no place for it"
        ),
        "{}",
        text.stderr
    );
    assert!(
        text.stderr.contains("the GGF_time of 60 moves"),
        "{}",
        text.stderr
    );
}

/// Pentobi's move marks and other properties of a move node (`TE[1]`,
/// `BM[2]`, `LB[x][y]`) are kept with the move (`props`: `SGF_TE`...,
/// values as SGF writes them) and written back in the move's node, directly
/// and through JSON and YAML (issue 26: they were dropped without a word);
/// GGF and gamerec text name them as a loss, and a document's property that
/// Pentobi would read as something else (`SGF_B`, a move) is not written.
#[test]
fn pentobi_move_marks_are_kept() {
    let input = "(;FF[4]CA[UTF-8]GM[Blokus Duo]\n;B[e9,e10,f10,f11,g11]TE[1]\n;W[j4,j5,k5,k6,l6]C[hm]BM[2]LB[x][y\\]z]\n)\n";
    let dir = std::env::temp_dir().join(format!("gamerec-marks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("marks.blksgf");
    std::fs::write(&file, input).unwrap();
    let file = file.to_string_lossy().into_owned();
    let json = gamerec(&["convert", "--to", "json", &file], b"");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: Document = serde_json::from_str(&json.stdout).unwrap();
    let props = |k: usize| -> Vec<(String, String)> {
        doc.games[0].moves[k]
            .props
            .iter()
            .map(|(n, v)| (n.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect()
    };
    assert_eq!(props(0), [("SGF_TE".to_string(), "1".to_string())]);
    assert_eq!(
        props(1),
        [
            ("SGF_BM".to_string(), "2".to_string()),
            ("SGF_LB".to_string(), "x][y\\]z".to_string())
        ]
    );
    let direct = gamerec(&["convert", "--to", "blksgf", &file], b"");
    assert_eq!(direct.code, 0, "{}", direct.stderr);
    assert!(
        direct.stdout.contains(";B[e9,e10,f10,f11,g11]TE[1]\n"),
        "{}",
        direct.stdout
    );
    assert!(
        direct
            .stdout
            .contains(";W[j4,j5,k5,k6,l6]C[hm]BM[2]LB[x][y\\]z]\n"),
        "{}",
        direct.stdout
    );
    for format in ["json", "yaml"] {
        let doc = gamerec(&["convert", "--to", format, &file], b"");
        let back = gamerec(
            &["convert", "--from", format, "--to", "blksgf", "-"],
            doc.stdout.as_bytes(),
        );
        assert_eq!(
            back.stdout, direct.stdout,
            "through {format}: {}",
            back.stderr
        );
    }
    let again = gamerec(
        &["convert", "--from", "pentobi", "--to", "blksgf", "-"],
        direct.stdout.as_bytes(),
    );
    assert_eq!(again.stdout, direct.stdout);
    let text = gamerec(&["convert", "--to", "gamerec", &file], b"");
    assert!(
        text.stderr
            .contains("the SGF_TE of 1 move: gamerec text has no place for it"),
        "{}",
        text.stderr
    );
    // a document property that would be read as a move is not written
    let forged = json.stdout.replacen("\"SGF_TE\"", "\"SGF_B\"", 1);
    let back = gamerec(
        &["convert", "--from", "json", "--to", "blksgf", "-"],
        forged.as_bytes(),
    );
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert!(
        back.stdout.contains(";B[e9,e10,f10,f11,g11]\n"),
        "{}",
        back.stdout
    );
    assert!(
        back.stderr
            .contains("the SGF_B of 1 move: Pentobi has no place for it"),
        "{}",
        back.stderr
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A GGF match (`2 (;...;)(;...;)`, a synchro pair) keeps its count
/// through every conversion (issue 26: it was written as two lone games):
/// its games' `GGF_match` tags (`1/2`, `2/2`) give each its place, and the
/// GGF writer holds a match's games until it is whole, then writes the
/// count and the games on one line. The output reads back valid and is a
/// fixed point; a match cut short is written with the count of its games
/// and a loss noted.
#[test]
fn ggf_match_counts_are_kept() {
    let file = "fixtures/ggf/valid/synchro.ggf";
    let direct = gamerec(&["convert", "--to", "ggf", file], b"");
    assert_eq!(direct.code, 0, "{}", direct.stderr);
    assert!(
        direct.stdout.starts_with("2 (;GM[Othello]"),
        "{}",
        direct.stdout
    );
    assert_eq!(direct.stdout.lines().count(), 1, "{}", direct.stdout);
    assert!(!direct.stdout.contains("GGF_match") && !direct.stdout.contains("match["));
    let again = gamerec(
        &["convert", "--from", "ggf", "--to", "ggf", "-"],
        direct.stdout.as_bytes(),
    );
    assert_eq!(again.stdout, direct.stdout);
    for format in ["json", "yaml", "gamerec"] {
        let doc = gamerec(&["convert", "--to", format, file], b"");
        assert!(doc.stdout.contains("GGF_match"), "{format}: {}", doc.stdout);
        let back = gamerec(
            &["convert", "--from", format, "--to", "ggf", "-"],
            doc.stdout.as_bytes(),
        );
        assert_eq!(
            back.stdout, direct.stdout,
            "through {format}: {}",
            back.stderr
        );
    }
    // the match's second game alone: a match of one, said
    let text = gamerec(&["convert", "--to", "gamerec", file], b"").stdout;
    let first = text
        .split("\n\n[Game")
        .next()
        .unwrap_or_default()
        .to_string();
    let cut = gamerec(
        &["convert", "--from", "gamerec", "--to", "ggf", "-"],
        first.as_bytes(),
    );
    assert!(cut.stdout.starts_with("1 (;GM[Othello]"), "{}", cut.stdout);
    assert!(
        cut.stderr
            .contains("a match of 2 games: only 1 of it written, as a match of 1"),
        "{}",
        cut.stderr
    );
}

#[test]
fn pentobi_round_trips() {
    for file in [
        "fixtures/pentobi/valid/duo.blksgf",
        "fixtures/pentobi/valid/classic.blksgf",
        "fixtures/pentobi/valid/duo_setup.blksgf",
        "fixtures/pentobi/valid/classic_setup.blksgf",
        "fixtures/pentobi/valid/trigon.blksgf",
        "fixtures/pentobi/valid/trigon_two_player.blksgf",
        "fixtures/pentobi/valid/trigon_three_player.blksgf",
        "fixtures/pentobi/valid/trigon_setup.blksgf",
        "fixtures/pentobi/valid/trigon_old_move_values.blksgf",
    ] {
        let first = docs(file, std::fs::read(file).unwrap());
        let written = formats::pentobi::write(&first).unwrap();
        let second = docs("x.blksgf", written.into_bytes());
        assert!(first == second, "{file}: read-write-read differs");
    }
    // Setups survive gamerec text, JSON and YAML, and come back to Pentobi.
    for file in [
        "fixtures/pentobi/valid/duo_setup.blksgf",
        "fixtures/pentobi/valid/classic_setup.blksgf",
        "fixtures/pentobi/valid/trigon_setup.blksgf",
    ] {
        let first = docs(file, std::fs::read(file).unwrap());
        assert!(
            first[0].tags.iter().any(|(k, _)| k.starts_with("Setup")),
            "{file}"
        );
        assert!(first[0].tags.iter().any(|(k, _)| k == "First"), "{file}");
        for (to, ext) in [("gamerec", "gamerec"), ("json", "json"), ("yaml", "yaml")] {
            let r = gamerec(&["convert", "--to", to, file], b"");
            assert_eq!(r.code, 0, "{file} to {to}: {}", r.stderr);
            let again = docs(&format!("x.{ext}"), r.stdout.into_bytes());
            assert!(first == again, "{file}: through {to} differs");
            let back = formats::pentobi::write(&again).unwrap();
            assert_eq!(
                back,
                formats::pentobi::write(&first).unwrap(),
                "{file} via {to}"
            );
        }
    }
    // Squares in any order: written sorted, and a second write changes nothing.
    let unsorted = b"(;GM[Blokus Duo]AB[e10,f9,e9]AW[j5]PL[W];W[i4,h4])".to_vec();
    let first = docs("x.blksgf", unsorted);
    let written = formats::pentobi::write(&first).unwrap();
    assert!(written.contains("AB[e9,f9,e10]AW[j5]PL[W]"), "{written}");
    let second = docs("x.blksgf", written.clone().into_bytes());
    assert_eq!(formats::pentobi::write(&second).unwrap(), written);
    // every line of a tree is a game; written back, each is a tree of its own
    for file in [
        "fixtures/pentobi/valid/book.blksgf",
        "fixtures/pentobi/valid/old_colour_properties.blksgf",
        "fixtures/pentobi/valid/latin1.blksgf",
        "fixtures/pentobi/valid/lone_cr.blksgf",
        "fixtures/pentobi/valid/setup_in_second_node.blksgf",
    ] {
        let first = docs(file, std::fs::read(file).unwrap());
        let written = formats::pentobi::write(&first).unwrap();
        let second = docs("x.blksgf", written.into_bytes());
        assert!(first == second, "{file}: read-write-read differs");
    }
    assert_eq!(
        docs(
            "fixtures/pentobi/valid/book.blksgf",
            std::fs::read("fixtures/pentobi/valid/book.blksgf").unwrap()
        )
        .len(),
        4
    );
}

/// The verdicts of a file: per game, what a conversion must keep.
fn verdicts(args: &[&str], input: &[u8]) -> Vec<serde_json::Value> {
    let r = gamerec(args, input);
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| serde_json::json!([g["valid"], g["plies"], g["over"], g["scores"], g["winners"]]))
        .collect()
}

#[test]
fn blokus_to_pentobi_reflects_the_corners_and_says_what_changes() {
    // the rule text's corners: the board is reflected onto Pentobi's, and
    // the scores, winners and plies read back the same (the scoring is
    // Pentobi's in both)
    let file = "fixtures/blokus/valid/scoring_pentobi.gamerec";
    let r = gamerec(&["convert", "--to", "blksgf", file], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("reflected in the diagonal from a20 to t1"),
        "{}",
        r.stderr
    );
    // Pentobi's own RE (the first player 40 points ahead), the scores in GC
    assert!(r.stdout.contains("RE[B+40]"), "{}", r.stdout);
    assert!(
        r.stdout.contains("GC[[Result \"170-130\"\\]]"),
        "{}",
        r.stdout
    );
    let before = verdicts(&["score", "--format", "json", file], b"");
    let after = verdicts(
        &["score", "--format", "json", "--from", "pentobi", "-"],
        r.stdout.as_bytes(),
    );
    assert_eq!(before, after);
    let back = docs("x.blksgf", r.stdout.clone().into_bytes());
    let tag = |k: &str| {
        back[0]
            .tags
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(tag("Result"), Some("170-130"));
    assert_eq!(tag("Corners"), Some(formats::pentobi::PENTOBI_CORNERS));
    // every classic fixture: the moves stay legal once reflected
    for f in [
        "fixtures/blokus/valid/classic_4p.gamerec",
        "fixtures/blokus/valid/classic_2p.gamerec",
        "fixtures/blokus/valid/classic_3p.gamerec",
        "fixtures/blokus/valid/setup_classic.gamerec",
        "fixtures/blokus/valid/corners.gamerec",
    ] {
        let r = gamerec(&["convert", "--to", "blksgf", f], b"");
        assert_eq!(r.code, 0, "{f}: {}", r.stderr);
        let v = verdicts(
            &["validate", "--format", "json", "--from", "pentobi", "-"],
            r.stdout.as_bytes(),
        );
        assert_eq!(v[0][0], true, "{f}");
        let plies = verdicts(&["validate", "--format", "json", f], b"");
        assert_eq!(v[0][1], plies[0][1], "{f}");
    }
}

#[test]
fn blokus_to_pentobi_notes_the_scoring_and_keeps_result_round_and_tags() {
    // official scoring: Pentobi's replaces it, and the Result under it is
    // not kept; both are said
    let file = "fixtures/blokus/valid/scoring_official.gamerec";
    let r = gamerec(&["convert", "--to", "blksgf", file], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the Scoring tag \"official\": a Pentobi file is scored by Pentobi's rules"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("the Result tag \"-8, -48\""),
        "{}",
        r.stderr
    );
    let q = gamerec(&["convert", "-q", "--to", "blksgf", file], b"");
    assert!(q.stderr.is_empty(), "{}", q.stderr);
    // Pentobi-scored: Result, Round, Event and other tags come back
    let text = "[Game \"blokus\"]\n[Variant \"duo\"]\n[Scoring \"pentobi\"]\n[Event \"E\"]\n[Round \"3\"]\n[Annotator \"A \\\"x\\\" ]\"]\n[Result \"6-6\"]\n\ne10 j5 f9,f8 k4,l4 g7,h7,i7 m3,m2,m1\n";
    let src = docs("x.gamerec", text.as_bytes().to_vec());
    let mut losses = formats::Losses::default();
    let written = formats::pentobi::write_game(&src[0], &mut losses).unwrap();
    assert!(losses.is_empty(), "{:?}", losses.iter().collect::<Vec<_>>());
    assert!(
        written.contains("RO[3]") && written.contains("RE[6-6]"),
        "{written}"
    );
    let back = docs("x.blksgf", written.into_bytes());
    let mut want = src[0].tags.clone();
    let mut got = back[0].tags.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    // corners no symmetry maps onto Pentobi's: refused (exit 2)
    let odd = "[Game \"blokus\"]\n[Corners \"blue a20, yellow t1, red a1, green t20\"]\n\n1. a20\n";
    let r = gamerec(&["convert", "--to", "blksgf", "-"], odd.as_bytes());
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("corners"), "{}", r.stderr);
}

#[test]
fn formats_by_name_and_forced() {
    assert_eq!(Format::by_name("ggf"), Some(Format::Ggf));
    let r = gamerec(
        &["validate", "--from", "transcript", "-"],
        b"f5d6c3d3c4f4\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("1 game, 1 valid"));
}

#[test]
fn wthor_names_from_options_and_txt_holding_gamerec() {
    let r = gamerec(
        &[
            "score",
            "--players",
            "fixtures/wthor/valid/WTHOR.JOU",
            "--tournaments",
            "fixtures/wthor/valid/WTHOR.TRN",
            "fixtures/wthor/invalid/no_flip.wtb",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("World Championship"), "{}", r.stdout);
    assert!(r.stdout.contains("Davison Jeff"), "{}", r.stdout);
    let dir = std::env::temp_dir().join("gamerec-interchange-txt");
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("game.txt");
    std::fs::write(&file, "[Game \"reversi\"]\n\nf5 d6\n").unwrap();
    let r = gamerec(&["validate", &file.to_string_lossy()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// The whole WTHOR database, when a copy of `shared/` stands beside the repository.
#[test]
#[ignore = "needs ../shared/data/wthor (run with --ignored)"]
fn wthor_whole_database() {
    let dir = "../shared/data/wthor";
    if !Path::new(dir).is_dir() {
        eprintln!("skipped: {dir} is absent");
        return;
    }
    let (code, doc) = json(&["score", "--format", "json", dir]);
    assert_eq!(code, 0);
    assert_eq!(doc["summary"]["games"], 127_475);
    assert_eq!(doc["summary"]["valid"], 127_475);
    assert_eq!(doc["summary"]["unfinished"], 413);
    for g in doc["games"].as_array().unwrap() {
        let mismatch = g["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["code"] == "record::result_mismatch");
        assert!(!mismatch);
    }
}

/// Pentobi's other games (Junior, Nexos...) are not games gamerec plays and
/// not corrupt ones: each tree is a `pentobi::unsupported` error of the
/// file, counted apart in the summary (exit 2), and the trees after it are
/// read.
#[test]
fn pentobi_variants_gamerec_does_not_play_are_unsupported() {
    let file = "tests/pentobi/unsupported.blksgf";
    let r = gamerec(&["validate", file], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let json = gamerec(&["validate", "--format", "json", file], b"");
    assert_eq!(json.code, 2, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["summary"]["unsupported"], 2);
    assert_eq!(doc["summary"]["games"], 1);
    assert_eq!(doc["summary"]["invalid"], 0);
    insta::assert_snapshot!(
        "pentobi_unsupported",
        format!(
            "{}\n{}",
            r.transcript(&format!("gamerec validate {file}")),
            json.transcript(&format!("gamerec validate --format json {file}"))
        )
    );
}

/// A Pentobi setup after moves (Pentobi's own test file, pieces taken off
/// with `AE`, a node of setup alone with its `PL`, comment and mark) is
/// read as setup edits, scores as Pentobi scores it, and goes through
/// Pentobi, JSON and gamerec text and back to the same game; a file
/// gamerec wrote reads back and is written again byte for byte.
#[test]
fn pentobi_setups_after_moves_are_edits_that_round_trip() {
    let input = "(;GM[Blokus Duo] ;B[e8,e9,f9,d10,e10] ;AB[g6,f7,g7,h7,g8]AW[i4,h5,i5,j5,i6] ;W[j7,j8,j9,k9,j10]\n\
                 ;AE[e8,e9,f9,d10,e10]AB[a1]PL[W]C[back]TE[1] ;W[k11])\n";
    let dir = std::env::temp_dir().join(format!("gamerec-edits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("edits.blksgf");
    std::fs::write(&file, input).unwrap();
    let file = file.to_string_lossy().into_owned();
    let json = gamerec(&["convert", "--to", "json", &file], b"");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: Document = serde_json::from_str(&json.stdout).unwrap();
    let g = &doc.games[0];
    let moves: Vec<(&str, bool)> = g
        .moves
        .iter()
        .map(|m| (m.notation.as_str(), m.setup))
        .collect();
    assert_eq!(
        moves,
        [
            ("F:e8,e9,f9,d10,e10", false),
            ("+purple:X:g6,f7,g7,h7,g8", true),
            ("+orange:X:i4,h5,i5,j5,i6", true),
            ("Y:j7,j8,j9,k9,j10", false),
            ("+purple:1:a1", true),
            ("-F:e8,e9,f9,d10,e10", true),
            (">orange", true),
            ("1:k11", false),
        ]
    );
    assert_eq!(g.moves[6].comment.as_deref(), Some("back"));
    let result = g.result.as_ref().unwrap();
    assert_eq!(result.scores["purple"], 6);
    assert_eq!(result.scores["orange"], 11);
    // Pentobi -> Pentobi, written again: the same bytes
    let once = gamerec(&["convert", "--to", "blksgf", &file], b"");
    assert_eq!(once.code, 0, "{}", once.stderr);
    assert!(
        once.stdout
            .contains(";AB[a1]AE[e8,e9,f9,d10,e10]PL[W]C[back]TE[1]\n;W[k11]\n"),
        "{}",
        once.stdout
    );
    let twice = gamerec(&["convert", "--to", "blksgf", "-"], once.stdout.as_bytes());
    assert_eq!(twice.code, 0, "{}", twice.stderr);
    assert_eq!(twice.stdout, once.stdout);
    // and through JSON and text: the same document
    let back = gamerec(&["convert", "--to", "json", "-"], once.stdout.as_bytes());
    let back: Document = serde_json::from_str(&back.stdout).unwrap();
    assert_eq!(back.games[0].moves, g.moves);
    let text = gamerec(&["convert", "--to", "gamerec", &file], b"");
    assert!(
        text.stdout
            .contains("+purple:1:a1 -F:e8,e9,f9,d10,e10 >orange"),
        "{}",
        text.stdout
    );
    let again = gamerec(&["convert", "--to", "json", "-"], text.stdout.as_bytes());
    let again: Document = serde_json::from_str(&again.stdout).unwrap();
    let without_props: Vec<_> = g
        .moves
        .iter()
        .cloned()
        .map(|mut m| {
            m.props.clear();
            m
        })
        .collect();
    assert_eq!(again.games[0].moves, without_props);
}

/// A Pentobi node with neither a move nor a setup (a comment and marks
/// alone) is not lost: its comment and properties go with the move before
/// it (the first move when none came before), said once in a warning, and
/// the Pentobi writer puts them in that move's node.
#[test]
fn pentobi_nodes_without_a_move_keep_what_they_say() {
    let file = "fixtures/pentobi/valid/node_without_move.blksgf";
    let json = gamerec(&["convert", "--to", "json", file], b"");
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert_eq!(
        json.stderr.matches("pentobi::node_without_move").count(),
        1,
        "{}",
        json.stderr
    );
    let doc: Document = serde_json::from_str(&json.stdout).unwrap();
    let m = &doc.games[0].moves[0];
    assert_eq!(m.comment.as_deref(), Some("before the first move after it"));
    assert_eq!(m.props["SGF_TE"], "2][1][1");
    assert_eq!(m.props["SGF_LB"], "x");
    let back = gamerec(&["convert", "--to", "blksgf", file], b"");
    assert!(
        back.stdout
            .contains(";B[e10]C[before the first move after it]TE[2][1][1]LB[x]\n;W[j5]\n"),
        "{}",
        back.stdout
    );
    let twice = gamerec(&["convert", "--to", "blksgf", "-"], back.stdout.as_bytes());
    assert_eq!(twice.stdout, back.stdout);
    assert!(
        !twice.stderr.contains("node_without_move"),
        "{}",
        twice.stderr
    );
}

/// A WTHOR file written at another depth than the FFO database's 24 says
/// so when read (`TheoreticalDepth`), and is written again at its own
/// depth, its theoretical scores kept (before, it was written again
/// claiming 24 with the depth-14 scores).
#[test]
fn wthor_depth_of_a_written_file_is_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("a.wtb");
    let second = dir.path().join("b.wtb");
    let f = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let src = "fixtures/record/valid/game_inferred.pgn";
    let r = gamerec(&["convert", "--to", "wthor", src, "-o", &f(&first)], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let a = std::fs::read(&first).unwrap();
    assert_eq!(a[14], 14);
    let json = gamerec(&["convert", "--to", "json", &f(&first)], b"");
    assert!(
        json.stdout.contains("\"TheoreticalDepth\""),
        "{}",
        json.stdout
    );
    let r = gamerec(
        &["convert", "--to", "wthor", &f(&first), "-o", &f(&second)],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("TheoreticalScore"), "{}", r.stderr);
    let b = std::fs::read(&second).unwrap();
    assert_eq!(a[4..], b[4..], "written again the same but for the date");
}
