//! Property tests: random legal Reversi games, written in every accepted
//! style, replay to the same game; converting and re-reading gives the same
//! document; the engine's position agrees with a plain reference.

mod common;

use common::gamerec;
use gamerec::game::{Explain, Parsed, Position, Setup};
use gamerec::games::reversi::engine::{Bitboard, flips, legal_moves};
use gamerec::games::reversi::notation::square_name;
use gamerec::games::reversi::{Move, Reversi};
use gamerec::record::Tags;
use gamerec::span::Span;
use proptest::prelude::*;

/// A legal game chosen by `choices`; `None` entries are forced passes.
fn play_out(choices: &[u8]) -> Vec<Option<u8>> {
    let mut pos = Bitboard::START;
    let mut moves = Vec::new();
    for &c in choices {
        if pos.is_over() {
            break;
        }
        let (p, o) = pos.mover();
        let legal = legal_moves(p, o);
        if legal == 0 {
            pos.pass();
            moves.push(None);
            continue;
        }
        let n = legal.count_ones();
        let mut bits = legal;
        for _ in 0..(u32::from(c) % n) {
            bits &= bits - 1;
        }
        let sq = bits.trailing_zeros();
        pos.play(sq, flips(p, o, sq));
        moves.push(Some(sq as u8));
    }
    // A record ending on a forced pass replays differently with the pass
    // written (a ply) and left out (no ply, spec §2): end on a move.
    while moves.last() == Some(&None) {
        moves.pop();
    }
    moves
}

fn text(moves: &[Option<u8>], style: u8) -> String {
    let squares = moves.iter().map(|m| match m {
        Some(sq) => square_name(*sq),
        None => "pass".into(),
    });
    let body = match style % 4 {
        // spaced, passes written
        0 => squares.collect::<Vec<_>>().join(" "),
        // spaced, passes left out, upper case
        1 => squares
            .filter(|s| s != "pass")
            .map(|s| s.to_uppercase())
            .collect::<Vec<_>>()
            .join(" "),
        // compact, passes left out
        2 => squares.filter(|s| s != "pass").collect::<String>(),
        // numbered, with comments
        _ => squares
            .enumerate()
            .map(|(i, s)| {
                if i % 2 == 0 {
                    format!("{}. {s}", i / 2 + 1)
                } else {
                    format!("{s} {{ c{i} }}")
                }
            })
            .collect::<Vec<_>>()
            .join(" "),
    };
    format!("[Game \"reversi\"]\n\n{body}\n")
}

fn json_of(input: &str) -> String {
    let r = gamerec(&["convert", "--to", "json", "-"], input.as_bytes());
    assert_eq!(r.code, 0, "{}\n{input}", r.stderr);
    r.stdout
}

/// Strips comments, move numbers and the written/automatic mark from a
/// document's moves.
fn without_comments(json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    if let Some(moves) = v["games"][0]["moves"].as_array_mut() {
        for m in moves {
            m["comment"] = serde_json::Value::Null;
            if let Some(obj) = m.as_object_mut() {
                obj.remove("auto");
                obj.remove("number");
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_style_replays_to_the_same_game(choices in prop::collection::vec(any::<u8>(), 0..70)) {
        let moves = play_out(&choices);
        let reference = without_comments(&json_of(&text(&moves, 0)));
        for style in 1..4 {
            prop_assert_eq!(&without_comments(&json_of(&text(&moves, style))), &reference);
        }
    }

    #[test]
    fn convert_and_reread_is_stable(choices in prop::collection::vec(any::<u8>(), 0..70), style in 0u8..4) {
        let json1 = json_of(&text(&play_out(&choices), style));
        let back = gamerec(&["convert", "--to", "gamerec", "-"], json1.as_bytes());
        prop_assert_eq!(back.code, 0);
        prop_assert_eq!(json_of(&back.stdout), json1);
    }

    #[test]
    fn engine_agrees_with_the_rules_trait(choices in prop::collection::vec(any::<u8>(), 0..70)) {
        let moves = play_out(&choices);
        let mut state = Reversi::start(&Tags::default()).map_err(|_| TestCaseError::fail("start"))?;
        for m in &moves {
            let mv = m.map_or(Move::Pass, Move::Place);
            let parsed = Parsed { mv, span: Span::default(), token: 0, parts: () };
            prop_assert!(Reversi::judge(&mut state, &parsed).is_ok());
        }
        let discs: i64 = Position::scores(&state).iter().sum();
        let placed = moves.iter().flatten().count() as i64;
        prop_assert_eq!(discs, 4 + placed);
    }
}
