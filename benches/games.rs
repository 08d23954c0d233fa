//! Engine speed of Blokus, Qwirkle and Deblockle: perft where it applies, and
//! whole fixture games parsed and replayed.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::record::parse_file;
use gamerec::replay::{Options, replay};

fn perft(game: &str, variant: Option<&str>, depth: u32) -> u64 {
    gamerec::games::by_name(game)
        .and_then(|g| g.perft(variant, depth).ok())
        .unwrap_or(0)
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
    g.bench_function("deblockle 3", |b| b.iter(|| perft("deblockle", None, 3)));
    g.finish();
    replay_fixture(c, "blokus", "fixtures/blokus/valid/classic_4p.gamerec");
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
