//! No input may crash the program or make it hang (spec §4).

mod common;

use common::gamerec;

fn survives(input: &[u8]) -> i32 {
    let mut codes = Vec::new();
    for cmd in [
        &["validate", "--game", "reversi", "-"][..],
        &["validate", "--format", "json", "-"][..],
        &["score", "--game", "reversi", "-"][..],
        &["show", "--game", "reversi", "-"][..],
        &["moves", "--game", "reversi", "-"][..],
        &["convert", "--to", "json", "--game", "reversi", "-"][..],
    ] {
        let r = gamerec(cmd, input);
        assert!((0..=2).contains(&r.code), "{cmd:?}: exit {}", r.code);
        codes.push(r.code);
    }
    codes.first().copied().unwrap_or(0)
}

/// A fixed xorshift sequence, so failures are reproducible.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

#[test]
fn random_bytes() {
    for seed in 1..40u64 {
        survives(&noise(200 + seed as usize * 37, seed));
    }
}

#[test]
fn random_text_from_the_notation_alphabet() {
    let alphabet = b"[]{};\"\\ \n\r\tabcdefghpassPA-.0123456789*,@+=<>/:XO";
    for seed in 1..200u64 {
        let text: Vec<u8> = noise(300, seed)
            .into_iter()
            .map(|b| {
                alphabet
                    .get(usize::from(b) % alphabet.len())
                    .copied()
                    .unwrap_or(b' ')
            })
            .collect();
        survives(&text);
    }
}

/// Every game's notation and engine on text made of its own alphabet.
#[test]
fn random_movetext_for_every_game() {
    let alphabets: [(&str, &[u8]); 5] = [
        ("reversi", b"abcdefghij123456789 pass PA -- \n{};"),
        (
            "blokus",
            b"abcdefghijklmnopqrstu0123456789,:ILNPTUVWXYZFO pass\n",
        ),
        ("qwirkle", b"ROYGBPosdcx*@,-0123456789 +=<> swap pass\n"),
        ("deblockle", b"abcdefgh01234567899-/ pass\n"),
        (
            "blokus trigon",
            b"aaaaabcdefghijklmnopqrstuvwxyz0123456789,,,:ILSVPFWAGYXOC pass\n",
        ),
    ];
    let headers: [(&str, &str); 5] = [
        ("reversi", "[Game \"reversi\"]\n"),
        ("blokus", "[Game \"blokus\"]\n[Size \"7\"]\n"),
        ("qwirkle", "[Game \"qwirkle\"]\n[Players \"2\"]\n"),
        (
            "deblockle",
            "[Game \"deblockle\"]\n[SetupGold \"c1 x/stop, e1 stop/cross\"]\n[SetupBlue \"c7 x/slider, e7 hoops/stop\"]\n",
        ),
        (
            "blokus trigon",
            "[Game \"blokus\"]\n[Variant \"trigon\"]\n[Players \"3\"]\n",
        ),
    ];
    for ((game, alphabet), (_, header)) in alphabets.iter().zip(headers.iter()) {
        for seed in 1..60u64 {
            let mut text = header.as_bytes().to_vec();
            text.extend(noise(200, seed * 7919).into_iter().map(|b| {
                alphabet
                    .get(usize::from(b) % alphabet.len())
                    .copied()
                    .unwrap_or(b' ')
            }));
            for cmd in [
                &["validate", "-"][..],
                &["moves", "-"][..],
                &["show", "-"][..],
                &["show", "--svg", "-", "-"][..],
                &["score", "--plot", "-", "-"][..],
                &["html", "-"][..],
            ] {
                let r = gamerec(cmd, &text);
                assert!((0..=2).contains(&r.code), "{game} {cmd:?}: exit {}", r.code);
            }
        }
    }
}

#[test]
fn empty_file_is_no_games() {
    // a run that reads no game is exit 2 (spec §5), unless asked for
    let r = gamerec(&["validate", "-"], b"");
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "0 games, 0 valid, 0 invalid, 0 unfinished\n");
    assert!(r.stderr.contains("no games found"), "{}", r.stderr);
    let r = gamerec(&["validate", "--allow-empty", "-"], b"");
    assert_eq!(r.code, 0);
}

#[test]
fn only_tags() {
    let r = gamerec(&["validate", "-"], b"[Game \"reversi\"]\n[Event \"x\"]\n");
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, "1 game, 1 valid, 0 invalid, 1 unfinished\n");
}

#[test]
fn ten_megabytes_of_one_move() {
    let mut text = b"[Game \"reversi\"]\n".to_vec();
    while text.len() < 10 << 20 {
        text.extend_from_slice(b"f5 ");
    }
    let r = gamerec(&["validate", "--format", "json", "-"], &text);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("reversi::occupied"));
}

