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
    assert!(o.stdout.starts_with("21 games, 21 valid"), "{}", o.stdout);
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
    // without a Game tag: the one game whose notation reads the moves
    let o = bin(&["validate", "-"], text);
    assert_eq!(o.code, 0);
    assert!(o.stderr.contains("record::game_inferred"), "{}", o.stderr);
    assert_eq!(bin(&["validate", "-"], b"1. zz9\n").code, 1);
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

/// `--divide`: each first move with the leaves below it, sorted by text,
/// a blank line, then the total; the counts add up to the total.
#[test]
fn perft_divides_by_first_move() {
    let o = bin(&["perft", "reversi", "3", "--divide"], b"");
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, "c4: 14\nd3: 14\ne6: 14\nf5: 14\n\n56\n");
    for (args, total) in [
        (
            &["perft", "reversi", "8", "--divide", "--threads", "2"][..],
            390_216u64,
        ),
        (
            &["perft", "blokus", "2", "--variant", "duo", "--divide"],
            171_396,
        ),
        (&["perft", "deblockle", "3", "--divide"], 0),
    ] {
        let o = bin(args, b"");
        assert_eq!(o.code, 0, "{args:?}");
        let lines: Vec<&str> = o.stdout.lines().collect();
        let (last, rest) = lines.split_last().expect("output");
        let sum: u64 = rest
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| {
                l.rsplit_once(": ")
                    .and_then(|(_, n)| n.parse::<u64>().ok())
                    .expect("move: count")
            })
            .sum();
        assert_eq!(last.parse::<u64>().ok(), Some(sum), "{args:?}");
        if total > 0 {
            assert_eq!(sum, total, "{args:?}");
        }
        let plain: Vec<&str> = args.iter().copied().filter(|a| *a != "--divide").collect();
        assert_eq!(bin(&plain, b"").stdout.trim(), *last, "{args:?}");
    }
    // depth 0: the start is the one leaf, no first moves
    assert_eq!(
        bin(&["perft", "reversi", "0", "--divide"], b"").stdout,
        "1\n"
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

/// `bin` run in `dir`.
fn bin_in(dir: &std::path::Path, args: &[&str]) -> Out {
    let o = Command::new(env!("CARGO_BIN_EXE_gamerec"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// A fresh empty directory under the system's temporary folder.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamerec-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The long options a help text lists.
fn long_options(help: &str) -> Vec<String> {
    let mut found: Vec<String> = help
        .lines()
        .map(str::trim_start)
        .filter_map(|l| {
            let l = l.strip_prefix("-q, ").unwrap_or(l);
            let l = l.strip_prefix("-o, ").unwrap_or(l);
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            let l = l.strip_prefix("-V, ").unwrap_or(l);
            let name = l.strip_prefix("--")?;
            let end = name
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(name.len());
            Some(name[..end].to_string())
        })
        .collect();
    found.sort();
    found
}

/// Every option a subcommand's `--help` shows is one that command uses:
/// the list is exactly what the command reads (the options that belong to
/// other commands, such as `perft`'s number of players or the WTHOR names
/// files of the commands that read records, stay off the others' help).
#[test]
fn help_lists_only_the_options_each_command_uses() {
    const READ: &[&str] = &["from", "game", "max-game-bytes", "players", "tournaments"];
    const SCAN: &[&str] = &["glob", "hidden", "no-ignore"];
    let report: Vec<&str> = ["color", "deny-warnings", "format", "no-progress", "quiet"]
        .into_iter()
        .chain(SCAN.iter().copied())
        .collect();
    let position = ["color", "index", "ply", "quiet"];
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("validate", [READ, &report].concat()),
        ("score", [READ, &report, &["plot"]].concat()),
        ("show", [READ, &position, &["svg"]].concat()),
        ("moves", [READ, &position, &["by-score"]].concat()),
        (
            "convert",
            [
                READ,
                SCAN,
                &[
                    "color",
                    "no-progress",
                    "output",
                    "quiet",
                    "strict",
                    "to",
                    "wthor-depth",
                ],
            ]
            .concat(),
        ),
        ("html", [READ, SCAN, &["output", "quiet"]].concat()),
        (
            "perft",
            vec![
                "divide",
                "no-progress",
                "players",
                "quiet",
                "threads",
                "variant",
            ],
        ),
        ("schema", vec![]),
        ("completions", vec![]),
        ("man", vec![]),
    ];
    for (command, options) in cases {
        let o = bin(&[command, "--help"], b"");
        assert_eq!(o.code, 0, "{command}: {}", o.stderr);
        let mut want: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        want.push("help".into());
        want.sort();
        assert_eq!(long_options(&o.stdout), want, "gamerec {command} --help");
    }
    // every command names itself in the top help
    let top = bin(&["--help"], b"");
    for command in [
        "validate", "score", "show", "convert", "moves", "perft", "html",
    ] {
        assert!(top.stdout.contains(command), "{command}");
    }
    assert!(top.stdout.contains("Exit codes:"));
    assert!(top.stdout.contains("Examples:"));
    for command in ["validate", "score", "show", "convert", "moves", "perft"] {
        let o = bin(&[command, "--help"], b"");
        assert!(o.stdout.contains("Examples:"), "{command}");
        assert!(o.stdout.contains("Exit codes:"), "{command}");
    }
    // `perft --players` is a number; the WTHOR names file is not perft's
    assert_eq!(
        bin(&["perft", "reversi", "1", "--from", "json"], b"").code,
        2
    );
    assert_eq!(bin(&["show", "-q", VALID], b"").code, 0);
    // `-q` is accepted by every command, shown only where it changes something
    for args in [
        &["schema", "-q"][..],
        &["completions", "bash", "-q"],
        &["man", "--quiet"],
    ] {
        let o = bin(args, b"");
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        let without: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| !a.starts_with('-'))
            .collect();
        assert_eq!(o.stdout, bin(&without, b"").stdout, "{args:?}");
    }
}

#[test]
fn version_names_the_commit_of_a_checkout() {
    let o = bin(&["--version"], b"");
    assert_eq!(o.code, 0);
    assert!(o.stdout.starts_with("gamerec 0."), "{}", o.stdout);
    if std::path::Path::new(".git").exists() {
        // `gamerec 0.1.0 (abc1234567 2026-11-30)`
        assert!(o.stdout.contains(" ("), "{}", o.stdout);
    }
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = bin(&["completions", shell], b"");
        assert_eq!(o.code, 0, "{shell}: {}", o.stderr);
        assert!(o.stdout.contains("gamerec"), "{shell}");
        // the subcommands and their own options are completed
        assert!(o.stdout.contains("validate") && o.stdout.contains("deny-warnings"));
    }
    assert_eq!(bin(&["completions", "tcsh"], b"").code, 2);
    let o = bin(&["man"], b"");
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.contains(".TH gamerec 1"),
        "{}",
        &o.stdout[..200.min(o.stdout.len())]
    );
    assert!(o.stdout.contains("validate"));
}

