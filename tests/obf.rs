//! `.obf` positions (Edax's FFO endgame tests): read as Reversi records
//! from a `Setup`, their listed moves checked legal, their scores by the
//! exact endgame search (`validate --check-scores`), and counted by perft.

mod common;

use common::gamerec;

const FFORUM: &str = "fixtures/reversi/obf/valid/fforum-1-19.obf";

/// FFO positions 1 to 19, every listed move's score searched: all hold.
#[test]
fn fforum_1_19_scores_hold() {
    let r = gamerec(&["validate", "--check-scores", FFORUM], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "19 games, 19 valid, 0 invalid, 19 unfinished\n");
    assert_eq!(r.stderr, "");
}

/// The score checks' fixtures (`fixtures/reversi/obf/scores/`), with
/// `--check-scores`: scores that hold, a position's score alone, a score
/// changed by hand, a position past `--max-empties`, and FFO position 31
/// as Edax's `fforum-20-39.obf` lists it, whose G1 is -32, not -30 (an
/// independent plain alpha-beta search agrees).
#[test]
fn score_checks() {
    for (file, extra) in [
        ("check_scores", &[][..]),
        ("score_mismatch", &[][..]),
        ("scores_unchecked", &["--max-empties", "12"][..]),
        ("fforum-31", &[][..]),
    ] {
        let path = format!("fixtures/reversi/obf/scores/{file}.obf");
        let mut args = vec!["validate", "--check-scores"];
        args.extend_from_slice(extra);
        args.push(&path);
        let r = gamerec(&args, b"");
        let transcript = r.transcript(&format!("gamerec {}", args.join(" ")));
        insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format!("obf_scores__{file}"), transcript);
        });
    }
}

/// Without `--check-scores` the scores are not searched: a wrong one is
/// valid; the listed moves are still judged.
#[test]
fn scores_are_checked_only_when_asked() {
    let file = "fixtures/reversi/obf/scores/score_mismatch.obf";
    assert_eq!(gamerec(&["validate", file], b"").code, 0);
    assert_eq!(gamerec(&["validate", "--check-scores", file], b"").code, 1);
    let r = gamerec(&["validate", "--max-empties", "3", file], b"");
    assert_eq!(r.code, 2, "--max-empties wants --check-scores");
}

/// An `.obf` text on standard input is told by its content; a position
/// converts to a `Setup` record that validates the same, scores included.
#[test]
fn content_detection_and_conversion() {
    let text = std::fs::read(FFORUM).unwrap();
    let r = gamerec(&["validate", "--check-scores", "-"], &text);
    assert_eq!(r.stdout, "19 games, 19 valid, 0 invalid, 19 unfinished\n");
    let converted = gamerec(&["convert", "--to", "gamerec", FFORUM], b"");
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    let first = converted.stdout.split("\n\n").next().unwrap_or("");
    assert_eq!(
        first,
        "[Game \"reversi\"]\n\
         [Setup \"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- b\"]\n\
         [MoveScores \"G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;\"]"
    );
    let back = gamerec(
        &["validate", "--check-scores", "-"],
        converted.stdout.as_bytes(),
    );
    assert_eq!(
        back.stdout,
        "19 games, 19 valid, 0 invalid, 19 unfinished\n"
    );
    // a score changed in the converted record is blamed there
    let wrong = converted.stdout.replacen("G8:+18", "G8:+20", 1);
    let r = gamerec(&["validate", "--check-scores", "-"], wrong.as_bytes());
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("reversi::score_mismatch"), "{}", r.stderr);
    assert!(
        r.stderr.contains("<stdin>:3:") || r.stderr.contains("-:3:"),
        "{}",
        r.stderr
    );
}

/// `show`, `moves` and `perft` of a file's position.
#[test]
fn show_moves_perft() {
    let r = gamerec(&["moves", FFORUM, "--index", "2"], b"");
    assert_eq!(r.stdout, "a3\na4\na7\nb2\nb7\ng7\nh2\nh7\n");
    let r = gamerec(&["show", FFORUM, "--index", "2"], b"");
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("black (X) to move"), "{}", r.stdout);
    let r = gamerec(&["perft", FFORUM, "3", "--index", "2"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "404\n");
    // the same start as a tag
    let board = "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- b";
    let tag = format!("Setup={board}");
    let r = gamerec(&["perft", "reversi", "3", "--tag", &tag], b"");
    assert_eq!(r.stdout, "404\n");
    let r = gamerec(&["perft", FFORUM, "1", "--index", "20"], b"");
    assert_eq!(r.code, 2);
}
