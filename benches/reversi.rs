//! Reversi speed: perft, and records parsed and replayed per second
//! (spec §4: 500,000 games per second per core or more).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::games::reversi::engine::{Position, flips, legal_moves, perft};
use gamerec::games::reversi::notation::square_name;
use gamerec::record::parse_file;
use gamerec::replay::{Options, replay};

/// `n` pseudo-random complete games as one gamerec text (compact transcripts).
fn games_text(n: usize) -> String {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut out = String::new();
    for _ in 0..n {
        let mut pos = Position::START;
        out.push_str("[Game \"reversi\"]\n");
        while !pos.is_over() {
            let (p, o) = pos.mover();
            let legal = legal_moves(p, o);
            if legal == 0 {
                pos.pass();
                continue;
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let mut bits = legal;
            for _ in 0..(s % u64::from(legal.count_ones())) {
                bits &= bits - 1;
            }
            let sq = bits.trailing_zeros();
            pos.play(sq, flips(p, o, sq));
            out.push_str(&square_name(sq as u8));
        }
        out.push('\n');
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("reversi");
    g.sample_size(10);
    g.bench_function("perft 7", |b| b.iter(|| perft(Position::START, 7)));
    g.bench_function("perft 9", |b| b.iter(|| perft(Position::START, 9)));
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
