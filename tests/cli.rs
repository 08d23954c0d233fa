//! The command-line contract (spec §2 and §5): exit codes, streams, stdin,
//! directories, `-q`, JSON mode, usage errors. These run the real binary.

use std::process::{Command, Stdio};

use std::io::Write;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn bin(args: &[&str], stdin: &[u8]) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamerec"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut si) = child.stdin.take() {
        let _ = si.write_all(stdin);
    }
    let o = child.wait_with_output().expect("the binary ends");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

const VALID: &str = "fixtures/reversi/valid/full-game.gamerec";
const INVALID: &str = "fixtures/reversi/invalid/no_flip.gamerec";

#[test]
fn exit_codes() {
    assert_eq!(bin(&["validate", VALID], b"").code, 0);
    assert_eq!(bin(&["validate", INVALID], b"").code, 1);
    assert_eq!(bin(&["validate", "no/such/file.gamerec"], b"").code, 2);
    // Mixed runs: the highest code that applies.
    assert_eq!(bin(&["validate", VALID, INVALID], b"").code, 1);
    assert_eq!(
        bin(&["validate", VALID, INVALID, "no/such/file"], b"").code,
        2
    );
    // Usage errors.
    assert_eq!(bin(&["validate"], b"").code, 2);
    assert_eq!(bin(&["frobnicate"], b"").code, 2);
    assert_eq!(bin(&["validate", "--game", "chess", VALID], b"").code, 2);
    assert_eq!(bin(&["show", VALID, "--ply", "999"], b"").code, 2);
    assert_eq!(bin(&["show", VALID, "--index", "3"], b"").code, 2);
    assert_eq!(bin(&["perft", "chess", "1"], b"").code, 2);
    assert_eq!(bin(&["--version"], b"").code, 0);
}

#[test]
fn streams() {
    let o = bin(&["validate", INVALID], b"");
    assert_eq!(o.stdout, "1 game, 0 valid, 1 invalid, 0 unfinished\n");
    assert!(o.stderr.contains("reversi::no_flip"));
    assert!(o.stderr.contains("ply 9"));
    // JSON mode: one document on stdout, nothing on stderr, even for a missing file.
    let o = bin(
        &["validate", "--format", "json", INVALID, "no/such/file"],
        b"",
    );
    assert_eq!(o.code, 2);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).expect("one JSON document");
    assert_eq!(doc["summary"]["invalid"], 1);
    assert_eq!(doc["errors"][0]["file"], "no/such/file");
    // -q: only the summary line.
    let o = bin(&["validate", "-q", INVALID], b"");
    assert_eq!(o.stdout, "1 game, 0 valid, 1 invalid, 0 unfinished\n");
    assert!(o.stderr.is_empty());
}

#[test]
fn standard_input_is_named_dash() {
    let text = std::fs::read(INVALID).expect("fixture");
    let o = bin(&["validate", "--format", "json", "-"], &text);
    assert_eq!(o.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).expect("json");
    assert_eq!(doc["games"][0]["file"], "-");
    assert_eq!(doc["games"][0]["errors"][0]["ply"], 9);
    let o = bin(&["validate", "-"], &text);
    assert!(o.stderr.contains("[-:6:40]"), "{}", o.stderr);
}

