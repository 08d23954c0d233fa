//! WTHOR games read and replayed per second on one core (the spec's goal:
//! 1,000,000 per second). Uses `../shared/data/wthor/WTH_2004.wtb` beside the
//! repository when present, else the small year in the fixtures.
//!
//! - `records`: what `validate`/`score` do: the file read a record at a
//!   time (`formats::wthor::games`), clean games replayed from their bytes
//!   (`SourceGame::replay`);
//! - `read_then_driver`: the file read into container games, each replayed by
//!   the generic driver (what `show`, `moves` and `convert` build on);
//! - `read_only`: reading alone.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::formats::{self, wthor};
use gamerec::registry::replay;
use gamerec::replay::Options;

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
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else {
        return;
    };
    let opts = Options::default();
    let names = wthor::Names::default();
    let games = formats::read(&name, bytes.clone(), None)
        .map(|i| i.games.len())
        .unwrap_or(0);
    let mut g = c.benchmark_group("wthor");
    g.throughput(Throughput::Elements(games as u64));
    g.sample_size(10);
    let brief = Options::keeping(gamerec::sink::Brief);
    let names = std::sync::Arc::new(names);
    g.bench_function("records_one_core", |b| {
        b.iter(|| {
            pool.install(|| {
                let valid = wthor::games(bytes.clone(), Box::new(std::io::empty()), names.clone())
                    .expect("a WTHOR file")
                    .filter_map(Result::ok)
                    .map(|mut g| g.replay(&brief).valid)
                    .filter(|&valid| valid)
                    .count();
                assert_eq!(valid, games);
            })
        })
    });
    g.bench_function("read_then_driver_one_core", |b| {
        b.iter(|| {
            let input = formats::read(&name, bytes.clone(), None).expect("a WTHOR file");
            let valid = input
                .games
                .iter()
                .filter(|raw| replay(raw, &input.text, &opts).valid)
                .count();
            assert_eq!(valid, games);
        })
    });
    g.bench_function("read_only", |b| {
        b.iter(|| formats::read(&name, bytes.clone(), None).map(|i| i.games.len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
