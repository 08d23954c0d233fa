//! Tests of the replay through the registry: reused reports and buffers,
//! the description kept in place of the tags.

use super::*;
use crate::game::Rules;
use crate::record::parse_file;
use crate::replay::{GameReport, Options, describe};

/// Every `.gamerec` fixture under `dir`, in a fixed order.
fn fixture_texts(dir: &std::path::Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            fixture_texts(&p, out);
        } else if p.extension().is_some_and(|e| e == "gamerec") {
            out.extend(std::fs::read_to_string(&p).ok());
        }
    }
}

/// A report reused game after game (the last game's, of any game, valid
/// or not) comes out as a fresh one, under every set of options the
/// commands use.
#[test]
fn reused_reports_are_fresh_reports() {
    let mut texts = Vec::new();
    fixture_texts(std::path::Path::new("fixtures"), &mut texts);
    assert!(texts.len() > 100, "fixtures found: {}", texts.len());
    /// Everything a report can keep.
    #[derive(Debug)]
    struct Everything;
    impl crate::replay::Sink for Everything {
        fn records_moves(&self) -> bool {
            true
        }
        fn end(&self, report: &mut GameReport, end: &dyn crate::replay::sink::End) {
            report.result_extras = end.result_extras();
            report.score_notes = end.score_notes();
        }
    }
    let quiet = Options::keeping(crate::replay::sink::Verdict);
    let convert = Options::keeping(Everything);
    for opts in [Options::default(), quiet, convert] {
        let mut spare = GameReport::default();
        for text in &texts {
            for raw in parse_file(text) {
                let fresh = replay(&raw, text, &opts);
                replay_into(&raw, text, &opts, &mut spare);
                assert_eq!(spare, fresh);
            }
        }
    }
}

/// A game's moves read into a reused buffer (holding another game's
/// moves) are the moves read fresh, with the same error.
fn reads_into_a_used_buffer<R: Rules>(games: &[(RawGame, &str)]) -> usize {
    let mut buffer = Vec::new();
    let mut read = 0;
    for (raw, src) in games {
        let Ok(start) = R::start(&raw.tags) else {
            continue;
        };
        let fresh = R::parse_moves_in(&start, &raw.tokens, src);
        let error = R::parse_moves_into(&start, &raw.tokens, src, &mut buffer);
        assert_eq!(format!("{buffer:?}"), format!("{:?}", fresh.moves));
        assert_eq!(format!("{error:?}"), format!("{:?}", fresh.error));
        read += 1;
    }
    read
}

#[test]
fn moves_read_into_a_reused_buffer_are_moves_read_fresh() {
    use crate::games::reversi::Reversi;
    use crate::games::{blokus::Blokus, deblockle::Deblockle, qwirkle::Qwirkle};
    let mut texts = Vec::new();
    fixture_texts(std::path::Path::new("fixtures"), &mut texts);
    let games: Vec<(RawGame, &str)> = texts
        .iter()
        .flat_map(|t| parse_file(t).into_iter().map(move |g| (g, t.as_str())))
        .collect();
    for read in [
        reads_into_a_used_buffer::<Reversi>(&games),
        reads_into_a_used_buffer::<Blokus>(&games),
        reads_into_a_used_buffer::<Qwirkle>(&games),
        reads_into_a_used_buffer::<Deblockle>(&games),
    ] {
        assert!(read > 20, "{read} games read");
    }
}

/// `describe` gives the same text from the kept tags and from `about`.
#[test]
fn about_is_describe_of_the_tags() {
    let brief = Options::keeping(crate::replay::sink::Brief);
    let text = "[Event \"Club, round 2\"]\n[White \"W\"]\n[Black \"B\"]\n[Game \"reversi\"]\nf5 d6\n\n\
        [Black \"only\"]\n[Game \"reversi\"]\nf5\n\n\
        [Event \"\"]\n[White \"w\"]\n[Game \"nope\"]\n[Gold \"g\"]\nf5\n\n\
        [Game \"reversi\"]\n[Variant \"bad\"]\n[White \"x\"]\n[Black \"y\"]\nf5\n\n\
        [Game \"deblockle\"]\n[Gold \"G\"]\n[Blue \"Bl\"]\n[Event \"E\"]\nf5\n\n\
        [Game \"reversi\"]\nf5\n";
    let games = parse_file(text);
    assert_eq!(games.len(), 6);
    let mut seen = Vec::new();
    for g in &games {
        let full = replay(g, text, &Options::default());
        let lean = replay(g, text, &brief);
        assert!(lean.tags.is_empty());
        assert_eq!(lean.about.as_deref(), Some(describe(&full).as_str()));
        assert_eq!(describe(&lean), describe(&full));
        seen.push(describe(&full));
    }
    assert_eq!(
        seen,
        [
            "Club, round 2, B vs W",
            "only",
            ", w vs g",
            "x vs y",
            "E, G vs Bl",
            ""
        ]
    );
}

/// The typed errors of lookups and perft say what the strings said, and are
/// `std::error::Error`s.
#[test]
fn typed_errors_keep_their_messages() {
    let unknown = super::lookup("reversy").err().expect("no such game");
    assert_eq!(
        unknown.to_string(),
        format!("unknown game `reversy` ({})", super::unknown_help("reversy"))
    );
    assert!(unknown.to_string().contains("did you mean `reversi`?"));
    let reversi = super::lookup("Othello").expect("an alias");
    let players = reversi.perft_players(None, 3, 1).expect_err("no players");
    assert_eq!(players.to_string(), "reversi perft takes no --players (asked for 3)");
    let variant = reversi.perft(Some("nope"), 1).expect_err("no such variant");
    assert!(
        variant.to_string().starts_with("unknown reversi variant `nope` (known: "),
        "{variant}"
    );
    let errors: [&dyn std::error::Error; 3] = [&unknown, &players, &variant];
    assert!(errors.iter().all(|e| e.source().is_none()));
    let size = crate::games::reversi::perft_sized(5, 1).expect_err("odd size");
    assert!(size.to_string().starts_with("board size "), "{size}");
}
