//! Engine speed of Blokus (classic, Duo, Trigon), Qwirkle and Deblockle:
//! perft where it applies, move generation alone, and whole fixture games
//! parsed and replayed.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::record::parse_file;
use gamerec::replay::{Options, replay};

fn perft(game: &str, variant: Option<&str>, depth: u32) -> u64 {
    gamerec::games::by_name(game)
        .and_then(|g| g.perft(variant, depth).ok())
        .unwrap_or(0)
}

fn perft_players(game: &str, variant: Option<&str>, players: u8, depth: u32) -> u64 {
    gamerec::games::by_name(game)
        .and_then(|g| g.perft_players(variant, players, depth).ok())
        .unwrap_or(0)
}

/// Trigon move generation alone: every placement of the colour to move in
/// positions along a whole game (counted, not collected).
fn trigon_movegen(c: &mut Criterion) {
    use gamerec::games::blokus::trigon::board::Board;
    let mut positions = Vec::new();
    let mut b = Board::new(false);
    let mut k = 0usize;
    while !b.is_over() {
        positions.push(b.clone());
        let moves = b.moves(b.to_move);
        match moves.get(k * 7919 % moves.len().max(1)) {
            Some(&m) => b.place(m),
            None => b.pass(),
        }
        k += 1;
    }
    let total: u64 = positions.iter().map(|p| p.count_moves(p.to_move)).sum();
    let mut g = c.benchmark_group("trigon movegen");
    g.sample_size(20);
    g.throughput(Throughput::Elements(total));
    g.bench_function("placements along a game", |bch| {
        bch.iter(|| {
            positions
                .iter()
                .map(|p| p.count_moves(p.to_move))
                .sum::<u64>()
        })
    });
    g.finish();
}

/// The same for classic Blokus, for comparison.
fn classic_movegen(c: &mut Criterion) {
    use gamerec::games::blokus::engine::Board;
    let mut positions = Vec::new();
    let mut b = Board::classic();
    let mut k = 0usize;
    while !b.is_over() {
        positions.push(b.clone());
        let moves = b.moves(b.to_move);
        match moves.get(k * 7919 % moves.len().max(1)) {
            Some(&m) => b.place(m),
            None => b.pass(),
        }
        k += 1;
    }
    let total: u64 = positions.iter().map(|p| p.count_moves(p.to_move)).sum();
    let mut g = c.benchmark_group("classic movegen");
    g.sample_size(20);
    g.throughput(Throughput::Elements(total));
    g.bench_function("placements along a game", |bch| {
        bch.iter(|| {
            positions
                .iter()
                .map(|p| p.count_moves(p.to_move))
                .sum::<u64>()
        })
    });
    g.finish();
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
    replay_fixture(
        c,
        "deblockle",
        "fixtures/deblockle/valid/gold_removes_all_four.gamerec",
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
