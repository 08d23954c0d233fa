//! The filters of the commands that read records (`--tag`, `--player`,
//! `--date`, `--plies`, `--valid`, `--invalid`) and `--variant`: each filter
//! on a club's games (the games kept and skipped, the summary line, the
//! JSON summary), combinations, negation, open ranges, partial dates, the
//! usage errors (exit 2, the option named), the did-you-mean warning, every
//! command that reads records; a WTHOR PGN export read with `--variant wof`;
//! on a WTHOR year, `--player` and `--date` counted against the games read
//! through the library.

mod common;

use std::path::Path;

use common::gamerec;
use serde_json::Value;

/// Five games: four Reversi (60 plies 1990.05.12, 48 plies 1990.??.??,
/// 10 plies unfinished 1995, 8 plies invalid 2001.06.??), one Blokus Duo
/// without a date.
const CLUB: &str = "tests/filters/club.gamerec";

/// A WTHOR PGN export: six games of the WTHOR database's 1990 file (the
/// Fédération Française d'Othello's, as `../shared/data/wthor` holds it),
/// written as its PGN exporters write them: no `Game` or `Variant` tag,
/// white's score as 64 less black's, `Site "?"`, numbered moves.
const EXPORT: &str = "tests/filters/wthor-export.pgn";

/// `validate -qq CLUB ARGS`: the exit code and the summary line.
fn summary(args: &[&str]) -> (i32, String) {
    let mut v = vec!["validate", "-qq", CLUB];
    v.extend_from_slice(args);
    let r = gamerec(&v, b"");
    (r.code, r.stdout.trim_end().to_string())
}

/// The games `validate --format json CLUB ARGS` keeps, by number, and its summary.
fn kept(args: &[&str]) -> (Vec<u64>, Value) {
    let mut v = vec!["validate", "--format", "json", CLUB];
    v.extend_from_slice(args);
    let r = gamerec(&v, b"");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    let numbers = doc["games"]
        .as_array()
        .map(|a| a.iter().filter_map(|g| g["number"].as_u64()).collect())
        .unwrap_or_default();
    (numbers, doc["summary"].clone())
}

#[test]
fn each_filter_keeps_its_games() {
    let cases: &[(&[&str], &[u64])] = &[
        (&[], &[1, 2, 3, 4, 5]),
        (&["--tag", "Event=Club*"], &[1, 2]),
        (&["--tag", "Event!=Club*"], &[3, 4, 5]),
        (&["--tag", "Event=*Cup"], &[3, 4]),
        (&["--tag", "Event=[CD]*"], &[1, 2, 5]),
        (&["--tag", "Event=club*"], &[]),
        (&["--tag", "Round!=*"], &[1, 2, 3, 4, 5]),
        // a seat's player, trimmed, case-sensitive; Blokus Duo's seats too
        (&["--player", "Tamenori*"], &[1, 3]),
        (&["--player", "[Tt]amenori*"], &[1, 3, 4]),
        (&["--player", "Shaman Brian"], &[1, 2, 5]),
        (&["--player", "Tamenori*", "--player", "Shaman*"], &[1]),
        (&["--player", "?uinn*"], &[5]),
        // partial dates must lie within the range whole; no date: left out
        (&["--date", "1990"], &[1, 2]),
        (&["--date", "1990.05"], &[1]),
        (&["--date", "1990.05.12"], &[1]),
        (&["--date", "..1995"], &[1, 2, 3]),
        (&["--date", "1991.."], &[3, 4]),
        (&["--date", "2001.06..2001.06"], &[4]),
        (&["--date", "2001.06.01..2001.06.30"], &[]),
        (&["--date", "1989..1994"], &[1, 2]),
        // plies as replayed (automatic passes counted)
        (&["--plies", "40.."], &[1, 2]),
        (&["--plies", "..10"], &[3, 4]),
        (&["--plies", "37"], &[5]),
        (&["--plies", "11..47"], &[5]),
        (&["--valid"], &[1, 2, 3, 5]),
        (&["--invalid"], &[4]),
        // every test must hold
        (&["--tag", "Event=Paris*", "--valid"], &[3]),
        (&["--tag", "Game=reversi", "--tag", "Event!=Club*"], &[3, 4]),
        (
            &["--player", "Rose*", "--date", "1990", "--plies", "40.."],
            &[2],
        ),
    ];
    for (args, want) in cases {
        let (numbers, summary) = kept(args);
        assert_eq!(numbers, *want, "{args:?}");
        assert_eq!(summary["games"], want.len(), "{args:?}");
        if args.is_empty() {
            assert!(summary.get("skipped").is_none());
        } else {
            assert_eq!(summary["skipped"], 5 - want.len(), "{args:?}");
        }
    }
}