/// `-` as an output path is standard output: no file named `-` is made.
#[test]
fn dash_output_is_standard_output() {
    let dir = scratch("dash");
    let fixture = std::fs::canonicalize(VALID).expect("the fixture");
    let fixture = fixture.to_string_lossy();
    let o = bin_in(&dir, &["show", &fixture, "--svg", "-"]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.starts_with("<svg"));
    let o = bin_in(&dir, &["convert", &fixture, "--to", "json", "-o", "-"]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.starts_with("{\n  \"games\""));
    let plain = bin(&["convert", VALID, "--to", "json"], b"");
    assert_eq!(o.stdout, plain.stdout);
    let left: Vec<_> = std::fs::read_dir(&dir).expect("the directory").collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `convert` of several paths or a directory: one document on stdout
/// holding every game.
#[test]
fn convert_many_to_one_document() {
    let o = bin(
        &["convert", "fixtures/reversi/valid", VALID, "--to", "json"],
        b"",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).expect("one JSON document");
    let games = doc["games"].as_array().expect("games");
    let one = bin(&["convert", VALID, "--to", "json"], b"");
    let one: serde_json::Value = serde_json::from_str(&one.stdout).expect("JSON");
    // the directory's games, then the file's again
    assert_eq!(
        games.last(),
        one["games"].as_array().and_then(|g| g.first())
    );
    let count = bin(
        &["validate", "--format", "json", "fixtures/reversi/valid"],
        b"",
    );
    let count: serde_json::Value = serde_json::from_str(&count.stdout).expect("JSON");
    assert_eq!(
        Some(games.len()),
        count["summary"]["games"].as_u64().map(|n| n as usize + 1)
    );
    // the same scan rules as validate: a glob narrows the directory
    let o = bin(
        &[
            "convert",
            "fixtures/reversi/valid",
            "--glob",
            "full-*",
            "--to",
            "gamerec",
        ],
        b"",
    );
    assert_eq!(o.code, 0);
    let full = bin(&["convert", VALID, "--to", "gamerec"], b"");
    assert_eq!(o.stdout, full.stdout);
}

/// `convert -o DIR`: one file per input, the path below the directory kept,
/// the target's extension; an invalid input is not written, the others are.
#[test]
fn convert_to_a_directory_mirrors_the_inputs() {
    let dir = scratch("mirror");
    let out = dir.join("out");
    let out_s = out.to_string_lossy();
    let o = bin(
        &[
            "convert",
            "fixtures/reversi",
            "--to",
            "json",
            "-o",
            &out_s,
            "-q",
        ],
        b"",
    );
    // fixtures/reversi/invalid holds invalid games: exit 1, those not written
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("not converted: fixtures/reversi/invalid/")
    );
    let written = out.join("valid/full-game.json");
    let text = std::fs::read_to_string(&written).expect("valid/full-game.json");
    let alone = bin(&["convert", VALID, "--to", "json"], b"");
    assert_eq!(text, alone.stdout);
    assert!(!out.join("invalid/no_flip.json").exists());
    // several files: each under its own name
    let o = bin(
        &[
            "convert",
            VALID,
            "fixtures/blokus/valid/duo.gamerec",
            "--to",
            "gamerec",
            "-o",
            &dir.join("two").to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(dir.join("two/full-game.gamerec").is_file());
    assert!(dir.join("two/duo.gamerec").is_file());
    // standard input has no name to write under
    assert_eq!(
        bin(&["convert", "-", VALID, "--to", "json", "-o", &out_s], b"").code,
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `convert -q`: no warnings on stderr; the output is the same.
#[test]
fn convert_quiet_has_no_warnings() {
    let warned = "fixtures/reversi/valid/unfinished-claimed-result.gamerec";
    let loud = bin(&["convert", warned, "--to", "json"], b"");
    let quiet = bin(&["convert", warned, "--to", "json", "-q"], b"");
    assert_eq!(loud.code, 0);
    assert!(loud.stderr.contains("result_unchecked"));
    assert_eq!(quiet.code, 0);
    assert_eq!(quiet.stderr, "");
    assert_eq!(loud.stdout, quiet.stdout);
    let shown = bin(&["show", warned, "-q"], b"");
    assert_eq!(shown.stderr, "");
}

/// The progress display is drawn only on a terminal: for pipes the output
/// is the same with or without `--no-progress`, byte for byte.
#[test]
fn no_progress_for_pipes() {
    for command in [
        &["validate", "fixtures/reversi"][..],
        &["score", "fixtures/reversi/valid"][..],
        &["convert", "fixtures/reversi/valid", "--to", "json"][..],
    ] {
        let plain = bin(command, b"");
        let off = bin(&[command, &["--no-progress"]].concat(), b"");
        assert_eq!(plain.code, off.code);
        assert_eq!(plain.stdout, off.stdout);
        assert_eq!(plain.stderr, off.stderr);
        assert!(!plain.stderr.contains('\r'));
    }
}

/// `-q` acts on each command that takes it.
#[test]
fn quiet_acts_everywhere() {
    let loud = bin(&["html", VALID], b"");
    let quiet = bin(&["html", "-q", VALID], b"");
    assert!(loud.stderr.contains("1 game, 1 valid"), "{}", loud.stderr);
    assert_eq!(quiet.stderr, "");
    assert_eq!(loud.stdout, quiet.stdout);
    let loud = bin(&["validate", "fixtures/reversi/valid"], b"");
    let quiet = bin(&["validate", "-q", "fixtures/reversi/valid"], b"");
    assert!(!loud.stderr.is_empty());
    assert_eq!(quiet.stderr, "");
    assert_eq!(loud.stdout, quiet.stdout);
    let warned = "fixtures/reversi/valid/unfinished-claimed-result.gamerec";
    let loud = bin(&["moves", warned], b"");
    let quiet = bin(&["moves", "-q", warned], b"");
    assert!(!loud.stderr.is_empty());
    assert_eq!(quiet.stderr, "");
    assert_eq!(loud.stdout, quiet.stdout);
}

/// With one replay thread the reading thread replays small windows itself;
/// with several, windows go to the pool: the output is the same, byte for
/// byte, in every mode (the fixtures hold every game, valid and not).
#[test]
fn one_replay_thread_or_several_give_the_same_output() {
    let run = |threads: &str, args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_gamerec"))
            .args(args)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("the binary runs");
        (o.status.code(), o.stdout, o.stderr)
    };
    for args in [
        &["validate", "fixtures"][..],
        &["validate", "--format", "json", "fixtures"],
        &["score", "fixtures"],
        &["convert", "--to", "json", VALID],
    ] {
        let one = run("1", args);
        assert!(!one.1.is_empty(), "{args:?} wrote nothing");
        assert_eq!(one, run("2", args), "{args:?}");
        assert_eq!(one, run("3", args), "{args:?}");
    }
}
