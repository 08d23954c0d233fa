//! Engine speed of Blokus (classic, Duo, Trigon), Qwirkle and Deblockle:
//! perft where it applies, move generation alone, and whole fixture games
//! parsed and replayed; random whole games of the Blokus 3D tower with
//! four colours (the corpus generator's, as `benches/compare.sh` replays
//! them).

#[path = "support/corpus.rs"]
mod corpus;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::games::blokus::Placements;
use gamerec::record::parse_file;
use gamerec::registry::replay;
use gamerec::replay::Options;

fn perft(game: &str, variant: Option<&str>, depth: u32) -> u64 {
    gamerec::registry::by_name(game)
        .and_then(|g| g.perft(variant, depth).ok())
        .unwrap_or(0)
}

fn perft_players(game: &str, variant: Option<&str>, players: u8, depth: u32) -> u64 {
    gamerec::registry::by_name(game)
        .and_then(|g| g.perft_players(variant, players, depth).ok())
        .unwrap_or(0)
}

/// Move generation alone: every placement of the colour to move in
/// positions along a whole game from `start` (counted, not collected).
fn movegen<B: Placements>(c: &mut Criterion, group: &str, start: B) {
    let mut positions = Vec::new();
    let mut b = start;
    let mut k = 0usize;
    while !b.over() {
        positions.push(b.clone());
        let moves = b.moves(b.side());
        match moves.get(k * 7919 % moves.len().max(1)) {
            Some(&m) => b.play(m),
            None => b.skip(),
        }
        k += 1;
    }
    let total: u64 = positions.iter().map(|p| p.count_moves(p.side())).sum();
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    g.throughput(Throughput::Elements(total));
    g.bench_function("placements along a game", |bch| {
        bch.iter(|| {
            positions
                .iter()
                .map(|p| p.count_moves(p.side()))
                .sum::<u64>()
        })
    });
    g.finish();
}

/// Trigon's move generation, and classic's for comparison.
fn trigon_movegen(c: &mut Criterion) {
    movegen(
        c,
        "trigon movegen",
        gamerec::games::blokus::trigon::board::Board::new(false),
    );
}

fn classic_movegen(c: &mut Criterion) {
    movegen(
        c,
        "classic movegen",
        gamerec::games::blokus::board::Board::classic(),
    );
}

fn replay_fixture(c: &mut Criterion, name: &str, path: &str) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let opts = Options::default();
    let mut g = c.benchmark_group(name);
    g.sample_size(20);
    g.throughput(Throughput::Elements(1));
    g.bench_function("parse and replay (games)", |b| {
        b.iter(|| {
            parse_file(&text)
                .iter()
                .filter(|raw| replay(raw, &text, &opts).valid)
                .count()
        })
    });
    g.finish();
}

/// Random whole games of the tower with four colours, parsed and replayed:
/// the rate the speed table's Blokus 3D row measures (at least 100,000
/// games/s on one thread is the aim). Twice: keeping the verdict only, as
/// `validate -q` does for a valid game (the replay's own cost), and with
/// the default sink, which also copies every tag and builds the JSON
/// report's result extras.
fn tower_games(c: &mut Criterion) {
    let text = corpus::blokus3d_text(1000, 0x2545_f491_4f6c_dd1d);
    let games = parse_file(&text).len() as u64;
    let mut g = c.benchmark_group("blokus3d random tower games");
    g.sample_size(20);
    g.throughput(Throughput::Elements(games));
    for (name, opts) in [
        (
            "parse and replay (games)",
            Options::keeping(gamerec::sink::Verdict),
        ),
        ("parse, replay and JSON extras (games)", Options::default()),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                parse_file(&text)
                    .iter()
                    .filter(|raw| replay(raw, &text, &opts).valid)
                    .count()
            })
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("blokus duo 2", |b| {
        b.iter(|| perft("blokus", Some("duo"), 2))
    });
    g.bench_function("blokus classic 3", |b| b.iter(|| perft("blokus", None, 3)));
    g.bench_function("blokus trigon 2", |b| {
        b.iter(|| perft("blokus", Some("trigon"), 2))
    });
    g.bench_function("blokus trigon 3 players 2", |b| {
        b.iter(|| perft_players("blokus", Some("trigon"), 3, 2))
    });
    g.bench_function("deblockle 3", |b| b.iter(|| perft("deblockle", None, 3)));
    g.bench_function("blokus3d tower 2", |b| {
        b.iter(|| perft("blokus3d", None, 2))
    });
    // the tower with four colours (the default start): the target
    g.bench_function("blokus3d tower 3", |b| {
        b.iter(|| perft("blokus3d", None, 3))
    });
    g.finish();
    replay_fixture(c, "blokus", "fixtures/blokus/valid/classic_4p.gamerec");
    replay_fixture(
        c,
        "blokus trigon",
        "fixtures/blokus/valid/trigon_4p.gamerec",
    );
    classic_movegen(c);
    trigon_movegen(c);
    replay_fixture(
        c,
        "qwirkle",
        "fixtures/qwirkle/valid/full_game_hands_draws.gamerec",
    );
    replay_fixture(c, "blokus3d", "fixtures/blokus3d/valid/tower_4p.gamerec");
    tower_games(c);
    replay_fixture(
        c,
        "deblockle",
        "fixtures/deblockle/valid/gold_removes_all_four.gamerec",
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
