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
    // -q: errors still on stderr; -qq / --quiet-all: only the summary line.
    let o = bin(&["validate", "-q", INVALID], b"");
    assert_eq!(o.stdout, "1 game, 0 valid, 1 invalid, 0 unfinished\n");
    assert!(o.stderr.contains("reversi::no_flip"), "{}", o.stderr);
    for qq in ["-qq", "--quiet-all"] {
        let o = bin(&["validate", qq, INVALID], b"");
        assert_eq!(o.code, 1);
        assert_eq!(o.stdout, "1 game, 0 valid, 1 invalid, 0 unfinished\n");
        assert!(o.stderr.is_empty(), "{qq}: {}", o.stderr);
    }
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
    let o = bin(&["validate", "--allow-empty", &dir.to_string_lossy()], b"");
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, "0 games, 0 valid, 0 invalid, 0 unfinished\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that reads no game is no pass (spec §5): exit 2, `no games
/// found`, saying what was scanned and why each file was skipped;
/// `--allow-empty` makes it 0. `--iglob` matches without regard to case.
#[test]
fn a_run_without_games_is_exit_2() {
    let root = scratch("empty-runs");
    let put = |rel: &str, text: &str| {
        let p = root.join(rel);
        let _ = std::fs::create_dir_all(p.parent().unwrap());
        std::fs::write(p, text).unwrap();
    };
    let game = std::fs::read_to_string(VALID).unwrap();
    std::fs::create_dir_all(root.join("empty")).unwrap();
    // compressed files are read by their inner extension: these name none
    // gamerec reads
    put("gz/a.doc.gz", "\x1f\u{8b}");
    put("gz/b.png.gz", "\x1f\u{8b}");
    put("repo/.git/HEAD", "ref: refs/heads/main\n");
    put("repo/.gitignore", "data/\n");
    put("repo/data/game.gamerec", &game);
    put("upper/GAME.GAMEREC", &game);
    let run = |args: &[&str]| bin_in(&root, args);
    let o = run(&["validate", "empty"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert_eq!(o.stdout, "0 games, 0 valid, 0 invalid, 0 unfinished\n");
    assert!(
        o.stderr
            .contains("error: no games found: scanned empty: 0 files"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--allow-empty"), "{}", o.stderr);
    let o = run(&["validate", "-q", "gz"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("2 with an extension gamerec does not read (.doc.gz, .png.gz)"),
        "{}",
        o.stderr
    );
    let o = run(&["score", "repo"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("1 excluded by .gitignore/.ignore (--no-ignore reads them)"),
        "{}",
        o.stderr
    );
    assert_eq!(run(&["validate", "--no-ignore", "repo"]).code, 0);
    let o = run(&["validate", "--glob", "*.gamerec", "upper"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("1 not matching --glob '*.gamerec' (--iglob"),
        "{}",
        o.stderr
    );
    let o = run(&["validate", "--iglob", "*.gamerec", "upper"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.starts_with("1 game, 1 valid"), "{}", o.stdout);
    // an empty file named on the command line, and standard input
    put("empty.gamerec", "");
    let o = run(&["validate", "empty.gamerec"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("empty.gamerec holds no game"),
        "{}",
        o.stderr
    );
    assert_eq!(bin(&["validate", "--game", "reversi", "-"], b"").code, 2);
    // machine formats: the error in the document, nothing on stderr
    let o = run(&["validate", "--format", "json", "empty"]);
    assert_eq!(o.code, 2);
    assert!(o.stderr.is_empty(), "{}", o.stderr);
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(doc["errors"][0]["code"], "record::no_games");
    for allowed in [
        &["validate", "--allow-empty", "gz"][..],
        &["score", "--allow-empty", "empty"],
    ] {
        assert_eq!(run(allowed).code, 0, "{allowed:?}");
    }
    let _ = std::fs::remove_dir_all(&root);
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
    let Some(other) = gamerec::registry::REGISTRY
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

/// Rules tags of the start reach the game through `--tag` (and `--area`,
/// the same as `--tag Area=...`); a game without such tags refuses them.
#[test]
fn perft_passes_tags_to_the_game() {
    for (args, want) in [
        (
            &[
                "perft",
                "blokus3d",
                "2",
                "--area",
                "tower",
                "--players",
                "2",
            ][..],
            "165662",
        ),
        (
            &[
                "perft",
                "rumis",
                "2",
                "--tag",
                "Area=cube3",
                "--players",
                "2",
            ],
            "18004",
        ),
        (
            &[
                "perft",
                "blokus3d",
                "1",
                "--area",
                "map:333/343/333",
                "--players",
                "2",
            ],
            "215",
        ),
        (&["perft", "blokus3d", "1", "--tag", "Stuck=skip"], "687"),
    ] {
        let o = bin(args, b"");
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        assert_eq!(o.stdout.lines().last(), Some(want), "{args:?}");
    }
    for args in [
        &["perft", "reversi", "1", "--area", "tower"][..],
        &["perft", "blokus3d", "1", "--area", "map:3x3"],
        &["perft", "blokus3d", "1", "--tag", "Area"],
        &["perft", "blokus3d", "1", "--tag", "Size=5"],
    ] {
        let o = bin(args, b"");
        assert_eq!(o.code, 2, "{args:?}");
    }
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
    for (command, options) in help_options() {
        let o = bin(&[command, "--help"], b"");
        assert_eq!(o.code, 0, "{command}: {}", o.stderr);
        let mut want: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        want.push("help".into());
        want.sort();
        assert_eq!(long_options(&o.stdout), want, "gamerec {command} --help");
    }
    // `perft --players` is a number; the WTHOR names file is not perft's
    assert_eq!(
        bin(&["perft", "reversi", "1", "--from", "json"], b"").code,
        2
    );
    assert_eq!(bin(&["show", "-q", VALID], b"").code, 0);
}

/// The options of the commands that report on games (`validate`, `score`),
/// with the scan's and the filters'.
fn report_options(scan: &[&'static str], filter: &[&'static str]) -> Vec<&'static str> {
    [
        "allow",
        "allow-empty",
        "check-scores",
        "color",
        "deny",
        "deny-warnings",
        "format",
        "max-empties",
        "no-progress",
        "quiet",
        "quiet-all",
    ]
    .into_iter()
    .chain(scan.iter().copied())
    .chain(filter.iter().copied())
    .collect()
}

/// Each command's long options as its `--help` should list them (but
/// `help`).
fn help_options() -> Vec<(&'static str, Vec<&'static str>)> {
    const READ: &[&str] = &[
        "encoding",
        "from",
        "game",
        "max-game-bytes",
        "players",
        "tournaments",
        "variant",
    ];
    // the filters: on the commands that read many games
    const FILTER: &[&str] = &["date", "invalid", "player", "plies", "tag", "valid"];
    const SCAN: &[&str] = &["glob", "hidden", "iglob", "no-ignore"];
    let report = report_options(SCAN, FILTER);
    let position = ["color", "index", "ply", "quiet"];
    vec![
        ("validate", [READ, &report].concat()),
        ("score", [READ, &report, &["plot"]].concat()),
        ("show", [READ, &position, &["level", "svg"]].concat()),
        ("moves", [READ, &position, &["by-score"]].concat()),
        (
            "convert",
            [
                READ,
                SCAN,
                FILTER,
                &[
                    "color",
                    "dedup",
                    "keep-going",
                    "no-progress",
                    "output",
                    "quiet",
                    "strict",
                    "symmetric",
                    "to",
                    "wthor-depth",
                ],
            ]
            .concat(),
        ),
        (
            "dedup",
            [READ, SCAN, &["format", "no-progress", "quiet", "symmetric"]].concat(),
        ),
        (
            "html",
            [READ, SCAN, FILTER, &["chunk-games", "output", "quiet"]].concat(),
        ),
        (
            "perft",
            vec![
                "area",
                "divide",
                "index",
                "no-progress",
                "players",
                "quiet",
                "tag",
                "threads",
                "variant",
            ],
        ),
        ("schema", vec![]),
        ("completions", vec![]),
        ("man", vec!["dir"]),
        ("tags", vec![]),
    ]
}

/// The top help names every command; each command's help has examples and
/// its exit codes.
#[test]
fn help_names_the_commands_examples_and_exit_codes() {
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
}

/// `-q` is accepted by every command, shown only where it changes
/// something.
#[test]
fn quiet_is_accepted_by_every_command() {
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
    // one page per command, each with every option that command takes
    let o = bin(&["man", "validate"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains(".TH gamerec-validate 1"), "{}", o.stdout);
    for option in [
        "deny\\-warnings",
        "allow\\-empty",
        "max\\-game\\-bytes",
        "glob",
        "quiet",
    ] {
        assert!(
            o.stdout.contains(&format!("\\fB\\-\\-{option}\\fR")),
            "{option}"
        );
    }
    let o = bin(&["man", "perft"], b"");
    assert!(o.stdout.contains("\\-\\-divide"), "{}", o.stdout);
    let o = bin(&["man", "chess"], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("pages: validate, score"), "{}", o.stderr);
    // --dir writes them all, each page gamerec(1) names
    let dir = scratch("man").join("man1");
    let o = bin(&["man", "--dir", &dir.to_string_lossy()], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let top = std::fs::read_to_string(dir.join("gamerec.1")).unwrap();
    for command in [
        "validate", "score", "show", "convert", "moves", "perft", "html",
    ] {
        assert!(
            top.contains(&format!("gamerec\\-{command}(1)")),
            "{command}"
        );
        let page = std::fs::read_to_string(dir.join(format!("gamerec-{command}.1"))).unwrap();
        assert!(
            page.contains(&format!(".TH gamerec-{command} 1")),
            "{command}"
        );
    }
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
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
    // valid games: -q leaves their warnings out
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

/// The binary run with `threads` replay threads: its exit code, stdout and
/// stderr.
fn run(threads: &str, args: &[&str]) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let o = Command::new(env!("CARGO_BIN_EXE_gamerec"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("the binary runs");
    (o.status.code(), o.stdout, o.stderr)
}

/// With one replay thread the reading thread replays small windows itself;
/// with several, windows go to the pool: the output is the same, byte for
/// byte, in every mode (the fixtures hold every game, valid and not).
#[test]
fn one_replay_thread_or_several_give_the_same_output() {
    for args in [
        &["validate", "fixtures"][..],
        &["validate", "--format", "json", "fixtures"],
        &["score", "fixtures"],
        &["convert", "--to", "json", VALID],
        &["html", "fixtures"],
    ] {
        let one = run("1", args);
        assert!(!one.1.is_empty(), "{args:?} wrote nothing");
        assert_eq!(one, run("2", args), "{args:?}");
        assert_eq!(one, run("3", args), "{args:?}");
    }
}

/// A site's files, written as the games are mapped on the pool a window at
/// a time, are the same with one replay thread or three.
#[test]
fn one_replay_thread_or_several_write_the_same_site() {
    let dir = scratch("site-threads");
    let files = |threads: &str| {
        let site = dir.join(threads);
        let site_arg = site.to_string_lossy().into_owned();
        let o = run(
            threads,
            &["html", "--chunk-games", "5", "-o", &site_arg, "fixtures"],
        );
        assert_eq!(o.0, Some(1), "{}", String::from_utf8_lossy(&o.2));
        let mut all = Vec::new();
        for sub in ["games", "index"] {
            let mut names: Vec<_> = std::fs::read_dir(site.join(sub))
                .expect("the site's folder")
                .filter_map(|e| Some(e.ok()?.path()))
                .collect();
            names.sort();
            for n in names {
                let name = n
                    .strip_prefix(&site)
                    .map(|p| p.to_path_buf())
                    .unwrap_or_default();
                all.push((name, std::fs::read(&n).unwrap_or_default()));
            }
        }
        all.push((
            "index.html".into(),
            std::fs::read(site.join("index.html")).unwrap_or_default(),
        ));
        all
    };
    let one = files("1");
    assert!(one.len() > 20, "{} files", one.len());
    assert!(
        one == files("3"),
        "one thread and three wrote different sites"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Games are numbered from 1 in human output and by `--index` (spec §5);
/// JSON keeps its 0-based `index` and adds `number`.
#[test]
fn games_are_numbered_from_one() {
    let two = "[Game \"reversi\"]\n1. f5 d6\n[Game \"reversi\"]\n1. f5 f5\n";
    let o = bin(&["validate", "-"], two.as_bytes());
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("game 2"), "{}", o.stderr);
    assert!(!o.stderr.contains("game 0"), "{}", o.stderr);
    let o = bin(&["validate", "--format", "json", "-"], two.as_bytes());
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(doc["games"][0]["index"], 0);
    assert_eq!(doc["games"][0]["number"], 1);
    assert_eq!(doc["games"][1]["number"], 2);
    // --index takes that number: 1 (the default) is the first game
    let first = bin(&["moves", "-"], two.as_bytes());
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(
        bin(&["moves", "--index", "1", "-"], two.as_bytes()).stdout,
        first.stdout
    );
    let o = bin(&["moves", "--index", "2", "-"], two.as_bytes());
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("game 2"), "{}", o.stderr);
    let o = bin(&["show", "--index", "0", "-"], two.as_bytes());
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.contains("--index counts games from 1"),
        "{}",
        o.stderr
    );
    let o = bin(&["show", "--index", "3", "-"], two.as_bytes());
    assert!(
        o.stderr
            .contains("holds 2 games; --index 3 is out of range"),
        "{}",
        o.stderr
    );
}

/// A misspelled game name gets a "did you mean", and the list names
/// the aliases (`othello`).
#[test]
fn unknown_game_offers_the_closest_name() {
    let o = bin(&["validate", "--game", "othelo", VALID], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("did you mean `othello`?"), "{}", o.stderr);
    assert!(
        o.stderr.contains("reversi, othello, blokus"),
        "{}",
        o.stderr
    );
    let o = bin(&["perft", "revresi", "1"], b"");
    assert!(o.stderr.contains("did you mean `reversi`?"), "{}", o.stderr);
    let o = bin(
        &["validate", "--format", "json", "-"],
        b"[Game \"Qwirkel\"]\n*\n",
    );
    assert!(o.stdout.contains("did you mean `qwirkle`?"), "{}", o.stdout);
    let o = bin(&["validate", "--game", "chess", VALID], b"");
    assert!(!o.stderr.contains("did you mean"), "{}", o.stderr);
}

/// A record whose one warning is `record::result_unchecked`.
const WARNED: &str = "fixtures/reversi/valid/unfinished-claimed-result.gamerec";

/// `--allow`/`--deny` per code (globs), and `--deny-warnings`: what is said
/// and counted in the text summary.
#[test]
fn warnings_are_controlled_per_code() {
    let warned = WARNED;
    let o = bin(&["validate", warned], b"");
    assert_eq!(o.code, 0);
    assert!(
        o.stderr.contains("record::result_unchecked"),
        "{}",
        o.stderr
    );
    assert_eq!(
        o.stdout,
        "1 game, 1 valid, 0 invalid, 1 unfinished; 1 warning: 1 record::result_unchecked\n"
    );
    // allowed: not printed, not counted
    for pattern in ["record::result_unchecked", "record::*", "*unchecked"] {
        let o = bin(&["validate", "--allow", pattern, warned], b"");
        assert_eq!(o.code, 0);
        assert!(o.stderr.is_empty(), "{pattern}: {}", o.stderr);
        assert_eq!(o.stdout, "1 game, 1 valid, 0 invalid, 1 unfinished\n");
    }
    let o = bin(&["validate", "--allow", "reversi::*", warned], b"");
    assert!(
        o.stderr.contains("record::result_unchecked"),
        "{}",
        o.stderr
    );
    // denied: an error, the game invalid
    let o = bin(&["validate", "--deny", "record::result_*", warned], b"");
    assert_eq!(o.code, 1);
    assert!(
        o.stdout.starts_with("1 game, 0 valid, 1 invalid"),
        "{}",
        o.stdout
    );
    assert!(
        o.stderr.contains("×") || o.stderr.contains("error"),
        "{}",
        o.stderr
    );
    // -q keeps a denied warning: it is an error now
    let o = bin(
        &[
            "validate",
            "-q",
            "--deny",
            "record::result_unchecked",
            warned,
        ],
        b"",
    );
    assert!(
        o.stderr.contains("record::result_unchecked"),
        "{}",
        o.stderr
    );
    // --deny-warnings: the summary counts the warnings
    let o = bin(&["validate", "-q", "--deny-warnings", warned], b"");
    assert_eq!(o.code, 1);
    assert!(
        o.stdout.contains("; 1 warning: 1 record::result_unchecked"),
        "{}",
        o.stdout
    );
}

/// A per-code tally of the warnings in the summary of every format, a
/// denied warning counted among the errors.
#[test]
fn warning_codes_are_tallied_in_every_format() {
    let warned = WARNED;
    // JSON: the summary adds the counts; the denied warning is in `errors`
    let o = bin(&["validate", "--format", "json", warned], b"");
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(doc["summary"]["warnings"], 1);
    assert_eq!(
        doc["summary"]["warning_codes"]["record::result_unchecked"],
        1
    );
    let o = bin(
        &[
            "validate",
            "--format",
            "json",
            "--deny",
            "record::*",
            warned,
        ],
        b"",
    );
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(doc["games"][0]["valid"], false);
    assert_eq!(
        doc["games"][0]["errors"][0]["code"],
        "record::result_unchecked"
    );
    assert_eq!(doc["summary"]["warnings"], 0);
    let o = bin(&["validate", "--format", "jsonl", warned], b"");
    assert!(
        o.stdout
            .contains("\"warning_codes\":{\"record::result_unchecked\":1}"),
        "{}",
        o.stdout
    );
    let o = bin(&["validate", "--format", "github", warned], b"");
    assert!(
        o.stdout
            .ends_with("; 1 warning: 1 record::result_unchecked\n"),
        "{}",
        o.stdout
    );
    let o = bin(&["validate", "--format", "sarif", warned], b"");
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(
        doc["runs"][0]["invocations"][0]["properties"]["summary"]["warnings"],
        1
    );
    let o = bin(&["validate", "--format", "junit", warned], b"");
    assert!(o.stdout.contains("<!-- 1 game, 1 valid, 0 invalid, 1 unfinished; 1 warning: 1 record::result_unchecked -->"), "{}", o.stdout);
}

/// A binary record cannot be given `*`: its help says how to silence a
/// warning.
#[test]
fn a_binary_records_warning_help_fits_it() {
    let wthor = "fixtures/wthor/valid/unfinished.wtb";
    let o = bin(&["validate", wthor], b"");
    assert!(o.stderr.contains("--allow"), "{}", o.stderr);
    assert!(!o.stderr.contains("write `*`"), "{}", o.stderr);
}

/// `convert -o nodir/file` makes the missing folders; when it cannot, the
/// message names the folder in one sentence, never a temporary file.
#[test]
fn convert_output_makes_missing_folders() {
    let root = scratch("convert-nodir");
    let out = root.join("new/deeper/game.json");
    let o = bin(
        &[
            "convert",
            VALID,
            "--to",
            "json",
            "-o",
            &out.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::read_to_string(&out).unwrap().contains("\"games\""));
    // a folder that cannot be made: under a regular file
    let blocked = root.join("new/deeper/game.json/x/game.json");
    let o = bin(
        &[
            "convert",
            VALID,
            "--to",
            "json",
            "-o",
            &blocked.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(o.code, 2);
    assert!(
        o.stderr.starts_with("error: cannot create the folder "),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("game.json/x for the output"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains(".tmp"), "{}", o.stderr);
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
    let _ = std::fs::remove_dir_all(&root);
}

/// SARIF locations are URIs relative to `%SRCROOT%` (the folder gamerec
/// runs in, given in `originalUriBaseIds`), absolute paths inside it made
/// relative; JUnit suites carry their `tests`/`failures`/`errors` counts.
#[test]
fn sarif_uris_are_relative_and_junit_suites_count() {
    let abs = std::fs::canonicalize(INVALID).unwrap();
    for path in [INVALID.to_string(), abs.to_string_lossy().into_owned()] {
        let o = bin(&["validate", "--format", "sarif", &path], b"");
        let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        let run = &doc["runs"][0];
        let at = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(at["uri"], INVALID, "{path}");
        assert_eq!(at["uriBaseId"], "%SRCROOT%", "{path}");
        let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap();
        assert!(
            base.starts_with("file:///") && base.ends_with('/'),
            "{base}"
        );
    }
    let two = "fixtures/reversi/valid/multi-game.gamerec";
    let o = bin(
        &[
            "validate",
            "--format",
            "junit",
            two,
            INVALID,
            "no/such/file.gamerec",
        ],
        b"",
    );
    assert!(
        o.stdout.contains(&format!(
            "<testsuite name=\"{two}\" tests=\"3\" failures=\"0\" errors=\"0\">"
        )),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains(&format!(
            "<testsuite name=\"{INVALID}\" tests=\"1\" failures=\"1\" errors=\"0\">"
        )),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains(
            "<testsuite name=\"no/such/file.gamerec\" tests=\"1\" failures=\"0\" errors=\"1\">"
        ),
        "{}",
        o.stdout
    );
}

/// A tag name one edit away from a known tag, or equal to one but for case,
/// is a `record::unknown_tag` warning with "did you mean"; other unknown
/// tags are kept silently; `gamerec tags GAME` lists the known tags.
#[test]
fn tag_typos_are_warned() {
    let text = "[Game \"reversi\"]\n[Reslut \"21-43\"]\n[Whtie \"Ben\"]\n[result \"43-21\"]\n[Opening \"x\"]\n1. f5 d6\n";
    let o = bin(&["validate", "--format", "json", "-"], text.as_bytes());
    assert_eq!(o.code, 0, "{}", o.stdout);
    let doc: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let warnings = doc["games"][0]["warnings"].as_array().unwrap();
    let said: Vec<(&str, &str)> = warnings
        .iter()
        .map(|w| (w["code"].as_str().unwrap(), w["help"].as_str().unwrap()))
        .collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(
        said.iter().all(|(c, _)| *c == "record::unknown_tag"),
        "{said:?}"
    );
    assert!(said[0].1.starts_with("did you mean `Result`?"), "{said:?}");
    assert!(said[1].1.starts_with("did you mean `White`?"), "{said:?}");
    assert!(said[2].1.starts_with("did you mean `Result`?"), "{said:?}");
    assert_eq!(warnings[2]["line"], 4);
    assert!(
        warnings[2]["message"]
            .as_str()
            .unwrap()
            .contains("case-sensitive"),
        "{warnings:?}"
    );
    // the game's rules tags count
    let o = bin(
        &["validate", "-"],
        b"[Game \"reversi\"]\n[Komy \"0\"]\n1. f5\n",
    );
    assert!(o.stderr.contains("did you mean `Komi`?"), "{}", o.stderr);
    let o = bin(
        &["validate", "--deny", "record::unknown_tag", "-"],
        text.as_bytes(),
    );
    assert_eq!(o.code, 1);
    let o = bin(&["tags", "reversi"], b"");
    assert_eq!(o.code, 0);
    for tag in [
        "Game",
        "Variant",
        "Black, White",
        "Result",
        "Setup, Size, Komi",
        "Event",
    ] {
        assert!(o.stdout.contains(tag), "{tag}: {}", o.stdout);
    }
    let o = bin(&["tags", "qwirkle"], b"");
    assert!(o.stdout.contains("Player1, Player2"), "{}", o.stdout);
    assert!(o.stdout.contains("Hand1"), "{}", o.stdout);
    assert_eq!(bin(&["tags", "othelo"], b"").code, 2);
}

/// `score` names each seat's player from the tag named after the seat
/// (`Player1` for Qwirkle's `player1`).
#[test]
fn score_names_the_players() {
    let text = "[Game \"qwirkle\"]\n[Players \"2\"]\n[Player1 \"Ann\"]\n[Player2 \"Ben\"]\n*\n";
    let o = bin(&["score", "-"], text.as_bytes());
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("player1 0 (Ann), player2 0 (Ben)"),
        "{}",
        o.stdout
    );
    let o = bin(&["score", VALID], b"");
    assert!(!o.stdout.contains("()"), "{}", o.stdout);
}

/// Wrong bytes get one clear error, with the fix, before any parsing: a
/// Latin-1 file (line and column, `--encoding latin1`, which then reads
/// it), compressed data cut short, a zip archive, a WTHOR file on
/// standard input (`--from wthor`).
#[test]
fn wrong_bytes_get_one_clear_error() {
    let root = scratch("bytes");
    let latin1 = root.join("old.gamerec");
    std::fs::write(
        &latin1,
        b"[Game \"reversi\"]\n[Black \"Ren\xe9e\"]\n[White \"Ben\"]\n1. f5 d6\n",
    )
    .unwrap();
    let path = latin1.to_string_lossy().into_owned();
    let o = bin(&["validate", &path], b"");
    assert_eq!(o.code, 2);
    assert_eq!(o.stderr.lines().count(), 1, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("not UTF-8 text: byte 0xE9 at line 2, column 12"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("--encoding latin1"), "{}", o.stderr);
    assert!(!o.stderr.contains("bad_tag"), "{}", o.stderr);
    let o = bin(&["score", "--encoding", "latin1", &path], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("Renée vs Ben"), "{}", o.stdout);
    let gz = root.join("games.gamerec");
    std::fs::write(&gz, b"\x1f\x8b\x08\x00\x00\x00\x00\x00").unwrap();
    let o = bin(&["validate", &gz.to_string_lossy()], b"");
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("gzip data ends early (truncated) after 8 compressed bytes read"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("missing_game"), "{}", o.stderr);
    let zip = root.join("games.zip");
    std::fs::write(&zip, b"PK\x03\x04\x14\x00\x00\x00").unwrap();
    let o = bin(&["validate", &zip.to_string_lossy()], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("a zip archive"), "{}", o.stderr);
    assert!(o.stderr.contains("extract its files first"), "{}", o.stderr);
    let wtb = std::fs::read("fixtures/wthor/valid/unfinished.wtb").unwrap();
    let o = bin(&["validate", "-"], &wtb);
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("pass --from wthor"), "{}", o.stderr);
    assert!(!o.stderr.contains("add a tag"), "{}", o.stderr);
    let o = bin(&["validate", "--from", "wthor", "-"], &wtb);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let _ = std::fs::remove_dir_all(&root);
}

/// `show --level K`: one level's slice in games built in levels; a level
/// past the area's highest column, or a flat game, is a usage error.
#[test]
fn show_level_draws_one_slice() {
    let f = "fixtures/blokus3d/valid/example.gamerec";
    let o = bin(&["show", f, "--level", "2"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let body: Vec<&str> = o.stdout.lines().skip(1).collect();
    assert_eq!(
        body,
        [
            "level 2",
            " 4  B B B B .",
            " 3  . Y Y Y Y",
            " 2  Y B Y B Y",
            " 1  Y Y B B Y",
            "    a b c d e"
        ]
    );
    assert_eq!(bin(&["show", f, "--level", "5"], b"").code, 2);
    assert_eq!(bin(&["show", f, "--level", "0"], b"").code, 2);
    let r = bin(
        &[
            "show",
            "fixtures/reversi/valid/anti.gamerec",
            "--level",
            "1",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no levels"), "{}", r.stderr);
}

/// `moves --by-score` on Blokus 3D lists the placements of `moves`, each
/// with the change in its colour's score (visible columns gained plus 1
/// for the stone placed), best first.
#[test]
fn moves_by_score_on_blokus3d() {
    let f = "fixtures/blokus3d/valid/example.gamerec";
    let plain = bin(&["moves", f, "--ply", "16"], b"");
    let scored = bin(&["moves", "--by-score", f, "--ply", "16"], b"");
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(scored.code, 0, "{}", scored.stderr);
    let mut names: Vec<&str> = scored
        .stdout
        .lines()
        .map(|line| line.rsplit_once(" =").unwrap().0)
        .collect();
    names.sort_unstable();
    let mut plain: Vec<&str> = plain.stdout.lines().collect();
    plain.sort_unstable();
    assert_eq!(names, plain);
    insta::assert_snapshot!("moves_by_score_blokus3d", scored.stdout);
}
