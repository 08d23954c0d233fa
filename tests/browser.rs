//! The HTML viewer in a real browser (headless Chromium): the page opened at
//! `#game=N&ply=K` draws the position `show --ply K` draws, with the same
//! marks and scores, and at the last ply the final scores `score` prints.
//!
//! Skipped with a message when no Chromium is installed, except in CI
//! (`CI=true`), where `.ci/run` installs it and its absence is a failure.
//! `GAMEREC_CHROMIUM` names the browser binary to use.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::gamerec;

/// The collection the page is made of, in this order (game `n` is file `n`).
const FILES: [&str; 5] = [
    "fixtures/reversi/valid/full-game.gamerec",
    "fixtures/blokus/valid/duo.gamerec",
    "fixtures/deblockle/valid/spec_example.gamerec",
    "fixtures/qwirkle/valid/spec_example.gamerec",
    "fixtures/reversi/invalid/no_flip.gamerec",
];

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GAMEREC_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Runs the browser headless on `url` with `extra` flags, JavaScript
/// disabled for pages when `no_js` (by the profile's content settings:
/// headless Chromium needs scripts itself for `--dump-dom`); its stdout.
fn browse(bin: &Path, url: &str, extra: &[&str], no_js: bool) -> String {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let profile = std::env::temp_dir().join(format!(
        "gamerec-chromium-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    if no_js {
        let prefs = profile.join("Default");
        std::fs::create_dir_all(&prefs).expect("a profile");
        std::fs::write(
            prefs.join("Preferences"),
            r#"{"profile":{"default_content_setting_values":{"javascript":2}}}"#,
        )
        .expect("the profile's preferences");
    }
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let start = Instant::now();
    let mut out = String::new();
    let mut stdout = child.stdout.take().expect("chromium stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).ok();
        s
    });
    loop {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            child.kill().ok();
            child.wait().ok();
            panic!("chromium did not finish on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if let Ok(s) = reader.join() {
        out = s;
    }
    std::fs::remove_dir_all(&profile).ok();
    out
}

/// The value of attribute `name` in a tag's text.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    // the attribute first in the tag's text (after its name), or after a space
    let first = format!("{name}=\"");
    let key = format!(" {name}=\"");
    let at = if tag.starts_with(&first) {
        first.len()
    } else {
        tag.find(&key)? + key.len()
    };
    let rest = tag.get(at..)?;
    rest.get(..rest.find('"')?)
}

/// Glyph ids to names: every `<g id=".." data-g="..">` of the document.
fn glyph_names(doc: &str) -> std::collections::HashMap<String, String> {
    doc.split("<g ")
        .skip(1)
        .filter_map(|t| {
            let tag = t.get(..t.find('>')?)?;
            Some((
                attr(tag, "id")?.to_string(),
                attr(tag, "data-g")?.to_string(),
            ))
        })
        .collect()
}

/// The glyphs drawn on the board: (name, x, y) of each `<use>` in the first
/// `class="cells"` group after `from`.
fn board(doc: &str, from: &str) -> BTreeSet<(String, u32, u32)> {
    let start = doc.find(from).expect("the board");
    let rest = doc.get(start..).unwrap_or_default();
    assert!(rest.contains("class=\"cells\">"), "the cells");
    uses_in(doc, rest, "cells").into_iter().collect()
}

/// The glyphs `<use>`d in the first group of class `class` in `rest` (a
/// part of `doc`), in drawing order: (glyph name, x, y); empty when there
/// is no such group.
fn uses_in(doc: &str, rest: &str, class: &str) -> Vec<(String, u32, u32)> {
    let names = glyph_names(doc);
    let Some(at) = rest.find(&format!("class=\"{class}\">")) else {
        return Vec::new();
    };
    let group = rest.get(at..).unwrap_or_default();
    let group = group
        .get(..group.find("</g>").unwrap_or(group.len()))
        .unwrap_or_default();
    group
        .split("<use ")
        .skip(1)
        .map(|t| {
            let tag = t.get(..t.find('>').unwrap_or(t.len())).unwrap_or_default();
            let id = attr(tag, "href")
                .unwrap_or_default()
                .trim_start_matches('#');
            let name = names.get(id).cloned().unwrap_or_else(|| format!("?{id}"));
            let n = |a| {
                attr(tag, a)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(u32::MAX)
            };
            (name, n("x"), n("y"))
        })
        .collect()
}

/// The scores a `show --svg -` caption gives: `seat score` texts.
fn caption_scores(svg: &str) -> Vec<String> {
    let caption = svg
        .split("class=\"caption\"")
        .nth(1)
        .and_then(|c| c.split("</g>\n").next())
        .unwrap_or_default();
    caption
        .split("font-size=\"13\">")
        .skip(2)
        .filter_map(|t| t.split("</text>").next())
        .map(str::to_string)
        .collect()
}

