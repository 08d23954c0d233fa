//! Compressed input and output (gzip, zstd, bzip2, xz): every fixture read
//! compressed with each codec gives the report of the plain file; a WTHOR
//! year read compressed (a `.wtb.gz` is WTHOR by its inner extension, a
//! gzip file of two members too); truncated and corrupted files are one
//! clear error after the games before the damage; `convert -o FILE.gz`
//! (and the others) writes what the codec's own decoder reads back to the
//! plain output; `fix` keeps a file's codec; standard input compressed; a
//! directory scan of compressed files. The compressed inputs are made here
//! with the codecs' crates. The whole database as each codec is an
//! `#[ignore]` test.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use common::gamerec;

/// The codecs, by the extension of their files.
const CODECS: [&str; 4] = ["gz", "zst", "bz2", "xz"];

/// `bytes` compressed as the codec of extension `ext` says (bzip2 at its
/// fastest level, whose blocks are 100 kB: a cut file still holds whole
/// blocks).
fn compress(ext: &str, bytes: &[u8]) -> Vec<u8> {
    match ext {
        "gz" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        "zst" => zstd::encode_all(bytes, 3).unwrap(),
        "bz2" => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        "xz" => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        _ => unreachable!("{ext}"),
    }
}

/// `bytes` decompressed with the codec's own decoder.
fn decompress(ext: &str, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match ext {
        "gz" => flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap(),
        "zst" => zstd::stream::read::Decoder::new(bytes)
            .unwrap()
            .read_to_end(&mut out)
            .unwrap(),
        "bz2" => bzip2::read::MultiBzDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap(),
        "xz" => liblzma::read::XzDecoder::new_multi_decoder(bytes)
            .read_to_end(&mut out)
            .unwrap(),
        _ => unreachable!("{ext}"),
    };
    out
}

/// Runs `gamerec ARGS`, file names given as paths.
fn run(args: &[&str], paths: &[&Path], stdin: &[u8]) -> common::Run {
    let names: Vec<String> = paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(names.iter().map(String::as_str));
    gamerec(&all, stdin)
}

/// A run's output with `from` written as `to` (a compressed file's name
/// as the plain file's).
fn renamed(r: &common::Run, from: &str, to: &str) -> (i32, String, String) {
    (
        r.code,
        r.stdout.replace(from, to),
        r.stderr.replace(from, to),
    )
}

/// The WTHOR names files of `dir`, copied into `into`.
fn copy_names(dir: &Path, into: &Path) {
    for name in ["WTHOR.JOU", "WTHOR.TRN"] {
        let from = dir.join(name);
        if from.is_file() {
            std::fs::copy(&from, into.join(name)).unwrap();
        }
    }
}

#[test]
fn every_fixture_compressed_gives_the_plain_report() {
    let work = tempfile::tempdir().unwrap();
    let files = common::fixture_files(Path::new("fixtures"));
    assert!(files.len() > 100, "{}", files.len());
    for (i, fixture) in files.iter().enumerate() {
        // each fixture in a folder of its own, with its names files
        let dir = work.path().join(i.to_string());
        std::fs::create_dir(&dir).unwrap();
        copy_names(fixture.parent().unwrap(), &dir);
        let name = fixture.file_name().unwrap().to_string_lossy().into_owned();
        let plain = dir.join(&name);
        let bytes = std::fs::read(fixture).unwrap();
        std::fs::write(&plain, &bytes).unwrap();
        let extra = common::fixture_args(fixture);
        let mut args = vec!["validate", "--format", "json"];
        args.extend(extra.iter().map(String::as_str));
        let want = renamed(&run(&args, &[&plain], b""), "", "");
        for ext in CODECS {
            let packed = dir.join(format!("{name}.{ext}"));
            std::fs::write(&packed, compress(ext, &bytes)).unwrap();
            let got = run(&args, &[&packed], b"");
            let from = packed.to_string_lossy();
            assert_eq!(
                renamed(&got, &from, &plain.to_string_lossy()),
                want,
                "{} as .{ext}",
                fixture.display()
            );
        }
    }
}