#[test]
fn directories_are_searched_recursively() {
    let o = bin(&["validate", "-q", "fixtures/reversi/valid"], b"");
    assert_eq!(o.code, 0);
    assert!(o.stdout.starts_with("13 games, 13 valid"), "{}", o.stdout);
    let dir = std::env::temp_dir().join(format!("gamerec-empty-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let o = bin(&["validate", &dir.to_string_lossy()], b"");
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, "0 games, 0 valid, 0 invalid, 0 unfinished\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn game_option_and_tag() {
    let text = b"1. f5 d6 2. c3 d3\n";
    assert_eq!(bin(&["validate", "-"], text).code, 1);
    assert_eq!(bin(&["validate", "--game", "othello", "-"], text).code, 0);
    // The tag wins over --game, with a warning.
    let Some(other) = gamerec::games::REGISTRY
        .iter()
        .map(|g| g.name())
        .find(|&n| n != "reversi")
    else {
        return;
    };
    let o = bin(
        &["validate", "--format", "json", "--game", other, VALID],
        b"",
    );
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).expect("json");
    assert_eq!(doc["games"][0]["game"], "reversi");
    assert_eq!(
        doc["games"][0]["warnings"][0]["code"],
        "record::game_mismatch"
    );
}

#[test]
fn perft_prints_the_count_last() {
    for (depth, want) in [(1, "4"), (5, "1396"), (8, "390216")] {
        let o = bin(&["perft", "reversi", &depth.to_string()], b"");
        assert_eq!(o.code, 0);
        assert_eq!(o.stdout.lines().last(), Some(want));
    }
    // The same counts however many threads split the tree.
    for threads in ["1", "2", "3"] {
        let o = bin(&["perft", "reversi", "8", "--threads", threads], b"");
        assert_eq!(o.code, 0);
        assert_eq!(o.stdout.lines().last(), Some("390216"));
    }
    assert_eq!(
        bin(&["perft", "reversi", "3", "--threads", "0"], b"").code,
        2
    );
}

#[test]
fn perft_takes_a_number_of_players() {
    let o = bin(
        &[
            "perft",
            "blokus",
            "1",
            "--variant",
            "trigon",
            "--players",
            "3",
        ],
        b"",
    );
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout.lines().last(), Some("2478"));
    let o = bin(&["perft", "reversi", "1", "--players", "3"], b"");
    assert_eq!(o.code, 2);
    let o = bin(&["perft", "blokus", "1", "--players", "many"], b"");
    assert_eq!(o.code, 2);
}

#[test]
fn show_and_moves_on_an_invalid_game() {
    // The position before the illegal move, the diagnostic, exit 1.
    let o = bin(&["moves", INVALID], b"");
    assert_eq!(o.code, 1);
    assert_eq!(o.stdout, "c2\nc5\nc7\nd2\nd7\ne2\ne3\ne6\nf2\ng3\ng4\n");
    assert!(o.stderr.contains("reversi::no_flip"));
    let o = bin(&["show", INVALID], b"");
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("after ply 8"));
    // Moves at the start, and after the end (nothing).
    let o = bin(&["moves", VALID, "--ply", "0"], b"");
    assert_eq!(o.stdout, "c4\nd3\ne6\nf5\n");
    let o = bin(&["moves", VALID], b"");
    assert_eq!(o.stdout, "");
}

#[test]
fn forced_pass_is_listed_alone() {
    let o = bin(
        &[
            "moves",
            "fixtures/reversi/valid/passes-written.gamerec",
            "--ply",
            "33",
        ],
        b"",
    );
    assert_eq!(o.stdout, "pass\n");
}

#[test]
fn show_writes_svg() {
    let path = std::env::temp_dir().join(format!("gamerec-{}.svg", std::process::id()));
    let o = bin(&["show", VALID, "--svg", &path.to_string_lossy()], b"");
    assert_eq!(o.code, 0);
    let svg = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(svg.starts_with("<svg"));
    // 64 discs (each a use of the black or the white disc) and the last-move mark
    assert_eq!(svg.matches("<use href=\"#g").count(), 64 + 1);
    assert!(svg.contains("data-g=\"X\"") && svg.contains("data-g=\"O\""));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn convert_refuses_invalid_games() {
    let o = bin(&["convert", INVALID, "--to", "json"], b"");
    assert_eq!(o.code, 1);
    assert!(o.stdout.is_empty());
    assert!(o.stderr.contains("not converted"));
}

/// `moves --by-score` on Blokus Trigon lists Trigon's moves (the same as
/// `moves`), each scoring its triangles under basic scoring.
#[test]
fn moves_by_score_on_trigon() {
    let f = "fixtures/blokus/valid/trigon_4p.gamerec";
    let plain = bin(&["moves", f, "--ply", "10"], b"");
    let scored = bin(&["moves", "--by-score", f, "--ply", "10"], b"");
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(scored.code, 0, "{}", scored.stderr);
    let mut names: Vec<&str> = Vec::new();
    for line in scored.stdout.lines() {
        let (mv, score) = line.rsplit_once(" =").unwrap();
        let triangles = mv.split_once(':').unwrap().1.split(',').count();
        assert_eq!(score.parse::<usize>().unwrap(), triangles, "{line}");
        names.push(mv);
    }
    names.sort_unstable();
    let plain: Vec<&str> = plain.stdout.lines().collect();
    assert_eq!(names, plain);
}