#[test]
fn ten_megabytes_of_a_compact_token() {
    let mut text = b"[Game \"reversi\"]\n".to_vec();
    while text.len() < 10 << 20 {
        text.extend_from_slice(b"f5");
    }
    for cmd in [
        &["validate", "--game", "reversi", "-"][..],
        &["convert", "--to", "json", "--game", "reversi", "-"][..],
    ] {
        assert_eq!(gamerec(cmd, &text).code, 1);
    }
}

#[test]
fn a_comment_that_never_ends() {
    let r = gamerec(&["validate", "-"], b"[Game \"reversi\"]\nf5 { d6 c3\n");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("record::unterminated_comment"));
}

#[test]
fn deeply_nested_braces_and_brackets() {
    let mut text = b"[Game \"reversi\"]\nf5 ".to_vec();
    text.extend(std::iter::repeat_n(b'{', 100_000));
    text.extend(std::iter::repeat_n(b'}', 100_000));
    text.extend(std::iter::repeat_n(b'[', 100_000));
    survives(&text);
}

#[test]
fn invalid_utf8_is_a_file_error() {
    let r = gamerec(&["validate", "-"], b"[Game \"reversi\"]\n\xff\xfe f5");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not UTF-8"));
}

/// Every valid fixture, damaged: a byte changed, a token dropped, two tokens
/// swapped. Whatever the verdict, no command may crash.
#[test]
fn damaged_fixtures() {
    let files = common::fixture_files(std::path::Path::new("fixtures"));
    let mut n = 0u64;
    for path in files
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("valid")))
    {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let words: Vec<&str> = text.split(' ').collect();
        for k in 0..6u64 {
            n += 1;
            let r = noise(4, n * 104_729 + k);
            let pick = |i: usize| usize::from(r.get(i).copied().unwrap_or(0));
            let damaged = match k % 3 {
                0 => {
                    let mut b = text.clone().into_bytes();
                    let at = (pick(0) * 257 + pick(1)) % b.len().max(1);
                    if let Some(c) = b.get_mut(at) {
                        *c = b"a1,-/+@=x9 "[pick(2) % 11];
                    }
                    b
                }
                1 => {
                    let drop = (pick(0) * 257 + pick(1)) % words.len().max(1);
                    let w: Vec<&str> = words
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != drop)
                        .map(|(_, w)| *w)
                        .collect();
                    w.join(" ").into_bytes()
                }
                _ => {
                    let mut w = words.clone();
                    let a = (pick(0) * 257 + pick(1)) % w.len().max(1);
                    let b = (pick(2) * 257 + pick(3)) % w.len().max(1);
                    w.swap(a, b);
                    w.join(" ").into_bytes()
                }
            };
            for cmd in [
                &["validate", "-"][..],
                &["moves", "-"][..],
                &["convert", "--to", "json", "-"][..],
                &["html", "-"][..],
            ] {
                let r = gamerec(cmd, &damaged);
                assert!(
                    (0..=2).contains(&r.code),
                    "{} damaged ({k}) {cmd:?}: exit {}",
                    path.display(),
                    r.code
                );
            }
        }
    }
    assert!(n > 0);
}

/// The "N more diagnostics not shown" warning of a game and its count.
fn not_shown(stderr: &str) -> Option<usize> {
    let at = stderr.find(" more diagnostic")?;
    let head = stderr.get(..at)?;
    let digits = head.rsplit(|c: char| !c.is_ascii_digit()).next()?;
    digits.parse().ok()
}

#[test]
fn the_count_of_diagnostics_not_shown_is_every_one_dropped() {
    // 80,000 bad tags (the reader keeps 20) and no game: 79,980 bad tags
    // and the missing game are not shown
    let text = "[bad tag]\n".repeat(80_000);
    let r = gamerec(&["validate", "-"], text.as_bytes());
    assert_eq!(r.code, 1);
    assert_eq!(not_shown(&r.stderr), Some(79_981), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("79981 more diagnostics of this game not shown")
    );
    // a game otherwise fine: the 79,980 dropped ones are still told
    let text = format!("[Game \"reversi\"]\n{text}\n1. f5 d6\n");
    let r = gamerec(&["validate", "-"], text.as_bytes());
    assert_eq!(not_shown(&r.stderr), Some(79_980), "{}", r.stderr);
    // exactly as many as are kept: nothing more to tell
    let text = format!(
        "[Game \"reversi\"]\n{}\n1. f5 d6\n",
        "[bad tag]\n".repeat(20)
    );
    let r = gamerec(&["validate", "-"], text.as_bytes());
    assert_eq!(not_shown(&r.stderr), None, "{}", r.stderr);
    // GGF: repeated properties past the kept ones
    let ggf = format!("(;GM[Othello]{}B[f5];)\n", "PB[x]".repeat(1_001));
    let r = gamerec(&["validate", "--from", "ggf", "-"], ggf.as_bytes());
    assert_eq!(not_shown(&r.stderr), Some(980), "{}", r.stderr);
}
