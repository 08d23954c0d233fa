//! A WTHOR year read and replayed on one core from the plain file and from
//! the same file compressed (the goal: `.gz` and `.zst` within 15% of the
//! plain file). Each run opens the file as every command does
//! (`pipeline::open`: the magic bytes, the decoder, the format's reader)
//! and replays every game as `validate` does. Uses
//! `../shared/data/wthor/WTH_2004.wtb` beside the repository when present,
//! else the small year in the fixtures; the compressed copies are made in
//! a temporary folder.

use std::io::Write;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamerec::codec::{Codec, Encoder};
use gamerec::formats::ReadOptions;
use gamerec::pipeline;
use gamerec::replay::Options;

fn load() -> Option<(&'static str, Vec<u8>)> {
    [
        "../shared/data/wthor/WTH_2004.wtb",
        "fixtures/wthor/valid/WTH_1978.wtb",
    ]
    .into_iter()
    .find_map(|f| std::fs::read(f).ok().map(|b| (f, b)))
}

/// The games of `file` read and replayed: how many are valid.
fn validate(file: &str, opts: &Options) -> usize {
    let Ok((_, games)) = pipeline::open(file, None, &ReadOptions::default()) else {
        return 0;
    };
    games
        .filter_map(Result::ok)
        .map(|mut g| g.replay(opts).valid)
        .filter(|&valid| valid)
        .count()
}

fn bench(c: &mut Criterion) {
    let Some((name, bytes)) = load() else {
        return;
    };
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let base = std::path::Path::new(name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut files = vec![("plain", dir.path().join(&base))];
    let _ = std::fs::write(&files[0].1, &bytes);
    for codec in Codec::ALL {
        let path = dir.path().join(format!("{base}.{}", codec.extension()));
        let written = std::fs::File::create(&path).and_then(|f| {
            let mut e = Encoder::new(Some(codec), f)?;
            e.write_all(&bytes)?;
            e.finish().map(|_| ())
        });
        if written.is_ok() {
            files.push((codec.name(), path));
        }
    }
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else {
        return;
    };
    let opts = Options::keeping(gamerec::sink::Brief);
    let plain = files[0].1.to_string_lossy().into_owned();
    let games = validate(&plain, &opts);
    let mut g = c.benchmark_group("compressed_wthor");
    g.throughput(Throughput::Elements(games as u64));
    g.sample_size(10);
    for (label, path) in &files {
        let file = path.to_string_lossy().into_owned();
        g.bench_function(*label, |b| {
            b.iter(|| pool.install(|| assert_eq!(validate(&file, &opts), games)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
