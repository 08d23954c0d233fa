//! Generated corpora for the speed table (`benches/table.rs`,
//! `examples/gencorpus.rs`, `benches/compare.sh`): random legal games from a
//! fixed seed, so nothing large is committed.
//!
//! - Reversi: games played to the end with uniformly random legal moves, as a
//!   WTHOR file (`wthor_file`) or as gamerec text with the tags the WTHOR
//!   reader writes (`reversi_text`);
//! - Blokus, Deblockle, Blokus 3D: random legal games through the game's `Rules`
//!   (`random_text`); forced passes are left out, as the container allows;
//! - Qwirkle: the valid fixtures repeated (a random Qwirkle game needs the
//!   hidden bag's draws, which the fixtures record).

#![allow(dead_code)]

use gamerec::game::{Parsed, Position, Rules};
use gamerec::games::reversi::engine::{Bitboard, flips, legal_moves};
use gamerec::games::reversi::notation::square_name;
use gamerec::record::{Tag, Tags, Token, format_result};
use gamerec::span::Span;

/// A xorshift64 generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.0 = s;
        s
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One random Reversi game to the end: its squares (forced passes implied)
/// and black's `wof` score (empty squares go to the winner).
pub fn reversi_game(rng: &mut Rng) -> (Vec<u8>, u8) {
    let mut pos = Bitboard::START;
    let mut squares = Vec::with_capacity(60);
    while !pos.is_over() {
        let (p, o) = pos.mover();
        let legal = legal_moves(p, o);
        if legal == 0 {
            pos.pass();
            continue;
        }
        let mut bits = legal;
        for _ in 0..rng.below(legal.count_ones() as usize) {
            bits &= bits - 1;
        }
        let sq = bits.trailing_zeros();
        pos.play(sq, flips(p, o, sq));
        squares.push(sq as u8);
    }
    let (b, w) = (pos.black.count_ones(), pos.white.count_ones());
    let empty = 64 - b - w;
    let black = match b.cmp(&w) {
        std::cmp::Ordering::Greater => b + empty,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => b + empty / 2,
    };
    (squares, black as u8)
}

/// A WTHOR `.wtb` file of `n` random games (year 2004; players and
/// tournaments numbered, no names file).
pub fn wthor_file(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(16 + 68 * n);
    out.extend_from_slice(&[20, 24, 1, 1]);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&2004u16.to_le_bytes());
    out.extend_from_slice(&[8, 0, 0, 0]);
    for i in 0..n {
        let (squares, black) = reversi_game(&mut rng);
        out.extend_from_slice(&((i % 100) as u16).to_le_bytes());
        out.extend_from_slice(&((i % 1000) as u16).to_le_bytes());
        out.extend_from_slice(&((i * 7 % 1000) as u16).to_le_bytes());
        out.push(black);
        out.push(black);
        let mut moves = [0u8; 60];
        for (m, &sq) in moves.iter_mut().zip(&squares) {
            *m = 10 * (sq / 8 + 1) + (sq % 8 + 1);
        }
        out.extend_from_slice(&moves);
    }
    out
}

/// `n` random Reversi games as gamerec text, tagged as the WTHOR reader
/// writes them, moves as squares separated by spaces.
pub fn reversi_text(n: usize, seed: u64) -> String {
    let mut rng = Rng(seed | 1);
    let mut out = String::with_capacity(n * 350);
    for i in 0..n {
        let (squares, black) = reversi_game(&mut rng);
        out.push_str(&format!(
            "[Game \"reversi\"]\n[Variant \"wof\"]\n[Event \"Tournament {}\"]\n\
             [Black \"Player {}\"]\n[White \"Player {}\"]\n[Date \"2004\"]\n\
             [Result \"{}-{}\"]\n[TheoreticalScore \"{black}\"]\n\n",
            i % 100,
            i % 1000,
            i * 7 % 1000,
            black,
            64 - u32::from(black),
        ));
        for (k, &sq) in squares.iter().enumerate() {
            out.push_str(&square_name(sq));
            out.push(if k % 27 == 26 { '\n' } else { ' ' });
        }
        out.push_str("\n\n");
    }
    out
}

