//! `convert --to wthor`: records written per second, most of it the exact
//! endgame search of each game's theoretical score, at the depths 12, 14
//! (the default for games without a stored theoretical score) and 16. The
//! games: 20 random legal games to the end from a fixed seed (the shared
//! corpus generator).

#[path = "support/corpus.rs"]
mod corpus;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::formats::Losses;
use gamerec::formats::wthor::{NameList, PLAYER_LEN, TOURNAMENT_LEN, WtbWriter};
use gamerec::games::reversi::notation::square_name;
use gamerec::model::DocGame;

fn games(n: usize) -> Vec<DocGame> {
    let mut rng = corpus::Rng(0x2545_f491_4f6c_dd1d);
    (0..n)
        .map(|_| {
            let (squares, _) = corpus::reversi_game(&mut rng);
            DocGame::written(
                "reversi",
                Some("wof"),
                &[("Game", "reversi"), ("Variant", "wof")],
                squares.iter().map(|&sq| square_name(sq)),
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let games = games(20);
    let mut group = c.benchmark_group("wthor_write");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.sample_size(10);
    for depth in [12u8, 14, 16] {
        group.bench_function(format!("depth_{depth}"), |b| {
            b.iter(|| {
                let mut w = WtbWriter::new(
                    NameList::new(PLAYER_LEN),
                    NameList::new(TOURNAMENT_LEN),
                    Some(depth),
                );
                let mut losses = Losses::default();
                for g in &games {
                    let _ = w.record(g, &mut losses);
                }
                w.games()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
