//! `convert --to json`'s own writer and the WTHOR fast path it uses, against
//! what they stand for, on random input:
//! - `formats::json::write_report` gives the bytes serde_json gives for the
//!   report's document form (`model::ReportDoc`), for random legal games of
//!   every game and for reports holding arbitrary strings;
//! - a clean WTHOR record replayed from its bytes with the moves recorded
//!   (`wthor::Record::replay_packed`, the driver's packed replay) gives the
//!   report of the generic driver
//!   on its text, for random games with one byte changed.

mod common;
#[path = "../benches/support/corpus.rs"]
mod corpus;

use common::config;

use std::sync::Arc;

use gamerec::formats::{self, json, wthor};
use gamerec::model::ReportDoc;
use gamerec::registry::replay;
use gamerec::replay::{GameReport, MoveRecord, Options};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// What `convert` asks of a replay.
fn convert() -> Options {
    Options::keeping(gamerec::sink::Record)
}

/// Checks [`json::write_report`] against serde_json at a few indentations.
fn check_written(report: &GameReport) -> Result<(), TestCaseError> {
    for indent in [0, 4, 8] {
        let mut want = Vec::new();
        prop_assert!(json::write_pretty_at(&mut want, &ReportDoc::of(report), indent).is_ok());
        let mut out = Vec::new();
        json::write_report(&mut out, report, indent);
        prop_assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&want)
        );
    }
    Ok(())
}

/// Every game of gamerec `text`, replayed as `convert` replays it.
fn reports(text: &str) -> Vec<GameReport> {
    let Ok(input) = formats::read("random.gamerec", text.as_bytes().to_vec(), None) else {
        return Vec::new();
    };
    input
        .games
        .iter()
        .map(|raw| replay(raw, &input.text, &convert()))
        .collect()
}

fn any_string() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..12).prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn random_games_are_written_as_serde_json_writes_them(seed in any::<u64>()) {
        use gamerec::games::{blokus::Blokus, reversi::Reversi};
        let mut texts = vec![
            corpus::random_text::<Reversi>(2, seed, &[("Game", "reversi")], 70),
            corpus::random_text::<Reversi>(2, seed, &[("Game", "reversi"), ("Variant", "wof")], 70),
            corpus::random_text::<Reversi>(1, seed, &[("Game", "reversi"), ("Size", "10")], 30),
            corpus::random_text::<Blokus>(1, seed, &[("Game", "blokus")], 40),
            corpus::random_text::<Blokus>(1, seed, &[("Game", "blokus"), ("Variant", "duo")], 40),
            corpus::random_text::<Blokus>(1, seed, &[("Game", "blokus"), ("Variant", "trigon")], 24),
        ];
        texts.push(corpus::deblockle_text(1, seed));
        let mut games = 0;
        for text in &texts {
            for report in reports(text) {
                check_written(&report)?;
                games += 1;
            }
        }
        prop_assert!(games >= 6, "{} games", games);
    }

    #[test]
    fn arbitrary_strings_are_written_as_serde_json_writes_them(
        tags in prop::collection::vec((any_string(), any_string()), 0..4),
        comment in prop::option::of(any_string()),
        notations in prop::collection::vec((any_string(), prop::option::of(any_string()), any::<bool>()), 0..4),
        rows in prop::collection::vec(any_string(), 0..3),
        key in any_string(),
        number in any::<i64>(),
        float in any::<f64>(),
    ) {
        let extras = match json!({ key.clone(): [number, float, key.clone(), null, {}] }) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        let report = GameReport {
            game: "reversi",
            variant: "wof",
            tags,
            comment,
            seats: &["black", "white"],
            scores: vec![number, -1],
            winners: vec!["white"],
            over: true,
            moves: notations
                .into_iter()
                .enumerate()
                .map(|(i, (notation, n, auto))| MoveRecord {
                    ply: i + 1,
                    player: "black",
                    notation: notation.into(),
                    comment: n.clone(),
                    auto,
                    setup: false,
                    extras: if auto { extras.clone() } else { Map::new() },
                    // a kept property where a number is (any text)
                    props: n
                        .iter()
                        .map(|v| ("GGF_eval".to_string(), v.clone()))
                        .collect(),
                    number: n,
                })
                .collect(),
            result_extras: extras,
            position: rows,
            ..GameReport::default()
        };
        check_written(&report)?;
    }

    #[test]
    fn wthor_records_replayed_from_their_bytes_are_the_drivers(
        seed in any::<u64>(),
        change in prop::option::of((any::<usize>(), any::<u8>())),
    ) {
        let mut bytes = corpus::wthor_file(24, seed);
        // one byte of a record changed (a move, the score, a name's number)
        if let Some((at, b)) = change {
            let at = wthor::HEADER_LEN + at % (bytes.len() - wthor::HEADER_LEN);
            if let Some(x) = bytes.get_mut(at) {
                *x = b;
            }
        }
        let names = Arc::new(wthor::Names::default());
        let Ok(games) = wthor::games(bytes, Box::new(std::io::empty()), names) else {
            return Err(TestCaseError::fail("not read"));
        };
        let mut fast = 0;
        for g in games {
            let Ok(mut g) = g else {
                return Err(TestCaseError::fail("a record not read"));
            };
            let mut quick = GameReport::default();
            let packed = g.record.as_ref().is_some_and(|r| r.replay_packed(&convert(), &mut quick));
            g.materialize();
            let full = replay(&g.raw, &g.text, &convert());
            if packed {
                prop_assert_eq!(&quick, &full);
                check_written(&quick)?;
                fast += 1;
            } else {
                prop_assert!(!full.valid || !full.over || !full.warnings.is_empty());
            }
        }
        // every random game is clean but the changed one
        prop_assert!(fast >= 23, "{} fast", fast);
    }
}
