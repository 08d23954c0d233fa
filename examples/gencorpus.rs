//! Writes a generated corpus for the speed table (see `benches/compare.sh`):
//!
//! ```text
//! cargo run --release --example gencorpus -- KIND GAMES OUT [SEED]
//! ```
//!
//! KIND: `wthor` (a `.wtb` file), `reversi` (gamerec text, WTHOR-style tags),
//! `blokus`, `qwirkle`, `deblockle`, `blokus3d` (gamerec text).

#[path = "../benches/support/corpus.rs"]
mod corpus;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(kind), Some(n), Some(out)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!(
            "usage: gencorpus wthor|reversi|blokus|qwirkle|deblockle|blokus3d GAMES OUT [SEED]"
        );
        std::process::exit(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("GAMES must be a number");
        std::process::exit(2);
    };
    let seed = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x2545_f491_4f6c_dd1d);
    let bytes = match kind.as_str() {
        "wthor" => corpus::wthor_file(n, seed),
        "reversi" => corpus::reversi_text(n, seed).into_bytes(),
        "blokus" => corpus::blokus_text(n, seed).into_bytes(),
        "qwirkle" => corpus::qwirkle_text(n).into_bytes(),
        "deblockle" => corpus::deblockle_text(n, seed).into_bytes(),
        "blokus3d" => corpus::blokus3d_text(n, seed).into_bytes(),
        other => {
            eprintln!("unknown kind `{other}`");
            std::process::exit(2);
        }
    };
    if let Err(e) = std::fs::write(out, bytes) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(2);
    }
}