/// The pixels of a PNG (8-bit RGB or RGBA, as Chromium writes screenshots)
/// as RGB triples.
fn png_pixels(bytes: &[u8]) -> Vec<[u8; 3]> {
    let mut at = 8;
    let (mut width, mut channels) = (0usize, 0usize);
    let mut data = Vec::new();
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let body = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(body[0..4].try_into().unwrap()) as usize;
                assert_eq!(body[8], 8, "8-bit PNG");
                channels = match body[9] {
                    2 => 3,
                    6 => 4,
                    other => panic!("PNG colour type {other}"),
                };
            }
            b"IDAT" => data.extend_from_slice(body),
            _ => {}
        }
        at += 12 + len;
    }
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&data).expect("PNG data");
    let stride = width * channels;
    let mut prev = vec![0u8; stride];
    let mut pixels = Vec::new();
    for line in raw.chunks(stride + 1) {
        let (filter, src) = (line[0], &line[1..]);
        let mut cur = vec![0u8; stride];
        for i in 0..src.len().min(stride) {
            let a = if i >= channels { cur[i - channels] } else { 0 };
            let b = prev[i];
            let c = if i >= channels { prev[i - channels] } else { 0 };
            let pred = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                _ => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
            };
            cur[i] = src[i].wrapping_add(pred);
        }
        pixels.extend(cur.chunks(channels).map(|p| [p[0], p[1], p[2]]));
        prev = cur;
    }
    pixels
}

/// How many pixels of a screenshot have colour `rgb`.
fn count(pixels: &[[u8; 3]], rgb: [u8; 3]) -> usize {
    pixels.iter().filter(|&&p| p == rgb).count()
}

#[test]
fn viewer_draws_what_show_draws() {
    let Some(bin) = chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is required in CI (.ci/run installs it)");
        }
        eprintln!(
            "SKIPPED viewer_draws_what_show_draws: no chromium found (install it, or set GAMEREC_CHROMIUM)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("gamerec-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    let mut args = vec!["html", "-o"];
    let page_arg = page.to_string_lossy().into_owned();
    args.push(&page_arg);
    args.extend(FILES);
    let made = gamerec(&args, b"");
    assert_eq!(made.code, 1, "{}", made.stderr);
    let url = format!("file://{}", page.display());

    // (game, ply); `None`: the last ply
    let views: [(usize, Option<usize>); 6] = [
        (0, Some(20)),
        (0, None),
        (1, Some(6)),
        (2, Some(4)),
        (3, None),
        (4, None),
    ];
    // each view in its own browser, two at a time
    let check = |view| check_view(&bin, &url, view);
    for pair in views.chunks(2) {
        std::thread::scope(|s| {
            for &view in pair {
                s.spawn(move || check(view));
            }
        });
    }

    check_pictures(&bin, &url, &dir);
    std::fs::remove_dir_all(&dir).ok();
}

/// One view of the page (game `n` at `ply`, `None`: the last) against what
/// `show` draws and `score` counts.
fn check_view(bin: &Path, url: &str, (n, ply): (usize, Option<usize>)) {
    let file = FILES[n];
    let mut show_args = vec!["show".to_string(), file.to_string()];
    if let Some(k) = ply {
        show_args.extend(["--ply".to_string(), k.to_string()]);
    }
    show_args.extend(["--svg".to_string(), "-".to_string()]);
    let refs: Vec<&str> = show_args.iter().map(String::as_str).collect();
    let shown = gamerec(&refs, b"").stdout;
    let plies: usize = shown
        .split("after ply ")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let k = ply.unwrap_or(plies);
    // the last ply as the End key reaches it (`ply=end` steps there)
    let at = if ply.is_some() {
        k.to_string()
    } else {
        "end".to_string()
    };
    let dom = browse(
        bin,
        &format!("{url}#game={n}&ply={at}"),
        &["--dump-dom"],
        false,
    );
    assert!(
        dom.contains("data-ready="),
        "the script did not run:\n{dom}"
    );
    let want = board(&shown, "<svg");
    let got = board(&dom, "id=\"board\"");
    assert!(!want.is_empty());
    assert_eq!(got, want, "game {n} ({file}) at ply {k}");
    let status = dom
        .split("id=\"v-status\">")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .unwrap_or_default();
    assert!(
        status.contains(&format!("after ply {k} of ")),
        "{file}: {status}"
    );
    for seat_score in caption_scores(&shown) {
        assert!(
            status.contains(&format!("</span>{seat_score}</span>")),
            "{file} at ply {k}: {seat_score} not in {status}"
        );
    }
    if ply.is_none() {
        // the last ply shows the final scores, as `score` prints them
        let score = gamerec(&["score", file], b"").stdout;
        let line = score.lines().nth(2).unwrap_or_default().trim().to_string();
        // each seat's score, without the player's name `score` adds
        for seat_score in line.split(", ").map(|s| s.split(" (").next().unwrap_or(s)) {
            assert!(
                status.contains(&format!("</span>{seat_score}</span>")),
                "{file}: final {seat_score} not in {status}"
            );
        }
    }
    if n == 4 {
        // the illegal move's diagnostic is shown at the last ply, with its help
        assert!(dom.contains("<code>reversi::no_flip</code>"));
        assert!(dom.contains("help: legal moves here"));
    }
}

