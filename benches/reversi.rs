//! Reversi speed: perft, and records parsed and replayed per second
//! (spec §4: 500,000 games per second per core or more).

#[path = "support/corpus.rs"]
mod corpus;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::games::reversi::engine::{Bitboard, perft};
use gamerec::games::reversi::notation::square_name;
use gamerec::record::parse_file;
use gamerec::registry::replay;
use gamerec::replay::Options;

/// `n` pseudo-random complete games as one gamerec text (compact transcripts).
fn games_text(n: usize) -> String {
    let mut rng = corpus::Rng(0x2545_f491_4f6c_dd1d);
    let mut out = String::new();
    for _ in 0..n {
        out.push_str("[Game \"reversi\"]\n");
        let (squares, _) = corpus::reversi_game(&mut rng);
        for sq in squares {
            out.push_str(&square_name(sq));
        }
        out.push('\n');
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("reversi");
    g.sample_size(10);
    g.bench_function("perft 7", |b| b.iter(|| perft(Bitboard::START, 7)));
    g.bench_function("perft 9", |b| b.iter(|| perft(Bitboard::START, 9)));
    let n = 2000;
    let text = games_text(n);
    g.throughput(Throughput::Elements(n as u64));
    let opts = Options::default();
    g.bench_function("parse and replay (games)", |b| {
        b.iter(|| {
            let games = parse_file(&text);
            games
                .iter()
                .filter(|raw| replay(raw, &text, &opts).valid)
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