#[test]
fn the_summary_line_counts_the_games_skipped() {
    assert_eq!(
        summary(&[]),
        (1, "5 games, 4 valid, 1 invalid, 1 unfinished".into())
    );
    assert_eq!(
        summary(&["--valid"]),
        (
            0,
            "4 games, 4 valid, 0 invalid, 1 unfinished, 1 skipped".into()
        )
    );
    assert_eq!(
        summary(&["--invalid"]),
        (
            1,
            "1 game, 0 valid, 1 invalid, 0 unfinished, 4 skipped".into()
        )
    );
    // every game left out: the run read games, so it is no error
    assert_eq!(
        summary(&["--date", "2020.."]),
        (
            0,
            "0 games, 0 valid, 0 invalid, 0 unfinished, 5 skipped".into()
        )
    );
}

#[test]
fn the_json_summary_and_human_output_of_a_filtered_run() {
    let r = gamerec(
        &[
            "validate",
            CLUB,
            "--tag",
            "Event=Paris*",
            "--format",
            "json",
        ],
        b"",
    );
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    insta::assert_snapshot!(
        "json_summary",
        serde_json::to_string_pretty(&doc["summary"]).unwrap_or_default()
    );
    let r = gamerec(&["score", CLUB, "--player", "Shaman*", "--valid"], b"");
    insta::assert_snapshot!(
        "score_player_valid",
        r.transcript("gamerec score CLUB --player 'Shaman*' --valid")
    );
    let r = gamerec(&["validate", CLUB, "--plies", "..10"], b"");
    insta::assert_snapshot!(
        "validate_plies",
        r.transcript("gamerec validate CLUB --plies ..10")
    );
}

#[test]
fn malformed_filters_are_usage_errors_naming_the_option() {
    let cases: &[&[&str]] = &[
        &["--tag", "Event"],
        &["--tag", "=Club"],
        &["--tag", "Event=[Club"],
        &["--player", "[z-a]*"],
        &["--date", "1990.13"],
        &["--date", "90..95"],
        &["--date", "1995..1990"],
        &["--date", ".."],
        &["--date", "1990.??"],
        &["--plies", "ten"],
        &["--plies", "60..20"],
        &["--plies=-5.."],
        &["--valid", "--invalid"],
        &["--variant", "duo", "--game", "reversi"],
        &["--variant", "nosuch"],
    ];
    let mut all = String::new();
    for args in cases {
        let mut v = vec!["validate", CLUB];
        v.extend_from_slice(args);
        let r = gamerec(&v, b"");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        let option = args.first().copied().unwrap_or_default();
        let option = option.split('=').next().unwrap_or_default();
        assert!(r.stderr.contains(option), "{args:?}: {}", r.stderr);
        all.push_str(&r.transcript(&format!("gamerec validate CLUB {}", args.join(" "))));
    }
    insta::assert_snapshot!("usage_errors", all);
}