/// Screenshots of the page, with and without its script.
fn check_pictures(bin: &Path, url: &str, dir: &Path) {
    // a picture of the page: the Deblockle board (its colour) drawn
    let png = dir.join("shot.png");
    browse(
        bin,
        &format!("{url}#game=2&ply=4"),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1000,1400",
        ],
        false,
    );
    let shot = png_pixels(&std::fs::read(&png).expect("a screenshot"));
    assert!(count(&shot, [0xee, 0xdc, 0xb3]) > 50_000);
    // without JavaScript the section of game 0 shows its final position (the
    // Reversi board's green), and no viewer
    let nojs = dir.join("nojs.png");
    browse(
        bin,
        &format!("{url}#game=0"),
        &[
            &format!("--screenshot={}", nojs.display()),
            "--window-size=1000,1400",
        ],
        true,
    );
    let shot = png_pixels(&std::fs::read(&nojs).expect("a screenshot"));
    assert!(count(&shot, [0x2e, 0x8b, 0x57]) > 30_000);
    assert_eq!(count(&shot, [0xee, 0xdc, 0xb3]), 0);
    let dom = browse(bin, url, &["--dump-dom"], true);
    assert!(!dom.contains("data-ready=\""), "scripts ran");
    assert!(dom.contains("<table id=\"index\">"));
    for n in 0..FILES.len() {
        assert!(dom.contains(&format!("<section id=\"game={n}\">")));
    }
}

/// Tag values that would end or hijack a script element if the page's data
/// were not encoded for it (issue 30, find 12). No `-->`: it would end the
/// comment-like state `<!--<script>` opens and hide the fault.
const HOSTILE: &str = "[Game \"reversi\"]\n[Event \"<!--<script>\"]\n[Black \"</script><b id=\\\"bold\\\">B</b>\"]\n[White \"&amp;\u{2028}W\"]\n\n1. f5 d6\n";

