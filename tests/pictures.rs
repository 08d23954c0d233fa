//! Pictures: the SVG of every valid fixture's final position (snapshots, read
//! as text), `show --svg -`, `score --plot` and the `html` page.

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

fn with_args(path: &Path, cmd: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
    v.extend(fixture_args(path));
    v.push(path.to_string_lossy().into_owned());
    v
}

fn run(args: &[String]) -> common::Run {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    gamerec(&refs, b"")
}

fn valid_fixtures() -> Vec<std::path::PathBuf> {
    fixture_files(Path::new("fixtures"))
        .into_iter()
        .filter(|p| {
            p.parent()
                .and_then(|d| d.file_name())
                .is_some_and(|n| n == "valid")
        })
        .collect()
}

/// The final position of every valid fixture (its first game) as SVG.
#[test]
fn final_position_svgs() {
    for path in valid_fixtures() {
        let r = run(&with_args(&path, &["show", "--svg", "-"]));
        assert_eq!(r.code, 0, "{}: {}", path.display(), r.stderr);
        assert!(r.stdout.starts_with("<svg "), "{}", path.display());
        assert!(r.stdout.ends_with("</svg>\n"));
        // well-formed, every `<use>` naming a glyph defined in it
        let doc = roxmltree::Document::parse(&r.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let ids = glyph_names(&doc);
        for u in doc.descendants().filter(|n| n.has_tag_name("use")) {
            let href = u.attribute("href").unwrap_or_default();
            assert!(
                ids.contains_key(href.trim_start_matches('#')),
                "{}: {href}",
                path.display()
            );
        }
        insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format!("svg__{}", snapshot_name(&path)), r.stdout);
        });
    }
}

/// Glyph ids to names (`<g id=".." data-g="..">`).
fn glyph_names(doc: &roxmltree::Document) -> std::collections::HashMap<String, String> {
    doc.descendants()
        .filter_map(|n| {
            Some((
                n.attribute("id")?.to_string(),
                n.attribute("data-g")?.to_string(),
            ))
        })
        .collect()
}

/// The cubes of each stone of a Blokus 3D record, in move order (the
/// fixtures used here place a stone every move).
fn stones(path: &str) -> Vec<usize> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter_map(|t| t.split_once(':'))
        .map(|(_, cubes)| cubes.split(',').count())
        .collect()
}

/// The glyph names of the cubes a picture's stack draws, in drawing order,
/// with their places, and how many floor tiles it has.
fn stack_of(svg: &str) -> (Vec<(String, u32, u32)>, usize) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let names = glyph_names(&doc);
    let stack = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("stack"))
        .expect("a stack");
    let cubes = stack
        .descendants()
        .find(|n| n.attribute("class") == Some("cubes"))
        .expect("its cubes");
    let drawn = cubes
        .children()
        .filter(|n| n.has_tag_name("use"))
        .map(|u| {
            let id = u
                .attribute("href")
                .unwrap_or_default()
                .trim_start_matches('#');
            let at = |a| {
                u.attribute(a)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(u32::MAX)
            };
            (names.get(id).cloned().unwrap_or_default(), at("x"), at("y"))
        })
        .collect();
    let floor = stack
        .descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .count();
    (drawn, floor)
}