#[test]
fn a_tag_no_game_has_warns_once_with_a_did_you_mean() {
    let r = gamerec(
        &[
            "validate",
            CLUB,
            "--tag",
            "Evnt=Club*",
            "--tag",
            "black!=x",
            "--tag",
            "Round!=1",
            "--tag",
            "Opening!=x",
        ],
        b"",
    );
    insta::assert_snapshot!(
        "did_you_mean",
        r.transcript(
            "gamerec validate CLUB --tag 'Evnt=Club*' --tag 'black!=x' --tag 'Round!=1' --tag 'Opening!=x'"
        )
    );
    // a `--player` where no game has a player tag
    let r = gamerec(
        &[
            "validate",
            "fixtures/reversi/valid/early-end.gamerec",
            "--player",
            "x",
        ],
        b"",
    );
    assert_eq!(
        r.stderr.trim_end(),
        "warning: --player: no game of the run has a player tag (`Black`, `White`, ...: `gamerec tags GAME` lists a game's), so it left out every game"
    );
    // a tag a game has: no warning
    let r = gamerec(&["validate", CLUB, "--tag", "Event=x"], b"");
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
    // `-q`: no warning
    let r = gamerec(&["validate", "-q", CLUB, "--tag", "Evnt=x"], b"");
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

#[test]
fn every_command_that_reads_records_filters() {
    // convert: only the games kept are written, the others said
    let r = gamerec(
        &["convert", CLUB, "--to", "json", "--tag", "Event=Club*"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    assert_eq!(doc["games"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        r.stderr.trim_end(),
        "note: 3 games skipped by the filters, 2 converted"
    );
    // convert: an invalid game left out by --valid converts the rest
    let r = gamerec(&["convert", CLUB, "--to", "gamerec", "--valid"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("[Game ").count(), 4);
    // stats: the JSON summary says the games skipped
    let r = gamerec(
        &["stats", CLUB, "--format", "json", "--player", "Shaman*"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
    assert_eq!(doc["summary"]["games"], 3);
    assert_eq!(doc["summary"]["skipped"], 2);
    let r = gamerec(&["stats", CLUB, "--date", "1990"], b"");
    assert!(
        r.stdout
            .ends_with("2 games, 2 valid, 0 invalid, 0 unfinished, 3 skipped\n"),
        "{}",
        r.stdout
    );
    // html: the page holds the games kept; the summary says the others
    let r = gamerec(&["html", CLUB, "--plies", "..10"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim_end(),
        "2 games, 1 valid, 1 invalid, 1 unfinished, 3 skipped"
    );
    // fix: the games left out are left as they are
    let r = gamerec(&["fix", CLUB, "--dry-run", "--valid"], b"");
    assert!(
        r.stderr.contains("4 games, 1 skipped (left as they are)"),
        "{}",
        r.stderr
    );
    // score --plot: only the games kept are drawn
    let r = gamerec(
        &["score", "-q", CLUB, "--plot", "-", "--tag", "Game=blokus"],
        b"",
    );
    assert_eq!(r.stdout.matches("Duo night").count(), 1, "{}", r.stdout);
    assert!(!r.stdout.contains("Club Open"));
}

#[test]
fn a_wthor_pgn_export_validates_with_variant_wof() {
    // read as standard, the games that end with empty squares do not add up
    let r = gamerec(&["validate", "-qq", EXPORT], b"");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "6 games, 3 valid, 3 invalid, 0 unfinished; 6 warnings: 6 record::game_inferred\n"
    );
    // the help names the scoring and the flag
    let r = gamerec(&["validate", "-q", EXPORT, "--tag", "Result=0-64"], b"");
    insta::assert_snapshot!(
        "export_standard",
        r.transcript("gamerec validate -q EXPORT --tag Result=0-64")
    );
    let r = gamerec(&["validate", "-qq", EXPORT, "--variant", "wof"], b"");
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        "6 games, 6 valid, 0 invalid, 0 unfinished; 6 warnings: 6 record::game_inferred\n"
    );
    // converted, each game says its variant
    let r = gamerec(
        &["convert", EXPORT, "--variant", "wof", "--to", "gamerec"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.matches("[Variant \"wof\"]").count(), 6);
}

#[test]
fn a_records_own_variant_wins_over_the_flag() {
    let r = gamerec(
        &["validate", CLUB, "--variant", "wof", "--tag", "Game=blokus"],
        b"",
    );
    insta::assert_snapshot!(
        "variant_mismatch",
        r.transcript("gamerec validate CLUB --variant wof --tag Game=blokus")
    );
}

/// The players and dates of a WTHOR file's games, through the library reader.
fn wthor_tags(path: &str) -> Vec<(String, String, String)> {
    let opts = gamerec::ReadOptions::default();
    let Ok(file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let Ok((_, games)) = gamerec::open(path, Box::new(std::io::BufReader::new(file)), &opts) else {
        return Vec::new();
    };
    games
        .flatten()
        .map(|mut g| {
            g.materialize();
            let tag = |n: &str| g.raw.tags.value(n).unwrap_or_default().to_string();
            (tag("Black"), tag("White"), tag("Date"))
        })
        .collect()
}

#[test]
fn player_and_date_counts_of_a_wthor_year_agree_with_its_games() {
    let dir = "../shared/data/wthor";
    if !Path::new(dir).is_dir() {
        eprintln!("skipped: {dir} is absent");
        return;
    }
    let (y90, y91) = (format!("{dir}/WTH_1990.wtb"), format!("{dir}/WTH_1991.wtb"));
    let mut games = wthor_tags(&y90);
    let n90 = games.len();
    games.extend(wthor_tags(&y91));
    assert!(n90 > 1000 && games.len() > n90 + 1000);
    let count =
        |f: &dyn Fn(&(String, String, String)) -> bool| games.iter().filter(|g| f(g)).count();
    let run = |args: &[&str]| -> (usize, usize) {
        let mut v = vec!["validate", "--format", "json", "-q", &y90, &y91];
        v.extend_from_slice(args);
        let r = gamerec(&v, b"");
        let doc: Value = serde_json::from_str(&r.stdout).unwrap_or_default();
        let n = |k: &str| doc["summary"][k].as_u64().unwrap_or(u64::MAX) as usize;
        (n("games"), n("skipped"))
    };
    let total = games.len();
    for (glob, starts) in [
        ("Tamenori*", "Tamenori"),
        ("Shaman*", "Shaman"),
        ("Murakami*", "Murakami"),
    ] {
        let want = count(&|(b, w, _)| b.starts_with(starts) || w.starts_with(starts));
        assert!(want > 0, "{glob}");
        assert_eq!(run(&["--player", glob]), (want, total - want), "{glob}");
    }
    let in_1991 = count(&|(_, _, d)| d == "1991");
    assert_eq!(in_1991, total - n90);
    assert_eq!(run(&["--date", "1991"]), (in_1991, n90));
    assert_eq!(run(&["--date", "..1990"]), (n90, in_1991));
    // a year's games are not known to be in one of its months
    assert_eq!(run(&["--date", "1990.06..1991.06"]), (0, total));
}

/// `Game` and `Variant` match the names the replay resolves, the default
/// filled in: records without the tag are selected too.
#[test]
fn game_and_variant_match_what_the_replay_resolves() {
    let dir = "fixtures/reversi/valid";
    let r = gamerec(&["validate", "-qq", "--tag", "Variant=standard", dir], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("19 games, 19 valid") && r.stdout.contains(", 2 skipped"),
        "{}",
        r.stdout
    );
    let r = gamerec(&["validate", "-qq", "--tag", "Variant!=standard", dir], b"");
    assert!(r.stdout.starts_with("2 games, 2 valid"), "{}", r.stdout);
    let r = gamerec(&["validate", "-qq", "--tag", "Game=blokus", dir], b"");
    assert!(
        r.stdout.starts_with("0 games") && r.stdout.contains(", 21 skipped"),
        "{}",
        r.stdout
    );
}
