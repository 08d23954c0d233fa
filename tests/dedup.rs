//! `gamerec dedup` and `convert --dedup`: exact copies, Reversi games
//! turned and mirrored (made here by mapping their moves), a Blokus Duo game
//! reflected in the diagonal through its starting points, games that share
//! an opening and are no copies, an invalid game (not compared); the human
//! list and the JSON document (snapshots); and a WTHOR year with every game
//! written again turned or mirrored, whose copies are found exactly, against
//! the year's own copies counted here from the records' moves (the whole
//! database as an `#[ignore]` test).

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::gamerec;
use serde_json::Value;

const CLUB: &str = "tests/dedup/club.gamerec";

/// A square `(column, row)` of an `n`x`n` board under symmetry `s`, numbered
/// as the crate numbers them: 2 the half turn, 6 the reflection in the
/// diagonal through `a1`, 7 in the other diagonal.
fn image(s: u8, (c, r): (u8, u8), n: u8) -> (u8, u8) {
    let m = n - 1;
    match s {
        2 => (m - c, m - r),
        6 => (r, c),
        7 => (m - r, m - c),
        _ => (c, r),
    }
}

/// A cell name (`f5`, `n14`, Trigon's `ab12`) as `(column, row)`, when it
/// is one.
fn square(name: &str) -> Option<(u8, u8)> {
    let letters = name.bytes().take_while(u8::is_ascii_lowercase).count();
    let (file, rank) = name.split_at(letters);
    let column = match file.as_bytes() {
        [c] => c - b'a',
        [b'a', c] => 26 + (c - b'a'),
        _ => return None,
    };
    let rank: u8 = rank.parse().ok()?;
    Some((column, rank.checked_sub(1)?))
}

fn name((c, r): (u8, u8)) -> String {
    let file = if c < 26 {
        ((b'a' + c) as char).to_string()
    } else {
        format!("a{}", (b'a' + c - 26) as char)
    };
    format!("{file}{}", r + 1)
}

/// The movetext of a game mapped square by square (a Reversi move is a
/// square, a Blokus move `PIECE:cells`); tags and move numbers kept.
fn mapped(game: &str, s: u8, n: u8) -> String {
    mapped_by(game, &|sq| image(s, sq, n))
}

/// [`mapped`] by any map of the cells.
fn mapped_by(game: &str, image: &dyn Fn((u8, u8)) -> (u8, u8)) -> String {
    let mut out = String::new();
    for line in game.lines() {
        if line.starts_with('[') {
            out.push_str(line);
        } else {
            let words: Vec<String> = line
                .split_whitespace()
                .map(|w| match w.split_once(':') {
                    Some((piece, cells)) => {
                        let cells: Vec<String> = cells
                            .split(',')
                            .map(|c| square(c).map_or(c.to_string(), |sq| name(image(sq))))
                            .collect();
                        format!("{piece}:{}", cells.join(","))
                    }
                    None => square(w).map_or(w.to_string(), |sq| name(image(sq))),
                })
                .collect();
            out.push_str(&words.join(" "));
        }
        out.push('\n');
    }
    out
}

/// A Trigon game (edge 9: 35 columns, 18 rows) mirrored left to right and
/// turned half round: copies with `--symmetric`.
#[test]
fn trigon_mirrored_and_turned() {
    let tmp = tempfile::tempdir().unwrap();
    let original = "fixtures/blokus/valid/trigon_4p.gamerec";
    let text = std::fs::read_to_string(original).unwrap();
    let mirror = mapped_by(&text, &|(x, r)| (34 - x, r));
    let turned = mapped_by(&text, &|(x, r)| (34 - x, 17 - r));
    let path = tmp.path().join("trigon.gamerec");
    std::fs::write(&path, [mirror, turned].join("\n")).unwrap();
    let p = path.to_string_lossy();
    let r = gamerec(&["validate", &p], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = gamerec(
        &["dedup", "--symmetric", "--format", "json", original, &p],
        b"",
    );
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["duplicates"], 2, "{}", r.stdout);
    let r = gamerec(&["dedup", "--format", "json", original, &p], b"");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["duplicates"], 0, "{}", r.stdout);
}