#[test]
fn a_wthor_year_compressed_validates_with_the_same_summary() {
    let year = common::one_wthor_year();
    let work = tempfile::tempdir().unwrap();
    copy_names(year.parent().unwrap(), work.path());
    let bytes = std::fs::read(&year).unwrap();
    let plain = work.path().join("WTH_1990.wtb");
    std::fs::write(&plain, &bytes).unwrap();
    // the summary, and the JSON report (which the terminal's line
    // wrapping, longer names, do not change)
    let want = run(&["validate", "-q"], &[&plain], b"");
    assert!(want.stdout.contains(" games, "), "{}", want.stdout);
    let want_json = run(&["validate", "--format", "json"], &[&plain], b"");
    let mut packed: Vec<(PathBuf, Vec<u8>)> = CODECS
        .iter()
        .map(|ext| {
            (
                work.path().join(format!("WTH_1990.wtb.{ext}")),
                compress(ext, &bytes),
            )
        })
        .collect();
    // a gzip file of two members, cut inside a record
    let (a, b) = bytes.split_at(bytes.len() / 2 + 7);
    let mut two = compress("gz", a);
    two.extend(compress("gz", b));
    packed.push((work.path().join("two-members.wtb.gz"), two));
    for (path, data) in &packed {
        std::fs::write(path, data).unwrap();
        let got = run(&["validate", "-q"], &[path], b"");
        assert_eq!(
            renamed(&got, &path.to_string_lossy(), &plain.to_string_lossy()),
            renamed(&want, "", ""),
            "{}",
            path.display()
        );
        let got = run(&["validate", "--format", "json"], &[path], b"");
        let same = renamed(&got, &path.to_string_lossy(), &plain.to_string_lossy())
            == renamed(&want_json, "", "");
        assert!(same, "{}: the JSON reports differ", path.display());
    }
}

/// Games of gamerec text: the same game over and over, numbered by an
/// `Event` tag, about 600 kB.
fn many_games() -> Vec<u8> {
    let game = std::fs::read_to_string("fixtures/reversi/valid/full-game.gamerec").unwrap();
    let mut out = String::new();
    for i in 0..1500 {
        out.push_str(&game.replacen("[Event \"", &format!("[Event \"{i}: "), 1));
        out.push('\n');
    }
    out.into_bytes()
}