#[test]
fn hostile_tags_show_as_text() {
    let Some(bin) = chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is required in CI (.ci/run installs it)");
        }
        eprintln!(
            "SKIPPED hostile_tags_show_as_text: no chromium found (install it, or set GAMEREC_CHROMIUM)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("gamerec-browser-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("hostile.gamerec");
    std::fs::write(&record, HOSTILE).unwrap();
    let page = dir.join("report.html");
    let (page_arg, record_arg) = (
        page.to_string_lossy().into_owned(),
        record.to_string_lossy().into_owned(),
    );
    let made = gamerec(&["html", "-o", &page_arg, &record_arg], b"");
    assert_eq!(made.code, 0, "{}", made.stderr);
    let url = format!("file://{}", page.display());
    let dom = browse(&bin, &format!("{url}#game=0&ply=1"), &["--dump-dom"], false);
    assert!(
        dom.contains("data-ready="),
        "the script did not run:\n{dom}"
    );
    // the index lists the game, its players as text
    let index = dom
        .split("id=\"index-box\">")
        .nth(1)
        .and_then(|s| s.split("</table>").next())
        .unwrap_or_default();
    assert!(index.contains("hostile.gamerec"), "{index}");
    assert!(
        index.contains("&lt;/script&gt;&lt;b id=\"bold\"&gt;B&lt;/b&gt;"),
        "{index}"
    );
    assert!(index.contains("&amp;amp;\u{2028}W"), "{index}");
    assert!(!dom.contains("<b id=\"bold\">"), "a tag became markup");
    // the viewer's title holds the Event as text, and the board is drawn
    let title = dom
        .split("id=\"v-title\">")
        .nth(1)
        .and_then(|s| s.split("</h2>").next())
        .unwrap_or_default();
    assert!(title.contains("&lt;!--&lt;script&gt;"), "{title}");
    assert!(!board(&dom, "id=\"board\"").is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

/// The cubes a picture's stack draws, in drawing order: (glyph name, x, y)
/// of each `<use>` in the first `class="cubes"` group after `from`.
fn stack_cubes(doc: &str, from: &str) -> Vec<(String, u32, u32)> {
    let start = doc.find(from).expect("the picture");
    uses_in(doc, doc.get(start..).unwrap_or_default(), "cubes")
}

/// The cubes of each stone of a record that places a stone every move.
fn stones(path: &str) -> Vec<usize> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter_map(|t| t.split_once(':'))
        .map(|(_, cubes)| cubes.split(',').count())
        .collect()
}

/// Keeps a screenshot for a reader to look at, when `GAMEREC_SHOTS` names
/// a directory.
fn keep(png: &Path, name: &str) {
    if let Some(dir) = std::env::var_os("GAMEREC_SHOTS") {
        std::fs::create_dir_all(&dir).ok();
        std::fs::copy(png, Path::new(&dir).join(name)).ok();
    }
}

/// Blokus 3D in the viewer: at every ply looked at, the stack of cubes the
/// page draws is the one `show --svg` draws, cube for cube in the same
/// order (back to front), one per cube placed, the last stone's marked;
/// the top view beside it the same too. Screenshots of the page and of
/// `show --svg` show the cubes' colours, their shaded faces and the mark.
#[test]
fn viewer_draws_the_blokus3d_stack() {
    let Some(bin) = chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is required in CI (.ci/run installs it)");
        }
        eprintln!(
            "SKIPPED viewer_draws_the_blokus3d_stack: no chromium found (install it, or set GAMEREC_CHROMIUM)"
        );
        return;
    };
    const GAMES: [&str; 2] = [
        "fixtures/blokus3d/valid/tower_4p.gamerec",
        "fixtures/blokus3d/valid/example.gamerec",
    ];
    let dir = std::env::temp_dir().join(format!("gamerec-browser-b3d-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    let page_arg = page.to_string_lossy().into_owned();
    let made = gamerec(&["html", "-o", &page_arg, GAMES[0], GAMES[1]], b"");
    assert_eq!(made.code, 0, "{}", made.stderr);
    let url = format!("file://{}", page.display());
    for (n, ply) in [(0, 0), (0, 20), (0, 36), (1, 5)] {
        let file = GAMES[n];
        let k = ply.to_string();
        let shown = gamerec(&["show", file, "--ply", &k, "--svg", "-"], b"").stdout;
        let dom = browse(
            &bin,
            &format!("{url}#game={n}&ply={ply}"),
            &["--dump-dom"],
            false,
        );
        assert!(dom.contains("data-ready="), "the script did not run");
        let want = stack_cubes(&shown, "<svg");
        let got = stack_cubes(&dom, "id=\"board\"");
        assert_eq!(got, want, "{file} at ply {ply}");
        let stones = stones(file);
        assert_eq!(got.len(), stones.iter().take(ply).sum::<usize>());
        let marked = got.iter().filter(|(n, ..)| n.ends_with("-last")).count();
        assert_eq!(marked, ply.checked_sub(1).map_or(0, |i| stones[i]));
        assert_eq!(
            board(&dom, "id=\"board\""),
            board(&shown, "<svg"),
            "the top view of {file} at ply {ply}"
        );
    }
    // the page at ply 20 of the tower (green's L4 just placed, on top)
    let png = dir.join("stack.png");
    browse(
        &bin,
        &format!("{url}#game=0&ply=20"),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1000,900",
        ],
        false,
    );
    keep(&png, "blokus3d-viewer.png");
    let shot = png_pixels(&std::fs::read(&png).expect("a screenshot"));
    shaded_and_marked(&shot);
    // `show --svg` as Chromium draws it
    let svg = dir.join("tower.svg");
    let svg_arg = svg.to_string_lossy().into_owned();
    let r = gamerec(&["show", GAMES[0], "--ply", "20", "--svg", &svg_arg], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let png = dir.join("svg.png");
    browse(
        &bin,
        &format!("file://{}", svg.display()),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=620,520",
        ],
        false,
    );
    keep(&png, "blokus3d-svg.png");
    shaded_and_marked(&png_pixels(&std::fs::read(&png).expect("a screenshot")));
    std::fs::remove_dir_all(&dir).ok();
}