/// The games of a gamerec file, as texts: a game begins with the tag
/// after a blank line.
fn games(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut blank = true;
    for line in text.lines() {
        if line.starts_with('[') && blank {
            games.push(String::new());
        }
        blank = line.trim().is_empty();
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

/// The club's first game mirrored in the a1 diagonal, its third game (which
/// shares its opening with the fourth) turned half round, and its Duo game
/// reflected in the diagonal through e10 and j5, written in `dir`.
fn mirrored(dir: &Path) -> PathBuf {
    let club = games(&std::fs::read_to_string(CLUB).unwrap());
    let text = [
        mapped(&club[0], 6, 8),
        mapped(&club[2], 2, 8),
        mapped(&club[5], 7, 14),
    ]
    .join("\n");
    let path = dir.join("mirrored.gamerec");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str], tmp: &Path) -> (common::Run, String) {
    let r = gamerec(args, b"");
    let transcript = r
        .transcript(&format!("gamerec {}", args.join(" ")))
        .replace(&tmp.to_string_lossy().into_owned(), "TMP");
    (r, transcript)
}

#[test]
fn copies_exact_and_symmetric_human() {
    let tmp = tempfile::tempdir().unwrap();
    let m = mirrored(tmp.path());
    let m = m.to_string_lossy();
    let (r, exact) = run(&["dedup", CLUB, &m], tmp.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("dedup_exact", exact);
    let (r, symmetric) = run(&["dedup", "--symmetric", CLUB, &m], tmp.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("dedup_symmetric", symmetric);
}

#[test]
fn copies_symmetric_json() {
    let tmp = tempfile::tempdir().unwrap();
    let m = mirrored(tmp.path());
    let m = m.to_string_lossy();
    let (r, _) = run(
        &["dedup", "--symmetric", "--format", "json", CLUB, &m],
        tmp.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["duplicates"], 4);
    assert_eq!(doc["summary"]["not_compared"], 1);
    insta::assert_snapshot!(
        "dedup_json",
        r.stdout
            .replace(&tmp.path().to_string_lossy().into_owned(), "TMP")
    );
}

/// `convert --dedup` writes the first of each group, says each copy left
/// out and counts them; the output read again has no copies.
#[test]
fn convert_dedup_keeps_the_first_of_each_group() {
    let tmp = tempfile::tempdir().unwrap();
    let m = mirrored(tmp.path());
    let m = m.to_string_lossy();
    let args = [
        "convert",
        "--to",
        "gamerec",
        "--dedup",
        "--symmetric",
        "--keep-going",
        CLUB,
        &m,
    ];
    let (r, transcript) = run(&args, tmp.path());
    let out = tmp.path().join("unique.gamerec");
    std::fs::write(&out, &r.stdout).unwrap();
    let o = out.to_string_lossy();
    assert_eq!(r.code, 1, "the invalid game is left out: {}", r.stderr);
    // the games written begin with their tags; stderr says the rest
    let written: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("[Event "))
        .collect();
    let stderr = transcript.split("--- stderr\n").nth(1).unwrap_or("");
    insta::assert_snapshot!(
        "convert_dedup",
        format!("{}\n{}", written.join("\n"), stderr)
    );
    let (again, _) = run(
        &["dedup", "--symmetric", "--format", "json", &o],
        tmp.path(),
    );
    let doc: Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(doc["summary"]["games"], 5);
    assert_eq!(doc["summary"]["duplicates"], 0);
    // the exact copy alone is left out without --symmetric
    let (r, _) = run(
        &["convert", "--to", "gamerec", "--dedup", "-q", &m, &m],
        tmp.path(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "3 copies left out (--dedup), 3 games written\n");
}

#[test]
fn usage_and_exit_codes() {
    let r = gamerec(&["dedup", "no/such/file.gamerec"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no/such/file.gamerec"), "{}", r.stderr);
    let r = gamerec(&["convert", "--to", "gamerec", "--symmetric", CLUB], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--dedup"), "{}", r.stderr);
    // copies found is not a failure
    let r = gamerec(&["dedup", CLUB, CLUB], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.ends_with(
            "14 games: 5 distinct, 5 groups of copies, 7 duplicates (2 invalid, not compared)\n"
        ),
        "{}",
        r.stdout
    );
}

/// The digest holds the game and the variant: the same move text in a Duo
/// and a classic game are not one game; the same game on 8x8 with and
/// without symmetries keeps its digest for the identity.
#[test]
fn the_digest_holds_game_and_variant() {
    use gamerec::game::digest;
    use gamerec::games::blokus::Blokus;
    use gamerec::games::reversi::Reversi;
    let tags = |t: &str| gamerec::record::parse_file(t).remove(0).tags;
    let moves = ["X:f9,e10,f10,g10,f11"];
    let duo = digest::<Blokus>(
        &tags("[Variant \"duo\"]\n\n"),
        "duo",
        moves.into_iter(),
        false,
    );
    let classic = digest::<Blokus>(
        &tags("[Variant \"classic\"]\n\n"),
        "classic",
        moves.into_iter(),
        false,
    );
    assert!(duo.is_some() && classic.is_some());
    assert_ne!(duo, classic);
    let reversi = tags("[Game \"reversi\"]\n\n");
    let f5 = digest::<Reversi>(&reversi, "standard", ["f5", "d6"].into_iter(), true);
    let d3 = digest::<Reversi>(&reversi, "standard", ["d3", "c5"].into_iter(), true);
    let f5_exact = digest::<Reversi>(&reversi, "standard", ["f5", "d6"].into_iter(), false);
    let d3_exact = digest::<Reversi>(&reversi, "standard", ["d3", "c5"].into_iter(), false);
    assert_eq!(f5, d3);
    assert_ne!(f5_exact, d3_exact);
}

/// A WTHOR file's records: the header, then each record's moves (up to the
/// first 0).
fn records(path: &Path) -> (Vec<u8>, Vec<Vec<u8>>) {
    let bytes = std::fs::read(path).unwrap();
    let header = bytes[..16].to_vec();
    let games = bytes[16..]
        .chunks_exact(68)
        .map(|r| r[8..].iter().copied().take_while(|&m| m != 0).collect())
        .collect();
    (header, games)
}

/// A WTHOR move (`10 * row + column`, from 11) under symmetry `s`.
fn wthor_image(s: u8, m: u8) -> u8 {
    let (c, r) = image(s, (m % 10 - 1, m / 10 - 1), 8);
    10 * (r + 1) + c + 1
}

/// The least of a game's four images, as the crate compares games.
fn canonical(moves: &[u8]) -> Vec<u8> {
    [0, 2, 6, 7]
        .iter()
        .map(|&s| {
            moves
                .iter()
                .map(|&m| wthor_image(s, m))
                .collect::<Vec<u8>>()
        })
        .min()
        .unwrap_or_default()
}

/// Writes a copy of a WTHOR file with every game turned or mirrored (the
/// half turn, then each diagonal in turn).
fn reflected_copy(from: &Path, to: &Path) {
    let mut bytes = std::fs::read(from).unwrap();
    for (k, r) in bytes[16..].chunks_exact_mut(68).enumerate() {
        let s = [2, 6, 7][k % 3];
        for m in r[8..].iter_mut().filter(|m| **m != 0) {
            *m = wthor_image(s, *m);
        }
    }
    std::fs::write(to, bytes).unwrap();
}

/// `dedup --symmetric` of the WTHOR files, then of them and a reflected
/// copy of each: the first finds the copies counted here from the moves,
/// the second those and every reflected game as a copy of the first game
/// with its moves up to symmetry.
fn wthor_copies_found(files: &[PathBuf]) {
    let tmp = tempfile::tempdir().unwrap();
    let mut firsts: HashMap<Vec<u8>, (String, u64)> = HashMap::new();
    let mut games = 0u64;
    let mut copies = Vec::new();
    for f in files {
        let copy = tmp.path().join(f.file_name().unwrap());
        reflected_copy(f, &copy);
        copies.push(copy);
        for (k, moves) in records(f).1.iter().enumerate() {
            games += 1;
            firsts
                .entry(canonical(moves))
                .or_insert((f.to_string_lossy().into_owned(), k as u64 + 1));
        }
    }
    let own = games - firsts.len() as u64;
    let mut args: Vec<String> = ["dedup", "--symmetric", "--format", "json"]
        .map(String::from)
        .to_vec();
    args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
    let alone: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = gamerec(&alone, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["games"], games);
    assert_eq!(doc["summary"]["not_compared"], 0);
    assert_eq!(doc["summary"]["duplicates"], own, "the files' own copies");
    args.extend(copies.iter().map(|f| f.to_string_lossy().into_owned()));
    let both: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = gamerec(&both, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["duplicates"], own + games);
    assert_eq!(doc["summary"]["distinct"], firsts.len() as u64);
    // every reflected game is a copy, of the first game with its moves
    let mut found = 0u64;
    let moves_of: HashMap<String, Vec<Vec<u8>>> = files
        .iter()
        .chain(&copies)
        .map(|f| (f.to_string_lossy().into_owned(), records(f).1))
        .collect();
    let moves = |p: &Value| -> Vec<u8> {
        let list = &moves_of[p["file"].as_str().unwrap()];
        canonical(&list[p["game"].as_u64().unwrap() as usize - 1])
    };
    for g in doc["groups"].as_array().unwrap() {
        let first = &g["first"];
        let key = moves(first);
        let expected = &firsts[&key];
        assert_eq!(
            (
                first["file"].as_str().unwrap(),
                first["game"].as_u64().unwrap()
            ),
            (expected.0.as_str(), expected.1)
        );
        for c in g["copies"].as_array().unwrap() {
            assert_eq!(moves(c), key);
            found += u64::from(
                c["file"]
                    .as_str()
                    .unwrap()
                    .starts_with(&*tmp.path().to_string_lossy()),
            );
        }
    }
    assert_eq!(found, games, "every reflected game is found as a copy");
}

/// A year of the database (the repository's 1978 when the database is not
/// beside the checkout).
#[test]
fn a_wthor_year_and_its_reflection() {
    wthor_copies_found(&[common::one_wthor_year()]);
}

/// The whole WTHOR database, when a copy of `shared/` stands beside the
/// repository.
#[test]
#[ignore = "needs ../shared/data/wthor (run with --ignored)"]
fn the_wthor_database_and_its_reflection() {
    let Some(files) = common::wthor_years(None) else {
        return;
    };
    wthor_copies_found(&files);
}

/// A Trigon triangle (edge 9) turned a sixth round the hexagon's centre,
/// worked out on the triangle's corners (a different way from the
/// library's, which turns the triangles' centres): a corner `(c, r)` (in
/// columns of half a side and rows) relative to the centre corner
/// `(17, 9)` goes to `((dc - 3 dr) / 2, (dc + dr) / 2)`; the image is the
/// triangle of the three corners' images (its column their mean, its row
/// the lowest).
fn trigon_sixth((x, r): (u8, u8)) -> (u8, u8) {
    let (x, r) = (i32::from(x), i32::from(r));
    // on the edge-9 board a triangle points up when x + r is odd
    let corners = if (x + r) % 2 == 1 {
        [(x - 1, r), (x + 1, r), (x, r + 1)]
    } else {
        [(x - 1, r + 1), (x + 1, r + 1), (x, r)]
    };
    let turned = corners.map(|(c, r)| {
        let (dc, dr) = (c - 17, r - 9);
        ((dc - 3 * dr) / 2 + 17, (dc + dr) / 2 + 9)
    });
    let column = turned.iter().map(|t| t.0).sum::<i32>() / 3;
    let row = turned.iter().map(|t| t.1).min().unwrap();
    (u8::try_from(column).unwrap(), u8::try_from(row).unwrap())
}

/// A Trigon game turned by one sixth and by two (each still a legal game):
/// copies with `--symmetric`.
#[test]
fn trigon_turned_by_sixths() {
    let tmp = tempfile::tempdir().unwrap();
    let original = "fixtures/blokus/valid/trigon_4p.gamerec";
    let text = std::fs::read_to_string(original).unwrap();
    let one = mapped_by(&text, &trigon_sixth);
    let two = mapped_by(&text, &|t| trigon_sixth(trigon_sixth(t)));
    let path = tmp.path().join("trigon_turned.gamerec");
    std::fs::write(&path, [one, two].join("\n")).unwrap();
    let p = path.to_string_lossy();
    let r = gamerec(&["validate", &p], b"");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = gamerec(
        &["dedup", "--symmetric", "--format", "json", original, &p],
        b"",
    );
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["duplicates"], 2, "{}", r.stdout);
    let r = gamerec(&["dedup", "--format", "json", original, &p], b"");
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(doc["summary"]["duplicates"], 0, "{}", r.stdout);
}