/// The summary's counts of a human `validate` run: games read, unreadable.
fn games_read(r: &common::Run) -> usize {
    r.stdout
        .split(" game")
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_truncated_file_is_an_error_after_the_games_before_it() {
    let text = many_games();
    let work = tempfile::tempdir().unwrap();
    let plain = work.path().join("club.gamerec");
    std::fs::write(&plain, &text).unwrap();
    let all = games_read(&run(&["validate", "-q"], &[&plain], b""));
    assert!(all >= 1500, "{all}");
    for ext in CODECS {
        let mut packed = compress(ext, &text);
        let cut = packed.len() * 3 / 4;
        packed.truncate(cut);
        let path = work.path().join(format!("club.gamerec.{ext}"));
        std::fs::write(&path, &packed).unwrap();
        let r = run(&["validate", "-q"], &[&path], b"");
        assert_eq!(r.code, 2, "{}", r.stderr);
        let codec = match ext {
            "gz" => "gzip",
            "zst" => "zstd",
            "bz2" => "bzip2",
            _ => "xz",
        };
        let said = format!(
            "error: {}: cannot read: {codec} data ends early (truncated) after {cut} compressed bytes read",
            path.display()
        );
        assert!(r.stderr.contains(&said), "{ext}: {}", r.stderr);
        let read = games_read(&r);
        assert!(read > 0 && read < all, "{ext}: {read} of {all} games");
        assert!(r.stdout.contains(", 1 unreadable"), "{}", r.stdout);
    }
    // the whole message, as the user sees it
    let path = work.path().join("club.gamerec.gz");
    let r = run(&["validate", "-q"], &[&path], b"");
    let dir = format!("{}/", work.path().display());
    insta::assert_snapshot!("truncated_gzip", renamed(&r, &dir, "").2);
}

#[test]
fn a_corrupted_file_is_an_error_after_the_games_before_it() {
    let text = many_games();
    let work = tempfile::tempdir().unwrap();
    for ext in ["gz", "zst", "bz2", "xz"] {
        let mut packed = compress(ext, &text);
        // bytes changed two thirds of the way in
        let at = packed.len() * 2 / 3;
        for b in packed.iter_mut().skip(at).take(16) {
            *b ^= 0x5a;
        }
        let path = work.path().join(format!("club.gamerec.{ext}"));
        std::fs::write(&path, &packed).unwrap();
        let r = run(&["validate", "-q"], &[&path], b"");
        assert_eq!(r.code, 2, "{ext}: {}", r.stderr);
        let said = format!("error: {}: cannot read: ", path.display());
        assert!(r.stderr.contains(&said), "{ext}: {}", r.stderr);
        assert!(
            r.stderr.contains(" data is damaged (") && r.stderr.contains(" compressed bytes read"),
            "{ext}: {}",
            r.stderr
        );
        assert!(games_read(&r) > 0, "{ext}: {}", r.stdout);
        assert!(r.stdout.contains(", 1 unreadable"), "{}", r.stdout);
    }
}

#[test]
fn convert_compresses_by_the_output_extension() {
    let work = tempfile::tempdir().unwrap();
    let input = Path::new("fixtures/reversi/valid/full-game.gamerec");
    for to in ["gamerec", "json", "yaml"] {
        let want = run(&["convert", "--to", to], &[input], b"");
        assert_eq!(want.code, 0, "{}", want.stderr);
        for ext in CODECS {
            let out = work.path().join(format!("out.{to}.{ext}"));
            let o = out.to_string_lossy().into_owned();
            let r = run(&["convert", "--to", to, "-o", &o], &[input], b"");
            assert_eq!(r.code, 0, "{}", r.stderr);
            let written = std::fs::read(&out).unwrap();
            assert_eq!(
                String::from_utf8(decompress(ext, &written)).unwrap(),
                want.stdout,
                "--to {to} -o {o}"
            );
            // and gamerec reads it back as the same games
            let back = run(&["convert", "--to", to], &[&out], b"");
            assert_eq!(back.stdout, want.stdout, "{o}");
        }
    }
    // a WTHOR file: its header, written last, is in the compressed file
    let year = Path::new("fixtures/wthor/valid/WTH_1978.wtb");
    let out = work.path().join("w").join("WTH_1978.wtb.zst");
    let o = out.to_string_lossy().into_owned();
    let r = run(&["convert", "--to", "wthor", "-o", &o], &[year], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let plain = decompress("zst", &std::fs::read(&out).unwrap());
    let want = run(&["validate"], &[year], b"");
    let got = run(&["validate"], &[&out], b"");
    assert_eq!(games_read(&got), games_read(&want), "{}", got.stdout);
    assert_eq!(plain.len(), std::fs::read(year).unwrap().len());
    // no temporary file is left beside the output
    let left: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn fix_keeps_the_codec_of_a_compressed_file() {
    let work = tempfile::tempdir().unwrap();
    // a legal game whose Result claims a score the replay does not give
    let text = std::fs::read_to_string("fixtures/reversi/valid/full-game.gamerec").unwrap();
    let scrambled = text.replacen("[Result \"21-43\"]", "[Result \"1-63\"]", 1);
    assert_ne!(scrambled, text);
    let plain_dir = work.path().join("plain");
    std::fs::create_dir(&plain_dir).unwrap();
    let plain = plain_dir.join("g.gamerec");
    std::fs::write(&plain, &scrambled).unwrap();
    let fixed = work.path().join("fixed");
    let f = fixed.to_string_lossy().into_owned();
    let r = run(&["fix", "-o", &f], &[&plain], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Result \"1-63\" -> "), "{}", r.stdout);
    let want = std::fs::read(fixed.join("g.gamerec")).unwrap();
    assert_ne!(want, scrambled.as_bytes());
    for ext in CODECS {
        let name = format!("g.gamerec.{ext}");
        let packed = work.path().join(&name);
        std::fs::write(&packed, compress(ext, scrambled.as_bytes())).unwrap();
        // -o DIR: the same codec, the fixed text
        let r = run(&["fix", "-o", &f], &[&packed], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains(&format!("{name}:")), "{}", r.stdout);
        let out = std::fs::read(fixed.join(&name)).unwrap();
        assert_eq!(decompress(ext, &out), want, "-o DIR, .{ext}");
        // --in-place: the same, the original kept
        let r = run(&["fix", "--in-place"], &[&packed], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let out = std::fs::read(&packed).unwrap();
        assert_eq!(decompress(ext, &out), want, "--in-place, .{ext}");
        let orig = std::fs::read(work.path().join(format!("{name}.orig"))).unwrap();
        assert_eq!(decompress(ext, &orig), scrambled.as_bytes());
    }
}

#[test]
fn standard_input_compressed() {
    let text = std::fs::read("fixtures/reversi/valid/full-game.gamerec").unwrap();
    let want = gamerec(&["validate", "--format", "json", "-"], &text);
    let wtb = std::fs::read("fixtures/wthor/valid/WTH_1978.wtb").unwrap();
    let want_wtb = gamerec(&["validate", "--from", "wthor", "-"], &wtb);
    for ext in CODECS {
        let got = gamerec(
            &["validate", "--format", "json", "-"],
            &compress(ext, &text),
        );
        assert_eq!(
            (got.code, &got.stdout, &got.stderr),
            (want.code, &want.stdout, &want.stderr),
            ".{ext}"
        );
        let got = gamerec(&["validate", "--from", "wthor", "-"], &compress(ext, &wtb));
        assert_eq!(
            (got.code, &got.stdout, &got.stderr),
            (want_wtb.code, &want_wtb.stdout, &want_wtb.stderr),
            ".{ext}"
        );
    }
    // WTHOR on standard input wants --from wthor, compressed or not
    let got = gamerec(&["validate", "-"], &compress("gz", &wtb));
    assert_eq!(got.code, 2);
    assert!(got.stderr.contains("pass --from wthor"), "{}", got.stderr);
}

#[test]
fn a_directory_scan_reads_compressed_files_by_their_inner_extension() {
    let work = tempfile::tempdir().unwrap();
    let plain = work.path().join("plain");
    let packed = work.path().join("packed");
    std::fs::create_dir(&plain).unwrap();
    std::fs::create_dir(&packed).unwrap();
    let files = [
        ("fixtures/reversi/valid/full-game.gamerec", "club.gamerec"),
        ("fixtures/wthor/valid/WTH_1978.wtb", "WTH_1978.wtb"),
        ("fixtures/transcript/valid/games.txt", "notes.txt"),
    ];
    copy_names(Path::new("fixtures/wthor/valid"), &plain);
    copy_names(Path::new("fixtures/wthor/valid"), &packed);
    for (i, (from, name)) in files.iter().enumerate() {
        let Ok(bytes) = std::fs::read(from) else {
            continue;
        };
        std::fs::write(plain.join(name), &bytes).unwrap();
        let ext = CODECS[i % CODECS.len()];
        std::fs::write(packed.join(format!("{name}.{ext}")), compress(ext, &bytes)).unwrap();
    }
    // not read: what the inner extension names is no record gamerec reads
    std::fs::write(packed.join("photo.png.gz"), compress("gz", b"\x89PNG")).unwrap();
    let want = run(&["validate"], &[&plain], b"");
    let got = run(&["validate"], &[&packed], b"");
    assert_eq!(got.code, want.code, "{}", got.stderr);
    assert!(games_read(&want) > 2, "{}", want.stdout);
    assert_eq!(
        got.stdout.lines().last(),
        want.stdout.lines().last(),
        "{}",
        got.stderr
    );
    let dir = format!("{}/", packed.display());
    insta::assert_snapshot!(
        "scan_of_compressed_files",
        renamed(
            &run(&["validate", "--format", "json"], &[&packed], b""),
            &dir,
            ""
        )
        .1
    );
}

#[test]
#[ignore = "needs ../shared/data/wthor (run with --ignored)"]
fn compressed_database() {
    let Some(years) = common::wthor_years(None) else {
        return;
    };
    let dir = Path::new(common::WTHOR_DIR);
    let want = run(&["validate", "-q"], &[dir], b"");
    assert!(games_read(&want) > 100_000, "{}", want.stdout);
    for ext in CODECS {
        let work = tempfile::tempdir().unwrap();
        copy_names(dir, work.path());
        for year in &years {
            let name = year.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(year).unwrap();
            std::fs::write(
                work.path().join(format!("{name}.{ext}")),
                compress(ext, &bytes),
            )
            .unwrap();
        }
        let got = run(&["validate", "-q"], &[work.path()], b"");
        eprintln!(".{ext}: {}", got.stdout.trim());
        assert_eq!(got.code, want.code, ".{ext}: {}", got.stderr);
        assert_eq!(got.stdout, want.stdout, ".{ext}");
    }
}

#[test]
fn a_zstd_frame_asking_for_a_huge_window_is_refused() {
    // zstd --long=27 on a stream: a 128 MiB window, over the decoder's bound
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    e.window_log(27).unwrap();
    e.long_distance_matching(true).unwrap();
    e.write_all(b"[Game \"reversi\"]\nf5 d6\n").unwrap();
    let packed = e.finish().unwrap();
    let r = gamerec(&["validate", "-"], &packed);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("zstd data needs more memory to decode than gamerec allows"),
        "{}",
        r.stderr
    );
}