/// A screenshot of a Blokus 3D stack: each colour's top faces and both
/// darker side faces (the same hue), and the last stone's magenta outline.
fn shaded_and_marked(shot: &[[u8; 3]]) {
    for (what, rgb) in [
        ("blue top", [0x00, 0x72, 0xb2]),
        ("blue left", [0x00, 0x59, 0x8b]),
        ("blue right", [0x00, 0x44, 0x6b]),
        ("yellow left", [0xbb, 0xb2, 0x33]),
        ("red right", [0x80, 0x38, 0x00]),
        ("green top", [0x00, 0x9e, 0x73]),
        ("green left", [0x00, 0x7b, 0x5a]),
    ] {
        assert!(count(shot, rgb) > 60, "{what}: {}", count(shot, rgb));
    }
    assert!(
        count(shot, [0xc2, 0x18, 0x5b]) > 60,
        "the last stone's mark"
    );
}

/// The browser, or `None` (with a message) when there is none outside CI.
fn browser_for(test: &str) -> Option<PathBuf> {
    let bin = chromium();
    if bin.is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is required in CI (.ci/run installs it)");
        }
        eprintln!("SKIPPED {test}: no chromium found (install it, or set GAMEREC_CHROMIUM)");
    }
    bin
}

/// A page made by `gamerec html` of `files` in a fresh directory named for
/// `name`: the directory and the page's URL.
fn make_page(name: &str, files: &[&str]) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("gamerec-browser-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    let page_arg = page.to_string_lossy().into_owned();
    let mut args = vec!["html", "-o", &page_arg];
    args.extend(files);
    let made = gamerec(&args, b"");
    assert!(made.code <= 1, "{}", made.stderr);
    (dir, format!("file://{}", page.display()))
}

/// The DOM the script leaves at `url` (asserting it ran).
fn dom_at(bin: &Path, url: &str) -> String {
    let dom = browse(bin, url, &["--dump-dom"], false);
    assert!(
        dom.contains("data-ready="),
        "the script did not run:\n{dom}"
    );
    dom
}

/// The text between `from` and the next `to` after it.
fn between<'a>(doc: &'a str, from: &str, to: &str) -> &'a str {
    doc.split(from)
        .nth(1)
        .and_then(|s| s.split(to).next())
        .unwrap_or_default()
}

