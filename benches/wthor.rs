//! WTHOR games read and replayed per second, on one core (the spec's goal:
//! 1,000,000 per second). Uses `../shared/data/wthor/WTH_2004.wtb` beside the
//! repository when present, else the small year in the fixtures.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::formats;
use gamerec::replay::{Options, replay};

fn load() -> (String, Vec<u8>) {
    for f in [
        "../shared/data/wthor/WTH_2004.wtb",
        "fixtures/wthor/valid/WTH_1978.wtb",
    ] {
        if let Ok(b) = std::fs::read(f) {
            return (f.to_string(), b);
        }
    }
    (String::new(), Vec::new())
}

fn bench(c: &mut Criterion) {
    let (name, bytes) = load();
    if bytes.is_empty() {
        return;
    }
    let opts = Options::default();
    let games = formats::read(&name, bytes.clone(), None)
        .map(|i| i.games.len())
        .unwrap_or(0);
    let mut g = c.benchmark_group("wthor");
    g.throughput(Throughput::Elements(games as u64));
    g.sample_size(10);
    g.bench_function("read_and_replay_one_core", |b| {
        b.iter(|| {
            let input = formats::read(&name, bytes.clone(), None).expect("a WTHOR file");
            let valid = input
                .games
                .iter()
                .filter(|raw| {
                    formats::wthor::fast_report(raw, &input.text)
                        .unwrap_or_else(|| replay(raw, &input.text, &opts))
                        .valid
                })
                .count();
            assert_eq!(valid, games);
        })
    });
    g.bench_function("replay_generic_driver_one_core", |b| {
        let input = formats::read(&name, bytes.clone(), None).expect("a WTHOR file");
        b.iter(|| {
            input
                .games
                .iter()
                .filter(|raw| replay(raw, &input.text, &opts).valid)
                .count()
        })
    });
    g.bench_function("read_only", |b| {
        b.iter(|| formats::read(&name, bytes.clone(), None).map(|i| i.games.len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
