//! One bench per row of the speed table (`docs/speed.md`), on generated
//! corpora (`support/corpus.rs`; the same generator writes the files
//! `benches/compare.sh` runs the binary on). Throughput is games (or perft
//! leaves) per second on one core: every bench runs on the calling thread.
//!
//! ```text
//! cargo bench --bench table
//! ```

#[path = "support/corpus.rs"]
mod corpus;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::formats::{self, ReadOptions, wthor};
use gamerec::games::reversi::engine::{Bitboard, perft};
use gamerec::replay::Options;

/// What `validate -q` keeps of a report.
fn validate_quiet() -> Options {
    Options::keeping(gamerec::sink::Brief)
}

/// What `validate --format json` keeps: every tag and the result extras.
fn validate_json() -> Options {
    Options::default()
}

/// Reads `bytes` as the file `name` through the streaming reader and replays
/// every game: the number of valid games.
fn replay_all(name: &str, bytes: &[u8], opts: &Options) -> usize {
    let reader = Box::new(std::io::Cursor::new(bytes.to_vec()));
    let Ok((_, games)) = formats::open(name, reader, &ReadOptions::default()) else {
        return 0;
    };
    games
        .filter_map(Result::ok)
        .map(|mut g| g.replay(opts).valid)
        .filter(|&valid| valid)
        .count()
}

fn text_row(c: &mut Criterion, row: &str, text: &str) {
    let games = replay_all("bench.gamerec", text.as_bytes(), &validate_quiet());
    let mut g = c.benchmark_group(row);
    g.sample_size(10);
    g.throughput(Throughput::Elements(games as u64));
    g.bench_function("validate -q", |b| {
        b.iter(|| replay_all("bench.gamerec", text.as_bytes(), &validate_quiet()))
    });
    g.finish();
}

fn table(c: &mut Criterion) {
    // WTHOR database, `validate -q`
    let wtb = corpus::wthor_file(20_000, 1);
    let names = std::sync::Arc::new(wthor::Names::default());
    let mut g = c.benchmark_group("wthor database");
    g.sample_size(10);
    g.throughput(Throughput::Elements(20_000));
    g.bench_function("validate -q", |b| {
        b.iter(|| {
            wthor::games(wtb.clone(), Box::new(std::io::empty()), names.clone())
                .map(|games| {
                    games
                        .filter_map(Result::ok)
                        .map(|mut g| g.replay(&validate_quiet()).valid)
                        .filter(|&valid| valid)
                        .count()
                })
                .unwrap_or(0)
        })
    });
    // `convert --to json` against `validate --format json`
    g.bench_function("validate --format json", |b| {
        b.iter(|| {
            wthor::games(wtb.clone(), Box::new(std::io::empty()), names.clone())
                .map(|games| {
                    games
                        .filter_map(Result::ok)
                        .map(|mut g| {
                            let r = g.replay(&validate_json());
                            serde_json::to_vec(&r.result_extras).map_or(0, |v| v.len())
                        })
                        .sum::<usize>()
                })
                .unwrap_or(0)
        })
    });
    let convert = Options::keeping(gamerec::sink::Record);
    g.bench_function("convert --to json", |b| {
        b.iter(|| {
            wthor::games(wtb.clone(), Box::new(std::io::empty()), names.clone())
                .map(|games| {
                    // as `convert` writes: games gathered in one buffer,
                    // passed on in pieces
                    let mut out = Vec::new();
                    let mut written = 0;
                    for mut g in games.filter_map(Result::ok) {
                        let r = g.replay(&convert);
                        out.extend_from_slice(b",\n    ");
                        formats::json::write_report(&mut out, &r, 4);
                        if out.len() >= 256 * 1024 {
                            written += out.len();
                            out.clear();
                        }
                    }
                    written + out.len()
                })
                .unwrap_or(0)
        })
    });
    g.finish();

    text_row(c, "gamerec text (reversi)", &corpus::reversi_text(5_000, 2));
    text_row(c, "blokus text", &corpus::blokus_text(200, 3));
    text_row(c, "qwirkle text", &corpus::qwirkle_text(600));
    text_row(c, "deblockle text", &corpus::deblockle_text(1_000, 4));

    // `perft reversi N`: one thread; depth 9 here (depth 12 in compare.sh)
    let mut g = c.benchmark_group("perft reversi");
    g.sample_size(10);
    g.throughput(Throughput::Elements(perft(Bitboard::START, 9)));
    g.bench_function("depth 9", |b| b.iter(|| perft(Bitboard::START, 9)));
    g.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