/// Blokus 3D's picture: the stack in 3D beside the top view, one cube drawn
/// per cube placed, the last stone's cubes (and only they) marked, a floor
/// tile per column of the area, each colour's letter on its cubes.
#[test]
fn blokus3d_draws_its_stack() {
    let fixture = "fixtures/blokus3d/valid/tower_4p.gamerec";
    let stones = stones(fixture);
    assert_eq!(stones.len(), 36);
    for ply in [0, 1, 7, 20, 36] {
        let r = run(&[
            "show".into(),
            fixture.into(),
            "--ply".into(),
            ply.to_string(),
            "--svg".into(),
            "-".into(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let (drawn, floor) = stack_of(&r.stdout);
        assert_eq!(floor, 20, "the tower's 20 columns");
        let placed: usize = stones.iter().take(ply).sum();
        assert_eq!(drawn.len(), placed, "ply {ply}");
        let marked = drawn.iter().filter(|(n, ..)| n.ends_with("-last")).count();
        let last = ply.checked_sub(1).map_or(0, |i| stones[i]);
        assert_eq!(marked, last, "ply {ply}");
        // one colour moves each ply in turn: blue, yellow, red, green
        if ply > 0 {
            let colour = ["B", "Y", "R", "G"][(ply - 1) % 4];
            assert!(
                drawn
                    .iter()
                    .filter(|(n, ..)| n.ends_with("-last"))
                    .all(|(n, ..)| *n == format!("cube-{colour}-last")),
                "ply {ply}: {drawn:?}"
            );
        }
        // the top view is still there, its last columns marked
        assert!(r.stdout.contains("class=\"board\""));
    }
    // the letters on the cubes, the faces shaded by lightness (blue's
    // darker faces are the same hue)
    let r = run(&["show".into(), fixture.into(), "--svg".into(), "-".into()]);
    let doc = roxmltree::Document::parse(&r.stdout).unwrap();
    let blue = doc
        .descendants()
        .find(|n| n.attribute("data-g") == Some("cube-B"))
        .expect("a blue cube");
    let fills: Vec<&str> = blue
        .descendants()
        .filter(|n| n.has_tag_name("polygon"))
        .filter_map(|n| n.attribute("fill"))
        .collect();
    assert_eq!(fills, ["#0072B2", "#00598B", "#00446B"]);
    let letters: Vec<&str> = blue
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(letters, ["B", "B", "B"]);
}

/// `--svg -` prints the same picture `--svg FILE` writes, and nothing else.
#[test]
fn svg_to_stdout_is_the_file() {
    let dir = std::env::temp_dir().join(format!("gamerec-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.svg");
    let fixture = "fixtures/deblockle/valid/spec_example.gamerec";
    let out = run(&[
        "show".into(),
        fixture.into(),
        "--ply".into(),
        "4".into(),
        "--svg".into(),
        file.to_string_lossy().into_owned(),
    ]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("gold to move"));
    let piped = run(&[
        "show".into(),
        fixture.into(),
        "--ply".into(),
        "4".into(),
        "--svg".into(),
        "-".into(),
    ]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), piped.stdout);
    // the caption, the last turn (c7-d7 ... ends on e6, from e7) marked
    assert!(piped.stdout.contains("after ply 4, gold to move"));
    assert!(piped.stdout.contains("gold 0"));
    assert_eq!(piped.stdout.matches("data-g=\"last\"").count(), 1);
    assert_eq!(piped.stdout.matches("data-g=\"from\"").count(), 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// Blokus marks the starting squares while they are empty, and no longer.
#[test]
fn starting_squares_are_marked_while_empty() {
    let fixture = "fixtures/blokus/valid/duo.gamerec";
    let show = |ply: &str| {
        run(&[
            "show".into(),
            fixture.into(),
            "--ply".into(),
            ply.into(),
            "--svg".into(),
            "-".into(),
        ])
        .stdout
    };
    let start = show("0");
    assert!(start.contains("data-g=\"start-P\""));
    assert!(start.contains("data-g=\"start-O\""));
    assert!(start.contains("starting square"));
    let one = show("1");
    assert!(!one.contains("data-g=\"start-P\""));
    assert!(one.contains("data-g=\"start-O\""));
    assert_eq!(one.matches("<use href=\"#g").count(), 5 + 1 + 5);
}

/// The score plot: one line per seat, the error at its ply.
#[test]
fn score_plot() {
    let r = gamerec(
        &[
            "score",
            "--plot",
            "-",
            "fixtures/reversi/valid/full-game.gamerec",
            "fixtures/reversi/invalid/no_flip.gamerec",
            "fixtures/deblockle/valid/spec_example.gamerec",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    let svg = r
        .stdout
        .split_once("<svg")
        .map(|(_, s)| format!("<svg{s}"))
        .unwrap();
    assert_eq!(svg.matches("class=\"plot\"").count(), 3);
    assert!(svg.contains("black 21") && svg.contains("white 43"));
    assert!(svg.contains("\u{2717} reversi::no_flip"));
    assert!(svg.contains(">discs<") && svg.contains(">blocks removed<"));
    // Deblockle's plot draws the score `score` prints: blocks removed
    assert!(svg.contains("gold 2") && svg.contains("blue 1"), "{svg}");
    let text = gamerec(
        &["score", "fixtures/deblockle/valid/spec_example.gamerec"],
        b"",
    );
    assert!(
        text.stdout.contains("gold 2 (Ben), blue 1 (Chloe)"),
        "{}",
        text.stdout
    );
}

/// A small collection as one page: the snapshot is the whole page.
#[test]
fn html_page() {
    let r = gamerec(
        &[
            "html",
            "fixtures/reversi/valid/early-end.gamerec",
            "fixtures/deblockle/valid/one_block.gamerec",
            "fixtures/reversi/invalid/no_flip.gamerec",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let page = &r.stdout;
    // self-contained: no network, no external scripts or fonts
    for bad in ["http://", "https://", "src=", "@import", "url("] {
        let outside_svg_ns = page.replace("http://www.w3.org/2000/svg", "");
        assert!(!outside_svg_ns.contains(bad), "{bad}");
    }
    // invalid games first in the index
    let first_row = page.split("<tbody>").nth(1).unwrap();
    assert!(
        first_row
            .trim_start()
            .starts_with("<tr class=\"bad\" data-n=\"2\">")
    );
    // without JavaScript: every game's final position
    let noscript = page
        .split("<noscript>")
        .nth(1)
        .and_then(|s| s.split("</noscript>").next())
        .unwrap();
    assert_eq!(noscript.matches("<section id=\"game=").count(), 3);
    assert_eq!(noscript.matches("<svg ").count(), 3);
    insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!("html__small_collection", page);
    });
}

/// Records that cannot be set up still get a row and a section.
#[test]
fn html_with_unknown_games() {
    let text = "[Game \"chess\"]\ne4\n\n[Game \"reversi\"]\n[Variant \"nope\"]\nf5\n\n[Game \"qwirkle\"]\n";
    let r = gamerec(&["html", "-"], text.as_bytes());
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.matches("<tr class=\"bad\"").count(), 3);
    let noscript = r
        .stdout
        .split("<noscript>")
        .nth(1)
        .and_then(|s| s.split("</noscript>").next())
        .unwrap();
    assert_eq!(noscript.matches("could not be set up").count(), 3);
}

/// The plot of a record read from standard input (read once, used twice),
/// to standard output: the SVG alone, the scores on stderr.
#[test]
fn score_plot_from_stdin() {
    let text = std::fs::read("fixtures/reversi/valid/early-end.gamerec").unwrap();
    let r = gamerec(&["score", "-", "--plot", "-"], &text);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // stdout is the SVG alone, the scores go to stderr
    assert!(r.stdout.starts_with("<svg"), "{}", r.stdout);
    assert!(roxmltree::Document::parse(&r.stdout).is_ok());
    assert!(r.stderr.contains("black 0, white 49"), "{}", r.stderr);
    assert_eq!(r.stdout.matches("class=\"plot\"").count(), 1);
}

/// The replay's frames: one per ply and the start, the last one scored as
/// the report, the side to move gone once the game is over.
#[test]
fn frames_follow_the_replay() {
    use gamerec::registry::resolve;
    use gamerec::replay::Options;
    for path in valid_fixtures() {
        if path.extension().is_none_or(|e| e != "gamerec") || !fixture_args(&path).is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for raw in gamerec::record::parse_file(&text) {
            let opts = Options::default();
            let Ok((game, _)) = resolve(&raw, &opts) else {
                panic!("{}", path.display());
            };
            let f = game.frames(&raw, &text, &opts);
            assert_eq!(f.frames.len(), f.report.plies + 1, "{}", path.display());
            let last = f.frames.last().unwrap();
            assert_eq!(last.scores, f.report.scores, "{}", path.display());
            assert_eq!(last.to_move.is_none(), f.report.over, "{}", path.display());
            assert!(f.frames.first().unwrap().scene.marks.is_empty());
        }
    }
}

/// One document per stream: the plot and the JSON report cannot share stdout.
#[test]
fn score_plot_and_json_on_stdout_is_a_usage_error() {
    let r = gamerec(
        &[
            "score",
            "--format",
            "json",
            "--plot",
            "-",
            "fixtures/reversi/valid/early-end.gamerec",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
}

/// `score --plot` of many games: a panel per game up to 50 games; past
/// that, a panel per kind of game (game, variant, seats) of each seat's
/// median and 10th-90th percentile band after each ply, a finished game
/// counting with its final score.
#[test]
fn score_plot_of_many_games_draws_their_distribution() {
    let one = std::fs::read_to_string("fixtures/reversi/valid/early-end.gamerec").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plot.svg");
    let panels = |n: usize| {
        let text = vec![one.as_str(); n].join("\n");
        let args = ["score", "-q", "-", "--plot", out.to_str().unwrap()];
        let r = gamerec(&args, text.as_bytes());
        assert_eq!(r.code, 0, "{}", r.stderr);
        let svg = std::fs::read_to_string(&out).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("plot"))
            .count()
    };
    assert_eq!(panels(50), 50);
    assert_eq!(panels(51), 1);

    // a WTHOR year (8 games) read 7 times and a Blokus game: two kinds
    let year = "fixtures/wthor/valid/WTH_1978.wtb";
    let blokus = "fixtures/blokus/valid/classic_2p.gamerec";
    let svg = dir.path().join("both.svg");
    let mut args = vec!["score", "-q"];
    args.extend([year; 7]);
    args.extend([blokus, "--plot", svg.to_str().unwrap()]);
    let r = gamerec(&args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let plots: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("plot"))
        .collect();
    assert_eq!(plots.len(), 2, "{svg}");
    let text_of = |n: &roxmltree::Node| -> Vec<String> {
        n.descendants()
            .filter(|t| t.has_tag_name("text"))
            .filter_map(|t| t.text().map(str::to_string))
            .collect()
    };
    // the medians at the end of the WTHOR year's lines, worked out here
    // from each game's final plotted values
    let (_, games) = gamerec::formats::open(
        year,
        Box::new(std::fs::File::open(year).unwrap()),
        &gamerec::formats::ReadOptions::default(),
    )
    .unwrap();
    let opts = gamerec::replay::Options::default();
    let mut finals: Vec<Vec<i64>> = vec![Vec::new(); 2];
    let mut n = 0;
    for g in games {
        let mut g = *g.unwrap();
        g.materialize();
        let (game, _) = gamerec::registry::resolve_in(&g.raw, &g.text, &opts).unwrap();
        let p = game.plots(&g.raw, &g.text, &opts);
        let last = p.values.last().unwrap();
        // the year is read 7 times
        for (s, f) in finals.iter_mut().enumerate() {
            f.extend([last[s]; 7]);
        }
        n += 7;
    }
    let texts = text_of(&plots[0]);
    assert!(
        texts[0].contains(&format!("{n} games: median and 10th-90th percentile")),
        "{texts:?}"
    );
    for (seat, mut f) in ["black", "white"].into_iter().zip(finals) {
        f.sort_unstable();
        let median = f[(f.len() - 1) / 2];
        let label = format!("{seat} {median}");
        assert!(texts.contains(&label), "{label} not in {texts:?}");
    }
    // a shaded band per seat in each panel
    for p in &plots {
        let bands = p
            .descendants()
            .filter(|n| n.attribute("fill-opacity") == Some("0.2"))
            .count();
        assert!(bands >= 2, "{bands}");
    }
    assert!(text_of(&plots[1])[0].starts_with("blokus (classic), 1 game: "));
}

/// `-o DIR` writes a site (issue 28): `index.html`, the games' data in
/// `games/K.js` (`--chunk-games` each) and the index in `index/K.js` (ten
/// times as many rows), each file a script call with its number; every game
/// is in one data file and one index file, in reading order.
#[test]
fn html_site_files() {
    let dir = std::env::temp_dir().join(format!("gamerec-site-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.gamerec");
    std::fs::write(&input, common::reversi_collection(45, &[30], &[])).unwrap();
    let site = dir.join("site");
    let r = gamerec(
        &[
            "html",
            "--chunk-games",
            "4",
            "-o",
            &site.to_string_lossy(),
            &input.to_string_lossy(),
        ],
        b"",
    );
    assert_eq!(r.code, 1, "one game is invalid: {}", r.stderr);
    assert!(
        r.stderr.contains("45 games, 44 valid, 1 invalid"),
        "{}",
        r.stderr
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains(r#""site":{"games":45,"chunk":4,"rows":40,"page":100}"#),
        "{index}"
    );
    // the page's own parts: no data of its own, the viewer, the loaders
    assert!(index.contains("<div id=\"finder\">") && index.contains("gamerecGames"));
    let mut games = 0;
    for k in 0..12 {
        let text = std::fs::read_to_string(site.join("games").join(format!("{k}.js"))).unwrap();
        let prefix = format!("gamerecGames({k}, ");
        let json = text
            .strip_prefix(&prefix)
            .and_then(|t| t.strip_suffix(");\n"))
            .unwrap_or_else(|| panic!("games/{k}.js: {text}"));
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let list = v["games"].as_array().unwrap();
        for (i, g) in list.iter().enumerate() {
            assert_eq!(g["n"], k * 4 + i, "games/{k}.js");
            // every glyph and background it draws is in its file
            for id in g["gl"].as_array().unwrap().iter().skip(1) {
                assert!(
                    v["defs"].get(format!("g{id}")).is_some(),
                    "g{id} in games/{k}.js"
                );
            }
            let kind = &v["kinds"][g["k"].to_string()];
            assert!(v["defs"].get(format!("b{}", kind["bg"])).is_some());
            assert!(v["styles"].get(g["st"].to_string()).is_some());
        }
        games += list.len();
    }
    assert_eq!(games, 45);
    assert!(!site.join("games/12.js").exists());
    let rows: Vec<String> = (0..2)
        .map(|k| std::fs::read_to_string(site.join("index").join(format!("{k}.js"))).unwrap())
        .collect();
    assert!(rows[0].starts_with("gamerecIndex(0, [[") && rows[1].starts_with("gamerecIndex(1, [["));
    assert_eq!(rows[0].matches("games.gamerec, game ").count(), 40);
    assert_eq!(rows[1].matches("games.gamerec, game ").count(), 5);
    // the invalid game's row: its claim (none), not valid
    assert!(
        rows[0].contains(r#"game 31","reversi","Cup 0","2001","Black 2 vs White 8","?",0,1]"#),
        "{}",
        rows[0]
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// One page holds at most 10,000 games: a larger input is refused, with the
/// advice to write a site, and nothing is written.
#[test]
fn html_page_refuses_more_than_it_holds() {
    let dir = std::env::temp_dir().join(format!("gamerec-page-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("many.gamerec");
    let one = "[Game \"reversi\"]\n\nf5\n\n";
    std::fs::write(&input, one.repeat(10_001)).unwrap();
    let page = dir.join("page.html");
    let args = [
        "html",
        "-o",
        &page.to_string_lossy(),
        &input.to_string_lossy(),
    ];
    let r = gamerec(&args, b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("at least 10001 games, more than one page holds (10000); nothing was written: write a site instead, `-o DIR`"),
        "{}",
        r.stderr
    );
    assert!(!page.exists());
    // 10,000 fit
    std::fs::write(&input, one.repeat(10_000)).unwrap();
    let r = gamerec(&args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(page.exists());
    std::fs::remove_dir_all(&dir).ok();
}