fn tags(pairs: &[(&str, &str)]) -> Tags {
    Tags(
        pairs
            .iter()
            .map(|(n, v)| Tag {
                name: n.to_string(),
                value: v.to_string(),
                span: Span::default(),
                value_span: Span::default(),
            })
            .collect(),
    )
}

/// One random legal game of `R` from the tags, at most `max_plies` moves:
/// the movetext (forced passes left out) and the final state.
pub fn random_game<R: Rules>(
    pairs: &[(&str, &str)],
    rng: &mut Rng,
    max_plies: usize,
) -> Option<(String, R::Position)> {
    let mut state = R::start(&tags(pairs)).ok()?;
    let mut text = String::new();
    for ply in 0..max_plies {
        if Position::is_over(&state) {
            break;
        }
        if Position::must_pass(&state) {
            let pass = Parsed {
                mv: <R::Position as Position>::pass(),
                span: Span::default(),
                token: 0,
                parts: Default::default(),
            };
            R::judge(&mut state, &pass).ok()?;
            continue;
        }
        let legal = R::legal_move_texts(&state).ok()?;
        let chosen = legal.get(rng.below(legal.len()))?.clone();
        let mut tokens = Vec::new();
        let mut at = 0;
        for word in chosen.split(' ') {
            if !word.is_empty() {
                tokens.push(Token::new(Span::new(at, word.len())));
            }
            at += word.len() + 1;
        }
        let parsed = R::parse_moves_in(&state, &tokens, &chosen);
        let mv = parsed.moves.first()?;
        R::judge(&mut state, mv).ok()?;
        text.push_str(&chosen);
        text.push(if ply % 8 == 7 { '\n' } else { ' ' });
    }
    Some((text, state))
}

/// `n` random games of `R` as gamerec text, each with its `Result` when over.
pub fn random_text<R: Rules>(
    n: usize,
    seed: u64,
    pairs: &[(&str, &str)],
    max_plies: usize,
) -> String {
    let mut rng = Rng(seed | 1);
    let mut out = String::new();
    for _ in 0..n {
        let Some((moves, state)) = random_game::<R>(pairs, &mut rng, max_plies) else {
            continue;
        };
        for (name, value) in pairs {
            out.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        if Position::is_over(&state) {
            out.push_str(&format!(
                "[Result \"{}\"]\n",
                format_result(&Position::scores(&state))
            ));
        }
        out.push('\n');
        out.push_str(&moves);
        out.push_str("\n\n");
    }
    out
}

/// Blokus classic, four players.
pub fn blokus_text(n: usize, seed: u64) -> String {
    random_text::<gamerec::games::blokus::Blokus>(n, seed, &[("Game", "blokus")], 200)
}

/// Blokus 3D on the tower, four colours.
pub fn blokus3d_text(n: usize, seed: u64) -> String {
    random_text::<gamerec::games::blokus3d::Blokus3d>(n, seed, &[("Game", "blokus3d")], 60)
}

/// Deblockle, four blocks a side (the set-up of a fixture game).
pub fn deblockle_text(n: usize, seed: u64) -> String {
    random_text::<gamerec::games::deblockle::Deblockle>(
        n,
        seed,
        &[
            ("Game", "deblockle"),
            (
                "SetupGold",
                "c1 hoops/stop, e1 stop/slider, c3 stop/slider, e3 x/star",
            ),
            (
                "SetupBlue",
                "c5 hoops/star, e5 cross/stop, c7 stop/hoops, e7 slider/cross",
            ),
        ],
        120,
    )
}

/// The valid Qwirkle fixtures, repeated to `n` games.
pub fn qwirkle_text(n: usize) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/qwirkle/valid");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "gamerec"))
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::new();
    for i in 0..n {
        if let Some(f) = files.get(i % files.len().max(1)) {
            out.push_str(f);
            out.push_str("\n\n");
        }
    }
    out
}