/// The score plot's end labels never overlap, however close the final
/// scores (issue 28): each is a line of text below the one above it, and
/// stays next to its own line's end.
#[test]
fn plot_end_labels_do_not_overlap() {
    let Some(bin) = browser_for("plot_end_labels_do_not_overlap") else {
        return;
    };
    // 17-19; 77, 56, 79, 48; 86, 130, 93, 130: close or equal scores
    const GAMES: [&str; 3] = [
        "fixtures/reversi/valid/size-6.gamerec",
        "fixtures/blokus/valid/classic_4p.gamerec",
        "fixtures/blokus/valid/trigon_4p_pentobi.gamerec",
    ];
    let (dir, url) = make_page("plot", &GAMES);
    for (n, file) in GAMES.iter().enumerate() {
        let dom = dom_at(&bin, &format!("{url}#game={n}"));
        let plot = between(&dom, "id=\"v-plot\">", "</svg>");
        // the seats' lines (`fill="none"` first), where each ends
        let ends: Vec<f64> = plot
            .split("<path ")
            .skip(1)
            .filter_map(|t| {
                let tag = t.get(..t.find('>')?)?;
                let d = attr(tag, "d")?;
                (attr(tag, "fill") == Some("none") && d.contains('L'))
                    .then(|| d.rsplit(' ').next()?.parse().ok())
                    .flatten()
            })
            .collect();
        // the end labels: the texts in a colour
        let labels: Vec<f64> = plot
            .split("<text ")
            .skip(1)
            .filter_map(|t| {
                let tag = t.get(..t.find('>')?)?;
                attr(tag, "fill")?;
                attr(tag, "y")?.parse().ok()
            })
            .collect();
        assert!(ends.len() >= 2, "{file}: {plot}");
        assert_eq!(labels.len(), ends.len(), "{file}: {plot}");
        let mut sorted = labels.clone();
        sorted.sort_by(f64::total_cmp);
        for w in sorted.windows(2) {
            assert!(w[1] - w[0] >= 12.0, "{file}: labels at {labels:?} overlap");
        }
        for (y, end) in labels.iter().zip(&ends) {
            let off = (y - (end + 4.0)).abs();
            assert!(
                off <= 13.0 * (ends.len() - 1) as f64 + 0.5,
                "{file}: a label {off} px from its line"
            );
            assert!(
                (11.0..=200.0).contains(y),
                "{file}: a label off the plot at {y}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A move the replay stopped at is listed as written, with the error's
/// mark, the diagnostic as its title (issue 28: it was listed as the
/// diagnostic's code).
#[test]
fn illegal_move_listed_by_its_notation() {
    let Some(bin) = browser_for("illegal_move_listed_by_its_notation") else {
        return;
    };
    // (record, the move, its diagnostic)
    const GAMES: [(&str, &str, &str); 2] = [
        (
            "fixtures/reversi/invalid/no_flip.gamerec",
            "g7",
            "reversi::no_flip",
        ),
        (
            "fixtures/blokus/invalid/no_corner_contact.gamerec",
            "V3:a5,b5,a6",
            "blokus::no_corner_contact",
        ),
    ];
    let files: Vec<&str> = GAMES.iter().map(|g| g.0).collect();
    let (dir, url) = make_page("illegal", &files);
    for (n, (file, mv, code)) in GAMES.iter().enumerate() {
        let dom = dom_at(&bin, &format!("{url}#game={n}"));
        let moves = between(&dom, "id=\"v-moves\"", "</ol>");
        let bad: Vec<&str> = moves
            .split("<li ")
            .filter(|li| li.contains("class=\"bad\""))
            .collect();
        assert_eq!(bad.len(), 1, "{file}: {moves}");
        let li = bad[0];
        let tag = li.get(..li.find('>').unwrap_or(0)).unwrap_or_default();
        assert!(
            attr(tag, "title").is_some_and(|t| t.starts_with(&format!("{code}: "))),
            "{file}: {li}"
        );
        let text = between(li, "<a ", "</a>").split_once('>').map(|t| t.1);
        assert_eq!(
            text,
            Some(format!("{mv} \u{2717}").as_str()),
            "{file}: {li}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The texts of the cells of index row `n` (the row of game `n`), drawn
/// by the script.
fn index_row(dom: &str, n: usize) -> Vec<String> {
    let index = between(dom, "id=\"index-box\">", "</table>");
    let row = between(index, &format!(" data-n=\"{n}\">"), "</tr>");
    // `<td>` or `<td title="..">` (a site's cells)
    row.split("<td")
        .skip(1)
        .map(|c| {
            let c = c.split_once('>').map_or(c, |(_, t)| t);
            let c = c.trim_end_matches("</td>");
            // the text of a cell holding a link
            c.split_once('>')
                .filter(|_| c.starts_with("<a "))
                .map_or(c, |(_, t)| t.trim_end_matches("</a>"))
                .to_string()
        })
        .collect()
}

/// An invalid game's result column shows what its record claimed, marked
/// as a claim, `?` when it claims nothing: where its replay stopped is no
/// result (issue 28).
#[test]
fn invalid_game_shows_its_claimed_result() {
    let Some(bin) = browser_for("invalid_game_shows_its_claimed_result") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!(
        "gamerec-browser-claim-record-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let no_flip = std::fs::read_to_string("fixtures/reversi/invalid/no_flip.gamerec").unwrap();
    let claiming = dir.join("claiming.gamerec");
    std::fs::write(
        &claiming,
        no_flip.replacen("\n\n", "\n[Result \"33-31\"]\n\n", 1),
    )
    .unwrap();
    let claiming = claiming.to_string_lossy().into_owned();
    // the claiming game, the same without a claim, a valid game
    let (page_dir, url) = make_page(
        "claim",
        &[
            &claiming,
            "fixtures/reversi/invalid/no_flip.gamerec",
            "fixtures/reversi/valid/full-game.gamerec",
        ],
    );
    let dom = dom_at(&bin, &format!("{url}#game=0"));
    let (claims, none, valid) = (index_row(&dom, 0), index_row(&dom, 1), index_row(&dom, 2));
    assert!(claims.iter().any(|c| c == "claimed 33-31"), "{claims:?}");
    assert!(none.iter().any(|c| c == "?"), "{none:?}");
    for row in [&claims, &none] {
        assert!(!row.iter().any(|c| c.contains("not over")), "{row:?}");
    }
    // a valid game's result is the one its replay reached
    assert!(valid.iter().any(|c| c == "21-43 (white)"), "{valid:?}");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&page_dir).ok();
}

/// The number an index row shows is the one its link opens (issue 28:
/// rows were numbered per file, `sheet.gamerec #1`, but linked by their
/// number on the page): every row's first cell is its `#game=N`, and
/// `#game=N` opens the game the row's file column names.
#[test]
fn index_numbers_are_the_links() {
    let Some(bin) = browser_for("index_numbers_are_the_links") else {
        return;
    };
    // three games in one file, then an invalid one: listed first
    let (dir, url) = make_page(
        "numbers",
        &[
            "fixtures/reversi/valid/multi-game.gamerec",
            "fixtures/reversi/invalid/no_flip.gamerec",
        ],
    );
    let dom = dom_at(&bin, &url);
    let index = between(&dom, "id=\"index-box\">", "</table>");
    let rows: Vec<(usize, &str)> = index
        .split("<tr class=")
        .skip(1)
        .filter_map(|r| Some((between(r, " data-n=\"", "\"").parse().ok()?, r)))
        .collect();
    let order: Vec<usize> = rows.iter().map(|r| r.0).collect();
    assert_eq!(order, [3, 0, 1, 2], "{index}");
    for &(n, row) in &rows {
        assert!(
            row.contains(&format!("<td><a href=\"#game={n}\">{n}</a></td>")),
            "row {n}: {row}"
        );
        let cells = index_row(&dom, n);
        let place = cells.get(1).cloned().unwrap_or_default();
        let (file, k) = if n == 3 {
            ("fixtures/reversi/invalid/no_flip.gamerec", 1)
        } else {
            ("fixtures/reversi/valid/multi-game.gamerec", n + 1)
        };
        assert_eq!(place, format!("{file}, game {k}"), "row {n}: {cells:?}");
        // the row's link opens the game it names
        let opened = dom_at(&bin, &format!("{url}#game={n}"));
        let title = between(&opened, "id=\"v-title\">", "</h2>");
        assert!(title.starts_with(&place), "#game={n}: {title}, row {place}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The DOM a site's page leaves at `url` once the files it loads are in
/// (virtual time runs until nothing is pending), asserting its script ran.
fn site_dom(bin: &Path, url: &str) -> String {
    let dom = browse(
        bin,
        url,
        &["--virtual-time-budget=30000", "--dump-dom"],
        false,
    );
    assert!(
        dom.contains("data-ready="),
        "the script did not run at {url}:\n{dom}"
    );
    dom
}

/// The games of the index rows drawn, in order.
fn shown_rows(dom: &str) -> Vec<usize> {
    between(dom, "id=\"index-box\">", "</table>")
        .split("<tr class=")
        .skip(1)
        .filter_map(|r| between(r, " data-n=\"", "\"").parse().ok())
        .collect()
}

/// The text of the element with id `id` (its first text, up to a tag).
fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    between(dom, &format!("id=\"{id}\">"), "<")
}

/// Game `n` of a site at `ply`, against what `show` draws of game `k`
/// (from 1) of `file` at that ply: the same glyphs on the same squares, the
/// same status.
fn site_view(bin: &Path, url: &str, n: usize, (file, k): (&str, usize), ply: usize) {
    let index = k.to_string();
    let at = ply.to_string();
    let shown = gamerec(
        &["show", file, "--index", &index, "--ply", &at, "--svg", "-"],
        b"",
    )
    .stdout;
    let dom = site_dom(bin, &format!("{url}#game={n}&ply={ply}"));
    let want = board(&shown, "<svg");
    assert!(!want.is_empty(), "{shown}");
    assert_eq!(board(&dom, "id=\"board\""), want, "game {n} at ply {ply}");
    let title = text_of(&dom, "v-title");
    assert!(title.starts_with(&format!("{file}, game {k}")), "{title}");
    let status = between(&dom, "id=\"v-status\">", "</p>");
    assert!(status.contains(&format!("after ply {ply} of ")), "{status}");
    for seat_score in caption_scores(&shown) {
        assert!(
            status.contains(&format!("</span>{seat_score}</span>")),
            "{seat_score} not in {status}"
        );
    }
}

/// A site (`html -o DIR`, issue 28) in the browser: a page of its index
/// (rows loaded from the index files it needs), a search, the validity
/// filter, a sort, and a game opened at a ply from its data file, drawn as
/// `show` draws it. 250 games, 7 a data file, 70 rows an index file, so
/// pages and files do not line up.
#[test]
fn site_pages_searches_sorts_and_opens() {
    let Some(bin) = browser_for("site_pages_searches_sorts_and_opens") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("gamerec-browser-site-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.gamerec");
    let text = common::reversi_collection(250, &[200], &[(137, "Zed Unique")]);
    std::fs::write(&input, text).unwrap();
    let input = input.to_string_lossy().into_owned();
    let site = dir.join("site");
    let made = gamerec(
        &[
            "html",
            "--chunk-games",
            "7",
            "-o",
            &site.to_string_lossy(),
            &input,
        ],
        b"",
    );
    assert_eq!(made.code, 1, "{}", made.stderr);
    let url = format!("file://{}", site.join("index.html").display());

    // the second page: games 100 to 199 in reading order, the first opened
    let dom = site_dom(&bin, &format!("{url}#page=2"));
    assert_eq!(shown_rows(&dom), (100..200).collect::<Vec<_>>());
    assert_eq!(text_of(&dom, "p-at"), "page 2 of 3");
    assert_eq!(text_of(&dom, "count"), "250 games");
    assert!(text_of(&dom, "v-title").starts_with(&format!("{input}, game 101")));
    let row = index_row(&dom, 150);
    assert_eq!(
        row,
        [
            "150".to_string(),
            format!("{input}, game 151"),
            "reversi".into(),
            "Cup 0".into(),
            "2001".into(),
            "Black 3 vs White 7".into(),
            "6-8 (not over)".into(),
            "yes".into(),
            "10".into()
        ]
    );

    // a search: every word found in the row, in any case
    let dom = site_dom(&bin, &format!("{url}#q=zed%20UNIQUE"));
    assert_eq!(shown_rows(&dom), [137]);
    assert_eq!(text_of(&dom, "count"), "1 of 250 games");
    assert!(text_of(&dom, "v-title").contains("Zed Unique"));
    // "phrases in quotes"
    let dom = site_dom(
        &bin,
        &format!("{url}#q=%22black%206%22%20%22white%2010%22&page=1"),
    );
    let want: Vec<usize> = (0..250).filter(|i| i % 7 == 6 && i % 11 == 10).collect();
    assert_eq!(shown_rows(&dom), want);

    // the invalid games only
    let dom = site_dom(&bin, &format!("{url}#valid=no"));
    assert_eq!(shown_rows(&dom), [200]);
    assert_eq!(index_row(&dom, 200).get(6).map(String::as_str), Some("?"));

    // sorted by plies, longest first, then in reading order
    let dom = site_dom(&bin, &format!("{url}#sort=8-"));
    let longest: Vec<usize> = (0..250).filter(|i| i % 50 == 49).collect();
    assert_eq!(shown_rows(&dom).get(..5), Some(&longest[..]));
    assert!(
        dom.contains("<th data-k=\"8\" class=\"desc\">"),
        "the sorted column marked"
    );

    // a game at a ply, from its data file (game 123 is in games/17.js)
    site_view(&bin, &url, 123, (&input, 124), 7);
    site_view(&bin, &url, 6, (&input, 7), 16);
    std::fs::remove_dir_all(&dir).ok();
}

/// The site of the whole WTHOR database (127,475 games) in the browser:
/// pages through the index, searches a player, opens a game at a ply (as
/// `show` draws it). Needs `../shared/data/wthor`; about a minute to write
/// the site.
#[test]
#[ignore = "needs ../shared/data/wthor (run with --ignored)"]
fn site_of_the_whole_database() {
    let Some(bin) = browser_for("site_of_the_whole_database") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("gamerec-browser-wthor-{}", std::process::id()));
    let site = dir.join("site");
    let made = gamerec(
        &["html", "-o", &site.to_string_lossy(), common::WTHOR_DIR],
        b"",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stderr.contains("127475 games"), "{}", made.stderr);
    let url = format!("file://{}", site.join("index.html").display());
    // the first page, a page in the middle, the last
    let dom = site_dom(&bin, &url);
    assert_eq!(shown_rows(&dom), (0..100).collect::<Vec<_>>());
    assert_eq!(text_of(&dom, "p-at"), "page 1 of 1275");
    let dom = site_dom(&bin, &format!("{url}#page=700"));
    assert_eq!(shown_rows(&dom), (69_900..70_000).collect::<Vec<_>>());
    let dom = site_dom(&bin, &format!("{url}#page=1275"));
    assert_eq!(shown_rows(&dom), (127_400..127_475).collect::<Vec<_>>());
    // a player: every row names them
    let dom = site_dom(&bin, &format!("{url}#q=tastet%20marc"));
    let rows = shown_rows(&dom);
    let count = text_of(&dom, "count").to_string();
    assert_eq!(rows.len(), 100, "{count}");
    assert!(count.ends_with(" of 127475 games"), "{count}");
    for &n in &rows {
        let cells = index_row(&dom, n);
        assert!(
            cells.get(5).is_some_and(|p| p.contains("Tastet Marc")),
            "{cells:?}"
        );
    }
    // game 100,000 at ply 20: the 100,001st of the files in order
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::WTHOR_DIR)
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wtb"))
        .collect();
    files.sort();
    let mut left = 100_000;
    for f in &files {
        let games = (std::fs::metadata(f).unwrap().len() as usize - 16) / 68;
        if left < games {
            let file = f.to_string_lossy().into_owned();
            site_view(&bin, &url, 100_000, (&file, left + 1), 20);
            break;
        }
        left -= games;
    }
    std::fs::remove_dir_all(&dir).ok();
}
